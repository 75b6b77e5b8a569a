"""The plain text of ``pan score``: a scored hand's lines (the literal, one line a card, the
totals) and the error line ``file:line:col: RULE message`` of a literal that cannot be scored,
of one :class:`~pancli.app.score.ScoreReport` (:func:`score_text`, :func:`score_error`) or of a
pipe's lines, a block at a time (:class:`ScoreRows`).

>>> from pancli.app.lines import InputLine
>>> from pancli.app.score import Scorer
>>> scorer = Scorer.of(None)
>>> print(score_text(scorer.assess(InputLine("<arg>", 1, "[5h 6h 7h] | Ks"))), end="")
[5h 6h 7h] | Ks
  5h  run    +5  meld 1
  6h  run    +6  meld 1
  7h  run    +7  meld 1
  Ks  hand  -10
  table +18, hand -10: score 8
>>> score_error(scorer.assess(InputLine("<arg>", 1, "[Qh Kh Ah] | 2c")))
'<arg>:1:1: G4 meld 1 (Qh Kh Ah): aces are low only: a run does not go round the corner (no Q-K-A, no K-A-2)'
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from pancli.app.lines import InputLine, remembered_items
from pancli.app.score import MEMO_LIMIT
from pancli.cards import format_cards
from pancli.render.text import error_line, error_suffix

if TYPE_CHECKING:
    from pancli.app.score import PacksProblem, Scorer, ScoreReport


def packs_text(problem: PacksProblem) -> str:
    """What ``pan score --packs`` says of packs that are no PAGRUC pack: G1's words.

    >>> from pancli.app.score import PacksProblem
    >>> from pancli.pagruc.rules import PagrucRules
    >>> packs_text(PacksProblem(PagrucRules().packs_problem(3)))
    'one or two 52-card packs, not 3'
    """
    from pancli.pagruc.words import table_words  # start-up: only a usage error needs it

    return table_words(problem.problem)


def score_text(r: ScoreReport) -> str:
    """Text lines of a scored hand: the literal, one line a card, then the totals (empty when
    the hand could not be scored)."""
    s = r.score
    if s is None:
        return ""
    melds = " ".join(f"[{m}]" for m in s.melds)
    head = f"{melds} | {format_cards(s.hand)}".strip()
    lines = [head]
    for c in s.cards:
        meld = f"meld {c.meld}" if c.meld else ""
        lines.append(f"  {c.card!s:<3} {c.where.value:<4} {c.points:>+4}  {meld}".rstrip())
    lines.append(f"  table {s.table:+d}, hand {s.in_hand:+d}: score {s.total}")
    return "\n".join(lines) + "\n"


def score_error(r: ScoreReport) -> str:
    """``file:line:col: RULE message`` of a literal that could not be scored (no newline)."""
    return error_line(r.file, r.line, r.col, r.rule, r.message)


def score_error_or_none(r: ScoreReport) -> str | None:
    """The error line of ``r``, or None when the hand is scored."""
    return None if r.score is not None else score_error(r)


class ScoreRows:
    """``pan score`` in a pipe: :meth:`blocks` turns each block of input lines (of standard
    input when ``file`` is ``-``: blank and comment lines skipped) into its plain text and error
    lines as it is read, each line scored by ``scorer``; ``failed`` tells whether some line could
    not be scored. Memory holds one block and the distinct lines seen (bounded), not the whole
    output.

    Kept for speed: each distinct line is scored and written once (its text or its error suffix
    remembered by the raw line: :func:`~pancli.app.lines.remembered_items`), as a batch repeats
    its lines (benchmarks/README.md, bench_batch).

    >>> from pancli.app.score import Scorer
    >>> batch = ScoreRows(Scorer.of(2), "-")
    >>> [(text, errors)] = batch.blocks([["| Ah", "# note", "[Qh Kh Ah] | 2c"]])
    >>> print(text, end="")
    | Ah
      Ah  hand  -15
      table +0, hand -15: score -15
    >>> errors[:10], batch.failed
    ('-:3:1: G4 ', True)
    """

    def __init__(self, scorer: Scorer, file: str) -> None:
        self.scorer = scorer
        self.file = file
        self.failed = False

    def _line(self, item: InputLine) -> tuple[str, str]:
        """A line's plain text, or its error suffix (``:col: RULE message``, after its place)."""
        r = self.scorer.assess(item)
        if r.score is None:
            return "", error_suffix(r.col, r.rule, r.message) + "\n"
        return score_text(r), ""

    def blocks(self, blocks: Iterable[list[str]]) -> Iterator[tuple[str, str]]:
        """The plain text and the error lines of each block."""
        file = self.file
        for block in remembered_items(blocks, file, self._line, MEMO_LIMIT):
            out: list[str] = []
            err: list[str] = []
            for n, known in block:
                text, suffix = known
                if suffix:
                    err.append(f"{file}:{n}{suffix}")
                else:
                    out.append(text)
            if err:
                self.failed = True
            yield "".join(out), "".join(err)
