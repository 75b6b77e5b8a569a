"""One test (or a few) per rule id at the meld level: E1-E4, M1-M5, C1-C8 (docs/rules.md).

Cards are written with the notation's fast path (plain card lists only), so these tests
exercise the engine and nothing of the grammar.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from profiles_kit import can_add

from pancli.cards import PAN_CARDS, PAN_RANKS, SUITS, Card, Pack, Rank, Suit, card
from pancli.melds import MeldError, MeldKind, OutValue, Rope, Set, SetShape, going_out_value, grow, judge
from pancli.notation.fast import fast_cards
from pancli.rules import CARDROOM, HOYLE, Condition, Profile, profile_from_mapping


def cards(text: str) -> tuple[Card, ...]:
    got = fast_cards(text)
    assert got is not None, text
    return got


def meld(text: str, profile=HOYLE):  # type: ignore[no-untyped-def]
    v = judge(cards(text), profile)
    assert v.meld is not None, v.reason
    return v.meld


# --------------------------------------------------------------------------- E: equipment


def test_E1_eight_nine_ten_are_not_in_a_panguingue_pack() -> None:
    for rank in (Rank.EIGHT, Rank.NINE, Rank.TEN):
        v = judge([card(rank, Suit.HEARTS)] * 3, HOYLE)
        assert (v.legal, v.rule) == (False, "E1")
        assert f"{rank.symbol}h is not in a Panguingue pack" in v.reason
        assert Pack().copies(card(rank, Suit.HEARTS)) == 0


def test_E1_pack_sizes_of_the_profiles() -> None:
    assert HOYLE.pack.size == 320 and CARDROOM.pack.size == 310
    assert profile_from_mapping({"packs": 5}).pack.size == 200
    assert {HOYLE.pack.copies(c) for c in Pack().full()} == {8}


def test_E1_notation_names_the_rule_for_8_9_10_and_T() -> None:
    from pancli.notation import NotationError, parse_meld

    for text in ("8h 8h 8h", "5s 9c 5s", "10d", "Th"):
        with pytest.raises(NotationError) as err:
            parse_meld(text)
        assert err.value.code == "E1", (text, err.value)


def test_E2_seven_and_jack_are_adjacent() -> None:
    v = judge(cards("6c 7c Jc Qc"), HOYLE)
    assert v.legal and v.kind is MeldKind.ROPE


def test_E2_aces_are_low_only_nothing_wraps() -> None:
    for text in ("Qh Kh Ah", "Kh Ah 2h", "Jd Qd Kd Ad 2d", "Jh Qh Kh Ah 2h 3h 4h 5h 6h"):
        v = judge(cards(text), HOYLE)
        assert (v.legal, v.rule) == (False, "E2"), text
    assert judge(cards("Ah 2h 3h"), HOYLE).legal
    assert judge(cards("Qh Kh Ah 3h"), HOYLE).rule == "M2"  # a gap either way round: not a wrap


def test_E3_valle_cards_are_3_5_7() -> None:
    valle = {r for r in Rank if r.in_pan_pack and r.is_valle}
    assert valle == {Rank.THREE, Rank.FIVE, Rank.SEVEN}
    for r in valle:
        assert judge([card(r, Suit.HEARTS)] * 3, HOYLE).condition is Condition.C2
    for text in ("2h 2h 2h", "4h 4h 4h", "6h 6h 6h", "Jh Jh Jh", "Qh Qh Qh", "Ah Ah Ah", "Kh Kh Kh"):
        assert judge(cards(text), HOYLE).condition is Condition.C3, text
    assert {r for r in Rank if r.is_noncomoquer} == {Rank.ACE, Rank.KING}


def test_E4_a_ninth_copy_is_illegal() -> None:
    v = judge(cards(" ".join(["5s"] * 9)), HOYLE)
    assert (v.legal, v.rule) == (False, "E4")
    assert judge(cards(" ".join(["5s"] * 8)), HOYLE).legal


def test_E4_eighth_spade_in_a_cardroom_pack_but_not_an_eighth_heart() -> None:
    assert judge(cards(" ".join(["5s"] * 8)), CARDROOM).rule == "E4"
    assert judge(cards(" ".join(["5s"] * 7)), CARDROOM).legal
    assert judge(cards(" ".join(["5h"] * 8)), CARDROOM).legal


def test_E4_adding_past_the_copies_is_refused() -> None:
    s = meld(" ".join(["Qs"] * 7), CARDROOM)
    assert not can_add(s, card(Rank.QUEEN, Suit.SPADES), CARDROOM)
    with pytest.raises(MeldError) as err:
        grow(s, [card(Rank.QUEEN, Suit.SPADES)], CARDROOM)
    assert err.value.rule == "E4"


# --------------------------------------------------------------------------- M: melds


def test_M1_a_meld_is_three_or_more_cards() -> None:
    assert judge([], HOYLE).rule == "M1"
    for text in ("5s", "5s 5s", "3h 4h"):
        v = judge(cards(text), HOYLE)
        assert (v.legal, v.rule) == (False, "M1"), text


def test_M1_a_meld_may_hold_duplicates() -> None:
    v = judge(cards("Jd Jd Jd Jd Jd"), HOYLE)
    assert v.legal and v.value == 1 + 2


def test_M2_rope_is_one_suit_in_unbroken_order() -> None:
    v = judge(cards("5h 3h 4h"), HOYLE)
    assert v.legal and v.kind is MeldKind.ROPE
    assert str(v.meld) == "3h 4h 5h"


def test_M2_rope_with_a_gap_is_illegal() -> None:
    v = judge(cards("3h 4h 6h"), HOYLE)
    assert (v.legal, v.rule) == (False, "M2")
    assert "missing 5" in v.reason


def test_M2_rope_holds_no_rank_twice() -> None:
    assert judge(cards("3h 4h 4h 5h"), HOYLE).rule == "M2"


def test_M2_different_ranks_in_different_suits_are_no_meld() -> None:
    assert judge(cards("3h 4c 5h"), HOYLE).rule == "M2"


def test_M3_set_all_one_suit_or_all_different_suits() -> None:
    one = judge(cards("Qh Qh Qh Qh"), HOYLE)
    diff = judge(cards("Qh Qc Qd Qs"), HOYLE)
    assert isinstance(one.meld, Set) and one.meld.shape is SetShape.ONE_SUIT
    assert isinstance(diff.meld, Set) and diff.meld.shape is SetShape.DIFFERENT_SUITS


def test_M3_mixed_suits_set_is_illegal() -> None:
    for text in ("7c 7s 7s", "Qh Qc Qd Qs Qh", "2h 2h 2c"):
        v = judge(cards(text), HOYLE)
        assert (v.legal, v.rule) == (False, "M3"), text


def test_M4_aces_and_kings_mix_suits_in_any_way() -> None:
    for text in ("As As Ac", "Kc Kd Ks Kc Kc", "Ah Ah Ac Ad"):
        v = judge(cards(text), HOYLE)
        assert v.legal and isinstance(v.meld, Set), text
        assert v.meld.shape is SetShape.NONCOMOQUER
        assert v.value == 0
    assert judge(cards("Qs Qs Qc"), HOYLE).rule == "M3"


def test_M5_rope_grows_at_either_end() -> None:
    rope = meld("3h 4h 5h")
    assert str(grow(rope, cards("2h"), HOYLE)) == "2h 3h 4h 5h"
    assert str(grow(rope, cards("6h 7h"), HOYLE)) == "3h 4h 5h 6h 7h"
    for bad in ("7h", "5h", "2c"):
        assert not can_add(rope, cards(bad)[0], HOYLE), bad
    with pytest.raises(MeldError) as err:
        grow(rope, cards("7h"), HOYLE)
    assert err.value.rule == "M5"


def test_M5_one_suit_set_takes_the_same_suit() -> None:
    s = meld("Qh Qh Qh")
    assert can_add(s, card(Rank.QUEEN, Suit.HEARTS), HOYLE)
    assert not can_add(s, card(Rank.QUEEN, Suit.CLUBS), HOYLE)
    assert not can_add(s, card(Rank.KING, Suit.HEARTS), HOYLE)


def test_M5_different_suits_set_takes_a_missing_suit() -> None:
    s = meld("5h 5c 5d")
    assert can_add(s, card(Rank.FIVE, Suit.SPADES), HOYLE)
    assert not can_add(s, card(Rank.FIVE, Suit.HEARTS), HOYLE)
    full = grow(s, cards("5s"), HOYLE)
    assert not any(can_add(full, card(Rank.FIVE, x), HOYLE) for x in Suit)


def test_M5_mixed_set_growth_any_lets_a_different_suits_set_take_any_suit() -> None:
    anyp = profile_from_mapping({"mixed_set_growth": "any"})
    s = meld("5h 5c 5d", anyp)
    grown = grow(s, cards("5h"), anyp)
    assert isinstance(grown, Set) and grown.shape is SetShape.DIFFERENT_SUITS
    assert grown.value(anyp) == 2
    # the documented exception: such a set is not legal when laid fresh
    assert judge(grown.cards, anyp).rule == "M3"


def test_M5_mixed_ace_set_takes_any_ace_one_suit_ace_set_keeps_its_suit() -> None:
    mixed = meld("As Ah Ac")
    assert all(can_add(mixed, card(Rank.ACE, x), HOYLE) for x in Suit)
    assert not can_add(mixed, card(Rank.KING, Suit.SPADES), HOYLE)
    one = meld("Ks Ks Ks")
    assert can_add(one, card(Rank.KING, Suit.SPADES), HOYLE)
    assert not can_add(one, card(Rank.KING, Suit.HEARTS), HOYLE)


def test_M5_nothing_to_add_is_refused() -> None:
    with pytest.raises(MeldError) as err:
        grow(meld("5s 5s 5s"), [], HOYLE)
    assert err.value.rule == "M5"


# --------------------------------------------------------------------------- C: conditions


@pytest.mark.parametrize(
    ("text", "value"),
    [("5h 5c 5d", 1), ("7s 7h 7c", 1), ("3h 3c 3d 3s", 2), ("2h 2c 2d", 0), ("Qh Qc Qd Qs", 0)],
)
def test_C1_valle_set_different_suits(text: str, value: int) -> None:
    v = judge(cards(text), HOYLE)
    assert v.legal and v.value == value
    assert v.conditions == ((Condition.C1,) if value else ())


@pytest.mark.parametrize(
    ("text", "value"),
    [("5s 5s 5s", 4), ("5h 5h 5h", 2), ("7s 7s 7s 7s", 6), ("3d 3d 3d 3d 3d", 4), ("3s 3s 3s 3s 3s", 8)],
)
def test_C2_valle_set_one_suit(text: str, value: int) -> None:
    v = judge(cards(text), HOYLE)
    assert (v.condition, v.value) == (Condition.C2, value)


@pytest.mark.parametrize(
    ("text", "value"),
    [("Qs Qs Qs", 2), ("Qh Qh Qh", 1), ("As As As", 2), ("Kc Kc Kc Kc", 2), ("2s 2s 2s 2s", 4)],
)
def test_C3_non_valle_set_one_suit(text: str, value: int) -> None:
    v = judge(cards(text), HOYLE)
    assert (v.condition, v.value) == (Condition.C3, value)


@pytest.mark.parametrize(
    ("text", "value"),
    [("As 2s 3s", 2), ("Ah 2h 3h", 1), ("Ah 2h 3h 4h", 2), ("As 2s 3s 4s 5s", 6), ("2h 3h 4h", 0)],
)
def test_C4_rope_that_includes_the_ace(text: str, value: int) -> None:
    v = judge(cards(text), HOYLE)
    assert v.value == value
    assert v.conditions == ((Condition.C4,) if value else ())


@pytest.mark.parametrize(
    ("text", "value"),
    [("Jc Qc Kc", 1), ("Js Qs Ks", 2), ("7c Jc Qc Kc", 2), ("7c Jc Qc", 0)],
)
def test_C5_rope_that_includes_the_king(text: str, value: int) -> None:
    v = judge(cards(text), HOYLE)
    assert v.value == value
    assert v.conditions == ((Condition.C5,) if value else ())


def test_C6_A_to_K_rope_counts_both_bases_and_every_card_beyond_three() -> None:
    hearts = judge(cards("Ah 2h 3h 4h 5h 6h 7h Jh Qh Kh"), HOYLE)
    assert hearts.conditions == (Condition.C4, Condition.C5)
    assert hearts.value == 1 + 1 + 7 == 9
    spades = judge(cards("As 2s 3s 4s 5s 6s 7s Js Qs Ks"), HOYLE)
    assert spades.value == 2 + 2 + 7 * 2 == 18
    cardroom = judge(cards("As 2s 3s 4s 5s 6s 7s Js Qs Ks"), CARDROOM)
    assert cardroom.value == 18


def test_C6_completing_a_rope_to_A_K_never_lowers_its_value() -> None:
    a_q = meld("Ah 2h 3h 4h 5h 6h 7h Jh Qh")
    assert a_q.value(HOYLE) == 7
    a_k = grow(a_q, cards("Kh"), HOYLE)
    assert a_k.value(HOYLE) - a_q.value(HOYLE) == 2  # C7 pays +2 (it was refused as lowering 7 to 6)
    two_k = meld("2s 3s 4s 5s 6s 7s Js Qs Ks")
    assert grow(two_k, cards("As"), HOYLE).value(HOYLE) - two_k.value(HOYLE) == 2 + 2  # C4 spade base + a card


def test_C6_A_to_K_rope_takes_the_larger_increment_when_a_house_table_differs() -> None:
    p = profile_from_mapping({"conditions": {"C4": {"extra": 10}, "C5": {"extra": 3}}})
    a_q = meld("Ah 2h 3h 4h 5h 6h 7h Jh Qh", p)
    two_k = meld("2h 3h 4h 5h 6h 7h Jh Qh Kh", p)
    a_k = judge(cards("Ah 2h 3h 4h 5h 6h 7h Jh Qh Kh"), p).value
    assert (a_q.value(p), two_k.value(p), a_k) == (61, 19, 1 + 1 + 7 * 10)
    assert a_k >= a_q.value(p) and a_k >= two_k.value(p)


def test_C6_house_table_changes_the_value() -> None:
    p = profile_from_mapping({"conditions": {"C2": {"spades": 5, "extra_spades": 3}}})
    assert judge(cards("5s 5s 5s 5s"), p).value == 8
    assert judge(cards("5h 5h 5h 5h"), p).value == 3


def test_C7_pay_the_change() -> None:
    fives = meld("5s 5s 5s")
    assert grow(fives, cards("5s"), HOYLE).value(HOYLE) - fives.value(HOYLE) == 2
    rope = meld("2h 3h 4h")
    assert grow(rope, cards("Ah"), HOYLE).value(HOYLE) - rope.value(HOYLE) == 2
    assert judge(cards("5s 5s 5s 5s"), HOYLE).value == 6


def test_C7_adding_the_K_to_an_A_Q_rope_pays_the_change_even_with_a_steep_table() -> None:
    # With a steep C4 increment A..Q is worth 61; A..K counts the K too (72), so it is no drop.
    p = profile_from_mapping({"conditions": {"C4": {"extra": 10}}})
    rope = meld("Ah 2h 3h 4h 5h 6h 7h Jh Qh", p)
    assert isinstance(rope, Rope) and rope.value(p) == 61
    assert can_add(rope, card(Rank.KING, Suit.HEARTS), p)
    assert grow(rope, cards("Kh"), p).value(p) == 72


def _value_never_drops(m: Rope | Set, p: Profile) -> None:
    for c in PAN_CARDS:
        try:
            grown = m.plus((c,), p)  # M5 alone: the C7 guard in grow() must never be what keeps this true
        except MeldError:
            continue
        assert grown.value(p) >= m.value(p), (str(m), str(c), p.name)


def test_C7_every_rope_and_every_card_M5_accepts_the_value_never_drops() -> None:
    for p in (HOYLE, CARDROOM):
        for suit in SUITS:
            for lo in range(len(PAN_RANKS)):
                for hi in range(lo + 2, len(PAN_RANKS)):
                    rope = meld(" ".join(f"{r.symbol}{suit.letter}" for r in PAN_RANKS[lo : hi + 1]), p)
                    _value_never_drops(rope, p)


_RATE = st.fixed_dictionaries({k: st.integers(0, 12) for k in ("base", "spades", "extra", "extra_spades")})
_HOUSE = st.builds(
    lambda table, growth: profile_from_mapping({"conditions": table, "mixed_set_growth": growth}),
    st.fixed_dictionaries({c.value: _RATE for c in Condition}),
    st.sampled_from(["missing_suit", "any"]),
)
_ROPE = st.builds(
    lambda suit, lo, n: " ".join(f"{r.symbol}{suit.letter}" for r in PAN_RANKS[lo : lo + n]),
    st.sampled_from(SUITS),
    st.integers(0, 7),
    st.integers(3, 10),
).filter(lambda t: len(t.split()) >= 3)
_SET = st.builds(
    lambda rank, suits: " ".join(f"{rank.symbol}{s.letter}" for s in suits),
    st.sampled_from(PAN_RANKS),
    st.lists(st.sampled_from(SUITS), min_size=3, max_size=7),
)


@settings(max_examples=150)
@given(p=st.one_of(st.sampled_from([HOYLE, CARDROOM]), _HOUSE), text=st.one_of(_ROPE, _SET))
def test_C7_for_every_legal_meld_and_every_card_M5_accepts_the_value_never_drops(p: Profile, text: str) -> None:
    v = judge(cards(text), p)
    if v.meld is not None:
        _value_never_drops(v.meld, p)


def test_C8_going_out_value() -> None:
    melds = [meld("5s 5s 5s 5s"), meld("7c Jc Qc"), meld("2h 3h 4h")]
    assert going_out_value(melds, HOYLE) == OutValue(melds=6, bonus=1, total=1 + 6)
    cardroom = [meld(t, CARDROOM) for t in ("5s 5s 5s 5s", "7c Jc Qc", "2h 3h 4h")]
    assert going_out_value(cardroom, CARDROOM) == OutValue(melds=6, bonus=2, total=2 + 6)
    assert going_out_value([], HOYLE).total == 1
