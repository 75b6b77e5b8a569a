"""Rule family: going out and settlement (P7, C8, I3, T2, the ledger claim).

* P7 :func:`ten_cards_fault` (hand plus melded cards is ten between turns; going out is the eleventh card
  melded, with no discard);
* C8 :func:`go_out` (the going-out payment: the bonus plus the value of his melds);
* I3 :func:`closed_hand_fault` (nothing is heard after the hand is closed; a win stands before it);
* T2 :func:`pay_pot` (the winner collects the forfeits and the tops).

>>> from pancli.model.actions import HandScript
>>> from pancli.referee.board import Board
>>> closed_hand_fault(Board(HandScript(players=("Ana", "Ben"))), None, "Ana") is None
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from pancli.decides import decides
from pancli.model.actions import Discard, Out, Turn
from pancli.model.results import ClaimCheck, ClaimKind, Ending, HandResult, Payment, Violation
from pancli.model.rulings import Ruling, counted
from pancli.referee.board import WON, Board, Located
from pancli.referee.state import Seat
from pancli.rulebook import Rule
from pancli.rules import ordinal, ten_words


@decides(Rule.I3, what="whether anything is played or claimed after the hand is closed")
def closed_hand_fault(b: Board, node: Located | None, player: str | None = None) -> Ruling | None:
    """I3: once a player has gone out (or won under T4) the hand is closed."""
    if b.phase is not WON:
        return None
    if b.out and b.seat is not None:
        return b.fail(Rule.I3, f"{b.seat_name} went out: the hand is closed", node)
    return b.fail(Rule.I3, f"the hand is closed: {b.winner} has won it", node, player=player)


def winner_stands(violations: Iterable[Violation]) -> bool:
    """I3: a win (C8, T4) stands when every violation came after it, in the closed hand."""
    return all(v.rule == Rule.I3 for v in violations)


def holds_ten(b: Board, s: Seat) -> bool:
    """P7: between turns, hand plus melded cards is exactly ten, or what he was dealt while a
    wrong count waits for the count that finds it (I1): the rules object's ``holds_ten``."""
    return b.rules.holds_ten(s.hand_n, s.melded_n, s.size)


def ten_cards_fault(b: Board, node: Located) -> Ruling | None:
    """P7 for the player in turn: a discard needs a card left; ``out`` needs every card melded;
    a turn ends with ten cards in hand and melds, or by going out with the eleventh melded.
    (Unseen cards laid beyond those he holds show a wrong count: I1, :func:`.deal.deal_count_fault`.)"""
    s = b.seat
    assert s is not None
    kind = type(node)
    if kind is Discard:
        if b.pending_used and s.hand_n == 0:
            why = f"{s.name} has no card left to discard: with {s.size + 1} melded {s.name} went out"
            return b.fail(Rule.P7, why, node)
        return None
    if kind is Out and (not b.pending_used or s.hand_n > 0 or b.borrowed):
        left = f"{counted(s.hand_n, 'card')} in hand" if s.hand_n else "the drawn card unused"
        return b.fail(Rule.P7, f"{s.name} is not out: {left}", node)
    if kind is Turn and b.discarded:
        if holds_ten(b, s):
            return None
        if s.size == b.hand_size:
            why = ten_words(s.name, s.hand_n, s.melded_n, s.size)
        else:
            why = f"{s.name} holds {s.hand_n} and has {s.melded_n} melded: not the {s.size} dealt to him"
        return b.fail(Rule.P7, why, node)
    if not b.rules.holds_ten(0, s.melded_n - 1, s.size):  # going out: one card more melded than held
        going = ordinal(s.size + 1)
        return b.fail(Rule.P7, f"{s.name} has {counted(s.melded_n, 'card')} melded; going out is the {going}", node)
    return None


def go_out(b: Board, action: Out | None) -> None:
    """The player in turn goes out: the hand is won and closed (C8, I3); he collects the
    going-out payment from each active opponent and the pot (T2)."""
    s = b.seat
    turn = b.turn
    assert s is not None and turn is not None
    b.out = True
    b.end(WON, Ending.OUT, Rule.C8, s)
    node = action if action is not None else turn
    line = node.line or turn.line
    value = b.going_out = b.rules.going_out_value([m.meld for m in s.melds])
    payments = b.collect(s, value.total, (Rule.C8,), line, (), "going out")
    payments += pay_pot(b, s, line, "went out")
    b.step(turn, action, node, payments)


def pay_pot(b: Board, winner: Seat, line: int, note: str) -> list[Payment]:
    """T2: forfeits of the players who went on top, and every other seated player's top, as the
    rules object says each owes the winner (:meth:`.PanRules.owes_winner`)."""
    pay = b.ledger.pay
    owes = [(s, b.rules.owes_winner(s.active is False)) for s in b.seats if s is not winner]
    out = [pay(s.name, winner.name, f, (Rule.T2,), line, None, f"forfeit; {note}") for s, (f, _) in owes if f]
    out += [pay(s.name, winner.name, t, (Rule.T2,), line, None, f"top; {note}") for s, (_, t) in owes if t]
    return out


@decides(Rule.C9, what="whether a record's Ledger claim matches each player's net units")
def check_claims(b: Board, violations: Sequence[Violation] = ()) -> None:
    """Check the ``[Ledger]`` claim against the ledger (one ClaimCheck per player named).

    A hand stopped by a violation has no final ledger: the claim, about the whole hand, cannot
    be compared with the part played before the stop, and a note says so once."""
    claim = b.script.ledger_claim
    if claim is None:
        return
    if violations and not winner_stands(violations):
        v = violations[0]
        b.notes.append(
            f"the Ledger claim (line {claim.line}) cannot be compared (C9): the hand stopped at line {v.line} "
            f"({v.rule}) before its end"
        )
        return
    net = b.ledger.net
    for name, units in claim.units.items():
        b.claims.append(ClaimCheck(Rule.C9, ClaimKind.LEDGER, claim.line, name, units, net.get(name, 0)))


def result(b: Board, violations: list[Violation]) -> HandResult:
    """The hand's result so far."""
    b.ledger.check()
    stands = winner_stands(violations)
    ending, rule = (b.ending, b.ending_rule) if stands else (Ending.STOPPED, violations[0].rule)
    return HandResult(
        players=b.players,
        winner=b.winner if stands else None,
        payments=tuple(b.ledger.payments),
        ledger=dict(b.ledger.net),
        violations=tuple(violations),
        claims=tuple(b.claims),
        notes=tuple(b.notes),
        ending=ending,
        ending_rule=rule,
        stake=b.script.stake,
        recorded=tuple(b.steps) if b.steps is not None else (),
        remedies=tuple(b.remedies),
        retirements=tuple(b.retirements),
        decisions=tuple(s.active for s in b.seats),
        going_out=b.going_out,
    )
