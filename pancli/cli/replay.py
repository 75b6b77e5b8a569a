"""``pan replay FILE... | -``: referee hand records (docs/notation.md and docs/commands.md).

Every hand of every file is read (one at a time: constant memory), refereed strictly (the
first violation stops that hand) and written in one of four forms:

* on a terminal, a timeline (each play line, what it paid and why, the violation in red
  with its place and ruling) and a ledger table (rich);
* in a pipe, plain text: one line per collection, violations, wrong claims, the outcome
  and the ledger (no rich, written in batches);
* ``--json``: one JSON list, one object per hand (docs/commands.md);
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
import sys
import time
from pathlib import Path
from typing import IO, TYPE_CHECKING

import click

from pancli.app.replay import CHUNK_HANDS, ChunkSink, HandSink, OpenRecord, Tally, replay_files
from pancli.cli.common import (
    EXIT_ILLEGAL,
    EXIT_OK,
    IOFailure,
    check_readable,
    complete_paths,
    error_line,
    json_mode,
    json_option,
    jsonl_option,
    load_profile,
    open_text,
    output_file,
    record_files,
    refuse_writing_an_input,
    rules_override_option,
    worker_count,
)
from pancli.cli.progress import Progress, quiet_option, wanted
from pancli.jsontext import dumps, lines

if TYPE_CHECKING:
    from collections.abc import Sequence

    from rich.console import Console

    from pancli.app.replay import Judgement
    from pancli.cli.hand_render import HandView, JsonObject
    from pancli.model.actions import HandScript
    from pancli.model.results import Recorded
    from pancli.notation.layout import RecordHand
    from pancli.rules import Profile

BATCH = 256
"""Hands whose text is written to standard output at once (plain, JSON)..."""
FLUSH_EVERY = 0.25
"""...or fewer, when this many seconds have passed since the last write (output keeps coming)."""


class Sink:
    """Plain text, the base (the fastest, for pipes): everything is buffered and written in
    batches of :data:`BATCH` hands, standard output first, then the error lines."""

    wants_steps = False
    each_hand = False
    """Write each hand's text as soon as it is judged (``--jsonl``)."""
    progress: Progress | None = None
    """Told of each hand (the progress line of a long replay)."""
    share: ReadShare | None = None
    """How far the input is read, when its size is known (the progress line shows the share)."""

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
        if self.progress is not None:
            self._advance(1)
        if self.each_hand or self.pending >= BATCH or time.monotonic() - self.flushed >= FLUSH_EVERY:
            self.flush()

    def collector(self) -> type[ChunkSink]:
        """A worker's sink for this one (``--jobs``)."""
        return _CollectPlain

    def chunk(self, out: str, err: str) -> None:
        """Write the output of a chunk of hands judged by a worker."""
        self.out.append(out)
        self.err.append(err)
        self.flush()
        if self.progress is not None:
            self._advance(CHUNK_HANDS)  # about: the last chunk of a file may hold fewer

    def _advance(self, hands: int) -> None:
        progress = self.progress
        assert progress is not None
        if self.share is None:
            progress.advance(hands)
        elif progress.enabled:
            progress.set(self.share.read(), count=hands)

    def errors(self, file: str, result: Judgement, shown: HandView) -> None:
        """Queue the stderr lines of a hand's violations and wrong claims."""
        from pancli.cli.replay_render import violation_line

        err = self.err
        for r in getattr(result, "remedies", ()):  # irregularities put right (I1, I2)
            err.append(violation_line(file, r.violation) + "\n")
        for v in result.violations:
            err.append(violation_line(file, v) + "\n")
        for c in result.claims:
            if not c.ok:
                err.append(error_line(file, c.line, c.col, c.rule, shown.claim_message(c)) + "\n")

    def hand(self, hand: RecordHand, script: HandScript, result: Judgement) -> None:
        from pancli.cli.hand_render import view

        shown = view(result)
        self.out.append(shown.plain(hand, script))
        if hand.warnings:
            self.err.append(warning_lines(hand))
        if not result.ok or remedied(result):
            self.errors(hand.file, result, shown)
        self._tick()

    def malformed(self, hand: RecordHand) -> None:
        from pancli.cli.replay_render import malformed_line, plain_malformed

        assert hand.error is not None
        self.out.append(plain_malformed(hand))
        self.err.append(malformed_line(hand.file, hand.error) + "\n")
        self._tick()

    def close(self, tally: Tally, stopped: bool) -> None:
        if stopped:
            self.err.append(STOPPED)
        self.out.append(tally.text() + "\n")
        self.flush()


def remedied(result: object) -> bool:
    """A Panguingue hand with an irregularity put right (I1, I2): its lines go to standard error."""
    return bool(getattr(result, "remedies", None))


STOPPED = "pan replay: stopped at the first violation (--strict)\n"


def warning_lines(hand: RecordHand) -> str:
    """The standard-error lines of a hand's warnings (two names that look alike): the error
    line's form, the message starting ``warning:``; they change no exit status."""
    return "".join(error_line(hand.file, w.line, w.col, w.code, f"warning: {w.message}") + "\n" for w in hand.warnings)


class JsonSink(Sink):
    """``--json``: one list, one compact object per line (streamed; valid JSON even when stopped)."""

    def __init__(self) -> None:
        super().__init__()
        self.first = True

    event: str | None = None
    """The ``event`` field a hand's object starts with (``--jsonl``)."""

    def collector(self) -> type[ChunkSink]:
        return _CollectJson

    def chunk(self, out: str, err: str) -> None:
        if out and self.first:  # a worker writes every object after a comma
            out = "[\n" + out[2:]
            self.first = False
        super().chunk(out, err)

    def _put(self, text: str) -> None:
        """Write one hand's object."""
        self.out.append(("[\n" if self.first else ",\n") + text)
        self.first = False
        self._tick()

    def hand(self, hand: RecordHand, script: HandScript, result: Judgement) -> None:
        from pancli.cli.hand_render import view

        self._shown(hand, script, result, view(result))

    def _shown(self, hand: RecordHand, script: HandScript, result: Judgement, shown: HandView) -> None:
        if hand.warnings:
            self.err.append(warning_lines(hand))
        if not result.ok or remedied(result):
            self.errors(hand.file, result, shown)
        obj = shown.json(hand, script)
        self._put(dumps(obj if self.event is None else {"event": self.event, **obj}))

    def malformed(self, hand: RecordHand) -> None:
        from pancli.cli.replay_render import malformed_json, malformed_line

        assert hand.error is not None
        self.err.append(malformed_line(hand.file, hand.error) + "\n")
        obj = malformed_json(hand)
        self._put(dumps(obj if self.event is None else {"event": self.event, **obj}))

    def close(self, tally: Tally, stopped: bool) -> None:
        if stopped:
            self.err.append(STOPPED)
        self.out.append("[]\n" if self.first else "\n]\n")
        self.flush()


class JsonlSink(JsonSink):
    """``--jsonl``: one object per line: every applied action (with provenance), then the hand."""

    each_hand = True

    wants_steps = True
    event = "hand"

    def collector(self) -> type[ChunkSink]:
        return _CollectJsonl

    def chunk(self, out: str, err: str) -> None:
        Sink.chunk(self, out, err)

    def _line(self, obj: JsonObject) -> None:
        self.out.append(dumps(obj) + "\n")

    def _steps(self, steps: Sequence[Recorded], hand: RecordHand) -> None:
        from pancli.cli.replay_render import step_events

        self.out.append(lines(step_events(steps, hand.index, hand.file)))

    def _put(self, text: str) -> None:
        self.out.append(text + "\n")
        self._tick()

    def hand(self, hand: RecordHand, script: HandScript, result: Judgement) -> None:
        from pancli.cli.hand_render import view

        shown = view(result)
        self._steps(result.recorded, hand)
        for obj in shown.violation_events(hand):
            self._line(obj)
        self._shown(hand, script, result, shown)

    def close(self, tally: Tally, stopped: bool) -> None:
        if stopped:
            self.err.append(STOPPED)
        self.flush()


class _CollectPlain(Sink):
    """A worker's sink: keeps everything (the main process writes it, in order)."""

    def _tick(self) -> None:
        pass


class _CollectJson(JsonSink):
    def __init__(self) -> None:
        super().__init__()
        self.first = False  # every object after a comma; the main process puts the first after '['

    def _tick(self) -> None:
        pass


class _CollectJsonl(JsonlSink):
    def _tick(self) -> None:
        pass


RICH_HANDS = 3
"""Hands a terminal shows as rich timelines; the rest as plain lines, streamed (a rich hand costs
about 50 ms to draw: 300 hands took 19 s on a terminal against 1 s in a pipe)."""


class RichSink:
    """A terminal: the timeline and the ledger table of each of the first :data:`RICH_HANDS`
    hands (rich), then one plain line per hand as in a pipe (``--plain`` for all); no workers."""

    wants_steps = False

    def __init__(self) -> None:
        from pancli.cli.common import stdout_console

        self.console: Console = stdout_console()
        self.drawn = 0
        self.plain = Sink()

    def _rich(self) -> bool:
        """Whether the next hand is drawn rich (after a few, one line says the rest are plain)."""
        self.drawn += 1
        if self.drawn == RICH_HANDS + 1:
            self.console.print(f"[dim]more than {RICH_HANDS} hands: the rest as plain lines (--plain, --json)[/]")
        return self.drawn <= RICH_HANDS

    def hand(self, hand: RecordHand, script: HandScript, result: Judgement) -> None:
        if not self._rich():
            return self.plain.hand(hand, script, result)
        from pancli.cli.hand_render import view

        if hand.warnings:
            sys.stderr.write(warning_lines(hand))
        view(result).rich(self.console, hand, script)

    def malformed(self, hand: RecordHand) -> None:
        if not self._rich():
            return self.plain.malformed(hand)
        from pancli.cli.replay_render import render_rich_malformed

        render_rich_malformed(self.console, hand)

    def close(self, tally: Tally, stopped: bool) -> None:
        self.plain.flush()
        if stopped:
            self.console.print("[bold red]stopped at the first violation (--strict)[/]")
        self.console.print(tally.text())


@click.command("replay")
@click.argument("files", nargs=-1, metavar="FILE... | -", shell_complete=complete_paths)
@json_option
@jsonl_option(help="One JSON object per action (with provenance), then per hand.")
@click.option(
    "--strict",
    is_flag=True,
    help="Rule an irregularity (I1, I2) as a violation that stops its hand, instead of putting it right, "
    "and stop at the first hand that is not clean.",
)
@rules_override_option
@click.option("--plain", is_flag=True, help="Plain text even on a terminal.")
@click.option(
    "--html",
    "html",
    default=None,
    metavar="OUT.html",
    type=click.Path(dir_okay=False, writable=True),
    callback=output_file(to_stdout=False),
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
    An irregularity (a wrong count, I1; a foul meld, I2) is put right as the rulebook
    prescribes and the hand goes on (--strict stops at it instead).
    Exit status 0 when every hand is legal and every claim holds, 1 otherwise, 2 for a
    usage error or a file that cannot be read.

    \b
    Examples:
      pan samples friday-hoyle | pan replay -
      pan replay --json $(pan samples --path)    # exits 1: the illegal-* samples break rules on purpose
      pan simulate --players 6 --hands 100 --seed 1 | pan replay - | tail -1
      pan samples cardroom-saturday | pan replay --jsonl - | grep '"event":"split"'
      pan simulate --players 6 --hands 300 --seed 1 | pan replay --jobs 2 - | tail -1
      pan samples friday-hoyle | pan replay - --html friday.html
    """
    from pancli.cli.common import stdout_is_terminal

    json_mode(as_json, as_jsonl)
    names = record_files(files)
    refuse_writing_an_input(html, names, "--html")
    for name in names:  # a regular file, a named pipe or /dev/fd/N (process substitution)
        check_readable(name)
    if html is not None and not Path(html).absolute().parent.is_dir():
        raise IOFailure(html, "write", "no such folder")
    profile = None if rules is None else load_profile(rules)
    sink: HandSink
    if as_jsonl:
        sink = JsonlSink()
    elif as_json:
        sink = JsonSink()
    elif not plain and stdout_is_terminal():
        sink = RichSink()
    else:
        sink = Sink()
    jobs = worker_count(jobs)
    share = ReadShare(names)
    unit = "hands" if share.total is None else "bytes"
    progress = Progress("replay", share.total, unit, rate_unit="hands", enabled=wanted(quiet))
    if isinstance(sink, Sink):
        sink.progress = progress
        sink.share = share if share.total is not None else None
    with progress:
        if html is not None:
            tally = _replay_html(names, sink, html, strict=strict, profile=profile, opener=share.open)
        else:
            tally = replay_files(names, sink, open_record=share.open, strict=strict, profile=profile, jobs=jobs)
    sys.stdout.flush()
    sys.exit(EXIT_OK if tally.clean == tally.hands else EXIT_ILLEGAL)


class ReadShare:
    """How much of the input files is read (the share the progress line shows): ``total`` is
    their size in bytes, None when one of them is not a regular file (a pipe, standard input)."""

    def __init__(self, names: Sequence[str]) -> None:
        sizes = [_size(n) for n in names]
        self.total = None if None in sizes else sum(s or 0 for s in sizes) or None
        self.before = 0
        self.stream: IO[str] | None = None

    def open(self, name: str) -> IO[str]:
        """:func:`open_text`, remembering the stream to ask how far it is read."""
        if self.stream is not None:
            self.before += self.read()
        self.stream = open_text(name)
        return self.stream

    def read(self) -> int:
        """Bytes read of the files so far."""
        bytes_read = getattr(self.stream, "bytes_read", None)
        return self.before + (bytes_read() if bytes_read is not None else 0)


def _size(name: str) -> int | None:
    """The size of a regular file; None for anything else (``-``, a pipe, a missing file)."""
    import stat

    try:
        st = os.stat(name)
    except (OSError, ValueError):
        return None
    return st.st_size if name != "-" and stat.S_ISREG(st.st_mode) else None


def _replay_html(
    names: list[str], sink: HandSink, html: str, *, strict: bool, profile: Profile | None, opener: OpenRecord
) -> Tally:
    """:func:`replay_files` with the page of ``--html`` written too (atomically: a reader sees
    the old page or the whole new one), in one process."""
    from pancli.cli.replay_html import HtmlReport, HtmlTee
    from pancli.files import atomic_write

    stdin_only = names == ["-"]
    title = "pan replay" if stdin_only else f"pan replay {' '.join('standard input' if n == '-' else n for n in names)}"
    try:
        with atomic_write(html) as out:
            report = HtmlReport(out, title, named_by_hand=stdin_only)
            return replay_files(names, HtmlTee(sink, report), open_record=opener, strict=strict, profile=profile)
    except OSError as exc:
        if exc.filename != html:  # standard output's own failure
            raise
        raise IOFailure(html, "write", exc) from None
