"""The terminal exporters of judged melds and hand scores: the rich tables of ``pan check``,
``pan pay`` and ``pan score`` (rich is imported when one is drawn)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from rich.table import Table
from rich.text import Text

from pancli.render.check import NONE_MARK, check_reason
from pancli.render.text import stdout_console

if TYPE_CHECKING:
    from rich.table import Table

    from pancli.app.check import MeldCheck
    from pancli.app.pay import PayReport
    from pancli.app.score import ScoreReport


def meld_table(reports: Iterable[MeldCheck], title: str | None = None) -> Table:
    """A rich table of judged melds (imports rich: terminal output only), a meld kept on one line."""
    from pancli.render.terminal import Wrapped  # start-up: pan check --game pagruc on a terminal does without it

    table = Table(title=title, title_justify="left")
    for name, justify in (
        ("meld", "left"),
        ("legal", "left"),
        ("kind", "left"),
        ("condition", "left"),
        ("value", "right"),
        ("rule", "left"),
        ("reason", "left"),
    ):
        table.add_column(name, justify=justify, overflow="fold")  # type: ignore[arg-type]
    for r in reports:
        table.add_row(
            Wrapped(Text(r.meld), whole=True),
            "[green]yes[/]" if r.legal else "[red]no[/]",
            r.kind or NONE_MARK,
            "+".join(r.conditions) or NONE_MARK,
            str(r.value),
            f"[red]{r.rule}[/]" if r.rule else NONE_MARK,
            check_reason(r),
        )
    return table


def print_pay(result: PayReport) -> None:
    """``pan pay`` on a terminal: the melds, then the summary."""
    # start-up: pan check --game pagruc on a terminal does without them (and pan check without pay's)
    from pancli.render.pay import summary as breakdown
    from pancli.render.terminal import print_table

    console = stdout_console()
    print_table(console, meld_table(result.melds, f"pan pay ({result.profile.name}, {result.players} players)"))
    summary = Table(show_header=False, box=None)
    summary.add_column(style="bold")
    summary.add_column(justify="right")
    summary.add_column(style="dim")
    for label, units, why in breakdown(result):
        summary.add_row(label, units, why)
    console.print(summary)


def print_scores(reports: list[ScoreReport]) -> None:
    """``pan score`` on a terminal: each hand's cards and score."""
    from pancli.render.terminal import print_table  # start-up: pan check --game pagruc on a terminal does without it

    console = stdout_console()
    for r in reports:
        s = r.score
        if s is None:
            continue
        console.print(f"PAGRUC score: {r.text.strip()}", markup=False)
        table = Table()
        for name, justify in (("card", "left"), ("where", "left"), ("meld", "left"), ("points", "right")):
            table.add_column(name, justify=justify)  # type: ignore[arg-type]
        for c in s.cards:
            colour = "green" if c.points > 0 else "red"
            table.add_row(str(c.card), c.where.value, c.meld or "-", f"[{colour}]{c.points:+d}[/]")
        table.add_section()
        table.add_row("table", "", "", f"{s.table:+d}")
        table.add_row("hand", "", "", f"{s.in_hand:+d}")
        table.add_row("[bold]score[/]", "", "", f"[bold]{s.total}[/]")
        print_table(console, table)


def pagruc_meld_table(reports: Iterable[MeldCheck]) -> Table:
    """A rich table of judged PAGRUC melds (G4) and their points (G7)."""
    table = Table(title="pan check (PAGRUC)", title_justify="left")
    for name in ("meld", "legal", "kind", "points", "rule", "reason"):
        table.add_column(name, justify="right" if name == "points" else "left", overflow="fold")
    for r in reports:
        legal = "[green]yes[/]" if r.legal else "[red]no[/]"
        table.add_row(r.meld, legal, r.kind or NONE_MARK, str(r.value), r.rule or NONE_MARK, check_reason(r))
    return table
