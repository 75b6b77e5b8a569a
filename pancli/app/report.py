"""One refereed hand as every output sees it: the :class:`HandReport` the application builds
once per hand (what was read, played, paid, ruled, remedied, claimed), with the decisions the
outputs share made here, once: whether the hand is disputed and why (:attr:`HandReport.dispute`,
a value: the cause, no words), whether its lines go to standard error.

Every exporter of :mod:`pancli.render` (plain, terminal, JSON, JSON lines, HTML) and
``pan settle``'s sitting read these reports; none decides again. The words are render's
(``render/text.py``: :func:`~pancli.render.text.claim_text`, :func:`~pancli.render.text.dispute_text`).
"""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING, TypeAlias

from pancli.cards import Game
from pancli.rulebook import Rule

if TYPE_CHECKING:
    from pancli.model.actions import HandScript
    from pancli.model.results import HandResult, JudgedHand
    from pancli.model.settle import Dispute
    from pancli.notation.layout import RecordHand
    from pancli.pagruc.referee import PagrucHandResult

    RefereedHand: TypeAlias = HandResult | PagrucHandResult
    """A refereed hand of either game: a :class:`~pancli.model.results.JudgedHand` whose
    ``game`` (``Game.PANGUINGUE`` or ``Game.PAGRUC``) narrows it to its result type."""


class Heading(enum.Enum):
    """The one heading a judged hand is counted under (``pan replay``'s summary, ``pan settle``'s
    unfinished hands): the first of these that holds (docs/commands.md)."""

    VIOLATION = "violation"
    CLAIM = "claim"
    """A wrong claim (``[%pays]``, ``[Ledger]``)."""
    REMEDIED = "remedied"
    """An irregularity put right (I1, I2)."""
    UNFINISHED = "unfinished"
    """The record stops before the hand's end: its payments so far count."""
    CLEAN = "clean"


def heading(result: JudgedHand) -> Heading:
    """The :class:`Heading` ``result`` is counted under: a violation first, then a wrong claim, an
    irregularity put right, unfinished, clean. An unfinished hand with a wrong claim is disputed
    (left out of a sitting), not merely unfinished.

    >>> from pancli.model.results import HandResult
    >>> heading(HandResult(("Ana", "Ben"), None, (), {"Ana": 0, "Ben": 0})).value
    'unfinished'
    """
    if result.violations:
        return Heading.VIOLATION
    if not all(c.ok for c in result.claims):
        return Heading.CLAIM
    if getattr(result, "remedies", ()):
        return Heading.REMEDIED
    return Heading.CLEAN if result.finished else Heading.UNFINISHED


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
    def heading(self) -> Heading:
        """The one heading the hand is counted under (:func:`heading`)."""
        return heading(self.result)

    @property
    def cut_off(self) -> bool:
        """Counted with the payments made so far though the record stops before the hand's end:
        not finished and not disputed (its :attr:`heading` unfinished, or remedied: a hand with an
        irregularity put right is settled as played). ``pan settle`` lists these as unfinished."""
        return not self.result.finished and self.heading in (Heading.UNFINISHED, Heading.REMEDIED)

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
