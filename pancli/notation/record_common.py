"""What both readers of a ``.pan`` line share: the comment lexer, line values, limits.

A record line is read in two steps (grammar/README-records.md):

1. **Lexer** (:func:`lex`): comments (``{...}``, ``; ...``) are cut out and kept aside with
   their offsets; each comment character becomes a space (line ends stay), so columns of
   everything else are unchanged. A ``"..."`` string (a tag value) is opaque to the lexer.
2. **Parser**: the fast path (:mod:`pancli.notation.record_fast`) or the grammar of record
   (:mod:`pancli.notation.record_grammar`) reads the blanked text into a :class:`TagPair`
   or a play item (``Deal``, :class:`UpLine`, ``Decision``, ``Turn``, ``Force``, ``Reshuffle``,
   ``Call``, ``Count``)
   plus the annotation glyph of every action.

>>> blanked, comments = lex("Ana draw 5h {nice} ; done")
>>> blanked
'Ana draw 5h                '
>>> comments
[(12, '{nice}'), (19, '; done')]
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Final

from pancli.cards import Card, Game
from pancli.escapes import escape_text
from pancli.limits import MAX_HAND_LINES as MAX_HAND_LINES  # (re-exported: the limits live there)
from pancli.limits import MAX_LINE_CHARS as MAX_LINE_CHARS
from pancli.model.actions import Action, Call, Count, Deal, Decision, Force, Reshuffle, Turn
from pancli.notation.errors import NotationError
from pancli.notation.fast import PackSpellings, usual_spellings
from pancli.values import Value

if TYPE_CHECKING:
    from pancli.notation.errors import NotationCode

GLYPHS: Final = frozenset({"!", "?", "!!", "??", "!?", "?!"})
"""Annotation glyphs, written after an action."""

RESERVED_NAMES: Final = frozenset({"deal", "up", "reshuffle"})
"""Words that start a line and so cannot be player names (any case)."""

NAME_CHAR: Final = r"[^\s\x00-\x1f\x7f!-,./:-@\[-^`{-~]"
"""A character that may continue a word: anything but blanks, control characters and the ASCII
punctuation other than ``-`` and ``_``. What a player name may hold is narrower
(:func:`name_problem`); this is how far a name or a keyword reaches on a line."""
NAME_PATTERN: Final = NAME_CHAR + "+"
"""The stretch of text read as a player name (then checked by :func:`name_problem`): the
grammar's, which compiles it (the fast path reads names without it)."""


def player_name(text: str) -> str:
    """A player name as the referee keeps it: Unicode NFC, so that two spellings of the same
    name (a precomposed ``é`` or ``e`` plus a combining accent) are one player.

    >>> player_name("Jose\u0301") == player_name("Jos\u00e9") == "Jos\u00e9"
    True
    """
    if text.isascii():
        return text
    import unicodedata  # start-up: only a name past ASCII needs it

    return unicodedata.normalize("NFC", text)


def name_problem(name: str) -> str | None:
    """Why ``name`` (NFC) cannot be a player name, or None: a name is letters of any script
    (with their accents), digits, ``_`` and ``-``, and not one of the words that start a line.

    >>> name_problem("Nguy\u1ec5n"), name_problem("\u674e\u5a1c"), name_problem("Ana-2")
    (None, None, None)
    >>> name_problem("Ana!")
    "'Ana!' is not a player name (letters of any script, digits, _ and -)"
    >>> name_problem("DEAL")
    "'DEAL' cannot be a player name (it starts a line: deal, up, reshuffle)"
    >>> name_problem("Ana\u034f")
    "'Ana\\\\u034f' holds U+034F COMBINING GRAPHEME JOINER, which prints as nothing: not a player name"
    """
    if not name.isascii() or not name or name.strip(_ASCII_NAME):
        import unicodedata  # start-up: only a name past letters, digits, _ and - needs it

        cats = [unicodedata.category(ch) for ch in name]
        ok = bool(name) and cats[0][0] != "M"
        ok = ok and all(c[0] in "LM" or c == "Nd" or ch in "_-" for c, ch in zip(cats, name, strict=True))
        if not ok:
            return f"{name!r} is not a player name (letters of any script, digits, _ and -)"
        hidden = re.search(DEFAULT_IGNORABLE, name)
        if hidden is not None:  # a letter or mark that prints as nothing: Ana and Ana+U+034F would look alike
            ch = hidden.group()
            what = f"U+{ord(ch):04X} {unicodedata.name(ch, 'an invisible character')}"
            shown = re.sub(DEFAULT_IGNORABLE, lambda m: f"\\u{ord(m.group()):04x}", name)  # shown, as escapes are
            return f"'{escape_text(shown)}' holds {what}, which prints as nothing: not a player name"
    if name.casefold() in RESERVED_NAMES:
        return f"{name!r} cannot be a player name (it starts a line: deal, up, reshuffle)"
    return None


_ASCII_NAME: Final = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"
"""A plain name's characters: a name made of them only strips to nothing (no pattern to compile
at start-up for it)."""

DEFAULT_IGNORABLE: Final = (
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f"
    "\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8\U0001bca0-\U0001bca3\U0001d173-\U0001d17a"
    "\U000e0000-\U000e0fff]"
)
"""Unicode's Default_Ignorable_Code_Point characters (DerivedCoreProperties.txt): a terminal or a page
draws them as nothing (a variation selector, the combining grapheme joiner, the Hangul fillers),
so a name holding one prints like another name, or blank. The pattern's text: re compiles it (and keeps
it) when a name past ASCII is first checked; its wide ranges are slow to compile, and most records never need it."""


def name_key(name: str) -> str:
    """What two names are compared by when they might be taken for each other: NFKC, case folded.

    >>> name_key("\uff21na") == name_key("ANA") == name_key("ana")
    True
    """
    if name.isascii():  # (NFKC leaves ASCII as it is, and ASCII folds as it lowers)
        return name.lower()
    import unicodedata  # start-up: only a name past ASCII needs it

    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


class LexError(Exception):
    """A comment problem at ``offset`` of the lexed text (the reader adds line and column)."""

    def __init__(self, offset: int, code: NotationCode, message: str) -> None:
        super().__init__(message)
        self.offset = offset
        self.code = code
        self.message = message


# --------------------------------------------------------------------------- lexer

# (a pattern text: re compiles it when the first line that needs it comes, and keeps it)
_STRING: Final = r'"(?:[^"\\\n]|\\.)*"?'


def _special(text: str, pos: int) -> int:
    """Where the first of ``{ } ; "`` at or after ``pos`` is in ``text`` (-1: none). String
    methods, not a pattern: compiling one cost every record-reading command start-up.

    >>> _special('Ana draw 5h ; {x}', 0), _special("Ana", 0)
    (12, -1)
    """
    found = [i for i in (text.find("{", pos), text.find("}", pos), text.find(";", pos), text.find('"', pos)) if i >= 0]
    return min(found) if found else -1


def brace_open_after(line: str, in_brace: bool) -> bool:
    """Whether a ``{`` comment is still open at the end of ``line`` (``in_brace``: open before it).

    >>> brace_open_after("Ana draw 5h {long", False), brace_open_after("comment} , discard 5h", True)
    (True, False)
    """
    pos = 0
    if in_brace:
        j = line.find("}")
        if j < 0:
            return True
        pos = j + 1
    while True:
        i = _special(line, pos)
        if i < 0:
            return False
        ch = line[i]
        if ch == "{":
            j = line.find("}", i + 1)
            if j < 0:
                return True
            pos = j + 1
        elif ch == ";":
            return False
        elif ch == '"':
            pos = re.compile(_STRING).match(line, i).end()  # type: ignore[union-attr]
        else:
            pos = i + 1  # a stray '}': the lexer reports it


def lex(text: str) -> tuple[str, list[tuple[int, str]]]:
    """Cut the comments out of a logical line: (blanked text, [(offset, comment)]).

    Each comment keeps its delimiters (``{...}`` or ``; ...``); a ``;`` comment runs to the
    end of its physical line. Raises :class:`LexError` (R8) for a ``{`` never closed or a
    ``}`` without ``{``.

    >>> lex('[Event "a {b} ; c"] ; d')
    ('[Event "a {b} ; c"]    ', [(20, '; d')])
    >>> lex("Ana top }")
    Traceback (most recent call last):
    ...
    pancli.notation.record_common.LexError: '}' without '{'
    """
    comments: list[tuple[int, str]] = []
    pos = 0
    while True:
        i = _special(text, pos)
        if i < 0:
            break
        ch = text[i]
        if ch == "{":
            j = text.find("}", i + 1)
            if j < 0:
                raise LexError(i, "R8", "'{' comment is never closed")
            comments.append((i, text[i : j + 1]))
            pos = j + 1
        elif ch == ";":
            j = text.find("\n", i)
            if j < 0:
                j = len(text)
            comments.append((i, text[i:j]))
            pos = j
        elif ch == '"':
            pos = re.compile(_STRING).match(text, i).end()  # type: ignore[union-attr]
        else:
            raise LexError(i, "R8", "'}' without '{'")
    if not comments:
        return text, comments
    parts: list[str] = []
    last = 0
    for off, body in comments:
        parts.append(text[last:off])
        parts.append(" " * len(body) if "\n" not in body else re.sub(r"[^\n]", " ", body))
        last = off + len(body)
    parts.append(text[last:])
    return "".join(parts), comments


# --------------------------------------------------------------------------- line values


def ledger_value(units: Mapping[str, int]) -> str:
    """A ledger as ``pan replay`` prints it and ``pan fmt`` writes the ``Ledger`` tag: ``NAME
    units`` pairs in the given order, separated by ``, ``, units signed (``0`` bare). Here, not
    with the record writer: a replay prints ledgers without loading the writer (start-up).

    >>> ledger_value({"Ana": 26, "Ben": -13, "Cruz": -13, "Dee": 0})
    'Ana +26, Ben -13, Cruz -13, Dee 0'
    """
    return ", ".join(f"{p} {u:+d}" if u else f"{p} 0" for p, u in units.items())


class TagPair(Value):
    """``[Name "value"]``: ``value`` unescaped; ``value_col`` is the column just inside the quote;
    ``escaped`` tells whether the value held a backslash escape (then columns inside it shift)."""

    name: str
    value: str
    line: int
    col: int
    value_col: int
    escaped: bool = False


class UpLine(Value, tag=True):
    """``up CARD``: the upcard (S2; PAGRUC G2). ``card_col``: the card's column on ``line``
    (0: ``up`` and the card one space apart, from ``col``)."""

    card: Card
    line: int
    col: int
    card_col: int = 0

    # the card's column says where it was written, not what the line is
    def __eq__(self, other: object) -> bool:
        if other.__class__ is not UpLine:
            return NotImplemented
        o: UpLine = other
        return (self.card, self.line, self.col) == (o.card, o.line, o.col)

    def __hash__(self) -> int:
        return hash((self.card, self.line, self.col))


PlayItem = Deal | UpLine | Decision | Turn | Force | Reshuffle | Call | Count
"""What one play line holds."""

ParsedPlay = tuple[PlayItem, tuple[str, ...]]
"""A play line read: the item and, for a turn with any glyph, one glyph per action
(``""`` for none); ``()`` when the line has no glyph at all."""


_MAX_RECIPES: Final = 8_000
"""Bound on remembered lines, so memory stays constant on any file. When full,
new lines are not remembered: the common lines of a record come early."""
_MAX_SEGMENTS: Final = 20_000

Maker = Callable[[int], "Turn | Decision"]
"""Builds the item of a remembered line at a given file line."""
PlainRecipes = dict[str, tuple[Maker, frozenset[str]]]
Segments = dict[str, tuple[Callable[..., Action], tuple[object, ...], str]]


class LineMemos:
    """What the fast path remembers of the lines it read, per game and pack, for one reader of
    records (a file, or a worker's chunks): made once by the reader, handed to each hand's
    :class:`LineContext`.

    ``plain``: the remembered plain lines (turns and decisions without glyphs): line text ->
    (maker, names). ``maker(line)`` builds the same item :func:`.fast_play` reads from that text at
    file line ``line``; it is valid where every name of ``names`` is seated. The record reader
    looks whole lines up here before anything else (filled by :func:`.fast_play` with the lines it
    reads a second time, bounded by ``max_recipes``). ``segments``: actions read before, by their
    text (``meld [7d 7c 7s]``): constructor, values and glyph. Whole lines repeat less than their
    actions do (benchmarks/README.md, "Figures behind the code"); bounded by ``max_segments``.
    ``once``: play lines read once (bounded: cleared when full). A recipe is made for a line the
    second time it is read: in a simulated record most lines with melds are never read again, and
    making their recipes cost more than they saved. A memo of 0 entries remembers nothing (tests
    compare).

    >>> from pancli.cards import Game
    >>> from pancli.notation.record_fast import fast_play
    >>> memos = LineMemos()
    >>> ctx = LineContext(Game.PANGUINGUE, frozenset({"Ana", "Ben"}), line=3, memos=memos)
    >>> _ = fast_play("Ben stay", ctx), fast_play("Ben stay", ctx)  # remembered when read again
    >>> maker, names = memos.plain[Game.PANGUINGUE, usual_spellings(Game.PANGUINGUE)]["Ben stay"]
    >>> maker(9), sorted(names)
    (Decision(player='Ben', stay=True, line=9, col=1), ['Ben'])
    """

    __slots__ = ("max_recipes", "max_segments", "once", "plain", "segments")

    def __init__(self, max_recipes: int = _MAX_RECIPES, max_segments: int = _MAX_SEGMENTS) -> None:
        self.plain: dict[tuple[Game, PackSpellings], PlainRecipes] = {}
        """By game and pack: a line read in one pack may hold a card another refuses."""
        self.segments: dict[tuple[Game, PackSpellings], Segments] = {}
        self.once: set[str] = set()
        self.max_recipes = max_recipes
        self.max_segments = max_segments


class LineContext:
    """What reading a play line needs: the game, the cards its pack holds (``pack``: the
    spellings of its rules object's pack, E1; the game's usual pack when None), the seated
    players, the file line of the text's first character (set per line by the reader) and the
    reader's memos (its own when none is given), with the game's and pack's own at hand."""

    __slots__ = ("game", "line", "memos", "pack", "plain", "players", "segments", "tokens")

    def __init__(
        self,
        game: Game,
        players: frozenset[str],
        line: int = 1,
        memos: LineMemos | None = None,
        pack: PackSpellings | None = None,
    ) -> None:
        self.game = game
        self.players = players
        self.line = line
        self.pack = usual_spellings(game) if pack is None else pack
        self.tokens: dict[str, Card] = self.pack.tokens
        """The one-card token table of the pack."""
        self.memos = memos if memos is not None else LineMemos()
        key = (game, self.pack)
        self.plain = self.memos.plain.setdefault(key, {})
        self.segments = self.memos.segments.setdefault(key, {})

    def __repr__(self) -> str:
        return f"LineContext({self.game}, {sorted(self.players)}, line={self.line})"


def escape_value(value: str) -> str:
    r"""A tag value as written between the quotes: ``\`` and ``"`` escaped, and every control
    character (:func:`pancli.escapes.escape_text`: a tab is ``\t``, ESC ``\x1b``), which the reader
    reads back as the same character.

    >>> escape_value('say "hi" \\ bye')
    'say \\"hi\\" \\\\ bye'
    >>> escape_value("red\x1b[31m\tbold")
    'red\\x1b[31m\\tbold'
    """
    return escape_text(value.replace("\\", "\\\\").replace('"', '\\"'))


def locate(text: str, offset: int, line: int) -> tuple[int, int]:
    """(line, col) in the file of ``offset`` in a logical line starting at file line ``line``.

    >>> locate("ab\\ncd", 4, 10)
    (11, 2)
    """
    nl = text.count("\n", 0, offset)
    if not nl:
        return line, offset + 1
    return line + nl, offset - text.rfind("\n", 0, offset)


def error_at(text: str, offset: int, line: int, code: NotationCode, message: str) -> NotationError:
    """A NotationError placed at ``offset`` of a logical line."""
    ln, col = locate(text, offset, line)
    return NotationError(code, message, col, ln)


def show_token(text: str, offset: int) -> str:
    """How a message names what was found at ``offset``: the word there, quoted, or ``the end``.

    >>> show_token("Ana jump 5h", 4), show_token("Ana", 3), show_token("a\\x00", 1)
    ("'jump'", 'the end', 'U+0000')
    """
    if offset >= len(text) or text[offset:].strip(" \t\r\n") == "":
        return "the end"
    ch = text[offset]
    if not ch.isprintable() or ch.isspace():
        return f"U+{ord(ch):04X}"
    m = re.compile(r"[^\s,\[\]{}]+").match(text, offset)
    word = m.group() if m else ch
    if len(word) > 20:
        word = word[:20] + "..."
    return repr(word)
