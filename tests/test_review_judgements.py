"""``pan review`` judges honestly, on the shipped samples: a foul play is marked ``??`` against the
best legal play (I2), a meld laid later is a collection delayed, not lost (C7), chips and going out
weigh in one figure (C8), a drawn card thrown is judged (P2), and a comment running onto the next
line changes no judgement."""

from __future__ import annotations

import io
import json
import os
from typing import Any

import pytest
from cli_kit import SAMPLES, pan

from pancli.analyze.review import Down, Judgement, NoUse, Options, Play, Ruled
from pancli.app.replay import referee
from pancli.app.review import HandReview, review_hand
from pancli.model.actions import Add, Discard, MeldNew
from pancli.notation import parse_card
from pancli.records import read_hands
from pancli.render.review import comment, note_text, play_text

FAST = Options(samples=100, advice_samples=20)


def _reviewed(text: str, opts: Options = FAST) -> list[HandReview]:
    return [review_hand(h, h.script, referee(h.script), opts) for h in read_hands(io.StringIO(text), "-", None)]


def _sample(name: str) -> str:
    return (SAMPLES / name).read_text()


def _at(reviews: list[HandReview], line: int, kind: str) -> Judgement:
    (j,) = [j for r in reviews for j in r.judgements if j.line == line and j.kind == kind]
    return j


@pytest.mark.parametrize(
    ("name", "line", "played", "best", "cost"),
    [
        ("illegal-M3-foul-meld.pan", 19, "meld [7c 7c 7d]", "meld [7c 7c 7c], discard 4d", 6.0),
        ("illegal-I2-foul-meld-found.pan", 28, None, None, 12.0),
    ],
)
def test_review_I2_a_foul_play_gets_double_question_against_the_best_legal_play(
    name: str, line: int, played: str | None, best: str | None, cost: float
) -> None:
    j = _at(_reviewed(_sample(name)), line, "foul")
    assert j.mark == "??" and j.best != j.played and j.chips == cost  # the remedy's returns, in all
    assert played is None or play_text(j.played) == played
    assert best is None or play_text(j.best) == best
    assert isinstance(j.note, Ruled) and j.note.rule == "I2" and note_text(j.note).startswith("I2: foul meld")
    text = comment(j, True)
    assert text.startswith(f"{{review ??: foul play (returned {cost:.0f} units in all); the best legal play ")


def test_review_P8_the_illegal_play_that_stops_the_review_is_marked_too() -> None:
    j = _at(_reviewed(_sample("illegal-P8-forcing.pan")), 28, "foul")
    assert j.mark == "??" and play_text(j.best).startswith("take 5c, add 5c to #1") and j.chips == 0.0


def test_review_P4_a_judgement_holds_the_actions_and_figures_the_exporters_word() -> None:
    # the reviewer decides in values (the model's actions, the note's figures); --json writes their words
    reviews = _reviewed(_sample("friday-hoyle.pan"))
    j = _at(reviews, 65, "meld")
    fives, seven = tuple(parse_card(c) for c in ("5c", "5c", "5c")), parse_card("7d")
    assert j.best == Play((MeldNew(fives), Add((seven,), 2)))
    assert isinstance(j.note, Down) and note_text(j.note) == (
        f"{j.note.best_cards} cards down for {j.note.best_chips} from each vs {j.note.played_cards} for "
        f"{j.note.played_chips}"
    )
    assert all(isinstance(j.played, Play) and isinstance(j.best, Play) for r in reviews for j in r.judgements)
    fast = ("--samples", "100", "--advice-samples", "20", "-q", "--json")
    doc = json.loads(pan("review", *fast, str(SAMPLES / "friday-hoyle.pan")).stdout)
    judged = [j for r in reviews for j in r.judgements]
    assert [(d["played"], d["best"], d["note"]) for d in doc["judgements"]] == [
        (play_text(j.played), play_text(j.best), note_text(j.note)) for j in judged
    ]


def test_review_C7_a_meld_laid_a_turn_later_is_not_given_up_in_full() -> None:
    # friday-hoyle hand 2: Ana keeps the 7d of [7d Jd Qd Kd] back at line 65 (and lays it at 69):
    # what she gives up is the chance that no usable draw comes in time, not the 3 units
    j = _at(_reviewed(_sample("friday-hoyle.pan")), 65, "meld")
    assert play_text(j.best) == "meld [5c 5c 5c], add 7d to #2"
    assert 0.0 < j.chips_part < 3.0 and j.chips < 3.0 + j.out_part
    assert "units expected" in comment(j, True)
    held = _at(_reviewed(_sample("friday-hoyle.pan")), 23, "meld")  # [Jc Qc Kc] kept back: no mark now
    assert held.mark == "" and 0.0 < held.chips < 3.0


def test_review_C8_chips_and_going_out_weigh_in_one_figure() -> None:
    # friday-hoyle hand 1, line 32: the analyzer's play lays [Jc Qc Kc] for 3 units but goes out less
    # often: the figure is the sum of both parts, and the comment shows them
    j = _at(_reviewed(_sample("friday-hoyle.pan")), 32, "meld")
    assert j.odds_best is not None and j.odds_played is not None and j.odds_best < j.odds_played
    assert j.chips_part > 0 > j.out_part
    assert j.chips == pytest.approx(max(0.0, j.chips_part + j.out_part))
    marked = comment(j.__class__(**{**{f: getattr(j, f) for f in j.__struct_fields__}, "mark": "?!"}), True)
    assert f"{j.chips_part:.2f} in chips, {j.out_part:.2f} in going out" in marked


def test_review_P2_a_drawn_card_thrown_is_judged() -> None:
    reviews = _reviewed(_sample("friday-hoyle.pan"))
    j = _at(reviews, 25, "meld")  # Dee draw Kc, discard Kc: no use for it, so no choice, and no mark
    assert play_text(j.played) == "discard Kc" and j.mark == "" and isinstance(j.note, NoUse)
    assert "P2" in note_text(j.note)
    j = _at(reviews, 27, "meld")  # Ana draw 7c, discard 7c: it had a use; throwing it was no worse
    assert play_text(j.played) == "discard 7c" and j.mark == ""


def test_review_P2_throwing_the_draw_that_goes_out_is_the_worst_blunder() -> None:
    text = _sample("friday-hoyle.pan").replace(
        "14. Cruz draw 3h, meld [Ah 2h 3h] {[%pays 1]}, out ! { out with 11 melded: 1 + 4 + 2 + 1 from each }",
        "14. Cruz draw 3h, discard 3h",
    )
    j = _at(_reviewed(text), 37, "meld")
    assert play_text(j.played) == "discard 3h" and play_text(j.best) == "meld [Ah 2h 3h], out" and j.mark == "??"
    assert j.chips >= 8.0


def _judged(got: Any, shift_from: int) -> list[tuple[Any, ...]]:
    return [
        (j["line"] - (1 if j["line"] > shift_from else 0), j["kind"], j["played"], j["best"], j["chips"], j["mark"])
        for j in json.loads(got.stdout)["judgements"]
    ]


def test_review_C7_a_comment_running_onto_the_next_line_changes_no_judgement() -> None:
    text = _sample("friday-hoyle.pan")
    broken = text.replace("10. Dee take 6d, add 6d", "10. Dee take 6d {the six\nof diamonds}, add 6d")
    args = ("review", "--json", "--samples", "50", "--advice-samples", "10", "-q", "-")
    plain, moved = pan(*args, input=text), pan(*args, input=broken)
    assert plain.exit_code == moved.exit_code == 0
    assert _judged(moved, 68) == _judged(plain, 10_000)


def _unknown_hands(tmp_path: Any, count: int) -> str:
    """A record of ``count`` hands whose cards are all unknown (kitchen-table, no deal line)."""
    hand = "\n".join(
        line for line in _sample("kitchen-table-unknown-hands.pan").splitlines() if not line.startswith("deal ")
    )
    path = tmp_path / f"unknown-{count}.pan"
    path.write_text("\n\n".join([hand] * count) + "\n")
    return str(path)


@pytest.mark.parametrize("jsonl", [False, True])
def test_review_memory_stays_the_same_over_many_hands_not_reviewed(tmp_path: Any, jsonl: bool) -> None:
    import contextlib
    import gc
    import tracemalloc

    from pancli.app.review import review_files
    from pancli.cli.common import open_text
    from pancli.render.review import ReviewWriter

    class Quiet:
        def advance(self, n: int = 1, *, count: int = 0) -> None:
            pass

    # What is still held after a full collection, at two points of one run: a peak would count
    # the interpreter's free lists, which fill up over a run and are emptied only by a full
    # collection (that made a comparison of peaks flaky).
    held: dict[int, int] = {}

    def show(r: HandReview) -> None:
        writer.show(r)
        sink.seek(0)
        sink.truncate()
        if r.hand in (100, 500):
            gc.collect()
            held[r.hand] = tracemalloc.get_traced_memory()[0]

    name = _unknown_hands(tmp_path, 500)
    sink = io.StringIO()
    with open(os.devnull, "w") as null, contextlib.redirect_stdout(null), contextlib.redirect_stderr(null):
        writer = ReviewWriter(sink, False, jsonl, Quiet())
        tracemalloc.start()
        try:
            review_files([name], show, open_record=open_text, opts=FAST)
        finally:
            tracemalloc.stop()
    # the runs not reviewed are not kept to the end: keeping each hand's would be hundreds of bytes a hand
    assert held[500] - held[100] < 20 * 400, held


def test_review_T1_advice_shuffles_as_random_shuffle_does() -> None:
    import random

    from pancli.analyze.advice import shuffle, shuffle_steps

    for seed in range(20):
        mine, theirs = random.Random(seed), random.Random(seed)
        a, b = list(range(320)), list(range(320))
        for steps in (None, shuffle_steps(320), shuffle_steps(320)):
            shuffle(a, mine.getrandbits, steps)
            theirs.shuffle(b)
            assert a == b
        assert mine.random() == theirs.random()  # the generator left in the same state
    one, other = [7], [7]
    shuffle(one, random.Random(1).getrandbits)
    random.Random(1).shuffle(other)
    assert one == other


def test_review_words_read_right() -> None:
    assert note_text(Down(1, 4, 3, 8)).startswith("1 card down")  # never "1 cards down"
    assert note_text(Down(3, 8, 1, 4)).startswith("3 cards down")
    seven, king = parse_card("7d"), parse_card("Kc")
    j = Judgement("discard", "Ana", 9, 3, Play((Discard(seven),)), Play((Discard(king),)), 2.5, 0.1, 0.18, 0.41, 0.004,
                  3, "?!", None, 0, 2.5)  # fmt: skip
    assert "(s.e. 0.4 points)" in comment(j, True)  # a standard error under 1% is not "0%"
