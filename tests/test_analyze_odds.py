"""The going-out policy's fast moves against the plain path: a fresh search, materialized melds."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pancli.analyze.arrange import DrawProbe, HandContext
from pancli.analyze.odds import (
    Policy,
    _discard_fast,
    _Planner,
    discard_choice,
    draw_table,
    final_melds,
    live_copies,
    out_odds,
)
from pancli.cards import Card
from pancli.melds import Meld
from pancli.meldspace import (
    CARD_WEIGHT,
    NSLOT,
    ONE,
    all_blocks,
    blocks_with,
    buildable,
    counts_of,
    decode,
    encode,
)
from pancli.notation.fast import fast_cards
from pancli.panrules import PanRules
from pancli.rules import CARDROOM, HOYLE, Profile, SetGrowth

PROFILES = [HOYLE, CARDROOM, Profile(name="any", mixed_set_growth=SetGrowth.ANY)]
WORST = "Ah Ac 3s 5h 5c 5c 6c Qd Ks Kh Qd"  # the slowest full analysis found (benchmarks/bench_odds.py)


def plain_move(
    state: int, table: tuple[Meld, ...], slot: int, profile: Profile
) -> tuple[int, bool, tuple[Meld, ...], int]:
    """The policy's move the plain way: (next hand, out, next melds, paid); next hand -1 when unusable."""
    arr = HandContext(decode(state), profile, table).using(slot)
    if arr is None:
        return -1, False, table, 0
    rest = encode(arr.dead)
    melds = tuple(final_melds(arr, table))
    return (rest - (1 << 5 * discard_choice(rest)) if rest else 0), not rest, melds, arr.value


def explored(hand: list[Card], profile: Profile, samples: int, seed: int) -> Policy:
    live = live_copies(PanRules(profile), hand, [])
    policy = Policy(profile)
    out_odds(HandContext(hand[:10], profile), live, 0.0, samples=samples, seed=seed, policy=policy)
    return policy


def hands(n: int, seed: int) -> list[list[Card]]:
    rng = random.Random(seed)
    pack = HOYLE.pack.full()
    return [rng.sample(pack, 11) for _ in range(n)]


@pytest.mark.parametrize("profile", PROFILES, ids=lambda p: p.name)
def test_policy_moves_are_the_plain_search_and_materialized_melds(profile: Profile) -> None:
    cards = fast_cards(WORST)
    assert cards is not None
    for hand in [list(cards), *hands(2, 7)]:
        policy = explored(hand, profile, 20, 3)
        for node in policy.nodes[:30]:
            for slot, nxt in enumerate(node.moves):
                if nxt == -2:  # never drawn there
                    continue
                state, out, melds, paid = plain_move(node.state, node.table, slot, profile)
                if nxt == -1:
                    assert state == -1
                    continue
                got = policy.nodes[nxt]
                assert (got.state, got.out, node.paid[slot]) == (state, out, paid)
                # a position is its hand and the multiset of its melds (reached first by any path), in the order of
                # their packed cards
                laid = [(encode(m.cards), m.value(profile)) for m in got.table]
                assert laid == sorted((encode(m.cards), m.value(profile)) for m in melds)


@settings(max_examples=12)
@given(st.integers(0, 10_000), st.sampled_from(PROFILES))
def test_draw_probe_is_blocks_with(seed: int, profile: Profile) -> None:
    """Every position the policy reaches, every card drawn: the probe answers as the generators do
    (the same blocks in the same order, the same usable cards, the same cards in some block)."""
    policy = explored(hands(1, seed)[0], profile, 10, seed)
    t = PanRules(profile).meld_space()
    probe = DrawProbe(t)
    for node in policy.nodes[:12]:
        cnt = counts_of(node.state)
        usable, covered = probe.scan(node.state, probe.describe(node.tms))
        in_blocks = 0
        for blk in all_blocks(cnt, t, node.tms):
            in_blocks |= blk[0]
        for slot in range(NSLOT):
            assert bool(covered >> (5 * slot) & 31) is bool(in_blocks >> (5 * slot) & 15), (node.state, slot)
            cnt[slot] += 1
            want = blocks_with(slot, cnt, t, node.tms)
            cnt[slot] -= 1
            assert list(probe.blocks(slot, node.state, probe.describe(node.tms))) == want, (decode(node.state), slot)
            assert list(node.solver.blocks(slot, node.state)) == want, (decode(node.state), node.table, slot)
            assert probe.usable(slot, node.state, node.tms) is bool(want)
            assert bool(usable >> slot & 1) is bool(want), (decode(node.state), node.table, slot)


@settings(max_examples=10)
@given(st.integers(0, 10_000), st.sampled_from(PROFILES))
def test_out_slots_are_the_moves_that_go_out(seed: int, profile: Profile) -> None:
    """out_slots (a cover test, no meld laid) says yes exactly to the draws whose plain move is out;
    the policy's shared search scores every sub-hand as a fresh Solver does, and covers it exactly
    when that score counts every card."""
    policy = explored(hands(1, seed)[0], profile, 20, seed)
    for nid in range(min(40, len(policy.nodes))):
        node = policy.nodes[nid]
        if node.out:
            continue
        mask = policy.out_slots(nid, (1 << NSLOT) - 1)
        ctx = HandContext.of_state(node.state, profile, node.tms)
        for slot in range(NSLOT):
            state, out, _, _ = plain_move(node.state, node.table, slot, profile)
            assert bool(mask >> slot & 1) is (state != -1 and out), (decode(node.state), node.table, slot)
        rng = random.Random(nid)
        for _ in range(6):  # sub-hands, as the searches ask them, with some table melds already grown
            sub = sum(ONE[slot] for slot in counts_slots(node.state) if rng.random() < 0.7)
            mask = rng.randrange(1 << len(node.tms)) if node.tms else 0
            want = ctx.solver.score(sub, mask)[0]
            assert node.solver.score(sub, mask)[0] == want, (decode(sub), node.table, mask)
            # the score is cards * CARD_WEIGHT + chips * CHIP_WEIGHT - new melds: its cards, rounded
            down = (want + CARD_WEIGHT // 2) // CARD_WEIGHT
            assert node.solver.covers(sub, mask) is (down == len(decode(sub))), (decode(sub), mask)


def counts_slots(state: int) -> list[int]:
    """The slot of every card of a packed hand, a copy each."""
    return [slot for slot, n in enumerate(counts_of(state)) for _ in range(n)]


@given(st.lists(st.integers(0, NSLOT - 1), min_size=1, max_size=12))
def test_discard_on_the_packed_hand_is_discard_choice(slots: list[int]) -> None:
    """The policy's bit-mask discard picks the card discard_choice picks, ties and duplicates included."""
    state = sum(1 << (5 * s) for s in slots)
    assert _discard_fast(state) == discard_choice(state)


def played_out(
    ctx: HandContext, live: list[int], samples: int, seed: int, turns: int = 10
) -> list[tuple[float, float]]:
    """P(out within k) and its standard error, k = 1..turns, the plain way: every draw played until out."""
    pool = [slot for slot in range(NSLOT) for _ in range(live[slot])]
    rng = random.Random(seed)
    policy = Policy(ctx.profile)
    root = policy.node(ctx.state, ctx.table)
    hits = [0] * turns
    for _ in range(samples):
        nid = root
        for k, i in enumerate(rng.sample(range(len(pool)), min(turns, len(pool)))):
            nxt = policy.move(nid, pool[i])
            if nxt >= 0:
                nid = nxt
                if policy.nodes[nid].out:
                    hits[k] += 1
                    break
    out, got = [], 0
    for k in range(turns):
        got += hits[k]
        q = got / samples
        out.append((q, (q * (1 - q) / samples) ** 0.5))
    return out


@pytest.mark.parametrize("seed", [0, 3])
def test_out_odds_agree_with_playing_the_draws_out(seed: int) -> None:
    """The conditioned estimate and the plain one agree within their errors (the plain way on many samples)."""
    cards = fast_cards(WORST)
    assert cards is not None
    hand = list(cards) if seed == 0 else hands(1, seed)[0]
    ctx = HandContext(hand[:10], HOYLE)
    live = live_copies(PanRules(HOYLE), hand, [])
    first = sum(r.live for r in draw_table(ctx, live) if r.out) / sum(live)
    o = out_odds(ctx, live, first, samples=2000, seed=seed)
    assert o.sampled_first == o.p[0] == first
    assert 100 <= o.samples <= 2000 and list(o.p) == sorted(o.p)
    plain = played_out(ctx, live, 1500, seed + 100)
    for k in range(10):
        q, se = plain[k]
        assert abs(o.p[k] - q) <= 4 * (se**2 + o.se[k] ** 2) ** 0.5 + 1e-9, (k, o.p, plain)


def test_out_odds_error_follows_the_samples_asked() -> None:
    """The stated error is 0.5/sqrt(samples) unless given: more samples, a finer estimate."""
    hand = hands(1, 5)[0]
    ctx = HandContext(hand[:10], HOYLE)
    live = live_copies(PanRules(HOYLE), hand, [])
    coarse = out_odds(ctx, live, 0.0, samples=400, seed=3)
    fine = out_odds(ctx, live, 0.0, samples=20_000, seed=3, se_target=0.002)
    assert coarse.samples <= 400 and max(coarse.se) <= 0.5 / 400**0.5
    assert fine.samples > coarse.samples or max(fine.se) <= 0.002
    assert max(fine.se) <= max(coarse.se) + 1e-12


@pytest.mark.parametrize("text", [WORST, "As Ad 6d 7h 7c Jh Qs Kh Kh Kc 4s"])
def test_control_value_keeps_the_mean_and_narrows_the_error(text: str) -> None:
    """On the same paths, the estimate corrected by the control value (usable draws less their expected number)
    and the plain mean agree (the control has mean 0), and its standard error is smaller."""
    cards = fast_cards(text)
    assert cards is not None
    ctx = HandContext(list(cards[:10]), HOYLE)
    live = live_copies(PanRules(HOYLE), list(cards), [])
    controlled = out_odds(ctx, live, 0.0, samples=3000, seed=4, se_target=0.0)
    plain = out_odds(ctx, live, 0.0, samples=3000, seed=4, se_target=0.0, control=False)
    assert controlled.samples == plain.samples == 3000
    for k in range(1, 10):
        assert abs(controlled.p[k] - plain.p[k]) <= 3 * plain.se[k] + 1e-9, (k, controlled.p, plain.p)
    assert controlled.se[-1] < 0.9 * plain.se[-1], (controlled.se, plain.se)


@settings(max_examples=15)
@given(st.integers(0, 10_000), st.sampled_from(PROFILES))
def test_planner_blocks_kept_by_rank_and_suit_are_found_afresh(seed: int, profile: Profile) -> None:
    """The distance planner keeps a card's blocks under its rank's and suit's cards: every answer it gives in a
    solve is the one a fresh search of that very hand gives."""
    hand = hands(1, seed)[0]
    live = live_copies(PanRules(profile), hand, [])
    planner = _Planner((), PanRules(profile).meld_space(), live)
    planner.solve(encode(hand[:10]), 0)
    fresh = _Planner((), PanRules(profile).meld_space(), live)
    for state, mask, _ in planner.memo:
        if state:
            slot = ((state & -state).bit_length() - 1) // 5
            assert planner.blocks(state, slot, mask) == buildable(fresh.space, (), live, state, slot, mask), (
                decode(state),
                slot,
            )
