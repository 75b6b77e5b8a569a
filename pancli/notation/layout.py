"""What the reader gives for each hand: the referee's script, the raw text, and the layout
(comments and annotations, for ``pan fmt``)."""

from __future__ import annotations

from collections.abc import Mapping

from msgspec import field

from pancli.escapes import escape_text
from pancli.model.actions import HandScript
from pancli.notation.errors import NotationError
from pancli.notation.record_common import PlayItem, TagPair
from pancli.values import Value


class Notes(Value):
    """The comments and glyphs of one line, where the canonical form puts them.

    ``before``: whole comment lines just before the line (each as one canonical line of text).
    ``after``: ``{...}`` comments after the line's item; for a turn, after the player's name
    (comments before the first action). ``actions``: for a turn with any glyph or comment
    after an action, one ``(glyph, comments)`` per action (``""`` for no glyph); else ``()``.
    ``eol``: the text of the ``;`` comment (stripped, without ``;``), or None.
    """

    before: tuple[str, ...] = ()
    after: tuple[str, ...] = ()
    actions: tuple[tuple[str, tuple[str, ...]], ...] = ()
    eol: str | None = None


NO_NOTES = Notes()


class TagEntry(Value):
    """A tag line with its comments."""

    pair: TagPair
    notes: Notes = NO_NOTES


class HandLayout(Value):
    """Everything of a hand that ``pan fmt`` writes: tags with their comments, the play lines
    (deal, up, decision, turn, force, reshuffle) in record order, the comments and glyphs of
    the play lines that have any (``notes``: line index -> Notes; most lines have none, and
    the reader builds no object for them), the comment lines before the first tag
    (``leading``) and after the last line (``trailing``)."""

    tags: tuple[TagEntry, ...]
    lines: tuple[PlayItem, ...]
    notes: Mapping[int, Notes] = field(default_factory=dict)
    leading: tuple[str, ...] = ()
    trailing: tuple[str, ...] = ()

    def notes_of(self, index: int) -> Notes:
        """The notes of play line ``index`` (0-based), empty when it has none."""
        return self.notes.get(index, NO_NOTES)


class RecordHand(Value):
    """One hand of a record file.

    ``index`` is the 1-based hand number in the file; ``first_line``/``last_line`` the file
    lines it spans (blank lines around it excluded); ``text`` its raw text (lines joined
    with ``\\n``, ending with ``\\n``). A malformed hand has ``error`` (with file line and
    column) and ``script``/``layout`` None; reading goes on with the next hand.
    """

    index: int
    file: str
    first_line: int
    last_line: int
    text: str
    script: HandScript | None
    error: NotationError | None = None
    layout: HandLayout | None = None
    players: tuple[str, ...] = ()
    """The players of a malformed hand, as its ``Players`` tag names them (when it was read)."""
    warnings: tuple[NotationError, ...] = ()
    """What is worth a look but no error (two player names that look alike), with its place."""
    tags_read: tuple[tuple[str, str], ...] = ()
    """The tag pairs of a malformed hand, those read before its error (a readable hand's are its script's)."""

    @property
    def source(self) -> str:
        """Where the hand comes from, for titles, escaped: the file, or for standard input (``-``)
        the hand's ``Event`` tag and "standard input" (error places keep ``-``: ``-:LINE:COL``)."""
        if self.file != "-":
            return escape_text(self.file)
        event = next((v for k, v in self.script.tags if k == "Event"), "") if self.script is not None else ""
        if not event:
            return "standard input"
        return f"{escape_text(event)} (standard input)"
