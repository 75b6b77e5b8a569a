"""``pan fmt FILE... | -``: records in canonical form (NOTATION.md section 3, grammar/README-records.md).

Streams: one hand at a time is read, formatted and written, so a file of any size formats
in constant memory. ``--check`` writes nothing on standard output and exits 1 when a file
is not canonical (as black does), naming it on standard error; ``--diff`` prints a unified
diff instead of the text. A malformed hand is reported (``file:line:col: CODE message``)
and written unchanged; the exit status is then 1. A file that cannot be read exits 2.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import IO

import click

from pancli.cli.common import EXIT_ILLEGAL, EXIT_OK, EXIT_USAGE, record_files, report, stdin_text


def _open(name: str) -> IO[str]:
    return open(name, encoding="utf-8", errors="replace", newline="")


def _format_stream(stream: IO[str], file: str, base_dir: Path | None) -> tuple[list[str], int]:
    """Never used for big inputs: the whole canonical text as chunks, and the status."""
    chunks: list[str] = []
    status = EXIT_OK
    for chunk, bad in _chunks(stream, file, base_dir):
        chunks.append(chunk)
        status = max(status, bad)
    return chunks, status


def _chunks(stream: IO[str], file: str, base_dir: Path | None) -> Iterator[tuple[str, int]]:
    from pancli.notation.record_writer import format_record
    from pancli.records import read_hands

    for i, hand in enumerate(read_hands(stream, file, base_dir)):
        bad = EXIT_OK
        if hand.error is not None:
            e = hand.error
            report(file, e.line, e.col, e.code, e.message)
            bad = EXIT_ILLEGAL
        yield ("\n" if i else "") + format_record(hand), bad


def _fmt_one(name: str, check: bool, diff: bool) -> int:
    """Format one input; returns its exit status."""
    if name == "-":
        original = stdin_text().read()
        source: IO[str] = io.StringIO(original)
        file, base_dir = "-", None
    else:
        try:
            source = _open(name)
        except OSError as exc:
            click.echo(f"pan fmt: cannot read {name}: {exc.strerror or exc}", err=True)
            return EXIT_USAGE
        file, base_dir = name, Path(name).parent
        original = ""
    status = EXIT_OK
    with source:
        if not check and not diff:
            out = sys.stdout
            for chunk, bad in _chunks(source, file, base_dir):
                out.write(chunk)
                status = max(status, bad)
            return status
        if diff:
            if name != "-":
                original = source.read()
                source = io.StringIO(original)
            chunks, status = _format_stream(source, file, base_dir)
            formatted = "".join(chunks)
            if formatted != original:
                import difflib

                sys.stdout.writelines(
                    difflib.unified_diff(
                        original.splitlines(keepends=True),
                        formatted.splitlines(keepends=True),
                        fromfile=f"{file} (original)",
                        tofile=f"{file} (canonical)",
                    )
                )
                if check:
                    click.echo(f"would reformat {file}", err=True)
                    status = max(status, EXIT_ILLEGAL)
            return status
        # --check: compare chunk by chunk with a second reading of the file (constant memory)
        same = True
        with io.StringIO(original) if name == "-" else _open(name) as again:
            for chunk, bad in _chunks(source, file, base_dir):
                status = max(status, bad)
                if same and again.read(len(chunk)) != chunk:
                    same = False
            if same and again.read(1):
                same = False
        if not same:
            click.echo(f"would reformat {file}", err=True)
            status = max(status, EXIT_ILLEGAL)
        return status


@click.command("fmt")
@click.argument("files", nargs=-1, metavar="FILE... | -")
@click.option("--check", is_flag=True, help="Write nothing; exit 1 when a file is not in canonical form.")
@click.option("--diff", is_flag=True, help="Print a unified diff against the canonical form instead of the text.")
def fmt(files: tuple[str, ...], check: bool, diff: bool) -> None:
    """Print records in canonical form (tag order, one turn per line, canonical cards and
    melds; comments and annotations kept). Formatting canonical text gives the same text.

    \b
    Examples:
      pan fmt game.pan > game.canonical.pan
      pan fmt --check samples/*.pan
      cat game.pan | pan fmt -
    """
    names = record_files(files)
    status = EXIT_OK
    for name in names:
        status = max(status, _fmt_one(name, check, diff))
    sys.stdout.flush()
    sys.exit(status)
