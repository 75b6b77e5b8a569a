"""``pan score --game pagruc "MELDS | HAND"``: a PAGRUC hand score, card by card (G7)."""

from __future__ import annotations

import sys
from collections.abc import Iterable

import click

from pancli.app.lines import ARG_FILE, GAMES, PAGRUC, STDIN_FILE, InputLine
from pancli.app.score import PacksProblem, Scorer
from pancli.cli.common import (
    EXIT_ILLEGAL,
    EXIT_OK,
    json_mode,
    json_option,
    jsonl_option,
    reads_stdin,
    stdin_blocks,
    stdin_lines,
)
from pancli.render.score import ScoreRows, packs_text, score_error, score_error_or_none, score_text
from pancli.render.text import stdout_is_terminal


def _plain_stream(blocks: Iterable[list[str]], batch: ScoreRows) -> int:
    """The pipe path (:class:`~pancli.render.score.ScoreRows`): each block's text as it is read,
    its error lines after it; returns the exit status."""
    for text, errors in batch.blocks(blocks):
        sys.stdout.write(text)
        sys.stdout.flush()
        sys.stderr.write(errors)
    sys.stdout.flush()
    return EXIT_ILLEGAL if batch.failed else EXIT_OK


@click.command(
    "score",
    epilog="Exit status: 0 scored, 1 a meld is illegal or the text unreadable, 2 usage error.",
)
@click.argument("text", nargs=-1, metavar="MELDS | HAND")
@click.option(
    "--game",
    type=click.Choice(GAMES, case_sensitive=False),
    default=PAGRUC,
    show_default=True,
    help="The game: only pagruc has hand scores.",
)
@click.option(
    "--packs",
    type=int,
    default=None,
    help="52-card packs in play (G1): how many copies of a card may appear  [default: the most a game uses].",
)
@json_option
@jsonl_option("One JSON object per hand and line (the objects of --json), as each is scored.")
@click.pass_context
def score(
    ctx: click.Context, text: tuple[str, ...], game: str, packs: int | None, as_json: bool, as_jsonl: bool
) -> None:
    """A PAGRUC hand score (G7), card by card: melded cards plus, cards left in the hand minus.

    The arguments together are one hand: the melds in [ ] (one group a meld), then '|',
    then the cards left in the hand. Without '|' the [ ] groups are the melds and the loose
    cards the hand. With '-', or no argument and piped input, each line of standard input is
    one hand (blank lines skipped; '#' starts a comment anywhere on a line).

    Points (G7): 2 to 10 face value, J Q K 10; an ace 1 in a run, 15 in a set, minus 15 in
    the hand; every card left in the hand counts minus.

    \b
    Examples:
      pan score --game pagruc "[5h 6h 7h] [Ac Ad As] | Ks Ah"     # 38
      pan score --json "[8c 9c 10c] | Qd 2s"
      printf '[2-4s] | Kh\\n| As Ad\\n' | pan score -

    --json prints one object for the arguments (a list for standard input) with the
    fields score, table, hand, melds (meld, kind, points) and cards (card, where, points,
    meld); an unscorable hand has score null and an error (rule, message, col).
    An illegal meld is reported on standard error as 'FILE:LINE:COL: RULE message'.
    """
    json_mode(as_json, as_jsonl)
    if game.lower() != PAGRUC:
        raise click.UsageError("pan score scores PAGRUC hands only (--game pagruc); Panguingue has no hand score")
    try:
        scorer = Scorer.of(packs)
    except PacksProblem as exc:
        raise click.BadParameter(packs_text(exc), param_hint="'--packs'") from None
    from_stdin = reads_stdin(text)
    items: Iterable[InputLine]
    if from_stdin:
        items = stdin_lines()
    elif text:
        items = [InputLine("<arg>", 1, " ".join(text))]
    else:
        raise click.UsageError("nothing to score: give 'MELDS | HAND', or '-' to read standard input")
    if as_jsonl or (as_json and from_stdin):  # a batch: each hand written as it is scored
        # start-up: the encoder only for --json and --jsonl
        from pancli.render.exports import score_item
        from pancli.render.stream import stream_reports

        clean = stream_reports(scorer.placed(items), as_jsonl, score_item, score_error_or_none)
        ctx.exit(EXIT_OK if clean else EXIT_ILLEGAL)
    if not as_json and not stdout_is_terminal():
        ctx.exit(
            _plain_stream(stdin_blocks(), ScoreRows(scorer, STDIN_FILE))
            if from_stdin
            else _plain_stream([[" ".join(text)]], ScoreRows(scorer, ARG_FILE))
        )
    reports = list(scorer.placed(items))
    if as_json:
        # start-up: the encoder only for --json
        from pancli.render.exports import score_item
        from pancli.render.stream import write_json

        docs = [score_item(r) for r in reports]
        write_json(docs if from_stdin else docs[0])
    elif stdout_is_terminal():
        # start-up: rich only for a terminal
        from pancli.render.melds import print_scores

        print_scores(reports)
    else:
        sys.stdout.write("".join(score_text(r) for r in reports))
    sys.stdout.flush()
    errors = [score_error(r) + "\n" for r in reports if r.score is None]
    sys.stderr.write("".join(errors))
    ctx.exit(EXIT_ILLEGAL if errors else EXIT_OK)
