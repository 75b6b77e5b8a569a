"""The JSON exporters: ``--json`` (one object per hand) and ``--jsonl`` (one object per applied
step, with the provenance of each card, then the hand's), for both games, with the fields of
docs/commands.md in their order. Items are msgspec Structs written by :mod:`pancli.jsontext`
as objects of their fields: no dict is built per step."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Final, cast

import msgspec

from pancli.cards import ALL_CARDS, Game, format_cards
from pancli.jsontext import Item
from pancli.model.actions import (
    Add,
    Borrow,
    Call,
    Count,
    Deal,
    Decision,
    Discard,
    Draw,
    Force,
    Lay,
    MeldNew,
    Mend,
    Out,
    Reshuffle,
    Split,
    Take,
    TakeBack,
    TakeMany,
    Turn,
)
from pancli.model.results import (
    DEALT,
    DISCARD_PILE,
    STOCK,
    ClaimCheck,
    Ending,
    Payment,
    Recorded,
    Remedy,
    Source,
    Step,
    Violation,
    each_step,
)
from pancli.notation.record_common import UpLine
from pancli.notation.record_writer import action_text, item_text
from pancli.render.words import MALFORMED_RULING, money_map, pagruc_remark, pan_remark

if TYPE_CHECKING:
    from pancli.app.report import HandReport
    from pancli.notation.layout import RecordHand
    from pancli.pagruc.referee import PagrucHandResult
    from pancli.pagruc.scoring import CardScore


class PaymentItem(Item, omit_defaults=True):
    """The payment fields of docs/commands.md plus ``meld`` and ``note``; a return (I1, I2) adds
    ``returned_of``, the line of the collection it gives back (written only on a return)."""

    payer: str
    payee: str
    units: int
    rule: str
    line: int
    meld: str | None
    note: str
    returned_of: int | None = None


class ViolationItem(Item):
    """The violation fields of docs/commands.md plus ``ruling``, ``turn`` and ``file``."""

    rule: str
    line: int
    col: int
    player: str | None
    message: str
    ruling: str
    turn: int
    file: str


class RemedyItem(ViolationItem):
    """An irregularity put right (I1, I2): the violation fields, ``remedy`` (what was done),
    ``returns`` (payments, also in the hand's ``payments``) and ``retired``."""

    remedy: str
    returns: list[PaymentItem]
    retired: bool


class ViolationEvent(Item):
    """A ``--jsonl`` violation line: the violation's fields after ``event`` and ``hand``."""

    event: str
    hand: int
    rule: str
    line: int
    col: int
    player: str | None
    message: str
    ruling: str
    turn: int
    file: str


class ClaimItem(Item):
    """One claim checked."""

    kind: str
    line: int
    col: int
    player: str | None
    claimed: int
    actual: int
    ok: bool


class HandItem(Item, kw_only=True, omit_defaults=True):
    """One refereed hand as ``pan replay --json`` writes it (docs/commands.md); ``event`` (only
    in ``--jsonl``) first.

    Fields: ``hand players winner ledger payments violations claims_ok`` (the contract)
    and ``file first_line last_line rules void finished ending ending_rule rulings claims stake
    money`` (``ending``: how the hand ended, as the referee recorded it, under ``ending_rule``;
    ``rulings``: the irregularities put right). Money values are decimal strings (exact),
    present when the record names a ``Stake``.
    """

    event: str | None = None
    hand: int
    file: str
    first_line: int
    last_line: int
    game: str
    rules: str
    players: tuple[str, ...]
    winner: str | None
    void: bool
    finished: bool
    ending: Ending
    ending_rule: str | None
    ledger: Mapping[str, int]
    payments: list[PaymentItem]
    violations: list[ViolationItem]
    rulings: list[RemedyItem]
    claims: list[ClaimItem]
    claims_ok: bool
    notes: tuple[str, ...]
    stake: str | None
    money: dict[str, str] | None


class MalformedItem(Item, kw_only=True, omit_defaults=True):
    """A hand that could not be read: its error as the one violation, nothing refereed."""

    event: str | None = None
    hand: int
    file: str
    first_line: int
    last_line: int
    malformed: bool
    players: tuple[str, ...]
    winner: None
    void: bool
    finished: bool
    ledger: dict[str, int]
    payments: tuple[()]
    rulings: tuple[()]
    violations: tuple[ViolationItem]
    claims: tuple[()]
    claims_ok: bool
    notes: tuple[()]
    stake: None
    money: None


def payment_item(p: Payment) -> PaymentItem:
    meld = format_cards(p.meld) if p.meld else None
    return PaymentItem(p.payer, p.payee, p.units, p.rule, p.line, meld, p.note, p.returned_of)


def violation_item(v: Violation, file: str) -> ViolationItem:
    return ViolationItem(v.rule, v.line, v.col, v.player, v.message, v.ruling, v.turn, file)


def remedy_item(r: Remedy, file: str) -> RemedyItem:
    v = r.violation
    returns = [payment_item(p) for p in r.returns]
    return RemedyItem(v.rule, v.line, v.col, v.player, v.message, v.ruling, v.turn, file, r.remedy, returns, r.retired)


def claim_item(c: ClaimCheck) -> ClaimItem:
    return ClaimItem(c.kind.value, c.line, c.col, c.player, c.claimed, c.actual, c.ok)


def hand_item(report: HandReport, event: str | None = None) -> HandItem | PagrucHandItem:
    """The hand's object of ``--json`` (``event`` first in ``--jsonl``), of either game."""
    hand = report.hand
    result = report.result
    if result.game is Game.PAGRUC:
        return pagruc_item(result, hand.index, hand.last_line, hand.file, event)
    file = hand.file
    money = money_map(result)
    return HandItem(
        event=event,
        hand=hand.index,
        file=file,
        first_line=hand.first_line,
        last_line=hand.last_line,
        game=report.script.game.value,
        rules=report.script.profile.name,
        players=result.players,
        winner=result.winner,
        void=result.void,
        finished=result.finished,
        ending=result.ending,
        ending_rule=result.ending_rule,
        ledger=result.ledger,
        payments=[payment_item(p) for p in result.payments],
        violations=[violation_item(v, file) for v in result.violations],
        rulings=[remedy_item(r, file) for r in result.remedies],
        claims=[claim_item(c) for c in result.claims],
        claims_ok=result.claims_ok,
        notes=tuple(map(pan_remark, result.notes)),
        stake=None if result.stake is None else format(result.stake, "f"),
        money=None if money is None else {p: format(m, "f") for p, m in money.items()},
    )


def violation_events(report: HandReport) -> Iterator[ViolationEvent]:
    """The ``violation`` lines ``--jsonl`` writes before a Panguingue hand's object."""
    n, file = report.hand.index, report.hand.file
    for v in report.result.violations:
        yield ViolationEvent("violation", n, v.rule, v.line, v.col, v.player, v.message, v.ruling, v.turn, file)


def malformed_item(hand: RecordHand, event: str | None = None) -> MalformedItem:
    """A hand that could not be read: its error as the one violation, nothing refereed."""
    e = hand.error
    assert e is not None
    error = ViolationItem(e.code, e.line, e.col, None, e.message, MALFORMED_RULING, 0, hand.file)
    return MalformedItem(
        event=event,
        hand=hand.index,
        file=hand.file,
        first_line=hand.first_line,
        last_line=hand.last_line,
        malformed=True,
        players=tuple(hand.players),
        winner=None,
        void=False,
        finished=False,
        ledger={},
        payments=(),
        rulings=(),
        violations=(error,),
        claims=(),
        claims_ok=False,
        notes=(),
        stake=None,
        money=None,
    )


class HandObjects(msgspec.Struct, frozen=True, gc=False, array_like=True):
    """One hand's objects of ``--json`` and ``--jsonl``, in the order they are written
    (:meth:`items`): its steps and its violation lines (``--jsonl``), then its object, which is
    one of ``hand``, ``pagruc`` and ``malformed``. What a ``--jobs`` worker hands back, a hand
    at a time (:class:`~pancli.app.chunks.JudgedChunk`), and what one process writes: the same
    values through the same writer. Never written as JSON itself (its fields apart, not a union:
    msgspec decodes a union of Structs only by a tag, which the items' JSON does not have)."""

    steps: tuple[StepEvent, ...] = ()
    violations: tuple[ViolationEvent, ...] = ()
    hand: HandItem | None = None
    pagruc: PagrucHandItem | None = None
    malformed: MalformedItem | None = None

    def items(self) -> list[Item]:
        """The objects as written, in order."""
        last = self.hand or self.pagruc or self.malformed
        assert last is not None
        if not self.steps and not self.violations:
            return [last]
        return [*self.steps, *self.violations, last]


def hand_objects(report: HandReport, event: str | None = None, steps: bool = False) -> HandObjects:
    """A refereed hand's objects: ``--json``'s (its object), or with ``steps`` ``--jsonl``'s
    (every applied step, then a Panguingue hand's violations, then its object, ``event`` first)."""
    hand = report.hand
    item = hand_item(report, event)
    moves = tuple(step_events(report.result.recorded, hand.index, hand.file)) if steps else ()
    if type(item) is PagrucHandItem:  # a PAGRUC hand's violations are in its hand object only
        return HandObjects(moves, pagruc=item)
    return HandObjects(moves, tuple(violation_events(report)) if steps else (), cast(HandItem, item))


# --------------------------------------------------------------------------- JSON lines: events with provenance

_KIND: Final[dict[type, str]] = {
    Draw: "draw",
    Take: "take",
    TakeMany: "take",
    MeldNew: "meld",
    Add: "add",
    Lay: "lay",
    Borrow: "borrow",
    Split: "split",
    Mend: "mend",
    TakeBack: "back",
    Discard: "discard",
    Out: "out",
}


def _step_kind_text(step: Step) -> tuple[str, str]:
    """A step's ``event`` and ``text``."""
    action = step.action
    if action is not None:
        return _KIND[type(action)], action_text(action)
    ev = step.event
    if isinstance(ev, Decision):
        return ("stay" if ev.stay else "top"), item_text(ev)
    if isinstance(ev, Force):
        return "force", item_text(ev)
    if isinstance(ev, Reshuffle):
        return "reshuffle", item_text(ev)
    if isinstance(ev, Call):
        return "call", item_text(ev)
    if isinstance(ev, Count):
        return "count", item_text(ev)
    if isinstance(ev, Turn):
        return "out", "out"  # going out seen by the referee (no ``out`` written)
    if isinstance(ev, Remedy):
        return "remedy", f"{ev.rule} {ev.violation.message}: {ev.remedy}"
    if step.player is not None:
        return "deal", item_text(Deal(step.player, tuple(m[0] for m in step.moves)))
    return "up", item_text(UpLine(step.moves[0][0], 0, 0)) if step.moves else "up"


class Move(Item):
    """A card moved by a step: ``card from to`` (deal, stock, discard, hand, meld, dead)."""

    card: str
    from_: Source = msgspec.field(name="from")
    to: Source


class StepEvent(Item):
    """One ``--jsonl`` line of an applied step."""

    event: str
    file: str
    hand: int
    line: int
    col: int
    player: str | None
    text: str
    moves: tuple[Move, ...]
    payments: tuple[PaymentItem, ...]


def step_events(steps: Iterable[Recorded], hand: int, file: str) -> Iterator[StepEvent]:
    """One JSON object per applied step (a plain turn line recorded whole: its two steps,
    :func:`~pancli.model.results.each_step`): ``event`` (draw, take, meld, add, borrow, split,
    discard, out, deal, up, stay, top, force, reshuffle, remedy), ``file hand line col player text``,
    ``moves`` (``card from to``: deal, stock, discard, hand, meld, dead) and ``payments``.

    A drawn card moves when it is used: ``draw`` has no move, and the ``meld``, ``add`` or
    ``discard`` that uses it moves it from ``stock`` (or ``discard`` for a take)."""
    last_out = -1
    for s in steps:
        # the two kinds recorded whole (most of a hand), written straight from the record's values;
        # the same lines as their steps (tests/test_cli_replay.py compares them)
        if type(s) is Turn:
            d, x = s.actions
            i = cast(Draw, d).card.index
            drew, threw = _TURN_TEXT[i]
            player = s.player
            yield StepEvent("draw", file, hand, d.line, d.col or 1, player, drew, (), ())
            yield StepEvent("discard", file, hand, x.line, x.col or 1, player, threw, _DISCARDED[i], ())
            continue
        if type(s) is Deal:
            moves = tuple([_DEALT[c.index] for c in s.cards])
            text = item_text(s)
            yield StepEvent("deal", file, hand, s.line, s.col or 1, s.player, text, moves, ())
            continue
        s = cast(Step, s)
        if s.action is not None and type(s.action) is Out and not s.moves and not s.payments and last_out == s.line:
            continue  # the referee's going out was already reported for this ``out``
        kind, text = _step_kind_text(s)
        if kind == "out":
            last_out = s.line
        yield StepEvent(
            kind,
            file,
            hand,
            s.line,
            s.col or 1,  # a whole line (the upcard's) starts at column 1
            s.player,
            text,
            tuple([Move(c.text, a, b) for c, a, b in s.moves]) if s.moves else (),
            tuple([payment_item(p) for p in s.payments]) if s.payments else (),
        )


def step_events_of_steps(steps: Iterable[Recorded], hand: int, file: str) -> Iterator[StepEvent]:
    """:func:`step_events` of every step expanded first (:func:`~pancli.model.results.each_step`):
    the plain path its shortcut for whole turns and deals is tested against."""
    return step_events(list(each_step(steps)), hand, file)


_DEALT: Final = [Move(c.text, *DEALT) for c in ALL_CARDS]
"""The move of each card (by index) dealt to a hand."""
_DISCARDED: Final = [(Move(c.text, STOCK, DISCARD_PILE),) for c in ALL_CARDS]
"""The moves of a plain turn's discard, by the card's index: from the stock to the pile
(:func:`~pancli.model.results.turn_steps`)."""
_TURN_TEXT: Final = [(action_text(Draw(c)), action_text(Discard(c))) for c in ALL_CARDS]
"""A plain turn's two texts, by the drawn (and discarded) card's index: the record writer's words
(:func:`~pancli.notation.record_writer.action_text`, the one writer of an action), made once."""


# --------------------------------------------------------------------------- PAGRUC


class PagrucViolationItem(Item):
    """The violation object of docs/commands.md: rule, line, col, player, message."""

    rule: str
    line: int
    col: int
    player: str | None
    message: str


class CardItem(Item):
    """One card's contribution: card, where (run, set, hand), points, meld (``Ana#1``), and the
    line where it went down (null for a card left in hand)."""

    card: str
    where: str
    points: int
    meld: str | None
    line: int | None


class LaidOffItem(Item):
    """Who laid off a card on a meld."""

    player: str
    card: str


class TableMeldItem(Item):
    """A meld on the table at the end of a PAGRUC hand."""

    meld: str
    owner: str
    kind: str
    cards: str
    points: int
    laid_by: list[LaidOffItem]
    line: int


class PagrucHandItem(Item, kw_only=True, omit_defaults=True):
    """A refereed PAGRUC hand as one JSON object, with every field of ``pan replay --json``
    for Panguingue (docs/commands.md), so one script reads both games: ``ledger`` is the
    hand score of each player (G7; null when unknown; PAGRUC scores do not sum to zero),
    ``payments`` is empty (nobody pays anybody during a PAGRUC hand); ``scores`` is the same
    map as ``ledger``, ``cards`` each card's contribution."""

    event: str | None = None
    hand: int | None
    first_line: int
    last_line: int | None
    game: str
    players: tuple[str, ...]
    dealer: str
    packs: int
    winner: str | None
    finished: bool
    ending: Ending
    ending_rule: str | None
    ledger: Mapping[str, int | None]
    payments: tuple[()]
    scores: Mapping[str, int | None]
    cards: dict[str, list[CardItem]]
    table: list[TableMeldItem]
    hands: dict[str, str]
    hidden: dict[str, int]
    violations: list[PagrucViolationItem]
    claims: list[ClaimItem]
    claims_ok: bool
    notes: tuple[str, ...]
    file: str | None


def pagruc_item(
    result: PagrucHandResult,
    hand: int | None = None,
    last_line: int | None = None,
    file: str | None = None,
    event: str | None = None,
) -> PagrucHandItem:
    """A refereed PAGRUC hand's object (``file`` last, ``event`` first in ``--jsonl``).

    >>> from pancli.pagruc.referee import PagrucHandResult
    >>> r = PagrucHandResult(("Ana", "Ben", "Cy"), 1, None, False, {"Ana": 0, "Ben": 0, "Cy": None}, {})
    >>> d = pagruc_item(r, 2)
    >>> d.hand, d.game, d.dealer, d.scores["Cy"], d.ledger["Cy"], d.payments
    (2, 'pagruc', 'Cy', None, None, ())
    """
    return PagrucHandItem(
        event=event,
        hand=hand,
        first_line=result.first_line,
        last_line=last_line,
        game=Game.PAGRUC.value,
        players=result.players,
        dealer=result.dealer,
        packs=result.packs,
        winner=result.winner,
        finished=result.finished,
        ending=result.ending,
        ending_rule=result.ending_rule,
        ledger=result.scores,
        payments=(),
        scores=result.scores,
        cards={p: [_card_item(c) for c in result.cards.get(p, ())] for p in result.players},
        table=[
            TableMeldItem(
                m.label,
                m.owner,
                m.meld.kind.value,
                format_cards(m.meld.cards),
                m.meld.points,
                [LaidOffItem(p, str(c)) for p, c in m.laid_by],
                m.line,
            )
            for m in result.table
        ],
        hands={p: format_cards(result.hands.get(p, ())) for p in result.players},
        hidden={p: result.hidden.get(p, 0) for p in result.players},
        violations=[PagrucViolationItem(v.rule, v.line, v.col, v.player, v.message) for v in result.violations],
        claims=[claim_item(c) for c in result.claims],
        claims_ok=result.claims_ok,
        notes=tuple(map(pagruc_remark, result.notes)),
        file=file,
    )


def _card_item(c: CardScore) -> CardItem:
    return CardItem(str(c.card), c.where.value, c.points, c.meld, c.line or None)
