"""The PAGRUC referee (G1-G7): one :class:`~pancli.model.actions.HandScript` with
``game=Game.PAGRUC`` in, a :class:`PagrucHandResult` out.

A :class:`PagrucTable` (the :class:`~pancli.pagruc.board.PagrucBoard` of the hand) plays it line by line.

Each rule is judged by one function of :mod:`~pancli.pagruc.judges`, which returns the
:class:`~pancli.model.results.Ruling` when the rule is broken, and each claim is checked by one
(tests/test_one_rule_one_place.py and tests/test_rulings_audit.py keep these tables true).
The questions ``pan check`` and ``pan score`` ask too (the pack, a meld, a lay-off, the points)
are those of the :class:`~pancli.pagruc.rules.PagrucRules` handed to :func:`referee_script`:

=====  ====================================================================================
rule   the one function that judges it
=====  ====================================================================================
G1     :func:`.judges.pack_fault` (conservation, by the rules object's ``beyond``, which its
       ``meld``, ``lay_off`` and ``score`` and ``pan check`` ask too; the players and packs are
       :func:`.pack.pack_problem`'s, whose official minimum, :func:`.pack.official_problem`,
       the standings ask),
       one function a question: :func:`.judges.seating_fault` (players and packs),
       :func:`.judges.meld_copies_fault` (within one meld: the rules object's ``meld`` verdict)
G2     :func:`.judges.deal_fault`, one function a question: :func:`.judges.upcard_fault`
G3     :func:`.judges.take_first_fault` (a turn starts with a take),
       one function a question: :func:`.judges.second_take_fault` (one take a turn),
       :func:`.judges.after_discard_fault` (the discard ends the turn),
       :func:`.judges.pile_take_fault` (a take of the cards on the pile),
       :func:`.judges.panguingue_action_fault` (an action PAGRUC has),
       :func:`.judges.panguingue_line_fault` (a line PAGRUC has),
       :func:`.judges.turn_player_fault` (a player of the hand),
       :func:`.judges.turn_order_fault`, :func:`.judges.idle_turn_fault` (a turn that does
       something), :func:`.judges.held_cards_fault`, :func:`.judges.unended_turn_fault`
G4     :func:`.judges.meld_fault` (the verdict of the rules object's ``meld``)
G5     :func:`.judges.lay_off_fault` (with the rules object's ``lay_off``)
G6     :func:`.judges.hand_over_fault` (no line after the discard where the rules object's
       ``hand_over`` said the hand ended),
       one function a question: :func:`.judges.last_card_melded_fault` (a turn that ends
       without a discard did not meld the last card: the rules object's
       ``kept_card_to_discard``), :func:`.judges.out_with_cards_fault`
       (``out`` with no card left), :func:`.judges.empty_stock_fault` (a draw from a stock
       that holds a card), :func:`.judges.turned_over_card_fault` (a card drawn from a
       turned-over stock is in it), :func:`.judges.early_reshuffle_fault` (a reshuffle of an
       empty stock), :func:`.judges.nothing_to_turn_over_fault` (cards under the top discard)
=====  ====================================================================================

=====  ====================================================================================
claim  the one function that checks it
=====  ====================================================================================
G7     :func:`.judges.check_claim` (``[%pays N]``: the points a meld scores; ``[Ledger]``:
       the hand scores, the rules object's ``points``)
=====  ====================================================================================

As in Panguingue's :class:`~pancli.referee.table.Table`, this module only orders the judges:
each ``verify`` asks them in turn, raises the first ruling and returns a frozen plan, which
``apply`` carries out. A card dealt, turned up or drawn is counted against the pack (G1) once it
is in play: its plan holds that ruling, which ``apply`` raises after placing the card.

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
>>> r = referee_script(script)
>>> r.winner, dict(r.scores)
('Ben', {'Ana': 61, 'Ben': 35, 'Cy': -29})
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING, ClassVar, Final, Literal

from msgspec import field

from pancli.cards import Card, Game, format_cards
from pancli.model.actions import (
    Action,
    Add,
    Deal,
    Discard,
    Draw,
    Event,
    HandScript,
    Lay,
    MeldNew,
    Out,
    Reshuffle,
    Turn,
)
from pancli.model.results import (
    DEAL,
    DISCARD_PILE,
    HAND,
    MELD,
    STOCK,
    ClaimCheck,
    ClaimKind,
    ClaimNotCompared,
    LinesKept,
    Remark,
    Ruling,
    Source,
    Step,
    Violation,
)
from pancli.pagruc import judges
from pancli.pagruc.board import PagrucBoard, TableMeld
from pancli.pagruc.melds import PagrucMeld
from pancli.pagruc.rules import PagrucRules
from pancli.pagruc.scoring import CardScore
from pancli.rulebook import Rule
from pancli.rules import Ending, MeldError
from pancli.values import Value

if TYPE_CHECKING:
    from decimal import Decimal

__all__ = [
    "ClaimNotFinished",
    "ClaimScoreUnknown",
    "ClaimStopped",
    "HandNotFinished",
    "NoDealLine",
    "PagrucHandResult",
    "PagrucPlan",
    "PagrucRemark",
    "PagrucTable",
    "ScoreUnknown",
    "TableMeld",
    "referee_script",
]


class TurnPlan(Value):
    """A turn line verified as a whole: ``late``, its ruling when it is out of order (G3; a
    non-strict referee still plays it), and ``idle``, when it does nothing (G3)."""

    late: Ruling | None
    idle: Ruling | None


class PagrucMeldPlan(Value):
    """A verified new meld; ``revealed``: how many of its cards were unknown ones of the hand."""

    meld: PagrucMeld
    revealed: int


class LayPlan(Value):
    """A verified lay-off: the meld laid on, what it grows into, and ``revealed`` as a meld's."""

    target: TableMeld
    grown: PagrucMeld
    revealed: int


PagrucPlan = Ruling | PagrucMeldPlan | LayPlan | int | None
"""What ``verify`` of an action found and ``apply`` uses: for a draw, the G1 ruling on the card
once drawn (None: it is one more of the pack); for a discard, ``revealed`` as a meld's."""


class NoDealLine(Remark):
    """G1: ``player`` has no deal line: the ``cards`` dealt to him are unknown, trusted to be
    within the pack."""

    rule: ClassVar[Rule] = Rule.G1

    player: str
    cards: int


class ScoreUnknown(Remark):
    """G7: ``player``'s score cannot be computed: ``hidden`` unknown cards (no deal line) are
    left in his hand, and they count minus."""

    rule: ClassVar[Rule] = Rule.G7

    player: str
    hidden: int


class HandNotFinished(Remark):
    """G6: nobody discarded the last card in hand: the record stops before the hand's end."""

    rule: ClassVar[Rule] = Rule.G6


class ClaimStopped(ClaimNotCompared):
    """G7: the Ledger claim at ``line`` cannot be compared: a violation of ``stopped_by`` at
    ``stopped_at`` stopped the hand before its end (Panguingue's C9 remark, under PAGRUC's rule)."""

    rule: ClassVar[Rule] = Rule.G7


class ClaimNotFinished(Remark):
    """G7: the Ledger claim at ``line`` cannot be compared: the hand is not finished."""

    rule: ClassVar[Rule] = Rule.G7

    line: int


class ClaimScoreUnknown(Remark):
    """G7: the Ledger claim at ``line`` for ``player`` cannot be checked: his score is unknown
    (:class:`ScoreUnknown`)."""

    rule: ClassVar[Rule] = Rule.G7

    line: int
    player: str


PagrucRemark = NoDealLine | ScoreUnknown | HandNotFinished | ClaimStopped | ClaimNotFinished | ClaimScoreUnknown
"""A PAGRUC referee's remark (``PagrucHandResult.notes``)."""


class PagrucHandResult(Value):
    """The referee's result for one PAGRUC hand (a :class:`~pancli.model.results.JudgedHand`).

    ``scores`` maps every player to his hand score (G7), or None when cards left in his hand
    are unknown (no deal line): ``hidden`` says how many. ``cards`` lists each player's card
    contributions: the cards he laid on the table (in the order laid), then the known cards
    left in his hand. ``winner`` is the player who discarded his last card (G6); ``finished``
    is False when the record stops before that. ``ending`` says how the hand ended, under
    ``ending_rule``, as for Panguingue (:class:`~pancli.rules.Ending`): ``OUT`` (G6),
    ``STOPPED`` by a violation (its rule; the seating or the deal, or any in strict
    refereeing) or ``UNFINISHED`` (the record stops first). ``violations`` holds at most the first
    violation in strict refereeing (it stops the hand). ``notes`` are its remarks, as
    values (:data:`PagrucRemark`: an unknown hand, an unfinished hand).
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
    notes: tuple[PagrucRemark, ...] = ()
    first_line: int = 0
    steps: tuple[Step, ...] = ()
    ending: Ending = Ending.UNFINISHED
    ending_rule: str | None = None

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


_LAYS: Final = (Lay, Add)
"""Lay and add, as one tuple made once (a union ``Lay | Add`` is built at each call)."""


def _raise(r: Ruling | None) -> None:
    if r is not None:
        raise r


class PagrucTable(PagrucBoard, LinesKept[PagrucHandResult, PagrucRemark]):
    """One PAGRUC hand as a position: :meth:`deal_in`, then :meth:`push` of each play line (and
    :meth:`pop` to take the last back), :meth:`finish` for the result; as Panguingue's
    :class:`~pancli.referee.table.Table`. A line is played by :meth:`verify_event` /
    :meth:`apply_event`, or for a turn line :meth:`verify_turn`, then :meth:`verify` /
    :meth:`apply` for each of its actions and :meth:`verify_turn_end`; :meth:`push_action` plays
    one action of it by the same path, :meth:`close_turn` its end.

    >>> from pancli.cards import ALL_CARDS
    >>> c = {str(x): x for x in ALL_CARDS}
    >>> cards = lambda text: tuple(c[t] for t in text.split())
    >>> script = HandScript(players=("Ana", "Ben"), game=Game.PAGRUC, upcard=c["Kh"],
    ...     deals=(Deal("Ana", cards("5h 6h 7h Ac Ad As Ks")), Deal("Ben", cards("2c 3c 4c 5c 6c 7c 8c"))))
    >>> t = PagrucTable(script, undo=True)
    >>> t.deal_in()
    True
    >>> bad = Turn("Ben", (Draw(c["2s"]), Discard(c["2s"])))
    >>> [str(v.rule) for v in t.push(bad)], t.pushed
    (['G3'], 1)
    >>> t.pop(); t.violations, t.stopped, t.pushed
    ([], False, 0)
    >>> t.push(Turn("Ana", (Draw(c["2s"]), MeldNew(cards("5h 6h 7h")), Discard(c["2s"]))))
    ()
    >>> t.finish().scores["Ana"]
    -37
    """

    def __init__(
        self,
        script: HandScript,
        *,
        record_steps: bool = True,
        rules: PagrucRules | None = None,
        strict: bool = True,
        undo: bool = False,
    ) -> None:
        super().__init__(script, record_steps=record_steps, rules=rules)
        self.strict = strict
        """The first violation stops the hand; False: each is recorded, its action (or line) skipped."""
        self.violations: list[Violation] = []
        """Every violation found so far, in order."""
        self.stopped = False
        """A violation stopped the hand (at the seating or the deal always; in play under :attr:`strict`)."""
        self.notes: list[PagrucRemark] = []
        """The referee's remarks so far, in order."""
        self.undo: list[tuple[Event, dict[str, object]]] | None = [] if undo else None
        """Each line pushed and the table as it was before it (None: lines are not kept, as in a replay)."""
        self.turn: Turn | None = None
        """The turn line in progress (:meth:`push_action` began it, :meth:`close_turn` ends it), or None."""
        self.kept_actions: list[dict[str, object]] = []
        """The table as it was before each action :meth:`push_action` pushed (for :meth:`pop_action`)."""

    # ------------------------------------------------------------------ the position: push and pop

    def deal_in(self) -> bool:
        """Seat the players, deal and turn the up card (G1, G2); False when the hand stops
        there (:attr:`stopped`): a violation of the seating or the deal stops it, strict or not.
        With no up card yet the hand is still being dealt: its first play line is refused (G2)."""
        seen: set[str] = set()
        try:
            self.verify_seating()
            for d in self.script.deals:
                self.apply_deal(d, seen, self.verify_deal(d, seen))
            if self.script.upcard is not None:
                self.apply_upcard(seen, self.verify_upcard(seen))
        except Ruling as r:
            self.violations.append(r.violation)
            self.stopped = True
            return False
        return True

    def push(self, ev: Event) -> tuple[Violation, ...]:
        """Play one play line (a turn or a reshuffle; a Panguingue line is refused, G3) and
        return the violations it brought (none: it was legal). Under :attr:`strict` a violation
        stops the hand: the caller pushes nothing after it; so does a play line before the up
        card (G2), strict or not."""
        if self.undo is not None:
            self.undo.append((ev, self.snapshot()))
        vs = self.violations
        n = len(vs)
        try:
            self.verify_event(ev)
            if isinstance(ev, Reshuffle):
                self.apply_event(ev)
            elif isinstance(ev, Turn) and not _play_turn(self, ev, self.strict, vs):
                self.stopped = True
        except Ruling as r:
            vs.append(r.violation)
            if self.strict or not self.dealt:
                self.stopped = True
        return () if len(vs) == n else tuple(vs[n:])

    def snapshot(self) -> dict[str, object]:
        """The table as it stands, for :meth:`restore` (the lines and actions kept are not in it)."""
        state = dict(vars(self))
        del state["undo"], state["kept_actions"]
        import copy  # start-up: only a table that takes lines back copies itself

        shared = {id(x): x for x in (self.script, self.rules, self.pack)}  # values: the copy shares them
        return copy.deepcopy(state, shared)

    def restore(self, state: dict[str, object]) -> None:
        """Put the table back as :meth:`snapshot` found it; the lines and actions kept stay kept."""
        kept = self.kept_actions
        super().restore(state)
        self.kept_actions = kept

    # ------------------------------------------------------------------ the position: one action

    def push_action(self, a: Action, turn: Turn) -> Violation | None:
        """Play action ``a`` of the turn line ``turn`` by the referee's one path, the one
        :meth:`push` plays a turn line by (the line begun first when it is not the turn in
        progress, :attr:`turn`). Returns the first rule broken (the line's place, or the
        action's), or None; the table as it was is kept for :meth:`pop_action`.

        >>> from pancli.cards import ALL_CARDS
        >>> c = {str(x): x for x in ALL_CARDS}
        >>> script = HandScript(players=("Ana", "Ben"), game=Game.PAGRUC, upcard=c["Kh"],
        ...     deals=(Deal("Ana", tuple(c[t] for t in "5h 6h 7h Ac Ad As Ks".split())),))
        >>> t = PagrucTable(script)
        >>> t.deal_in()
        True
        >>> turn = Turn("Ana", (Draw(c["2s"]), Discard(c["2s"])))
        >>> t.push_action(turn.actions[0], turn), t.hands["Ana"].size
        (None, 8)
        >>> t.push_action(Discard(c["9d"]), turn).message
        'Ana does not hold 9d'
        >>> t.pop_action(); t.pop_action(); t.hands["Ana"].size, t.turn, t.turn_no
        (7, None, 0)
        """
        self.kept_actions.append(self.snapshot())
        broken: list[Violation] = []
        try:
            _play_turn(self, turn, self.strict, broken, (a,), begin=self.turn is not turn, end=False)
        except Ruling as r:
            broken.append(r.violation)
        return broken[0] if broken else None

    def pop_action(self) -> None:
        """Take back the last action :meth:`push_action` pushed (and the beginning of its line):
        the table is again exactly as it was (raises IndexError when none is kept)."""
        kept = self.kept_actions
        if not kept:
            raise IndexError("no action pushed to take back")
        self.restore(kept.pop())

    def close_turn(self) -> Violation | None:
        """End the turn in progress as the referee does: the rule its end breaks
        (:meth:`verify_turn_end`), or None; no turn is in progress after it."""
        t = self.turn
        assert t is not None, "a turn in progress (push_action)"
        try:
            _play_turn(self, t, self.strict, [], (), begin=False)
        except Ruling as r:
            return r.violation
        return None

    def play_to(self, script: HandScript) -> None:
        """Bring a table that keeps its lines to the lines of ``script``, the same hand written
        further or changed at its end (its deal and tags as the table's): the lines pushed that
        differ are taken back, the new ones pushed (none after a violation, under :attr:`strict`).
        A PAGRUC line never changes how the lines before it are judged."""
        undo = self.undo
        assert undo is not None, "a table that keeps its lines"
        events = script.events
        k = 0
        n = min(len(undo), len(events))
        while k < n and undo[k][0] == events[k]:
            k += 1
        while len(undo) > k:
            self.pop()
        self.script = script  # (the same hand: only where its claims were written may be new)
        for ev in events[k:]:
            if self.stopped:
                break
            self.push(ev)

    def finish(self) -> PagrucHandResult:
        """The hand's result: the scores (G7), how it ended, the claims checked."""
        return self.result(self.violations, stopped=self.stopped)

    # ------------------------------------------------------------------ seating and deal (G1, G2)

    def verify_seating(self) -> None:
        """G1: the players and the packs for them."""
        _raise(judges.seating_fault(self))

    def verify_deal(self, d: Deal, seen: set[str]) -> Ruling | None:
        """G2 (a player of the hand, dealt once, the rules object's ``deal_size``); returns G1 on the dealt cards."""
        _raise(judges.deal_fault(self, d, seen))
        return judges.pack_fault(self, d.line, d.col, d.player, revealed=Counter(d.cards))

    def apply_deal(self, d: Deal, seen: set[str], over: Ruling | None) -> None:
        """The dealt cards go to the player's hand; then ``over``, the G1 ruling on them, is raised."""
        seen.add(d.player)
        self.hands[d.player].known = list(d.cards)
        self.hands[d.player].hidden = 0
        self.seen.update(d.cards)
        _raise(over)
        self.step(d.line, d.col, d.player, None, None, [(c, DEAL, HAND) for c in d.cards])

    def verify_upcard(self, seen: set[str]) -> Ruling | None:
        """The up card (G2): returns G1 on it."""
        assert self.script.upcard is not None
        return judges.pack_fault(self, self.script.upcard_line, 1, None, revealed=Counter([self.script.upcard]))

    def apply_upcard(self, seen: set[str], over: Ruling | None) -> None:
        """The up card starts the discard pile (then ``over`` is raised); the rest is the stock."""
        s = self.script
        assert s.upcard is not None
        self.pile.append(s.upcard)
        self.seen[s.upcard] += 1
        _raise(over)
        self.step(s.upcard_line, 1, None, None, None, [(s.upcard, STOCK, DISCARD_PILE)])
        self.stock = self.pack.size - self.rules.deal_size * len(self.players) - 1
        self.dealt = True
        for p in self.players:
            if p not in seen:
                self.notes.append(NoDealLine(p, self.rules.deal_size))

    # ------------------------------------------------------------------ play lines

    def verify_event(self, ev: Event) -> None:
        """Any line: none after the hand ended (G6); a line PAGRUC has (G3); none before the up
        card (G2); a reshuffle of an empty stock with cards under the top discard (G6)."""
        line, col = ev.line, ev.col
        player = getattr(ev, "player", None)
        _raise(judges.hand_over_fault(self, line, col, player))
        if isinstance(ev, judges.PAN_LINES):
            _raise(judges.panguingue_line_fault(self, ev, line, col, ev.player))
        if not self.dealt:
            _raise(judges.upcard_fault(self, line, col, player))
        if isinstance(ev, Reshuffle):
            _raise(judges.early_reshuffle_fault(self, line, col) or judges.nothing_to_turn_over_fault(self, line, col))

    def apply_event(self, ev: Reshuffle) -> None:
        """Turn the discard pile under its top card over as the new stock (G6)."""
        under = self.pile[:-1]
        self.stock_known = Counter(under)
        self.stock = len(under)
        self.pile = self.pile[-1:]
        self.step(ev.line, ev.col, None, ev, None, [(c, DISCARD_PILE, STOCK) for c in under])

    def verify_turn(self, t: Turn) -> TurnPlan:
        """G3 for the turn line as a whole: its player is in the hand (raised), in turn and
        doing something (the plan's rulings, in this order)."""
        _raise(judges.turn_player_fault(self, t.line, t.col, t.player))
        late = judges.turn_order_fault(self, t.line, t.col, t.player)
        return TurnPlan(late, judges.idle_turn_fault(self, t))

    def verify(self, t: Turn, a: Action) -> PagrucPlan:
        """Raise a Ruling if action ``a`` of turn ``t`` is not allowed now; else what :meth:`apply` needs."""
        p = t.player
        line, col = (a.line or t.line), (a.col or t.col)
        _raise(judges.after_discard_fault(self, a, line, col, p))
        if isinstance(a, judges.PICKUPS):
            _raise(judges.second_take_fault(self, line, col, p))
            if isinstance(a, Draw):
                _raise(
                    judges.empty_stock_fault(self, line, col, p) or judges.turned_over_card_fault(self, a, line, col, p)
                )
                extra = 1 if self.stock_known is None else 0  # from a turned-over stock, the card was counted there
                return judges.pack_fault(self, line, col, p, revealed={a.card: extra})
            _raise(judges.pile_take_fault(self, a, line, col, p))
            return None
        _raise(judges.take_first_fault(self, line, col, p) or judges.panguingue_action_fault(self, a, line, col, p))
        if isinstance(a, Discard):
            return self._verify_from_hand(p, (a.card,), line, col)
        if isinstance(a, MeldNew):
            v = self.rules.meld(a.cards, self.pack)
            why = f"[{format_cards(a.cards)}] is no meld: {v.reason}"
            _raise(
                judges.meld_copies_fault(self, line, col, p, (v.rule, why))
                or judges.meld_fault(self, v, why, line, col, p)
            )
            assert v.meld is not None
            return PagrucMeldPlan(v.meld, self._verify_from_hand(p, a.cards, line, col))
        if isinstance(a, _LAYS):
            owner = a.owner if isinstance(a, Lay) else p
            _raise(judges.lay_off_fault(self, p, owner, a.target, line, col))
            m = self.melds[owner][a.target - 1]
            try:
                grown = self.rules.lay_off(m.meld, a.cards, self.pack)
            except MeldError as exc:
                r = judges.meld_copies_fault(self, line, col, p, (exc.rule, exc.reason))
                r = r or judges.lay_off_fault(self, p, owner, a.target, line, col, refused=exc.reason)
                assert r is not None
                raise r from None
            return LayPlan(m, grown, self._verify_from_hand(p, a.cards, line, col))
        if isinstance(a, Out):
            _raise(judges.out_with_cards_fault(self, line, col, p))
        return None

    def _verify_from_hand(self, p: str, cards: tuple[Card, ...], line: int, col: int) -> int:
        """The player holds ``cards`` (G3); those not among his known cards come to light and
        must not break conservation (G1)."""
        known = self.hands[p].known
        revealed: list[Card] = []
        for i, c in enumerate(cards):  # (a card's earlier copies in ``cards`` take its known copies first)
            if known.count(c) <= cards[:i].count(c):
                revealed.append(c)
        if revealed:  # (with none, neither judge can fail)
            _raise(judges.held_cards_fault(self, line, col, p, revealed))
            _raise(judges.pack_fault(self, line, col, p, revealed=Counter(revealed)))
        return len(revealed)

    def apply(self, t: Turn, a: Action, plan: PagrucPlan) -> None:
        """Apply the verified action ``a`` of turn ``t`` with the ``plan`` its :meth:`verify` returned."""
        p = t.player
        line, col = (a.line or t.line), (a.col or t.col)
        moves: list[tuple[Card, Source, Source]]
        if isinstance(a, Draw):
            if self.stock_known is not None:
                self.stock_known[a.card] -= 1
            else:
                self.seen[a.card] += 1  # from the unknown stock: it comes to light
            self.stock -= 1
            self.hands[p].known.append(a.card)
            assert plan is None or isinstance(plan, Ruling)
            _raise(plan)
            moves = [(a.card, STOCK, HAND)]
        elif isinstance(a, Discard):
            assert isinstance(plan, int)
            self._from_hand(p, (a.card,), plan)
            self.pile.append(a.card)
            moves = [(a.card, HAND, DISCARD_PILE)]
            if self.rules.hand_over(self.hands[p].size):
                self.winner = p  # the discard ends the hand (G6): recorded, the judges read it
        elif isinstance(a, judges.TAKES):
            n = judges.taken(a)
            top = self.pile[-n:]
            del self.pile[-n:]
            self.hands[p].known.extend(top)
            moves = [(c, DISCARD_PILE, HAND) for c in top]
        elif isinstance(a, MeldNew):
            assert isinstance(plan, PagrucMeldPlan)
            self._from_hand(p, a.cards, plan.revealed)
            m = TableMeld(p, len(self.melds[p]) + 1, plan.meld, tuple((p, c) for c in a.cards), line)
            self.melds[p].append(m)
            self.order.append(m)
            self._score(p, a.cards, plan.meld, m.label, line)
            if a.claim is not None:
                at = (self.script.claim_cols or {}).get((a.line, a.col), 1)
                judges.check_claim(self, ClaimKind.PAYS, line, p, a.claim, self.rules.meld_points(plan.meld), at)
            moves = [(c, HAND, MELD) for c in a.cards]
        elif isinstance(a, _LAYS):
            assert isinstance(plan, LayPlan)
            self._from_hand(p, a.cards, plan.revealed)
            m = plan.target
            grown = TableMeld(m.owner, m.number, plan.grown, (*m.laid_by, *((p, c) for c in a.cards)), m.line)
            self.melds[m.owner][m.number - 1] = grown
            self.order[self.order.index(m)] = grown
            self._score(p, a.cards, plan.grown, m.label, line)
            moves = [(c, HAND, MELD) for c in a.cards]
        else:
            return  # out: nothing moves
        self.step(line, col, p, t, a, moves)

    def _from_hand(self, p: str, cards: tuple[Card, ...], revealed: int) -> None:
        hand = self.hands[p]
        for c in cards:
            if c in hand.known:
                hand.known.remove(c)
            else:
                self.seen[c] += 1  # one of his unknown cards comes to light
        hand.hidden -= revealed

    def _score(self, p: str, cards: tuple[Card, ...], meld: PagrucMeld, label: str, line: int) -> None:
        """The cards laid score for the layer where the meld puts them (G7)."""
        where = meld.where
        self.contrib[p].extend(CardScore(c, where, self.rules.points(c, where), label, line) for c in cards)

    def verify_turn_end(self, t: Turn) -> None:
        """A turn ends with a discard: not with the last card melded (G6), nor with cards held (G3)."""
        if not self.discarded and self.winner is None:
            _raise(judges.last_card_melded_fault(self, t))
            _raise(judges.unended_turn_fault(self, t))

    # ------------------------------------------------------------------ result (G7)

    def result(self, violations: list[Violation], stopped: bool = False) -> PagrucHandResult:
        """The hand's result: each player's score (G7), how it ended (``stopped``: by its last
        violation), and the Ledger claim checked when the hand is finished and clean."""
        scores: dict[str, int | None] = {}
        cards: dict[str, tuple[CardScore, ...]] = {}
        for p in self.players:
            hand = self.hands[p]
            mine = (*self.contrib[p], *self.rules.in_hand(hand.known))
            cards[p] = mine
            if not self.dealt:
                scores[p] = None  # stopped at the deal, or no up card yet: no hand to score
            elif hand.hidden:
                scores[p] = None
                self.notes.append(ScoreUnknown(p, hand.hidden))
            else:
                scores[p] = sum(c.points for c in mine)
        finished = self.winner is not None
        if not finished and not violations:
            self.notes.append(HandNotFinished())
        claim = self.script.ledger_claim
        if claim is not None and violations:
            v = violations[0]
            self.notes.append(ClaimStopped(claim.line, v.line, v.rule))
        elif claim is not None and not finished:
            self.notes.append(ClaimNotFinished(claim.line))
        if claim is not None and finished and not violations:
            for p, claimed in claim.units.items():
                actual = scores.get(p)
                if actual is None:
                    self.notes.append(ClaimScoreUnknown(claim.line, p))
                else:
                    judges.check_claim(self, ClaimKind.LEDGER, claim.line, p, claimed, actual)
        ending, rule = self.ending(violations, stopped)
        return PagrucHandResult(
            players=self.players,
            packs=self.pack.packs,
            winner=self.winner,
            finished=finished,
            scores=scores,
            cards=cards,
            table=tuple(self.order),
            hands={p: tuple(h.known) for p, h in self.hands.items()},
            hidden={p: h.hidden for p, h in self.hands.items()},
            violations=tuple(violations),
            claims=tuple(self.claims),
            notes=tuple(self.notes),
            first_line=self.script.first_line,
            steps=tuple(self.steps),
            ending=ending,
            ending_rule=rule,
        )

    def ending(self, violations: list[Violation], stopped: bool) -> tuple[Ending, str | None]:
        """How the hand ended, under which rule: ``OUT`` (G6) once a discard named the winner,
        ``STOPPED`` by the last of ``violations`` (``stopped``), else ``UNFINISHED``."""
        if self.winner is not None:
            return Ending.OUT, "G6"
        return (Ending.STOPPED, violations[-1].rule) if stopped else (Ending.UNFINISHED, None)


def referee_script(
    script: HandScript, *, strict: bool = True, record_steps: bool = True, rules: PagrucRules | None = None
) -> PagrucHandResult:
    """Referee one PAGRUC hand (G1-G7). ``script.game`` should be ``Game.PAGRUC``.

    Strict refereeing stops at the first violation; otherwise a line or action that breaks a
    rule is reported and skipped (a turn out of order is still played), and play goes on; a
    violation in the seating or the deal, or a play line before the up card (G2), stops the hand
    either way. ``record_steps=False`` skips the per-action
    :class:`~pancli.model.results.Step` records (as :func:`pancli.referee.referee_script`).
    ``rules``: the questions asked (:class:`~pancli.pagruc.rules.PagrucRules` when None).
    """
    if script.game is not Game.PAGRUC:
        raise ValueError("referee_script: not a PAGRUC hand (use pancli.referee for Panguingue)")
    table = PagrucTable(script, record_steps=record_steps, rules=rules or PagrucRules(), strict=strict)
    if table.deal_in():
        for ev in script.events:
            table.push(ev)
            if table.stopped:
                break
    return table.finish()


def _play_turn(
    table: PagrucTable,
    t: Turn,
    strict: bool,
    violations: list[Violation],
    actions: tuple[Action, ...] | None = None,
    *,
    begin: bool = True,
    end: bool = True,
) -> bool:
    """Play one turn line (:meth:`PagrucTable.push_action` plays one of its ``actions`` so, the
    line begun first when ``begin``, ended when ``end``); False when a violation stops the hand
    (strict). A ruling on the line as a whole, or at its end, is raised to the caller."""
    if begin:
        table.turn = None
        table.turn_no += 1  # a turn line refused is still counted: its rulings carry its number
        plan = table.verify_turn(t)
        if plan.late is not None:
            violations.append(plan.late.violation)
            if strict:
                return False
        table.next_index = (table.players.index(t.player) + 1) % len(table.players)  # who plays after him
        table.picked = table.discarded = False
        _raise(plan.idle)
        table.turn = t
    for a in t.actions if actions is None else actions:
        try:
            table.apply(t, a, table.verify(t, a))
        except Ruling as r:
            violations.append(r.violation)
            if strict:
                return False
        # tried, applied or not: the take is behind, a discard ends the turn, and the hand if it was the last card
        table.picked = True
        if isinstance(a, Discard):
            table.discarded = True
        if table.winner is not None:
            table.ended_line = a.line or t.line
    if end:
        table.turn = None
        table.verify_turn_end(t)
    return True
