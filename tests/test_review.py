"""``pan review``: the analyzer annotates played hands (T1, P1/P3, P4, P5 judged; marks by size).

The planted-mistakes tests play simulated hands with the self-play generator under a deliberately
bad policy (laying no condition the hand holds beyond the drawn card's meld, P4; going on top with
the strongest hands, T1) and check that the reviewer finds those mistakes, and that hands played
by the analyzer's own policy (its discard rule and its stay-or-top advice) earn few marks.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from cli_kit import SAMPLES, pan
from msgspec.structs import replace

import pancli.referee.simulate as sim
from pancli.analyze.advice import advise
from pancli.analyze.analysis import analyze
from pancli.analyze.odds import discard_choice
from pancli.analyze.review import CHIPS_MARKS, ODDS_MARKS, Choice, Options, Play, Z, judge_decision, mark_of
from pancli.app.replay import referee
from pancli.app.review import HandReview, PastLimit, review_hand
from pancli.cards import ALL_CARDS
from pancli.meldspace import SLOT_CARDS, encode
from pancli.model.actions import Decision, Discard, HandScript, Turn
from pancli.notation import parse_card
from pancli.notation.record_writer import write_scripts
from pancli.panrules import PanRules
from pancli.records import read_hands
from pancli.referee.position import position_at
from pancli.render.review import annotate, play_text, reason_text, review_text
from pancli.rules import HOYLE

FAST = Options(samples=100, advice_samples=40)
"""Enough paths for the tests (the marks only need the sizes past their errors)."""
FAST_ARGS = ("--samples", "100", "--advice-samples", "40", "-q")
QUICK_ARGS = ("--samples", "20", "--advice-samples", "10", "--depth", "2", "-q")
"""For tests of the record's form, not of the marks."""


def _reviewed(text: str, opts: Options = FAST) -> list[HandReview]:
    return [review_hand(h, h.script, referee(h.script), opts) for h in read_hands(io.StringIO(text), "-", None)]


# --------------------------------------------------------------------------- marks


def test_review_marks_follow_the_documented_thresholds() -> None:
    assert [mark_of(u, 0.0, 0.0, 0.0) for u, _ in CHIPS_MARKS] == ["??", "?", "?!"]
    assert [mark_of(0.0, 0.0, p, 0.0) for p, _ in ODDS_MARKS] == ["??", "?", "?!"]
    assert mark_of(1.99, 0.0, 0.049, 0.0) == ""
    assert mark_of(3.0, 0.0, 0.21, 0.0) == "??"  # the larger of the two


def test_review_never_marks_within_the_stated_error() -> None:
    # a drop of 30 points of odds with a standard error of 0.15 is within Z errors: no mark
    assert mark_of(0.0, 0.0, 0.30, 0.30 / Z) == ""
    assert mark_of(0.0, 0.0, 0.30, 0.30 / Z - 0.01) == "??"
    assert mark_of(9.0, 9.0 / Z, 0.0, 0.0) == ""


# --------------------------------------------------------------------------- the annotated record


HAND = """[Players "Ana Ben"]

deal Ana 5s 5s 3h 4h Kd Kh Kc Jc Qc 2d
deal Ben 7s 2c Qd 6c 4s Jh 3d Ac 6d 2s
up 6h
Ana stay
Ben stay
Ana draw 5s, meld [5s 5s 5s], discard Qc
Ben draw 7c, discard 7c
"""
"""Ana lays the spade valles but keeps Kd Kh Kc and throws the queen of her J-Q-K of clubs: the
analyzer lays [Jc Qc Kc] too (C5: one more unit from Ben, P4)."""


def test_review_P4_marks_a_meld_left_in_the_hand_and_names_the_better_play() -> None:
    (r,) = _reviewed(HAND)
    melds = [j for j in r.judgements if j.kind == "meld" and j.line == 8]
    assert len(melds) == 1
    j = melds[0]
    assert play_text(j.best) == "meld [5s 5s 5s], meld [Jc Qc Kc]" and j.mark == ""
    assert 0 < j.chips < 1.0  # the unit of [Jc Qc Kc] is delayed, not lost: less than it, and below ?!
    assert "review" not in review_text(r)


def test_review_comment_and_glyph_are_the_reviewers_own_and_a_second_review_replaces_them() -> None:
    text = HAND.replace("discard Qc", "discard Qc ! {kept}")
    (hand,) = read_hands(io.StringIO(text), "-", None)
    (r,) = _reviewed(text)
    judged = [j for j in r.judgements if j.kind == "discard"]
    assert judged
    planted = [replace(judged[0], mark="?", best=Play((Discard(parse_card("Kd")),)))]
    once = annotate(hand, planted)
    assert "discard Qc ! {kept} {review (?): better discard Kd" in once  # the record's own glyph stays
    (again,) = read_hands(io.StringIO(once), "-", None)
    twice = annotate(again, [replace(planted[0], mark="??")])
    assert twice.count("{review") == 1 and "{review (??):" in twice and "{kept}" in twice
    (bare,) = read_hands(io.StringIO(HAND), "-", None)
    own = annotate(bare, planted)
    assert "discard Qc ? {review ?: better discard Kd" in own
    (own_hand,) = read_hands(io.StringIO(own), "-", None)
    assert annotate(own_hand, []) == annotate(bare, [])  # the glyph it owned goes with its comment


def test_review_stay_or_top_mark_goes_in_a_comment_after_the_decision() -> None:
    (hand,) = read_hands(io.StringIO(HAND), "-", None)
    (r,) = _reviewed(HAND)
    decision = next(j for j in r.judgements if j.kind == "decision")
    text = annotate(hand, [replace(decision, mark="?", best=Play(choice=Choice.TOP))])
    assert "Ana stay {review (?): better top" in text
    assert pan("fmt", "-", input=text).stdout == text


# --------------------------------------------------------------------------- the command


def _samples() -> list[str]:
    return sorted(p.name for p in SAMPLES.glob("*.pan"))


@pytest.mark.slow
@pytest.mark.parametrize("name", _samples())
def test_review_works_on_every_shipped_sample_and_round_trips(name: str, tmp_path: Any) -> None:
    path = str(SAMPLES / name)
    for toml in SAMPLES.glob("*.toml"):  # a Rules tag names its house rules beside the record
        (tmp_path / toml.name).write_text(toml.read_text())
    got = pan("review", *QUICK_ARGS, path)
    replayed = pan("replay", "--json", path)
    broken = replayed.exit_code == 2 or any(h.get("violations") or h.get("error") for h in json.loads(replayed.stdout))
    assert got.exit_code == (1 if broken else 0), got.stderr  # a wrong claim is the replay's business
    assert "Traceback" not in got.stderr
    text = got.stdout
    reviewed = tmp_path / name
    reviewed.write_text(text)
    assert pan("fmt", str(reviewed)).stdout == text  # canonical: pan fmt leaves it as it is
    again = pan("review", *QUICK_ARGS, str(reviewed))
    assert again.stdout == text  # a second review replaces the first: nothing stacks
    before = [_results(h) for h in json.loads(replayed.stdout)]
    after = [_results(h) for h in json.loads(pan("replay", "--json", str(reviewed)).stdout)]
    assert after == before  # the same results as the original


def _results(hand: dict[str, Any]) -> dict[str, Any]:
    v = hand.get("violations") or []
    return {
        "winner": hand.get("winner"),
        "ledger": hand.get("ledger"),
        "payments": [(p["payer"], p["payee"], p["units"], p["rule"]) for p in hand.get("payments", [])],
        "violations": [(x["rule"], x["player"]) for x in v],
        "claims_ok": hand.get("claims_ok"),
    }


def test_review_counts_the_decisions_of_players_whose_cards_are_unknown() -> None:
    got = pan("review", "--summary", *FAST_ARGS, str(SAMPLES / "kitchen-table-unknown-hands.pan"))
    assert got.exit_code == 0
    assert "Ana: not reviewed: Ana's cards unknown: 5 lines from line 10\n" in got.stdout
    assert got.stdout.startswith("player")


def test_review_stops_at_the_first_violation_and_exits_1() -> None:
    got = pan("review", "--json", *FAST_ARGS, str(SAMPLES / "illegal-P8-forcing.pan"))
    assert got.exit_code == 1
    data = json.loads(got.stdout)
    assert data["errors"][0]["rule"] == "P8" and ":28:8: P8 " in got.stderr
    assert all(j["line"] < 28 for j in data["judgements"] if j["kind"] != "foul")
    (foul,) = [j for j in data["judgements"] if j["kind"] == "foul"]  # the illegal play itself
    assert foul["line"] == 28 and foul["mark"] == "??" and foul["note"].startswith("P8: ")
    assert all("the hand breaks P8 at line 28" in s["reason"] for s in data["not_reviewed"])


def test_review_json_gives_each_judgement_as_data() -> None:
    got = pan("review", "--json", *FAST_ARGS, str(SAMPLES / "friday-hoyle.pan"))
    data = json.loads(got.stdout)
    j = data["judgements"][0]
    for field in ("hand", "line", "player", "played", "best", "chips", "odds", "mark"):
        assert field in j
    kinds = {x["kind"] for x in data["judgements"]}
    assert kinds == {"decision", "draw", "meld", "discard"}
    rows = {r["player"]: r for r in data["summary"]}
    assert sum(r["reviewed"] for r in rows.values()) == len(data["judgements"])
    lines = pan("review", "--jsonl", *FAST_ARGS, str(SAMPLES / "friday-hoyle.pan")).stdout.splitlines()
    events = [json.loads(x) for x in lines]
    assert [e for e in events if e["event"] == "judgement"] == [{"event": "judgement", **x} for x in data["judgements"]]
    assert [e["player"] for e in events if e["event"] == "summary"] == list(rows)


def test_review_player_reviews_one_player() -> None:
    data = json.loads(pan("review", "--json", "--player", "Ana", *FAST_ARGS, str(SAMPLES / "friday-hoyle.pan")).stdout)
    assert {j["player"] for j in data["judgements"]} == {"Ana"}


@pytest.mark.slow
def test_review_jobs_gives_the_output_of_one_process() -> None:
    text = pan("simulate", "--players", "4", "--hands", "3", "--seed", "5").stdout
    one = pan("review", *FAST_ARGS, "-", input=text)
    two = pan("review", *FAST_ARGS, "--jobs", "2", "-", input=text)
    assert (two.exit_code, two.stdout, two.stderr) == (one.exit_code, one.stdout, one.stderr)
    assert one.stdout.count("[Players") == 3


@pytest.mark.slow
def test_review_jobs_over_the_samples_gives_the_output_of_one_process() -> None:
    """The reviews come back from the workers as MessagePack values (the model's tagged unions, a
    malformed hand's notation error, PAGRUC hands not reviewed): every sample reviews byte for
    byte as in one process, the annotated record and ``--jsonl``."""
    files = [str(p) for p in sorted(SAMPLES.glob("*.pan"))]
    args = ("--samples", "20", "--advice-samples", "10", "--depth", "1", "-q")
    for form in ((), ("--jsonl",)):
        one = pan("review", *args, *form, *files)
        two = pan("review", *args, *form, "--jobs", "2", *files)
        assert (two.exit_code, two.stdout, two.stderr) == (one.exit_code, one.stdout, one.stderr)
        assert one.stdout.count("[Players" if not form else '"event":"judgement"') > 10


def test_review_output_file_is_written_and_the_summary_goes_to_stdout(tmp_path: Any) -> None:
    out = tmp_path / "r.pan"
    got = pan("review", *FAST_ARGS[:-1], "-o", str(out), str(SAMPLES / "friday-hoyle.pan"))
    assert got.exit_code == 0 and got.stdout.startswith("player")
    quiet = pan("review", *FAST_ARGS, "-o", str(out), str(SAMPLES / "friday-hoyle.pan"))
    assert quiet.exit_code == 0 and quiet.stdout == quiet.stderr == ""  # --quiet: nothing but errors
    assert out.read_text() == pan("review", *FAST_ARGS, str(SAMPLES / "friday-hoyle.pan")).stdout


def test_review_html_adds_the_marks_to_the_replay_report(tmp_path: Any) -> None:
    page, record = tmp_path / "r.html", tmp_path / "r.pan"
    got = pan("review", *FAST_ARGS, "--html", str(page), "-o", str(record), str(SAMPLES / "friday-hoyle.pan"))
    assert got.exit_code == 0
    html = page.read_text()
    assert html.count('<section class="hand"') == 2 and html.rstrip().endswith("</html>")
    text = record.read_text()
    first = next(line for line in text.splitlines() if "{review" in line)
    comment = first[first.index("{review") : first.index("}", first.index("{review")) + 1]
    assert comment[1:-1].replace("<", "&lt;") in html  # the reviewer's comment in the timeline (no { } marks)
    assert f"{record}, hand 2 (lines 39-" in html  # lines as in the reviewed record
    # the reviewer's marks and comments are told apart from the record's own (a style of their own)
    assert '<span class="glyph review">' in html and '<span class="review">review ' in html
    assert '<span class="glyph">?!</span>' in html  # Eli's own ?! on line 26 stays the record's


def test_S3_the_review_page_rules_each_hand_as_the_review_did(tmp_path: Any) -> None:
    """Hand 2 of illegal-S3-next-hand-order.pan is seated out of order (S3, line 41): the page
    rules it so, as the review and the replay do, judging it after hand 1 (alone it breaks T1)."""
    page = tmp_path / "r.html"
    got = pan("review", *FAST_ARGS, "--html", str(page), str(SAMPLES / "illegal-S3-next-hand-order.pan"))
    assert got.exit_code == 1 and ":41:1: S3 Cruz won the last hand" in got.stderr
    html = page.read_text()
    assert "S3 Cruz won the last hand and is first hand in this one" in html
    assert "Dee decides next in order of play" not in html  # what refereeing hand 2 alone finds (T1)


def test_review_R5_player_seated_in_no_hand_is_a_usage_error(tmp_path: Any) -> None:
    out = tmp_path / "r.pan"
    got = pan("review", *FAST_ARGS, "--player", "Zed", "-o", str(out), str(SAMPLES / "friday-hoyle.pan"))
    assert got.exit_code == 2 and "R5 --player Zed: nobody of that name is seated" in got.stderr
    assert not out.exists()  # nothing written


@pytest.mark.parametrize("form", [(), ("--jsonl",), ("--json",)])
def test_review_R5_player_seated_in_no_hand_is_refused_before_any_output(form: tuple[str, ...]) -> None:
    got = pan("review", *FAST_ARGS, *form, "--player", "Zed", str(SAMPLES / "friday-hoyle.pan"))
    assert got.exit_code == 2 and got.stdout == ""
    assert got.stderr == "pan: R5 --player Zed: nobody of that name is seated in the 2 hands reviewed\n"


def test_review_player_first_seated_in_a_later_file_gets_every_hand_in_order() -> None:
    # the hands before the one NAME is seated in are held, then written in record order
    files = (str(SAMPLES / "friday-hoyle.pan"), str(SAMPLES / "cardroom-saturday.pan"))
    got = pan("review", *FAST_ARGS, "--player", "Gil", *files)
    assert got.exit_code == 0, got.stderr
    friday = pan("review", *FAST_ARGS, "--player", "Gil", files[0])
    assert friday.exit_code == 2 and friday.stdout == ""
    alone = pan("review", *FAST_ARGS, *files).stdout
    assert got.stdout.count("[Event") == alone.count("[Event") > 2
    assert got.stdout.index("Ana Ben Cruz Dee Eli") < got.stdout.index("Gil Hal Ida Jo Kim Lou")


def test_review_summary_gives_units_given_up_per_100_decisions() -> None:
    got = pan("review", "--json", *FAST_ARGS, str(SAMPLES / "friday-hoyle.pan"))
    data = json.loads(got.stdout)
    for row in data["summary"]:
        mine = [j for j in data["judgements"] if j["player"] == row["player"]]
        assert row["reviewed"] == len(mine)
        assert row["per_100"] == pytest.approx(100 * sum(j["chips"] for j in mine) / len(mine), abs=0.01)
    table = pan("review", "--summary", *FAST_ARGS, str(SAMPLES / "friday-hoyle.pan")).stdout
    assert table.splitlines()[0].split("  ")[-2].strip() == "per 100 decisions"


def test_review_usage_errors_exit_2(tmp_path: Any) -> None:
    assert pan("review", "--summary", "--json", str(SAMPLES / "friday-hoyle.pan")).exit_code == 2
    assert pan("review", str(tmp_path / "missing.pan")).exit_code == 2
    assert pan("review", "--depth", "0", str(SAMPLES / "friday-hoyle.pan")).exit_code == 2


# --------------------------------------------------------------------------- planted mistakes


def _text(scripts: list[HandScript]) -> str:
    return "".join(write_scripts(scripts))


class _Lazy:
    """A bad policy: after using his draw, the player lays nothing more (no other meld, no addition),
    P4; a planted mistake wherever the generator would have laid a condition from his hand. (The
    analyzer ranks arrangements by cards down first: where its best lays a longer meld that pays
    nothing, say [As Ah Ah Ah] for the paying [Ah Ah Ah], it collects no more than the lazy play, so
    a few planted mistakes are no loss by its measure.)"""

    def __init__(self) -> None:
        self.planted: list[tuple[str, int]] = []

    def finish(self, play: Any, p: str, hand: list[int], melds: Any, actions: list[Any]) -> None:
        pays = False
        for k, c in enumerate(hand):
            m = play.policy.best_with(c, hand[:k] + hand[k + 1 :])
            if m is not None and play.policy.value(m) > 0:
                pays = True
        if pays:
            self.planted.append((p, len(play.events)))
        if hand:
            play._discard(p, hand, -1, actions)
        else:
            play._end(p, hand, actions)


def _played(seeds: range) -> list[tuple[HandScript, Any, HandReview]]:
    """Each seed's hand as played (the generator as patched), read back (its lines) and reviewed."""
    out = []
    for seed in seeds:
        (script,) = sim.simulate_hands(("Ana", "Ben", "Cruz", "Dee"), 1, seed, HOYLE)
        (hand,) = read_hands(io.StringIO(_text([script])), "-", None)
        assert hand.script is not None
        (r,) = _reviewed(hand.text)
        out.append((script, hand.script, r))
    return out


@pytest.mark.slow
def test_review_P4_finds_the_planted_mistakes_of_a_lazy_melder(monkeypatch: pytest.MonkeyPatch) -> None:
    lazy = _Lazy()
    monkeypatch.setattr(sim._HandPlay, "_finish", lambda self, p, *rest: lazy.finish(self, p, *rest))
    found = planted = marked = 0
    for seed in range(1, 9):
        lazy.planted.clear()
        ((_, read, r),) = _played(range(seed, seed + 1))
        by_line = {j.line: j for j in r.judgements if j.kind == "meld"}
        for p, i in lazy.planted:
            ev = read.events[i] if i < len(read.events) else None  # (a deal dealt again leaves stale entries)
            if isinstance(ev, Turn) and ev.player == p:
                planted += 1
                j = by_line.get(ev.line)
                found += j is not None and j.chips > 0
                marked += j is not None and j.mistake
    # a held-back meld is a collection delayed, not lost: each gives up its expected value, and the
    # larger ones a mark (the lazy player never lays them, but the reviewer judges each play alone)
    assert planted >= 5 and found >= 0.75 * planted and marked >= 0.3 * planted, (found, marked, planted)


@pytest.mark.slow
def test_review_T1_finds_the_planted_mistakes_of_going_on_top_with_strong_hands(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The strongest hands go on top; a planted mistake is one that a precise advice (200 simulated
    hands, another seed) says gives up at least the ``?`` size beyond its error. The reviewer, at
    its own settings, must find most of them."""
    strength = sim._strength
    monkeypatch.setattr(sim, "_strength", lambda hand: 0 if strength(hand) >= 8 else 10)  # the strong go on top
    precise = Options(advice_samples=200, seed=99)
    found = planted = 0
    for script, read, r in _played(range(1, 9)):
        by_line = {j.line: j for j in r.judgements if j.kind == "decision"}
        for d in script.deals:
            e = next(e for e in read.events if isinstance(e, Decision) and e.player == d.player)
            if strength([c.index for c in d.cards]) < 8 or e.stay:
                continue
            pos = position_at(read, e.line, e.player)
            oracle = judge_decision(e.player, e.line, pos.hand, pos.seen, False, pos.profile, pos.players, precise)
            if oracle.mark in ("?", "??"):
                planted += 1
                j = by_line.get(e.line)
                found += j is not None and j.mistake
    assert planted >= 4 and found >= 0.8 * planted, (found, planted)


@pytest.mark.slow
def test_review_marks_few_plays_of_the_analyzers_own_policy(monkeypatch: pytest.MonkeyPatch) -> None:
    def analyzer_discard(hand: list[int], avoid: int) -> int:
        cards = [ALL_CARDS[i] for i in hand if i != avoid]
        return SLOT_CARDS[discard_choice(encode(cards))].index

    def advised(hand: list[int]) -> int:
        rules = PanRules(HOYLE)
        a = analyze([ALL_CARDS[i] for i in hand], HOYLE, players=4, samples=100, turns=1, rules=rules)
        adv = advise(a, rules, samples=FAST.advice_samples, seed=FAST.seed)
        return 10 if adv.stay >= adv.top else 0

    monkeypatch.setattr(sim, "_least_useful", analyzer_discard)
    monkeypatch.setattr(sim, "_strength", advised)
    reviews = _reviewed(_text(list(sim.simulate_hands(("Ana", "Ben", "Cruz", "Dee"), 4, 3, HOYLE))))
    judged = [j for r in reviews for j in r.judgements]
    mistakes = [j for j in judged if j.mistake]
    assert len(judged) >= 40
    assert len(mistakes) <= 0.1 * len(judged), [
        (j.kind, play_text(j.played), play_text(j.best), j.mark) for j in mistakes
    ]


# --------------------------------------------------------------------------- what the referee tells the reviewer


def _script(name: str) -> HandScript:
    with (SAMPLES / name).open() as f:
        (hand,) = read_hands(f, name, SAMPLES)
    assert hand.script is not None
    return hand.script


def test_position_P3_offers_the_live_discard_on_the_players_own_turn_line() -> None:
    script = _script("tutorial-four-handed.pan")
    first = position_at(script, 19, "Ana")  # the first player may take the upcard
    took = position_at(script, 23, "Ana")  # Ana takes Dee's unused Kc
    after_hand_discard = position_at(script, 20, "Ben")  # Ana threw 2d from her hand: dead
    assert (str(first.offered), str(took.offered), after_hand_discard.offered) == ("6h", "Kc", None)
    assert not (first.forced or took.forced or first.keeps_draw)
    assert position_at(script, 20, "Ana").offered is None  # not his turn line


def test_position_P8_says_the_take_was_forced_and_the_reviewer_does_not_judge_it() -> None:
    script = _script("illegal-P8-forcing.pan")  # cardroom: Kim draws though the live 5c fits his meld
    pos = position_at(script, 28, "Kim")
    assert pos.forced and str(pos.offered) == "5c" and pos.draw_violation is not None


def test_position_P9_says_the_unused_draw_must_be_kept() -> None:
    script = _script("illegal-P9-flat-player.pan")  # Ana is flat; Hal draws the Jd that fits her rope
    pos = position_at(script, 35, "Hal")
    assert pos.keeps_draw and str(pos.drawn) == "Jd"
    assert not position_at(script, 34, "Fay").keeps_draw


def test_review_P9_judges_the_discard_of_a_kept_draw_among_the_hand_cards() -> None:
    text = (
        (SAMPLES / "illegal-P9-flat-player.pan")
        .read_text()
        .replace("Hal draw Jd, discard Jd ??", "Hal draw Jd, discard Qs")
    )
    (r,) = _reviewed(text)
    (j,) = [j for j in r.judgements if j.line == 35]
    assert j.kind == "discard" and play_text(j.played) == "discard Qs"
    assert play_text(j.best) in (
        "discard Qs",
        "discard Ks",
        "discard Kd",
    )  # never the kept Jd (nor his own: copies are one)


def test_review_stops_at_its_limit_of_play_lines_and_counts_the_rest(monkeypatch: pytest.MonkeyPatch) -> None:
    import pancli.app.review as app_review

    monkeypatch.setattr(app_review, "MAX_REVIEWED_LINES", 3)
    (r,) = _reviewed(HAND)
    assert max(j.line for j in r.judgements) == 8  # the 3rd play line is Ana's turn on line 8
    assert [(s.player, s.line, s.count) for s in r.skipped] == [("Ben", 9, 1)]
    assert r.skipped[0].reason == PastLimit(3)
    assert reason_text(r.skipped[0]) == "past the first 3 play lines of the hand"


def test_review_in_place_leaves_a_record_with_a_malformed_hand_unchanged(tmp_path: Any) -> None:
    """A malformed hand's text is what the reader kept of it (a line past the limit cut): -o onto
    the record read refuses, as pan fmt --write does, and the file keeps every byte."""
    record = tmp_path / "long.pan"
    text = "; " + "x" * 150_000 + "\n" + (SAMPLES / "friday-hoyle.pan").read_text(encoding="utf-8")
    record.write_text(text, encoding="utf-8")
    got = pan("review", *FAST_ARGS, str(record), "-o", str(record))
    assert got.exit_code == 1
    assert "left unchanged: 1 malformed hand(s)" in got.stderr
    assert record.read_text(encoding="utf-8") == text
    assert [p.name for p in tmp_path.iterdir()] == ["long.pan"]  # no temporary file left


@pytest.mark.parametrize("command", ["review", "replay"])
def test_html_onto_a_record_read_is_refused(command: str, tmp_path: Any) -> None:
    record = tmp_path / "f.pan"
    text = (SAMPLES / "friday-hoyle.pan").read_text(encoding="utf-8")
    record.write_text(text, encoding="utf-8")
    got = pan(command, *(FAST_ARGS if command == "review" else ()), str(record), "--html", str(record))
    assert got.exit_code == 2 and "is a record being read" in got.stderr
    assert record.read_text(encoding="utf-8") == text


@pytest.mark.parametrize(("option", "name"), [("-o", ""), ("--html", ""), ("--html", "-")])
def test_review_output_names_are_checked_as_every_writer_s(option: str, name: str, tmp_path: Any) -> None:
    got = pan("review", *FAST_ARGS, str(SAMPLES / "friday-hoyle.pan"), option, name)
    assert got.exit_code == 2 and "Invalid value" in got.stderr
    assert not (Path.cwd() / "-").exists()


def test_review_not_reviewed_lines_escape_the_file_name(tmp_path: Any) -> None:
    record = tmp_path / "k\x1b[31mred\nx.pan"
    record.write_text((SAMPLES / "kitchen-table-unknown-hands.pan").read_text(encoding="utf-8"), encoding="utf-8")
    got = pan("review", *FAST_ARGS, "--summary", str(record))
    assert "not reviewed" in got.stdout and "\x1b" not in got.stdout and "\x1b" not in got.stderr


def test_review_onto_its_own_input_names_review_s_option(tmp_path: Any) -> None:
    import subprocess
    import sys

    record = tmp_path / "f.pan"
    record.write_text((SAMPLES / "friday-hoyle.pan").read_text())
    with record.open("a") as out:  # as the shell's '>>' would: standard output is the record read
        got = subprocess.run([sys.executable, "-m", "pancli", "review", "-q", str(record)], stdout=out,
                             stderr=subprocess.PIPE, text=True, timeout=120, check=False)  # fmt: skip
    assert got.returncode == 2 and "use -o FILE" in got.stderr and "--write" not in got.stderr
