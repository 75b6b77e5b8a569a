"""Rule family: the discard, forcing and the flat player (P2, P4, P5, P8, P9).

* P2 :func:`unused_draw_fault` (the drawn card never joins the hand: it is used, or discarded at once);
* P4 :func:`melding_gate_fault` (hand cards are melded only in a turn that uses the drawn card);
* P5 :func:`discard_fault` (a player who used his draw ends his turn with a discard, which ends it);
* P8 :func:`forcing_fault`, asking the rules object's :meth:`~pancli.panrules.PanRules.must_take`
  (a forced live discard is taken and added);
* P9 :func:`flat_player_fault`, asking :meth:`~pancli.panrules.PanRules.must_keep_draw` (the draw
  that fits a flat next player's melds is kept), with :func:`holds_nothing_else`.

What the discard that ends the turn must be, as the turn stands, is one question,
:func:`discard_due` (the position's :meth:`~pancli.referee.table.Table.discard_due`): the
discard's judges, positions and reviews ask it. :func:`verify_discard` returns a frozen
:class:`DiscardPlan` that :func:`apply_discard` uses.
The self-play generator asks the same two questions of the same rules object.
"""

from __future__ import annotations

import enum

from pancli.cards import Card
from pancli.decides import decides
from pancli.model.actions import Discard, Draw, Force, MeldNew, Turn
from pancli.model.results import DISCARD_PILE, HAND, STOCK
from pancli.model.rulings import Ruling
from pancli.referee.board import DECIDING, PLAYING, Board, Located
from pancli.referee.going_out import ten_cards_fault
from pancli.referee.melding import CardPlan, plan_cards, unused_borrow_fault
from pancli.referee.state import Seat
from pancli.referee.turns import goes_live, taken_card_fault
from pancli.rulebook import Rule
from pancli.values import Value


class DiscardKind(enum.Enum):
    """What a discard does with the card drawn this turn."""

    UNUSED_DRAW = "unused draw"
    """The unused stock draw goes to the pile and is live for the next player (P2, P3)."""
    KEPT_DRAW = "kept draw"
    """The unused draw is kept and a hand card discarded (P9)."""
    HAND_CARD = "hand card"
    """A hand card after the draw was used (P5): a dead card."""


class DiscardPlan(Value):
    """What a verified discard does (``cards``: where the discarded card comes from)."""

    kind: DiscardKind
    cards: CardPlan | None = None


class Discarding(enum.Enum):
    """What the discard that ends the turn may be, as the turn stands (:class:`DiscardDue`)."""

    NOT_YET = "not yet"
    """No discard now: the turn has no draw yet (P1), or the drawn card must be used first (P3, P4)."""
    THE_DRAW = "the draw"
    """The unused stock draw, at once (P2): the turn ends and it is live for the next player."""
    HAND_CARD = "a hand card"
    """One card of the hand (P5; under P9 the kept draw joins the hand, and another card goes)."""
    NONE = "none"
    """Nothing is discarded: the player went out (P7), the discard ended the turn (P5), or the
    hand is over."""


class DiscardDue(Value):
    """The discard the turn calls for, as it stands after the draw and any melds, and the rule
    that says so (:func:`discard_due`): the unused stock draw ``card`` (P2), a hand card but
    ``excluded``, the kept draw (P9), any hand card (P5), or none now (P1, P3, P4, P7, P5 once
    discarded; between hands the rule the hand ended under, or T1 while deciding).

    >>> from pancli.cards import card, Rank, Suit
    >>> five = card(Rank.FIVE, Suit.SPADES)
    >>> due = DiscardDue(Rule.P9, Discarding.HAND_CARD, excluded=five)
    >>> due.allows(five, held=True), due.allows(card(Rank.KING, Suit.CLUBS), held=True)
    (False, True)
    """

    rule: Rule
    due: Discarding
    card: Card | None = None
    """The one card to discard (P2: the unused stock draw), or None."""
    excluded: Card | None = None
    """The card that may not be discarded (P9: the kept draw, unless the hand holds nothing else)."""

    def allows(self, c: Card, held: bool) -> bool:
        """Whether discarding ``c`` now is what the turn calls for (``held``: the hand holds a
        copy of ``c``, or a card the record does not show). The discard's other judges (E4, M6,
        P7) still apply."""
        due = self.due
        if due is Discarding.THE_DRAW:
            return c == self.card
        return due is Discarding.HAND_CARD and held and c != self.excluded


def discard_due(b: Board) -> DiscardDue:
    """What the discard that ends the turn of the player in turn must be, as the turn stands
    (:class:`DiscardDue`): P8's forced card is taken, so P3 answers for it; P9 is the rules
    object's :meth:`~pancli.panrules.PanRules.must_keep_draw`."""
    phase = b.phase
    if phase is not PLAYING:
        if phase is DECIDING:
            return DiscardDue(Rule.T1, Discarding.NOT_YET)
        return DiscardDue(b.ending_rule or Rule.I3, Discarding.NONE)
    s = b.seat
    if s is None or not b.drew:
        return DiscardDue(Rule.P1, Discarding.NOT_YET)
    if b.discarded:
        return DiscardDue(Rule.P5, Discarding.NONE)
    if b.out:
        return DiscardDue(Rule.P7, Discarding.NONE)
    if not b.pending_used:
        if b.pending_src is DISCARD_PILE:
            return DiscardDue(Rule.P3, Discarding.NOT_YET)
        if b.hand_melded:
            return DiscardDue(Rule.P4, Discarding.NOT_YET)
        pending = b.pending
        if pending is not None and b.rules.must_keep_draw(s, b.next_seat, pending):
            kept = None if holds_nothing_else(s, pending) else pending
            return DiscardDue(Rule.P9, Discarding.HAND_CARD, excluded=kept)
        return DiscardDue(Rule.P2, Discarding.THE_DRAW, card=pending)
    if s.hand_n == 0:
        return DiscardDue(Rule.P7, Discarding.NONE)  # the eleventh card melded: he went out
    return DiscardDue(Rule.P5, Discarding.HAND_CARD)


def holds_nothing_else(s: Seat, c: Card) -> bool:
    """P9: every card of ``s``'s hand is a known copy of ``c``, so that discarding ``c`` is
    discarding a hand card even when ``c`` is the kept draw."""
    return s.unknown == 0 and s.hand[c.index] == s.hand_n


@decides(Rule.P2, what="whether an unused stock draw is discarded at once")
def unused_draw_fault(b: Board, node: Discard | Turn, flat: bool = False) -> Ruling | None:
    """P2: the unused stock draw is discarded at once (a different card only when P9 keeps it,
    ``flat``), never left unused at the end of the turn."""
    if b.pending_used:
        return None
    if type(node) is Discard:
        if flat:
            return None
        return b.fail(Rule.P2, f"the drawn {b.pending} never joins the hand: use it or discard it", node)
    return b.fail(Rule.P2, f"the drawn {b.pending} must be used or discarded at once", node)


@decides(Rule.P4, what="whether hand cards are melded in a turn that uses the drawn card")
def melding_gate_fault(b: Board, node: Discard) -> Ruling | None:
    """P4: hand cards were melded, so the drawn card must be used this turn."""
    if b.pending_used or not b.hand_melded:
        return None
    return b.fail(Rule.P4, f"hand cards were melded but the drawn {b.pending} is not used", node)


@decides(Rule.P5, what="whether a turn that used its draw ends with a discard, and nothing after it")
def discard_fault(b: Board, node: Located) -> Ruling | None:
    """P5: the discard ends the turn (no action after it); a player who used his draw and
    still holds cards ends his turn with a discard."""
    s = b.seat
    assert s is not None
    if type(node) is Turn:
        due = discard_due(b)
        if due.rule is not Rule.P5 or due.due is not Discarding.HAND_CARD:
            return None
        return b.fail(Rule.P5, f"{s.name} used the draw and must end the turn with a discard", node)
    if b.discarded:
        return b.fail(Rule.P5, f"{b.seat_name}'s discard ended the turn", node)
    return None


def forcing_fault(b: Board, node: Draw | MeldNew | Discard | Force, *, uses_pending: bool = False) -> Ruling | None:
    """P8: a forced live discard must be taken (no draw) and added to one of the player's melds
    (not laid in a new meld, ``uses_pending``, nor left unused); a ``force`` line names the
    player in turn, another player, whose meld the live discard fits."""
    kind = type(node)
    if kind is Draw:
        s = b.seat
        assert s is not None
        n = b.rules.must_take(b.forced_by, b.automatic, s, b.live if b.live_ok else None)
        if n < 0:
            return b.fail(Rule.P8, f"{b.forced_by} forced {s.name} to take {b.live}; {s.name} may not draw", node)
        if n:
            return b.fail(
                Rule.P8, f"the live discard {b.live} fits {s.name}'s meld #{n}: {s.name} must take and add it", node
            )
        return None
    if kind is MeldNew:
        if b.must_add and uses_pending:
            return b.fail(Rule.P8, f"the forced {b.pending} must be added to one of {b.seat_name}'s melds", node)
        return None
    if kind is Discard:
        if b.must_add and not b.pending_used:
            return b.fail(Rule.P8, f"the forced {b.pending} must be added", node)
        return None
    assert isinstance(node, Force)
    player, other = node.player, b.by_name[node.other]
    if other is not b.in_turn:
        return b.fail(Rule.P8, f"{node.other} is not in turn ({b.in_turn.name} is)", node, player=player)
    if other is b.by_name[player]:
        return b.fail(Rule.P8, f"{player} cannot force {player}", node, player=player)
    if not b.live_ok or b.live is None:
        return b.fail(Rule.P8, "there is no live discard to force", node, player=player)
    if not other.fits(b.rules, b.live):
        return b.fail(Rule.P8, f"the live discard {b.live} fits none of {node.other}'s melds", node, player=player)
    return None


def flat_player_fault(b: Board, s: Seat, node: Discard, due: DiscardDue) -> Ruling | None:
    """P9: a player who must keep the unused draw (``due``, asking
    :meth:`pancli.panrules.PanRules.must_keep_draw`) discards a hand card: the drawn card itself
    only as a copy of a hand that holds nothing else."""
    c = node.card
    if due.rule is not Rule.P9 or due.excluded is None or c != due.excluded:
        return None
    return b.fail(
        Rule.P9, f"{b.next_seat.name} is flat and {c} fits {b.next_seat.name}'s melds: {s.name} must keep it", node
    )


def apply_discard(b: Board, a: Discard, plan: DiscardPlan) -> None:
    """Discard: the unused draw goes live (P3); or the kept draw joins the hand (P9) and a hand
    card goes to the pile, dead."""
    s = b.seat
    assert s is not None
    c = a.card
    record = b.steps is not None
    b.discarded = True
    if plan.kind is DiscardKind.UNUSED_DRAW:
        goes_live(b, c)
        if record:
            b.moves.append((c, STOCK, DISCARD_PILE))
        return
    if plan.kind is DiscardKind.KEPT_DRAW:
        assert b.pending is not None
        s.hand[b.pending.index] += 1
        s.hand_n += 1
        b.pending_used = True
        if record:
            b.moves.append((b.pending, STOCK, HAND))
    assert plan.cards is not None
    discard_hand_card(b, s, c, plan.cards.unknown_need > 0)


def discard_hand_card(b: Board, s: Seat, c: Card, unseen: bool) -> None:
    """``s`` discards ``c`` from his hand (one the record never showed, ``unseen``): a dead card
    on the pile, the turn ended (P5): :func:`apply_discard` and the referee's fast meld turn
    discard a hand card so."""
    b.discarded = True
    i = c.index
    if unseen:
        s.unknown -= 1
        b.seen[i] += 1
    else:
        s.hand[i] -= 1
    s.hand_n -= 1
    b.pile.append(c)
    b.live_ok = False
    if b.steps is not None:
        b.moves.append((c, HAND, DISCARD_PILE))


def verify_discard(b: Board, a: Discard) -> DiscardPlan:
    """A discard (P3, P4, P8, P9, P2 while the draw is unused; P7 after; M6, E4); raises Ruling."""
    s = b.seat
    assert s is not None
    c = a.card
    kind = DiscardKind.HAND_CARD
    if not b.pending_used:
        r = taken_card_fault(b, a) or melding_gate_fault(b, a) or forcing_fault(b, a)
        if r is not None:
            raise r
        due = discard_due(b)
        if due.due is Discarding.THE_DRAW and c == due.card:
            return DiscardPlan(DiscardKind.UNUSED_DRAW)
        # P2 excuses a discard other than the draw when P9 keeps it
        r = flat_player_fault(b, s, a, due) or unused_draw_fault(b, a, due.rule is Rule.P9)
        kind = DiscardKind.KEPT_DRAW
    else:
        r = ten_cards_fault(b, a)
    r = r or unused_borrow_fault(b, a)
    if r is not None:
        raise r
    return DiscardPlan(kind, plan_cards(b, (c,), a, borrowed=False))
