"""The words every output form uses for a refereed hand: why a payment is made (by rule),
payments of one moment grouped as *collections* ("4 from each of Ben Cruz Dee = 12"), the
ledger in words and money, the hand's outcome, and the referees' remarks (one function per
game, :func:`pan_remark` and :func:`pagruc_remark`, for every output form). A wrong claim and
why a hand is disputed are :mod:`pancli.render.text`'s (``pan settle`` words them without this module).

>>> from pancli.model.results import Payment, HandResult
>>> from pancli.rulebook import Rule
>>> ps = (Payment("Ben", "Ana", 4, (Rule.C2,), 9), Payment("Cruz", "Ana", 4, (Rule.C2,), 9))
>>> [str(c) for c in collections(ps)]
['Ana C2: 4 from each of Ben Cruz = 8']
>>> r = HandResult(("Ana", "Ben", "Cruz"), "Ana", ps, {"Ana": 8, "Ben": -4, "Cruz": -4})
>>> ledger_text(r.ledger)
'Ana +8, Ben -4, Cruz -4'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

from pancli.cards import Card, Game, format_cards
from pancli.model.results import (
    HOUSE,
    ClaimNotCompared,
    CountNotCompared,
    CountRight,
    HandResult,
    PaidFor,
    Payment,
    is_return,
)
from pancli.notation.record_common import ledger_value
from pancli.rules import Ending, counted
from pancli.values import Value

if TYPE_CHECKING:
    from decimal import Decimal

    from pancli.melds import OutValue
    from pancli.model.results import PanRemark
    from pancli.pagruc.referee import PagrucHandResult, PagrucRemark

WHY: Final[dict[str, str]] = {
    "C1": "valle set, different suits",
    "C2": "valle set, one suit",
    "C3": "non-valle set, one suit",
    "C4": "rope with the ace",
    "C5": "rope with the king",
    "C6": "value as laid",
    "C7": "the meld's value grows",
    "C8": "going out",
    "T2": "forfeits and tops",
    "T4": "all the others went on top",
    "P10": "void hand: returned",
    "I1": "wrong count: collections returned",
    "I2": "foul meld: collections returned",
}
"""Why a payment is made, by rule id (docs/rules.md)."""

_NOTES: Final[dict[PaidFor, str]] = {
    PaidFor.GROWS: "#{target} grows",
    PaidFor.SPLIT: "split #{target}",
    PaidFor.BORROW: "borrow from #{target}",
    PaidFor.FOUL_MELD: "foul meld, paid on {payee}'s word",
    PaidFor.FOUL_ADDITION: "foul addition, paid on {payee}'s word",
    PaidFor.GOING_OUT: "going out",
    PaidFor.FORFEIT: "forfeit; went out",
    PaidFor.TOP: "top; went out",
    PaidFor.FORFEIT_T4: "forfeit; T4: all the others went on top",
    PaidFor.TOP_T4: "top; T4: all the others went on top",
}
"""What a payment is for, in words, by what the referee recorded (:func:`payment_note`)."""

MALFORMED_RULING: Final = "the hand cannot be read: it is not refereed; the next hand is read normally"


def why(rule: str) -> str:
    """The reason behind a payment rule (``C4+C5`` names both).

    >>> why("C4+C5"), why("C2")
    ('rope with the ace and the king', 'valle set, one suit')
    """
    text = WHY.get(rule)
    if text is not None:
        return text
    if rule == "C4+C5":
        return "rope with the ace and the king"
    return " + ".join(WHY.get(r, r) for r in rule.split("+"))


def payment_note(p: Payment) -> str:
    """What ``p`` is for, in words, where its rules do not say it all (``--json``'s ``note``, and a
    collection's reason): ``#1 grows``, ``foul meld, paid on Ana's word``, ``returned (collected
    at line 9)``; ``""`` for a meld laid.

    >>> from pancli.rulebook import Rule
    >>> payment_note(Payment("Ben", "Ana", 2, (Rule.C7,), 9, None, PaidFor.GROWS, 1))
    '#1 grows'
    >>> payment_note(Payment("Ana", "Ben", 2, (Rule.I2,), 12, None, returned_of=9))
    'returned (collected at line 9)'
    """
    if p.returned_of is not None:
        return f"returned {_collected_at(p.returned_of)}"
    kind = p.paid_for
    return "" if kind is None else _NOTES[kind].format(target=p.target, payee=p.payee)


def ledger_text(ledger: Mapping[str, int]) -> str:
    """``Ana +8, Ben -4`` in seating order: the form a ``Ledger`` tag reads back."""
    return ledger_value(ledger)


def money_map(result: HandResult) -> dict[str, Decimal] | None:
    """The ledger in money (C9), or None without a stake."""
    money = result.money()
    return None if money is None else dict(money)


class Collection(Value):
    """Payments made at one moment for one reason: ``payee`` collects ``units`` from each payer."""

    payee: str
    rule: str
    line: int
    units: int
    payers: tuple[str, ...]
    meld: tuple[Card, ...] | None = None
    note: str = ""
    returned_of: int | None = None
    """A return (I1, I2): the line of the collection given back (``payee`` is the player who
    gives back, ``payers`` those he pays); None for a collection."""
    total: int = 0
    """Units collected (or given back) in all, as the payments say (:attr:`Payment.comes_to`:
    the rules object's ``collected`` for a collection, C6-C8)."""
    house: int = 0
    """What :data:`~pancli.model.results.HOUSE` paid into the collection (negative: what it
    took), as its payment says; 0 under the rulebook."""

    @property
    def returned(self) -> bool:
        """A return (I1, I2): :attr:`returned_of` is set."""
        return self.returned_of is not None

    @property
    def verb(self) -> str:
        """``collects``, or ``returns`` for a return."""
        return "returns" if self.returned else "collects"

    def what(self, going_out: OutValue | None = None) -> str:
        """What was paid for and why: ``[5s 5s 5s] valle set, one suit``; with the hand's
        ``going_out`` (:attr:`HandResult.going_out`), going out (C8) is split into the bonus and
        the melds again, as the referee decided them."""
        note = self.note if self.returned_of is None else _collected_at(self.returned_of)
        return _what(self.rule, self.meld, note, going_out)

    def reason(self, going_out: OutValue | None = None) -> str:
        """The rule, then :meth:`what`: ``C2 [5s 5s 5s] valle set, one suit``."""
        return f"{self.rule} {self.what(going_out)}"

    def amounts(self) -> str:
        """``4 from each of Ben Cruz = 8`` (or ``2 from Ben``; a return: ``4 to each of ...``)."""
        return _amounts(self.units, list(self.payers), self.total, "to" if self.returned else "from", self.house)

    def __str__(self) -> str:
        return f"{self.payee} {self.rule}: {self.amounts()}"  # (a return: the player who gives back)


def _what(rule: str, meld: tuple[Card, ...] | None, note: str, going_out: OutValue | None) -> str:
    """:meth:`Collection.what` of its fields."""
    if rule == "C8" and going_out is not None:
        bonus, again = going_out.bonus, going_out.melds
        tail = f"going out: bonus {bonus} + melds again {again}" if again else f"going out: bonus {bonus}"
    else:
        tail = note or why(rule)
    return f"[{format_cards(meld)}] {tail}" if meld else tail


def _collected_at(line: int) -> str:
    """What a return (I1, I2) is for: ``(collected at line 28)``."""
    return f"(collected at line {line})"


def _amounts(units: int, payers: list[str], total: int, way: str = "from", house: int = 0) -> str:
    """:meth:`Collection.amounts` of its fields (``way`` "to": what a player returns to each);
    ``house``: what the house paid in (``and 4 from the house``) or took (``less 2 to the house``)."""
    if not house:
        if len(payers) == 1:
            return f"{units} {way} {payers[0]}"
        return f"{units} {way} each of {' '.join(payers)} = {total}"
    each = f"{units} {way} {payers[0]}" if len(payers) == 1 else f"{units} {way} each of {' '.join(payers)}"
    share = f"and {house} from the house" if house > 0 else f"less {-house} to the house"
    return f"{each} {share} = {total}"


def _house_share(p: Payment, payee: str, line: int) -> int:
    """What ``p`` moves into (positive) or out of (negative) the collection of ``payee`` at
    ``line`` when it is that collection's payment with the house (:meth:`Ledger.collect`), else 0."""
    if p.line != line or p.returned_of is not None:
        return 0
    if p.payer == HOUSE and p.payee == payee:
        return p.units
    if p.payee == HOUSE and p.payer == payee:
        return -p.units
    return 0


def _same_return(q: Payment, p: Payment) -> bool:
    """``q`` is one more return of the moment of ``p`` (same payer, rule, line, units, meld, and
    of the same collection)."""
    return (
        q.payer == p.payer
        and q.rules == p.rules
        and q.line == p.line
        and q.units == p.units
        and q.returned_of == p.returned_of
        and q.paid_for is p.paid_for
        and q.target == p.target
        and q.meld == p.meld
    )


def collection_lines(payments: Sequence[Payment], going_out: OutValue | None) -> list[str]:
    """The plain-text lines of :func:`collections` (``  line 9: Ana collects C2 ...``), built
    without the Collection objects (the batch path)."""
    out: list[str] = []
    n = len(payments)
    i = 0
    while i < n:
        p = payments[i]
        payee, rules, line, units, meld, paid_for, target = (
            p.payee,
            p.rules,
            p.line,
            p.units,
            p.meld,
            p.paid_for,
            p.target,
        )
        payers = [p.payer]
        total = p.comes_to
        i += 1
        of = p.returned_of
        if of is not None:  # a return (I1, I2)
            payers = [p.payee]
            while i < n and _same_return(payments[i], p):
                payers.append(payments[i].payee)
                total += payments[i].comes_to
                i += 1
            what = _what(p.rule, meld, _collected_at(of), None)
            out.append(f"  line {line}: {p.payer} returns {p.rule} {what}: {_amounts(units, payers, total, 'to')}")
            continue
        while i < n:
            q = payments[i]
            if (
                q.line != line
                or q.payee != payee
                or q.rules != rules
                or q.units != units
                or q.paid_for is not paid_for
                or q.target != target
                or not (q.meld is meld or q.meld == meld)
                or q.payer == HOUSE
            ):
                break
            payers.append(q.payer)
            total += q.comes_to
            i += 1
        house = _house_share(payments[i], payee, line) if i < n else 0
        if house:  # the house's payment closes the collection it belongs to
            i += 1
        rule = p.rule
        what = _what(rule, meld, payment_note(p), going_out)
        out.append(f"  line {line}: {payee} collects {rule} {what}: {_amounts(units, payers, total, 'from', house)}")
    return out


def collections(payments: Iterable[Payment]) -> list[Collection]:
    """Group consecutive payments of one moment (same payee, rule, line, units, meld, and what
    they are for); a player's returns (I1, I2) of one moment are grouped by him."""
    out: list[Collection] = []
    key: tuple[Any, ...] | None = None
    payers: list[str] = []
    total = 0
    house = 0
    last: Payment | None = None
    for p in payments:
        back = is_return(p)
        if last is not None and not back and not is_return(last):
            share = _house_share(p, last.payee, last.line)
            if share:  # the house's payment closes the collection it belongs to
                house += share
                continue
        k = (p.returned_of, p.payer if back else p.payee, p.rules, p.line, p.units, p.meld, p.paid_for, p.target)
        if k != key:
            if last is not None:
                out.append(_collection(last, payers, total, house))
            key, payers, total, house = k, [], 0, 0
        payers.append(p.payee if back else p.payer)
        total += p.comes_to
        last = p
    if last is not None:
        out.append(_collection(last, payers, total, house))
    return out


def _collection(p: Payment, others: list[str], total: int, house: int = 0) -> Collection:
    """The :class:`Collection` of the moment of ``p``, with the ``others`` who paid (or were paid
    back), what their payments came to in all and what the house paid into it (or took)."""
    note = payment_note(p)
    if is_return(p):
        return Collection(p.payer, p.rule, p.line, p.units, tuple(others), p.meld, note, p.returned_of, total)
    return Collection(p.payee, p.rule, p.line, p.units, tuple(others), p.meld, note, None, total, house)


_VOID_WHY: Final = {"T4": "everybody went on top", "P10": "no card left to draw"}
"""Why a hand is void, by the rule it ended under (else every player left retired, I1 or I2)."""


def parts(result: HandResult) -> dict[str, str]:
    """Each player's part in the hand, as a ledger shows it: ``stayed``, ``went on top`` (each
    decision as the table applied it, T1), ``retired (I2)`` (the rule recorded with the
    retirement), with ``winner`` added; nothing for a decision never applied.

    >>> from pancli.model.results import Retirement
    >>> from pancli.rules import Ending
    >>> from pancli.rulebook import Rule
    >>> r = HandResult(("Ana", "Ben", "Cruz", "Dee"), "Ana", (), {}, ending=Ending.OUT,
    ...                retirements=(Retirement("Cruz", Rule.I2, 19),), decisions=(True, False, True, None))
    >>> parts(r)
    {'Ana': 'stayed, winner', 'Ben': 'went on top', 'Cruz': 'retired (I2)', 'Dee': ''}
    """
    roles = dict.fromkeys(result.players, "")
    for player, d in zip(result.players, result.decisions, strict=False):
        if d is not None:
            roles[player] = "stayed" if d else "went on top"
    for r in result.retirements:
        roles[r.player] = f"retired ({r.rule})"
    if result.winner is not None:
        roles[result.winner] = f"{roles[result.winner]}, winner" if roles.get(result.winner) else "winner"
    return roles


def outcome(result: HandResult) -> str:
    """How the hand ended, in words: the referee's :attr:`~HandResult.ending` and its rule.

    >>> from pancli.rules import Ending
    >>> from pancli.rulebook import Rule
    >>> r = HandResult(("Ana", "Ben"), "Ana", (), {"Ana": 0, "Ben": 0}, ending=Ending.TOPS, ending_rule=Rule.T4)
    >>> outcome(r)
    'Ana wins: all the others went on top (T4)'
    """
    ending = result.ending
    rule = result.ending_rule
    if ending is Ending.STOPPED:
        return "stopped at the first violation: no winner"
    after = "; stopped at the first violation after it (I3)" if result.violations else ""
    if ending is Ending.OUT:
        return f"{result.winner} went out ({rule}){after}"
    if ending is Ending.TOPS:
        return f"{result.winner} wins: all the others went on top ({rule}){after}"
    if ending is Ending.VOID:
        why = _VOID_WHY.get(rule or "", "every player retired")
        return f"void hand ({why}): forfeits and tops returned ({rule})"
    retired = ", ".join(f"{r.player} retired ({r.rule})" for r in result.retirements)
    return f"unfinished: nobody went out ({retired})" if retired else "unfinished: nobody went out"


def notes_text(result: HandResult | PagrucHandResult) -> tuple[str, ...]:
    """The remarks of a hand of either game (``result.notes``) in words, in order."""
    if result.game is Game.PAGRUC:
        return tuple(map(pagruc_remark, result.notes))
    return tuple(map(pan_remark, result.notes))


def _claim_stopped(r: ClaimNotCompared) -> str:
    """A Ledger claim of a hand a violation stopped (C9; PAGRUC's :class:`ClaimStopped`, G7)."""
    return (
        f"the Ledger claim (line {r.line}) cannot be compared ({r.rule}): the hand stopped at line"
        f" {r.stopped_at} ({r.stopped_by}) before its end"
    )


def pan_remark(r: PanRemark) -> str:
    """A Panguingue referee's remark (``HandResult.notes``) in words.

    >>> from pancli.rulebook import Rule
    >>> pan_remark(CountRight(14, "Ana", "Ben", 10))
    'line 14: Ana counts Ben: 10 cards, right (I1): noted'
    >>> pan_remark(ClaimNotCompared(31, 29, Rule.P8))
    'the Ledger claim (line 31) cannot be compared (C9): the hand stopped at line 29 (P8) before its end'
    """
    if isinstance(r, CountRight):
        return f"line {r.line}: {r.player} counts {r.counted}: {r.cards} cards, right ({r.rule}): noted"
    if isinstance(r, CountNotCompared):
        return (
            f"line {r.line}: {r.player} counts {r.counted}, whose cards are not written and no number is given"
            f" ({r.rule}): nothing to compare"
        )
    assert isinstance(r, ClaimNotCompared)
    return _claim_stopped(r)


def pagruc_remark(r: PagrucRemark) -> str:
    """A PAGRUC referee's remark (``PagrucHandResult.notes``) in words.

    >>> from pancli.pagruc.referee import ScoreUnknown
    >>> pagruc_remark(ScoreUnknown("Cy", 1))
    "Cy's score cannot be computed: 1 unknown card left in hand (no deal line) count minus (G7)"
    """
    # start-up: a Panguingue record is written without the PAGRUC engine
    from pancli.pagruc.referee import (
        ClaimNotFinished,
        ClaimScoreUnknown,
        ClaimStopped,
        HandNotFinished,
        NoDealLine,
        ScoreUnknown,
    )

    if isinstance(r, NoDealLine):
        return f"{r.player} has no deal line: the {r.cards} cards dealt are unknown (trusted within {r.rule})"
    if isinstance(r, ScoreUnknown):
        return (
            f"{r.player}'s score cannot be computed: {counted(r.hidden, 'unknown card')} left in hand"
            f" (no deal line) count minus ({r.rule})"
        )
    if isinstance(r, HandNotFinished):
        return f"the hand is not finished: nobody has discarded the last card in hand ({r.rule})"
    if isinstance(r, ClaimStopped):
        return _claim_stopped(r)
    if isinstance(r, ClaimNotFinished):
        return f"the Ledger claim (line {r.line}) cannot be compared ({r.rule}): the hand is not finished"
    assert isinstance(r, ClaimScoreUnknown)
    return f"the Ledger claim for {r.player} cannot be checked: {r.player}'s score is unknown"
