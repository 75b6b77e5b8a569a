"""The lines pan reads and writes around its judgements: a line of batch input (its place,
``#`` comments, blank lines), and the one error line, ``file:line:col: RULE message``, with
what user text holds escaped (control characters never reach a terminal raw).

The application layer builds its reports with these; :mod:`pancli.cli.common` re-exports
them for the commands.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

from pancli.escapes import escape_text as escape_text  # (the one escaper: core, the text layer uses it too)
from pancli.limits import LongLine
from pancli.values import Value

if TYPE_CHECKING:
    from decimal import Decimal

STDIN_FILE = "-"
"""The file name of standard input in error lines (``-:LINE:COL``)."""
ARG_FILE = "<arg>"
"""The file name of command-line arguments in error lines (``<arg>:N:COL``, N = argument number)."""


class InputLine(NamedTuple):
    """One line of batch input: where it came from and its text (without newline).

    (A named tuple: a batch makes one a line and unpacks it.)"""

    file: str
    line: int
    text: str


def batch_text(text: str) -> str:
    """A line of batch input without its ``#`` comment: ``#`` starts a comment anywhere on a
    ``check``, ``pay``, ``score`` or ``analyze`` line (no card or meld is written with ``#``).

    >>> batch_text("5sss  # my fives"), batch_text("5sss")
    ('5sss  ', '5sss')
    """
    cut = text.find("#")
    if cut < 0 or type(text) is LongLine:
        return text
    if text[-1:] == "\x00":  # the line where binary data stopped the reading: its error, at its column
        return text[:cut].ljust(len(text) - 1) + "\x00"
    return text[:cut]


def is_skipped(text: str) -> bool:
    """Blank lines and ``#`` comment lines are not input items.

    >>> is_skipped("  # a comment"), is_skipped(" \\r"), is_skipped("5sss # fives")
    (True, True, False)
    """
    return type(text) is not LongLine and not batch_text(text).strip()


def batch_item(text: str) -> str | None:
    """The item of one line of batch input: None for a blank or comment line (:func:`is_skipped`),
    else the line without its ``#`` comment and without a ``\\r`` before the line end.

    >>> batch_item("5sss # fives"), batch_item("5sss\\r"), batch_item("  # note")
    ('5sss ', '5sss', None)
    """
    if type(text) is LongLine:
        return text  # past the line limit: an item (its error), whatever it holds
    if is_skipped(text):
        return None
    text = batch_text(text)
    return text[:-1] if text[-1:] == "\r" else text


# --------------------------------------------------------------------------- output


class ErrorFields(Value):
    """An error as ``--json`` writes it: the fields of its error line (docs/commands.md), and
    whose hand it is (null where no player is concerned)."""

    file: str
    line: int
    col: int
    rule: str
    player: str | None
    message: str


def error_line(file: str, line: int, col: int | None, rule: str | None, message: str) -> str:
    """The canonical error line, the one form of every error pan reports on standard error:
    ``file:line:col: RULE message``.

    >>> error_line("-", 3, 1, "M3", "7c 7s 7s is not a set")
    '-:3:1: M3 7c 7s 7s is not a set'
    """
    return escape_text(f"{file}:{line}:{col}: {rule} {message}")


T = TypeVar("T")
_UNSEEN: Any = object()


def remembered_items(
    blocks: Iterable[list[str]], file: str, read: Callable[[InputLine], T], limit: int
) -> Iterator[list[tuple[int, T]]]:
    """Each block of raw lines as ``(line number, what read made of it)`` pairs, blank and comment
    lines of standard input left out (:func:`batch_item`); ``read`` runs once per distinct raw
    line (the first place it is seen), the rest are remembered, up to ``limit`` lines. The batch
    commands' pipe paths (``pay -``, ``score -``) answer a block at a time from it.

    >>> blocks = [["5s 5s 5s", "# a note"], ["5s 5s 5s"]]
    >>> list(remembered_items(blocks, "-", lambda i: (i.line, i.text), 10))
    [[(1, (1, '5s 5s 5s'))], [(3, (1, '5s 5s 5s'))]]
    """
    stdin = file == STDIN_FILE
    memo: dict[str, T | None] = {}
    n = 0
    for lines in blocks:
        block: list[tuple[int, T]] = []
        for raw in lines:
            n += 1
            known = memo.get(raw, _UNSEEN)
            if known is _UNSEEN:
                item = batch_item(raw) if stdin else raw
                known = None if item is None else read(InputLine(file, n, item))
                if len(memo) < limit:
                    memo[raw] = known
            if known is not None:
                block.append((n, known))
        yield block


def signed(units: int) -> str:
    """Units with their sign (``0`` bare).

    >>> signed(4), signed(-3), signed(0)
    ('+4', '-3', '0')
    """
    return f"{units:+d}" if units else "0"


_RULES_TAG = r'\[[ \t]*Rules[ \t]+"([^"\\\r\n]{1,1000})"[ \t]*\]'
"""A ``Rules`` tag naming a file (the names ``hoyle`` and ``cardroom`` are left out after)."""


def rules_files_named(name: str) -> Iterator[str]:
    """The house-rules files the ``Rules`` tags of the record file ``name`` name (resolved as
    the reader resolves them), found by a scan of its bytes; nothing for standard input or what is
    not a regular file (it cannot be read twice)."""
    # start-up: pan check does without these
    from pathlib import Path

    from pancli.records.tags import rules_path

    try:
        if name == STDIN_FILE or not stat.S_ISREG(os.stat(name).st_mode):
            return
        stream = open(name, "rb")  # noqa: SIM115 - closed below
    except (OSError, ValueError):
        return
    tag = re.compile(_RULES_TAG.encode())
    seen: set[str] = set()
    folder = Path(name).parent
    with stream:
        tail = b""
        while block := stream.read(1 << 20):
            data = tail + block
            for m in tag.finditer(data):
                spec = m.group(1).decode("utf-8", "replace")
                if spec.strip().lower() not in ("hoyle", "cardroom") and spec not in seen:
                    seen.add(spec)
                    path = rules_path(spec, folder)
                    if not isinstance(path, str):
                        yield str(path)
            tail = data[-1100:]


def player_option(name: str) -> str:
    """A ``--player`` name as the records' players are kept (one spelling of each name: NFC).

    >>> player_option("Jose\u0301") == "Jos\u00e9"
    True
    """
    from pancli.notation.record_common import player_name  # start-up: pan check does without it

    return player_name(name)


def stake_option(text: str) -> Decimal | tuple[str, str]:
    """A ``--stake`` value read as a ``Stake`` tag is: the money value of one unit, or the code
    and message of why it is not one.

    >>> stake_option("0.25"), stake_option("1e3")[0]
    (Decimal('0.25'), 'R2')
    """
    from pancli.records.tags import read_stake  # start-up: pan check does without it

    return read_stake(text)
