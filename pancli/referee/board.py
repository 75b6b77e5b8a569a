"""The state of one Panguingue hand at the table: the seats and the board the rule families
read and change (one module: each module a command loads costs its start-up,
benchmarks/README.md).

The referee's bookkeeping values: seats and the foul melds left lying (the rules object and
the laid melds it values are :mod:`pancli.panrules`'s).

Everything is counted with lists indexed by :attr:`Card.index` (0..51), never deep-copied.

The state of one Panguingue hand (:class:`Board`), shared by the rule families.

A :class:`Board` holds what the table shows (seats, stock, discard pile, the ledger) and the
turn in progress. It judges nothing: each rule family (:mod:`~pancli.referee.play`) reads
and changes it, and :class:`~pancli.referee.table.Table` drives them line by line.

>>> from pancli.model.actions import HandScript
>>> b = Board(HandScript(players=("Ana", "Ben")))
>>> b.phase, b.stock_n, [s.name for s in b.seats]
(<Phase.DECIDING: 'deciding'>, 299, ['Ana', 'Ben'])
"""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING, Final, Protocol

from pancli.cards import Card, Cards, Game
from pancli.melds import OutValue
from pancli.model.actions import Action, Call, Event, HandScript, Turn
from pancli.model.results import (
    STOCK,
    ClaimCheck,
    Ledger,
    PaidFor,
    PanRemark,
    Payment,
    Recorded,
    Remedy,
    Retirement,
    Ruling,
    Source,
    Step,
    Violation,
)
from pancli.panrules import LaidMeld, PanRules, cidx
from pancli.rulebook import Rule
from pancli.rules import Ending

if TYPE_CHECKING:
    from pancli.model.results import Payment, Retirement, Violation

    # (for the type checker only: a Protocol's class costs start-up, and nothing asks isinstance of it)
    class Located(Protocol):
        """Anything with a place in the record (a line, an action, a ``_Place``)."""

        @property
        def line(self) -> int: ...

        @property
        def col(self) -> int: ...


class Foul:
    """A foul meld or addition (I2) of the turn in progress, not made good nor taken back:
    its number (``#N``), the ruling, all its ``cards``, the cards ``added`` by the foul action
    (all of them for a new meld), whether the drawn card is among them (``pending``), the meld
    it grew (``base``, None for a new meld) and what the table paid for it (``payments``)."""

    __slots__ = (
        "added",
        "base",
        "before",
        "borrowed",
        "cards",
        "earlier",
        "later",
        "number",
        "payments",
        "pending",
        "violation",
    )

    def __init__(
        self,
        number: int,
        violation: Violation,
        cards: tuple[Card, ...],
        added: tuple[Card, ...],
        pending: bool,
        base: LaidMeld | None,
    ) -> None:
        self.number = number
        self.violation = violation
        self.cards = cards
        self.added = added
        self.pending = pending
        self.base = base
        self.payments: list[Payment] = []
        self.before = False
        """Whether hand cards were melded in the turn before this foul action (P4)."""
        self.borrowed: tuple[Card, ...] = ()
        """The cards borrowed this turn that the foul action used (M6: taken back, they are
        borrowed cards of the turn again, never hand cards)."""
        self.later = False
        """Whether hand cards were melded after it (P4): taking it back leaves them melded."""
        self.earlier = False
        """Whether it was laid in an earlier turn and left lying because a call of it comes later
        in the record (I2): after the discard it can only be made good, or found at the call."""


class Seat:
    """One seated player's state: hand counts, unknown cards, melds and the decision.

    ``hand`` counts known cards by index; ``unknown`` counts cards the record never showed
    (a player without a deal line): what he lays from them is trusted within P7 and E4.
    """

    __slots__ = (
        "active",
        "fit_mask",
        "hand",
        "hand_n",
        "melded_n",
        "melds",
        "name",
        "retired",
        "size",
        "standing",
        "unknown",
    )

    def __init__(self, name: str, dealt: int) -> None:
        """``dealt``: the cards each player is dealt (the rules object's ``hand_size``), all unseen
        until his deal line shows them."""
        self.name = name
        self.hand: list[int] = [0] * 52
        self.unknown = dealt
        self.hand_n = dealt
        self.melds: list[LaidMeld] = []
        self.fit_mask = 0
        """Cards that fit any of his melds, by :attr:`Card.index` bit (-1: work it out again)."""
        self.melded_n = 0
        self.active: bool | None = None
        """None until the player decides (T1); then True (stayed) or False (went on top)."""
        self.retired: Retirement | None = None
        """How he retired from the hand (I1, I2: the rule and the line), or None: a retired
        player plays no further turn but still pays others."""
        self.size = dealt
        """What his hand and melds hold between turns (P7): ``dealt``, or the number dealt when a wrong
        count at the deal is found only at a count later in the hand (I1)."""
        self.standing: list[Foul] = []
        """His foul melds and additions left lying after his turn because a call of each comes later
        in the record (I2): found at the call, or made good before it."""

    def __deepcopy__(self, memo: dict[int, object]) -> Seat:
        """The seat for a copy of the table (:meth:`pancli.referee.table.Table.snapshot`): its card counts
        and laid melds (never changed once made) copied one level, not number by number as deepcopy walks a
        list (the copy of a table was mostly that walk); the fouls left lying, which change, copied whole."""
        import copy  # start-up: only a table that takes lines back copies its seats (copy is loaded by then)

        new = Seat.__new__(Seat)
        for name in Seat.__slots__:
            setattr(new, name, getattr(self, name))
        for name in ("hand", "melds"):
            held: list[object] = getattr(self, name)
            got = memo.get(id(held))
            if got is None:
                got = memo[id(held)] = held.copy()
            setattr(new, name, got)
        new.standing = copy.deepcopy(self.standing, memo)
        new.retired = copy.deepcopy(self.retired, memo)
        return new

    def fits(self, rules: PanRules, c: Card) -> int:
        """The 1-based number of his first meld that ``c`` can be added to (M5), or 0: the
        table of what fits is :meth:`LaidMeld.fit_mask` (the meld engine's ``grow``), kept
        in :attr:`fit_mask` until his melds change. P8 and P9 ask this."""
        mask = self.fit_mask
        if mask < 0:
            mask = 0
            for m in self.melds:
                mask |= m.fit_mask(rules)
            self.fit_mask = mask
        i = cidx(c)
        if not mask >> i & 1:
            return 0
        for n, m in enumerate(self.melds, 1):
            if m.fit_mask(rules) >> i & 1:
                return n
        return 0  # pragma: no cover - the mask says one fits


# ---------------------------------------------------------------------------
# The state of one Panguingue hand (:class:`Board`), shared by the rule families.

CardMove = tuple[Card, Source, Source]


class Place:
    """A bare (line, col) for rulings on something that is not an action (a dealt card, the upcard)."""

    __slots__ = ("col", "line")

    def __init__(self, line: int, col: int) -> None:
        self.line = line
        self.col = col


class Phase(enum.Enum):
    """Where the hand stands (how it ended, once :attr:`OVER`, is :attr:`Board.ending`)."""

    DECIDING = "deciding"
    """T1: the decision round."""
    PLAYING = "playing"
    OVER = "over"
    """Closed: won (a player went out, C8, I3, or won under T4) or void (T4, P10, I1, I2)."""


# Python 3.11 reads an enum member off its class (``Phase.PLAYING``) through the hook of
# ``EnumType.__getattr__``, far dearer than reading a module name: the judges asked on every
# turn line compare with these names (and with the rules object's answers of how a hand ends).
DECIDING: Final = Phase.DECIDING
PLAYING: Final = Phase.PLAYING
OVER: Final = Phase.OVER
OUT: Final = Ending.OUT
TOPS: Final = Ending.TOPS
VOID: Final = Ending.VOID


class Board:
    """What the table shows and the turn in progress (no rule is judged here)."""

    def __init__(self, script: HandScript, *, record_steps: bool = True, rules: PanRules | None = None) -> None:
        if script.game is not Game.PANGUINGUE:
            raise ValueError(f"not a Panguingue hand: {script.game.value}")
        self.script = script
        self.profile = profile = script.profile
        self.rules = rules if rules is not None else PanRules(profile)
        """The rules object every judge asks (a caller's of many hands, for the profile)."""
        self.players = script.players
        self.hand_size = dealt = self.rules.hand_size
        """The cards dealt to each player (S2), as the rules object says, read once per hand."""
        self.seats = [Seat(n, dealt) for n in script.players]
        self.by_name: dict[str, Seat] = {}
        for s in self.seats:
            self.by_name.setdefault(s.name, s)
        self.copies = self.rules.copies
        self.seen = [0] * 52
        """Copies known to be outside the stock (hands shown, melds, discards, dead, drawn): E4."""
        self.stock_n = sum(self.copies) - dealt * len(self.seats) - 1  # the pack the rules object holds (E1)
        self.pile: list[Card | None] = []
        self.restock: list[int] | None = None
        """After a reshuffle whose dead discards the record shows, the copies of each card (by
        index) left in the new stock (P10); None before, or when a discard was not shown."""
        self.live_ok = False
        """True when the top discard is live for the player in turn (P3)."""
        self.live: Card | None = None
        """The live discard (None with ``live_ok``: an upcard the record did not name)."""
        self.phase = DECIDING
        self.decided = 0
        self.active: list[Seat] = []
        self.pos = 0
        self.turn_no = 0
        self.forced_by: str | None = None
        self.winner: str | None = None
        self.ending: Ending = Ending.UNFINISHED
        """How the hand ended, as the rules object answered where it ends (``ending``: going out,
        P10's reshuffle, the last retirement; ``after_decisions``: the last decision, T4)."""
        self.ending_rule: Rule | None = None
        """The rule it ended under (C8, T4, P10, I1, I2)."""
        self.going_out: OutValue | None = None
        """What going out collected from each opponent (C8), as the rules object decided it."""
        self.ledger = Ledger(script.players)
        self.claims: list[ClaimCheck] = []
        self.remedy = True
        """Put an irregularity right as the rulebook prescribes (I1, I2) and go on; False: it
        is a violation that stops the hand (``--strict``)."""
        self.remedies: list[Remedy] = []
        self.dead: list[Card] = []
        """Known cards out of play that no seat holds: the extras of a deal (I1) and the cards of
        a player who retired (I1, I2). (The hands of players on top stay on their seats.)"""
        self.retired: list[Seat] = []
        """Players retired from the hand (I1, I2): out of the turn order, still paying others."""
        self.retirements: list[Retirement] = []
        """How each of them retired (the rule, the line), in order."""
        self.answering: Call | None = None
        """A call (I2) whose foul meld the next line, ``OTHER mend #N [cards]``, makes good."""
        self.fouls: list[Foul] = []
        """The foul melds and additions (I2) of the turn in progress not yet made good or taken back."""
        self.notes: list[PanRemark] = []
        """What the referee says of the hand besides rulings and claims (a claim it cannot compare)."""
        self.steps: list[Recorded] | None = [] if record_steps else None
        """What is applied, as :class:`~pancli.model.results.HandResult.recorded` holds it."""
        # the turn in progress
        self.turn: Turn | None = None
        self.seat: Seat | None = None
        self.pending: Card | None = None
        self.pending_src: Source = STOCK
        self.pending_used = False
        self.drew = False
        self.hand_melded = False
        self.discarded = False
        self.out = False
        self.must_add = False
        self.borrowed: list[Card] = []
        self.moves: list[CardMove] = []
        """The cards moved by the action being applied (for its :class:`Step`)."""

    def must_reshuffle(self) -> bool:
        """P10: the hand is being played and its stock is empty, so the next draw waits for a
        reshuffle (what the P10 judge, a position and self-play read)."""
        return self.phase is PLAYING and self.stock_n <= 0

    def dead_discards(self) -> int:
        """P10: how many discards a reshuffle makes the new stock (:meth:`reshuffled`)."""
        return max(0, len(self.pile) - 1)

    def reshuffled(self) -> list[Card | None]:
        """P10: the dead discards a reshuffle makes the new stock: the pile but its top card
        (None: an upcard the record did not show)."""
        return self.pile[:-1]

    def reshuffle_ends(self) -> Ending | None:
        """How a reshuffle now would end the hand, as the rules object's ``ending`` answers with
        the :meth:`dead_discards` (P10: with none, it is void), or None: play goes on."""
        return self.rules.ending(len(self.active), dead_discards=self.dead_discards())

    def end(self, ending: Ending, rule: Rule, winner: Seat | None = None) -> None:
        """The hand ends here (:attr:`Phase.OVER`): how (``ending``, as the rules object answered
        it), under which rule, won by ``winner`` (none: void)."""
        self.phase = OVER
        self.ending = ending
        self.ending_rule = rule
        if winner is not None:
            self.winner = winner.name

    def won(self) -> bool:
        """The hand ended won, by going out or under T4 (I3 closes it to every later line)."""
        ending = self.ending
        return ending is OUT or ending is TOPS

    def fail(
        self,
        rule: Rule,
        message: str,
        node: Located | None,
        *,
        player: str | None = None,
        ruling: str | None = None,
        cause: Violation | None = None,
    ) -> Ruling:
        """A ruling citing ``rule`` at ``node``, by ``player`` (default: the player in turn);
        ``cause``: the irregularity put right it follows from."""
        who = player if player is not None else (self.seat.name if self.seat is not None else None)
        return Ruling.make(
            rule,
            who,
            message,
            line=node.line if node is not None else 0,
            col=node.col if node is not None else 0,
            turn=self.turn_no,
            ruling=ruling,
            cause=cause,
        )

    @property
    def in_turn(self) -> Seat:
        """The active player whose turn it is (only while playing)."""
        return self.active[self.pos]

    @property
    def next_seat(self) -> Seat:
        """The active player after the one in turn."""
        return self.active[(self.pos + 1) % len(self.active)]

    @property
    def seat_name(self) -> str:
        """The name of the player in turn (while a turn is in progress)."""
        return self.seat.name if self.seat is not None else "?"

    def step(self, event: Event | None, action: Action | None, node: Located, payments: list[Payment]) -> None:
        """Record what was applied (when steps are recorded), with the cards moved since the last step."""
        steps = self.steps
        if steps is None:
            return
        moves = tuple(self.moves)
        self.moves = []
        player = self.seat.name if self.seat is not None else getattr(event, "player", None)
        steps.append(Step(node.line, node.col, player, event, action, moves, tuple(payments)))

    def retired_by(self, seat: Seat) -> Violation | None:
        """The irregularity (I1, I2) that retired ``seat`` from the hand, or None."""
        if seat.retired is None:
            return None
        return next((r.violation for r in self.remedies if r.retired and r.violation.player == seat.name), None)

    def taken_from_deal(self, seat: Seat, card: Card) -> Violation | None:
        """The wrong count at the deal (I1) put right by taking ``card`` out of ``seat``'s hand
        (an extra dealt, gone to the dead cards), or None."""
        for r in self.remedies:
            v = r.violation
            if v.rule == Rule.I1 and not r.retired and v.player == seat.name:
                d = next((d for d in self.script.deals if d.player == seat.name), None)
                if d is not None and card in d.cards[self.hand_size :]:
                    return v
        return None

    def meld_count(self, seat: Seat) -> int:
        """How many melds the table shows of ``seat``, numbered ``#1``, ``#2``, ... in the order
        laid: his legal melds and his foul new melds lying there, not yet made good, taken back or
        found (I2: the fouls of the turn in progress when he is in turn, else those left standing
        until a call)."""
        fouls = self.fouls if self.seat is seat else seat.standing
        return len(seat.melds) + sum(1 for f in fouls if f.base is None)

    def payers(self, seat: Seat) -> list[Seat]:
        """Who pays ``seat``'s collections (C1..C8, a foul meld's on his word, I2): each active
        opponent, and each player retired from the hand (I1, I2: he still pays others)."""
        out = self.active.copy()
        if seat in out:  # (a seat is equal to itself alone: the list copied, not filtered)
            out.remove(seat)
        if self.retired:
            out += self.retired
        return out

    def collect(
        self,
        seat: Seat,
        units: int,
        rules: tuple[Rule, ...],
        line: int,
        meld: tuple[Card, ...],
        paid_for: PaidFor | None = None,
        target: int | None = None,
    ) -> list[Payment]:
        """Each of :meth:`payers` pays ``seat`` ``units`` under ``rules`` (C1..C8) for what
        ``paid_for`` says (of his meld ``target``: a change); what they come to in all is the
        rules object's ``collected`` (C6-C8), kept on the first payment, and what it differs by
        from their payments is the house's (:meth:`Ledger.collect`)."""
        if units <= 0:
            return []
        payee = seat.name
        meld = Cards(meld)  # (prints as the notation writes it)
        payers = self.payers(seat)
        if not payers:
            return []
        total = self.rules.collected(units, len(payers))
        first, *rest = payers
        out = [Payment(first.name, payee, units, rules, line, meld, paid_for, target, None, total)]
        out += [Payment(o.name, payee, units, rules, line, meld, paid_for, target, None, 0) for o in rest]
        return self.ledger.collect(payee, units, out)
