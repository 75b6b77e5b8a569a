"""Melds: classification (M1-M4, E1, E2, E4), increases (M5) and values (C1-C7).

:func:`judge` classifies a list of cards and returns a :class:`Verdict`: legal or not,
the :class:`Rope` or :class:`Set` it is, its condition and value, or the rule it breaks.

>>> from pancli.cards import card, Rank, Suit
>>> from pancli.rules import HOYLE
>>> fives = [card(Rank.FIVE, Suit.SPADES)] * 3
>>> v = judge(fives, HOYLE)
>>> v.legal, v.kind, v.condition, v.value
(True, <MeldKind.SET: 'set'>, <Condition.C2: 'C2'>, 4)
>>> bad = judge([card(Rank.SEVEN, Suit.CLUBS), card(Rank.SEVEN, Suit.SPADES), card(Rank.SEVEN, Suit.SPADES)], HOYLE)
>>> bad.legal, bad.rule
(False, 'M3')
>>> grown = v.meld.plus([card(Rank.FIVE, Suit.SPADES)], HOYLE)   # C7: collects 6 - 4 = 2
>>> grown.value(HOYLE) - v.meld.value(HOYLE)
2
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from itertools import pairwise
from typing import TYPE_CHECKING, Final

from pancli.cards import PAN_RANKS, Card, Rank, Suit, copies_by_index, format_cards
from pancli.rules import MIN_MELD, Condition, Profile, SetGrowth, copies_fault, not_in_pack_words, past_the_pack_words
from pancli.rules import MeldError as MeldError  # (in rules: a PAGRUC hand loads no meld engine)
from pancli.rules import OutValue as OutValue
from pancli.values import Value

if TYPE_CHECKING:
    from pancli.refusals import PastThePack
    from pancli.rules import EngineRule as EngineRule

    Over = Callable[[Iterable[tuple[int, int]]], PastThePack | None]
    """E4's comparison as the engine asks it: why some cards (each a card's :attr:`Card.index` and
    its copies) cannot all be there, or None (:meth:`pancli.panrules.PanRules.copies_fault`)."""


class MeldKind(enum.Enum):
    """The two kinds of meld: ropes (M2) and sets (M3, M4)."""

    ROPE = "rope"
    SET = "set"


class SetShape(enum.Enum):
    """The character of a set, which M5 preserves when it grows."""

    ONE_SUIT = "one-suit"
    DIFFERENT_SUITS = "different-suits"
    NONCOMOQUER = "mixed ace/king"


def rope_value(profile: Profile, length: int, *, spades: bool, ace: bool, king: bool) -> int:
    """The value of a rope as laid (C6): the base of each condition it is (C4 with the ace,
    C5 with the king) plus the increment for every card beyond three.

    A rope from A to K counts both bases and every card beyond three, so completing a rope
    never lowers its value. Should a house table give C4 and C5 different increments, the
    A-to-K rope counts the larger one, which keeps that promise.

    >>> from pancli.rules import HOYLE
    >>> rope_value(HOYLE, 9, spades=False, ace=True, king=False)   # A..Q
    7
    >>> rope_value(HOYLE, 10, spades=False, ace=True, king=True)   # A..K: 1 + 1 + 7
    9
    >>> rope_value(HOYLE, 10, spades=True, ace=True, king=True)    # in spades: 2 + 2 + 7 * 2
    18
    >>> rope_value(HOYLE, 5, spades=True, ace=False, king=False)
    0
    """
    if not (ace or king):
        return 0
    c4, c5 = profile.rate(Condition.C4), profile.rate(Condition.C5)
    if ace and king:
        extra = max(c4.extra_for(spades), c5.extra_for(spades))
        return c4.base_for(spades) + c5.base_for(spades) + (length - 3) * extra
    rate = c4 if ace else c5
    return rate.base_for(spades) + (length - 3) * rate.extra_for(spades)


class Rope(Value):
    """A legal rope (M2): three or more cards of one suit in unbroken rank order.

    Cards are kept low to high.
    """

    cards: tuple[Card, ...]

    @property
    def kind(self) -> MeldKind:
        """Always ``MeldKind.ROPE``."""
        return MeldKind.ROPE

    @property
    def suit(self) -> Suit:
        """The rope's suit."""
        return self.cards[0].suit

    def conditions(self) -> tuple[Condition, ...]:
        """C4 when it holds the ace, C5 when it holds the king (both for A to K)."""
        out = []
        if self.cards[0].rank is Rank.ACE:
            out.append(Condition.C4)
        if self.cards[-1].rank is Rank.KING:
            out.append(Condition.C5)
        return tuple(out)

    def value(self, profile: Profile) -> int:
        """Value as laid (C6): see :func:`rope_value`.

        >>> from pancli.rules import HOYLE
        >>> from pancli.cards import card, Rank, Suit
        >>> Rope(tuple(card(r, Suit.HEARTS) for r in (Rank.ACE, Rank.TWO, Rank.THREE, Rank.FOUR))).value(HOYLE)
        2
        >>> Rope(tuple(card(r, Suit.HEARTS) for r in PAN_RANKS)).value(HOYLE)
        9
        """
        lo, hi = self.cards[0], self.cards[-1]
        spades = lo.suit is Suit.SPADES
        return rope_value(profile, len(self.cards), spades=spades, ace=lo.rank is Rank.ACE, king=hi.rank is Rank.KING)

    def __str__(self) -> str:
        return format_cards(self.cards)

    def plus(
        self, added: Iterable[Card], profile: Profile, copies: Sequence[int] | None = None, over: Over | None = None
    ) -> Rope:
        """The rope grown at either end (M5), or MeldError M5 (``copies``, ``over``: as :func:`judge`
        takes them)."""
        new = (*self.cards, *added)
        v = judge(new, profile, copies, over)
        if not v.legal or not isinstance(v.meld, Rope) or v.meld.suit is not self.suit:
            why = v.reason if not v.legal else "it would no longer be the same rope"
            raise MeldError("M5", f"cannot add {format_cards(tuple(added_of(new, self.cards)))} to rope {self}: {why}")
        return v.meld


class Set(Value):
    """A legal set (M3, M4): three or more cards of one rank; ``shape`` is its character."""

    cards: tuple[Card, ...]
    shape: SetShape

    @property
    def kind(self) -> MeldKind:
        """Always ``MeldKind.SET``."""
        return MeldKind.SET

    @property
    def rank(self) -> Rank:
        """The set's rank."""
        return self.cards[0].rank

    def conditions(self) -> tuple[Condition, ...]:
        """C2/C3 for one-suit sets, C1 for different-suits valle sets."""
        if self.shape is SetShape.ONE_SUIT:
            return (Condition.C2,) if self.rank.is_valle else (Condition.C3,)
        if self.shape is SetShape.DIFFERENT_SUITS and self.rank.is_valle:
            return (Condition.C1,)
        return ()

    def value(self, profile: Profile) -> int:
        """Value as laid (C6): the base plus the increment for each card beyond three.

        >>> from pancli.rules import HOYLE
        >>> from pancli.cards import card, Rank, Suit
        >>> Set((card(Rank.FIVE, Suit.SPADES),) * 4, SetShape.ONE_SUIT).value(HOYLE)
        6
        """
        conds = self.conditions()
        if not conds:
            return 0
        spades = self.shape is SetShape.ONE_SUIT and self.cards[0].suit is Suit.SPADES
        rate = profile.rate(conds[0])
        return rate.base_for(spades) + (len(self.cards) - 3) * rate.extra_for(spades)

    def __str__(self) -> str:
        return format_cards(self.cards)

    def accepts(self, c: Card, profile: Profile) -> bool:
        """Whether one more card keeps this set's character (M5)."""
        if c.rank is not self.rank:
            return False
        if self.shape is SetShape.ONE_SUIT:
            return c.suit is self.cards[0].suit
        if self.shape is SetShape.NONCOMOQUER:
            return True
        if profile.mixed_set_growth is SetGrowth.ANY:
            return True
        return all(x.suit is not c.suit for x in self.cards)

    def plus(
        self, added: Iterable[Card], profile: Profile, copies: Sequence[int] | None = None, over: Over | None = None
    ) -> Set:
        """The set grown by ``added`` (M5), or MeldError M5, also for a card ``copies`` has none of
        (E1, as :func:`judge` takes them). ``over`` (E4) is :func:`grow`'s to ask, once, of the
        whole set: a rope's ``plus`` judges the cards whole, a set's adds them one at a time."""
        grown = self
        for c in added:
            if not grown.accepts(c, profile):
                raise MeldError("M5", f"cannot add {c} to {self.shape.value} set {self}: {_set_refusal(self, c)}")
            if copies is not None and not copies[c.index]:  # worded as a rope's refusal (its judge's E1)
                raise MeldError("M5", f"cannot add {c} to {self.shape.value} set {self}: {_not_in_pack(c)}")
            grown = Set((*grown.cards, c), grown.shape)
        return grown


def _set_refusal(s: Set, c: Card) -> str:
    if c.rank is not s.rank:
        return f"a set of {s.rank.symbol}s takes only {s.rank.symbol}s"
    if s.shape is SetShape.ONE_SUIT:
        return f"a one-suit set keeps its suit ({s.cards[0].suit.letter})"
    return f"a different-suits set takes only a missing suit ({c.suit.letter} is already there)"


def added_of(new: Sequence[Card], old: Sequence[Card]) -> list[Card]:
    """The cards of ``new`` beyond those of ``old`` (multiset difference, in order)."""
    left = Counter(old)
    out = []
    for c in new:
        if left[c]:
            left[c] -= 1
        else:
            out.append(c)
    return out


Meld = Rope | Set
"""A legal meld: a :class:`Rope` or a :class:`Set`."""


class Verdict(Value):
    """The judgement of a list of cards as a meld.

    ``rule`` is the id of the first rule broken (``None`` when legal) and ``reason``
    says why in words. ``meld`` is the :class:`Rope` or :class:`Set` when legal.
    """

    cards: tuple[Card, ...]
    meld: Meld | None
    rule: EngineRule | None
    reason: str
    profile: Profile
    lead: str | None = None
    """What of :attr:`reason` every order of the same cards is told, as the judge worded it: all
    of it, or with :attr:`then_meld` the words before the meld's text it ends with; None when the
    reason follows the order (it names one card among several: E1, E4, a rope's repeated rank).
    What ``pan check``'s batch shares between orders (a judge that words a reason otherwise
    gives its lead with it, or none: ``replace(v, reason=...)`` keeps the old lead, so give
    ``lead=None`` with it, or the words its reason starts with)."""
    then_meld: bool = False
    """The reason is :attr:`lead` followed by the cards' text (``format_cards``): M2, M3 quote it."""

    @property
    def legal(self) -> bool:
        """True when the cards form a legal meld."""
        return self.meld is not None

    @property
    def kind(self) -> MeldKind | None:
        """``ROPE``, ``SET`` or ``None`` when illegal."""
        return None if self.meld is None else self.meld.kind

    @property
    def conditions(self) -> tuple[Condition, ...]:
        """The conditions the meld is (two for an A-to-K rope)."""
        return () if self.meld is None else self.meld.conditions()

    @property
    def condition(self) -> Condition | None:
        """The (first) condition, or None."""
        conds = self.conditions
        return conds[0] if conds else None

    @property
    def value(self) -> int:
        """Units each active opponent pays when this meld is laid (C6, C7); 0 when illegal."""
        return 0 if self.meld is None else self.meld.value(self.profile)


def _worded(over: PastThePack | None) -> str | None:
    """E4's reason in a verdict: the rules object's answer ``over`` (cards past the pack) in words."""
    return None if over is None else past_the_pack_words(over)


def _illegal(
    cards: tuple[Card, ...], rule: EngineRule, reason: str, profile: Profile, lead: str | None = None
) -> Verdict:
    return Verdict(cards, None, rule, reason, profile, lead)


def _quoting(cards: tuple[Card, ...], rule: EngineRule, lead: str, profile: Profile) -> Verdict:
    """An illegal verdict whose reason is ``lead`` then the cards' text (:attr:`Verdict.then_meld`)."""
    return Verdict(cards, None, rule, lead + format_cards(cards), profile, lead, True)


_PAN_POS: Final = {int(r) - 1: i for i, r in enumerate(PAN_RANKS)}
"""Rank index (``card.index >> 2``) to the position in the Panguingue order (E2)."""
_NONCOMOQUER_RANKS: Final = frozenset(int(r) - 1 for r in Rank if r.is_noncomoquer)


def _not_in_pack(c: Card) -> str:
    return not_in_pack_words(str(c), c.rank)


def judge(
    cards: Iterable[Card],
    profile: Profile,
    copies: Sequence[int] | None = None,
    over: Over | None = None,
    least: int = MIN_MELD,
) -> Verdict:
    """Classify cards as a meld under ``profile`` (E1, E4, M1-M4, E2). ``copies``: the copies of
    each card in the pack, by :attr:`Card.index` (E1: none), as the rules object answers them
    (:attr:`pancli.panrules.PanRules.copies`); without, the profile's pack's. ``over``: E4, why
    some cards (each an index and its copies) cannot all be there, as the rules object compares
    them (:meth:`pancli.panrules.PanRules.copies_fault`); without, :func:`pancli.rules.copies_fault`
    with ``copies``. ``least``: the fewest cards of a meld (M1, :attr:`pancli.panrules.PanRules.min_meld`).

    The first rule broken is reported, checked in the order E1, E4, M1, M3, M2, E2. The
    work is done on card indices (rank * 4 + suit): ``pan check -`` judges every distinct line of
    its input.

    >>> from pancli.rules import HOYLE
    >>> from pancli.cards import card, Rank, Suit
    >>> judge([card(Rank.QUEEN, Suit.HEARTS), card(Rank.KING, Suit.HEARTS), card(Rank.ACE, Suit.HEARTS)], HOYLE).rule
    'E2'
    >>> judge([card(Rank.SEVEN, Suit.CLUBS), card(Rank.JACK, Suit.CLUBS), card(Rank.QUEEN, Suit.CLUBS)], HOYLE).value
    0
    """
    cs = tuple(cards)
    ints = [c.index for c in cs]
    if copies is None:
        copies = copies_by_index(profile.pack)
    if not all(map(copies.__getitem__, ints)):
        c = cs[next(k for k, i in enumerate(ints) if not copies[i])]
        return _illegal(cs, "E1", _not_in_pack(c), profile)
    distinct = len(set(ints))
    counts = Counter(ints) if distinct < len(ints) else None
    if counts is not None:
        why = copies_fault(counts.items(), copies) if over is None else _worded(over(counts.items()))
        if why is not None:
            return _illegal(cs, "E4", why, profile)
    if len(cs) < least:
        why = f"a meld is {least} or more cards, not {len(cs)}"
        return _illegal(cs, "M1", why, profile, why)
    ranks = {i >> 2 for i in ints}
    suits = {i & 3 for i in ints}
    if len(ranks) == 1:
        if len(suits) == 1:
            return Verdict(cs, Set(cs, SetShape.ONE_SUIT), None, "one-suit set", profile, "one-suit set")
        if ints[0] >> 2 in _NONCOMOQUER_RANKS:
            why = "set of non-comoquers, mixed suits (M4)"
            return Verdict(cs, Set(cs, SetShape.NONCOMOQUER), None, why, profile, why)
        if len(suits) == len(cs):
            return Verdict(
                cs, Set(cs, SetShape.DIFFERENT_SUITS), None, "different-suits set", profile, "different-suits set"
            )
        return _quoting(
            cs, "M3", f"a set of {cs[0].rank.symbol}s must be all one suit or all different suits, not ", profile
        )
    if len(suits) > 1:
        return _quoting(cs, "M2", "not a set (ranks differ) and not a rope (a rope is one suit): ", profile)
    if len(ranks) < len(cs):
        assert counts is not None  # one suit and a rank twice: the same card twice
        dup = cs[ints.index(next(i for i, n in counts.items() if n > 1))]
        return _illegal(cs, "M2", f"a rope holds no rank twice ({dup.rank.symbol} repeats)", profile)
    pos = [_PAN_POS.get(i >> 2, -1) for i in ints]
    if -1 in pos:  # a rank a Panguingue pack lacks, held by a rules object's own pack: no rope order has it
        odd = cs[pos.index(-1)]
        why = f"{odd.rank.symbol} has no place in a rope's rank order ({' '.join(r.symbol for r in PAN_RANKS)})"
        return _illegal(cs, "E2", why, profile)
    idx = sorted(pos)
    if idx[-1] - idx[0] == len(idx) - 1:
        ordered = tuple(c for _, c in sorted(zip(pos, cs, strict=True), key=_first))
        return Verdict(cs, Rope(ordered), None, "rope", profile, "rope")
    if _wraps(idx):
        why = "aces are low only; a rope does not wrap past the king"
        return _illegal(cs, "E2", why, profile, why)
    why = f"a rope is in unbroken rank order (missing {' '.join(r.symbol for r in _gaps(idx))})"
    return _illegal(cs, "M2", why, profile, why)


def _first(pair: tuple[int, Card]) -> int:
    return pair[0]


def _wraps(idx: list[int]) -> bool:
    """True when the (sorted, distinct) indices are consecutive only if K wraps round to A:
    they hold both A and K and leave exactly one gap between them (``J Q K A 2`` or
    ``J Q K A 2 3 4 5 6``).
    """
    if idx[0] != 0 or idx[-1] != 9:
        return False
    return sum(1 for a, b in pairwise(idx) if b - a > 1) == 1


def _gaps(idx: list[int]) -> list[Rank]:
    have = set(idx)
    return [PAN_RANKS[i] for i in range(idx[0], idx[-1] + 1) if i not in have]


def grow(
    meld: Meld,
    added: Iterable[Card],
    profile: Profile,
    keeps: Callable[[int, int], bool] | None = None,
    copies: Sequence[int] | None = None,
    over: Over | None = None,
    value: Callable[[Meld], int] | None = None,
) -> Meld:
    """Add cards to a meld keeping its character (M5); raise MeldError when refused.

    The value never drops (C7): a change that would lower it is refused (``keeps``: the rules
    object's C7, :func:`keeps_value` without one; ``value``: the rules object's C6, the meld's own
    without one). ``copies`` and ``over``: the copies of each card in the pack (E1) and E4's
    comparison, as :func:`judge` takes them.

    >>> from pancli.rules import HOYLE
    >>> from pancli.cards import card, Rank, Suit
    >>> rope = judge([card(r, Suit.HEARTS) for r in (Rank.TWO, Rank.THREE, Rank.FOUR)], HOYLE).meld
    >>> str(grow(rope, [card(Rank.ACE, Suit.HEARTS)], HOYLE))
    'Ah 2h 3h 4h'
    """
    added = tuple(added)
    if not added:
        raise MeldError("M5", "nothing to add")
    new = meld.plus(added, profile, copies, over)  # (without copies, a set refuses a card by its rank only)
    counts = Counter(c.index for c in new.cards).items()
    if over is None:
        why = copies_fault(counts, copies_by_index(profile.pack) if copies is None else copies)
    else:
        why = _worded(over(counts))
    if why is not None:
        raise MeldError("E4", why)
    before, after = (meld.value(profile), new.value(profile)) if value is None else (value(meld), value(new))
    if not (keeps_value if keeps is None else keeps)(before, after):
        raise MeldError("C7", f"adding {format_cards(added)} would lower the meld's value")
    return new


def keeps_value(before: int, after: int) -> bool:
    """C7: a meld may change only when its value does not drop (it collects the difference).

    >>> keeps_value(4, 6), keeps_value(9, 7)
    (True, False)
    """
    return after >= before


def spread_rule(n: int, copies: Sequence[int], over: Over | None = None, least: int = MIN_MELD) -> EngineRule | None:
    """The rule :func:`judge` finds first in every meld of ``n`` cards of the pack holding two
    ranks and two suits at least (M2), with ``copies`` of each card in the pack (by
    :attr:`Card.index`; the cards it holds none of, E1, are never read), E4's comparison ``over``
    and the fewest cards ``least`` (as :func:`judge` takes them), or None when it depends on the
    cards: under ``least`` cards (M1), or so many that ``n`` copies of one card the pack holds
    could pass it (E4).

    >>> from pancli.cards import Pack
    >>> copies = copies_by_index(Pack())
    >>> spread_rule(3, copies), spread_rule(2, copies), spread_rule(9, copies)
    ('M2', None, None)
    """
    if n < least:
        return None
    for i, held in enumerate(copies):
        if held:
            counts = ((i, n),)
            if (copies_fault(counts, copies) if over is None else over(counts)) is not None:
                return None
    return "M2"


def going_out_value(melds: Iterable[Meld], profile: Profile, value: Callable[[Meld], int] | None = None) -> OutValue:
    """C8: what each active opponent pays the player who goes out with ``melds``
    (the going-out bonus plus the value of all his melds again, each as ``value`` says: the rules
    object's C6, the meld's own without one; forfeits and tops aside).

    >>> from pancli.cards import card, Rank, Suit
    >>> from pancli.rules import CARDROOM
    >>> fours = judge([card(Rank.FIVE, Suit.SPADES)] * 4, CARDROOM).meld
    >>> going_out_value([fours], CARDROOM)
    OutValue(melds=6, bonus=2, total=8)
    """
    laid = sum(m.value(profile) for m in melds) if value is None else sum(map(value, melds))
    return OutValue(laid, profile.out_bonus, profile.out_bonus + laid)
