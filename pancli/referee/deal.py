"""Rule family: seating and the deal (S1, S2, I1) and the cards of the pack (E1, E4).

Each rule is judged by one function here, which returns the :class:`Ruling` when the rule is
broken and None when it holds (the caller raises it, or a bulk path falls back):

* S1 :func:`seat_fault` (2 to 15 players, unique names, a player named is seated);
* S2 :func:`second_deal_fault` (each player is dealt once);
* I1 :func:`deal_count_fault` (ten cards dealt; shown later, more cards laid than he holds);
* E1, E4 :func:`card_fault` (a card in the pack, never more copies than it holds (the
  comparison is :func:`pancli.cards.past_the_pack`, which ``pan pay`` asks too), never a card
  its holder does not hold; what a known hand lacks is :func:`beyond_hand`).

:func:`verify_deal` returns a frozen :class:`DealPlan` that :func:`apply_deal` uses.

>>> from pancli.model.actions import HandScript
>>> from pancli.referee.board import Board
>>> seat_fault(Board(HandScript(players=("Ana",))), None).violation.message
'1 player seated; Panguingue seats 2 to 15'
"""

from __future__ import annotations

from pancli.cards import ALL_CARDS, Card
from pancli.decides import decides
from pancli.model.actions import Count, Deal
from pancli.model.results import DEAD, DEAL, DISCARD_PILE, HAND, STOCK, Step
from pancli.model.rulings import I1_AT_DEAL, I1_LATE, Ruling, counted
from pancli.panrules import card_key
from pancli.referee.board import Board, Located, Place
from pancli.referee.state import Seat
from pancli.rulebook import Rule
from pancli.values import Value


class DealPlan(Value):
    """What a verified deal puts where: the dense card indices as written (:func:`card_key`)."""

    key: bytes


def seat_fault(b: Board, player: str | None, node: Located | None = None, *, by: str | None = None) -> Ruling | None:
    """S1: with ``player`` None, the seating (2 to 15 players, names unique); else ``player``
    is seated (the ruling charged to ``by``, default ``player``)."""
    if player is not None:
        if player in b.by_name:
            return None
        what = "is dealt cards but is not seated" if isinstance(node, Deal) else "is not seated"
        return b.fail(Rule.S1, f"{player} {what}", node, player=by or player)
    names = b.players
    line = b.script.first_line
    why = b.rules.seating(len(names))
    if why is not None:
        return Ruling.make(Rule.S1, None, why, line=line)
    if len(set(names)) != len(names):
        dup = next(n for n in names if names.count(n) > 1)
        return Ruling.make(Rule.S1, dup, f"{dup} is seated twice; each player has one seat", line=line)
    return None


@decides(Rule.S2, what="whether a player is dealt a second time")
def second_deal_fault(b: Board, s: Seat, d: Deal) -> Ruling | None:
    """S2: a player is dealt once (his ten cards are still unseen and none is counted)."""
    dealt = b.hand_size
    if s.unknown == dealt and s.hand_n == dealt and not any(s.hand):
        return None
    return b.fail(Rule.S2, f"{d.player} is dealt twice", d, player=d.player)


def counted_later(b: Board, player: str) -> bool:
    """Whether a ``count`` of ``player`` is called in the hand: a wrong count at his deal is then
    found at the count, not at the deal (I1), where the referee puts irregularities right."""
    return b.remedy and any(type(ev) is Count and ev.other == player for ev in b.script.events)


@decides(Rule.I1, what="whether a player was dealt ten cards (at the deal, or shown later)")
def deal_count_fault(b: Board, node: Deal | Count | Located, *, unseen: int = 0, found: bool = False) -> Ruling | None:
    """I1: ten cards to each player (S2). At the deal, ``node`` is the deal line (a wrong count
    there waits for a count of the player called later, :func:`counted_later`); found after
    the first draw, the player in turn lays ``unseen`` cards from those the record never showed
    when he holds fewer: he was dealt more than ten. At a ``count`` line: the call itself
    (a count of a player who retired or went on top, or a number found that the record
    contradicts), or with ``found`` what the count finds (hand and melds not ten)."""
    if type(node) is Count:
        got = _count_finding(b, node, found)
        return None if got is None else b.fail(Rule.I1, got[0], node, player=got[1], ruling=got[2])
    if type(node) is Deal:
        n = len(node.cards)
        if n == b.hand_size or counted_later(b, node.player):
            return None
        return b.fail(
            Rule.I1,
            f"{node.player} is dealt {counted(n, 'card')}, not {b.hand_size}",
            node,
            player=node.player,
            ruling=I1_AT_DEAL,
        )
    s = b.seat
    assert s is not None
    if unseen <= s.unknown:
        return None
    dealt = b.hand_size
    return b.fail(
        Rule.I1,
        f"{s.name} lays {counted(unseen, 'unseen card')} but holds only {s.unknown}: more than {dealt} were dealt",
        node,
        ruling=I1_LATE,
    )


def _count_finding(b: Board, node: Count, found: bool) -> tuple[str, str, str | None] | None:
    """What is wrong with a ``count`` line (:func:`deal_count_fault`): the message, whose it is
    and the ruling prescribed; None when nothing is."""
    s = b.by_name[node.other]
    if not found:
        if s.retired is not None:
            r = s.retired
            why = (
                f"{s.name} retired from the hand at line {r.line} ({r.rule}): the cards held are dead,"
                " there is nothing to count"
            )
        elif s.active is False:
            why = f"{s.name} went on top (T3): the cards held are dead, there is nothing to count"
        elif node.number is not None and not s.unknown and node.number != s.hand_n:
            why = f"the count finds {node.number} in {s.name}'s hand, but the record shows {s.hand_n}"
        else:
            return None
        return why, node.player, None
    held = s.hand_n if node.number is None else node.number
    if b.rules.holds_ten(held, s.melded_n) or (s.unknown and node.number is None):
        return None
    melded = f" and {s.melded_n} melded" if s.melded_n else ""
    why = f"{node.player}'s count finds {s.name} with {held} in hand{melded}: {held + s.melded_n}, not {b.hand_size}"
    return why, s.name, I1_LATE if b.turn_no else I1_AT_DEAL


def card_fault(
    b: Board, c: Card, node: Located, extra: int = 1, *, player: str | None = None, holder: Seat | None = None
) -> Ruling | None:
    """E1 and E4 for ``extra`` more copies of ``c`` becoming known. With ``holder`` (a player
    laying copies his known hand does not hold): E4 when his whole hand is known (the card
    comes from nowhere), else the copies come from his unseen cards and are counted."""
    i = c.index
    if holder is not None and holder.unknown == 0:
        held = holder.hand[i]
        times = "" if held == 0 else f" {held + extra} times (holds {held})"
        why = f"{holder.name} does not hold {c}{times}: a card cannot come from nowhere"
        return b.fail(Rule.E4, why, node, cause=b.taken_from_deal(holder, c))
    rules = b.rules
    copies = rules.copies[i]  # (copies_of's answers, asked once per card when the rules were built)
    if copies == 0:
        return b.fail(Rule.E1, f"{c} is not in this pack", node, player=player)
    if rules.past_the_pack(b.seen, ((i, extra),)) is not None:
        return b.fail(
            Rule.E4,
            f"one copy of {c} too many: the pack holds {copies} and all are already accounted for",
            node,
            player=player,
        )
    return None


def beyond_hand(hand: list[int], need: dict[int, int]) -> list[tuple[int, int]]:
    """E4 for a player's known ``hand`` (copies by :attr:`Card.index`): each card of ``need``
    (index -> copies he lays) with how many copies beyond his known hand it needs, in the order
    of ``need``; empty when he holds them all. The copies beyond come from his unseen cards or
    from nowhere (:func:`card_fault` with the holder).

    >>> hand = [0] * 52
    >>> hand[7] = 2
    >>> beyond_hand(hand, {7: 2}), beyond_hand(hand, {7: 3, 9: 1})
    ([], [(7, 1), (9, 1)])
    """
    return [(i, n - hand[i]) for i, n in need.items() if n > hand[i]]


def _first_excess(b: Board, key: bytes) -> tuple[int, int] | None:
    """The first card of ``key`` (and which copy of it) that :func:`card_fault` refuses, or None."""
    seen = b.seen
    need: dict[int, int] = {}
    for i in key:
        need[i] = need.get(i, 0) + 1
    past = b.rules.past_the_pack
    if past(seen, need.items()) is None:  # the whole deal at once: nothing is past the pack
        return None
    need.clear()
    counts = []
    for i in key:  # which copy, in the deal's order
        n = need[i] = need.get(i, 0) + 1
        counts.append((i, n))
    over = past(seen, counts)
    assert over is not None
    return over[0], over[1] - seen[over[0]]


def verify_deal(b: Board, d: Deal) -> DealPlan:
    """S1/S2 (a seated player, dealt once) and E1/E4 for the dealt cards; raises Ruling.
    The count (I1) is :func:`deal_count_fault`: a wrong count is put right, not refused."""
    r = seat_fault(b, d.player, d)
    if r is not None:
        raise r
    r = second_deal_fault(b, b.by_name[d.player], d)
    if r is not None:
        raise r
    key = card_key(d.cards)
    bad = _first_excess(b, key)
    if bad is not None:
        i, n = bad
        c = ALL_CARDS[i]  # charged to the dealt player at the n-th copy of c as written
        j = [k for k, x in enumerate(d.cards) if x == c][n - 1]
        r = card_fault(b, c, Place(*d.card_place(j)), n, player=d.player)
        assert r is not None
        raise r
    return DealPlan(key)


def apply_deal(b: Board, d: Deal, plan: DealPlan | None = None) -> None:
    """Put the dealt cards in the player's hand; a wrong count is put right as I1 prescribes
    (extras to the dead cards; a short hand filled from the stock with unseen cards)."""
    s = b.by_name[d.player]
    seen = b.seen
    hand = s.hand
    n = len(d.cards)
    key = plan.key if plan is not None else card_key(d.cards)
    # a wrong count found only at a later count: he holds what he was dealt until then (I1)
    dealt = b.hand_size
    keep = n if n != dealt and counted_later(b, d.player) else dealt
    for i in key[:keep]:
        seen[i] += 1
        hand[i] += 1
    for i in key[keep:]:  # I1: the extras are dead (seen, in nobody's hand)
        seen[i] += 1
    b.dead += d.cards[keep:]
    if b.steps is not None:
        if n <= keep:
            b.steps.append(d)  # each card to the hand: recorded whole (model.results.deal_step)
        else:
            moves = [(c, DEAL, HAND) for c in d.cards[:keep]]
            moves += [(c, DEAL, DEAD) for c in d.cards[keep:]]
            b.steps.append(Step(d.line, d.col, d.player, None, None, tuple(moves), ()))
    # The stock was counted as if ten went to each: extras dealt leave it shorter; a short
    # deal leaves it longer until the fill comes off it (I1, P10).
    b.stock_n -= n - dealt
    if keep == dealt:
        short = max(0, dealt - n)
        s.unknown = short
        b.stock_n -= short
        s.hand_n = dealt
    else:
        s.unknown = 0
        s.hand_n = s.size = n


def verify_upcard(b: Board) -> None:
    """E1/E4 for the upcard (S2); raises Ruling."""
    up = b.script.upcard
    if up is not None:
        r = card_fault(b, up, Place(b.script.upcard_line, b.script.upcard_col))
        if r is not None:
            raise r


def apply_upcard(b: Board) -> None:
    """The upcard starts the discard pile and is live for the first player to act (S2, P3)."""
    up = b.script.upcard
    b.pile.append(up)
    if up is not None:
        b.seen[up.index] += 1
        if b.steps is not None:
            b.steps.append(Step(b.script.upcard_line, 0, None, None, None, ((up, STOCK, DISCARD_PILE),), ()))
