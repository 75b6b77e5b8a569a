"""``pan pay MELD... --players N``: what laying melds (and going out with them) collects.

Each meld is judged as in ``pan check``; its value (C6) is what each active opponent pays
when it is laid (C7). The melds are taken as one player's: together they may hold no more
copies of a card than the pack (E4). With ``--out`` the player goes out with them and each
opponent pays the going-out bonus plus the value of all the melds again (C8).
"""

from __future__ import annotations

import sys
from collections.abc import Iterable

import click

from pancli.app.lines import ARG_FILE, STDIN_FILE, rules_object
from pancli.app.pay import PayBatch, PayReport, pay_report
from pancli.cli.common import (
    EXIT_ILLEGAL,
    EXIT_OK,
    NOTHING_TO_CHECK,
    input_lines,
    json_mode,
    json_option,
    jsonl_option,
    load_profile,
    players_option,
    reads_stdin,
    rules_option,
    seated_players,
    stdin_blocks,
)
from pancli.render.check import meld_error
from pancli.render.pay import PayRows, pay_rows, summary_text
from pancli.render.text import seated_text, stdout_is_terminal


@click.command(
    "pay",
    epilog="Exit status: 0 every meld legal, 1 some meld illegal or unreadable, 2 usage error.",
)
@click.argument("melds", nargs=-1, metavar="MELD...")
@players_option("Active players at the table (2-15, S1): the melder pays nothing, the other N-1 pay.")
@click.option("--out", "going_out", is_flag=True, help="The player goes out with these melds: add C8.")
@json_option
@jsonl_option("One JSON object per meld and line (as in 'pan check --jsonl'), then one line of totals.")
@rules_option
@click.pass_context
def pay(
    ctx: click.Context, melds: tuple[str, ...], players: int, going_out: bool, as_json: bool, as_jsonl: bool, rules: str
) -> None:
    """What one player's melds collect from each active opponent, and in all.

    Each argument is one meld (as in 'pan check'); with '-', or no argument and piped
    input, one meld per line of standard input ('#' starts a comment). Each meld pays its value as laid (C6,
    C7) from each of the N-1 active opponents. With --out the player goes out with
    these melds: each opponent also pays the going-out bonus (out_bonus of the
    profile) plus the value of all the melds again (C8); forfeits and tops are not
    counted, nor is the count of 11 cards checked (that is 'pan replay'). Nobody goes
    out with an illegal meld: with one, --out adds nothing (the going out line says
    so, and going_out is null in JSON).

    \b
    Examples:
      pan pay 5sss 3-5h --players 6
      pan pay "5s 5s 5s 5s" 7-Qc 2-4h --out --rules cardroom
      pan pay --json J-Kc As2s3s -n 4

    In a pipe the text is one tab-separated line per meld (MELD, CONDITIONS, VALUE,
    '-' for none), then 'label<TAB>units<TAB>explanation' lines: laid, going out
    (with --out), per opponent, opponents, total. --json prints an object with melds
    (as in 'pan check --json'), per_opponent, opponents, total, players, rules, laid
    and going_out. An illegal meld counts 0, is reported on standard error as
    'FILE:LINE:COL: RULE message', and the exit status is 1.
    """
    json_mode(as_json, as_jsonl)
    pan_rules = rules_object(load_profile(rules))
    players = seated_players(ctx, seated_text(pan_rules.seating(players)), players)
    if not as_json and not as_jsonl and not stdout_is_terminal():
        if reads_stdin(melds):
            ctx.exit(_plain_stream(stdin_blocks(), PayBatch(STDIN_FILE, pan_rules, players, going_out)))
        if not melds:
            raise click.UsageError(NOTHING_TO_CHECK)
        ctx.exit(_plain_stream([list(melds)], PayBatch(ARG_FILE, pan_rules, players, going_out)))
    result = pay_report(input_lines(melds, NOTHING_TO_CHECK), players, pan_rules, going_out)
    reports = result.melds
    if as_jsonl:
        ctx.exit(_pay_lines(result))
    if as_json:
        # start-up: pan pay does without these
        from pancli.render.exports import pay_item
        from pancli.render.stream import write_json

        write_json(pay_item(result))
    elif stdout_is_terminal():
        # start-up: rich only for a terminal
        from pancli.render.melds import print_pay

        print_pay(result)
    else:
        sys.stdout.write(pay_rows(reports) + summary_text(result))
    sys.stdout.flush()
    errors = [meld_error(r) + "\n" for r in reports if not r.legal]
    sys.stderr.write("".join(errors))
    ctx.exit(EXIT_ILLEGAL if errors else EXIT_OK)


def _plain_stream(blocks: Iterable[list[str]], batch: PayBatch) -> int:
    """The pipe path (:class:`~pancli.app.pay.PayBatch`): each block's rows as it is read, its
    error lines after it, the totals at the end; returns the exit status."""
    failed = False
    for rows, errors in PayRows(batch).blocks(blocks):
        sys.stdout.write(rows)
        sys.stdout.flush()
        sys.stderr.write(errors)
        failed = failed or bool(errors)
    sys.stdout.write(summary_text(batch.report()))
    sys.stdout.flush()
    return EXIT_ILLEGAL if failed else EXIT_OK


def _pay_lines(result: PayReport) -> int:
    """``--jsonl``: each meld's object (as ``pan check --jsonl``), then one line of totals (the
    object of ``--json`` without its ``melds``); returns the exit status."""
    # start-up: pan pay does without these
    from pancli.render.exports import check_item, pay_totals
    from pancli.render.stream import JsonStream

    lines = JsonStream(True)
    errors = False
    for r in result.melds:
        lines.add(check_item(r))
        if not r.legal:
            errors = True
            sys.stderr.write(meld_error(r) + "\n")
    lines.add(pay_totals(result))
    return EXIT_ILLEGAL if errors else EXIT_OK
