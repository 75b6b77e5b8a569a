"""Rule family: irregularities put right as a table puts them right (I1, I2).

The judges of the irregularities are :func:`.deal.deal_count_fault` (a wrong count, at the deal or shown
later) and :func:`.melding.foul_meld_ruling` (a foul meld); this module applies the remedy the rulebook
prescribes and records it as a :class:`~pancli.model.results.Remedy`, after which the hand goes on:

* I1 at the deal: :func:`remedy_deal` (the extras, the last cards dealt, go to the dead cards;
  a short hand is filled from the stock with cards the record does not show);
* I1 found later and I2 found after the discard: :func:`retire` (the player returns all he
  collected in the hand, his cards are dead, he plays no further turn and still pays others);
* I2 made good or taken back in the player's turn (``mend #N [...]``, ``back #N``): the judges
  and moves are :func:`.melding.verify_mend` and :func:`.melding.apply_mend` (and ``_back``), which
  give back what the foul meld collected (:func:`give_back`) and record it (:func:`settled`);
* the units moved under I1 and I2 (a foul meld's collection, the returns): :func:`transfer`,
  the one function that pays under them.

>>> from pancli.model.actions import HandScript
>>> from pancli.referee.board import Board
>>> b = Board(HandScript(players=("Ana", "Ben")))
>>> p = transfer(b, "Ben", "Ana", 2, True, 9, None, "foul meld, paid on Ben's word")
>>> p.rule, b.ledger.net
('I1', {'Ana': 2, 'Ben': -2})
>>> back = give(b, p, True, 11)
>>> back.payer, back.returned_of, back.note, b.ledger.net
('Ana', 9, 'returned (collected at line 9)', {'Ana': 0, 'Ben': 0})
"""

from __future__ import annotations

from pancli.cards import ALL_CARDS, Card, format_cards
from pancli.model.actions import Add, Deal, MeldNew
from pancli.model.results import (
    DEAD,
    HAND,
    MELD,
    RETURNED,
    Ending,
    Payment,
    Remedy,
    Retirement,
    Source,
    Step,
    Violation,
)
from pancli.model.rulings import counted
from pancli.panrules import LaidMeld
from pancli.referee.board import VOID, Board, Located
from pancli.referee.state import Foul, Seat
from pancli.rulebook import Rule


def transfer(
    b: Board,
    payer: str,
    payee: str,
    units: int,
    i1: bool,
    line: int,
    meld: tuple[Card, ...] | None,
    note: str,
    returned_of: int | None = None,
) -> Payment:
    """``payer`` pays ``payee`` ``units`` under I1 (``i1``) or I2: what the table paid for a foul
    meld on the player's word, or a return of what was collected at line ``returned_of``."""
    return b.ledger.pay(payer, payee, units, (Rule.I1 if i1 else Rule.I2,), line, meld, note, returned_of)


def give(b: Board, p: Payment, i1: bool, line: int) -> Payment:
    """The payee of ``p`` gives it back at ``line`` under I1 (``i1``) or I2 (:func:`transfer`): a
    return, which names the line of the collection returned (:attr:`Payment.returned_of`)."""
    note = f"{RETURNED} (collected at line {p.line})"
    return transfer(b, p.payee, p.payer, p.units, i1, line, p.meld, note, p.line)


def remedy_deal(b: Board, d: Deal, v: Violation) -> Remedy:
    """I1 at the deal, put right by :func:`.deal.apply_deal`: record what was done."""
    n = len(d.cards)
    dealt = b.hand_size
    if n > dealt:
        extra = d.cards[dealt:]
        them = (
            f"card {extra[0]} (the last dealt) goes"
            if len(extra) == 1
            else f"cards {format_cards(extra)} (the last dealt) go"
        )
        what = f"the extra {them} to the dead cards"
    else:
        what = f"{d.player}'s hand is filled from the stock with {counted(dealt - n, 'card')} the record does not show"
    r = Remedy(v, f"{what}; play goes on")
    b.remedies.append(r)
    if b.steps is not None:
        b.steps.append(Step(v.line, v.col, d.player, r, None))
    return r


def lay_foul(
    b: Board,
    a: MeldNew | Add,
    v: Violation,
    pending: bool,
    borrowed: tuple[Card, ...],
    base: LaidMeld | None,
    before: bool,
) -> list[Payment]:
    """A foul meld or addition laid (I2): its cards left the hand (the caller moved them: the
    drawn card among them when ``pending``, the cards ``borrowed`` this turn that it used;
    ``before``: hand cards were melded earlier in the turn) and it is paid what the record says the table paid
    for it (``[%pays N]`` from each of :meth:`Board.payers`, none without a claim), until it is made
    good, taken back or found (:func:`retire`)."""
    s = b.seat
    assert s is not None
    if base is None:
        number = b.meld_count(s) + 1
        foul = Foul(number, v, a.cards, a.cards, pending, None)
    else:
        assert isinstance(a, Add)
        foul = Foul(a.target, v, base.cards + a.cards, a.cards, pending, base)
    foul.before = before
    foul.borrowed = borrowed
    b.fouls.append(foul)
    units = a.claim or 0
    if units > 0:
        note = f"foul {'meld' if base is None else 'addition'}, paid on {s.name}'s word"
        foul.payments = [transfer(b, o.name, s.name, units, False, a.line, a.cards, note) for o in b.payers(s)]
    return foul.payments


def give_back(b: Board, foul: Foul, line: int) -> list[Payment]:
    """I2: what the table paid for ``foul`` goes back to each payer (it is made good or taken back)."""
    return [give(b, p, False, line) for p in foul.payments]


def settled(b: Board, foul: Foul, what: str, returns: list[Payment]) -> Remedy:
    """Record ``foul`` put right in the player's turn (I2: made good or taken back; he goes on)."""
    b.fouls.remove(foul)
    r = Remedy(foul.violation, what, tuple(returns))
    b.remedies.append(r)
    return r


def collected(b: Board, name: str) -> list[Payment]:
    """What ``name`` has collected in the hand and still holds: every payment to him, less
    the returns made to him (a foul meld of another's given back is no collection of his) and
    less what he has already given back (a foul meld of his made good or taken back, I2).

    >>> from pancli.model.actions import HandScript
    >>> from pancli.referee.board import Board
    >>> b = Board(HandScript(players=("Ana", "Ben")))
    >>> paid = transfer(b, "Ben", "Ana", 3, False, 9, None, "foul meld, paid on Ana's word")
    >>> back = give(b, paid, False, 9)
    >>> collected(b, "Ana"), collected(b, "Ben")
    ([], [])
    """
    given_back: dict[tuple[str, int, tuple[Card, ...] | None, int], int] = {}
    for p in b.ledger.payments:
        if p.payer == name and p.returned_of is not None:
            key = (p.payee, p.units, p.meld, p.returned_of)
            given_back[key] = given_back.get(key, 0) + 1
    held: list[Payment] = []
    for p in b.ledger.payments:
        if p.payee != name or p.units <= 0 or p.returned_of is not None:
            continue
        key = (p.payer, p.units, p.meld, p.line)
        if given_back.get(key):
            given_back[key] -= 1
        else:
            held.append(p)
    return held


def retire(b: Board, s: Seat, v: Violation, node: Located) -> Remedy:
    """I1 found after the first draw, I2 found after the discard: ``s`` returns everything he
    collected in the hand (each return citing the rule), his hand and melds are dead, and he
    leaves the turn order until the next deal; he still pays others (:meth:`Board.collect`)."""
    i1 = v.rule == Rule.I1
    line = node.line
    returns = [give(b, p, i1, line) for p in collected(b, s.name)]
    moves: list[tuple[Card, Source, Source]] = []
    for i, n in enumerate(s.hand):
        moves += [(ALL_CARDS[i], HAND, DEAD)] * n
    for m in s.melds:
        moves += [(c, MELD, DEAD) for c in m.cards]
    in_turn = b.seat is s
    for f in (b.fouls if in_turn else []) + s.standing:
        moves += [(c, MELD, DEAD) for c in f.added]
    b.dead += [c for c, src, _ in moves]
    s.hand = [0] * 52
    s.hand_n = s.melded_n = s.unknown = 0
    s.melds = []
    s.fit_mask = -1
    s.retired = Retirement(s.name, v.rule, line)
    b.retirements.append(s.retired)
    s.standing = []
    if in_turn:
        b.fouls = []
    i = b.active.index(s)
    del b.active[i]
    b.retired.append(s)
    # the turn passes on to the player after him (between turns, b.pos is the next to play)
    if b.active and (i < b.pos or (in_turn and i == b.pos)):
        b.pos = (b.pos - 1) % len(b.active)
    elif b.active and b.pos >= len(b.active):
        b.pos = 0
    if not b.active:  # nobody is left to play: the hand is over, won by nobody
        b.end(VOID, Ending.VOID, v.rule)
    total = sum(p.units for p in returns)
    gave = f"returns the {counted(total, 'unit')} collected in the hand" if returns else "had collected nothing"
    what = f"{s.name} {gave}; the cards held and melded are dead; retired from the hand, still paying others"
    r = Remedy(v, what, tuple(returns), True)
    b.remedies.append(r)
    if b.steps is not None:
        b.steps.append(Step(line, node.col, s.name, r, None, tuple(moves), tuple(returns)))
    return r
