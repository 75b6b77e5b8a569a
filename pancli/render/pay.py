"""The plain text of ``pan pay``: a meld's row ``MELD<TAB>CONDITIONS<TAB>VALUE`` (:func:`pay_row`,
the one writer of it, for the arguments' rows and the pipe's), the totals' lines
(:func:`summary_text`) and the pipe path's text (:class:`PayRows`, from the values of a
:class:`~pancli.app.pay.PayBatch`).

>>> pay_row("5s 5s 5s", ("C2",), 4), pay_row("7c 7s 7s", (), 0)
('5s 5s 5s\\tC2\\t4\\n', '7c 7s 7s\\t-\\t0\\n')
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, Final

from pancli.app.check import MEMO_LIMIT
from pancli.app.pay import GOING_OUT, LAID
from pancli.render.check import NONE_MARK, clipped_suffix

if TYPE_CHECKING:
    from pancli.app.check import MeldCheck
    from pancli.app.pay import PayBatch, PayLine, PayReport


def pay_row(meld: str, conditions: Sequence[str], value: int) -> str:
    """One meld's row of ``pan pay`` in a pipe, ``MELD<TAB>CONDITIONS<TAB>VALUE`` (``-``: none),
    with its newline."""
    return f"{meld}\t{'+'.join(conditions) or NONE_MARK}\t{value}\n"


def pay_rows(reports: Iterable[MeldCheck]) -> str:
    """The rows of judged melds (:func:`pay_row`), an illegal one counting 0."""
    return "".join(pay_row(r.meld, r.conditions, r.value) for r in reports)


def summary(r: PayReport) -> list[tuple[str, str, str]]:
    """The breakdown as (label, units, explanation) rows: the end of the pipe output
    (:func:`summary_text`) and the terminal's summary table (:mod:`pancli.render.melds`)."""
    rows = [("laid", str(r.laid), f"{LAID}: the value of the melds as laid, from each opponent")]
    g = r.going_out
    if g is not None:
        rows.append(
            (
                "going out",
                str(g.total),
                f"{GOING_OUT}: out_bonus {g.bonus} + the melds again {g.melds}, from each opponent",
            )
        )
    elif r.out_refused:
        rows.append(("going out", "0", f"{GOING_OUT}: none, a meld is illegal: nobody goes out with a foul meld"))
    rows += [
        ("per opponent", str(r.per_opponent), "units each active opponent pays"),
        ("opponents", str(r.opponents), f"{r.players} active players less the melder"),
        ("total", str(r.total), f"{r.per_opponent} x {r.opponents}{_house_words(r.house)}"),
    ]
    return rows


def _house_words(house: int) -> str:
    """What the house adds to the total (``+ 4 from the house``) or takes (``- 2 to the house``)."""
    return "" if not house else f" + {house} from the house" if house > 0 else f" - {-house} to the house"


def summary_text(r: PayReport) -> str:
    """The breakdown as ``label<TAB>units<TAB>explanation`` lines (the end of the pipe output)."""
    return "".join(f"{label}\t{units}\t{why}\n" for label, units, why in summary(r))


class PayRows:
    """``pan pay``'s pipe as text, a block of lines at a time (:meth:`blocks`): each line judged
    and taken by a :class:`~pancli.app.pay.PayBatch`, written as :func:`pay_row` writes a row and
    ``pan check`` an error line. Each distinct line's row, refused row and error suffix are made
    once and remembered here (a batch repeats its lines; at most ``memo_max`` lines), each E4
    reason's suffix once.

    Kept for speed: one pass over the lines, the text of a line repeated taken from the memo
    (benchmarks/README.md, bench_batch); tests/test_cli_pay.py compares it with :func:`pay_report`.

    >>> from pancli.app.pay import PayBatch
    >>> from pancli.panrules import PanRules
    >>> from pancli.rules import HOYLE
    >>> batch = PayBatch("-", PanRules(HOYLE), 4, False)
    >>> [(rows, errors)] = PayRows(batch).blocks([["5s 5s 5s 5s", "# note", "5s5s5s5s5s"]])
    >>> rows
    '5s 5s 5s 5s\\tC2\\t6\\n5s 5s 5s 5s 5s\\t-\\t0\\n'
    >>> errors
    '-:3:1: E4 the melds hold 9 copies of 5s, but the pack holds 8\\n'
    >>> batch.report().total
    18
    """

    def __init__(self, batch: PayBatch, memo_max: int = MEMO_LIMIT) -> None:
        self.batch = batch
        self.memo_max = memo_max
        self._lines: dict[str, tuple[PayLine, str, str, str] | None] = {}
        """Each distinct raw line: its judgement, row, refused row and error suffix (None: a
        blank or comment line)."""
        self._said: dict[str, str] = {}
        """Each E4 reason's error suffix."""

    def blocks(self, blocks: Iterable[list[str]]) -> Iterator[tuple[str, str]]:
        """The rows (``MELD<TAB>CONDITIONS<TAB>VALUE``) and error lines of each block of input lines."""
        batch = self.batch
        file = batch.file
        judged = batch.line
        take = batch.take
        count = batch.count
        refuse = batch.refuse
        memo = self._lines
        get = memo.get
        memo_max = self.memo_max
        said = self._said
        n = 0
        for lines in blocks:
            outs: list[str] = []
            add = outs.append
            errs: list[str] = []
            err = errs.append
            for raw in lines:
                n += 1
                hit = get(raw, _UNSEEN)
                if hit is _UNSEEN:
                    hit = self._made(judged(raw))
                    if len(memo) < memo_max:
                        memo[raw] = hit
                if hit is None:
                    continue
                line, row, refused, suffix = hit
                counts = line.counts
                if counts is not None:
                    over = take(counts)
                    if over is None:
                        add(row)
                        count(line)
                        continue
                    suffix = said.get(over) or said.setdefault(over, clipped_suffix(1, "E4", over) + "\n")
                add(refused)
                refuse()
                err(f"{file}:{n}{suffix}")
            yield "".join(outs), "".join(errs)

    @staticmethod
    def _made(line: PayLine | None) -> tuple[PayLine, str, str, str] | None:
        """A line's texts: its row, its row when refused (0, no condition), its error suffix."""
        if line is None:
            return None
        refused = pay_row(line.meld, (), 0)
        if line.counts is None:
            return line, "", refused, clipped_suffix(line.col, line.rule, line.reason) + "\n"
        return line, pay_row(line.meld, line.conditions, line.value), refused, ""


_UNSEEN: Final[Any] = object()
"""What the memo gives for a line not seen yet (None is a comment line's)."""
