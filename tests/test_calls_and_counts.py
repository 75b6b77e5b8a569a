"""Calls and counts written where they were made (I1, I2; docs/rules.md, "When an irregularity
is found"): each branch built from a record, most from the shipped samples that show it."""

from __future__ import annotations

from pathlib import Path

import pytest

from pancli.api import referee_hand
from pancli.model.results import CountRight, HandResult
from pancli.notation.layout import RecordHand
from pancli.records import read_hands
from pancli.referee.position import position_at
from pancli.rulebook import Rule

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
CALLED_LATE = (SAMPLES / "irregular-I2-called-late.pan").read_text(encoding="utf-8")
MENDED = (SAMPLES / "irregular-I2-mended-on-call.pan").read_text(encoding="utf-8")
COUNTED = (SAMPLES / "irregular-I1-counted-in-play.pan").read_text(encoding="utf-8")
FOUND = (SAMPLES / "illegal-I2-foul-meld-found.pan").read_text(encoding="utf-8")
WRONG_COUNT = (SAMPLES / "illegal-I1-wrong-count.pan").read_text(encoding="utf-8")
SHORT = (SAMPLES / "irregular-I1-short-deal.pan").read_text(encoding="utf-8")


def _ref(text: str, *, strict: bool = False) -> HandResult:
    r = referee_hand(text, strict=strict)
    assert isinstance(r, HandResult)
    return r


def _edit(text: str, old: str, new: str) -> str:
    assert old in text, old
    return text.replace(old, new)


def _line(text: str, start: str) -> int:
    return next(i for i, t in enumerate(text.splitlines(), 1) if t.startswith(start))


# ------------------------------------------------------------------ I2 called after the discard


def test_I2_called_two_turns_later_is_found_at_the_call() -> None:
    r = _ref(CALLED_LATE)
    call = _line(CALLED_LATE, "Dee call Ana #2")
    assert r.violations == () and r.winner == "Cruz"
    (remedy,) = r.remedies
    v = remedy.violation
    assert (v.rule, v.line, v.player, remedy.retired) == (Rule.I2, call, "Ana", True)
    assert f"laid at line {_line(CALLED_LATE, '9. Ana')}" in v.message
    assert r.ledger == {"Ana": -20, "Ben": -2, "Cruz": 42, "Dee": 0, "Eli": -20}


def test_I2_the_call_returns_the_collections_made_between_the_foul_meld_and_the_call() -> None:
    r = _ref(CALLED_LATE)
    (remedy,) = r.remedies
    back = sorted((p.payee, p.units, p.line) for p in remedy.returns)
    call = _line(CALLED_LATE, "Dee call Ana #2")
    assert back == sorted((who, units, call) for who in ("Cruz", "Dee", "Eli") for units in (2, 4))
    grew = _line(CALLED_LATE, "13. Ana")  # after the foul meld, before the call
    assert grew > _line(CALLED_LATE, "9. Ana")
    assert all(p.rules == (Rule.I2,) for p in remedy.returns)
    assert any(p.line == grew and p.payee == "Ana" for p in r.payments)


def test_I2_the_lines_before_the_call_stand_and_the_retired_player_still_pays() -> None:
    r = _ref(CALLED_LATE)
    out = _line(CALLED_LATE, "14. Cruz")
    assert {p.payer for p in r.payments if p.line == out and p.payee == "Cruz"} >= {"Ana", "Dee", "Eli"}
    assert not [p for p in r.payments if p.payee == "Ana" and p.line > _line(CALLED_LATE, "Dee call")]


def test_I2_made_good_on_demand_after_the_call_costs_nothing() -> None:
    r = _ref(MENDED)
    assert r.violations == () and r.winner == "Cruz"
    (remedy,) = r.remedies
    assert not remedy.retired and sum(p.units for p in remedy.returns) == 9
    assert "makes #1 good as [7c 7c 7c 7c]" in remedy.remedy
    # the same ledger as the meld made good in its own turn (the irregular-I2-made-good sample)
    assert r.ledger == _ref((SAMPLES / "irregular-I2-made-good.pan").read_text(encoding="utf-8")).ledger
    assert r.claims and all(c.ok for c in r.claims)


def test_I2_a_mend_that_is_no_meld_either_leaves_it_found_at_the_call() -> None:
    text = _edit(MENDED, "Cruz mend #1 [7c 7c 7c 7c]", "Cruz mend #1 [7c 7c 7c 6s]")
    r = _ref(text)
    (remedy,) = r.remedies
    assert remedy.retired and remedy.violation.line == _line(text, "Dee call Cruz")
    assert "is no meld either" in remedy.violation.message


def test_I2_a_mend_with_cards_he_does_not_hold_is_a_violation() -> None:
    text = _edit(MENDED, "Cruz mend #1 [7c 7c 7c 7c]", "Cruz mend #1 [7c 7c 7c 7c 7c 7c]")
    v = _ref(text).violations[0]
    assert (v.rule, v.line) == (Rule.E4, _line(text, "Cruz mend"))


def test_I2_a_mend_on_its_own_line_answers_a_call() -> None:
    text = _edit(MENDED, 'Dee call Cruz #1 ; "four sevens and a four?"\n', "")
    v = _ref(text).violations[0]
    assert (v.rule, v.line, v.player) == (Rule.I2, _line(text, "Cruz mend"), "Cruz")


def test_I2_a_foul_meld_never_called_is_found_at_the_end_of_the_offender_s_turn() -> None:
    r = _ref(FOUND)
    (remedy,) = r.remedies
    assert remedy.retired and remedy.violation.line == _line(FOUND, "9. Ana")


@pytest.mark.parametrize(
    ("call", "why"),
    [
        ("Dee call Ana #1", "Ana's #1 is a legal meld"),
        ("Dee call Ana #999", "Ana has 2 melds"),
        ("Dee call Ben #1", "Ben went on top"),
    ],
)
def test_I2_a_call_that_names_no_foul_meld_is_a_violation_at_the_call(call: str, why: str) -> None:
    # no foul meld: the meld is laid legal, and the call names one anyway
    text = _edit(_edit(CALLED_LATE, "meld [Jc Qc Qh] ??", "meld [Qh Qh Qh]"), "Dee call Ana #2", call)
    deal = "deal Ana 5s 5s 3h 4h Kd Kh Kc Jc Qc 2d"
    text = _edit(text, deal, "deal Ana 5s 5s 3h 4h Kd Kh Kc Qh Qh 2d")
    r = _ref(text)
    v = r.violations[0]
    assert (v.rule, v.line, v.player) == (Rule.I2, _line(text, call), "Dee")
    assert why in v.message
    assert v.col == len(call) - len(call.split("#")[1])  # at the #N


def test_I3_no_call_is_heard_after_the_going_out_payment() -> None:
    text = _edit(CALLED_LATE, 'Dee call Ana #2 ; "that is no rope": two turns after it was laid\n', "")
    text += "Dee call Ana #2\n"
    r = _ref(text)
    v = r.violations[0]
    assert (v.rule, v.line) == (Rule.I3, len(text.splitlines()))
    assert r.winner == "Cruz"  # the win stands


# ------------------------------------------------------------------ I2 corrected before any call


def test_I2_an_add_that_makes_his_own_foul_meld_legal_is_a_correction() -> None:
    made_good = (SAMPLES / "irregular-I2-made-good.pan").read_text(encoding="utf-8")
    text = _edit(
        made_good,
        "meld [7c 7c 7c 4d] ?? {[%pays 3]}, mend #1 [7c 7c 7c 7c] {[%pays 3]}",
        "meld [7c 7c] ??, add 7c 7c to #1 {[%pays 3]}",
    )
    r = _ref(text)
    assert r.violations == (), r.violations
    (remedy,) = r.remedies
    assert not remedy.retired and remedy.returns == ()
    assert "makes #1 good as [7c 7c 7c 7c]" in remedy.remedy
    line = _line(text, "2. Cruz")
    assert sorted((p.payer, p.units) for p in r.payments if p.line == line) == [("Ana", 3), ("Dee", 3), ("Eli", 3)]
    assert r.ledger == _ref(made_good).ledger and all(c.ok for c in r.claims)


# ------------------------------------------------------------------ I1 counts


def test_I1_eleven_dealt_and_counted_in_play_is_found_at_the_count() -> None:
    r = _ref(COUNTED)
    (remedy,) = r.remedies  # no remedy at the deal
    v = remedy.violation
    assert (v.rule, v.line, v.player, remedy.retired) == (Rule.I1, _line(COUNTED, "Dee count Eli"), "Eli", True)
    assert sum(p.units for p in remedy.returns) == 3
    assert r.violations == () and r.winner == "Cruz"
    assert r.ledger == {"Ana": -2, "Ben": -2, "Cruz": 36, "Dee": -6, "Eli": -26}


def test_I1_without_the_count_the_eleventh_card_is_dead_at_the_deal() -> None:
    text = _edit(COUNTED, 'Dee count Eli ; "you have a card too many"\n', "")
    r = _ref(text)
    assert r.remedies[0].violation.line == _line(text, "deal Eli")
    assert r.violations[0].rule == Rule.E4  # he discards the 2s that went to the dead cards


def test_I1_a_right_count_is_noted_and_changes_nothing() -> None:
    text = _edit(COUNTED, "Kd Kd 4c 5c 6d 7d Jd Qd 3c Ac 2s", "Kd Kd 4c 5c 6d 7d Jd Qd 3c Ac")
    text = _edit(text, "discard 2s", "discard Ac").replace(
        "12. Eli draw 6c, meld [4c 5c 6c], discard Ac", "12. Eli draw 6c, meld [4c 5c 6c], discard 6d"
    )
    r = _ref(text)
    assert r.remedies == () and r.violations == ()
    assert CountRight(_line(text, "Dee count Eli"), "Dee", "Eli", 10) in r.notes


def test_I1_a_count_of_a_retired_player_is_a_violation_at_the_count() -> None:
    text = _edit(COUNTED, "13. Ana draw Ah", "Ana count Eli\n13. Ana draw Ah")
    v = _ref(text).violations[0]
    assert (v.rule, v.line, v.player) == (Rule.I1, _line(text, "Ana count Eli"), "Ana")
    assert "retired" in v.message


def test_I1_a_count_before_the_first_draw_puts_the_deal_right() -> None:
    text = _edit(COUNTED, "Eli stay\n", "Eli stay\nAna count Eli\n")
    text = _edit(text, 'Dee count Eli ; "you have a card too many"\n', "")
    r = _ref(text)
    (remedy,) = r.remedies
    assert not remedy.retired and remedy.violation.line == _line(text, "Ana count Eli")
    assert "2s (the last dealt)" in remedy.remedy


def test_I1_a_count_of_an_unwritten_hand_with_the_number_found() -> None:
    # Eli's cards are not written; Dee counts eleven in his hand after his third turn
    text = _edit(COUNTED, "deal Eli Kd Kd 4c 5c 6d 7d Jd Qd 3c Ac 2s\n", "")
    text = _edit(text, "Dee count Eli ;", "Dee count Eli 2 ;")
    r = _ref(text)
    (remedy,) = r.remedies
    assert remedy.retired and remedy.violation.rule == Rule.I1
    right = _ref(_edit(text, "Dee count Eli 2 ;", "Dee count Eli 1 ;"))
    assert right.remedies == () and right.winner == "Cruz"


def test_I1_a_count_that_contradicts_the_written_hand_is_a_violation() -> None:
    text = _edit(COUNTED, "Dee count Eli ;", "Dee count Eli 5 ;")
    v = _ref(text).violations[0]
    assert (v.rule, v.line) == (Rule.I1, _line(text, "Dee count Eli"))


# ------------------------------------------------------------------ the stock after a wrong deal (I1, P10)


def _script(text: str) -> RecordHand:
    import io

    (hand,) = list(read_hands(io.StringIO(text), "x.pan", Path(".")))
    return hand


@pytest.mark.parametrize(
    ("text", "dealt"),
    [(FOUND, 50), (WRONG_COUNT, 51), (SHORT, 50), (COUNTED, 51)],
    ids=["ten-each", "eleven-extra-dead", "nine-filled", "eleven-kept-until-the-count"],
)
def test_P10_the_stock_counts_from_the_cards_dealt(text: str, dealt: int) -> None:
    hand = _script(text)
    assert hand.script is not None
    pos = position_at(hand.script, _line(text, "1. Ana"), "Ana")
    assert pos.stock == 320 - dealt - 1 - 1  # the upcard, and Ana's draw


# ------------------------------------------------------------------ who may call and count (T3)


@pytest.mark.parametrize(
    ("text", "line"),
    [(COUNTED, 'Dee count Eli ; "you have a card too many"'), (CALLED_LATE, "Dee call Ana #2")],
    ids=["count", "call"],
)
def test_T3_a_player_who_went_on_top_may_not_call_or_count(text: str, line: str) -> None:
    # Ben went on top in both records: he takes no further part, as a force of his is refused
    by_ben = _edit(text, line, "Ben" + line.removeprefix("Dee"))
    v = _ref(by_ben).violations[0]
    assert (v.rule, v.line, v.player) == (Rule.T3, _line(by_ben, "Ben c"), "Ben")
    assert v.message == "Ben went on top and takes no further part"


def test_I1_a_retired_player_still_pays_so_his_count_is_heard() -> None:
    # Eli retires at Dee's count (I1) but still pays the others: his count of Ana is heard
    text = _edit(COUNTED, 'Dee count Eli ; "you have a card too many"\n', "Dee count Eli\nEli count Ana\n")
    r = _ref(text)
    assert [(x.violation.rule, x.retired) for x in r.remedies] == [(Rule.I1, True)] and r.violations == ()
    at = _line(text, "Eli count Ana")
    assert CountRight(at, "Eli", "Ana", 10) in r.notes
