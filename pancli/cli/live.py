"""``pan live FILE``: keep the score at the table, every line judged as it is entered.

On a terminal, a full-screen view (:mod:`pancli.render.live_view`, Textual, imported only
here); when standard input is not a terminal, the line mode: one line in, one judgement out
(plain, or ``--jsonl`` events). What the session does is :mod:`pancli.app.live`'s.

Exit status (line mode): 0 every line accepted, 1 some line refused or a command not done
(``rules`` of no rule), 2 a usage error (a FILE that is not a record, cannot be written, or is
kept by another ``pan live``; an option that says otherwise than an existing record's tags).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import IO, TYPE_CHECKING, Any

import click
from click.core import ParameterSource

from pancli.cli.common import (
    EXIT_ILLEGAL,
    EXIT_OK,
    EXIT_USAGE,
    complete_paths,
    game_option,
    jsonl_option,
    load_profile,
    stdin_text,
)
from pancli.render.text import escaped

if TYPE_CHECKING:
    from pancli.app.live import LiveOptions


class BadRecord(click.ClickException):
    """An existing FILE that is not a record: its place and rule on standard error, exit 2 (what
    docs/commands.md gives every FILE pan live cannot keep), with no usage banner."""

    exit_code = EXIT_USAGE

    def show(self, file: IO[Any] | None = None) -> None:
        sys.stderr.write(self.format_message() + "\n")


def _complete_rules(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[object]:
    from pancli.cli.completion import complete_rules  # start-up: pan live --help does without it

    return list(complete_rules(ctx, param, incomplete))


@click.command(
    "live",
    epilog="Exit status: 0 every line accepted, 1 some line refused or a command not done (rules of no rule),"
    " 2 a usage error.",
)
@click.argument("file", metavar="FILE", shell_complete=complete_paths)
@click.option(
    "--players",
    default=None,
    metavar='"A B C ..."',
    help="A new record's players, in order of play (an existing record's own, or refused).",
)
@click.option(
    "--rules",
    "rules",
    default=None,
    metavar="NAME|FILE",
    help="A new record's rules: hoyle, cardroom, or a house-rules TOML file (an existing record's own, or refused).",
    shell_complete=_complete_rules,
)
@click.option("--stake", default=None, metavar="MONEY", help="The money value of one unit (e.g. 0.25).")
@game_option
@jsonl_option(help="Line mode: one JSON object per event (as pan replay --jsonl writes them).")
@click.option("--lines", "line_mode", is_flag=True, help="The line mode even on a terminal.")
def live(
    file: str, players: str | None, rules: str | None, stake: str | None, game: str, as_jsonl: bool, line_mode: bool
) -> None:
    """Keep the score at the table: each line entered is judged at once, and written when legal.

    A new FILE gets its tags from the options; an existing one is refereed and play goes on
    at its end (--players, --rules and --game must then say what its tags say). Each line is
    a record line (deal, up, stay/top, a turn, force, call, count, mend, back, reshuffle,
    comments); a legal one is appended and on the disk before the
    next is read, an illegal one is refused with its ruling and not written. When a hand ends
    the next begins seated as S3 requires (the winner first; PAGRUC: G8). Commands: undo (take back the
    last line written), settle (the night so far), rules ID (one rule explained), quit.
    On a terminal, a full-screen view; when standard input is not a terminal, one judgement
    per line (--jsonl: JSON events).

    On a terminal, `pan live night.pan --players "Ana Ben Cruz Dee"` opens the view; run
    `pan live night.pan` again to resume the night.

    \b
    Examples:
      printf 'Ana stay\\nBen stay\\n' | pan live night.pan --players "Ana Ben"
      printf 'Ana stay\\nBen top\\n' | pan live --jsonl tuesday.pan --players "Ana Ben" --stake 0.25
      printf 'Ana stay\\nCruz stay\\n' | pan live friday.pan --players "Ana Ben Cruz"  # exits 1: T1
    """
    # start-up: pan live --help does without these
    from pancli.app.live import LiveProblem, NotARecord, Session, Unseatable, keep_score

    given = click.get_current_context().get_parameter_source("game") is not ParameterSource.DEFAULT
    options = _options(file, players, rules, stake, game if given else None)  # None: a record's own game
    session = Session(file, options)
    terminal = sys.stdin.isatty() and sys.stdout.isatty() and not line_mode and not as_jsonl
    try:
        session.open()
    except NotARecord as exc:  # the command line is right, the file is not: no usage banner
        from pancli.render.live import not_a_record_text  # start-up: only a FILE that is not a record

        raise BadRecord(not_a_record_text(exc)) from None
    except Unseatable as exc:
        from pancli.render.live import unseatable_text  # start-up: only a usage error needs it

        raise click.UsageError(escaped(unseatable_text(exc))) from None
    except LiveProblem as exc:
        raise click.UsageError(escaped(str(exc))) from None
    except OSError as exc:
        raise click.UsageError(escaped(f"cannot keep {file}: {exc.strerror or exc}")) from None
    try:
        if terminal:
            # start-up: Textual only for the full-screen view
            from pancli.render.live_view import run_view

            clean = run_view(session)
        else:
            # start-up: line mode does without Textual
            from pancli.render.live import JsonlLive, PlainLive

            out = JsonlLive() if as_jsonl else PlainLive()
            clean = keep_score(session, _stdin_lines(), out)
    finally:
        session.close()
    sys.stdout.flush()
    sys.exit(EXIT_OK if clean else EXIT_ILLEGAL)


def _stdin_lines() -> Iterator[str]:
    """Standard input, a line at a time as it comes (a script may wait for each judgement)."""
    stream = stdin_text()  # a byte that is not UTF-8 kept, as a record's: the line is refused (R2) where it stands
    while True:
        line = stream.readline()
        if not line:
            return
        yield line


def _options(file: str, players: str | None, rules: str | None, stake: str | None, game: str | None) -> LiveOptions:
    from pancli.app.live import LiveProblem, options_of  # start-up: pan live --help does without it

    if rules is not None:
        load_profile(rules)  # a usage error (exit 2) now, not at the first line
    try:
        return options_of(file, players, rules, stake, game)
    except LiveProblem as exc:
        raise click.BadParameter(escaped(str(exc)), param_hint="--stake") from None
