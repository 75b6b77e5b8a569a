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

import io
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import IO, TYPE_CHECKING, Final

from msgspec.structs import replace

from pancli.cards import Game
from pancli.escapes import DECODE_ERRORS, UNDECODED, not_utf8
from pancli.limits import (
    MAX_COMMENT_CHARS,
    MAX_HAND_CHARS,
    MAX_HANDS_PER_FILE,
    number_too_large,
    too_large_message,
    too_long_message,
)
from pancli.model.actions import Action, Add, Deal, Decision, Event, HandScript, MeldNew, Mend, Split, Turn
from pancli.notation.errors import NotationError
from pancli.notation.fast import PackSpellings, pack_spellings
from pancli.notation.layout import NO_NOTES, HandLayout, Notes, RecordHand, TagEntry
from pancli.notation.record_common import (
    MAX_HAND_LINES,
    MAX_LINE_CHARS,
    LexError,
    LineContext,
    LineMemos,
    ParsedPlay,
    PlainRecipes,
    PlayItem,
    TagPair,
    UpLine,
    brace_open_after,
    error_at,
    lex,
)
from pancli.notation.record_fast import fast_play, fast_tag, fresh_play
from pancli.records.tags import Header, ProfileCache, read_header
from pancli.rules import Profile, is_builtin
from pancli.values import Value

if TYPE_CHECKING:
    from pathlib import Path

PackOf = Callable[[Game, Profile], Sequence[int] | None]
"""The copies of each card (by :attr:`~pancli.cards.Card.index`) the pack of a hand of this game
and profile holds, as the rules object that judges the hand answers them (E1:
:attr:`pancli.panrules.PanRules.copies`; PAGRUC's pack, G1): its cards are the ones read. None:
the game's usual pack (a caller that judges no hand of the game)."""

# (pattern texts: re compiles each when the first line that needs it comes, not at start-up)
_TAG_START: Final = r"\[[A-Za-z]"
_PAYS: Final = r"\[%pays[ \t\r\n]+([0-9]+)[ \t\r\n]*\]"
"""A claim: only a well-formed ``[%pays N]``; any other text in a comment is just comment."""
_PAYS_MARK: Final = "[%pays"
"""What every claim holds: a comment without it is not searched (nor :data:`_PAYS` compiled)."""
_MISPLACED: Final = "a [%pays N] claim follows a meld, add, split or mend"
_NOT_PLAIN: Final = frozenset(["[", " ", "\t", ""])
"""First characters that keep a line off the fast lane ('' too: blank lines)."""


def canonical_comment(comment: str) -> str:
    """A comment as the canonical form writes it: ``{...}`` verbatim, ``; text`` with its
    text as written after the first space (trailing spaces stripped).

    >>> canonical_comment(";goes on top  "), canonical_comment("{ kept  as is }")
    ('; goes on top', '{ kept  as is }')
    >>> canonical_comment(";   | a | b |"), canonical_comment(";  ")
    (';   | a | b |', ';')
    """
    if comment[0] == ";":
        body = semicolon_text(comment)
        return f"; {body}" if body else ";"
    return comment


def semicolon_text(comment: str) -> str:
    """The text of a ``;`` comment: after the ``;`` and one space, trailing spaces stripped.

    >>> semicolon_text(";x "), semicolon_text(";   indented"), semicolon_text("; \\tcell")
    ('x', '  indented', '\\tcell')
    """
    body = comment[1:].rstrip()
    return body[1:] if body[:1] == " " else body


# --------------------------------------------------------------------------- physical -> logical lines


_BLOCK: Final = 1 << 16
"""Characters read at once: lines are split a block at a time (one C call for many lines)."""


class Binary(tuple[str, int]):
    """Where binary data stops the reading: the head of the line holding the first NUL byte (the
    text before it, at most 200 characters) and the NUL's column. No record holds a NUL, so nothing
    after it is read: ``/dev/zero`` or an image ends the file there, not in a line without end.

    A pair of its own type (a line past the limit is a plain one), as a named tuple would be, but
    a plain class: a NamedTuple's class costs start-up (benchmarks/README.md, start-up).

    >>> Binary("PNG", 4).col, Binary("PNG", 4) == ("PNG", 4), type(Binary("PNG", 4)) is tuple
    (4, True, False)
    """

    __slots__ = ()

    def __new__(cls, head: str, col: int) -> Binary:
        return tuple.__new__(cls, (head, col))

    def __getnewargs__(self) -> tuple[str, int]:  # pickled field by field, as a named tuple
        return (self[0], self[1])

    @property
    def head(self) -> str:
        return self[0]

    @property
    def col(self) -> int:
        return self[1]


class Undecoded(tuple[str, int, str]):
    """A line holding a byte that is not UTF-8: its text as every output shows it (each such
    byte read as U+FFFD, as UTF-8's decoder replaces it), the first such byte's column and that
    byte (the lone surrogate :data:`~pancli.escapes.DECODE_ERRORS` read it as). Its hand is
    malformed (R2) there: a record is UTF-8, and a byte read as U+FFFD and gone on with would
    be a record read unfaithfully (``pan fmt --write`` would write it back changed).

    >>> u = undecoded("Ana draw 5\\udcff\\udcfe")
    >>> u.text == "Ana draw 5\\ufffd\\ufffd", u.col, not_utf8(u.byte)
    (True, 11, 'the byte \\\\xff, which is not UTF-8')
    """

    __slots__ = ()

    def __new__(cls, text: str, col: int, byte: str) -> Undecoded:
        return tuple.__new__(cls, (text, col, byte))

    def __getnewargs__(self) -> tuple[str, int, str]:  # pickled field by field, as a named tuple
        return (self[0], self[1], self[2])

    @property
    def text(self) -> str:
        return self[0]

    @property
    def col(self) -> int:
        return self[1]

    @property
    def byte(self) -> str:
        return self[2]


def _replaced(text: str) -> str:
    """``text`` with its bytes that are not UTF-8 read as U+FFFD (as a strict reader's ``replace``)."""
    return text.encode("utf-8", DECODE_ERRORS).decode("utf-8", "replace")


def undecoded(line: str) -> Undecoded | str:
    """``line`` as an :class:`Undecoded` when it holds a byte that is not UTF-8, else as it is."""
    m = None if line.isascii() else re.search(UNDECODED, line)  # (start-up: compiled when such a line comes)
    if m is None:
        return line
    return Undecoded(_replaced(line), m.start() + 1, m.group())


def undecoded_message(byte: str) -> str:
    """The R2 message of a byte that is not UTF-8 in a record (one wording for every reader)."""
    return f"found {not_utf8(byte)}: records are UTF-8"


class UndecodedByte(NotationError):
    """The R2 error of a byte that is not UTF-8 (:class:`Undecoded`), at its line and column."""

    def __init__(self, line: Undecoded, lineno: int) -> None:
        super().__init__("R2", undecoded_message(line.byte), line.col, lineno)


class BinaryData(NotationError):
    """The R2 error of binary data (a :class:`Binary` line): the reader knows it by its class,
    never by its words."""

    def __init__(self, line: Binary, lineno: int) -> None:
        super().__init__("R2", binary_message(), line.col, lineno)


def _comment_only(text: str) -> bool:
    """Whether ``text`` (a line read with its bytes that are not UTF-8 as U+FFFD) is comments
    alone: such a line goes with the hand after it, as any comment line, and makes it malformed."""
    try:
        blanked, _ = lex(text)
    except LexError:
        return False
    return not blanked.strip()


def _undecoded_comment(text: str, problem: NotationError | None) -> bool:
    """Whether a logical line is comments alone holding a byte that is not UTF-8."""
    return type(problem) is UndecodedByte and _comment_only(text)


def _undecoded_lines(lines: list[Physical]) -> list[Physical]:
    """The lines of a block holding a byte that is not UTF-8: each such line an
    :class:`Undecoded`, the head of a line too long with its bytes read as U+FFFD."""
    out: list[Physical] = []
    for x in lines:
        if type(x) is str:
            out.append(undecoded(x))
        elif type(x) is tuple:
            out.append((_replaced(x[0]), x[1]))
        else:
            out.append(x)
    return out


Physical = str | tuple[str, int] | Binary | Undecoded
"""A physical line without its end; a line longer than MAX_LINE_CHARS comes as a 2-tuple of
its first 200 characters and its length (the rest is never held); the line holding a NUL byte
comes as a :class:`Binary`, the last line read; a line holding a byte that is not UTF-8 as an
:class:`Undecoded`."""


def binary_message() -> str:
    """The R2 message of binary data in a record (one wording for every reader)."""
    return "binary data (a NUL byte): a record is text, the rest of the file is not read"


def _looks_utf16(text: str) -> bool:
    r"""Whether ``text`` (a first line read as UTF-8) is UTF-16 text: a NUL beside every ASCII
    character, so about half of it NULs, and the other half not (a run of NULs is binary data).

    >>> _looks_utf16("\ufffd\ufffd[\x00P\x00"), _looks_utf16("\x00" * 40), _looks_utf16("[P")
    (True, False, False)
    """
    nuls = text.count("\x00")
    return nuls >= 2 and nuls * 3 >= len(text) and (len(text) - nuls) * 3 >= len(text)


def _blocks(stream: IO[str], at_start: bool = True) -> Iterator[list[Physical]]:
    """The physical lines of ``stream``, a block of them at a time (a BOM at the start dropped,
    trailing ``\r`` stripped). Memory holds one block and at most MAX_LINE_CHARS of one line.
    ``at_start``: the stream is a file's beginning (False: lines within a file, no BOM nor
    UTF-16 looked for).

    A line past the limit is read on to its end, however long, and comes with its length: the
    lines after it are read as any others (a record with a 12 MB line loses only that line).
    A NUL byte ends the reading: its line comes as a :class:`Binary`, and nothing after it is read
    (a UTF-16 file, NULs beside its letters, gives its first line whole and stops there).
    """
    read = stream.read
    limit = MAX_LINE_CHARS
    carry = ""
    first = at_start
    long_head = ""  # the head of a line past the limit, while the rest of it is skipped unread
    long_size = -1  # its length so far; -1: no such line
    while True:
        block = read(_BLOCK)
        if not block:
            break
        if first:
            first = False
            if block[:1] == "\ufeff":
                block = block[1:]
            end = block.find("\n", 0, 1000)
            line = block[: end if end >= 0 else 1000]
            if _looks_utf16(line):
                yield [_replaced(line.rstrip("\r"))]
                return
        nul = block.find("\x00")
        if nul >= 0:
            block = block[:nul]
        if long_size >= 0:
            j = block.find("\n")
            if j < 0:
                long_size += len(block)
                if nul >= 0:
                    yield [Binary(long_head, long_size + 1)]
                    return
                continue
            long_size += j - (block[j - 1 : j] == "\r" if j else 0)
            block = block[j + 1 :]
            lines_done: list[Physical] = [(long_head, long_size)]
            long_size = -1
            yield lines_done
        chunk = carry + block if carry else block
        lines: list[Physical] = chunk.split("\n")  # type: ignore[assignment]
        carry = lines.pop()  # type: ignore[assignment]
        if len(chunk) > limit:
            lines = [(x[:200], len(x.rstrip("\r"))) if len(x) > limit else x for x in lines]  # type: ignore[misc, union-attr]
        if "\r" in chunk:
            lines = [x.rstrip("\r") if type(x) is str else x for x in lines]
        bad = not chunk.isascii() and re.search(UNDECODED, chunk) is not None  # (isascii: no scan)
        if bad:
            lines = _undecoded_lines(lines)
        if nul >= 0:
            lines.append(Binary(_replaced(carry[:200]) if bad else carry[:200], len(carry) + 1))
            yield lines
            return
        if len(carry) > limit:
            long_head = _replaced(carry[:200]) if bad else carry[:200]
            long_size = len(carry)
            carry = ""
        if lines:
            yield lines
    if long_size >= 0:
        yield [(long_head, long_size)]
    elif carry:
        yield [undecoded(carry.rstrip("\r"))]


def physical_lines(text: str) -> list[Physical]:
    r"""The physical lines of ``text`` (lines within a file, each ended by ``\n``) as the reader
    takes them from the file: a line past MAX_LINE_CHARS as its head and length, the line of a
    NUL byte as a :class:`Binary`. A writer of records reads what it would write through this,
    so that it writes no line its reader refuses.

    >>> physical_lines("Ana stay\nBen st\x00ay\nCruz stay\n")
    ['Ana stay', ('Ben st', 7)]
    """
    return [line for block in _blocks(io.StringIO(text), at_start=False) for line in block]


class _Joiner:
    """Physical lines -> logical lines: physical lines are joined while a ``{`` comment is open.

    :meth:`push` gives the logical lines complete after one more physical line, each as
    (first line number, raw lines, text, problem). A ``{`` comment still open at the end of
    the file, or when a line starting with a tag (``[`` and a letter) comes, is an R8 error at
    the ``{``; a line too long is an R10 error.
    """

    __slots__ = ("chars", "pending", "start")

    def __init__(self) -> None:
        self.pending: list[str] = []
        self.start = 0
        self.chars = 0

    def push(
        self, lineno: int, text: str, cut: int = 0, problem: NotationError | None = None
    ) -> list[tuple[int, list[str], str, NotationError | None]]:
        """``cut``: the length of a line past MAX_LINE_CHARS (``text`` is its head), else 0;
        ``problem``: the error of a line that is no record text (binary data), else None."""
        out: list[tuple[int, list[str], str, NotationError | None]] = []
        pending = self.pending
        if pending:
            start = self.start
            if re.match(_TAG_START, text) is None and not cut and problem is None:
                pending.append(text)
                self.chars += len(text) + 1
                if not brace_open_after(text, True):
                    out.append((start, pending, "\n".join(pending), None))
                    self.pending = []
                elif self.chars > MAX_COMMENT_CHARS:
                    out.append((start, pending[:1], pending[0], _too_long_comment(pending[0], start, self.chars)))
                    self.pending = []
                return out
            out.append((start, pending, "\n".join(pending), _unclosed("\n".join(pending), start)))
            self.pending = []
        if problem is not None:
            out.append((lineno, [text + "..."], text, problem))
        elif cut:
            problem = NotationError("R10", too_long_message("a line", cut, MAX_LINE_CHARS), MAX_LINE_CHARS + 1, lineno)
            out.append((lineno, [text + "..."], text, problem))
        elif "{" in text and brace_open_after(text, False):
            self.pending = [text]
            self.start = lineno
            self.chars = len(text)
        else:
            out.append((lineno, [text], text, None))
        return out

    def push_physical(self, lineno: int, text: Physical) -> list[tuple[int, list[str], str, NotationError | None]]:
        """:meth:`push` of any physical line: a line, a line past the limit or binary data."""
        if type(text) is str:
            return self.push(lineno, text)
        if type(text) is Binary:
            return self.push(lineno, text.head, problem=BinaryData(text, lineno))
        if type(text) is Undecoded:
            problem = UndecodedByte(text, lineno)
            if self.pending:  # in a { comment: the comment and this line are one logical line
                raws = [*self.pending, text.text]
                self.pending = []
                return [(self.start, raws, "\n".join(raws), problem)]
            return [(lineno, [text.text], text.text, problem)]
        return self.push(lineno, *text)

    def end(self) -> list[tuple[int, list[str], str, NotationError | None]]:
        """The comment still open at the end of the file, if any."""
        pending = self.pending
        if not pending:
            return []
        self.pending = []
        return [(self.start, pending, "\n".join(pending), _unclosed("\n".join(pending), self.start))]


def _too_long_comment(text: str, line: int, size: int) -> NotationError:
    """The R10 error of a ``{`` comment opened in ``text`` and longer than MAX_COMMENT_CHARS."""
    message = too_long_message("a comment", size, MAX_COMMENT_CHARS) + " (or its '}' is missing)"
    try:
        lex(text)
    except LexError as exc:
        return error_at(text, exc.offset, line, "R10", message)
    return NotationError("R10", message, 1, line)  # pragma: no cover - lex always finds it


def _utf16_error(text: str, line: int) -> NotationError | None:
    r"""The R2 error of a file whose first line, read as UTF-8, is UTF-16 text: a NUL beside every
    ASCII character (and the byte-order mark read as two U+FFFD). Records are UTF-8.

    >>> _utf16_error("\ufffd\ufffd[\x00P\x00", 1).message
    'the file is UTF-16 text, not UTF-8: records are UTF-8 (convert it, say with iconv -f UTF-16 -t UTF-8)'
    >>> _utf16_error("[Players", 1) is None
    True
    """
    if not _looks_utf16(text):
        return None
    return NotationError(
        "R2",
        "the file is UTF-16 text, not UTF-8: records are UTF-8 (convert it, say with iconv -f UTF-16 -t UTF-8)",
        1,
        line,
    )


def _unclosed(text: str, line: int) -> NotationError:
    """The R8 error of the ``{`` left open in ``text``."""
    try:
        lex(text)
    except LexError as exc:
        return error_at(text, exc.offset, line, exc.code, exc.message)
    return NotationError("R8", "'{' comment is never closed", 1, line)  # pragma: no cover - lex always finds it


# --------------------------------------------------------------------------- one hand


def _last_at(starts: list[int], offset: int) -> int:
    """The index of the last of the ascending ``starts`` at or before ``offset`` (-1: none):
    a turn line's actions or lines, a few numbers (no bisect, a C extension to load at start-up).

    >>> _last_at([0, 9, 20], 9), _last_at([0, 9, 20], 8), _last_at([3], 0)
    (1, 0, -1)
    """
    i = 0
    for start in starts:
        if start > offset:
            break
        i += 1
    return i - 1


def _line_starts(text: str) -> list[int]:
    r"""The offset of each physical line in a logical line (one pass: reading a turn continued
    over many lines stays linear).

    >>> _line_starts("ab\ncd\n")
    [0, 3, 6]
    """
    starts = [0]
    find = text.find
    j = find("\n")
    while j >= 0:
        starts.append(j + 1)
        j = find("\n", j + 1)
    return starts


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
        self.claim_cols: dict[tuple[int, int], int] | None = None
        self.chars = 0
        """Characters of ``raw`` (the fast lane of :meth:`_Reader.hands` keeps it up to date)."""

    def add_raw(self, first: int, raws: list[str]) -> None:
        if not self.raw:
            self.first_line = first
        if self.overflow:
            return
        size = sum(map(len, raws))
        if len(self.raw) + len(raws) > MAX_HAND_LINES or self.chars + size > MAX_HAND_CHARS:
            self.overflow = True
            if self.error is None:
                what = (
                    too_long_message("a hand", len(self.raw) + len(raws), MAX_HAND_LINES, "lines")
                    if len(self.raw) + len(raws) > MAX_HAND_LINES
                    else too_long_message("a hand", self.chars + size, MAX_HAND_CHARS)
                )
                self.error = NotationError("R10", what, 1, first)
            return
        self.chars += size
        self.raw.extend(raws)

    # ----------------------------------------------------------------- lines

    def add_tag(self, blanked: str, comments: list[tuple[int, str]], line: int, before: tuple[str, ...]) -> None:
        pair = fast_tag(blanked, line)
        if pair is None:
            from pancli.notation.record_grammar import grammar_tag  # start-up: pan replay does without it

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
            from pancli.notation.record_grammar import grammar_play  # start-up: pan replay does without it

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
        h = self.header = self._header(line)
        pack = self.reader.pack(h.game, h.profile)
        self.ctx = LineContext(h.game, frozenset(h.players), memos=self.reader.memos, pack=pack)
        return self.ctx

    def _header(self, line: int) -> Header:
        first = self.tags[0].pair.line if self.tags else line
        return self.reader.header([t.pair for t in self.tags], first)

    # ----------------------------------------------------------------- comments

    @staticmethod
    def _simple_notes(comments: list[tuple[int, str]], before: tuple[str, ...]) -> Notes:
        after = tuple(c for _, c in comments if c[0] == "{")
        eol = next((semicolon_text(c) for _, c in comments if c[0] == ";"), None)
        return Notes(before, after, (), eol)

    @staticmethod
    def _no_claim(text: str, comments: list[tuple[int, str]], line: int) -> None:
        for off, c in comments:
            m = re.search(_PAYS, c) if _PAYS_MARK in c else None
            if m:
                raise error_at(text, off + m.start(), line, "R8", _MISPLACED)

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
        lines = _line_starts(text) if "\n" in text else [0]
        starts = [lines[a.line - line] + a.col - 1 for a in acts]
        head: list[str] = []
        per: list[list[str]] = [[] for _ in acts]
        eol: str | None = None
        claims: dict[int, int] = {}
        claimed_at: dict[int, int] = {}
        for off, c in comments:
            if c[0] == ";":
                eol = semicolon_text(c)
            i = _last_at(starts, off)  # the action the comment follows (-1: before the first)
            if c[0] == "{":
                (head if i < 0 else per[i]).append(c)
            for m in re.finditer(_PAYS, c) if _PAYS_MARK in c else ():
                where = off + m.start()
                if i < 0 or not isinstance(acts[i], MeldNew | Add | Split | Mend):
                    raise error_at(text, where, line, "R8", _MISPLACED)
                if i in claims:
                    raise error_at(text, where, line, "R8", "a second [%pays N] claim for the same action")
                if number_too_large(m.group(1)):
                    raise error_at(text, where, line, "R10", too_large_message("a [%pays N] claim", m.group(1)))
                claims[i] = int(m.group(1))
                claimed_at[i] = where
        if claims:
            new: list[Action] = list(acts)
            for i, n in claims.items():
                a = acts[i]
                assert isinstance(a, MeldNew | Add | Split | Mend)
                new[i] = replace(a, claim=n)
                at = claimed_at[i]
                k = _last_at(lines, at)
                ln, col = line + k, at - lines[k] + 1
                if ln == a.line:  # where a wrong claim is reported (on the action's line)
                    if self.claim_cols is None:
                        self.claim_cols = {}
                    self.claim_cols[(a.line, a.col)] = col
            turn = replace(turn, actions=tuple(new))
        actions: tuple[tuple[str, tuple[str, ...]], ...] = ()
        if glyphs or any(per):
            gl = glyphs or ("",) * len(acts)
            actions = tuple((g, tuple(p)) for g, p in zip(gl, per, strict=True))
        return turn, Notes(before, tuple(head), actions, eol)

    # ----------------------------------------------------------------- the end

    def _players_read(self) -> tuple[str, ...]:
        """The players of a malformed hand: its header's, else as its Players tag names them."""
        if self.header is not None:
            return self.header.players
        return next((tuple(t.pair.value.split()) for t in self.tags if t.pair.name == "Players"), ())

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
            tags = (
                self.header.tags if self.header is not None else tuple((t.pair.name, t.pair.value) for t in self.tags)
            )
            return RecordHand(
                self.index, file, first, last, text, None, self.error, None, self._players_read(), tags_read=tags
            )
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
            claim_cols=self.claim_cols,
            upcard_col=(self.up.card_col or self.up.col + len("up ")) if self.up else 0,
        )
        layout = HandLayout(tuple(self.tags), tuple(self.lines), self.notes, self.leading, self.trailing)
        return RecordHand(self.index, file, first, last, text, script, None, layout, warnings=h.warnings)


# --------------------------------------------------------------------------- the file

_HEADER_MEMO = 64
"""Distinct headers a reader keeps (0: none, as tests compare)."""


def _position_free(key: tuple[tuple[str, str], ...]) -> bool:
    """Whether the header of these tags depends on nothing but their names and values: no
    ``Ledger`` (its claim keeps its line and column) and no ``Rules`` naming a file (looked up
    on disk)."""
    return not any(name == "Ledger" or (name == "Rules" and not is_builtin(value.strip())) for name, value in key)


class _Reader:
    """Hands from logical lines. The fast lane (:meth:`hands`) takes a whole physical line that
    is a remembered plain turn or decision (:attr:`LineMemos.plain`) of a hand in play; every
    other line goes through :meth:`_line`, which reads it in full. ``memos``: what the fast path
    remembers, the caller's (shared by the files or chunks it reads) or the reader's own."""

    def __init__(
        self, file: str, base_dir: Path | str | None, memos: LineMemos | None = None, packs: PackOf | None = None
    ) -> None:
        self.memos = memos if memos is not None else LineMemos()
        self.packs = packs
        self._copies: Sequence[int] | None = None
        self._pack: PackSpellings | None = None
        self.file = file
        self.base_dir = base_dir
        self.profiles = ProfileCache()
        self.hand: _Hand | None = None
        self.index = 0
        self.pend_raw: list[str] = []
        self.pend_first = 0
        self.pend_comments: list[str] = []
        self.pend_error: NotationError | None = None
        """The error of a pending comment line (a byte that is not UTF-8): the next hand's."""
        self.last = 0
        self.headers: dict[tuple[tuple[str, str], ...], Header] = {}

    def header(self, pairs: list[TagPair], first: int) -> Header:
        """:func:`read_header` of a hand's tags (``first``: the hand's first line). The header of
        tags read before, as names and values, is the one read then when nothing in it depends on
        where the tags stand or on a file (no ``Ledger``, whose claim keeps its place; no house
        rules file): a simulated record repeats one header in every hand (benchmarks/README.md,
        "Figures behind the code"); tests/test_record_reader.py compares every hand
        with a reader that keeps none."""
        key = tuple([(p.name, p.value) for p in pairs])
        got = self.headers.get(key)
        if got is None:
            got = read_header(pairs, first, self.base_dir, self.profiles)
            if _HEADER_MEMO and len(self.headers) < _HEADER_MEMO and _position_free(key) and not got.warnings:
                self.headers[key] = got
        return got

    def pack(self, game: Game, profile: Profile) -> PackSpellings | None:
        """The cards a hand of ``game`` and ``profile`` is read in (None: the game's usual pack):
        what the caller's :data:`PackOf` answers, read into spellings once per table of copies."""
        if self.packs is None:
            return None
        copies = self.packs(game, profile)
        if copies is None:
            return None
        if copies is not self._copies:
            self._copies, self._pack = copies, pack_spellings(copies)
        return self._pack

    def _fast_hand(self) -> _Hand | None:
        """The hand the fast lane may extend now (in play, no error, nothing pending), or None."""
        hand = self.hand
        if (
            hand is None
            or hand.ctx is None
            or self.pend_raw
            or hand.error is not None
            or len(hand.raw) >= MAX_HAND_LINES
            or hand.chars >= MAX_HAND_CHARS
        ):
            return None
        return hand

    def hands(self, blocks: Iterable[list[Physical]], lineno: int = 0) -> Iterator[RecordHand]:
        """The hands of physical lines (in blocks); ``lineno`` is the file line before the first."""
        joiner = _Joiner()
        push = joiner.push
        fast: _Hand | None = None
        ctx: LineContext | None = None  # the fast hand's (none yet: no pack's spellings built for nothing)
        plain: PlainRecipes = {}
        players: frozenset[str] = frozenset()
        raw: list[str] = []
        events: list[Event] = []
        lines: list[PlayItem] = []
        chars = 0  # the characters of the fast hand's raw lines (synced with fast.chars when it stops)
        first_line = lineno + 1
        for block in blocks:
            for text in block:
                lineno += 1
                if lineno == first_line and type(text) is str and (wide := _utf16_error(text, lineno)) is not None:
                    self._line(lineno, [text], text, wide)
                    continue
                if fast is not None:
                    hit = plain.get(text)  # type: ignore[arg-type]
                    if hit is not None and hit[1] <= players:
                        item = hit[0](lineno)
                        raw.append(text)  # type: ignore[arg-type]
                        events.append(item)
                        lines.append(item)
                        self.last = lineno
                        chars += len(text)
                        if len(raw) >= MAX_HAND_LINES or chars >= MAX_HAND_CHARS:
                            fast.chars = chars
                            fast = None
                        continue
                    # any other plain play line (no comment, no glyph), as add_play would read it
                    if (
                        type(text) is str
                        and text[:1] not in _NOT_PLAIN
                        and "{" not in text
                        and "}" not in text
                        and ";" not in text
                    ):
                        assert ctx is not None  # (set with fast)
                        ctx.line = lineno
                        parsed = fresh_play(text, ctx)  # (no recipe: looked up above)
                        if parsed is not None and not parsed[1]:
                            self.last = lineno
                            raw.append(text)
                            chars += len(text)
                            fast.chars = chars
                            try:
                                fast.place(parsed[0])
                            except NotationError as exc:
                                fast.error = exc
                                fast = None
                                continue
                            if len(raw) >= MAX_HAND_LINES or chars >= MAX_HAND_CHARS:
                                fast = None
                            continue
                    fast.chars = chars
                logical = push(lineno, text) if type(text) is str else joiner.push_physical(lineno, text)
                for first, raws, ltext, problem in logical:
                    done = self._line(first, raws, ltext, problem)
                    if done is not None:
                        yield done
                        if done.index >= MAX_HANDS_PER_FILE:
                            if self.hand is not None and self.hand.error is not None:
                                yield self.hand.finish(self.last)
                            return
                fast = None if joiner.pending else self._fast_hand()
                if fast is not None:
                    assert fast.ctx is not None
                    ctx = fast.ctx
                    plain = ctx.plain
                    players = ctx.players
                    raw = fast.raw
                    events = fast.events
                    lines = fast.lines
                    chars = fast.chars
        for first, raws, ltext, problem in joiner.end():
            done = self._line(first, raws, ltext, problem)
            if done is not None:
                yield done
        hand = self.hand
        if hand is None and self.pend_error is not None:  # comments alone, one with a byte not UTF-8
            self.index += 1
            hand = self.hand = _Hand(self, self.index)
        if hand is not None:
            if self.pend_raw:
                hand.add_raw(self.pend_first, self.pend_raw)
            if self.pend_error is not None and hand.error is None:
                hand.error = self.pend_error
            hand.trailing = tuple(self.pend_comments)
            yield hand.finish(self.last)

    def _line(self, first: int, raws: list[str], text: str, problem: NotationError | None) -> RecordHand | None:
        """Read one logical line; returns the hand it closes, if any."""
        hand = self.hand
        # (A plain play line of a hand in play never gets here: :meth:`hands` reads it.)
        self.last = first + len(raws) - 1
        blanked = text
        comments: list[tuple[int, str]] = []
        if problem is None:
            if not text.strip():
                if not self.pend_raw:
                    self.pend_first = first
                self.pend_raw.extend(raws)
                return None
            if "{" in text or "}" in text or ";" in text:
                try:
                    blanked, comments = lex(text)
                except LexError as exc:
                    problem = error_at(text, exc.offset, first, exc.code, exc.message)
            stripped = blanked.strip()
            if problem is None and not stripped:
                if not self.pend_raw:
                    self.pend_first = first
                self.pend_raw.extend(raws)
                self.pend_comments.append(" ".join(canonical_comment(c) for _, c in comments))
                return None
        elif _undecoded_comment(text, problem):
            if not self.pend_raw:
                self.pend_first = first
            self.pend_raw.extend(raws)
            if self.pend_error is None:
                self.pend_error = problem
            return None
        else:
            stripped = text.strip()
        done: RecordHand | None = None
        is_tag = stripped[:1] == "["
        # binary data in a hand already malformed is a hand of its own: said, never lost behind
        # the hand's first error
        apart = type(problem) is BinaryData and hand is not None and hand.error is not None
        if hand is None or (is_tag and hand.in_play) or apart:
            if hand is not None:
                done = hand.finish(self.last)
            self.index += 1
            hand = self.hand = _Hand(self, self.index)
            if self.index > MAX_HANDS_PER_FILE:
                message = too_long_message("a file", self.index, MAX_HANDS_PER_FILE, "hands")
                hand.error = NotationError("R10", message + ": the rest is not read", 1, first)
        if self.pend_raw:
            hand.add_raw(self.pend_first, self.pend_raw)
            self.pend_raw = []
        if self.pend_error is not None:
            if hand.error is None:
                hand.error = self.pend_error
            self.pend_error = None
        hand.add_raw(first, raws)
        before = tuple(self.pend_comments)
        self.pend_comments = []
        if not is_tag:
            hand.in_play = True
        if hand.error is not None:
            return done
        if problem is not None:
            hand.error = problem
            return done
        try:
            if is_tag:
                hand.add_tag(blanked, comments, first, before)
            else:
                hand.add_play(blanked, comments, first, before)
        except NotationError as exc:
            hand.error = exc
        return done


def read_hands(
    stream: IO[str],
    file: str = "-",
    base_dir: Path | str | None = None,
    memos: LineMemos | None = None,
    packs: PackOf | None = None,
) -> Iterator[RecordHand]:
    """The hands of a record, one at a time (constant memory), in file order.

    ``file`` names the input in errors; ``base_dir`` is where a ``Rules`` tag's house-rules
    path is looked up (the record's folder; None: the current directory). A malformed hand
    comes with ``error`` set and ``script`` None; the next hand is read normally. ``memos``: the
    lines remembered by the fast path, shared with the caller's other reads (none: its own).
    ``packs``: what each hand's pack holds, as the rules object that judges it answers (a card it
    holds none of is E1 where it is written); None: the game's usual pack.
    """
    return _Reader(file, base_dir, memos, packs).hands(_blocks(stream))


# --------------------------------------------------------------------------- hands in chunks (pan replay --jobs)


class HandChunk(Value):
    """Consecutive whole hands of a record, cut where the reader starts a hand: ``lines`` are
    the physical lines (as :func:`read_hands` sees them), the first at file line ``first_line``;
    ``first_index`` is the number in the file of the first hand starting in it, ``hands`` how
    many start in it."""

    first_line: int
    first_index: int
    hands: int
    lines: list[Physical]


def _kind(text: str, problem: NotationError | None) -> int:
    """How the reader takes a logical line: 0 blank or comments only (it waits for the next
    line), 1 a tag line, 2 a play line (as :meth:`_Reader._line` decides)."""
    if _undecoded_comment(text, problem):
        return 0
    if problem is None:
        if not text.strip():
            return 0
        blanked = text
        if "{" in text or "}" in text or ";" in text:
            try:
                blanked, _ = lex(text)
            except LexError:
                return 1 if text.strip()[:1] == "[" else 2
        stripped = blanked.strip()
        if not stripped:
            return 0
    else:
        stripped = text.strip()
    return 1 if stripped[:1] == "[" else 2


def split_hands(stream: IO[str], hands_per_chunk: int) -> Iterator[HandChunk]:
    r"""The record in chunks of about ``hands_per_chunk`` hands, cut exactly where the reader
    starts a new hand (before the blank and comment lines that go with it), so that reading each
    chunk with :func:`read_chunk` gives the hands :func:`read_hands` gives. Nothing is parsed:
    a line is only told blank, tag or play. Memory holds one chunk.

    >>> import io
    >>> text = '[Players "A B"]\nA stay\n\n; next\n[Players "A B"]\nA top\n[Players "A B"]\n'
    >>> [(c.first_line, c.first_index, c.hands, len(c.lines)) for c in split_hands(io.StringIO(text), 1)]
    [(1, 1, 1, 2), (3, 2, 1, 4), (7, 3, 1, 1)]
    """
    joiner = _Joiner()
    push = joiner.push
    lineno = 0
    chunk: list[Physical] = []
    chunk_first = 1
    first_index = 1
    count = 0
    started = False  # a hand has begun
    in_play = False  # the current hand has a play line
    pend = -1  # file line where the run of blank and comment lines before the next content began
    hand_start = 1
    for block in _blocks(stream):
        for text in block:
            lineno += 1
            chunk.append(text)
            if started and type(text) is str and not joiner.pending:
                c = text[:1]
                if c and c != "[" and not c.isspace() and "{" not in text and "}" not in text and ";" not in text:
                    in_play = True  # a play line: never starts a hand
                    pend = -1
                    continue
            logical = push(lineno, text) if type(text) is str else joiner.push_physical(lineno, text)
            for first, _raws, ltext, problem in logical:
                kind = _kind(ltext, problem)
                if kind == 0:
                    if pend < 0:
                        pend = first
                    continue
                if not started or (kind == 1 and in_play):
                    start = pend if pend >= 0 else first
                    if started and count >= hands_per_chunk and start - hand_start < MAX_HAND_LINES:
                        k = start - chunk_first
                        yield HandChunk(chunk_first, first_index, count, chunk[:k])
                        chunk = chunk[k:]
                        chunk_first = start
                        first_index += count
                        count = 0
                    started = True
                    in_play = False
                    hand_start = start
                    count += 1
                pend = -1
                if kind == 2:
                    in_play = True
    for _first, _raws, ltext, problem in joiner.end():
        kind = _kind(ltext, problem)
        if kind and (not started or (kind == 1 and in_play)):
            count += 1
    if chunk:
        yield HandChunk(chunk_first, first_index, count, chunk)


def read_chunk(
    chunk: HandChunk,
    file: str = "-",
    base_dir: Path | str | None = None,
    memos: LineMemos | None = None,
    packs: PackOf | None = None,
) -> Iterator[RecordHand]:
    """The hands of a chunk of :func:`split_hands`, numbered and placed as in the whole file
    (``memos``, ``packs``: as for :func:`read_hands`; the memos shared by a worker's chunks)."""
    reader = _Reader(file, base_dir, memos, packs)
    reader.index = chunk.first_index - 1
    return reader.hands([chunk.lines], chunk.first_line - 1)
