"""The going-out policy's fast moves against the plain path: a fresh search, materialized melds."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pancli.analyze.arrange import (
    NSLOT,
    SLOT_OF,
    DrawProbe,
    HandContext,
    blocks_with,
    counts_of,
    decode,
    encode,
    tables_for,
)
from pancli.analyze.odds import Policy, discard_choice, final_melds, live_copies, out_odds
from pancli.cards import Card
from pancli.melds import Meld
from pancli.notation.fast import fast_cards
from pancli.rules import CARDROOM, HOYLE, Profile, SetGrowth

PROFILES = [HOYLE, CARDROOM, Profile(name="any", mixed_set_growth=SetGrowth.ANY)]
WORST = "Ah Ac 3s 5h 5c 5c 6c Qd Ks Kh Qd"  # the slowest full analysis found (issue 14)


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
    live = live_copies(profile, hand, [])
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
        policy = explored(hand, profile, 100, 3)
        for node in policy.nodes:
            for slot, nxt in enumerate(node.moves):
                if nxt == -2:  # never drawn there
                    continue
                state, out, melds, paid = plain_move(node.state, node.table, slot, profile)
                if nxt == -1:
                    assert state == -1
                    continue
                got = policy.nodes[nxt]
                assert (got.state, got.out, node.paid[slot]) == (state, out, paid)
                # a position is its hand and the multisets of its melds (reached first by any path)
                assert [encode(m.cards) for m in got.table] == [encode(m.cards) for m in melds]
                assert [m.value(profile) for m in got.table] == [m.value(profile) for m in melds]


@settings(max_examples=25)
@given(st.integers(0, 10_000), st.sampled_from(PROFILES))
def test_draw_probe_is_blocks_with(seed: int, profile: Profile) -> None:
    """Every position the policy reaches, every card drawn: the probe answers as the generators do."""
    policy = explored(hands(1, seed)[0], profile, 30, seed)
    t = tables_for(profile)
    probe = DrawProbe(t)
    for node in policy.nodes[:12]:
        cnt = counts_of(node.state)
        for slot in range(NSLOT):
            cnt[slot] += 1
            want = bool(blocks_with(slot, cnt, t, node.tms))
            cnt[slot] -= 1
            assert probe.usable(slot, cnt, node.tms) is want, (decode(node.state), node.table, slot)


def test_out_odds_are_unchanged_on_the_worst_hand() -> None:
    """Figures of the plain policy (before issue 14) on the slowest hand known, 2,000 samples, seed 1."""
    cards = fast_cards(WORST)
    assert cards is not None
    hand = list(cards)
    o = out_odds(HandContext(hand[:10], HOYLE), live_copies(HOYLE, hand, []), 0.0)
    assert [round(p, 4) for p in o.p] == [0.0, 0.0, 0.0, 0.0, 0.001, 0.007, 0.015, 0.028, 0.0435, 0.0625]
    assert SLOT_OF[hand[10]] == SLOT_OF[hand[7]]
