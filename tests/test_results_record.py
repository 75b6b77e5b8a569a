"""Results record what the referee decided, and the readers only read them: who pays a
collection (the table's payers, I1/I2 retired players included), each seat's decision as the table
applied it (T1), the remedy a later violation follows from, whether a payment is a return (I1,
I2), and how the melds of a player are numbered (foul melds count, I2)."""

from __future__ import annotations

import pytest
from cli_kit import SAMPLES, pan

from pancli.analyze.review import survival
from pancli.api import parse_records
from pancli.app.review import _stakes
from pancli.model.actions import HandScript
from pancli.model.results import HandResult
from pancli.panrules import PanRules
from pancli.referee import referee_hand
from pancli.referee.board import Board
from pancli.referee.position import position_at
from pancli.referee.state import Seat
from pancli.rulebook import Rule


def _script(name: str, hand: int = 0) -> HandScript:
    script = parse_records((SAMPLES / name).read_text(encoding="utf-8"), name, SAMPLES)[hand].script
    assert script is not None
    return script


def _result(name: str, hand: int = 0, *, strict: bool = False) -> HandResult:
    return referee_hand(_script(name, hand), remedy=not strict)


# --------------------------------------------------------------------------- who pays a collection


def test_I1_the_position_counts_a_retired_player_among_the_payers() -> None:
    # line 32: Cruz goes out; Dee retired at line 29 (I1) and still pays him, as the ledger shows
    result = _result("irregular-I1-found-late.pan")
    paid = {p.payer for p in result.payments if p.line == 32 and p.payee == "Cruz" and p.rule == "C4"}
    assert paid == {"Ana", "Dee", "Eli"}
    pos = position_at(_script("irregular-I1-found-late.pan"), 32, "Cruz")
    assert pos.payers == len(paid) == 3
    assert pos.in_play == ("Ana", "Cruz", "Eli")  # Ben on top (T3), Dee retired (I1)


def test_I1_analyze_at_counts_a_retired_player_among_those_who_pay() -> None:
    got = pan("analyze", str(SAMPLES / "irregular-I1-found-late.pan"), "--at", "32")
    assert got.exit_code == 0
    assert "(3 opponents)" in got.stdout
    assert "melded\t3 cards, 1 from each opponent (3 in all)" in got.stdout


def test_I1_review_stakes_leave_a_retired_player_out_of_those_who_may_go_out() -> None:
    pos = position_at(_script("irregular-I1-found-late.pan"), 31, "Eli")
    rules = PanRules(pos.profile)
    dee = next(s for s in pos.seats if s.player == "Dee")
    assert dee.retired is not None and dee.cards == 0
    stakes = _stakes(pos, rules)
    ana = next(s for s in pos.seats if s.player == "Ana")
    cruz = next(s for s in pos.seats if s.player == "Cruz")
    assert stakes.survive == survival([ana.cards, cruz.cards])


def test_I2_collections_and_foul_melds_ask_the_table_who_pays(monkeypatch: pytest.MonkeyPatch) -> None:
    # one question answers who pays: a table that says "only the first of them" is followed by
    # the conditions (C1-C7), going out (C8) and a foul meld paid on the player's word (I2) alike
    asked: list[str] = []
    every = Board.payers

    def first_only(self: Board, seat: Seat) -> list[Seat]:
        asked.append(seat.name)
        return every(self, seat)[:1]

    monkeypatch.setattr(Board, "payers", first_only)
    result = _result("irregular-I2-taken-back.pan")
    foul = [p for p in result.payments if p.line == 28 and p.payee == "Ana"]
    c2 = [p for p in result.payments if p.line == 19]
    c8 = [p for p in result.payments if p.rule == "C8"]
    assert [p.payer for p in foul] == ["Cruz"] and [p.payer for p in c2] == ["Cruz"]
    assert [p.payer for p in c8] == ["Ana"]
    assert {"Ana", "Cruz", "Dee"} <= set(asked)


# --------------------------------------------------------------------------- how melds are numbered


def test_I2_P6_the_calls_the_foul_melds_and_P6_ask_the_table_how_many_melds_it_shows(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # one question numbers a player's melds (foul new melds lying there count, I2): a table that
    # counts otherwise is followed by P6, by the number a foul meld gets and by a call's ruling alike
    monkeypatch.setattr(Board, "meld_count", lambda self, seat: len(seat.melds) + 5)
    v = _result("irregular-I2-taken-back.pan").violations[0]  # "back #2": the foul meld became #7
    assert (v.rule, v.line) == (Rule.I2, 28) and "no foul meld #2" in v.message
    text = (SAMPLES / "irregular-I2-called-late.pan").read_text(encoding="utf-8")
    text = text.replace("meld [Jc Qc Qh] ??", "meld [Qh Qh Qh]").replace("Dee call Ana #2", "Dee call Ana #999")
    text = text.replace("deal Ana 5s 5s 3h 4h Kd Kh Kc Jc Qc 2d", "deal Ana 5s 5s 3h 4h Kd Kh Kc Qh Qh 2d")
    (hand,) = parse_records(text, "called.pan", SAMPLES)
    assert hand.script is not None
    v = referee_hand(hand.script).violations[0]
    assert v.rule is Rule.I2 and v.message.endswith("no foul meld is there: Ana has 7 melds")
    monkeypatch.setattr(Board, "meld_count", lambda self, seat: 0)
    v = _result("irregular-I2-addition-made-good.pan").violations[0]
    assert v.rule is Rule.P6 and v.message.endswith("has no meld: no #1 to change")
