"""The JSON objects of ``pan check``, ``pan pay``, ``pan score`` and ``analyze --advice``
(docs/commands.md): msgspec Structs whose fields are written in their order by
:mod:`pancli.jsontext`, made from the application's results (which know nothing of JSON).

>>> from pancli.app.check import assess
>>> from pancli.app.lines import InputLine
>>> from pancli.jsontext import dumps
>>> from pancli.panrules import PanRules
>>> from pancli.rules import HOYLE
>>> dumps(check_item(assess(InputLine("-", 1, "5s 5s 5s"), PanRules(HOYLE))))[:60]
'{"meld":"5s 5s 5s","legal":true,"kind":"set","condition":"C2'
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from pancli.app.check import MeldCheck
from pancli.cards import Game
from pancli.jsontext import Item
from pancli.render.check import RowPieces, check_reason, legal_reason
from pancli.values import replace

if TYPE_CHECKING:
    from pancli.analyze.advice import Advice
    from pancli.app.check import BatchJudge, CheckRule, LineRuling
    from pancli.app.pay import PayReport
    from pancli.app.score import ScoreReport


class CheckItem(Item):
    """A Panguingue meld judged (``pan check --json``): the fields of docs/commands.md, then
    ``conditions shape`` and the error fields (``message`` null when legal)."""

    meld: str
    legal: bool
    kind: str | None
    condition: str | None
    value: int
    rule: str | None
    reason: str
    conditions: tuple[str, ...]
    shape: str | None
    file: str
    line: int
    col: int | None
    player: None
    message: str | None


class PagrucCheckItem(Item):
    """A PAGRUC meld judged: as :class:`CheckItem`, with ``points`` (G7) for the Panguingue fields."""

    meld: str
    legal: bool
    kind: str | None
    condition: str | None
    value: int
    points: int
    rule: str | None
    reason: str
    file: str
    line: int
    col: int | None
    player: None
    message: str | None


def check_item(c: MeldCheck) -> CheckItem | PagrucCheckItem:
    """The JSON object of one judged meld."""
    return _check_item(c.meld, c.legal, c.kind, c.conditions, c.value, c.rule, check_reason(c), c.shape,
                       c.file, c.line, c.col, c.game)  # fmt: skip


def ruled_item(
    file: str, line: int, meld: str, r: LineRuling, game: Game, said: str | None = None
) -> CheckItem | PagrucCheckItem:
    """The JSON object of a meld of a batch so ruled (:class:`~pancli.app.check.BatchJudge`): the
    object :func:`check_item` makes of its check (``said``: the reason of a legal ruling, when
    the caller has it worded)."""
    reason = (said or legal_reason(r.reason, r.conditions)) if r.legal else r.full_reason(meld)
    return _check_item(meld, r.legal, r.kind, r.conditions, r.value, r.rule, reason, r.shape,
                       file, line, r.col, game)  # fmt: skip


def _check_item(
    meld: str,
    legal: bool,
    kind: str | None,
    conditions: tuple[str, ...],
    value: int,
    rule: CheckRule | None,
    reason: str,
    shape: str | None,
    file: str,
    line: int,
    col: int | None,
    game: Game,
) -> CheckItem | PagrucCheckItem:
    """Every writer of a checked meld's JSON object makes it here."""
    message = None if legal else reason
    condition = conditions[0] if conditions else None
    if game is Game.PANGUINGUE:
        return CheckItem(meld, legal, kind, condition, value, rule, reason, conditions, shape, file, line, col, None,
                         message)  # fmt: skip
    return PagrucCheckItem(meld, legal, kind, condition, value, value, rule, reason, file, line, col, None, message)


class LaidItem(Item):
    """What laying the melds collects from each opponent (C6, C7)."""

    rule: str
    per_opponent: int


class GoingOutItem(Item):
    """What going out with the melds collects from each opponent (C8): the bonus and the melds again."""

    rule: str
    out_bonus: int
    melds_again: int
    per_opponent: int


class PayTotals(Item):
    """``pan pay --jsonl``'s last line: the totals of ``pan pay --json`` without the melds."""

    per_opponent: int
    opponents: int
    total: int
    players: int
    rules: str
    laid: LaidItem
    going_out: GoingOutItem | None


class PayItem(Item):
    """``pan pay --json``: ``melds per_opponent opponents total`` (docs/commands.md), with the breakdown."""

    melds: list[CheckItem | PagrucCheckItem]
    per_opponent: int
    opponents: int
    total: int
    players: int
    rules: str
    laid: LaidItem
    going_out: GoingOutItem | None


def pay_totals(r: PayReport) -> PayTotals:
    """The totals of a pay report."""
    from pancli.app.pay import GOING_OUT, LAID  # start-up: pan check --json does without it

    going_out = None
    if r.going_out is not None:
        g = r.going_out
        going_out = GoingOutItem(GOING_OUT, g.bonus, g.melds, g.total)
    return PayTotals(r.per_opponent, r.opponents, r.total, r.players, r.profile.name, LaidItem(LAID, r.laid), going_out)


def pay_item(r: PayReport) -> PayItem:
    """The JSON object of a pay report: its melds, then its totals."""
    t = pay_totals(r)
    return PayItem([check_item(m) for m in r.melds], t.per_opponent, t.opponents, t.total, t.players, t.rules,
                   t.laid, t.going_out)  # fmt: skip


class ScoreMeldItem(Item):
    """A scored PAGRUC meld."""

    meld: str
    kind: str
    points: int


class ScoreCardItem(Item):
    """One card's points (G7): where it lies and, on the table, in which meld."""

    card: str
    where: str
    points: int
    meld: str | None


class ErrorItem(Item):
    """The fields of every error in JSON (docs/commands.md)."""

    file: str
    line: int
    col: int
    rule: str | None
    player: None
    message: str


class ScoreItem(Item):
    """``pan score --json``: a scored hand."""

    input: str
    file: str
    line: int
    score: int
    table: int
    hand: int
    melds: list[ScoreMeldItem]
    cards: list[ScoreCardItem]


class ScoreErrorItem(Item):
    """``pan score --json``: a hand that could not be scored (``score`` null)."""

    input: str
    file: str
    line: int
    score: None
    error: ErrorItem


def score_item(r: ScoreReport) -> ScoreItem | ScoreErrorItem:
    """The JSON object of one score literal: ``score table hand melds cards``, or its ``error``."""
    s = r.score
    if s is None:
        return ScoreErrorItem(r.text, r.file, r.line, None, ErrorItem(r.file, r.line, r.col, r.rule, None, r.message))
    melds = [ScoreMeldItem(str(m), m.kind.value, m.points) for m in s.melds]
    cards = [ScoreCardItem(str(c.card), c.where.value, c.points, c.meld) for c in s.cards]
    return ScoreItem(r.text, r.file, r.line, s.total, s.table, s.in_hand, melds, cards)


class AdviceItem(Item):
    """``analyze --advice``: the expected units of staying (its sampling error and 95% interval)
    and of going on top, the choice, and the simulation's policy."""

    stay: float
    stay_se: float
    stay_ci95: tuple[float, float]
    top: float
    choice: str
    samples: int
    seed: int
    won: float
    void: float
    policy: str


def advice_item(a: Advice) -> AdviceItem:
    """The JSON object of an advice."""
    from pancli.analyze.advice import POLICY  # start-up: pan check --json does without it

    return AdviceItem(a.stay, a.stay_se, a.ci, a.top, a.choice, a.samples, a.seed, a.won, a.void, POLICY)


# --------------------------------------------------------------------------- pan check --json of a batch

_JSON_CACHE_MAX = 100_000
"""Distinct lines whose object is kept (so memory stays bounded)."""
JSON_SLICE = 2048
"""Lines whose objects are written at once (the --json text of a whole block of input is many times its size)."""


def _slices(blocks: Iterable[list[str]], size: int) -> Iterator[list[str]]:
    """The blocks of lines cut into lists of at most ``size`` lines, in order."""
    for block in blocks:
        if len(block) <= size:
            yield block
        else:
            for i in range(0, len(block), size):
                yield block[i : i + size]


BatchItem = tuple[CheckItem | PagrucCheckItem | None, str | None]
"""A line's object (:func:`check_item`, its line number yet to be set; None for a blank or
comment line) and its error suffix (``:col: RULE message`` and newline; None when legal)."""


class JsonBatch:
    """``pan check --json`` (a list) or ``--jsonl`` of a batch: :meth:`slices` turns the input,
    a slice of lines at a time, into the objects of :func:`check_item` and the error lines, for
    a :class:`~pancli.render.stream.JsonStream` to write (:meth:`~pancli.render.stream.JsonStream.add_all`:
    a slice's objects encoded in one call).

    Each line is judged by the :class:`~pancli.app.check.BatchJudge` handed in (the savings of
    the plain rows hold here too) and each distinct line's object made once: a line's object is
    the remembered one with its line number set. tests/test_check_stream.py compares the text
    with the encoder's of every report.

    >>> from pancli.app.check import BatchJudge
    >>> from pancli.rules import HOYLE
    >>> from pancli.panrules import PanRules
    >>> batch = JsonBatch(BatchJudge("-", PanRules(HOYLE)))
    >>> [(items, errors)] = batch.slices([["5s 5s 5s", "# note", "7c 7s 7s"]])
    >>> [(i.line, i.legal, i.rule) for i in items]
    [(1, True, None), (3, False, 'M3')]
    >>> errors
    '-:3:1: M3 a set of 7s must be all one suit or all different suits, not 7c 7s 7s\\n'
    """

    def __init__(self, judge: BatchJudge) -> None:
        self.file = judge.file
        self.game = judge.game
        self.judge = judge
        self.pieces = RowPieces(_JSON_CACHE_MAX)
        self._said: dict[LineRuling, str] = {}
        """The reason of each legal ruling, worded once (a batch has few)."""

    def _item(self, text: str) -> BatchItem:
        """The object and error suffix of one line (line number 0)."""
        row = self.judge.row(text)
        if row is None:
            return None, None
        meld, ruling = row
        said = None
        if ruling.legal:
            said = self._said.get(ruling)
            if said is None:
                if len(self._said) >= _JSON_CACHE_MAX:
                    self._said.clear()
                said = self._said[ruling] = legal_reason(ruling.reason, ruling.conditions)
        return ruled_item(self.file, 0, meld, ruling, self.game, said), self.pieces.error(meld, ruling)

    def slices(self, blocks: Iterable[list[str]]) -> Iterator[tuple[list[CheckItem | PagrucCheckItem], str]]:
        """The objects and the error lines of each slice of at most :data:`JSON_SLICE` lines of
        ``blocks`` (blank and comment lines of standard input have none)."""
        cache: dict[str, BatchItem] = {}
        get = cache.get
        made = self._item
        file = self.file
        placed = replace
        n = 0
        for block in _slices(blocks, JSON_SLICE):
            items: list[CheckItem | PagrucCheckItem] = []
            add = items.append
            errors: list[str] = []
            err = errors.append
            for text in block:
                n += 1
                hit = get(text)
                if hit is None:
                    if len(cache) >= _JSON_CACHE_MAX:
                        cache.clear()
                    hit = cache[text] = made(text)
                item, suffix = hit
                if item is None:  # blank or comment
                    continue
                add(placed(item, line=n))
                if suffix is not None:
                    err(f"{file}:{n}{suffix}")
            yield items, "".join(errors)
