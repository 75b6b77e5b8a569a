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
from typing import TYPE_CHECKING, cast

from pancli.app.check import NONE_MARK, MeldCheck, PlainBatch, assess
from pancli.app.lines import STDIN_FILE, InputLine, batch_text, is_skipped
from pancli.cards import Game
from pancli.jsontext import Item

if TYPE_CHECKING:
    from pancli.analyze.advice import Advice
    from pancli.app.check import CheckRule
    from pancli.app.pay import PayReport
    from pancli.app.score import ScoreReport
    from pancli.panrules import PanRules
    from pancli.render.stream import JsonStream


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
    """The JSON object of one judged meld (every writer of them makes it here: the batch path too)."""
    message = None if c.legal else c.reason
    if c.game is Game.PANGUINGUE:
        return CheckItem(c.meld, c.legal, c.kind, c.condition, c.value, c.rule, c.reason, c.conditions, c.shape,
                         c.file, c.line, c.col, None, message)  # fmt: skip
    return PagrucCheckItem(c.meld, c.legal, c.kind, c.condition, c.value, c.value, c.rule, c.reason,
                           c.file, c.line, c.col, None, message)  # fmt: skip


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

_LINE_MARK = -7_000_000_000_001
"""A line number no input has: the JSON of a report made with it is cut there, and any line put in."""
_JSON_CACHE_MAX = 100_000
"""Distinct lines whose JSON text is kept (so memory stays bounded)."""
JSON_SLICE = 2048
"""Lines whose JSON is written at once (the --json text of a whole block of input is many times its size)."""


def _slices(blocks: Iterable[list[str]], size: int) -> Iterator[list[str]]:
    """The blocks of lines cut into lists of at most ``size`` lines, in order."""
    for block in blocks:
        if len(block) <= size:
            yield block
        else:
            for i in range(0, len(block), size):
                yield block[i : i + size]


class JsonBatch:
    """``pan check --json`` (a list) or ``--jsonl`` of a batch: :meth:`slices` turns the input,
    a slice of lines at a time, into the JSON text of the objects of :func:`check_item` and the
    error lines, for ``stream`` (:class:`~pancli.render.stream.JsonStream`) to write: its items
    are encoded as the stream encodes them, each led by its separator
    (:meth:`~pancli.render.stream.JsonStream.add_encoded`).

    The objects are made from the rows and error lines of :class:`PlainBatch` (its savings
    hold here too): every field of a report is in its plain row but the column (in its error
    line) and a legal set's shape (judged once per distinct set). The JSON text of a row
    differs from line to line only in the line number, so each distinct row is encoded once
    and cut there. A row that does not split into its seven fields is judged again here.
    tests/test_check_stream.py compares the text with the encoder's for every report.

    >>> import json
    >>> from pancli.rules import HOYLE
    >>> from pancli.render.stream import JsonStream
    >>> from pancli.panrules import PanRules
    >>> batch = JsonBatch("-", PanRules(HOYLE), Game.PANGUINGUE, JsonStream(True))
    >>> [(text, errors, items)] = batch.slices([["5s 5s 5s", "# note", "7c 7s 7s"]])
    >>> [json.loads(line)["line"] for line in text.splitlines()], items
    ([1, 3], 2)
    >>> errors
    '-:3:1: M3 a set of 7s must be all one suit or all different suits, not 7c 7s 7s\\n'
    """

    def __init__(self, file: str, rules: PanRules, game: Game, stream: JsonStream) -> None:
        self.file = file
        self.rules = rules
        self.game = game
        self.encode = stream.encode
        self.lines = stream.lines
        self.lead = stream.lead
        self._batch = PlainBatch(file, rules, game)
        self._shapes: dict[str, str | None] = {}

    def _entry(self, text: str, row: str, error: str | None) -> tuple[str, str, str | None]:
        """The JSON text of a line cut at its line number, and its error suffix."""
        file = self.file
        fields = row.split("\t")
        suffix = None if error is None else error[error.index(":", len(file) + 1) :]  # ":COL: RULE message"
        col = None if suffix is None else suffix[1:].split(":", 1)[0]
        if len(fields) == 7 and (col is None or col.isdigit()):
            meld, verdict, kind, conds, value, rule, reason = fields
            legal = verdict == "legal"
            shape = None
            if legal and kind == "set":
                shape = self._shapes.get(meld)
                if shape is None:
                    item = InputLine(file, 0, meld)
                    shape = self._shapes[meld] = assess(item, self.rules, self.game, self._batch.pack).shape
            check = MeldCheck(
                file,
                _LINE_MARK,
                None if col is None else int(col),
                meld,
                legal,
                None if kind == NONE_MARK else kind,
                shape,
                () if conds == NONE_MARK else tuple(conds.split("+")),
                int(value),
                None if rule == NONE_MARK else cast("CheckRule", rule),  # the rule this batch wrote in the row
                reason,
            )
        else:  # a reason holding a tab: judge the line again
            stdin = file == STDIN_FILE
            item = InputLine(file, _LINE_MARK, batch_text(text) if stdin else text)
            check = assess(item, self.rules, self.game, self._batch.pack)
        text = self.encode(check_item(check))
        key = '"line":' if self.lines else '"line": '  # compact lines, or an indented list
        head, tail = text.split(f"{key}{_LINE_MARK}")
        return self.lead + head + key, tail + ("\n" if self.lines else ""), None if suffix is None else suffix + "\n"

    def slices(self, blocks: Iterable[list[str]]) -> Iterator[tuple[str, str, int]]:
        """The JSON text, the error lines and the number of items of each slice of at most
        :data:`JSON_SLICE` lines of ``blocks`` (blank and comment lines of standard input have none)."""
        cache: dict[str, tuple[str, str, str | None]] = {}
        known = cache.__contains__
        stdin = self.file == STDIN_FILE
        file = self.file
        n = 0
        for block in _slices(blocks, JSON_SLICE):
            if len(cache) >= _JSON_CACHE_MAX:
                cache.clear()
            missing = [t for t in dict.fromkeys(block) if not known(t) and not (stdin and is_skipped(t))]
            if missing:
                out, err = self._batch.rows(missing, 0)
                errs = iter(err.split("\n"))
                for text, row in zip(missing, out.split("\n"), strict=False):
                    legal = row[row.find("\t") + 1 :].startswith("legal\t")  # the meld holds no tab
                    cache[text] = self._entry(text, row, None if legal else next(errs))
            get = cache.get
            parts: list[str] = []
            add = parts.append
            errors: list[str] = []
            for text in block:
                n += 1
                hit = get(text)
                if hit is None:  # blank or comment
                    continue
                add(hit[0])  # three pieces, joined once per slice: no string made per line
                add(str(n))
                add(hit[1])
                if hit[2] is not None:
                    errors.append(f"{file}:{n}{hit[2]}")
            yield "".join(parts), "".join(errors), len(parts) // 3
