"""Judging the decisions of a played hand against the analyzer's choice (``pan review``).

At a position the referee gives (:func:`pancli.referee.position.position_at`: the player's cards
known from the deal and the play), the reviewer compares what was played with the analyzer's
best choice, for four decisions:

* **stay or go on top (T1)**: the expected units of each, from the analyzer's advice
  (:func:`pancli.analyze.advice.advise`);
* **take the live discard or draw (P1, P3)**, when both were legal: taking needs a use for the
  card (its draw-table row, P3); not judged when P8 forced the take;
* **what goes down (P4)**: what was laid against the analyzer's best arrangement that uses the
  drawn card (most cards down, then most chips);
* **which card to discard (P5)**: every distinct hand card (but the draw P9 keeps).

Each judgement has two measured sizes. ``chips``: the units given up in all (each opponent's
payment times the opponents), exact for what a play collects at once, an expectation over the
unseen cards for what the next draw collects (C7, C8), an estimate with its error for T1.
``odds``: the drop in the chance of going out within ``depth`` draws, by
:func:`pancli.analyze.odds.out_odds` (Monte Carlo from the second draw on, with its standard
error; every option is estimated with the same seed).

A mark needs the loss to pass a threshold (:data:`CHIPS_MARKS`, :data:`ODDS_MARKS`) and an
estimated loss to pass :data:`Z` standard errors of the difference as well: a difference within
the stated error never earns a mark. The larger of the two marks is given. A discard that is the
best where most other discards would have earned ``?`` or worse earns ``!``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Final

from pancli.analyze.advice import advise
from pancli.analyze.analysis import analyze
from pancli.analyze.arrange import Arrangement, HandContext
from pancli.analyze.odds import draw_table, final_melds, live_copies, out_odds, out_value
from pancli.cards import Card, format_cards
from pancli.melds import Meld, going_out_value
from pancli.meldspace import SLOT_OF, MeldSpace, meld_space
from pancli.rules import Profile
from pancli.values import Value

CHIPS_MARKS: Final = ((8.0, "??"), (4.0, "?"), (2.0, "?!"))
"""Units given up in all (every opponent's share added) from which a play earns each mark."""
ODDS_MARKS: Final = ((0.20, "??"), (0.10, "?"), (0.05, "?!"))
"""Drop in the chance of going out within ``depth`` draws from which a play earns each mark."""
Z: Final = 2.0
"""An estimated loss counts only beyond this many standard errors of the difference (about 95%)."""
MARKS: Final = ("?!", "?", "??")
"""The question marks, mildest first (``!`` is the one praise)."""


class Options(Value):
    """How hard the reviewer looks: ``depth`` draws for the odds of going out, ``samples`` for
    the Monte Carlo of the odds, ``advice_samples`` for the stay-or-top simulation, ``seed``."""

    depth: int = 3
    samples: int = 400
    advice_samples: int = 40
    seed: int = 1


class Judgement(Value):
    """One decision judged: who, where (``line``, ``action``: the index of the action in the
    turn, -1 for a decision line), what was played and the best choice, and the sizes."""

    kind: str
    """``decision`` (T1), ``draw`` (take or draw), ``meld`` (what goes down) or ``discard``."""
    player: str
    line: int
    action: int
    played: str
    best: str
    chips: float
    """Units given up in all (0: none; the best collects no more than the play)."""
    chips_se: float
    odds_played: float | None
    odds_best: float | None
    odds_se: float
    depth: int
    mark: str
    """``""``, ``!``, ``?!``, ``?`` or ``??``."""
    note: str = ""

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


class Outlook(Value):
    """The chance of going out within ``depth`` draws from a position between turns (``p``, its
    standard error ``se``) and what the next stock draw collects, on average, from each opponent
    (``chips``: C7 at once, C8 when it puts the player out)."""

    p: float
    se: float
    chips: float


def outlook(
    hand: Sequence[Card],
    table: Sequence[Meld],
    seen: Sequence[Card],
    profile: Profile,
    depth: int,
    opts: Options,
    space: MeldSpace | None = None,
) -> Outlook:
    """The :class:`Outlook` of ``hand`` with the melds ``table``, ``seen`` cards seen (the
    analyzer's draw table, :func:`pancli.analyze.odds.out_odds` for the odds). ``space``, here
    and in every judge of this module: the meld space of ``profile`` the caller asks in (a
    hand's review shares one; one built afresh without)."""
    own = [*hand, *(c for m in table for c in m.cards)]
    live = live_copies(profile, own, seen)
    unseen = sum(live)
    if not unseen or depth < 1:
        return Outlook(0.0, 0.0, 0.0)
    ctx = HandContext(hand, profile, table, space)
    rows = draw_table(ctx, live)
    first = sum(r.live for r in rows if r.out) / unseen
    chips = sum(r.live * (r.value + out_value(r, table, profile)) for r in rows if r.usable) / unseen
    odds = out_odds(ctx, live, first, turns=depth, samples=opts.samples, seed=opts.seed)
    return Outlook(odds.p[-1], odds.se[-1], chips)


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
    space: MeldSpace | None = None,
) -> dict[Card, Outlook]:
    """The outlook after discarding each distinct card of ``hand`` (but ``keep``, which P9 keeps):
    the discard joins the seen cards."""
    if space is None:
        space = meld_space(profile)
    return {
        d: outlook(_minus(hand, d), table, [*seen, d], profile, depth, opts, space)
        for d in dict.fromkeys(sorted(hand, key=lambda c: c.index))
        if d != keep
    }


def _best(looks: dict[Card, Outlook], prefer: Card | None = None) -> Card:
    """The best discard: the highest odds, then the most chips of the next draw (``prefer`` on a tie)."""
    return max(looks, key=lambda d: (looks[d].p, looks[d].chips, d == prefer))


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
    space: MeldSpace | None = None,
) -> Judgement | None:
    """The discard ``played`` from ``hand`` (the cards held after the turn's melds) against the
    best one; None when there was no choice (one distinct card)."""
    looks = discard_outlooks(hand, table, seen, profile, opts.depth, opts, keep, space)
    if len(looks) < 2 or played not in looks:
        return None
    best = _best(looks, played)
    b, p = looks[best], looks[played]
    chips = (b.chips - p.chips) * opponents
    se = math.hypot(b.se, p.se)
    mark = mark_of(chips, 0.0, b.p - p.p, se)
    note = f"next draw {b.chips:.2f} vs {p.chips:.2f} from each"
    if best == played:
        others = [o for d, o in looks.items() if d != best]
        worse = sum(
            1 for o in others if mark_of((b.chips - o.chips) * opponents, 0.0, b.p - o.p, math.hypot(b.se, o.se)) in
            ("?", "??")
        )  # fmt: skip
        mark = "!" if 2 * worse > len(others) else ""
        note = f"{worse} of the {len(others)} other discards would earn ? or ??; next draw {b.chips:.2f} from each"
    return Judgement(
        "discard", player, line, action, f"discard {played}", f"discard {best}", max(0.0, chips), 0.0,
        p.p, b.p, se, opts.depth, mark, note,
    )  # fmt: skip


def best_discard(
    hand: Sequence[Card],
    table: Sequence[Meld],
    seen: Sequence[Card],
    profile: Profile,
    depth: int,
    opts: Options,
    space: MeldSpace | None = None,
) -> tuple[Card | None, Outlook]:
    """The best discard of ``hand`` and its outlook (None and certainty when the hand is empty:
    the player is out)."""
    if not hand:
        return None, Outlook(1.0, 0.0, 0.0)
    looks = discard_outlooks(hand, table, seen, profile, depth, opts, space=space)
    best = _best(looks)
    return best, looks[best]


def arrangement_text(arr: Arrangement) -> str:
    """``meld [..], add .. to #N`` as a turn writes them (the canonical action text)."""
    parts = []
    for p in arr.placed:
        if p.target is None:
            parts.append(f"meld [{format_cards(p.meld.cards)}]")
        else:
            parts.append(f"add {format_cards(p.cards)} to #{p.target + 1}")
    return ", ".join(parts)


class Laid(Value):
    """What a turn put down: the cards laid (the drawn one included), the units each opponent
    paid for them (C1-C7, as the referee ruled), the cards left in the hand and the melds after."""

    down: int
    chips: int
    hand: tuple[Card, ...]
    table: tuple[Meld, ...]
    text: str


def _after(arr: Arrangement, table: Sequence[Meld], profile: Profile, opponents: int) -> tuple[float, Outlook | None]:
    """What the arrangement ``arr`` collects at once in all (C8 too when it goes out), and the
    certainty of being out (None when it is not)."""
    chips = float(arr.value * opponents)
    if arr.dead:
        return chips, None
    return chips + going_out_value(final_melds(arr, table), profile) * opponents, Outlook(1.0, 0.0, 0.0)


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
    space: MeldSpace | None = None,
) -> Judgement | None:
    """What went down (``laid``) against the analyzer's best arrangement that uses ``drawn``
    (None: it matches the best in cards down and chips, or the drawn card has no use)."""
    if space is None:
        space = meld_space(profile)
    now = HandContext(hand, profile, table, space).using(SLOT_OF[drawn])  # the analyzer's "now" (pan analyze)
    if now is None or (laid.down, laid.chips) >= (now.melded, now.value):
        return None
    best_chips, out = _after(now, table, profile, opponents)
    if out is None:
        _, out = best_discard(list(now.dead), final_melds(now, table), seen, profile, opts.depth, opts, space)
    played_out = not laid.hand
    if played_out:
        mine = Outlook(1.0, 0.0, 0.0)
    else:
        _, mine = best_discard(laid.hand, laid.table, seen, profile, opts.depth, opts, space)
    played_chips = float(laid.chips * opponents)
    chips = best_chips - played_chips
    se = math.hypot(out.se, mine.se)
    mark = mark_of(chips, 0.0, out.p - mine.p, se)
    best_text = arrangement_text(now) + (", out" if not now.dead else "")
    return Judgement(
        "meld", player, line, action, laid.text or "nothing laid", best_text, max(0.0, chips), 0.0, mine.p, out.p,
        se, opts.depth, mark,
        f"{now.melded} cards down for {now.value} from each vs {laid.down} for {laid.chips}",
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
    space: MeldSpace | None = None,
) -> Judgement | None:
    """Taking the live discard ``offered`` or drawing, before the turn's draw (``seen`` holds
    ``offered``); None when taking was not possible (the card has no use, P3)."""
    own = [*hand, *(c for m in table for c in m.cards)]
    live = live_copies(profile, own, seen)
    if space is None:
        space = meld_space(profile)
    ctx = HandContext(hand, profile, table, space)
    rows = draw_table(ctx, live)
    row = rows[SLOT_OF[offered]]
    if row.arrangement is None:
        return None
    arr = row.arrangement
    take_chips, take_out = _after(arr, table, profile, opponents)
    depth = opts.depth
    if take_out is None:
        rest_seen = _minus(seen, offered)
        _, take_out = best_discard(list(arr.dead), final_melds(arr, table), rest_seen, profile, depth - 1, opts, space)
    unseen = sum(live)
    first = sum(r.live for r in rows if r.out) / unseen if unseen else 0.0
    paid = sum(r.live * (r.value + out_value(r, table, profile)) for r in rows if r.usable) * opponents
    draw_chips = paid / unseen if unseen else 0.0
    odds = out_odds(ctx, live, first, turns=depth, samples=opts.samples, seed=opts.seed) if unseen else None
    draw_p, draw_se = (odds.p[-1], odds.se[-1]) if odds is not None else (0.0, 0.0)
    take_text = f"take {offered}, {arrangement_text(arr)}" + (", out" if not arr.dead else "")
    options = {True: (take_out.p, take_chips, take_out.se, take_text), False: (draw_p, draw_chips, draw_se, "draw")}
    best = max(options, key=lambda k: (options[k][0], options[k][1], k == took))
    bp, bc, bse, btext = options[best]
    pp, pc, pse, ptext = options[took]
    chips = bc - pc
    se = math.hypot(bse, pse)
    mark = mark_of(chips, 0.0, bp - pp, se)
    return Judgement(
        "draw", player, line, 0, ptext, btext, max(0.0, chips), 0.0, pp,
        bp, se, depth, mark, f"{bc / opponents:.2f} vs {pc / opponents:.2f} from each now",
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
    space: MeldSpace | None = None,
) -> Judgement:
    """Staying or going on top (T1) against the analyzer's advice (expected units of each)."""
    if space is None:
        space = meld_space(profile)
    a = analyze(hand, profile, None, (), seen, players, samples=100, seed=opts.seed, turns=1, space=space)
    adv = advise(a, samples=opts.advice_samples, seed=opts.seed, space=space)
    choice = {True: adv.stay, False: adv.top}
    best = adv.stay >= adv.top
    chips = choice[best] - choice[stayed]
    mark = mark_of(chips, adv.stay_se, 0.0, 0.0)
    word = {True: "stay", False: "top"}
    return Judgement(
        "decision", player, line, -1, word[stayed], word[best], max(0.0, chips), adv.stay_se, None, None, 0.0,
        opts.depth, mark, f"stay {adv.stay:+.2f} (s.e. {adv.stay_se:.2f}) vs top {adv.top:+.2f} units expected",
    )  # fmt: skip
