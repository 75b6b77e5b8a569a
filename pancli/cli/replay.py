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
import stat
import sys
from typing import IO, TYPE_CHECKING

import click

from pancli.app.replay import Tally, replay_files
from pancli.cli.common import (
    EXIT_ILLEGAL,
    EXIT_OK,
    IOFailure,
    check_readable,
    complete_paths,
    json_mode,
    json_option,
    jsonl_option,
    load_profile,
    open_text,
    output_file,
    record_files,
    refuse_writing_an_input,
    rules_override_option,
    say_on_stderr,
    stake_options,
    stakes,
    worker_count,
)
from pancli.cli.progress import Progress, quiet_option, wanted
from pancli.render.replay import JsonlSink, JsonSink, RichSink, Sink
from pancli.render.text import stdout_is_terminal

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from decimal import Decimal

    from pancli.render.html import HtmlTee


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
@stake_options(
    "With --html: the money value of one unit for every hand on the page (e.g. 0.25).",
    "With --html: the money value of one unit for the hands that name no Stake (the others keep theirs).",
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
    stake: str | None,
    default_stake: str | None,
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
    json_mode(as_json, as_jsonl)
    names = record_files(files)
    refuse_writing_an_input(html, names, "--html", rules)
    money = stakes(stake, default_stake)
    if html is None and (stake is not None or default_stake is not None):
        given = "--stake" if stake is not None else "--default-stake"
        raise click.UsageError(f"{given} prices the page of --html (pan settle settles in money): give --html too")
    for name in names:  # a regular file, a named pipe or /dev/fd/N (process substitution)
        check_readable(name)
    if html is not None and not os.path.isdir(os.path.dirname(os.path.join(os.getcwd(), html))):
        raise IOFailure(html, "write", "no such folder")
    profile = None if rules is None else load_profile(rules)
    sink: Sink | RichSink
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
            replay = lambda into: replay_files(names, into, open_record=share.open, strict=strict, profile=profile)  # noqa: E731
            tally = _replay_html(names, sink, html, replay, money=money)
        else:
            tally = replay_files(
                names, sink, open_record=share.open, strict=strict, profile=profile, jobs=jobs, note=say_on_stderr
            )
    sys.stdout.flush()
    sys.exit(EXIT_OK if tally.legal else EXIT_ILLEGAL)


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
    try:
        st = os.stat(name)
    except (OSError, ValueError):
        return None
    return st.st_size if name != "-" and stat.S_ISREG(st.st_mode) else None


def _replay_html(
    names: list[str],
    sink: Sink | RichSink,
    html: str,
    replay: Callable[[HtmlTee], Tally],
    *,
    money: tuple[Decimal | None, Decimal | None] = (None, None),
) -> Tally:
    """``replay`` (:func:`replay_files` into the sink it is given) with the page of ``--html`` written
    too (atomically: a reader sees the old page or the whole new one), in one process."""
    # start-up: pan replay does without these
    from pancli.files import atomic_write
    from pancli.render.html import HtmlReport, HtmlTee

    stdin_only = names == ["-"]
    title = "pan replay" if stdin_only else f"pan replay {' '.join('standard input' if n == '-' else n for n in names)}"
    try:
        with atomic_write(html) as out:
            report = HtmlReport(out, title, money[0], default_stake=money[1], named_by_hand=stdin_only)
            return replay(HtmlTee(sink, report))
    except OSError as exc:
        if exc.filename != html:  # standard output's own failure
            raise
        raise IOFailure(html, "write", exc) from None
