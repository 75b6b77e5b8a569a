"""A PAGRUC hand score (G7): cards on the table plus, cards left in the hand minus.

>>> from pancli.cards import card, Rank, Suit
>>> from pancli.pagruc.pack import TWO_PACKS
>>> H, C, D, S = Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS, Suit.SPADES
>>> run = [card(Rank.FIVE, H), card(Rank.SIX, H), card(Rank.SEVEN, H)]
>>> aces = [card(Rank.ACE, C), card(Rank.ACE, D), card(Rank.ACE, S)]
>>> s = score_hand([run, aces], [card(Rank.KING, S), card(Rank.ACE, H)], TWO_PACKS)
>>> s.table, s.in_hand, s.total
(63, -25, 38)
>>> [(str(c.card), c.where.value, c.points) for c in s.cards][-2:]
[('Ks', 'hand', -10), ('Ah', 'hand', -15)]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from pancli.cards import Card
from pancli.decides import decides
from pancli.melds import MeldError
from pancli.pagruc.melds import PagrucMeld, Where, card_points, judge
from pancli.pagruc.pack import PagrucPack, beyond_pack
from pancli.rulebook import Rule
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


def hand_scores(hand: Iterable[Card]) -> tuple[CardScore, ...]:
    """The (negative) contributions of cards left in a hand (G7)."""
    return tuple(CardScore(c, Where.HAND, card_points(c, Where.HAND)) for c in hand)


@decides(Rule.G7, what="what a hand scores: the table's cards plus, the hand's minus")
def score_hand(melds: Iterable[Sequence[Card]], hand: Sequence[Card], pack: PagrucPack) -> HandScore:
    """Score melded groups and the cards left in a hand (G7).

    Each group must be a legal meld (else MeldError G4, the reason naming the group), and
    neither a group nor all the cards together may hold more copies of a card than ``pack``
    (else MeldError G1).

    >>> from pancli.cards import card, Rank, Suit
    >>> from pancli.pagruc.pack import TWO_PACKS
    >>> score_hand([[card(Rank.TWO, Suit.CLUBS)] * 3], [], TWO_PACKS)
    Traceback (most recent call last):
    ...
    pancli.melds.MeldError: G1 meld 1 (2c 2c 2c): 2c 3 times, but two packs hold two 2c
    """
    laid: list[PagrucMeld] = []
    for i, group in enumerate(melds, 1):
        v = judge(group, pack)
        if v.meld is None:
            raise MeldError(v.rule or Rule.G4, f"meld {i} ({' '.join(map(str, group))}): {v.reason}")
        laid.append(v.meld)
    everything: Counter[Card] = Counter(hand)
    for m in laid:
        everything.update(m.cards)
    beyond = beyond_pack(pack, everything.items())
    if beyond is not None:
        c, n, but = beyond
        raise MeldError(Rule.G1, f"{n} copies of {c} in all, {but}")
    out: list[CardScore] = []
    for i, m in enumerate(laid, 1):
        out.extend(CardScore(c, m.where, card_points(c, m.where), str(i)) for c in m.cards)
    out.extend(hand_scores(hand))
    return HandScore(tuple(laid), tuple(hand), tuple(out))
