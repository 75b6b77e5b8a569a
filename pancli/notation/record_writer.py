"""The canonical text of records: from a :class:`HandScript` (``pan simulate``) or from a
hand as read, comments and annotations kept (``pan fmt``).

The canonical form (grammar/README-records.md): tags in the order Event, Site, Date, Round,
Game, Rules, Stake, Packs, Players, Ledger, then the others in their original order; one
blank line, then one play line per deal, upcard, decision, turn, force and reshuffle;
canonical cards (``Ks``) and melds (``meld [5s 5s 5s]``); actions joined by ``, ``; a
glyph after its action (``discard 7d !``), then its ``{...}`` comments; a ``; comment`` at
the end; one blank line between hands. Reading the canonical form back and formatting it
again gives the same text.

>>> from pancli.cards import card, Rank, Suit
>>> from pancli.model.actions import Decision, Draw, Discard, HandScript, MeldNew, Turn
>>> five = card(Rank.FIVE, Suit.SPADES)
>>> s = HandScript(("Ana", "Ben"), events=(Decision("Ana", True), Decision("Ben", False),
...     Turn("Ana", (Draw(five), MeldNew((five, five, five), claim=4), Discard(five)))))
>>> print(write_script(s), end="")
[Players "Ana Ben"]
<BLANKLINE>
Ana stay
Ben top
Ana draw 5s, meld [5s 5s 5s] {[%pays 4]}, discard 5s
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Final

from pancli.cards import Card, Game, format_cards
from pancli.escapes import escape_text
from pancli.model.actions import (
    Action,
    Add,
    Borrow,
    Call,
    Count,
    Deal,
    Decision,
    Discard,
    Draw,
    Force,
    HandScript,
    Lay,
    MeldNew,
    Mend,
    Out,
    Reshuffle,
    Split,
    Take,
    TakeBack,
    TakeMany,
    Turn,
)
from pancli.notation.record_common import PlayItem, UpLine, escape_value, ledger_value
from pancli.rules import CARDROOM, HOYLE, is_builtin

if TYPE_CHECKING:
    from pancli.notation.layout import Notes, RecordHand

TAG_ORDER: Final = ("Event", "Site", "Date", "Round", "Game", "Rules", "Stake", "Packs", "Players", "Ledger")
"""The canonical order of the known tags; other tags follow in their original order."""
_RANK: Final = {name: i for i, name in enumerate(TAG_ORDER)}


class Spelling:
    """How :func:`action_text` and :func:`line_text` write cards, melds and names: as the record
    writes them; a page gives its own markup (render/html.py), the words staying the same."""

    __slots__ = ()

    def card(self, c: Card) -> str:
        return c.text

    def cards(self, cards: tuple[Card, ...] | list[Card]) -> str:
        return format_cards(cards)

    def meld(self, cards: tuple[Card, ...] | list[Card]) -> str:
        return f"[{format_cards(cards)}]"

    def name(self, name: str) -> str:
        return name

    def player(self, name: str) -> str:
        """The player a line is about (``12. Ana`` for a numbered turn)."""
        return name


RECORD: Final = Spelling()


def action_text(a: Action, spell: Spelling = RECORD) -> str:
    """The canonical text of one action (no claim, glyph or comment): the one place an action
    is put in words (``spell``: how its cards and names are written).

    >>> from pancli.cards import card, Rank, Suit
    >>> action_text(Split(1, (card(Rank.FIVE, Suit.SPADES),) * 3, (card(Rank.FIVE, Suit.SPADES),) * 3))
    'split #1 [5s 5s 5s] [5s 5s 5s]'
    """
    if isinstance(a, Draw):
        return f"draw {spell.card(a.card)}"
    if isinstance(a, Discard):
        return f"discard {spell.card(a.card)}"
    if isinstance(a, MeldNew):
        return f"meld {spell.meld(a.cards)}"
    if isinstance(a, Take):
        return f"take {spell.card(a.card)}"
    if isinstance(a, Add):
        return f"add {spell.cards(a.cards)} to #{a.target}"
    if isinstance(a, Out):
        return "out"
    if isinstance(a, Borrow):
        return f"borrow {spell.card(a.card)} from #{a.source}"
    if isinstance(a, Split):
        return f"split #{a.target} {spell.meld(a.first)} {spell.meld(a.second)}"
    if isinstance(a, Mend):
        return f"mend #{a.target} {spell.meld(a.cards)}"
    if isinstance(a, TakeBack):
        return f"back #{a.target}"
    if isinstance(a, TakeMany):
        return f"take {spell.cards(a.cards)}" if a.cards else f"take {a.count}"
    if isinstance(a, Lay):
        return f"lay {spell.cards(a.cards)} on {spell.name(a.owner)}#{a.target}"
    raise TypeError(f"not an action: {a!r}")  # pragma: no cover - Action is a closed union


def _claim(a: Action) -> str:
    claim = a.claim if isinstance(a, MeldNew | Add | Split | Mend) else None
    return "" if claim is None else f" {{[%pays {claim}]}}"


def head_text(item: PlayItem, spell: Spelling = RECORD) -> str:
    """The player a play line starts with (``12. Ana`` for a numbered turn); ``""`` for a deal, the
    upcard and a reshuffle (a deal names its player after its verb)."""
    if isinstance(item, Turn):
        return spell.player(f"{item.number}. {item.player}" if item.number is not None else item.player)
    if isinstance(item, Decision | Force | Call | Count):
        return spell.player(item.player)
    return ""


def line_text(item: PlayItem, spell: Spelling = RECORD) -> str:
    """What a play line other than a turn says after its :func:`head_text` (``stay``, ``count Ben 3``,
    ``deal Ana 5s ...``): the one place such a line is put in words.

    >>> from pancli.cards import card, Rank, Suit
    >>> line_text(Count("Ana", "Ben", 3)), line_text(UpLine(card(Rank.FIVE, Suit.SPADES), 0, 0))
    ('count Ben 3', 'up 5s')
    """
    if isinstance(item, Deal):
        return f"deal {spell.player(item.player)} {spell.cards(item.cards)}"
    if isinstance(item, UpLine):
        return f"up {spell.card(item.card)}"
    if isinstance(item, Decision):
        return "stay" if item.stay else "top"
    if isinstance(item, Force):
        return f"force {spell.name(item.other)}"
    if isinstance(item, Reshuffle):
        return "reshuffle"
    if isinstance(item, Call):
        return f"call {spell.name(item.other)} #{item.target}"
    if isinstance(item, Count):
        found = "" if item.number is None else f" {item.number}"
        return f"count {spell.name(item.other)}{found}"
    raise TypeError(f"not a play line: {item!r}")  # pragma: no cover - PlayItem is a closed union


def item_text(item: PlayItem, notes: Notes | None = None, *, claims: bool = False) -> str:
    """The canonical text of one play line (``notes``: its comments and glyphs).

    ``claims`` writes each action's ``[%pays N]`` as a comment (for scripts; a hand as read
    keeps its claims in its own comments).
    """
    if isinstance(item, Turn):
        head = head_text(item)
        per = notes.actions if notes is not None else ()
        parts: list[str] = []
        for i, a in enumerate(item.actions):
            text = action_text(a)
            if claims:
                text += _claim(a)
            if per:
                glyph, comments = per[i]
                if glyph:
                    text += " " + glyph
                for c in comments:
                    text += " " + c
            parts.append(text)
        if notes is not None and notes.after:
            head += " " + " ".join(notes.after)
        line = head + " " + ", ".join(parts)
    else:
        head = head_text(item)
        line = f"{head} {line_text(item)}" if head else line_text(item)
        if notes is not None and notes.after:
            line += " " + " ".join(notes.after)
    if notes is not None and notes.eol is not None:
        line += f" ; {notes.eol}" if notes.eol else " ;"
    return line


def _tag_line(name: str, value: str) -> str:
    return f'[{name} "{escape_value(value)}"]'


def _ordered(tags: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    return sorted(tags, key=lambda t: _RANK.get(t[0], len(TAG_ORDER)))


def _known_values(script: HandScript) -> dict[str, str]:
    """The canonical values of the tags the script's fields decide."""
    out = {"Players": " ".join(script.players)}
    if script.game is Game.PAGRUC:
        out["Game"] = script.game.value
    if script.stake is not None:
        out["Stake"] = format(script.stake, "f")
    if script.packs is not None:
        out["Packs"] = str(script.packs)
    if script.ledger_claim is not None:
        units = script.ledger_claim.units
        out["Ledger"] = ledger_value({p: units[p] for p in script.players if p in units})
    return out


def script_tags(script: HandScript) -> list[tuple[str, str]]:
    """The tag pairs of a script in canonical order: the fields decide Players, Game, Stake,
    Packs and Ledger; ``Rules`` and the other tags come from ``script.tags`` (``Rules`` is
    written for a built-in profile when absent). Raises ValueError for a house-rules
    profile with no ``Rules`` tag (its file name is unknown)."""
    known = _known_values(script)
    tags = dict(script.tags)
    if "Game" in tags:
        known["Game"] = script.game.value
    if "Rules" in tags:
        rules = tags["Rules"].strip()
        known["Rules"] = rules.lower() if is_builtin(rules) else tags["Rules"]
    elif script.profile == CARDROOM:
        known["Rules"] = "cardroom"
    elif script.profile != HOYLE and script.game is Game.PANGUINGUE:
        raise ValueError("a house-rules profile needs a Rules tag naming its file (script.tags)")
    pairs = [(name, known.pop(name)) if name in known else (name, value) for name, value in script.tags]
    pairs.extend(known.items())
    return _ordered(pairs)


def write_script(script: HandScript) -> str:
    """The canonical text of a hand with no comments (claims written as ``{[%pays N]}``)."""
    play = [f"deal {d.player} {format_cards(d.cards)}" for d in script.deals]
    if script.upcard is not None:
        play.append(f"up {script.upcard}")
    play.extend(item_text(e, claims=True) for e in script.events)
    lines = [_tag_line(n, v) for n, v in script_tags(script)]
    if play:
        lines.append("")
    return "\n".join(lines + play) + "\n"


def write_scripts(scripts: Iterable[HandScript]) -> Iterator[str]:
    """Canonical text of several hands, one blank line between them, as chunks to write."""
    for i, script in enumerate(scripts):
        yield ("\n" if i else "") + write_script(script)


def format_record(hand: RecordHand) -> str:
    """The canonical text of a hand as read, comments and annotations kept.

    A malformed hand (``hand.error``) has no canonical form: its raw text is returned. Either way
    no control character is written raw (:func:`pancli.escapes.escape_text`; line ends and tabs
    stay): tag values write them as escapes that read back as the same characters, comments as
    the same escapes, as text.
    """
    layout = hand.layout
    script = hand.script
    if layout is None or script is None:
        return escape_text(hand.text, layout=True)
    lines: list[str] = list(layout.leading)
    values = dict(script_tags(script))
    entries = sorted(layout.tags, key=lambda e: _RANK.get(e.pair.name, len(TAG_ORDER)))
    for e in entries:
        tn = e.notes
        lines.extend(tn.before)
        text = _tag_line(e.pair.name, values.get(e.pair.name, e.pair.value))
        if tn.after:
            text += " " + " ".join(tn.after)
        if tn.eol is not None:
            text += f" ; {tn.eol}" if tn.eol else " ;"
        lines.append(text)
    if layout.lines:
        lines.append("")
    notes = layout.notes
    for i, item in enumerate(layout.lines):
        n = notes.get(i)
        if n is None:
            lines.append(item_text(item))
        else:
            lines.extend(n.before)
            lines.append(item_text(item, n))
    lines.extend(layout.trailing)
    return escape_text("\n".join(lines) + "\n", layout=True)


def format_records(hands: Iterable[RecordHand]) -> Iterator[str]:
    """Canonical text of the hands of a file, one blank line between hands, as chunks."""
    for i, hand in enumerate(hands):
        yield ("\n" if i else "") + format_record(hand)
