"""One refereed hand as every output sees it: the :class:`HandReport` the application builds
once per hand (what was read, played, paid, ruled, remedied, claimed), with the decisions the
outputs share made here, once: whether the hand is disputed and why (:attr:`HandReport.dispute`,
a value: the cause, no words), whether its lines go to standard error.

Every exporter of :mod:`pancli.render` (plain, terminal, JSON, JSON lines, HTML) and
``pan settle``'s sitting read these reports; none decides again. The words are render's
(``render/text.py``: :func:`~pancli.render.text.claim_text`, :func:`~pancli.render.text.dispute_text`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeAlias

from pancli.cards import Game
from pancli.rulebook import Rule

if TYPE_CHECKING:
    from pancli.model.actions import HandScript
    from pancli.model.results import HandResult
    from pancli.model.settle import Dispute
    from pancli.notation.layout import RecordHand
    from pancli.pagruc.referee import PagrucHandResult

    RefereedHand: TypeAlias = HandResult | PagrucHandResult
    """A refereed hand of either game: a :class:`~pancli.model.results.JudgedHand` whose
    ``game`` (``Game.PANGUINGUE`` or ``Game.PAGRUC``) narrows it to its result type."""


class HandReport:
    """A hand read and refereed: ``hand`` (its text, place and layout), ``script`` (what was
    played, under the profile it was judged by) and ``result`` (either game's judgement,
    told apart by :attr:`game`). The dispute is decided on first use (a plain replay never asks)."""

    __slots__ = ("_decided", "_dispute", "hand", "result", "script")

    def __init__(self, hand: RecordHand, script: HandScript, result: RefereedHand) -> None:
        self.hand = hand
        self.script = script
        self.result = result
        self._decided = False
        self._dispute: Dispute | None = None

    @property
    def game(self) -> Game:
        """The hand's game (``result`` is a ``PagrucHandResult`` for PAGRUC, else a ``HandResult``)."""
        return self.result.game

    @property
    def pagruc(self) -> bool:
        return self.result.game is Game.PAGRUC

    @property
    def remedied(self) -> bool:
        """A Panguingue hand with an irregularity put right (I1, I2): its lines go to standard error."""
        return bool(getattr(self.result, "remedies", None))

    @property
    def dispute(self) -> Dispute | None:
        """Why the hand is disputed, or None: the cause of its violation (the irregularity put
        right it follows from, :attr:`Violation.cause`, else the violation); else its first
        wrong claim."""
        if not self._decided:
            self._dispute, self._decided = _dispute_of(self), True
        return self._dispute


def _dispute_of(report: HandReport) -> Dispute | None:
    from pancli.model.settle import Dispute, DisputeKind  # start-up: pan replay does without it

    hand, result = report.hand, report.result
    game = result.game.value
    if result.violations:
        v = result.violations[0]
        cause = v.cause or v  # the irregularity put right it follows from, as the referee found it
        kind = DisputeKind.VIOLATION if cause is v else DisputeKind.IRREGULARITY
        return Dispute(
            hand.file, hand.index, hand.first_line, hand.last_line, game, kind,
            cause.rule, cause.line, cause.col, cause.player, violation=v,
        )  # fmt: skip
    for c in result.claims:
        if not c.ok:
            return Dispute(
                hand.file, hand.index, hand.first_line, hand.last_line, game, DisputeKind.CLAIM,
                c.rule, c.line, c.col, c.player, claim=c,
            )  # fmt: skip
    return None


def malformed_dispute(hand: RecordHand) -> Dispute:
    """A hand that cannot be read, as a disputed hand: its notation error."""
    from pancli.model.settle import Dispute, DisputeKind  # start-up: pan replay does without it

    e = hand.error
    assert e is not None
    return Dispute(
        hand.file, hand.index, hand.first_line, hand.last_line, "unknown", DisputeKind.MALFORMED,
        Rule(e.code), e.line, e.col, None, error=e.message,
    )  # fmt: skip
