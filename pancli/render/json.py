"""The JSON exporters' hand objects: ``--json`` (one object per hand) and the hand's object of
``--jsonl`` (after its steps, :mod:`pancli.render.json_steps`), for both games, with the fields
of docs/commands.md in their order. Items are msgspec Structs written by :mod:`pancli.jsontext`
as objects of their fields: no dict is built per step."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING

from pancli.cards import Game, format_cards
from pancli.jsontext import Item
from pancli.model.results import ClaimCheck, Payment, Remedy, Violation
from pancli.render.words import MALFORMED_RULING, money_map, pagruc_remark, pan_remark, payment_note
from pancli.rules import Ending

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
    return PaymentItem(p.payer, p.payee, p.units, p.rule, p.line, meld, payment_note(p), p.returned_of)


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
