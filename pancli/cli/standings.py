"""``pan standings FILE...``: a PAGRUC game from its records: official or not (G1, G8),
the totals and the PAGRUC points (G9)."""

from __future__ import annotations

import sys

import click

from pancli.app.standings import standings_of
from pancli.cli.common import (
    EXIT_ILLEGAL,
    EXIT_OK,
    check_readable,
    complete_paths,
    json_mode,
    json_option,
    jsonl_option,
    open_text,
    record_files,
)
from pancli.cli.progress import Progress, quiet_option, wanted
from pancli.render.standings import hand_events, plain_text, print_rich, standings_json
from pancli.render.text import error_line, stdout_is_terminal


@click.command(
    "standings",
    epilog="Exit status: 0 an official game, 1 not official (or a hand malformed or illegal), 2 usage error.",
)
@click.argument("files", nargs=-1, metavar="FILE...", shell_complete=complete_paths)
@json_option
@jsonl_option(
    "One JSON object per line: each hand as it is refereed ('event': 'hand'), then the standings"
    " ('event': 'standings', the fields of --json but 'hands')."
)
@quiet_option
@click.pass_context
def standings(ctx: click.Context, files: tuple[str, ...], as_json: bool, as_jsonl: bool, quiet: bool) -> None:
    """A PAGRUC game: is it official, each player's total, and the PAGRUC points.

    The game is every PAGRUC hand ([Game "pagruc"]) of the files, in order ('-', or no
    file and piped input, reads standard input); Panguingue hands are passed over. Each hand is refereed (G1-G7).

    The game is official (G1, G8) when 3 to 8 players play every hand, with the right
    packs; every hand is legal and finished; after each hand the player who played first
    deals the next (in a record the players are listed in order of play, dealer last, so
    each hand lists the last one's players turned by one); and every player has dealt the
    same number of times, from 1 to 5. PAGRUC points (G9): with N players the first gets
    N, each next place one fewer, never below 1; tied players share the better place.

    \b
    Examples:
      pan samples pagruc-common-room | pan standings
      pan standings "$(pan samples --path pagruc-common-room)" "$(pan samples --path pagruc-unofficial)"  # exits 1 (G8)
      pan samples pagruc-unofficial | pan standings --json   # exits 1: not official (G8)

    The second example exits 1: the two files are one game, and its hands 5 and 6
    have three players, so it is not official (G8). Why a game is not official is
    said on standard error, 'FILE:LINE:COL: RULE message'.
    --json prints official, players, hands (hand, file, line, dealer, first, winner,
    scores), totals, deals, standings (player, total, deals, place, points) and problems.
    """
    json_mode(as_json, as_jsonl)
    names = tuple(record_files(files))
    for name in names:
        check_readable(name)
    progress = Progress("standings", None, "hands", enabled=wanted(quiet))
    lines = None
    if as_jsonl:
        # start-up: pan standings does without these
        from pancli.render.stream import JsonStream

        lines = JsonStream(True)

    with progress:
        g, skipped = standings_of(names, open_text, hand_events(lines, progress.advance))
    if lines is not None:
        doc = standings_json(g, skipped)
        del doc["hands"]
        lines.add({"event": "standings", **doc})
    elif as_json:
        # start-up: the encoder only for --json
        from pancli.render.stream import write_json

        write_json(standings_json(g, skipped))
    elif stdout_is_terminal():
        print_rich(g)
    else:
        sys.stdout.write(plain_text(g))
    sys.stdout.flush()
    for p in g.problems:
        click.echo(error_line(p.file or names[0], p.line or 1, p.col, p.rule, p.message), err=True)
    ctx.exit(EXIT_OK if g.official else EXIT_ILLEGAL)
