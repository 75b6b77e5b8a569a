"""Best arrangement of a hand: an exact, memoized search over card counts.

A hand is a packed multiset of the 40 distinct cards, and its candidate melds (blocks) are
what the profile's meld space (:mod:`pancli.meldspace`) says its cards can form.

The search always places the lowest card left: either it is dead, or it is the lowest card of
one candidate block (a new meld, or cards added to one of the player's melds already on the
table, M5). Blocks holding the same lowest card are taken in a fixed order, so every
arrangement (a multiset of blocks) is reached exactly once and can be counted.

Arrangements are ranked by cards down, then chips (C6 values of new melds plus the C7 change
of grown melds), then fewest new melds.

>>> from pancli.rules import HOYLE
>>> from pancli.cards import card, Rank, Suit
>>> s5, h3, h4, h5 = (card(Rank.FIVE, Suit.SPADES), card(Rank.THREE, Suit.HEARTS),
...                   card(Rank.FOUR, Suit.HEARTS), card(Rank.FIVE, Suit.HEARTS))
>>> a = best_arrangement([s5, s5, s5, h3, h4, h5, card(Rank.KING, Suit.CLUBS)], HOYLE)
>>> [str(p) for p in a.placed], a.melded, a.value, [str(c) for c in a.dead], a.count
(['3h 4h 5h', '5s 5s 5s'], 6, 4, ['Kc'], 1)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final, cast

from pancli.cards import Card
from pancli.melds import Meld
from pancli.meldspace import (
    GUARD,
    LAID_LIMIT,
    NSLOT,
    ONE,
    RANK_MASK,
    SUIT_MASK,
    Block,
    MeldSpace,
    SearchMeld,
    added_order,
    addition_blocks,
    addition_reach,
    blocks_with,
    counts_of,
    decode,
    encode,
    held_fields,
    rope_blocks,
    set_blocks,
)
from pancli.panrules import PanRules
from pancli.rules import Condition, Profile
from pancli.values import Value


def hand_blocks(state: int, t: MeldSpace, table: Sequence[SearchMeld] = ()) -> list[Block]:
    """``all_blocks(counts_of(state), t, table)``: the same blocks in the same order. A rank's sets
    depend on that rank's cards only and a suit's ropes on that suit's, so each group's blocks are
    kept per profile (bounded) under its packed cards (benchmarks/README.md, bench_analyze);
    tests/test_analyze_arrange.py compares it with :func:`all_blocks`."""
    memo = t.groups
    if len(memo) > _GROUP_LIMIT:
        memo.clear()
    out: list[Block] = []
    held = held_fields(state)
    least = t.least
    for ri in range(10):
        part = state & RANK_MASK[ri]
        if part and _fields_sum(part, ri * 4) >= least:
            blocks = memo.get(part)  # a rank's fields are its own: no tag needed
            if blocks is None:
                blocks = []
                set_blocks(ri, counts_of(part)[ri * 4 : ri * 4 + 4], t, blocks)
                memo[part] = blocks
            out += blocks
    for s in range(4):
        part = state & SUIT_MASK[s]
        if (held & SUIT_MASK[s]).bit_count() >= least:  # a meld's ranks of the suit at least
            key = part | 1 << (_TAG + s)
            blocks = memo.get(key)
            if blocks is None:
                blocks = []
                rope_blocks(s, counts_of(part), t, blocks)
                memo[key] = blocks
            out += blocks
    if table:
        cnt = counts_of(state)
        for j, tm in enumerate(table):
            addition_blocks(j, tm, cnt, t, out)
    return out


def _fields_sum(part: int, first: int) -> int:
    """The number of cards of the four slots from ``first`` in the packed ``part``."""
    part >>= 5 * first
    return (part & 15) + (part >> 5 & 15) + (part >> 10 & 15) + (part >> 15 & 15)


_GROUP_LIMIT: Final = 20_000
"""Bound on :attr:`MeldSpace.groups` (a group's blocks are a few tuples)."""


_MASK_SHIFT: Final = NSLOT * 5
"""A packed hand fits below this bit: memo keys hold a mask of table melds above it."""
_TAG: Final = NSLOT * 5 + 1
"""Memo keys are packed cards of one rank or suit with a tag bit at ``_TAG`` or above saying which."""


Desc = tuple[SearchMeld, int, int, int]
"""A table meld as :class:`DrawProbe` reads it: (meld, a number for what addition_blocks reads of it, the slots its
blocks can hold as bits, the fields of the packed hand it reads)."""
_ProbeMemos = tuple[
    dict[object, tuple[int, int]],
    dict[object, tuple[Block, ...]],
    dict[SearchMeld, Desc],
    dict[tuple[object, ...], int],
]
"""The memos of :class:`DrawProbe`, kept in the meld space (:attr:`MeldSpace.parts`)."""
_PROBE_MEMO_LIMIT: Final = 100_000
"""Entries the shared memos of :class:`DrawProbe` may hold before a new probe starts them afresh (they grow
with every analysed hand)."""


_SLOT_KEYS: Final = tuple(
    tuple(
        (RANK_MASK[slot >> 2], SUIT_MASK[slot & 3], 1 << (tag + slot), 1 << (tag + NSLOT + slot))
        for slot in range(NSLOT)
    )
    for tag in (_TAG + 2 * NSLOT, _TAG)
)
"""Per drawn (1) or not (0), per slot: the fields of its rank and of its suit, and the tag bits of its memo keys."""
_HAND_TAG: Final = 1 << (_TAG + 14)
"""The tag of a whole hand's key in the memo of :meth:`DrawProbe.scan` (its ranks and suits have tags 0-13)."""


_GROUPS: Final = (
    *((RANK_MASK[ri], 1 << (_TAG + ri), ri, range(ri * 4, ri * 4 + 4)) for ri in range(10)),
    *((SUIT_MASK[s], 1 << (_TAG + 10 + s), 10 + s, range(s, NSLOT, 4)) for s in range(4)),
)
"""Per rank and per suit: (its fields, its memo tag, its generator for :meth:`DrawProbe._gen`, its slots)."""


class DrawProbe:
    """What a drawn card could do (P2), memoized: ``blocks_with(slot, cnt + slot, t, table)``, whether it is
    empty (the card is usable), and which hand cards lie in some block of ``all_blocks``.

    A block holding a card comes from :func:`set_blocks` of its rank, :func:`rope_blocks` of its
    suit, or :func:`addition_blocks` of a table meld, whose blocks hold cards of the meld's rank (a
    set) or suit (a rope) only. So each answer is kept under the packed cards of one rank, one suit,
    or (for an addition) what the generator reads of the table meld, and asked of the same
    generators on a miss (tests/test_analyze_odds.py checks every answer against :func:`blocks_with`
    and :func:`all_blocks`). The going-out policy asks this thousands of times per analysed hand.

    >>> from pancli.cards import card, Rank, Suit
    >>> from pancli.meldspace import SLOT_OF
    >>> from pancli.rules import HOYLE
    >>> probe = DrawProbe(PanRules(HOYLE).meld_space())
    >>> state = encode([card(Rank.FIVE, Suit.SPADES)] * 2)
    >>> probe.usable(SLOT_OF[card(Rank.FIVE, Suit.SPADES)], state, ()), probe.usable(0, state, ())
    (True, False)
    """

    __slots__ = ("_blocks", "_descs", "_groups", "_keys", "t")

    def __init__(self, t: MeldSpace) -> None:
        self.t = t
        memos = cast("_ProbeMemos | None", t.parts.get("probe"))
        if memos is None or len(memos[0]) + len(memos[1]) + len(memos[2]) + len(memos[3]) > _PROBE_MEMO_LIMIT:
            memos = ({}, {}, {}, {})
            t.parts["probe"] = memos
        # the answers depend on the cards and the profile only, so every analysis under the profile shares them
        self._groups: dict[object, tuple[int, int]] = memos[0]  # one rank, suit or meld's cards -> (usable, covered)
        self._blocks: dict[object, tuple[Block, ...]] = memos[1]  # (a drawn slot, one rank's or suit's cards) -> blocks
        self._descs: dict[SearchMeld, Desc] = memos[2]  # table meld -> (meld, key, reach, fields)
        # what addition_blocks reads of a meld -> a number for it in memo keys (a tuple holding a tuple and a string
        # is hashed afresh on every look-up; a number is not)
        self._keys: dict[tuple[object, ...], int] = memos[3]

    def _desc(self, tm: SearchMeld) -> Desc:
        """What :func:`addition_blocks` reads of ``tm``, the slots its blocks can hold at all (a bound:
        :func:`addition_reach`), and the fields of the packed hand it reads (the meld's suit for a
        rope, its rank for a set)."""
        got = self._descs.get(tm)
        if got is None:
            reach = addition_reach(tm, self.t)
            fields = SUIT_MASK[tm.suit] if tm.kind == "rope" else RANK_MASK[tm.lo]
            what = (tm.kind, tm.suit, tm.lo, tm.hi, tm.counts, tm.value)
            key = self._keys.get(what)
            if key is None:
                key = self._keys[what] = len(self._keys)
            got = self._descs[tm] = (tm, key, reach, fields)
        return got

    def _gen(self, part: int, kind: int, tm: SearchMeld | None) -> list[Block]:
        """The blocks of the packed cards ``part`` from one generator: sets of rank ``kind`` (0-9), ropes of
        suit ``kind - 10`` (10-13), or additions to ``tm`` (as table meld 0)."""
        return self._gen_counts(counts_of(part), kind, tm)

    def _gen_counts(self, cnt: list[int], kind: int, tm: SearchMeld | None) -> list[Block]:
        """:meth:`_gen` of the cards counted by slot in ``cnt``."""
        out: list[Block] = []
        if tm is not None:
            addition_blocks(0, tm, cnt, self.t, out)
        elif kind < 10:
            set_blocks(kind, cnt[kind * 4 : kind * 4 + 4], self.t, out)
        else:
            rope_blocks(kind - 10, cnt, self.t, out)
        return out

    def _group(self, part: int, kind: int, tm: SearchMeld | None, slots: Iterable[int]) -> tuple[int, int]:
        """(the ``slots`` whose card drawn to ``part`` is in a block, the fields of ``part`` in a block)."""
        usable = 0
        cnt = counts_of(part)  # counted once: each slot's draw adds its card and takes it back
        for slot in slots:
            cnt[slot] += 1
            if any((blk[0] >> (5 * slot)) & 15 for blk in self._gen_counts(cnt, kind, tm)):
                usable |= 1 << slot
            cnt[slot] -= 1
        cards = _bits(self._gen_counts(cnt, kind, tm))
        return usable, held_fields(cards) * 31  # each held card's whole field

    def describe(self, table: Sequence[SearchMeld]) -> tuple[Desc, ...]:
        """The table melds as :meth:`scan` and :meth:`blocks` take them."""
        return tuple(map(self._desc, table))

    def scan(self, state: int, table: Sequence[Desc] = ()) -> tuple[int, int]:
        """(the slots whose card drawn to the hand ``state`` is usable, as bits; the fields of the hand
        cards that lie in some block of ``all_blocks``, as a mask of ``state``), with the table melds
        ``table`` (:meth:`describe`)."""
        groups = self._groups
        # the ranks' and suits' answers for the whole hand at once: a hand recurs under other melds, and a
        # scan costs much less with it (benchmarks/README.md, "Figures behind the code")
        hand = groups.get(state | _HAND_TAG)
        if hand is None:
            usable = covered = 0
            for fields, tag, kind, slots in _GROUPS:
                key = state & fields | tag
                got = groups.get(key)
                if got is None:
                    got = groups[key] = self._group(state & fields, kind, None, slots)
                usable |= got[0]
                covered |= got[1]
            hand = groups[state | _HAND_TAG] = (usable, covered)
        usable, covered = hand
        for tm, tk, reach, fields in table:
            part = state & fields
            got = groups.get((tk, part))
            if got is None:
                got = groups[(tk, part)] = self._group(part, -1, tm, [i for i in range(NSLOT) if reach >> i & 1])
            usable |= got[0]
            covered |= got[1]
        return usable, covered

    def blocks(self, slot: int, state: int, table: Sequence[Desc] = (), drawn: bool = True) -> tuple[Block, ...]:
        """``blocks_with(slot, counts_of(state + ONE[slot]), t, melds)``: the same list, in the same order,
        ``table`` being the ``melds`` described (:meth:`describe`). With ``drawn`` false, the blocks of
        ``state`` itself that hold the card of ``slot`` (in the order of :func:`all_blocks`)."""
        memo = self._blocks
        rank_fields, suit_fields, rank_tag, suit_tag = _SLOT_KEYS[drawn][slot]
        key = state & rank_fields | rank_tag
        sets = memo.get(key)
        if sets is None:
            part = (state & rank_fields) + (ONE[slot] if drawn else 0)
            sets = memo[key] = _holding(slot, self._gen(part, slot >> 2, None))
        key = state & suit_fields | suit_tag
        ropes = memo.get(key)
        if ropes is None:
            part = (state & suit_fields) + (ONE[slot] if drawn else 0)
            ropes = memo[key] = _holding(slot, self._gen(part, 10 + (slot & 3), None))
        out = sets + ropes
        for j, (tm, tk, reach, fields) in enumerate(table):
            if reach >> slot & 1:
                part = state & fields
                key2 = (tk, slot, part, drawn, j)
                adds = memo.get(key2)
                if adds is None:  # kept as table meld j's blocks: no tuple is made again on a hit
                    got = _holding(slot, self._gen(part + (ONE[slot] if drawn else 0), -1, tm))
                    adds = memo[key2] = tuple([(enc, gain, 1 << j, j, size) for enc, gain, _, _, size in got])
                if adds:
                    out += adds
        return out

    def usable(self, slot: int, state: int, table: Sequence[SearchMeld] = ()) -> bool:
        """True when the card of ``slot`` drawn to the hand ``state`` makes a block with it."""
        return bool(self.blocks(slot, state, self.describe(table)))


def _holding(slot: int, blocks: list[Block]) -> tuple[Block, ...]:
    # a tuple, as the probe's memos keep it: tuples of numbers drop out of the cyclic collector's walks, and a
    # review keeps tens of thousands of these answers (mostly empty: the one shared empty tuple)
    shift = 5 * slot
    return tuple([blk for blk in blocks if (blk[0] >> shift) & 15])


def _bits(blocks: Iterable[Block]) -> int:
    """Every card some of the ``blocks`` hold (a packed multiset with a count of at least 1 per card)."""
    cards = 0
    for blk in blocks:
        cards |= blk[0]
    return cards


def _lowest_slot(enc: int) -> int:
    return ((enc & -enc).bit_length() - 1) // 5


# --------------------------------------------------------------------------- search


class Solver:
    """Memoized exact search over one multiset's candidate blocks.

    ``count(state, mask)`` ranks every arrangement of ``state`` (a sub-multiset of the cards the
    solver was built for) and counts the best ones; ``score(state, mask)`` finds the best score
    only (faster: no ordering constraint). ``mask`` holds the bits of the table melds already grown.
    """

    __slots__ = ("_by_slot", "_count_memo", "_score_memo", "blocks")

    def __init__(self, blocks: list[Block]) -> None:
        self.blocks = blocks
        by_slot: dict[int, list[tuple[int, Block]]] = {}  # only the slots some block starts at
        for i, blk in enumerate(blocks, 1):
            by_slot.setdefault(_lowest_slot(blk[0]), []).append((i, blk))
        self._by_slot = by_slot
        self._count_memo: dict[tuple[int, int, int], tuple[int, int, int]] = {}
        self._score_memo: dict[tuple[int, int], tuple[int, int]] = {}

    def count(self, state: int, bound: int = 0, mask: int = 0) -> tuple[int, int, int]:
        """(best score, number of best arrangements, first block index: 0 = lowest card dead)."""
        key = (state, bound, mask)
        hit = self._count_memo.get(key)
        if hit is not None:
            return hit
        slot = _lowest_slot(state)
        starting = self._by_slot.get(slot)
        if starting is None and bound == 0:
            # no block starts at the lowest card: it is dead, and so is every copy of it (the same
            # answer as removing one copy at a time, without a memo entry per copy)
            rest = state & ~(31 << (5 * slot))
            best, n = self.count(rest, 0, mask)[:2] if rest else (0, 1)
            out = (best, n, 0)
            self._count_memo[key] = out
            return out
        one = ONE[slot]
        shift = 5 * slot
        best, n, choice = -1, 0, -1
        if bound == 0:
            rest = state - one
            if rest:
                best, n, _ = self.count(rest, 0, mask)
            else:
                best, n = 0, 1
            choice = 0
        g = GUARD
        for idx, (enc, gain, bit, _, _) in starting or ():
            if idx < bound or bit & mask or ((state | g) - enc) & g != g:
                continue
            rest = state - enc
            if rest:
                sub, k, _ = self.count(rest, idx if (rest >> shift) & 15 else 0, mask | bit)
            else:
                sub, k = 0, 1
            sub += gain
            if sub > best:
                best, n, choice = sub, k, idx
            elif sub == best:
                n += k
        out = (best, n, choice)
        self._count_memo[key] = out
        return out

    def score(self, state: int, mask: int = 0) -> tuple[int, int]:
        """(best score, first block index: 0 = lowest card dead) over every arrangement of ``state``."""
        if not state:
            return (0, 0)
        key = (state, mask)
        hit = self._score_memo.get(key)
        if hit is not None:
            return hit
        slot = _lowest_slot(state)
        best, choice = self.score(state - ONE[slot], mask)[0], 0
        g = GUARD
        for idx, (enc, gain, bit, _, _) in self._by_slot.get(slot, ()):
            if bit & mask or ((state | g) - enc) & g != g:
                continue
            sub = self.score(state - enc, mask | bit)[0] + gain
            if sub > best:
                best, choice = sub, idx
        out = (best, choice)
        self._score_memo[key] = out
        return out

    def walk_count(self, state: int, mask: int = 0) -> list[Block]:
        """The blocks of the representative best arrangement found by :meth:`count`."""
        out: list[Block] = []
        bound = 0
        while state:
            slot = _lowest_slot(state)
            _, _, choice = self.count(state, bound, mask)
            if choice == 0:
                state -= ONE[slot]
                bound = 0
                continue
            blk = self.blocks[choice - 1]
            out.append(blk)
            state -= blk[0]
            mask |= blk[2]
            bound = choice if (state >> (5 * slot)) & 15 else 0
        return out

    def walk_score(self, state: int, mask: int = 0) -> list[Block]:
        """The blocks of the best arrangement found by :meth:`score`."""
        out: list[Block] = []
        while state:
            _, choice = self.score(state, mask)
            if choice == 0:
                state -= ONE[_lowest_slot(state)]
                continue
            blk = self.blocks[choice - 1]
            out.append(blk)
            state -= blk[0]
            mask |= blk[2]
        return out


class TableSolver:
    """:class:`Solver`'s ``score`` (and a cover test) for any hand under one set of table melds,
    with no block list of its own: the blocks holding a hand's lowest card are asked of a shared
    :class:`DrawProbe` (the same blocks, in the same order, as :class:`Solver` built from any hand that
    holds this one). The going-out policy keeps one per set of table melds for all its positions, instead
    of a :class:`Solver` per position (tests/test_analyze_odds.py compares every move with the plain path).
    """

    __slots__ = ("_cover_memo", "_score_memo", "descs", "probe", "tms")

    def __init__(self, probe: DrawProbe, tms: tuple[SearchMeld, ...]) -> None:
        self.probe = probe
        self.tms = tms
        self.descs = probe.describe(tms)
        # keyed by one number, the hand and the table melds grown above it: no tuple to build, hash and keep
        self._score_memo: dict[int, tuple[int, Block | None]] = {}
        self._cover_memo: dict[int, bool] = {}

    def blocks(self, slot: int, state: int, drawn: bool = True) -> tuple[Block, ...]:
        """:meth:`DrawProbe.blocks` with these table melds."""
        return self.probe.blocks(slot, state, self.descs, drawn)

    def covers(self, state: int, mask: int = 0) -> bool:
        """Whether some arrangement of ``state`` leaves no card dead: :meth:`score` counts every card down
        (a search that stops at the first such arrangement)."""
        if not state:
            return True
        key = mask << _MASK_SHIFT | state
        hit = self._cover_memo.get(key)
        if hit is not None:
            return hit
        out = False
        for enc, _, bit, _, _ in self.blocks(_lowest_slot(state), state, False):
            if not bit & mask and self.covers(state - enc, mask | bit):
                out = True
                break
        self._cover_memo[key] = out
        return out

    def score(self, state: int, mask: int = 0) -> tuple[int, Block | None]:
        """(best score, first block: None = lowest card dead) over every arrangement of ``state``."""
        if not state:
            return (0, None)
        key = mask << _MASK_SHIFT | state
        hit = self._score_memo.get(key)
        if hit is not None:
            return hit
        slot = _lowest_slot(state)
        best: int = self.score(state - ONE[slot], mask)[0]
        choice: Block | None = None
        for blk in self.blocks(slot, state, False):
            bit = blk[2]
            if bit & mask:
                continue
            sub = self.score(state - blk[0], mask | bit)[0] + blk[1]
            if sub > best:
                best, choice = sub, blk
        out = (best, choice)
        self._score_memo[key] = out
        return out

    def using_blocks(self, slot: int, state: int, first: Sequence[Block]) -> list[Block]:
        """:meth:`HandContext.using_blocks` of the hand ``state``, given the ``first`` blocks (holding the draw)."""
        full = state + ONE[slot]
        best, pick = -1, first[0]
        for blk in first:
            sub = self.score(full - blk[0], blk[2])[0] + blk[1]
            if sub > best:
                best, pick = sub, blk
        out = [pick]
        rest, mask = full - pick[0], pick[2]
        while rest:
            choice = self.score(rest, mask)[1]
            if choice is None:
                rest -= ONE[_lowest_slot(rest)]
                continue
            out.append(choice)
            rest -= choice[0]
            mask |= choice[2]
        return out


# --------------------------------------------------------------------------- results


class Placed(Value):
    """One part of an arrangement: a new meld, or cards added to a table meld.

    ``cards`` are the hand cards placed; ``meld`` is the meld that results; ``value`` is what each
    active opponent pays at once (the rules object's ``change_value``, C7: from nothing for a new
    meld, from the table meld's value for an addition);
    ``conditions`` are the conditions of ``meld`` as the rules object found them (C1-C5), which
    the exporters show; ``target`` is the 0-based index of the table meld grown, or None for a
    new meld.
    """

    cards: tuple[Card, ...]
    meld: Meld
    value: int
    conditions: tuple[Condition, ...]
    target: int | None = None

    def __str__(self) -> str:
        text = " ".join(map(str, self.cards))
        return text if self.target is None else f"{text} to #{self.target + 1}"


class Arrangement(Value):
    """A way to lay cards down: what is placed, what stays dead, and how many ways tie with it."""

    placed: tuple[Placed, ...]
    dead: tuple[Card, ...]
    count: int = 1
    """How many distinct arrangements are equally good (1 when not counted)."""

    @property
    def melded(self) -> int:
        """Cards put down (in new melds and additions)."""
        return sum(len(p.cards) for p in self.placed)

    @property
    def value(self) -> int:
        """Units each active opponent pays at once (C6, C7)."""
        return sum(p.value for p in self.placed)

    @property
    def new_melds(self) -> int:
        """How many new melds it lays."""
        return sum(1 for p in self.placed if p.target is None)

    @property
    def score(self) -> tuple[int, int, int]:
        """The ranking key: cards down, chips, fewer new melds."""
        return (self.melded, self.value, -self.new_melds)


def materialize(
    blocks: Sequence[Block], rest: int, table: Sequence[SearchMeld], space: MeldSpace, count: int = 1
) -> Arrangement:
    """Turn search blocks into melds (new ones judged by the meld space, additions grown by its rules
    object: M5, C7), each with what it collects (the rules object's ``change_value``, C7)."""
    placed: list[Placed] = []
    rules = space.rules
    memo = space.laid
    for enc, _, _, target, _ in blocks:
        if target < 0:
            p = memo.get(enc)
            if p is None:
                if len(memo) >= LAID_LIMIT:
                    memo.clear()
                cards, meld, value = space.new_meld(enc)
                p = memo[enc] = Placed(cards, meld, rules.change_value(0, value), rules.conditions(meld))
            placed.append(p)  # type: ignore[arg-type]
        else:
            cards = tuple(decode(enc))  # by rank then suit
            tm = table[target]
            grown = rules.grow(tm.meld, added_order(tm, cards))  # the space offers only what it grows
            paid = rules.change_value(tm.value, rules.value(grown))
            placed.append(Placed(cards, grown, paid, rules.conditions(grown), target))
    if len(placed) > 1:  # by table meld (new melds first), then by cards (Card.index orders as the slots do)
        placed.sort(key=lambda p: (p.target if p.target is not None else -1, [c.index for c in p.cards]))
    return Arrangement(tuple(placed), tuple(decode(rest)), count)


def prepare(
    profile: Profile, table: Sequence[Meld], space: MeldSpace | None = None
) -> tuple[MeldSpace, tuple[SearchMeld, ...]]:
    """The meld space (``space``, the caller's, of the rules object it was handed; without, that of
    a rules object of ``profile`` built for this call) and the table melds in the search's terms."""
    t = space if space is not None else PanRules(profile).meld_space()
    return t, tuple(SearchMeld.of(m, t.rules) for m in table)


def best_arrangement(
    cards: Iterable[Card], profile: Profile, table: Sequence[Meld] = (), space: MeldSpace | None = None
) -> Arrangement:
    """The exact best arrangement of ``cards`` (new melds and additions to the ``table`` melds).

    Most cards down, then most chips, then fewest new melds; ``count`` is how many distinct
    arrangements (multisets of melds) tie with it.

    >>> from pancli.rules import HOYLE
    >>> from pancli.cards import card, Rank, Suit
    >>> kings = [card(Rank.KING, s) for s in Suit] * 2 + [card(Rank.KING, Suit.SPADES)] * 3
    >>> a = best_arrangement(kings, HOYLE)
    >>> a.melded, a.value, [str(p) for p in a.placed]
    (11, 6, ['Ks Ks Ks Ks Ks', 'Kh Kh Kd Kd Kc Kc'])
    """
    state = encode(cards)
    t, tms = prepare(profile, table, space)
    if not state:
        return Arrangement((), ())
    candidates = hand_blocks(state, t, tms)
    if not candidates:
        return Arrangement((), tuple(decode(state)))
    # A card in no candidate block is dead in every arrangement: searching the others alone gives
    # the same best score, count and blocks (each such card only ever takes the "dead" branch).
    live = state & held_fields(_bits(candidates)) * 31
    solver = Solver(candidates)
    _, n, _ = solver.count(live)
    blocks = solver.walk_count(live)
    rest = state - sum(b[0] for b in blocks)
    return materialize(blocks, rest, tms, t, n)


class HandContext:
    """One hand's shared search (candidate blocks and memo), for asking about many draws.

    Every draw's remainder is a sub-multiset of the hand, so one solver serves all 40 draws.
    ``space``: the meld space of ``profile`` the caller asks all its questions in (one built
    afresh without); what is asked of the context and of its tables (:attr:`t`) keeps to it.
    """

    __slots__ = ("_solver", "cnt", "profile", "state", "t", "table", "tms")

    def __init__(
        self, hand: Sequence[Card], profile: Profile, table: Sequence[Meld] = (), space: MeldSpace | None = None
    ) -> None:
        t, tms = prepare(profile, table, space)
        self._setup(encode(hand), profile, t, tms)

    def _setup(self, state: int, profile: Profile, t: MeldSpace, tms: tuple[SearchMeld, ...]) -> None:
        self.profile = profile
        self.table = tuple(tm.meld for tm in tms)
        self.t, self.tms = t, tms
        self.state = state
        self.cnt = counts_of(state)
        self._solver: Solver | None = None

    @property
    def solver(self) -> Solver:
        """The search of the hand's arrangements, built at the first question that needs it (the odds
        of a hand, which the policy answers, never do)."""
        got = self._solver
        if got is None:
            got = self._solver = Solver(hand_blocks(self.state, self.t, self.tms))
        return got

    @classmethod
    def of_state(
        cls, state: int, profile: Profile, tms: tuple[SearchMeld, ...], space: MeldSpace | None = None
    ) -> HandContext:
        """The context of the packed hand ``state`` with table melds already described (no re-judging).

        >>> from pancli.cards import card, Rank, Suit
        >>> from pancli.meldspace import SLOT_OF
        >>> from pancli.rules import HOYLE
        >>> h = [card(Rank.FIVE, Suit.SPADES)] * 2
        >>> HandContext.of_state(encode(h), HOYLE, ()).usable(SLOT_OF[card(Rank.FIVE, Suit.SPADES)])
        True
        """
        ctx = cls.__new__(cls)
        ctx._setup(state, profile, space if space is not None else PanRules(profile).meld_space(), tms)
        return ctx

    def using_blocks(self, slot: int, first: list[Block] | None = None) -> tuple[int, list[Block]]:
        """(best score, blocks) with the card of ``slot`` drawn and used; score -1 when unusable.
        ``first``, when given, is ``blocks_with(slot, cnt + slot, ...)`` found already (:class:`DrawProbe`)."""
        if first is None:
            cnt = self.cnt
            cnt[slot] += 1
            try:
                first = blocks_with(slot, cnt, self.t, self.tms)
            finally:
                cnt[slot] -= 1
        if not first:
            return -1, []
        full = self.state + ONE[slot]
        best, pick = -1, first[0]
        solver = self.solver
        for blk in first:
            sub = solver.score(full - blk[0], blk[2])[0] + blk[1]
            if sub > best:
                best, pick = sub, blk
        return best, [pick, *solver.walk_score(full - pick[0], pick[2])]

    def using(self, slot: int) -> Arrangement | None:
        """The best arrangement with the card of ``slot`` drawn and used, or None (unusable)."""
        best, blocks = self.using_blocks(slot)
        if best < 0:
            return None
        rest = self.state + ONE[slot] - sum(b[0] for b in blocks)
        return materialize(blocks, rest, self.tms, self.t)

    def usable(self, slot: int) -> bool:
        """Whether the card of ``slot`` could be used if drawn (a meld with hand cards, or M5)."""
        cnt = self.cnt
        cnt[slot] += 1
        try:
            return bool(blocks_with(slot, cnt, self.t, self.tms))
        finally:
            cnt[slot] -= 1
