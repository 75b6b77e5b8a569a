"""``pan fmt FILE... | -``: records in canonical form (docs/notation.md, grammar/README-records.md).

The work is :mod:`pancli.app.fmt`'s (streamed: a file of any size formats in constant memory);
here are the options, the messages and the exit status. ``--check`` writes nothing on standard
output and exits 1 when a file is not canonical (as black does), naming it on standard error;
``--diff`` prints a unified diff instead of the text. A malformed hand is reported
(``file:line:col: CODE message``) and written unchanged; the exit status is then 1. A file that
cannot be read exits 2. ``--json`` prints one list instead, an object per input
(:func:`pancli.render.fmt.file_item`); the exit status is the same.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click

from pancli.cli.common import (
    EXIT_ILLEGAL,
    EXIT_OK,
    EXIT_USAGE,
    complete_paths,
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
    from pancli.app.fmt import Formatted
    from pancli.render.stream import JsonStream


def _shown(found: Formatted, check: bool, diff: bool, stream: JsonStream | None) -> int:
    """Write what is left to say of one input (its diff, ``would reformat``, its ``--json``
    object); its exit status."""
    if found.failure is not None:
        click.echo(io_message(found.file, "read", found.failure), err=True)
    status = EXIT_USAGE if found.failure is not None else EXIT_ILLEGAL if found.errors else EXIT_OK
    diff_text = None
    if diff and found.original is not None and found.formatted is not None:
        # start-up: only a diff loads difflib (slow on a long record), and canonical input has none
        from pancli.render.fmt import unified_diff

        diff_text = "" if found.canonical else unified_diff(found.original, found.formatted, found.file)
        if stream is None:
            sys.stdout.write(diff_text)
    if check and found.canonical is False:
        from pancli.render.fmt import would_reformat  # start-up: a canonical file does without it

        click.echo(would_reformat(found.file), err=True)
        status = max(status, EXIT_ILLEGAL)
    if stream is not None:
        # start-up: the JSON items only for --json
        from pancli.render.fmt import file_item

        stream.add(file_item(found.file, found.canonical, found.text, found.hands, found.errors, found.failure,
                             diff, diff_text))  # fmt: skip
    return status


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
        sys.exit(_rewrite(files))
    from pancli.app.fmt import format_files  # the record reader: not for --help or a usage error

    names = record_files(files)
    refuse_output_into_input(names)
    status = EXIT_OK
    stream = None
    if as_json or as_jsonl:
        from pancli.render.stream import JsonStream  # the JSON encoder: only for --json, --jsonl

        stream = JsonStream(as_jsonl)  # each file's object as soon as it is formatted
    out = sys.stdout  # (format_record writes no control character raw, terminal or pipe)
    whole = stream is not None
    for found in format_files(
        names, check=check, diff=diff, whole=whole, write=out.write, malformed=report, stdin=stdin_text
    ):
        status = max(status, _shown(found, check, diff, stream))
    if stream is not None:
        stream.close()
    sys.stdout.flush()
    sys.exit(status)


def _rewrite(files: tuple[str, ...]) -> int:
    """``--write`` (:func:`pancli.app.fmt.rewrite_files`): a line on standard error per file
    changed or left alone for a malformed hand; status 1 for a malformed hand, 2 for a file that
    cannot be read or written."""
    # the record reader and the lines said: not for --help
    from pancli.app.fmt import Outcome, rewrite_files
    from pancli.render.fmt import left_unchanged, reformatted

    status = EXIT_OK
    for done in rewrite_files(files, report):
        if done.outcome is Outcome.MALFORMED:
            click.echo(left_unchanged(done.file, done.malformed), err=True)
            status = max(status, EXIT_ILLEGAL)
        elif done.outcome is Outcome.FAILED:
            assert done.failure is not None
            click.echo(io_message(done.file, done.verb, done.failure), err=True)
            status = EXIT_USAGE
        elif done.outcome is Outcome.REFORMATTED:
            click.echo(reformatted(done.file), err=True)
    return status
