"""Property tests of the notation: a model of the literal forms, the fast path against the
grammar of record (identical objects, identical errors), and canonical round trips."""

from __future__ import annotations

import functools
import os
import re
from dataclasses import dataclass

from hypothesis import given, settings
from hypothesis import strategies as st

from pancli.cards import ALL_CARDS, PAN_CARDS, PAN_RANKS, Card, Game, Rank, Suit, card
from pancli.notation import (
    Hand,
    NotationError,
    format_hand,
    format_meld,
    meld_reader,
    parse_card,
    parse_hand,
    parse_meld,
)
from pancli.notation.fast import fast_cards, fast_hand
from pancli.notation.grammar import parse_card_text, parse_hand_text, parse_meld_text

GAMES = st.sampled_from([Game.PANGUINGUE, Game.PAGRUC])
SUIT_SPELLINGS = {
    Suit.SPADES: ["s", "S", "♠", "♤", "♠\ufe0f"],
    Suit.HEARTS: ["h", "H", "♥", "♡", "♥\ufe0f"],
    Suit.DIAMONDS: ["d", "D", "♦", "♢"],
    Suit.CLUBS: ["c", "C", "♣", "♧"],
}


def game_ranks(game: Game) -> tuple[Rank, ...]:
    """Ranks of the game, low to high (E2: 7 and J adjacent in Panguingue)."""
    return PAN_RANKS if game is Game.PANGUINGUE else tuple(Rank)


# The strategies below are built once for each argument (functools.cache; hypothesis itself
# caches a strategy whose arguments are hashable, such as sampled_from of a tuple): hypothesis
# checks every new strategy object on its first draw, and building them afresh for every
# example made that check a quarter to a third of these tests' time.


@functools.cache
def rank_text(rank: Rank) -> st.SearchStrategy[str]:
    spellings = [rank.symbol, rank.symbol.lower()] + (["10"] if rank is Rank.TEN else [])
    return st.sampled_from(sorted(set(spellings)))


@functools.cache
def suit_text(suit: Suit) -> st.SearchStrategy[str]:
    return st.sampled_from(SUIT_SPELLINGS[suit])


@dataclass(frozen=True)
class Written:
    """A generated literal and the cards it must mean (the model)."""

    text: str
    cards: tuple[Card, ...]


@functools.cache
@st.composite
def item(draw: st.DrawFn, game: Game) -> Written:
    """One card, a set shorthand or a rope shorthand, in any accepted spelling."""
    ranks = game_ranks(game)
    kind = draw(st.sampled_from(("card", "set", "rope")))
    if kind == "rope":
        lo = draw(st.integers(0, len(ranks) - 2))
        hi = draw(st.integers(lo + 1, len(ranks) - 1))
        suit = draw(st.sampled_from(Suit))
        text = draw(rank_text(ranks[lo])) + "-" + draw(rank_text(ranks[hi])) + draw(suit_text(suit))
        return Written(text, tuple(card(r, suit) for r in ranks[lo : hi + 1]))
    rank = draw(st.sampled_from(ranks))
    suits = draw(st.lists(st.sampled_from(Suit), min_size=1, max_size=1 if kind == "card" else 4))
    text = draw(rank_text(rank)) + "".join(draw(suit_text(s)) for s in suits)
    return Written(text, tuple(card(rank, s) for s in suits))


SEPARATORS = st.sampled_from([" ", ",", ", ", " , ", "", "\t", "  ", " ,\t"])
PADDING = st.sampled_from(["", "", " ", "\t", "  "])


@functools.cache
@st.composite
def written_list(draw: st.DrawFn, game: Game, max_items: int = 5) -> Written:
    items = draw(st.lists(item(game), min_size=1, max_size=max_items))
    text = items[0].text
    for it in items[1:]:
        text += draw(SEPARATORS) + it.text
    return Written(text, tuple(c for it in items for c in it.cards))


@functools.cache
@st.composite
def written_meld(draw: st.DrawFn, game: Game) -> Written:
    body = draw(written_list(game))
    return Written(draw(PADDING) + body.text + draw(PADDING), body.cards)


@functools.cache
@st.composite
def written_hand(draw: st.DrawFn, game: Game) -> tuple[str, Hand]:
    parts = draw(st.lists(st.tuples(st.booleans(), written_list(game, 3)), min_size=1, max_size=4))
    texts, groups, loose = [], [], []
    for grouped, w in parts:
        if grouped:
            texts.append("[" + draw(PADDING) + w.text + draw(PADDING) + "]")
            groups.append(w.cards)
        else:
            texts.append(w.text)
            loose.extend(w.cards)
    text = texts[0]
    for t in texts[1:]:
        text += draw(SEPARATORS) + t
    return draw(PADDING) + text + draw(PADDING), Hand(tuple(groups), tuple(loose))


def outcome(reader: object, text: str, game: Game) -> object:
    """The value read, or the error as (code, line, col); never any other exception."""
    try:
        return reader(text, game)  # type: ignore[operator]
    except NotationError as exc:
        return (exc.code, exc.line, exc.col)


# Characters that matter to the grammar, to build mutants and junk that reach every branch.
ALPHABET = list("AaJjQqKkTt23456789 10sShHdDcC-,[]\t\n\r♠♥♦♣♤♡♢♧\ufe0f\x00\ufffd\u00a0x")
CHARACTERS = st.sampled_from(ALPHABET)
EDITS = st.sampled_from(["insert", "delete", "replace"])
JUNK = st.text(alphabet=CHARACTERS, max_size=14)
ANY_TEXT = st.text(max_size=12)


@st.composite
def mutant(draw: st.DrawFn, base: str) -> str:
    """A written literal with a few random edits (insert, delete, replace)."""
    text = base
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(text)))
        op = draw(EDITS)
        ch = draw(CHARACTERS)
        if op == "insert":
            text = text[:i] + ch + text[i:]
        elif op == "delete":
            text = text[:i] + text[i + 1 :]
        else:
            text = text[:i] + ch + text[i + 1 :]
    return text


# PAN_NOTATION_EXAMPLES=5000 for a deeper hunt; the default keeps the suite fast.
FAST = settings(max_examples=int(os.environ.get("PAN_NOTATION_EXAMPLES", "120")))


# --------------------------------------------------------------------------- the model


@FAST
@given(st.data(), GAMES)
def test_generated_melds_mean_what_the_model_says(data: st.DataObject, game: Game) -> None:
    w = data.draw(written_meld(game))
    assert parse_meld(w.text, game) == w.cards
    assert parse_meld_text(w.text, game) == w.cards


@FAST
@given(st.data(), GAMES)
def test_generated_hands_mean_what_the_model_says(data: st.DataObject, game: Game) -> None:
    text, hand = data.draw(written_hand(game))
    assert parse_hand(text, game) == hand
    assert parse_hand_text(text, game) == hand


# --------------------------------------------------------------------------- fast path == grammar


@FAST
@given(st.data(), GAMES)
def test_fast_path_and_grammar_agree_on_mutated_melds(data: st.DataObject, game: Game) -> None:
    text = data.draw(st.one_of(mutant(data.draw(written_meld(game)).text), JUNK, ANY_TEXT))
    fast = fast_cards(text, game)
    grammar = outcome(parse_meld_text, text, game)
    if fast is not None:
        assert fast == grammar
        assert all(a is b for a, b in zip(fast, parse_meld_text(text, game), strict=True))  # same instances
    assert outcome(parse_meld, text, game) == grammar
    read = meld_reader(game)
    assert outcome(lambda t, _g: read(t), text, game) == grammar


@FAST
@given(st.data(), GAMES)
def test_fast_path_and_grammar_agree_on_mutated_hands(data: st.DataObject, game: Game) -> None:
    text = data.draw(st.one_of(mutant(data.draw(written_hand(game))[0]), JUNK, ANY_TEXT))
    fast = fast_hand(text, game)
    grammar = outcome(parse_hand_text, text, game)
    if fast is not None:
        assert fast == grammar
    assert outcome(parse_hand, text, game) == grammar


@FAST
@given(JUNK | ANY_TEXT | st.sampled_from([c.rank.symbol + s for c in ALL_CARDS for s in "sh♥"]), GAMES)
def test_fast_path_and_grammar_agree_on_single_cards(text: str, game: Game) -> None:
    assert outcome(parse_card, text, game) == outcome(parse_card_text, text, game)


@FAST
@given(st.lists(st.sampled_from(ALL_CARDS), min_size=1, max_size=12), st.sampled_from([" ", ","]), GAMES)
def test_fast_path_takes_every_plain_list(cards: list[Card], sep: str, game: Game) -> None:
    """The fast path really serves plain lists (the throughput claim rests on it); the E1 ones it leaves."""
    text = sep.join(str(c) for c in cards)
    fast = fast_cards(text, game)
    if game is Game.PAGRUC or all(c.rank.in_pan_pack for c in cards):
        assert fast == tuple(cards)
    else:
        assert fast is None
        assert outcome(parse_meld, text, game)[0] == "E1"  # type: ignore[index]


RANK_SPELLED = st.sampled_from(
    ["A", "a", "2", "3", "4", "5", "6", "7", "8", "9", "10", "T", "t", "J", "j", "Q", "k", "K"]
)
LETTER_TOKEN = st.one_of(
    st.tuples(RANK_SPELLED, st.text(alphabet="shdcSHDCx-", min_size=0, max_size=5)).map("".join),
    st.tuples(RANK_SPELLED, st.just("-"), RANK_SPELLED, st.text(alphabet="shdcHx", min_size=0, max_size=2)).map(
        "".join
    ),
)


@FAST
@given(st.lists(LETTER_TOKEN | st.sampled_from(["5s", "Kh", "10c", "5sss", "3-5h"]), min_size=1, max_size=5), GAMES)
def test_N4_letter_shorthands_are_read_without_the_grammar_as_the_grammar_reads_them(
    tokens: list[str], game: Game
) -> None:
    """``pan check 5sss`` answers before the grammar is loaded: the fast path reads set and rope
    shorthands written with suit letters, the same card instances as the grammar, and leaves
    every other token (an error, a packed list) to it."""
    from pancli.notation.fast import fast_shorthand

    text = " ".join(tokens)
    fast = fast_shorthand(text, game)
    grammar = outcome(parse_meld_text, text, game)
    if fast is not None:
        assert fast == grammar
        assert all(a is b for a, b in zip(fast, parse_meld_text(text, game), strict=True))
    assert fast_cards(text, game) == fast or fast_cards(text, game) == grammar
    ok = all(re.fullmatch(r"[A2-7JQKajqk](?:[shdcSHDC]{2,}|-[A2-7JQKajqk][shdcSHDC]|[shdcSHDC])", t) for t in tokens)
    read = isinstance(grammar, tuple) and all(isinstance(c, Card) for c in grammar)
    if ok and game is Game.PANGUINGUE and read:
        assert fast is not None  # every well-formed letter shorthand of Panguingue is served


# --------------------------------------------------------------------------- round trips


@FAST
@given(st.data(), GAMES)
def test_meld_round_trip_through_canonical_text(data: st.DataObject, game: Game) -> None:
    w = data.draw(written_meld(game))
    cards = parse_meld(w.text, game)
    canonical = format_meld(cards)
    assert parse_meld(canonical, game) == cards
    assert fast_cards(canonical, game) == cards  # canonical text is always fast-path text
    assert format_meld(parse_meld(canonical, game)) == canonical  # fixed point


@FAST
@given(st.data(), GAMES)
def test_hand_round_trip_through_canonical_text(data: st.DataObject, game: Game) -> None:
    text, _ = data.draw(written_hand(game))
    hand = parse_hand(text, game)
    canonical = format_hand(hand)
    assert parse_hand(canonical, game) == hand
    assert fast_hand(canonical, game) == hand
    assert format_hand(parse_hand_text(canonical, game)) == canonical


@FAST
@given(st.lists(st.sampled_from(PAN_CARDS), min_size=1, max_size=15))
def test_canonical_text_of_any_cards_reads_back(cards: list[Card]) -> None:
    text = format_meld(cards)
    assert parse_meld(text) == tuple(cards)
    assert parse_meld_text(text) == tuple(cards)
