"""The streaming reader: physical lines -> logical lines -> hands (grammar/README-records.md).

Memory holds one hand at a time: its raw lines, its parsed lines and its layout. A line
longer than :data:`MAX_LINE_CHARS` is never held whole, and a hand longer than
:data:`MAX_HAND_LINES` keeps only its first lines (both are R10 errors), so even a 1 GB
file of junk is read in constant memory.

Splitting into hands needs no parsing: a tag line (its first character outside comments
is ``[``) that comes after play lines starts the next hand. So a malformed line spoils only
its own hand.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import IO, Final

from pancli.notation.errors import NotationError
from pancli.notation.record_common import (
    MAX_HAND_LINES,
    MAX_LINE_CHARS,
    LexError,
    LineContext,
    ParsedPlay,
    PlayItem,
    UpLine,
    brace_open_after,
    error_at,
    lex,
)
from pancli.notation.record_fast import fast_play, fast_tag
from pancli.records.model import NO_NOTES, HandLayout, Notes, RecordHand, TagEntry
from pancli.records.tags import Header, ProfileCache, read_header
from pancli.referee.actions import Action, Add, Deal, Decision, Event, HandScript, MeldNew, Split, Turn

_TAG_START: Final = re.compile(r"\[[A-Za-z]")
_PAYS: Final = re.compile(r"\[%pays\b([^\]]*)(\]?)")
_PAYS_VALUE: Final = re.compile(r" +([0-9]+) *")
_NOT_PLAIN: Final = frozenset(["[", " ", "\t", ""])
"""First characters that keep a line off the fast lane ('' too: blank lines)."""


def canonical_comment(comment: str) -> str:
    """A comment as the canonical form writes it: ``{...}`` verbatim, ``; text`` stripped.

    >>> canonical_comment(";goes on top  "), canonical_comment("{ kept  as is }")
    ('; goes on top', '{ kept  as is }')
    """
    if comment[0] == ";":
        body = comment[1:].strip()
        return f"; {body}" if body else ";"
    return comment


# --------------------------------------------------------------------------- physical -> logical lines


def _physical(stream: IO[str]) -> Iterator[tuple[str, bool]]:
    """Lines without their end, and whether each was cut at MAX_LINE_CHARS (the rest skipped)."""
    readline = stream.readline
    limit = MAX_LINE_CHARS + 1
    first = True
    while True:
        raw = readline(limit)
        if not raw:
            return
        if first:
            first = False
            if raw[:1] == "\ufeff":
                raw = raw[1:]
        if raw[-1:] == "\n":
            yield raw[:-1].rstrip("\r"), False
        elif len(raw) < limit:
            yield raw.rstrip("\r"), False  # last line, no line end
        else:
            while True:  # skip the rest of the long line in chunks
                rest = readline(limit)
                if not rest or rest[-1:] == "\n":
                    break
            yield raw[:200], True


def _logical(stream: IO[str]) -> Iterator[tuple[int, list[str], str, NotationError | None]]:
    """Logical lines: physical lines joined while a ``{`` comment is open.

    Yields (first line number, raw lines, text, problem). A ``{`` comment still open at the
    end of the file, or when a line starting with a tag (``[`` and a letter) comes, is an
    R8 error at the ``{``.
    """
    lineno = 0
    pending: list[str] = []
    start = 0
    for text, cut in _physical(stream):
        lineno += 1
        if pending:
            if _TAG_START.match(text) is None and not cut:
                pending.append(text)
                if not brace_open_after(text, True):
                    yield start, pending, "\n".join(pending), None
                    pending = []
                elif len(pending) > MAX_HAND_LINES:
                    yield start, pending[:1], pending[0], _unclosed(pending[0], start)
                    pending = []
                continue
            yield start, pending, "\n".join(pending), _unclosed("\n".join(pending), start)
            pending = []
        if cut:
            problem = NotationError("R10", f"line longer than {MAX_LINE_CHARS} characters", MAX_LINE_CHARS + 1, lineno)
            yield lineno, [text + "..."], text, problem
        elif "{" in text and brace_open_after(text, False):
            pending = [text]
            start = lineno
        else:
            yield lineno, [text], text, None
    if pending:
        yield start, pending, "\n".join(pending), _unclosed("\n".join(pending), start)


def _unclosed(text: str, line: int) -> NotationError:
    """The R8 error of the ``{`` left open in ``text``."""
    try:
        lex(text)
    except LexError as exc:
        return error_at(text, exc.offset, line, exc.code, exc.message)
    return NotationError("R8", "'{' comment is never closed", 1, line)  # pragma: no cover - lex always finds it


# --------------------------------------------------------------------------- one hand


def _offset(text: str, first: int, line: int, col: int) -> int:
    """The offset in a logical line (starting at file line ``first``) of (line, col)."""
    pos = 0
    for _ in range(line - first):
        pos = text.index("\n", pos) + 1
    return pos + col - 1


class _Hand:
    """A hand being read: raw lines, tags, play lines, the first error."""

    def __init__(self, reader: _Reader, index: int) -> None:
        self.reader = reader
        self.index = index
        self.raw: list[str] = []
        self.first_line = 0
        self.tags: list[TagEntry] = []
        self.lines: list[PlayItem] = []
        self.notes: dict[int, Notes] = {}
        self.leading: tuple[str, ...] = ()
        self.trailing: tuple[str, ...] = ()
        self.error: NotationError | None = None
        self.header: Header | None = None
        self.ctx: LineContext | None = None
        self.in_play = False
        self.deals: list[Deal] = []
        self.dealt: dict[str, int] = {}
        self.up: UpLine | None = None
        self.events: list[Event] = []
        self.overflow = False

    def add_raw(self, first: int, raws: list[str]) -> None:
        if not self.raw:
            self.first_line = first
        if self.overflow:
            return
        if len(self.raw) + len(raws) > MAX_HAND_LINES:
            self.overflow = True
            if self.error is None:
                self.error = NotationError("R10", f"a hand longer than {MAX_HAND_LINES} lines", 1, first)
            return
        self.raw.extend(raws)

    # ----------------------------------------------------------------- lines

    def add_tag(self, blanked: str, comments: list[tuple[int, str]], line: int, before: tuple[str, ...]) -> None:
        pair = fast_tag(blanked, line)
        if pair is None:
            from pancli.notation.record_grammar import grammar_tag

            pair = grammar_tag(blanked, line)
        notes = NO_NOTES
        if comments or before:
            self._no_claim(blanked, comments, line)
            if not self.tags:
                self.leading, before = before, ()
            notes = self._simple_notes(comments, before)
        self.tags.append(TagEntry(pair, notes))

    def add_play(self, blanked: str, comments: list[tuple[int, str]], line: int, before: tuple[str, ...]) -> None:
        ctx = self.ctx
        if ctx is None:
            ctx = self._start_play(line)
        ctx.line = line
        parsed: ParsedPlay | None = fast_play(blanked, ctx)
        if parsed is None:
            from pancli.notation.record_grammar import grammar_play

            parsed = grammar_play(blanked, ctx)
        item, glyphs = parsed
        if comments or glyphs or before:
            if isinstance(item, Turn):
                item, notes = self._turn_notes(item, glyphs, blanked, comments, line, before)
            else:
                self._no_claim(blanked, comments, line)
                notes = self._simple_notes(comments, before)
            self.notes[len(self.lines)] = notes
        self.place(item)

    def place(self, item: PlayItem) -> None:
        """Add a play line read (R7: deal and up lines come first, once each)."""
        kind = type(item)
        if kind is Turn or kind is Decision:
            self.events.append(item)  # type: ignore[arg-type]
        elif isinstance(item, Deal):
            if self.events:
                raise NotationError("R7", "a deal line after play began (deal lines come first)", item.col, item.line)
            if item.player in self.dealt:
                first = self.dealt[item.player]
                raise NotationError(
                    "R7", f"a second deal line for {item.player} (first on line {first})", item.col, item.line
                )
            self.dealt[item.player] = item.line
            self.deals.append(item)
        elif isinstance(item, UpLine):
            if self.events:
                raise NotationError(
                    "R7", "the up line after play began (it comes before the decisions)", item.col, item.line
                )
            if self.up is not None:
                raise NotationError("R7", f"a second up line (first on line {self.up.line})", item.col, item.line)
            self.up = item
        else:
            self.events.append(item)
        self.lines.append(item)

    def _start_play(self, line: int) -> LineContext:
        self.in_play = True
        self.header = self._header(line)
        self.ctx = LineContext(self.header.game, frozenset(self.header.players))
        return self.ctx

    def _header(self, line: int) -> Header:
        first = self.tags[0].pair.line if self.tags else line
        return read_header([t.pair for t in self.tags], first, self.reader.base_dir, self.reader.profiles)

    # ----------------------------------------------------------------- comments

    @staticmethod
    def _simple_notes(comments: list[tuple[int, str]], before: tuple[str, ...]) -> Notes:
        after = tuple(c for _, c in comments if c[0] == "{")
        eol = next((c[1:].strip() for _, c in comments if c[0] == ";"), None)
        return Notes(before, after, (), eol)

    @staticmethod
    def _no_claim(text: str, comments: list[tuple[int, str]], line: int) -> None:
        for off, c in comments:
            m = _PAYS.search(c)
            if m:
                raise error_at(text, off + m.start(), line, "R8", "a [%pays N] claim follows a meld, add or split")

    def _turn_notes(
        self,
        turn: Turn,
        glyphs: tuple[str, ...],
        text: str,
        comments: list[tuple[int, str]],
        line: int,
        before: tuple[str, ...],
    ) -> tuple[Turn, Notes]:
        acts = turn.actions
        starts = [_offset(text, line, a.line, a.col) for a in acts]
        head: list[str] = []
        per: list[list[str]] = [[] for _ in acts]
        eol: str | None = None
        claims: dict[int, int] = {}
        for off, c in comments:
            if c[0] == ";":
                eol = c[1:].strip()
            i = len(starts) - 1
            while i >= 0 and starts[i] > off:
                i -= 1
            if c[0] == "{":
                (head if i < 0 else per[i]).append(c)
            for m in _PAYS.finditer(c):
                where = off + m.start()
                value = _PAYS_VALUE.fullmatch(m.group(1))
                if not m.group(2) or value is None:
                    raise error_at(text, where, line, "R8", "a claim is written [%pays N] (N units from each opponent)")
                if i < 0 or not isinstance(acts[i], MeldNew | Add | Split):
                    raise error_at(text, where, line, "R8", "a [%pays N] claim follows a meld, add or split")
                if i in claims:
                    raise error_at(text, where, line, "R8", "a second [%pays N] claim for the same action")
                claims[i] = int(value.group(1))
        if claims:
            new: list[Action] = list(acts)
            for i, n in claims.items():
                a = acts[i]
                assert isinstance(a, MeldNew | Add | Split)
                new[i] = replace(a, claim=n)
            turn = replace(turn, actions=tuple(new))
        actions: tuple[tuple[str, tuple[str, ...]], ...] = ()
        if glyphs or any(per):
            gl = glyphs or ("",) * len(acts)
            actions = tuple((g, tuple(p)) for g, p in zip(gl, per, strict=True))
        return turn, Notes(before, tuple(head), actions, eol)

    # ----------------------------------------------------------------- the end

    def finish(self, last_line: int) -> RecordHand:
        raw = self.raw
        first = self.first_line
        while raw and not raw[0].strip():
            raw = raw[1:]
            first += 1
        while raw and not raw[-1].strip():
            raw = raw[:-1]
        text = "\n".join(raw) + "\n" if raw else ""
        last = first + len(raw) - 1 if not self.overflow else last_line
        file = self.reader.file
        if self.error is None and self.header is None:
            try:
                self.header = self._header(self.first_line)
            except NotationError as exc:
                self.error = exc
        if self.error is not None or self.header is None:
            return RecordHand(self.index, file, first, last, text, None, self.error)
        h = self.header
        script = HandScript(
            players=h.players,
            profile=h.profile,
            game=h.game,
            deals=tuple(self.deals),
            upcard=self.up.card if self.up else None,
            upcard_line=self.up.line if self.up else 0,
            events=tuple(self.events),
            stake=h.stake,
            ledger_claim=h.ledger_claim,
            tags=h.tags,
            first_line=self.tags[0].pair.line if self.tags else first,
            packs=h.packs,
        )
        layout = HandLayout(tuple(self.tags), tuple(self.lines), self.notes, self.leading, self.trailing)
        return RecordHand(self.index, file, first, last, text, script, None, layout)


# --------------------------------------------------------------------------- the file


class _Reader:
    def __init__(self, file: str, base_dir: Path | None) -> None:
        self.file = file
        self.base_dir = base_dir
        self.profiles = ProfileCache()

    def hands(self, stream: IO[str]) -> Iterator[RecordHand]:
        hand: _Hand | None = None
        index = 0
        pend_raw: list[str] = []
        pend_first = 0
        pend_comments: list[str] = []
        last = 0
        for first, raws, text, problem in _logical(stream):
            # Fast lane: a plain play line (no comment, no glyph) in a hand already in play.
            if (
                hand is not None
                and hand.ctx is not None
                and not pend_raw
                and hand.error is None
                and problem is None
                and text[:1] not in _NOT_PLAIN
                and "{" not in text
                and "}" not in text
                and ";" not in text
                and len(hand.raw) < MAX_HAND_LINES
            ):
                ctx = hand.ctx
                ctx.line = first
                parsed = fast_play(text, ctx)
                if parsed is not None and not parsed[1]:
                    last = first
                    hand.raw.append(text)
                    try:
                        hand.place(parsed[0])
                    except NotationError as exc:
                        hand.error = exc
                    continue
            last = first + len(raws) - 1
            blanked = text
            comments: list[tuple[int, str]] = []
            if problem is None:
                if not text.strip():
                    if not pend_raw:
                        pend_first = first
                    pend_raw.extend(raws)
                    continue
                if "{" in text or "}" in text or ";" in text:
                    try:
                        blanked, comments = lex(text)
                    except LexError as exc:
                        problem = error_at(text, exc.offset, first, exc.code, exc.message)
                stripped = blanked.strip()
                if problem is None and not stripped:
                    if not pend_raw:
                        pend_first = first
                    pend_raw.extend(raws)
                    pend_comments.append(" ".join(canonical_comment(c) for _, c in comments))
                    continue
            else:
                stripped = text.strip()
            is_tag = stripped[:1] == "["
            if hand is None or (is_tag and hand.in_play):
                if hand is not None:
                    yield hand.finish(last)
                index += 1
                hand = _Hand(self, index)
            if pend_raw:
                hand.add_raw(pend_first, pend_raw)
                pend_raw = []
            hand.add_raw(first, raws)
            before = tuple(pend_comments)
            pend_comments = []
            if not is_tag:
                hand.in_play = True
            if hand.error is not None:
                continue
            if problem is not None:
                hand.error = problem
                continue
            try:
                if is_tag:
                    hand.add_tag(blanked, comments, first, before)
                else:
                    hand.add_play(blanked, comments, first, before)
            except NotationError as exc:
                hand.error = exc
        if hand is not None:
            if pend_raw:
                hand.add_raw(pend_first, pend_raw)
            hand.trailing = tuple(pend_comments)
            yield hand.finish(last)


def read_hands(stream: IO[str], file: str = "-", base_dir: Path | None = None) -> Iterator[RecordHand]:
    """The hands of a record, one at a time (constant memory), in file order.

    ``file`` names the input in errors; ``base_dir`` is where a ``Rules`` tag's house-rules
    path is looked up (the record's folder; None: the current directory). A malformed hand
    comes with ``error`` set and ``script`` None; the next hand is read normally.
    """
    return _Reader(file, base_dir).hands(stream)
