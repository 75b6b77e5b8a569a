"""The terminal exporter: a refereed hand drawn with rich (a timeline of play lines with what
each paid and why, the violation in red, the ledger table; a PAGRUC hand's score table), and
plain lines wrapped at whole words to the screen's width.

A terminal cuts a long line wherever the width ends, halving a card, a rule id or a knob name:
:func:`wrap` breaks only at spaces and indents the continuation lines. Rich is imported only
when something is drawn.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterator
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from pancli.cards import Game
from pancli.escapes import escape_text
from pancli.model.actions import Deal
from pancli.model.results import ClaimKind
from pancli.notation.cells import cell_width
from pancli.notation.record_common import UpLine
from pancli.notation.record_writer import item_text
from pancli.render.plain import NONE_MARK, hand_title, player_cards, score_text
from pancli.render.text import MAX_COLUMNS, claim_text, malformed_line, money_text, rule_hint, signed, violation_line
from pancli.render.words import (
    MALFORMED_RULING,
    Collection,
    collections,
    money_map,
    outcome,
    pagruc_remark,
    pan_remark,
    parts,
)
from pancli.rules import Ending

if TYPE_CHECKING:
    from rich.console import Console, ConsoleOptions
    from rich.measure import Measurement
    from rich.segment import Segment
    from rich.text import Text

    from pancli.app.report import HandReport
    from pancli.model.actions import HandScript
    from pancli.model.results import HandResult, Remedy, Violation
    from pancli.notation.layout import RecordHand
    from pancli.pagruc.referee import PagrucHandResult

INDENT = "    "
"""What a continuation line starts with."""
PAID_ROOM = 40
"""The narrowest "paid and why" column beside a play column as wide as its longest line."""


def size() -> os.terminal_size:
    """The terminal's columns and lines (``COLUMNS``/``LINES`` when set; 80x24 when unknown), the
    columns at most :data:`MAX_COLUMNS`."""
    columns, lines = shutil.get_terminal_size((80, 24))
    return os.terminal_size((min(columns, MAX_COLUMNS), lines))


WHOLE = re.compile(r"\[[^\[\]\n]*\]|\(pan rules [^()\s]*\)")
"""What a line never breaks inside, unless it alone is wider than the screen: a meld or a card
list in brackets, and the hint that names a rule (a user types these back)."""


def units(line: str, whole: bool = False, sep: str = " ") -> list[tuple[int, int]]:
    """The spans of ``line`` a wrap keeps whole: runs between spaces, the spaces inside a
    :data:`WHOLE` span not counting.

    >>> line = "meld [5s 5s 5s] (pan rules C2)"
    >>> [line[a:b] for a, b in units(line)]
    ['meld', '[5s 5s 5s]', '(pan rules C2)']
    """
    if whole and line.strip(" "):
        return [(len(line) - len(line.lstrip(" ")), len(line.rstrip(" ")))]
    if sep != " ":  # pieces between separators (``sep=", "``: ``units 4,``), the mark kept
        out_: list[tuple[int, int]] = []
        start_ = 0
        for m in re.finditer(re.escape(sep), line):
            out_.append((start_, m.start() + len(sep.rstrip())))
            start_ = m.end()
        out_.append((start_, len(line)))
        return [(a, b) for a, b in out_ if b > a]
    kept = [m.span() for m in WHOLE.finditer(line)]
    out: list[tuple[int, int]] = []
    start = None
    k = 0
    for i, ch in enumerate(line):
        while k < len(kept) and kept[k][1] <= i:
            k += 1
        inside = k < len(kept) and kept[k][0] < i < kept[k][1] - 1
        if ch == " " and not inside:
            if start is not None:
                out.append((start, i))
                start = None
        elif start is None:
            start = i
    if start is not None:
        out.append((start, len(line)))
    return out


def _split(line: str, start: int, end: int, room: int, fold: bool) -> list[tuple[int, int]]:
    """A span too wide for a line, in smaller spans: its words, else its path's parts (each
    ending with its ``/``), else (``fold``) runs of ``room`` cells."""
    piece = line[start:end]
    if " " in piece:
        out, at = [], start
        for word in piece.split(" "):
            if word:
                out.append((at, at + len(word)))
            at += len(word) + 1
        return out
    if "/" in piece[:-1]:
        cuts = [start + i + 1 for i, ch in enumerate(piece[:-1]) if ch == "/"]
        return list(zip([start, *cuts], [*cuts, end], strict=True))
    if not fold:
        return [(start, end)]
    out, at, row = [], start, 0
    for i in range(start, end):
        w = cell_width(line[i])
        if row and row + w > room:
            out.append((at, i))
            at, row = i, 0
        row += w
    out.append((at, end))
    return out


def breaks(
    line: str, width: int, hang: int = 0, *, fold: bool = False, whole: bool = False, sep: str = " "
) -> list[int]:
    """Where to break ``line`` so that each piece fits ``width`` cells (each piece after the first
    ``width - hang``): at spaces, never inside a :data:`WHOLE` span unless it alone is too wide
    (then at its spaces); a word wider than a line is ``fold``-ed at ``width`` or left whole.
    ``whole``: the line is one unit (a meld in a table cell), broken only when it is too wide;
    ``sep``: the units are the pieces between separators (see :func:`units`).

    >>> line = "Cruz C2 [7c 7c 7c 7c] valle set (pan rules C2)"
    >>> offsets = breaks(line, 24)
    >>> [line[a:b].strip() for a, b in zip([0, *offsets], [*offsets, len(line)])]
    ['Cruz C2 [7c 7c 7c 7c]', 'valle set (pan rules C2)']
    """
    todo = units(line, whole, sep)[::-1]
    out: list[int] = []
    limit = width
    col, empty, prev = 0, True, 0
    while todo:
        start, end = todo.pop()
        w = cell_width(line[start:end])
        gap = cell_width(line[prev:start])
        if col + gap + w <= limit or (empty and w <= limit):
            col, empty, prev = col + gap + w, False, end
            continue
        room = limit if empty else width - hang
        if w > room:
            parts = _split(line, start, end, max(room, 1), fold)
            if len(parts) > 1:
                todo.extend(reversed(parts))
                continue
        if empty:  # alone and too wide, never cut
            col, empty, prev = col + gap + w, False, end
            continue
        out.append(start)
        limit = width - hang
        col, prev = w, end
    return out


def wrap(text: str, width: int) -> str:
    r"""``text`` (lines ending with ``\n``) with every line longer than ``width`` broken at spaces
    (tabs count as two spaces, written as two spaces), continuation lines indented; a meld in
    brackets and a ``(pan rules ..)`` hint are kept on one line.

    >>> print(wrap("5s 5s 5s\tlegal\tset\tC2\t4\t-\tone-suit set; C2 valle set, one suit\n", 30), end="")
    5s 5s 5s  legal  set  C2  4  -
        one-suit set; C2 valle
        set, one suit
    >>> wrap("spade_suits_removed_and_more x\n", 10)
    'spade_suits_removed_and_more\n    x\n'
    >>> print(wrap("best  5s 5s 5s | meld [Jc Qc Kc] (pan rules C5)", 26))
    best  5s 5s 5s | meld
        [Jc Qc Kc]
        (pan rules C5)
    """
    if "\t" in text:
        text = text.replace("\t", "  ")
    if width <= len(INDENT) + 1 or max(map(cell_width, text.split("\n"))) <= width:
        return text
    out: list[str] = []
    for line in text.split("\n"):
        if cell_width(line) <= width:
            out.append(line)
            continue
        offsets = breaks(line, width, len(INDENT))
        pieces = [line[a:b].rstrip() for a, b in zip([0, *offsets], [*offsets, len(line)], strict=True)]
        out.append(pieces[0])
        out.extend(INDENT + p for p in pieces[1:])
    return "\n".join(out)


class Wrapped:
    """Rich text (markup or a :class:`rich.text.Text`) that wraps as :func:`breaks` says, in a
    table cell or under a label: a meld and a rule hint stay on one line, a word is folded only
    when it alone is wider than the space. Its narrowest width is its widest unit (its widest
    line when ``whole``: a cell holding one meld, kept on one line while the screen allows)."""

    def __init__(self, body: Any, *, whole: bool = False, sep: str = " ") -> None:
        from rich.text import Text  # start-up: pan review does without it

        self.text: Text = Text.from_markup(body) if isinstance(body, str) else body
        self.whole = whole
        self.sep = sep

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        from rich.measure import Measurement  # start-up: pan review does without it

        lines = self.text.plain.split("\n")
        widest = max(map(cell_width, lines))
        longest = max(
            (cell_width(line[a:b]) for line in lines for a, b in units(line, self.whole, self.sep)), default=0
        )
        return Measurement(longest, widest).clamp(max_width=options.max_width)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[Segment]:
        from rich.segment import Segment  # start-up: pan review does without it

        for line in self.text.split("\n", allow_blank=True):
            for part in line.divide(breaks(line.plain, options.max_width, fold=True, whole=self.whole, sep=self.sep)):
                part.rstrip()
                yield from part.render(console)
                yield Segment.line()


def print_hanging(console: Any, label: str, body: str | Text, indent: int = 0, sep: str = " ") -> None:
    """Print ``label`` then ``body`` (rich markup) on a terminal, the lines ``body`` wraps onto
    indented under its start, so a message never runs back to column 0 nor into what follows."""
    # start-up: pan review does without these
    from rich.padding import Padding
    from rich.table import Table

    grid = Table.grid(padding=(0, 1, 0, 0))
    grid.add_column(no_wrap=True)
    grid.add_column()
    grid.add_row(label, Wrapped(body, sep=sep))
    console.print(Padding(grid, (0, 0, 0, indent)) if indent else grid)


def table_fits(console: Console, table: Any) -> bool:
    """Whether ``table`` fits the console's width with no cell narrower than its widest word
    (a name, a number or a card is never cut to "…")."""
    from rich.measure import Measurement  # start-up: pan review does without it

    return Measurement.get(console, console.options.update_width(1 << 20), table).minimum <= console.width


def _plain(cell: Any) -> str:
    from rich.text import Text  # start-up: pan review does without it

    if isinstance(cell, str):
        return Text.from_markup(cell).plain
    if isinstance(cell, Wrapped):
        return cell.text.plain
    return cell.plain if isinstance(cell, Text) else ""


def print_table(console: Console, table: Any) -> None:
    """Print a rich ``table`` when it fits the screen, else its rows as plain lines wrapped at
    whole words (``Ana: part stayed, units -2``; a numbered row keeps its column's name:
    ``hand 3: dealer Ana, ...``): narrowing it would cut its names and numbers to "…"."""
    from rich.markup import escape  # start-up: pan review does without it

    if table_fits(console, table):
        console.print(table)
        return
    if table.title:
        console.print(_plain(table.title), markup=False, style="italic")
    heads = [_plain(c.header) for c in table.columns]
    rows = zip(*(list(c.cells) for c in table.columns), strict=True)
    if table.show_footer:
        rows = [*rows, tuple(c.footer for c in table.columns)]  # type: ignore[assignment]
    for row in rows:
        cells = [_plain(c) for c in row]
        first = f"{heads[0]} {cells[0]}" if cells[0].isdigit() else cells[0]
        rest = ", ".join(f"{h} {c}" if h else c for h, c in zip(heads[1:], cells[1:], strict=True) if c)
        print_hanging(console, escape(f"{first}:"), escape(rest), sep=", ")  # "units -2" kept whole


def hand_rich(console: Console, report: HandReport) -> None:
    """The hand drawn on a terminal."""
    hand = report.hand
    result = report.result
    if result.game is Game.PAGRUC:
        render_text(result, console, hand.index, hand.source)
    else:
        render_rich(console, result, hand, report.script)


def _play_rows(hand: RecordHand, script: HandScript) -> list[tuple[int, str, bool]]:
    """(line, canonical text with comments, whether it deals: a deal or the upcard) of each
    play line of the hand."""
    layout = hand.layout
    if layout is not None:
        return [
            (item.line, item_text(item, layout.notes_of(i)), type(item) is Deal or type(item) is UpLine)
            for i, item in enumerate(layout.lines)
        ]
    rows: list[tuple[int, str, bool]] = [(d.line, item_text(d), True) for d in script.deals]
    if script.upcard is not None:
        up = UpLine(script.upcard, script.upcard_line, script.upcard_col)
        rows.append((script.upcard_line, item_text(up), True))
    rows.extend((ev.line, item_text(ev, claims=True), False) for ev in script.events)
    return rows


def render_rich(console: Console, result: HandResult, hand: RecordHand, script: HandScript) -> None:
    """The terminal view: a timeline (each play line, what it paid and why, the violation in
    red with its place and ruling, lines not refereed after it dimmed) and the ledger table."""
    # start-up: pan review does without these
    from rich.markup import escape
    from rich.table import Table
    from rich.text import Text

    file = hand.file
    title = Text(hand_title(hand, script), style="bold")
    if len(title) + 4 > console.width:  # a rule cuts its title short: print it whole, wrapped at words
        console.print(title)
        console.rule()
    else:
        console.rule(title, align="left")
    by_line: dict[int, list[Collection]] = {}
    for c in collections(result.payments):
        by_line.setdefault(c.line, []).append(c)
    going_out = result.going_out
    bad: dict[int, Violation] = {}
    for v in result.violations:
        bad.setdefault(v.line, v)
    wrong = {c.line: c for c in result.claims if not c.ok}
    put_right: dict[int, list[Remedy]] = {}
    for r in result.remedies:
        put_right.setdefault(r.violation.line, []).append(r)
    stop = min(bad) if bad else None
    rows = _play_rows(hand, script)
    timeline = Table(show_header=True, header_style="bold", box=None, pad_edge=False, expand=False)
    timeline.add_column("line", justify="right", style="dim", no_wrap=True)
    # the play column as wide as its longest line when that leaves the payments room enough;
    # else rich shares the width out (the two columns wrap)
    play = max((cell_width(escape_text(text)) for _, text, _ in rows), default=4)
    line_width = max((len(str(line)) for line, _, _ in rows), default=4)
    fits = play + line_width + 4 + PAID_ROOM <= console.width
    timeline.add_column("play", width=play if fits else None)
    timeline.add_column("paid and why")
    for line, text, deals in rows:
        paid: list[str] = []
        for c in by_line.pop(line, ()):
            who = f"[green]{escape(c.payee)}[/]" + (" returns" if c.returned else "")
            paid.append(f"{who} [bold]{c.rule}[/] {escape(c.what(going_out))}: {escape(c.amounts())}")
        style = ""
        if line in bad:
            v = bad[line]
            paid.append(f"[bold red]✗ {v.rule}[/] [red]{escape(v.message)}[/]")
            style = "red"
        elif stop is not None and line > stop:
            style = "dim"
        for r in put_right.get(line, ()):
            paid.append(f"[bold magenta]! {r.rule}[/] [magenta]{escape(r.violation.message)}: {escape(r.remedy)}[/]")
        if line in wrong:
            paid.append(f"[bold yellow]claim wrong:[/] {escape(claim_text(wrong[line], pagruc=False))}")
        play_text = Text(escape_text(text), style="dim" if deals and not style else style)
        timeline.add_row(str(line), Wrapped(play_text), Wrapped("\n".join(paid)))
    for line, rest in sorted(by_line.items()):  # payments on lines not shown (hand-level)
        paid_text = "\n".join(escape(f"{c.payee} {c.reason(going_out)}: {c.amounts()}") for c in rest)
        timeline.add_row(str(line), "", Wrapped(paid_text))
    if table_fits(console, timeline):
        console.print(timeline)
    else:  # too narrow for two text columns: each line's play, and what it paid under it
        for line_cell, play_cell, paid_cell in zip(*(list(c.cells) for c in timeline.columns), strict=True):
            both = play_cell.text.copy() if isinstance(play_cell, Wrapped) else Text()
            if isinstance(paid_cell, Wrapped) and paid_cell.text.plain:
                both.append("\n")
                both.append_text(paid_cell.text)
            grid = Table.grid(padding=(0, 1, 0, 0))
            grid.add_column(justify="right", style="dim", no_wrap=True, min_width=line_width)
            grid.add_column()
            grid.add_row(str(line_cell), Wrapped(both))
            console.print(grid)
    for r in result.remedies:
        v = r.violation
        who = f" ({v.player})" if v.player else ""
        body = f"{escape(violation_line(file, v))}{escape(who)}[dim]{rule_hint(v.rule)}[/]"
        print_hanging(console, "[bold magenta]IRREGULARITY[/]", body)
        print_hanging(console, "[magenta]remedy:[/]", escape(r.remedy), indent=2)
    for v in result.violations:
        who = f" ({v.player}, turn {v.turn})" if v.player else ""
        hint = rule_hint(v.rule)
        print_hanging(
            console, "[bold red]VIOLATION[/]", f"{escape(violation_line(file, v))}{escape(who)}[dim]{hint}[/]"
        )
        if v.ruling:
            print_hanging(console, "[red]ruling:[/]", escape(v.ruling), indent=2)
    for cl in result.claims:
        if not cl.ok:
            place = escape(f"{file}:{cl.line}:{cl.col}: {cl.rule}")
            body = f"{place} {escape(claim_text(cl, pagruc=False))}[dim]{rule_hint(cl.rule)}[/]"
            print_hanging(console, "[bold yellow]WRONG CLAIM[/]", body)
    for n in result.notes:
        print_hanging(console, "[dim]note:[/]", f"[dim]{escape(pan_remark(n))}[/]")
    console.print(Text(outcome(result), style="bold"))
    print_table(console, ledger_table(result, script))


def ledger_table(result: HandResult, script: HandScript) -> Any:
    """The ledger as a rich table: player, part, units, money (with a stake), claimed (with a Ledger tag)."""
    from rich.table import Table  # start-up: pan review does without it

    money = money_map(result)
    claimed = {c.player: c for c in result.claims if c.kind is ClaimKind.LEDGER}
    roles = parts(result)
    table = Table(title="ledger", title_justify="left", show_footer=True)
    table.add_column("player", footer="total")
    table.add_column("part")
    table.add_column("units", justify="right", footer=str(sum(result.ledger.values())))
    if money is not None:
        table.add_column(
            f"money (stake {result.stake:f})", justify="right", footer=money_text(sum(money.values(), Decimal(0)))
        )
    if claimed:
        table.add_column("claimed", justify="right")
    for p, units in result.ledger.items():
        style = "green" if units > 0 else "red" if units < 0 else ""
        row = [p, roles.get(p, ""), f"[{style}]{signed(units)}[/]" if style else signed(units)]
        if money is not None:
            row.append(money_text(money[p]))
        if claimed:
            c = claimed.get(p)
            row.append("" if c is None else signed(c.claimed) if c.ok else f"[bold red]{signed(c.claimed)} ✗[/]")
        table.add_row(*row)
    return table


def render_rich_malformed(console: Console, hand: RecordHand) -> None:
    """A malformed hand on a terminal."""
    from rich.markup import escape  # start-up: pan review does without it

    e = hand.error
    assert e is not None
    console.rule(f"{escape(hand.source)}, hand {hand.index} (lines {hand.first_line}-{hand.last_line})", align="left")
    console.print(f"[bold red]MALFORMED[/] {escape(malformed_line(hand.file, e))}[dim]{rule_hint(e.code)}[/]")
    console.print(f"  [red]{MALFORMED_RULING}[/]")


def render_text(result: PagrucHandResult, console: Console, hand: int | None = None, file: str | None = None) -> None:
    """A refereed PAGRUC hand on a terminal: a table of the players' scores and the melds on the table."""
    # start-up: pan review does without these
    from rich.markup import escape
    from rich.table import Table

    where = f"{escape(escape_text(file))}: " if file else ""
    title = f"{where}hand {hand}" if hand is not None else f"{where}hand"
    ending = result.ending
    status = (
        f"{result.winner} went out"
        if ending is Ending.OUT
        else f"stopped ({result.ending_rule})"
        if ending is Ending.STOPPED
        else "not finished"
    )
    table = Table(title=f"{title} (PAGRUC, dealer {result.dealer}): {status}", title_justify="left")
    for name, justify in (("player", "left"), ("score", "right"), ("on the table", "left"), ("in hand", "left")):
        table.add_column(name, justify=justify)  # type: ignore[arg-type]
    for p in result.players:
        mine = result.cards.get(p, ())
        laid = [c for c in mine if c.where.value != "hand"]
        held = [c for c in mine if c.where.value == "hand"]
        hidden = result.hidden.get(p, 0)
        table.add_row(
            p,
            score_text(result.scores.get(p)),
            player_cards(laid) or NONE_MARK,
            (player_cards(held) + (f" +{hidden} unknown" if hidden else "")).strip() or NONE_MARK,
        )
    print_table(console, table)
    if result.table:
        console.print("melds: " + "; ".join(f"{m.label} [{m.meld}]" for m in result.table))
    for v in result.violations:
        hint = rule_hint(v.rule)
        console.print(f"[red]line {v.line}:{v.col}: {v.rule}[/] {v.player or ''}: {v.message}[dim]{hint}[/]")
    for c in result.claims:
        if not c.ok:
            console.print(
                f"[red]line {c.line}: claim wrong[/] ({c.kind.value}, {c.player}): {c.claimed}, not {c.actual}"
            )
    for n in result.notes:
        console.print(f"note: {pagruc_remark(n)}")
