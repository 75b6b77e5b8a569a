"""What a referee reports (docs/rules.md): payments, violations, claims, the ledger,
and a per-action event stream with the provenance of every card.

>>> p = Payment(payer="Ben", payee="Ana", units=4, rules=(Rule.C2,), line=12)
>>> p.units, p.rule
(4, 'C2')
>>> Payment("Ben", "Ana", 9, (Rule.C4, Rule.C5), 14).rule
'C4+C5'
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import field
from typing import TYPE_CHECKING, ClassVar, Final, Literal, NamedTuple, Protocol

from pancli.cards import Card, Game
from pancli.model.actions import Action, Event
from pancli.rulebook import Rule
from pancli.values import QuickEnum, frozen

if TYPE_CHECKING:  # decimal is imported where a stake is read (start-up: about 3 ms)
    from decimal import Decimal


@frozen
class Payment:
    """``payer`` pays ``payee`` ``units`` under ``rules`` for the record line ``line``;
    ``meld`` is the meld concerned, when there is one.

    ``rules`` are ids of the rulebook: a new meld pays under its conditions (C1..C5, both C4
    and C5 for a rope from A to K) or C6 for a meld that is none, a change under C7, going out
    under C8, the forfeits and tops under T2 (docs/rules.md: every payment names its rule).
    """

    payer: str
    payee: str
    units: int
    rules: tuple[Rule, ...]
    line: int
    meld: tuple[Card, ...] | None = None
    note: str = ""

    @property
    def rule(self) -> str:
        """The rules as output writes them, joined by ``+``: ``C7``, ``C4+C5``."""
        return "+".join(self.rules)


@frozen
class Violation:
    """A rule broken: where, by whom, and what the rulebook prescribes (``ruling``)."""

    rule: Rule
    line: int
    col: int
    player: str | None
    message: str
    ruling: str = ""
    turn: int = 0
    """The turn number in the hand (1-based; 0 before play: seating, deal, decisions)."""


class ClaimKind(enum.Enum, metaclass=QuickEnum):
    """The claims a record can make and the referee checks."""

    PAYS = "pays"
    """``[%pays N]`` after a meld: each opponent paid N for it."""
    LEDGER = "ledger"
    """``[Ledger "..."]``: each player's net units for the hand."""


@frozen
class ClaimCheck:
    """One claim and what the referee found. ``rule`` is the rule a wrong claim is reported
    under, set by the judge that checks it: C7 for ``[%pays N]`` (what a meld collects) and
    C9 for ``[Ledger]`` (units) in Panguingue, G7 for either in PAGRUC (points)."""

    rule: Rule
    kind: ClaimKind
    line: int
    player: str | None
    claimed: int
    actual: int
    col: int = 1
    """The column of the ``[%pays N]`` claim on ``line`` (1 for a ``[Ledger]`` tag)."""

    @property
    def ok(self) -> bool:
        """True when the claim holds."""
        return self.claimed == self.actual


class Source(enum.Enum, metaclass=QuickEnum):
    """Where a card came from or went to (provenance, for ``--jsonl``)."""

    DEAL = "deal"
    STOCK = "stock"
    DISCARD_PILE = "discard"
    HAND = "hand"
    MELD = "meld"
    DEAD = "dead"


# Python 3.11 reads an enum member off its class (``Source.STOCK``) through the hook of
# ``EnumType.__getattr__``, about nine times the cost of reading a module name: the referee's
# per-card moves use these names (benchmarks/README.md, "Referee").
DEAL: Final = Source.DEAL
STOCK: Final = Source.STOCK
DISCARD_PILE: Final = Source.DISCARD_PILE
HAND: Final = Source.HAND
MELD: Final = Source.MELD
DEAD: Final = Source.DEAD


class Step(NamedTuple):
    """One applied action (or play line) with its effects, in order.

    A named tuple, not a ``@frozen`` class: ``--jsonl`` records about 130 steps a hand and a
    tuple is built in one call where the value class sets seven slots (recording the steps of
    200 simulated 6-player hands, in process: 1.75 us a step as a value class, 0.6-1.0 as a
    tuple), and the JSON-line writer unpacks it in one go.
    """

    line: int
    col: int
    player: str | None
    event: Event | None
    action: Action | None
    moves: tuple[tuple[Card, Source, Source], ...] = ()
    """Each card moved: (card, from, to)."""
    payments: tuple[Payment, ...] = ()


class JudgedHand(Protocol):
    """What every referee's result has, whatever the game: :class:`HandResult` (Panguingue)
    and :class:`~pancli.pagruc.referee.PagrucHandResult` (PAGRUC) both are one. ``game``
    tells them apart (a tag: ``result.game is Game.PAGRUC`` narrows the type); the same
    :class:`Violation`, :class:`ClaimCheck` and :class:`Step` types serve both games.

    >>> r: JudgedHand = HandResult(("Ana", "Ben"), "Ana", (), {"Ana": 2, "Ben": -2})
    >>> r.game, r.finished, dict(r.totals)
    (<Game.PANGUINGUE: 'panguingue'>, True, {'Ana': 2, 'Ben': -2})
    """

    @property
    def game(self) -> Game: ...

    @property
    def players(self) -> tuple[str, ...]: ...

    @property
    def winner(self) -> str | None: ...

    @property
    def violations(self) -> tuple[Violation, ...]: ...

    @property
    def claims(self) -> tuple[ClaimCheck, ...]: ...

    @property
    def steps(self) -> tuple[Step, ...]: ...

    @property
    def totals(self) -> Mapping[str, int | None]:
        """Each player's net for the hand: units paid and collected (Panguingue, sums to
        zero) or the hand score in points (PAGRUC; None when it cannot be computed)."""

    @property
    def stake(self) -> Decimal | None:
        """The money of one unit, when the record names it (Panguingue, C9)."""

    @property
    def ok(self) -> bool:
        """No violation and every claim holds."""

    @property
    def finished(self) -> bool:
        """The hand reached its end (not a record cut off before it)."""


@frozen
class HandResult:
    """The referee's result for one Panguingue hand (a :class:`JudgedHand`).

    ``ledger`` maps every seated player to net units (always sums to zero).
    ``violations`` holds at most the first violation in strict refereeing (it stops the hand).
    """

    game: ClassVar[Literal[Game.PANGUINGUE]] = Game.PANGUINGUE

    players: tuple[str, ...]
    winner: str | None
    payments: tuple[Payment, ...]
    ledger: Mapping[str, int]
    violations: tuple[Violation, ...] = ()
    claims: tuple[ClaimCheck, ...] = ()
    void: bool = False
    stake: Decimal | None = None
    steps: tuple[Step, ...] = field(default=(), repr=False)

    @property
    def claims_ok(self) -> bool:
        """True when every claim in the record holds."""
        return all(c.ok for c in self.claims)

    @property
    def totals(self) -> Mapping[str, int]:
        """The ledger (:attr:`JudgedHand.totals`)."""
        return self.ledger

    @property
    def finished(self) -> bool:
        """The hand reached its end: someone went out (C8), won when all the others went on top
        (T4), or it was void. False for a record that stops before (a cut-off file)."""
        return self.winner is not None or self.void

    @property
    def ok(self) -> bool:
        """No violation and every claim holds."""
        return not self.violations and self.claims_ok

    def money(self) -> Mapping[str, Decimal] | None:
        """The ledger in money when the record names a stake (C9)."""
        if self.stake is None:
            return None
        return {p: exact_product(self.stake, u) for p, u in self.ledger.items()}


def exact_product(stake: Decimal, units: int) -> Decimal:
    """``stake * units`` with every digit kept (the default context rounds to 28 digits).

    >>> from decimal import Decimal
    >>> exact_product(Decimal("12345678901234567890.123456789"), 2)
    Decimal('24691357802469135780.246913578')
    """
    from decimal import localcontext

    with localcontext() as ctx:
        ctx.prec = len(stake.as_tuple().digits) + len(str(abs(units))) + 1
        return stake * units
