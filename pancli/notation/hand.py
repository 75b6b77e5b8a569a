"""Hand literals as values, and the canonical text of melds and hands (docs/notation.md).

>>> from pancli.cards import ALL_CARDS
>>> five_s, king_d = ALL_CARDS[16], ALL_CARDS[50]
>>> hand = Hand(groups=((five_s, five_s, five_s),), loose=(king_d,))
>>> format_hand(hand)
'[5s 5s 5s] Kd'
>>> len(hand.cards)
4
"""

from __future__ import annotations

from collections.abc import Iterable

from pancli.cards import Card
from pancli.values import Value


class Hand(Value):
    """A hand literal: bracketed groups (one meld each) and the loose cards, in order read.

    Where the groups stood among the loose cards is not kept: the canonical text puts the
    groups first.
    """

    groups: tuple[tuple[Card, ...], ...] = ()
    loose: tuple[Card, ...] = ()

    @property
    def cards(self) -> tuple[Card, ...]:
        """Every card of the hand: the groups' cards in order, then the loose cards."""
        out: list[Card] = []
        for g in self.groups:
            out.extend(g)
        out.extend(self.loose)
        return tuple(out)


def format_meld(cards: Iterable[Card]) -> str:
    """Canonical text of a meld: upper-case rank, lower-case suit letter, one space between.

    The ten (PAGRUC only) is written ``T``.

    >>> from pancli.cards import Card, Rank, Suit
    >>> format_meld([Card(Rank.TEN, Suit.HEARTS), Card(Rank.JACK, Suit.HEARTS)])
    'Th Jh'
    """
    return " ".join([c.rank.symbol + c.suit.value for c in cards])


def format_hand(hand: Hand) -> str:
    """Canonical text of a hand: ``[...]`` groups first, then the loose cards, one space apart."""
    parts = [f"[{format_meld(g)}]" for g in hand.groups]
    if hand.loose:
        parts.append(format_meld(hand.loose))
    return " ".join(parts)
