"""The ledger: every payment as it happens (C6-C9, T2) and each seated player's net units.

Every payment moves units from a payer to a payee, so the net always sums to zero.

>>> from pancli.rulebook import Rule
>>> led = Ledger(("Ana", "Ben", "Cruz"))
>>> _ = led.pay("Ben", "Ana", 4, (Rule.C2,), 12)
>>> _ = led.pay("Cruz", "Ana", 4, (Rule.C2,), 12)
>>> led.net
{'Ana': 8, 'Ben': -4, 'Cruz': -4}
>>> led.check()
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pancli.cards import Card, Cards
from pancli.model.results import Payment

if TYPE_CHECKING:
    from pancli.rulebook import Rule


class Ledger:
    """Payments in order and the net units per seated player."""

    __slots__ = ("net", "payments")

    def __init__(self, players: tuple[str, ...]) -> None:
        self.net: dict[str, int] = dict.fromkeys(players, 0)
        self.payments: list[Payment] = []

    def pay(
        self,
        payer: str,
        payee: str,
        units: int,
        rules: tuple[Rule, ...],
        line: int,
        meld: tuple[Card, ...] | None = None,
        note: str = "",
        returned_of: int | None = None,
    ) -> Payment:
        """Record one payment and move the units (payer down, payee up); ``returned_of``: the
        line of the collection it returns (I1, I2)."""
        p = Payment(payer, payee, units, rules, line, None if meld is None else Cards(meld), note, returned_of)
        self.payments.append(p)
        net = self.net
        net[payer] = net.get(payer, 0) - units
        net[payee] = net.get(payee, 0) + units
        return p

    def collect(self, payee: str, units: int, payments: list[Payment]) -> None:
        """Record payments of ``units`` each to ``payee``, one per payer (as :meth:`pay` does one)."""
        self.payments += payments
        net = self.net
        for p in payments:
            net[p.payer] = net.get(p.payer, 0) - units
        net[payee] = net.get(payee, 0) + units * len(payments)

    def check(self) -> None:
        """Assert the ledger's invariant: the net units sum to zero (C9)."""
        total = sum(self.net.values())
        assert total == 0, f"ledger sums to {total}, not zero"
