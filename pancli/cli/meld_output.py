"""What ``pan check`` and ``pan pay`` share: one meld of input judged and rendered.

:func:`assess` turns one line of input (an argument or a stdin line) into a
:class:`MeldReport`: the notation is read (:func:`pancli.notation.parse_meld`) and the
cards judged by the engine (:func:`pancli.melds.judge`). A report renders as a JSON
object (the NOTATION.md fields ``meld legal kind condition value rule reason`` plus
``conditions shape file line col``), as one plain tab-separated line for pipes, as an
error line ``file:line:col: RULE message`` for standard error, or as a row of a rich
table on a terminal.

No rich and no pyparsing at import time: rich is imported only when a table is drawn,
pyparsing only when the fast path of the notation cannot read a meld.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import click

from pancli.cards import Card, Game, format_cards
from pancli.cli.common import InputLine, stdin_binary, stdin_is_piped
from pancli.melds import Meld, Set, judge
from pancli.notation import NotationError, parse_meld
from pancli.rules import Condition, Profile

if TYPE_CHECKING:
    from rich.table import Table

NONE_MARK = "-"
"""How the plain format writes a missing field (no kind, no condition, no rule)."""

PLAIN_COLUMNS = ("meld", "verdict", "kind", "condition", "value", "rule", "reason")
"""The tab-separated columns of the plain (pipe) output of ``pan check``."""

STDIN_FILE = "-"
"""The file name of standard input in error lines (``-:LINE:COL``)."""
ARG_FILE = "<arg>"
"""The file name of command-line arguments in error lines (``<arg>:N:COL``, N = argument number)."""
_BLOCK = 1 << 20
"""Bytes read from standard input at a time."""
_MAX_REASON = 300
"""Error lines quote at most this many characters of a reason (a 1 MB meld stays readable)."""


@dataclass(frozen=True, slots=True)
class MeldReport:
    """One meld of input, judged: where it came from, what it is, and why not.

    ``col`` is the column of a notation error, 1 for a readable but illegal meld, and
    ``None`` for a legal one. ``meld`` is the canonical text (ropes low to high, sets in
    the order given) or, when the text could not be read, the input with runs of
    white space made single spaces.
    """

    file: str
    line: int
    col: int | None
    meld: str
    legal: bool
    kind: str | None
    shape: str | None
    conditions: tuple[str, ...]
    value: int
    rule: str | None
    reason: str
    cards: tuple[Card, ...] = ()
    engine_meld: Meld | None = None

    @property
    def condition(self) -> str | None:
        """The first condition id (``C4`` for an A-to-K rope, which is also ``C5``), or None."""
        return self.conditions[0] if self.conditions else None

    def to_json(self) -> dict[str, Any]:
        """The JSON object of NOTATION.md section 4 (``pan check --json``), with extras."""
        return {
            "meld": self.meld,
            "legal": self.legal,
            "kind": self.kind,
            "condition": self.condition,
            "value": self.value,
            "rule": self.rule,
            "reason": self.reason,
            "conditions": list(self.conditions),
            "shape": self.shape,
            "file": self.file,
            "line": self.line,
            "col": self.col,
        }

    def plain(self) -> str:
        """One tab-separated line (no newline): see :data:`PLAIN_COLUMNS`."""
        return plain_line(self.meld, self.legal, self.kind, self.conditions, self.value, self.rule, self.reason)

    def error_suffix(self) -> str:
        """``:col: RULE message`` (the error line without file and line), for illegal melds."""
        return error_suffix(self.col, self.rule, self.reason)

    def error_line(self) -> str:
        """``file:line:col: RULE message`` for an illegal meld."""
        return f"{self.file}:{self.line}{self.error_suffix()}"


def stdin_blocks(block: int = _BLOCK) -> Iterator[list[str]]:
    """Standard input as lists of lines (without line ends), one list per block read.

    Bytes that are not UTF-8 become U+FFFD; a leading byte-order mark is dropped; lines
    end with ``\\n`` (a ``\\r`` before it is white space and is stripped with the rest).
    """
    stream = stdin_binary()
    pending: list[bytes] = []
    first = True
    while True:
        data = stream.read(block)
        if not data:
            break
        if first:
            first = False
            if data.startswith(b"\xef\xbb\xbf"):
                data = data[3:]
        cut = data.rfind(b"\n") + 1
        if cut == 0:
            pending.append(data)
            continue
        if pending:
            pending.append(data[:cut])
            head = b"".join(pending)
            pending = []
        else:
            head = data[:cut]
        pending_tail = data[cut:]
        if pending_tail:
            pending.append(pending_tail)
        yield head.decode("utf-8", "replace").split("\n")[:-1]
    if pending:
        yield [b"".join(pending).decode("utf-8", "replace")]


def is_skipped(text: str) -> bool:
    """Blank lines and ``#`` comment lines are not melds."""
    s = text.lstrip()
    return not s or s[0] == "#"


def input_items(args: list[str]) -> Iterator[InputLine]:
    """Each argument, or with ``-`` (or no argument and piped input) each meld line of stdin."""
    if args == ["-"] or (not args and stdin_is_piped()):
        n = 0
        for lines in stdin_blocks():
            for text in lines:
                n += 1
                if not is_skipped(text):
                    yield InputLine(STDIN_FILE, n, text)
        return
    if not args:
        raise click.UsageError("nothing to check: give melds as arguments, or '-' to read standard input")
    for i, text in enumerate(args, 1):
        yield InputLine(ARG_FILE, i, text)


def plain_line(
    meld: str, legal: bool, kind: str | None, conditions: tuple[str, ...], value: int, rule: str | None, reason: str
) -> str:
    """The plain (pipe) line of a judged meld, without newline: see :data:`PLAIN_COLUMNS`."""
    return "\t".join(
        (
            meld,
            "legal" if legal else "illegal",
            kind or NONE_MARK,
            "+".join(conditions) or NONE_MARK,
            str(value),
            rule or NONE_MARK,
            reason,
        )
    )


def error_suffix(col: int | None, rule: str | None, reason: str) -> str:
    """``:col: RULE message``: an error line without its file and line (long reasons cut short)."""
    if len(reason) > _MAX_REASON:
        reason = reason[:_MAX_REASON] + "..."
    return f":{col}: {rule} {reason}"


_LEGAL_REASONS: dict[tuple[str, tuple[Condition, ...]], str] = {}


def _legal_reason(verdict_reason: str, conditions: tuple[Condition, ...]) -> str:
    key = (verdict_reason, conditions)
    said = _LEGAL_REASONS.get(key)
    if said is None:
        parts = "; ".join(f"{c.value} {c.description}" for c in conditions)
        said = _LEGAL_REASONS[key] = f"{verdict_reason}; " + (parts or "no condition (pays nothing)")
    return said


_Judged = tuple[
    int | None, str, bool, str | None, str | None, tuple[str, ...], int, str | None, str, tuple[Card, ...], Meld | None
]
"""The fields of a :class:`MeldReport` after ``file`` and ``line``."""


def _judge_text(text: str, profile: Profile, game: Game) -> _Judged:
    try:
        cards = parse_meld(text, game)
    except NotationError as exc:
        return (exc.col, " ".join(text.split()), False, None, None, (), 0, exc.code, exc.message, (), None)
    v = judge(cards, profile)
    meld = v.meld
    if meld is None:
        return (1, format_cards(cards), False, None, None, (), 0, v.rule, v.reason, cards, None)
    conds = v.conditions
    shape = meld.shape.value if isinstance(meld, Set) else None
    reason = _legal_reason(v.reason, conds)
    return (
        None,
        str(meld),
        True,
        meld.kind.value,
        shape,
        tuple(c.value for c in conds),
        v.value,
        None,
        reason,
        cards,
        meld,
    )


def assess(item: InputLine, profile: Profile, game: Game = Game.PANGUINGUE) -> MeldReport:
    """Read and judge one meld of input.

    >>> from pancli.cli.common import InputLine
    >>> from pancli.rules import HOYLE
    >>> r = assess(InputLine("<arg>", 1, "5s,5s,5s"), HOYLE)
    >>> r.plain()
    '5s 5s 5s\\tlegal\\tset\\tC2\\t4\\t-\\tone-suit set; C2 valle set, one suit'
    >>> assess(InputLine("-", 3, "7c 7s 7s"), HOYLE).error_line()
    '-:3:1: M3 a set of 7s must be all one suit or all different suits, not 7c 7s 7s'
    """
    return MeldReport(item.file, item.line, *_judge_text(item.text, profile, game))


def plain_row(text: str, profile: Profile, game: Game = Game.PANGUINGUE) -> tuple[str, str | None]:
    """The plain line and the error suffix (``:col: RULE message``, None when legal) of one meld,
    each with its newline: :meth:`MeldReport.plain` and :meth:`MeldReport.error_suffix` without
    building the report (the batch path of ``pan check``).

    >>> from pancli.rules import HOYLE
    >>> plain_row("7c 7s 7s", HOYLE)[1]
    ':1: M3 a set of 7s must be all one suit or all different suits, not 7c 7s 7s\\n'
    """
    col, meld, legal, kind, _, conds, value, rule, reason, _, _ = _judge_text(text, profile, game)
    line = plain_line(meld, legal, kind, conds, value, rule, reason) + "\n"
    return line, None if legal else error_suffix(col, rule, reason) + "\n"


def meld_table(reports: Iterable[MeldReport], title: str | None = None) -> Table:
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
