"""PAGRUC output: refereed hands (for ``pan replay``), melds (for ``pan check --game pagruc``)
and hand scores (for ``pan score``), as JSON, plain text for pipes, or rich tables.

``pan replay`` calls :func:`render_text` and :func:`to_json` for a hand whose script has
``game=Game.PAGRUC``. No rich at import time: rich is imported only when a console is given.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import click

from pancli.cards import Game, format_cards
from pancli.cli.common import EXIT_ILLEGAL, EXIT_OK, InputLine, escape_text, stdout_is_terminal
from pancli.notation.cells import cell_width, ljust_cells

if TYPE_CHECKING:
    from rich.console import Console

    from pancli.model.results import Violation
    from pancli.pagruc.referee import PagrucHandResult
    from pancli.pagruc.scoring import CardScore

NONE_MARK = "-"

# --------------------------------------------------------------------------- refereed hands


def violation_json(v: Violation) -> dict[str, Any]:
    """The violation object of docs/commands.md: rule, line, col, player, message."""
    return {"rule": v.rule, "line": v.line, "col": v.col, "player": v.player, "message": v.message}


def card_json(c: CardScore) -> dict[str, Any]:
    """One card's contribution: card, where (run, set, hand), points, meld (``Ana#1``), and the
    line where it went down (null for a card left in hand)."""
    return {"card": str(c.card), "where": c.where.value, "points": c.points, "meld": c.meld, "line": c.line or None}


def to_json(result: PagrucHandResult, hand: int | None = None, last_line: int | None = None) -> dict[str, Any]:
    """A refereed PAGRUC hand as one JSON object, with every field of ``pan replay --json``
    for Panguingue (docs/commands.md), so one script reads both games: ``ledger`` is the
    hand score of each player (G7; null when unknown; PAGRUC scores do not sum to zero),
    ``payments`` is empty (nobody pays anybody during a PAGRUC hand); ``scores`` is the same
    map as ``ledger``, ``cards`` each card's contribution.

    >>> from pancli.pagruc.referee import PagrucHandResult
    >>> r = PagrucHandResult(("Ana", "Ben", "Cy"), 1, None, False, {"Ana": 0, "Ben": 0, "Cy": None}, {})
    >>> d = to_json(r, 2)
    >>> d["hand"], d["game"], d["dealer"], d["scores"]["Cy"], d["ledger"]["Cy"], d["payments"]
    (2, 'pagruc', 'Cy', None, None, [])
    """
    from pancli.cli.replay_render import claim_json

    return {
        "hand": hand,
        "first_line": result.first_line,
        "last_line": last_line,
        "game": Game.PAGRUC.value,
        "players": list(result.players),
        "dealer": result.dealer,
        "packs": result.packs,
        "winner": result.winner,
        "finished": result.finished,
        "ledger": dict(result.scores),
        "payments": [],
        "scores": dict(result.scores),
        "cards": {p: [card_json(c) for c in result.cards.get(p, ())] for p in result.players},
        "table": [
            {
                "meld": m.label,
                "owner": m.owner,
                "kind": m.meld.kind.value,
                "cards": format_cards(m.meld.cards),
                "points": m.meld.points,
                "laid_by": [{"player": p, "card": str(c)} for p, c in m.laid_by],
                "line": m.line,
            }
            for m in result.table
        ],
        "hands": {p: format_cards(result.hands.get(p, ())) for p in result.players},
        "hidden": {p: result.hidden.get(p, 0) for p in result.players},
        "violations": [violation_json(v) for v in result.violations],
        "claims": [claim_json(c) for c in result.claims],
        "claims_ok": result.claims_ok,
        "notes": list(result.notes),
    }


def _score_text(score: int | None) -> str:
    return "?" if score is None else f"{score:+d}"


def _player_cards(cards: Iterable[CardScore]) -> str:
    return " ".join(f"{c.card}{c.points:+d}" for c in cards)


def plain_lines(result: PagrucHandResult, hand: int | None = None, file: str | None = None) -> list[str]:
    """A refereed hand as plain text lines (pipes): who went out, each player's score with
    his cards, the melds on the table, then violations, wrong claims and notes."""
    where = f"{escape_text(file)}: " if file else ""
    title = f"{where}hand {hand}" if hand is not None else f"{where}hand"
    out = [f"{title} (PAGRUC, {' '.join(result.players)}; dealer {result.dealer}; {result.packs} pack(s))"]
    if result.winner is not None:
        out.append(f"  {result.winner} went out (G6)")
    elif not result.violations:
        out.append("  not finished: nobody discarded his last card (G6)")
    width = max(cell_width(p) for p in result.players) if result.players else 0
    for p in result.players:
        score = _score_text(result.scores.get(p))
        hidden = result.hidden.get(p, 0)
        extra = f" and {hidden} unknown" if hidden else ""
        out.append(f"  {ljust_cells(p, width)} {score:>5}  {_player_cards(result.cards.get(p, ()))}{extra}")
    for m in result.table:
        out.append(f"  {m.label}: [{m.meld}] {m.meld.kind.value}")
    for v in result.violations:
        who = f" {v.player}" if v.player else ""
        out.append(f"  line {v.line}:{v.col}: {v.rule}{who}: {v.message}")
    for c in result.claims:
        if not c.ok:
            out.append(f"  line {c.line}: claim wrong ({c.kind.value}, {c.player}): {c.claimed}, referee {c.actual}")
    out.extend(f"  note: {n}" for n in result.notes)
    return out


def render_text(
    result: PagrucHandResult, console: Console | None = None, hand: int | None = None, file: str | None = None
) -> None:
    """Write a refereed hand: plain lines on standard output when ``console`` is None, else
    a rich table of the players' scores and the melds on the table."""
    from pancli.cli.common import rule_hint

    if console is None:
        click.echo("\n".join(plain_lines(result, hand, file)))
        return
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
            _score_text(result.scores.get(p)),
            _player_cards(laid) or NONE_MARK,
            (_player_cards(held) + (f" +{hidden} unknown" if hidden else "")).strip() or NONE_MARK,
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


# --------------------------------------------------------------------------- pan check --game pagruc


def check_pagruc(items: Iterable[InputLine], as_json: bool, as_jsonl: bool = False) -> int:
    """``pan check --game pagruc``: judge each meld (G4) and give its points (G7); returns the exit status."""
    from pancli.app.check import MeldCheck, assess_pagruc

    if as_json or as_jsonl:
        from pancli.cli.stream import stream_reports

        judged = (assess_pagruc(i) for i in items)
        clean = stream_reports(judged, as_jsonl, MeldCheck.to_json, lambda r: None if r.legal else r.error_line())
        return EXIT_OK if clean else EXIT_ILLEGAL
    reports = [assess_pagruc(i) for i in items]
    if stdout_is_terminal():
        from rich.table import Table

        from pancli.cli.common import stdout_console

        table = Table(title="pan check (PAGRUC)", title_justify="left")
        for name in ("meld", "legal", "kind", "points", "rule", "reason"):
            table.add_column(name, justify="right" if name == "points" else "left", overflow="fold")
        for r in reports:
            legal = "[green]yes[/]" if r.legal else "[red]no[/]"
            table.add_row(r.meld, legal, r.kind or NONE_MARK, str(r.value), r.rule or NONE_MARK, r.reason)
        stdout_console().print(table)
    else:
        sys.stdout.write("".join(r.plain() + "\n" for r in reports))
    sys.stdout.flush()
    errors = [r.error_line() + "\n" for r in reports if not r.legal]
    sys.stderr.write("".join(errors))
    return EXIT_ILLEGAL if errors else EXIT_OK
