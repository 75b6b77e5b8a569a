"""The referees' remarks (``notes``) are values, one Struct per kind with its facts and rule; the
words are made in render/ (:mod:`pancli.render.words`), the same words every output form gave
before the remarks were values; and the values travel as MessagePack (``--jobs`` workers)."""

from __future__ import annotations

import json
from typing import Any

import msgspec
import pytest

from pancli.api import parse_records, referee_hand
from pancli.app import workers
from pancli.model.results import ClaimNotCompared, CountNotCompared, CountRight, HandResult, PanRemark
from pancli.pagruc.referee import (
    ClaimNotFinished,
    ClaimScoreUnknown,
    ClaimStopped,
    HandNotFinished,
    NoDealLine,
    PagrucHandResult,
    PagrucRemark,
    ScoreUnknown,
)
from pancli.render.words import notes_text, pagruc_remark, pan_remark
from pancli.rulebook import Rule
from tests.cli_kit import SAMPLES, pan

COUNTS = (
    (SAMPLES / "kitchen-table-unknown-hands.pan")
    .read_text(encoding="utf-8")
    .replace("Ana draw 3c, discard 3c\n", "Ana draw 3c, discard 3c\nAna count Ben\nAna count Dee\nBen count Cruz 10\n")
)
"""Ana counts Ben (not written, no number: nothing to compare) and Dee (right); Ben's count of
Cruz retires Cruz (I1), whose next turn stops the hand (P1) before the Ledger claim's end."""

_FIRST = (SAMPLES / "pagruc-common-room.pan").read_text(encoding="utf-8").split("\n\n[Event")[0] + "\n"
NO_DEAL = _FIRST.replace("deal Cruz 9h 8d 6c As 3s 9d Qh\n", "")
UNFINISHED = _FIRST.rstrip("\n").rsplit("\n", 1)[0] + "\n"
STOPPED = (
    (SAMPLES / "pagruc-illegal.pan")
    .read_text(encoding="utf-8")
    .replace('[Players "Ana Ben Cruz"]\n', '[Players "Ana Ben Cruz"]\n[Ledger "Ana -1, Ben 0, Cruz 1"]\n', 1)
)


def _judged(text: str) -> HandResult | PagrucHandResult:
    (hand, *_) = parse_records(text)
    return referee_hand(hand)


def _json_notes(text: str) -> list[str]:
    return [n for h in json.loads(pan("replay", "--json", "-", input=text).stdout) for n in h["notes"]]


def test_I1_a_count_found_right_and_one_with_nothing_to_compare_are_noted_in_the_old_words() -> None:
    r = _judged(COUNTS)
    assert isinstance(r, HandResult)
    assert r.notes == (
        CountNotCompared(19, "Ana", "Ben"),
        CountRight(20, "Ana", "Dee", 10),
        ClaimNotCompared(6, 23, Rule.P1),
    )
    assert [n.rule for n in r.notes] == [Rule.I1, Rule.I1, Rule.C9]
    words = [
        "line 19: Ana counts Ben, whose cards are not written and no number is given (I1): nothing to compare",
        "line 20: Ana counts Dee: 10 cards, right (I1): noted",
        "the Ledger claim (line 6) cannot be compared (C9): the hand stopped at line 23 (P1) before its end",
    ]
    assert [pan_remark(n) for n in r.notes] == words
    assert list(notes_text(r)) == words == _json_notes(COUNTS)
    plain = pan("replay", "--plain", "-", input=COUNTS).stdout
    assert [ln for ln in plain.splitlines() if ln.startswith("  note: ")] == [f"  note: {w}" for w in words]


def test_C9_a_ledger_claim_of_a_stopped_hand_is_worded_as_before() -> None:
    assert pan_remark(ClaimNotCompared(6, 29, Rule.P8)) == (
        "the Ledger claim (line 6) cannot be compared (C9): the hand stopped at line 29 (P8) before its end"
    )


def test_G1_G7_a_hand_without_its_deal_line_is_noted_in_the_old_words() -> None:
    r = _judged(NO_DEAL)
    assert isinstance(r, PagrucHandResult)
    assert r.notes == (NoDealLine("Cruz", 7), ScoreUnknown("Cruz", 2), ClaimScoreUnknown(12, "Cruz"))
    assert [n.rule for n in r.notes] == [Rule.G1, Rule.G7, Rule.G7]
    words = [
        "Cruz has no deal line: the 7 cards dealt are unknown (trusted within G1)",
        "Cruz's score cannot be computed: 2 unknown cards left in hand (no deal line) count minus (G7)",
        "the Ledger claim for Cruz cannot be checked: Cruz's score is unknown",
    ]
    assert [pagruc_remark(n) for n in r.notes] == words
    assert list(notes_text(r)) == words == _json_notes(NO_DEAL)


def test_G7_one_unknown_card_is_worded_in_the_singular() -> None:
    assert pagruc_remark(ScoreUnknown("Cy", 1)) == (
        "Cy's score cannot be computed: 1 unknown card left in hand (no deal line) count minus (G7)"
    )


def test_G6_G7_an_unfinished_hand_and_its_claim_are_noted_in_the_old_words() -> None:
    r = _judged(UNFINISHED)
    assert isinstance(r, PagrucHandResult)
    assert r.notes == (HandNotFinished(), ClaimNotFinished(12))
    assert [n.rule for n in r.notes] == [Rule.G6, Rule.G7]
    words = [
        "the hand is not finished: nobody has discarded the last card in hand (G6)",
        "the Ledger claim (line 12) cannot be compared (G7): the hand is not finished",
    ]
    assert [pagruc_remark(n) for n in r.notes] == words == _json_notes(UNFINISHED)


def test_G7_a_ledger_claim_of_a_stopped_pagruc_hand_is_worded_as_before() -> None:
    r = _judged(STOPPED)
    assert r.notes == (ClaimStopped(9, 16, Rule.G3),)
    assert list(notes_text(r)) == [
        "the Ledger claim (line 9) cannot be compared (G7): the hand stopped at line 16 (G3) before its end"
    ]


def _round_trip(notes: tuple[Any, ...], kind: Any) -> tuple[Any, ...]:
    data = msgspec.msgpack.Encoder(enc_hook=workers._encoded).encode(notes)
    back: tuple[Any, ...] = msgspec.msgpack.Decoder(tuple[kind, ...], dec_hook=workers._decoded).decode(data)
    return back


@pytest.mark.parametrize(
    "text", [COUNTS, NO_DEAL, UNFINISHED, STOPPED], ids=["counts", "no-deal", "unfinished", "stopped"]
)
def test_I3_remarks_come_back_from_messagepack_as_the_same_values(text: str) -> None:
    r = _judged(text)
    kind = PagrucRemark if isinstance(r, PagrucHandResult) else PanRemark
    back = _round_trip(r.notes, kind)
    assert r.notes and back == r.notes
    assert [type(n) for n in back] == [type(n) for n in r.notes]
    assert all(type(getattr(n, "stopped_by", Rule.C9)) is Rule for n in back)
