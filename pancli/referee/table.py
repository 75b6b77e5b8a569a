"""The Panguingue referee (docs/rules.md): a :class:`Table` plays a hand line by line.

Every rule is judged by one function of its family module, which returns the
:class:`~pancli.model.results.Ruling` when the rule is broken and None when it holds:

=====  ====================================================================================
rule   the one function that judges it
=====  ====================================================================================
S1     :func:`.play.seating_fault` (the count is the rules object's ``seating``, which
       self-play asks too; each seated once), one function a question:
       :func:`.play.seated_fault` (a player a line names is seated)
S2     :func:`.play.second_deal_fault` (dealt once)
S3     :func:`.play.next_hand_violation` (across hands: the rules object's ``next_order``,
       which self-play and ``pan live`` ask too)
I1     :func:`.play.deal_fault` (the count dealt, as the rules object's ``dealt_right`` takes
       it; put right by :func:`.play.apply_deal` and :func:`.play.remedy_deal`, or
       :func:`.play.retire`), one function a question: :func:`.play.unseen_cards_fault` (more
       shown later), :func:`.play.count_call_fault` (a count of a player with cards to count),
       :func:`.play.wrong_count_fault` (what a count finds)
E1 E4  :func:`.play.card_fault` (in the pack; no copy too many: the rules object's
       ``copies_of`` and ``past_the_pack``, which ``pan pay`` asks too),
       one function a question: :func:`.play.from_nowhere_fault` (not from nowhere: a card a
       known hand lacks)
T1     :func:`.play.decision_order_fault` (a decision in the round, in order of play),
       one function a question: :func:`.play.undecided_play_fault` (no play before its end)
T3     :func:`.play.on_top_fault`
T4     :func:`.play.apply_decision`
P1     :func:`.play.draw_first_fault` (a turn's actions begin with one draw or take; a turn
       line's place is summed up by :func:`.play.plays_now`),
       one function a question: :func:`.play.out_of_turn_fault` (the player in turn, the gate
       of a turn line: :func:`turn_fault`), :func:`.play.drawless_turn_fault` (a turn ends
       having drawn or taken)
P2     :func:`.play.undiscarded_draw_fault`, one function a question:
       :func:`.play.unused_draw_at_end_fault`
P3     :func:`.play.taken_card_fault`, one function a question: :func:`.play.unmelded_take_fault`
P4     :func:`.play.melding_gate_fault`
P5     :func:`.play.discard_fault`, one function a question: :func:`.play.undiscarded_turn_fault`
P6     :func:`.play.own_melds_fault` (with :func:`.play.owns`; the melds counted as the table sees
       them, a foul meld among them while it lies there: :meth:`.board.Board.meld_count`)
P7     :func:`.play.ten_cards_fault` (with :func:`.play.holds_ten`: the rules object's
       ``holds_ten``), one function a question: :func:`.play.going_out_count_fault` (going
       out melds the eleventh card), :func:`.play.not_out_fault` (``out`` with every card
       melded), :func:`.play.empty_hand_discard_fault` (a card left to discard)
P8     :func:`.play.forced_draw_fault` (with the rules object's ``must_take``, which self-play and
       positions ask too: a forced card is taken, not a draw), one function a question:
       :func:`.play.forced_new_meld_fault` (added, not laid in a new meld),
       :func:`.play.unadded_force_fault` (added before the discard), :func:`.play.force_line_fault`
       (a ``force`` line, with the rules object's ``may_force``)
P9     :func:`.play.flat_player_fault` (with the rules object's ``must_keep_draw``, which self-play
       asks too)
P10    :func:`.play.empty_stock_fault` (a draw finds a card in the stock),
       one function a question: :func:`.play.void_hand_fault` (nothing played in a void hand),
       :func:`.play.restocked_card_fault` (a card drawn after a reshuffle was reshuffled),
       :func:`.play.early_reshuffle_fault` (a reshuffle of an empty stock)
M1-M5  the rules object's ``judge`` and ``grow`` (:class:`pancli.panrules.PanRules`, which caches
       the meld engine's; what fits a meld is :meth:`pancli.panrules.LaidMeld.fit_mask`), raised
       in a hand by the I2 judge, one function a question: :func:`.play.foul_addition_ruling`
M6     :func:`.play.borrowing_allowed_fault` (the house rules allow it), one function a question:
       :func:`.play.borrow_fault`, :func:`.play.split_fault`, :func:`.play.borrowed_card_fault`,
       :func:`.play.unused_borrow_fault`
C7     :func:`.play.lowered_value_fault` (an addition never lowers a value: the engine's ``grow``),
       one function a question: :func:`.play.lowered_split_fault` (nor does a split)
I2     :func:`.play.foul_meld_ruling` (laid foul by :func:`.play.lay_foul`; a foul meld or addition
       made good by :func:`.play.verify_mend`, taken back by :func:`.play.verify_back`; found at
       the end of the turn or at its call: :func:`.play.retire`), one function a question:
       :func:`.play.foul_addition_ruling` (a foul addition, or the mend of one),
       :func:`.play.no_foul_fault` (a mend or back names a foul meld of the turn),
       :func:`.play.foul_first_fault` (changed only once put right), :func:`.play.mend_keeps_fault`
       and :func:`.play.mend_adds_fault` (a foul addition made good), :func:`.play.earlier_foul_back_fault`
       (one left since an earlier turn is only made good), :func:`.play.call_fault` (a call names
       a foul meld), :func:`.play.stray_mend_fault` (a lone mend answers a call),
       :func:`.play.found_at_call_ruling` (a foul meld left lying, found at its call)
I3     :func:`.play.closed_hand_fault` (a win stands before it: :func:`.play.winner_stands`)
=====  ====================================================================================

Every payment cites the rules it is made under (:attr:`~pancli.model.results.Payment.rules`),
and each is paid by one function:

=====  ====================================================================================
rule   the one function that pays under it
=====  ====================================================================================
C1-C5  :func:`.play.collect_laid` (a new meld's value as laid, C6 by the meld engine,
       under its conditions; a meld that is none is worth 0 and pays nothing)
C7     :func:`.play.collect_change` (the gain of an addition, a borrow or a split: the
       rules object's ``change_value``, which :func:`.play.collect_laid` asks too, from 0)
C8     :func:`.play.go_out` (the going-out bonus and the melds again)
T2     :func:`.play.pay_pot` (the forfeits and the tops, to the winner; after T4 too)
I1 I2  :func:`.play.transfer` (what the table paid for a foul meld on the player's word,
       and every return of a player who retires)
=====  ====================================================================================

A record's own figures are checked by one function each, which sets the rule a wrong claim is
reported under (:attr:`~pancli.model.results.ClaimCheck.rule`):

=====  ====================================================================================
claim  the one function that checks it
=====  ====================================================================================
C7     :func:`.play.pays` (``[%pays N]`` after a meld, an addition or a split)
C9     :func:`.play.check_claims` (the ``[Ledger]`` tag: each player's net units)
=====  ====================================================================================

tests/test_rulings_audit.py checks while hands are judged that each rule is ruled on (a claim
checked, a payment made) by its function here and by no other; the questions these judges share
with the analyzer, the batches and self-play are decided by the functions of
:data:`pancli.referee.deciders.DECIDERS`, which tests/test_one_rule_one_place.py changes to
see every caller follow.

This module only orders the judges: each ``verify`` asks them in turn, raises the first
ruling and returns a frozen plan, which ``apply`` uses (nothing is kept between the two).
:meth:`Table.fast_turn` plays the commonest turn lines in one go: it asks the same judges
without a plan per action and applies the turn by the functions the general path applies each
action by (its gain: benchmarks/README.md, "Figures behind the code"; tests compare the two
paths, ``referee_script(fast=False)``).

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
* Irregularities are put right and the hand goes on (``remedy``, the default; docs/rules.md):
  a deal's extras (the last cards written) are dead and a short deal is filled with unseen
  cards (I1); a foul meld (I2) is laid, paid what the record claims, and made good
  (``mend``), taken back (``back``) or, at the end of the turn, found; a player found with
  more than ten (I1) or a foul meld (I2) retires: out of ``active`` (the turn order) and in
  ``retired``, he pays every collection and the going-out payment (:meth:`Board.collect`)
  and collects nothing. Each is a :class:`~pancli.model.results.Remedy`, not a violation.
* Calls and counts (their section of :mod:`.play`) are ruled at the line where the record writes them: a foul
  meld that a later ``call`` names lies on the table after its turn and is found at the call
  (or made good on the next line); a deal of the wrong count that a later ``count`` names is
  found at the count, the player holding what he was dealt until then.

>>> from pancli.model.actions import HandScript, Decision
>>> t = Table(HandScript(players=("Ana", "Ben")))
>>> t.play_event(Decision("Ana", True)); t.play_event(Decision("Ben", True))
>>> t.in_turn.name
'Ana'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from pancli.cards import ALL_CARDS, Card
from pancli.melds import MeldError
from pancli.model.actions import (
    Action,
    Add,
    Borrow,
    Call,
    Count,
    Deal,
    Decision,
    Discard,
    Draw,
    Event,
    Force,
    HandScript,
    MeldNew,
    Mend,
    Reshuffle,
    Split,
    Take,
    TakeBack,
    Turn,
)
from pancli.model.results import HandResult, LinesKept, PanRemark, Payment, Ruling, Violation, is_plain_turn, turn_steps
from pancli.panrules import LaidMeld, PanRules
from pancli.referee import play
from pancli.referee.board import DECIDING, OUT, PLAYING, Board, Foul, Phase, Seat
from pancli.referee.play import (
    BorrowPlan,
    DiscardDue,
    DiscardPlan,
    FoulPlan,
    MeldPlan,
    MendPlan,
    SplitPlan,
    beyond_hand,
    card_fault,
    empty_stock_fault,
    plays_now,
    restocked_card_fault,
)
from pancli.rulebook import Rule
from pancli.values import Value

if TYPE_CHECKING:
    from pancli.referee.board import Located

__all__ = ["PanPlan", "Phase", "Table", "TakePlan", "referee_script"]


class TakePlan(Value):
    """A verified take: whether P8 forces the taken card to be added to a meld."""

    must_add: bool


PanPlan = TakePlan | MeldPlan | FoulPlan | MendPlan | Foul | BorrowPlan | SplitPlan | DiscardPlan | None
"""What ``verify`` of an action found and ``apply`` uses (None: a draw or ``out``)."""


def _raise(r: Ruling | None) -> None:
    if r is not None:
        raise r


def turn_fault(b: Board, turn: Turn) -> Ruling | None:
    """The first rule a turn line breaks by being played now: the hand is closed (I3), void
    (P10) or still deciding (T1); the player is not seated (S1), went on top (T3), or it is
    not his turn (P1)."""
    player = turn.player
    if play.plays_now(b, player):
        return None
    r = (
        play.closed_hand_fault(b, turn, player)
        or play.void_hand_fault(b, turn, player)
        or play.undecided_play_fault(b, turn, player)
    )
    if r is None:
        r = play.seated_fault(b, player, turn)
    if r is None:
        r = play.on_top_fault(b, b.by_name[player], turn) or play.out_of_turn_fault(b, turn)
    return r


def event_fault(b: Board, ev: Event) -> Ruling | None:
    """The first rule a decision, a ``force``, a ``reshuffle``, a ``call`` or a ``count`` line
    breaks: the hand is closed (I3) or void (P10); out of the decision round's order (T1); a
    player not seated (S1) or on top (T3); a force that P8 does not allow; a call or a count
    that I2 or I1 refuses."""
    kind = type(ev)
    if kind is Decision:
        assert isinstance(ev, Decision)
        return (
            play.closed_hand_fault(b, ev, ev.player)
            or play.decision_order_fault(b, ev)
            or play.seated_fault(b, ev.player, ev)
        )
    if kind is Force:
        assert isinstance(ev, Force)
        r = play.closed_hand_fault(b, ev, ev.player) or play.void_hand_fault(b, ev, ev.player)
        r = r or play.undecided_play_fault(b, ev, ev.player) or play.seated_fault(b, ev.player, ev)
        if r is None:
            r = play.on_top_fault(b, b.by_name[ev.player], ev) or play.seated_fault(b, ev.other, ev, by=ev.player)
        return r or play.force_line_fault(b, ev)
    if kind is Reshuffle:
        assert isinstance(ev, Reshuffle)
        return (
            play.closed_hand_fault(b, ev)
            or play.void_hand_fault(b, ev)
            or play.early_reshuffle_fault(b, ev)
            or play.undecided_play_fault(b, ev)
        )
    if kind is Call or kind is Count:
        assert isinstance(ev, Call | Count)
        r = play.closed_hand_fault(b, ev, ev.player) or play.void_hand_fault(b, ev, ev.player)
        r = r or play.seated_fault(b, ev.player, ev) or play.seated_fault(b, ev.other, ev, by=ev.player)
        # T1/T3: on top, he takes no further part; a retired player still pays, so he may call
        r = r or play.on_top_fault(b, b.by_name[ev.player], ev)
        if r is None:
            r = play.call_fault(b, ev) if isinstance(ev, Call) else play.count_fault(b, ev)
        return r
    raise TypeError(kind.__name__)  # pragma: no cover - Turn goes through play_event


def draw_fault(b: Board, a: Draw) -> Ruling | None:
    """The first rule a draw breaks (P1 is asked of every action): the live discard is forced
    on him (P8), the hand is void, the stock is empty or the card is not among those a reshuffle
    put in it (P10), the card is not one more of the pack (E1, E4)."""
    return (
        play.forced_draw_fault(b, a)
        or play.void_hand_fault(b, a)
        or play.empty_stock_fault(b, a)
        or play.restocked_card_fault(b, a)
        or play.card_fault(b, a.card, a)
    )


class Table(Board, LinesKept[HandResult, PanRemark]):
    """The state of one hand, driven line by line: :meth:`play_event` for play lines,
    or :meth:`verify` / :meth:`apply` for single actions inside a turn
    (:meth:`begin_turn` and :meth:`end_turn` around them).

    ``apply(a, plan)`` takes the plan that ``verify(a)`` returned.

    It is also the position of the hand (as a chess board is): :meth:`deal_in` seats and deals,
    :meth:`push` plays one line by the referee's one path (the one :func:`referee_script` plays
    every line by) and :meth:`pop` takes the last one back exactly, when the table keeps its
    lines (``undo``). What may be played next is asked of it: :attr:`to_act`, :attr:`offered`,
    :meth:`must_take`, :meth:`fits`, :meth:`must_keep`, and within a turn :meth:`discard_due`.
    """

    def __init__(
        self,
        script: HandScript,
        *,
        record_steps: bool = True,
        rules: PanRules | None = None,
        strict: bool = True,
        remedy: bool = True,
        fast: bool = True,
        undo: bool = False,
        after: HandResult | None = None,
    ) -> None:
        super().__init__(script, record_steps=record_steps, rules=rules)
        self.after = after
        """The record's hand before this one, whose winner sets this hand's order of play (S3)."""
        self.remedy = remedy
        self.strict = strict
        """The first violation stops the hand; False: each is recorded, its action (or line) skipped."""
        self.fast = fast
        """Plain turns by :meth:`fast_turn` (False: every turn through verify/apply, as tests compare)."""
        self.violations: list[Violation] = []
        """Every violation found so far, in order."""
        self.stopped = False
        """The hand stopped before play (seating, or a deal or the upcard under ``strict``)."""
        self.undo: list[tuple[Event, dict[str, object]]] | None = [] if undo else None
        """Each line pushed and the table as it was before it (None: lines are not kept, as in a replay)."""
        self.acted: list[dict[str, object]] = []
        """The table as it was before each action :meth:`push_action` pushed, for :meth:`pop_action`."""

    # ------------------------------------------------------------------ the position: push and pop

    def deal_in(self) -> bool:
        """Seat the players, deal and turn the upcard (S3, S1, S2, E1, E4, I1); False when the
        hand stops there (:attr:`stopped`): an order of play the hand :attr:`after` does not
        allow or a seating fault always, a deal's or the upcard's under :attr:`strict`
        (otherwise it is recorded and skipped)."""
        violations = self.violations
        strict = self.strict
        remedy = self.remedy
        s3 = None if self.after is None else play.next_hand_violation(self.after, self.script, self.rules)
        if s3 is not None:
            violations.append(s3)
            self.stopped = True
            return False
        try:
            self.verify_seating()
        except Ruling as r:
            violations.append(r.violation)
            self.stopped = True
            return False
        for d in self.script.deals:  # the family's functions, not the wrappers: a call less each
            try:
                plan = play.verify_deal(self, d)
            except Ruling as r:
                violations.append(r.violation)
                if strict:
                    self.stopped = True
                    return False
                continue
            bad = play.deal_fault(self, d)
            if bad is not None and not remedy:
                violations.append(bad.violation)
                if strict:
                    self.stopped = True
                    return False
            play.apply_deal(self, d, plan)
            if bad is not None and remedy:
                play.remedy_deal(self, d, bad.violation)
        try:
            self.verify_upcard()
        except Ruling as r:
            violations.append(r.violation)
            if strict:
                self.stopped = True
                return False
        else:
            self.apply_upcard()
        return True

    def push(self, ev: Event) -> tuple[Violation, ...]:
        """Play one play line (a turn, a decision, ``force``, ``reshuffle``, ``call``, ``count``)
        as the referee does and return the violations it brought (none: it was legal). Under
        :attr:`strict` a violation stops the hand: the caller pushes nothing after it."""
        undo = self.undo
        if undo is not None:
            undo.append((ev, self.snapshot()))
        if type(ev) is Turn and self.fast and self.fast_turn(ev):
            return ()
        return self.play_line(ev)

    def play_line(self, ev: Event) -> tuple[Violation, ...]:
        """:meth:`push` without keeping the line nor trying :meth:`fast_turn`: the general path,
        which asks every judge in order (a line :meth:`fast_turn` declined, or any other line)."""
        vs = self.violations
        n = len(vs)
        if type(ev) is Turn:
            _play_turn(self, ev, self.strict, vs)
        else:
            bad = event_fault(self, ev)
            if bad is not None:
                vs.append(bad.violation)
            elif type(ev) is Decision:
                play.apply_decision(self, ev)
            else:
                self.apply_event(ev)
        return () if len(vs) == n else tuple(vs[n:])

    def play_to(self, script: HandScript) -> bool:
        """Bring a table that keeps its lines to the lines of ``script``, the same hand written
        further or changed at its end (its deal and tags as the table's): the lines pushed that
        differ are taken back, the new ones pushed (none after a violation, under :attr:`strict`).
        False (nothing done) when a line to take back or to push changes how the lines before it
        are judged (:func:`.play.looks_back`): the hand is then refereed again from the deal."""
        undo = self.undo
        assert undo is not None, "a table that keeps its lines"
        events = script.events
        k = 0
        n = min(len(undo), len(events))
        while k < n and undo[k][0] == events[k]:
            k += 1
        looks_back = play.looks_back
        fresh = not undo and script is self.script  # dealt with these very lines in view
        if not fresh and (any(looks_back(ev) for ev, _ in undo[k:]) or any(looks_back(ev) for ev in events[k:])):
            return False
        while len(undo) > k:
            self.pop()
        self.script = script  # (the same hand: only where its claims were written may be new)
        if self.stopped or (self.strict and self.violations):
            return True
        for ev in events[k:]:
            if self.push(ev) and self.strict:
                break
        return True

    def snapshot(self) -> dict[str, object]:
        """The table as it stands, for :meth:`restore` (the lines kept by ``undo`` are not in it)."""
        # values, cards, laid melds and the profile's caches never change: the copy shares them,
        # and the long lists that hold only values are copied whole, not item by item
        state = dict(vars(self))
        del state["undo"], state["acted"]
        memo: dict[int, object] = {}
        for held in (self.steps, self.pile, self.ledger.payments, self.claims, self.notes, self.remedies, self.dead,
                     self.seen):  # fmt: skip
            if held is not None:
                memo[id(held)] = held.copy()
        memo[id(self.copies)] = self.copies  # (a tuple of numbers: deepcopy would walk it to give it back)
        import copy  # start-up: only a table that takes lines back copies itself

        return copy.deepcopy(state, memo)

    def restore(self, state: dict[str, object]) -> None:
        """Put the table back as :meth:`snapshot` found it; the lines and actions kept stay kept."""
        acted = self.acted
        super().restore(state)
        self.acted = acted

    # ------------------------------------------------------------------ the position: one action

    def open_turn(self, turn: Turn) -> Violation | None:
        """Begin the turn line ``turn`` as the referee does and return the rule its place breaks
        (:func:`turn_fault`; nothing begun), or None. A line of one ``mend``, or any line while a
        call waits for its answer, is the answer to the call on the line before (I2): played whole
        here (:func:`.play.answer`, or its stray mend refused), no turn left open."""
        if self.answering is not None or play.lone_mend(turn):
            stray = play.stray_mend_fault(self, turn)
            return play.answer(self, turn) if stray is None else stray.violation
        r = turn_fault(self, turn)
        if r is not None:
            return r.violation
        play.begin_turn(self, turn)
        return None

    def play_action(self, a: Action) -> Violation | None:
        """:meth:`push_action` without keeping the table: one action of the turn in progress,
        verified and applied (:meth:`verify`, :meth:`apply`); the rule it breaks is returned and
        nothing is applied. A count it shows wrong retires the player where the referee puts it
        right (I1): the rest of his turn is not played."""
        seat = self.seat
        assert seat is not None, "a turn in progress (open_turn)"
        if seat.retired is not None:
            return None
        try:
            plan = self.verify(a)
        except Ruling as r:
            if self.remedy and r.violation.rule is Rule.I1:
                play.retire(self, seat, r.violation, a)
                return None
            return r.violation
        self.apply(a, plan)
        return None

    def push_action(self, a: Action, turn: Turn) -> Violation | None:
        """Play action ``a`` of the turn line ``turn`` by the referee's one path (the one
        :meth:`push` plays a turn line by): the line opened first when it is not the turn in
        progress (:meth:`open_turn`), then :meth:`play_action`. Returns the rule broken (the
        line's place, or the action's), or None; the table as it was is kept for :meth:`pop_action`."""
        self.acted.append(self.snapshot())
        if self.turn is not turn:
            v = self.open_turn(turn)
            if v is not None or self.turn is not turn:
                return v
        return self.play_action(a)

    def close_turn(self) -> Violation | None:
        """End the turn in progress as the referee does: the rule its end breaks
        (:meth:`verify_turn_end`), the turn left open (a strict referee stops there; otherwise
        :meth:`end_turn` closes it all the same), or None and the turn closed (:meth:`end_turn`)."""
        try:
            self.verify_turn_end()
        except Ruling as r:
            return r.violation
        self.end_turn()
        return None

    def pop_action(self) -> None:
        """Take back the last action :meth:`push_action` pushed (and the opening of its line):
        the table is again exactly as it was (raises IndexError when none is kept)."""
        acted = self.acted
        if not acted:
            raise IndexError("no action pushed to take back")
        undo = self.undo
        self.__dict__ = acted.pop()  # (restore's own steps: a position looks at a draw this way)
        self.undo, self.acted = undo, acted

    def finish(self) -> HandResult:
        """The hand's result: the ``[Ledger]`` claim checked (C9) once play is over (a hand
        :attr:`stopped` before play has none to check)."""
        if not self.stopped:
            play.check_claims(self, self.violations)
        return self.result(self.violations)

    # ------------------------------------------------------------------ what may be played next

    @property
    def to_act(self) -> str | None:
        """Who decides (T1) or plays (P1) next; None when the hand is over."""
        if self.phase is DECIDING:
            return self.seats[self.decided].name
        if self.phase is PLAYING:
            return self.in_turn.name
        return None

    @property
    def offered(self) -> Card | None:
        """The live discard the player in turn may take instead of drawing (P3), or None."""
        return self.live if self.live_ok and self.phase is PLAYING else None

    def must_take(self) -> int:
        """P8 for the player in turn (the rules object's ``must_take``): -1 forced by a ``force``
        line, N: the live discard fits his meld #N under automatic forcing, 0: he may draw or take."""
        return self.rules.must_take(self.forced_by, self.in_turn, self.offered)

    def fits(self, seat: Seat, c: Card) -> int:
        """M5: the number of ``seat``'s first meld that ``c`` can be added to, or 0."""
        return seat.fits(self.rules, c)

    def must_keep(self, c: Card) -> bool:
        """P9: the player in turn must keep the unused stock draw ``c`` (the flat next player's
        melds take it), discarding a hand card instead (the rules object's ``must_keep_draw``)."""
        return self.rules.must_keep_draw(self.in_turn, self.next_seat, c)

    def may_force(self, player: str) -> bool:
        """P8 in demand mode: ``player`` may now demand that the player in turn take the live
        discard and add it (a ``NAME force OTHER`` line that :meth:`push` would accept: the same
        judges, :func:`event_fault`)."""
        seat = self.in_turn if self.phase is Phase.PLAYING else None
        return seat is not None and event_fault(self, Force(player, seat.name)) is None

    def discard_due(self) -> DiscardDue:
        """What the discard that ends the turn must be, as the turn stands after the draw and
        any melds (:func:`.play.discard_due`): the unused stock draw at once (P2), a hand card
        but the kept draw (P9), any hand card (P5), or none now (P1 before the draw, P3 and P4
        before the drawn card is used, P7 when he went out).

        >>> from pancli.notation.fast import fast_cards  # doctest only; the engine never parses
        >>> from pancli.model.actions import Deal, Decision, Turn, Draw
        >>> c = fast_cards
        >>> deals = (Deal("Ana", c("5s 5s 2h 3h Kd Kh Kc 2c 7d Jc")), Deal("Ben", c("2d 2d 6c Jd Jd Qs 4s 4s 6h 7c")))
        >>> t = Table(HandScript(players=("Ana", "Ben"), upcard=c("4c")[0], deals=deals))
        >>> t.deal_in(), t.push(Decision("Ana", True)), t.push(Decision("Ben", True))
        (True, (), ())
        >>> t.discard_due().rule
        Rule.P1
        >>> draw = Draw(c("Qd")[0])
        >>> t.push_action(draw, Turn("Ana", (draw,)))  # None: legal
        >>> due = t.discard_due()
        >>> due.rule, due.due.value, str(due.card)
        (Rule.P2, 'the draw', 'Qd')
        """
        return play.discard_due(self)

    def discards_after(self, turn: Turn) -> tuple[Card, ...] | None:
        """The cards the discard ending ``turn`` may be: the turn line as written so far (its draw
        or take and any melds, no discard yet) played as :meth:`push` plays it, the
        :meth:`discard_due` then asked of each card the player is known to hold, and the table put
        back. None when the line may not be played or one of its actions is refused (the
        referee's ruling is what the line gets when it is entered).

        >>> from pancli.notation.fast import fast_cards  # doctest only; the engine never parses
        >>> from pancli.model.actions import Deal, Decision, Turn, Draw, MeldNew
        >>> c = fast_cards
        >>> deals = (Deal("Ana", c("5s 5s 2h 3h Kd Kh Kc 2c 7d Jc")), Deal("Ben", c("2d 2d 6c Jd Jd Qs 4s 4s 6h 7c")))
        >>> t = Table(HandScript(players=("Ana", "Ben"), upcard=c("4c")[0], deals=deals), undo=True)
        >>> t.deal_in(), t.push(Decision("Ana", True)), t.push(Decision("Ben", True))
        (True, (), ())
        >>> [str(x) for x in t.discards_after(Turn("Ana", (Draw(c("Qd")[0]),)))]  # P2: the draw
        ['Qd']
        >>> meld = Turn("Ana", (Draw(c("5s")[0]), MeldNew(c("5s 5s 5s"))))
        >>> " ".join(map(str, t.discards_after(meld) or ())), t.discard_due().rule  # P5; the table is put back
        ('2h 2c 3h 7d Jc Kh Kd Kc', Rule.P1)
        """
        pushed = 0
        try:
            for a in turn.actions:
                pushed += 1
                if self.push_action(a, turn) is not None:
                    return None
            seat = self.seat
            if self.turn is not turn or seat is None or seat.retired is not None:
                return None  # no turn open (a lone mend answers a call, I2), or he retired (I1)
            due = self.discard_due()
            return tuple(c for c in ALL_CARDS if due.allows(c, held=seat.hand[c.index] > 0))
        finally:
            for _ in range(pushed):
                self.pop_action()

    # ------------------------------------------------------------------ seating and deal

    def verify_seating(self) -> None:
        """S1: 2 to 15 players, names unique."""
        _raise(play.seating_fault(self))

    def verify_deal(self, d: Deal) -> play.DealPlan:
        """S1/S2 (a seated player, dealt once) and E1/E4 for the dealt cards; the count is
        :meth:`verify_deal_count`."""
        return play.verify_deal(self, d)

    def verify_deal_count(self, d: Deal) -> None:
        """I1: ten cards to each player (S2); where the referee puts it right (:attr:`remedy`),
        a wrong count is not raised: :meth:`apply_deal` puts it right."""
        bad = play.deal_fault(self, d)
        if not self.remedy:
            _raise(bad)

    def apply_deal(self, d: Deal, plan: play.DealPlan | None = None) -> None:
        """Put the dealt cards in the player's hand (I1 puts a wrong count right, recorded as a
        remedy where the referee puts it right)."""
        play.apply_deal(self, d, plan)
        if self.remedy:
            bad = play.deal_fault(self, d)
            if bad is not None:
                play.remedy_deal(self, d, bad.violation)

    def verify_upcard(self) -> None:
        """E1/E4 for the upcard (S2)."""
        play.verify_upcard(self)

    def apply_upcard(self) -> None:
        """The upcard starts the discard pile (S2, P3)."""
        play.apply_upcard(self)

    # ------------------------------------------------------------------ play lines

    def play_event(self, ev: Event) -> None:
        """Verify and apply one play line (a turn as a whole); raises Ruling."""
        if isinstance(ev, Turn):
            violations: list[Violation] = []
            if not _play_turn(self, ev, True, violations):
                raise Ruling(violations[0])
            return
        self.verify_event(ev)
        self.apply_event(ev)

    def verify_event(self, ev: Event) -> None:
        """Verify a decision, a ``force`` or a ``reshuffle`` line (:func:`event_fault`)."""
        _raise(event_fault(self, ev))

    def apply_event(self, ev: Event) -> None:
        """Apply a verified decision, ``force`` or ``reshuffle`` line."""
        if isinstance(ev, Decision):
            play.apply_decision(self, ev)
        elif isinstance(ev, Force):
            self.forced_by = ev.player
            self.step(ev, None, ev, [])
        elif isinstance(ev, Reshuffle):
            play.apply_reshuffle(self, ev)
        elif isinstance(ev, Call):
            play.apply_call(self, ev)
        elif isinstance(ev, Count):
            play.apply_count(self, ev)

    # ------------------------------------------------------------------ turns

    def verify_turn(self, turn: Turn) -> None:
        """The line's player may play now (:func:`turn_fault`)."""
        _raise(turn_fault(self, turn))

    def begin_turn(self, turn: Turn) -> None:
        """Start the verified turn ``turn``."""
        play.begin_turn(self, turn)

    def verify(self, a: Action) -> PanPlan:
        """Raise a Ruling if action ``a`` is not allowed now; else what :meth:`apply` needs."""
        _raise(play.closed_hand_fault(self, a) or play.discard_fault(self, a) or play.draw_first_fault(self, a))
        kind = type(a)
        if kind is Draw:
            _raise(draw_fault(self, a))  # type: ignore[arg-type]
            return None
        if kind is Discard:
            return play.verify_discard(self, a)  # type: ignore[arg-type]
        if kind is MeldNew:
            assert isinstance(a, MeldNew)
            cards = play.plan_cards(self, a.cards, a, borrowed=True)
            _raise(play.forced_new_meld_fault(self, a, cards))
            laid = play.laid_or_foul(self, a.cards, a)
            return MeldPlan(cards, laid) if type(laid) is not Violation else FoulPlan(cards, laid)  # type: ignore[arg-type]
        if kind is Add:
            return play.verify_add(self, a)  # type: ignore[arg-type]
        if kind is Take:
            assert isinstance(a, Take)
            r = play.taken_card_fault(self, a)
            if r is None and self.live is None:
                r = play.card_fault(self, a.card, a)
            _raise(r)
            assert self.seat is not None
            return TakePlan(self.rules.must_take(self.forced_by, self.seat, a.card) != 0)
        if kind is Borrow:
            return play.verify_borrow(self, a)  # type: ignore[arg-type]
        if kind is Split:
            return play.verify_split(self, a)  # type: ignore[arg-type]
        if kind is Mend:
            return play.verify_mend(self, a)  # type: ignore[arg-type]
        if kind is TakeBack:
            return play.verify_back(self, a)  # type: ignore[arg-type]
        if not self.fouls:  # going out with a foul meld is no going out: it is found (I2)
            # Out
            _raise(play.not_out_fault(self, a) or play.going_out_count_fault(self, a))  # type: ignore[arg-type]
        return None

    def apply(self, a: Action, plan: PanPlan = None) -> None:
        """Apply the verified action ``a`` with the ``plan`` its :meth:`verify` returned."""
        kind = type(a)
        payments: list[Payment] = []
        if kind is Draw:
            play.apply_draw(self, a)  # type: ignore[arg-type]
        elif kind is Discard:
            play.apply_discard(self, a, plan)  # type: ignore[arg-type]
        elif kind is MeldNew:
            payments = play.apply_meld(self, a, plan)  # type: ignore[arg-type]
        elif kind is Add:
            payments = play.apply_add(self, a, plan)  # type: ignore[arg-type]
        elif kind is Take:
            play.apply_take(self, a, plan.must_add)  # type: ignore[arg-type, union-attr]
        elif kind is Borrow:
            payments = play.apply_borrow(self, a, plan)  # type: ignore[arg-type]
        elif kind is Split:
            payments = play.apply_split(self, a, plan)  # type: ignore[arg-type]
        elif kind is Mend:
            payments = play.apply_mend(self, a, plan)  # type: ignore[arg-type]
        elif kind is TakeBack:
            payments = play.apply_back(self, a, plan)  # type: ignore[arg-type]
        elif not self.fouls:
            play.go_out(self, a)  # type: ignore[arg-type]
        if self.steps is not None:
            self.step(self.turn, a, a, payments)

    def verify_turn_end(self) -> None:
        """The turn is complete: a draw (P1), borrowed cards used (M6), then a discard with ten
        cards held and melded (P7), or the draw used (P3, P2), every card melded (P5) and the
        eleventh melded (P7)."""
        turn = self.turn
        assert self.seat is not None and turn is not None
        if self.out or self.seat.retired is not None:
            return
        if self.fouls:  # not made good nor taken back: found now, or left lying for a later call (I2)
            found = play.stand_or_find(self, self.seat)
            if found is not None:
                play.retire(self, self.seat, found.violation, self._last_place(turn))
                return
        r = play.drawless_turn_fault(self, turn) or play.unused_borrow_fault(self, turn)
        if r is None:
            if self.discarded:
                r = play.ten_cards_fault(self, turn)
            else:
                r = (
                    play.unmelded_take_fault(self, turn)
                    or play.unused_draw_at_end_fault(self, turn)
                    or play.undiscarded_turn_fault(self, turn)
                    or play.going_out_count_fault(self, turn)
                )
        _raise(r)

    @staticmethod
    def _last_place(turn: Turn) -> Located:
        """Where a foul meld is found: the turn's discard, or its last action (I2)."""
        return turn.actions[-1] if turn.actions else turn

    def end_turn(self) -> None:
        """Close the turn: going out when the hand is empty (C8), then the next player is in turn.

        A plain turn line whose two steps were just recorded is recorded whole, as
        :meth:`fast_turn` records it (one form for one play, whichever path played it)."""
        steps = self.steps
        turn = self.turn
        if steps is not None and turn is not None and is_plain_turn(turn) and steps[-2:] == [*turn_steps(turn)]:
            steps[-2:] = [turn]
        play.end_turn(self)

    # ------------------------------------------------------------------ the fast path

    def fast_turn(self, turn: Turn) -> bool:
        """Play a plain ``draw C, discard C`` turn (the commonest line) in one go when the
        judges that such a turn can break (:func:`turn_fault`, P8, P10, E1, E4, P9, P7) all
        hold; any other turn goes to :meth:`_fast_meld_turn`. False (nothing changed) sends it
        through the general path, which asks every judge in order and names the rule broken.

        It is applied by :func:`.play.plain_turn`, through the functions the general path's
        draw, discard and end of turn change the table by. The judges are bound to module names
        (not looked up on their modules) and the seat's position is read once: the plain turn
        is the most common one (benchmarks/README.md, "Figures behind the code")."""
        acts = turn.actions
        if len(acts) != 2 or type(acts[1]) is not Discard or type(acts[0]) is not Draw:
            return self._fast_meld_turn(turn)
        d = acts[0]
        x = acts[1]
        c = d.card
        if (x.card is not c and x.card != c) or not plays_now(self, turn.player):
            return False
        active = self.active
        pos = self.pos + 1
        if pos == len(active):
            pos = 0
        s = active[pos - 1]
        rules = self.rules
        if (
            s.standing  # his foul melds left lying are found at his turn's end (I2): the general path
            or not rules.holds_ten(s.hand_n, s.melded_n, s.size)
            or rules.must_take(self.forced_by, s, self.live if self.live_ok else None)
            or empty_stock_fault(self, d) is not None
            or restocked_card_fault(self, d) is not None
            or card_fault(self, c, d) is not None
            or rules.must_keep_draw(s, active[pos], c)  # P9: he must keep it
        ):
            return False
        play.plain_turn(self, c)
        steps = self.steps
        if steps is not None:
            steps.append(turn)  # its two steps, recorded whole (model.results.Recorded)
        return True

    def _fast_meld_turn(self, turn: Turn) -> bool:
        """Play a turn of a draw or a take, new melds and additions of known hand cards that
        use the drawn card, then a discard (or going out with the last card), in one go when
        the judges such a turn can break all hold (the place of the line, P8, P10, E1, E4,
        P3, P6, M1-M5 and C7 by the meld engine, P4, P7); False (nothing changed) sends it
        through the general path.

        Only the checks are its own: it is applied by the functions the general path applies
        a turn by: :func:`.play.begin_turn`, :func:`.play.apply_draw` or
        :func:`.play.apply_take`, for each meld the moves of :func:`.play.use_plan`
        (:func:`.play.move_to_meld`) and then :func:`.play.lay` (a new meld, as
        :func:`.play.apply_meld`) or :func:`.play.grow_to` (an addition, as
        :func:`.play.apply_add`), :func:`.play.discard_hand_card` (as
        :func:`.play.apply_discard`) and :func:`.play.end_turn`, recording the same steps.
        tests/test_position_push_pop.py checks that it leaves the table as the general path does."""
        acts = turn.actions
        if len(acts) < 2 or self.forced_by is not None or not plays_now(self, turn.player):
            return False
        s = self.active[self.pos]
        if s.unknown or s.standing or not self.rules.holds_ten(s.hand_n, s.melded_n, s.size):
            return False  # (foul melds left lying renumber his melds: the general path)
        first: Draw | Take = acts[0]  # type: ignore[assignment]
        kind = type(first)
        if kind is Draw:
            if self.rules.must_take(self.forced_by, s, self.live if self.live_ok else None):
                return False
            if (
                empty_stock_fault(self, first) is not None  # type: ignore[arg-type]
                or restocked_card_fault(self, first) is not None  # type: ignore[arg-type]
                or card_fault(self, first.card, first) is not None
            ):
                return False
        elif kind is Take:
            if (
                self.live is None
                or play.taken_card_fault(self, first) is not None  # type: ignore[arg-type]
                or self.rules.must_take(self.forced_by, s, first.card)
            ):
                return False  # P8: the taken card must be added (the general path checks that)
        else:
            return False
        pend = first.card
        last: Discard = acts[-1]  # type: ignore[assignment]
        discard = type(last) is Discard
        middle = acts[1:-1] if discard else acts[1:]
        rules = self.rules
        taken: dict[int, int] = {}
        melds = list(s.melds)
        done: list[tuple[MeldNew | Add, LaidMeld, bool, dict[int, int], int]] = []
        pending_used = False
        used = 0
        melded = 0
        a: MeldNew | Add
        for a in middle:  # type: ignore[assignment]
            if type(a) is MeldNew:
                lm = rules.laid(a.cards)
                if lm is None:
                    return False
                melds.append(lm)
            elif type(a) is Add:
                n = a.target
                if not play.owns(n, len(melds)):
                    return False
                grown = rules.grown(melds[n - 1], a.cards)
                if isinstance(grown, MeldError):
                    return False
                lm = grown
                melds[n - 1] = lm
            else:
                return False
            need: dict[int, int] = {}
            uses = False
            for c in a.cards:
                # (equal cards have one index: comparing Cards is a Python call per pair)
                if not pending_used and (c is pend or c.index == pend.index):
                    pending_used = uses = True
                    continue
                i = c.index
                need[i] = need.get(i, 0) + 1
                taken[i] = taken.get(i, 0) + 1
            k = len(a.cards) - uses
            used += k
            melded += len(a.cards)
            done.append((a, lm, uses, need, k))
        if not pending_used:
            return False  # P2, P3, P4
        left = s.hand_n - used
        if discard:
            i = last.card.index
            taken[i] = taken.get(i, 0) + 1
            left -= 1
            if not rules.holds_ten(left, s.melded_n + melded, s.size):
                return False
        elif rules.ending(len(self.active), left) is not OUT:
            return False  # going out (the rules object's ending)
        elif not rules.out_holds_ten(s.melded_n + melded, s.size):
            return False
        if beyond_hand(s.hand, taken):
            return False  # E4 (or M6): the general path names it
        # every judge holds: applied by the functions the general path applies each action by
        # (its plans' cards known, no PanPlan built: benchmarks/README.md, "Figures behind the code")
        play.begin_turn(self, turn)
        record = self.steps is not None
        if kind is Draw:
            play.apply_draw(self, first)  # type: ignore[arg-type]
        else:
            play.apply_take(self, first, False)  # type: ignore[arg-type]
        if record:
            self.step(turn, first, first, [])
        move_to_meld = play.move_to_meld
        for a, lm, uses, need, k in done:
            move_to_meld(self, s, a.cards, uses, (), need.items(), k)
            payments = (
                play.lay(self, s, a, lm) if type(a) is MeldNew else play.grow_to(self, s, a, a.target - 1, lm)  # type: ignore[arg-type, union-attr]
            )
            if record:
                self.step(turn, a, a, payments)
        if discard:
            play.discard_hand_card(self, s, last.card, False)
            if record:
                self.step(turn, last, last, [])
        play.end_turn(self)
        return True

    # ------------------------------------------------------------------ results

    def check_claims(self, violations: Sequence[Violation] = ()) -> None:
        """Check the ``[Ledger]`` claim against the ledger (one ClaimCheck per player named)."""
        play.check_claims(self, violations)

    def result(self, violations: list[Violation]) -> HandResult:
        """The hand's result so far."""
        return play.result(self, violations)


def referee_script(
    script: HandScript,
    *,
    strict: bool = True,
    record_steps: bool = True,
    remedy: bool = True,
    fast: bool = True,
    rules: PanRules | None = None,
    after: HandResult | None = None,
) -> HandResult:
    """Referee one Panguingue hand (docs/rules.md).

    Strict (the default): the first violation stops the hand; the ledger holds the payments
    made up to it and the winner is None (but a hand won before an I3 violation keeps its
    winner). Non-strict: every violation is recorded, the
    offending action (or line) is skipped, and play goes on. ``record_steps=False`` skips
    the per-action :class:`Step` records (bulk replay).

    ``remedy`` (the default): an irregularity is put right as the rulebook prescribes and the
    hand goes on (I1: a wrong count at the deal is put right, one shown later retires the
    player; I2: a foul meld not made good by the end of the player's turn retires him); each
    is in :attr:`HandResult.remedies`. ``remedy=False`` (``--strict``): it is a violation.
    ``fast=False`` plays every turn through the general path, never :meth:`Table.fast_turn`
    (tests compare the two paths). ``rules``: the rules object of the script's profile
    (:class:`~pancli.panrules.PanRules`, or a subclass that answers a question otherwise),
    kept by a caller that referees many hands (:class:`~pancli.panrules.PanRulesByProfile`);
    a fresh one without. ``after``: the record's hand before this one, whose winner sets
    this hand's order of play (S3); a hand whose order it refuses stops before play.

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
    >>> r = referee_script(script)
    >>> r.ok, r.ledger, [p.rule for p in r.payments]
    (True, {'Ana': 4, 'Ben': -4}, ['C2'])
    """
    table = Table(script, record_steps=record_steps, rules=rules, strict=strict, remedy=remedy, fast=fast, after=after)
    if not table.deal_in():
        return table.finish()
    # push's two halves asked here: a table that keeps no lines takes no snapshot
    fast_turn = table.fast_turn if fast else None
    play = table.play_line
    for ev in script.events:
        if fast_turn is not None and type(ev) is Turn and fast_turn(ev):
            continue
        if play(ev) and strict:
            break
    return table.finish()


def _play_turn(table: Table, turn: Turn, strict: bool, violations: list[Violation]) -> bool:
    """Play one turn line through the general path, :meth:`Table.push_action`'s parts in turn:
    the line opened (or, a lone mend, the call answered whole: I2), each action played, the turn
    closed. False when a violation stops the hand (strict); otherwise a refused line is skipped
    whole and a refused action alone."""
    v = table.open_turn(turn)
    if v is not None:
        violations.append(v)
        return not strict
    if table.turn is not turn:
        return True  # answered
    play_action = table.play_action
    for a in turn.actions:
        v = play_action(a)
        if v is not None:
            violations.append(v)
            if strict:
                return False
    v = table.close_turn()
    if v is not None:
        violations.append(v)
        if strict:
            return False
        table.end_turn()
    return True
