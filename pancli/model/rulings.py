"""Rulings: what the rulebook prescribes when a rule is broken (the rule registry, pancli.rulebook).

A referee check that fails raises :class:`Ruling`, which carries the
:class:`~pancli.model.results.Violation` (rule id, player, turn, place, message and
the prescribed ruling). :func:`~pancli.rulebook.prescribed` gives the rulebook's remedy for each rule.

>>> r = Ruling.make(Rule.P3, "Ana", "Ana takes Qd, a dead discard", line=7, col=10, turn=3)
>>> str(r.violation.rule), r.violation.line, r.violation.turn
('P3', 7, 3)
>>> r.violation.ruling.startswith("P3: a card discarded from a hand is dead")
True
"""

from __future__ import annotations

from pancli.model.results import Violation
from pancli.rulebook import I1_AT_DEAL, I1_LATE, I2_FOUL, Rule, prescribed
from pancli.rules import counted

__all__ = ["I1_AT_DEAL", "I1_LATE", "I2_FOUL", "Ruling", "counted"]


class Ruling(Exception):
    """A rule broken: raised by a verify step, caught by the referee loop."""

    def __init__(self, violation: Violation) -> None:
        super().__init__(f"{violation.rule} {violation.message}")
        self.violation = violation

    @classmethod
    def make(
        cls,
        rule: Rule,
        player: str | None,
        message: str,
        *,
        line: int = 0,
        col: int = 0,
        turn: int = 0,
        ruling: str | None = None,
        cause: Violation | None = None,
    ) -> Ruling:
        """A ruling citing ``rule``; ``ruling`` defaults to the rulebook's prescription; ``cause``:
        the irregularity put right it follows from (:attr:`Violation.cause`).

        A ruling on a whole line (a tag, say) with no column is placed at its column 1.
        """
        text = prescribed(rule) if ruling is None else ruling
        return cls(Violation(rule, line, col or (1 if line else 0), player, message, text, turn, cause))
