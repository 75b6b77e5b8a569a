"""``pan check MELD...``: is each meld legal, what kind, which condition, what it pays.

Two paths. On a terminal, and with ``--json``, every meld becomes a
:class:`~pancli.app.check.MeldCheck` rendered as a rich table or a JSON list.
In a pipe (the batch path) the output is one plain tab-separated line per meld, and the
loop is kept lean (benchmarks/README.md): standard input is read in 1 MB blocks, its lines judged
by :class:`~pancli.app.check.BatchJudge` (each distinct line, or each multiset of canonical cards,
once), whose rulings :class:`~pancli.render.check.PlainRows` writes, a part of a block at a time.
``--json`` and ``--jsonl`` of a batch take the same judge's rulings as objects
(:class:`~pancli.render.exports.JsonBatch`).
Neither rich nor json is imported on that path.
"""

from __future__ import annotations

import itertools
import sys
from collections.abc import Iterator

import click
from click.core import ParameterSource

from pancli.app.check import Checker, MeldCheck, assess_pagruc_all, one_card_each
from pancli.app.lines import ARG_FILE, PAGRUC, STDIN_FILE, InputLine, batch_text, game_named, is_skipped
from pancli.cli.common import (
    EXIT_ILLEGAL,
    EXIT_OK,
    NOTHING_TO_CHECK,
    game_option,
    input_lines,
    json_mode,
    json_option,
    jsonl_option,
    load_profile,
    reads_stdin,
    rules_option,
    stdin_blocks,
)
from pancli.render.check import PlainRows, meld_error, meld_row
from pancli.render.text import rule_hint, stdout_console, stdout_is_terminal


def _input_blocks(args: list[str]) -> tuple[str, Iterator[list[str]] | list[list[str]]]:
    """The file name for error lines and the input, a block of lines at a time."""
    if reads_stdin(args):
        return STDIN_FILE, stdin_blocks()
    if args:
        return ARG_FILE, [args]
    raise click.UsageError(NOTHING_TO_CHECK)


def _plain_batch(args: list[str], checker: Checker) -> bool:
    """The pipe path: plain lines on stdout, error lines on stderr. True when all legal."""
    file, blocks = _input_blocks(args)
    batch = PlainRows(checker.batch(file))
    write_out = sys.stdout.write
    write_err = sys.stderr.write
    all_legal = True
    for out, err in batch.blocks(blocks):
        write_out(out)
        sys.stdout.flush()  # a block's rows as soon as they are judged (a slow writer upstream)
        if err:
            all_legal = False
            write_err(err)
    return all_legal


def _json_batch(args: list[str], checker: Checker, lines: bool) -> bool:
    """``--json`` (a list, streamed) or ``--jsonl``: the objects of :class:`~pancli.render.exports.JsonBatch`,
    written a slice of input at a time, error lines on stderr. True when all legal."""
    # start-up: pan check does without these
    from pancli.render.exports import JsonBatch
    from pancli.render.stream import JsonStream

    file, blocks = _input_blocks(args)
    stream = JsonStream(lines, flush_each=False, raw=getattr(sys.stdout, "buffer", None))
    batch = JsonBatch(checker.batch(file))
    all_legal = True
    for items, errors in batch.slices(blocks):
        stream.add_all(items)
        if errors:
            all_legal = False
            sys.stderr.write(errors)
    stream.close()
    return all_legal


def _check_pagruc(args: list[str], as_json: bool, as_jsonl: bool) -> int:
    """``pan check --game pagruc``: PAGRUC melds (G4) and their points (G7); returns the exit status."""
    items = input_lines(args, NOTHING_TO_CHECK)
    if as_json or as_jsonl:
        # start-up: pan check does without these
        from pancli.render.exports import check_item
        from pancli.render.stream import stream_reports

        judged = assess_pagruc_all(items)
        clean = stream_reports(judged, as_jsonl, check_item, lambda r: None if r.legal else meld_error(r))
        return EXIT_OK if clean else EXIT_ILLEGAL
    reports = list(assess_pagruc_all(items))
    if stdout_is_terminal():
        # start-up: rich only for a terminal
        from pancli.render.melds import pagruc_meld_table

        stdout_console().print(pagruc_meld_table(reports))
    else:
        sys.stdout.write("".join(meld_row(r) + "\n" for r in reports))
    sys.stdout.flush()
    errors = [meld_error(r) + "\n" for r in reports if not r.legal]
    sys.stderr.write("".join(errors))
    return EXIT_ILLEGAL if errors else EXIT_OK


@click.command(
    "check",
    epilog="Exit status: 0 every meld legal, 1 some meld illegal or unreadable, 2 usage error.",
)
@click.argument("melds", nargs=-1, metavar="MELD...")
@json_option
@jsonl_option("Print one JSON object per meld and line (the objects of --json), as each is judged.")
@rules_option
@game_option
@click.pass_context
def check(ctx: click.Context, melds: tuple[str, ...], as_json: bool, as_jsonl: bool, rules: str, game: str) -> None:
    """Is each meld legal? Its kind, condition (C1-C5), value, and the rule broken when not.

    Each argument is one meld (quote it). With '-', or no argument and piped input,
    standard input is read: one meld per line; blank lines are skipped and '#' starts
    a comment anywhere on a line. Melds are written as card lists ('5s 5s 5s', '5s,5s,5s', '5s5s5s'), set
    shorthand ('5sss', '5hcd') or rope shorthand ('3-5h', '6-Jd').

    \b
    Examples:
      pan check "5s 5s 5s" "7c 7s 7s" 3-5h        # exits 1: 7c 7s 7s is illegal (M3)
      printf '5sss\\n# a comment\\nQh Kh Ah\\n' | pan check -   # exits 1: Qh Kh Ah wraps (E2)
      pan check --json --rules cardroom J-Kc

    On a terminal the result is a table. In a pipe each meld is one line of seven
    tab-separated fields, '-' for an empty field:

    \b
      MELD  legal|illegal  KIND  CONDITION  VALUE  RULE  REASON
      5s 5s 5s	legal	set	C2	4	-	one-suit set; C2 valle set, one suit

    MELD is the canonical text (ropes low to high), KIND rope or set, CONDITION C1..C5
    (C4+C5 for a rope from A to K), VALUE the units each active opponent pays (C6),
    RULE the rule broken. --json prints a list of objects with the fields meld, legal,
    kind, condition, value, rule, reason (and conditions, shape, file, line, col,
    player, message), written as the melds are judged; --jsonl prints the same objects,
    one per line.

    Every illegal or unreadable meld is also reported on standard error as
    'FILE:LINE:COL: RULE message', FILE being '-' for standard input (LINE its line
    number) or '<arg>' for arguments (LINE the argument's position); COL is the column
    of a notation error, 1 for a readable meld that breaks a rule.
    """
    json_mode(as_json, as_jsonl)
    pagruc = game.lower() == PAGRUC
    args = list(melds)
    if pagruc and ctx.get_parameter_source("rules") is ParameterSource.COMMANDLINE:
        raise click.UsageError("--rules picks a Panguingue profile; PAGRUC has one set of rules (G1-G9)")
    checker = None if pagruc else Checker.of(load_profile(rules))
    hint = one_card_each_hint(args, game)  # (after the usage errors: the melds are then judged)
    if hint:
        ctx.call_on_close(lambda: sys.stderr.write(hint))
    if checker is None:
        ctx.exit(_check_pagruc(args, as_json, as_jsonl))
    if as_json or as_jsonl:
        ctx.exit(EXIT_OK if _json_batch(args, checker, as_jsonl) else EXIT_ILLEGAL)
    if not stdout_is_terminal():
        ctx.exit(EXIT_OK if _plain_batch(args, checker) else EXIT_ILLEGAL)
    ctx.exit(_terminal(args, checker))


def one_card_each_hint(args: list[str], game: str) -> str:
    """The line that tells a user who wrote one meld's cards as separate arguments
    (``pan check 7c 7s 7s``: three one-card melds, each M1, or G4 in PAGRUC) how to write
    them as one meld; empty unless there are two or more arguments, each a single card.

    >>> one_card_each_hint(["7c", "7s", "7s"], "panguingue")
    'pan check: each argument is one meld; to check these cards as one meld, quote them: pan check "7c 7s 7s"\\n'
    >>> one_card_each_hint(["7c 7s 7s"], "panguingue"), one_card_each_hint(["7c", "5sss"], "panguingue")
    ('', '')
    """
    if not one_card_each(args, game_named(game)):
        return ""
    quoted = f'pan check "{" ".join(args)}"'
    return f"pan check: each argument is one meld; to check these cards as one meld, quote them: {quoted}\n"


TABLE_COLUMNS = 80
"""The narrowest terminal that gets a table (seven columns cannot share fewer without cutting words)."""


def _input_ends_soon(wait: float = 0.4) -> bool:
    """Whether standard input has something to say (more lines, or its end) within ``wait``
    seconds; False for a writer that is slow (the rows are then shown as they come)."""
    import select  # start-up: pan check does without it

    try:
        ready, _, _ = select.select([sys.stdin.fileno()], [], [], wait)
    except (OSError, ValueError):  # no file descriptor (tests): read on
        return True
    return bool(ready)


def _terminal(args: list[str], checker: Checker) -> int:
    """A terminal: a table when the melds fit on one screen of at least :data:`TABLE_COLUMNS`
    columns; else (past a screenful, or a narrow screen) the plain rows as they are judged (a
    rich table shows nothing until its last row is judged), wrapped at whole words to the screen's
    width, so no card or rule id is cut in half. Returns the exit status."""
    from pancli.render.terminal import size, wrap  # start-up: pan check does without it

    file, blocks = _input_blocks(args)
    pending = iter(blocks)
    first = next(pending, [])
    screen = size()
    stdin = file == STDIN_FILE
    items = [
        InputLine(file, n, batch_text(t) if stdin else t)
        for n, t in enumerate(first, 1)
        if not (stdin and is_skipped(t))
    ]
    second = None
    fits = screen.columns >= TABLE_COLUMNS and len(items) <= max(screen.lines - 6, 5)
    if fits and file == STDIN_FILE:
        fits = _input_ends_soon()
        second = next(pending, None) if fits else None  # at once: the input has ended or more has come
        fits = second is None
    if fits:
        reports = [checker.assess(item) for item in items]
        return render_reports(reports, False, title=f"pan check ({checker.profile_name})")
    batch = PlainRows(checker.batch(file))
    width = screen.columns
    err_width = width if sys.stderr.isatty() else 0
    all_legal = True
    n = 0
    for block in itertools.chain([first], [] if second is None else [second], pending):
        out, err = batch.rows(block, n)
        n += len(block)
        sys.stdout.write(wrap(out, width))
        sys.stdout.flush()
        if err:
            all_legal = False
            sys.stderr.write(wrap(err, err_width) if err_width else err)
    return EXIT_OK if all_legal else EXIT_ILLEGAL


def render_reports(reports: list[MeldCheck], as_json: bool, title: str) -> int:
    """Write reports as JSON or a rich table, error lines on stderr; return the exit status."""
    if as_json:
        # start-up: pan check does without these
        from pancli.render.exports import check_item
        from pancli.render.stream import write_json

        write_json([check_item(r) for r in reports])
    else:
        # start-up: rich only for a terminal
        from pancli.render.melds import meld_table

        stdout_console().print(meld_table(reports, title))
    sys.stdout.flush()

    terminal = not as_json  # the table was drawn for a terminal
    errors = [meld_error(r) + (rule_hint(r.rule) if terminal else "") + "\n" for r in reports if not r.legal]
    sys.stderr.write("".join(errors))
    return EXIT_ILLEGAL if errors else EXIT_OK
