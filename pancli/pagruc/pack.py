"""The PAGRUC pack (G1): one or two full 52-card packs, chosen by the number of players.

>>> from pancli.cards import card, Rank, Suit
>>> ten = card(Rank.TEN, Suit.HEARTS)
>>> PagrucPack(1).copies(ten), PagrucPack(2).copies(ten), PagrucPack(2).size
(1, 2, 104)
>>> pack_for(4).packs, pack_for(7).packs
(1, 2)
>>> pack_problem(6, 1)
'6 players need two packs; one pack is for 3 to 5 players'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Final

from pancli.cards import ALL_CARDS, Card
from pancli.values import Value

MIN_PLAYERS: Final = 3
"""Fewer than three players is not an official round (G1)."""
MAX_ONE_PACK: Final = 5
"""One pack serves at most five players (G1)."""
MAX_PLAYERS: Final = 8
"""Two packs serve at most eight players (G1)."""
MAX_PACKS: Final = 2


class PagrucPack(Value):
    """``packs`` full 52-card packs (G1): every card of the 52 exists ``packs`` times.

    >>> len(PagrucPack(1).full())
    52
    """

    packs: int = 1

    def __post_init__(self) -> None:
        if not 1 <= self.packs <= MAX_PACKS:
            raise ValueError(f"PAGRUC uses one or two packs, not {self.packs}")

    def copies(self, c: Card) -> int:
        """How many copies of ``c`` the pack holds (every rank and suit is in it)."""
        return self.packs

    @property
    def size(self) -> int:
        """Total number of cards: 52 a pack."""
        return 52 * self.packs

    def full(self) -> list[Card]:
        """Every card of the pack, each copy once, in rank/suit order."""
        return [c for c in ALL_CARDS for _ in range(self.packs)]


def beyond_pack(pack: PagrucPack, counts: Iterable[tuple[Card, int]]) -> tuple[Card, int, str] | None:
    """G1's conservation, the one comparison: the first ``(card, copies)`` of ``counts`` that
    ``pack`` holds fewer copies of, with why as the end of a sentence (``... but one pack
    holds one 5h``); None when every count fits. The rules object answers with it
    (:meth:`.rules.PagrucRules.beyond`), which the referee's G1 judge, the meld engine
    (:func:`.melds.judge`), scoring and ``pan check`` ask, each naming the copies its own way.

    >>> from pancli.cards import card, Rank, Suit
    >>> five = card(Rank.FIVE, Suit.HEARTS)
    >>> beyond_pack(ONE_PACK, [(five, 1)]) is None, beyond_pack(TWO_PACKS, [(five, 3)])
    (True, (Card('5h'), 3, 'but two packs hold two 5h'))
    """
    for c, n in counts:
        if n > pack.copies(c):
            held = "one pack holds one" if pack.packs == 1 else "two packs hold two"
            return c, n, f"but {held} {c}"
    return None


ONE_PACK: Final = PagrucPack(1)
TWO_PACKS: Final = PagrucPack(2)


def pack_for(players: int, packs: int | None = None) -> PagrucPack:
    """The pack a table of ``players`` uses (G1): ``packs`` when given, else one pack
    for up to five players and two for more. Does not judge the choice (see :func:`pack_problem`).
    """
    if packs is None:
        packs = 1 if players <= MAX_ONE_PACK else 2
    return PagrucPack(packs)


def pack_problem(
    players: int, packs: int | None = None, judge_packs: Callable[[int], str | None] | None = None
) -> str | None:
    """Why ``players`` cannot play with ``packs`` packs under G1, or None when they can;
    ``judge_packs`` (:func:`packs_problem` when None: the rules object passes its own) says
    whether ``packs`` is a PAGRUC pack at all.

    Two players may play a (practice) hand; :func:`official_problem` adds the G1 minimum
    of three for an official round.

    >>> pack_problem(9) is None, pack_problem(3, 2) is None
    (False, True)
    """
    if players < 2:
        return f"a hand needs at least 2 players, not {players}"
    if players > MAX_PLAYERS:
        return f"at most {MAX_PLAYERS} players (with two packs), not {players}"
    if packs is not None:
        why = (judge_packs or packs_problem)(packs)
        if why is not None:
            return why
    if packs == 1 and players > MAX_ONE_PACK:
        return f"{players} players need two packs; one pack is for 3 to {MAX_ONE_PACK} players"
    return None


def packs_problem(packs: int) -> str | None:
    """Why ``packs`` 52-card packs are not a PAGRUC pack (G1: one or two), or None.

    >>> packs_problem(3)
    'one or two 52-card packs, not 3'
    """
    if not 1 <= packs <= MAX_PACKS:
        return f"one or two 52-card packs, not {packs}"
    return None


def official_problem(
    players: int, packs: int | None = None, judge_packs: Callable[[int], str | None] | None = None
) -> str | None:
    """Why a round of ``players`` with ``packs`` packs is not official (G1), or None
    (``judge_packs`` as :func:`pack_problem` takes it).

    >>> official_problem(2)
    'fewer than 3 players is not an official round'
    """
    if players < MIN_PLAYERS:
        return f"fewer than {MIN_PLAYERS} players is not an official round"
    return pack_problem(players, packs, judge_packs)
