"""Seeded self-play: complete, legal Panguingue hands as :class:`HandScript` values.

:func:`simulate_hands` shuffles a real pack with ``random.Random(seed)``, deals every
player ten known cards (S2), turns the upcard, and plays each hand to its end (a player
going out, T4, or a void hand under P10). Identical arguments give identical scripts.

Each hand is played on the referee's position, a :class:`~pancli.referee.table.Table`: it is
dealt there, each line the policy chooses is pushed on it, and what the policy chooses from
(each player's cards and melds, the live discard, whose turn it is, P8, P9) and how the hand
ended (its winner seats the next hand, S3) are read from it. Self-play applies nothing itself;
a line the referee refuses raises :class:`SelfPlayError`. Its own are what the referee does
not know: the order of the stock it shuffled (a draw is the next card of it) and the order
each player holds his cards in, which the policy's ties follow.

The policy (simple on purpose, documented so records can be read with it in mind):

* **Decision (T1).** Hand strength = pairs of equal rank plus same-suit cards one rank
  apart (a rough count of near-melds). A player with strength 5 or less (about a third
  of the deals) goes on top with probability 0.9; everyone else stays.
* **Draw or take (P1, P3, P8).** When the live discard fits one of the player's melds he
  takes it and adds it: always under ``automatic`` forcing; under ``demand`` he takes it
  himself 60% of the time, another active player demands it (a ``force`` line, one of
  those the rules object lets force him) 20% of the time, and 20% of the time nobody asks
  and he draws. Otherwise he takes the live
  discard when it completes a new meld with his hand cards; else he draws from the
  stock (a ``reshuffle`` line first when the stock is empty; with nothing to reshuffle
  the hand is void, P10).
* **Melding (P2, P4, M5, C7).** The drawn card is added to one of his melds if it fits,
  else laid in the most valuable new meld it completes; unused, it is discarded at once
  unless the next player is flat and could use it (P9), in which case he keeps it and
  discards his least useful hand card. After using the draw he lays, greedily, the most
  valuable legal melds his hand holds, then adds hand cards to his melds one at a time.
* **Discard (P5).** The least useful hand card: fewest equal cards, fewest other-suit
  cards of its rank and fewest same-suit neighbours; an empty hand means he went out (C8).
* The generator never borrows or splits (M6): those appear only in hand-written records.
* **Stuck deals.** Players can end up holding melds that cannot grow and hand cards that
  cannot meld, so the stock cycles forever (P10 voids a hand only when no card is left).
  A deal whose stock has been reshuffled three times is abandoned and dealt again from the
  same generator (same order of play): every record yielded is a complete hand.
* **Next hand (S3).** The winner the table's result names is first hand of the next hand
  (the order rotates to start with him); after a hand with no winner, for which S3 sets no
  order, the policy passes the deal one seat to the right.

>>> from pancli.rules import HOYLE
>>> from pancli.referee import referee_script
>>> scripts = list(simulate_hands(("Ana", "Ben", "Cruz", "Dee"), 3, 7, HOYLE))
>>> len(scripts), all(referee_script(s).ok for s in scripts)
(3, True)
>>> again = list(simulate_hands(("Ana", "Ben", "Cruz", "Dee"), 3, 7, HOYLE))
>>> [s.events for s in again] == [s.events for s in scripts]
True
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Final

from msgspec.structs import replace

from pancli.cards import ALL_CARDS, Card
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
    MeldNew,
    Reshuffle,
    Take,
    Turn,
)
from pancli.panrules import PanRules
from pancli.referee.board import Seat
from pancli.referee.table import Table
from pancli.rules import MIN_MELD, Profile, seating_words
from pancli.values import Value

_MAX_RESHUFFLES: Final = 3


# Cards by Card.index for self-play (rank = i >> 2, suit = i & 3).
# (asked of the 13 ranks, each answer given to the rank's four cards: start-up, not 52 questions)
RANK_POS: Final = tuple(
    pos for pos in (c.rank.pan_index if c.rank.in_pan_pack else -100 for c in ALL_CARDS[::4]) for _ in range(4)
)
"""Position of each card's rank in A 2 3 4 5 6 7 J Q K (E2)."""
_MIXED_CARD: Final = tuple(mixed for mixed in (c.rank.is_noncomoquer for c in ALL_CARDS[::4]) for _ in range(4))


def _near(i: int, reach: int) -> int:
    """The cards of :func:`near_table` of the spade of index ``i``: its rank's four (the indexes ``i``
    shares ``i >> 2`` with), then its suit's within ``reach`` ranks (every fourth index from
    ``i``): those two lines, not all 52 cards each, as start-up asks."""
    bits, at = 15 << i, RANK_POS[i]
    for j in range(0, 52, 4):
        if -reach <= RANK_POS[j] - at <= reach:
            bits |= 1 << j
    return bits


def near_table(least: int) -> tuple[int, ...]:
    """For each card (by index), the cards that could share a meld of ``least`` cards or more with
    it, as bits: its rank's, and its suit's within ``least - 1`` ranks (two at least, so that the
    widest ropes :func:`widest_melds_with` offers are as wide as a meld of three's). A card's suit
    line is its rank's spade's shifted by its suit (``i & 3``): thirteen lines are looked for."""
    reach = max(2, least - 1)
    spades = [_near(i, reach) for i in range(0, 52, 4)]
    return tuple((spades[i >> 2] & ~(15 << (i & ~3))) << (i & 3) | 15 << (i & ~3) for i in range(52))


NEAR: Final = near_table(MIN_MELD)
"""The :func:`near_table` of the rulebook's melds (three cards or more), built once at import."""


def widest_melds_with(
    c: int, hand: Sequence[int], least: int = MIN_MELD, near_cards: Sequence[int] = NEAR
) -> list[tuple[int, ...]]:
    """The widest melds card ``c`` might form with cards of ``hand`` (cards by :attr:`Card.index`),
    not yet judged: ``c`` with every copy of it (a one-suit set), with every card of its rank
    (aces and kings, M4), with one card of each other suit (a different-suits set), and the
    unbroken run of its suit through it (a rope, M2); none under ``least`` cards (the rules
    object's ``min_meld``, whose :func:`near_table` is ``near_cards``). Self-play asks the meld
    engine which of them are legal and what each is worth.

    >>> from pancli.cards import ALL_CARDS
    >>> ix = {str(x): x.index for x in ALL_CARDS}
    >>> [[str(ALL_CARDS[i]) for i in m] for m in widest_melds_with(ix["5h"], [ix["4h"], ix["6h"], ix["5s"]])]
    [['4h', '5h', '6h']]
    """
    near = near_cards[c]
    others = least - 1  # the cards of the hand a meld with c holds at least
    hand = [x for x in hand if near >> x & 1]
    if len(hand) < others:
        return []
    r = c >> 2
    same = [x for x in hand if x >> 2 == r]
    cands: list[tuple[int, ...]] = []
    if len(same) >= others:
        copies = [x for x in same if x == c]
        if len(copies) >= others:
            cands.append((c, *copies))
        if _MIXED_CARD[c]:
            cands.append((c, *same))
        else:
            suits = 1 << (c & 3)
            diff = [c]
            for x in same:
                bit = 1 << (x & 3)
                if not suits & bit:
                    suits |= bit
                    diff.append(x)
            if len(diff) >= least:
                cands.append(tuple(diff))
    s = c & 3
    pos = RANK_POS
    suited = {pos[x]: x for x in hand if x & 3 == s and x >> 2 != r}
    if len(suited) >= others:
        i = pos[c]
        lo = i
        while lo - 1 in suited:
            lo -= 1
        hi = i
        while hi + 1 in suited:
            hi += 1
        if hi - lo >= others:
            cands.append(tuple(c if k == i else suited[k] for k in range(lo, hi + 1)))
    return cands


class _Stuck(Exception):
    """The deal cycles its stock without end: it is dealt again."""


def simulate_hands(
    players: tuple[str, ...], hands: int, seed: int, profile: Profile, *, rules: PanRules | None = None
) -> Iterator[HandScript]:
    """Yield ``hands`` complete hands of self-play among ``players`` (order of play, dealer last):
    the scripts of :func:`play_hands`.

    >>> from pancli.rules import HOYLE
    >>> s = next(simulate_hands(("Ana", "Ben", "Cruz"), 1, 3, HOYLE))
    >>> s.players, len(s.deals), s.upcard is not None
    (('Ana', 'Ben', 'Cruz'), 3, True)
    """
    for played in play_hands(players, hands, seed, profile, rules=rules):
        yield played.script


class PlayedHand(Value):
    """One hand of self-play: its script, and its winner as the table that played it found him
    (None: the hand is void)."""

    script: HandScript
    winner: str | None


def play_hands(
    players: tuple[str, ...], hands: int, seed: int, profile: Profile, *, rules: PanRules | None = None
) -> Iterator[PlayedHand]:
    """Play ``hands`` complete hands among ``players`` (order of play, dealer last), asking
    ``rules`` (the rules object of ``profile``; a fresh one without) every rule question a
    player's choice depends on: what is a meld and what grows one, P8, P9, S1, and the next
    hand's order (S3); each hand is played on a referee's table judging by ``rules``, which
    applies every line (:class:`SelfPlayError` if it refuses one) and names the winner.

    >>> from pancli.rules import HOYLE
    >>> p = next(play_hands(("Ana", "Ben", "Cruz"), 1, 3, HOYLE))
    >>> p.winner in p.script.players or p.winner is None
    True
    """
    rules = PanRules(profile) if rules is None else rules
    why = rules.seating(len(players))
    if why is not None:
        raise ValueError(seating_words(why))
    if rules.seated_twice(players) is not None:
        raise ValueError("player names must be unique")
    rng = random.Random(seed)
    order = tuple(players)
    table = _Policy(rules)
    full = [c.index for c in rules.pack_cards()]
    done = 0
    while done < hands:
        try:
            script, winner = _HandPlay(order, table, rng, full).play()
        except _Stuck:
            continue
        done += 1
        yield PlayedHand(script, winner)
        after = rules.next_order(order, winner)
        # S3 sets no order after a hand with no winner: passing the deal on is the policy's choice
        order = after if after is not None else order[1:] + order[:1]


class _Policy:
    """The rules object, its meld caches and the generator's own meld values by int tuple."""

    def __init__(self, rules: PanRules) -> None:
        self.profile = rules.profile
        self.rules = rules
        self.values: dict[tuple[int, ...], int] = {}
        self.least = least = rules.min_meld
        """The fewest cards of a meld (M1), as the rules object says: no meld is looked for under it."""
        self.near = NEAR if least == MIN_MELD else near_table(least)
        """The cards that could share a meld with each card (:func:`near_table`)."""

    def value(self, meld: tuple[int, ...]) -> int:
        """The meld's value (C6), or -1 when it is not a legal meld."""
        v = self.values.get(meld)
        if v is None:
            verdict = self.rules.judge(tuple(ALL_CARDS[i] for i in meld))
            v = self.values[meld] = -1 if verdict.meld is None else self.rules.value(verdict.meld)
        return v

    def best_with(self, c: int, hand: list[int]) -> tuple[int, ...] | None:
        """The most valuable legal meld of ``c`` with cards of ``hand`` (ties: the longer), or None."""
        best = None
        best_key = (-1, 0)
        for m in widest_melds_with(c, hand, self.least, self.near):
            key = (self.value(m), len(m))
            if key[0] >= 0 and key > best_key:
                best, best_key = m, key
        return best


class SelfPlayError(RuntimeError):
    """The referee refused a line self-play pushed: a fault of the generator, never of a record."""


class _HandPlay:
    """One hand of self-play, played on the referee's position (:class:`Table`): the table is
    dealt, each line the policy chooses is pushed, and everything the policy reads (what each
    player holds and has laid, the live discard, whose turn it is, P8 and P9, how the hand ended
    and who won) is the table's. Its own are what the table does not know: the order of the
    stock it shuffled, the order each player holds his cards in, and the lines written."""

    def __init__(self, order: tuple[str, ...], policy: _Policy, rng: random.Random, full: list[int]) -> None:
        self.policy = policy
        self.rng = rng
        stock = list(full)
        rng.shuffle(stock)
        deals = []
        dealt = policy.rules.hand_size
        for p in order:
            deals.append(Deal(p, tuple(ALL_CARDS[i] for i in stock[-dealt:])))
            del stock[-dealt:]
        upcard = ALL_CARDS[stock.pop()]
        self.stock = stock
        """The stock in the order the simulator shuffled it (the referee counts it, never orders it)."""
        self.dealt = HandScript(players=order, profile=policy.profile, deals=tuple(deals), upcard=upcard)
        self.table = Table(self.dealt, record_steps=False, rules=policy.rules)
        if not self.table.deal_in():
            raise SelfPlayError(f"the referee refused the deal: {self.table.violations[0].message}")
        self.arranged: dict[str, list[int]] = {d.player: [c.index for c in d.cards] for d in deals}
        """The order each player holds his cards in, which the policy's ties follow (the cards
        themselves are the table's: :meth:`_held`)."""
        self.events: list[Event] = []
        self.reshuffles = 0

    def play(self) -> tuple[HandScript, str | None]:
        """The hand played to its end, and its winner as the referee found him (None: void)."""
        rng = self.rng
        t = self.table
        for s in t.seats:
            stay = _strength(self._held(s)) > 5 or rng.random() >= 0.9
            self._push(Decision(s.name, stay))
        while t.to_act is not None:
            self.turn()
        return replace(self.dealt, events=tuple(self.events)), t.finish().winner

    def _push(self, ev: Event) -> None:
        """Write the line and play it on the table (a refusal is a fault of self-play: raised)."""
        self.events.append(ev)
        refused = self.table.push(ev)
        if refused:
            v = refused[0]
            raise SelfPlayError(f"the referee refused a line of self-play ({v.rule}): {v.message}")

    def _held(self, s: Seat) -> list[int]:
        """What ``s`` holds (the table's counts), in the order he holds his cards."""
        held = self.arranged[s.name]
        left = s.hand.copy()
        for c in held:
            left[c] -= 1
        if any(left):  # (never in self-play: his order is what his own lines left him)
            left = s.hand.copy()
            kept = []
            for c in held:
                if left[c] > 0:
                    left[c] -= 1
                    kept.append(c)
            held = self.arranged[s.name] = kept + [i for i, n in enumerate(left) for _ in range(n)]
        return held

    # ------------------------------------------------------------------ one turn

    def turn(self) -> None:
        """Choose the turn of the player in turn and push it (a force or reshuffle line first)."""
        pol = self.policy
        t = self.table
        s = t.in_turn
        p = s.name
        hand = self._held(s)
        held, twice = _bits(hand)
        actions: list[Action] = []
        live = t.offered
        if live is not None:
            n = t.fits(s, live)
            if n:
                r = 0.0 if t.must_take() else self.rng.random()  # P8
                if r < 0.8:
                    forcers = [o.name for o in t.active if o is not s and t.may_force(o.name)] if r >= 0.6 else ()
                    if forcers:  # P8: the players the table lets force him (the rules object's may_force)
                        self._push(Force(self.rng.choice(forcers), p))
                    actions.append(Take(live))
                    melds = _melds(s)
                    self._add(melds, n, live, actions)
                    self._finish(p, hand, melds, actions)
                    return
            elif not _alone(live.index, held, twice, pol.least - 2, pol.near):
                meld = pol.best_with(live.index, hand)
                if meld is not None:
                    actions.append(Take(live))
                    melds = _melds(s)
                    self._lay(hand, melds, live.index, meld, actions)
                    self._finish(p, hand, melds, actions)
                    return
        if t.must_reshuffle():
            self.reshuffles += 1
            if self.reshuffles > _MAX_RESHUFFLES:
                raise _Stuck
            dead = [c.index for c in t.reshuffled() if c is not None]
            self._push(Reshuffle())
            if t.to_act is None:
                return  # nothing to reshuffle: the hand is void (P10)
            self.stock = dead
            self.rng.shuffle(dead)
        c = self.stock.pop()
        card = ALL_CARDS[c]
        actions.append(Draw(card))
        n = t.fits(s, card)
        if n:
            melds = _melds(s)
            self._add(melds, n, card, actions)
            self._finish(p, hand, melds, actions)
            return
        meld = None if _alone(c, held, twice, pol.least - 2, pol.near) else pol.best_with(c, hand)
        if meld is not None:
            melds = _melds(s)
            self._lay(hand, melds, c, meld, actions)
            self._finish(p, hand, melds, actions)
            return
        if t.must_keep(card):
            hand.append(c)  # P9: keep it, discard a hand card
            self._discard(p, hand, c, actions)
            return
        actions.append(Discard(card))
        self._end(p, hand, actions)

    def _add(self, melds: Seat, n: int, card: Card, actions: list[Action]) -> None:
        """Add ``card`` to his meld #n (as he will have laid it: ``melds``)."""
        grown = self.policy.rules.grown(melds.melds[n - 1], (card,))
        assert not isinstance(grown, MeldError), "it fits the meld"
        melds.melds[n - 1] = grown
        melds.fit_mask = -1
        actions.append(Add((card,), n))

    def _lay(self, hand: list[int], melds: Seat, c: int, meld: tuple[int, ...], actions: list[Action]) -> None:
        """Lay ``meld`` of ``c`` (the drawn card, or one already out of the hand) and hand cards."""
        skip = True
        for x in meld:
            if skip and x == c:
                skip = False
            else:
                hand.remove(x)
        cards = tuple(ALL_CARDS[i] for i in meld)
        laid = self.policy.rules.laid(cards)
        assert laid is not None, "a legal meld"
        melds.melds.append(laid)
        melds.fit_mask = -1
        actions.append(MeldNew(cards))

    def _finish(self, p: str, hand: list[int], melds: Seat, actions: list[Action]) -> None:
        """The draw is used: lay what the hand holds, add to melds, then discard or go out."""
        pol = self.policy
        t = self.table
        least, near = pol.least, pol.near
        while len(hand) >= least:
            best: tuple[int, ...] | None = None
            seed = -1
            best_key = (-1, 0)
            held, twice = _bits(hand)
            for c in dict.fromkeys(hand):
                hand.remove(c)
                m = None if _alone(c, held, twice, least - 1, near) else pol.best_with(c, hand)
                hand.append(c)
                if m is not None:
                    key = (pol.value(m), len(m))
                    if key > best_key:
                        best, best_key, seed = m, key, c
            if best is None:
                break
            hand.remove(seed)
            self._lay(hand, melds, seed, best, actions)
        changed = True
        while changed and hand:
            changed = False
            for c in list(hand):
                card = ALL_CARDS[c]
                n = t.fits(melds, card)
                if n:
                    hand.remove(c)
                    self._add(melds, n, card, actions)
                    changed = True
        if hand:
            self._discard(p, hand, -1, actions)
        else:
            self._end(p, hand, actions)  # he goes out (C8)

    def _discard(self, p: str, hand: list[int], avoid: int, actions: list[Action]) -> None:
        """Discard his least useful hand card (never ``avoid``, the kept draw) and end the turn."""
        d = _least_useful(hand, avoid)
        hand.remove(d)
        actions.append(Discard(ALL_CARDS[d]))
        self._end(p, hand, actions)

    def _end(self, p: str, hand: list[int], actions: list[Action]) -> None:
        """Push the turn line; ``hand`` is what he holds after it, in his order."""
        self.arranged[p] = hand
        self._push(Turn(p, tuple(actions)))


def _melds(s: Seat) -> Seat:
    """A seat holding ``s``'s laid melds, to lay and add to while a turn is chosen (the table's
    seat changes only when the chosen line is pushed)."""
    work = Seat(s.name, s.size)
    work.melds = list(s.melds)
    work.fit_mask = s.fit_mask
    return work


def _bits(hand: list[int]) -> tuple[int, int]:
    """The cards of ``hand`` as bits by index, and those it holds twice or more."""
    held = twice = 0
    for c in hand:
        bit = 1 << c
        if held & bit:
            twice |= bit
        held |= bit
    return held, twice


def _alone(c: int, held: int, twice: int, few: int, near: Sequence[int]) -> bool:
    """Whether card ``c`` certainly forms no meld with a hand of the cards ``held`` (and
    ``twice``, :func:`_bits`): it holds ``few`` cards or fewer that could share a meld with it
    (``near``: the policy's :func:`near_table`, counting ``c``'s own place if
    it is his), held once each, too few for a meld (``few`` is one or two under the rules
    object's ``min_meld``). Most cards are (the meld space, which finds none then, is not asked)."""
    cards = near[c]
    return not cards & twice and (cards & held).bit_count() <= few


def _strength(hand: list[int]) -> int:
    """Pairs of equal rank plus same-suit cards one rank apart."""
    copies = [0] * 52
    ranks = [0] * 13
    for x in hand:
        copies[x] += 1
        ranks[x >> 2] += 1
    twice = 0  # each pair counted from both of its cards
    for c in hand:
        twice += ranks[c >> 2] - 1
        for x in _ONE_AWAY[c]:
            twice += copies[x]
    return twice // 2


def _least_useful(hand: list[int], avoid: int) -> int:
    """The hand card least likely to join a meld (never ``avoid`` if another card exists): the
    first of the lowest score, where each other card held scores 3 for a copy of it, 2 for a
    card of its rank or of its suit one rank away, 1 for its suit two ranks away."""
    copies = [0] * 52
    ranks = [0] * 13
    for x in hand:
        copies[x] += 1
        ranks[x >> 2] += 1
    best = hand[0]
    best_score = 1 << 30
    for c in hand:
        if c == avoid:
            continue
        n = copies[c]
        score = n + 2 * ranks[c >> 2] - 3  # 3 a copy, 2 a card of his rank (but him)
        for x in _ONE_AWAY[c]:
            score += 2 * copies[x]
        for x in _TWO_AWAY[c]:
            score += copies[x]
        if score < best_score:
            best, best_score = c, score
    return best


def _away(c: int, steps: int) -> tuple[int, ...]:
    """The cards of ``c``'s suit ``steps`` ranks from it in the pan pack's order (E2), lower first:
    position ``q`` (0 to 9) is the rank ``q + 1`` up to the seven, ``q + 4`` from the jack on."""
    s, p = c & 3, RANK_POS[c]
    lo, hi = p - steps, p + steps  # (no generator: 104 of these at import)
    if 0 <= lo <= 9:
        return ((lo + 3 * (lo > 6)) * 4 + s, (hi + 3 * (hi > 6)) * 4 + s) if hi <= 9 else ((lo + 3 * (lo > 6)) * 4 + s,)
    return ((hi + 3 * (hi > 6)) * 4 + s,) if 0 <= hi <= 9 else ()


_ONE_AWAY: Final = tuple(_away(c, 1) for c in range(52))
_TWO_AWAY: Final = tuple(_away(c, 2) for c in range(52))
