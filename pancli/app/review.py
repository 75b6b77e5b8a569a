"""What ``pan review`` does: walk each refereed hand, ask the reviewer (:mod:`pancli.analyze.review`)
about every decision whose position is known, and hand over the judgements (values: what was played,
the best, the sizes; :mod:`pancli.render.review` writes the record back with its marks).

A hand is refereed first (the replay's :class:`~pancli.app.replay.RecordJudge`, through
:func:`~pancli.app.replay.replay_files`, whose worker pool spreads the hands over ``--jobs``);
its decisions before its first violation are reviewed at the positions the referee gives
(:func:`pancli.referee.position.position_at`). A decision whose player's cards are unknown (no
deal line), or after the first violation, or in a PAGRUC hand, is counted as not reviewed.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Final

import msgspec
from msgspec.structs import replace

from pancli.analyze import review
from pancli.analyze.review import Choice, Judgement, Laid, Memo, Play, Ruled, Stakes, survival
from pancli.analyze.review import Options as Options
from pancli.app.lines import ErrorFields
from pancli.app.replay import RecordJudge, Tally, replay_files
from pancli.cards import Game
from pancli.limits import MAX_REVIEWED_LINES
from pancli.model.actions import Add, Borrow, Decision, Discard, Draw, MeldNew, Split, Take, Turn
from pancli.notation.layout import RecordHand  # (a field msgspec decodes: a review from a worker)
from pancli.panrules import PanRulesByProfile
from pancli.referee.play import Discarding
from pancli.referee.position import PositionError, PositionUnavailable, Walk
from pancli.rulebook import Rule
from pancli.rules import Ending
from pancli.values import Value

if TYPE_CHECKING:
    from pancli.app.replay import Collector, OpenRecord
    from pancli.app.replay import RefereedHand as Refereed
    from pancli.app.report import HandReport
    from pancli.app.workers import FewerWorkers
    from pancli.model.actions import Action, HandScript, Turn
    from pancli.model.results import HandResult, Violation
    from pancli.panrules import PanRules
    from pancli.referee.position import Position, Walk
    from pancli.rules import Profile


class PastLimit(Value, tag=True):
    """Past the first ``limit`` play lines of the hand (:data:`pancli.limits.MAX_REVIEWED_LINES`)."""

    limit: int


class OtherGame(Value, tag=True):
    """A hand of a game the reviewer does not judge (PAGRUC)."""

    game: Game


class Broken(Value, tag=True):
    """After the hand's first violation: the ``rule`` broken at ``line``."""

    rule: Rule
    line: int


class CardsUnknown(Value, tag=True):
    """The player's cards are unknown (no deal line)."""


class NoDraw(Value, tag=True):
    """A turn with no draw to review."""


class NoPosition(Value, tag=True):
    """The referee gives no position there: its ``message`` (:class:`pancli.referee.position.PositionError`)."""

    message: str


Unreviewed = PastLimit | OtherGame | Broken | CardsUnknown | NoDraw | NoPosition
"""Why play lines are not reviewed, as values (render/review.py words them)."""


class Skip(Value):
    """Play lines (decisions, turns) not reviewed: whose, from which line, how many, and why."""

    player: str
    line: int
    count: int
    reason: Unreviewed


class HandReview(Value):
    """One hand reviewed: where it is, its judgements in record order, what was not reviewed,
    and the hand as read (``record``: render/review.py writes its canonical text with the marks)."""

    file: str
    hand: int
    first_line: int
    judgements: tuple[Judgement, ...]
    skipped: tuple[Skip, ...]
    record: RecordHand
    error: ErrorFields | None = None
    malformed: bool = False
    """The hand could not be read: ``record`` holds what the reader kept of it."""


# --------------------------------------------------------------------------- reviewing one hand


class _Skips:
    """The skips of a hand, one per player and reason (first line, count)."""

    def __init__(self) -> None:
        self.items: dict[tuple[str, Unreviewed], list[int]] = {}

    def add(self, player: str, line: int, reason: Unreviewed) -> None:
        got = self.items.setdefault((player, reason), [line, 0])
        got[1] += 1

    def done(self) -> tuple[Skip, ...]:
        return tuple(Skip(p, line, n, reason) for (p, reason), (line, n) in self.items.items())


def _collected(result: HandResult, turn: Turn) -> int:
    """The units one opponent paid the player of ``turn`` for its melds (C1-C7, as ruled). A payment
    names the line of its action, which a comment running onto the next line moves off the turn's."""
    lines = {turn.line, *(getattr(a, "line", 0) for a in turn.actions)}
    player = turn.player
    per: dict[str, int] = {}
    for p in result.payments:
        if p.line in lines and p.payee == player and Rule.C8 not in p.rules and Rule.T2 not in p.rules:
            per[p.payer] = per.get(p.payer, 0) + p.units
    return max(per.values(), default=0)


def _laying(turn: Turn) -> tuple[Action, ...]:
    """The actions of ``turn`` that lay cards down (``meld``, ``add``, ``borrow``, ``split``)."""
    return tuple(a for a in turn.actions if isinstance(a, MeldNew | Add | Borrow | Split))


def _stakes(pos: Position, rules: PanRules) -> Stakes:
    """The :class:`~pancli.analyze.review.Stakes` of the player's decisions at ``pos``, from the table
    as it shows: the hands of the opponents still in play (the chance one goes out first; a retired
    player never does), their melds (what the player would pay one going out, on average, C8 as
    ``rules`` answers it) and the forfeits or tops (T2)."""
    opps = [s for s in pos.seats if s.player != pos.player and s.player in pos.in_play]
    pot = sum(sum(rules.owes_winner(s.active is False)) for s in pos.seats if s.player != pos.player)
    owed = sum(rules.going_out_value(s.melds).total for s in opps) / len(opps) if opps else 0.0
    return Stakes(survival(s.cards for s in opps), pot + owed)


def _action_at(turn: Turn, col: int, default: int) -> int:
    """The index of the action of ``turn`` at column ``col`` (the last one starting before it)."""
    at = default
    for i, a in enumerate(turn.actions):
        c = getattr(a, "col", 0)
        if c and c <= col:
            at = i
    return at


def _judge_foul(
    walk: Walk, turn: Turn, v: Violation, returned: int, opts: Options, memo: Memo, remedy: str = ""
) -> list[Judgement] | Unreviewed:
    """The foul play of ``turn`` (the violation ``v``; its ``remedy`` returning ``returned`` units in all)."""
    try:
        pos = walk.at(turn.line, turn.player)
    except PositionError as e:
        return NoPosition(e.message)

    action = _action_at(turn, v.col, len(turn.actions) - 1)
    laying = isinstance(turn.actions[action], MeldNew | Add | Borrow | Split)
    played = Play((_laying(turn) if laying else ()) or (turn.actions[action],))  # what the ruling is about
    why = Ruled(v.rule, v.message, remedy)
    j = review.judge_foul(turn.player, turn.line, action, played, pos.hand, pos.drawn, pos.melds, pos.seen,
                          pos.profile, pos.payers, opts, returned, why,
                          pos.offered if pos.forced else None, pos.kept,
                          Choice.STOCK if isinstance(turn.actions[0], Take) else Choice.LEGAL,
                          memo)  # fmt: skip
    return [j]


def _judge_turn(
    walk: Walk, result: HandResult, turn: Turn, after_line: int, opts: Options, memo: Memo
) -> list[Judgement] | Unreviewed:
    """The judgements of one turn, or why it is not reviewed."""
    player, line = turn.player, turn.line
    for remedy in result.remedies:
        v = remedy.violation
        if v.line == line and v.player == player:
            returned = sum(p.units for p in remedy.returns if p.payer == player)
            return _judge_foul(walk, turn, v, returned, opts, memo, remedy.remedy)
    try:
        pos = walk.at(line, player)
    except PositionError as e:
        return NoPosition(e.message)
    if pos.drawn is None or not turn.actions:
        return NoDraw()
    out: list[Judgement] = []
    opp = pos.payers
    stakes = _stakes(pos, memo.rules(pos.profile))
    memo.looks.clear()
    first = turn.actions[0]
    took = isinstance(first, Take)
    if pos.offered is not None and not pos.forced:
        seen = (*pos.seen, pos.offered) if took else pos.seen
        j = review.judge_draw(player, line, pos.hand, pos.melds, seen, pos.offered, took, pos.profile, opp, opts,
                              stakes, memo)  # fmt: skip
        if j is not None:
            out.append(j)
    laying = [i for i, a in enumerate(turn.actions) if isinstance(a, MeldNew | Add | Borrow | Split)]
    last = turn.actions[-1]
    discard = last.card if isinstance(last, Discard) else None
    due = pos.discard_due  # what the position says the turn's discard must be (P2, P9)
    if laying:
        try:
            after: Position | None = walk.at(after_line, player)
        except PositionUnavailable as e:
            if result.ending is not Ending.OUT or result.winner != player:
                return out or NoPosition(e.message)  # no position after it: retired (I1, I2), not out
            after = None  # the referee's ending: the player went out on this line, closing the hand
        except PositionError as e:
            return out or NoPosition(e.message)
        hand = () if after is None else (*after.hand, *((discard,) if discard is not None else ()))
        table = pos.melds if after is None else after.melds
        laid = Laid(len(pos.hand) + 1 - len(hand), _collected(result, turn), tuple(hand), table,
                    _laying(turn))  # fmt: skip
        j = review.judge_melds(
            player, line, laying[-1], pos.hand, pos.drawn, pos.melds, pos.seen, laid, pos.profile, opp, opts,
            stakes, memo,
        )  # fmt: skip
        if j is None:
            j = Judgement("meld", player, line, laying[-1], Play(laid.actions), Play(laid.actions), 0.0, 0.0, None,
                          None, 0.0, opts.depth, "")  # fmt: skip
        out.append(j)
        if discard is not None and after is not None:
            j = review.judge_discard(
                player, line, len(turn.actions) - 1, hand, after.melds, pos.seen, discard, pos.profile, opp, opts,
                None, stakes, memo,
            )  # fmt: skip
            if j is not None:
                out.append(j)
    elif pos.kept is not None and discard is not None and isinstance(first, Draw):
        hand = (*pos.hand, first.card)  # P9: the draw is kept, a hand card goes
        j = review.judge_discard(
            player, line, len(turn.actions) - 1, hand, pos.melds, pos.seen, discard, pos.profile, opp, opts,
            pos.kept, stakes, memo,
        )  # fmt: skip
        if j is not None:
            out.append(j)
    elif due is not None and due.due is Discarding.THE_DRAW and due.card is not None and discard == due.card:
        # P2: the draw played or thrown is a decision whenever the card has a use
        laid = Laid(0, 0, pos.hand, pos.melds, ())
        j = review.judge_melds(player, line, len(turn.actions) - 1, pos.hand, due.card, pos.melds, pos.seen, laid,
                               pos.profile, opp, opts, stakes, memo)  # fmt: skip
        if j is not None:
            out.append(j)
    return out


def review_hand(
    hand: RecordHand,
    script: HandScript,
    result: Refereed,
    opts: Options,
    player: str | None = None,
    memo: Memo | None = None,
) -> HandReview:
    """Review one refereed hand (``player``: only his decisions; ``memo``: the review's, shared by its hands)."""
    skips = _Skips()
    memo = memo or Memo()
    judgements: list[Judgement] = []
    error: ErrorFields | None = None
    if result.violations:
        v = result.violations[0]
        error = ErrorFields(hand.file, v.line, v.col, str(v.rule), v.player, v.message)
    stop = result.violations[0].line if result.violations else None
    known = {d.player for d in script.deals}
    events = script.events
    played = 0
    walk: Walk | None = None
    for i, ev in enumerate(events):
        if not isinstance(ev, Decision | Turn):
            continue
        played += 1
        if player is not None and ev.player != player:
            continue
        if played > MAX_REVIEWED_LINES:
            skips.add(ev.player, ev.line, PastLimit(MAX_REVIEWED_LINES))
            continue
        if script.game is not Game.PANGUINGUE:
            skips.add(ev.player, ev.line, OtherGame(script.game))
            continue
        if walk is None:
            # one table walked through the hand, not a replay per decision; the review's rules object
            walk = Walk(script, memo.rules(script.profile))
        broken = result.violations[0] if result.violations else None
        if (
            broken is not None
            and ev.line == broken.line
            and isinstance(ev, Turn)
            and ev.player == broken.player
            and ev.player in known
        ):
            got = _judge_foul(walk, ev, broken, 0, opts, memo)  # the illegal play itself: ?? against a legal one
            if isinstance(got, list):
                judgements.extend(got)
            else:
                skips.add(ev.player, ev.line, got)
            continue
        if stop is not None and ev.line >= stop:
            skips.add(ev.player, ev.line, Broken(result.violations[0].rule, stop))
            continue
        if ev.player not in known:
            skips.add(ev.player, ev.line, CardsUnknown())
            continue
        if isinstance(ev, Decision):
            got = _judge_decision(walk, ev, opts, memo)
        else:
            after = events[i + 1].line if i + 1 < len(events) else ev.line + 1
            assert result.game is Game.PANGUINGUE
            got = _judge_turn(walk, result, ev, after, opts, memo)
        if isinstance(got, list):
            judgements.extend(got)
        else:
            skips.add(ev.player, ev.line, got)
    return HandReview(hand.file, hand.index, hand.first_line, tuple(judgements), skips.done(), hand, error)


def _judge_decision(walk: Walk, ev: Any, opts: Options, memo: Memo) -> list[Judgement] | Unreviewed:
    try:
        pos = walk.at(ev.line, ev.player)
    except PositionError as e:
        return NoPosition(e.message)
    if memo.rules(pos.profile).after_decisions(pos.players) is not None:
        return []  # everybody else went on top: staying wins at once (T4), no choice to judge
    return [
        review.judge_decision(ev.player, ev.line, pos.hand, pos.seen, ev.stay, pos.profile, pos.players, opts, memo)
    ]


# --------------------------------------------------------------------------- many hands


class SummaryRow(Value):
    """One player's line of the summary: decisions reviewed, the count of each mark, ``chips``
    (units given up in the mistakes, in all), ``per_100`` (expected units given up in every decision
    reviewed, per 100 decisions: nights of any length compare) and the play lines not reviewed."""

    player: str
    reviewed: int
    good: int = msgspec.field(name="!")
    dubious: int = msgspec.field(name="?!")
    mistake: int = msgspec.field(name="?")
    blunder: int = msgspec.field(name="??")
    chips: float
    not_reviewed: int
    per_100: float = 0.0

    def marks(self) -> dict[str, int]:
        """The count of each mark, by its glyph."""
        return {"!": self.good, "?!": self.dubious, "?": self.mistake, "??": self.blunder}


class Totals:
    """Per player: decisions reviewed, marks by kind, units given up in mistakes, play lines not reviewed."""

    FIELDS: Final = ("reviewed", "!", "?!", "?", "??", "chips", "not reviewed", "all")

    def __init__(self) -> None:
        self.rows: dict[str, dict[str, float]] = {}

    def add(self, r: HandReview) -> None:
        for j in r.judgements:
            row = self._row(j.player)
            row["reviewed"] += 1
            if j.mark:
                row[j.mark] += 1
            if j.mistake:
                row["chips"] += j.chips
            row["all"] += j.chips
        for s in r.skipped:
            self._row(s.player)["not reviewed"] += s.count

    def _row(self, player: str) -> dict[str, float]:
        row = self.rows.get(player)
        if row is None:
            row = self.rows[player] = dict.fromkeys(self.FIELDS, 0.0)
        return row

    def table(self) -> list[SummaryRow]:
        """One row per player, in order of first appearance."""
        return [
            SummaryRow(p, int(r["reviewed"]), int(r["!"]), int(r["?!"]), int(r["?"]), int(r["??"]),
                       round(r["chips"], 2), int(r["not reviewed"]),
                       round(100 * r["all"] / r["reviewed"], 2) if r["reviewed"] else 0.0)
            for p, r in self.rows.items()
        ]  # fmt: skip


def _refereed(file: str, hand: RecordHand) -> ErrorFields:
    e = hand.error
    assert e is not None
    return ErrorFields(file, e.line, e.col, e.code, None, e.message)


class ReviewSink:
    """The replay's hand sink that reviews each hand and hands the :class:`HandReview` to ``show``
    (in record order). In a worker process (``--jobs``), the collector keeps each review, and
    :meth:`chunk` gives them to ``show`` in the main process: the same output."""

    wants_steps = False

    def __init__(
        self,
        opts: Options,
        player: str | None,
        show: Callable[[HandReview], None] | None,
        rules_by_profile: PanRulesByProfile,
    ) -> None:
        self.opts = opts
        self.player = player
        self.show = show
        self.rules_by_profile = rules_by_profile
        """The run's rules objects: the referee's, asked by the positions and the reviewer too."""
        self.memo = Memo(by_profile=rules_by_profile)  # what the searches learn under a profile serves every hand
        self.out: list[HandReview] = []

    def _put(self, r: HandReview) -> None:
        if self.show is None:
            self.out.append(r)
        else:
            self.show(r)

    def hand(self, report: HandReport) -> None:
        self._put(review_hand(report.hand, report.script, report.result, self.opts, self.player, self.memo))

    def malformed(self, hand: RecordHand) -> None:
        self._put(HandReview(hand.file, hand.index, hand.first_line, (), (), hand, _refereed(hand.file, hand),
                             malformed=True))  # fmt: skip

    def close(self, tally: Tally, stopped: bool) -> None:
        pass

    @staticmethod
    def out_type() -> Any:
        # the hand as read and the actions played travel as the model's tagged unions of Structs
        return tuple[HandReview, ...]

    def taken(self) -> tuple[Any, str]:
        return tuple(self.out), ""

    def collector(self) -> type[Collector]:
        opts, player, rules_by = self.opts, self.player, self.rules_by_profile

        class CollectReviews(ReviewSink):
            def __init__(self) -> None:
                super().__init__(opts, player, None, rules_by)  # a forked worker's copy of the run's

        return CollectReviews

    def chunk(self, out: Any, err: str) -> None:
        assert self.show is not None
        for r in out:
            self.show(r)


def review_options(depth: int, samples: int, advice_samples: int, seed: int) -> Options:
    """How hard ``pan review`` looks, from its options (--depth, --samples, --advice-samples, --seed)."""
    return Options(depth=depth, samples=samples, advice_samples=advice_samples, seed=seed)


REVIEW_CHUNK: Final = 1
"""Hands per worker task: reviewing a hand is long work (a second or so), so one at a time."""


def review_files(
    names: Sequence[str],
    show: Callable[[HandReview], None],
    *,
    open_record: OpenRecord,
    opts: Options,
    player: str | None = None,
    profile: Profile | None = None,
    jobs: int = 1,
    note: Callable[[FewerWorkers], None] | None = None,
    page: ReviewPage | None = None,
    rules_by_profile: PanRulesByProfile | None = None,
) -> Tally:
    """Referee and review every hand of every file, in order, giving each review to ``show``.
    One rules object per profile serves the whole run: the referee's, the positions' and the
    reviewer's (``rules_by_profile``; ``page``'s, whose page then rules as the review did).
    ``jobs`` > 1 needs ``note``, told when fewer workers could be made (:func:`replay_files`)."""
    if rules_by_profile is None:
        rules_by_profile = page.rules_by_profile if page is not None else PanRulesByProfile()
    sink = ReviewSink(opts, player, show, rules_by_profile)
    return replay_files(
        names, sink, open_record=open_record, strict=False, profile=profile, jobs=jobs, note=note,
        chunk_hands=REVIEW_CHUNK, rules_by_profile=rules_by_profile,
    )  # fmt: skip


class _Kept:
    """The page judge's sink: keeps the hands of one review, judged."""

    wants_steps = False

    def __init__(self) -> None:
        self.items: list[HandReport | RecordHand] = []

    def hand(self, report: HandReport) -> None:
        self.items.append(report)

    def malformed(self, hand: RecordHand) -> None:
        self.items.append(hand)

    def close(self, tally: Tally, stopped: bool) -> None:
        pass


class ReviewPage:
    """The hands of ``pan review --html``'s page: the page shows the annotated record, so each
    review's text is read back (its lines numbered as the reviewed record's, hand after hand) and
    judged by the replay's :class:`~pancli.app.replay.RecordJudge`, as the review's hands were: the
    run's rules objects, S3 against the hand before it in the same file, irregularities put right."""

    def __init__(self, name: str, profile: Profile | None) -> None:
        self.name = name
        self.rules_by_profile = PanRulesByProfile()
        """The run's rules objects (:func:`review_files` shares them with the review's referee)."""
        self._kept = _Kept()
        self._judge = RecordJudge(self._kept, profile, rules_by_profile=self.rules_by_profile)
        self._tally = Tally()
        self._file: str | None = None
        self._hands = 0
        self.lines = 0
        """Lines of the reviewed record so far (the page numbers its lines as the record's)."""

    def hands(self, r: HandReview, text: str) -> list[HandReport | RecordHand]:
        """The page's hands of the review ``r`` whose annotated record is ``text``, judged (a malformed
        hand as the reader kept it)."""
        # start-up: only --html reads these
        from pathlib import Path

        from pancli.records.reader import read_chunk, split_hands

        if r.file != self._file:
            self._file, self._judge.previous = r.file, None  # S3 links the hands of one record
        base = None if r.file == "-" else Path(r.file).parent
        gap = 1 if self._hands else 0  # the blank line between hands
        for chunk in split_hands(io.StringIO(text), 1):
            placed = replace(chunk, first_line=chunk.first_line + self.lines + gap, first_index=r.hand)
            for hand in read_chunk(placed, self.name, base, packs=self._judge.pack_of):
                self._judge.hand(hand, self._tally)
        self.lines += gap + text.count("\n")
        self._hands += 1
        items, self._kept.items = self._kept.items, []
        return items
