"""PAGRUC melds (G4) and card points (G7).

A run is three or more consecutive cards of one suit, ace low only; a set is three or
more cards of one rank in any suits (the same card twice only with two packs).
:func:`judge` returns a :class:`PagrucVerdict`; :func:`card_points` says what a card
scores where it lies (G7), unless the caller (the rules object,
:class:`pancli.pagruc.rules.PagrucRules`) says it otherwise: a meld keeps the points it was
made with.

>>> from pancli.cards import card, Rank, Suit
>>> from pancli.pagruc.pack import ONE_PACK, TWO_PACKS
>>> run = judge([card(r, Suit.HEARTS) for r in (Rank.SEVEN, Rank.FIVE, Rank.SIX)], TWO_PACKS)
>>> run.legal, run.kind, str(run.meld), run.points
(True, <PagrucKind.RUN: 'run'>, '5h 6h 7h', 18)
>>> aces = judge([card(Rank.ACE, s) for s in (Suit.CLUBS, Suit.DIAMONDS, Suit.SPADES)], TWO_PACKS)
>>> aces.kind, aces.points
(<PagrucKind.SET: 'set'>, 45)
>>> wrap = judge([card(r, Suit.SPADES) for r in (Rank.QUEEN, Rank.KING, Rank.ACE)], TWO_PACKS)
>>> wrap.legal, str(wrap.rule)
(False, 'G4')
>>> print(judge([card(Rank.ACE, Suit.HEARTS)] * 3, ONE_PACK).rule)   # conservation: G1, as in replay
G1
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Callable, Iterable
from itertools import pairwise
from typing import Final

from pancli.cards import Card, Rank, format_cards
from pancli.pagruc.pack import PagrucPack, beyond_pack
from pancli.rulebook import Rule
from pancli.rules import MeldError
from pancli.values import Value

__all__ = [
    "MIN_MELD",
    "MeldError",
    "PagrucKind",
    "PagrucMeld",
    "PagrucVerdict",
    "Where",
    "card_points",
    "judge",
    "lay_off",
]

MIN_MELD: Final = 3
"""A meld is three or more cards (G4): what :func:`judge` and the rules object's ``min_meld`` say."""


class PagrucKind(enum.Enum):
    """The two kinds of PAGRUC meld (G4)."""

    RUN = "run"
    SET = "set"


class Where(enum.Enum):
    """Where a card lies when the hand is scored (G7): in a run, in a set, or in the hand."""

    RUN = "run"
    SET = "set"
    HAND = "hand"

    @classmethod
    def of(cls, kind: PagrucKind) -> Where:
        """The place of a card in a meld of ``kind``."""
        return _IN_RUN if kind is _RUN else _IN_SET


# (members read once: Python 3.11 reads one off its class through the enum's type, dearer than a
# module name, and each card laid or left in a hand is scored with them)
_RUN: Final = PagrucKind.RUN
_SET: Final = PagrucKind.SET
_IN_RUN: Final = Where.RUN
_IN_SET: Final = Where.SET
_IN_HAND: Final = Where.HAND
_ACE: Final = Rank.ACE


def card_points(c: Card, where: Where) -> int:
    """What a card scores (G7): face value 2-10, J Q K 10; an ace 1 in a run, 15 in a set;
    a card left in the hand counts minus (an ace minus 15).

    >>> from pancli.cards import card, Rank, Suit
    >>> ace, king, ten = card(Rank.ACE, Suit.HEARTS), card(Rank.KING, Suit.SPADES), card(Rank.TEN, Suit.CLUBS)
    >>> [card_points(ace, w) for w in Where], card_points(king, Where.HAND), card_points(ten, Where.RUN)
    ([1, 15, -15], -10, 10)
    """
    rank = c.rank
    if rank is _ACE:
        return 1 if where is _IN_RUN else 15 if where is _IN_SET else -15
    value = min(int(rank), 10)
    return -value if where is _IN_HAND else value


class PagrucMeld(Value):
    """A legal PAGRUC meld (G4). A run's cards are kept low to high; a set's as given.
    ``points``: what its cards score on the table (G7), as the rules object that made it says
    (:func:`judge`'s ``points``).

    >>> from pancli.cards import card, Rank, Suit
    >>> from pancli.pagruc.pack import TWO_PACKS
    >>> judge([card(r, Suit.CLUBS) for r in (Rank.ACE, Rank.TWO, Rank.THREE)], TWO_PACKS).meld.points
    6
    """

    cards: tuple[Card, ...]
    kind: PagrucKind
    points: int

    @property
    def where(self) -> Where:
        """Where its cards lie for scoring (G7)."""
        return Where.of(self.kind)

    def __str__(self) -> str:
        return format_cards(self.cards)


class PagrucVerdict(Value):
    """The judgement of cards as a PAGRUC meld: ``meld`` when legal, else the rule broken
    (``G4``) and ``reason`` in words."""

    cards: tuple[Card, ...]
    meld: PagrucMeld | None
    rule: Rule | None
    reason: str

    @property
    def legal(self) -> bool:
        """True when the cards form a legal meld."""
        return self.meld is not None

    @property
    def kind(self) -> PagrucKind | None:
        """``RUN``, ``SET`` or None when illegal."""
        return None if self.meld is None else self.meld.kind

    @property
    def points(self) -> int:
        """What the meld scores on the table (G7, as it was made: :attr:`PagrucMeld.points`); 0
        when illegal."""
        return 0 if self.meld is None else self.meld.points


_PLURAL = {Rank.ACE: "aces", Rank.TEN: "tens", Rank.JACK: "jacks", Rank.QUEEN: "queens", Rank.KING: "kings"}


def _illegal(cards: tuple[Card, ...], reason: str) -> PagrucVerdict:
    return PagrucVerdict(cards, None, Rule.G4, reason)


Points = Callable[[Card, Where], int]
Beyond = Callable[[PagrucPack, Iterable[tuple[Card, int]]], tuple[Card, int] | None]
"""G1's copies comparison (:meth:`.rules.PagrucRules.beyond`; :func:`.pack.beyond_pack` without one)."""
"""What a card scores where it lies (G7): :func:`card_points`, or a rules object's ``points``."""


def _made(cards: tuple[Card, ...], kind: PagrucKind, points: Points) -> PagrucMeld:
    where = Where.of(kind)
    return PagrucMeld(cards, kind, sum(points(c, where) for c in cards))


def judge(
    cards: Iterable[Card],
    pack: PagrucPack,
    points: Points = card_points,
    beyond: Beyond = beyond_pack,
    fewest: int = MIN_MELD,
) -> PagrucVerdict:
    """Classify cards as a PAGRUC meld (G4) from ``pack`` (two packs, the most a game uses,
    let a card appear twice) of ``fewest`` cards or more. More copies than the pack holds is G1,
    as everywhere (``beyond``: the rules object's comparison).

    >>> from pancli.cards import card, Rank, Suit
    >>> from pancli.pagruc.pack import ONE_PACK, TWO_PACKS
    >>> fives = [card(Rank.FIVE, Suit.HEARTS), card(Rank.FIVE, Suit.HEARTS), card(Rank.FIVE, Suit.CLUBS)]
    >>> judge(fives, TWO_PACKS).legal, judge(fives, ONE_PACK).reason
    (True, '5h twice, but one pack holds one 5h (the same card twice needs two packs)')
    >>> judge([card(r, Suit.DIAMONDS) for r in (Rank.NINE, Rank.TEN, Rank.QUEEN)], TWO_PACKS).reason
    'a run is consecutive (missing J)'
    """
    cs = tuple(cards)
    over = beyond(pack, Counter(cs).items())
    if over is not None:  # conservation is G1 (the packs), as in replay
        from pancli.pagruc.words import held_words  # start-up: only cards past the pack need it

        c, n = over
        times = "twice" if n == 2 else f"{n} times"
        needs = " (the same card twice needs two packs)" if pack.packs == 1 else ""
        return PagrucVerdict(cs, None, Rule.G1, f"{c} {times}, {held_words(pack, c)}{needs}")
    if len(cs) < fewest:
        return _illegal(cs, f"a meld is {fewest} or more cards, not {len(cs)}")
    ranks = {c.rank for c in cs}
    if len(ranks) == 1:
        name = _PLURAL.get(cs[0].rank, cs[0].rank.symbol + "s")
        return PagrucVerdict(cs, _made(cs, _SET, points), None, f"set of {name}")
    if len({c.suit for c in cs}) > 1:
        return _illegal(cs, f"not a set (ranks differ) and not a run (a run is one suit): {format_cards(cs)}")
    if len(ranks) < len(cs):
        dup = next(c for c, n in Counter(cs).items() if n > 1)
        return _illegal(cs, f"a run holds no rank twice ({dup.rank.symbol} repeats)")
    values = sorted(int(r) for r in ranks)
    if values[-1] - values[0] == len(values) - 1:
        ordered = tuple(sorted(cs, key=lambda c: int(c.rank)))
        return PagrucVerdict(cs, _made(ordered, _RUN, points), None, f"run of {cs[0].suit.name.lower()}")
    if values[0] == int(Rank.ACE) and values[-1] == int(Rank.KING) and _wraps(values):
        return _illegal(cs, "aces are low only: a run does not go round the corner (no Q-K-A, no K-A-2)")
    have = set(values)
    missing = " ".join(Rank(v).symbol for v in range(values[0], values[-1] + 1) if v not in have)
    return _illegal(cs, f"a run is consecutive (missing {missing})")


def _wraps(values: list[int]) -> bool:
    """True when sorted rank values holding A and K are consecutive going round K-A."""
    gaps = [b - a for a, b in pairwise(values) if b - a > 1]
    return len(gaps) == 1


def lay_off(
    meld: PagrucMeld,
    added: Iterable[Card],
    pack: PagrucPack,
    points: Points = card_points,
    beyond: Beyond = beyond_pack,
) -> PagrucMeld:
    """The meld with ``added`` laid off on it (G5): it must stay a legal meld of its kind,
    else MeldError G5 (G1 when the pack holds too few copies, by ``beyond``); scored by
    ``points`` (G7).

    >>> from pancli.cards import card, Rank, Suit
    >>> from pancli.pagruc.pack import TWO_PACKS
    >>> run = judge([card(r, Suit.HEARTS) for r in (Rank.FIVE, Rank.SIX, Rank.SEVEN)], TWO_PACKS).meld
    >>> str(lay_off(run, [card(Rank.FOUR, Suit.HEARTS), card(Rank.EIGHT, Suit.HEARTS)], TWO_PACKS))
    '4h 5h 6h 7h 8h'
    >>> lay_off(run, [card(Rank.NINE, Suit.HEARTS)], TWO_PACKS)
    Traceback (most recent call last):
    ...
    pancli.rules.MeldError: G5 cannot lay 9h on 5h 6h 7h: a run is consecutive (missing 8)
    """
    added = tuple(added)
    if not added:
        raise MeldError(Rule.G5, "nothing to lay off")
    v = judge((*meld.cards, *added), pack, points, beyond)
    if v.rule == Rule.G1:
        raise MeldError(Rule.G1, f"cannot lay {format_cards(added)} on {meld}: {v.reason}")
    if v.meld is None or v.meld.kind is not meld.kind:
        why = v.reason if v.meld is None else f"it would no longer be a {meld.kind.value}"
        raise MeldError(Rule.G5, f"cannot lay {format_cards(added)} on {meld}: {why}")
    return v.meld
