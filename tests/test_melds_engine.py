"""Engine tests of the meld classifier: smoke tests and hypothesis properties.

The rule-named suite is tests/test_rules_melds.py; the worked figures tests/test_rules_figures.py.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from profiles_kit import can_add

from pancli.cards import ALL_CARDS, PAN_CARDS, PAN_RANKS, Card, Rank, Suit, card, format_cards
from pancli.melds import (
    Meld,
    MeldError,
    MeldKind,
    Rope,
    Set,
    SetShape,
    Verdict,
    _gaps,
    _illegal,
    _wraps,
    grow,
    judge,
)
from pancli.rules import CARDROOM, HOYLE, Condition, Profile, profile_from_mapping

if TYPE_CHECKING:
    from pancli.rules import EngineRule


def test_M3_mixed_suits_set_is_illegal() -> None:
    v = judge([card(Rank.SEVEN, Suit.CLUBS), card(Rank.SEVEN, Suit.SPADES), card(Rank.SEVEN, Suit.SPADES)], HOYLE)
    assert not v.legal
    assert v.rule == "M3"


def test_E4_eighth_spade_in_cardroom_pack() -> None:
    v = judge([card(Rank.FIVE, Suit.SPADES)] * 8, CARDROOM)
    assert v.rule == "E4"
    assert judge([card(Rank.FIVE, Suit.SPADES)] * 8, HOYLE).legal


# --------------------------------------------------------------------------- property tests (hypothesis)

SUITS = tuple(Suit)
VALLE = (Rank.THREE, Rank.FIVE, Rank.SEVEN)
Expected = tuple[tuple[Card, ...], MeldKind, SetShape | None, tuple[Condition, ...]]


@st.composite
def ropes(draw: st.DrawFn) -> Expected:
    n = draw(st.integers(3, 10))
    start = draw(st.integers(0, 10 - n))
    suit = draw(st.sampled_from(SUITS))
    ranks = PAN_RANKS[start : start + n]
    conds = ((Condition.C4,) if ranks[0] is Rank.ACE else ()) + ((Condition.C5,) if ranks[-1] is Rank.KING else ())
    return tuple(card(r, suit) for r in ranks), MeldKind.ROPE, None, conds


@st.composite
def one_suit_sets(draw: st.DrawFn) -> Expected:
    rank = draw(st.sampled_from(PAN_RANKS))
    suit = draw(st.sampled_from(SUITS))
    n = draw(st.integers(3, 8))
    cond = Condition.C2 if rank in VALLE else Condition.C3
    return (card(rank, suit),) * n, MeldKind.SET, SetShape.ONE_SUIT, (cond,)


@st.composite
def different_suits_sets(draw: st.DrawFn) -> Expected:
    rank = draw(st.sampled_from([r for r in PAN_RANKS if not r.is_noncomoquer]))
    suits = draw(st.lists(st.sampled_from(SUITS), min_size=3, max_size=4, unique=True))
    conds = (Condition.C1,) if rank in VALLE else ()
    return tuple(card(rank, s) for s in suits), MeldKind.SET, SetShape.DIFFERENT_SUITS, conds


@st.composite
def noncomoquer_sets(draw: st.DrawFn) -> Expected:
    rank = draw(st.sampled_from([Rank.ACE, Rank.KING]))
    suits = draw(st.lists(st.sampled_from(SUITS), min_size=3, max_size=12).filter(lambda s: len(set(s)) > 1))
    for s in set(suits):  # E4: at most 8 copies of a card in the hoyle pack
        if suits.count(s) > 8:
            suits = [x for x in suits if x != s] + [s] * 8
    return tuple(card(rank, s) for s in suits), MeldKind.SET, SetShape.NONCOMOQUER, ()


legal_melds = st.one_of(ropes(), one_suit_sets(), different_suits_sets(), noncomoquer_sets())
any_cards = st.lists(st.sampled_from(PAN_CARDS), min_size=0, max_size=7)


@settings(max_examples=300)
@given(legal_melds, st.randoms(use_true_random=False))
def test_every_generated_legal_meld_is_judged_legal_with_its_kind(m: Expected, rnd: object) -> None:
    cs, kind, shape, conds = m
    shuffled = list(cs)
    rnd.shuffle(shuffled)  # type: ignore[attr-defined]
    v = judge(shuffled, HOYLE)
    assert v.legal, (cs, v.reason)
    assert v.rule is None
    assert v.kind is kind
    assert getattr(v.meld, "shape", None) is shape
    assert v.conditions == conds
    assert (v.value > 0) == bool(conds)


@settings(max_examples=200)
@given(
    st.one_of(legal_melds.map(lambda m: list(m[0])), any_cards).flatmap(
        lambda cs: st.tuples(st.just(cs), st.permutations(cs))
    )
)
def test_every_permutation_gets_the_same_verdict(pair: tuple[list[Card], list[Card]]) -> None:
    cs, perm = pair
    a, b = judge(cs, HOYLE), judge(perm, HOYLE)
    assert (a.legal, a.rule, a.kind, a.conditions, a.value) == (b.legal, b.rule, b.kind, b.conditions, b.value)
    if a.meld is not None and a.kind is MeldKind.ROPE:
        assert str(a.meld) == str(b.meld)  # a rope's canonical text is low to high, whatever the order given


@pytest.mark.parametrize("profile", [HOYLE, CARDROOM], ids=lambda p: p.name)
@settings(max_examples=150)
@given(m=legal_melds, data=st.data())
def test_a_meld_plus_a_card_accepted_by_M5_is_still_legal_with_the_same_condition(
    profile: Profile, m: Expected, data: st.DataObject
) -> None:
    """M5 keeps a meld's character. For sets the condition is the same; a rope keeps its
    condition and may gain one (2h 3h 4h + Ah becomes C4: C7 collects the change).

    Only for profiles with ``mixed_set_growth = "missing_suit"``: under ``"any"`` a grown
    different-suits set need not be legal when laid fresh (see
    test_M5_mixed_set_growth_any_lets_a_different_suits_set_take_any_suit).
    """
    v = judge(m[0], profile)
    if v.meld is None:  # a cardroom pack holds 7 spades of each rank: an 8-spade set is E4 there
        assert profile is CARDROOM and v.rule == "E4"
        return
    fits = [c for c in PAN_CARDS if can_add(v.meld, c, profile)]  # (most cards do not: drawn from these)
    assume(fits)  # a meld no card can grow (an eight-card set of a full pack)
    extra = data.draw(st.sampled_from(fits))
    grown = judge((*v.meld.cards, extra), profile)
    assert grown.legal, grown.reason
    assert grown.kind is v.kind
    assert grown.value >= v.value
    if v.kind is MeldKind.SET:
        assert grown.conditions == v.conditions
        assert getattr(grown.meld, "shape", None) is getattr(v.meld, "shape", None)
    else:
        assert set(v.conditions) <= set(grown.conditions)


# --------------------------------------------------------------------------- judge against a plain oracle


def reference_judge(cards: Iterable[Card], profile: Profile = HOYLE) -> Verdict:
    """The classifier written plainly on Card objects (the engine's first version): the oracle
    for judge(), which works on card indices for speed."""
    cs = tuple(cards)
    for c in cs:
        if not c.rank.in_pan_pack:
            return _illegal(cs, "E1", f"{c} is not in a Panguingue pack (no 8, 9 or 10)", profile)
    pack = profile.pack
    counts = Counter(cs)
    for c, n in counts.items():
        if n > pack.copies(c):
            return _illegal(cs, "E4", f"{n} copies of {c}, but the pack holds {pack.copies(c)}", profile)

    def free(meld: Meld | None, rule: EngineRule | None, why: str) -> Verdict:  # the same words for every order
        return Verdict(cs, meld, rule, why, profile, why)

    def quoting(rule: EngineRule, lead: str) -> Verdict:  # words every order shares, then the cards as given
        return Verdict(cs, None, rule, lead + format_cards(cs), profile, lead, True)

    if len(cs) < 3:
        return free(None, "M1", f"a meld is 3 or more cards, not {len(cs)}")
    ranks = {c.rank for c in cs}
    suits = {c.suit for c in cs}
    if len(ranks) == 1:
        rank = cs[0].rank
        if len(suits) == 1:
            return free(Set(cs, SetShape.ONE_SUIT), None, "one-suit set")
        if rank.is_noncomoquer:
            return free(Set(cs, SetShape.NONCOMOQUER), None, "set of non-comoquers, mixed suits (M4)")
        if len(suits) == len(cs):
            return free(Set(cs, SetShape.DIFFERENT_SUITS), None, "different-suits set")
        return quoting("M3", f"a set of {rank.symbol}s must be all one suit or all different suits, not ")
    if len(suits) > 1:
        return quoting("M2", "not a set (ranks differ) and not a rope (a rope is one suit): ")
    if len(ranks) < len(cs):
        dup = next(c for c, n in counts.items() if n > 1)
        return _illegal(cs, "M2", f"a rope holds no rank twice ({dup.rank.symbol} repeats)", profile)
    idx = sorted(c.rank.pan_index for c in cs)
    if idx[-1] - idx[0] == len(idx) - 1:
        ordered = tuple(sorted(cs, key=lambda c: c.rank.pan_index))
        return free(Rope(ordered), None, "rope")
    if _wraps(idx):
        return free(None, "E2", "aces are low only; a rope does not wrap past the king")
    missing = [r.symbol for r in _gaps(idx)]
    return free(None, "M2", f"a rope is in unbroken rank order (missing {' '.join(missing)})")


@settings(max_examples=400)
@given(
    st.lists(st.sampled_from(ALL_CARDS), max_size=10) | legal_melds.map(lambda m: list(m[0])),
    st.sampled_from([HOYLE, CARDROOM, profile_from_mapping({"packs": 5})]),
    st.booleans(),
)
def test_judge_agrees_with_the_plain_reference(cs: list[Card], profile: Profile, fresh: bool) -> None:
    if fresh:  # not the interned instances: judge must not depend on identity
        cs = [Card(c.rank, c.suit) for c in cs]
    a, b = judge(cs, profile), reference_judge(cs, profile)
    assert a == b


def test_judge_agrees_with_the_reference_on_every_three_card_meld_of_the_pan_pack() -> None:
    for a in PAN_CARDS[::3]:
        for b in PAN_CARDS:
            for c in PAN_CARDS[::2]:
                cs = [a, b, c]
                assert judge(cs, HOYLE) == reference_judge(cs), cs


def reference_grow(meld: Rope | Set, added: Iterable[Card], profile: Profile) -> Rope | Set:
    """grow() written plainly (its first version): every card's copies counted on Card objects
    against ``profile.pack``; the oracle for grow(), which counts by card index against the
    pack's copies by index (cards.past_the_pack)."""

    added = tuple(added)
    if not added:
        raise MeldError("M5", "nothing to add")
    new = meld.plus(added, profile)
    for c, n in Counter(new.cards).items():
        if n > profile.pack.copies(c):
            raise MeldError("E4", f"{n} copies of {c}, but the pack holds {profile.pack.copies(c)}")
    if new.value(profile) < meld.value(profile):
        raise MeldError("C7", f"adding {format_cards(added)} would lower the meld's value")
    return new


@settings(max_examples=400)
@given(
    legal_melds,
    st.lists(st.sampled_from(PAN_CARDS), min_size=1, max_size=6),
    st.sampled_from(
        [HOYLE, CARDROOM, profile_from_mapping({"packs": 5}), Profile(name="bare", packs=2, spade_suits_removed=2)]
    ),
)
def test_E4_M5_C7_grow_agrees_with_the_plain_reference(m: Expected, added: list[Card], profile: Profile) -> None:

    v = judge(m[0], HOYLE)
    assert v.meld is not None
    out: list[object] = []
    for f in (grow, reference_grow):
        try:
            got: object = f(v.meld, added, profile)
        except MeldError as e:
            got = (e.rule, e.reason)
        out.append(got)
    assert out[0] == out[1]


def test_E4_grow_counts_a_card_the_pack_does_not_hold() -> None:
    """One copy is already too many of a card the pack holds none of (no spades left)."""

    bare = Profile(name="bare", packs=2, spade_suits_removed=2)
    fives = judge([card(Rank.FIVE, s) for s in (Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)], HOYLE).meld
    assert fives is not None
    with pytest.raises(MeldError) as e:
        grow(fives, [card(Rank.FIVE, Suit.SPADES)], bare)
    assert (e.value.rule, e.value.reason) == ("E4", "1 copies of 5s, but the pack holds 0")
    assert len(grow(fives, [card(Rank.FIVE, Suit.SPADES)], HOYLE).cards) == 4
