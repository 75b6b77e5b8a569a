"""Pictures of cards, melds, hands and table positions, as SVG text (no dependency).

Every picture is a :class:`Drawing`: an SVG fragment with its size, placed with
:meth:`Drawing.at` inside a bigger one, or written alone with :meth:`Drawing.document`.
The suits are shapes (``<symbol>`` elements in :data:`DEFS`, used by reference) as well as
the suit symbol in each card's corner, so they are told apart without colour (print,
colour-blind readers); the rank and suit are real ``<text>`` (selectable, searchable), and
each card carries its canonical name (``5s``) as a tooltip and for screen readers. A card is
40 x 56 units: its corner index stays readable when a card is drawn 30 pixels wide.

Everything taken from a record (player names, labels) is escaped.

>>> d = card(Card(Rank.FIVE, Suit.SPADES))
>>> (d.width, d.height), "<title>5s</title>" in d.body, ">5</text>" in d.body
((40, 56), True, True)
>>> doc = meld([Card(Rank.FIVE, Suit.SPADES)] * 3, caption="#1 <C2>").document("a meld")
>>> doc.startswith("<svg xmlns="), "&lt;C2&gt;" in doc, doc.count('class="card"')
(True, True, 3)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final
from xml.sax.saxutils import escape as _xml_escape

from pancli.cards import Card, Rank, Suit
from pancli.escapes import escape_text
from pancli.model.results import Source
from pancli.values import Value

if TYPE_CHECKING:
    from pancli.analyze.analysis import Analysis
    from pancli.referee.position import Position

CARD_W: Final = 40
"""Width of a card, in SVG units."""
CARD_H: Final = 56
"""Height of a card."""
FAN: Final = 20
"""How far apart the cards of a meld are drawn (each card's corner index stays visible)."""
GAP: Final = 12
"""Space between groups of cards."""
CAPTION: Final = 15
"""Height of a caption line above a group."""
FONT: Final = "DejaVu Sans, Verdana, Arial, sans-serif"

_INK_CLASS: Final = {Suit.SPADES: "k", Suit.CLUBS: "k", Suit.HEARTS: "r", Suit.DIAMONDS: "r"}
"""The ink of each suit (black ``k``, red ``r``); the shapes alone tell the suits apart."""
SYMBOL: Final = {Suit.SPADES: "\u2660", Suit.HEARTS: "\u2665", Suit.DIAMONDS: "\u2666", Suit.CLUBS: "\u2663"}
"""The suit symbols of the corner index."""

_SHAPES: Final = {
    Suit.SPADES: (
        '<path d="M10 1.5C13 6 18 8.5 18 12.3a4 4 0 0 1-6.6 3L12.8 19H7.2l1.4-3.7A4 4 0 0 1 2 12.3C2 8.5 7 6 10 1.5Z"/>'
    ),
    Suit.HEARTS: (
        '<path d="M10 18.5C7 14.5 1.8 11.4 1.8 7a4.2 4.2 0 0 1 8.2-1.4A4.2 4.2 0 0 1 18.2 7c0 4.4-5.2 7.5-8.2 11.5Z"/>'
    ),
    Suit.DIAMONDS: '<path d="M10 1 17 10 10 19 3 10Z"/>',
    Suit.CLUBS: (
        '<circle cx="10" cy="5.6" r="3.9"/><circle cx="5.3" cy="11.6" r="3.9"/>'
        '<circle cx="14.7" cy="11.6" r="3.9"/><path d="M9 10h2l1.6 9H7.4Z"/>'
    ),
}

DEFS: Final = (
    "<defs>"
    + "".join(f'<symbol id="pan-{s.value}" viewBox="0 0 20 20">{_SHAPES[s]}</symbol>' for s in Suit)
    + "".join(f'<use id="pan-pip-{s.value}" href="#pan-{s.value}" x="17" y="30" width="20" height="20"/>' for s in Suit)
    + '<rect id="pan-face" x=".5" y=".5" width="39" height="55" rx="4"/>'
    + '<pattern id="pan-back" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">'
    '<rect width="6" height="6" fill="#2d4f8a"/><rect width="3" height="6" fill="#3d66ad"/></pattern>'
    "</defs>"
)
"""The suit shapes and the card back, referred to by every card (once per document)."""

STYLE: Final = (
    ".card .face,.back .face{fill:#fff;stroke:#444}"
    ".card .mark{fill:none;stroke:#1a73e8;stroke-width:2.5;stroke-dasharray:5 2.5}"
    ".card .rank{font-size:17px;font-weight:bold;letter-spacing:-1px}.card .rank.ten{font-size:14px}"
    ".card .pip{font-size:13px}.card .r{fill:#c0142c}.card .k{fill:#111}"
    ".back .back{fill:url(#pan-back);stroke:#444}"
    ".back .count{font-size:13px;font-weight:bold;text-anchor:middle;fill:#111}.back .count.small{font-size:10px}"
    "@media print{.card .r{fill:#a00}}"
)
"""How cards and backs are drawn: one style sheet per SVG document."""


def escape(text: str) -> str:
    """``text`` safe inside an SVG (or HTML) element or attribute, its control characters shown
    as every format shows them (:func:`~pancli.escapes.escape_text`: ``cat picture.svg`` moves no
    cursor, and XML 1.0 allows no C0 control at all).

    >>> escape('<b a="1">&'), escape("t\\x1b]0;x\\x07")
    ('&lt;b a=&quot;1&quot;&gt;&amp;', 't\\\\x1b]0;x\\\\x07')
    """
    return _xml_escape(escape_text(text), {'"': "&quot;"})


def _num(x: float) -> str:
    return str(int(x)) if x == int(x) else f"{x:.1f}"


class Drawing(Value):
    """An SVG fragment drawn from (0, 0) to (``width``, ``height``)."""

    body: str
    width: float
    height: float

    def at(self, x: float, y: float) -> str:
        """The fragment moved to (x, y)."""
        if not x and not y:
            return self.body
        return f'<g transform="translate({_num(x)} {_num(y)})">{self.body}</g>'

    def document(self, title: str) -> str:
        """A standalone SVG file: this drawing with its title and the shapes it uses."""
        w, h = _num(self.width), _num(self.height)
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" '
            f'role="img" aria-label="{escape(title)}" font-family="{FONT}">'
            f'<title>{escape(title)}</title><style>{STYLE}</style>{DEFS}<rect width="{w}" height="{h}" fill="#fbfbf7"/>'
            f"{self.body}</svg>\n"
        )


def rank_text(rank: Rank) -> str:
    """The rank as a card shows it (``10`` for the ten, else its symbol).

    >>> rank_text(Rank.TEN), rank_text(Rank.QUEEN)
    ('10', 'Q')
    """
    return "10" if rank is Rank.TEN else rank.symbol


def card(c: Card, *, mark: bool = False) -> Drawing:
    """One card face: the rank and suit symbol in the corner (text), the suit's shape below
    (styled by :data:`STYLE`: red or black ink). ``mark`` outlines it (the drawn card).

    >>> 'href="#pan-pip-h"' in card(Card(Rank.KING, Suit.HEARTS)).body
    True
    """
    ink = _INK_CLASS[c.suit]
    rank = rank_text(c.rank)
    ten = " ten" if len(rank) > 1 else ""
    outline = '<rect class="mark" x="-2.5" y="-2.5" width="45" height="61" rx="6"/>' if mark else ""
    return Drawing(
        f'<g class="card" data-card="{c}"><title>{c}</title>{outline}<use class="face" href="#pan-face"/>'
        f'<text class="rank {ink}{ten}" x="3" y="17">{rank}</text>'
        f'<text class="pip {ink}" x="4" y="31">{SYMBOL[c.suit]}</text>'
        f'<use class="{ink}" href="#pan-pip-{c.suit.value}"/></g>',
        CARD_W,
        CARD_H,
    )


def back(count: int | None = None, label: str = "cards") -> Drawing:
    """A card back, with a count on it (a hidden hand, the stock).

    >>> ">263<" in back(263, "stock").body
    True
    """
    number = (
        f'<rect class="face" x="5" y="18" width="30" height="20" rx="3"/>'
        f'<text class="count{" small" if count >= 1000 else ""}" x="20" y="33">{count}</text>'
        if count is not None
        else ""
    )
    title = label if count is None else f"{count} {label}"
    return Drawing(
        f'<g class="back"><title>{escape(title)}</title>'
        f'<rect class="back" x=".5" y=".5" width="39" height="55" rx="4"/>{number}</g>',
        CARD_W,
        CARD_H,
    )


def _caption(text: str, x: float, y: float, *, bold: bool = False, size: int = 11) -> str:
    weight = ' font-weight="bold"' if bold else ""
    return f'<text x="{_num(x)}" y="{_num(y)}" font-size="{size}"{weight} fill="#222">{escape(text)}</text>'


def _caption_width(text: str, size: int = 11, *, bold: bool = False) -> float:
    return len(text) * size * (0.68 if bold else 0.62)


def fan(cards: Sequence[Card], *, marked: int | None = None, step: float = FAN) -> Drawing:
    """Cards overlapping left to right (each corner visible); ``marked`` outlines one of them."""
    if not cards:
        return Drawing("", 0, CARD_H)
    parts = [card(c, mark=i == marked).at(i * step, 0) for i, c in enumerate(cards)]
    return Drawing("".join(parts), step * (len(cards) - 1) + CARD_W, CARD_H)


def meld(cards: Sequence[Card], caption: str | None = None) -> Drawing:
    """A meld: its cards fanned, under an optional caption (``#1 C2 4``)."""
    body = fan(cards)
    if caption is None:
        return body
    width = max(body.width, _caption_width(caption))
    return Drawing(_caption(caption, 0, 11) + body.at(0, CAPTION), width, CAPTION + CARD_H)


class Group(Value):
    """A captioned group of cards in a row: a meld, a hand, the dead cards.
    ``marked`` outlines one card (an index into ``cards``); ``spread`` draws the cards apart."""

    caption: str
    cards: tuple[Card, ...]
    marked: int | None = None
    spread: bool = False


def row(groups: Sequence[Group]) -> Drawing:
    """Groups side by side, each under its caption."""
    x = 0.0
    parts: list[str] = []
    for g in groups:
        body = fan(g.cards, marked=g.marked, step=CARD_W + 4 if g.spread else FAN)
        parts.append(_caption(g.caption, x, 11))
        parts.append(body.at(x, CAPTION))
        x += max(body.width, _caption_width(g.caption)) + GAP
    return Drawing("".join(parts), max(x - GAP, 0), CAPTION + CARD_H + 4)


def stack(rows: Sequence[tuple[str, Drawing]], *, label_width: float = 0) -> Drawing:
    """Drawings one under another, each after a bold label (empty labels take no room)."""
    y = 0.0
    width = 0.0
    parts: list[str] = []
    for label, d in rows:
        if label:
            parts.append(_caption(label, 0, y + CAPTION + 20, bold=True, size=12))
        parts.append(d.at(label_width, y))
        y += d.height + 6
        width = max(width, label_width + d.width)
    return Drawing("".join(parts), width, max(y - 6, 0))


def hand(
    cards: Sequence[Card], melds: Sequence[Sequence[Card]] = (), drawn: Card | None = None, *, sort: bool = True
) -> Drawing:
    """A player's hand (sorted by rank, then suit) and, above it, his melds on the table
    (``#1``, ``#2`` ...); the drawn card apart, outlined.

    >>> from pancli.cards import Card, Rank, Suit
    >>> d = hand([Card(Rank.ACE, Suit.CLUBS)], [[Card(Rank.FIVE, Suit.SPADES)] * 3], Card(Rank.TWO, Suit.HEARTS))
    >>> d.body.count('class="card"'), "#1" in d.body, d.body.count('class="mark"')
    (5, True, 1)
    """
    rows: list[tuple[str, Drawing]] = []
    if melds:
        rows.append(("", row([Group(f"#{i}", tuple(m)) for i, m in enumerate(melds, 1)])))
    held = tuple(sorted(cards, key=Card.sort_key)) if sort else tuple(cards)
    groups = [Group(f"hand, {len(held)} card{'s' if len(held) != 1 else ''}", held)]
    if drawn is not None:
        groups.append(Group("drawn", (drawn,), marked=0))
    rows.append(("", row(groups)))
    return stack(rows)


class SeatView(Value):
    """One seat at a table position: the player, his melds, how many cards he holds (None:
    unknown), whether he is still in the hand (not on top, not retired) and whether it is his turn."""

    player: str
    melds: tuple[tuple[Card, ...], ...]
    cards: int | None
    active: bool = True
    to_play: bool = False
    hand: tuple[Card, ...] | None = None
    """His cards, when they are shown (the analysed player's)."""
    drawn: Card | None = None
    """The card he has just drawn or taken, when his cards are shown."""
    took: bool = False
    """``drawn`` was taken from the discard pile (P3), not drawn from the stock."""
    retired: str = ""
    """The rule he retired from the hand under (``I1``, ``I2``: his cards are dead), or empty."""


class TableView(Value):
    """A table position: every seat, the top of the discard pile, the stock and a caption."""

    seats: tuple[SeatView, ...]
    discard_top: Card | None
    discards: int
    stock: int
    caption: str = ""


def table(view: TableView) -> Drawing:
    """A table position: the caption, the stock and the discard pile, then one row per seat
    (a marker and bold name for the player to play, his cards or their count, his melds).

    >>> from pancli.cards import Card, Rank, Suit
    >>> five = Card(Rank.FIVE, Suit.SPADES)
    >>> v = TableView((SeatView("Ana", ((five,) * 3,), 8, to_play=True), SeatView("<Ben>", (), 10)), five, 4, 250)
    >>> d = table(v)
    >>> "&lt;Ben&gt;" in d.body, ">250<" in d.body, "\\u25b6" in d.body
    (True, True, True)
    >>> ">retired (I2)<" in table(TableView((SeatView("Ana", (), 0, retired="I2"),), None, 0, 250)).body
    True
    """
    parts: list[str] = []
    y = 0.0
    parts.append(_caption("stock", 0, y + 11))
    parts.append(back(view.stock, "cards in the stock").at(0, y + CAPTION))
    pile_x = CARD_W + GAP * 2
    parts.append(_caption(f"discard pile ({view.discards})", pile_x, y + 11))
    if view.discard_top is not None:
        parts.append(card(view.discard_top).at(pile_x, y + CAPTION))
    else:
        parts.append(
            f'<rect x="{_num(pile_x)}" y="{_num(y + CAPTION)}" width="{CARD_W}" height="{CARD_H}" rx="4" '
            'fill="none" stroke="#999" stroke-dasharray="3 3"/>'
        )
    width = pile_x + max(CARD_W, _caption_width(f"discard pile ({view.discards})"))
    y += CAPTION + CARD_H + 14
    name_w = max((_caption_width(s.player, 13) for s in view.seats), default=0) + 24
    for s in view.seats:
        marker = "\u25b6 " if s.to_play else ""
        status = f"retired ({s.retired})" if s.retired else "" if s.active else "on top"
        out = bool(s.retired) or not s.active
        weight = ' font-weight="bold"' if s.to_play else ""
        parts.append(
            f'<text x="0" y="{_num(y + CAPTION + 22)}" font-size="13"{weight} '
            f'fill="{"#888" if out else "#111"}">{escape(marker + s.player)}</text>'
        )
        if status:
            parts.append(_caption(status, 0, y + CAPTION + 38))
        groups: list[Group] = []
        if s.hand is not None:
            groups.append(Group(f"hand, {len(s.hand)}", tuple(sorted(s.hand, key=Card.sort_key))))
            if s.drawn is not None:
                groups.append(Group("taken" if s.took else "drawn", (s.drawn,), marked=0))
        groups.extend(Group(f"#{i}", m) for i, m in enumerate(s.melds, 1))
        x = name_w
        if s.retired:  # his cards are dead: no hand to count
            parts.append(_caption("cards dead", x, y + 11))
            x += CARD_W + GAP
        elif s.hand is None:
            label = "cards" if s.cards is not None else "cards unknown"
            parts.append(_caption("hand", x, y + 11))
            parts.append(back(s.cards, label).at(x, y + CAPTION))
            x += CARD_W + GAP
        body = row(groups)
        parts.append(body.at(x, y))
        width = max(width, x + body.width)
        y += CAPTION + CARD_H + 10
    drawing = Drawing("".join(parts), width, y - 6)
    if not view.caption:
        return drawing
    # the caption wraps to the table's width (a long file path does not widen the picture)
    lines = _wrapped(view.caption, width, 13)
    head = "".join(_caption(t, 0, 13 + 17 * i, bold=True, size=13) for i, t in enumerate(lines))
    top = 17.0 * len(lines) + 3
    return Drawing(head + drawing.at(0, top), width, top + drawing.height)


def _wrapped(text: str, width: float, size: int) -> list[str]:
    """``text`` in lines no wider than ``width`` (bold, ``size``), broken at spaces, and inside a
    word too long for a line (a file path) at a ``/`` or anywhere.

    >>> _wrapped("samples/friday-hoyle.pan hand 2, line 65: Ana to play", 300, 13)
    ['samples/friday-hoyle.pan hand 2,', 'line 65: Ana to play']
    >>> _wrapped("a/very/long/path/to/the/record/of/friday.pan", 150, 13)
    ['a/very/long/', 'path/to/the/', 'record/of/', 'friday.pan']
    """
    per_line = max(8, int(width / (size * 0.68)))
    lines: list[str] = []
    row = ""
    for word in text.split(" "):
        while len(word) > per_line:
            cut = word.rfind("/", 0, per_line) + 1 or per_line
            if row:
                lines.append(row)
                row = ""
            lines.append(word[:cut])
            word = word[cut:]
        if row and len(row) + 1 + len(word) > per_line:
            lines.append(row)
            row = word
        else:
            row = f"{row} {word}" if row else word
    if row:
        lines.append(row)
    return lines


def position_view(pos: Position, caption: str = "") -> TableView:
    """The table at a record position (:func:`pancli.referee.position.position_at`): every
    seat's melds and card count, the analysed player's cards face up, the player to act marked."""
    seats = tuple(
        SeatView(
            s.player,
            tuple(m.cards for m in s.melds),
            s.cards,
            active=s.active is not False,
            retired="" if s.retired is None else str(s.retired),
            to_play=s.player == pos.acting,
            hand=pos.hand if s.player == pos.player else None,
            drawn=pos.drawn if s.player == pos.player else None,
            took=s.player == pos.player and pos.drawn_from is Source.DISCARD_PILE,
        )
        for s in pos.seats
    )
    top = pos.discards[-1] if pos.discards else None
    return TableView(seats, top, len(pos.discards), pos.stock, caption)


def analysis(a: Analysis) -> Drawing:
    """An analysed hand (``pan analyze --svg``): the hand and the drawn card, the melds already
    on the table, then the best arrangement: each new meld (its condition and value), each table
    meld grown (what it pays more) and the cards left in the hand."""
    top = [
        Group(f"hand, {len(a.hand)} card{'s' if len(a.hand) != 1 else ''}", tuple(sorted(a.hand, key=Card.sort_key)))
    ]
    if a.drawn is not None:
        top.append(Group("drawn", (a.drawn,), marked=0))
    top.extend(Group(f"#{i} on the table", m.cards) for i, m in enumerate(a.table, 1))
    best: list[Group] = []
    for p in a.best.placed:
        conds = "+".join(c.value for c in p.conditions)
        if p.target is None:
            best.append(Group(f"meld {conds} {p.value}".replace("  ", " ") if conds else "meld, pays 0", p.meld.cards))
        else:
            best.append(Group(f"#{p.target + 1} grows +{p.value}", p.meld.cards))
    if a.best.dead:
        best.append(Group("left in hand", tuple(a.best.dead)))
    down = a.best.melded
    title = f"best arrangement: {down} card{'s' if down != 1 else ''} down, {a.best.value} from each opponent"
    return stack([("", row(top)), ("", _titled(title, row(best) if best else Drawing("", 0, 0)))])


def _titled(title: str, d: Drawing) -> Drawing:
    """``d`` under a bold title line."""
    return Drawing(
        _caption(title, 0, 13, bold=True, size=12) + d.at(0, 20),
        max(d.width, _caption_width(title, 12, bold=True)),
        d.height + 20,
    )
