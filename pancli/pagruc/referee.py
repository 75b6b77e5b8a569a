"""The PAGRUC referee (G1-G7): one :class:`~pancli.model.actions.HandScript` with
``game=Game.PAGRUC`` in, a :class:`PagrucHandResult` out.

The referee keeps the table as it stands: every hand (the cards known to be in it, and
how many unknown ones when a player has no deal line), the stock (how many cards, and
which ones once the discard pile has been turned over), the discard pile and every meld
with who laid each of its cards. Each play line is checked against the rules:

- G1: 2 to 8 players; one pack for up to 5, two for 6 to 8 (two may serve fewer, with a
  ``Packs`` tag); no card seen more often than the pack holds it (conservation).
- G2: 7 cards to each player, one up card to start the discard pile.
- G3: turns in order of play (the first player after the dealer first, the dealer last); a turn
  starts with ``draw`` or ``take`` (several cards, ``take 3`` or the cards named, only for a
  player who already has a meld on the table), melds or lays off, and ends with one discard.
- G4: every new meld is a run or a set.
- G5: laying off (``lay CARDS on NAME#N``, or ``add CARDS to #N`` on one's own meld) needs a
  meld of one's own on the table and must leave a legal meld; the cards score for the layer.
- G6: the hand ends when a player discards his last card; ``reshuffle`` (only when the stock
  is empty) turns the discard pile under its top card over as the new stock.
- G7: each player's hand score: his cards on the table plus, the cards left in his hand minus.

Each rule is judged by one method of the referee, which raises (or returns) the foul, and
each claim is checked by one (tests/test_one_rule_one_place.py keeps these tables true):

=====  ====================================================================================
rule   the one function that judges it
=====  ====================================================================================
G1     :meth:`_Referee.g1` (players and packs, :func:`.pack.pack_problem`, whose official
       minimum, :func:`.pack.official_problem`, the standings ask; conservation, by the one
       comparison :func:`.pack.beyond_pack`, which :func:`.melds.judge` and scoring ask too;
       within one meld, the verdict of :func:`.melds.judge`)
G2     :meth:`_Referee.g2`
G3     :meth:`_Referee.g3` (at each stage of a line: the line, the seat, the order, the
       actions, a take, the cards held, the end of the turn)
G4     :meth:`_Referee.meld` (the verdict of :func:`.melds.judge`)
G5     :meth:`_Referee.lay` (with :func:`.melds.lay_off`)
G6     :meth:`_Referee.g6`
=====  ====================================================================================

=====  ====================================================================================
claim  the one function that checks it
=====  ====================================================================================
G7     :meth:`_Referee.claim` (``[%pays N]``: the points a meld scores; ``[Ledger]``: the hand
       scores, :func:`.scoring.hand_scores`)
=====  ====================================================================================

In strict mode (the default) the first violation stops the hand. A ``[%pays N]`` claim after
a meld claims the points the meld scores (G7); a ``Ledger`` tag claims each player's hand score.

>>> from pancli.cards import ALL_CARDS, Game
>>> from pancli.model.actions import Add, Deal, Discard, Draw, HandScript, MeldNew, Turn
>>> c = {str(x): x for x in ALL_CARDS}
>>> cards = lambda text: tuple(c[t] for t in text.split())
>>> script = HandScript(
...     players=("Ana", "Ben", "Cy"), game=Game.PAGRUC,
...     deals=(Deal("Ana", cards("5h 6h 7h Ac Ad As Ks")), Deal("Ben", cards("2c 3c 4c 5c 6c 7c 8c")),
...            Deal("Cy", cards("2d 3d 4d 9s 9h Qd Qc"))),
...     upcard=c["Kh"],
...     events=(Turn("Ana", (Draw(c["2s"]), MeldNew(cards("5h 6h 7h")), MeldNew(cards("Ac Ad As")), Discard(c["Ks"]))),
...             Turn("Ben", (Draw(c["Jh"]), MeldNew(cards("2c 3c 4c 5c 6c 7c")), Discard(c["Jh"]))),
...             Turn("Cy", (Draw(c["Jd"]), MeldNew(cards("2d 3d 4d")), Discard(c["Jd"]))),
...             Turn("Ana", (Draw(c["Ts"]), Discard(c["Ts"]))),
...             Turn("Ben", (Draw(c["9c"]), Add(cards("8c"), 1), Discard(c["9c"])))))
>>> r = referee_hand(script)
>>> r.winner, dict(r.scores)
('Ben', {'Ana': 61, 'Ben': 35, 'Cy': -29})
"""

from __future__ import annotations

import contextlib
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, ClassVar, Literal

from msgspec import field
from msgspec.structs import replace

from pancli.cards import Card, Game, format_cards
from pancli.melds import MeldError
from pancli.model.actions import (
    Action,
    Add,
    Deal,
    Decision,
    Discard,
    Draw,
    Event,
    Force,
    HandScript,
    Lay,
    MeldNew,
    Out,
    Reshuffle,
    Take,
    TakeMany,
    Turn,
)
from pancli.model.results import ClaimCheck, ClaimKind, Source, Step, Violation
from pancli.model.rulings import counted
from pancli.pagruc.melds import PagrucMeld, card_points, judge, lay_off
from pancli.pagruc.pack import PagrucPack, beyond_pack, pack_for, pack_problem
from pancli.pagruc.scoring import CardScore, hand_scores
from pancli.rulebook import Rule
from pancli.values import Value

if TYPE_CHECKING:
    from decimal import Decimal

DEAL_SIZE = 7
"""Cards dealt to each player (G2)."""

_PAGRUC_ACTIONS = (Draw, Take, TakeMany, MeldNew, Lay, Add, Discard, Out)
"""The actions of a PAGRUC turn (any other is Panguingue's, G3)."""
_Stage = Literal["line", "seat", "order", "acts", "end", "action", "holds"]
"""Where in a line :meth:`_Referee.g3` judges the turn."""


class TableMeld(Value):
    """A meld on the table at the end of the hand: its owner (who laid it first), its
    number among the owner's melds (1-based, order laid), the meld, and who laid each card."""

    owner: str
    number: int
    meld: PagrucMeld
    laid_by: tuple[tuple[str, Card], ...]
    line: int = 0

    @property
    def label(self) -> str:
        """``Ana#2``: how a record names it in ``lay CARDS on Ana#2``."""
        return f"{self.owner}#{self.number}"


class PagrucHandResult(Value):
    """The referee's result for one PAGRUC hand (a :class:`~pancli.model.results.JudgedHand`).

    ``scores`` maps every player to his hand score (G7), or None when cards left in his hand
    are unknown (no deal line): ``hidden`` says how many. ``cards`` lists each player's card
    contributions: the cards he laid on the table (in the order laid), then the known cards
    left in his hand. ``winner`` is the player who discarded his last card (G6); ``finished``
    is False when the record stops before that. ``violations`` holds at most the first
    violation in strict refereeing (it stops the hand). ``notes`` are plain remarks (an
    unknown hand, an unfinished hand).
    """

    game: ClassVar[Literal[Game.PAGRUC]] = Game.PAGRUC

    players: tuple[str, ...]
    packs: int
    winner: str | None
    finished: bool
    scores: Mapping[str, int | None]
    cards: Mapping[str, tuple[CardScore, ...]]
    table: tuple[TableMeld, ...] = ()
    hands: Mapping[str, tuple[Card, ...]] = field(default_factory=dict)
    hidden: Mapping[str, int] = field(default_factory=dict)
    violations: tuple[Violation, ...] = ()
    claims: tuple[ClaimCheck, ...] = ()
    notes: tuple[str, ...] = ()
    first_line: int = 0
    steps: tuple[Step, ...] = ()

    @property
    def recorded(self) -> tuple[Step, ...]:
        """The steps as recorded: every one a :class:`Step` (:attr:`JudgedHand.recorded`)."""
        return self.steps

    @property
    def dealer(self) -> str:
        """The dealer: the last player in order of play."""
        return self.players[-1]

    @property
    def totals(self) -> Mapping[str, int | None]:
        """The hand scores (:attr:`~pancli.model.results.JudgedHand.totals`)."""
        return self.scores

    @property
    def stake(self) -> Decimal | None:
        """None: PAGRUC scores points, not money."""
        return None

    @property
    def claims_ok(self) -> bool:
        """True when every claim in the record holds."""
        return all(c.ok for c in self.claims)

    @property
    def ok(self) -> bool:
        """No violation and every claim holds."""
        return not self.violations and self.claims_ok

    @property
    def unknown(self) -> tuple[str, ...]:
        """Players whose score cannot be computed: unknown cards are left in their hands."""
        return tuple(p for p in self.players if self.scores.get(p) is None)


class _Foul(Exception):
    """A violation found while applying a line; carries where and why."""

    def __init__(self, rule: Rule, message: str, line: int, col: int, player: str | None) -> None:
        super().__init__(f"{rule} {message}")
        self.violation = Violation(rule, line, col, player, message)


class _Hand:
    """A player's hand: the cards known to be in it, and how many unknown ones."""

    __slots__ = ("hidden", "known")

    def __init__(self, known: list[Card], hidden: int = 0) -> None:
        self.known = known
        self.hidden = hidden

    @property
    def size(self) -> int:
        return len(self.known) + self.hidden


class _LiveMeld:
    """A meld on the table: its owner and number, the meld, who laid which card, its line."""

    __slots__ = ("laid_by", "line", "meld", "number", "owner")

    def __init__(self, owner: str, number: int, meld: PagrucMeld, laid_by: list[tuple[str, Card]], line: int) -> None:
        self.owner = owner
        self.number = number
        self.meld = meld
        self.laid_by = laid_by
        self.line = line


class _Referee:
    """The table during one hand (mutable; one instance per hand)."""

    def __init__(self, script: HandScript, strict: bool, record_steps: bool = True) -> None:
        self.script = script
        self.strict = strict
        self.record_steps = record_steps
        self.players = script.players
        self.pack: PagrucPack = pack_for(len(self.players), _sane_packs(script.packs))
        self.hands: dict[str, _Hand] = {p: _Hand([], DEAL_SIZE) for p in self.players}
        self.melds: dict[str, list[_LiveMeld]] = {p: [] for p in self.players}
        self.order: list[_LiveMeld] = []
        self.contrib: dict[str, list[CardScore]] = {p: [] for p in self.players}
        self.pile: list[Card] = []
        self.stock = 0
        self.stock_known: Counter[Card] | None = None
        self.violations: list[Violation] = []
        self.claims: list[ClaimCheck] = []
        self.notes: list[str] = []
        self.steps: list[Step] = []
        self.winner: str | None = None
        self.ended_line = 0
        self.next_index = 0
        self.turn_no = 0
        self.dealt = False

    # ------------------------------------------------------------------ helpers

    def foul(self, rule: Rule, message: str, line: int, col: int, player: str | None) -> _Foul:
        return _Foul(rule, message, line, col, player)

    def record(self, foul: _Foul) -> bool:
        """Note a violation (with the turn number); True when refereeing stops (strict)."""
        self.violations.append(replace(foul.violation, turn=self.turn_no))
        return self.strict

    def visible(self, c: Card) -> int:
        """Copies of ``c`` whose place is known: known hand cards, melds, the pile, a turned-over stock."""
        n = sum(h.known.count(c) for h in self.hands.values())
        n += sum(m.meld.cards.count(c) for m in self.order)
        n += self.pile.count(c)
        if self.stock_known is not None:
            n += self.stock_known[c]
        return n

    @staticmethod
    def check(foul: _Foul | None) -> None:
        """Raise a judge's foul, if it found one."""
        if foul is not None:
            raise foul

    # ------------------------------------------------------------------ the judges: one per rule

    def g1(
        self,
        line: int,
        col: int,
        player: str | None,
        *,
        seating: bool = False,
        cards: Iterable[Card] = (),
        revealed: Counter[Card] | None = None,
        judged: tuple[str | None, str] | None = None,
    ) -> _Foul | None:
        """G1, players, packs and conservation. With ``seating``: 3 to 8 players with the packs
        for them, each listed once. With ``judged`` (the rule and message of
        :func:`.melds.judge`'s verdict on a new meld, or on a meld laid off on): no card in it
        more often than the pack holds it. Else no card seen more often than the pack
        holds it: ``cards`` just placed (counted where they are), or ``revealed`` cards of an
        unknown hand coming to light (not counted yet)."""
        if judged is not None:
            return self.foul(Rule.G1, judged[1], line, col, player) if judged[0] == Rule.G1 else None
        if seating:
            problem = pack_problem(len(self.players), self.script.packs)
            if problem is not None:
                return self.foul(Rule.G1, problem, line, 1, None)
            if len(set(self.players)) != len(self.players):
                return self.foul(Rule.G1, f"a player is listed twice: {' '.join(self.players)}", line, 1, None)
            return None
        pairs = revealed.items() if revealed is not None else ((c, 0) for c in dict.fromkeys(cards))
        beyond = beyond_pack(self.pack, ((c, self.visible(c) + extra) for c, extra in pairs))
        if beyond is None:
            return None
        c, n, but = beyond
        return self.foul(Rule.G1, f"{n} copies of {c} are in play, {but}", line, col, player)

    def g2(self, d: Deal | None, seen: set[str]) -> _Foul | None:
        """G2, the deal: seven cards to a player of the hand, once (``d``, ``seen`` those dealt
        already); after the deal lines (``d`` None), one card turned up."""
        if d is None:
            if self.script.upcard is None:
                msg = "no up card: one card is turned face up to start the discard pile"
                return self.foul(Rule.G2, msg, self.script.first_line, 1, None)
            return None
        if d.player not in self.hands:
            return self.foul(Rule.G2, f"deal to {d.player}, who is not in this hand", d.line, d.col, d.player)
        if d.player in seen:
            return self.foul(Rule.G2, f"{d.player} is dealt twice", d.line, d.col, d.player)
        if len(d.cards) != DEAL_SIZE:
            msg = f"{d.player} is dealt {counted(len(d.cards), 'card')}, not {DEAL_SIZE}"
            return self.foul(Rule.G2, msg, d.line, d.col, d.player)
        return None

    def g3(
        self,
        node: Event | Action | None,
        line: int,
        col: int,
        player: str,
        stage: _Stage,
        *,
        picked: bool = False,
        discarded: bool = False,
        revealed: Sequence[Card] = (),
    ) -> _Foul | None:
        """G3, the turn, at each ``stage`` of a line: ``"line"`` a line PAGRUC has (no decision,
        no force); ``"seat"`` a turn by a player of the hand; ``"order"`` in order of play;
        ``"acts"`` a turn that does something; ``"end"`` ended by a discard; ``"action"`` one
        take first (``picked``: one was), then melds and lays, the discard last (``discarded``),
        a take of the cards on the pile; ``"holds"`` cards the player holds (``revealed``: those
        not among his known cards)."""
        p = player
        if stage == "line":
            if isinstance(node, Decision | Force):
                what = "staying or going on top" if isinstance(node, Decision) else "forcing"
                return self.foul(Rule.G3, f"{what} is Panguingue, not PAGRUC", line, col, p)
            return None
        if stage == "seat":
            if p not in self.hands:
                return self.foul(Rule.G3, f"{p} is not in this hand (players: {' '.join(self.players)})", line, col, p)
            return None
        if stage == "order":
            expected = self.players[self.next_index]
            return None if p == expected else self.foul(Rule.G3, f"it is {expected}'s turn, not {p}'s", line, col, p)
        if stage == "acts":
            if isinstance(node, Turn) and not node.actions:
                return self.foul(Rule.G3, f"{p} does nothing: a turn is a draw or take, then a discard", line, col, p)
            return None
        if stage == "end":
            return self.foul(Rule.G3, f"{p}'s turn does not end with a discard", line, col, p)
        if stage == "holds":
            if len(revealed) > self.hands[p].hidden:
                return self.foul(Rule.G3, f"{p} does not hold {format_cards(tuple(revealed))}", line, col, p)
            return None
        if discarded and not isinstance(node, Out):
            return self.foul(Rule.G3, "the discard ends the turn", line, col, p)
        pickup = isinstance(node, Draw | Take | TakeMany)
        if pickup and picked:
            return self.foul(Rule.G3, f"{p} takes only once a turn: from the stock or the discard pile", line, col, p)
        if not pickup and not picked:
            msg = "a turn starts by taking the top card of the stock or of the discard pile"
            return self.foul(Rule.G3, msg, line, col, p)
        if not isinstance(node, _PAGRUC_ACTIONS):
            return self.foul(Rule.G3, f"{type(node).__name__.lower()} is Panguingue, not PAGRUC", line, col, p)
        if isinstance(node, Take | TakeMany):
            cards = (node.card,) if isinstance(node, Take) else node.cards
            n = len(cards) or (1 if isinstance(node, Take) else node.count)
            if not self.pile:
                return self.foul(Rule.G3, "the discard pile is empty", line, col, p)
            if n < 1:
                return self.foul(Rule.G3, f"take {n}: take at least one card", line, col, p)
            if n > 1 and not self.has_meld(p):
                msg = f"{p} has no meld on the table yet: only the top discard may be taken"
                return self.foul(Rule.G3, msg, line, col, p)
            if n > len(self.pile):
                msg = f"the discard pile holds only {counted(len(self.pile), 'card')}, not {n}"
                return self.foul(Rule.G3, msg, line, col, p)
            top = self.pile[-n:]
            if cards and Counter(cards) != Counter(top):
                what = "the top discard is" if n == 1 else f"the top {n} discards are"
                return self.foul(Rule.G3, f"{what} {format_cards(top[::-1])}, not {format_cards(cards)}", line, col, p)
        return None

    def claim(self, kind: ClaimKind, line: int, player: str, claimed: int, actual: int, col: int = 1) -> None:
        """G7, a record's claim of points checked: ``[%pays N]`` the points a meld scores,
        ``[Ledger]`` a player's hand score."""
        self.claims.append(ClaimCheck(Rule.G7, kind, line, player, claimed, actual, col))

    def g6(
        self, node: Event | Action, line: int, col: int, player: str | None, *, closing: bool = False
    ) -> _Foul | None:
        """G6, the end of the hand and the stock: no line after the discard of a last card; a
        turn that ends without a discard (``closing``) did not meld its last card; ``out`` only
        with no card left; a draw from a stock that holds the card; ``reshuffle`` only of an
        empty stock, with cards under the top discard."""
        p = player
        if closing:
            if p is not None and self.hands[p].size == 0:
                msg = f"{p} melded the last card in hand: one card is kept to discard, and that discard ends the hand"
                return self.foul(Rule.G6, msg, line, col, p)
            return None
        if isinstance(node, Out):
            if self.winner != p:
                held = self.hands[p].size if p is not None else 0
                return self.foul(Rule.G6, f"{p} says out but still holds {held} card{'s' * (held != 1)}", line, col, p)
            return None
        if isinstance(node, Draw):
            if self.stock == 0:
                msg = "the stock is empty: the discard pile is turned over first (reshuffle)"
                return self.foul(Rule.G6, msg, line, col, p)
            if self.stock_known is not None and self.stock_known[node.card] == 0:
                return self.foul(Rule.G6, f"{node.card} is not in the turned-over stock", line, col, p)
            return None
        if self.winner is not None:
            msg = f"the hand ended at line {self.ended_line} when {self.winner} discarded the last card in hand"
            return self.foul(Rule.G6, msg, line, col, getattr(node, "player", None))
        if isinstance(node, Reshuffle):
            if self.stock > 0:
                holds = counted(self.stock, "card")
                return self.foul(Rule.G6, f"the stock still holds {holds}: it is turned over only when empty",
                                 line, col, None)  # fmt: skip
            if len(self.pile) < 2:
                return self.foul(Rule.G6, "nothing under the top discard to turn over", line, col, None)
        return None

    def step(self, line: int, col: int, player: str | None, event: Event | None, action: Action | None,
             moves: Iterable[tuple[Card, Source, Source]]) -> None:  # fmt: skip
        if self.record_steps:
            self.steps.append(Step(line, col, player, event, action, tuple(moves)))

    def has_meld(self, player: str) -> bool:
        return bool(self.melds[player])

    # ------------------------------------------------------------------ the deal (G1, G2)

    def setup(self) -> None:
        s = self.script
        line = s.first_line
        self.check(self.g1(line, 1, None, seating=True))
        seen: set[str] = set()
        for d in s.deals:
            self.deal(d, seen)
        self.check(self.g2(None, seen))
        assert s.upcard is not None
        self.pile.append(s.upcard)
        self.check(self.g1(s.upcard_line, 1, None, cards=[s.upcard]))
        self.step(s.upcard_line, 1, None, None, None, [(s.upcard, Source.STOCK, Source.DISCARD_PILE)])
        self.stock = self.pack.size - DEAL_SIZE * len(self.players) - 1
        self.dealt = True
        for p in self.players:
            if p not in seen:
                self.notes.append(f"{p} has no deal line: the {DEAL_SIZE} cards dealt are unknown (trusted within G1)")

    def deal(self, d: Deal, seen: set[str]) -> None:
        self.check(self.g2(d, seen))
        seen.add(d.player)
        self.hands[d.player] = _Hand(list(d.cards), 0)
        self.check(self.g1(d.line, d.col, d.player, cards=d.cards))
        self.step(d.line, d.col, d.player, None, None, [(c, Source.DEAL, Source.HAND) for c in d.cards])

    # ------------------------------------------------------------------ play lines

    def play(self) -> None:
        for ev in self.script.events:
            try:
                self.event(ev)
            except _Foul as foul:
                if self.record(foul):
                    return

    def event(self, ev: Event) -> None:
        player = getattr(ev, "player", None)
        self.check(self.g6(ev, ev.line, ev.col, player))
        if isinstance(ev, Reshuffle):
            self.reshuffle(ev)
        elif isinstance(ev, Turn):
            self.turn(ev)
        elif isinstance(ev, Decision | Force):
            self.check(self.g3(ev, ev.line, ev.col, ev.player, "line"))

    def reshuffle(self, ev: Reshuffle) -> None:
        under = self.pile[:-1]
        self.stock_known = Counter(under)
        self.stock = len(under)
        self.pile = self.pile[-1:]
        self.step(ev.line, ev.col, None, ev, None, [(c, Source.DISCARD_PILE, Source.STOCK) for c in under])

    def turn(self, t: Turn) -> None:
        p = t.player
        self.turn_no += 1
        self.check(self.g3(t, t.line, t.col, p, "seat"))
        foul = self.g3(t, t.line, t.col, p, "order")
        if foul is not None and self.record(foul):
            raise _Stop
        self.next_index = (self.players.index(p) + 1) % len(self.players)
        self.check(self.g3(t, t.line, t.col, p, "acts"))
        picked = False
        discarded = False
        for a in t.actions:
            try:
                self.action(t, a, picked, discarded)
            except _Foul as foul:
                if self.record(foul):
                    raise _Stop from None
            picked = True
            discarded = discarded or isinstance(a, Discard)
            if self.winner is not None:
                self.ended_line = a.line or t.line
        if not discarded and self.winner is None:
            self.check(self.g6(t, t.line, t.col, p, closing=True))
            self.check(self.g3(t, t.line, t.col, p, "end"))

    def action(self, t: Turn, a: Action, picked: bool, discarded: bool) -> None:
        p = t.player
        line, col = (a.line or t.line), (a.col or t.col)
        self.check(self.g3(a, line, col, p, "action", picked=picked, discarded=discarded))
        if isinstance(a, Draw):
            self.draw(t, a, line, col)
        elif isinstance(a, Take):
            self.take(t, a, (a.card,), 1, line, col)
        elif isinstance(a, TakeMany):
            self.take(t, a, a.cards, a.count, line, col)
        elif isinstance(a, MeldNew):
            self.meld(t, a, line, col)
        elif isinstance(a, Lay):
            self.lay(t, a, a.cards, a.owner, a.target, line, col)
        elif isinstance(a, Add):
            self.lay(t, a, a.cards, p, a.target, line, col)
        elif isinstance(a, Discard):
            self.discard(t, a, line, col)
        elif isinstance(a, Out):
            self.check(self.g6(a, line, col, p))

    def draw(self, t: Turn, a: Draw, line: int, col: int) -> None:
        p = t.player
        self.check(self.g6(a, line, col, p))
        if self.stock_known is not None:
            self.stock_known[a.card] -= 1
        self.stock -= 1
        self.hands[p].known.append(a.card)
        self.check(self.g1(line, col, p, cards=[a.card]))
        self.step(line, col, p, t, a, [(a.card, Source.STOCK, Source.HAND)])

    def take(self, t: Turn, a: Take | TakeMany, cards: tuple[Card, ...], count: int, line: int, col: int) -> None:
        p = t.player
        n = len(cards) or count  # judged by g3 (a take of the cards on the pile)
        top = self.pile[-n:]
        del self.pile[-n:]
        self.hands[p].known.extend(top)
        self.step(line, col, p, t, a, [(c, Source.DISCARD_PILE, Source.HAND) for c in top])

    def from_hand(self, p: str, cards: tuple[Card, ...], line: int, col: int) -> None:
        """Take ``cards`` out of p's hand (G3: only cards he holds); cards that were unknown
        come to light and must not break conservation (G1)."""
        hand = self.hands[p]
        have = Counter(hand.known)
        revealed: list[Card] = []
        for c in cards:
            if have[c] > 0:
                have[c] -= 1
            else:
                revealed.append(c)
        self.check(self.g3(None, line, col, p, "holds", revealed=revealed))
        self.check(self.g1(line, col, p, revealed=Counter(revealed)))
        for c in cards:
            if c in hand.known:
                hand.known.remove(c)
        hand.hidden -= len(revealed)

    def meld(self, t: Turn, a: MeldNew, line: int, col: int) -> None:
        p = t.player
        v = judge(a.cards, self.pack)
        if v.meld is None:
            why = f"[{format_cards(a.cards)}] is no meld: {v.reason}"
            raise self.g1(line, col, p, judged=(v.rule, why)) or self.foul(Rule.G4, why, line, col, p)
        self.from_hand(p, a.cards, line, col)
        m = _LiveMeld(p, len(self.melds[p]) + 1, v.meld, [(p, c) for c in a.cards], line)
        self.melds[p].append(m)
        self.order.append(m)
        label = f"{p}#{m.number}"
        where = v.meld.where
        self.contrib[p].extend(CardScore(c, where, card_points(c, where), label, line) for c in a.cards)
        if a.claim is not None:
            at = (self.script.claim_cols or {}).get((a.line, a.col), 1)
            self.claim(ClaimKind.PAYS, line, p, a.claim, v.meld.points, at)
        self.step(line, col, p, t, a, [(c, Source.HAND, Source.MELD) for c in a.cards])

    def lay(self, t: Turn, a: Lay | Add, cards: tuple[Card, ...], owner: str, target: int, line: int, col: int) -> None:
        p = t.player
        if not self.has_meld(p):
            raise self.foul(Rule.G5, f"{p} has no meld on the table yet, so may not lay off", line, col, p)
        if owner not in self.melds:
            raise self.foul(Rule.G5, f"{owner} is not in this hand", line, col, p)
        theirs = self.melds[owner]
        if not 1 <= target <= len(theirs):
            has = f"only {len(theirs)} meld{'s' * (len(theirs) != 1)}" if theirs else "no meld"
            raise self.foul(Rule.G5, f"{owner} has {has}, so no {owner}#{target}", line, col, p)
        m = theirs[target - 1]
        try:
            grown = lay_off(m.meld, cards, self.pack)
        except MeldError as exc:
            raise self.g1(line, col, p, judged=(exc.rule, exc.reason)) or self.foul(
                Rule.G5, exc.reason, line, col, p
            ) from None
        self.from_hand(p, cards, line, col)
        m.meld = grown
        m.laid_by.extend((p, c) for c in cards)
        where = grown.where
        label = f"{owner}#{target}"
        self.contrib[p].extend(CardScore(c, where, card_points(c, where), label, line) for c in cards)
        self.step(line, col, p, t, a, [(c, Source.HAND, Source.MELD) for c in cards])

    def discard(self, t: Turn, a: Discard, line: int, col: int) -> None:
        p = t.player
        self.from_hand(p, (a.card,), line, col)
        self.pile.append(a.card)
        self.step(line, col, p, t, a, [(a.card, Source.HAND, Source.DISCARD_PILE)])
        if self.hands[p].size == 0:
            self.winner = p

    # ------------------------------------------------------------------ result (G7)

    def result(self) -> PagrucHandResult:
        scores: dict[str, int | None] = {}
        cards: dict[str, tuple[CardScore, ...]] = {}
        for p in self.players:
            hand = self.hands[p]
            mine = (*self.contrib[p], *hand_scores(hand.known))
            cards[p] = mine
            if not self.dealt:
                scores[p] = None  # stopped at the deal: no hand to score
            elif hand.hidden:
                scores[p] = None
                self.notes.append(
                    f"{p}'s score cannot be computed: {hand.hidden} unknown card{'s' * (hand.hidden != 1)} "
                    "left in hand (no deal line) count minus (G7)"
                )
            else:
                scores[p] = sum(c.points for c in mine)
        finished = self.winner is not None
        if not finished and not self.violations:
            self.notes.append("the hand is not finished: nobody has discarded the last card in hand (G6)")
        claim = self.script.ledger_claim
        if claim is not None and self.violations:
            v = self.violations[0]
            self.notes.append(
                f"the Ledger claim (line {claim.line}) cannot be compared (G7): the hand stopped at line {v.line} "
                f"({v.rule}) before its end"
            )
        elif claim is not None and not finished:
            self.notes.append(f"the Ledger claim (line {claim.line}) cannot be compared (G7): the hand is not finished")
        if claim is not None and finished and not self.violations:
            for p, claimed in claim.units.items():
                actual = scores.get(p)
                if actual is None:
                    self.notes.append(f"the Ledger claim for {p} cannot be checked: his score is unknown")
                else:
                    self.claim(ClaimKind.LEDGER, claim.line, p, claimed, actual)
        return PagrucHandResult(
            players=self.players,
            packs=self.pack.packs,
            winner=self.winner,
            finished=finished,
            scores=scores,
            cards=cards,
            table=tuple(TableMeld(m.owner, m.number, m.meld, tuple(m.laid_by), m.line) for m in self.order),
            hands={p: tuple(h.known) for p, h in self.hands.items()},
            hidden={p: h.hidden for p, h in self.hands.items()},
            violations=tuple(self.violations),
            claims=tuple(self.claims),
            notes=tuple(self.notes),
            first_line=self.script.first_line,
            steps=tuple(self.steps),
        )


class _Stop(Exception):
    """Strict refereeing stops at the first violation."""


def _sane_packs(packs: int | None) -> int | None:
    return packs if packs in (1, 2) else None


def referee_hand(script: HandScript, *, strict: bool = True, record_steps: bool = True) -> PagrucHandResult:
    """Referee one PAGRUC hand (G1-G7). ``script.game`` should be ``Game.PAGRUC``.

    Strict refereeing stops at the first violation; otherwise a line that breaks a rule is
    reported and skipped, and play goes on. ``record_steps=False`` skips the per-action
    :class:`~pancli.model.results.Step` records (as :func:`pancli.referee.referee_hand`).
    """
    if script.game is not Game.PAGRUC:
        raise ValueError("referee_hand: not a PAGRUC hand (use pancli.referee for Panguingue)")
    ref = _Referee(script, strict, record_steps)
    try:
        ref.setup()
    except _Foul as foul:
        ref.record(foul)
        return ref.result()
    with contextlib.suppress(_Stop):
        ref.play()
    return ref.result()
