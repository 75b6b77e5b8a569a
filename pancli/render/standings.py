"""The exporters of ``pan standings``: a PAGRUC game's standings as plain text, rich tables
on a terminal, and the objects of ``--json`` and ``--jsonl``."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pancli.notation.cells import cell_width, ljust_cells, rjust_cells
from pancli.render.text import stdout_console

if TYPE_CHECKING:
    from pancli.pagruc.standings import GameHand, Standings
    from pancli.render.stream import JsonStream


def hand_events(lines: JsonStream | None, advance: Callable[[], None]) -> Callable[[GameHand], None]:
    """What ``pan standings`` does with each hand refereed: ``advance`` (the progress line), and
    with ``--jsonl`` its ``hand`` event on ``lines``."""

    def on_hand(h: GameHand) -> None:
        advance()
        if lines is not None:
            lines.add({"event": "hand", **hand_json(h)})

    return on_hand


def hand_json(h: GameHand) -> dict[str, Any]:
    """One hand of the game in ``--json`` (its ``hands`` list) and ``--jsonl``."""
    return {
        "hand": h.index,
        "file": h.file,
        "line": h.line,
        "dealer": h.dealer,
        "first": h.players[0],
        "winner": h.result.winner,
        "scores": dict(h.result.scores),
    }


def standings_json(g: Standings, skipped: int) -> dict[str, Any]:
    """The JSON document of ``pan standings --json``."""
    return {
        "official": g.official,
        "players": list(g.players),
        "hands": [hand_json(h) for h in g.hands],
        "totals": None if g.totals is None else dict(g.totals),
        "deals": dict(g.deals),
        "standings": [
            {"player": s.player, "total": s.total, "deals": s.deals, "place": s.place, "points": s.points}
            for s in g.table
        ],
        "problems": [
            {
                "rule": p.rule,
                "message": p.message,
                "file": p.file,
                "line": p.line,
                "col": p.col,
                "hand": p.hand,
                "player": p.player,
            }
            for p in g.problems
        ],
        "skipped": skipped,
    }


def _num(n: int | None) -> str:
    return "?" if n is None else f"{n:+d}"


def plain_text(g: Standings) -> str:
    """The standings as plain text: a hand-by-hand grid, then place, total, deals and points."""
    verdict = "official" if g.official else "NOT official"
    out = [f"PAGRUC game: {len(g.hands)} hands, {len(g.players)} players ({' '.join(g.players)}): {verdict}"]
    if g.players:
        w = max(6, *(cell_width(p) for p in g.players))
        d = max(6, *(cell_width(h.dealer) for h in g.hands)) if g.hands else 6
        out.append(f"hand  {ljust_cells('dealer', d)}  " + " ".join(rjust_cells(p, w) for p in g.players))
        for h in g.hands:
            scores = " ".join(f"{_num(h.result.scores.get(p)):>{w}}" for p in g.players)
            out.append(f"{h.index:>4}  {ljust_cells(h.dealer, d)}  {scores}")
    if g.table:
        out.append("")
        n = max(10, *(cell_width(s.player) for s in g.table))
        out.append(f"place  {ljust_cells('player', n)}  total  deals  points")
        for s in g.table:
            pts = "-" if s.points is None else str(s.points)
            out.append(f"{s.place:>5}  {ljust_cells(s.player, n)} {s.total:>6}  {s.deals:>5}  {pts:>6}")
    return "\n".join(out) + "\n"


def print_rich(g: Standings) -> None:
    """The standings on a terminal: the hand scores and the standings tables."""
    # start-up: pan standings does without these
    from rich.table import Table

    from pancli.render.terminal import print_table

    console = stdout_console()
    verdict = "[green]official[/]" if g.official else "[red]NOT official[/]"
    console.print(f"PAGRUC game: {len(g.hands)} hands, {len(g.players)} players: {verdict}")
    grid = Table(title="hand scores", title_justify="left")
    grid.add_column("hand", justify="right")
    grid.add_column("dealer")
    for p in g.players:
        grid.add_column(p, justify="right")
    for h in g.hands:
        grid.add_row(str(h.index), h.dealer, *(_num(h.result.scores.get(p)) for p in g.players))
    print_table(console, grid)
    if g.table:
        table = Table(title="standings (G9)", title_justify="left")
        for name in ("place", "player", "total", "deals", "PAGRUC points"):
            table.add_column(name, justify="left" if name == "player" else "right")
        for s in g.table:
            pts = "-" if s.points is None else f"[bold]{s.points}[/]"
            table.add_row(str(s.place), s.player, str(s.total), str(s.deals), pts)
        print_table(console, table)
