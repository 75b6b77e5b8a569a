"""``pan fmt FILE... | -``: records in canonical form (docs/notation.md, grammar/README-records.md).

Streams: one hand at a time is read, formatted and written, so a file of any size formats
in constant memory. ``--check`` writes nothing on standard output and exits 1 when a file
is not canonical (as black does), naming it on standard error; ``--diff`` prints a unified
diff instead of the text. A malformed hand is reported (``file:line:col: CODE message``)
and written unchanged; the exit status is then 1. A file that cannot be read exits 2.
``--json`` prints one list instead, an object per input
(:func:`pancli.render.fmt.file_item`); the exit status is the same.
"""

from __future__ import annotations

import errno
import io
import os
import stat
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING

import click

from pancli.app.fmt import canonical_hands
from pancli.cli.common import (
    EXIT_ILLEGAL,
    EXIT_OK,
    EXIT_USAGE,
    complete_paths,
    escape_text,
    io_message,
    json_mode,
    json_option,
    jsonl_option,
    record_files,
    refuse_output_into_input,
    report,
    stdin_text,
)

if TYPE_CHECKING:
    from pancli.app.fmt import NotationError


def _open(name: str) -> IO[str]:
    return open(name, encoding="utf-8", errors="replace", newline="")


class _NotRegular(OSError):
    """``fmt --write`` given a device, a FIFO or a folder."""


def _open_regular(name: str) -> IO[str]:
    """``name`` opened for ``--write``, which replaces regular files only: anything else (a FIFO
    would wait for a writer, a device would be written in place) is refused once opened, without
    waiting and without reading (OSError)."""
    fd = os.open(name, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise _NotRegular(errno.EINVAL, "not a regular file (a device, a FIFO or a folder)", name)
        os.set_blocking(fd, True)
        return open(fd, encoding="utf-8", errors="replace", newline="")
    except BaseException:
        os.close(fd)
        raise


@dataclass(slots=True)
class _Tally:
    """What formatting one input found: its hands, the malformed ones, whether it was canonical."""

    file: str
    hands: int = 0
    errors: list[NotationError] = field(default_factory=list)
    canonical: bool | None = None
    text: str | None = None
    diff: str | None = None
    unreadable: str | None = None

    @property
    def status(self) -> int:
        """1 for a malformed hand, 0 otherwise (``--check`` adds its own)."""
        return EXIT_ILLEGAL if self.errors else EXIT_OK


def _chunks(stream: IO[str], tally: _Tally, base_dir: Path | None) -> Iterator[str]:
    """The canonical text hand by hand; malformed hands are reported and counted in ``tally``."""
    for i, (text, e) in enumerate(canonical_hands(stream, tally.file, base_dir)):
        tally.hands += 1
        if e is not None:
            report(tally.file, e.line, e.col, e.code, e.message)
            tally.errors.append(e)
        yield ("\n" if i else "") + text


class _Recording(io.TextIOBase):
    """Standard input read through, keeping what was read (``--check``/``--diff`` of ``-``
    compare it with the canonical text): never more than the reader asks for."""

    def __init__(self, inner: IO[str]) -> None:
        super().__init__()
        self._inner = inner
        self._parts: list[str] = []

    def readable(self) -> bool:
        return True

    def read(self, size: int | None = -1) -> str:
        data = self._inner.read(-1 if size is None else size)
        self._parts.append(data)
        return data

    def text(self) -> str:
        """Everything read so far."""
        return "".join(self._parts)


def _fmt_one(name: str, check: bool, diff: bool, as_json: bool) -> tuple[int, _Tally]:
    """Format one input; returns its exit status and what was found (for ``--json``)."""
    recording: _Recording | None = None
    if name == "-":  # read as the reader goes (a pipe with no end is cut by the reader's limits)
        recording = _Recording(stdin_text())
        source: IO[str] = recording  # type: ignore[assignment]
        tally, base_dir = _Tally("-"), None
        original = ""
    else:
        tally = _Tally(name)
        try:
            source = _open(name)
        except OSError as exc:
            tally.unreadable = io_message(name, "read", exc).removeprefix("pan: ")
            click.echo(io_message(name, "read", exc), err=True)
            return EXIT_USAGE, tally
        base_dir = Path(name).parent
        original = ""
    with source:
        if not check and not diff and not as_json:
            out = sys.stdout  # (format_record writes no control character raw, terminal or pipe)
            for chunk in _chunks(source, tally, base_dir):
                out.write(chunk)
            return tally.status, tally
        if diff or not check or recording is not None:  # the whole text: a diff, --json's text, stdin
            if recording is None:
                original = source.read()
                source = io.StringIO(original)
            formatted = "".join(_chunks(source, tally, base_dir))
            if recording is not None:
                original = recording.text()
            tally.canonical = formatted == original
            tally.text = None if check else formatted
            if diff:  # canonical input has no diff: difflib, slow on a long record, is not run
                from pancli.render.fmt import unified_diff

                tally.diff = "" if tally.canonical else unified_diff(original, formatted, tally.file)
                if not as_json:
                    sys.stdout.write(tally.diff)
            status = tally.status
            if check and not tally.canonical:
                click.echo(f"would reformat {escape_text(tally.file)}", err=True)
                status = max(status, EXIT_ILLEGAL)
            return status, tally
        # --check: compare chunk by chunk with a second reading of the file (constant memory)
        same = True
        with io.StringIO(original) if name == "-" else _open(name) as again:
            for chunk in _chunks(source, tally, base_dir):
                if same and again.read(len(chunk)) != chunk:
                    same = False
            if same and again.read(1):
                same = False
        tally.canonical = same
        status = tally.status
        if not same:
            click.echo(f"would reformat {escape_text(tally.file)}", err=True)
            status = max(status, EXIT_ILLEGAL)
        return status, tally


@click.command("fmt")
@click.argument("files", nargs=-1, metavar="FILE... | -", shell_complete=complete_paths)
@click.option("--check", is_flag=True, help="Write nothing; exit 1 when a file is not in canonical form.")
@click.option("--diff", is_flag=True, help="Print a unified diff against the canonical form instead of the text.")
@click.option(
    "--write",
    "-w",
    "write",
    is_flag=True,
    help="Rewrite each FILE in place (atomically); a file with a malformed hand is left as it is.",
)
@json_option
@jsonl_option("One JSON object per file and line (the objects of --json), as each is formatted.")
def fmt(files: tuple[str, ...], check: bool, diff: bool, write: bool, as_json: bool, as_jsonl: bool) -> None:
    """Print records in canonical form (tag order, one turn per line, canonical cards and
    melds; comments and annotations kept). Formatting canonical text gives the same text.

    \b
    Examples:
      pan simulate --players 4 --hands 2 --seed 5 -o game.pan && pan fmt --check game.pan
      pan fmt --check $(pan samples --path)   # exits 1: two samples are malformed on purpose
      pan samples friday-hoyle | pan fmt -
      pan fmt --json --check "$(pan samples --path friday-hoyle)"

    --json prints one list, an object per file: 'file', 'canonical' (true when the
    input was already canonical), 'text' (the canonical text; null with --check),
    'hands' (how many), 'errors' (file, line, col, rule, player, message of each
    malformed hand), 'read_error' (null unless the file cannot be read) and, with
    --diff, 'diff'. Malformed hands and 'would reformat' still go to standard error.

    Exit status: 0 all formatted (with --check: all canonical), 1 a malformed hand (with
    --check: or a file not canonical), 2 a file that cannot be read.
    """
    json_mode(as_json, as_jsonl)
    if write:
        given = (("check", check), ("diff", diff), ("json", as_json), ("jsonl", as_jsonl))
        others = [f"--{n}" for n, on in given if on]
        if others:
            raise click.UsageError(f"--write rewrites the files and prints nothing: drop {' '.join(others)}")
        if not files or "-" in files:
            raise click.UsageError("--write needs FILE names (standard input cannot be rewritten)")
        sys.exit(_write_all(files))
    names = record_files(files)
    refuse_output_into_input(names)
    status = EXIT_OK
    stream = None
    if as_json or as_jsonl:
        # start-up: pan fmt does without these
        from pancli.render.fmt import file_item
        from pancli.render.stream import JsonStream

        stream = JsonStream(as_jsonl)  # each file's object as soon as it is formatted
    for name in names:
        one, tally = _fmt_one(name, check, diff, stream is not None)
        status = max(status, one)
        if stream is not None:
            stream.add(file_item(tally.file, tally.canonical, tally.text, tally.hands, tally.errors, tally.unreadable,
                                 diff, tally.diff))  # fmt: skip
    if stream is not None:
        stream.close()
    sys.stdout.flush()
    sys.exit(status)


class _Malformed(Exception):
    """A hand of the file being rewritten is malformed: the file is left as it was."""


class _Unchanged(Exception):
    """The file is already in canonical form: it is left as it was."""


def _write_all(files: tuple[str, ...]) -> int:
    """``--write``: each file rewritten in canonical form through :func:`pancli.files.atomic_write`
    (a temporary file in the same folder, fsync, rename: the file holds the old text or the new,
    its permissions kept). An unchanged file is not touched; a file with a malformed hand is left
    as it was and reported (status 1); a file that cannot be read or written, status 2."""
    from pancli.files import atomic_write  # start-up: pan fmt does without it

    status = EXIT_OK
    for name in files:
        tally = _Tally(name)
        verb = "read"
        try:
            with _open_regular(name) as source, _open_regular(name) as again:
                verb = "write"
                with atomic_write(name, newline="", regular_only=True) as out:
                    same = True
                    for chunk in _chunks(source, tally, Path(name).parent):
                        out.write(chunk)
                        if same and again.read(len(chunk)) != chunk:
                            same = False
                    if tally.errors:
                        raise _Malformed
                    if same and not again.read(1):
                        raise _Unchanged  # nothing to change: leave the file (and its time) alone
        except _Malformed:
            click.echo(f"pan fmt: {escape_text(name)} left unchanged: {len(tally.errors)} malformed hand(s)", err=True)
            status = max(status, EXIT_ILLEGAL)
            continue
        except _Unchanged:
            continue
        except OSError as exc:
            click.echo(io_message(name, "write" if isinstance(exc, _NotRegular) else verb, exc), err=True)
            status = EXIT_USAGE
            continue
        click.echo(f"reformatted {escape_text(name)}", err=True)
    return status
