"""Judging the decisions of a played hand against the analyzer's choice (``pan review``).

At a position the referee gives (:func:`pancli.referee.position.position_at`: the player's cards
known from the deal and the play), the reviewer compares what was played with the analyzer's
best choice, for these decisions:

* **stay or go on top (T1)**: the expected units of each, from the analyzer's advice
  (:func:`pancli.analyze.advice.advise`);
* **take the live discard or draw (P1, P3)**, when both were legal: taking needs a use for the
  card (its draw-table row, P3); not judged when P8 forced the take;
* **what goes down (P4)**: what was laid against the analyzer's best arrangement that uses the
  drawn card (most cards down, then most chips); a usable draw thrown away (P2) is this decision
  too, and throwing a draw that puts the player out is always ``??``;
* **which card to discard (P5)**: every distinct hand card (but the draw P9 keeps);
* **a foul play** (one the referee rules illegal, or foul with a remedy, I1, I2): always ``??``,
  against the best legal play, costing what the remedy made the player return.

Every option is worth one figure, its expected units over the hand, in all (every opponent's
share added): the chips collected at once (C7; C8 when it goes out), the chips of the player's
next usable draw within ``depth`` draws (each draw counted with the chance the hand lasts until
it, :func:`survival`), and the going-out payment (C8 from each opponent) times the chance of
going out within ``depth`` draws (:func:`pancli.analyze.odds.out_odds`, Monte Carlo with its
standard error; every option is estimated with the same seed) and of the hand lasting to the next
turn. A meld held back and laid at a later usable draw so loses only the chance that no such draw
comes in time, not its whole value. A judgement's ``chips`` is what the play gives up in that
figure; its two parts (``chips_part``, ``out_part``) are shown in the comment.

A mark needs the loss to pass a threshold (:data:`CHIPS_MARKS`) and the loss to pass :data:`Z`
standard errors (the odds' error times the going-out payment) as well: a difference within the
stated error never earns a mark. A discard that is the best where most other discards would have
earned ``?`` or worse earns ``!``.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Iterable, Sequence
from typing import Final

from pancli.analyze.advice import Start, advise
from pancli.analyze.arrange import Arrangement, HandContext
from pancli.analyze.odds import Policy, final_melds, live_copies, out_odds
from pancli.cards import Card
from pancli.melds import Meld
from pancli.meldspace import NSLOT, SLOT_OF, MeldSpace
from pancli.model.actions import Action, Add, Discard, MeldNew, Out, Take
from pancli.panrules import PanRules, PanRulesByProfile
from pancli.rulebook import Rule
from pancli.rules import Profile
from pancli.values import Value

CHIPS_MARKS: Final = ((8.0, "??"), (4.0, "?"), (2.0, "?!"))
"""Expected units given up in all (every opponent's share added) from which a play earns each mark."""
ODDS_MARKS: Final = ((0.20, "??"), (0.10, "?"), (0.05, "?!"))
"""Drop in the chance of going out from which :func:`mark_of` gives each mark when asked about odds
alone (the judgements weigh the odds in units, through the going-out payment)."""
Z: Final = 2.0
"""An estimated loss counts only beyond this many standard errors of the difference (about 95%)."""
CLEAR: Final = 2.0
"""The stay-or-top simulation stops early once the choice played gives up less than the smallest mark
by this many standard errors (a sequential test: the marks are those of the full run but by chance)."""
MARKS: Final = ("?!", "?", "??")
"""The question marks, mildest first (``!`` is the one praise)."""
OUT_PER_TURN: Final = (0.12, 0.002, 0.057, 0.002)
"""The chance that a player holding 0, 1, 2 or 3 cards before his turn goes out on it (none with
more), as measured over 200 five-player self-play hands (hoyle, seeds 1-40): what the reviewer
takes for each opponent's chance of ending the hand before the player's next turn."""


class Options(Value):
    """How hard the reviewer looks: ``depth`` draws for the odds of going out, ``samples`` for
    the Monte Carlo of the odds, ``advice_samples`` for the stay-or-top simulation, ``seed``."""

    depth: int = 3
    samples: int = 400
    advice_samples: int = 40
    seed: int = 1


class Choice(enum.Enum):
    """A choice with no action of its own to write."""

    STAY = "stay"
    """Stay in the hand (T1)."""
    TOP = "top"
    """Go on top (T1)."""
    DRAW = "draw"
    """Draw from the stock rather than take the live discard (P1)."""
    STOCK = "stock"
    """Draw from the stock: the legal play when the take itself was illegal."""
    LEGAL = "legal"
    """A legal play, when the draw itself was illegal and none is judged better."""
    NOTHING = "nothing"
    """Nothing laid."""


class Play(Value):
    """A choice judged, as values: the actions in turn order (the record's own, or the analyzer's),
    after ``keep``, the draw P9 makes the player keep; or a :class:`Choice` with no actions."""

    actions: tuple[Action, ...] = ()
    keep: Card | None = None
    choice: Choice | None = None


class NextDraw(Value, tag=True):
    """A discard's note (P5): the chips of the next usable draw, from each opponent, after the best
    discard and after the one played."""

    best: float
    played: float


class BestDiscard(Value, tag=True):
    """The note of the best discard played (P5): how many of the ``others`` discards would have earned
    ``?`` or ``??`` (``worse``), and the chips of the next usable draw after it, from each opponent."""

    worse: int
    others: int
    best: float


class NoUse(Value, tag=True):
    """A drawn ``card`` with no use with the hand or the melds, thrown as P2 requires."""

    card: Card


class Down(Value, tag=True):
    """What goes down (P4): the cards and chips (from each opponent) of the analyzer's arrangement
    and of the play."""

    best_cards: int
    best_chips: int
    played_cards: int
    played_chips: int


class Ruled(Value, tag=True):
    """A foul play's note: the rule the referee ruled broken, his ruling, and the remedy (I1, I2;
    ``""`` when none put it right)."""

    rule: Rule
    message: str
    remedy: str = ""


class TakeOrDraw(Value, tag=True):
    """Taking or drawing (P1, P3): the chips collected now, from each opponent, by the best and by the play."""

    best: float
    played: float


class StayOrTop(Value, tag=True):
    """Staying or going on top (T1): the expected units of each (the error of staying's)."""

    stay: float
    stay_se: float
    top: float


Note = NextDraw | BestDiscard | NoUse | Down | Ruled | TakeOrDraw | StayOrTop
"""What a judgement notes besides its sizes, as values (render/review.py words it)."""


def arrangement_actions(arr: Arrangement) -> tuple[Action, ...]:
    """The actions that lay ``arr``: ``meld [..]`` for a new meld, ``add .. to #N`` for cards added."""
    return tuple(
        MeldNew(tuple(p.meld.cards)) if p.target is None else Add(tuple(p.cards), p.target + 1) for p in arr.placed
    )


class Judgement(Value):
    """One decision judged: who, where (``line``, ``action``: the index of the action in the
    turn, -1 for a decision line), what was played and the best choice (:class:`Play` values), the
    sizes and the note (a :data:`Note` value): no text, which :mod:`pancli.render.review` writes."""

    kind: str
    """``decision`` (T1), ``draw`` (take or draw), ``meld`` (what goes down, a usable draw thrown
    included), ``discard`` or ``foul`` (a play the referee ruled illegal or foul)."""
    player: str
    line: int
    action: int
    played: Play
    best: Play
    chips: float
    """Expected units given up in all (0: none; the best is worth no more than the play)."""
    chips_se: float
    odds_played: float | None
    odds_best: float | None
    odds_se: float
    depth: int
    mark: str
    """``""``, ``!``, ``?!``, ``?`` or ``??``."""
    note: Note | None = None
    chips_part: float = 0.0
    """The part of the difference from chips (collected at once and at the next usable draw)."""
    out_part: float = 0.0
    """The part of the difference from going out (its payment times its chance)."""

    @property
    def odds(self) -> float:
        """The drop in the chance of going out within ``depth`` draws (0 when not estimated)."""
        if self.odds_played is None or self.odds_best is None:
            return 0.0
        return self.odds_best - self.odds_played

    @property
    def mistake(self) -> bool:
        """Marked ``?!``, ``?`` or ``??``."""
        return self.mark in MARKS


def mark_of(chips: float, chips_se: float, odds: float, odds_se: float) -> str:
    """The mark a loss of ``chips`` units and ``odds`` earns (module text; ``""`` for none).

    >>> mark_of(4.0, 0.0, 0.0, 0.0), mark_of(1.0, 0.0, 0.12, 0.01), mark_of(0.0, 0.0, 0.12, 0.07)
    ('?', '?', '')
    >>> mark_of(9.0, 5.0, 0.0, 0.0), mark_of(9.0, 4.0, 0.0, 0.0), mark_of(3.0, 1.0, 0.25, 0.0)
    ('', '??', '??')
    """
    best = -1
    for loss, se, table in ((chips, chips_se, CHIPS_MARKS), (odds, odds_se, ODDS_MARKS)):
        if loss <= Z * se:
            continue
        for rank, (threshold, _) in enumerate(reversed(table)):
            if loss >= threshold:
                best = max(best, rank)
    return MARKS[best] if best >= 0 else ""


def survival(hand_sizes: Iterable[int]) -> float:
    """The chance that no opponent goes out before the player's next turn, the opponents holding
    ``hand_sizes`` cards (:data:`OUT_PER_TURN`).

    >>> survival([10, 7]), round(survival([0, 2]), 4)
    (1.0, 0.8298)
    """
    s = 1.0
    for h in hand_sizes:
        if 0 <= h < len(OUT_PER_TURN):
            s *= 1.0 - OUT_PER_TURN[h]
    return s


class Stakes(Value):
    """What one decision's options share beyond the cards: ``survive``, the chance the hand lasts to
    the player's next turn (:func:`survival`), and ``extra``, what going out wins besides his own C8:
    the forfeits or tops (T2), and the C8 he would otherwise pay, on average, an opponent going out."""

    survive: float = 1.0
    extra: float = 0.0


CALM: Final = Stakes()
"""No opponent near going out, nothing to win but the player's own C8."""


class Outlook(Value):
    """The chance of going out within ``depth`` draws from a position between turns (``p``, its
    standard error ``se``) and the chips (C7, from each opponent) of the first usable draw within
    ``depth`` draws, each draw weighted by the chance the hand lasts until it (``chips``)."""

    p: float
    se: float
    chips: float


class Spot(Value):
    """What every option of one decision shares: the seen cards, the rules, the opponents who pay,
    the :class:`Stakes` and the options."""

    seen: tuple[Card, ...]
    rules: PanRules
    """The rules object asked (C8: what going out collects)."""
    opponents: int
    stakes: Stakes
    opts: Options

    @property
    def profile(self) -> Profile:
        """The profile :attr:`rules` judges under."""
        return self.rules.profile

    @property
    def survive(self) -> float:
        """The chance the hand lasts to the player's next turn."""
        return self.stakes.survive


class Worth(Value):
    """An option's expected units over the hand, in all: ``chips`` (collected at once and at the next
    usable draw) plus ``out`` (the going-out payment times its chance), ``se`` the error of ``out``."""

    chips: float
    out: float
    se: float
    p: float
    p_se: float

    @property
    def units(self) -> float:
        """The one figure: chips and going out together."""
        return self.chips + self.out


def worth(now: float, look: Outlook | None, table: Sequence[Meld], spot: Spot, later: bool = True) -> Worth:
    """The :class:`Worth` of an option collecting ``now`` units in all at once and leaving the outlook
    ``look`` with the melds ``table`` (None: the player is out, ``now`` holds C8; ``later``: the odds
    are of draws from the player's next turn on, which comes if the hand lasts)."""
    if look is None:
        return Worth(now, 0.0, 0.0, 1.0, 0.0)
    rules = spot.rules
    pay = rules.collected(rules.going_out_value(table).total, spot.opponents) + spot.stakes.extra
    pay *= spot.survive if later else 1.0
    return Worth(now + rules.collected(look.chips, spot.opponents), look.p * pay, look.se * pay, look.p, look.se)


REVIEW_POLICY_NODES: Final = 20_000
"""Positions the review's simulated players' :class:`Policy` remembers before it starts afresh: more than one
analysis keeps (:data:`pancli.analyze.advice.POLICY_NODES`), because the stay-or-top advices of a review meet
the same positions again and again (each deals the opponents' hands with the same seed from nearly the same
unseen cards, so their whole games recur from decision to decision and from hand to hand) and each is searched
once (its memory and gain: benchmarks/README.md, "Figures behind the code")."""


class Memo:
    """What one hand's judgements share: the discard outlooks already found (the meld and the discard
    judgements of a turn ask the same), the rules object of the hand's profile and its meld space (what
    the searches learn of its melds is kept there) and the simulated player's policy (its moves are the
    same whoever asks, so a position met again is searched once), started afresh past :data:`REVIEW_POLICY_NODES`."""

    def __init__(self, rules: PanRules | None = None, *, by_profile: PanRulesByProfile | None = None) -> None:
        self.looks: dict[tuple[object, ...], dict[Card, Outlook]] = {}
        self._policy: Policy | None = None
        self._rules = rules
        self._by_profile = by_profile
        """The run's rules objects (the review's, shared with its referee and its positions)."""

    def rules(self, profile: Profile) -> PanRules:
        """The rules object of ``profile``: the one given while the hands are under its profile,
        else the run's (``by_profile``), else one built for the profile met."""
        got = self._rules
        if got is None or got.profile != profile:
            by = self._by_profile
            got = self._rules = PanRules(profile) if by is None else by.of(profile)
        return got

    def space(self, profile: Profile) -> MeldSpace:
        """The meld space of the rules object of ``profile`` (:meth:`rules`), where the searches ask it
        what melds are."""
        return self.rules(profile).meld_space()

    def policy(self, profile: Profile) -> Policy:
        """The shared policy of ``profile``, asking in its meld space."""
        space = self.space(profile)
        got = self._policy
        if got is None or got.t is not space or got.remembered > REVIEW_POLICY_NODES:
            got = self._policy = Policy(profile, melds_limit=REVIEW_POLICY_NODES, space=space)
        return got


def _next_draw(ctx: HandContext, live: Sequence[int], policy: Policy) -> tuple[float, float, float]:
    """(the chance the next draw puts the player out, that it is usable, the chips it collects from each
    opponent on average), the moves being the policy's: the arrangement :meth:`HandContext.using` gives."""
    unseen = sum(live)
    root = policy.node(ctx.state, ctx.table)
    drawable = sum(1 << slot for slot in range(NSLOT) if live[slot])
    outs = policy.out_slots(root, drawable)
    usable = policy.nodes[root].usable & drawable
    first = sum(live[slot] for slot in range(NSLOT) if outs >> slot & 1) / unseen
    can = per_draw = 0.0
    for slot in range(NSLOT):
        if usable >> slot & 1 and policy.move(root, slot) >= 0:
            can += live[slot]
            per_draw += live[slot] * policy.nodes[root].paid[slot]
    return first, can / unseen, per_draw / unseen


def outlook(
    hand: Sequence[Card],
    table: Sequence[Meld],
    seen: Sequence[Card],
    profile: Profile,
    depth: int,
    opts: Options,
    survive: float = 1.0,
    memo: Memo | None = None,
) -> Outlook:
    """The :class:`Outlook` of ``hand`` with the melds ``table``, ``seen`` cards seen, the hand lasting
    from one of the player's turns to the next with the chance ``survive``: each draw's move is the
    analyzer's (:class:`pancli.analyze.odds.Policy`, the arrangement :meth:`HandContext.using` gives),
    :func:`pancli.analyze.odds.out_odds` for the odds."""
    memo = memo or Memo()
    own = [*hand, *(c for m in table for c in m.cards)]
    live = live_copies(memo.rules(profile), own, seen)
    unseen = sum(live)
    if not unseen or depth < 1:
        return Outlook(0.0, 0.0, 0.0)
    ctx = HandContext(hand, profile, table, memo.space(profile))
    policy = memo.policy(profile)
    first, can, per_draw = _next_draw(ctx, live, policy)
    # the first usable draw within depth draws: draw t comes if the hand lasts t rounds and the t-1 before were unusable
    reach = sum(survive**t * (1.0 - can) ** (t - 1) for t in range(1, depth + 1))
    odds = out_odds(ctx, live, first, turns=depth, samples=opts.samples, seed=opts.seed, policy=policy)
    return Outlook(odds.p[-1], odds.se[-1], per_draw * reach)


def _minus(cards: Sequence[Card], c: Card) -> list[Card]:
    rest = list(cards)
    rest.remove(c)
    return rest


def discard_outlooks(
    hand: Sequence[Card],
    table: Sequence[Meld],
    seen: Sequence[Card],
    profile: Profile,
    depth: int,
    opts: Options,
    keep: Card | None = None,
    survive: float = 1.0,
    memo: Memo | None = None,
) -> dict[Card, Outlook]:
    """The outlook after discarding each distinct card of ``hand`` (but ``keep``, which P9 keeps):
    the discard joins the seen cards (``memo``: outlooks found before, by their question)."""
    key = (tuple(hand), tuple(table), tuple(seen), depth, keep, survive)
    memo = memo or Memo()
    got = memo.looks.get(key)
    if got is None:
        got = memo.looks[key] = {
            d: outlook(_minus(hand, d), table, [*seen, d], profile, depth, opts, survive, memo)
            for d in dict.fromkeys(sorted(hand, key=lambda c: c.index))
            if d != keep
        }
    return got


def _best(worths: dict[Card, Worth], prefer: Card | None = None) -> Card:
    """The best discard: the most expected units, then the best odds (``prefer`` on a tie)."""
    return max(worths, key=lambda d: (round(worths[d].units, 9), worths[d].p, d == prefer))


def _gives_up(b: Worth, p: Worth) -> tuple[float, float, float, float]:
    """(units given up in all, the chips part, the going-out part, the error) of ``p`` against ``b``."""
    return b.units - p.units, b.chips - p.chips, b.out - p.out, math.hypot(b.se, p.se)


def judge_discard(
    player: str,
    line: int,
    action: int,
    hand: Sequence[Card],
    table: Sequence[Meld],
    seen: Sequence[Card],
    played: Card,
    profile: Profile,
    opponents: int,
    opts: Options,
    keep: Card | None = None,
    stakes: Stakes = CALM,
    memo: Memo | None = None,
) -> Judgement | None:
    """The discard ``played`` from ``hand`` (the cards held after the turn's melds) against the
    best one; None when there was no choice (one distinct card)."""
    memo = memo or Memo()
    spot = Spot(tuple(seen), memo.rules(profile), opponents, stakes, opts)
    looks = discard_outlooks(hand, table, seen, profile, opts.depth, opts, keep, stakes.survive, memo)
    if len(looks) < 2 or played not in looks:
        return None
    worths = {d: worth(0.0, o, table, spot) for d, o in looks.items()}
    best = _best(worths, played)
    b, p = worths[best], worths[played]
    loss, chips, out, se = _gives_up(b, p)
    mark = mark_of(loss, se, 0.0, 0.0)
    note: Note = NextDraw(looks[best].chips, looks[played].chips)
    if best == played:
        others = [w for d, w in worths.items() if d != best]
        worse = sum(1 for o in others if mark_of(*_gives_up(b, o)[::3], 0.0, 0.0) in ("?", "??"))
        mark = "!" if 2 * worse > len(others) else ""
        note = BestDiscard(worse, len(others), looks[best].chips)
    return Judgement(
        "discard", player, line, action, Play((Discard(played),)), Play((Discard(best),)), max(0.0, loss), se,
        p.p, b.p, math.hypot(b.p_se, p.p_se), opts.depth, mark, note, chips, out,
    )  # fmt: skip


def best_discard(
    hand: Sequence[Card],
    table: Sequence[Meld],
    seen: Sequence[Card],
    profile: Profile,
    depth: int,
    opts: Options,
    spot: Spot | None = None,
    memo: Memo | None = None,
) -> tuple[Card | None, Outlook]:
    """The best discard of ``hand`` and its outlook (None and certainty when the hand is empty:
    the player is out)."""
    if not hand:
        return None, Outlook(1.0, 0.0, 0.0)
    memo = memo or Memo()
    spot = spot or Spot(tuple(seen), memo.rules(profile), 1, CALM, opts)
    looks = discard_outlooks(hand, table, seen, profile, depth, opts, None, spot.survive, memo)
    best = _best({d: worth(0.0, o, table, spot) for d, o in looks.items()})
    return best, looks[best]


class Laid(Value):
    """What a turn put down: the cards laid (the drawn one included), the units each opponent
    paid for them (C1-C7, as the referee ruled), the cards left in the hand and the melds after."""

    down: int
    chips: int
    hand: tuple[Card, ...]
    table: tuple[Meld, ...]
    actions: tuple[Action, ...]
    """The turn's actions that laid them (``meld``, ``add``, ``borrow``, ``split``)."""


def _after(arr: Arrangement, table: Sequence[Meld], rules: PanRules, opponents: int) -> tuple[float, Outlook | None]:
    """What the arrangement ``arr`` collects at once in all (C8 too when it goes out), and the
    certainty of being out (None when it is not)."""
    chips = float(rules.collected(arr.value, opponents))
    if arr.dead:
        return chips, None
    out = rules.collected(rules.going_out_value(final_melds(arr, table)).total, opponents)
    return chips + out, Outlook(1.0, 0.0, 0.0)


def _play_worth(
    arr: Arrangement, table: Sequence[Meld], spot: Spot, depth: int, memo: Memo | None
) -> tuple[Worth, tuple[Action, ...]]:
    """What laying ``arr`` (then the best discard) is worth, and its actions (``out`` when it goes out)."""
    chips, out = _after(arr, table, spot.rules, spot.opponents)
    melds = final_melds(arr, table)
    if out is not None:
        return worth(chips, None, melds, spot), (*arrangement_actions(arr), Out())
    _, look = best_discard(list(arr.dead), melds, spot.seen, spot.profile, depth, spot.opts, spot, memo)
    return worth(chips, look, melds, spot), arrangement_actions(arr)


def judge_melds(
    player: str,
    line: int,
    action: int,
    hand: Sequence[Card],
    drawn: Card,
    table: Sequence[Meld],
    seen: Sequence[Card],
    laid: Laid,
    profile: Profile,
    opponents: int,
    opts: Options,
    stakes: Stakes = CALM,
    memo: Memo | None = None,
) -> Judgement | None:
    """What went down (``laid``; nothing, and the draw thrown, when ``laid.down`` is 0) against the
    analyzer's best arrangement that uses ``drawn`` (None: the play lays as many cards for as many
    chips, or nothing was thrown and the drawn card has no use; a useless draw thrown is judged, unmarked)."""
    memo = memo or Memo()
    now = HandContext(hand, profile, table, memo.space(profile)).using(SLOT_OF[drawn])  # the analyzer's "now"
    threw = laid.down == 0
    if now is None and threw:
        thrown = Play((Discard(drawn),))  # P2 leaves no choice: judged, and never marked
        return Judgement(
            "meld", player, line, action, thrown, thrown, 0.0, 0.0, None, None, 0.0, opts.depth, "", NoUse(drawn)
        )
    if now is None or (laid.down, laid.chips) >= (now.melded, now.value):
        return None
    spot = Spot(tuple(seen), memo.rules(profile), opponents, stakes, opts)
    b, best_actions = _play_worth(now, table, spot, opts.depth, memo)
    best = Play(best_actions)
    if not laid.hand:
        pay = spot.rules.going_out_value(laid.table).total
        p = worth(float(spot.rules.collected(laid.chips + pay, opponents)), None, laid.table, spot)
    else:
        _, mine = best_discard(laid.hand, laid.table, seen, profile, opts.depth, opts, spot, memo)
        p = worth(float(spot.rules.collected(laid.chips, opponents)), mine, laid.table, spot)
    loss, chips, out, se = _gives_up(b, p)
    mark = mark_of(loss, se, 0.0, 0.0)
    if threw and not now.dead:
        mark = "??"  # a draw that puts the player out, thrown: the worst blunder there is
    played = Play(laid.actions) if laid.actions else Play((Discard(drawn),)) if threw else Play(choice=Choice.NOTHING)
    if loss < 0 and mark != "??":
        best, mark = played, ""  # the play is worth more than the analyzer's arrangement
    return Judgement(
        "meld", player, line, action, played, best, max(0.0, loss), se, p.p, b.p, math.hypot(b.p_se, p.p_se),
        opts.depth, mark, Down(now.melded, now.value, laid.down, laid.chips), chips, out,
    )  # fmt: skip


def judge_foul(
    player: str,
    line: int,
    action: int,
    played: Play,
    hand: Sequence[Card],
    drawn: Card | None,
    table: Sequence[Meld],
    seen: Sequence[Card],
    profile: Profile,
    opponents: int,
    opts: Options,
    returned: int,
    why: Ruled,
    forced: Card | None = None,
    keep: Card | None = None,
    fallback: Choice = Choice.LEGAL,
    memo: Memo | None = None,
) -> Judgement:
    """A play the referee ruled illegal or foul (``why``): ``??`` against the best legal play (the
    analyzer's arrangement that uses ``drawn``, or the live discard ``forced`` that P8 made him take,
    or drawing and throwing it, or keeping the draw P9 makes him ``keep``; ``fallback`` when the draw itself was
    illegal), its cost the ``returned`` units the remedy took back."""
    best = Play(choice=fallback)
    take: tuple[Action, ...] = ()
    memo = memo or Memo()
    if drawn is None and forced is not None:
        drawn, take = forced, (Take(forced),)
    if drawn is not None and keep is not None:
        others = [c for c in hand if c != keep]  # the position's P9: any hand card but the kept one
        d, _ = best_discard(others, table, seen, profile, 1, opts, memo=memo)
        best = Play((Discard(d),) if d is not None else (), keep=keep)
    elif drawn is not None:
        now = HandContext(hand, profile, table, memo.space(profile)).using(SLOT_OF[drawn])
        if now is None:
            best = Play((Discard(drawn),))
        else:
            acts = (*take, *arrangement_actions(now))
            if not now.dead:
                acts = (*acts, Out())
            else:
                spot = Spot(tuple(seen), memo.rules(profile), opponents, CALM, opts)
                d, _ = best_discard(list(now.dead), final_melds(now, table), seen, profile, 1, opts, spot, memo)
                acts = (*acts, Discard(d)) if d is not None else acts
            best = Play(acts)
    return Judgement(
        "foul", player, line, action, played, best, float(returned), 0.0, None, None, 0.0, opts.depth, "??", why,
        float(returned), 0.0,
    )  # fmt: skip


def judge_draw(
    player: str,
    line: int,
    hand: Sequence[Card],
    table: Sequence[Meld],
    seen: Sequence[Card],
    offered: Card,
    took: bool,
    profile: Profile,
    opponents: int,
    opts: Options,
    stakes: Stakes = CALM,
    memo: Memo | None = None,
) -> Judgement | None:
    """Taking the live discard ``offered`` or drawing, before the turn's draw (``seen`` holds
    ``offered``); None when taking was not possible (the card has no use, P3)."""
    memo = memo or Memo()
    ctx = HandContext(hand, profile, table, memo.space(profile))
    arr = ctx.using(SLOT_OF[offered])
    if arr is None:
        return None
    own = [*hand, *(c for m in table for c in m.cards)]
    live = live_copies(memo.rules(profile), own, seen)
    depth = opts.depth
    spot = Spot(tuple(_minus(seen, offered)), memo.rules(profile), opponents, stakes, opts)
    take, take_actions = _play_worth(arr, table, spot, depth - 1, memo)
    taking = Play((Take(offered), *take_actions))
    unseen = sum(live)
    policy = (memo or Memo()).policy(profile)
    first, _, per_draw = _next_draw(ctx, live, policy) if unseen else (0.0, 0.0, 0.0)
    draw_chips = spot.rules.collected(per_draw, opponents)
    odds = (
        out_odds(ctx, live, first, turns=depth, samples=opts.samples, seed=opts.seed, policy=policy) if unseen else None
    )
    look = Outlook(odds.p[-1], odds.se[-1], 0.0) if odds is not None else Outlook(0.0, 0.0, 0.0)
    draw = worth(draw_chips, look, table, spot, later=False)
    options = {True: (take, taking), False: (draw, Play(choice=Choice.DRAW))}
    best = max(options, key=lambda k: (round(options[k][0].units, 9), options[k][0].p, k == took))
    (b, bplay), (p, pplay) = options[best], options[took]
    loss, chips, out, se = _gives_up(b, p)
    mark = mark_of(loss, se, 0.0, 0.0)
    each = {True: float(arr.value), False: per_draw}  # from each opponent: what the note shows
    return Judgement(
        "draw", player, line, 0, pplay, bplay, max(0.0, loss), se, p.p, b.p, math.hypot(b.p_se, p.p_se), depth,
        mark, TakeOrDraw(each[best], each[took]), chips, out,
    )  # fmt: skip


def judge_decision(
    player: str,
    line: int,
    hand: Sequence[Card],
    seen: Sequence[Card],
    stayed: bool,
    profile: Profile,
    players: int,
    opts: Options,
    memo: Memo | None = None,
) -> Judgement:
    """Staying or going on top (T1) against the analyzer's advice (expected units of each)."""
    memo = memo or Memo()
    space = memo.space(profile)
    a = Start.of(tuple(hand), tuple(seen), players, memo.rules(profile))
    top = -float(sum(memo.rules(profile).owes_winner(True)))  # T2: what going on top costs

    def clear(mean: float, se: float) -> bool:
        # the play gives up less than the smallest mark beyond doubt: more samples would not mark it
        return se > 0 and (top - mean if stayed else mean - top) + CLEAR * se < CHIPS_MARKS[-1][0]

    adv = advise(
        a,
        memo.rules(profile),
        samples=opts.advice_samples,
        seed=opts.seed,
        enough=clear,
        space=space,
        memo=REVIEW_POLICY_NODES,
        policy=memo.policy(profile),
    )
    choice = {True: adv.stay, False: adv.top}
    best = adv.stay >= adv.top
    chips = choice[best] - choice[stayed]
    mark = mark_of(chips, adv.stay_se, 0.0, 0.0)
    word = {True: Play(choice=Choice.STAY), False: Play(choice=Choice.TOP)}
    return Judgement(
        "decision", player, line, -1, word[stayed], word[best], max(0.0, chips), adv.stay_se, None, None, 0.0,
        opts.depth, mark, StayOrTop(adv.stay, adv.stay_se, adv.top), chips,
    )  # fmt: skip
