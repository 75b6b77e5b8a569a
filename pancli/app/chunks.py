"""The values a ``replay --jobs`` worker hands back for a chunk of hands
(:func:`pancli.app.replay.replay_files`): the chunk's output and counts, and its edges for S3.
A module of their own, loaded by ``--jobs`` alone: every replay in one process does without
their classes (start-up)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Generic, TypeVar

from pancli.rules import Profile
from pancli.values import Value

if TYPE_CHECKING:
    from pancli.model.actions import HandScript
    from pancli.model.results import HandResult

Taken = TypeVar("Taken")


class FirstHand(Value):
    """What S3 asks of the first hand of a chunk (a Panguingue hand): its players in order, the
    profile it is judged under and its first line (:func:`~pancli.referee.play.next_hand_violation`)."""

    players: tuple[str, ...]
    profile: Profile
    first_line: int

    def script(self) -> HandScript:
        """The hand as S3 sees it: its players, profile and place (what it played is not asked)."""
        from pancli.model.actions import HandScript  # start-up: pan replay --help does without it

        return HandScript(self.players, self.profile, first_line=self.first_line)


class LastHand(Value):
    """What S3 asks of the last hand of a chunk (a Panguingue hand): its players and its winner."""

    players: tuple[str, ...]
    winner: str | None

    def result(self) -> HandResult:
        """The hand as S3 sees it: its players and winner (what was paid is not asked)."""
        from pancli.model.results import HandResult  # start-up: pan replay --help does without it

        return HandResult(self.players, self.winner, (), {})


class JudgedChunk(Value, Generic[Taken]):
    """A judged chunk as a worker hands it back (:mod:`pancli.app.workers`: as a typed value, not
    text): its output's values (the collector's :meth:`~pancli.app.replay.Collector.taken`), its
    standard error, its tally's counts, whether ``--strict`` stopped it, and its edges for S3:
    its first hand (None unless Panguingue) and its last."""

    out: Taken
    err: str
    counts: tuple[int, ...]
    stopped: bool
    first: FirstHand | None
    last: LastHand | None
