"""The terminal exporter: a refereed hand drawn with rich (a timeline of play lines with what
each paid and why, the violation in red, the ledger table; a PAGRUC hand's score table), and
plain lines wrapped at whole words to the screen's width.

A terminal cuts a long line wherever the width ends, halving a card, a rule id or a knob name:
:func:`wrap` breaks only at spaces and indents the continuation lines. Rich is imported only
when something is drawn.
"""

from __future__ import annotations

import os
import shutil
from typing import TYPE_CHECKING, Any

from pancli.app.lines import escape_text, signed
from pancli.app.report import claim_message
from pancli.cards import Game, format_cards
from pancli.model.actions import Decision
from pancli.model.results import ClaimKind
from pancli.render.plain import NONE_MARK, hand_title, malformed_line, player_cards, score_text, violation_line
from pancli.render.text import money_text, rule_hint
from pancli.render.words import MALFORMED_RULING, Collection, collections, money_map, outcome

if TYPE_CHECKING:
    from rich.console import Console

    from pancli.app.report import HandReport
    from pancli.model.actions import HandScript
    from pancli.model.results import HandResult, Remedy, Violation
    from pancli.notation.layout import RecordHand
    from pancli.pagruc.referee import PagrucHandResult

INDENT = "    "
"""What a continuation line starts with."""


def size() -> os.terminal_size:
    """The terminal's columns and lines (``COLUMNS``/``LINES`` when set; 80x24 when unknown)."""
    return shutil.get_terminal_size((80, 24))


def wrap(text: str, width: int) -> str:
    r"""``text`` (lines ending with ``\n``) with every line longer than ``width`` broken at spaces
    (tabs count as two spaces, written as two spaces), continuation lines indented.

    >>> print(wrap("5s 5s 5s\tlegal\tset\tC2\t4\t-\tone-suit set; C2 valle set, one suit\n", 30), end="")
    5s 5s 5s  legal  set  C2  4  -
        one-suit set; C2 valle
        set, one suit
    >>> wrap("spade_suits_removed_and_more x\n", 10)
    'spade_suits_removed_and_more\n    x\n'
    """
    if "\t" in text:
        text = text.replace("\t", "  ")
    if width <= len(INDENT) + 1 or max(map(len, text.split("\n"))) <= width:
        return text
    out: list[str] = []
    for line in text.split("\n"):
        if len(line) <= width:
            out.append(line)
            continue
        row = ""
        for word in line.split(" "):
            if not row:
                row = word
            elif len(row) + 1 + len(word) <= width:
                row += " " + word
            else:
                out.append(row.rstrip())
                row = INDENT + word
        out.append(row)
    return "\n".join(out)


def print_hanging(console: Any, label: str, body: str, indent: int = 0) -> None:
    """Print ``label`` then ``body`` (rich markup) on a terminal, the lines ``body`` wraps onto
    indented under its start, so a message never runs back to column 0 nor into what follows."""
    from rich.padding import Padding
    from rich.table import Table

    grid = Table.grid(padding=(0, 1, 0, 0))
    grid.add_column(no_wrap=True)
    grid.add_column(overflow="fold")
    grid.add_row(label, body)
    console.print(Padding(grid, (0, 0, 0, indent)) if indent else grid)


def hand_rich(console: Console, report: HandReport) -> None:
    """The hand drawn on a terminal."""
    hand = report.hand
    result = report.result
    if result.game is Game.PAGRUC:
        render_text(result, console, hand.index, hand.source)
    else:
        render_rich(console, result, hand, report.script)


def _roles(script: HandScript, result: HandResult) -> dict[str, str]:
    roles = dict.fromkeys(script.players, "")
    for ev in script.events:
        if isinstance(ev, Decision) and ev.player in roles:
            roles[ev.player] = "stayed" if ev.stay else "went on top"
    if result.winner is not None:
        roles[result.winner] = "winner" if not roles.get(result.winner) else f"{roles[result.winner]}, winner"
    return roles


def _play_rows(hand: RecordHand, script: HandScript) -> list[tuple[int, str]]:
    """(line, canonical text with comments) of each play line of the hand."""
    from pancli.notation.record_writer import item_text

    layout = hand.layout
    if layout is not None:
        return [(item.line, item_text(item, layout.notes_of(i))) for i, item in enumerate(layout.lines)]
    rows: list[tuple[int, str]] = [(d.line, f"deal {d.player} {format_cards(d.cards)}") for d in script.deals]
    if script.upcard is not None:
        rows.append((script.upcard_line, f"up {script.upcard}"))
    rows.extend((ev.line, item_text(ev, claims=True)) for ev in script.events)
    return rows


def render_rich(console: Console, result: HandResult, hand: RecordHand, script: HandScript) -> None:
    """The terminal view: a timeline (each play line, what it paid and why, the violation in
    red with its place and ruling, lines not refereed after it dimmed) and the ledger table."""
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
    bonus = script.profile.out_bonus
    bad: dict[int, Violation] = {}
    for v in result.violations:
        bad.setdefault(v.line, v)
    wrong = {c.line: c for c in result.claims if not c.ok}
    put_right: dict[int, list[Remedy]] = {}
    for r in result.remedies:
        put_right.setdefault(r.violation.line, []).append(r)
    stop = min(bad) if bad else None
    timeline = Table(show_header=True, header_style="bold", box=None, pad_edge=False, expand=False)
    timeline.add_column("line", justify="right", style="dim", no_wrap=True)
    timeline.add_column("play", overflow="fold")
    timeline.add_column("paid and why", overflow="fold")
    for line, text in _play_rows(hand, script):
        paid: list[str] = []
        for c in by_line.pop(line, ()):
            who = f"[green]{escape(c.payee)}[/]" + (" returns" if c.returned else "")
            paid.append(f"{who} [bold]{c.rule}[/] {escape(c.what(bonus))}: {escape(c.amounts())}")
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
            paid.append(f"[bold yellow]claim wrong:[/] {escape(claim_message(wrong[line], pagruc=False))}")
        dim_deal = text.startswith(("deal ", "up ")) and not style
        timeline.add_row(str(line), Text(escape_text(text), style="dim" if dim_deal else style), "\n".join(paid))
    for line, rest in sorted(by_line.items()):  # payments on lines not shown (hand-level)
        timeline.add_row(str(line), "", "\n".join(escape(f"{c.payee} {c.reason(bonus)}: {c.amounts()}") for c in rest))
    console.print(timeline)
    for r in result.remedies:
        v = r.violation
        who = f" ({v.player})" if v.player else ""
        console.print(
            f"[bold magenta]IRREGULARITY[/] {escape(violation_line(file, v))}{escape(who)}[dim]{rule_hint(v.rule)}[/]"
        )
        console.print(f"  [magenta]remedy:[/] {escape(r.remedy)}")
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
            body = f"{place} {escape(claim_message(cl, pagruc=False))}[dim]{rule_hint(cl.rule)}[/]"
            print_hanging(console, "[bold yellow]WRONG CLAIM[/]", body)
    for n in result.notes:
        print_hanging(console, "[dim]note:[/]", f"[dim]{escape(n)}[/]")
    console.print(Text(outcome(result), style="bold"))
    console.print(ledger_table(result, script))


def ledger_table(result: HandResult, script: HandScript) -> Any:
    """The ledger as a rich table: player, part, units, money (with a stake), claimed (with a Ledger tag)."""
    from decimal import Decimal

    from rich.table import Table

    money = money_map(result)
    claimed = {c.player: c for c in result.claims if c.kind is ClaimKind.LEDGER}
    roles = _roles(script, result)
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
    from rich.markup import escape

    e = hand.error
    assert e is not None
    console.rule(f"{escape(hand.source)}, hand {hand.index} (lines {hand.first_line}-{hand.last_line})", align="left")
    console.print(f"[bold red]MALFORMED[/] {escape(malformed_line(hand.file, e))}[dim]{rule_hint(e.code)}[/]")
    console.print(f"  [red]{MALFORMED_RULING}[/]")


def render_text(result: PagrucHandResult, console: Console, hand: int | None = None, file: str | None = None) -> None:
    """A refereed PAGRUC hand on a terminal: a table of the players' scores and the melds on the table."""
    from rich.markup import escape
    from rich.table import Table

    where = f"{escape(escape_text(file))}: " if file else ""
    title = f"{where}hand {hand}" if hand is not None else f"{where}hand"
    status = f"{result.winner} went out" if result.winner else "not finished" if not result.violations else "stopped"
    table = Table(title=f"{title} (PAGRUC, dealer {result.dealer}): {status}", title_justify="left")
    for name, justify in (("player", "left"), ("score", "right"), ("on the table", "left"), ("in hand", "left")):
        table.add_column(name, justify=justify, overflow="fold")  # type: ignore[arg-type]
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
    console.print(table)
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
        console.print(f"note: {n}")
