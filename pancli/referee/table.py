"""The Panguingue referee's state machine (RULES.md sections 2-6): a :class:`Table`.

Every play line and every action has a *verify* step, which raises a
:class:`~pancli.model.rulings.Ruling` naming the rule broken, and an *apply* step,
which changes the table, makes the payments due at that moment and records a
:class:`~pancli.model.results.Step` with the provenance of each card moved.
``can_*`` helpers answer the same questions without raising (for the self-play generator).

Interpretations (where the rulebook leaves room):

* Turn order: the active players (those who stayed, T3) in order of play, starting
  with the first active player. A turn by anybody else is a P1 violation.
* A turn is one ``draw`` or ``take`` (P1), then either the discard of the unused stock
  draw (P2; the turn ends and that card is the live discard for the next player, P3),
  or melds, additions, borrows and splits that use the drawn card (P4) followed by the
  discard of a hand card (P5, a dead card) unless the player went out (P7, C8).
  ``out`` is optional; when written it must be true. The P4 gate is judged over the turn:
  hand cards may be laid before the drawn card, but the turn must use it.
* Identical copies are interchangeable: a laid card equal to the drawn card is the drawn
  card; a card not in a known hand "comes from nowhere" and is an E4 violation.
* Forcing (P8): a forced card (``force`` line in ``demand`` mode; any fitting live discard in
  ``automatic`` mode) must be taken and *added* to one of the player's melds; a new meld
  does not satisfy it.
* Borrowed cards (M6) must complete a new meld in the same turn; a borrow or split that
  raises a meld's value collects the change (C7).
* Payments: a new meld pays its condition (rule C1..C5) by each active opponent; a change
  pays C7; going out pays C8; forfeits (``forfeit``, paid by each player who went on top)
  and tops (``ante``, paid by each other seated player) go to the winner under T2 when the
  hand is won (by going out or T4). Nothing is held in the ledger before that, so a void
  hand (T4 with everybody on top, or P10) returns them by never paying them.
* A record that stops before anyone goes out is an unfinished hand: no violation,
  no winner, ``void`` False.
* Non-strict refereeing records each violation and skips the offending action (or the
  whole line, for a line-level violation), then goes on.

>>> from pancli.cards import card, Rank, Suit
>>> from pancli.model.actions import HandScript, Decision
>>> t = Table(HandScript(players=("Ana", "Ben")))
>>> t.play_event(Decision("Ana", True)); t.play_event(Decision("Ben", True))
>>> t.in_turn.name
'Ana'
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import Any, Final

from pancli.cards import ALL_CARDS, Card, Game, format_cards
from pancli.melds import MeldError, Rope
from pancli.model.actions import (
    Action,
    Add,
    Borrow,
    Deal,
    Decision,
    Discard,
    Draw,
    Event,
    Force,
    HandScript,
    MeldNew,
    Out,
    Reshuffle,
    Split,
    Take,
    Turn,
)
from pancli.model.ledger import Ledger
from pancli.model.results import ClaimCheck, ClaimKind, HandResult, Payment, Source, Step, Violation
from pancli.model.rulings import I1_AT_DEAL, I2_FOUL, Ruling, counted
from pancli.model.slots import slot_constructor
from pancli.referee.state import ID_INDEX, Judgements, LaidMeld, Seat, card_key, cidx
from pancli.rulebook import Rule
from pancli.rules import Forcing

MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 15
HAND_SIZE: Final = 10

_STOCK: Final = Source.STOCK
_PILE: Final = Source.DISCARD_PILE
_HAND: Final = Source.HAND
_MELD: Final = Source.MELD
_DEAD: Final = Source.DEAD

Move = tuple[Card, Source, Source]
_NEW_PAYMENT: Final[Callable[..., Payment]] = slot_constructor(Payment) or Payment
_IDX: Final = ID_INDEX


class Phase(enum.Enum):
    """Where the hand stands."""

    DECIDING = "deciding"
    """T1: the decision round."""
    PLAYING = "playing"
    WON = "won"
    """Closed: a player went out (C8, I3) or won under T4."""
    VOID = "void"
    """T4 (everybody on top) or P10 (no card left to draw)."""


class _Plan:
    """Where the cards of a meld action come from (computed by verify, used by apply)."""

    __slots__ = ("borrowed", "hand_need", "hand_total", "pending", "unknown_need", "unseen")

    def __init__(self) -> None:
        self.pending = False
        self.borrowed: list[Card] = []
        self.hand_need: dict[int, int] = {}
        self.hand_total = 0
        self.unknown_need = 0
        self.unseen: dict[int, int] = {}


class Table:
    """The state of one hand, driven line by line: :meth:`play_event` for play lines,
    or :meth:`verify` / :meth:`apply` for single actions inside a turn
    (:meth:`begin_turn` and :meth:`end_turn` around them).

    ``apply(a)`` must follow a successful ``verify(a)`` (it reuses what verify found).
    """

    def __init__(self, script: HandScript, *, record_steps: bool = True) -> None:
        if script.game is not Game.PANGUINGUE:
            raise ValueError(f"not a Panguingue hand: {script.game.value}")
        self.script = script
        self.profile = profile = script.profile
        self.js = Judgements.of(profile)
        self.players = script.players
        self.seats = [Seat(n) for n in script.players]
        self.by_name: dict[str, Seat] = {}
        for s in self.seats:
            self.by_name.setdefault(s.name, s)
        pack = profile.pack
        self.copies = self.js.copies
        self.seen = [0] * 52
        """Copies known to be outside the stock (hands shown, melds, discards, dead, drawn): E4."""
        self.stock_n = pack.size - HAND_SIZE * len(self.seats) - 1
        self.pile: list[Card | None] = []
        self.live_ok = False
        """True when the top discard is live for the player in turn (P3)."""
        self.live: Card | None = None
        """The live discard (None with ``live_ok``: an upcard the record did not name)."""
        self.dead_n = 0
        self.phase = Phase.DECIDING
        self.decided = 0
        self.active: list[Seat] = []
        self.pos = 0
        self.turn_no = 0
        self.forced_by: str | None = None
        self.winner: str | None = None
        self.ledger = Ledger(script.players)
        self.claims: list[ClaimCheck] = []
        self.steps: list[Step] | None = [] if record_steps else None
        self.automatic = profile.forcing is Forcing.AUTOMATIC
        # the turn in progress
        self.turn: Turn | None = None
        self.seat: Seat | None = None
        self.pending: Card | None = None
        self.pending_src: Source = _STOCK
        self.pending_used = False
        self.drew = False
        self.hand_melded = False
        self.discarded = False
        self.out = False
        self.must_add = False
        self.borrowed: list[Card] = []
        self._plan = _Plan()
        self._moves: list[Move] = []
        self._discard_kind = 0
        self._split_added: tuple[Card, ...] = ()
        self._deal_key: tuple[Deal | None, bytes] = (None, b"")

    # ------------------------------------------------------------------ helpers

    def _fail(
        self, rule: str, message: str, node: Any, *, player: str | None = None, ruling: str | None = None
    ) -> Ruling:
        who = player if player is not None else (self.seat.name if self.seat is not None else None)
        return Ruling.make(
            rule,
            who,
            message,
            line=getattr(node, "line", 0),
            col=getattr(node, "col", 0),
            turn=self.turn_no,
            ruling=ruling,
        )

    @property
    def in_turn(self) -> Seat:
        """The active player whose turn it is (only while playing)."""
        return self.active[self.pos]

    @property
    def next_seat(self) -> Seat:
        """The active player after the one in turn."""
        return self.active[(self.pos + 1) % len(self.active)]

    def _step(self, event: Event | None, action: Action | None, node: Any, payments: list[Payment]) -> None:
        steps = self.steps
        if steps is None:
            return
        moves = tuple(self._moves)
        self._moves = []
        player = self.seat.name if self.seat is not None else getattr(event, "player", None)
        steps.append(Step(node.line, node.col, player, event, action, moves, tuple(payments)))

    def _collect(
        self, seat: Seat, units: int, rule: str, line: int, meld: tuple[Card, ...], note: str = ""
    ) -> list[Payment]:
        """Each active opponent of ``seat`` pays ``units`` (C7, C8)."""
        if units <= 0:
            return []
        payee = seat.name
        out = [_NEW_PAYMENT(o.name, payee, units, rule, line, meld, note) for o in self.active if o is not seat]
        self.ledger.collect(payee, units, out)
        return out

    def _check_card(self, c: Card, node: Any, extra: int = 1, player: str | None = None) -> None:
        """E1 and E4 for ``extra`` more copies of ``c`` becoming known."""
        i = cidx(c)
        if self.copies[i] == 0:
            raise self._fail("E1", f"{c} is not in this pack", node, player=player)
        if self.seen[i] + extra > self.copies[i]:
            raise self._fail(
                "E4",
                f"one copy of {c} too many: the pack holds {self.copies[i]} and all are already accounted for",
                node,
                player=player,
            )

    def fits_melds(self, seat: Seat, c: Card) -> int:
        """The 1-based number of ``seat``'s first meld that ``c`` can be added to (M5), or 0."""
        js = self.js
        mask = seat.fit_mask
        if mask < 0:
            mask = 0
            for m in seat.melds:
                mask |= m.fit_mask(js)
            seat.fit_mask = mask
        if not mask >> cidx(c) & 1:
            return 0
        for n, m in enumerate(seat.melds, 1):
            if m.fits(js, c):
                return n
        return 0  # pragma: no cover - the mask says one fits

    # ------------------------------------------------------------------ seating and deal (S1, S2, I1)

    def verify_seating(self) -> None:
        """S1: 2 to 15 players, names unique."""
        names = self.players
        line = self.script.first_line
        if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
            raise Ruling.make(
                "S1", None, f"{counted(len(names), 'player')} seated; Panguingue seats 2 to 15", line=line
            )
        if len(set(names)) != len(names):
            dup = next(n for n in names if names.count(n) > 1)
            raise Ruling.make("S1", dup, f"{dup} is seated twice; each player has one seat", line=line)

    def verify_deal(self, d: Deal) -> None:
        """S1/S2 (a seated player, dealt once) and E1/E4 for the dealt cards; the count is :meth:`verify_deal_count`."""
        s = self.by_name.get(d.player)
        if s is None:
            raise self._fail("S1", f"{d.player} is dealt cards but is not seated", d, player=d.player)
        if s.unknown != HAND_SIZE or s.hand_n != HAND_SIZE or any(s.hand):
            raise self._fail("S2", f"{d.player} is dealt twice", d, player=d.player)
        seen = self.seen
        copies = self.copies
        need: dict[int, int] = {}
        key = card_key(d.cards)
        self._deal_key = (d, key)
        for i in key:
            n = need[i] = need.get(i, 0) + 1
            if seen[i] + n > copies[i]:
                c = ALL_CARDS[i]  # E1 or E4 at the n-th copy of c as written, charged to the dealt player
                j = [k for k, x in enumerate(d.cards) if x == c][n - 1]
                self._check_card(c, _Place(*d.card_place(j)), n, player=d.player)

    def fast_deal(self, d: Deal) -> bool:
        """Verify and apply a deal of ten known cards to a seated player not yet dealt, in one go
        when every check passes (S1, S2, E1, E4, I1); False (nothing changed) sends it through
        :meth:`verify_deal`, :meth:`verify_deal_count` and :meth:`apply_deal`. Bulk replay only."""
        if self.steps is not None or not self.FAST:
            return False
        s = self.by_name.get(d.player)
        if s is None or s.unknown != HAND_SIZE or s.hand_n != HAND_SIZE or len(d.cards) != HAND_SIZE:
            return False
        hand = s.hand  # all zero before the deal (S2): it counts the copies dealt
        if any(hand):
            return False
        key = card_key(d.cards)
        seen = self.seen
        copies = self.copies
        for i in key:
            n = hand[i] = hand[i] + 1
            if seen[i] + n > copies[i]:
                hand[:] = [0] * 52  # as it was: the general path names the card
                return False
        for i in key:
            seen[i] += 1
        s.unknown = 0
        return True

    def verify_deal_count(self, d: Deal) -> None:
        """I1: ten cards to each player (S2)."""
        n = len(d.cards)
        if n != HAND_SIZE:
            raise self._fail(
                "I1",
                f"{d.player} is dealt {counted(n, 'card')}, not {HAND_SIZE}",
                d,
                player=d.player,
                ruling=I1_AT_DEAL,
            )

    def apply_deal(self, d: Deal) -> None:
        """Put the dealt cards in the player's hand; a wrong count is put right as I1 prescribes
        (extras to the dead cards; a short hand filled from the stock with unseen cards)."""
        s = self.by_name[d.player]
        seen = self.seen
        hand = s.hand
        verified, key = self._deal_key
        if verified is not d:
            key = card_key(d.cards)
        for i in key[:HAND_SIZE]:
            seen[i] += 1
            hand[i] += 1
        for i in key[HAND_SIZE:]:
            seen[i] += 1
            self.dead_n += 1
        if self.steps is not None:
            deal = Source.DEAL
            moves = [(c, deal, _HAND) for c in d.cards[:HAND_SIZE]]
            moves += [(c, deal, _DEAD) for c in d.cards[HAND_SIZE:]]
            self.steps.append(Step(d.line, d.col, d.player, None, None, tuple(moves), ()))
        short = max(0, HAND_SIZE - len(d.cards))
        s.unknown = short
        self.stock_n -= short
        s.hand_n = HAND_SIZE

    def verify_upcard(self) -> None:
        """E1/E4 for the upcard (S2)."""
        up = self.script.upcard
        if up is not None:
            node = _Place(self.script.upcard_line, self.script.upcard_col)
            self._check_card(up, node)

    def apply_upcard(self) -> None:
        """The upcard starts the discard pile and is live for the first player to act (S2, P3)."""
        up = self.script.upcard
        self.pile.append(up)
        if up is not None:
            self.seen[cidx(up)] += 1
            if self.steps is not None:
                self.steps.append(Step(self.script.upcard_line, 0, None, None, None, ((up, _STOCK, _PILE),), ()))

    # ------------------------------------------------------------------ play lines

    def play_event(self, ev: Event) -> None:
        """Verify and apply one play line (a turn as a whole); raises Ruling."""
        if isinstance(ev, Turn):
            self.verify_turn(ev)
            self.begin_turn(ev)
            for a in ev.actions:
                self.verify(a)
                self.apply(a)
            self.verify_turn_end()
            self.end_turn()
            return
        self.verify_event(ev)
        self.apply_event(ev)

    def _verify_playing(self, node: Any, player: str | None) -> None:
        if self.phase is Phase.WON:
            raise self._fail("I3", f"the hand is closed: {self.winner} has won it", node, player=player)
        if self.phase is Phase.VOID:
            raise self._fail("P10", "the hand is void: nothing more is played", node, player=player)
        if self.phase is Phase.DECIDING:
            who = self.seats[self.decided].name
            raise self._fail(
                "T1", f"play before the decision round is over ({who} has not decided)", node, player=player
            )

    def verify_event(self, ev: Event) -> None:
        """Verify a decision, a ``force`` or a ``reshuffle`` line."""
        if isinstance(ev, Decision):
            if self.phase is not Phase.DECIDING:
                if self.phase is Phase.WON:
                    raise self._fail("I3", f"the hand is closed: {self.winner} has won it", ev, player=ev.player)
                raise self._fail("T1", f"{ev.player} decides after the decision round", ev, player=ev.player)
            if ev.player not in self.by_name:
                raise self._fail("S1", f"{ev.player} is not seated", ev, player=ev.player)
            expected = self.seats[self.decided].name
            if ev.player != expected:
                raise self._fail(
                    "T1", f"{expected} decides next in order of play, not {ev.player}", ev, player=ev.player
                )
        elif isinstance(ev, Force):
            self._verify_playing(ev, ev.player)
            self._verify_force(ev)
        elif isinstance(ev, Reshuffle):
            self._verify_playing(ev, None)
            if self.stock_n > 0:
                raise self._fail("P10", f"reshuffle while the stock still holds {counted(self.stock_n, 'card')}", ev)
        else:  # pragma: no cover - Turn goes through play_event
            raise TypeError(type(ev).__name__)

    def apply_event(self, ev: Event) -> None:
        """Apply a verified decision, ``force`` or ``reshuffle`` line."""
        if isinstance(ev, Decision):
            self._apply_decision(ev)
        elif isinstance(ev, Force):
            self.forced_by = ev.player
            self._step(ev, None, ev, [])
        elif isinstance(ev, Reshuffle):
            self._apply_reshuffle(ev)

    def _apply_decision(self, ev: Decision) -> None:
        s = self.seats[self.decided]
        s.active = ev.stay
        self.decided += 1
        if not ev.stay and self.steps is not None:
            for i, n in enumerate(s.hand):
                self._moves.extend([(ALL_CARDS[i], _HAND, _DEAD)] * n)
        payments: list[Payment] = []
        if self.decided == len(self.seats):
            self.active = [x for x in self.seats if x.active]
            if len(self.active) == 1:
                self.phase = Phase.WON
                self.winner = self.active[0].name
                payments = self._pay_pot(self.active[0], ev.line, "T4: all the others went on top")
            elif not self.active:
                self.phase = Phase.VOID
            else:
                self.phase = Phase.PLAYING
                self.pos = 0
                self.live_ok = bool(self.pile)
                self.live = self.pile[-1] if self.pile else None
        self._step(ev, None, ev, payments)

    def _pay_pot(self, winner: Seat, line: int, note: str) -> list[Payment]:
        """T2: forfeits of the players who went on top, and every other seated player's top."""
        p = self.profile
        pay = self.ledger.pay
        out = []
        if p.forfeit:
            out += [
                pay(s.name, winner.name, p.forfeit, "T2", line, None, f"forfeit; {note}")
                for s in self.seats
                if s.active is False
            ]
        if p.ante:
            out += [
                pay(s.name, winner.name, p.ante, "T2", line, None, f"top; {note}")
                for s in self.seats
                if s is not winner
            ]
        return out

    def _verify_force(self, ev: Force) -> None:
        s = self.by_name.get(ev.player)
        if s is None:
            raise self._fail("S1", f"{ev.player} is not seated", ev, player=ev.player)
        if not s.active:
            raise self._fail("T3", f"{ev.player} went on top and takes no further part", ev, player=ev.player)
        other = self.by_name.get(ev.other)
        if other is None:
            raise self._fail("S1", f"{ev.other} is not seated", ev, player=ev.player)
        if other is not self.in_turn:
            raise self._fail("P8", f"{ev.other} is not in turn ({self.in_turn.name} is)", ev, player=ev.player)
        if other is s:
            raise self._fail("P8", f"{ev.player} cannot force himself", ev, player=ev.player)
        if not self.live_ok or self.live is None:
            raise self._fail("P8", "there is no live discard to force", ev, player=ev.player)
        if not self.fits_melds(other, self.live):
            raise self._fail(
                "P8", f"the live discard {self.live} fits none of {ev.other}'s melds", ev, player=ev.player
            )

    def _apply_reshuffle(self, ev: Reshuffle) -> None:
        dead = self.pile[:-1]
        if not dead:
            self.phase = Phase.VOID
            self._step(ev, None, ev, [])
            return
        seen = self.seen
        for c in dead:
            if c is not None:
                seen[cidx(c)] -= 1
                if self.steps is not None:
                    self._moves.append((c, _PILE, _STOCK))
        self.stock_n = len(dead)
        del self.pile[:-1]
        self._step(ev, None, ev, [])

    # ------------------------------------------------------------------ turns

    def verify_turn(self, turn: Turn) -> None:
        """The line's player may play now: the hand is on, he stayed, and it is his turn."""
        self._verify_playing(turn, turn.player)
        s = self.by_name.get(turn.player)
        if s is None:
            raise self._fail("S1", f"{turn.player} is not seated", turn, player=turn.player)
        if not s.active:
            raise self._fail("T3", f"{turn.player} went on top and takes no further part", turn, player=turn.player)
        if s is not self.in_turn:
            raise self._fail("P1", f"it is {self.in_turn.name}'s turn, not {turn.player}'s", turn, player=turn.player)

    def begin_turn(self, turn: Turn) -> None:
        """Start the verified turn ``turn``."""
        self.turn_no += 1
        self.turn = turn
        self.seat = self.by_name[turn.player]
        self.pending = None
        self.pending_src = _STOCK
        self.pending_used = False
        self.drew = False
        self.hand_melded = False
        self.discarded = False
        self.out = False
        self.must_add = False
        self.borrowed = []

    def verify(self, a: Action) -> None:
        """Raise a Ruling if action ``a`` is not allowed now."""
        if self.out:
            raise self._fail("I3", f"{self.seat_name} went out: the hand is closed", a)
        if self.discarded:
            raise self._fail("P5", f"{self.seat_name}'s discard ended the turn", a)
        f = _VERIFY.get(type(a))
        if f is None:
            raise self._fail("P1", f"{type(a).__name__.lower()} is not a Panguingue action", a)
        if not self.drew and type(a) is not Draw and type(a) is not Take:
            raise self._fail("P1", f"{self.seat_name}'s turn begins with a draw or a take", a)
        f(self, a)

    def apply(self, a: Action) -> None:
        """Apply the verified action ``a``."""
        payments = _APPLY[type(a)](self, a)
        if self.steps is not None:
            self._step(self.turn, a, a, payments)

    FAST: bool = True
    """Take :meth:`fast_turn` for plain draw-and-discard turns (tests turn it off to compare)."""

    def fast_turn(self, turn: Turn) -> bool:
        """Play a plain ``draw C, discard C`` turn (the commonest line) in one go when every check
        passes at a glance; False (nothing changed) sends it through the general verify/apply path,
        which gives the same result and names any rule broken."""
        acts = turn.actions
        if not self.FAST:
            return False
        if len(acts) != 2:
            return self._fast_meld_turn(turn)
        d, x = acts
        if type(x) is not Discard:
            return self._fast_meld_turn(turn)
        if type(d) is not Draw or self.phase is not Phase.PLAYING:
            return False
        c = d.card
        if x.card is not c and x.card != c:
            return False
        active = self.active
        pos = self.pos
        s = active[pos]
        if s.name != turn.player or self.forced_by is not None or self.stock_n <= 0:
            return False
        if s.hand_n + s.melded_n != HAND_SIZE:
            return False
        if self.automatic and self.live_ok and s.melds and self.live is not None and self.fits_melds(s, self.live):
            return False
        i = _IDX.get(id(c))
        seen = self.seen
        if i is None or seen[i] >= self.copies[i]:
            return False
        pos = (pos + 1) % len(active)
        nxt = active[pos]
        if nxt.hand_n == 0 and self.profile.flat_rule and s.hand_n > 0 and self.fits_melds(nxt, c):
            return False
        self.turn_no += 1
        self.stock_n -= 1
        seen[i] += 1
        self.pile.append(c)
        self.live_ok = True
        self.live = c
        self.pos = pos
        steps = self.steps
        if steps is not None:
            name = s.name
            steps.append(Step(d.line, d.col, name, turn, d, (), ()))
            steps.append(Step(x.line, x.col, name, turn, x, ((c, _STOCK, _PILE),), ()))
        return True

    def _fast_meld_turn(self, turn: Turn) -> bool:
        """Play a turn of a draw or a take, new melds and additions of known hand cards that use
        the drawn card, then a discard (or going out with the last card), in one go when every
        check passes; False (nothing changed) sends it through the general path. Bulk replay
        only (no steps recorded)."""
        acts = turn.actions
        if self.steps is not None or len(acts) < 2 or self.phase is not Phase.PLAYING or self.forced_by is not None:
            return False
        s = self.active[self.pos]
        if s.name != turn.player or s.unknown or s.hand_n + s.melded_n != HAND_SIZE:
            return False
        first = acts[0]
        kind = type(first)
        if kind is not Draw and kind is not Take:
            return False
        pend = first.card  # type: ignore[union-attr]
        pi = _IDX.get(id(pend))
        if pi is None:
            return False
        live = self.live
        if kind is Draw:
            if self.stock_n <= 0 or self.seen[pi] >= self.copies[pi]:
                return False
            if self.automatic and self.live_ok and s.melds and live is not None and self.fits_melds(s, live):
                return False
        elif kind is Take:
            if not self.live_ok or live is None or (pend is not live and pend != live):
                return False
            if self.automatic and s.melds and self.fits_melds(s, pend):
                return False  # P8: the taken card must be added (the general path checks that)
        last = acts[-1]
        discard = type(last) is Discard
        middle = acts[1:-1] if discard else acts[1:]
        js = self.js
        hand = s.hand
        taken: dict[int, int] = {}
        melds = list(s.melds)
        done: list[tuple[Action, LaidMeld, int]] = []
        pending_used = False
        used = 0
        melded = 0
        for a in middle:
            k = type(a)
            if k is MeldNew:
                cards = a.cards  # type: ignore[union-attr]
                lm = js.laid(cards)
                if lm is None:
                    return False
                gain = lm.value
                melds.append(lm)
            elif k is Add:
                n = a.target  # type: ignore[union-attr]
                if not 1 <= n <= len(melds):
                    return False
                cards = a.cards  # type: ignore[union-attr]
                old = melds[n - 1]
                grown = js.grown(old, cards)
                if isinstance(grown, MeldError):
                    return False
                lm = grown
                gain = lm.value - old.value
                melds[n - 1] = lm
            else:
                return False
            for c in cards:
                if not pending_used and (c is pend or c == pend):
                    pending_used = True
                    continue
                i = _IDX.get(id(c))
                if i is None:
                    return False
                got = taken.get(i, 0) + 1
                if got > hand[i]:
                    return False
                taken[i] = got
                used += 1
            melded += len(cards)
            done.append((a, lm, gain))
        if not pending_used:
            return False
        left = s.hand_n - used
        if discard:
            c = last.card  # type: ignore[union-attr]
            i = _IDX.get(id(c))
            if left <= 0 or i is None or taken.get(i, 0) + 1 > hand[i]:
                return False
            taken[i] = taken.get(i, 0) + 1
            left -= 1
            if left + s.melded_n + melded != HAND_SIZE:
                return False
        elif left != 0 or s.melded_n + melded != HAND_SIZE + 1:
            return False
        # every check passed: apply, in the order the general path does
        self.turn_no += 1
        if kind is Draw:
            self.stock_n -= 1
            self.seen[pi] += 1
            self.pending_src = _STOCK
        else:
            self.pile.pop()
            self.pending_src = _PILE
        self.live_ok = False
        for i, n in taken.items():
            hand[i] -= n
        s.hand_n = left
        s.melded_n += melded
        s.melds[:] = melds
        s.fit_mask = -1
        name = s.name
        for a, lm, gain in done:
            claim = a.claim  # type: ignore[union-attr]
            if type(a) is MeldNew:
                if claim is not None:
                    self.claims.append(self._pays(a, name, claim, lm.value))
                self._collect(s, gain, lm.rule, a.line, lm.cards)
            else:
                if claim is not None:
                    self.claims.append(self._pays(a, name, claim, gain))  # type: ignore[arg-type]
                self._collect(s, gain, "C7", a.line, lm.cards, f"#{a.target} grows")  # type: ignore[union-attr]
        self.pending = pend
        self.pending_used = True
        self.drew = True
        self.hand_melded = used > 0
        self.must_add = False
        self.out = False
        self.borrowed = []
        if discard:
            self.pile.append(last.card)  # type: ignore[union-attr]
            self.discarded = True
            self.pos = (self.pos + 1) % len(self.active)
        else:
            self.discarded = False
            self.seat = s
            self.turn = turn
            self._go_out(None)
            self.seat = None
            self.turn = None
        return True

    @property
    def seat_name(self) -> str:
        """The name of the player in turn (while a turn is in progress)."""
        return self.seat.name if self.seat is not None else "?"

    def verify_turn_end(self) -> None:
        """The turn is complete: a draw, the drawn card used or discarded, a discard or going out."""
        s = self.seat
        turn = self.turn
        assert s is not None and turn is not None
        if self.out:
            return
        if not self.drew:
            raise self._fail("P1", f"{s.name}'s turn has no draw or take", turn)
        if self.borrowed:
            raise self._fail(
                "M6", f"borrowed {format_cards(self.borrowed)} completes no new meld", self._unused_borrow(turn)
            )
        if self.discarded:
            if s.hand_n + s.melded_n != HAND_SIZE:
                raise self._fail(
                    "P7", f"{s.name} holds {s.hand_n} and has {s.melded_n} melded: not {HAND_SIZE} in all", turn
                )
            return
        if not self.pending_used:
            if self.pending_src is _PILE:
                raise self._fail("P3", f"the taken {self.pending} must be melded at once", turn)
            raise self._fail("P2", f"the drawn {self.pending} must be used or discarded at once", turn)
        if s.hand_n > 0:
            raise self._fail("P5", f"{s.name} used his draw and must end the turn with a discard", turn)
        self._verify_going_out(turn)

    def _unused_borrow(self, node: Any) -> Any:
        """The last borrow before ``node`` in the turn whose card is still unused (M6), else ``node``."""
        found = node
        turn = self.turn
        for a in turn.actions if turn is not None else ():
            if a is node:
                break
            if type(a) is Borrow and a.card in self.borrowed:
                found = a
        return found

    def _verify_going_out(self, node: Any) -> None:
        s = self.seat
        assert s is not None
        if s.melded_n != HAND_SIZE + 1:
            raise self._fail("P7", f"{s.name} has {counted(s.melded_n, 'card')} melded; going out is the 11th", node)

    def end_turn(self) -> None:
        """Close the turn: going out when the hand is empty (C8), then the next player is in turn."""
        s = self.seat
        assert s is not None
        if not self.out and not self.discarded and self.drew and self.pending_used and s.hand_n == 0:
            self._go_out(None)
        if self.pending is not None and not self.pending_used and not self.discarded:
            # non-strict repair of an unused draw: it becomes a dead discard
            self.pile.append(self.pending)
            self.live_ok = False
        self.forced_by = None
        if self.phase is Phase.PLAYING and self.active:
            self.pos = (self.pos + 1) % len(self.active)
        self.seat = None
        self.turn = None

    def _go_out(self, action: Out | None) -> None:
        s = self.seat
        turn = self.turn
        assert s is not None and turn is not None
        self.out = True
        self.phase = Phase.WON
        self.winner = s.name
        node = action if action is not None else turn
        line = node.line or turn.line
        units = self.profile.out_bonus + s.meld_value()
        payments = self._collect(s, units, "C8", line, (), "going out")
        payments += self._pay_pot(s, line, "went out")
        self._step(turn, action, node, payments)

    # ------------------------------------------------------------------ draw and take (P1, P3, P8, P10)

    def _verify_draw(self, a: Draw) -> None:
        s = self.seat
        assert s is not None
        if self.drew:
            raise self._fail("P1", "one draw or take per turn", a)
        if self.forced_by is not None:
            raise self._fail("P8", f"{self.forced_by} forced {s.name} to take {self.live}; he may not draw", a)
        if self.automatic and self.live_ok and self.live is not None:
            n = self.fits_melds(s, self.live)
            if n:
                raise self._fail(
                    "P8", f"the live discard {self.live} fits {s.name}'s meld #{n}: he must take and add it", a
                )
        if self.stock_n <= 0:
            if len(self.pile) > 1:
                raise self._fail("P10", "the stock is empty: the dead discards are reshuffled first", a)
            raise self._fail("P10", "no card is left to draw: the hand is void", a)
        self._check_card(a.card, a)

    def _apply_draw(self, a: Draw) -> list[Payment]:
        self.stock_n -= 1
        self.seen[cidx(a.card)] += 1
        self.pending = a.card
        self.pending_src = _STOCK
        self.drew = True
        self.live_ok = False
        return []

    def can_draw(self) -> bool:
        """Whether the player in turn may draw from the stock now (P8 automatic, P10)."""
        if self.forced_by is not None or self.stock_n <= 0:
            return False
        return not (
            self.automatic and self.live_ok and self.live is not None and self.fits_melds(self.in_turn, self.live)
        )

    def _verify_take(self, a: Take) -> None:
        if self.drew:
            raise self._fail("P1", "one draw or take per turn", a)
        if not self.live_ok:
            top = self.pile[-1] if self.pile else None
            what = "there is no discard" if not self.pile else f"the top discard {top or 'card'} is dead"
            raise self._fail("P3", f"{what}: only the previous player's unused stock draw may be taken", a)
        if self.live is None:
            self._check_card(a.card, a)
        elif a.card != self.live:
            raise self._fail("P3", f"the live discard is {self.live}, not {a.card}", a)

    def _apply_take(self, a: Take) -> list[Payment]:
        s = self.seat
        assert s is not None
        if self.live is None:
            self.seen[cidx(a.card)] += 1
        self.pile.pop()
        self.live_ok = False
        self.pending = a.card
        self.pending_src = _PILE
        self.drew = True
        self.must_add = self.forced_by is not None or (self.automatic and bool(self.fits_melds(s, a.card)))
        return []

    def can_take(self) -> bool:
        """Whether there is a live discard the player in turn may take (P3)."""
        return self.live_ok

    # ------------------------------------------------------------------ melding (P4, P6, M1-M6, C1-C7, I2)

    def _plan_cards(self, cards: tuple[Card, ...], node: Any, *, borrowed: bool) -> _Plan:
        """Where each card comes from: the drawn card, borrowed cards, the hand (E4, P7)."""
        s = self.seat
        assert s is not None
        plan = self._plan = _Plan()
        pending = self.pending if not self.pending_used else None
        left = list(self.borrowed) if borrowed else []
        need = plan.hand_need
        for c in cards:
            if pending is not None and c == pending:
                plan.pending = True
                pending = None
            elif left and c in left:
                left.remove(c)
                plan.borrowed.append(c)
            else:
                i = cidx(c)
                need[i] = need.get(i, 0) + 1
        hand = s.hand
        for i, n in need.items():
            plan.hand_total += n
            extra = n - hand[i]
            if extra > 0:
                c = ALL_CARDS[i]
                if s.unknown == 0:
                    if not borrowed and c in self.borrowed:
                        raise self._fail(
                            Rule.M6,
                            f"{c} was borrowed this turn: a borrowed card may only complete a new meld,"
                            " not be added to a meld or used in a split",
                            node,
                        )
                    held = "" if hand[i] == 0 else f" {n} times (holds {hand[i]})"
                    raise self._fail("E4", f"{s.name} does not hold {c}{held}: a card cannot come from nowhere", node)
                plan.unknown_need += extra
                plan.unseen[i] = extra
                self._check_card(c, node, extra)
        if plan.unknown_need > s.unknown:
            raise self._fail(
                "P7",
                f"{s.name} lays {counted(plan.unknown_need, 'unseen card')} but holds only {s.unknown}",
                node,
            )
        return plan

    def _use_plan(self, cards: tuple[Card, ...]) -> None:
        s = self.seat
        assert s is not None
        plan = self._plan
        record = self.steps is not None
        pend = self.pending
        if plan.pending:
            self.pending_used = True
        for c in plan.borrowed:
            self.borrowed.remove(c)
        hand = s.hand
        for i, n in plan.hand_need.items():
            hand[i] -= min(hand[i], n)
        seen = self.seen
        for i, n in plan.unseen.items():
            seen[i] += n
        s.unknown -= plan.unknown_need
        s.hand_n -= plan.hand_total
        s.melded_n += len(cards)  # borrowed cards left the melded count when borrowed
        if plan.hand_total:
            self.hand_melded = True
        if record:
            moves = self._moves
            src_pending = plan.pending
            bor = list(plan.borrowed)
            for c in cards:
                if src_pending and c == pend:
                    moves.append((c, self.pending_src, _MELD))
                    src_pending = False
                elif bor and c in bor:
                    bor.remove(c)
                    moves.append((c, _MELD, _MELD))
                else:
                    moves.append((c, _HAND, _MELD))

    def _foul(self, rule: str, reason: str, node: Any) -> Ruling:
        return self._fail(rule, f"foul meld (I2): {reason}", node, ruling=I2_FOUL)

    def _pays(self, a: MeldNew | Add | Split, name: str, claim: int, actual: int) -> ClaimCheck:
        """The check of the ``[%pays N]`` claim written after ``a``, placed at the claim."""
        cols = self.script.claim_cols
        col = cols.get((a.line, a.col), 1) if cols else 1
        return ClaimCheck(ClaimKind.PAYS, a.line, name, claim, actual, col)

    def _verify_meld(self, a: MeldNew) -> None:
        plan = self._plan_cards(a.cards, a, borrowed=True)
        if self.must_add and plan.pending:
            raise self._fail("P8", f"the forced {self.pending} must be added to one of {self.seat_name}'s melds", a)
        if self.js.laid(a.cards) is None:
            v = self.js.judge(a.cards)
            raise self._foul(v.rule or "M1", v.reason, a)

    def _apply_meld(self, a: MeldNew) -> list[Payment]:
        s = self.seat
        assert s is not None
        self._use_plan(a.cards)
        lm = self.js.laid(a.cards)
        assert lm is not None
        s.melds.append(lm)
        s.fit_mask = -1
        rule = lm.rule
        if a.claim is not None:
            self.claims.append(self._pays(a, s.name, a.claim, lm.value))
        return self._collect(s, lm.value, rule, a.line, lm.cards)

    def _target(self, n: int, node: Any) -> LaidMeld:
        s = self.seat
        assert s is not None
        if not 1 <= n <= len(s.melds):
            have = f"has {counted(len(s.melds), 'meld')}" if s.melds else "has no meld"
            raise self._fail("P6", f"{s.name} {have}: no #{n} of his own to change", node)
        return s.melds[n - 1]

    def _verify_add(self, a: Add) -> None:
        m = self._target(a.target, a)
        self._plan_cards(a.cards, a, borrowed=False)
        e = self.js.grown(m, a.cards)
        if isinstance(e, MeldError):
            if e.rule == "C7":
                raise self._fail("C7", f"adding {format_cards(a.cards)} to #{a.target}: {e.reason}", a)
            raise self._foul(e.rule, e.reason, a)

    def _apply_add(self, a: Add) -> list[Payment]:
        s = self.seat
        assert s is not None
        old = s.melds[a.target - 1]
        plan_pending = self._plan.pending
        self._use_plan(a.cards)
        if plan_pending:
            self.must_add = False
        new = self.js.grown(old, a.cards)
        assert isinstance(new, LaidMeld)
        s.melds[a.target - 1] = new
        s.fit_mask = -1
        gain = new.value - old.value
        if a.claim is not None:
            self.claims.append(self._pays(a, s.name, a.claim, gain))
        return self._collect(s, gain, "C7", a.line, new.cards, f"#{a.target} grows")

    def _verify_borrow(self, a: Borrow) -> None:
        if not self.profile.borrowing:
            raise self._fail("M6", f"borrowing is not allowed under {self.profile.name}", a)
        m = self._target(a.source, a)
        cards = m.cards
        if len(cards) < 4:
            raise self._fail("M6", f"#{a.source} has {len(cards)} cards; borrowing needs 4 or more", a)
        rest = _without(cards, a.card, rope=isinstance(m.meld, Rope))
        if rest is None:
            where = "an end of" if isinstance(m.meld, Rope) else ""
            raise self._fail("M6", f"{a.card} is not {where or 'in'} #{a.source} ({m})".replace("  ", " "), a)
        v = self.js.judge(rest)
        if v.meld is None:
            raise self._fail("M6", f"what is left of #{a.source} is no meld: {v.reason}", a)
        if v.meld.value(self.profile) < m.value:
            raise self._fail("M6", f"borrowing {a.card} would lower the value of #{a.source}", a)

    def _apply_borrow(self, a: Borrow) -> list[Payment]:
        s = self.seat
        assert s is not None
        old = s.melds[a.source - 1]
        rest = _without(old.cards, a.card, rope=isinstance(old.meld, Rope))
        assert rest is not None
        new = self.js.laid(rest)
        assert new is not None
        s.melds[a.source - 1] = new
        s.fit_mask = -1
        s.melded_n -= 1
        self.borrowed.append(a.card)
        if self.steps is not None:
            self._moves.append((a.card, _MELD, _MELD))
        return self._collect(s, new.value - old.value, "C7", a.line, new.cards, f"borrow from #{a.source}")

    def _verify_split(self, a: Split) -> None:
        if not self.profile.borrowing:
            raise self._fail("M6", f"splitting is not allowed under {self.profile.name}", a)
        m = self._target(a.target, a)
        left = list(m.cards)
        added: list[Card] = []
        for c in (*a.first, *a.second):
            if c in left:
                left.remove(c)
            else:
                added.append(c)
        if left:
            raise self._fail(
                "M6", f"the two melds must hold every card of #{a.target} ({format_cards(left)} missing)", a
            )
        if not added:
            raise self._fail("M6", f"splitting #{a.target} adds cards from the hand", a)
        self._plan_cards(tuple(added), a, borrowed=False)
        values = 0
        for part in (a.first, a.second):
            v = self.js.judge(part)
            if v.meld is None:
                raise self._foul(v.rule or "M1", v.reason, a)
            values += v.value
        if values < m.value:
            raise self._fail("C7", f"the split would lower #{a.target}'s value from {m.value} to {values}", a)
        self._split_added = tuple(added)

    def _apply_split(self, a: Split) -> list[Payment]:
        s = self.seat
        assert s is not None
        old = s.melds[a.target - 1]
        plan_pending = self._plan.pending
        self._use_plan(self._split_added)
        if plan_pending:
            self.must_add = False
        parts = []
        for part in (a.first, a.second):
            lm = self.js.laid(part)
            assert lm is not None
            parts.append(lm)
        s.melds[a.target - 1] = parts[0]
        s.melds.append(parts[1])
        s.fit_mask = -1
        gain = parts[0].value + parts[1].value - old.value
        if a.claim is not None:
            self.claims.append(self._pays(a, s.name, a.claim, gain))
        return self._collect(s, gain, "C7", a.line, (*a.first, *a.second), f"split #{a.target}")

    # ------------------------------------------------------------------ discard and going out (P2, P5, P7, P9, C8)

    def p9_applies(self) -> bool:
        """P9: the next player is flat and the unused stock draw could be added to one of his melds."""
        if self.pending is None:
            return False
        nxt = self.active[(self.pos + 1) % len(self.active)]
        if nxt.hand_n or not self.profile.flat_rule or nxt.melded_n != HAND_SIZE or nxt is self.seat:
            return False
        return bool(self.fits_melds(nxt, self.pending))

    def _verify_discard(self, a: Discard) -> None:
        s = self.seat
        assert s is not None
        c = a.card
        self._discard_kind = 0
        if not self.pending_used:
            if self.pending_src is _PILE:
                raise self._fail("P3", f"the taken {self.pending} must be melded at once, not left unused", a)
            if self.hand_melded:
                raise self._fail("P4", f"hand cards were melded but the drawn {self.pending} is not used", a)
            if self.must_add:
                raise self._fail("P8", f"the forced {self.pending} must be added", a)
            p9 = self.p9_applies()
            if c == self.pending and not (p9 and s.hand_n > 0):
                self._discard_kind = 1
                return
            if c == self.pending and not self._only_copies(c):
                raise self._fail(
                    "P9",
                    f"{self.next_seat.name} is flat and {c} fits his melds: {s.name} must keep it",
                    a,
                )
            if not p9:
                raise self._fail("P2", f"the drawn {self.pending} never joins the hand: use it or discard it", a)
            self._discard_kind = 2
        elif s.hand_n == 0:
            raise self._fail("P7", f"{s.name} has no card left to discard: with 11 melded he went out", a)
        if self.borrowed:
            raise self._fail(
                "M6", f"borrowed {format_cards(self.borrowed)} completes no new meld", self._unused_borrow(a)
            )
        self._plan_cards((c,), a, borrowed=False)

    def _only_copies(self, c: Card) -> bool:
        """P9: every card of the hand is a copy of ``c`` (the kept draw can only be discarded as a copy)."""
        s = self.seat
        assert s is not None
        return s.unknown == 0 and s.hand[cidx(c)] == s.hand_n

    def _apply_discard(self, a: Discard) -> list[Payment]:
        s = self.seat
        assert s is not None
        c = a.card
        record = self.steps is not None
        self.discarded = True
        if self._discard_kind == 1:
            self.pile.append(c)
            self.live_ok = True
            self.live = c
            if record:
                self._moves.append((c, _STOCK, _PILE))
            return []
        if self._discard_kind == 2:
            assert self.pending is not None
            s.hand[cidx(self.pending)] += 1
            s.hand_n += 1
            self.pending_used = True
            if record:
                self._moves.append((self.pending, _STOCK, _HAND))
        plan = self._plan
        i = cidx(c)
        if plan.unknown_need:
            s.unknown -= 1
            self.seen[i] += 1
        else:
            s.hand[i] -= 1
        s.hand_n -= 1
        self.pile.append(c)
        self.live_ok = False
        if record:
            self._moves.append((c, _HAND, _PILE))
        return []

    def _verify_out(self, a: Out) -> None:
        s = self.seat
        assert s is not None
        if not self.pending_used or s.hand_n > 0 or self.borrowed:
            left = f"{counted(s.hand_n, 'card')} in hand" if s.hand_n else "the drawn card unused"
            raise self._fail("P7", f"{s.name} is not out: {left}", a)
        self._verify_going_out(a)

    def _apply_out(self, a: Out) -> list[Payment]:
        self._go_out(a)
        return []

    # ------------------------------------------------------------------ results

    def check_claims(self) -> None:
        """Check the ``[Ledger]`` claim against the ledger (one ClaimCheck per player named)."""
        claim = self.script.ledger_claim
        if claim is None:
            return
        net = self.ledger.net
        for name, units in claim.units.items():
            self.claims.append(ClaimCheck(ClaimKind.LEDGER, claim.line, name, units, net.get(name, 0)))

    def result(self, violations: list[Violation]) -> HandResult:
        """The hand's result so far."""
        self.ledger.check()
        return HandResult(
            players=self.players,
            # a win (C8, T4) stands when every violation came after it, in the closed hand (I3)
            winner=self.winner if all(v.rule == "I3" for v in violations) else None,
            payments=tuple(self.ledger.payments),
            ledger=dict(self.ledger.net),
            violations=tuple(violations),
            claims=tuple(self.claims),
            void=self.phase is Phase.VOID,
            stake=self.script.stake,
            steps=tuple(self.steps) if self.steps is not None else (),
        )


_VERIFY: Final[dict[type, Callable[[Table, Any], None]]] = {
    Draw: Table._verify_draw,
    Take: Table._verify_take,
    MeldNew: Table._verify_meld,
    Add: Table._verify_add,
    Borrow: Table._verify_borrow,
    Split: Table._verify_split,
    Discard: Table._verify_discard,
    Out: Table._verify_out,
}
_APPLY: Final[dict[type, Callable[[Table, Any], list[Payment]]]] = {
    Draw: Table._apply_draw,
    Take: Table._apply_take,
    MeldNew: Table._apply_meld,
    Add: Table._apply_add,
    Borrow: Table._apply_borrow,
    Split: Table._apply_split,
    Discard: Table._apply_discard,
    Out: Table._apply_out,
}
"""Each action's verify and apply steps (class-level: a per-table dict of bound methods
would tie every Table in a reference cycle that only the garbage collector frees)."""


class _Place:
    __slots__ = ("col", "line")

    def __init__(self, line: int, col: int) -> None:
        self.line = line
        self.col = col


def _without(cards: tuple[Card, ...], c: Card, *, rope: bool) -> tuple[Card, ...] | None:
    """``cards`` less one copy of ``c`` (for a rope, only off an end), or None."""
    if rope:
        if cards[0] == c:
            return cards[1:]
        if cards[-1] == c:
            return cards[:-1]
        return None
    if c not in cards:
        return None
    i = cards.index(c)
    return cards[:i] + cards[i + 1 :]


def referee_hand(script: HandScript, *, strict: bool = True, record_steps: bool = True) -> HandResult:
    """Referee one Panguingue hand (RULES.md sections 2-6).

    Strict (the default): the first violation stops the hand; the ledger holds the payments
    made up to it and the winner is None (but a hand won before an I3 violation keeps its
    winner). Non-strict: every violation is recorded, the
    offending action (or line) is skipped, and play goes on. ``record_steps=False`` skips
    the per-action :class:`Step` records (bulk replay).

    >>> from pancli.notation.fast import fast_cards  # doctest only; the engine never parses
    >>> from pancli.model.actions import Deal, Decision, Turn, Draw, MeldNew, Discard
    >>> c = lambda s: fast_cards(s)
    >>> script = HandScript(
    ...     players=("Ana", "Ben"),
    ...     deals=(Deal("Ana", c("5s 5s 2h 3h Kd Kh Kc 2c 7d Jc")), Deal("Ben", c("2d 2d 6c Jd Jd Qs 4s 4s 6h 7c"))),
    ...     upcard=c("4c")[0],
    ...     events=(Decision("Ana", True), Decision("Ben", True),
    ...             Turn("Ana", (Draw(c("5s")[0]), MeldNew(c("5s 5s 5s"), claim=4), Discard(c("7d")[0])), line=9)),
    ... )
    >>> r = referee_hand(script)
    >>> r.ok, r.ledger, [p.rule for p in r.payments]
    (True, {'Ana': 4, 'Ben': -4}, ['C2'])
    """
    table = Table(script, record_steps=record_steps)
    violations: list[Violation] = []
    try:
        table.verify_seating()
    except Ruling as r:
        violations.append(r.violation)
        return table.result(violations)
    fast_deal = table.fast_deal
    for d in script.deals:
        if fast_deal(d):
            continue
        try:
            table.verify_deal(d)
        except Ruling as r:
            violations.append(r.violation)
            if strict:
                return table.result(violations)
            continue
        try:
            table.verify_deal_count(d)
        except Ruling as r:
            violations.append(r.violation)
            if strict:
                return table.result(violations)
        table.apply_deal(d)
    try:
        table.verify_upcard()
    except Ruling as r:
        violations.append(r.violation)
        if strict:
            return table.result(violations)
    else:
        table.apply_upcard()
    seats = table.seats
    fast_turn = table.fast_turn
    for ev in script.events:
        if type(ev) is Turn:
            if not fast_turn(ev) and not _play_turn(table, ev, strict, violations):
                return _finish(table, violations)
            continue
        if type(ev) is Decision and table.phase is Phase.DECIDING and seats[table.decided].name == ev.player:
            table._apply_decision(ev)  # all verify_event checks of a decision: the round is on, his turn (T1)
            continue
        try:
            table.verify_event(ev)
        except Ruling as r:
            violations.append(r.violation)
            if strict:
                return _finish(table, violations)
            continue
        table.apply_event(ev)
    return _finish(table, violations)


def _play_turn(table: Table, turn: Turn, strict: bool, violations: list[Violation]) -> bool:
    """Play one turn line that :meth:`Table.fast_turn` did not take; False when a violation
    stops the hand (strict)."""
    try:
        table.verify_turn(turn)
    except Ruling as r:
        violations.append(r.violation)
        return not strict
    table.begin_turn(turn)
    verify = table.verify
    apply = table.apply
    for a in turn.actions:
        try:
            verify(a)
        except Ruling as r:
            violations.append(r.violation)
            if strict:
                return False
            continue
        apply(a)
    try:
        table.verify_turn_end()
    except Ruling as r:
        violations.append(r.violation)
        if strict:
            return False
    table.end_turn()
    return True


def _finish(table: Table, violations: list[Violation]) -> HandResult:
    table.check_claims()
    return table.result(violations)
