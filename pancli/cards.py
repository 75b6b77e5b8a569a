"""Cards, ranks, suits and packs (rules E1-E4).

The engine's card values. Nothing here reads or writes text beyond the canonical
``str()`` of a value (``Ks``); parsing lives in :mod:`pancli.notation`.

>>> from pancli.cards import Card, Rank, Suit, Pack
>>> five = Card(Rank.FIVE, Suit.SPADES)
>>> str(five)
'5s'
>>> Rank.SEVEN.pan_index + 1 == Rank.JACK.pan_index
True
>>> Pack().copies(five), Pack(spade_suits_removed=1).copies(five)
(8, 7)
>>> Pack().size, Pack(spade_suits_removed=1).size
(320, 310)
"""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING, Final

from pancli.values import Value

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence


class Suit(enum.Enum):
    """The four suits, in canonical order ``s h d c``."""

    SPADES = "s"
    HEARTS = "h"
    DIAMONDS = "d"
    CLUBS = "c"

    @property
    def letter(self) -> str:
        """The canonical one-letter name (``s``)."""
        return self.value

    @property
    def order(self) -> int:
        """Position in the canonical order s, h, d, c (0..3)."""
        return _SUIT_ORDER[self]

    def __str__(self) -> str:
        return self.value


_SUIT_ORDER: Final = {s: i for i, s in enumerate(Suit)}
SUITS: Final = tuple(Suit)
_SPADES: Final = Suit.SPADES


class Rank(enum.IntEnum):
    """All thirteen ranks of a French pack, valued 1 (ace) to 13 (king).

    Panguingue uses ten of them (:data:`PAN_RANKS`); PAGRUC uses all thirteen.
    """

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def symbol(self) -> str:
        """The canonical rank symbol: ``A 2 .. 9 T J Q K``."""
        return _RANK_SYMBOL[self]

    @property
    def in_pan_pack(self) -> bool:
        """True for the ranks of a Panguingue pack (E1: no 8, 9, 10)."""
        return self not in _NOT_PAN

    @property
    def pan_index(self) -> int:
        """Position in the Panguingue order A 2 3 4 5 6 7 J Q K (0..9), E2.

        7 and J are adjacent. Raises ValueError for 8, 9 and 10.
        """
        try:
            return _PAN_INDEX[self]
        except KeyError:
            raise ValueError(f"{self.symbol} is not in a Panguingue pack") from None

    @property
    def is_valle(self) -> bool:
        """3, 5 and 7 are valle cards (E3)."""
        return self in (Rank.THREE, Rank.FIVE, Rank.SEVEN)

    @property
    def is_noncomoquer(self) -> bool:
        """Aces and kings are the non-comoquers (E3, M4)."""
        return self in (Rank.ACE, Rank.KING)

    def __str__(self) -> str:
        return self.symbol


_RANK_SYMBOL: Final = {
    r: ("A" if r == 1 else "T" if r == 10 else "J" if r == 11 else "Q" if r == 12 else "K" if r == 13 else str(int(r)))
    for r in Rank
}
# (members read once: Python 3.11 reads one off its class through the enum's type, dearer than a
# module name, and a rules object asks this of each of the 52 cards)
_NOT_PAN: Final = (Rank.EIGHT, Rank.NINE, Rank.TEN)
PAN_RANKS: Final = tuple(r for r in Rank if r.in_pan_pack)
"""The Panguingue ranks, low to high (E2)."""
_PAN_INDEX: Final = {r: i for i, r in enumerate(PAN_RANKS)}


class Card:
    """One card: a rank and a suit. Equal cards are interchangeable copies, so each of the 52 is
    one shared instance: ``Card(rank, suit)`` looks it up, equality is identity and the hash is
    the card's :attr:`index` (cheap where the referee counts and keys cards by the thousand).

    >>> Card(Rank.KING, Suit.HEARTS)
    Card('Kh')
    >>> Card(Rank.KING, Suit.HEARTS) is Card(Rank.KING, Suit.HEARTS)
    True
    >>> sorted([Card(Rank.KING, Suit.HEARTS), Card(Rank.ACE, Suit.CLUBS)], key=Card.sort_key)
    [Card('Ac'), Card('Kh')]
    """

    __slots__ = ("index", "rank", "suit", "text")
    __match_args__ = ("rank", "suit")

    rank: Rank
    suit: Suit
    index: int
    """A dense index 0..51: ``(rank - 1) * 4 + suit order`` (the referee counts cards in
    lists by it)."""
    text: str
    """The canonical text (``5s``)."""

    def __new__(cls, rank: Rank, suit: Suit) -> Card:
        return ALL_CARDS[(int(rank) - 1) * 4 + _SUIT_ORDER[suit]]

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a Card is immutable: cannot assign to {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"a Card is immutable: cannot delete {name!r}")

    def __hash__(self) -> int:
        return self.index

    def __reduce__(self) -> tuple[object, ...]:
        return (Card, (self.rank, self.suit))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Card('{self}')"

    def sort_key(self) -> tuple[int, int]:
        """Order by rank, then suit (s h d c)."""
        return (int(self.rank), _SUIT_ORDER[self.suit])


def _made() -> tuple[Card, ...]:
    """The 52 shared cards, made once at import (``Card()`` only looks them up): by rank, then
    suit, so that each one's :attr:`Card.index` is its place (no enum hashed per card)."""
    made: list[Card] = []
    put = object.__setattr__
    for rank, symbol in zip(Rank, _RANK_SYMBOL.values(), strict=True):
        for suit in SUITS:
            c = object.__new__(Card)
            put(c, "rank", rank)
            put(c, "suit", suit)
            put(c, "index", len(made))
            put(c, "text", symbol + suit.value)
            made.append(c)
    return tuple(made)


ALL_CARDS: Final = _made()
"""All 52 distinct cards, indexed by :attr:`Card.index`."""
PAN_CARDS: Final = ALL_CARDS[: 7 * 4] + ALL_CARDS[10 * 4 :]  # (ace to seven, jack to king: no 8, 9, 10, E1)
"""The 40 distinct Panguingue cards, by rank then suit."""


def card(rank: Rank, suit: Suit) -> Card:
    """The shared instance of a card, as ``Card(rank, suit)`` (kept for its callers).

    >>> card(Rank.FIVE, Suit.SPADES) is Card(Rank.FIVE, Suit.SPADES)
    True
    """
    return ALL_CARDS[(int(rank) - 1) * 4 + _SUIT_ORDER[suit]]


def format_cards(cards: tuple[Card, ...] | list[Card]) -> str:
    """Canonical text of a card list: one space between cards.

    >>> format_cards([card(Rank.FIVE, Suit.SPADES), card(Rank.KING, Suit.HEARTS)])
    '5s Kh'
    """
    return " ".join([c.text for c in cards])


class Cards(tuple[Card, ...]):
    """Cards in a row: a tuple whose ``str`` is the notation's (``print(payment.meld)`` shows
    ``7s 7s 7c``; its ``repr`` is the tuple's).

    >>> meld = Cards([card(Rank.SEVEN, Suit.SPADES)] * 2)
    >>> print(meld), meld == (card(Rank.SEVEN, Suit.SPADES),) * 2
    7s 7s
    (None, True)
    """

    __slots__ = ()

    def __str__(self) -> str:
        return format_cards(self)


class Pack(Value):
    """The Panguingue pack (E1): ``packs`` 40-card packs, less removed spade suits.

    >>> Pack(packs=5).size
    200
    """

    packs: int = 8
    spade_suits_removed: int = 0

    def copies(self, c: Card) -> int:
        """How many copies of ``c`` the pack holds (0 for 8, 9, 10: E1)."""
        if not c.rank.in_pan_pack:
            return 0
        if c.suit is _SPADES:
            return self.packs - self.spade_suits_removed
        return self.packs

    @property
    def size(self) -> int:
        """Total number of cards in the pack."""
        return 40 * self.packs - 10 * self.spade_suits_removed

    def full(self) -> list[Card]:
        """Every card of the pack, each copy once, in rank/suit order."""
        out: list[Card] = []
        for c in PAN_CARDS:
            out.extend([c] * self.copies(c))
        return out


def copies_by_index(pack: Pack) -> tuple[int, ...]:
    """How many copies of each card the pack holds, by :attr:`Card.index` (what
    :func:`past_the_pack` compares with). Worked out at each call: the rules object keeps its
    own table (:attr:`pancli.panrules.PanRules.copies`), which the referee, the analyzer and
    the batches read; this serves the meld engine's callers that give no table (tests, doctests).

    >>> copies_by_index(Pack(spade_suits_removed=1))[:4]
    (7, 8, 8, 8)
    """
    return tuple(pack.copies(c) for c in ALL_CARDS)


def past_the_pack(
    seen: Sequence[int], copies: Sequence[int], counts: Iterable[tuple[int, int]]
) -> tuple[int, int] | None:
    """E4 (never more copies of a card than the pack holds), the one comparison: the first
    ``(card index, copies)`` of ``counts`` (each a card's :attr:`Card.index` and how many more
    copies of it become known) that would take the card past its ``copies`` in the pack, given
    the ``seen`` copies already accounted for, with the count it would reach; None when all fit.
    Any numbering of the cards serves, the same in the three (the analyzer's draw table numbers
    them by slot). The referee's E4 judge (``referee.play.card_fault``), ``pan pay``'s count across
    melds (``app.pay.PackCounter``), the meld engine and the analyzer ask it.

    >>> past_the_pack([7, 8], [8, 8], [(0, 1), (1, 0)]) is None
    True
    >>> past_the_pack([7, 8], [8, 8], [(0, 1), (1, 1)])
    (1, 9)
    """
    for i, n in counts:
        if seen[i] + n > copies[i]:
            return i, seen[i] + n
    return None


class Game(enum.Enum):
    """The two games the tool referees."""

    PANGUINGUE = "panguingue"
    PAGRUC = "pagruc"
