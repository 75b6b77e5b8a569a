"""Replaying many records: every hand of every file in order, judged by its game's referee,
S3 checked between consecutive hands of one record, the outcome of each hand counted.

``jobs`` > 1 judges chunks of :data:`CHUNK_HANDS` hands in worker processes; S3 across a cut
between chunks is checked here, and a chunk is judged again (with the hand before it known)
when it matters, so the output is the same as one process's, in the same order.

What is done with each hand is the :class:`HandSink`'s business (the exporters of
:mod:`pancli.render` write it as text, JSON, JSON lines, a timeline or a page). Both games
come to a sink the same way, as a :class:`~pancli.app.report.HandReport` (one hook,
:meth:`HandSink.hand`) whose result is a :class:`~pancli.model.results.JudgedHand`, its
type told by ``result.game``.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Generator, Sequence
from typing import IO, TYPE_CHECKING, Any, Protocol, cast

from msgspec.structs import replace

from pancli.app.report import HandReport, Heading, heading
from pancli.cards import Game
from pancli.rulebook import Rule
from pancli.rules import Profile

if TYPE_CHECKING:
    from pancli.app.chunks import JudgedChunk
    from pancli.app.report import RefereedHand as RefereedHand
    from pancli.app.workers import FewerWorkers
    from pancli.model.actions import HandScript
    from pancli.model.results import HandResult, JudgedHand, Remedy
    from pancli.notation.layout import RecordHand
    from pancli.notation.record_common import LineMemos
    from pancli.pagruc.referee import PagrucHandResult
    from pancli.pagruc.rules import PagrucRules
    from pancli.panrules import PanRulesByProfile
    from pancli.refusals import TableProblem, Unseated

    # (for the type checker only: a Protocol's class costs start-up; a sink is asked whether it
    # takes chunks by :func:`_chunk_sink`)
    class Referee(Protocol):
        """A game's referee: :func:`pancli.referee.referee_script` (Panguingue) and
        :func:`pancli.pagruc.referee.referee_script` (PAGRUC) are both one; :func:`referee`
        chooses by the script's game."""

        def __call__(self, script: HandScript, *, strict: bool = ..., record_steps: bool = ...) -> RefereedHand: ...

    class HandSink(Protocol):
        """Where the judged hands go, in record order."""

        wants_steps: bool
        """True when the sink shows every applied action (the referee then records steps)."""

        def hand(self, report: HandReport) -> None:
            """A refereed hand of either game (``report.game`` says which): its text, its script
            (for Panguingue, under the profile it was judged by) and its result."""

        def malformed(self, hand: RecordHand) -> None:
            """A hand that could not be read (``hand.error``)."""

        def close(self, tally: Tally, stopped: bool) -> None:
            """The end: every hand counted; ``stopped`` by ``--strict``."""

    class Collector(HandSink, Protocol):
        """What a worker process fills with a chunk of hands, for a :class:`ChunkSink`."""

        @staticmethod
        def out_type() -> Any:
            """The type of the values :meth:`taken` gives, as msgspec decodes it (frozen Structs,
            tuples, text, tagged unions of Structs): the main process decodes a worker's chunk as
            it (:class:`JudgedChunk`)."""

        def taken(self) -> tuple[Any, str]:
            """What the hands made, for the main process to write: the output's values (of
            :meth:`out_type`: the text of plain output, the objects of ``--json`` and ``--jsonl``,
            the reviews) and the standard-error text."""

    class ChunkSink(HandSink, Protocol):
        """A sink whose hands worker processes can judge a chunk at a time."""

        def collector(self) -> type[Collector]:
            """The kind of sink a worker fills for this one (built with no arguments)."""

        def chunk(self, out: Any, err: str) -> None:
            """Write the output of one chunk (in order): what its collector took."""


OpenRecord = Callable[[str], IO[str]]
"""Opens a record file by name (``-``: standard input) as text."""


def referee(script: HandScript, *, strict: bool = True, record_steps: bool = True, remedy: bool = True) -> RefereedHand:
    """Referee one hand by its game's referee (``script.game``); ``remedy``: a Panguingue
    irregularity (I1, I2) is put right and the hand goes on, else it stops the hand.

    >>> from pancli.app.replay import referee
    >>> from pancli.records import read_hands
    >>> import io
    >>> hand = next(read_hands(io.StringIO('[Players "Ana Ben"]\\n\\nAna stay\\nBen stay\\n'), "-", None))
    >>> result = referee(hand.script)
    >>> result.game.value, result.ok
    ('panguingue', True)
    """
    if script.game is Game.PAGRUC:
        # start-up: pan replay does without these
        from pancli.pagruc.referee import referee_script as pagruc_referee

        return pagruc_referee(script, strict=strict, record_steps=record_steps)
    # start-up: a PAGRUC replay does without the Panguingue referee
    from pancli.referee import referee_script as pan_referee

    return pan_referee(script, strict=strict, record_steps=record_steps, remedy=remedy)


class Tally:
    """How many hands were read, each counted once by what it came to: clean, with a violation,
    with a wrong claim, malformed, unfinished, or with an irregularity put right (the counts add
    up to ``hands``; a hand that is two of these counts under the first in that order, after
    malformed: violation, wrong claim, put right, unfinished, clean). ``put_right_I1`` and
    ``put_right_I2`` count the hands put right under each irregularity rule, so the summary
    names those that happened."""

    __slots__ = (
        "claims",
        "clean",
        "hands",
        "malformed",
        "put_right_I1",
        "put_right_I2",
        "remedied",
        "unfinished",
        "violations",
    )

    FIELDS = (
        "hands", "clean", "violations", "claims", "malformed", "unfinished", "remedied", "put_right_I1", "put_right_I2"
    )  # fmt: skip

    def __init__(self) -> None:
        self.hands = self.clean = self.violations = self.claims = self.malformed = self.unfinished = 0
        self.remedied = self.put_right_I1 = self.put_right_I2 = 0

    def counts(self) -> tuple[int, ...]:
        """The counts, in the order of :attr:`FIELDS`."""
        return tuple(getattr(self, f) for f in self.FIELDS)

    def add(self, counts: Sequence[int]) -> None:
        """Add the counts of another tally (:meth:`counts`)."""
        for f, n in zip(self.FIELDS, counts, strict=True):
            setattr(self, f, getattr(self, f) + n)

    def count(self, result: JudgedHand) -> bool:
        """Count a judged hand under one heading; True when it is neither clean nor merely
        unfinished (a violation, a wrong claim, or an irregularity put right).

        >>> from pancli.app.replay import referee
        >>> from pancli.records import read_hands
        >>> import io
        >>> t = Tally()
        >>> hand = next(read_hands(io.StringIO('[Players "Ana Ben"]\\n\\nAna stay\\nBen stay\\n'), "-", None))
        >>> t.hands += 1
        >>> t.count(referee(hand.script)), t.legal, t.unfinished
        (False, True, 1)
        """
        kind = heading(result)
        if kind is Heading.VIOLATION:
            self.violations += 1
        elif kind is Heading.CLAIM:
            self.claims += 1
        elif kind is Heading.REMEDIED:
            self.remedied += 1  # settled, but not clean
            remedies: tuple[Remedy, ...] = getattr(result, "remedies", ())
            rules = {r.violation.rule for r in remedies}
            self.put_right_I1 += Rule.I1 in rules
            self.put_right_I2 += Rule.I2 in rules
        elif kind is Heading.UNFINISHED:
            self.unfinished += 1  # a record cut off before the hand's end: its payments count
            return False
        else:
            self.clean += 1
            return False
        return True

    @property
    def legal(self) -> bool:
        """Every hand read is clean or merely unfinished: nothing illegal, malformed, wrongly
        claimed or put right (exit status 0)."""
        return self.clean + self.unfinished == self.hands


class RecordJudge:
    """Judges one hand after another into a sink, counting them: the hand's game chooses the
    referee; ``profile`` (``--rules``) replaces every Panguingue hand's; S3 links each
    Panguingue hand to the one before it in the same record."""

    __slots__ = (
        "first",
        "next_hand",
        "pagruc",
        "pagruc_copies",
        "pagruc_rules",
        "previous",
        "profile",
        "referee",
        "remedy",
        "rules_by_profile",
        "sink",
        "started",
        "steps",
        "stop",
    )

    def __init__(
        self,
        sink: HandSink,
        profile: Profile | None,
        *,
        remedy: bool = True,
        rules_by_profile: PanRulesByProfile | None = None,
        pagruc_rules: PagrucRules | None = None,
    ) -> None:
        self.sink = sink
        self.profile = profile
        self.remedy = remedy
        """Put irregularities right (I1, I2) and go on; False (``--strict``): they stop the hand."""
        self.steps = sink.wants_steps
        self.pagruc: Callable[..., PagrucHandResult] | None = None
        """The referee of each game, imported with the game's first hand (a PAGRUC record does not
        import the Panguingue referee, a cost at start-up, nor the reverse)."""
        self.pagruc_rules = pagruc_rules
        """PAGRUC's rules object, asked by every PAGRUC hand judged here (the caller's, shared with
        its other questions, or made with the first PAGRUC hand)."""
        self.pagruc_copies: tuple[int, ...] | None = None
        """What :meth:`pack_of` answers for a PAGRUC hand, asked of ``pagruc_rules`` once."""
        self.referee: Callable[..., HandResult] | None = None
        self.rules_by_profile = rules_by_profile
        """The rules object of each profile met, shared by the hands judged here (the caller's,
        shared with its other judges, or made with the first Panguingue hand)."""
        self.previous: HandResult | None = None
        """The last Panguingue hand judged in this record, for S3 (None: no constraint)."""
        self.started = False
        self.first: HandScript | None = None
        """The script of the first hand judged, when it is a Panguingue hand."""

    def hand(self, hand: RecordHand, tally: Tally) -> bool:
        """Judge one hand, give it to the sink and count it; True when it is not clean."""
        sink = self.sink
        tally.hands += 1
        script = hand.script
        if not self.started:
            self.started = True
            self.first = script if script is not None and script.game is Game.PANGUINGUE else None
        previous, self.previous = self.previous, None
        if script is None:
            tally.malformed += 1
            sink.malformed(hand)
            return True
        if script.game is Game.PAGRUC:
            if self.pagruc is None:
                # start-up: pan replay does without these
                from pancli.pagruc.referee import referee_script

                self.pagruc = referee_script
            result_p = self.pagruc(script, record_steps=self.steps, rules=self._pagruc_rules())
            sink.hand(HandReport(hand, script, result_p))
            return tally.count(result_p)
        if self.referee is None:
            # start-up: a night of PAGRUC alone does without the Panguingue referee
            from pancli.referee import referee_script as pan_referee

            self.referee = pan_referee
        if self.profile is not None:
            script = replace(script, profile=self.profile)
        rules = self._pan_rules().of(script.profile)
        result = self.referee(script, record_steps=self.steps, remedy=self.remedy, rules=rules, after=previous)
        self.previous = result
        sink.hand(HandReport(hand, script, result))
        return tally.count(result)

    def seating(self, script: HandScript) -> tuple[Rule, Unseated | TableProblem] | None:
        """Why the players of ``script`` cannot be seated, as the rules object that judges its game
        answers (S1: ``PanRules.seating`` of its profile; PAGRUC's G1: ``seating_problem``), with
        that rule; or None. ``pan live`` asks it of a new record's ``--players``."""
        if script.game is Game.PAGRUC:
            problem = self._pagruc_rules().seating_problem(script.players, script.packs)
            return None if problem is None else (Rule.G1, problem)
        profile = script.profile if self.profile is None else self.profile
        unseated = self._pan_rules().of(profile).seating(len(script.players))
        return None if unseated is None else (Rule.S1, unseated)

    def pack_of(self, game: Game, profile: Profile) -> tuple[int, ...]:
        """The copies of each card the pack of a hand of ``game`` and ``profile`` holds, as the
        rules object that judges it here answers them (E1: ``PanRules.copies`` of the profile it is
        judged under; PAGRUC's pack of no table named, G1): the cards its reader reads
        (:data:`pancli.records.reader.PackOf`)."""
        if game is Game.PAGRUC:
            if self.pagruc_copies is None:
                self.pagruc_copies = self._pagruc_rules().copies_without_table()
            return self.pagruc_copies
        return self._pan_rules().of(profile if self.profile is None else self.profile).copies

    def _pan_rules(self) -> PanRulesByProfile:
        got = self.rules_by_profile
        if got is None:
            from pancli.panrules import PanRulesByProfile  # start-up: made with the first Panguingue hand

            got = self.rules_by_profile = PanRulesByProfile()
        return got

    def _pagruc_rules(self) -> PagrucRules:
        got = self.pagruc_rules
        if got is None:
            from pancli.pagruc.rules import PagrucRules  # start-up: made with the first PAGRUC hand

            got = self.pagruc_rules = PagrucRules()
        return got


def replay_files(
    names: Sequence[str],
    sink: HandSink,
    *,
    open_record: OpenRecord,
    strict: bool,
    profile: Profile | None,
    jobs: int = 1,
    note: Callable[[FewerWorkers], None] | None = None,
    chunk_hands: int = 0,
    rules_by_profile: PanRulesByProfile | None = None,
) -> Tally:
    """Judge every hand of every file into ``sink`` (closed at the end) and count them.
    ``rules_by_profile``: the run's rules objects, when the caller shares them (made with the
    first Panguingue hand without).

    ``strict``: every irregularity (I1, I2) is a violation that stops its hand, and the run
    stops after the first hand that is not clean. ``jobs`` > 1 judges chunks of
    hands in that many forked worker processes, where processes can be forked and the sink
    is a :class:`ChunkSink`: the sink gets the same output, in the same order. A chunk holds
    ``chunk_hands`` hands (0: :data:`CHUNK_HANDS`; fewer for a sink whose every hand is long work).
    ``note`` is told when fewer workers than ``jobs`` could be made (a
    :class:`~pancli.app.workers.FewerWorkers`: the caller says it, nothing here writes to a
    terminal); ``jobs`` > 1 needs it.
    """
    # start-up: pan replay --help does without these
    from pancli.notation.record_common import LineMemos
    from pancli.records import read_hands
    from pancli.records.tags import record_folder

    chunks = _chunk_sink(sink) if jobs > 1 and hasattr(os, "fork") else None
    if chunks is not None:
        if note is None:
            raise TypeError("replay_files: jobs > 1 needs note (who says that fewer workers could be made)")
        size = chunk_hands or CHUNK_HANDS
        return _replay_parallel(
            names, chunks, open_record=open_record, strict=strict, profile=profile, jobs=jobs, note=note,
            chunk_hands=size, rules_by_profile=rules_by_profile,
        )  # fmt: skip
    tally = Tally()
    stopped = False
    judge = RecordJudge(sink, profile, remedy=not strict, rules_by_profile=rules_by_profile)
    memos = LineMemos()  # the lines every file's reader remembers
    for name in names:
        base_dir = record_folder(name)
        judge.previous = None  # S3 links the hands of one record
        with open_record(name) as stream:
            for hand in read_hands(stream, name, base_dir, memos, judge.pack_of):
                if judge.hand(hand, tally) and strict:
                    stopped = True
                    break
        if stopped:
            break
    sink.close(tally, stopped)
    return tally


# --------------------------------------------------------------------------- --jobs N


def _chunk_sink(sink: HandSink) -> ChunkSink | None:
    """``sink`` when worker processes can judge its hands a chunk at a time (it has a
    ``collector`` and takes a ``chunk``: a :class:`ChunkSink`), else None."""
    return cast("ChunkSink", sink) if hasattr(sink, "collector") and hasattr(sink, "chunk") else None


CHUNK_HANDS = 200
"""Hands per task of a worker process."""

_Task = tuple[Any, str, str | None]
"""A chunk of hands (as :func:`pancli.records.reader.split_hands` cuts it), its file and folder."""


def _judge_chunk(
    kind: type[Collector],
    strict: bool,
    profile: Profile | None,
    task: _Task,
    previous: HandResult | None,
    kept: tuple[LineMemos, PanRulesByProfile],
) -> JudgedChunk[Any]:
    """Judge one chunk; ``kept``: the remembered lines and rules objects of the process's chunks."""
    # start-up: pan replay --help does without them, and a replay in one process
    from pancli.app.chunks import FirstHand, JudgedChunk, LastHand
    from pancli.records.reader import read_chunk

    chunk, name, base_dir = task
    memos, rules_by_profile = kept
    sink = kind()
    tally = Tally()
    judge = RecordJudge(sink, profile, remedy=not strict, rules_by_profile=rules_by_profile)
    judge.previous = previous
    stopped = False
    for hand in read_chunk(chunk, name, base_dir, memos, judge.pack_of):
        if judge.hand(hand, tally) and strict:
            stopped = True
            break
    out, err = sink.taken()
    first, end = judge.first, judge.previous
    return JudgedChunk(
        out, err, tally.counts(), stopped,
        None if first is None else FirstHand(first.players, first.profile, first.first_line),
        None if end is None else LastHand(end.players, end.winner),
    )  # fmt: skip


def _replay_parallel(
    names: Sequence[str],
    sink: ChunkSink,
    *,
    open_record: OpenRecord,
    strict: bool,
    profile: Profile | None,
    jobs: int,
    note: Callable[[FewerWorkers], None],
    chunk_hands: int = CHUNK_HANDS,
    rules_by_profile: PanRulesByProfile | None = None,
) -> Tally:
    """:func:`replay_files` with the hands judged by ``jobs`` forked workers, a chunk of
    ``chunk_hands`` hands at a time (one chunk each in flight: constant memory). Whatever
    process dies when, the run ends with the output of a run with no worker
    (:mod:`pancli.app.workers`); ``note`` is told when fewer workers could be made."""
    # start-up: pan replay does without these
    from pancli.app.chunks import JudgedChunk, LastHand
    from pancli.app.workers import Workers
    from pancli.notation.record_common import LineMemos
    from pancli.panrules import PanRulesByProfile
    from pancli.records.reader import split_hands
    from pancli.records.tags import record_folder
    from pancli.referee.play import next_hand_violation

    kind = sink.collector()
    tally = Tally()
    stopped = False
    last: LastHand | None = None
    last_file: str | None = None

    def tasks() -> Generator[_Task, None, None]:
        for name in names:
            base_dir = record_folder(name)
            with open_record(name) as stream:
                for chunk in split_hands(stream, chunk_hands):
                    yield (chunk, name, base_dir)

    def judged(task: _Task) -> JudgedChunk[Any]:
        """Judge one chunk of hands, as if the first with no hand before it (the main process checks
        S3 across chunks and judges a chunk again, itself, when it matters). The workers are forked
        with this function, so what it judges with travels with it; a chunk whose worker died is
        judged by this process with it too: the same judgement."""
        return _judge_chunk(kind, strict, profile, task, None, kept)

    kept = (LineMemos(), rules_by_profile or PanRulesByProfile())  # each forked worker fills its own copy
    source = tasks()
    # the type a worker's chunk is decoded as, the collector's values in it (a type made at run time)
    chunk_type: type[JudgedChunk[Any]] = cast(Any, JudgedChunk)[kind.out_type()]
    with Workers(jobs, judged, chunk_type, note=note) as workers, contextlib.closing(source):
        for task, done in workers.results(source, judged):
            if task[1] != last_file:
                last, last_file = None, task[1]
            first = done.first
            if (
                first is not None
                and last is not None
                and next_hand_violation(last.result(), first.script(), kept[1].of(first.profile))
            ):
                # S3 across the cut: judge the chunk again with the hand before it known
                done = _judge_chunk(kind, strict, profile, task, last.result(), kept)
            last = done.last
            tally.add(done.counts)
            sink.chunk(done.out, done.err)
            if done.stopped:
                stopped = True
                break
    sink.close(tally, stopped)
    return tally
