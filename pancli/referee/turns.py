"""Rule family: turn order, the draw and the take (P1, P3, P10).

* P1 :func:`turn_draw_fault` (the player in turn plays; a turn begins with one draw or take);
* P3 :func:`taken_card_fault` (only the live discard is taken, and a taken card is melded at once);
* P10 :func:`stock_fault` (an empty stock is rebuilt from the dead discards; with none the hand is void).

>>> from pancli.model.actions import Decision, HandScript, Turn
>>> from pancli.referee.board import Board
>>> from pancli.referee.decisions import apply_decision
>>> b = Board(HandScript(players=("Ana", "Ben")))
>>> apply_decision(b, Decision("Ana", True)); apply_decision(b, Decision("Ben", True))
>>> turn_draw_fault(b, Turn("Ben", ())).violation.message
"it is Ana's turn, not Ben's"
"""

from __future__ import annotations

from pancli.cards import Card
from pancli.decides import decides
from pancli.model.actions import (
    Action,
    Add,
    Borrow,
    Discard,
    Draw,
    MeldNew,
    Mend,
    Out,
    Reshuffle,
    Split,
    Take,
    TakeBack,
    Turn,
)
from pancli.model.results import DISCARD_PILE, STOCK, Ending
from pancli.model.rulings import Ruling, counted
from pancli.referee.board import PLAYING, VOID, Board, Located
from pancli.referee.going_out import go_out
from pancli.rulebook import Rule

PAN_ACTIONS = frozenset({Draw, Take, MeldNew, Add, Borrow, Split, Mend, TakeBack, Discard, Out})
"""The actions of a Panguingue turn (P1)."""


@decides(Rule.P1, what="whether a turn is the player in turn's, with one draw or take first")
def turn_draw_fault(b: Board, node: Turn | Action, *, end: bool = False) -> Ruling | None:
    """P1: a turn line is the turn of the player in turn (before the turn begins); each action
    is one of a Panguingue turn, the first a draw or take and no second one; at the ``end``,
    the turn had its draw or take."""
    if type(node) is Turn:
        if end:
            if b.drew:
                return None
            return b.fail(Rule.P1, f"{b.seat_name}'s turn has no draw or take", node)
        s = b.by_name[node.player]
        if s is b.in_turn:
            return None
        if s.retired is not None:
            r = s.retired
            why = f"{node.player} retired from the hand at line {r.line} ({r.rule}) and plays no further turn"
            return b.fail(Rule.P1, why, node, player=node.player, cause=b.retired_by(s))
        return b.fail(Rule.P1, f"it is {b.in_turn.name}'s turn, not {node.player}'s", node, player=node.player)
    kind = type(node)
    if kind not in PAN_ACTIONS:
        return b.fail(Rule.P1, f"{kind.__name__.lower()} is not a Panguingue action", node)
    draw = kind is Draw or kind is Take
    if not b.drew and not draw:
        return b.fail(Rule.P1, f"{b.seat_name}'s turn begins with a draw or a take", node)
    if b.drew and draw:
        return b.fail(Rule.P1, "one draw or take per turn", node)
    return None


def plays_now(b: Board, player: str) -> bool:
    """The hand is being played (not closed, I3; not void, P10; decided, T1) and ``player`` is
    the active player in turn (S1, T3, P1): when this holds, no judge of a turn line's place
    (:func:`~pancli.referee.table.turn_fault`) finds anything, so they are asked only when it
    does not."""
    return b.phase is PLAYING and b.active[b.pos].name == player


@decides(Rule.P3, what="whether a taken card is the live discard, melded at once")
def taken_card_fault(b: Board, node: Take | Discard | Turn) -> Ruling | None:
    """P3: only the live discard may be taken (a card discarded from a hand is dead); a taken
    card is melded at once (not discarded, not left unused at the end of the turn)."""
    if type(node) is Take:
        if not b.live_ok:
            top = b.pile[-1] if b.pile else None
            what = "there is no discard" if not b.pile else f"the top discard {top or 'card'} is dead"
            return b.fail(Rule.P3, f"{what}: only the previous player's unused stock draw may be taken", node)
        if b.live is not None and node.card != b.live:
            return b.fail(Rule.P3, f"the live discard is {b.live}, not {node.card}", node)
        return None
    if b.pending_used or b.pending_src is not DISCARD_PILE:
        return None
    if type(node) is Discard:
        return b.fail(Rule.P3, f"the taken {b.pending} must be melded at once, not left unused", node)
    return b.fail(Rule.P3, f"the taken {b.pending} must be melded at once", node)


@decides(Rule.P10, what="whether a draw finds a card in the stock, and a reshuffle an empty stock")
def stock_fault(b: Board, node: Located, player: str | None = None) -> Ruling | None:
    """P10: nothing is played in a void hand; a draw needs a card in the stock (the dead discards
    are reshuffled first), and after a reshuffle whose discards the record shows, a card among
    them; a reshuffle needs an empty stock."""
    if b.phase is VOID:
        return b.fail(Rule.P10, "the hand is void: nothing more is played", node, player=player)
    kind = type(node)
    if kind is Draw and b.stock_n <= 0:
        if b.dead_discards():
            return b.fail(Rule.P10, "the stock is empty: the dead discards are reshuffled first", node)
        return b.fail(Rule.P10, "no card is left to draw: the hand is void", node)
    if kind is Draw and b.restock is not None and not b.restock[node.card.index]:  # type: ignore[attr-defined]
        c = node.card  # type: ignore[attr-defined]
        return b.fail(Rule.P10, f"{c} is not among the dead discards reshuffled into the stock", node)
    if kind is Reshuffle and b.phase is PLAYING and b.stock_n > 0:
        return b.fail(Rule.P10, f"reshuffle while the stock still holds {counted(b.stock_n, 'card')}", node)
    return None


def begin_turn(b: Board, turn: Turn) -> None:
    """Start the verified turn ``turn``."""
    b.turn_no += 1
    b.turn = turn
    b.seat = s = b.by_name[turn.player]
    b.fouls, s.standing = s.standing, []  # his foul melds left lying are his to make good (I2)
    b.pending = None
    b.pending_src = STOCK
    b.pending_used = False
    b.drew = False
    b.hand_melded = False
    b.discarded = False
    b.out = False
    b.must_add = False
    b.borrowed = []


def end_turn(b: Board) -> None:
    """Close the turn: going out when the hand is empty (C8), then the next player is in turn."""
    s = b.seat
    assert s is not None
    if not b.out and not b.discarded and b.drew and b.pending_used and s.hand_n == 0 and s.retired is None:
        go_out(b, None)
    if b.pending is not None and not b.pending_used and not b.discarded:
        # non-strict repair of an unused draw: it becomes a dead discard
        b.pile.append(b.pending)
        b.live_ok = False
    b.forced_by = None
    next_in_turn(b)
    b.seat = None
    b.turn = None


def from_stock(b: Board, c: Card) -> None:
    """The stock gives ``c``, shown to all (P1; P10: one card fewer in it, and one fewer of the
    dead discards reshuffled into it)."""
    b.stock_n -= 1
    b.seen[c.index] += 1
    if b.restock is not None:
        b.restock[c.index] -= 1


def goes_live(b: Board, c: Card) -> None:
    """The unused stock draw ``c`` is discarded: the live discard for the next player (P2, P3)."""
    b.pile.append(c)
    b.live_ok = True
    b.live = c


def next_in_turn(b: Board) -> None:
    """The turn passes to the next active player (P1)."""
    if b.phase is PLAYING and b.active:
        b.pos = (b.pos + 1) % len(b.active)


def plain_turn(b: Board, c: Card) -> None:
    """A verified plain turn, ``draw C, discard C``, applied whole (the referee's fast turn): one
    turn more, the stock gives ``c``, it goes live and the next player is in turn, by the
    functions :func:`begin_turn`, :func:`apply_draw`, the unused draw's discard and
    :func:`end_turn` change the table by (a plain turn leaves no turn in progress to set up)."""
    b.turn_no += 1
    from_stock(b, c)
    goes_live(b, c)
    next_in_turn(b)


def apply_draw(b: Board, a: Draw) -> None:
    """The drawn card is shown and pending (P2)."""
    from_stock(b, a.card)
    b.pending = a.card
    b.pending_src = STOCK
    b.drew = True
    b.live_ok = False


def apply_take(b: Board, a: Take, must_add: bool) -> None:
    """The taken card is pending and must be melded at once (P3); ``must_add`` when P8 forces it."""
    if b.live is None:
        b.seen[a.card.index] += 1
    b.pile.pop()
    b.live_ok = False
    b.pending = a.card
    b.pending_src = DISCARD_PILE
    b.drew = True
    b.must_add = must_add


def apply_reshuffle(b: Board, ev: Reshuffle) -> None:
    """P10: the dead discards become the stock (none left: the hand is void)."""
    if not b.dead_discards():
        b.end(VOID, Ending.VOID, Rule.P10)
        b.step(ev, None, ev, [])
        return
    dead = b.pile[:-1]
    seen = b.seen
    restock = [0] * 52
    for c in dead:
        if c is not None:
            seen[c.index] -= 1
            restock[c.index] += 1
            if b.steps is not None:
                b.moves.append((c, DISCARD_PILE, STOCK))
    b.restock = None if None in dead else restock  # an upcard not shown: the new stock is not known
    b.stock_n = len(dead)
    del b.pile[:-1]
    b.step(ev, None, ev, [])
