"""What every draw would do, the odds from the unseen cards, and the distance to going out.

Live copies of a card = copies in the pack (E1) - cards seen - the player's own cards (hand,
drawn card and melds). The unseen cards are all the live copies; the next stock card is
assumed equally likely to be any of them (the other players' hands are unknown to the player).
"""

from __future__ import annotations

import math
import random
from array import array
from collections.abc import Iterable, Sequence
from typing import Final, cast

from pancli.analyze.arrange import (
    Arrangement,
    DrawProbe,
    HandContext,
    Placed,
    TableSolver,
    best_arrangement,
    materialize,
)
from pancli.cards import ALL_CARDS, Card
from pancli.melds import Meld
from pancli.meldspace import (
    GUARD,
    NSLOT,
    ONE,
    RANK_MASK,
    SLOT_CARDS,
    SLOT_OF,
    SUIT_MASK,
    Block,
    MeldSpace,
    SearchMeld,
    buildable,
    counts_of,
    decode,
    encode,
)
from pancli.panrules import PanRules
from pancli.rules import Profile
from pancli.values import Value


def live_copies(rules: PanRules, own: Iterable[Card], seen: Iterable[Card]) -> list[int]:
    """Live copies of each of the 40 cards (by slot): the copies the pack holds as ``rules``
    answers them (E1, :attr:`PanRules.copies`) - seen - own (never below 0).

    >>> from pancli.rules import HOYLE
    >>> from pancli.cards import card, Rank, Suit
    >>> live = live_copies(PanRules(HOYLE), [card(Rank.FIVE, Suit.SPADES)] * 3, [card(Rank.FIVE, Suit.SPADES)])
    >>> live[SLOT_OF[card(Rank.FIVE, Suit.SPADES)]], sum(live)
    (4, 316)
    """
    # counted by card index (a list, not a look-up by card: a review asks this for every option it weighs)
    gone = [0] * len(ALL_CARDS)
    for c in own:
        gone[c.index] += 1
    for c in seen:
        gone[c.index] += 1
    pack = rules.copies
    return [max(0, pack[i] - gone[i]) for i in _SLOT_INDEX]


_SLOT_INDEX: Final = tuple(c.index for c in SLOT_CARDS)
"""The :attr:`Card.index` of each slot's card."""


def final_melds(arr: Arrangement, table: Sequence[Meld]) -> list[Meld]:
    """Every meld the player has after laying ``arr``: the table melds (grown) and the new ones."""
    melds = list(table)
    for p in arr.placed:
        if p.target is None:
            melds.append(p.meld)
        else:
            melds[p.target] = p.meld
    return melds


class DrawRow(Value):
    """What drawing (or taking) one card would do for the hand.

    ``value`` is what each active opponent pays at once (C7); ``out`` says whether it melds the
    last hand card (P7), and ``out_value`` is then the going-out payment per opponent (C8).
    ``lays`` is what the hand lays without it (cards down, value): a usable card is *useful* only
    when it raises one of them (:attr:`more_down`, :attr:`more_value`).
    """

    card: Card
    live: int
    arrangement: Arrangement | None
    lays: tuple[int, int] = (0, 0)

    @property
    def more_down(self) -> bool:
        """True when it gets more cards down than the hand alone can lay."""
        return self.arrangement is not None and self.arrangement.melded > self.lays[0]

    @property
    def more_value(self) -> bool:
        """True when what it lays is worth more at once (C7) than the hand alone's best."""
        return self.arrangement is not None and self.arrangement.value > self.lays[1]

    @property
    def useful(self) -> bool:
        """True when it raises what the hand can lay or its value (a usable card may do neither:
        a 4s that turns the set 3s 3d 3c into the rope 3s 4s 5s that pays nothing)."""
        return self.more_down or self.more_value

    @property
    def usable(self) -> bool:
        """True when the card can be used with the hand or the player's melds (P2)."""
        return self.arrangement is not None

    @property
    def melds(self) -> tuple[Placed, ...]:
        """The meld(s) the card makes or extends."""
        if self.arrangement is None:
            return ()
        return tuple(p for p in self.arrangement.placed if self.card in p.cards)

    @property
    def down(self) -> int:
        """Cards it gets down, itself included (0 when unusable)."""
        return 0 if self.arrangement is None else self.arrangement.melded

    @property
    def value(self) -> int:
        """Units each active opponent pays at once (C7)."""
        return 0 if self.arrangement is None else self.arrangement.value

    @property
    def out(self) -> bool:
        """True when it puts the player out: no card left in the hand."""
        return self.arrangement is not None and not self.arrangement.dead


def draw_table(ctx: HandContext, live: Sequence[int]) -> list[DrawRow]:
    """One row per distinct card, for the hand of ``ctx``; each row knows what the hand lays
    without a draw (its best arrangement), to say whether the card is useful.

    >>> from pancli.rules import HOYLE
    >>> from pancli.cards import card, Rank, Suit
    >>> ctx = HandContext([card(Rank.FIVE, Suit.HEARTS), card(Rank.SIX, Suit.HEARTS)], HOYLE)
    >>> rows = draw_table(ctx, live_copies(PanRules(HOYLE), [], []))
    >>> [str(r.card) for r in rows if r.usable]
    ['4h', '7h']
    >>> [r.out for r in rows if r.usable], [r.useful for r in rows if r.usable]
    ([True, True], [True, True])
    """
    base = best_arrangement(decode(ctx.state), ctx.profile, ctx.table, ctx.t)
    lays = (base.melded, base.value)
    rows = []
    own = ctx.cnt[:]
    for m in ctx.table:
        for c in m.cards:
            own[SLOT_OF[c]] += 1
    copies, rules = ctx.t.copies, ctx.t.rules
    for slot in range(NSLOT):
        # E4: a card the player holds every copy of cannot be drawn (the rules object's comparison, by slot)
        possible = rules.past_the_pack(own, ((slot, 1),), copies) is None
        rows.append(DrawRow(SLOT_CARDS[slot], live[slot], ctx.using(slot) if possible else None, lays))
    return rows


def out_value(row: DrawRow, table: Sequence[Meld], rules: PanRules) -> int:
    """C8: what each active opponent pays when ``row``'s draw puts the player out (0 otherwise),
    as ``rules`` answers it."""
    if row.arrangement is None or not row.out:
        return 0
    return rules.going_out_value(final_melds(row.arrangement, table)).total


# --------------------------------------------------------------------------- distance to going out


class Distance(Value):
    """The fewest useful draws to go out (None when no plan exists), and one plan that does it.

    ``plan`` lists (hand cards, cards to draw, target table meld or None) per meld; ``discards``
    are the hand cards thrown on the way (one per useful draw but the last, P5).
    """

    draws: int | None
    plan: tuple[tuple[tuple[Card, ...], tuple[Card, ...], int | None], ...] = ()
    discards: tuple[Card, ...] = ()


# A plan entry in packed form: (hand part, drawn part, target index or -1)
_PlanEntry = tuple[int, int, int]
# (discards, draws needed, a meld made) -> (what the plan's melds pay at once, the plan)
_Front = dict[tuple[int, int, bool], tuple[int, tuple[_PlanEntry, ...]]]


class _Planner:
    """Dynamic programme over the hand: each card is discarded, or joins a buildable meld.

    ``keep`` (packed counts) are hand cards that are never discarded: the cards the hand's best
    arrangement lays. Among plans alike in discards, draws and melds, the one whose melds pay more
    at once is kept (:meth:`worth`)."""

    def __init__(
        self, tms: Sequence[SearchMeld], space: MeldSpace, live: Sequence[int], hand: int = 0, keep: int = 0
    ) -> None:
        self.tms = tms
        self.profile = space.profile
        self.live = live
        self.held = counts_of(hand)
        self.keep = counts_of(keep)
        self.memo: dict[tuple[int, int, int], _Front] = {}
        self.space = space
        self._blocks: dict[tuple[int, int, int], list[tuple[int, int, int, int]]] = {}
        self._worth: dict[tuple[int, int], int] = {}

    def worth(self, cards: int, target: int) -> int:
        """What the meld of the packed ``cards`` pays at once (C6; C7's gain for an addition to table meld
        ``target``), as the arrangement of those cards says."""
        key = (cards, target)
        got = self._worth.get(key)
        if got is None:
            bit = 1 << target if target >= 0 else 0
            got = self._worth[key] = materialize([(cards, 0, bit, target, 0)], 0, self.tms, self.space).value
        return got

    def blocks(self, state: int, slot: int, mask: int) -> list[tuple[int, int, int, int]]:
        """(hand part, drawn part, need, target) of every minimal buildable block whose lowest hand card is ``slot``.

        They read the hand's cards of the slot's rank and suit only (sets, ropes, and additions to a table meld,
        which holds the rank or the suit), so they are kept under those: on random hands many asks are
        answered again (tests/test_analyze_odds.py compares the distance with the plain search)."""
        key = (slot, mask, state & (RANK_MASK[slot >> 2] | SUIT_MASK[slot & 3]))
        got = self._blocks.get(key)
        if got is None:
            got = self._blocks[key] = buildable(self.space, self.tms, self.live, state, slot, mask)
        return got

    def solve(self, state: int, mask: int, thrown: int = 0) -> _Front:
        """The plans for the hand ``state`` (table melds in ``mask`` grown already); ``thrown`` copies of its
        lowest card are discarded already (counted only for a card the best arrangement lays: :attr:`keep`)."""
        if not state:
            return {(0, 0, False): (0, ())}
        key = (state, mask, thrown)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        slot = ((state & -state).bit_length() - 1) // 5
        shift = 5 * slot
        kept = self.keep[slot]
        front: _Front = {}
        # a card is thrown only while the copies left of it still cover what the best arrangement lays
        if not kept or thrown < self.held[slot] - kept:
            rest = state - ONE[slot]
            after = thrown + 1 if kept and rest >> shift & 15 else 0
            for (d, n, has), (worth, plan) in self.solve(rest, mask, after).items():
                _keep(front, (d + 1, n, has), worth, (*plan, (ONE[slot], 0, -2)))
        for hand_part, drawn, need, target in self.blocks(state, slot, mask):
            if ((state | GUARD) - hand_part) & GUARD != GUARD:
                continue
            bit = (1 << target) if target >= 0 else 0
            gain = self.worth(hand_part + drawn, target)
            rest = state - hand_part
            after = thrown if kept and rest >> shift & 15 else 0
            for (d, n, _has), (worth, plan) in self.solve(rest, mask | bit, after).items():
                _keep(front, (d, n + need, True), worth + gain, (*plan, (hand_part, drawn, target)))
        self.memo[key] = front
        return front


def _keep(front: _Front, key: tuple[int, int, bool], worth: int, plan: tuple[_PlanEntry, ...]) -> None:
    """Add ``plan`` to ``front`` unless a plan there is as good in discards, draws and melds (and, alike in
    those, worth as much); drop the plans it is better than."""
    d, n, has = key
    for other, (other_worth, _) in list(front.items()):
        od, on, ohas = other
        if other == key:
            if other_worth >= worth:
                return
            del front[other]
        elif od <= d and on <= n and (ohas or not has):
            return
        elif d <= od and n <= on and (has or not ohas):
            del front[other]
    front[key] = (worth, plan)


def distance_to_out(ctx: HandContext, live: Sequence[int], keep: Iterable[Card] = ()) -> Distance:
    """The fewest useful draws that take the hand of ``ctx`` out (11th card melded, P7), never
    discarding the cards of ``keep`` (the cards the hand's best arrangement lays); of the plans
    that tie, one whose melds pay the most at once.

    Model: every hand card is either discarded (one per useful draw but the last, P5) or goes into
    a meld that can be built one draw at a time: a new meld needs two hand cards and at most one
    drawn card among some three of its cards in a row (so each draw is usable when it comes, P2),
    further cards join it at either end; an addition to a table meld fills its gaps by draws.
    Draws beyond those needed are assumed to extend some meld. Each needed card must be live.

    >>> from pancli.rules import HOYLE
    >>> from pancli.cards import card, Rank, Suit
    >>> hand = [card(Rank.FIVE, Suit.HEARTS), card(Rank.SIX, Suit.HEARTS), card(Rank.KING, Suit.CLUBS)]
    >>> d = distance_to_out(HandContext(hand, HOYLE), live_copies(PanRules(HOYLE), hand, []))
    >>> d.draws, [str(c) for c in d.discards]
    (2, ['Kc'])
    """
    planner = _Planner(ctx.tms, ctx.t, live, ctx.state, encode(keep))
    front = planner.solve(ctx.state, 0) if ctx.state else {(0, 0, False): (0, ())}
    best: tuple[int, int, tuple[_PlanEntry, ...]] | None = None
    for (d, n, has), (worth, plan) in front.items():
        k = d + 1
        if n > k or (n < k and not has and not ctx.tms):
            continue
        if best is None or (k, -worth) < best[:2]:
            best = (k, -worth, plan)
    if best is None:
        return Distance(None)
    k, _, plan = best
    entries = []
    discards: list[Card] = []
    for hand_part, drawn, target in plan:
        if target == -2:
            discards.extend(decode(hand_part))
        else:
            entries.append((tuple(decode(hand_part)), tuple(decode(drawn)), None if target < 0 else target))
    return Distance(k, tuple(entries), tuple(discards))


# --------------------------------------------------------------------------- going out within k turns


class OutOdds(Value):
    """P(out within k turns) for k = 1..len(p): exact for k = 1, Monte Carlo after.

    ``se`` is the standard error of each estimate (0 for the exact figure); ``samples`` and
    ``seed`` say how it was drawn.
    """

    p: tuple[float, ...]
    se: tuple[float, ...]
    samples: int
    seed: int
    sampled_first: float = 0.0
    """The policy's own chance of going out on the first turn: a check on the exact figure."""


def _partners(h: int, cnt: Sequence[int]) -> int:
    """How many other hand cards could share a meld with the card of slot ``h`` (the discard heuristic)."""
    ri, s = divmod(h, 4)
    n = sum(cnt[ri * 4 : ri * 4 + 4]) - 1
    for r in range(max(0, ri - 2), min(9, ri + 2) + 1):
        if r != ri and cnt[r * 4 + s]:
            n += 1
    return n


def discard_choice(state: int) -> int:
    """The policy's discard from the hand ``state``: the card with the fewest partners (same rank,
    or same suit within two ranks), the higher rank first on a tie. Returns its slot."""
    cnt = [(state >> (5 * i)) & 15 for i in range(NSLOT)]
    held = [i for i in range(NSLOT) if cnt[i]]
    return min(held, key=lambda h: (_partners(h, cnt), -h))


_SUIT_SLOTS: Final = tuple(sum(1 << (r * 4 + s) for r in range(10)) for s in range(4))
_HELD: Final = sum(1 << (5 * i) for i in range(NSLOT))
_NEAR_SPADES: Final = tuple(
    sum(1 << (5 * r * 4) for r in range(max(0, ri - 2), min(9, ri + 2) + 1) if r != ri) for ri in range(10)
)
# (each suit's fields are the spades' shifted by its place in the slot: ten sums at import, not forty)
_NEAR: Final = tuple(_NEAR_SPADES[slot // 4] << (5 * (slot % 4)) for slot in range(NSLOT))
"""Per slot, bit 5i of each card of its suit within two ranks (its rope partners in :func:`discard_choice`)."""


def _discard_fast(state: int) -> int:
    """:func:`discard_choice` on the packed hand itself: no count list, partners counted by bit masks (the
    same choice, tests/test_analyze_odds.py; the policy discards once per new position)."""
    held = (state | state >> 1 | state >> 2 | state >> 3) & _HELD  # bit 5i: the hand holds the card of slot i
    best = best_n = -1
    x = held
    while x:
        low = x & -x
        x ^= low
        i = (low.bit_length() - 1) // 5
        g = state >> (20 * (i >> 2))
        n = (g & 15) + (g >> 5 & 15) + (g >> 10 & 15) + (g >> 15 & 15) - 1 + (held & _NEAR[i]).bit_count()
        if best < 0 or n <= best_n:  # slots rise: a tie goes to the higher one
            best, best_n = i, n
    return best


UNKNOWN: Final = -2
"""A move of :class:`Node` not yet found (:meth:`Policy.move` finds it)."""
_UNUSABLE = -1
_FRESH: Final = array("l", [UNKNOWN] * NSLOT)


class Node:
    """One position of the simulated player: hand, melds, and the moves found so far from it.

    A plain class with slots, written out (a dataclass would cost ``pan analyze`` the import of
    dataclasses at start-up); compared by identity.
    """

    __slots__ = ("moves", "out", "paid", "solver", "state", "tms", "usable")

    def __init__(
        self,
        state: int,
        tms: tuple[SearchMeld, ...],
        moves: array[int],
        paid: dict[int, int],
        solver: TableSolver,
        out: bool = False,
        usable: int = -1,
    ) -> None:
        self.state = state
        self.tms = tms  # the player's melds on the table, in the search's terms
        # a review remembers tens of thousands of positions: an array and a dict of numbers are nothing the
        # cyclic collector walks, where two lists a position were most of its work
        self.moves = moves  # per drawn slot: next node id, _UNUSABLE, or UNKNOWN (not yet computed)
        self.paid = paid  # per usable drawn slot, once its move is made: units each opponent pays at once (C7)
        self.solver = solver  # the search of every position with these table melds
        self.out = out
        self.usable = usable  # the slots whose draw is usable here, as bits (-1: not asked yet)

    @property
    def table(self) -> tuple[Meld, ...]:
        """The player's melds on the table."""
        return tuple(tm.meld for tm in self.tms)


_PolicyMelds = tuple[
    dict[SearchMeld, int],
    dict[Meld, SearchMeld],
    dict[int, SearchMeld],
    dict[tuple[SearchMeld, int], SearchMeld],
    dict[int, list[int]],
]
"""The melds :class:`Policy` lays, kept in the meld space (:attr:`MeldSpace.parts`)."""
_MELDS_LIMIT: Final = 50_000
"""Melds the shared store of :class:`Policy` may describe before a new policy starts it afresh."""


class Policy:
    """The simple policy every simulated player follows (documented in the README):

    draw from the stock; if the card is usable, lay the best arrangement that uses it (most
    cards down, then chips, then fewest melds) and discard the hand card with the fewest partners
    (:func:`discard_choice`); otherwise discard the drawn card. Positions and moves are cached.

    A move is what :meth:`HandContext.using` and :func:`materialize` give (the test
    tests/test_analyze_odds.py compares every move with that plain path), found more cheaply: a
    position's usable draws come from one :meth:`DrawProbe.scan` (most draws are unusable and are
    then never asked again); a usable one is searched by the :class:`TableSolver` shared by every position
    with the same melds (no search built per position), its blocks from the probe, whose memos every
    analysis under the profile shares; the melds it lays are judged (:func:`judge`, :func:`grow`) once per
    distinct meld, also shared; going out is asked by :meth:`out_slots`, a cover test that lays nothing.
    A position is its hand and its melds in one order (their packed cards); the policy remembers its discard
    per hand. Figures, with the odds' control value (:func:`out_odds`): benchmarks/README.md, bench_odds.
    """

    def __init__(self, profile: Profile, melds_limit: int = _MELDS_LIMIT, space: MeldSpace | None = None) -> None:
        self.profile = profile
        self.nodes: list[Node] = []
        self.index: dict[tuple[int, tuple[int, ...]], int] = {}
        self._solvers: dict[tuple[int, ...], TableSolver] = {}  # one search per set of table melds (their cards)
        self._fresh: dict[int, array[int]] = {}  # usable draws -> a position's moves before any is made
        self._discards: dict[int, int] = {}  # hand -> the slot the policy discards from it
        # the caller's (its rules object's), shared by its policies
        self.t = space if space is not None else PanRules(profile).meld_space()
        self.probe = DrawProbe(self.t)
        # the melds laid depend on the cards and the profile only: every policy under the profile shares them
        store = cast("_PolicyMelds | None", self.t.parts.get("policy"))
        if store is None or len(store[0]) > melds_limit:
            store = ({}, {}, {}, {}, {})
            self.t.parts["policy"] = store
        self._enc: dict[SearchMeld, int] = store[0]  # table meld -> its packed cards
        self._of_meld: dict[Meld, SearchMeld] = store[1]
        self._new: dict[int, SearchMeld] = store[2]  # packed cards -> the new meld they make
        self._grown: dict[tuple[SearchMeld, int], SearchMeld] = store[3]  # (table meld, packed cards added) -> grown
        self._slots: dict[int, list[int]] = store[4]  # packed cards -> their slots (the order of materialize)

    @property
    def remembered(self) -> int:
        """Positions or laid melds remembered, whichever are more: what its memory grows with."""
        return max(len(self.nodes), len(self._enc))

    def node(self, state: int, table: tuple[Meld, ...], out: bool = False) -> int:
        """The id of the position (hand ``state``, melds ``table``)."""
        tms = []
        for m in table:
            tm = self._of_meld.get(m)
            if tm is None:
                tm = self._of_meld[m] = SearchMeld.of(m, self.t.rules)
                self._enc[tm] = encode(m.cards)
            tms.append(tm)
        return self._node(state, tuple(tms), out)

    def _node(self, state: int, tms: tuple[SearchMeld, ...], out: bool = False) -> int:
        enc = self._enc
        melds = tuple([enc[tm] for tm in tms])
        key = (state, melds)
        nid = self.index.get(key)
        if nid is None:
            solver = self._solvers.get(melds)
            if solver is None:
                solver = self._solvers[melds] = TableSolver(self.probe, tms)
            nid = len(self.nodes)
            self.nodes.append(Node(state, tms, _FRESH[:], {}, solver, out))
            self.index[key] = nid
        return nid

    def _laid_new(self, enc: int) -> SearchMeld:
        """The new meld of the packed cards ``enc`` (judged once: :func:`judge`, as materialize does)."""
        tm = self._new.get(enc)
        if tm is None:
            (placed,) = materialize([(enc, 0, 0, -1, 0)], 0, (), self.t).placed
            tm = self._new[enc] = SearchMeld.of(placed.meld, self.t.rules)
            self._enc[tm] = enc
        return tm

    def _laid_grown(self, old: SearchMeld, enc: int) -> SearchMeld:
        """Table meld ``old`` grown by the packed cards ``enc`` (:func:`grow`, once, as materialize does)."""
        key = (old, enc)
        tm = self._grown.get(key)
        if tm is None:
            (placed,) = materialize([(enc, 0, 0, 0, 0)], 0, (old,), self.t).placed
            tm = self._grown[key] = SearchMeld.of(placed.meld, self.t.rules)
            self._enc[tm] = self._enc[old] + enc
        return tm

    def _slots_of(self, enc: int) -> list[int]:
        got = self._slots.get(enc)
        if got is None:
            got = self._slots[enc] = [SLOT_OF[c] for c in decode(enc)]
        return got

    def _search(self, node: Node, slot: int) -> list[Block] | None:
        """The blocks of the best arrangement using the drawn ``slot`` (None: unusable, recorded)."""
        usable = node.usable
        first = None if usable >= 0 and not usable >> slot & 1 else node.solver.blocks(slot, node.state)
        if not first:
            node.moves[slot] = _UNUSABLE
            return None
        return node.solver.using_blocks(slot, node.state, first)

    def out_slots(self, nid: int, drawable: int) -> int:
        """The slots among ``drawable`` whose draw at position ``nid`` puts the player out (:meth:`move` would
        lead to a position that is out), as bits, found without laying any meld.

        A draw goes out when some block holding it (:meth:`DrawProbe.blocks`) leaves a remainder that
        :meth:`Solver.covers`. A hand card that lies in no block of the hand alone (:meth:`DrawProbe.scan`)
        can only go down in the drawn card's block, so every such card must be in it: that test rules out
        most draws, and most positions, without a search (tests/test_analyze_odds.py compares every answer
        with :meth:`move`)."""
        node = self.nodes[nid]
        solver, state = node.solver, node.state
        usable, covered = self.probe.scan(state, solver.descs)
        node.usable = usable
        if node.moves == _FRESH:  # every unusable draw is known now: the sample paths never ask move() about it
            fresh = self._fresh.get(usable)
            if fresh is None:
                fresh = self._fresh[usable] = array(
                    "l", [UNKNOWN if usable >> slot & 1 else _UNUSABLE for slot in range(NSLOT)]
                )
            node.moves = fresh[:]
        cand = usable & drawable
        if not cand:
            return 0
        lone = state & ~covered
        if lone:
            # every block comes from one group (a rank's sets, a suit's ropes, or additions to a table meld,
            # which hold its rank or its suit: DrawProbe), so the lone cards and the draw share a rank or a suit
            ri, su = divmod(((lone & -lone).bit_length() - 1) // 5, 4)
            cand &= (0 if lone & ~RANK_MASK[ri] else 15 << (4 * ri)) | (0 if lone & ~SUIT_MASK[su] else _SUIT_SLOTS[su])
            if not cand:
                return 0
        g = GUARD
        mask = 0
        while cand:
            low = cand & -cand
            slot = low.bit_length() - 1
            cand ^= low
            full = state + ONE[slot]
            for enc, _, bit, _, _ in solver.blocks(slot, state):
                if lone and ((enc | g) - lone) & g != g:  # the block must hold every lone hand card
                    continue
                rest = full - enc
                if rest and not solver.covers(rest, bit):
                    continue
                mask |= low
                break
        return mask

    def move(self, nid: int, slot: int) -> int:
        """The position after drawing ``slot`` at position ``nid`` (-1: unusable, so discarded)."""
        node = self.nodes[nid]
        nxt = node.moves[slot]
        if nxt != UNKNOWN:
            return nxt
        blocks = self._search(node, slot)
        if blocks is None:
            return _UNUSABLE
        rest = node.state + ONE[slot]
        # the melds laid, in the order materialize places them: new melds by their cards, then additions
        tms = list(node.tms)
        new: list[tuple[list[int], int]] = []
        paid = 0
        pays = self.t.rules.change_value  # C7: what each meld laid or grown collects
        for enc, _, _, target, _ in blocks:
            rest -= enc
            if target < 0:
                new.append((self._slots_of(enc), enc))
            else:
                old = tms[target]
                tms[target] = grown = self._laid_grown(old, enc)
                paid += pays(old.value, grown.value)
        new.sort()
        for _, enc in new:
            tm = self._laid_new(enc)
            tms.append(tm)
            paid += pays(0, tm.value)
        # a position is its hand and the multiset of its melds: in one order (their packed cards), the positions
        # that lay the same melds in another order are one (fewer positions on slow hands; the order only
        # breaks ties between equally good arrangements, and the next move is the plain search on that order)
        if len(tms) > 1:
            encs = self._enc
            tms.sort(key=encs.__getitem__)
        if rest:
            throw = self._discards.get(rest)  # hands recur under other melds, so each discard is chosen once;
            # tests/test_analyze_odds.py compares the moves
            if throw is None:
                throw = self._discards[rest] = _discard_fast(rest)
            nxt = self._node(rest - ONE[throw], tuple(tms))
        else:
            nxt = self._node(0, tuple(tms), True)
        node.paid[slot] = paid
        node.moves[slot] = nxt
        return nxt


_PILOT: Final = 100
"""Paths of the pilot run that sizes the estimate of :func:`out_odds` (the fewest it takes)."""


def out_odds(
    ctx: HandContext,
    live: Sequence[int],
    exact_first: float,
    turns: int = 10,
    samples: int = 2000,
    seed: int = 1,
    policy: Policy | None = None,
    se_target: float | None = None,
    control: bool = True,
) -> OutOdds:
    """P(going out within k turns), k = 1..``turns``, drawing from the stock every turn.

    Model: the player's draws are a uniform sample without replacement from the unseen cards;
    he follows :class:`Policy`; unused draws are discarded; the other players are not modelled
    (they take no card he could use and nobody goes out first); the stock never runs out.

    k = 1 is the exact count ``exact_first``. Later turns are estimated by seeded Monte Carlo,
    conditioned on not going out: at each position of a sampled path the exact chance that the
    next draw puts the player out is counted (the share of the cards left that do), weighted by
    the chance of having come this far, and the path goes on with a draw that does not. Each
    path's sum is an unbiased estimate of P(out within k), far less spread than the 0 or 1 of
    playing the draws out. With ``control`` (the default) the mean is corrected by a control value
    of each path, its usable draws less their expected number (:func:`_controlled`): the same
    mean, less spread, so fewer paths for the same error. The stated error ``se_target`` is by
    default ``0.5 / sqrt(samples)``, the most ``samples`` played-out draws could be off by (0.011
    for 2,000): a pilot run of 100 paths measures the spread, and the estimate goes on from the
    pilot's paths to as many as that error needs, sized again from all the paths while the error
    is still over it (at least 100, at most ``samples``; ``OutOdds.samples``), ``se`` its standard
    error.

    >>> from pancli.rules import HOYLE
    >>> from pancli.cards import card, Rank, Suit
    >>> hand = [card(Rank.FIVE, Suit.HEARTS), card(Rank.SIX, Suit.HEARTS)]
    >>> o = out_odds(HandContext(hand, HOYLE), live_copies(PanRules(HOYLE), hand, []), 16 / 318, turns=3, samples=500)
    >>> o.p[0] == 16 / 318 == o.sampled_first, o.p[0] <= o.p[1] <= o.p[2] <= 1, 100 <= o.samples <= 500
    (True, True, True)
    """
    pool = [slot for slot in range(NSLOT) for _ in range(live[slot])]
    drawable = sum(1 << slot for slot in range(NSLOT) if live[slot])
    rng = random.Random(seed)
    policy = policy or Policy(ctx.profile, space=ctx.t)
    size = len(pool)
    n_draw = min(turns, size)
    root = policy.node(ctx.state, ctx.table)
    nodes = policy.nodes
    rand = rng.random
    # position -> (slots that put the player out, their live copies, the other usable slots, their live copies)
    hazard: dict[int, tuple[int, int, int, int]] = {}
    out_slots = policy.out_slots

    def outs(nid: int) -> tuple[int, int, int, int]:
        mask = out_slots(nid, drawable)
        usable = nodes[nid].usable & drawable & ~mask
        got = hazard[nid] = (mask, _copies(mask, live), usable, _copies(usable, live))
        return got

    def sample(count: int, sums: list[list[float]]) -> None:
        """Add ``count`` paths to ``sums``: per k, the sums of their estimates y of P(out within k + 1), of y * y
        and of y * c; then the sums of their control values c and of c * c."""
        s1, s2, sy, sc = sums
        last = n_draw - 1
        for _ in range(count):
            nid = root
            taken: list[int] = []  # positions of the pool drawn so far: without replacement
            drawn: list[int] = []  # their slots
            ys: list[float] = []  # the path's estimate per k
            weight = 1.0  # P(not out so far) along this path
            y = 0.0
            c = 0.0  # the control value: usable draws made - their expected number, step by step
            k = 0
            done = False
            while not done:
                # a position entered: its chance per draw of going out, less the copies already drawn on the path
                # (no draw made here is one of them: a draw here is conditioned not to put the player out), is the
                # same for every draw while the path stays (its draws unusable), so it is asked once per stay;
                # so is the chance that a draw is usable (and does not put him out)
                mask, copies, usable, ucopies = hazard.get(nid) or outs(nid)
                if mask or usable:
                    for slot in drawn:
                        if mask >> slot & 1:
                            copies -= 1
                        elif usable >> slot & 1:
                            ucopies -= 1
                moves = nodes[nid].moves
                while True:
                    if mask:
                        h = copies / (size - k)
                        y += weight * h
                        weight *= 1.0 - h
                    ys.append(y)
                    if weight <= 0.0 or k >= last:  # out for sure, or the last draw: nothing more to learn
                        done = True
                        break
                    i = int(rand() * size)
                    while i in taken or mask >> pool[i] & 1:
                        i = int(rand() * size)
                    taken.append(i)
                    slot = pool[i]
                    drawn.append(slot)
                    if usable:  # each term has mean 0 given the path so far: the draw is uniform on those cards
                        c += (usable >> slot & 1) - ucopies / (size - k - copies)
                    k += 1
                    nxt = moves[slot]
                    if nxt == UNKNOWN:
                        nxt = policy.move(nid, slot)
                    if nxt >= 0:  # a usable draw: the next position
                        nid = nxt
                        break
            if y:  # (y never falls: a path that ends at 0 was 0 throughout and adds nothing)
                ys.extend([y] * (turns - len(ys)))  # nothing left to draw (or out for sure): the figure stays
                for k, y in enumerate(ys):
                    s1[k] += y
                    s2[k] += y * y
                    sy[k] += y * c
            sc[0] += c
            sc[1] += c * c

    # sequential stopping at the stated error: a pilot measures the spread, which sizes the run; the paths drawn
    # are all kept, and while the standard error is still over the target (a pilot that missed the rare paths to
    # going out underestimates the spread) the run is sized again from all its paths. The pilot is fixed in
    # advance and kept (sizing a run on its own running error alone stops early exactly when the rare paths to
    # going out have not come up yet: a low bias). A pilot of 100 paths: most hands need fewer than 100 for
    # the stated error, and the first paths explore most positions (benchmarks/README.md, bench_odds);
    # tests/test_analyze_odds.py compares the estimate with playing the draws out.
    target = 0.5 / math.sqrt(samples) if se_target is None else se_target
    sums: list[list[float]] = [[0.0] * turns, [0.0] * turns, [0.0] * turns, [0.0, 0.0]]
    n = min(_PILOT, samples)
    sample(n, sums)
    while n < samples:
        spread = max(_controlled(sums, k, n, control)[1] for k in range(turns)) * math.sqrt(n)
        want = min(samples, math.ceil((spread / target) ** 2)) if target > 0 else samples
        if want <= n:
            break
        sample(want - n, sums)
        n = want
    first = (hazard.get(root) or outs(root))[1] / size if size else 0.0  # the same for every path
    p, se = [exact_first], [0.0]
    for k in range(1, turns):
        mean, err = _controlled(sums, k, n, control)
        # the exact first-turn figure plus the estimate of going out in turns 2..k (never below the one before)
        p.append(min(1.0, max(p[-1], exact_first + mean - first)) if n else exact_first)
        se.append(err)
    return OutOdds(tuple(p), tuple(se), n, seed, first)


def _copies(slots: int, live: Sequence[int]) -> int:
    """The live copies of the slots ``slots`` (as bits)."""
    n = 0
    while slots:
        low = slots & -slots
        n += live[low.bit_length() - 1]
        slots ^= low
    return n


def _controlled(sums: list[list[float]], k: int, n: int, control: bool = True) -> tuple[float, float]:
    """The mean over ``n`` paths of the estimates of P(out within k + 1) with the control value, and its
    standard error: mean(y) - b * mean(c), b the regression of y on c over the same paths.

    c, a path's usable draws less the expected number of them (at each draw, the usable cards left over the cards
    it could be), has mean 0 whatever the policy does, and y rises with it (a lucky path gets more cards down), so
    y - b * c has the mean of y and less spread, so fewer paths reach the stated error (benchmarks/README.md,
    bench_odds). Fitting b on the same paths biases the mean by
    O(1/n) only (tests/test_analyze_odds.py compares the estimate with playing the draws out)."""
    s1, s2, sy, sc = sums
    if n < 3 or not control:  # (the plain mean: tests/test_analyze_odds.py compares the two)
        return (s1[k] / n if n else 0.0), _se(s1[k], s2[k], n)
    my, mc = s1[k] / n, sc[0] / n
    var_y = max(0.0, (s2[k] - n * my * my) / (n - 1))
    var_c = (sc[1] - n * mc * mc) / (n - 1)
    if var_c <= 1e-12:
        return my, math.sqrt(var_y / n)
    cov = (sy[k] - n * my * mc) / (n - 1)
    b = cov / var_c
    rest = max(0.0, var_y - b * cov) * (n - 1) / (n - 2)  # one more parameter fitted
    return my - b * mc, math.sqrt(rest / n)


def _se(total: float, squares: float, n: int) -> float:
    """The standard error of a mean of ``n`` values from their sum and sum of squares."""
    if n < 2:
        return 0.0
    mean = total / n
    return math.sqrt(max(0.0, squares / n - mean * mean) / (n - 1))
