"""The meld space generates exactly the melds the meld engine judges legal, at the engine's
values, under profiles of every knob value; the check batch's spread rule is the engine's."""

from __future__ import annotations

from itertools import product

from hypothesis import assume, given, settings
from hypothesis import strategies as st
from profiles_kit import any_profile

from pancli.cards import ALL_CARDS, PAN_CARDS, Card
from pancli.melds import Verdict, judge
from pancli.meldspace import (
    CARD_WEIGHT,
    CHIP_WEIGHT,
    NSLOT,
    ONE,
    SLOT_OF,
    decode,
)
from pancli.panrules import PanRules
from pancli.referee.simulate import widest_melds_with
from pancli.rules import HOYLE, Profile

_hands = st.lists(st.sampled_from(PAN_CARDS), min_size=3, max_size=9)


def _sub_counts(cnt: list[int], slots: list[int]) -> list[int]:
    """Every packed sub-multiset of ``cnt`` drawn from ``slots`` (each count 0..held)."""
    out = []
    for ks in product(*(range(cnt[s] + 1) for s in slots)):
        out.append(sum(k * ONE[s] for k, s in zip(ks, slots, strict=True)))
    return out


@settings(max_examples=60, deadline=None)
@given(_hands, any_profile)
def test_M1_to_M4_the_space_holds_every_legal_meld_of_a_rank_or_a_suit_at_the_engine_s_value(
    hand: list[Card], profile: Profile
) -> None:
    assume(all(hand.count(c) <= profile.pack.copies(c) for c in hand))  # a hand the pack can deal (E4)
    space = PanRules(profile).meld_space()
    cnt = [0] * NSLOT
    for c in hand:
        cnt[SLOT_OF[c]] += 1
    blocks = {b[0]: b for b in space.blocks(cnt)}
    groups = [[ri * 4 + s for s in range(4)] for ri in range(10)] + [[ri * 4 + s for ri in range(10)] for s in range(4)]
    legal = set()
    for slots in groups:
        for enc in _sub_counts(cnt, slots):
            cards = decode(enc)
            if len(cards) >= 3 and judge(cards, profile).legal:
                legal.add(enc)
    # ropes are generated without repeats: a legal rope holds each card once, as the engine says
    assert set(blocks) == legal
    for enc, (_, gain, _, target, size) in blocks.items():
        v = judge(decode(enc), profile)
        assert target == -1 and size == len(decode(enc))
        assert gain == size * CARD_WEIGHT + v.value * CHIP_WEIGHT - 1


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(PAN_CARDS), min_size=1, max_size=12), any_profile)
def test_M2_spread_rule_is_the_rules_object_s_first_rule_for_every_spread(cards: list[Card], profile: Profile) -> None:
    ranks = {c.rank for c in cards}
    suits = {c.suit for c in cards}
    rule = PanRules(profile).spread_rule(len(cards))
    if len(ranks) > 1 and len(suits) > 1 and rule is not None:
        assert judge(cards, profile).rule == rule
    # beyond the lengths it rules, some spread breaks another rule first (E4), or it is short (M1)
    if rule is None and len(cards) >= 3:
        most = min(profile.pack.copies(c) for c in ALL_CARDS if c.rank.in_pan_pack)
        assert len(cards) > most


def test_M4_self_play_s_widest_melds_mix_aces_and_the_engine_judges_them() -> None:
    """Self-play's candidates come from the meld space; the engine judges each."""
    ix = {str(c): c.index for c in ALL_CARDS}
    hand = [ix[t] for t in ["As", "Ah", "Ad", "2s", "3s", "Kc"]]
    melds = [[ALL_CARDS[i] for i in m] for m in widest_melds_with(ix["As"], hand)]
    assert [" ".join(map(str, m)) for m in melds] == ["As As Ah Ad", "As 2s 3s"]
    assert [judge(m, HOYLE).legal for m in melds] == [True, True]


def test_M2_C6_a_rope_is_judged_when_first_asked_and_once() -> None:
    """The space asks its rules object about a rope (M2, valued C6) when the search first needs
    it, and keeps the answer: building it judges none (most of ``pan analyze``'s own start was
    judging all of them), and the answers are the engine's."""
    from pancli.meldspace import SLOT_CARDS, space_of

    judged: list[tuple[Card, ...]] = []

    class Counting(PanRules):
        def judge(self, cards: tuple[Card, ...]) -> Verdict:
            judged.append(cards)
            return super().judge(cards)

    space = space_of(Counting(HOYLE))
    assert judged == []
    three = tuple(SLOT_CARDS[r * 4 + 1] for r in range(2, 5))
    first = space.rope_value(1, 2, 4)
    assert judged == [three] and first == judge(three, HOYLE).value
    assert space.rope_value(1, 2, 4) == first and len(judged) == 1
    assert space.rope_value(1, 2, 3) is None and len(judged) == 1  # two cards: no rope, nothing asked
