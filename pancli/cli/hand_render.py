"""One renderer interface for a refereed hand of either game, chosen by the hand's game.

Every output of a refereed hand (``pan replay``'s plain text, JSON, JSON lines and terminal
timeline; ``pan settle``'s disputes; the ``--html`` page's claims) asks :func:`view` for the
:class:`HandView` of a result and calls the same methods whatever the game:
:class:`PanView` renders a Panguingue :class:`~pancli.model.results.HandResult` with
:mod:`pancli.cli.replay_render`, :class:`PagrucView` a
:class:`~pancli.pagruc.referee.PagrucHandResult` with :mod:`pancli.cli.pagruc_render`
(imported on the first PAGRUC hand only).

>>> from pancli.model.results import ClaimCheck, ClaimKind, HandResult
>>> v = view(HandResult(("Ana", "Ben"), "Ana", (), {"Ana": 2, "Ben": -2}))
>>> from pancli.rulebook import Rule
>>> c = ClaimCheck(Rule.C7, ClaimKind.PAYS, 7, "Ana", 3, 2)
>>> type(v).__name__, v.claim_message(c)
('PanView', 'Ana claims [%pays 3] but each opponent paid 2')
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from pancli.cards import Game
from pancli.cli.replay_render import claim_message

if TYPE_CHECKING:
    from rich.console import Console

    from pancli.app.replay import Judgement
    from pancli.model.actions import HandScript
    from pancli.model.results import ClaimCheck, HandResult
    from pancli.notation.layout import RecordHand
    from pancli.pagruc.referee import PagrucHandResult

JsonObject = dict[str, object]
"""One JSON object as the outputs write it."""


class HandView(Protocol):
    """How every output shows one refereed hand (``hand`` and ``script`` as the sink got them)."""

    def plain(self, hand: RecordHand, script: HandScript) -> str:
        """The hand as plain text (pipes), ending with a newline."""

    def json(self, hand: RecordHand, script: HandScript) -> JsonObject:
        """The hand's object of ``pan replay --json`` (docs/commands.md)."""

    def violation_events(self, hand: RecordHand) -> list[JsonObject]:
        """The ``violation`` objects ``--jsonl`` writes before the hand's object."""

    def rich(self, console: Console, hand: RecordHand, script: HandScript) -> None:
        """The hand drawn on a terminal."""

    def claim_message(self, c: ClaimCheck) -> str:
        """What is wrong with a claim, in words (the rule it breaks is ``c.rule``)."""


class PanView:
    """A Panguingue hand (:mod:`pancli.cli.replay_render`)."""

    __slots__ = ("result",)

    def __init__(self, result: HandResult) -> None:
        self.result = result

    def plain(self, hand: RecordHand, script: HandScript) -> str:
        from pancli.cli.replay_render import plain_text

        return plain_text(self.result, hand, script)

    def json(self, hand: RecordHand, script: HandScript) -> JsonObject:
        from pancli.cli.replay_render import hand_json

        return hand_json(self.result, hand, script)

    def violation_events(self, hand: RecordHand) -> list[JsonObject]:
        from pancli.cli.replay_render import violation_json

        n, file = hand.index, hand.file
        return [{"event": "violation", "hand": n, **violation_json(v, file)} for v in self.result.violations]

    def rich(self, console: Console, hand: RecordHand, script: HandScript) -> None:
        from pancli.cli.replay_render import render_rich

        render_rich(console, self.result, hand, script)

    def claim_message(self, c: ClaimCheck) -> str:
        return claim_message(c)


class PagrucView:
    """A PAGRUC hand (:mod:`pancli.cli.pagruc_render`): its claims are of points (G7)."""

    __slots__ = ("result",)

    def __init__(self, result: PagrucHandResult) -> None:
        self.result = result

    def plain(self, hand: RecordHand, script: HandScript) -> str:
        from pancli.cli.pagruc_render import plain_lines

        return "\n".join(plain_lines(self.result, hand.index, hand.source)) + "\n"

    def json(self, hand: RecordHand, script: HandScript) -> JsonObject:
        from pancli.cli.pagruc_render import to_json

        obj: JsonObject = to_json(self.result, hand.index, hand.last_line)
        obj["file"] = hand.file
        return obj

    def violation_events(self, hand: RecordHand) -> list[JsonObject]:
        return []  # a PAGRUC hand's violations are in its hand object only

    def rich(self, console: Console, hand: RecordHand, script: HandScript) -> None:
        from pancli.cli.pagruc_render import render_text

        render_text(self.result, console, hand.index, hand.source)

    def claim_message(self, c: ClaimCheck) -> str:
        return claim_message(c, pagruc=True)


def view(result: Judgement) -> HandView:
    """The view of a refereed hand, chosen by its game."""
    if result.game is Game.PAGRUC:
        return PagrucView(result)
    return PanView(result)
