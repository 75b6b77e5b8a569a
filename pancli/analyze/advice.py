"""Stay or go on top (T1, T2): the expected units of each, by seeded simulation of the hand.

Model and policy (every simulated player, the analysed one included, follows :class:`Policy`):

- The analysed player's cards are as given; each other active player is dealt ten cards at
  random from the cards the analysed player has not seen; the rest, shuffled, is the stock.
- All the other players stay. Play starts with the analysed player (a drawn card given on the
  command line is his first draw) and goes round; every turn the player draws from the stock
  (nobody takes a discard, nobody forces, P8 is not modelled); a usable draw lays the best
  arrangement that uses it and a discard by the fewest-partners rule; an unusable draw is discarded.
- Every meld or increase is paid at once by each active opponent (C7); the first player out
  collects C8 (out bonus plus all his melds again) from each, and the tops in ``cardroom`` (T2).
  The model does not reshuffle the dead discards (P10): a sample whose stock runs out ends there,
  counted as a hand nobody won (condition payments stand, tops are returned, as in a void hand).
- Going on top costs what T2 says a player who went on top owes the winner (the rules object's
  ``owes_winner``: the forfeit, ``hoyle``'s 2 units, and the top anted, ``cardroom``'s 1).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Final

from pancli.analyze.analysis import Analysis
from pancli.analyze.odds import UNKNOWN, Policy, live_copies
from pancli.cards import Card
from pancli.melds import Meld
from pancli.meldspace import NSLOT, ONE, SLOT_OF, MeldSpace, encode
from pancli.panrules import PanRules
from pancli.rules import Profile
from pancli.values import Value

POLICY = "draw from the stock; lay the best arrangement a usable draw allows; discard the card with fewest partners"
"""The simulated players' policy in one line (the module text has the details)."""


class Advice(Value):
    """Expected units of staying and of going on top, with the sampling error of staying."""

    stay: float
    stay_se: float
    top: float
    samples: int
    seed: int
    won: float
    """Share of samples the analysed player went out."""
    void: float
    """Share of samples whose stock ran out with nobody out (the model does not reshuffle, P10)."""
    rules: str

    @property
    def ci(self) -> tuple[float, float]:
        """95% confidence interval of the expected units of staying."""
        return (self.stay - 1.96 * self.stay_se, self.stay + 1.96 * self.stay_se)

    @property
    def choice(self) -> str:
        """``stay`` or ``top`` (``either`` when the interval holds the cost of going on top)."""
        lo, hi = self.ci
        if lo > self.top:
            return "stay"
        if hi < self.top:
            return "top"
        return "either"


class Start(Value):
    """What the simulation starts from: the analysed player's ``hand``, ``drawn`` card and ``table`` melds,
    the ``live`` copies of each card (:func:`pancli.analyze.odds.live_copies`), the ``players`` who stay
    and the ``profile`` (with the ``opponents`` who pay him): the parts of an :class:`Analysis` that
    :func:`advise` reads, without the draw table and odds that a whole analysis works out."""

    hand: tuple[Card, ...]
    drawn: Card | None
    table: tuple[Meld, ...]
    live: tuple[int, ...]
    players: int
    profile: Profile
    opponents: int
    """Who pay the player's collections: the rules object's ``payers`` of :attr:`players` (C6-C8)."""

    @classmethod
    def of(cls, hand: tuple[Card, ...], seen: tuple[Card, ...], players: int, rules: PanRules) -> Start:
        """The start of a hand at its stay-or-top decision: ``hand`` dealt, nothing drawn or laid yet,
        the ``seen`` cards (the up card) known; ``live`` as :func:`pancli.analyze.analysis.analyze` counts it
        (the copies of the pack as ``rules`` answers them)."""
        return cls(hand, None, (), tuple(live_copies(rules, hand, seen)), players, rules.profile, rules.payers(players))


POLICY_NODES: Final = 5_000
"""Positions (or laid melds) the simulation's :class:`Policy` remembers before it starts afresh,
between two samples: its memos grow with every sample, so a fresh one bounds the memory whatever
the number of samples; the moves, and so the advice, are the same, and the run no slower."""


def shuffle_steps(size: int) -> list[tuple[int, int]]:
    """The steps of :func:`shuffle` for a deck of ``size`` cards: each place from the last down, and the
    bits an index up to it takes (worked out once for every deck of a simulation)."""
    return [(i, (i + 1).bit_length()) for i in range(size - 1, 0, -1)]


def shuffle(deck: list[int], getrandbits: Callable[[int], int], steps: list[tuple[int, int]] | None = None) -> None:
    """Shuffle ``deck`` in place into the order :meth:`random.Random.shuffle` gives from the same
    generator (its Fisher-Yates, drawing each index by rejection from ``getrandbits``), a third
    faster without a method call per card (tests/test_review_judgements.py holds the two the same);
    ``steps``: :func:`shuffle_steps` of the deck's size."""
    for i, k in steps or shuffle_steps(len(deck)):
        j = getrandbits(k)
        while j > i:
            j = getrandbits(k)
        deck[i], deck[j] = deck[j], deck[i]


CHECK_EVERY: Final = 10
"""Samples between two questions to :func:`advise`'s ``enough``."""


def advise(
    a: Analysis | Start,
    rules: PanRules,
    samples: int = 2000,
    seed: int = 1,
    progress: Callable[[], None] | None = None,
    memo: int = POLICY_NODES,
    enough: Callable[[float, float], bool] | None = None,
    space: MeldSpace | None = None,
    policy: Policy | None = None,
) -> Advice:
    """Simulate the rest of the hand ``samples`` times (see the module text for the model), asking
    ``rules``, the rules object the analysis ``a`` was made under (its profile's), what melds are,
    what going out collects (C8) and what a payment from each opponent comes to in all (``collected``);
    ``progress`` is called after each sample (the command line's progress line); the policy's
    memos are dropped past ``memo`` positions (:data:`POLICY_NODES`). With ``enough``, asked
    every :data:`CHECK_EVERY` samples with the mean and standard error of staying so far, the
    simulation stops early when it answers true (the first samples are the same either way).
    ``space``: the meld space the caller asks in (without, that of ``rules``:
    :meth:`PanRules.meld_space`), shared by the policies.

    >>> from pancli.rules import HOYLE
    >>> from pancli.analyze.analysis import analyze
    >>> from pancli.cards import card, Rank, Suit
    >>> hand = [card(Rank.FIVE, Suit.SPADES)] * 3 + [card(r, Suit.HEARTS) for r in (Rank.ACE, Rank.TWO, Rank.THREE,
    ...     Rank.FOUR, Rank.SIX)] + [card(Rank.KING, Suit.CLUBS)] * 2
    >>> from pancli.panrules import PanRules
    >>> rules = PanRules(HOYLE)
    >>> adv = advise(analyze(hand, HOYLE, players=3, samples=50, rules=rules), rules, samples=50, seed=3)
    >>> adv.top, adv.choice, adv.samples
    (-2.0, 'stay', 50)
    """
    profile = a.profile
    if rules.profile != profile:
        raise ValueError("advise: the rules object is not of the analysis's profile")
    n = a.players
    stays = sum(rules.owes_winner(False))  # T2: what each player who stayed owes the winner
    forfeits = stays * (n - 1)  # T2: what the others, all of whom stayed, owe the analysed player winning
    dealt = rules.hand_size  # S2: what each opponent is dealt
    if space is None:
        space = rules.meld_space()
    if policy is None or policy.t is not space:
        policy = Policy(profile, space=space)
    rng = random.Random(seed)
    pool = [slot for slot in range(NSLOT) for _ in range(a.live[slot])]
    steps = shuffle_steps(len(pool))
    start = policy.node(encode(a.hand), a.table)
    first = SLOT_OF[a.drawn] if a.drawn is not None else None
    total = total2 = 0.0
    won = void = 0
    nodes = policy.nodes
    pays: dict[int, int] = {}  # an out position -> what going out there is paid (C8) by each opponent
    gains: dict[int, int] = {}  # a payment from each opponent -> what it comes to in all (C6-C8, ``collected``)
    payers = a.opponents  # C6-C8: who pays the analysed player's collections (the analysis's)
    done = 0
    for _ in range(samples):
        if enough is not None and done and done % CHECK_EVERY == 0:
            mean = total / done
            if enough(mean, math.sqrt(max(0.0, total2 / done - mean * mean) / done)):
                break
        done += 1
        if progress is not None:
            progress()
        if policy.remembered > memo:
            policy = Policy(profile, melds_limit=memo, space=space)
            start = policy.node(encode(a.hand), a.table)
            nodes = policy.nodes
            pays = {}
        deck = pool[:]
        shuffle(deck, rng.getrandbits, steps)
        seats = [start]
        for p in range(1, n):
            state = 0
            for slot in deck[(p - 1) * dealt : p * dealt]:
                state += ONE[slot]
            seats.append(policy.node(state, ()))
        stock = deck[(n - 1) * dealt :]
        if first is not None:
            stock.append(first)  # popped first: the drawn card is the first draw
        net = 0.0
        winner = -1
        turn = 0
        while stock and winner < 0:
            p = turn % n
            slot = stock.pop()
            nid = seats[p]
            nxt = nodes[nid].moves[slot]
            if nxt == UNKNOWN:  # a move not made from here before
                nxt = policy.move(nid, slot)
            if nxt >= 0:
                paid = nodes[nid].paid[slot]
                seats[p] = nxt
                if p == 0:
                    gain = gains.get(paid)
                    if gain is None:  # (asked once per distinct payment of the call, not per meld)
                        gain = gains[paid] = rules.collected(paid, payers)
                    net += gain
                else:
                    net -= paid
                if nodes[nxt].out:
                    winner = p
            turn += 1
        if winner < 0:
            void += 1
        else:
            out_pay = pays.get(seats[winner], -1)
            if out_pay < 0:  # (positions recur from sample to sample: each one's payment is worked out once)
                out_pay = pays[seats[winner]] = rules.going_out_value(nodes[seats[winner]].table).total
            if winner == 0:
                won += 1
                gain = gains.get(out_pay)
                if gain is None:
                    gain = gains[out_pay] = rules.collected(out_pay, payers)
                net += gain + forfeits
            else:
                net -= out_pay + stays
        total += net
        total2 += net * net
    mean = total / done
    var = max(0.0, total2 / done - mean * mean)
    se = math.sqrt(var / done) if done > 1 else 0.0
    top = -float(sum(rules.owes_winner(True)))
    return Advice(mean, se, top, done, seed, won / done, void / done, profile.name)
