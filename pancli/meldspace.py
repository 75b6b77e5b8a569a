"""The meld space of a rules object: every meld some cards can form, what adding cards to a
meld does, and what each is worth, as the rules object (:class:`pancli.panrules.PanRules`)
answers: it judges each candidate (``judge``: E1, E4, M1-M4), each addition (``grow``: M5, with
its C7 and E4) and values each meld (``value``, C6). The space only proposes candidates of the
shapes melds have (sets inside one rank, ropes inside one suit, additions of a set's rank or of
cards next to a rope's ends) and keeps each answer; a rules object that refuses a candidate, or
values it otherwise, is followed by the search. The rules object builds its space once and keeps
it (:meth:`pancli.panrules.PanRules.meld_space`).

The analyzer (:mod:`pancli.analyze`) asks it for candidate melds (self-play's quicker look at
the widest melds a card might join is :func:`pancli.referee.simulate.widest_melds_with`), and a
test compares every generated meld with its judgement under profiles of every knob value.

A hand is a multiset of the 40 distinct Panguingue cards, packed into one integer, five bits
per card (a four-bit count under a guard bit), so that taking a meld out of what is left is one
subtraction and "does the hand still hold these cards" is one mask test (SWAR). Melds are
generated only inside same-rank groups (sets, M3/M4) and same-suit groups (ropes, M2), and
identical cards are counts, never positions (benchmarks/README.md, bench_analyze).

>>> from pancli.rules import HOYLE
>>> from pancli.cards import card, Rank, Suit
>>> from pancli.panrules import PanRules
>>> space = PanRules(HOYLE).meld_space()
>>> hand = encode([card(Rank.FIVE, Suit.SPADES)] * 3 + [card(Rank.FOUR, Suit.SPADES)])
>>> [" ".join(map(str, decode(b[0]))) for b in space.blocks(counts_of(hand))]
['5s 5s 5s']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations
from typing import TYPE_CHECKING, Final

from msgspec import field

from pancli.cards import ALL_CARDS, PAN_RANKS, SUITS, Card, card
from pancli.melds import Meld, MeldError, Rope, SetShape
from pancli.rules import Profile, SetGrowth
from pancli.values import Value

if TYPE_CHECKING:  # the rules object's module builds the space: naming it here would be an import circle
    from typing import Protocol

    from pancli.melds import Verdict
    from pancli.rules import Condition

    class SpaceRules(Protocol):
        """What the meld space asks of the rules object (:class:`pancli.panrules.PanRules`)."""

        @property
        def profile(self) -> Profile: ...

        @property
        def min_meld(self) -> int: ...

        def copies_of(self, c: Card) -> int: ...

        def past_the_pack(
            self, seen: Sequence[int], counts: Iterable[tuple[int, int]], copies: Sequence[int] | None = None
        ) -> tuple[int, int] | None: ...

        def judge(self, cards: tuple[Card, ...]) -> Verdict: ...

        def grow(self, meld: Meld, added: tuple[Card, ...]) -> Meld: ...

        def value(self, meld: Meld) -> int: ...

        def change_value(self, before: int, after: int) -> int: ...

        def conditions(self, meld: Meld) -> tuple[Condition, ...]: ...

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
    held = held_fields(state)  # only the slots held (a hand holds a few of the 40)
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
    held = held_fields(state)  # only the slots held, lowest first (a hand holds a few of the 40)
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


RANK_MASK: Final = tuple(sum(31 << (5 * (ri * 4 + x)) for x in range(4)) for ri in range(10))
"""The fields of the four cards of each pan rank index in a packed multiset."""
SUIT_MASK: Final = tuple(sum(31 << (5 * (ri * 4 + s)) for ri in range(10)) for s in range(4))
"""The fields of the ten cards of each suit in a packed multiset."""
_LOW_BITS: Final = sum(1 << (5 * i) for i in range(NSLOT))


def held_fields(cards: int) -> int:
    """Bit 5i set for each card the packed multiset ``cards`` holds (its field's lowest bit)."""
    return (cards | cards >> 1 | cards >> 2 | cards >> 3) & _LOW_BITS


# --------------------------------------------------------------------------- values (C6)


class MeldSpace(Value):
    """The melds of one rules object in the search's terms: the answers of its questions (judge,
    grow, value), asked once and kept as they are asked. :meth:`pancli.panrules.PanRules.meld_space`
    gives it (:func:`space_of` builds it)."""

    rules: SpaceRules
    rope: list[list[list[int | None]]]
    """Suit -> lo -> hi -> the value of the rope of those pan rank indices (C6), None when the rules
    object makes no meld of it (or it is under :attr:`least` cards): the rules object's answers,
    kept as they are asked (:meth:`rope_value`; :data:`_UNASKED` until then: an analysis asks a few
    of the 400, and judging them all was most of ``pan analyze``'s own start)."""
    copies: tuple[int, ...]  # slot -> copies in the pack (E1)
    growth_any: bool
    """A different-suits set is offered cards of any suit to grow by (``mixed_set_growth``), not only
    its missing suits: which candidates are proposed, the rules object deciding each."""
    least: int
    """The fewest cards of a meld (M1), the rules object's ``min_meld``: no candidate is smaller."""
    sets: dict[int, int | None] = field(default_factory=dict)
    """One rank's packed cards -> the value of the set they make (M3, M4, C6), None for none: the
    rules object's answers, kept as they are asked (:meth:`set_value`)."""
    grown: dict[object, dict[int, int | None]] = field(default_factory=dict)
    """Table meld -> packed cards added -> the value it grows to (M5, C7, E4), None when refused:
    the rules object's answers, kept as they are asked (bounded: :data:`GROWN_LIMIT`). Every meld
    of the same cards (its :attr:`SearchMeld.cards_key`) shares one answer dict, also kept under
    the meld itself (its hash is computed once: a look-up under it is cheaper)."""
    groups: dict[int, list[Block]] = field(default_factory=dict)
    """One rank's or one suit's packed cards (tagged) -> the new melds they make
    (:func:`pancli.analyze.arrange.hand_blocks`)."""
    laid: dict[int, object] = field(default_factory=dict)
    """Packed cards -> the analyzer's placing of the new meld they make (of :meth:`new_meld`),
    kept (bounded: :data:`LAID_LIMIT`) because the search lays the same melds again and again
    (benchmarks/README.md, bench_analyze); tests/test_analyze_arrange.py compares with the plain
    search, cold and warm."""
    parts: dict[str, object] = field(default_factory=dict)
    """The memos of the analyzer's parts that depend on the cards and this rules object only (the
    draw probe's, the going-out policy's), by part: every analysis under it shares them. Each part
    types its own and replaces it when it outgrows its bound."""

    @property
    def profile(self) -> Profile:
        """The profile the rules object judges under."""
        return self.rules.profile

    def rope_value(self, s: int, lo: int, hi: int) -> int | None:
        """The value (C6) of the rope of suit ``s`` from pan rank index ``lo`` to ``hi``, None
        when the rules object makes no meld of it: asked once and kept in :attr:`rope`."""
        row = self.rope[s][lo]
        got = row[hi]
        if got == _UNASKED:
            got = row[hi] = _rope_value(self.rules, s, lo, hi, self.least)
        return got

    def blocks(self, cnt: Sequence[int], table: Sequence[SearchMeld] = ()) -> list[Block]:
        """Which melds the counts ``cnt`` (by slot) can form: new sets, new ropes, additions to
        the ``table`` melds (:func:`all_blocks`)."""
        return all_blocks(cnt, self, table)

    def set_value(self, enc: int) -> int | None:
        """The value (C6) of the set the packed cards ``enc`` of one rank make, or None when the
        rules object makes no meld of them (``judge``: M1, M3, M4, E4), kept."""
        got = self.sets.get(enc, _UNASKED)
        if got == _UNASKED:
            v = self.rules.judge(tuple(decode(enc)))
            got = self.sets[enc] = None if v.meld is None else self.rules.value(v.meld)
        return got

    def additions(self, tm: SearchMeld) -> dict[int, int | None]:
        """The answers kept for table meld ``tm`` (:attr:`grown`): packed cards added -> the value
        it grows to, None when refused; :meth:`grown_value` fills it."""
        grown = self.grown
        got = grown.get(tm)
        if got is None:
            if len(grown) >= GROWN_LIMIT:
                grown.clear()
            key = tm.cards_key
            got = grown.get(key)
            if got is None:
                got = grown[key] = {}
            grown[tm] = got
        return got

    def grown_value(self, tm: SearchMeld, enc: int, asked: dict[int, int | None] | None = None) -> int | None:
        """The value table meld ``tm`` grows to with the packed cards ``enc`` (the rules object's
        ``grow``: M5, C7, E4; valued, C6), or None when refused, kept in ``asked`` (its
        :meth:`additions`)."""
        if asked is None:
            asked = self.additions(tm)
        got = asked.get(enc, _UNASKED)
        if got == _UNASKED:
            try:
                got = self.rules.value(self.rules.grow(tm.meld, added_order(tm, decode(enc))))
            except MeldError:
                got = None
            asked[enc] = got
        return got

    def new_meld(self, enc: int) -> tuple[tuple[Card, ...], Meld, int]:
        """(the cards, the meld, its value as laid, C6) of the packed cards ``enc`` of a new
        meld, as the rules object judges and values it (M1-M4)."""
        cards = tuple(decode(enc))
        v = self.rules.judge(cards)
        assert v.meld is not None, v.reason
        return cards, v.meld, self.rules.value(v.meld)


LAID_LIMIT: Final = 20_000
"""Bound on :attr:`MeldSpace.laid` (new melds judged once per rules object), so its memory stays bounded."""
GROWN_LIMIT: Final = 20_000
"""Bound on the table melds of :attr:`MeldSpace.grown`, so its memory stays bounded."""
_UNASKED: Final = -(1 << 62)
"""Not asked yet, in the space's memos of values (no meld is worth it)."""
_MIXED: Final = tuple(r.is_noncomoquer for r in PAN_RANKS)
"""Per pan rank index: its sets may mix suits in any way (M4): every mix of its cards is proposed."""


def added_order(tm: SearchMeld, cards: Sequence[Card]) -> tuple[Card, ...]:
    """The cards (by rank then suit) added to table meld ``tm`` in the order they are added: outward
    from a rope's ends, one card at a time."""
    if tm.kind != "rope":
        return tuple(cards)
    below = [c for c in cards if c.rank.pan_index < tm.lo]
    return (*reversed(below), *(c for c in cards if c.rank.pan_index > tm.hi))


def _rope_value(rules: SpaceRules, s: int, lo: int, hi: int, least: int) -> int | None:
    """The value (C6) of the rope of suit ``s`` from pan rank index ``lo`` to ``hi``, or None (under
    ``least`` cards, or no meld)."""
    if hi < lo + least - 1:
        return None
    v = rules.judge(tuple(SLOT_CARDS[r * 4 + s] for r in range(lo, hi + 1)))
    return None if v.meld is None else rules.value(v.meld)


def space_of(rules: SpaceRules) -> MeldSpace:
    """The meld space of ``rules``, built afresh (not free: benchmarks/README.md). The rules object
    keeps the one it builds (:meth:`pancli.panrules.PanRules.meld_space`), so every caller handed it
    asks in the same space and its answers are kept where they are asked."""
    least = rules.min_meld
    rope: list[list[list[int | None]]] = [[[_UNASKED] * 10 for _ in range(10)] for _ in range(4)]
    copies = tuple(rules.copies_of(c) for c in SLOT_CARDS)
    return MeldSpace(rules, rope, copies, rules.profile.mixed_set_growth is SetGrowth.ANY, least)


# --------------------------------------------------------------------------- candidate blocks

# A block is a tuple (enc, gain, bit, target, size): the packed cards, the score it adds, the bit of
# the table meld it grows (0 for a new meld), that meld's index (-1 for a new meld), its card count.
Block = tuple[int, int, int, int, int]


def _rope_encodings(s: int) -> tuple[tuple[int, ...], ...]:
    """Suit ``s``'s packed runs: ``[lo][hi]`` holds the cards of ranks ``lo`` to ``hi`` (0 when
    ``hi < lo``), each run its shorter one and one card more (start-up: not summed afresh)."""
    rows = []
    for lo in range(10):
        row = [0] * lo
        enc = 0
        for r in range(lo, 10):
            enc += ONE[r * 4 + s]
            row.append(enc)
        rows.append(tuple(row))
    return tuple(rows)


_ROPE_ENC: Final = tuple(_rope_encodings(s) for s in range(4))


def _new(enc: int, size: int, paid: int) -> Block:
    """The block of a new meld of ``size`` cards whose laying collects ``paid`` from each opponent (C7)."""
    return (enc, size * CARD_WEIGHT + paid * CHIP_WEIGHT - 1, 0, -1, size)


def set_blocks(ri: int, cs: Sequence[int], t: MeldSpace, out: list[Block]) -> None:
    """Every set (M3, M4) drawn from the counts ``cs`` (s h d c) of pan rank index ``ri``: the sets
    of one suit and of different suits (every mix of the cards for aces and kings), each as the
    rules object judges and values it (:meth:`MeldSpace.set_value`), none under :attr:`MeldSpace.least`
    cards."""
    least = t.least
    if cs[0] + cs[1] + cs[2] + cs[3] < least:
        return
    base = ri * 4
    proposed: list[tuple[int, int]] = []  # (packed cards, how many)
    if _MIXED[ri]:  # aces and kings mix suits in any way (M4)
        o0, o1, o2, o3 = ONE[base], ONE[base + 1], ONE[base + 2], ONE[base + 3]
        for a in range(cs[0] + 1):
            for b in range(cs[1] + 1):
                for c in range(cs[2] + 1):
                    for d in range(cs[3] + 1):
                        n = a + b + c + d
                        if n >= least:
                            proposed.append((a * o0 + b * o1 + c * o2 + d * o3, n))
    else:
        for s in range(4):
            proposed += [(k * ONE[base + s], k) for k in range(least, cs[s] + 1)]
        present = [s for s in range(4) if cs[s]]
        for k in range(least, len(present) + 1):  # one card of each of k suits
            proposed += [(sum(ONE[base + s] for s in combo), k) for combo in combinations(present, k)]
    sets = t.sets
    pays = t.rules.change_value
    for enc, n in proposed:
        v = sets.get(enc, _UNASKED)
        if v == _UNASKED:
            v = t.set_value(enc)
        if v is not None:
            out.append(_new(enc, n, pays(0, v)))


def rope_blocks(s: int, cnt: Sequence[int], t: MeldSpace, out: list[Block]) -> None:
    """Every rope (M2) of suit ``s`` drawn from the counts ``cnt`` (40 slots), as the rules object
    judges and values it (:attr:`MeldSpace.rope`), none under :attr:`MeldSpace.least` cards."""
    span = t.least - 1  # the fewest ranks past the lowest
    ri = 0
    while ri < 10:
        if not cnt[ri * 4 + s]:
            ri += 1
            continue
        lo = ri
        while ri < 10 and cnt[ri * 4 + s]:
            ri += 1
        hi = ri - 1
        if hi - lo >= span:
            encs, vals = _ROPE_ENC[s], t.rope[s]
            for a in range(lo, hi - span + 1):
                for b in range(a + span, hi + 1):
                    v = vals[a][b]
                    if v == _UNASKED:
                        v = t.rope_value(s, a, b)
                    if v is not None:
                        out.append(_new(encs[a][b], b - a + 1, t.rules.change_value(0, v)))


class SearchMeld(Value, cache_hash=True):
    """One of the player's melds on the table, in the search's terms (the analyzer's memos are
    keyed by them: the hash, a Python call per card, is computed once)."""

    meld: Meld
    value: int
    kind: str  # "rope", "one", "diff", "mixed"
    suit: int
    lo: int  # rope: lowest pan index; set: pan rank index
    hi: int
    counts: tuple[int, ...]  # set: copies of each suit (s h d c) already in it

    @property
    def cards_key(self) -> tuple[object, ...]:
        """What the meld is as cards, whatever their order: (kind, suit, lo, hi, counts)."""
        return (self.kind, self.suit, self.lo, self.hi, self.counts)

    @staticmethod
    def of(meld: Meld, rules: SpaceRules) -> SearchMeld:
        """Describe a legal meld for the search, valued by ``rules`` (C6)."""
        v = rules.value(meld)
        if isinstance(meld, Rope):
            idx = [c.rank.pan_index for c in meld.cards]
            return SearchMeld(meld, v, "rope", meld.suit.order, min(idx), max(idx), ())
        cs = [0, 0, 0, 0]
        for c in meld.cards:
            cs[c.suit.order] += 1
        kind = {SetShape.ONE_SUIT: "one", SetShape.DIFFERENT_SUITS: "diff", SetShape.NONCOMOQUER: "mixed"}[meld.shape]
        suit = meld.cards[0].suit.order
        ri = meld.rank.pan_index
        return SearchMeld(meld, v, kind, suit, ri, ri, tuple(cs))


def addition_blocks(j: int, tm: SearchMeld, cnt: Sequence[int], t: MeldSpace, out: list[Block]) -> None:
    """Every addition of hand cards ``cnt`` to table meld ``j`` that the rules object allows (M5, its
    value not lowered: C7; the pack's copies: E4), with what it collects (the rules object's
    ``change_value`` of the value it grows to, :meth:`MeldSpace.grown_value`: C7).
    Proposed are the additions of the shapes growing takes: cards of a rope's suit next to its ends,
    cards of a set's rank (its own suit for a one-suit set, missing suits for a different-suits set
    unless ``mixed_set_growth`` is "any", any suit for aces and kings), within the pack's copies."""
    bit = 1 << j
    asked = t.additions(tm)
    pays = t.rules.change_value
    if tm.kind == "rope":
        s = tm.suit
        down = 0
        while tm.lo - down - 1 >= 0 and cnt[(tm.lo - down - 1) * 4 + s]:
            down += 1
        up = 0
        while tm.hi + up + 1 <= 9 and cnt[(tm.hi + up + 1) * 4 + s]:
            up += 1
        encs = _ROPE_ENC[s]
        for a in range(down + 1):
            for b in range(up + 1):
                if a == b == 0:
                    continue
                enc = (encs[tm.lo - a][tm.lo - 1] if a else 0) + (encs[tm.hi + 1][tm.hi + b] if b else 0)
                grown = asked.get(enc, _UNASKED)
                if grown == _UNASKED:
                    grown = t.grown_value(tm, enc, asked)
                if grown is not None:
                    out.append((enc, (a + b) * CARD_WEIGHT + pays(tm.value, grown) * CHIP_WEIGHT, bit, j, a + b))
        return
    ri = tm.lo
    base = ri * 4
    proposed: Iterable[tuple[int, int]]  # (packed cards, how many)
    if tm.kind == "one":
        slot = base + tm.suit
        proposed = [(k * ONE[slot], k) for k in range(1, _room(t, sum(tm.counts), slot, cnt[slot]) + 1)]
    elif tm.kind == "diff" and not t.growth_any:
        missing = [s for s in range(4) if not tm.counts[s] and cnt[base + s]]
        proposed = [
            (sum(ONE[base + s] for s in combo), k)
            for k in range(1, len(missing) + 1)
            for combo in combinations(missing, k)
        ]
    else:
        # a mixed ace/king set is offered any ace or king; with mixed_set_growth = "any" a
        # different-suits set any card of its rank. Copies in the pack still bound it (E4).
        lim = [_room(t, tm.counts[s], base + s, cnt[base + s]) for s in range(4)]
        o0, o1, o2, o3 = ONE[base], ONE[base + 1], ONE[base + 2], ONE[base + 3]
        proposed = [
            (a * o0 + b * o1 + c * o2 + d * o3, a + b + c + d)
            for a in range(lim[0] + 1)
            for b in range(lim[1] + 1)
            for c in range(lim[2] + 1)
            for d in range(lim[3] + 1)
            if a + b + c + d
        ]
    for enc, k in proposed:
        grown = asked.get(enc, _UNASKED)
        if grown == _UNASKED:
            grown = t.grown_value(tm, enc, asked)
        if grown is not None:
            out.append((enc, k * CARD_WEIGHT + pays(tm.value, grown) * CHIP_WEIGHT, bit, j, k))


def addition_reach(tm: SearchMeld, t: MeldSpace) -> int:
    """The slots (as bits) of every card :func:`addition_blocks` could propose adding to ``tm`` for
    any hand, before the rules object is asked which it grows: a bound (the rope's suit beyond its
    ends; the set's rank: its suit, its missing suits, or every suit, as proposed there), left out
    when the pack holds no more copies (E4)."""
    if tm.kind == "rope":
        return sum(1 << (r * 4 + tm.suit) for r in range(10) if not tm.lo <= r <= tm.hi)
    base = tm.lo * 4
    if tm.kind == "one":
        suits: Iterable[int] = (tm.suit,)
    elif tm.kind == "diff" and not t.growth_any:
        suits = [s for s in range(4) if not tm.counts[s]]
    else:
        suits = range(4)
    return sum(1 << (base + s) for s in suits if _room(t, tm.counts[s], base + s, 1))


def _room(t: MeldSpace, held: int, slot: int, have: int) -> int:
    """How many of ``have`` more copies of the card of ``slot`` a meld holding ``held`` of them can
    take (E4, asked of the rules object's ``past_the_pack``)."""
    k = have
    copies = (t.copies[slot],)
    while k > 0 and t.rules.past_the_pack((held,), ((0, k),), copies) is not None:
        k -= 1
    return max(k, 0)


def all_blocks(cnt: Sequence[int], t: MeldSpace, table: Sequence[SearchMeld] = ()) -> list[Block]:
    """Every candidate block of the counts ``cnt``: new sets, new ropes, additions to table melds."""
    out: list[Block] = []
    least = t.least
    for ri in range(10):
        b = ri * 4
        if cnt[b] + cnt[b + 1] + cnt[b + 2] + cnt[b + 3] >= least:
            set_blocks(ri, cnt[b : b + 4], t, out)
    for s in range(4):
        if sum(map(bool, cnt[s::4])) >= least:  # a meld's ranks of the suit at least
            rope_blocks(s, cnt, t, out)
    for j, tm in enumerate(table):
        addition_blocks(j, tm, cnt, t, out)
    return out


def blocks_with(slot: int, cnt: Sequence[int], t: MeldSpace, table: Sequence[SearchMeld] = ()) -> list[Block]:
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


def _subsets(xs: Sequence[int]) -> list[list[int]]:
    """Every subset of ``xs``, in order."""
    return [[x for k, x in enumerate(xs) if m >> k & 1] for m in range(1 << len(xs))]


def buildable(
    t: MeldSpace, tms: Sequence[SearchMeld], live: Sequence[int], state: int, slot: int, mask: int
) -> list[tuple[int, int, int, int]]:
    """(hand part, drawn part, need, target) of every minimal meld the packed hand ``state`` can
    build whose lowest hand card is ``slot``, drawing only cards with ``live`` copies (by slot):
    a new set or rope, or an addition to a table meld of ``tms`` not in ``mask`` (M5, C7), gaps
    filled by draws one card at a time. ``need`` is the number of cards drawn, ``target`` the
    table meld's index (-1 for a new meld). A minimal meld is :attr:`MeldSpace.least` cards
    (M1, the rules object's ``min_meld``), as every other search of the space starts from."""
    cnt = [(state >> (5 * i)) & 15 for i in range(NSLOT)]
    ri, s = divmod(slot, 4)
    out: list[tuple[int, int, int, int]] = []
    base = ri * 4
    cs = cnt[base : base + 4]
    least = t.least
    # sets: ``least`` or more hand cards that are a set, or one fewer completed by one live card
    o0, o1, o2, o3 = ONE[base], ONE[base + 1], ONE[base + 2], ONE[base + 3]
    for a in range(cs[0] + 1):
        for b in range(cs[1] + 1):
            for c in range(cs[2] + 1):
                for d in range(cs[3] + 1):
                    part = (a, b, c, d)
                    n = a + b + c + d
                    if not part[s] or n < least - 1:
                        continue
                    enc = a * o0 + b * o1 + c * o2 + d * o3
                    if n >= least:
                        if t.set_value(enc) is not None:
                            out.append((enc, 0, 0, -1))
                        continue
                    for x in range(4):
                        if live[base + x] and t.set_value(enc + ONE[base + x]) is not None:
                            out.append((enc, ONE[base + x], 1, -1))
    # ropes: both ends hand cards, or exactly ``least`` long; some ``least`` in a row hold at most
    # one draw
    top = least - 1  # a rope of ``least`` cards spans lo .. lo + top
    have = [r for r in range(ri + 1, 10) if cnt[r * 4 + s]]
    spans: list[tuple[int, int]] = [(a, a + top) for a in range(max(0, ri - top), min(ri, 9 - top) + 1)]
    spans += [(ri, b) for b in have if b > ri + top]
    for lo, hi in spans:
        inner = [r for r in have if r <= hi]
        for m in range(1 << len(inner)):
            ranks = {ri, *(r for k, r in enumerate(inner) if m >> k & 1)}
            if hi - lo > top and hi not in ranks:
                continue
            drawn = [r for r in range(lo, hi + 1) if r not in ranks]
            if any(not live[r * 4 + s] for r in drawn) or t.rope_value(s, lo, hi) is None:
                continue
            if not any(sum(1 for r in drawn if w <= r <= w + top) <= 1 for w in range(lo, hi - top + 1)):
                continue
            out.append(
                (
                    sum(ONE[r * 4 + s] for r in ranks),
                    sum(ONE[r * 4 + s] for r in drawn),
                    len(drawn),
                    -1,
                )
            )
    # additions to the player's table melds (M5); gaps are filled by draws, one card at a time
    for j, tm in enumerate(tms):
        if mask >> j & 1:
            continue
        if tm.kind == "rope":
            if s != tm.suit or tm.lo <= ri <= tm.hi:
                continue
            # the block's hand cards: this card, any hand cards between it and the meld, and on the
            # other side (when this card is below the meld) hand cards up to a chosen top one
            options: list[list[int]] = []
            if ri < tm.lo:
                below = [r for r in have if r < tm.lo]
                ups = [r for r in have if r > tm.hi]
                for low_ranks in _subsets(below):
                    options.append([ri, *low_ranks])
                    for top in ups:
                        options += [[ri, *low_ranks, *mid, top] for mid in _subsets([r for r in ups if r < top])]
            else:
                options.append([ri])
                for top in have:
                    options += [[ri, *mid, top] for mid in _subsets([r for r in have if r < top])]
            for chosen in options:
                low_end = min(chosen) if min(chosen) < tm.lo else tm.lo
                high_end = max(chosen) if max(chosen) > tm.hi else tm.hi
                drawn = [r for r in range(low_end, tm.lo) if r not in chosen]
                drawn += [r for r in range(tm.hi + 1, high_end + 1) if r not in chosen]
                if any(not live[r * 4 + s] for r in drawn):
                    continue
                held = sum(ONE[r * 4 + s] for r in sorted(set(chosen)))
                fill = sum(ONE[r * 4 + s] for r in drawn)
                if t.grown_value(tm, held + fill) is None:  # M5, C7: as the rules object grows it
                    continue
                out.append((held, fill, len(drawn), j))
            continue
        if ri != tm.lo:
            continue
        acc: list[Block] = []
        addition_blocks(j, tm, cnt, t, acc)
        for enc, _, _, _, _ in acc:
            if (enc >> (5 * slot)) & 15:
                out.append((enc, 0, 0, j))
    return out
