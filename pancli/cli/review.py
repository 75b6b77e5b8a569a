"""``pan review FILE... | -``: the analyzer annotates played hands (docs/commands.md).

The work is :mod:`pancli.app.review` (walking the refereed hands) and :mod:`pancli.analyze.review`
(judging each decision); this module checks the options and writes: the annotated record (standard
output, or ``-o FILE`` atomically), the per-player summary (standard error, or standard output with
``-o`` or ``--summary``), or the judgements as ``--json`` / ``--jsonl``; ``--html`` adds the page of
``pan replay --html`` for the reviewed record.
"""

from __future__ import annotations

import sys
from contextlib import ExitStack
from pathlib import Path
from typing import IO

import click

from pancli.app.lines import player_option
from pancli.app.review import review_files, review_options
from pancli.cli.common import (
    EXIT_ILLEGAL,
    EXIT_OK,
    EXIT_USAGE,
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
    refuse_output_into_input,
    refuse_two_outputs,
    refuse_writing_an_input,
    rules_override_option,
    same_file,
    say_on_stderr,
    seed_option,
    worker_count,
)
from pancli.cli.progress import Progress, wanted
from pancli.render.review import ReviewWriter
from pancli.render.text import escaped


class ReviewRefused(Exception):
    """``-o`` onto a record read whose text cannot be written back whole: nothing is replaced."""


class NobodySeated(click.ClickException):
    """``--player NAME`` seated in no hand reviewed (R5): a usage error, exit 2, as ``pan analyze``'s;
    nothing is written (the hands are held until one seats the name: :class:`ReviewWriter`), and
    the files ``-o`` and ``--html`` would have written are left as they were."""

    exit_code = EXIT_USAGE

    def show(self, file: IO[str] | None = None) -> None:
        sys.stderr.write(escaped(self.format_message()) + "\n")


@click.command("review")
@click.argument("files", nargs=-1, metavar="FILE... | -", shell_complete=complete_paths)
@click.option("--player", "player", metavar="NAME", help="Review only NAME's decisions.")
@click.option("--depth", type=click.IntRange(1, 10), default=3, show_default=True, metavar="K",
              help="The odds are of going out within K draws.")  # fmt: skip
@click.option("--samples", type=click.IntRange(10, 100_000), default=400, show_default=True, metavar="N",
              help="Monte Carlo paths of the odds (at most N; they stop at s.e. 0.5/sqrt(N)).")  # fmt: skip
@click.option("--advice-samples", type=click.IntRange(10, 100_000), default=40, show_default=True, metavar="N",
              help="Simulated hands of the stay-or-top advice (T1).")  # fmt: skip
@seed_option("Seed of the odds and the advice (same seed, same review).", default=1)
@click.option("--output", "-o", "output", metavar="FILE", type=click.Path(dir_okay=False), default=None,
              callback=output_file(to_stdout=True),
              help="Write the annotated record to FILE (atomically; it may be the input); the summary goes to"
                   " standard output.")  # fmt: skip
@click.option("--summary", "summary_only", is_flag=True, help="Print only the per-player summary, not the record.")
@click.option("--html", "html", metavar="OUT.html", type=click.Path(dir_okay=False), default=None,
              callback=output_file(to_stdout=False),
              help="Also write the page of pan replay --html for the reviewed record: the marks and comments in"
                   " each hand's timeline.")  # fmt: skip
@json_option
@jsonl_option("One JSON object per line: each judgement, run of lines not reviewed and error, then the summary rows.")
@rules_override_option
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(min=0),
    default=1,
    show_default=True,
    metavar="N",
    help="Review hands in N worker processes (0: one per CPU); the output is the same, in the same order.",
)
@click.option(
    "--quiet", "-q", is_flag=True, help="Nothing on standard error but the errors: no progress line, no summary."
)
def review(
    files: tuple[str, ...],
    player: str | None,
    depth: int,
    samples: int,
    advice_samples: int,
    seed: int,
    output: str | None,
    summary_only: bool,
    html: str | None,
    as_json: bool,
    as_jsonl: bool,
    rules: str | None,
    jobs: int,
    quiet: bool,
) -> None:
    """Annotate played hands, as a chess engine annotates a game: where was a hand lost?

    Each hand is refereed; every decision before its first violation whose position the
    record shows (the player's cards from his deal line and the play) is compared with the
    analyzer's best choice: staying or going on top (T1), taking the live discard or drawing
    (P1, P3), what was laid down (P4), playing the draw or throwing it (P2) and which card was
    discarded (P5, P9). Each option is worth its expected units over the hand: the chips it
    collects (at once, and at the next usable draw within K draws, --depth, as the hand lasts)
    plus the chance of going out within K draws times what going out pays. A play that gives
    up 2 units in all is marked ?!, 4 units ?, 8 units ??, never when the loss is within two
    standard errors; the best discard where most others would earn ? or worse is marked !.
    A foul play (I1, I2, or a hand's first violation) is always ?? against the best legal play,
    its cost what the remedy returned; so is throwing a draw that would have put the player out.

    The output is the record in canonical form (as pan fmt writes it) with each mark after
    its action and a comment naming the better play and what it gives up, in chips and in
    going out: '{review ?: better discard Kc (gives up ...)}'. A comment '{review (?): ...}'
    holds the mark when the action already carried the record's own glyph (kept) or is a stay
    or top line. A second review replaces every '{review ...}' comment (and the glyphs they
    own). The summary per player (decisions reviewed, marks, units given up in the mistakes,
    expected units given up per 100 decisions, play lines not reviewed and why) goes to
    standard error (standard output with -o or --summary; --quiet leaves it out).

    --html OUT.html also writes the page of pan replay --html for the reviewed record, the
    marks and comments in each hand's timeline.

    --json prints one object: 'judgements' (each with file, hand, line, player, kind, played,
    best, chips, odds, mark, ...), 'summary', 'not_reviewed' and 'errors'; --jsonl one object
    per line as each hand is reviewed.

    Exit status: 0 reviewed, 1 a hand breaks a rule (reviewed up to it) or cannot be read,
    2 usage error (--player NAME seated in no hand reviewed: R5) or a file that cannot be read.

    \b
    Examples:
      pan samples friday-hoyle | pan review -
      pan review "$(pan samples --path friday-hoyle)" -o friday-reviewed.pan
      pan simulate --players 6 --hands 2 --seed 2 | pan review --summary -
      pan review --json "$(pan samples --path illegal-M3-foul-meld)" | jq '.judgements[] | select(.mark == "??")'
      pan review --player Ana --depth 5 --samples 1000 "$(pan samples --path friday-hoyle)"
    """
    json_mode(as_json, as_jsonl)
    if summary_only and (as_json or as_jsonl or output is not None):
        raise click.UsageError("--summary prints the table alone: not with --json, --jsonl or -o")
    names = record_files(files)
    for name in names:
        check_readable(name)
    for target in (output, html):
        if target is not None and not Path(target).absolute().parent.is_dir():
            raise IOFailure(target, "write", "no such folder")
    refuse_two_outputs(output, html, "-o and --html")
    refuse_writing_an_input(html, names, "--html", rules)
    # -o onto its own named record rewrites it (as fmt --write); onto standard input's file or a
    # house-rules file read it is refused
    refuse_writing_an_input(output, [n for n in names if n == "-"], "-o", rules)
    in_place = output is not None and any(n != "-" and same_file(output, n) for n in names)
    if not in_place:
        refuse_writing_an_input(output, names, "-o", rules)
    structured = as_json or as_jsonl
    if output is None and not structured and not summary_only:
        refuse_output_into_input(names, "-o FILE, which may be the input")
    if player is not None:
        player = player_option(player)
    try:
        writer = _review_into(names, output, html, structured, summary_only, as_json, as_jsonl, quiet, rules,
                              (depth, samples, advice_samples, seed), player, jobs, in_place)  # fmt: skip
    except ReviewRefused as exc:
        sys.stderr.write(escaped(str(exc)) + "\n")
        sys.exit(EXIT_ILLEGAL)
    # --quiet: nothing but the errors (and the record, or the table --summary asks for)
    summary = (
        None
        if structured or (quiet and not summary_only)
        else sys.stdout
        if (output is not None or summary_only)
        else sys.stderr
    )
    sys.stdout.flush()
    writer.finish(summary)
    sys.stdout.flush()
    sys.exit(EXIT_OK if not writer.bad else EXIT_ILLEGAL)


def _review_into(
    names: list[str],
    output: str | None,
    html: str | None,
    structured: bool,
    summary_only: bool,
    as_json: bool,
    as_jsonl: bool,
    quiet: bool,
    rules: str | None,
    looks: tuple[int, int, int, int],
    player: str | None,
    jobs: int,
    in_place: bool,
) -> ReviewWriter:
    """Review the records into the outputs asked for (each file written atomically, or not at all),
    under ``--rules`` when given, looking as hard as ``looks`` says (depth, samples, advice samples, seed)."""
    profile = None if rules is None else load_profile(rules)
    opts = review_options(*looks)
    with ExitStack() as stack:
        record: IO[str] | None = None
        if output is not None:
            # start-up: pan review does without these
            from pancli.files import atomic_write

            try:
                record = stack.enter_context(atomic_write(output))
            except OSError as exc:
                raise IOFailure(output, "write", exc) from None
        elif not structured and not summary_only:
            record = sys.stdout
        report = None
        if html is not None:
            # start-up: the page's writer only for --html
            from pancli.files import atomic_write
            from pancli.render.html import HtmlReport

            try:
                page = stack.enter_context(atomic_write(html))
            except OSError as exc:
                raise IOFailure(html, "write", exc) from None
            report = HtmlReport(page, f"pan review {' '.join(names)}")
        progress = stack.enter_context(Progress("review", None, "hands", enabled=wanted(quiet)))
        name = output if output is not None else f"review of {', '.join(names)}"
        writer = ReviewWriter(record, as_json, as_jsonl, progress, report, name, profile, player)
        review_files(names, writer.show, open_record=open_text, opts=opts, player=player, profile=profile,
                     jobs=worker_count(jobs), note=say_on_stderr, page=writer.page)  # fmt: skip
        if writer.unseated is not None:  # nothing was written: the hands were held for the name
            n = len(writer.held)
            hands = f"{n} hand{'s' if n != 1 else ''}"
            raise NobodySeated(f"pan: R5 --player {player}: nobody of that name is seated in the {hands} reviewed")
        if in_place and writer.malformed:
            # A malformed hand's text is what the reader kept of it (a line past the limit cut):
            # the record is left as it was, as pan fmt --write leaves it.
            raise ReviewRefused(f"{output}: left unchanged: {writer.malformed} malformed hand(s)")
        if report is not None:
            report.close(writer.tally_text())
    return writer
