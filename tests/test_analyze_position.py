"""``pan analyze FILE --at LINE --player NAME``: the position engine and the command.

The expected hands are worked out by hand from samples/friday-hoyle.pan (line numbers of that file).
"""

from __future__ import annotations

import io
import json
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
from cli_kit import ROOT, pan
from click.testing import Result
from hypothesis import given, settings
from hypothesis import strategies as st
from msgspec.structs import replace
from profiles_kit import any_profile, rules_name

from pancli.analyze.analysis import analyze
from pancli.cards import Card
from pancli.model.actions import Deal, Decision, Discard, Draw, HandScript, Reshuffle, Turn
from pancli.model.results import Source
from pancli.notation.fast import fast_cards
from pancli.notation.record_writer import write_script
from pancli.records import read_hands
from pancli.referee.position import (
    Position,
    PositionUnavailable,
    PositionViolation,
    acting_player,
    position_at,
    table_now,
)
from pancli.referee.simulate import simulate_hands
from pancli.rulebook import Rule
from pancli.rules import HOYLE, Profile

FRIDAY = "samples/friday-hoyle.pan"
BEN_DEALT = "7s 2c Qd 6c 4s Jh 3d Ac 6d 2s"  # Ben goes on top in hand 1: his hand is dead
ELI_DEALT_2 = "3c 7d Kd 2h Jd 4c 6s Qs 5d As"  # Eli goes on top in hand 2


def cards(text: str) -> tuple[Card, ...]:
    got = fast_cards(text) if text else ()
    assert got is not None, text
    return got


def same(a: Iterable[Card], b: str) -> bool:
    """The same multiset of cards."""
    return Counter(a) == Counter(cards(b))


def script_of(name: str, hand: int = 1) -> HandScript:
    with open(ROOT / name, encoding="utf-8") as f:
        for h in read_hands(f, name, (ROOT / name).parent):
            if h.index == hand:
                assert h.script is not None
                return h.script
    raise AssertionError(f"{name} has no hand {hand}")


# --------------------------------------------------------------------------- the engine, on a sample


def test_position_between_turns_hand_melds_and_seen() -> None:
    # Cruz, dealt 7c 7c 7c Ah 2h 6s Qs Qs 4d Jd, drew 7c, laid the four 7c and threw Jd (line 24)
    p = position_at(script_of(FRIDAY), 27, "Cruz")
    assert same(p.hand, "Ah 2h 4d 6s Qs Qs") and p.drawn is None and p.drawn_from is None
    assert [m.cards for m in p.melds] == [cards("7c 7c 7c 7c")] and p.melded == 4
    assert p.discards == cards("6h 2d Jd 3c")  # the upcard, Ana's, Cruz's, Eli's; the Kc was taken
    assert same(p.others_melded, "5s 5s 5s Kd Kd Kc")
    assert same(p.dead, BEN_DEALT)
    assert p.players == 4 and not p.deciding and p.acting == "Ana" and p.turn == 4
    assert p.stock == 320 - 5 * 10 - 1 - 3  # three stock draws so far (Eli took the Kc)
    assert len(p.seen) == 4 + 6 + 10


def test_P1_own_turn_line_shows_the_card_drawn_from_the_stock() -> None:
    p = position_at(script_of(FRIDAY), 25, "Dee")
    assert p.drawn == cards("Kc")[0] and p.drawn_from is Source.STOCK
    assert same(p.hand, "3s 3s Js Qh Kh 5d 5c 6c 2h Ad") and p.turn == 2
    assert p.stock == 320 - 51 - 3  # Ana's, Cruz's and now Dee's draw
    other = position_at(script_of(FRIDAY), 25, "Eli")  # not his line: before Dee's draw
    assert other.drawn is None and other.stock == p.stock + 1


def test_P3_P8_forced_take_on_own_line_is_the_drawn_card() -> None:
    # line 27 Ana drew 7c and threw it (live); line 28 Dee forced Cruz; line 29 Cruz takes it
    p = position_at(script_of(FRIDAY), 29, "Cruz")
    assert p.drawn == cards("7c")[0] and p.drawn_from is Source.DISCARD_PILE
    assert same(p.hand, "Ah 2h 4d 6s Qs Qs") and p.discards == cards("6h 2d Jd 3c")
    assert p.acting == "Cruz" and p.turn == 5


def test_P7_flat_player_holds_nothing_and_has_ten_melded() -> None:
    p = position_at(script_of(FRIDAY), 37, "Ana")  # after line 36: Ana is flat
    assert p.hand == () and p.melded == 10
    assert [m.cards for m in p.melds] == [cards("5s 5s 5s"), cards("Ah 2h 3h 4h"), cards("Kd Kh Kc")]


def test_T1_decision_round_counts_the_players_not_on_top() -> None:
    p = position_at(script_of(FRIDAY, 2), 57, "Ana")  # Eli went on top on line 56
    assert p.deciding and p.players == 4 and p.acting == "Ana"
    assert same(p.hand, "As 2s 5c 5c Jd Qd Kd 6h 7d 3h") and p.melds == ()
    assert p.discards == cards("3s") and same(p.dead, ELI_DEALT_2)
    first = position_at(script_of(FRIDAY, 2), 40, "Ana")  # a tag line: before the first decision
    assert first.deciding and first.players == 5 and first.dead == ()


def test_I1_analyze_at_counts_a_retired_player_among_the_payers_not_the_active() -> None:
    """Dee retired (I1) on line 29; Ben went on top (T1): Eli's analysis at line 30 is of three
    active players, paid by three (the two active others and Dee, who still pays)."""
    r = pan("analyze", str(ROOT / "samples" / "irregular-I1-found-late.pan"), "--at", "30", "--samples", "20", "--json")
    doc = json.loads(r.output)
    assert (doc["players"], doc["opponents"]) == (3, 3), r.output


ALONE = """[Event "Test"]
[Rules "hoyle"]
[Players "Ana Ben Dee"]

deal Ana 5s 5s 3h 4h Kd Kh Kc Jc Qc 2d
deal Ben 7s 2c Qd 6c 4s Jh 3d Ac 6d 2s
up 6h
Ana stay
Ben top
Dee stay
1. Ana draw 7c, discard 7c
2. Dee draw 3s, meld [Qh Qh Qh Qh Qh Qh], meld [Qs Qs Qs Qs Qs Qs], discard 6c
3. Ana draw 5s, meld [5s 5s 5s], discard 2d
4. Ana draw Jd, discard Jd
"""


def test_S1_analyze_at_a_position_with_one_active_player_left_is_no_seating_fault(tmp_path: Path) -> None:
    """Ben went on top and Dee retired (I1): Ana plays on alone until she goes out (T4), so her
    position is analysed (one active player, Dee still paying), not refused as a table of one."""
    record = tmp_path / "alone.pan"
    record.write_text(ALONE, encoding="utf-8")
    r = pan("analyze", str(record), "--at", "14", "--player", "Ana", "--samples", "20", "--json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    assert (doc["players"], doc["opponents"]) == (1, 1)


def test_hand_two_take_of_a_live_discard() -> None:
    p = position_at(script_of(FRIDAY, 2), 65, "Ana")
    assert p.drawn == cards("5c")[0] and p.drawn_from is Source.DISCARD_PILE
    assert same(p.hand, "5c 5c 7d 3h")
    assert [m.cards for m in p.melds] == [cards("As 2s 3s"), cards("Jd Qd Kd")]
    assert p.discards == cards("3s 7s 4s 6h 3c Jc")
    assert same(p.others_melded, "3h 4h 5h 2s 2s 2s 6d 6d 6d 6d 7h 7h 7h")
    assert p.players == 4 and p.turn == 6 and p.stock == 269 - 6


def test_R5_S2_T3_no_position_for_strangers_unknown_hands_and_players_on_top() -> None:
    with pytest.raises(PositionUnavailable) as e:
        position_at(script_of(FRIDAY), 27, "Zed")
    assert e.value.rule == "R5"
    with pytest.raises(PositionUnavailable) as e:
        position_at(script_of("samples/kitchen-table-unknown-hands.pan"), 15, "Ana")
    assert e.value.rule == "S2" and "no deal line" in e.value.message
    assert position_at(script_of("samples/kitchen-table-unknown-hands.pan"), 15, "Dee").hand
    with pytest.raises(PositionUnavailable) as e:
        position_at(script_of(FRIDAY), 30, "Ben")
    assert e.value.rule == "T3"
    assert position_at(script_of(FRIDAY), 19, "Ben").deciding  # before he goes on top he has a hand


def test_I3_T4_closed_and_void_hands_have_no_position() -> None:
    with pytest.raises(PositionUnavailable) as e:
        position_at(script_of(FRIDAY), 10_000, "Ana")
    assert e.value.rule == "I3" and "Cruz has won" in e.value.message
    tops = "samples/cardroom-tops-and-borrowing.pan"
    with pytest.raises(PositionUnavailable) as e:
        position_at(script_of(tops, 1), 10_000, "Cruz")  # everybody else went on top
    assert e.value.rule == "T4" and "won" in e.value.message
    with pytest.raises(PositionUnavailable) as e:
        position_at(script_of(tops, 2), 10_000, "Cruz")  # everybody went on top: void
    assert e.value.rule == "T4" and "void" in e.value.message


def test_P3_violation_before_the_line_is_reported_with_its_place() -> None:
    script = script_of("samples/illegal-P3-dead-discard.pan")
    with pytest.raises(PositionViolation) as e:
        position_at(script, 21, "Eli")
    assert (e.value.rule, e.value.line, e.value.col, e.value.player) == ("P3", 20, 8, "Dee")
    p = position_at(script, 20, "Dee")  # the line's own take is illegal: the position stays before it
    assert p.drawn is None and p.draw_violation is not None and p.draw_violation.rule == "P3"
    assert p.acting == "Dee" and p.discards[-1] == cards("Kd")[0]


def test_acting_player_of_a_line() -> None:
    script = script_of(FRIDAY)
    assert [acting_player(script, n) for n in (17, 19, 27, 28)] == [None, "Ben", "Ana", "Dee"]


def test_P10_reshuffled_discards_are_unseen_again() -> None:
    """Two players draw and throw the whole stock; the reshuffle puts the dead discards back."""
    full = Counter(HOYLE.pack.full())
    dealt = {"Ana": cards("As As 2h 2h 4c 4c 6d 6d Js Js"), "Ben": cards("Ac Ac 3h 3h 5c 5c 7d 7d Qs Qs")}
    up = cards("Kh")[0]
    stock = full - Counter(dealt["Ana"]) - Counter(dealt["Ben"]) - Counter([up])
    order = sorted(stock.elements(), key=lambda c: (c.index, c.rank))
    events: list[Decision | Turn | Reshuffle] = [Decision("Ana", True, line=5), Decision("Ben", True, line=6)]
    line = 7
    for i, c in enumerate(order):
        events.append(Turn(("Ana", "Ben")[i % 2], (Draw(c), Discard(c)), line=line))
        line += 1
    events.append(Reshuffle(line=line))
    last = order[-1]
    again = order[0]  # a dead discard, back in the stock
    events.append(Turn(("Ana", "Ben")[len(order) % 2], (Draw(again), Discard(again)), line=line + 1))
    script = HandScript(
        players=("Ana", "Ben"),
        deals=(Deal("Ana", dealt["Ana"], line=2), Deal("Ben", dealt["Ben"], line=3)),
        upcard=up,
        upcard_line=4,
        events=tuple(events),
        first_line=1,
    )
    before = position_at(script, line, "Ana")
    assert before.stock == 0 and len(before.discards) == len(order) + 1
    after = position_at(script, line + 1, "Ana")
    assert after.stock == len(order) and after.discards == (last,)  # only the top card stays
    who = ("Ana", "Ben")[len(order) % 2]
    drew = position_at(script, line + 1, who)
    assert drew.drawn == again and drew.stock == len(order) - 1


# --------------------------------------------------------------------------- the command


def run(*args: str, input: str | None = None, env: dict[str, str] | None = None) -> Result:
    return pan("analyze", "--samples", "100", *args, input=input, env=env)


def run_at(*args: str) -> Result:
    import os

    here = os.getcwd()
    os.chdir(ROOT)
    try:
        return run(*args)
    finally:
        os.chdir(here)


def lines_of(r: Result) -> dict[str, str]:
    return dict(ln.split("\t", 1) for ln in r.stdout.splitlines() if "\t" in ln)


def test_text_output_is_the_hand_analysis_with_the_position_first() -> None:
    r = run_at(FRIDAY, "--at", "27", "--player", "Cruz")
    assert r.exit_code == 0, r.stderr
    out = r.stdout.splitlines()
    assert out[0] == (f"position\t{FRIDAY} hand 1 line 27: Cruz, between turns (Ana acts on this line); 4 turns played")
    assert out[1] == "seen\t20 cards: discard pile 4 (top 3c), others' melds 6, dead 10; stock 266"
    p = position_at(script_of(FRIDAY), 27, "Cruz")
    given = run(
        " ".join(map(str, p.hand)),
        "--melds",
        "[7c 7c 7c 7c]",
        "--seen",
        " ".join(map(str, p.seen)),
        "--players",
        "4",
    )
    assert given.exit_code == 0, given.stderr
    assert out[2:] == given.stdout.splitlines()  # rendered exactly as the hand given on the command line
    assert lines_of(r)["hand"] == "Ah 2h 4d 6s Qs Qs" and lines_of(r)["melds"] == "#1 7c 7c 7c 7c"


def as_json(r: Result) -> dict[str, Any]:
    assert r.exit_code == 0, r.stderr
    data = json.loads(r.stdout)
    assert isinstance(data, dict)
    return data


def test_json_has_the_analysis_and_the_position() -> None:
    data = as_json(run_at(FRIDAY, "--at", "65", "--player", "Ana", "--json"))
    assert data["drawn"] == "5c" and data["players"] == 4 and data["rules"] == "hoyle"
    assert data["melds_on_table"] == ["As 2s 3s", "Jd Qd Kd"]
    # the taken 5c melded at once (P3), and 7d grows #2 (7 and J are adjacent, E2)
    assert [m["meld"] for m in data["best"]] == ["5c 5c 5c", "7d Jd Qd Kd"]
    pos = data.pop("position")
    assert {k: pos[k] for k in ("file", "hand", "line", "player", "acting", "turn", "deciding", "drawn_from")} == {
        "file": FRIDAY,
        "hand": 2,
        "line": 65,
        "player": "Ana",
        "acting": "Ana",
        "turn": 6,
        "deciding": False,
        "drawn_from": "discard",
    }
    assert pos["seen"]["discards"] == "3s 7s 4s 6h 3c Jc" and pos["draw_violation"] is None
    p = position_at(script_of(FRIDAY, 2), 65, "Ana")
    given = as_json(
        run(
            "--json",
            " ".join(map(str, p.hand)) + " +5c",
            "--melds",
            "[As 2s 3s] [Jd Qd Kd]",
            "--seen",
            " ".join(map(str, p.seen)),
            "--players",
            "4",
        )
    )
    assert data == given


def test_P9_the_draw_the_position_keeps_is_not_advised_as_the_discard() -> None:
    """Hal draws Jd, which the flat Ana could add (illegal-P9-flat-player.pan line 35): the
    position keeps the draw, so the analysis discards a hand card, never Jd (P2 would throw it)."""
    sample = "samples/illegal-P9-flat-player.pan"
    pos = position_at(script_of(sample), 35, "Hal")
    assert pos.keeps_draw and str(pos.drawn) == "Jd"
    text = lines_of(run_at(sample, "--at", "35"))
    assert "(P9)" in text["now"] and "(P2)" not in text["now"]
    assert text["discard"].startswith("Qs (P9), leaving Jd Jd Ks Kd in hand")
    data = as_json(run_at(sample, "--at", "35", "--json"))
    assert data["now"] is None and data["discard"] == "Qs" and data["next_hand"] == "Jd Jd Ks Kd"
    # the plain analysis of the same cards with no flat neighbour throws the draw (P2)
    plain = analyze(pos.hand, pos.profile, pos.drawn, pos.melds, pos.seen, pos.players, samples=50)
    assert pos.kept == pos.drawn  # the table's DiscardDue.excluded
    kept = analyze(pos.hand, pos.profile, pos.drawn, pos.melds, pos.seen, pos.players, samples=50, keep=pos.kept)
    assert (plain.discard, plain.kept_draw, kept.kept_draw) == (None, False, True)
    assert kept.discard is not None and kept.discard != pos.drawn and kept.next_hand is not None
    assert sorted(map(str, (*kept.next_hand, kept.discard))) == sorted(map(str, (*pos.hand, pos.drawn)))
    # a hand of nothing but copies of the draw: the table excludes no card (P9's excuse), so the
    # position keeps none and the analysis throws the draw; it never works that excuse out itself
    from msgspec.structs import replace

    from pancli.melds import judge
    from pancli.referee.play import DiscardDue, Discarding
    from pancli.rulebook import Rule

    excused = replace(pos, discard_due=DiscardDue(Rule.P9, Discarding.HAND_CARD, excluded=None))
    assert excused.keeps_draw and excused.kept is None
    (jd,) = cards("Jd")
    kings = judge(cards("Kc Kc Kc"), pos.profile).meld
    assert kings is not None
    table = (*pos.melds, kings)  # nine melded, the hand one Jd
    alone = analyze((jd,), pos.profile, jd, table, (), pos.players, samples=20, keep=excused.kept)
    assert (alone.kept_draw, alone.discard) == (False, None)
    with pytest.raises(ValueError, match="no other card"):  # a keep the position would never give
        analyze((jd,), pos.profile, jd, table, (), pos.players, samples=20, keep=jd)


def test_player_defaults_to_the_one_whose_line_it_is_and_stdin_is_read() -> None:
    data = as_json(run_at(FRIDAY, "--at", "25", "--json"))
    assert data["position"]["player"] == "Dee" and data["drawn"] == "Kc"
    text = (ROOT / FRIDAY).read_text(encoding="utf-8")
    piped = as_json(run("-", "--at", "25", "--json", input=text))
    assert piped["position"]["file"] == "-" and piped["hand"] == data["hand"]


def test_rules_given_override_the_records_rules_tag() -> None:
    assert as_json(run_at(FRIDAY, "--at", "23", "--json"))["rules"] == "hoyle"
    assert as_json(run_at(FRIDAY, "--at", "23", "--json", "--rules", "cardroom"))["rules"] == "cardroom"


def test_terminal_output_shows_the_position() -> None:
    r = run("--at", "27", "--player", "Cruz", str(ROOT / FRIDAY), env={"PAN_FORCE_TERMINAL": "1", "COLUMNS": "200"})
    assert r.exit_code == 0, r.stderr
    assert "position" in r.stdout and "Ana acts on this line" in r.stdout and "usable draws" in r.stdout


@pytest.mark.parametrize(
    ("args", "status", "err"),
    [
        ((FRIDAY, "--at", "27", "--player", "Zed"), 2, f"{FRIDAY}:27:1: R5 Zed is not seated"),
        ((FRIDAY, "--at", "30", "--player", "Ben"), 2, f"{FRIDAY}:30:1: T3 Ben went on top"),
        ((FRIDAY, "--at", "38", "--player", "Ana"), 2, f"{FRIDAY}:38:1: R7 line 38 is in no hand"),
        ((FRIDAY, "--at", "5"), 2, f"{FRIDAY}:5:1: R5 line 5 is no player's turn or decision"),
        (("samples/kitchen-table-unknown-hands.pan", "--at", "15", "--player", "Ana"), 2, ":15:1: S2 Ana's cards"),
        (("samples/pagruc-common-room.pan", "--at", "12", "--player", "Ana"), 2, ":12:1: R7 a pagruc hand: "),
        (("samples/illegal-P3-dead-discard.pan", "--at", "21", "--player", "Eli"), 1, ".pan:20:8: P3 the top"),
        (("samples/malformed-record.pan", "--at", "12", "--player", "Ana"), 1, ".pan:12:10: E1 8h"),
    ],
)
def test_errors_name_the_place_the_rule_and_exit(args: tuple[str, ...], status: int, err: str) -> None:
    r = run_at(*args)
    assert r.exit_code == status, (r.stdout, r.stderr)
    assert err in r.stderr and r.stdout == "" and "Traceback" not in r.stderr


def test_I3_line_after_the_going_out_exits_2(tmp_path: Path) -> None:
    text = (ROOT / FRIDAY).read_text(encoding="utf-8").split("\n; Cruz won", 1)[0] + "\nAna draw 5h, discard 5h\n"
    (tmp_path / "after.pan").write_text(text, encoding="utf-8")
    r = run(str(tmp_path / "after.pan"), "--at", "38", "--player", "Ana")
    assert r.exit_code == 2 and ":38:1: I3 the hand is closed" in r.stderr


def test_the_lines_own_illegal_take_is_a_note_not_an_error() -> None:
    r = run_at("samples/illegal-P3-dead-discard.pan", "--at", "20", "--player", "Dee")
    assert r.exit_code == 0, r.stderr
    assert lines_of(r)["note"].startswith("line 20:8: P3 the top discard Kd is dead")
    data = as_json(run_at("samples/illegal-P3-dead-discard.pan", "--at", "20", "--player", "Dee", "--json"))
    assert data["drawn"] is None and data["position"]["draw_violation"]["rule"] == "P3"


@pytest.mark.parametrize(
    "extra",
    [("--seen", "5h"), ("--melds", "[5sss]"), ("--draw", "Kc"), ("--players", "4"), ("5s",)],
)
def test_usage_hand_options_do_not_mix_with_a_record_position(extra: tuple[str, ...]) -> None:
    r = run_at(FRIDAY, "--at", "27", "--player", "Cruz", *extra)
    assert r.exit_code == 2 and "record position" in r.stderr


def test_usage_player_without_at_and_a_record_without_at() -> None:
    assert run_at(FRIDAY, "--player", "Ana").exit_code == 2
    r = run_at(FRIDAY)
    assert r.exit_code == 2 and "give --at LINE" in r.stderr


# --------------------------------------------------------------------------- self-play property


def _check_hand(script: HandScript, profile: Profile) -> int:
    """Every turn line, every player: P7 and conservation (E4); the acting player's analysis runs."""
    pack = profile.pack
    on_top = {ev.player for ev in script.events if isinstance(ev, Decision) and not ev.stay}
    events = script.events
    checked = 0
    for k, ev in enumerate(events):
        if not isinstance(ev, Turn):
            continue
        views: dict[str, Position] = {}
        for name in script.players:
            try:
                views[name] = position_at(script, ev.line, name)
            except PositionUnavailable as e:
                assert e.rule == "T3" and name in on_top
        for name, v in views.items():
            assert len(v.hand) + v.melded == 10  # P7, between turns (the drawn card apart)
            assert (v.drawn is not None) == (name == ev.player)
            known = Counter(v.hand) + Counter(v.seen) + Counter(c for m in v.melds for c in m.cards)
            if v.drawn is not None:
                known[v.drawn] += 1
            for other, w in views.items():
                if other != name:
                    known += Counter(w.hand)
            assert all(n <= pack.copies(c) for c, n in known.items())  # E4
            assert sum(known.values()) + v.stock == pack.size  # every card is somewhere
            future: Counter[Card] = Counter()
            for later in events[k:]:
                if isinstance(later, Reshuffle):
                    break
                if isinstance(later, Turn) and (later is not ev or name != ev.player):
                    future.update(a.card for a in later.actions if isinstance(a, Draw))
            stock = Counter(pack.full()) - known
            assert not future - stock, (name, ev.line)  # later stock draws are unseen cards
            checked += 1
        me = views[ev.player]
        analyze(me.hand, profile, me.drawn, me.melds, me.seen, me.players, samples=5)
    return checked


@pytest.mark.slow
@settings(max_examples=20)
@given(seed=st.integers(0, 10**6), seated=st.integers(3, 6), profile=any_profile)
def test_P7_E4_simulated_positions_keep_the_count_and_the_pack(
    rules_folder: Path, seed: int, seated: int, profile: Profile
) -> None:
    players = tuple(f"P{i}" for i in range(seated))
    rules = rules_name(profile, rules_folder)  # a house-rules file in the record's folder
    for script in simulate_hands(players, 1, seed, profile):
        script = replace(script, tags=(("Rules", rules),))
        [hand] = read_hands(io.StringIO(write_script(script)), "sim.pan", rules_folder)
        assert hand.script is not None and hand.script.profile == profile
        _check_hand(hand.script, profile)


def test_analyze_refuses_no_samples_with_a_clear_error() -> None:
    """The odds need one sample at least (``--samples`` is 1 or more): the API says so, not a
    division by zero."""
    with pytest.raises(ValueError, match="samples must be at least 1, not 0"):
        analyze(cards("5s 5s 5s 3h 4h Kd Kh Kc 2c 7d"), HOYLE, samples=0)


def test_C6_the_analysis_exporters_ask_the_analysis_what_a_value_collects(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every total the JSON and text show is the analysis's ``collected`` (each opponent pays),
    not the exporter's own product."""
    from pancli.analyze.analysis import Analysis
    from pancli.render.analysis import row_fields, summary_lines, to_json

    a = analyze(cards("5s 5s 5s 3h 4h Kd Kh Kc 2c Jc"), HOYLE, cards("7d")[0], samples=20)
    monkeypatch.setattr(Analysis, "collected", lambda self, units: 1000 + units)
    data = to_json(a, None)
    assert {d["total"] - d["value"] for d in data["draws"]} == {1000}
    assert data["waits"] is not None and data["waits"]["total"] == 1000 + data["waits"]["value"]
    assert all(int(row_fields(a, r)[6]) == 1000 + r.value for r in a.rows)
    assert f"({1000 + a.best.value} in all)" in dict(summary_lines(a))["melded"]


def test_R7_a_line_of_a_pagruc_hand_has_no_position_to_analyse() -> None:
    # the line is in no Panguingue hand, as a line in no hand at all is: R7, a usage error (exit 2)
    r = run_at("samples/pagruc-common-room.pan", "--at", "20")
    assert r.exit_code == 2 and r.stdout == ""
    assert r.stderr.startswith("samples/pagruc-common-room.pan:20:1: R7 a pagruc hand: positions are analysed in")
    with (ROOT / "samples/pagruc-common-room.pan").open(encoding="utf-8") as f:
        script = next(iter(read_hands(f, "p.pan"))).script
    assert script is not None
    with pytest.raises(PositionUnavailable) as e:
        table_now(script)
    assert e.value.rule is Rule.R7
