"""``pan replay FILE... | -``: referee hand records (NOTATION.md sections 3-4).

Every hand of every file is read (one at a time: constant memory), refereed strictly (the
first violation stops that hand) and written in one of four forms:

* on a terminal, a timeline (each play line, what it paid and why, the violation in red
  with its place and ruling) and a ledger table (rich);
* in a pipe, plain text: one line per collection, violations, wrong claims, the outcome
  and the ledger (no rich, written in batches);
* ``--json``: one JSON list, one object per hand (NOTATION.md section 4);
* ``--jsonl``: one JSON object per line, one per applied action with the provenance of
  every card moved, then one ``hand`` object with the hand's result.

Violations, wrong claims and malformed hands also go to standard error as
``file:line:col: RULE message`` (except on a terminal, where the timeline shows them).
A malformed hand is reported and skipped; the next hand is read normally.

The profile: a record's ``Rules`` tag decides (``hoyle`` without one); ``--rules`` given
explicitly overrides it for every Panguingue hand. PAGRUC hands (``[Game "pagruc"]``) go
to the PAGRUC referee.

Exit status: 0 every hand legal and every claim right; 1 a violation, a wrong claim or a
malformed hand anywhere; 2 usage error or a file that cannot be read.
"""

from __future__ import annotations

import os
import stat
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Protocol

import click

from pancli.cards import Game
from pancli.cli.common import (
    EXIT_ILLEGAL,
    EXIT_OK,
    IOFailure,
    check_readable,
    complete_paths,
    escape_json,
    json_mode,
    json_option,
    jsonl_option,
    load_profile,
    open_text,
    record_files,
    rules_override_option,
    worker_count,
)
from pancli.cli.progress import Progress, quiet_option
from pancli.rules import Profile

if TYPE_CHECKING:
    from collections.abc import Sequence

    from rich.console import Console

    from pancli.cli.replay_render import StepLines
    from pancli.model.actions import HandScript
    from pancli.model.results import ClaimCheck, HandResult, Step, Violation
    from pancli.notation.layout import RecordHand

BATCH = 256
"""Hands whose text is written to standard output at once (plain, JSON)..."""
FLUSH_EVERY = 0.25
"""...or fewer, when this many seconds have passed since the last write (output keeps coming)."""


class _Judged(Protocol):
    """What every refereed hand has (Panguingue or PAGRUC)."""

    @property
    def violations(self) -> tuple[Violation, ...]: ...

    @property
    def claims(self) -> tuple[ClaimCheck, ...]: ...

    @property
    def ok(self) -> bool: ...

    @property
    def steps(self) -> tuple[Step, ...]: ...


class Tally:
    """How many hands were read, and how many were clean, had a violation, a wrong claim, were malformed."""

    __slots__ = ("claims", "clean", "hands", "malformed", "unsupported", "violations")

    def __init__(self) -> None:
        self.hands = self.clean = self.violations = self.claims = self.malformed = self.unsupported = 0

    def text(self) -> str:
        """One summary line."""
        return (
            f"{self.hands} hand{'s' if self.hands != 1 else ''}: {self.clean} clean, {self.violations} with a "
            f"violation, {self.claims} with a wrong claim, {self.malformed} malformed"
            + (f", {self.unsupported} not supported" if self.unsupported else "")
        )


class Sink:
    """Where results go; the plain form is the base (the fastest, for pipes)."""

    wants_steps = False

    def __init__(self) -> None:
        self.out: list[str] = []
        self.err: list[str] = []
        self.pending = 0
        self.flushed = time.monotonic()

    def flush(self) -> None:
        """Write what is buffered (standard output first, then the error lines)."""
        if self.out:
            sys.stdout.write("".join(self.out))
            self.out = []
        sys.stdout.flush()
        if self.err:
            sys.stderr.write("".join(self.err))
            self.err = []
        self.pending = 0
        self.flushed = time.monotonic()

    def _tick(self) -> None:
        self.pending += 1
        if self.pending >= BATCH or time.monotonic() - self.flushed >= FLUSH_EVERY:
            self.flush()

    def errors(self, file: str, result: _Judged, pagruc: bool = False) -> None:
        """Queue the stderr lines of a hand's violations and wrong claims."""
        from pancli.cli.replay_render import claim_message, claim_rule, violation_line

        err = self.err
        for v in result.violations:
            err.append(violation_line(file, v) + "\n")
        for c in result.claims:
            if not c.ok:
                err.append(f"{file}:{c.line}:{c.col}: {claim_rule(c, pagruc)} {claim_message(c, pagruc)}\n")

    def hand(self, hand: RecordHand, script: HandScript, result: HandResult) -> None:
        from pancli.cli.replay_render import plain_text

        self.out.append(plain_text(result, hand, script))
        if not result.ok:
            self.errors(hand.file, result)
        self._tick()

    def pagruc(self, hand: RecordHand, result: Any, render: Any) -> None:
        self.out.append("\n".join(render.plain_lines(result, hand.index, hand.file)) + "\n")
        if not result.ok:
            self.errors(hand.file, result, pagruc=True)
        self._tick()

    def malformed(self, hand: RecordHand) -> None:
        from pancli.cli.replay_render import malformed_line, plain_malformed

        assert hand.error is not None
        self.out.append(plain_malformed(hand))
        self.err.append(malformed_line(hand.file, hand.error) + "\n")
        self._tick()

    def unsupported(self, hand: RecordHand, why: str) -> None:
        self.out.append(f"{hand.file}, hand {hand.index} (lines {hand.first_line}-{hand.last_line}): {why}\n")
        self.err.append(f"{hand.file}:{hand.first_line}:1: G1 {why}\n")
        self._tick()

    def close(self, tally: Tally, stopped: bool) -> None:
        if stopped:
            self.err.append("pan replay: stopped at the first violation (--strict)\n")
        self.out.append(tally.text() + "\n")
        self.flush()


class JsonSink(Sink):
    """``--json``: one list, one compact object per line (streamed; valid JSON even when stopped)."""

    def __init__(self) -> None:
        super().__init__()
        import json

        encode = json.JSONEncoder(ensure_ascii=False).encode

        def dumps(obj: object) -> str:
            return escape_json(encode(obj))  # no raw C1 or bidirectional control from a record

        self.dumps = dumps
        self.first = True

    def _obj(self, obj: dict[str, Any]) -> None:
        self.out.append(("[\n" if self.first else ",\n") + self.dumps(obj))
        self.first = False
        self._tick()

    def hand(self, hand: RecordHand, script: HandScript, result: HandResult) -> None:
        from pancli.cli.replay_render import hand_json

        if not result.ok:
            self.errors(hand.file, result)
        self._obj(hand_json(result, hand, script))

    def pagruc(self, hand: RecordHand, result: Any, render: Any) -> None:
        if not result.ok:
            self.errors(hand.file, result, pagruc=True)
        obj = render.to_json(result, hand.index, hand.last_line)
        obj["file"] = hand.file
        self._obj(obj)

    def malformed(self, hand: RecordHand) -> None:
        from pancli.cli.replay_render import malformed_json, malformed_line

        assert hand.error is not None
        self.err.append(malformed_line(hand.file, hand.error) + "\n")
        self._obj(malformed_json(hand))

    def unsupported(self, hand: RecordHand, why: str) -> None:
        self.err.append(f"{hand.file}:{hand.first_line}:1: G1 {why}\n")
        self._obj({"hand": hand.index, "file": hand.file, "game": "pagruc", "supported": False, "message": why})

    def close(self, tally: Tally, stopped: bool) -> None:
        if stopped:
            self.err.append("pan replay: stopped at the first violation (--strict)\n")
        self.out.append("[]\n" if self.first else "\n]\n")
        self.flush()


class JsonlSink(JsonSink):
    """``--jsonl``: one object per line: every applied action (with provenance), then the hand."""

    wants_steps = True
    step_lines: StepLines | None = None

    def _line(self, obj: dict[str, Any]) -> None:
        self.out.append(self.dumps(obj) + "\n")

    def _steps(self, steps: Sequence[Step], hand: RecordHand) -> None:
        if self.step_lines is None:
            from pancli.cli.replay_render import StepLines

            self.step_lines = StepLines(self.dumps)
        self.out.extend(self.step_lines.lines(steps, hand.index, hand.file))

    def _obj(self, obj: dict[str, Any]) -> None:
        obj = {"event": "hand", **obj}
        self._line(obj)
        self._tick()

    def _tick(self) -> None:
        self.flush()  # each hand's lines as soon as it is refereed

    def hand(self, hand: RecordHand, script: HandScript, result: HandResult) -> None:
        from pancli.cli.replay_render import violation_json

        self._steps(result.steps, hand)
        for v in result.violations:
            self._line({"event": "violation", "hand": hand.index, **violation_json(v, hand.file)})
        super().hand(hand, script, result)

    def pagruc(self, hand: RecordHand, result: Any, render: Any) -> None:
        self._steps(getattr(result, "steps", ()), hand)
        super().pagruc(hand, result, render)

    def close(self, tally: Tally, stopped: bool) -> None:
        if stopped:
            self.err.append("pan replay: stopped at the first violation (--strict)\n")
        self.flush()


RICH_HANDS = 3
"""Hands a terminal shows as rich timelines; the rest as plain lines, streamed (a rich hand costs
about 50 ms to draw: 300 hands took 19 s on a terminal against 1 s in a pipe)."""


class RichSink(Sink):
    """A terminal: the timeline and the ledger table of each of the first :data:`RICH_HANDS`
    hands (rich), then one plain line per hand, as in a pipe (``--plain`` for all of them)."""

    def __init__(self) -> None:
        super().__init__()
        from pancli.cli.common import stdout_console

        self.console: Console = stdout_console()
        self.drawn = 0

    def _rich(self) -> bool:
        """Whether the next hand is drawn rich (after a few, one line says the rest are plain)."""
        self.drawn += 1
        if self.drawn == RICH_HANDS + 1:
            self.console.print(f"[dim]more than {RICH_HANDS} hands: the rest as plain lines (--plain, --json)[/]")
        return self.drawn <= RICH_HANDS

    def hand(self, hand: RecordHand, script: HandScript, result: HandResult) -> None:
        if not self._rich():
            return super().hand(hand, script, result)
        from pancli.cli.replay_render import render_rich

        render_rich(self.console, result, hand, script)

    def pagruc(self, hand: RecordHand, result: Any, render: Any) -> None:
        if not self._rich():
            return super().pagruc(hand, result, render)
        render.render_text(result, self.console, hand.index, hand.file)

    def malformed(self, hand: RecordHand) -> None:
        if not self._rich():
            return super().malformed(hand)
        from pancli.cli.replay_render import render_rich_malformed

        render_rich_malformed(self.console, hand)

    def unsupported(self, hand: RecordHand, why: str) -> None:
        if not self._rich():
            return super().unsupported(hand, why)
        self.console.print(f"[bold red]NOT SUPPORTED[/] {hand.file}:{hand.first_line}: {why}")

    def close(self, tally: Tally, stopped: bool) -> None:
        self.flush()
        if stopped:
            self.console.print("[bold red]stopped at the first violation (--strict)[/]")
        self.console.print(tally.text())


def _pagruc_tools() -> tuple[Any, Any] | None:
    """The PAGRUC referee and renderer, when present (imported on the first PAGRUC hand)."""
    try:
        from pancli.cli import pagruc_render
        from pancli.pagruc.referee import referee_hand
    except ImportError:  # pragma: no cover - the PAGRUC side is installed in this project
        return None
    return referee_hand, pagruc_render


class _Lazy:
    """The PAGRUC tools, looked up once."""

    __slots__ = ("tools", "tried")

    def __init__(self) -> None:
        self.tried = False
        self.tools: tuple[Any, Any] | None = None

    def get(self) -> tuple[Any, Any] | None:
        if not self.tried:
            self.tried = True
            self.tools = _pagruc_tools()
        return self.tools


def replay_files(
    names: list[str],
    sink: Sink,
    *,
    strict: bool,
    profile: Profile | None,
    jobs: int = 1,
    progress: Progress | None = None,
) -> int:
    """Referee every hand of every file into ``sink``; returns the exit status (0 or 1).

    ``jobs`` > 1 referees chunks of hands in that many worker processes (where processes can
    be forked and ``sink`` is not a terminal): the output is the same, in the same order.
    ``progress`` is told of each hand (and of the bytes read, when it counts bytes)."""
    from pancli.records import read_hands

    if progress is None:
        progress = Progress("replay", None, "hands", enabled=False)
    if jobs > 1 and type(sink) in _COLLECTING and _can_fork():
        return _replay_parallel(names, sink, strict=strict, profile=profile, jobs=jobs, progress=progress)
    tally = Tally()
    stopped = False
    judge = _Judge(sink, tally, profile)
    before = 0
    in_bytes = progress.unit == "bytes"
    for name in names:
        base_dir = None if name == "-" else Path(name).parent
        judge.previous = None  # S3 links the hands of one record
        with open_text(name) as stream:
            where = _position(stream, progress)
            for hand in read_hands(stream, name, base_dir):
                if judge.hand(hand) and strict:
                    stopped = True
                    break
                if in_bytes:
                    progress.set(before + where(), count=1)
                else:
                    progress.advance()
            before += where()
        if stopped:
            break
    progress.close()
    sink.close(tally, stopped)
    return EXIT_OK if tally.clean == tally.hands else EXIT_ILLEGAL


def _position(stream: IO[str], progress: Progress) -> Callable[[], int]:
    """How many bytes of ``stream`` have been read (0 when that cannot be told)."""
    tell = getattr(getattr(stream, "buffer", None), "tell", None)
    if tell is None or not progress.enabled or progress.unit != "bytes":
        return lambda: 0

    def where() -> int:
        try:
            return int(tell())
        except (OSError, ValueError):
            return 0

    return where


def replay_progress(names: list[str], quiet: bool) -> Progress:
    """The progress of ``pan replay``: in bytes when every input is a regular file, else in hands."""
    from pancli.cli.progress import wanted

    sizes = []
    for name in names:
        try:
            info = os.stat(name) if name != "-" else os.fstat(0)
        except OSError:
            break
        if not stat.S_ISREG(info.st_mode):
            break
        sizes.append(info.st_size)
    if len(sizes) == len(names):
        return Progress("replay", sum(sizes), "bytes", rate_unit="hands", enabled=wanted(quiet))
    return Progress("replay", None, "hands", enabled=wanted(quiet))


class _Judge:
    """Referees one hand after another into a sink, counting them."""

    __slots__ = (
        "first",
        "next_hand",
        "pagruc",
        "previous",
        "profile",
        "referee",
        "sink",
        "started",
        "steps",
        "stop",
        "tally",
    )

    def __init__(self, sink: Sink, tally: Tally, profile: Profile | None) -> None:
        from pancli.referee import referee_hand
        from pancli.referee.sequence import next_hand_violation, stopped_before_play

        self.sink = sink
        self.tally = tally
        self.profile = profile
        self.steps = sink.wants_steps
        self.pagruc = _Lazy()
        self.referee = referee_hand
        self.next_hand = next_hand_violation
        self.stop = stopped_before_play
        self.previous: HandResult | None = None
        """The last Panguingue hand refereed in this record, for S3 (None: no constraint)."""
        self.started = False
        self.first: HandScript | None = None
        """The script of the first hand judged, when it is a Panguingue hand."""

    def hand(self, hand: RecordHand) -> bool:
        """Referee and write one hand; True when it is not clean."""
        tally = self.tally
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
            tools = self.pagruc.get()
            if tools is None:
                tally.unsupported += 1
                sink.unsupported(hand, "PAGRUC hands are not supported by this installation")
                return True
            result_p = tools[0](script)
            sink.pagruc(hand, result_p, tools[1])
            return _count(tally, result_p)
        if self.profile is not None:
            script = replace(script, profile=self.profile)
        s3 = None if previous is None else self.next_hand(previous, script)
        result = self.stop(script, s3) if s3 is not None else self.referee(script, record_steps=self.steps)
        if result.violations:
            from pancli.cli.replay_render import at_meld_number

            result = at_meld_number(hand, result)
        self.previous = result
        sink.hand(hand, script, result)
        return _count(tally, result)


# --------------------------------------------------------------------------- --jobs N

CHUNK_HANDS = 200
"""Hands per task of a worker process."""


class _CollectPlain(Sink):
    """A worker's sink: keeps everything (the main process writes it, in order)."""

    def _tick(self) -> None:
        pass


class _CollectJson(JsonSink):
    def _tick(self) -> None:
        pass


class _CollectJsonl(JsonlSink):
    def _tick(self) -> None:
        pass


_COLLECTING: dict[type, type] = {Sink: _CollectPlain, JsonSink: _CollectJson, JsonlSink: _CollectJsonl}
"""The sinks that can be filled by workers, and the worker's collecting kind of each."""

_WORKER: dict[str, Any] = {}


def _can_fork() -> bool:
    import multiprocessing

    return "fork" in multiprocessing.get_all_start_methods()


def _worker_init(kind: type, strict: bool, profile: Profile | None) -> None:
    import signal

    # Ctrl-C reaches the whole process group: the main process answers it (pancli.cli.main)
    # and ends the pool, whose SIGTERM then ends a worker without a word.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _WORKER.update(kind=kind, strict=strict, profile=profile)


_Done = tuple[str, str, tuple[int, ...], bool, "HandScript | None", "HandResult | None"]
"""A refereed chunk: standard output, standard error, tally, stopped, and its edges for S3:
the script of its first hand (None unless Panguingue) and the result of its last."""


def _worker(task: tuple[Any, str, Path | None]) -> _Done:
    """Referee one chunk of hands (the first one with no hand before it: the main process
    checks S3 across chunks and referees a chunk again, itself, when it matters)."""
    return _judge_chunk(_WORKER["kind"], _WORKER["strict"], _WORKER["profile"], task, None)


def _judge_chunk(
    kind: type, strict: bool, profile: Profile | None, task: tuple[Any, str, Path | None], previous: HandResult | None
) -> _Done:
    from pancli.records.reader import read_chunk

    chunk, name, base_dir = task
    sink: Sink = kind()
    if isinstance(sink, JsonSink):
        sink.first = False  # every object after a comma; the main process puts the first after '['
    tally = Tally()
    judge = _Judge(sink, tally, profile)
    judge.previous = previous
    stopped = False
    for hand in read_chunk(chunk, name, base_dir):
        if judge.hand(hand) and strict:
            stopped = True
            break
    counts = (tally.hands, tally.clean, tally.violations, tally.claims, tally.malformed, tally.unsupported)
    return "".join(sink.out), "".join(sink.err), counts, stopped, judge.first, judge.previous


def _replay_parallel(
    names: list[str], sink: Sink, *, strict: bool, profile: Profile | None, jobs: int, progress: Progress
) -> int:
    """:func:`replay_files` with the hands refereed by ``jobs`` forked workers, a chunk of
    :data:`CHUNK_HANDS` hands at a time (at most two chunks each in flight: constant memory)."""
    import multiprocessing
    from collections import deque

    from pancli.records.reader import split_hands
    from pancli.referee.sequence import next_hand_violation

    tally = Tally()
    stopped = False
    is_json = isinstance(sink, JsonSink) and not isinstance(sink, JsonlSink)
    written = False
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(jobs, initializer=_worker_init, initargs=(_COLLECTING[type(sink)], strict, profile)) as pool:
        last: HandResult | None = None
        last_file: str | None = None

        def take(pending: deque[Any]) -> bool:
            nonlocal written, last, last_file
            job, task = pending.popleft()
            out, err, counts, halt, first, end = job.get()
            if task[1] != last_file:
                last, last_file = None, task[1]
            if first is not None and last is not None and next_hand_violation(last, first) is not None:
                # S3 across the cut: referee the chunk again with the hand before it known
                kind = _COLLECTING[type(sink)]
                out, err, counts, halt, first, end = _judge_chunk(kind, strict, profile, task, last)
            last = end
            for field, n in zip(
                ("hands", "clean", "violations", "claims", "malformed", "unsupported"), counts, strict=True
            ):
                setattr(tally, field, getattr(tally, field) + n)
            progress.advance(0 if progress.unit == "bytes" else task[0].hands, count=task[0].hands)
            if is_json and out and not written:
                out = "[\n" + out[2:]
            written = written or bool(out)
            sink.out.append(out)
            sink.err.append(err)
            sink.flush()
            return bool(halt)

        pending: deque[Any] = deque()
        for name in names:
            base_dir = None if name == "-" else Path(name).parent
            with open_text(name) as stream:
                for chunk in split_hands(stream, CHUNK_HANDS):
                    task = (chunk, name, base_dir)
                    pending.append((pool.apply_async(_worker, (task,)), task))
                    if len(pending) >= 2 * jobs and take(pending):
                        stopped = True
                        break
            if stopped:
                break
        while pending and not stopped:
            stopped = take(pending)
    if is_json:
        sink.first = not written  # type: ignore[attr-defined]
    sink.close(tally, stopped)
    return EXIT_OK if tally.clean == tally.hands else EXIT_ILLEGAL


def _count(tally: Tally, result: _Judged) -> bool:
    """Count a refereed hand; True when it is not clean."""
    if result.violations:
        tally.violations += 1
    if not all(c.ok for c in result.claims):
        tally.claims += 1
    if result.ok:
        tally.clean += 1
        return False
    return True


@click.command("replay")
@click.argument("files", nargs=-1, metavar="FILE... | -", shell_complete=complete_paths)
@json_option
@jsonl_option(help="One JSON object per action (with provenance), then per hand.")
@click.option("--strict", is_flag=True, help="Stop at the first hand with a violation, a wrong claim or an error.")
@rules_override_option
@click.option("--plain", is_flag=True, help="Plain text even on a terminal.")
@click.option(
    "--html",
    "html",
    default=None,
    metavar="OUT.html",
    type=click.Path(dir_okay=False, writable=True),
    help="Also write one self-contained page of the hands (cards as pictures, payments, ledgers, totals).",
)
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(min=0),
    default=1,
    show_default=True,
    metavar="N",
    help="Referee in N worker processes (0: one per CPU; at most the CPUs); the output is the same, in the same order.",
)
@quiet_option
def replay(
    files: tuple[str, ...],
    as_json: bool,
    as_jsonl: bool,
    strict: bool,
    rules: str | None,
    plain: bool,
    html: str | None,
    jobs: int,
    quiet: bool,
) -> None:
    """Referee hand records: every payment, the final ledger, the first violation of each hand.

    A record's Rules tag chooses the profile (hoyle without one); --rules overrides it.
    Exit status 0 when every hand is legal and every claim holds, 1 otherwise, 2 for a
    usage error or a file that cannot be read.

    \b
    Examples:
      pan samples friday-hoyle | pan replay -
      pan replay --json $(pan samples --path)
      pan simulate --players 6 --hands 100 --seed 1 | pan replay - | tail -1
      pan samples cardroom-saturday | pan replay --jsonl - | grep '"event": "split"'
      pan simulate --players 6 --hands 300 --seed 1 | pan replay --jobs 2 - | tail -1
      pan samples friday-hoyle | pan replay - --html friday.html
    """
    from pancli.cli.common import stdout_is_terminal

    json_mode(as_json, as_jsonl)
    names = record_files(files)
    for name in names:  # a regular file, a named pipe or /dev/fd/N (process substitution)
        check_readable(name)
    if html is not None and not Path(html).absolute().parent.is_dir():
        raise IOFailure(html, "write", "no such folder")
    profile = None if rules is None else load_profile(rules)
    sink: Sink
    if as_jsonl:
        sink = JsonlSink()
    elif as_json:
        sink = JsonSink()
    elif not plain and stdout_is_terminal():
        sink = RichSink()
    else:
        sink = Sink()
    jobs = worker_count(jobs)
    if html is not None:
        status = _replay_html(names, sink, html, strict=strict, profile=profile)
    else:
        progress = replay_progress(names, quiet)
        status = replay_files(names, sink, strict=strict, profile=profile, jobs=jobs, progress=progress)
    sys.stdout.flush()
    sys.exit(status)


def _replay_html(names: list[str], sink: Sink, html: str, *, strict: bool, profile: Profile | None) -> int:
    """:func:`replay_files` with the page of ``--html`` written too (atomically: a reader sees
    the old page or the whole new one), in one process."""
    from pancli.cli.replay_html import HtmlReport, HtmlTee
    from pancli.files import atomic_write

    with atomic_write(html) as out:
        report = HtmlReport(out, f"pan replay {' '.join(names)}")
        return replay_files(names, HtmlTee(sink, report), strict=strict, profile=profile)
