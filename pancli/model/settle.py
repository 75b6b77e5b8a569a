"""Settling a sitting: each player's totals over many hands, and the transfers that settle them.

A sitting is added to one hand at a time (:meth:`Sitting.add`), so it holds one entry per
player and per disputed hand, never the hands themselves: constant memory in the number of
hands. Units are whole numbers; money is exact (:class:`~decimal.Decimal`, every digit kept).
Players are matched by name in Unicode normal form NFC, so ``"Zoë"`` typed with a combining
diaeresis in one file and precomposed in another is one player.

The settling payments are found greedily: the largest creditor is paid by the largest debtor,
as much as one of them is owed or owes, until nobody is owed anything. Each transfer settles
at least one player, and the last one settles two, so N players need at most N - 1 transfers.

>>> s = Sitting()
>>> s.add(SettledHand(("Ana", "Ben", "Cruz"), {"Ana": 8, "Ben": -4, "Cruz": -4}, Decimal("0.25")))
>>> s.add(SettledHand(("Cruz", "Ana", "Ben"), {"Cruz": 6, "Ana": -3, "Ben": -3}, Decimal("0.25")))
>>> [(t.player, t.hands, t.units, str(t.money)) for t in s.totals()]
[('Ana', 2, 5, '1.25'), ('Ben', 2, -7, '-1.75'), ('Cruz', 2, 2, '0.50')]
>>> [str(t) for t in s.transfers()]
['Ben pays Ana 1.25', 'Ben pays Cruz 0.50']
"""

from __future__ import annotations

import enum
import heapq
from collections.abc import Mapping, Sequence
from decimal import Decimal, localcontext
from typing import TYPE_CHECKING

from pancli.model.results import exact_product
from pancli.values import Value

if TYPE_CHECKING:
    from pancli.model.results import ClaimCheck, Violation
    from pancli.rulebook import Rule


def player_key(name: str) -> str:
    """The name players are matched by across hands and files: its NFC form.

    >>> player_key("Zoe\\u0308") == player_key("Zo\\u00eb") == "Zo\\u00eb"
    True
    """
    if name.isascii():
        return name
    import unicodedata  # start-up: only a name past ASCII needs it

    return unicodedata.normalize("NFC", name)


def exact_sum(a: Decimal, b: Decimal) -> Decimal:
    """``a + b`` with every digit kept.

    >>> exact_sum(Decimal("1e30"), Decimal("0.01"))
    Decimal('1000000000000000000000000000000.01')
    """
    with localcontext() as ctx:
        ctx.prec = max(_digits(a), _digits(b)) + 2
        return a + b


def _digits(d: Decimal) -> int:
    t = d.as_tuple()
    exp = t.exponent if isinstance(t.exponent, int) else 0
    return len(t.digits) + max(exp, 0) + max(-exp, 0)


class Transfer(Value):
    """``payer`` pays ``payee`` ``amount`` (units, or money when the sitting has a stake)."""

    payer: str
    payee: str
    amount: Decimal

    def __str__(self) -> str:
        return f"{self.payer} pays {self.payee} {self.amount}"


def transfers(balances: Mapping[str, Decimal] | Mapping[str, int]) -> tuple[Transfer, ...]:
    """The payments that settle ``balances`` (player -> net amount, summing to zero): the
    largest creditor is paid by the largest debtor until all are settled (ties: by name).

    >>> [str(t) for t in transfers({"Ana": 9, "Ben": -5, "Cruz": -3, "Dee": -1})]
    ['Ben pays Ana 5', 'Cruz pays Ana 3', 'Dee pays Ana 1']
    >>> [str(t) for t in transfers({"Ana": -6, "Ben": 4, "Cruz": 2})]
    ['Ana pays Ben 4', 'Ana pays Cruz 2']
    >>> transfers({"Ana": 1, "Ben": 0})
    Traceback (most recent call last):
    ...
    ValueError: the balances sum to 1, not zero: nothing can settle them
    """
    total = sum((Decimal(v) for v in balances.values()), Decimal(0))
    if total:
        raise ValueError(f"the balances sum to {total}, not zero: nothing can settle them")
    owed = [(-Decimal(v), p) for p, v in balances.items() if v > 0]
    owing = [(Decimal(v), p) for p, v in balances.items() if v < 0]
    heapq.heapify(owed)
    heapq.heapify(owing)
    out: list[Transfer] = []
    while owed and owing:
        credit, payee = heapq.heappop(owed)
        debt, payer = heapq.heappop(owing)
        amount = min(-credit, -debt)
        out.append(Transfer(payer, payee, amount))
        if -credit > amount:
            heapq.heappush(owed, (exact_sum(credit, amount), payee))
        if -debt > amount:
            heapq.heappush(owing, (exact_sum(debt, amount), payer))
    return tuple(out)


class DisputeKind(enum.Enum):
    """What disputes a hand."""

    VIOLATION = "violation"
    """A rule broken (:attr:`Dispute.violation`)."""
    IRREGULARITY = "irregularity"
    """A violation that follows from an irregularity put right (I1, I2): the irregularity is the cause."""
    CLAIM = "claim"
    """A wrong claim (:attr:`Dispute.claim`)."""
    MALFORMED = "malformed"
    """A notation error: the hand cannot be read."""


class Dispute(Value):
    """Why a hand is disputed: its cause (the first irregularity or violation, by record order),
    else its first wrong claim, or its notation error, and where. A value, no words: the
    exporters word it (``render/text.py``)."""

    file: str
    hand: int
    first_line: int
    last_line: int
    game: str
    kind: DisputeKind
    rule: Rule
    """The rule broken (the cause's), the claim's rule, or the notation error's code (a rule of the registry too)."""
    line: int
    col: int
    player: str | None
    violation: Violation | None = None
    """The violation that stopped the hand (``violation`` and ``irregularity``; the irregularity
    is its :attr:`~pancli.model.results.Violation.cause`)."""
    claim: ClaimCheck | None = None
    """The wrong claim (``claim``)."""
    error: str = ""
    """The notation error's message, as the reader gave it (``malformed``)."""


class StakeFrom(enum.Enum):
    """What sets the stake a hand is priced at (:meth:`Sitting.stake_of`)."""

    RECORD = "record"
    """The hand's own ``Stake`` tag (or none)."""
    OPTION = "stake"
    """The stake given for every hand (``--stake``)."""
    DEFAULT = "default"
    """The stake of the hands that name none (``--default-stake``)."""


class SettledHand(Value):
    """What a sitting needs of one refereed hand: who sat, the net units (or, for PAGRUC, the
    points) each made, the stake of a unit (None: none named) and why it is disputed, if it is."""

    players: Sequence[str]
    net: Mapping[str, int | None]
    stake: Decimal | None = None
    dispute: Dispute | None = None


class PlayerTotal(Value):
    """One player's totals: hands counted, units (or points), money (None without a stake on
    every counted hand) and disputed hands he sat in that were left out."""

    player: str
    hands: int
    units: int
    money: Decimal | None
    disputed: int = 0


class _Running:
    __slots__ = ("disputed", "hands", "money", "units")

    def __init__(self) -> None:
        self.hands = self.units = self.disputed = 0
        self.money = Decimal(0)


class Sitting:
    """Totals over hands added one at a time (see the module docstring).

    ``stake`` overrides every hand's own; ``default_stake`` is the stake of the hands that name
    none (the others keep theirs); ``include_disputed`` counts disputed hands too (what
    each refereed hand's net says: for a hand stopped by a violation, the payments made before it).
    ``zero_sum`` (Panguingue: every payment moves units from one player to another) is checked
    hand by hand; PAGRUC points are not payments, so a PAGRUC sitting has totals but no transfers.
    """

    __slots__ = (
        "_players",
        "counted",
        "default_stake",
        "defaulted",
        "disputed",
        "include_disputed",
        "stake",
        "unstaked",
        "zero_sum",
    )

    def __init__(
        self,
        stake: Decimal | None = None,
        *,
        include_disputed: bool = False,
        zero_sum: bool = True,
        default_stake: Decimal | None = None,
    ) -> None:
        self.stake = stake
        self.default_stake = default_stake
        self.defaulted = 0
        """Counted hands that took ``default_stake`` (they named no stake)."""
        self.include_disputed = include_disputed
        self.zero_sum = zero_sum
        self._players: dict[str, _Running] = {}
        self.disputed = 0
        """Disputed hands (listed by the caller as they come: a sitting keeps no hand)."""
        self.counted = 0
        """Hands counted in the totals."""
        self.unstaked = 0
        """Counted hands with no stake (then the sitting has no money)."""

    def stake_of(self, own: Decimal | None) -> tuple[Decimal | None, StakeFrom]:
        """The stake a counted hand whose record names ``own`` is priced at, and what sets it:
        ``stake`` first, then the hand's own, then ``default_stake`` (C9).

        >>> s = Sitting(default_stake=Decimal("0.25"))
        >>> s.stake_of(None), s.stake_of(Decimal(1))
        ((Decimal('0.25'), <StakeFrom.DEFAULT: 'default'>), (Decimal('1'), <StakeFrom.RECORD: 'record'>))
        """
        if self.stake is not None:
            return self.stake, StakeFrom.OPTION
        if own is None and self.default_stake is not None:
            return self.default_stake, StakeFrom.DEFAULT
        return own, StakeFrom.RECORD

    def takes_default(self, hand: SettledHand) -> bool:
        """Whether ``hand`` is counted at ``default_stake``: counted, no stake of its own, no ``stake``.

        >>> s = Sitting(default_stake=Decimal("0.25"))
        >>> s.takes_default(SettledHand(("Ana", "Ben"), {"Ana": 4, "Ben": -4}))
        True
        >>> s.takes_default(SettledHand((), {}, Decimal(1)))
        False
        >>> s.add(SettledHand(("Ana", "Ben"), {"Ana": 4, "Ben": -4}))
        >>> s.add(SettledHand(("Ana", "Ben"), {"Ana": -2, "Ben": 2}, Decimal(1)))
        >>> [(t.player, str(t.money)) for t in s.totals()], s.defaulted
        ([('Ana', '-1.00'), ('Ben', '1.00')], 1)
        """
        counted = hand.dispute is None or self.include_disputed
        return counted and self.stake_of(hand.stake)[1] is StakeFrom.DEFAULT

    def add(self, hand: SettledHand) -> None:
        """Count one hand (or list it as disputed)."""
        counted = hand.dispute is None or self.include_disputed
        if hand.dispute is not None:
            self.disputed += 1
        if not counted:
            for p in hand.players:
                self._run(p).disputed += 1
            return
        if self.zero_sum:
            total = sum(u or 0 for u in hand.net.values())
            if total:
                raise ValueError(f"a hand's net units sum to {total}, not zero")
        self.counted += 1
        stake, source = self.stake_of(hand.stake)
        if source is StakeFrom.DEFAULT:
            self.defaulted += 1
        if stake is None:
            self.unstaked += 1
        for p in hand.players:
            run = self._run(p)
            run.hands += 1
            if hand.dispute is not None:
                run.disputed += 1
            units = hand.net.get(p) or 0
            if units:
                run.units += units
                if stake is not None:
                    run.money = exact_sum(run.money, exact_product(stake, units))

    def _run(self, player: str) -> _Running:
        key = player_key(player)
        run = self._players.get(key)
        if run is None:
            run = self._players[key] = _Running()
        return run

    @property
    def has_money(self) -> bool:
        """Every counted hand named a stake (or ``stake`` was given), and at least one was counted."""
        return self.counted > 0 and self.unstaked == 0

    def totals(self) -> list[PlayerTotal]:
        """Every player's totals, by name."""
        money = self.has_money
        return [
            PlayerTotal(p, r.hands, r.units, r.money if money else None, r.disputed)
            for p, r in sorted(self._players.items())
        ]

    def units(self) -> dict[str, int]:
        """Each player of a counted hand and his units, in the order first seen (names matched
        as :meth:`totals` matches them).

        >>> s = Sitting()
        >>> s.add(SettledHand(("Zoe\u0308", "Ben"), {"Zoe\u0308": 4, "Ben": -4}))
        >>> s.add(SettledHand(("Ben", "Zo\u00eb"), {"Ben": 1, "Zo\u00eb": -1}))
        >>> s.units() == {"Zo\u00eb": 3, "Ben": -3}
        True
        """
        return {p: r.units for p, r in self._players.items() if r.hands}

    def money(self) -> dict[str, Decimal] | None:
        """Each player of a counted hand and his money, as :meth:`units` gives units (None when
        the sitting has no money: :attr:`has_money`).

        >>> s = Sitting()
        >>> s.add(SettledHand(("Ana", "Ben"), {"Ana": 36, "Ben": -36}, Decimal("0.25")))
        >>> s.add(SettledHand(("Ben", "Ana"), {"Ben": 2, "Ana": -2}, Decimal("1.00")))
        >>> s.money()
        {'Ana': Decimal('7.00'), 'Ben': Decimal('-7.00')}
        """
        if not self.has_money:
            return None
        return {p: r.money for p, r in self._players.items() if r.hands}

    def transfers(self) -> tuple[Transfer, ...]:
        """The settling payments: in money when the sitting has it, else in units; none for PAGRUC."""
        if not self.zero_sum:
            return ()
        if self.has_money:
            return transfers({p: r.money for p, r in self._players.items()})
        return transfers({p: r.units for p, r in self._players.items()})


class HandRuns:
    """Hands named by file and number, kept as runs of consecutive numbers (``1-3, 7``): a
    sitting says which hands took the default stake, or were unfinished, in memory that grows
    with the runs, not the hands.

    >>> r = HandRuns()
    >>> for n in (1, 2, 3, 7):
    ...     r.add("a.pan", n)
    >>> r.add("b.pan", 2)
    >>> r.runs()
    [('a.pan', 1, 3), ('a.pan', 7, 7), ('b.pan', 2, 2)]
    """

    __slots__ = ("_runs", "count")

    def __init__(self) -> None:
        self._runs: list[list[str | int]] = []
        self.count = 0

    def add(self, file: str, hand: int) -> None:
        """One more hand."""
        self.count += 1
        last = self._runs[-1] if self._runs else None
        if last is not None and last[0] == file and last[2] == hand - 1:
            last[2] = hand
        else:
            self._runs.append([file, hand, hand])

    def runs(self) -> list[tuple[str, int, int]]:
        """(file, first hand, last hand) of each run, in the order read."""
        return [(str(f), int(a), int(b)) for f, a, b in self._runs]
