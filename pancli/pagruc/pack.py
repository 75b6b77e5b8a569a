"""The PAGRUC pack (G1): one or two full 52-card packs, chosen by the number of players.

>>> from pancli.cards import card, Rank, Suit
>>> ten = card(Rank.TEN, Suit.HEARTS)
>>> PagrucPack(1).copies(ten), PagrucPack(2).copies(ten), PagrucPack(2).size
(1, 2, 104)
>>> pack_for(4).packs, pack_for(7).packs
(1, 2)
>>> pack_problem(6, 1).fault
<TableFault.ONE_PACK_TOO_FEW: 'one pack too few'>
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Final

from pancli.cards import ALL_CARDS, Card
from pancli.values import Value

if TYPE_CHECKING:
    from pancli.refusals import TableProblem

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


def beyond_pack(pack: PagrucPack, counts: Iterable[tuple[Card, int]]) -> tuple[Card, int] | None:
    """G1's conservation, the one comparison: the first ``(card, copies)`` of ``counts`` that
    ``pack`` holds fewer copies of; None when every count fits. The rules object answers with it
    (:meth:`.rules.PagrucRules.beyond`), which the referee's G1 judge, the meld engine
    (:func:`.melds.judge`), scoring and ``pan check`` ask, each naming the copies its own way
    (with :func:`.words.held_words`).

    >>> from pancli.cards import card, Rank, Suit
    >>> five = card(Rank.FIVE, Suit.HEARTS)
    >>> beyond_pack(ONE_PACK, [(five, 1)]) is None, beyond_pack(TWO_PACKS, [(five, 3)])
    (True, (Card('5h'), 3))
    """
    for c, n in counts:
        if n > pack.copies(c):
            return c, n
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
    players: int, packs: int | None = None, judge_packs: Callable[[int], TableProblem | None] | None = None
) -> TableProblem | None:
    """Why ``players`` cannot play with ``packs`` packs under G1, or None when they can;
    ``judge_packs`` (:func:`packs_problem` when None: the rules object passes its own) says
    whether ``packs`` is a PAGRUC pack at all.

    Two players may play a (practice) hand; :func:`official_problem` adds the G1 minimum
    of three for an official round.

    >>> pack_problem(9) is None, pack_problem(3, 2) is None
    (False, True)
    """
    if players < 2:
        from pancli.refusals import TableFault, TableProblem  # start-up: only a table at fault needs them

        return TableProblem(TableFault.TOO_FEW, players, 2)
    if players > MAX_PLAYERS:
        from pancli.refusals import TableFault, TableProblem  # start-up: only a table at fault needs them

        return TableProblem(TableFault.TOO_MANY, players, MAX_PLAYERS)
    if packs is not None:
        why = (judge_packs or packs_problem)(packs)
        if why is not None:
            return why
    if packs == 1 and players > MAX_ONE_PACK:
        from pancli.refusals import TableFault, TableProblem  # start-up: only a table at fault needs them

        return TableProblem(TableFault.ONE_PACK_TOO_FEW, players, MAX_ONE_PACK, packs)
    return None


def packs_problem(packs: int) -> TableProblem | None:
    """Why ``packs`` 52-card packs are not a PAGRUC pack (G1: one or two), or None.

    >>> packs_problem(3)
    TableProblem(fault=<TableFault.PACKS: 'packs'>, players=0, bound=0, packs=3, names=())
    """
    if not 1 <= packs <= MAX_PACKS:
        from pancli.refusals import TableFault, TableProblem  # start-up: only a table at fault needs them

        return TableProblem(TableFault.PACKS, 0, packs=packs)
    return None


def official_problem(
    players: int, packs: int | None = None, judge_packs: Callable[[int], TableProblem | None] | None = None
) -> TableProblem | None:
    """Why a round of ``players`` with ``packs`` packs is not official (G1), or None
    (``judge_packs`` as :func:`pack_problem` takes it).

    >>> official_problem(2)
    TableProblem(fault=<TableFault.NOT_OFFICIAL: 'not official'>, players=2, bound=3, packs=None, names=())
    """
    if players < MIN_PLAYERS:
        from pancli.refusals import TableFault, TableProblem  # start-up: only a table at fault needs them

        return TableProblem(TableFault.NOT_OFFICIAL, players, MIN_PLAYERS)
    return pack_problem(players, packs, judge_packs)
