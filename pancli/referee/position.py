"""A player's position at a line of a record: what ``pan analyze FILE --at LINE --player NAME`` analyses.

:func:`position_at` replays a hand with the referee's :class:`~pancli.referee.table.Table`
(every rule checked, strictly) up to a line and returns what the player holds and knows.

What "at LINE" means:

* The position is the moment the line's play begins: every play line (decision, turn,
  ``force``, ``reshuffle``) that starts before LINE has been played, the line itself has not.
  The deal and the upcard come before all play (R7), so they are always in; a LINE before the
  first play line (tags, deal lines, comments) is the moment before the first decision (stay or
  go on top, T1).
  A LINE after the last play line of an unfinished hand is the position after it.
* When LINE is the player's own turn line and the turn begins with ``draw CARD`` or
  ``take CARD``, that first action is played too: the player looks at the card he has just
  drawn (from the stock, shown to all, P1) or taken (the live discard, P3) and decides what to
  lay and what to discard, which is the question an analysis answers. If that draw or take is
  itself a violation, the position stays before it (``drawn`` None, ``draw_violation`` set).
* The player's cards must be known: he needs a ``deal`` line (a player without one holds
  unknown cards, S2), and his hand must still be live (not on top, T3; the hand not closed,
  I3, T4, P10).
* The seen cards are what the record shows out of the player's hand and out of the stock: the
  discard pile as it lies (the upcard included; dead discards shuffled back into the stock by a
  reshuffle are unseen again, P10), the other players' melds, and the dead cards (the known
  hands of players who went on top, T1). Other players' hands are not seen.
* ``players`` is the number of active players (T3), ``in_play`` their names; during the decision
  round they are those who have not gone on top yet (the most the table can be). ``payers`` is
  how many pay each of the player's collections: the active others and the players retired from
  the hand (I1, I2), who still pay.

>>> from pancli.notation.fast import fast_cards  # doctest only; the engine never parses
>>> from pancli.model.actions import Deal, Decision, Discard, Draw, HandScript, MeldNew, Turn
>>> c = fast_cards
>>> script = HandScript(
...     players=("Ana", "Ben"),
...     deals=(Deal("Ana", c("5s 5s 2h 3h Kd Kh Kc 2c 7d Jc"), line=3),
...            Deal("Ben", c("2d 2d 6c Jd Jd Qs 4s 4s 6h 7c"), line=4)),
...     upcard=c("4c")[0], upcard_line=5,
...     events=(Decision("Ana", True, line=6), Decision("Ben", True, line=7),
...             Turn("Ana", (Draw(c("5s")[0]), MeldNew(c("5s 5s 5s")), Discard(c("7d")[0])), line=8),
...             Turn("Ben", (Draw(c("Qd")[0]), Discard(c("Qd")[0])), line=9)),
...     first_line=1,
... )
>>> p = position_at(script, 8, "Ana")
>>> str(p.drawn), p.drawn_from.value, len(p.hand), [str(c) for c in p.seen], p.players
('5s', 'stock', 10, ['4c'], 2)
>>> p = position_at(script, 9, "Ben")
>>> [str(m) for m in p.melds], str(p.drawn), [str(c) for c in p.seen]
([], 'Qd', ['4c', '7d', '5s', '5s', '5s'])
>>> position_at(script, 9, "Cruz")
Traceback (most recent call last):
...
pancli.referee.position.PositionUnavailable: R5 Cruz is not seated in this hand (Ana Ben)
"""

from __future__ import annotations

from msgspec.structs import replace

from pancli.cards import ALL_CARDS, Card, Game
from pancli.melds import Meld
from pancli.model.actions import Draw, Event, HandScript, Take, Turn
from pancli.model.results import Retirement, Source, Violation
from pancli.panrules import PanRules
from pancli.referee.play import DiscardDue
from pancli.referee.table import Phase, Table
from pancli.rulebook import Rule
from pancli.rules import Ending, Profile
from pancli.values import Value


class PositionError(ValueError):
    """No position to analyse at that line: ``rule`` names why, ``line``/``col`` where (0: the hand)."""

    def __init__(self, rule: Rule, message: str, line: int = 0, col: int = 0, player: str | None = None) -> None:
        super().__init__(f"{rule} {message}")
        self.rule = rule
        self.message = message
        self.line = line
        self.col = col
        self.player = player


class PositionUnavailable(PositionError):
    """The record is fine, but the question has no answer there (unknown cards, a player on top,
    a closed hand, no such player): a usage error."""


class PositionViolation(PositionError):
    """The hand breaks a rule before the line (its first violation, as ``pan replay`` reports it)."""

    def __init__(self, violation: Violation) -> None:
        v = violation
        super().__init__(v.rule, v.message, v.line, v.col, v.player)
        self.violation = violation


class SeatState(Value):
    """One seat as the table shows it: the player, his melds (in the order laid), how many
    cards he holds and whether he is in the hand (None: not decided yet, False: on top)."""

    player: str
    melds: tuple[Meld, ...]
    cards: int
    active: bool | None
    retired: Rule | None = None
    """The rule he retired from the hand under (I1, I2: his cards are dead), or None."""


class Position(Value):
    """One player's view of the table at a record line (see the module docstring)."""

    player: str
    line: int
    profile: Profile
    hand: tuple[Card, ...]
    """The cards in his hand (the drawn card excluded), in card order."""
    melds: tuple[Meld, ...]
    """His melds on the table, in the order laid (``#1``, ``#2``, ...)."""
    drawn: Card | None
    """The card drawn or taken at the start of his turn on this line, if any."""
    drawn_from: Source | None
    """:attr:`Source.STOCK` (a draw) or :attr:`Source.DISCARD_PILE` (a take), or None."""
    discards: tuple[Card, ...]
    """The discard pile, bottom to top (the upcard when the record names it)."""
    others_melded: tuple[Card, ...]
    """Every card in the other players' melds."""
    dead: tuple[Card, ...]
    """Dead cards the record shows: the hands of the other players who went on top (T1)."""
    players: int
    """Active players (T3): during the decision round, those who have not gone on top yet (the
    most the table can be)."""
    deciding: bool
    """The decision round (T1) is not over."""
    acting: str | None
    """The player whose line LINE is (a turn, a decision or a ``force``), or None."""
    turn: int
    """Turns played before this position."""
    stock: int
    """Cards left in the stock."""
    draw_violation: Violation | None = None
    """The rule the line's own draw or take breaks (the position then stays before it)."""
    seats: tuple[SeatState, ...] = ()
    """Every seat, in order of play: what the whole table shows (for a picture of it)."""
    offered: Card | None = None
    """On his own turn line: the live discard he could have taken instead of drawing (P3), or None."""
    forced: bool = False
    """On his own turn line: he had to take the live discard (P8), so drawing was no choice."""
    payers: int = 0
    """Who pays each of the player's collections (C1-C8): his active opponents and the players
    retired from the hand (I1, I2), as the table's :meth:`~pancli.referee.board.Board.payers`
    answers; during the decision round, the others not on top yet."""
    in_play: tuple[str, ...] = ()
    """The players still in the turn order (not on top, T3; not retired, I1, I2): those who may
    go out (during the decision round, those not on top yet)."""
    discard_due: DiscardDue | None = None
    """On his own turn line, after the draw or take: what the discard that ends the turn must be
    (the table's :meth:`~pancli.referee.table.Table.discard_due`): the unused stock draw (P2), a
    hand card but the kept draw (P9), or none before the taken card is melded (P3); else None."""

    @property
    def keeps_draw(self) -> bool:
        """His unused stock draw fits the flat next player's meld: he must keep it (P9)."""
        due = self.discard_due
        return due is not None and due.rule is Rule.P9

    @property
    def kept(self) -> Card | None:
        """The card he may not discard (P9: his unused draw, which the flat next player could
        add, unless his hand holds nothing else), as the table's discard_due answers; else None."""
        due = self.discard_due
        return None if due is None or due.rule is not Rule.P9 else due.excluded

    @property
    def seen(self) -> tuple[Card, ...]:
        """Every card the player has seen outside his hand: discards, other players' melds, dead cards."""
        return self.discards + self.others_melded + self.dead

    @property
    def melded(self) -> int:
        """Cards in his melds."""
        return sum(len(m.cards) for m in self.melds)


def _cards(counts: list[int]) -> tuple[Card, ...]:
    return tuple(c for c, n in zip(ALL_CARDS, counts, strict=True) for _ in range(n))


def _deal(table: Table) -> None:
    """Seat the players, deal and turn the upcard (S1, S2, E4, I1) as the referee does."""
    if not table.deal_in():
        raise PositionViolation(table.violations[0])


def _push(table: Table, ev: Event) -> None:
    """Play one line of the record as the referee does; a broken rule raises it."""
    broken = table.push(ev)
    if broken:
        raise PositionViolation(broken[0])


def acting_player(script: HandScript, line: int) -> str | None:
    """The player whose turn, decision or ``force`` line ``line`` is, or None.

    >>> from pancli.model.actions import Decision
    >>> acting_player(HandScript(players=("Ana", "Ben"), events=(Decision("Ana", True, line=4),)), 4)
    'Ana'
    """
    for ev in script.events:
        if ev.line == line:
            return getattr(ev, "player", None)
    return None


def position_at(script: HandScript, line: int, player: str, rules: PanRules | None = None) -> Position:
    """``player``'s position at record line ``line`` of the hand ``script`` (module docstring).

    Raises :class:`PositionViolation` when the hand breaks a rule before the line, and
    :class:`PositionUnavailable` when there is no hand of his to analyse there. ``rules``: the rules
    object of the script's profile (a fresh one without), kept by a caller that asks many positions (one who asks
    many of one hand walks it: :class:`Walk`).
    """
    return Walk(script, rules).at(line, player)


class Walk:
    """The positions of one hand (:func:`position_at`), asked line after line: one referee's table
    walked forward (:meth:`Table.push`), never replayed from the deal for each line. A line
    before the last one asked starts the walk again from the deal."""

    def __init__(self, script: HandScript, rules: PanRules | None = None) -> None:
        if script.game is not Game.PANGUINGUE:
            # R7, as a line in no hand: the line asked is in no Panguingue hand (G1 is PAGRUC's pack)
            raise PositionUnavailable(Rule.R7, f"a {script.game.value} hand: positions are analysed in Panguingue only")
        self.script = script
        self.rules = rules
        self.table: Table | None = None
        self.played = 0
        """Events of the script pushed on :attr:`table`."""
        self.broken: tuple[int, Violation] | None = None
        """The event that broke a rule (its index, -1 for the deal; the violation): the table stops there."""

    def _table(self, line: int) -> Table:
        """The table with every play line before ``line`` played; raises PositionViolation."""
        events = self.script.events
        broken = self.broken
        if broken is not None:
            if broken[0] < 0 or events[broken[0]].line < line:
                raise PositionViolation(broken[1])
            self.table = None  # the broken line was half played: walk again up to it
        table = self.table
        if table is None or (self.played and events[self.played - 1].line >= line):
            table = self.table = Table(self.script, record_steps=False, rules=self.rules)
            self.played = 0
            self.broken = None
            try:
                _deal(table)
            except PositionViolation as e:
                self.broken = (-1, e.violation)  # a broken deal breaks every position alike
                raise
        k = self.played
        while k < len(events) and events[k].line < line:
            try:
                _push(table, events[k])
            except PositionViolation as e:
                self.broken = (k, e.violation)
                raise
            k += 1
            self.played = k
        return table

    def at(self, line: int, player: str) -> Position:
        """``player``'s position at record line ``line`` (:func:`position_at`)."""
        script = self.script
        if player not in script.players:
            raise PositionUnavailable(
                Rule.R5, f"{player} is not seated in this hand ({' '.join(script.players)})", player=player
            )
        table = self._table(line)
        k = self.played
        ev = script.events[k] if k < len(script.events) else None
        now = ev if isinstance(ev, Turn) and ev.line == line and ev.player == player else None
        turns = table.turn_no
        if now is None or not now.actions or not isinstance(now.actions[0], Draw | Take):
            return _view(table, script, line, player, turns, None)
        playing = table.phase is Phase.PLAYING
        offered = table.offered if playing else None  # what he could take instead, before he draws
        forced = playing and table.must_take() != 0
        due = None
        draw_violation = table.push_action(now.actions[0], now)  # looked at, then taken back
        try:
            if table.turn is not now:  # the line may not be played here: nothing was offered
                offered, forced = None, False
            elif draw_violation is None:
                due = table.discard_due()
            view = _view(table, script, line, player, turns, draw_violation)
        finally:
            table.pop_action()
        return replace(view, offered=offered, forced=forced, discard_due=due)


def _view(
    table: Table, script: HandScript, line: int, player: str, turns: int, draw_violation: Violation | None
) -> Position:
    seat = table.by_name[player]
    if table.won():
        # a hand won by going out is closed to every later line (I3); one won on tops was never played (T4)
        rule = Rule.I3 if table.ending is Ending.OUT else Rule.T4
        raise PositionUnavailable(rule, f"the hand is closed before line {line}: {table.winner} has won it")
    if table.ending is Ending.VOID:
        assert table.ending_rule is not None  # the hand ended void under T4 or P10
        rule = table.ending_rule
        raise PositionUnavailable(rule, f"the hand is void before line {line}: nothing more is played")
    if seat.active is False:
        raise PositionUnavailable(Rule.T3, f"{player} went on top: the cards held are dead", player=player)
    gone = seat.retired
    if gone is not None:
        raise PositionUnavailable(
            gone.rule,
            f"{player} retired from the hand at line {gone.line} ({gone.rule}): the cards held and melded are dead",
            player=player,
        )
    if not table.rules.dealt_right(seat.size):
        why = f"{player} was dealt {seat.size} cards, found at a count later in the hand (I1)"
        raise PositionUnavailable(Rule.I1, f"{why}: there is no hand of ten to analyse", player=player)
    if seat.standing or (table.seat is seat and table.fouls):
        why = f"a foul meld of {player}'s lies on the table until it is made good or called (I2)"
        raise PositionUnavailable(Rule.I2, f"{why}: there is no legal position to analyse", player=player)
    if seat.unknown:
        why = (
            "filled from the stock at the deal (I1) with cards the record does not show"
            if any(d.player == player for d in script.deals)
            else f"not in the record ({player} has no deal line)"
        )
        raise PositionUnavailable(Rule.S2, f"{player}'s cards are {why}: give the hand instead", player=player)
    drawn = table.pending if table.seat is seat and table.drew else None
    deciding = table.phase is Phase.DECIDING
    if deciding:
        in_play = tuple(s.name for s in table.seats if s.active is not False)
        payers = table.rules.payers(len(in_play))  # (before play nobody has retired: C6-C8's payers)
    else:
        in_play = tuple(s.name for s in table.active)
        payers = len(table.payers(seat))
    dead = tuple(c for s in table.seats if s.active is False and s is not seat for c in _cards(s.hand))
    dead += tuple(table.dead)  # a deal's extras and a retired player's cards (I1, I2)
    return Position(
        player=player,
        line=line,
        profile=table.profile,
        hand=_cards(seat.hand),
        melds=tuple(m.meld for m in seat.melds),
        drawn=drawn,
        drawn_from=None if drawn is None else table.pending_src,
        discards=tuple(c for c in table.pile if c is not None),
        others_melded=tuple(c for s in table.seats if s is not seat for m in s.melds for c in m.cards),
        dead=dead,
        players=len(in_play),
        deciding=deciding,
        acting=acting_player(script, line),
        turn=turns,
        stock=table.stock_n,
        draw_violation=draw_violation,
        seats=tuple(
            SeatState(
                s.name,
                tuple(m.meld for m in s.melds),
                s.hand_n,
                s.active,
                None if s.retired is None else s.retired.rule,
            )
            for s in table.seats
        ),
        payers=payers,
        in_play=in_play,
    )


# --------------------------------------------------------------------------- the table as it stands now


class SeatNow(Value):
    """One seat at the end of the lines played: its melds (``#1``, ``#2``, ... in the order laid),
    how many cards it holds, the known ones, and where it stands (T1, T3, I1/I2)."""

    player: str
    melds: tuple[Meld, ...]
    cards: int
    known: tuple[Card, ...]
    """The cards of his hand the record shows (all of them when he was dealt in the record)."""
    unknown: int
    """Cards of his hand the record never showed (no deal line: S2)."""
    active: bool | None
    """None: not decided yet; True: stays; False: went on top (T3)."""
    retired: Retirement | None = None
    """How he retired from the hand (the rule, I1 or I2, and the line), or None."""
    flat: bool = False
    """Ten cards melded, none in hand (P9 protects him): the rules object's ``is_flat``."""
    values: tuple[int, ...] = ()
    """What each of his melds is worth as it lies (C6, as the rules object values it): what each
    opponent paid for it, laid and grown (C1-C7: a new meld collects its value, a change its gain)."""


class Fit(Value):
    """A card of the player's hand that one of his melds takes (M5): ``add CARD to #meld``."""

    card: Card
    meld: int


class TableNow(Value):
    """What the table shows after the lines played so far, and what may be played next: the one
    answer ``pan live`` asks for its "may do now" line and its completion. Each answer is the
    referee's own state or a question of its rules object (P8's ``must_take``, P9's
    ``must_keep_draw``, M5's fit table): nothing here restates a rule."""

    phase: Phase
    seats: tuple[SeatNow, ...]
    to_act: str | None
    """Who decides (T1) or plays (P1) next; None when the hand is over."""
    stock: int
    live: Card | None
    """The live discard the player in turn may take (P3), or None."""
    must_take: int
    """P8: -1 forced by a ``force`` line, N: the live discard fits his meld #N under automatic
    forcing (he must take and add it), 0: he may draw or take."""
    forcers: tuple[str, ...]
    """P8 in demand mode: the players who may force the one in turn to take the live discard
    (:meth:`.Table.may_force`), when he is not obliged to take it already."""
    next_flat: bool
    """P9: the next player is flat and the flat rule is played: a stock draw that fits his melds is kept."""
    fits: tuple[Fit, ...]
    """Cards of the player in turn's known hand his melds take (M5)."""
    turn: int
    winner: str | None
    reshuffle: bool
    """The stock is empty: the next line is a ``reshuffle`` (P10)."""
    reshuffle_voids: bool = False
    """With :attr:`reshuffle`: no dead discard is left, so the reshuffle voids the hand (P10)."""
    ending: Ending | None = None
    """How the hand ended, once :attr:`over` (the table's own record: T4, P10, I1, I2, C8)."""
    ending_rule: Rule | None = None
    """The rule it ended under."""
    lays: tuple[tuple[Card, ...], ...] = ()
    """New melds the player in turn's known hand can lay as it stands (the meld space of the
    profile, which asks the meld engine, M1-M4), the largest first."""

    @property
    def over(self) -> bool:
        """The hand is closed (won) or void: the next line begins the next hand."""
        return self.phase is Phase.OVER


def table_now(script: HandScript, rules: PanRules | None = None) -> TableNow:
    """The table after every line of ``script`` (a Panguingue hand the referee accepts line by
    line; raises :class:`PositionViolation` at its first violation), and what may come next, as
    ``rules`` answers (the rules object of the script's profile; a fresh one without).

    >>> from pancli.notation.fast import fast_cards  # doctest only; the engine never parses
    >>> from pancli.model.actions import Deal, Decision, Discard, Draw, HandScript, MeldNew, Turn
    >>> c = fast_cards
    >>> script = HandScript(
    ...     players=("Ana", "Ben"),
    ...     deals=(Deal("Ana", c("5s 5s 2h 3h Kd Kh Kc 2c 7d Jc"), line=3),),
    ...     upcard=c("4c")[0], upcard_line=5,
    ...     events=(Decision("Ana", True, line=6),),
    ...     first_line=1,
    ... )
    >>> now = table_now(script)
    >>> now.phase.value, now.to_act, now.seats[1].unknown
    ('deciding', 'Ben', 10)
    >>> now = table_now(replace(script, events=(*script.events, Decision("Ben", True, line=7),
    ...     Turn("Ana", (Draw(c("5s")[0]), MeldNew(c("5s 5s 5s")), Discard(c("7d")[0])), line=8))))
    >>> now.to_act, str(now.live), now.stock, [s.cards for s in now.seats]
    ('Ben', 'None', 298, [7, 10])
    """
    if script.game is not Game.PANGUINGUE:
        raise PositionUnavailable(Rule.R7, f"a {script.game.value} hand: positions are of Panguingue only")
    table = Table(script, record_steps=False, rules=rules)
    _deal(table)
    for ev in script.events:
        _push(table, ev)
    return now_of(table)


def now_of(table: Table) -> TableNow:
    """What ``table`` shows, and what may be played next (:func:`table_now` of the lines it played)."""
    phase = table.phase
    seats = tuple(
        SeatNow(
            s.name,
            tuple(m.meld for m in s.melds),
            s.hand_n,
            _cards(s.hand),
            s.unknown,
            s.active,
            s.retired,
            table.rules.is_flat(s),
            tuple(m.value for m in s.melds),
        )
        for s in table.seats
    )
    live: Card | None = None
    take = 0
    forcers: tuple[str, ...] = ()
    next_flat = False
    fits: tuple[Fit, ...] = ()
    lays: tuple[tuple[Card, ...], ...] = ()
    reshuffle = table.must_reshuffle()
    over = phase is Phase.OVER
    if phase is Phase.PLAYING:
        seat = table.in_turn
        live = table.offered
        take = table.must_take()
        if not take:
            forcers = tuple(s.name for s in table.seats if table.may_force(s.name))
        nxt = table.next_seat
        next_flat = nxt is not seat and any(table.must_keep(c) for c in ALL_CARDS if table.fits(nxt, c))
        fits = tuple(Fit(c, n) for c in _cards(seat.hand) if (n := seat.fits(table.rules, c)))
        fits = tuple(dict.fromkeys(fits))
        lays = _lays(table.rules, _cards(seat.hand))
    return TableNow(
        phase=phase,
        seats=seats,
        to_act=table.to_act,
        stock=table.stock_n,
        live=live,
        must_take=take,
        forcers=forcers,
        next_flat=next_flat,
        fits=fits,
        turn=table.turn_no,
        winner=table.winner,
        reshuffle=reshuffle,
        reshuffle_voids=reshuffle and table.reshuffle_ends() is Ending.VOID,
        ending=table.ending if over else None,
        ending_rule=table.ending_rule if over else None,
        lays=lays,
    )


def _lays(rules: PanRules, hand: tuple[Card, ...]) -> tuple[tuple[Card, ...], ...]:
    """The new melds ``hand`` can form as ``rules`` judges them (:meth:`MeldSpace.blocks` of its
    :meth:`PanRules.meld_space`), the largest first, each once."""
    from pancli.meldspace import counts_of, decode, encode  # start-up: pan analyze --at does without it

    if len(hand) < rules.min_meld:
        return ()
    blocks = rules.meld_space().blocks(counts_of(encode(hand)))
    found = {tuple(decode(b[0])) for b in blocks if b[3] < 0}
    return tuple(sorted(found, key=lambda m: (-len(m), [c.index for c in m])))
