"""Results record what the referee decided, and the readers only read them: who pays a
collection (the table's payers, I1/I2 retired players included), each seat's decision as the table
applied it (T1), the remedy a later violation follows from, whether a payment is a return (I1,
I2), and how the melds of a player are numbered (foul melds count, I2)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_kit import SAMPLES, pan

from pancli.analyze.review import survival
from pancli.api import parse_records
from pancli.app.review import _stakes
from pancli.model.actions import HandScript
from pancli.model.results import HandResult, PaidFor, Payment, is_return
from pancli.panrules import PanRules
from pancli.referee import referee_script
from pancli.referee.board import Board, Seat
from pancli.referee.play import collected, give, transfer
from pancli.referee.position import position_at
from pancli.render.words import collection_lines, collections, parts, payment_note
from pancli.rulebook import Rule


def _script(name: str, hand: int = 0) -> HandScript:
    script = parse_records((SAMPLES / name).read_text(encoding="utf-8"), name, SAMPLES)[hand].script
    assert script is not None
    return script


def _result(name: str, hand: int = 0, *, strict: bool = False) -> HandResult:
    return referee_script(_script(name, hand), remedy=not strict)


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
    v = referee_script(hand.script).violations[0]
    assert v.rule is Rule.I2 and v.message.endswith("no foul meld is there: Ana has 7 melds")
    monkeypatch.setattr(Board, "meld_count", lambda self, seat: 0)
    v = _result("irregular-I2-addition-made-good.pan").violations[0]
    assert v.rule is Rule.P6 and v.message.endswith("has no meld: no #1 to change")


# --------------------------------------------------------------------------- a return is a fact


def test_I2_a_return_is_the_payment_s_fact_not_its_note() -> None:
    # whether a payment gives a collection back, and which, is a field; its words are render's
    b = Board(HandScript(players=("Ana", "Ben", "Cruz")))
    paid = transfer(b, "Ben", "Ana", 3, Rule.I2, 9, None, PaidFor.FOUL_MELD)
    back = give(b, paid, Rule.I2, 12)
    assert (back.payer, back.payee, back.line, back.returned_of) == ("Ana", "Ben", 12, 9)
    assert is_return(back) and not is_return(paid)
    assert (payment_note(paid), payment_note(back)) == (
        "foul meld, paid on Ana's word",
        "returned (collected at line 9)",
    )
    assert collected(b, "Ana") == []
    reworded = Payment("Ana", "Cruz", 2, (Rule.I2,), 14, None, returned_of=13)
    assert is_return(reworded)
    (c,) = collections([reworded])
    assert (c.payee, c.verb, c.payers, c.what()) == ("Ana", "returns", ("Cruz",), "(collected at line 13)")
    assert collection_lines([reworded], None) == ["  line 14: Ana returns I2 (collected at line 13): 2 to Cruz"]


def test_I2_json_payments_name_the_collection_a_return_gives_back() -> None:
    got = pan("replay", "--json", str(SAMPLES / "irregular-I2-taken-back.pan"))
    (hand,) = json.loads(got.stdout)
    returns = [p for p in hand["payments"] if "returned_of" in p]
    assert [(p["payer"], p["returned_of"], p["note"]) for p in returns] == [
        ("Ana", 28, "returned (collected at line 28)")
    ] * 3
    assert all(p["payer"] != "Ana" or p["rule"] != "I2" for p in hand["payments"] if "returned_of" not in p)


# --------------------------------------------------------------------------- what a payment is for


def test_C7_C8_T2_payments_record_what_they_are_for_as_values() -> None:
    # the referee records the kind and the meld changed; no sentence of its own
    payments = _result("cardroom-saturday.pan").payments
    kinds = {(p.line, p.paid_for, p.target) for p in payments if p.paid_for is not None}
    assert {(29, PaidFor.SPLIT, 2), (32, PaidFor.GROWS, 1), (39, PaidFor.GROWS, 2)} <= kinds
    assert {k for _, k, _ in kinds} >= {PaidFor.GOING_OUT, PaidFor.TOP}
    assert all(p.target is None for p in payments if p.paid_for not in (PaidFor.SPLIT, PaidFor.BORROW, PaidFor.GROWS))
    tops = _result("cardroom-tops-and-borrowing.pan").payments
    assert {p.paid_for for p in tops if p.rule == "T2"} == {PaidFor.TOP_T4}
    assert {payment_note(p) for p in tops if p.rule == "T2"} == {"top; T4: all the others went on top"}


def test_collections_group_by_what_the_payments_are_for() -> None:
    # one line, one payee, one rule and amount: additions to two melds are two collections
    grows = [Payment(o, "Ana", 1, (Rule.C7,), 9, None, PaidFor.GROWS, n) for n in (1, 2) for o in ("Ben", "Cruz")]
    assert [(c.what(), c.payers) for c in collections(grows)] == [
        ("#1 grows", ("Ben", "Cruz")),
        ("#2 grows", ("Ben", "Cruz")),
    ]
    assert collection_lines(grows, None) == [
        "  line 9: Ana collects C7 #1 grows: 1 from each of Ben Cruz = 2",
        "  line 9: Ana collects C7 #2 grows: 1 from each of Ben Cruz = 2",
    ]
    pot = [Payment("Ben", "Ana", 2, (Rule.T2,), 20, None, k) for k in (PaidFor.FORFEIT, PaidFor.FORFEIT_T4)]
    assert [c.what() for c in collections(pot)] == ["forfeit; went out", "forfeit; T4: all the others went on top"]


# --------------------------------------------------------------------------- each seat's decision


def test_T1_the_result_records_each_decision_as_the_table_applied_it() -> None:
    # line 14: Dee decides before Cruz (T1) and the hand stops: Cruz, Dee and Eli never decided
    result = _result("illegal-T1-decision-order.pan")
    assert result.violations[0].rule is Rule.T1
    assert dict(zip(result.players, result.decisions, strict=True)) == {
        "Ana": True,
        "Ben": False,
        "Cruz": None,
        "Dee": None,
        "Eli": None,
    }
    assert parts(result) == {"Ana": "stayed", "Ben": "went on top", "Cruz": "", "Dee": "", "Eli": ""}


def test_T1_the_ledger_shows_no_part_for_a_decision_never_played(tmp_path: Path) -> None:
    path = str(SAMPLES / "illegal-T1-decision-order.pan")
    terminal = pan("replay", path, env={"PAN_FORCE_TERMINAL": "1", "COLUMNS": "160", "NO_COLOR": "1"}).stdout
    rows = {line.split("│")[1].strip(): line.split("│")[2].strip() for line in terminal.splitlines() if "│" in line}
    assert (rows["Ana"], rows["Ben"], rows["Cruz"], rows["Dee"], rows["Eli"]) == ("stayed", "went on top", "", "", "")
    page = tmp_path / "t1.html"
    assert pan("replay", path, "--html", str(page)).exit_code == 1
    html = page.read_text(encoding="utf-8")
    assert html.count("<td>stayed</td>") == 1 and html.count("<td>went on top</td>") == 1


# --------------------------------------------------------------------------- what a violation follows from


def _eli_discards(card: str, tmp_path: Path) -> Path:
    """illegal-I1-wrong-count.pan (Eli dealt eleven, the extra 2s gone to the dead cards, I1) with
    Eli's last turn discarding ``card`` instead of Ac."""
    text = (SAMPLES / "illegal-I1-wrong-count.pan").read_text(encoding="utf-8")
    old = "12. Eli draw 6c, meld [4c 5c 6c], discard Ac"
    assert old in text
    path = tmp_path / f"eli-{card}.pan"
    path.write_text(text.replace(old, f"12. Eli draw 6c, meld [4c 5c 6c], discard {card}"), encoding="utf-8")
    return path


def _disputed(path: Path) -> dict[str, object]:
    got = pan("settle", "--json", str(path))
    (d,) = json.loads(got.stdout)["disputed"]
    assert isinstance(d, dict)
    return d


def test_I1_playing_a_card_taken_out_of_the_deal_follows_from_the_I1(tmp_path: Path) -> None:
    path = _eli_discards("2s", tmp_path)
    (hand,) = parse_records(path.read_text(encoding="utf-8"), path.name, tmp_path)
    assert hand.script is not None
    v = referee_script(hand.script).violations[0]
    assert v.rule is Rule.E4 and "does not hold 2s" in v.message
    assert v.cause is not None and (v.cause.rule, v.cause.line, v.cause.player) == (Rule.I1, 11, "Eli")
    d = _disputed(path)
    assert (d["kind"], d["rule"], d["line"]) == ("irregularity", "I1", 11)


def test_I1_a_later_fault_the_remedy_did_not_cause_is_the_dispute_itself(tmp_path: Path) -> None:
    # Eli's deal was put right (I1); discarding a card he never held is his own E4, not the I1's
    path = _eli_discards("Qh", tmp_path)
    (hand,) = parse_records(path.read_text(encoding="utf-8"), path.name, tmp_path)
    assert hand.script is not None
    v = referee_script(hand.script).violations[0]
    assert v.rule is Rule.E4 and "does not hold Qh" in v.message and v.cause is None
    d = _disputed(path)
    assert (d["kind"], d["rule"], d["line"], d["player"]) == ("violation", "E4", 30, "Eli")


def test_I2_a_retired_player_s_turn_names_the_retirement_as_its_cause() -> None:
    text = (SAMPLES / "irregular-I2-called-late.pan").read_text(encoding="utf-8").splitlines()
    assert text[35].startswith("14. Cruz draw 3h")
    text[35] = "14. Ana draw 3h, discard 3h"
    (hand,) = parse_records("\n".join(text) + "\n", "late.pan", SAMPLES)
    assert hand.script is not None
    v = referee_script(hand.script).violations[0]
    assert (v.rule, v.line, v.player) == (Rule.P1, 36, "Ana")
    assert v.cause is not None and (v.cause.rule, v.cause.line, v.cause.player) == (Rule.I2, 35, "Ana")
