"""The exporter of ``pan review``: each reviewed hand as it comes (the annotated record, the page
of ``--html``, the judgements as ``--json`` or ``--jsonl``), then the per-player summary."""

from __future__ import annotations

import sys
from typing import IO, TYPE_CHECKING, Protocol

import msgspec
from msgspec.structs import astuple

from pancli.app.lines import ErrorFields, error_line, escape_text
from pancli.app.report import HandReport
from pancli.app.review import ReviewPage, SummaryRow, Totals
from pancli.jsontext import Item, Line
from pancli.render.stream import JsonStream, write_json
from pancli.render.text import stdout_is_terminal

if TYPE_CHECKING:
    from pancli.analyze.review import Judgement
    from pancli.app.review import HandReview, Skip, Totals
    from pancli.render.html import HtmlReport
    from pancli.rules import Profile


class Ticker(Protocol):
    """Told of each hand reviewed (the progress line)."""

    def advance(self, n: int = ..., *, count: int = ...) -> None: ...


class JudgementItem(Item):
    """One judgement: the documented fields ``hand line player played best chips odds mark``,
    then the rest (sizes rounded to four places)."""

    file: str
    hand: int
    line: int
    player: str
    kind: str
    played: str
    best: str
    chips: float
    odds: float
    mark: str | None
    odds_played: float | None
    odds_best: float | None
    odds_se: float
    chips_se: float
    depth: int
    note: str
    chips_part: float
    out_part: float


class JudgementLine(JudgementItem, Line, tag="judgement"):
    """A judgement as a ``--jsonl`` line."""


def _judgement(kind: type[JudgementItem], r: HandReview, j: Judgement) -> JudgementItem:
    return kind(
        r.file, r.hand, j.line, j.player, j.kind, j.played, j.best, round(j.chips, 4), round(j.odds, 4),
        j.mark or None, None if j.odds_played is None else round(j.odds_played, 4),
        None if j.odds_best is None else round(j.odds_best, 4), round(j.odds_se, 4), round(j.chips_se, 4),
        j.depth, j.note, round(j.chips_part, 4), round(j.out_part, 4),
    )  # fmt: skip


class NotReviewedItem(Item):
    """A run of play lines not reviewed: whose, from which line, how many, and why."""

    file: str
    hand: int
    player: str
    line: int
    count: int
    reason: str


class NotReviewedLine(NotReviewedItem, Line, tag="not_reviewed"):
    """A run of lines not reviewed as a ``--jsonl`` line."""


class ErrorLine(Line, tag="error"):
    """A hand's first violation or reading error as a ``--jsonl`` line, after its hand number."""

    hand: int
    file: str
    line: int
    col: int
    rule: str
    player: str | None
    message: str


class SummaryLine(SummaryRow, tag_field="event", tag="summary"):
    """A player's summary row as a ``--jsonl`` line."""


def skip_text(s: Skip) -> str:
    """``not reviewed: Ben's cards unknown: 6 lines from line 14``: the play lines (stay or top
    decisions, turns) not reviewed."""
    n = f"{s.count} line{'s' if s.count != 1 else ''}"
    return f"not reviewed: {s.reason}: {n} from line {s.line}"


class ReviewDoc(Item):
    """The document of ``--json``."""

    judgements: list[JudgementItem]
    summary: list[SummaryRow]
    not_reviewed: list[NotReviewedItem]
    errors: list[ErrorFields]


SKIPS_SHOWN = 100
"""Runs of lines not reviewed that the summary lists one by one; the rest it counts."""

SUMMARY_HEAD = (
    "player", "reviewed", "!", "?!", "?", "??", "units given up", "per 100 decisions", "lines not reviewed",
)  # fmt: skip


def summary_lines(totals: Totals, skips: list[str], width: int | None = None) -> list[str]:
    """The per-player table (columns aligned), then one line per run of play lines not reviewed;
    on a terminal ``width`` columns wide, a table wider than that as one line per player
    (``Ana: reviewed 9, ! 1, ...``), the lines wrapped at whole words.

    >>> from pancli.app.review import Totals
    >>> print("\\n".join(summary_lines(Totals(), [])))
    player  reviewed  !  ?!  ?  ??  units given up  per 100 decisions  lines not reviewed
    """
    rows = [list(SUMMARY_HEAD)]
    for r in totals.table():
        rows.append([r.player, str(r.reviewed), *(str(n) for n in r.marks().values()), f"{r.chips:.2f}",
                     f"{r.per_100:.2f}", str(r.not_reviewed)])  # fmt: skip
    widths = [max(len(row[k]) for row in rows) for k in range(len(SUMMARY_HEAD))]
    out = []
    for row in rows:
        cells = [row[0].ljust(widths[0]), *(c.rjust(w) for c, w in zip(row[1:], widths[1:], strict=True))]
        out.append("  ".join(cells).rstrip())
    if width is not None:
        from pancli.render.terminal import wrap  # start-up: pan review --json does without it

        if max(map(len, out)) > width:
            out = [
                f"{r[0]}: " + ", ".join(f"{h} {c}" for h, c in zip(SUMMARY_HEAD[1:], r[1:], strict=True))
                for r in rows[1:]
            ]
        return wrap("\n".join(out + skips), width).split("\n")
    return out + skips


def _terminal_width(stream: IO[str]) -> int | None:
    """The columns of the terminal ``stream`` is on (None: not a terminal)."""
    from pancli.render.terminal import size  # start-up: pan review --json does without it

    try:
        terminal = stdout_is_terminal() if stream is sys.stdout else stream.isatty()
    except (AttributeError, ValueError):
        terminal = False
    return size().columns if terminal else None


class ReviewWriter:
    """Writes each hand's review as it comes, in record order: the annotated record, the page of
    ``--html``, the judgements as ``--json`` or ``--jsonl``, and at the end the summary."""

    def __init__(
        self,
        record: IO[str] | None,
        as_json: bool,
        as_jsonl: bool,
        progress: Ticker,
        html: HtmlReport | None = None,
        html_name: str = "",
        profile: Profile | None = None,
    ) -> None:
        self.record = record
        self.html = html
        self.page = ReviewPage(html_name, profile) if html is not None else None
        """The page's hands, judged as the review's were (give it to :func:`review_files`)."""
        self.as_json, self.as_jsonl = as_json, as_jsonl
        self.progress = progress
        self.totals = Totals()
        self.skips: list[str] = []
        self.skip_data: list[NotReviewedItem] = []
        self.more_skips = 0
        """Runs of lines not reviewed past the first :data:`SKIPS_SHOWN`, counted only."""
        self.judgements: list[JudgementItem] = []
        self.errors: list[ErrorFields] = []
        self.hands = 0
        self.bad = 0
        self.malformed = 0
        self.stream = JsonStream(True, flush_each=False) if as_jsonl else None
        """``--jsonl``: the one list writer, flushed after each hand's lines."""

    def _line(self, obj: msgspec.Struct) -> None:
        assert self.stream is not None
        self.stream.add(obj)

    def show(self, r: HandReview) -> None:
        self.progress.advance()
        self.totals.add(r)
        if self.record is not None:
            self.record.write(("\n" if self.hands else "") + r.text)
        if self.html is not None:
            self._page(r)
        self.hands += 1
        self.malformed += r.malformed
        if r.error is not None:
            self.bad += 1
            e = r.error
            sys.stderr.write(error_line(e.file, e.line, e.col, e.rule, e.message) + "\n")
            if self.as_json:
                self.errors.append(e)
            if self.as_jsonl:
                self._line(ErrorLine(r.hand, e.file, e.line, e.col, e.rule, e.player, e.message))
        for j in r.judgements:
            if self.as_jsonl:
                self._line(_judgement(JudgementLine, r, j))
            elif self.as_json:
                self.judgements.append(_judgement(JudgementItem, r, j))
        for s in r.skipped:
            if self.as_jsonl:
                self._line(NotReviewedLine(r.file, r.hand, s.player, s.line, s.count, s.reason))
            elif self.as_json:
                self.skip_data.append(NotReviewedItem(r.file, r.hand, s.player, s.line, s.count, s.reason))
            elif len(self.skips) < SKIPS_SHOWN:
                self.skips.append(escape_text(f"{r.file} hand {r.hand}: {s.player}: {skip_text(s)}"))
            else:
                self.more_skips += 1  # the summary's memory stays the same however many hands
        if self.stream is not None:
            self.stream.out.flush()  # a hand's lines reach a reader of the pipe together

    def _page(self, r: HandReview) -> None:
        """The reviewed hand on the page of ``--html``, as ``pan replay --html`` draws it: the marks with
        their actions, the reviewer's comments in the comments column (lines as in the reviewed record)."""
        assert self.html is not None and self.page is not None
        for item in self.page.hands(r):
            if isinstance(item, HandReport):
                self.html.hand(item)
            else:
                self.html.malformed(item)

    def tally_text(self) -> str:
        """The page's summary line: hands, decisions reviewed, marks."""
        rows = self.totals.table()
        marks = ", ".join(f"{sum(r.marks()[m] for r in rows)} {m}" for m in ("??", "?", "?!", "!"))
        reviewed = sum(r.reviewed for r in rows)
        return f"{self.hands} hand{'s' if self.hands != 1 else ''} reviewed: {reviewed} decisions, marks {marks}"

    def finish(self, summary: IO[str] | None) -> None:
        if self.as_jsonl:
            for row in self.totals.table():
                self._line(SummaryLine(*astuple(row)))
            assert self.stream is not None
            self.stream.close()
        elif self.as_json:
            doc = ReviewDoc(self.judgements, self.totals.table(), self.skip_data, self.errors)
            write_json(doc)
        elif summary is not None:
            more = self.more_skips
            tail = [f"and {more:,} more run{'s' if more != 1 else ''} of lines not reviewed (--jsonl lists them all)"]
            skips = self.skips + (tail if more else [])
            summary.write("\n".join(summary_lines(self.totals, skips, _terminal_width(summary))) + "\n")
