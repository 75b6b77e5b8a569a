"""The exact best arrangement against a brute-force oracle (every subset, every packing)."""

from __future__ import annotations

from collections import Counter

from analyze_oracle import oracle
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from profiles_kit import any_profile

from pancli.analyze.arrange import HandContext, best_arrangement
from pancli.cards import PAN_RANKS, SUITS, Card, Rank, Suit, card
from pancli.melds import Meld, judge
from pancli.meldspace import SLOT_OF, encode
from pancli.rules import CARDROOM, HOYLE, Profile, SetGrowth


@st.composite
def rich_hands(draw: st.DrawFn, low: int = 3, high: int = 11) -> list[Card]:
    """Hands crowded into a few ranks and suits, so that melds (and ties) are common."""
    start = draw(st.integers(0, 7))
    width = draw(st.integers(1, 3))
    ranks = PAN_RANKS[start : start + width] if width > 1 else (draw(st.sampled_from(PAN_RANKS)),)
    suits = draw(st.lists(st.sampled_from(SUITS), min_size=1, max_size=4, unique=True))
    pool = [card(r, s) for r in ranks for s in suits]
    size = draw(st.integers(low, high))
    hand = draw(st.lists(st.sampled_from(pool), min_size=size, max_size=size))
    # keep the oracle quick: a hand of many identical cards has astronomically many packings
    if max(Counter(hand).values()) > 5 or sum(1 for c in hand if c.rank.is_noncomoquer) > 8:
        hand = hand[:7]
    return hand


profiles = st.one_of(
    st.sampled_from([HOYLE, CARDROOM, Profile(name="any", mixed_set_growth=SetGrowth.ANY)]), any_profile
)
"""The built-in profiles, mixed-set growth ``any``, and profiles of any knob values (the
precomputed tables of each profile against the oracle, which judges with the engine)."""
FAST = settings(max_examples=120)


def possible(profile: Profile, *cards: list[Card] | tuple[Card, ...]) -> bool:
    """Whether the pack holds every copy of these cards (E4): a hand a profile can deal."""
    return all(n <= profile.pack.copies(c) for c, n in Counter(c for group in cards for c in group).items())


def _canon(a: object) -> tuple[tuple[int, tuple[str, ...]], ...]:
    from pancli.analyze.arrange import Arrangement

    assert isinstance(a, Arrangement)
    return tuple(sorted((-1 if p.target is None else p.target, tuple(sorted(map(str, p.cards)))) for p in a.placed))


@FAST
@given(rich_hands(), profiles)
def test_best_arrangement_matches_the_oracle(hand: list[Card], profile: Profile) -> None:
    assume(possible(profile, hand))
    got = best_arrangement(hand, profile)
    want, ways = oracle(hand, profile)
    assert got.score == want
    assert got.count == len(ways)
    assert _canon(got) in ways
    assert Counter(got.dead) + Counter(c for p in got.placed for c in p.cards) == Counter(hand)
    for p in got.placed:
        assert judge(p.cards, profile).value == p.value


@st.composite
def table_melds(draw: st.DrawFn) -> list[Meld]:
    out: list[Meld] = []
    for _ in range(draw(st.integers(1, 2))):
        s = draw(st.sampled_from(SUITS))
        kind = draw(st.sampled_from(["rope", "one", "diff", "kings"]))
        if kind == "rope":
            lo = draw(st.integers(0, 7))
            hi = draw(st.integers(lo + 2, 9))
            cards = [card(PAN_RANKS[i], s) for i in range(lo, hi + 1)]
        elif kind == "one":
            cards = [card(draw(st.sampled_from(PAN_RANKS)), s)] * 3
        elif kind == "diff":
            r = draw(st.sampled_from(PAN_RANKS[1:9]))
            cards = [card(r, x) for x in draw(st.permutations(SUITS))[:3]]
        else:
            cards = [card(Rank.KING, Suit.SPADES), card(Rank.KING, Suit.SPADES), card(Rank.KING, s)]
        m = judge(cards, HOYLE).meld
        assert m is not None
        out.append(m)
    return out


@FAST
@given(rich_hands(high=8), table_melds(), profiles)
def test_M5_additions_to_table_melds_match_the_oracle(hand: list[Card], table: list[Meld], profile: Profile) -> None:
    assume(possible(profile, hand, *(m.cards for m in table)))
    got = best_arrangement(hand, profile, table)
    want, ways = oracle(hand, profile, table)
    assert got.score == want
    assert got.count == len(ways)
    assert _canon(got) in ways


@FAST
@given(rich_hands(low=2, high=9), st.sampled_from([card(r, s) for r in PAN_RANKS[:5] for s in SUITS]), profiles)
def test_P4_best_using_the_draw_matches_the_oracle(hand: list[Card], drawn: Card, profile: Profile) -> None:
    assume(possible(profile, hand, [drawn]))
    got = HandContext(hand, profile).using(SLOT_OF[drawn])
    want, ways = oracle([*hand, drawn], profile, must_use=drawn)
    if got is None:
        assert want[0] < 0, "the oracle found a use for the draw"
        return
    assert got.score == want
    assert _canon(got) in ways
    assert any(drawn in p.cards for p in got.placed)


def test_P4_drawn_card_must_be_used_even_at_a_lower_value() -> None:
    five, four, three = (card(r, Suit.SPADES) for r in (Rank.FIVE, Rank.FOUR, Rank.THREE))
    hand = [five, five, five, four]
    free = best_arrangement([*hand, three], HOYLE)
    assert [str(p) for p in free.placed] == ["5s 5s 5s"] and free.value == 4  # 3s would stay dead
    used = HandContext(hand, HOYLE).using(SLOT_OF[three])
    assert used is not None
    assert [str(p) for p in used.placed] == ["3s 4s 5s"] and used.value == 0


def test_worst_hands_are_exact() -> None:
    k = [card(Rank.KING, s) for s in SUITS]
    eleven = k * 2 + [card(Rank.KING, Suit.SPADES)] * 3
    a = best_arrangement(eleven, HOYLE)
    # Ks x5 is C3 in spades: 2 + 2 + 2; the six other kings are one mixed set (M4), worth 0
    assert (a.melded, a.value, a.new_melds) == (11, 6, 2)
    fives = [card(Rank.FIVE, Suit.SPADES)] * 8 + [card(Rank.FIVE, Suit.HEARTS), card(Rank.FIVE, Suit.DIAMONDS)]
    b = best_arrangement(fives, HOYLE)
    assert (b.melded, b.value) == (10, 4 + 4 * 2 + 1)  # 5s x7 (C2 spades) and 5s 5h 5d (C1)
    ace_to_king = [card(r, Suit.HEARTS) for r in PAN_RANKS]
    c = best_arrangement(ace_to_king, HOYLE)
    assert (c.melded, c.value, c.count) == (10, 1 + 1 + 7, 1)  # C6: A to K


def test_hand_context_serves_every_draw() -> None:
    hand = [card(Rank.FIVE, Suit.HEARTS), card(Rank.SIX, Suit.HEARTS), card(Rank.KING, Suit.CLUBS)]
    ctx = HandContext(hand, HOYLE)
    usable = {c for c in (card(r, s) for r in PAN_RANKS for s in SUITS) if ctx.usable(SLOT_OF[c])}
    assert usable == {card(Rank.FOUR, Suit.HEARTS), card(Rank.SEVEN, Suit.HEARTS)}
    assert ctx.state == encode(hand)


def _plain_best(hand: list[Card], profile: Profile, table: list[Meld]) -> tuple[object, ...]:
    """The plain search: every card of the hand searched (none set aside as dead), every new meld
    judged afresh by the meld engine."""
    from pancli.analyze.arrange import Solver, prepare
    from pancli.meldspace import all_blocks, counts_of, decode

    state = encode(hand)
    t, tms = prepare(profile, table)
    solver = Solver(all_blocks(counts_of(state), t, tms))
    _, n, _ = solver.count(state)
    blocks = solver.walk_count(state)
    placed = []
    for enc, _, _, target, _ in blocks:
        cards = tuple(sorted(decode(enc), key=Card.sort_key))
        if target < 0:
            v = judge(cards, profile)
            assert v.meld is not None
            placed.append((-1, cards, v.meld, v.meld.value(profile)))
        else:
            placed.append((target, cards))
    rest = state - sum(b[0] for b in blocks)
    return tuple(sorted(placed, key=lambda p: (p[0], [c.sort_key() for c in p[1]]))), tuple(decode(rest)), n


def _as_plain(got: object) -> tuple[object, ...]:
    from pancli.analyze.arrange import Arrangement

    assert isinstance(got, Arrangement)
    placed = tuple((-1, p.cards, p.meld, p.value) if p.target is None else (p.target, p.cards) for p in got.placed)
    return placed, got.dead, got.count


@FAST
@given(st.one_of(rich_hands(), st.lists(st.sampled_from(HOYLE.pack.full()), min_size=1, max_size=11)), profiles)
def test_dead_cards_set_aside_and_remembered_melds_match_the_plain_search(hand: list[Card], profile: Profile) -> None:
    """best_arrangement searches only the cards some candidate block holds (the others are dead in
    every arrangement) and takes new melds from a memo of the meld engine's answers: the same
    arrangement, dead cards and count as the plain search, with the memo cold and warm."""
    assume(possible(profile, hand))
    from pancli.panrules import PanRules

    want = _plain_best(hand, profile, [])
    space = PanRules(profile).meld_space()
    for memo in ("cold", "warm"):
        if memo == "cold":
            assert not space.laid
        got = best_arrangement(hand, profile, space=space)
        assert _as_plain(got) == want, memo


@FAST
@given(rich_hands(high=8), table_melds(), profiles)
def test_dead_cards_set_aside_match_the_plain_search_with_table_melds(
    hand: list[Card], table: list[Meld], profile: Profile
) -> None:
    assume(possible(profile, hand, *(m.cards for m in table)))
    want = _plain_best(hand, profile, table)
    got = best_arrangement(hand, profile, table)
    assert _as_plain(got) == want


@FAST
@given(
    st.one_of(rich_hands(low=1, high=14), st.lists(st.sampled_from(HOYLE.pack.full()), max_size=14)),
    st.lists(table_melds(), max_size=1),
    profiles,
    st.booleans(),
)
def test_remembered_rank_and_suit_blocks_match_all_blocks(
    hand: list[Card], tables: list[list[Meld]], profile: Profile, cold: bool
) -> None:
    """hand_blocks keeps each rank's sets and each suit's ropes per profile: the same blocks, in the
    same order, as the generators asked afresh (all_blocks), with the memo cold or warm."""
    from pancli.analyze.arrange import hand_blocks, prepare
    from pancli.meldspace import all_blocks, counts_of

    t, tms = prepare(profile, tables[0] if tables else [])
    if cold:
        t.groups.clear()
    state = encode(hand)
    assert hand_blocks(state, t, tms) == all_blocks(counts_of(state), t, tms)
