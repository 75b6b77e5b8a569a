"""The exporter of ``pan review``: each reviewed hand as it comes (the annotated record, the page
of ``--html``, the judgements as ``--json`` or ``--jsonl``), then the per-player summary."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Protocol

from pancli.app.lines import error_line, escape_text
from pancli.jsontext import dumps_indented

if TYPE_CHECKING:
    from pancli.app.review import HandReview, Totals
    from pancli.render.html import HtmlReport
    from pancli.rules import Profile


class Ticker(Protocol):
    """Told of each hand reviewed (the progress line)."""

    def advance(self, n: int = ..., *, count: int = ...) -> None: ...


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
        if self.as_jsonl:
            for row in self.totals.table():
                self._line({"event": "summary", **row})
        elif self.as_json:
            doc = {"judgements": self.judgements, "summary": self.totals.table(), "not_reviewed": self.skip_data,
                   "errors": self.errors}  # fmt: skip
            sys.stdout.write(dumps_indented(doc) + "\n")
        elif summary is not None:
            summary.write("\n".join(summary_lines(self.totals, self.skips)) + "\n")
