"""The rich table of judged melds (``pan check`` and ``pan pay`` on a terminal)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from pancli.app.check import NONE_MARK

if TYPE_CHECKING:
    from rich.table import Table

    from pancli.app.check import MeldCheck


def meld_table(reports: Iterable[MeldCheck], title: str | None = None) -> Table:
    """A rich table of judged melds (imports rich: terminal output only)."""
    from rich.table import Table

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
            r.meld,
            "[green]yes[/]" if r.legal else "[red]no[/]",
            r.kind or NONE_MARK,
            "+".join(r.conditions) or NONE_MARK,
            str(r.value),
            f"[red]{r.rule}[/]" if r.rule else NONE_MARK,
            r.reason,
        )
    return table
