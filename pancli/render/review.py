"""The exporter of ``pan review``: each reviewed hand as it comes (the annotated record, the page
of ``--html``, the judgements as ``--json`` or ``--jsonl``), then the per-player summary.

The reviewer decides in values (:class:`pancli.analyze.review.Judgement`: the actions played and the
best, the note's figures); this module puts them in words, the actions through the record writer's
one action-to-text writer (:func:`pancli.notation.record_writer.action_text`).

The reviewer's own notes are comments that start with ``review``: ``{review ?: ...}`` after an
action whose glyph the reviewer wrote, ``{review (?): ...}`` when the action already carried a
glyph of the record's own (kept) or cannot carry one (a ``stay`` or ``top`` line). A second
review removes every such comment, and the glyphs they own, before writing its own.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable, Sequence
from typing import IO, TYPE_CHECKING, Any, Final, Protocol

import msgspec
from msgspec.structs import astuple, replace

from pancli.analyze.review import (
    BestDiscard,
    Choice,
    Down,
    Judgement,
    NextDraw,
    Note,
    NoUse,
    Play,
    Ruled,
    StayOrTop,
    TakeOrDraw,
)
from pancli.app.lines import ErrorFields
from pancli.app.report import HandReport
from pancli.app.review import (
    Broken,
    CardsUnknown,
    NoDraw,
    OtherGame,
    PastLimit,
    ReviewPage,
    SummaryRow,
    Totals,
)
from pancli.escapes import escape_text
from pancli.jsontext import Item, Line
from pancli.model.actions import Turn
from pancli.notation.layout import NO_NOTES
from pancli.notation.record_writer import action_text, format_record
from pancli.render.stream import JsonStream, write_json
from pancli.render.text import error_line, stdout_is_terminal

if TYPE_CHECKING:
    from pancli.app.review import HandReview, Skip, Totals
    from pancli.notation.layout import HandLayout, Notes, RecordHand
    from pancli.render.html import HtmlReport
    from pancli.rules import Profile

CHOICE_WORDS: Final = {
    Choice.STAY: "stay",
    Choice.TOP: "top",
    Choice.DRAW: "draw",
    Choice.STOCK: "draw from the stock",
    Choice.LEGAL: "a legal play",
    Choice.NOTHING: "nothing laid",
}


def play_text(p: Play) -> str:
    """A choice judged in the record's words: ``take 5c, meld [5c 5c 5c], discard Kd``, ``keep Jd (P9),
    discard Qs``, ``stay``.

    >>> from pancli.cards import card, Rank, Suit
    >>> from pancli.model.actions import Add, Discard, Out
    >>> five = card(Rank.FIVE, Suit.CLUBS)
    >>> play_text(Play((Add((five,), 2), Out()))), play_text(Play((Discard(five),), keep=five))
    ('add 5c to #2, out', 'keep 5c (P9), discard 5c')
    """
    if p.choice is not None:
        return CHOICE_WORDS[p.choice]
    parts = [f"keep {p.keep} (P9)"] if p.keep is not None else []
    parts.extend(map(action_text, p.actions))
    return ", ".join(parts)


def _cards(n: int) -> str:
    return f"{n} card{'s' if n != 1 else ''}"


def note_text(n: Note | None) -> str:
    """A judgement's note in words (``""`` for none).

    >>> note_text(Down(4, 12, 3, 4)), note_text(TakeOrDraw(0.5, 1.25))
    ('4 cards down for 12 from each vs 3 for 4', '0.50 vs 1.25 from each now')
    """
    if n is None:
        return ""
    if isinstance(n, NextDraw):
        return f"next usable draw {n.best:.2f} vs {n.played:.2f} from each"
    if isinstance(n, BestDiscard):
        return f"{n.worse} of the {n.others} other discards would earn ? or ??; next usable draw {n.best:.2f} from each"
    if isinstance(n, NoUse):
        return f"{n.card} has no use with the hand or the melds: thrown, as P2 requires"
    if isinstance(n, Down):
        return f"{_cards(n.best_cards)} down for {n.best_chips} from each vs {n.played_cards} for {n.played_chips}"
    if isinstance(n, Ruled):
        return f"{n.rule}: {n.message}" + (f"; remedy: {n.remedy}" if n.remedy else "")
    if isinstance(n, TakeOrDraw):
        return f"{n.best:.2f} vs {n.played:.2f} from each now"
    if isinstance(n, StayOrTop):
        return f"stay {n.stay:+.2f} (s.e. {n.stay_se:.2f}) vs top {n.top:+.2f} units expected"
    raise TypeError(f"not a note: {n!r}")  # pragma: no cover - Note is a closed union


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
        r.file, r.hand, j.line, j.player, j.kind, play_text(j.played), play_text(j.best), round(j.chips, 4),
        round(j.odds, 4), j.mark or None, None if j.odds_played is None else round(j.odds_played, 4),
        None if j.odds_best is None else round(j.odds_best, 4), round(j.odds_se, 4), round(j.chips_se, 4),
        j.depth, note_text(j.note), round(j.chips_part, 4), round(j.out_part, 4),
    )  # fmt: skip


REVIEW_NOTE: Final = re.compile(r"\{review(?: (\(?)(!!|\?\?|!\?|\?!|!|\?)\)?)?:")
"""The start of a reviewer's comment; group 1 ``(`` when the mark is not the glyph's, group 2 the mark."""


# --------------------------------------------------------------------------- the annotated record


def review_text(r: HandReview) -> str:
    """The reviewed hand's canonical text with the reviewer's marks (:func:`annotate`)."""
    return annotate(r.record, r.judgements)


def comment(j: Judgement, own_glyph: bool) -> str:
    """The reviewer's comment of a marked judgement (``own_glyph``: the mark is the glyph before it).

    >>> from pancli.cards import card, Rank, Suit
    >>> from pancli.model.actions import Discard
    >>> seven, king = card(Rank.SEVEN, Suit.DIAMONDS), card(Rank.KING, Suit.CLUBS)
    >>> j = Judgement("discard", "Ana", 9, 3, Play((Discard(seven),)), Play((Discard(king),)), 4.6, 0.4, 0.18, 0.41,
    ...               0.02, 3, "?", None, 0.0, 4.6)
    >>> print(comment(j, True).replace(": ", ":\\n "))
    {review ?:
     better discard Kc (gives up 4.60 units expected:
     0.00 in chips, 4.60 in going out):
     out within 3 draws 41% vs 18% (s.e. 2.0 points)}
    """
    mark = j.mark if own_glyph else f"({j.mark})"
    if j.mark == "!":
        head = f"{{review {mark}: the best {j.kind}"
    elif j.kind == "foul":
        cost = f" (returned {j.chips:.0f} units in all)" if j.chips else ""
        head = f"{{review {mark}: foul play{cost}; the best legal play {play_text(j.best)}"
    else:
        head = f"{{review {mark}: better {play_text(j.best)}"
        if j.chips >= 0.005 and j.kind == "decision":
            head += f" (gives up {j.chips:.2f} units expected)"
        elif j.chips >= 0.005:
            head += (
                f" (gives up {j.chips:.2f} units expected: {j.chips_part:.2f} in chips, {j.out_part:.2f} in going out)"
            )
    parts = []
    note = note_text(j.note)
    if note:
        parts.append(note)
    if j.odds_played is not None and j.odds_best is not None and max(j.odds_played, j.odds_best) >= 0.005:
        within = f"out within {j.depth} draw{'s' if j.depth != 1 else ''} {j.odds_best:.0%}"
        if j.mark != "!":
            within += f" vs {j.odds_played:.0%} (s.e. {j.odds_se * 100:.1f} points)"
        parts.append(within)
    return head + (": " + "; ".join(parts) if parts else "") + "}"


def _strip(glyph: str, comments: Sequence[str]) -> tuple[str, tuple[str, ...]]:
    """Remove the reviewer's comments (and the glyph one of them owns)."""
    kept = []
    for c in comments:
        m = REVIEW_NOTE.match(c)
        if m is None:
            kept.append(c)
        elif m.group(2) and not m.group(1) and glyph == m.group(2):
            glyph = ""
    return glyph, tuple(kept)


def annotate(hand: RecordHand, judgements: Iterable[Judgement]) -> str:
    """The hand's canonical text (:func:`pancli.notation.record_writer.format_record`) with the
    reviewer's earlier notes removed and the marks of ``judgements`` written."""
    layout = hand.layout
    if layout is None:
        return format_record(hand)
    marked: dict[int, list[Judgement]] = {}
    for j in judgements:
        if j.mark:
            marked.setdefault(j.line, []).append(j)
    notes = dict(layout.notes)
    for i, item in enumerate(layout.lines):
        n = notes.get(i)
        line = getattr(item, "line", 0)
        todo = marked.get(line, []) if line else []
        if n is None and not todo:
            continue
        new = _renote(item, n or NO_NOTES, todo)
        if new is not None:
            notes[i] = new
        else:
            notes.pop(i, None)
    return format_record(replace(hand, layout=_with_notes(layout, notes)))


def _with_notes(layout: HandLayout, notes: dict[int, Notes]) -> HandLayout:
    return replace(layout, notes=notes)


def _renote(item: Any, n: Notes, todo: Sequence[Judgement]) -> Notes | None:
    """The notes of one play line: the reviewer's old ones out, ``todo`` in (None: no notes left)."""
    _, after = _strip("", n.after)
    actions = n.actions
    if isinstance(item, Turn):
        blank: tuple[str, tuple[str, ...]] = ("", ())
        per = [_strip(g, cs) for g, cs in actions] if actions else [blank] * len(item.actions)
        for j in todo:
            if j.action < 0:
                after = (*after, comment(j, False))
                continue
            k = min(j.action, len(per) - 1)
            glyph, cs = per[k]
            own = not glyph
            per[k] = (j.mark if own else glyph, (*cs, comment(j, own)))
        actions = tuple(per) if any(g or cs for g, cs in per) else ()
    else:
        after = (*after, *(comment(j, False) for j in todo))
    new = replace(n, after=after, actions=actions)
    return None if new == NO_NOTES else new


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


def reason_text(s: Skip) -> str:
    """Why play lines were not reviewed, in words: ``Ben's cards unknown``.

    >>> from pancli.app.review import Skip, PastLimit
    >>> reason_text(Skip("Ben", 9, 1, PastLimit(5000)))
    'past the first 5,000 play lines of the hand'
    """
    r = s.reason
    if isinstance(r, PastLimit):
        return f"past the first {r.limit:,} play lines of the hand"
    if isinstance(r, OtherGame):
        return f"a {r.game.value} hand"
    if isinstance(r, Broken):
        return f"the hand breaks {r.rule} at line {r.line}"
    if isinstance(r, CardsUnknown):
        return f"{s.player}'s cards unknown"
    if isinstance(r, NoDraw):
        return "no draw to review"
    return r.message


def skip_text(s: Skip) -> str:
    """``not reviewed: Ben's cards unknown: 6 lines from line 14``: the play lines (stay or top
    decisions, turns) not reviewed."""
    n = f"{s.count} line{'s' if s.count != 1 else ''}"
    return f"not reviewed: {reason_text(s)}: {n} from line {s.line}"


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
    ``--html``, the judgements as ``--json`` or ``--jsonl``, and at the end the summary.

    With ``player`` (``--player NAME``) the hands are held until one of them has NAME in it, so
    that a name seated in no hand (a usage error, R5) is refused before anything is written:
    :attr:`unseated` is still NAME at the end."""

    def __init__(
        self,
        record: IO[str] | None,
        as_json: bool,
        as_jsonl: bool,
        progress: Ticker,
        html: HtmlReport | None = None,
        html_name: str = "",
        profile: Profile | None = None,
        player: str | None = None,
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
        self.unseated = player
        """``--player``'s name until a hand has it in it (None: shown as they come)."""
        self.held: list[HandReview] = []
        """The hands reviewed before one has :attr:`unseated` in it, not written yet."""

    def _line(self, obj: msgspec.Struct) -> None:
        assert self.stream is not None
        self.stream.add(obj)

    def show(self, r: HandReview) -> None:
        self.progress.advance()
        name = self.unseated
        if name is None:
            self._show(r)
            return
        self.held.append(r)
        if any(j.player == name for j in r.judgements) or any(s.player == name for s in r.skipped):
            self.unseated = None
            held, self.held = self.held, []
            for h in held:
                self._show(h)

    def _show(self, r: HandReview) -> None:
        self.totals.add(r)
        text = review_text(r) if self.record is not None or self.html is not None else ""
        if self.record is not None:
            self.record.write(("\n" if self.hands else "") + text)
        if self.html is not None:
            self._page(r, text)
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
                self._line(NotReviewedLine(r.file, r.hand, s.player, s.line, s.count, reason_text(s)))
            elif self.as_json:
                self.skip_data.append(NotReviewedItem(r.file, r.hand, s.player, s.line, s.count, reason_text(s)))
            elif len(self.skips) < SKIPS_SHOWN:
                self.skips.append(escape_text(f"{r.file} hand {r.hand}: {s.player}: {skip_text(s)}"))
            else:
                self.more_skips += 1  # the summary's memory stays the same however many hands
        if self.stream is not None:
            self.stream.out.flush()  # a hand's lines reach a reader of the pipe together

    def _page(self, r: HandReview, text: str) -> None:
        """The reviewed hand on the page of ``--html``, as ``pan replay --html`` draws it: the marks with
        their actions, the reviewer's comments in the comments column (lines as in the reviewed record)."""
        assert self.html is not None and self.page is not None
        for item in self.page.hands(r, text):
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
