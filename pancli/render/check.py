"""The plain text of ``pan check``: a judged meld's tab-separated row (:data:`PLAIN_COLUMNS`) and
its error line ``file:line:col: RULE reason`` (a long reason cut short: :func:`clipped`); the
reason of a legal meld in words, its conditions or PAGRUC notes after the judge's words
(:func:`check_reason`, :func:`legal_reason`, :func:`pagruc_reason`); of one
:class:`~pancli.app.check.MeldCheck` (:func:`meld_row`, :func:`meld_error`) or of a batch's lines,
written from the values :class:`~pancli.app.check.BatchJudge` gives (:class:`PlainRows`).

No rich and no JSON here: ``pan check`` in a pipe loads this module and the application layer's.

>>> from pancli.app.check import assess
>>> from pancli.app.lines import InputLine
>>> from pancli.panrules import PanRules
>>> from pancli.rules import HOYLE
>>> meld_row(assess(InputLine("<arg>", 1, "5s,5s,5s"), PanRules(HOYLE)))
'5s 5s 5s\\tlegal\\tset\\tC2\\t4\\t-\\tone-suit set; C2 valle set, one suit'
>>> meld_error(assess(InputLine("-", 3, "7c 7s 7s"), PanRules(HOYLE)))
'-:3:1: M3 a set of 7s must be all one suit or all different suits, not 7c 7s 7s'
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from pancli.app.check import judge_fields
from pancli.cards import Game
from pancli.render.text import error_line, error_suffix
from pancli.rules import Condition

if TYPE_CHECKING:
    from pancli.app.check import BatchJudge, LineRuling, MeldCheck, PacksNeeded
    from pancli.notation import PackSpellings
    from pancli.panrules import PanRules

NONE_MARK = "-"
"""How the plain format writes a missing field (no kind, no condition, no rule)."""

PLAIN_COLUMNS = ("meld", "verdict", "kind", "condition", "value", "rule", "reason")
"""The tab-separated columns of the plain (pipe) output of ``pan check``."""

MAX_REASON = 300
"""Error lines quote at most this many characters of a reason (a 1 MB meld stays readable)."""


NO_CONDITION = "no condition (pays nothing)"
"""What a legal Panguingue meld of no condition (C1-C5) is said to be worth."""


def legal_reason(reason: str, conditions: tuple[str, ...]) -> str:
    """The reason of a legal Panguingue meld: the judge's words, then each condition with its
    description (C1-C5), or :data:`NO_CONDITION`.

    >>> legal_reason("one-suit set", ("C2",)), legal_reason("rope", ())
    ('one-suit set; C2 valle set, one suit', 'rope; no condition (pays nothing)')
    """
    parts = "; ".join([f"{c} {Condition(c).description}" for c in conditions])
    return f"{reason}; {parts or NO_CONDITION}"


_NUMBER_WORDS = ("no", "one", "two")


def packs_text(n: PacksNeeded) -> str:
    """G1's note on a meld the smallest official table's pack does not hold.

    >>> from pancli.app.check import PacksNeeded
    >>> packs_text(PacksNeeded(2, 2)), packs_text(PacksNeeded(3, 3))
    ('needs two packs (the same card twice)', 'needs 3 packs (the same card 3 times)')
    """
    packs = _NUMBER_WORDS[n.packs] if n.packs < len(_NUMBER_WORDS) else str(n.packs)
    times = "twice" if n.copies == 2 else f"{n.copies} times"
    return f"needs {packs} pack{'s' * (n.packs != 1)} (the same card {times})"


def pagruc_reason(c: MeldCheck) -> str:
    """The reason of a legal PAGRUC meld: the judge's words, then what an ace scores in it (G7)
    and the packs it needs (G1), when there is something to say.

    >>> from pancli.app.check import assess_pagruc
    >>> from pancli.app.lines import InputLine
    >>> pagruc_reason(assess_pagruc(InputLine("<arg>", 1, "Ah 2h 3h")))
    'run of hearts: the ace counts 1 in a run'
    """
    notes = []
    if c.ace_points is not None:
        scored = c.ace_points
        notes.append(f"aces {scored} each in a set" if c.kind == "set" else f"the ace counts {scored} in a run")
    if c.packs_needed is not None:
        notes.append(packs_text(c.packs_needed))
    return f"{c.reason}: {'; '.join(notes)}" if notes else c.reason


def check_reason(c: MeldCheck) -> str:
    """The reason every output writes of a judged meld: why not, or what a legal one is
    (:func:`legal_reason`, :func:`pagruc_reason`)."""
    if not c.legal:
        return c.reason
    if c.game is Game.PANGUINGUE:
        return legal_reason(c.reason, c.conditions)
    return pagruc_reason(c)


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


def clipped(reason: str) -> str:
    """A reason as error lines quote it: at most :data:`MAX_REASON` characters.

    >>> len(clipped("x" * 1000)), clipped("short")
    (303, 'short')
    """
    return reason[:MAX_REASON] + "..." if len(reason) > MAX_REASON else reason


def clipped_suffix(col: int | None, rule: str | None, reason: str) -> str:
    """``:col: RULE message`` (:func:`~pancli.render.text.error_suffix`), a long reason cut short."""
    return error_suffix(col, rule, clipped(reason))


def meld_row(c: MeldCheck) -> str:
    """The plain row of a judged meld (no newline): see :data:`PLAIN_COLUMNS`."""
    return plain_line(c.meld, c.legal, c.kind, c.conditions, c.value, c.rule, check_reason(c))


def meld_error(c: MeldCheck) -> str:
    """``file:line:col: RULE message`` of an illegal meld (no newline)."""
    return error_line(c.file, c.line, c.col, c.rule, clipped(c.reason))


def plain_row(
    text: str, rules: PanRules, game: Game = Game.PANGUINGUE, pack: PackSpellings | None = None
) -> tuple[str, str | None]:
    """The plain row and the error suffix (``:col: RULE message``, None when legal) of one line's
    meld, each with its newline: :func:`meld_row` and :func:`clipped_suffix` of the line judged on
    its own (:func:`~pancli.app.check.judge_fields`), the reference :class:`PlainRows` keeps to.

    >>> from pancli.panrules import PanRules
    >>> from pancli.rules import HOYLE
    >>> plain_row("7c 7s 7s", PanRules(HOYLE))[1]
    ':1: M3 a set of 7s must be all one suit or all different suits, not 7c 7s 7s\\n'
    """
    col, meld, legal, kind, _, conds, value, rule, reason, _, _ = judge_fields(text, rules, game, pack)
    said = legal_reason(reason, conds) if legal else reason
    line = plain_line(meld, legal, kind, conds, value, rule, said) + "\n"
    return line, None if legal else clipped_suffix(col, rule, reason) + "\n"


ROWS_AT_ONCE = 8192
"""Lines whose rows :meth:`PlainRows.blocks` makes and hands over at once."""

Pieces = tuple[str, str | None, int]
"""A ruling's row after the meld's text, its error suffix (None when legal) and, for a ruling
``then_meld``, the longest meld its error line quotes whole (:data:`MAX_REASON`)."""


class RowPieces:
    """The plain row and error line of each ruling, made once a ruling (:meth:`pieces`), as pieces
    around the meld's text; :class:`PlainRows` writes rows and error lines from them,
    :class:`~pancli.render.exports.JsonBatch` error lines. Holds at most ``cache_max`` rulings
    before it starts afresh.

    >>> from pancli.app.check import BatchJudge
    >>> from pancli.panrules import PanRules
    >>> from pancli.rules import HOYLE
    >>> meld, r = BatchJudge("-", PanRules(HOYLE)).row("Kh 3s Kh")
    >>> RowPieces().error(meld, r)
    ':1: M2 not a set (ranks differ) and not a rope (a rope is one suit): Kh 3s Kh\\n'
    """

    def __init__(self, cache_max: int = 200_000) -> None:
        self.cache_max = cache_max
        self._made: dict[LineRuling, Pieces] = {}
        self.get = self._made.get
        """The pieces of a ruling already made, or None."""

    def pieces(self, r: LineRuling) -> Pieces:
        """The row of ``r`` after the meld's text, and the error suffix (``:col: RULE message``)
        when illegal: each whole, with its newline, or, for a ruling ``then_meld``, what comes
        before the meld's text at its end (for a meld of at most the third piece's length: a
        longer one's reason is cut short, :meth:`error`)."""
        made = self._made.get(r)
        if made is None:
            if len(self._made) >= self.cache_max:
                self._made.clear()
            end = "" if r.then_meld else "\n"
            said = legal_reason(r.reason, r.conditions) if r.legal else r.reason
            row = plain_line("", r.legal, r.kind, r.conditions, r.value, r.rule, said) + end
            suffix = None
            if not r.legal:
                suffix = (error_suffix(r.col, r.rule, r.reason) if r.then_meld
                          else clipped_suffix(r.col, r.rule, r.reason) + end)  # fmt: skip
            made = self._made[r] = (row, suffix, MAX_REASON - len(r.reason))
        return made

    def error(self, meld: str, r: LineRuling) -> str | None:
        """The error suffix of ``meld`` so ruled, with its newline; None when legal."""
        _, suffix, room = self.get(r) or self.pieces(r)
        if not r.then_meld:
            return suffix
        if len(meld) > room:
            return clipped_suffix(r.col, r.rule, r.full_reason(meld)) + "\n"
        return f"{suffix}{meld}\n"


class PlainRows:
    """The plain rows of a batch of meld lines (``pan check`` in a pipe), with the same bytes as
    :func:`plain_row` line by line: each line's meld and ruling from a
    :class:`~pancli.app.check.BatchJudge`, its row and error line from the ruling's
    :class:`RowPieces`, each line remembered by its text. A row whose reason ends with the meld
    (a spread: random lines, seldom repeated) is made line by line, not remembered.

    >>> from pancli.app.check import BatchJudge
    >>> from pancli.panrules import PanRules
    >>> from pancli.rules import HOYLE
    >>> rows = PlainRows(BatchJudge("-", PanRules(HOYLE)))
    >>> out, err = rows.rows(["5s 5s 5s", "# note", "7c 7s 7s", "Kh 3s Kh"], 0)
    >>> [line.split("\\t")[1] for line in out.splitlines()]
    ['legal', 'illegal', 'illegal']
    >>> print(err, end="")
    -:3:1: M3 a set of 7s must be all one suit or all different suits, not 7c 7s 7s
    -:4:1: M2 not a set (ranks differ) and not a rope (a rope is one suit): Kh 3s Kh
    """

    def __init__(self, judge: BatchJudge, cache_max: int = 200_000) -> None:
        self.file = judge.file
        self.judge = judge
        self.pieces = RowPieces(cache_max)
        self.cache_max = cache_max
        """Entries each cache holds before it starts afresh (memory stays bounded)."""
        self._lines: dict[str, tuple[str, str | None]] = {}

    def blocks(self, blocks: Iterable[list[str]]) -> Iterator[tuple[str, str]]:
        """The stdout and stderr text of each block of lines, :data:`ROWS_AT_ONCE` lines at a
        time (a block of random lines makes two new strings a line: memory holds a part's)."""
        n = 0
        for lines in blocks:
            for start in range(0, len(lines), ROWS_AT_ONCE):
                part = lines[start : start + ROWS_AT_ONCE] if len(lines) > ROWS_AT_ONCE else lines
                yield self.rows(part, n)
                n += len(part)

    def rows(self, lines: Iterable[str], before: int) -> tuple[str, str]:
        """The stdout and stderr text of ``lines`` (without line ends), the first being line
        ``before + 1`` of the input: one row per meld line, one error line per illegal one."""
        file = self.file
        cache = self._lines
        cache_max = self.cache_max
        get = cache.get
        judged = self.judge.row
        made = self.pieces.get
        pieces = self.pieces.pieces
        outs: list[str] = []
        add = outs.append
        errs: list[str] = []
        err = errs.append
        n = before
        for text in lines:
            n += 1
            hit = get(text)
            if hit is None:
                j = judged(text)
                if j is None:
                    hit = ("", None)
                else:
                    meld, r = j
                    row, suffix, room = made(r) or pieces(r)
                    if r.then_meld:
                        add(f"{meld}{row}{meld}\n")
                        if len(meld) > room:  # the reason cut short, as plain_row cuts it
                            suffix = clipped_suffix(r.col, r.rule, r.full_reason(meld))
                            meld = ""
                        err(f"{file}:{n}{suffix}{meld}\n")
                        continue
                    hit = (meld + row, suffix)
                if len(cache) >= cache_max:
                    cache.clear()
                cache[text] = hit
            add(hit[0])
            if hit[1] is not None:
                err(f"{file}:{n}{hit[1]}")
        return "".join(outs), "".join(errs)
