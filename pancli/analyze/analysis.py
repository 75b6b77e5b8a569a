"""One position analysed: validation (P7, E4), best arrangement, P4, draw table, odds.

>>> from pancli.rules import HOYLE
>>> from pancli.cards import card, Rank, Suit
>>> s5, h3, h4 = card(Rank.FIVE, Suit.SPADES), card(Rank.THREE, Suit.HEARTS), card(Rank.FOUR, Suit.HEARTS)
>>> kd, kh, kc, c2, d7 = (card(Rank.KING, Suit.DIAMONDS), card(Rank.KING, Suit.HEARTS),
...                       card(Rank.KING, Suit.CLUBS), card(Rank.TWO, Suit.CLUBS), card(Rank.SEVEN, Suit.DIAMONDS))
>>> a = analyze([s5, s5, s5, h3, h4, kd, kh, kc, c2, d7], HOYLE, samples=200)
>>> [str(p) for p in a.best.placed], a.best.value, a.now is None
(['5s 5s 5s', 'Kh Kd Kc'], 4, True)
>>> row = a.row(card(Rank.FIVE, Suit.HEARTS))
>>> row.usable, row.value, row.live
(True, 4, 8)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

from pancli.analyze.arrange import Arrangement, HandContext, best_arrangement
from pancli.analyze.odds import (
    Distance,
    DrawRow,
    OutOdds,
    discard_choice,
    distance_to_out,
    draw_table,
    final_melds,
    live_copies,
    out_odds,
    out_value,
)
from pancli.cards import Card
from pancli.melds import Meld
from pancli.meldspace import SLOT_OF, MeldSpace, decode, encode
from pancli.panrules import PanRules
from pancli.rules import Profile, past_the_pack_words, seating_words, ten_words
from pancli.values import Value

if TYPE_CHECKING:
    from pancli.rulebook import Rule


class ImpossiblePosition(ValueError):
    """The position cannot be: ``rule`` is the rule it breaks (P7, E4, S1)."""

    def __init__(self, rule: Rule, message: str) -> None:
        super().__init__(f"{rule} {message}")
        self.rule = rule
        self.message = message


def check_position(
    hand: Sequence[Card],
    drawn: Card | None,
    table: Sequence[Meld],
    seen: Sequence[Card],
    profile: Profile,
    rules: PanRules | None = None,
) -> None:
    """Raise ImpossiblePosition unless hand + melds = 10 (+1 drawn, P7) and no card is over its copies
    (E4), as the rules object (``rules``, of ``profile``; a fresh one without) answers: its
    ``holds_ten`` and ``past_the_pack``.

    >>> from pancli.rules import HOYLE
    >>> from pancli.cards import card, Rank, Suit
    >>> check_position([card(Rank.FIVE, Suit.SPADES)] * 10, None, [], [], HOYLE)
    Traceback (most recent call last):
    ...
    pancli.analyze.analysis.ImpossiblePosition: E4 10 copies of 5s, but the pack holds 8 (hand, melds and seen cards)
    >>> check_position([card(Rank.FIVE, Suit.SPADES)] * 9, None, [], [], HOYLE)
    Traceback (most recent call last):
    ...
    pancli.analyze.analysis.ImpossiblePosition: P7 the player holds 9 and has 0 melded: not 10 in all (the drawn ...
    """
    rules = PanRules(profile) if rules is None else rules
    melded = sum(len(m.cards) for m in table)
    why = rules.ten_fault(len(hand), melded)
    if why is not None:
        hint = ""
        if drawn is None and rules.holds_ten(len(hand) - 1, melded):
            hint = "; mark the drawn card with a trailing +CARD or --draw CARD"
        # start-up: pan analyze does without these
        from pancli.rulebook import Rule  # only for an error: ``pan analyze`` starts without it

        said = ten_words("the player", why.hand, why.melded, why.dealt)
        raise ImpossiblePosition(Rule.P7, f"{said} (the drawn card apart){hint}")
    counts = Counter([*hand, *seen, *(c for m in table for c in m.cards)])
    if drawn is not None:
        counts[drawn] += 1
    over = rules.copies_fault([(c.index, n) for c, n in counts.items()])
    if over is not None:
        # start-up: only an impossible position needs the rule ids
        from pancli.rulebook import Rule

        raise ImpossiblePosition(Rule.E4, f"{past_the_pack_words(over)} (hand, melds and seen cards)")


class Analysis(Value):
    """Everything ``pan analyze`` reports about one position."""

    hand: tuple[Card, ...]
    drawn: Card | None
    table: tuple[Meld, ...]
    seen: tuple[Card, ...]
    players: int
    """Active players (T3)."""
    opponents: int
    """Who pay the player's collections (each condition, change and going out): a record
    position's own (:attr:`.Position.payers`: the active others and the players retired from the
    hand, I1, I2), or the rules object's ``payers`` of :attr:`players` (C6-C8)."""
    profile: Profile
    best: Arrangement
    """Best arrangement of the hand and the drawn card (most cards down, chips, fewest melds)."""
    now: Arrangement | None
    """P4: what goes down this turn (the drawn card used), or None (no draw, or an unusable one)."""
    waits: Arrangement | None
    """P4: the hand's best arrangement when it must wait for a usable draw, else None."""
    rows: tuple[DrawRow, ...]
    """The draw table: for this turn's draw, or with a drawn card for the next one (:attr:`next_turn`)."""
    live: tuple[int, ...]
    distance: Distance
    odds: OutOdds
    discard: Card | None = None
    """P5: the hand card to discard after laying :attr:`now` (None: no drawn card, an unusable
    one, which is itself the discard (P2), or going out). With :attr:`now` None it is P9's: the
    unusable draw stays in the hand (:attr:`kept_draw`)."""
    next_hand: tuple[Card, ...] | None = None
    """With a drawn card (and not going out): the hand the next turn starts from, after laying
    :attr:`now` and the discard; :attr:`rows`, :attr:`distance` and :attr:`odds` are about it."""
    next_table: tuple[Meld, ...] = ()
    """The player's melds at the next turn (with :attr:`next_hand`)."""
    kept_draw: bool = False
    """P9: the unusable drawn card stays in the hand and :attr:`discard` is a hand card (the
    position said the draw may not be the discard: ``analyze(keep=drawn)``)."""
    outs: tuple[int, ...] = ()
    """C8 per opponent for each draw-table row (by slot) that puts the player out, 0 for the
    others: as the rules object of the analysis answers it (:meth:`PanRules.going_out_value`)."""
    totals: tuple[tuple[int, int], ...] = ()
    """For each value the analysis shows (the arrangements', the draw table's): that value from
    each opponent, and what the opponents pay in all, as the rules object of the analysis answers
    it (:meth:`PanRules.collected`); :meth:`collected` reads it."""

    @property
    def next_turn(self) -> bool:
        """True when the draw table and odds are for the next turn's draw (a drawn card was given)."""
        return self.next_hand is not None

    def collected(self, units: int) -> int:
        """What ``units`` from each opponent (a value the analysis shows) come to in all, as the
        rules object of the analysis answered (:attr:`totals`: every opponent pays them, C6).

        >>> from pancli.rules import HOYLE
        >>> from pancli.cards import card, Rank, Suit
        >>> kings = [card(Rank.KING, s) for s in (Suit.SPADES, Suit.HEARTS, Suit.CLUBS)]
        >>> a = analyze([*kings, *[card(Rank.TWO, Suit.CLUBS)] * 7], HOYLE, players=5, samples=20)
        >>> a.best.value, a.opponents, a.collected(a.best.value)
        (5, 4, 20)
        """
        return dict(self.totals)[units]

    @property
    def unseen(self) -> int:
        """Cards the player has not seen: where the next stock card comes from."""
        return sum(self.live)

    @property
    def useful_live(self) -> int:
        """Live copies of every useful card (:attr:`DrawRow.useful`: it raises what the hand lays or its value)."""
        return sum(r.live for r in self.rows if r.useful)

    @property
    def p_useful(self) -> float:
        """Probability that the next stock card is useful: useful live copies / unseen cards."""
        return self.useful_live / self.unseen if self.unseen else 0.0

    @property
    def p_out_next(self) -> float:
        """Probability that the next stock card puts the player out."""
        return sum(r.live for r in self.rows if r.out) / self.unseen if self.unseen else 0.0

    def row(self, c: Card) -> DrawRow:
        """The draw-table row of card ``c``."""
        return self.rows[SLOT_OF[c]]

    def out_value(self, row: DrawRow) -> int:
        """C8 per opponent when ``row``'s draw puts the player out (0 otherwise)."""
        return self.outs[SLOT_OF[row.card]]


def analyze(
    hand: Sequence[Card],
    profile: Profile,
    drawn: Card | None = None,
    table: Sequence[Meld] = (),
    seen: Sequence[Card] = (),
    players: int = 6,
    samples: int = 2000,
    seed: int = 1,
    turns: int = 10,
    space: MeldSpace | None = None,
    rules: PanRules | None = None,
    keep: Card | None = None,
    payers: int | None = None,
) -> Analysis:
    """Analyse a position: ``hand`` (without the drawn card), ``drawn``, the player's ``table`` melds
    and the ``seen`` cards. ``keep``: the card the position says may not be the discard (P9: the
    drawn card, which the flat next player could add, when the hand holds another card:
    ``Position.kept``, the table's ``DiscardDue.excluded``), so an unusable draw stays in the
    hand and a hand card is discarded. A ``keep`` with no other card in the hand, or ``samples``
    under 1 (the odds sample), is a ValueError.
    Raises :class:`ImpossiblePosition` for an impossible position, as the rules
    object ``rules`` of ``profile`` (a fresh one without) answers S1, P7 and E4. ``space``: the meld
    space the caller asks in (a batch's, shared by its hands; without, that of ``rules``:
    :meth:`PanRules.meld_space`), where the search asks ``rules`` what melds are (M1-M5, C6, C7).
    ``payers``: who pay the player's collections when the position knows them (a record
    position's, :attr:`.Position.payers`); without, the rules object's ``payers`` of ``players``."""
    if samples < 1:
        raise ValueError(f"samples must be at least 1, not {samples}")
    rules = PanRules(profile) if rules is None else rules
    why = rules.seating(players) if payers is None else None  # a record position's table was seated (S1)
    if why is not None:
        from pancli.rulebook import Rule  # start-up: pan analyze does without it

        raise ImpossiblePosition(Rule.S1, seating_words(why))
    check_position(hand, drawn, table, seen, profile, rules)
    own = [*hand, *(c for m in table for c in m.cards)]
    if drawn is not None:
        own.append(drawn)
    live = live_copies(rules, own, seen)
    if space is None:
        space = rules.meld_space()
    ctx = HandContext(hand, profile, table, space)
    rows = draw_table(ctx, live)
    cards = [*hand, drawn] if drawn is not None else list(hand)
    best = best_arrangement(cards, profile, table, space)
    now = waits = discard = None
    next_hand: tuple[Card, ...] | None = None
    next_table: tuple[Meld, ...] = ()
    if drawn is not None:
        now = rows[SLOT_OF[drawn]].arrangement
        if now is not None and now.score == best.score:
            best = Arrangement(now.placed, now.dead, best.count)  # the tie that uses the draw
        if now is None and keep is not None:  # P9: a hand card goes, the draw stays
            next_table = tuple(table)
            discard, ctx = _best_discard([*hand, drawn], profile, next_table, live, space, keep=keep)
            next_hand = tuple(decode(ctx.state))
            rows = draw_table(ctx, live)
        elif now is None:  # P2: the unusable draw is the discard; the hand meets the next draw as it is
            next_hand, next_table = tuple(hand), tuple(table)
        elif now.dead:  # the drawn card used: what is laid stays down, one hand card is discarded (P5)
            next_table = tuple(final_melds(now, table))
            discard, ctx = _best_discard(now.dead, profile, next_table, live, space)
            next_hand = tuple(decode(ctx.state))
            rows = draw_table(ctx, live)
    if now is None:
        waits = best_arrangement(next_hand or (), profile, table, space) if drawn is not None else best
    # the way out keeps every card the hand's own best arrangement lays (it never advises throwing them)
    lays = best_arrangement(decode(ctx.state), profile, ctx.table, space)
    distance = distance_to_out(ctx, live, [c for p in lays.placed for c in p.cards])
    unseen = sum(live)
    exact_first = sum(r.live for r in rows if r.out) / unseen if unseen else 0.0
    odds = out_odds(ctx, live, exact_first, turns=turns, samples=samples, seed=seed)
    out_table = next_table if next_hand is not None else tuple(table)
    outs = tuple(out_value(r, out_table, rules) for r in rows)
    shown = {a.value for a in (best, now, waits) if a is not None} | {r.value for r in rows}
    if payers is None:
        payers = rules.payers(players)
    totals = tuple((v, rules.collected(v, payers)) for v in sorted(shown))
    return Analysis(
        tuple(hand), drawn, tuple(table), tuple(seen), players, payers, profile, best, now, waits, tuple(rows),
        tuple(live), distance, odds, discard, next_hand, next_table, kept_draw=now is None and discard is not None,
        outs=outs, totals=totals,
    )  # fmt: skip


def _best_discard(
    left: Sequence[Card],
    profile: Profile,
    table: Sequence[Meld],
    live: Sequence[int],
    space: MeldSpace,
    keep: Card | None = None,
) -> tuple[Card, HandContext]:
    """P5: the card of ``left`` (the hand after this turn's melds) to discard, and the context of
    the hand it leaves: the fewest useful draws to go out (:func:`distance_to_out`), then the
    policy's choice (:func:`discard_choice`: fewest partners) among the ties. ``keep``: a card
    that may not be the discard (P9's kept draw)."""
    if all(c == keep for c in left):
        raise ValueError(f"{keep} is kept (P9) but the hand holds no other card to discard")
    policy = discard_choice(encode(left))
    tried: list[tuple[int, bool, Card, HandContext]] = []
    for c in dict.fromkeys(c for c in left if c != keep):
        rest = list(left)
        rest.remove(c)
        ctx = HandContext(rest, profile, table, space)
        draws = distance_to_out(ctx, live).draws
        tried.append((len(left) + 1 if draws is None else draws, SLOT_OF[c] != policy, c, ctx))
    _, _, card, ctx = min(tried, key=lambda t: t[:2])
    return card, ctx
