"""The plain text of ``pan pay``: a meld's row ``MELD<TAB>CONDITIONS<TAB>VALUE`` (:func:`pay_row`,
the one writer of it, for the arguments' rows and the pipe's), the totals' lines
(:func:`summary_text`) and the pipe path's rows and error suffixes (:class:`PayRowText`, which
:class:`~pancli.app.pay.PayBatch` is handed).

>>> pay_row("5s 5s 5s", ("C2",), 4), pay_row("7c 7s 7s", (), 0)
('5s 5s 5s\\tC2\\t4\\n', '7c 7s 7s\\t-\\t0\\n')
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from pancli.app.pay import GOING_OUT, LAID
from pancli.render.check import NONE_MARK, error_suffix

if TYPE_CHECKING:
    from pancli.app.check import MeldCheck
    from pancli.app.pay import PayReport


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
    rows += [
        ("per opponent", str(r.per_opponent), "units each active opponent pays"),
        ("opponents", str(r.opponents), f"{r.players} active players less the melder"),
        ("total", str(r.total), f"{r.per_opponent} x {r.opponents}"),
    ]
    return rows


def summary_text(r: PayReport) -> str:
    """The breakdown as ``label<TAB>units<TAB>explanation`` lines (the end of the pipe output)."""
    return "".join(f"{label}\t{units}\t{why}\n" for label, units, why in summary(r))


class PayRowText:
    """The :class:`~pancli.app.pay.PayText` of a pipe: :func:`pay_row` and the error suffix of
    ``pan check``'s error lines (:func:`~pancli.render.check.error_suffix`), each with its newline."""

    def row(self, meld: str, conditions: Sequence[str], value: int, /) -> str:
        return pay_row(meld, conditions, value)

    def error(self, col: int | None, rule: str | None, reason: str, /) -> str:
        return error_suffix(col, rule, reason) + "\n"
