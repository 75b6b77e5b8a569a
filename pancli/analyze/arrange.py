"""Best arrangement of a hand: an exact, memoized search over card counts.

A hand is a multiset of the 40 distinct cards. It is packed into one integer, five bits per
card (a four-bit count under a guard bit), so that taking a meld out of what is left is one
subtraction and "does the hand still hold these cards" is one mask test (SWAR). Candidate
melds are generated only inside same-rank groups (sets, M3/M4) and same-suit groups (ropes,
M2), and identical cards are counts, never positions (benchmarks/README.md, hand analysis).

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
from itertools import combinations
from typing import Final

from msgspec import field

from pancli.cards import ALL_CARDS, PAN_RANKS, SUITS, Card, card
from pancli.melds import Meld, Rope, SetShape, grow, judge, rope_value
from pancli.rules import Condition, Profile, SetGrowth
from pancli.values import Value

# --------------------------------------------------------------------------- encoding

NSLOT: Final = 40
"""Slots 0..39: ``pan_index(rank) * 4 + suit order`` (A s, A h, A d, A c, 2 s, ...)."""
ONE: Final = tuple(1 << (5 * i) for i in range(NSLOT))
GUARD: Final = sum(16 << (5 * i) for i in range(NSLOT))
SLOT_CARDS: Final = tuple(card(PAN_RANKS[i // 4], SUITS[i % 4]) for i in range(NSLOT))
"""The card of each slot."""
SLOT_OF: Final = {c: i for i, c in enumerate(SLOT_CARDS)}
"""The slot of each Panguingue card."""

CARD_WEIGHT: Final = 100_000
CHIP_WEIGHT: Final = 100
"""Score = cards down * CARD_WEIGHT + chips * CHIP_WEIGHT - new melds."""


def encode(cards: Iterable[Card]) -> int:
    """The packed multiset of ``cards`` (Panguingue cards only).

    >>> from pancli.cards import card, Rank, Suit
    >>> decode(encode([card(Rank.KING, Suit.CLUBS)] * 2)) == [card(Rank.KING, Suit.CLUBS)] * 2
    True
    """
    s = 0
    for c in cards:
        one = _ONE_OF_INDEX[c.index]
        if not one:
            raise KeyError(c)  # not a Panguingue card (as SLOT_OF[c] says)
        s += one
    return s


_ONE_OF_INDEX: Final = tuple(ONE[SLOT_OF[c]] if c in SLOT_OF else 0 for c in ALL_CARDS)
"""``ONE[SLOT_OF[c]]`` by :attr:`Card.index` (0 for a card not in the Panguingue pack): a card's
hash is a Python call (its enums), its index a slot read."""


def counts_of(state: int) -> list[int]:
    """The 40 counts of a packed multiset.

    >>> from pancli.cards import card, Rank, Suit
    >>> cnt = counts_of(encode([card(Rank.KING, Suit.CLUBS)] * 3 + [card(Rank.ACE, Suit.SPADES)]))
    >>> cnt[0], cnt[SLOT_OF[card(Rank.KING, Suit.CLUBS)]], sum(cnt)
    (1, 3, 4)
    """
    cnt = [0] * NSLOT
    held = _held(state)  # only the slots held (a hand holds a few of the 40)
    while held:
        low = held & -held
        shift = low.bit_length() - 1
        cnt[shift // 5] = (state >> shift) & 15
        held ^= low
    return cnt


def decode(state: int) -> list[Card]:
    """The cards of a packed multiset, by rank then suit (the slots' order).

    >>> from pancli.cards import card, Rank, Suit
    >>> [str(c) for c in decode(encode([card(Rank.KING, Suit.CLUBS), card(Rank.ACE, Suit.HEARTS)] * 2))]
    ['Ah', 'Ah', 'Kc', 'Kc']
    """
    out: list[Card] = []
    held = _held(state)  # only the slots held, lowest first (a hand holds a few of the 40)
    while held:
        low = held & -held
        shift = low.bit_length() - 1
        n = (state >> shift) & 15
        c = SLOT_CARDS[shift // 5]
        if n == 1:
            out.append(c)
        else:
            out.extend([c] * n)
        held ^= low
    return out


def fits(state: int, block: int) -> bool:
    """True when the multiset ``state`` holds every card of ``block``."""
    return ((state | GUARD) - block) & GUARD == GUARD


# --------------------------------------------------------------------------- values (C6)


class _Tables(Value):
    """Meld values under one profile, precomputed (checked against melds.judge in the tests)."""

    one_suit: tuple[tuple[int, int], ...]  # slot -> (base, extra) of a one-suit set of that card
    diff: tuple[tuple[int, int], ...]  # pan rank index -> (base, extra) of a different-suits set
    rope: tuple[tuple[tuple[int, ...], ...], ...]  # suit -> lo -> hi -> value
    copies: tuple[int, ...]  # slot -> copies in the pack (E4)
    growth_any: bool
    sets: dict[tuple[int, ...], bool] = field(default_factory=dict)
    """(pan rank index, copies of each suit) -> a legal set (M3, M4): the meld engine's
    answers, filled as they are asked (:func:`pancli.analyze.odds`)."""
    groups: dict[int, list[Block]] = field(default_factory=dict)
    """One rank's or one suit's packed cards (tagged) -> the new melds they make (:func:`hand_blocks`)."""
    laid: dict[int, Placed] = field(default_factory=dict)
    """Packed cards -> the new meld they make (:func:`materialize`): the meld engine's answer
    (:func:`pancli.melds.judge`), asked once per profile and kept (bounded). Measured on 6,000
    random hands (best arrangement, CPU, each hand with the memo and emptied alternately in one
    process): p50 45.9 against 66.8 us, p99 193 against 266 us. tests/test_analyze_arrange.py
    compares the results with the plain search, memo cold and warm."""


def _rope_value(profile: Profile, s: int, lo: int, hi: int) -> int:
    return rope_value(profile, hi - lo + 1, spades=s == 0, ace=lo == 0, king=hi == 9)


def _build_tables(profile: Profile) -> _Tables:
    one_suit = []
    for i in range(NSLOT):
        c = SLOT_CARDS[i]
        rate = profile.rate(Condition.C2 if c.rank.is_valle else Condition.C3)
        spades = i % 4 == 0
        one_suit.append((rate.base_for(spades), rate.extra_for(spades)))
    diff = []
    for r in PAN_RANKS:
        if r.is_valle:
            rate = profile.rate(Condition.C1)
            diff.append((rate.base, rate.extra))
        else:
            diff.append((0, 0))
    rope = tuple(
        tuple(tuple(_rope_value(profile, s, lo, hi) if hi >= lo + 2 else 0 for hi in range(10)) for lo in range(10))
        for s in range(4)
    )
    copies = tuple(profile.pack.copies(c) for c in SLOT_CARDS)
    return _Tables(tuple(one_suit), tuple(diff), rope, copies, profile.mixed_set_growth is SetGrowth.ANY)


_TABLES: dict[Profile, _Tables] = {}
_LAST: list[tuple[Profile, _Tables]] = []


def tables_for(profile: Profile) -> _Tables:
    """The value tables of ``profile`` (built once per profile; the last one asked is found by
    identity first, since hashing a profile is a Python call per field)."""
    if _LAST and _LAST[0][0] is profile:
        return _LAST[0][1]
    t = _TABLES.get(profile)
    if t is None:
        t = _TABLES[profile] = _build_tables(profile)
    _LAST[:] = [(profile, t)]
    return t


# --------------------------------------------------------------------------- candidate blocks

# A block is a tuple (enc, gain, bit, target, size): the packed cards, the score it adds, the bit of
# the table meld it grows (0 for a new meld), that meld's index (-1 for a new meld), its card count.
Block = tuple[int, int, int, int, int]

_ROPE_ENC: Final = tuple(
    tuple(tuple(sum(ONE[r * 4 + s] for r in range(lo, hi + 1)) for hi in range(10)) for lo in range(10))
    for s in range(4)
)


def _new(enc: int, size: int, value: int) -> Block:
    return (enc, size * CARD_WEIGHT + value * CHIP_WEIGHT - 1, 0, -1, size)


def set_blocks(ri: int, cs: Sequence[int], t: _Tables, out: list[Block]) -> None:
    """Every legal set (M3, M4) drawn from the counts ``cs`` (s h d c) of pan rank index ``ri``."""
    if cs[0] + cs[1] + cs[2] + cs[3] < 3:
        return
    base = ri * 4
    if ri == 0 or ri == 9:  # aces and kings mix suits in any way (M4)
        o0, o1, o2, o3 = ONE[base], ONE[base + 1], ONE[base + 2], ONE[base + 3]
        for a in range(cs[0] + 1):
            for b in range(cs[1] + 1):
                for c in range(cs[2] + 1):
                    for d in range(cs[3] + 1):
                        n = a + b + c + d
                        if n < 3:
                            continue
                        if n in (a, b, c, d):
                            s = (a, b, c, d).index(n)
                            be, ex = t.one_suit[base + s]
                            v = be + (n - 3) * ex
                        else:
                            v = 0
                        out.append(_new(a * o0 + b * o1 + c * o2 + d * o3, n, v))
        return
    for s in range(4):
        n = cs[s]
        if n >= 3:
            be, ex = t.one_suit[base + s]
            for k in range(3, n + 1):
                out.append(_new(k * ONE[base + s], k, be + (k - 3) * ex))
    present = [s for s in range(4) if cs[s]]
    if len(present) >= 3:
        be, ex = t.diff[ri]
        for combo in combinations(present, 3):
            out.append(_new(sum(ONE[base + s] for s in combo), 3, be))
        if len(present) == 4:
            out.append(_new(sum(ONE[base + s] for s in present), 4, be + ex))


def rope_blocks(s: int, cnt: Sequence[int], t: _Tables, out: list[Block]) -> None:
    """Every legal rope (M2) of suit ``s`` drawn from the counts ``cnt`` (40 slots)."""
    ri = 0
    while ri < 10:
        if not cnt[ri * 4 + s]:
            ri += 1
            continue
        lo = ri
        while ri < 10 and cnt[ri * 4 + s]:
            ri += 1
        hi = ri - 1
        if hi - lo >= 2:
            encs, vals = _ROPE_ENC[s], t.rope[s]
            for a in range(lo, hi - 1):
                for b in range(a + 2, hi + 1):
                    out.append(_new(encs[a][b], b - a + 1, vals[a][b]))


class TableMeld(Value):
    """One of the player's melds on the table, in the search's terms."""

    meld: Meld
    value: int
    kind: str  # "rope", "one", "diff", "mixed"
    suit: int
    lo: int  # rope: lowest pan index; set: pan rank index
    hi: int
    counts: tuple[int, ...]  # set: copies of each suit (s h d c) already in it

    @staticmethod
    def of(meld: Meld, profile: Profile) -> TableMeld:
        """Describe a legal meld for the search."""
        v = meld.value(profile)
        if isinstance(meld, Rope):
            idx = [c.rank.pan_index for c in meld.cards]
            return TableMeld(meld, v, "rope", meld.suit.order, min(idx), max(idx), ())
        cs = [0, 0, 0, 0]
        for c in meld.cards:
            cs[c.suit.order] += 1
        kind = {SetShape.ONE_SUIT: "one", SetShape.DIFFERENT_SUITS: "diff", SetShape.NONCOMOQUER: "mixed"}[meld.shape]
        suit = meld.cards[0].suit.order
        ri = meld.rank.pan_index
        return TableMeld(meld, v, kind, suit, ri, ri, tuple(cs))


def addition_blocks(j: int, tm: TableMeld, cnt: Sequence[int], t: _Tables, out: list[Block]) -> None:
    """Every legal addition (M5, value not lowered: C7) of hand cards ``cnt`` to table meld ``j``."""
    bit = 1 << j
    if tm.kind == "rope":
        s = tm.suit
        down = 0
        while tm.lo - down - 1 >= 0 and cnt[(tm.lo - down - 1) * 4 + s]:
            down += 1
        up = 0
        while tm.hi + up + 1 <= 9 and cnt[(tm.hi + up + 1) * 4 + s]:
            up += 1
        for a in range(down + 1):
            for b in range(up + 1):
                if a == b == 0:
                    continue
                lo, hi = tm.lo - a, tm.hi + b
                delta = t.rope[s][lo][hi] - tm.value
                if delta < 0:
                    continue
                enc = (_ROPE_ENC[s][lo][tm.lo - 1] if a else 0) + (_ROPE_ENC[s][tm.hi + 1][hi] if b else 0)
                out.append((enc, (a + b) * CARD_WEIGHT + delta * CHIP_WEIGHT, bit, j, a + b))
        return
    ri = tm.lo
    base = ri * 4
    n0 = sum(tm.counts)
    if tm.kind == "one":
        slot = base + tm.suit
        ex = t.one_suit[slot][1]
        for k in range(1, min(cnt[slot], t.copies[slot] - n0) + 1):
            delta = k * ex
            out.append((k * ONE[slot], k * CARD_WEIGHT + delta * CHIP_WEIGHT, bit, j, k))
        return
    if tm.kind == "diff" and not t.growth_any:
        missing = [s for s in range(4) if not tm.counts[s] and cnt[base + s]]
        ex = t.diff[ri][1]
        for k in range(1, len(missing) + 1):
            for combo in combinations(missing, k):
                enc = sum(ONE[base + s] for s in combo)
                out.append((enc, k * CARD_WEIGHT + k * ex * CHIP_WEIGHT, bit, j, k))
        return
    # a mixed ace/king set takes any ace or king; with mixed_set_growth = "any" a different-suits set
    # takes any suit of its rank. Copies in the pack still bound it (E4).
    ex = t.diff[ri][1] if tm.kind == "diff" else 0
    lim = [min(cnt[base + s], t.copies[base + s] - tm.counts[s]) for s in range(4)]
    for a in range(lim[0] + 1):
        for b in range(lim[1] + 1):
            for c in range(lim[2] + 1):
                for d in range(lim[3] + 1):
                    k = a + b + c + d
                    if k:
                        enc = a * ONE[base] + b * ONE[base + 1] + c * ONE[base + 2] + d * ONE[base + 3]
                        out.append((enc, k * CARD_WEIGHT + k * ex * CHIP_WEIGHT, bit, j, k))


def all_blocks(cnt: Sequence[int], t: _Tables, table: Sequence[TableMeld] = ()) -> list[Block]:
    """Every candidate block of the counts ``cnt``: new sets, new ropes, additions to table melds."""
    out: list[Block] = []
    for ri in range(10):
        b = ri * 4
        if cnt[b] + cnt[b + 1] + cnt[b + 2] + cnt[b + 3] >= 3:
            set_blocks(ri, cnt[b : b + 4], t, out)
    for s in range(4):
        if sum(map(bool, cnt[s::4])) >= 3:  # three ranks of the suit at least
            rope_blocks(s, cnt, t, out)
    for j, tm in enumerate(table):
        addition_blocks(j, tm, cnt, t, out)
    return out


def blocks_with(slot: int, cnt: Sequence[int], t: _Tables, table: Sequence[TableMeld] = ()) -> list[Block]:
    """The candidate blocks of ``cnt`` that hold the card of ``slot``."""
    out: list[Block] = []
    ri, s = divmod(slot, 4)
    b = ri * 4
    set_blocks(ri, cnt[b : b + 4], t, out)
    rope_blocks(s, cnt, t, out)
    for j, tm in enumerate(table):
        addition_blocks(j, tm, cnt, t, out)
    shift = 5 * slot
    return [blk for blk in out if (blk[0] >> shift) & 15]


def hand_blocks(state: int, t: _Tables, table: Sequence[TableMeld] = ()) -> list[Block]:
    """``all_blocks(counts_of(state), t, table)``: the same blocks in the same order. A rank's sets
    depend on that rank's cards only and a suit's ropes on that suit's, so each group's blocks are
    kept per profile (bounded) under its packed cards. Measured on 10,000 random hands (best
    arrangement, CPU, median of 3 per hand, alternately with and without): p50 31.7 -> 22.2 us,
    p99 89.2 -> 64.6 us; tests/test_analyze_arrange.py compares it with :func:`all_blocks`."""
    memo = t.groups
    if len(memo) > _GROUP_LIMIT:
        memo.clear()
    out: list[Block] = []
    held = _held(state)
    for ri in range(10):
        part = state & RANK_MASK[ri]
        if part and _fields_sum(part, ri * 4) >= 3:
            blocks = memo.get(part)  # a rank's fields are its own: no tag needed
            if blocks is None:
                blocks = []
                set_blocks(ri, counts_of(part)[ri * 4 : ri * 4 + 4], t, blocks)
                memo[part] = blocks
            out += blocks
    for s in range(4):
        part = state & SUIT_MASK[s]
        if (held & SUIT_MASK[s]).bit_count() >= 3:  # three ranks of the suit at least
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
"""Bound on :attr:`_Tables.groups` (a group's blocks are a few tuples)."""


RANK_MASK: Final = tuple(sum(31 << (5 * (ri * 4 + x)) for x in range(4)) for ri in range(10))
"""The fields of the four cards of each pan rank index in a packed multiset."""
SUIT_MASK: Final = tuple(sum(31 << (5 * (ri * 4 + s)) for ri in range(10)) for s in range(4))
"""The fields of the ten cards of each suit in a packed multiset."""
_LOW_BITS: Final = sum(1 << (5 * i) for i in range(NSLOT))


def _held(cards: int) -> int:
    """Bit 5i set for each card the packed multiset ``cards`` holds (its field's lowest bit)."""
    return (cards | cards >> 1 | cards >> 2 | cards >> 3) & _LOW_BITS


def _slot_bits(cards: int) -> int:
    """The slots the packed multiset ``cards`` holds, as bits."""
    x, out = _held(cards), 0
    while x:
        low = x & -x
        out |= 1 << ((low.bit_length() - 1) // 5)
        x ^= low
    return out


_TAG: Final = NSLOT * 5 + 1
"""Memo keys are packed cards of one rank or suit with a tag bit at ``_TAG`` or above saying which."""


Desc = tuple[TableMeld, int, int, int]
"""A table meld as :class:`DrawProbe` reads it: (meld, a number for what addition_blocks reads of it, the slots its
blocks can hold as bits, the fields of the packed hand it reads)."""
_PROBE_MEMOS: dict[
    int,
    tuple[dict[object, tuple[int, int]], dict[object, list[Block]], dict[int, Desc], dict[tuple[object, ...], int]],
] = {}
_PROBE_MEMO_LIMIT: Final = 100_000
"""Entries the shared memos of :class:`DrawProbe` may hold before a new probe starts them afresh (they grow
by about 40 per analysed hand: 400 random hands took the process from 20 to 24 MB)."""


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
    >>> from pancli.rules import HOYLE
    >>> probe = DrawProbe(tables_for(HOYLE))
    >>> state = encode([card(Rank.FIVE, Suit.SPADES)] * 2)
    >>> probe.usable(SLOT_OF[card(Rank.FIVE, Suit.SPADES)], state, ()), probe.usable(0, state, ())
    (True, False)
    """

    __slots__ = ("_blocks", "_descs", "_groups", "_keys", "t")

    def __init__(self, t: _Tables) -> None:
        self.t = t
        memos = _PROBE_MEMOS.get(id(t))  # tables live as long as the process: ids stay unique
        if memos is None or len(memos[0]) + len(memos[1]) + len(memos[2]) + len(memos[3]) > _PROBE_MEMO_LIMIT:
            memos = _PROBE_MEMOS[id(t)] = ({}, {}, {}, {})
        # the answers depend on the cards and the profile only, so every analysis under the profile shares them
        self._groups: dict[object, tuple[int, int]] = memos[0]  # one rank, suit or meld's cards -> (usable, covered)
        self._blocks: dict[object, list[Block]] = memos[1]  # (a drawn slot, one rank's or suit's cards) -> blocks
        # id(meld) -> (meld, key, reach, fields); the entry keeps the meld, so its id is not reused while it is there
        self._descs: dict[int, Desc] = memos[2]
        # what addition_blocks reads of a meld -> a number for it in memo keys (a tuple holding a tuple and a string
        # is hashed afresh on every look-up; a number is not)
        self._keys: dict[tuple[object, ...], int] = memos[3]

    def _desc(self, tm: TableMeld) -> Desc:
        """What :func:`addition_blocks` reads of ``tm``, the slots its blocks can hold at all (those of
        its blocks for a hand of one copy of every card: more copies of a card give no block a card it
        could not have with one, each bound being a count or the copies left in the pack), and the
        fields of the packed hand it reads (the meld's suit for a rope, its rank for a set)."""
        got = self._descs.get(id(tm))
        if got is None:
            out: list[Block] = []
            addition_blocks(0, tm, [1] * NSLOT, self.t, out)
            reach = _slot_bits(_bits(out))
            fields = SUIT_MASK[tm.suit] if tm.kind == "rope" else RANK_MASK[tm.lo]
            what = (tm.kind, tm.suit, tm.lo, tm.hi, tm.counts, tm.value)
            key = self._keys.get(what)
            if key is None:
                key = self._keys[what] = len(self._keys)
            got = self._descs[id(tm)] = (tm, key, reach, fields)
        return got

    def _gen(self, part: int, kind: int, tm: TableMeld | None) -> list[Block]:
        """The blocks of the packed cards ``part`` from one generator: sets of rank ``kind`` (0-9), ropes of
        suit ``kind - 10`` (10-13), or additions to ``tm`` (as table meld 0)."""
        cnt = counts_of(part)
        out: list[Block] = []
        if tm is not None:
            addition_blocks(0, tm, cnt, self.t, out)
        elif kind < 10:
            set_blocks(kind, cnt[kind * 4 : kind * 4 + 4], self.t, out)
        else:
            rope_blocks(kind - 10, cnt, self.t, out)
        return out

    def _group(self, part: int, kind: int, tm: TableMeld | None, slots: Iterable[int]) -> tuple[int, int]:
        """(the ``slots`` whose card drawn to ``part`` is in a block, the fields of ``part`` in a block)."""
        usable = 0
        for slot in slots:
            if any((blk[0] >> (5 * slot)) & 15 for blk in self._gen(part + ONE[slot], kind, tm)):
                usable |= 1 << slot
        cards = _bits(self._gen(part, kind, tm))
        return usable, _held(cards) * 31  # each held card's whole field

    def describe(self, table: Sequence[TableMeld]) -> tuple[Desc, ...]:
        """The table melds as :meth:`scan` and :meth:`blocks` take them."""
        return tuple(map(self._desc, table))

    def scan(self, state: int, table: Sequence[Desc] = ()) -> tuple[int, int]:
        """(the slots whose card drawn to the hand ``state`` is usable, as bits; the fields of the hand
        cards that lie in some block of ``all_blocks``, as a mask of ``state``), with the table melds
        ``table`` (:meth:`describe`)."""
        groups = self._groups
        # the ranks' and suits' answers for the whole hand at once: a hand recurs under other melds (8 positions a
        # hand on slow hands), and a scan costs a third with it (the same scans replayed, CPU)
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

    def blocks(self, slot: int, state: int, table: Sequence[Desc] = (), drawn: bool = True) -> list[Block]:
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
                    adds = memo[key2] = [(enc, gain, 1 << j, j, size) for enc, gain, _, _, size in got]
                if adds:
                    out += adds
        return out

    def usable(self, slot: int, state: int, table: Sequence[TableMeld] = ()) -> bool:
        """True when the card of ``slot`` drawn to the hand ``state`` makes a block with it."""
        return bool(self.blocks(slot, state, self.describe(table)))


def _holding(slot: int, blocks: list[Block]) -> list[Block]:
    shift = 5 * slot
    return [blk for blk in blocks if (blk[0] >> shift) & 15]


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

    def __init__(self, probe: DrawProbe, tms: tuple[TableMeld, ...]) -> None:
        self.probe = probe
        self.tms = tms
        self.descs = probe.describe(tms)
        self._score_memo: dict[tuple[int, int], tuple[int, Block | None]] = {}
        self._cover_memo: dict[tuple[int, int], bool] = {}

    def blocks(self, slot: int, state: int, drawn: bool = True) -> list[Block]:
        """:meth:`DrawProbe.blocks` with these table melds."""
        return self.probe.blocks(slot, state, self.descs, drawn)

    def covers(self, state: int, mask: int = 0) -> bool:
        """Whether some arrangement of ``state`` leaves no card dead: :meth:`score` counts every card down
        (a search that stops at the first such arrangement)."""
        if not state:
            return True
        key = (state, mask)
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
        key = (state, mask)
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

    def using_blocks(self, slot: int, state: int, first: list[Block]) -> list[Block]:
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
    active opponent pays at once (C6 for a new meld, the C7 change for an addition); ``target`` is
    the 0-based index of the table meld grown, or None for a new meld.
    """

    cards: tuple[Card, ...]
    meld: Meld
    value: int
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
    blocks: Sequence[Block], rest: int, table: Sequence[TableMeld], profile: Profile, count: int = 1
) -> Arrangement:
    """Turn search blocks into melds (judged by :func:`pancli.melds.judge` and :func:`grow`)."""
    placed: list[Placed] = []
    memo = tables_for(profile).laid
    for enc, _, _, target, _ in blocks:
        if target < 0:
            p = memo.get(enc)
            if p is None:
                p = _new_meld(enc, profile)
                if len(memo) >= _LAID_LIMIT:
                    memo.clear()
                memo[enc] = p
            placed.append(p)
        else:
            cards = tuple(decode(enc))  # by rank then suit
            tm = table[target]
            order = cards
            if tm.kind == "rope":  # add outward from the rope, one card at a time
                below = [c for c in cards if c.rank.pan_index < tm.lo]
                order = (*reversed(below), *(c for c in cards if c.rank.pan_index > tm.hi))
            grown = grow(tm.meld, order, profile)
            placed.append(Placed(cards, grown, grown.value(profile) - tm.value, target))
    if len(placed) > 1:  # by table meld (new melds first), then by cards (Card.index orders as the slots do)
        placed.sort(key=lambda p: (p.target if p.target is not None else -1, [c.index for c in p.cards]))
    return Arrangement(tuple(placed), tuple(decode(rest)), count)


def _new_meld(enc: int, profile: Profile) -> Placed:
    """The new meld of the packed cards ``enc``, judged by :func:`pancli.melds.judge` (M1-M4, C6)."""
    cards = tuple(decode(enc))
    v = judge(cards, profile)
    assert v.meld is not None, v.reason
    return Placed(cards, v.meld, v.meld.value(profile))


_LAID_LIMIT: Final = 20_000
"""Bound on :attr:`_Tables.laid` (new melds judged once per profile: about 2 KB each)."""


def prepare(profile: Profile, table: Sequence[Meld]) -> tuple[_Tables, tuple[TableMeld, ...]]:
    """The value tables and the table melds in the search's terms."""
    return tables_for(profile), tuple(TableMeld.of(m, profile) for m in table)


def best_arrangement(cards: Iterable[Card], profile: Profile, table: Sequence[Meld] = ()) -> Arrangement:
    """The exact best arrangement of ``cards`` (new melds and additions to the ``table`` melds).

    Most cards down, then most chips, then fewest new melds; ``count`` is how many distinct
    arrangements (multisets of melds) tie with it.

    >>> from pancli.rules import HOYLE
    >>> from pancli.cards import card, Rank, Suit
    >>> kings = [card(Rank.KING, s) for s in SUITS] * 2 + [card(Rank.KING, Suit.SPADES)] * 3
    >>> a = best_arrangement(kings, HOYLE)
    >>> a.melded, a.value, [str(p) for p in a.placed]
    (11, 6, ['Ks Ks Ks Ks Ks', 'Kh Kh Kd Kd Kc Kc'])
    """
    state = encode(cards)
    t, tms = prepare(profile, table)
    if not state:
        return Arrangement((), ())
    candidates = hand_blocks(state, t, tms)
    if not candidates:
        return Arrangement((), tuple(decode(state)))
    # A card in no candidate block is dead in every arrangement: searching the others alone gives
    # the same best score, count and blocks (each such card only ever takes the "dead" branch).
    live = state & _held(_bits(candidates)) * 31
    solver = Solver(candidates)
    _, n, _ = solver.count(live)
    blocks = solver.walk_count(live)
    rest = state - sum(b[0] for b in blocks)
    return materialize(blocks, rest, tms, profile, n)


def best_using(hand: Iterable[Card], drawn: Card, profile: Profile, table: Sequence[Meld] = ()) -> Arrangement | None:
    """The best arrangement of ``hand`` plus ``drawn`` in which the drawn card is used (P2, P4),
    or None when it cannot be used (it must then be discarded, and no hand card goes down).

    >>> from pancli.rules import HOYLE
    >>> from pancli.cards import card, Rank, Suit
    >>> h = [card(Rank.FIVE, Suit.SPADES)] * 3 + [card(Rank.FOUR, Suit.SPADES)]
    >>> [str(p) for p in best_using(h, card(Rank.THREE, Suit.SPADES), HOYLE).placed]
    ['3s 4s 5s']
    >>> best_using(h, card(Rank.KING, Suit.HEARTS), HOYLE) is None
    True
    """
    ctx = HandContext(list(hand), profile, table)
    return ctx.using(SLOT_OF[drawn])


class HandContext:
    """One hand's shared search (candidate blocks and memo), for asking about many draws.

    Every draw's remainder is a sub-multiset of the hand, so one solver serves all 40 draws.
    """

    __slots__ = ("cnt", "profile", "solver", "state", "t", "table", "tms")

    def __init__(self, hand: Sequence[Card], profile: Profile, table: Sequence[Meld] = ()) -> None:
        t, tms = prepare(profile, table)
        self._setup(encode(hand), profile, t, tms)

    def _setup(self, state: int, profile: Profile, t: _Tables, tms: tuple[TableMeld, ...]) -> None:
        self.profile = profile
        self.table = tuple(tm.meld for tm in tms)
        self.t, self.tms = t, tms
        self.state = state
        self.cnt = counts_of(state)
        self.solver = Solver(hand_blocks(state, t, tms))

    @classmethod
    def of_state(cls, state: int, profile: Profile, tms: tuple[TableMeld, ...]) -> HandContext:
        """The context of the packed hand ``state`` with table melds already described (no re-judging).

        >>> from pancli.cards import card, Rank, Suit
        >>> from pancli.rules import HOYLE
        >>> h = [card(Rank.FIVE, Suit.SPADES)] * 2
        >>> HandContext.of_state(encode(h), HOYLE, ()).usable(SLOT_OF[card(Rank.FIVE, Suit.SPADES)])
        True
        """
        ctx = cls.__new__(cls)
        ctx._setup(state, profile, tables_for(profile), tms)
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
        return materialize(blocks, rest, self.tms, self.profile)

    def usable(self, slot: int) -> bool:
        """Whether the card of ``slot`` could be used if drawn (a meld with hand cards, or M5)."""
        cnt = self.cnt
        cnt[slot] += 1
        try:
            return bool(blocks_with(slot, cnt, self.t, self.tms))
        finally:
            cnt[slot] -= 1
