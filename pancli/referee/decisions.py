"""Rule family: the decision round and tops (T1, T2, T3, T4).

* T1 :func:`decision_order_fault` (each player decides once, in order of play, before any play);
* T2 :func:`~pancli.referee.going_out.pay_pot` (settlement: the winner collects the forfeits and the tops);
* T3 :func:`on_top_fault` (a player who went on top takes no further part);
* T4 :func:`apply_decision` (everybody else on top: the one who stayed wins at once).

>>> from pancli.model.actions import Decision, HandScript
>>> from pancli.referee.board import Board
>>> b = Board(HandScript(players=("Ana", "Ben")))
>>> decision_order_fault(b, "Ben", Decision("Ben", True)).violation.message
'Ana decides next in order of play, not Ben'
"""

from __future__ import annotations

from pancli.cards import ALL_CARDS
from pancli.decides import decides
from pancli.model.actions import Decision
from pancli.model.results import DEAD, HAND, Ending, Payment
from pancli.model.rulings import Ruling
from pancli.referee.board import DECIDING, PLAYING, VOID, WON, Board, Located
from pancli.referee.going_out import pay_pot
from pancli.referee.state import Seat
from pancli.rulebook import Rule


@decides(Rule.T1, what="whether a decision comes in the round, in order of play, before any play")
def decision_order_fault(b: Board, player: str | None, node: Located) -> Ruling | None:
    """T1: a decision (``node`` a :class:`Decision`) comes in the round, from the next player
    in order of play (a player who is not seated is S1's to judge); anything else waits for
    the round to end."""
    if isinstance(node, Decision):
        if b.phase is not DECIDING:
            return b.fail(Rule.T1, f"{player} decides after the decision round", node, player=player)
        expected = b.seats[b.decided].name
        if player == expected or player not in b.by_name:
            return None
        return b.fail(Rule.T1, f"{expected} decides next in order of play, not {player}", node, player=player)
    if b.phase is DECIDING:
        who = b.seats[b.decided].name
        return b.fail(Rule.T1, f"play before the decision round is over ({who} has not decided)", node, player=player)
    return None


@decides(Rule.T3, what="whether a player who went on top still takes part")
def on_top_fault(b: Board, s: Seat, node: Located) -> Ruling | None:
    """T3: a player who went on top takes no further part."""
    if s.active:
        return None
    return b.fail(Rule.T3, f"{s.name} went on top and takes no further part", node, player=s.name)


def apply_decision(b: Board, ev: Decision) -> None:
    """Record the decision; after the last one the hand is played, won (T4) or void, as the rules
    object's ``after_decisions`` answers."""
    s = b.seats[b.decided]
    s.active = ev.stay
    b.decided += 1
    if not ev.stay and b.steps is not None:
        for i, n in enumerate(s.hand):
            b.moves.extend([(ALL_CARDS[i], HAND, DEAD)] * n)
    payments: list[Payment] = []
    if b.decided == len(b.seats):
        b.active = [x for x in b.seats if x.active]
        after = b.rules.after_decisions(len(b.active))
        if after == "won":
            b.end(WON, Ending.TOPS, Rule.T4, b.active[0])
            payments = pay_pot(b, b.active[0], ev.line, "T4: all the others went on top")
        elif after == "void":
            b.end(VOID, Ending.VOID, Rule.T4)
        else:
            b.phase = PLAYING
            b.pos = 0
            b.live_ok = bool(b.pile)
            b.live = b.pile[-1] if b.pile else None
    b.step(ev, None, ev, payments)
