"""What a referee reports (docs/rules.md): payments, violations, claims, the ledger,
and a per-action event stream with the provenance of every card.

>>> p = Payment(payer="Ben", payee="Ana", units=4, rules=(Rule.C2,), line=12)
>>> p.units, p.rule
(4, 'C2')
>>> Payment("Ben", "Ana", 9, (Rule.C4, Rule.C5), 14).rule
'C4+C5'

The ledger: every payment as it happens (C6-C9, T2) and each seated player's net units.

Every payment moves units from a payer to a payee, so the net always sums to zero.

>>> from pancli.rulebook import Rule
>>> led = Ledger(("Ana", "Ben", "Cruz"))
>>> _ = led.pay("Ben", "Ana", 4, (Rule.C2,), 12)
>>> _ = led.pay("Cruz", "Ana", 4, (Rule.C2,), 12)
>>> led.net
{'Ana': 8, 'Ben': -4, 'Cruz': -4}
>>> led.check()

Rulings: what the rulebook prescribes when a rule is broken (the rule registry, pancli.rulebook).

A referee check that fails raises :class:`Ruling`, which carries the
:class:`~pancli.model.results.Violation` (rule id, player, turn, place, message and
the prescribed ruling). :func:`~pancli.rulebook.prescribed` gives the rulebook's remedy for each rule.

>>> r = Ruling.make(Rule.P3, "Ana", "Ana takes Qd, a dead discard", line=7, col=10, turn=3)
>>> str(r.violation.rule), r.violation.line, r.violation.turn
('P3', 7, 3)
>>> r.violation.ruling.startswith("P3: a card discarded from a hand is dead")
True
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator, Mapping
from decimal import localcontext
from typing import TYPE_CHECKING, ClassVar, Final, Generic, Literal, Protocol, TypeVar

from pancli.cards import Card, Cards, Game
from pancli.model.actions import Action, Deal, Discard, Draw, Event, Turn
from pancli.rulebook import Rule, prescribed
from pancli.rules import Ending, OutValue, house_part
from pancli.values import Value

if TYPE_CHECKING:  # decimal is imported where a stake is read: most commands never need it
    from decimal import Decimal

    from pancli.rulebook import Rule


class PaidFor(enum.Enum):
    """What a payment is for where its rules do not say it all, as the referee decided it
    (:attr:`Payment.paid_for`, with the meld's number in :attr:`Payment.target`); the words are
    render's (:func:`pancli.render.words.payment_note`)."""

    GROWS = "grows"
    """An addition to the payee's meld ``#target`` (C7)."""
    SPLIT = "split"
    """The split of the payee's meld ``#target`` (C7)."""
    BORROW = "borrow"
    """A borrow from the payee's meld ``#target`` (C7)."""
    FOUL_MELD = "foul meld"
    """A foul meld, paid on the payee's word (I2: its ``[%pays N]`` claim)."""
    FOUL_ADDITION = "foul addition"
    """A foul addition, paid on the payee's word (I2)."""
    GOING_OUT = "going out"
    """Going out (C8)."""
    FORFEIT = "forfeit"
    """A forfeit to the winner, who went out (T2)."""
    TOP = "top"
    """A top to the winner, who went out (T2)."""
    FORFEIT_T4 = "forfeit, T4"
    """A forfeit to the winner, all the others having gone on top (T2, T4)."""
    TOP_T4 = "top, T4"
    """A top to the winner, all the others having gone on top (T2, T4)."""


class Payment(Value, gc=False):
    """``payer`` pays ``payee`` ``units`` under ``rules`` for the record line ``line``;
    ``meld`` is the meld concerned, when there is one. Text, numbers and cards only: untracked
    by the collector, as the actions are (:mod:`pancli.model.actions`).

    ``rules`` are ids of the rulebook: a new meld pays under its conditions (C1..C5, both C4
    and C5 for a rope from A to K) or C6 for a meld that is none, a change under C7, going out
    under C8, the forfeits and tops under T2 (docs/rules.md: every payment names its rule).
    """

    payer: str
    payee: str
    units: int
    rules: tuple[Rule, ...]
    line: int
    meld: tuple[Card, ...] | None = None
    """The meld's cards: the referee gives them as :class:`~pancli.cards.Cards` (``str``: ``7s 7s 7c``)."""
    paid_for: PaidFor | None = None
    """What it is for where its rules do not say it all (a change, a foul meld, going out, the
    pot), as the referee decided it; None for a meld laid, and for a return (:attr:`returned_of`)."""
    target: int | None = None
    """The number of the payee's meld a change is made to (``#2``: :attr:`paid_for` GROWS, SPLIT,
    BORROW); None for any other payment."""
    returned_of: int | None = None
    """A return (I1, I2: the payer gives back what he collected): the line of the collection
    returned; None for every other payment."""
    total: int | None = None
    """What the collection this payment opens came to in all, as the rules object's ``collected``
    answered where it was made (C6-C8, :meth:`~pancli.referee.board.Board.collect`); 0 on the
    collection's other payments; None on a payment made on its own (it comes to its ``units``)."""

    @property
    def comes_to(self) -> int:
        """This payment's part of what its moment came to in all (:attr:`total`): summed over a
        collection's payments, the rules object's answer."""
        return self.units if self.total is None else self.total

    @property
    def rule(self) -> str:
        """The rules as output writes them, joined by ``+``: ``C7``, ``C4+C5``."""
        return "+".join(self.rules)


class Violation(Value):
    """A rule broken: where, by whom, and what the rulebook prescribes (``ruling``)."""

    rule: Rule
    line: int
    col: int
    player: str | None
    message: str
    ruling: str = ""
    turn: int = 0
    """The turn number in the hand (1-based; 0 before play: seating, deal, decisions)."""
    cause: Violation | None = None
    """The irregularity put right (I1, I2) that this violation follows from, as the referee found
    it: a retired player's later turn (P1), a card taken out of his deal that he plays (E4); None
    for any other."""


HOUSE: Final = "the house"
"""The house as a party to a collection (no player is so named: a player's name has no space).
What the rules object says a collection comes to (``collected``, C6-C8) beyond what its payers
pay is paid by the house (a house rule's share), and what falls short of it is taken by the
house (a cut): one payment between the house and the collector (:meth:`Ledger.collect`), so the
collector's net is what the collection line says and every unit still moves from one party to
another (C9). Under the rulebook a collection is its payers' payments alone: no such payment."""


def is_return(p: Payment) -> bool:
    """A return of what the payer collected (I1, I2: :attr:`Payment.returned_of`), shown by
    payer, not by payee."""
    return p.returned_of is not None


class Remedy(Value):
    """An irregularity ruled as a table rules it (I1, I2): the ``violation`` found (its rule,
    player and place; a foul meld's engine rule is in its message), the ``remedy`` applied, and
    the ``returns``: what the player gave back, each a payment citing the irregularity's rule
    (also in the hand's payments). Unlike a violation, a remedy does not stop the hand.
    ``retired``: the player takes no further part in the hand (he still pays others)."""

    violation: Violation
    remedy: str
    returns: tuple[Payment, ...] = ()
    retired: bool = False

    @property
    def rule(self) -> Rule:
        """The irregularity's rule (I1 or I2)."""
        return self.violation.rule


class Retirement(Value):
    """A player retired from the hand (I1, I2): ``rule`` is the rule he retired under, ``line``
    where it was found. He plays no further turn and still pays others."""

    player: str
    rule: Rule
    line: int


class ClaimKind(enum.Enum):
    """The claims a record can make and the referee checks."""

    PAYS = "pays"
    """``[%pays N]`` after a meld: each opponent paid N for it."""
    LEDGER = "ledger"
    """``[Ledger "..."]``: each player's net units for the hand."""


class ClaimCheck(Value):
    """One claim and what the referee found. ``rule`` is the rule a wrong claim is reported
    under, set by the judge that checks it: C7 for ``[%pays N]`` (what a meld collects) and
    C9 for ``[Ledger]`` (units) in Panguingue, G7 for either in PAGRUC (points)."""

    rule: Rule
    kind: ClaimKind
    line: int
    player: str | None
    claimed: int
    actual: int
    col: int = 1
    """The column of the ``[%pays N]`` claim on ``line`` (1 for a ``[Ledger]`` tag)."""

    @property
    def ok(self) -> bool:
        """True when the claim holds."""
        return self.claimed == self.actual


class Source(enum.Enum):
    """Where a card came from or went to (provenance, for ``--jsonl``)."""

    DEAL = "deal"
    STOCK = "stock"
    DISCARD_PILE = "discard"
    HAND = "hand"
    MELD = "meld"
    DEAD = "dead"


# Python 3.11 reads an enum member off its class (``Source.STOCK``) through the hook of
# ``EnumType.__getattr__``, far dearer than reading a module name: the referee's per-card
# moves use these names.
DEAL: Final = Source.DEAL
STOCK: Final = Source.STOCK
DISCARD_PILE: Final = Source.DISCARD_PILE
HAND: Final = Source.HAND
MELD: Final = Source.MELD
DEAD: Final = Source.DEAD


Moves = tuple[tuple[Card, Source, Source], ...]
"""The cards an action moved, each as (card, from, to)."""


class Step(tuple[int, int, str | None, Event | Remedy | None, Action | None, Moves, tuple[Payment, ...]]):
    """One applied action (or play line) with its effects, in order: ``line``, ``col``,
    ``player``, ``event`` (the play line; or the :class:`Remedy` applied, I1 and I2, with its
    cards and returns), ``action``, ``moves`` (each card moved: card, from, to) and ``payments``.

    A tuple, as a named tuple would be (callers unpack it: ``line, col, player, ...``), but a
    plain class: a NamedTuple's class costs start-up (benchmarks/README.md, start-up).

    >>> Step(3, 1, "Ana", None, None).moves, Step(3, 1, "Ana", None, None)[:3]
    ((), (3, 1, 'Ana'))
    """

    __slots__ = ()

    def __new__(
        cls,
        line: int,
        col: int,
        player: str | None,
        event: Event | Remedy | None,
        action: Action | None,
        moves: Moves = (),
        payments: tuple[Payment, ...] = (),
    ) -> Step:
        return tuple.__new__(cls, (line, col, player, event, action, moves, payments))

    def __getnewargs__(self) -> tuple[object, ...]:  # pickled and copied field by field, as a named tuple
        return tuple(self)

    @property
    def line(self) -> int:
        return self[0]

    @property
    def col(self) -> int:
        return self[1]

    @property
    def player(self) -> str | None:
        return self[2]

    @property
    def event(self) -> Event | Remedy | None:
        return self[3]

    @property
    def action(self) -> Action | None:
        return self[4]

    @property
    def moves(self) -> Moves:
        return self[5]

    @property
    def payments(self) -> tuple[Payment, ...]:
        return self[6]

    def __repr__(self) -> str:
        return (
            f"Step(line={self[0]!r}, col={self[1]!r}, player={self[2]!r}, event={self[3]!r}, "
            f"action={self[4]!r}, moves={self[5]!r}, payments={self[6]!r})"
        )


Recorded = Step | Turn | Deal
"""What a referee records of each play: a :class:`Step`; or, whole, a plain turn line (``draw C,
discard C``: three turn lines in four) as its :class:`Turn`, which stands for the two steps of
:func:`turn_steps`, and a deal whose every card goes to the hand as its :class:`Deal`, which
stands for :func:`deal_step`. Recording a value the record already holds, one where the turn is
two steps, saves a referee most of the values of a hand (benchmarks/README.md, bench_referee)."""

DEALT: Final = (DEAL, HAND)
"""Where each card of a deal recorded whole goes: from the deal to the hand (:func:`deal_step`)."""


def is_plain_turn(turn: Turn) -> bool:
    """True for a turn line of a draw and the discard of the card drawn (its shape only: whether
    it is legal is the referee's business).

    >>> from pancli.cards import Rank, Suit, card
    >>> c = card(Rank.FIVE, Suit.SPADES)
    >>> is_plain_turn(Turn("Ana", (Draw(c), Discard(c)))), is_plain_turn(Turn("Ana", (Draw(c),)))
    (True, False)
    """
    acts = turn.actions
    return len(acts) == 2 and type(acts[0]) is Draw and type(acts[1]) is Discard and acts[0].card == acts[1].card


def turn_steps(turn: Turn) -> tuple[Step, Step]:
    """The two steps a plain turn line (:func:`is_plain_turn`) recorded whole stands for: the draw
    (the drawn card moves when it is used) and its discard, from the stock to the pile.

    >>> from pancli.cards import Rank, Suit, card
    >>> c = card(Rank.FIVE, Suit.SPADES)
    >>> draw, discard = turn_steps(Turn("Ana", (Draw(c, 9, 5), Discard(c, 9, 13)), line=9))
    >>> draw.action, draw.moves, discard.col, [(str(c), a.value, b.value) for c, a, b in discard.moves]
    (Draw(card=Card('5s'), line=9, col=5), (), 13, [('5s', 'stock', 'discard')])
    """
    d, x = turn.actions
    return (
        Step(d.line, d.col, turn.player, turn, d),
        Step(x.line, x.col, turn.player, turn, x, ((d.card, STOCK, DISCARD_PILE),)),  # type: ignore[union-attr]
    )


def deal_step(deal: Deal) -> Step:
    """The step a deal recorded whole stands for: each card from the deal to the hand (:data:`DEALT`).

    >>> from pancli.cards import Rank, Suit, card
    >>> step = deal_step(Deal("Ana", (card(Rank.FIVE, Suit.SPADES), card(Rank.KING, Suit.HEARTS)), line=4, col=1))
    >>> step.player, step.action, [(str(c), a.value, b.value) for c, a, b in step.moves]
    ('Ana', None, [('5s', 'deal', 'hand'), ('Kh', 'deal', 'hand')])
    """
    dealt, to = DEALT
    return Step(deal.line, deal.col, deal.player, None, None, tuple([(c, dealt, to) for c in deal.cards]))


def each_step(recorded: Iterable[Recorded]) -> Iterator[Step]:
    """Every step of what a referee recorded (a plain turn line as its two :func:`turn_steps`,
    a deal as its :func:`deal_step`)."""
    for s in recorded:
        if isinstance(s, Turn):
            yield from turn_steps(s)
        elif isinstance(s, Deal):
            yield deal_step(s)
        else:
            yield s


class Remark(Value, tag=True):
    """One remark of a referee (either game) besides its rulings and claims: its kind is its
    class, tagged by its name, so a union of kinds travels as MessagePack and comes back as the
    same values; :mod:`pancli.render.words` words it.

    >>> import msgspec
    >>> r = CountRight(14, "Ana", "Ben", 10)
    >>> str(r.rule), msgspec.msgpack.decode(msgspec.msgpack.encode(r), type=PanRemark) == r
    ('I1', True)
    """

    rule: ClassVar[Rule]
    """The rule the remark is made under."""


class CountRight(Remark):
    """I1: ``player`` counted ``counted``'s cards at ``line`` and the count is right: ``cards``
    held (noted; nothing changes)."""

    rule: ClassVar[Rule] = Rule.I1

    line: int
    player: str
    counted: str
    cards: int


class CountNotCompared(Remark):
    """I1: ``player`` counted ``counted``'s cards at ``line``, but they are not written and no
    number is given: nothing to compare."""

    rule: ClassVar[Rule] = Rule.I1

    line: int
    player: str
    counted: str


class ClaimNotCompared(Remark):
    """C9: the Ledger claim at ``line`` cannot be compared: a violation of ``stopped_by`` at
    ``stopped_at`` stopped the hand before its end."""

    rule: ClassVar[Rule] = Rule.C9

    line: int
    stopped_at: int
    stopped_by: Rule


PanRemark = CountRight | CountNotCompared | ClaimNotCompared
"""A Panguingue referee's remark (``HandResult.notes``)."""


class JudgedHand(Protocol):
    """What every referee's result has, whatever the game: :class:`HandResult` (Panguingue)
    and :class:`~pancli.pagruc.referee.PagrucHandResult` (PAGRUC) both are one. ``game``
    tells them apart (a tag: ``result.game is Game.PAGRUC`` narrows the type); the same
    :class:`Violation`, :class:`ClaimCheck` and :class:`Step` types serve both games.

    >>> r: JudgedHand = HandResult(("Ana", "Ben"), "Ana", (), {"Ana": 2, "Ben": -2}, ending=Ending.OUT)
    >>> r.game, r.finished, dict(r.totals)
    (<Game.PANGUINGUE: 'panguingue'>, True, {'Ana': 2, 'Ben': -2})
    """

    @property
    def game(self) -> Game: ...

    @property
    def players(self) -> tuple[str, ...]: ...

    @property
    def winner(self) -> str | None: ...

    @property
    def violations(self) -> tuple[Violation, ...]: ...

    @property
    def claims(self) -> tuple[ClaimCheck, ...]: ...

    @property
    def notes(self) -> tuple[Remark, ...]:
        """What the referee remarks besides rulings and claims (a claim it cannot compare), as
        values (:class:`Remark`; :mod:`pancli.render.words` words them)."""

    @property
    def steps(self) -> tuple[Step, ...]:
        """Every applied action (or play line) with its effects, in order (empty when the
        referee was asked not to record them)."""

    @property
    def recorded(self) -> tuple[Recorded, ...]:
        """:attr:`steps` as the referee recorded them (:data:`Recorded`: a plain turn line whole)."""

    @property
    def totals(self) -> Mapping[str, int | None]:
        """Each player's net for the hand: units paid and collected (Panguingue, sums to
        zero) or the hand score in points (PAGRUC; None when it cannot be computed)."""

    @property
    def stake(self) -> Decimal | None:
        """The money of one unit, when the record names it (Panguingue, C9)."""

    @property
    def ok(self) -> bool:
        """No violation and every claim holds."""

    @property
    def finished(self) -> bool:
        """The hand reached its end (not a record cut off before it)."""


class HandResult(Value):
    """The referee's result for one Panguingue hand (a :class:`JudgedHand`).

    ``ledger`` maps every seated player to net units (always sums to zero).
    ``violations`` holds at most the first violation in strict refereeing (it stops the hand).
    """

    game: ClassVar[Literal[Game.PANGUINGUE]] = Game.PANGUINGUE

    players: tuple[str, ...]
    winner: str | None
    payments: tuple[Payment, ...]
    ledger: Mapping[str, int]
    violations: tuple[Violation, ...] = ()
    claims: tuple[ClaimCheck, ...] = ()
    ending: Ending = Ending.UNFINISHED
    """How the hand ended (a win that stands keeps its ending when a violation follows, I3)."""
    ending_rule: Rule | None = None
    """The rule it ended under: C8, T4, P10, or the rule of the violation that stopped it (None:
    unfinished)."""
    stake: Decimal | None = None
    notes: tuple[PanRemark, ...] = ()
    """What the referee remarks besides rulings and claims (a count found right, a claim it
    cannot compare), as values (:data:`PanRemark`)."""
    recorded: tuple[Recorded, ...] = ()
    """The steps as recorded (:data:`Recorded`; :attr:`steps` has them all)."""
    remedies: tuple[Remedy, ...] = ()
    """The irregularities put right as the rulebook prescribes (I1, I2), in order: the hand
    went on after each (empty when the referee stops at the first irregularity)."""
    retirements: tuple[Retirement, ...] = ()
    """The players retired from the hand (I1, I2), in order, each with the rule he retired under."""
    decisions: tuple[bool | None, ...] = ()
    """Each seat's decision (T1) as the table applied it, in the order of :attr:`players`: True
    stayed, False went on top, None not decided (the hand stopped before it); empty when no
    decision was applied."""
    going_out: OutValue | None = None
    """What going out collected from each active opponent (C8), its bonus and melds apart, as the
    rules object decided it; None when nobody went out. Explaining the C8 payment reads it."""

    @property
    def void(self) -> bool:
        """Nobody won and the hand is over (T4 with everybody on top, or P10)."""
        return self.ending is Ending.VOID

    def retirement(self, player: str) -> Retirement | None:
        """How ``player`` retired from the hand, or None."""
        for r in self.retirements:
            if r.player == player:
                return r
        return None

    @property
    def steps(self) -> tuple[Step, ...]:
        """Every applied action (or play line) with its effects, in order."""
        return tuple(each_step(self.recorded))

    @property
    def claims_ok(self) -> bool:
        """True when every claim in the record holds."""
        return all(c.ok for c in self.claims)

    @property
    def totals(self) -> Mapping[str, int]:
        """The ledger (:attr:`JudgedHand.totals`)."""
        return self.ledger

    @property
    def finished(self) -> bool:
        """The hand reached its end: someone went out (C8), won when all the others went on top
        (T4), or it was void. False for a record that stops before (a cut-off file) or a hand
        stopped by a violation."""
        return self.ending in _FINISHED

    @property
    def ok(self) -> bool:
        """No violation and every claim holds."""
        return not self.violations and self.claims_ok

    def money(self) -> Mapping[str, Decimal] | None:
        """The ledger in money when the record names a stake (C9)."""
        if self.stake is None:
            return None
        return {p: exact_product(self.stake, u) for p, u in self.ledger.items()}


_FINISHED: Final = frozenset((Ending.OUT, Ending.TOPS, Ending.VOID))


def exact_product(stake: Decimal, units: int) -> Decimal:
    """``stake * units`` with every digit kept (the default context rounds to 28 digits).

    >>> from decimal import Decimal
    >>> exact_product(Decimal("12345678901234567890.123456789"), 2)
    Decimal('24691357802469135780.246913578')
    >>> exact_product(Decimal("0.0"), -3)
    Decimal('0.0')
    """
    with localcontext() as ctx:
        ctx.prec = len(stake.as_tuple().digits) + len(str(abs(units))) + 1
        product = stake * units
    return product if product else product.copy_abs()  # no negative zero (a stake of 0 times -3)


# ---------------------------------------------------------------------------
# The ledger: every payment as it happens (C6-C9, T2) and each seated player's net units.


class Ledger:
    """Payments in order and the net units per seated player."""

    __slots__ = ("net", "payments")

    def __init__(self, players: tuple[str, ...]) -> None:
        self.net: dict[str, int] = dict.fromkeys(players, 0)
        self.payments: list[Payment] = []

    def pay(
        self,
        payer: str,
        payee: str,
        units: int,
        rules: tuple[Rule, ...],
        line: int,
        meld: tuple[Card, ...] | None = None,
        paid_for: PaidFor | None = None,
        returned_of: int | None = None,
    ) -> Payment:
        """Record one payment and move the units (payer down, payee up); ``returned_of``: the
        line of the collection it returns (I1, I2)."""
        cards = None if meld is None else Cards(meld)
        p = Payment(payer, payee, units, rules, line, cards, paid_for, None, returned_of)
        self.payments.append(p)
        net = self.net
        net[payer] = net.get(payer, 0) - units
        net[payee] = net.get(payee, 0) + units
        return p

    def collect(self, payee: str, units: int, payments: list[Payment]) -> list[Payment]:
        """Record a collection: payments of ``units`` each to ``payee``, one per payer (as
        :meth:`pay` does one), the first holding what they come to in all (:attr:`Payment.total`,
        the rules object's ``collected``). What that total differs by from the payments is one
        payment more, between :data:`HOUSE` and the payee: the payee gains the total, and the net
        still sums to zero (C9). Returns the payments recorded (the house's last)."""
        net = self.net
        for p in payments:
            net[p.payer] = net.get(p.payer, 0) - units
        first = payments[0]
        share = 0 if first.total is None else house_part(units, len(payments), first.total)
        net[payee] = net.get(payee, 0) + units * len(payments) + share
        if share:  # the house pays it in (share > 0) or takes it (a cut)
            net[HOUSE] = net.get(HOUSE, 0) - share
            by, to = (HOUSE, payee) if share > 0 else (payee, HOUSE)
            house = Payment(
                by, to, abs(share), first.rules, first.line, first.meld, first.paid_for, first.target, None, 0
            )
            payments = [*payments, house]
        self.payments += payments
        return payments

    def check(self) -> None:
        """Assert the ledger's invariant: the net units sum to zero (C9)."""
        total = sum(self.net.values())
        assert total == 0, f"ledger sums to {total}, not zero"


# ---------------------------------------------------------------------------
# Rulings: what the rulebook prescribes when a rule is broken (the rule registry, pancli.rulebook).


class Ruling(Exception):
    """A rule broken: raised by a verify step, caught by the referee loop."""

    def __init__(self, violation: Violation) -> None:
        super().__init__(f"{violation.rule} {violation.message}")
        self.violation = violation

    @classmethod
    def make(
        cls,
        rule: Rule,
        player: str | None,
        message: str,
        *,
        line: int = 0,
        col: int = 0,
        turn: int = 0,
        ruling: str | None = None,
        cause: Violation | None = None,
    ) -> Ruling:
        """A ruling citing ``rule``; ``ruling`` defaults to the rulebook's prescription; ``cause``:
        the irregularity put right it follows from (:attr:`Violation.cause`).

        A ruling on a whole line (a tag, say) with no column is placed at its column 1.
        """
        text = prescribed(rule) if ruling is None else ruling
        return cls(Violation(rule, line, col or (1 if line else 0), player, message, text, turn, cause))


_Result = TypeVar("_Result")
_Remark = TypeVar("_Remark", bound=Remark)


class LinesKept(Generic[_Result, _Remark]):
    """What both games' positions (Panguingue's ``Table``, PAGRUC's ``PagrucTable``) share once
    they keep their lines (``undo``): :meth:`pop` of the last line pushed, :attr:`pushed`, and
    :meth:`result_now`. Each position says how it copies itself (:meth:`snapshot`) and how its
    hand ends (:meth:`finish`); its ``push`` keeps each line with the snapshot before it."""

    undo: list[tuple[Event, dict[str, object]]] | None
    claims: list[ClaimCheck]
    notes: list[_Remark]

    def snapshot(self) -> dict[str, object]:
        """The position as it stands, for :meth:`restore` (the lines kept by ``undo`` are not in it)."""
        raise NotImplementedError

    def finish(self) -> _Result:
        """The hand's result."""
        raise NotImplementedError

    def restore(self, state: dict[str, object]) -> None:
        """Put the position back as :meth:`snapshot` found it (``state`` is used up)."""
        undo = self.undo
        self.__dict__ = state
        self.undo = undo

    def pop(self) -> None:
        """Take back the last line pushed: the position is again exactly as it was before it
        (raises IndexError when no line is kept to take back)."""
        undo = self.undo
        if not undo:
            raise IndexError("no line pushed to take back")
        self.restore(undo.pop()[1])

    @property
    def pushed(self) -> int:
        """How many lines :meth:`pop` can take back."""
        return len(self.undo) if self.undo is not None else 0

    def result_now(self) -> _Result:
        """The result were the hand to end here (:meth:`finish`), the position left as it is."""
        claims, notes = len(self.claims), len(self.notes)
        try:
            return self.finish()
        finally:
            del self.claims[claims:]
            del self.notes[notes:]
