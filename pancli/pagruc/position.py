"""What a PAGRUC table shows between two lines, and what may be played next: :class:`PagrucNow`,
asked of the referee's own position (:class:`~pancli.pagruc.referee.PagrucTable`) by
:func:`pagruc_now_of`, or of a hand's lines by :func:`pagruc_now`. ``pan live --game pagruc``
words it ("now: ...").

Each answer is the table's own state, a judge of :mod:`~pancli.pagruc.judges` (which asks the
rules object) or a question of the :class:`~pancli.pagruc.rules.PagrucRules` the table was
handed: whose turn (G3's order), the draw (G6: an empty stock is turned over first), the takes
(G3: ``may_take_many``), the melds the player in turn's known hand can lay (G4: ``meld``),
the lay-offs (G5: ``may_lay_off``, ``lay_off``), the card kept to discard (G6:
``kept_card_to_discard``), how the hand ended (G6, or the violation that stopped it). Nothing
here restates a rule: a rules object that answers otherwise changes the answers.

>>> from msgspec.structs import replace
>>> from pancli.cards import ALL_CARDS, Game, format_cards
>>> from pancli.model.actions import Deal, Discard, Draw, HandScript, MeldNew, Turn
>>> c = {str(x): x for x in ALL_CARDS}
>>> cards = lambda text: tuple(c[t] for t in text.split())
>>> script = HandScript(players=("Ana", "Ben", "Cy"), game=Game.PAGRUC, upcard=c["Kh"],
...     deals=(Deal("Ana", cards("5h 6h 7h Ac Ad As Ks")), Deal("Ben", cards("2c 3c 4c 5c 8h 7c 8c"))))
>>> now = pagruc_now(script)
>>> now.phase.value, now.to_act, str(now.top), now.takes, now.may_draw, now.stock
('playing', 'Ana', 'Kh', 1, True, 30)
>>> [format_cards(m) for m in now.lays]
['As Ad Ac', '5h 6h 7h']
>>> turns = (Turn("Ana", (Draw(c["4h"]), MeldNew(cards("4h 5h 6h 7h")), Discard(c["Ks"]))),
...          Turn("Ben", (Draw(c["9c"]), MeldNew(cards("2c 3c 4c 5c")), Discard(c["9c"]))),
...          Turn("Cy", (Draw(c["Jd"]), Discard(c["Jd"]))))
>>> now = pagruc_now(replace(script, events=turns))
>>> now.to_act, now.pile, now.takes, [f"{x.card} on {x.meld}" for x in now.lay_offs], now.keeps_one
('Ana', 4, 4, ['Ac on Ben#1'], True)
"""

from __future__ import annotations

import enum
from itertools import combinations
from typing import TYPE_CHECKING

from pancli.cards import Card
from pancli.model.actions import TakeMany
from pancli.pagruc import judges
from pancli.pagruc.melds import PagrucMeld
from pancli.pagruc.referee import PagrucTable
from pancli.rules import Ending, MeldError
from pancli.values import Value

if TYPE_CHECKING:
    from pancli.model.actions import HandScript
    from pancli.pagruc.pack import PagrucPack
    from pancli.pagruc.rules import PagrucRules

__all__ = ["LayOff", "PagrucNow", "PagrucPhase", "PagrucSeatNow", "pagruc_now", "pagruc_now_of"]


class PagrucPhase(enum.Enum):
    """Where a PAGRUC hand stands between two lines."""

    DEALING = "dealing"
    """The deal is not complete: deal lines and the up card come first (G2)."""
    PLAYING = "playing"
    """The turns (G3-G6)."""
    OVER = "over"
    """A discard of the last card ended it (G6), or a violation stopped it."""


class PagrucSeatNow(Value):
    """One seat as the table shows it: how many cards he holds, the known ones (all of them when
    he has a deal line), and his melds on the table (``Ana#1``, ``Ana#2``... in the order laid)."""

    player: str
    cards: int
    known: tuple[Card, ...]
    unknown: int
    """Cards of his hand the record never showed (no deal line, G1)."""
    melds: tuple[PagrucMeld, ...]


class LayOff(Value):
    """A card of the player in turn's known hand that a meld on the table takes (G5): ``lay CARD
    on Ana#2`` (``meld`` is the meld's label)."""

    card: Card
    meld: str


class PagrucNow(Value):
    """What a PAGRUC table shows after the lines played, and what the player in turn may do
    next (module docstring): the answer ``pan live --game pagruc`` asks for its "now:" line."""

    phase: PagrucPhase
    seats: tuple[PagrucSeatNow, ...]
    to_act: str | None
    """Who plays next (G3: the first player before the first turn); None once the hand is over."""
    turn: int
    """Turns played."""
    stock: int
    top: Card | None
    """The top of the discard pile, which the player in turn may take (G3), or None."""
    pile: int
    """Cards on the discard pile."""
    takes: int
    """G3: the most cards the player in turn may take from the top of the pile (more than one only
    where the rules object's ``may_take_many`` lets him); 0: none."""
    may_draw: bool
    """G6: the stock holds a card to draw."""
    turn_over: bool
    """G6: the stock is empty and the pile under its top card is turned over (a ``reshuffle`` line)."""
    lays: tuple[tuple[Card, ...], ...]
    """New melds his known hand can lay as it stands (G4, by the rules object's ``meld``), the largest first."""
    lay_offs: tuple[LayOff, ...]
    """Cards of his known hand the melds on the table take (G5: ``may_lay_off``, then ``lay_off``)."""
    keeps_one: bool
    """G6: a card is kept to discard: he may not meld or lay off his last card (``kept_card_to_discard``)."""
    winner: str | None
    ending: Ending | None = None
    """How the hand ended, once :attr:`over` (the table's own record: ``OUT``, or ``STOPPED``)."""
    ending_rule: str | None = None
    """The rule it ended under (G6, or the violation's)."""

    @property
    def over(self) -> bool:
        """The hand is over: the next line begins the next hand."""
        return self.phase is PagrucPhase.OVER

    @property
    def dealing(self) -> bool:
        """The deal is not complete: deal lines and the up card come first (G2)."""
        return self.phase is PagrucPhase.DEALING


def pagruc_now(script: HandScript, rules: PagrucRules | None = None) -> PagrucNow:
    """The table after every line of the PAGRUC hand ``script`` (refereed strictly, by ``rules``:
    a fresh :class:`~pancli.pagruc.rules.PagrucRules` without), and what may come next (a hand
    with no up card yet is being dealt, G2)."""
    table = PagrucTable(script, record_steps=False, rules=rules)
    if table.deal_in():
        for ev in script.events:
            if table.push(ev):
                break
    return pagruc_now_of(table)


def pagruc_now_of(table: PagrucTable) -> PagrucNow:
    """What ``table`` shows between two lines, and what may be played next (module docstring)."""
    rules = table.rules
    seats = tuple(
        PagrucSeatNow(p, h.size, tuple(h.known), h.hidden, tuple(m.meld for m in table.melds[p]))
        for p, h in table.hands.items()
    )
    ending: Ending | None = None
    rule: str | None = None
    if table.winner is not None or table.stopped:
        ending, rule = table.ending(table.violations, table.stopped)
        phase = PagrucPhase.OVER
    else:
        phase = PagrucPhase.PLAYING if table.dealt else PagrucPhase.DEALING
    to_act = None if phase is PagrucPhase.OVER else table.players[table.next_index]
    takes = 0
    may_draw = turn_over = False
    lays: tuple[tuple[Card, ...], ...] = ()
    lay_offs: tuple[LayOff, ...] = ()
    if phase is PagrucPhase.PLAYING and to_act is not None:
        takes = _takes(table, to_act)
        may_draw = judges.empty_stock_fault(table, 0, 0, to_act) is None
        turn_over = judges.early_reshuffle_fault(table, 0, 0) is None
        turn_over = turn_over and judges.nothing_to_turn_over_fault(table, 0, 0) is None
        known = table.hands[to_act].known
        lays = _lays(rules, table.pack, known)
        lay_offs = _lay_offs(table, to_act, known)
    return PagrucNow(
        phase=phase,
        seats=seats,
        to_act=to_act,
        turn=table.turn_no,
        stock=table.stock,
        top=table.pile[-1] if table.pile else None,
        pile=len(table.pile),
        takes=takes,
        may_draw=may_draw,
        turn_over=turn_over,
        lays=lays,
        lay_offs=lay_offs,
        keeps_one=not rules.kept_card_to_discard(0),
        winner=table.winner,
        ending=ending,
        ending_rule=rule,
    )


def _takes(table: PagrucTable, player: str) -> int:
    """The most cards ``player`` may take from the top of the pile: each count asked of G3's judge
    of a take (which asks the rules object's ``may_take_many``)."""
    most = 0
    for n in range(1, len(table.pile) + 1):
        if judges.pile_take_fault(table, TakeMany(n), 0, 0, player) is None:
            most = n
    return most


def _lays(rules: PagrucRules, pack: PagrucPack, hand: list[Card]) -> tuple[tuple[Card, ...], ...]:
    """The new melds the cards of ``hand`` can form as ``rules`` judges them (G4), the largest
    first, each once: every set of :attr:`~.PagrucRules.min_meld` cards asked, then each meld
    found grown by one card of the hand at a time (a longer run or set holds a shorter one)."""
    cards = sorted(hand, key=lambda c: c.index)

    def legal(group: tuple[Card, ...]) -> bool:
        return rules.meld(group, pack).meld is not None

    level = {group for group in combinations(cards, rules.min_meld) if legal(group)}
    found = set(level)
    while level:
        grown: set[tuple[Card, ...]] = set()
        for group in level:
            rest = list(cards)
            for c in group:
                rest.remove(c)
            for c in dict.fromkeys(rest):
                bigger = tuple(sorted((*group, c), key=lambda x: x.index))
                if bigger not in found and bigger not in grown and legal(bigger):
                    grown.add(bigger)
        found |= grown
        level = grown
    return tuple(sorted(found, key=lambda m: (-len(m), [c.index for c in m])))


def _lay_offs(table: PagrucTable, player: str, hand: list[Card]) -> tuple[LayOff, ...]:
    """The cards of ``hand`` each meld on the table takes, one card at a time: where G5's judge
    lets ``player`` lay off there (the rules object's ``may_lay_off``) and the rules object's
    ``lay_off`` grows the meld."""
    out: list[LayOff] = []
    for m in table.order:
        if judges.lay_off_fault(table, player, m.owner, m.number, 0, 0) is not None:
            continue
        for c in dict.fromkeys(hand):
            try:
                table.rules.lay_off(m.meld, (c,), table.pack)
            except MeldError:
                continue
            out.append(LayOff(c, m.label))
    return tuple(out)
