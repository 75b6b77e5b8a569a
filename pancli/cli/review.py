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
from typing import IO, TYPE_CHECKING, Any

import click

from pancli.cli.common import (
    EXIT_ILLEGAL,
    EXIT_OK,
    IOFailure,
    check_readable,
    complete_paths,
    error_line,
    json_mode,
    json_option,
    jsonl_option,
    load_profile,
    open_text,
    output_file,
    record_files,
    refuse_output_into_input,
    refuse_writing_an_input,
    rules_override_option,
    same_file,
    seed_option,
    worker_count,
)
from pancli.cli.progress import Progress, quiet_option, wanted
from pancli.escapes import escape_text

if TYPE_CHECKING:
    from pancli.analyze.review import Options
    from pancli.app.review import HandReview, Totals
    from pancli.render.html import HtmlReport
    from pancli.rules import Profile


class ReviewRefused(Exception):
    """``-o`` onto a record read whose text cannot be written back whole: nothing is replaced."""


SUMMARY_HEAD = ("player", "reviewed", "!", "?!", "?", "??", "units given up", "lines not reviewed")


def summary_lines(totals: Totals, skips: list[str]) -> list[str]:
    """The per-player table (columns aligned), then one line per run of play lines not reviewed.

    >>> from pancli.app.review import Totals
    >>> print("\\n".join(summary_lines(Totals(), [])))
    player  reviewed  !  ?!  ?  ??  units given up  lines not reviewed
    """
    rows = [list(SUMMARY_HEAD)]
    for r in totals.table():
        rows.append([r["player"], str(r["reviewed"]), str(r["!"]), str(r["?!"]), str(r["?"]), str(r["??"]),
                     f"{r['chips']:.2f}", str(r["not_reviewed"])])  # fmt: skip
    widths = [max(len(row[k]) for row in rows) for k in range(len(SUMMARY_HEAD))]
    out = []
    for row in rows:
        cells = [row[0].ljust(widths[0]), *(c.rjust(w) for c, w in zip(row[1:], widths[1:], strict=True))]
        out.append("  ".join(cells).rstrip())
    return out + skips


class _Writer:
    """Writes each hand's review as it comes, in record order."""

    def __init__(
        self,
        record: IO[str] | None,
        as_json: bool,
        as_jsonl: bool,
        progress: Progress,
        html: HtmlReport | None = None,
        html_name: str = "",
        profile: Profile | None = None,
    ) -> None:
        from pancli.app.review import Totals

        self.record = record
        self.html, self.html_name, self.profile = html, html_name, profile
        self.lines = 0
        """Lines of the reviewed record written so far (the page numbers its lines as the record's)."""
        self.as_json, self.as_jsonl = as_json, as_jsonl
        self.progress = progress
        self.totals = Totals()
        self.skips: list[str] = []
        self.skip_data: list[dict[str, Any]] = []
        self.judgements: list[dict[str, Any]] = []
        self.errors: list[dict[str, Any]] = []
        self.hands = 0
        self.bad = 0
        self.malformed = 0

    def _line(self, obj: dict[str, Any]) -> None:
        from pancli.jsontext import dumps

        sys.stdout.write(dumps(obj) + "\n")

    def show(self, r: HandReview) -> None:
        from pancli.app.review import judgement_json

        self.progress.advance()
        self.totals.add(r)
        if self.record is not None:
            self.record.write(("\n" if self.hands else "") + r.text)
        if self.html is not None:
            self._page(r)
        self.lines += (1 if self.hands else 0) + r.text.count("\n")
        self.hands += 1
        self.malformed += r.malformed
        if r.error is not None:
            self.bad += 1
            e = r.error
            sys.stderr.write(error_line(e["file"], e["line"], e["col"], e["rule"], e["message"]) + "\n")
            self.errors.append(e)
            if self.as_jsonl:
                self._line({"event": "error", "hand": r.hand, **e})
        for j in r.judgements:
            obj = judgement_json(r, j)
            if self.as_jsonl:
                self._line({"event": "judgement", **obj})
            else:
                self.judgements.append(obj)
        for s in r.skipped:
            self.skips.append(escape_text(f"{r.file} hand {r.hand}: {s.player}: {s.text()}"))
            data = {"file": r.file, "hand": r.hand, "player": s.player, "line": s.line, "count": s.count,
                    "reason": s.reason}  # fmt: skip
            if self.as_jsonl:
                self._line({"event": "not_reviewed", **data})
            else:
                self.skip_data.append(data)

    def _page(self, r: HandReview) -> None:
        """The reviewed hand on the page of ``--html``, as ``pan replay --html`` draws it: the marks with
        their actions, the reviewer's comments in the comments column (lines as in the reviewed record)."""
        import io

        from msgspec.structs import replace

        from pancli.app.replay import referee
        from pancli.app.report import HandReport
        from pancli.records.reader import read_chunk, split_hands

        assert self.html is not None
        base = None if r.file == "-" else Path(r.file).parent
        for chunk in split_hands(io.StringIO(r.text), 1):
            placed = replace(chunk, first_line=chunk.first_line + self.lines + (1 if self.hands else 0),
                             first_index=r.hand)  # fmt: skip
            for hand in read_chunk(placed, self.html_name, base):
                if hand.script is None:
                    self.html.malformed(hand)
                    continue
                script = hand.script if self.profile is None else replace(hand.script, profile=self.profile)
                self.html.hand(HandReport(hand, script, referee(script)))

    def tally_text(self) -> str:
        """The page's summary line: hands, decisions reviewed, marks."""
        rows = self.totals.table()
        marks = ", ".join(f"{sum(r[m] for r in rows)} {m}" for m in ("??", "?", "?!", "!"))
        reviewed = sum(r["reviewed"] for r in rows)
        return f"{self.hands} hand{'s' if self.hands != 1 else ''} reviewed: {reviewed} decisions, marks {marks}"

    def finish(self, summary: IO[str] | None) -> None:
        from pancli.cli.common import emit_json

        if self.as_jsonl:
            for row in self.totals.table():
                self._line({"event": "summary", **row})
        elif self.as_json:
            emit_json(
                {"judgements": self.judgements, "summary": self.totals.table(), "not_reviewed": self.skip_data,
                 "errors": self.errors}
            )  # fmt: skip
        elif summary is not None:
            summary.write("\n".join(summary_lines(self.totals, self.skips)) + "\n")


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
@quiet_option
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
    (P1, P3), what was laid down (P4) and which card was discarded (P5, P9). Each judgement
    measures the units given up (at once, or expected) and the drop in the odds of going out
    within K draws (--depth), estimated with a stated error; a loss marks the play ?! (2 units
    in all, or 5 points of odds), ? (4 units, 10 points) or ?? (8 units, 20 points), never
    when the loss is within two standard errors. The best discard where most others would
    earn ? or worse is marked !.

    The output is the record in canonical form (as pan fmt writes it) with each mark after
    its action and a comment naming the better play and what it was worth:
    '{review ?: better discard Kc: ...}'. A comment '{review (?): ...}' holds the mark when
    the action already carried the record's own glyph (kept) or is a stay or top line. A
    second review replaces every '{review ...}' comment (and the glyphs they own). The
    summary per player (decisions reviewed, marks, units given up in the mistakes, play lines
    not reviewed and why) goes to standard error (standard output with -o or --summary).

    --html OUT.html also writes the page of pan replay --html for the reviewed record, the
    marks and comments in each hand's timeline.

    --json prints one object: 'judgements' (each with file, hand, line, player, kind, played,
    best, chips, odds, mark, ...), 'summary', 'not_reviewed' and 'errors'; --jsonl one object
    per line as each hand is reviewed.

    Exit status: 0 reviewed, 1 a hand breaks a rule (reviewed up to it) or cannot be read,
    2 usage error or a file that cannot be read.

    \b
    Examples:
      pan samples friday-hoyle | pan review -
      pan review "$(pan samples --path friday-hoyle)" -o friday-reviewed.pan
      pan simulate --players 6 --hands 2 --seed 2 | pan review --summary -
      pan review --json "$(pan samples --path friday-hoyle)" | jq '.judgements[] | select(.mark == "??")'
      pan review --player Ana --depth 5 --samples 1000 "$(pan samples --path friday-hoyle)"
    """
    from pancli.analyze.review import Options

    json_mode(as_json, as_jsonl)
    if summary_only and (as_json or as_jsonl or output is not None):
        raise click.UsageError("--summary prints the table alone: not with --json, --jsonl or -o")
    names = record_files(files)
    for name in names:
        check_readable(name)
    for target in (output, html):
        if target is not None and not Path(target).absolute().parent.is_dir():
            raise IOFailure(target, "write", "no such folder")
    refuse_writing_an_input(html, names, "--html")
    in_place = output is not None and any(n != "-" and same_file(output, n) for n in names)
    structured = as_json or as_jsonl
    if output is None and not structured and not summary_only:
        refuse_output_into_input(names)
    if player is not None:
        from pancli.notation.record_common import player_name

        player = player_name(player)
    profile = None if rules is None else load_profile(rules)
    opts = Options(depth=depth, samples=samples, advice_samples=advice_samples, seed=seed)
    try:
        writer = _review_into(names, output, html, structured, summary_only, as_json, as_jsonl, quiet, profile,
                              opts, player, jobs, in_place)  # fmt: skip
    except ReviewRefused as exc:
        sys.stderr.write(escape_text(str(exc)) + "\n")
        sys.exit(EXIT_ILLEGAL)
    summary = None if structured else sys.stdout if (output is not None or summary_only) else sys.stderr
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
    profile: Profile | None,
    opts: Options,
    player: str | None,
    jobs: int,
    in_place: bool,
) -> _Writer:
    """Review the records into the outputs asked for (each file written atomically, or not at all)."""
    from pancli.app.review import review_files

    with ExitStack() as stack:
        record: IO[str] | None = None
        if output is not None:
            from pancli.files import atomic_write

            try:
                record = stack.enter_context(atomic_write(output))
            except OSError as exc:
                raise IOFailure(output, "write", exc) from None
        elif not structured and not summary_only:
            record = sys.stdout
        report = None
        if html is not None:
            from pancli.files import atomic_write
            from pancli.render.html import HtmlReport

            try:
                page = stack.enter_context(atomic_write(html))
            except OSError as exc:
                raise IOFailure(html, "write", exc) from None
            report = HtmlReport(page, f"pan review {' '.join(names)}")
        progress = stack.enter_context(Progress("review", None, "hands", enabled=wanted(quiet)))
        name = output if output is not None else f"review of {', '.join(names)}"
        writer = _Writer(record, as_json, as_jsonl, progress, report, name, profile)
        review_files(names, writer.show, open_record=open_text, opts=opts, player=player, profile=profile,
                     jobs=worker_count(jobs))  # fmt: skip
        if in_place and writer.malformed:
            # A malformed hand's text is what the reader kept of it (a line past the limit cut):
            # the record is left as it was, as pan fmt --write leaves it.
            raise ReviewRefused(f"{output}: left unchanged: {writer.malformed} malformed hand(s)")
        if report is not None:
            report.close(writer.tally_text())
    return writer
