"""A PAGRUC hand score (G7): cards on the table plus, cards left in the hand minus, as
:meth:`pancli.pagruc.rules.PagrucRules.score` makes it.

>>> from pancli.cards import card, Rank, Suit
>>> from pancli.pagruc.pack import TWO_PACKS
>>> from pancli.pagruc.rules import PagrucRules
>>> H, C, D, S = Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS, Suit.SPADES
>>> run = [card(Rank.FIVE, H), card(Rank.SIX, H), card(Rank.SEVEN, H)]
>>> aces = [card(Rank.ACE, C), card(Rank.ACE, D), card(Rank.ACE, S)]
>>> s = PagrucRules().score([run, aces], [card(Rank.KING, S), card(Rank.ACE, H)], TWO_PACKS)
>>> s.table, s.in_hand, s.total
(63, -25, 38)
>>> [(str(c.card), c.where.value, c.points) for c in s.cards][-2:]
[('Ks', 'hand', -10), ('Ah', 'hand', -15)]
"""

from __future__ import annotations

from pancli.cards import Card
from pancli.pagruc.melds import PagrucMeld, Where
from pancli.values import Value


class CardScore(Value):
    """One card's contribution to a hand score (G7).

    ``meld`` names the meld it lies in (``1`` for the first meld of a score, or
    ``Ana#2`` in a refereed hand), None for a card in the hand; ``line`` is the record
    line where it was laid (0 when not from a record).
    """

    card: Card
    where: Where
    points: int
    meld: str | None = None
    line: int = 0


class HandScore(Value):
    """A scored hand: the melds, the cards left in the hand and each card's points."""

    melds: tuple[PagrucMeld, ...]
    hand: tuple[Card, ...]
    cards: tuple[CardScore, ...]

    @property
    def table(self) -> int:
        """Points of the cards on the table."""
        return sum(c.points for c in self.cards if c.where is not Where.HAND)

    @property
    def in_hand(self) -> int:
        """Points of the cards left in the hand (zero or negative)."""
        return sum(c.points for c in self.cards if c.where is Where.HAND)

    @property
    def total(self) -> int:
        """The hand score (G7)."""
        return self.table + self.in_hand
