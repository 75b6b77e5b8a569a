"""Why not, as values: what the rules objects (:class:`~pancli.panrules.PanRules`,
:class:`~pancli.pagruc.rules.PagrucRules`) answer when they refuse: a table they cannot seat
(S1, G1), a count that is not ten (P7), more copies than the pack holds (E4), a force that may
not be made (P8), a borrow or a split refused (M6), a PAGRUC game whose deals are not even
(G8). Each records the facts; the judges word them in their rulings and render/ wherever else a
command shows them, through the one wording function of each (:mod:`pancli.rules`,
:mod:`pancli.pagruc.pack`; docs/architecture.md, "Where words are made").

A module of its own, imported at the first refusal: a replay with none does without its classes
(start-up).

>>> from pancli.rules import seating_words
>>> seating_words(Unseated(16, 2, 15))
'16 players seated; Panguingue seats 2 to 15'
"""

from __future__ import annotations

import enum

from pancli.cards import Card
from pancli.values import Value


class Unseated(Value):
    """S1: ``players`` cannot be seated at a table that seats ``least`` to ``most``."""

    players: int
    least: int
    most: int


class NotTen(Value):
    """P7: a player holds ``hand`` cards with ``melded`` on the table, not the ``dealt`` count in all."""

    hand: int
    melded: int
    dealt: int


class PastThePack(Value):
    """E4: ``copies`` of ``card`` are there, but the pack holds ``holds``."""

    card: Card
    copies: int
    holds: int


class ForceRefusal(enum.Enum):
    """P8: why a player may not force another to take and add the live discard."""

    NOT_IN_TURN = "not in turn"
    """The player forced is not in turn."""
    HIMSELF = "himself"
    """A player forces himself."""
    NO_LIVE_DISCARD = "no live discard"
    FITS_NO_MELD = "fits no meld"
    """The live discard fits none of the forced player's melds (M5)."""


class BorrowRefusal(enum.Enum):
    """M6: why a card may not be borrowed off a meld (:class:`~pancli.panrules.Borrowing`)."""

    NOT_ALLOWED = "not allowed"
    """The house rules allow no borrowing."""
    TOO_FEW_CARDS = "too few cards"
    """The meld holds no card more than the fewest of a meld."""
    NOT_THERE = "not there"
    """The card is not in the meld (off an end, of a rope)."""
    NO_MELD = "no meld"
    """What is left is no meld."""
    LOWERS_VALUE = "lowers value"
    """What is left is worth less (C7)."""


class SplitRefusal(enum.Enum):
    """M6: why a split has not the shape of one (:class:`~pancli.panrules.Splitting`)."""

    MISSING_CARDS = "missing cards"
    """The two parts leave out a card of the meld."""
    ADDS_NOTHING = "adds nothing"
    """The parts add no card from the hand."""


class TableFault(enum.Enum):
    """G1: why a PAGRUC table is not seated, or a round not official (:class:`TableProblem`,
    whose ``bound`` is the number of players it is measured against)."""

    TOO_FEW = "too few"
    """Fewer players than a hand needs (two)."""
    TOO_MANY = "too many"
    """More players than two packs seat (eight)."""
    PACKS = "packs"
    """The packs named are not one or two 52-card packs."""
    ONE_PACK_TOO_FEW = "one pack too few"
    """More players than one pack seats (five), with one pack named."""
    LISTED_TWICE = "listed twice"
    """A player is listed twice."""
    NOT_OFFICIAL = "not official"
    """Fewer players than an official round needs (three)."""


class TableProblem(Value):
    """G1: the ``fault`` of a table of ``players``: the ``bound`` it is measured against (the
    fewest or the most players), the ``packs`` named, or the players' ``names`` in order of play
    when one is listed twice."""

    fault: TableFault
    players: int
    bound: int = 0
    packs: int | None = None
    names: tuple[str, ...] = ()


class DealsProblem(Value):
    """G8: why a game is not official by its deals: each player's ``deals``, not ``even``, or
    ``even`` but each more than ``most``."""

    deals: tuple[tuple[str, int], ...]
    even: bool
    most: int
