"""``pan check MELD...``: is each meld legal, what kind, which condition, what it pays.

Two paths. On a terminal, and with ``--json``, every meld becomes a
:class:`~pancli.cli.meld_output.MeldReport` rendered as a rich table or a JSON list.
In a pipe (the batch path) the output is one plain tab-separated line per meld, and the
loop is kept lean (benchmarks/README.md): standard input is read in 1 MB blocks, turned into
output by :class:`~pancli.cli.meld_output.PlainBatch` (which judges each distinct line,
or each multiset of canonical cards, once), and written in one block per input block.
Neither rich nor json is imported on that path.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator

import click

from pancli.cards import Game
from pancli.cli.common import (
    ARG_FILE,
    EXIT_ILLEGAL,
    EXIT_OK,
    NOTHING_TO_CHECK,
    STDIN_FILE,
    game_option,
    input_lines,
    json_option,
    load_profile,
    reads_stdin,
    resolve_game,
    rules_option,
    stdin_blocks,
    stdout_is_terminal,
)
from pancli.cli.meld_output import MeldReport, PlainBatch, assess
from pancli.rules import Profile


def _plain_batch(args: list[str], profile: Profile, game: Game) -> bool:
    """The pipe path: plain lines on stdout, error lines on stderr. True when all legal."""
    if reads_stdin(args):
        file = STDIN_FILE
        blocks: Iterator[list[str]] | list[list[str]] = stdin_blocks()
    elif args:
        file = ARG_FILE
        blocks = [args]
    else:
        raise click.UsageError(NOTHING_TO_CHECK)
    batch = PlainBatch(file, profile, game)
    write_out = sys.stdout.write
    write_err = sys.stderr.write
    all_legal = True
    n = 0
    for lines in blocks:
        out, err = batch.rows(lines, n)
        n += len(lines)
        write_out(out)
        if err:
            all_legal = False
            sys.stdout.flush()
            write_err(err)
    return all_legal


def _check_pagruc(args: list[str], as_json: bool) -> int:
    """``pan check --game pagruc``: PAGRUC melds (G4) and their points (G7); returns the exit status."""
    from pancli.cli.pagruc_render import check_pagruc

    return check_pagruc(input_lines(args, NOTHING_TO_CHECK), as_json)


@click.command(
    "check",
    epilog="Exit status: 0 every meld legal, 1 some meld illegal or unreadable, 2 usage error.",
)
@click.argument("melds", nargs=-1, metavar="MELD...")
@json_option
@rules_option
@game_option
@click.pass_context
def check(ctx: click.Context, melds: tuple[str, ...], as_json: bool, rules: str, game: str) -> None:
    """Is each meld legal? Its kind, condition (C1-C5), value, and the rule broken when not.

    Each argument is one meld (quote it). With '-', or no argument and piped input,
    standard input is read: one meld per line; blank lines and '#' comment lines are
    skipped. Melds are written as card lists ('5s 5s 5s', '5s,5s,5s', '5s5s5s'), set
    shorthand ('5sss', '5hcd') or rope shorthand ('3-5h', '6-Jd').

    \b
    Examples:
      pan check "5s 5s 5s" "7c 7s 7s" 3-5h
      printf '5sss\\n# a comment\\nQh Kh Ah\\n' | pan check -
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
    player, message).

    Every illegal or unreadable meld is also reported on standard error as
    'FILE:LINE:COL: RULE message', FILE being '-' for standard input (LINE its line
    number) or '<arg>' for arguments (LINE the argument's position); COL is the column
    of a notation error, 1 for a readable meld that breaks a rule.
    """
    chosen = resolve_game(game)
    args = list(melds)
    if chosen is Game.PAGRUC:
        from click.core import ParameterSource

        if ctx.get_parameter_source("rules") is ParameterSource.COMMANDLINE:
            raise click.UsageError("--rules picks a Panguingue profile; PAGRUC has one set of rules (G1-G9)")
        ctx.exit(_check_pagruc(args, as_json))
    profile = load_profile(rules)
    if not as_json and not stdout_is_terminal():
        ctx.exit(EXIT_OK if _plain_batch(args, profile, chosen) else EXIT_ILLEGAL)
    reports = [assess(item, profile, chosen) for item in input_lines(args, NOTHING_TO_CHECK)]
    ctx.exit(render_reports(reports, as_json, title=f"pan check ({profile.name})"))


def render_reports(reports: list[MeldReport], as_json: bool, title: str) -> int:
    """Write reports as JSON or a rich table, error lines on stderr; return the exit status."""
    if as_json:
        from pancli.cli.common import emit_json

        emit_json([r.to_json() for r in reports])
    else:
        from pancli.cli.common import stdout_console
        from pancli.cli.meld_output import meld_table

        stdout_console().print(meld_table(reports, title))
    sys.stdout.flush()
    from pancli.cli.common import rule_hint

    terminal = not as_json  # the table was drawn for a terminal
    errors = [r.error_line() + (rule_hint(r.rule) if terminal else "") + "\n" for r in reports if not r.legal]
    sys.stderr.write("".join(errors))
    return EXIT_ILLEGAL if errors else EXIT_OK
