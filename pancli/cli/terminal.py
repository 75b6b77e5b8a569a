"""Text for a terminal: lines wrapped at whole words to the screen's width, and its height.

A terminal cuts a long line wherever the width ends, halving a card, a rule id or a knob name.
:func:`wrap` breaks only at spaces (a word longer than the screen stays whole on its own
line) and indents the continuation lines, so every key a user must type back stays whole.
Used for plain lines written to a terminal; pipes get the lines unchanged.
"""

from __future__ import annotations

import os
import shutil
from typing import Any

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
