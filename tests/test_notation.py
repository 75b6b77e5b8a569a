"""The notation of cards, melds and hands (docs/notation.md; rules E1, E2; codes of grammar/README.md)."""

from __future__ import annotations

import contextlib
import random
import subprocess
import sys

import pyparsing as pp
import pytest

from pancli.cards import ALL_CARDS, Card, Game, Rank, Suit, card
from pancli.notation import (
    Hand,
    NotationError,
    format_card,
    format_hand,
    format_meld,
    meld_reader,
    parse_card,
    parse_hand,
    parse_meld,
    parse_meld_line,
    read_card,
    read_cards,
)
from pancli.notation.fast import MAX_LENGTH
from pancli.notation.grammar import cards_element, elements, parse_meld_text, to_notation_error

PAN, PAGRUC = Game.PANGUINGUE, Game.PAGRUC


def error_of(text: str, game: Game = PAN, reader: object = parse_meld) -> NotationError:
    with pytest.raises(NotationError) as info:
        reader(text, game)  # type: ignore[operator]
    return info.value


def where(exc: NotationError) -> tuple[str, int, int]:
    return exc.code, exc.line, exc.col


# --------------------------------------------------------------------------- E1


@pytest.mark.parametrize("text", ["8h", "9c", "10d", "Th", "tH", "9♠"])
def test_E1_eight_nine_ten_not_in_pack(text: str) -> None:
    exc = error_of(text)
    assert where(exc) == ("E1", 1, 1)
    assert "not in a Panguingue pack" in exc.message
    assert exc.message.startswith(text[:-1].upper() if text[0] != "t" else "T")


@pytest.mark.parametrize(
    ("text", "col"),
    [("8hcd", 1), ("5s5s9c", 5), ("5s,5s,10s", 7), ("6-9h", 3), ("8-Jh", 1), ("3-Th", 3), ("Kssh 8sss", 6)],
)
def test_E1_holds_inside_shorthands_and_packed_lists(text: str, col: int) -> None:
    assert where(error_of(text)) == ("E1", 1, col)


def test_E1_inside_a_hand_group() -> None:
    assert where(error_of("[5sss] [5s 8h]", reader=parse_hand)) == ("E1", 1, 12)


def test_E1_names_the_card_of_a_rope_shorthand() -> None:
    assert error_of("8-Jh").message.startswith("8h ")
    assert error_of("6-10d").message.startswith("10d ")


def test_E1_eight_nine_ten_are_ordinary_ranks_in_pagruc() -> None:
    assert parse_meld("8h 9h 10h Th", PAGRUC) == tuple(
        card(r, Suit.HEARTS) for r in (Rank.EIGHT, Rank.NINE, Rank.TEN, Rank.TEN)
    )
    assert parse_card("10c", PAGRUC) is parse_card("tc", PAGRUC)


# --------------------------------------------------------------------------- E2 and the rope shorthand


def test_E2_rope_shorthand_7_and_J_are_adjacent() -> None:
    assert format_meld(parse_meld("6-Jd")) == "6d 7d Jd"
    assert format_meld(parse_meld("7-Qs")) == "7s Js Qs"


def test_E2_rope_shorthand_in_pagruc_follows_the_normal_order() -> None:
    assert format_meld(parse_meld("6-Jd", PAGRUC)) == "6d 7d 8d 9d Td Jd"


@pytest.mark.parametrize(("text", "game"), [("K-Ah", PAN), ("Q-Ad", PAGRUC), ("5-3h", PAN), ("J-7c", PAN)])
def test_E2_aces_low_only_a_range_cannot_go_down_or_wrap(text: str, game: Game) -> None:
    exc = error_of(text, game)
    assert where(exc) == ("N4", 1, 1)
    assert "downward" in exc.message


def test_rope_range_of_one_rank_is_refused() -> None:
    assert where(error_of("5-5h")) == ("N4", 1, 1)


def test_set_shorthand_one_card_per_suit_letter() -> None:
    assert format_meld(parse_meld("5hcd")) == "5h 5c 5d"
    assert format_meld(parse_meld("Kssh")) == "Ks Ks Kh"


# --------------------------------------------------------------------------- values and canonical text


def test_cards_read_are_the_shared_instances() -> None:
    for text in ("5s 5s", "5sss", "5s5s", "[5s] 5s"):
        cards = parse_hand(text).cards
        assert all(c is ALL_CARDS[c.index] for c in cards)


def test_canonical_ten_is_T_and_suits_are_lower_case_letters() -> None:
    assert format_card(parse_card("10♥", PAGRUC)) == "Th"
    assert format_meld(parse_meld("KS,q♣", PAN)) == "Ks Qc"


def test_hand_value_and_canonical_form() -> None:
    hand = parse_hand("7c [3-5h] Kd [5sss]")
    assert hand == Hand(groups=(parse_meld("3h 4h 5h"), parse_meld("5s 5s 5s")), loose=parse_meld("7c Kd"))
    assert format_hand(hand) == "[3h 4h 5h] [5s 5s 5s] 7c Kd"
    assert hand.cards == parse_meld("3h 4h 5h 5s 5s 5s 7c Kd")
    assert format_hand(Hand()) == ""


def test_meld_reader_ignores_the_line_end_and_keeps_errors() -> None:
    read = meld_reader(PAGRUC)
    assert read("Ts Ts Ts\r\n") == parse_meld("10s 10s 10s", PAGRUC)
    assert parse_meld_line("3-5h\n") == parse_meld("3h 4h 5h")
    with pytest.raises(NotationError) as info:
        parse_meld_line("5s 8h\n")
    assert where(info.value) == ("E1", 1, 4)


def test_N9_parse_card_wants_exactly_one_card() -> None:
    assert where(error_of("5s 5s", reader=parse_card)) == ("N9", 1, 4)
    assert parse_card(" 5s ") is card(Rank.FIVE, Suit.SPADES)


def test_error_text_has_line_col_and_code() -> None:
    exc = error_of("5s\n 9h", reader=parse_hand)
    assert str(exc).startswith("2:2: E1 9h")


# --------------------------------------------------------------------------- odd inputs


def readers() -> list[object]:
    return [parse_meld, parse_hand, parse_card, parse_meld_text]


def only_notation_errors(text: str) -> None:
    for reader in readers():
        for game in (PAN, PAGRUC):
            with contextlib.suppress(NotationError):
                reader(text, game)  # type: ignore[operator]


def test_binary_junk_decoded_with_replacement_chars_gives_notation_errors() -> None:
    rng = random.Random(20261127)
    for _ in range(200):
        junk = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40))).decode("utf-8", errors="replace")
        only_notation_errors(junk)
    assert where(error_of(bytes(range(256)).decode("utf-8", errors="replace"))) == ("N1", 1, 1)


ODD = ["\x00", "5s\x00", "[", "]", "[[[[", "-", ",", "\ufffd", "\n\n\n", "5\u0301s", "\ud800"]


@pytest.mark.parametrize("text", ODD)
def test_odd_inputs_give_notation_errors(text: str) -> None:
    only_notation_errors(text)
    assert where(error_of("[", reader=parse_hand)) == ("N2", 1, 1)
    assert where(error_of("5s\x00")) == ("N1", 1, 3)


def test_N10_a_1_MB_line_is_refused_quickly_with_its_place() -> None:
    megabyte = "5s " * 349_525 + "x"
    for reader in readers():
        exc = error_of(megabyte, reader=reader)
        assert where(exc) == ("N10", 1, MAX_LENGTH + 1)
    assert len(parse_meld("Kh" + " " * (MAX_LENGTH - 4) + "Kh")) == 2  # up to the limit: read
    assert where(error_of("\n" * (MAX_LENGTH + 5))) == ("N10", MAX_LENGTH + 1, 1)


def test_pancli_notation_does_not_import_pyparsing_for_plain_text() -> None:
    code = (
        "import sys, pancli.notation as n\n"
        "n.parse_meld('5s 5s 5s'); n.parse_hand('[5s 5s 5s] Kd'); n.parse_card('Kd')\n"
        "assert 'pyparsing' not in sys.modules\n"
        "n.parse_meld('5sss'); n.parse_meld('3-5h,Kc')\n"
        "assert 'pyparsing' not in sys.modules\n"
        "n.parse_meld('5s5s5s')\n"
        "assert 'pyparsing' in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


# --------------------------------------------------------------------------- for the record readers


def test_read_cards_places_errors_in_the_whole_line() -> None:
    line = "Ana meld [5s 5s 5s], add 5h 8h to #1"
    assert read_cards(line, 10, 18) == parse_meld("5s 5s 5s")
    with pytest.raises(NotationError) as info:
        read_cards(line, 25, 30, line=7)
    assert where(info.value) == ("E1", 7, 29)
    assert read_card("up 4c", 3) is card(Rank.FOUR, Suit.CLUBS)
    with pytest.raises(NotationError) as info:
        read_card("up 4x", 3, line=3)
    assert where(info.value) == ("N8", 3, 5)


def test_cards_element_embeds_in_another_grammar() -> None:
    to = pp.CaselessKeyword("to")
    add = pp.Keyword("add") + cards_element(stop=to)("cards") + to + pp.Regex(r"#\d+")("meld") + pp.StringEnd()
    got = add.parse_string("add 5sss 6-Jh to #2")
    assert format_meld(list(got["cards"])) == "5s 5s 5s 6h 7h Jh"
    text = "add 5s 9h to #2"
    with pytest.raises(pp.ParseBaseException) as info:
        add.parse_string(text)
    exc = to_notation_error(info.value, text)
    assert (exc.code, exc.col) == ("E1", 8)


def test_grammar_is_built_once_per_game() -> None:
    assert elements(PAN) is elements(PAN)
    assert elements(PAN) is not elements(PAGRUC)


def test_every_card_of_each_game_reads_in_every_spelling() -> None:
    symbols = {Suit.SPADES: "♠♤", Suit.HEARTS: "♥♡", Suit.DIAMONDS: "♦♢", Suit.CLUBS: "♣♧"}
    for c in ALL_CARDS:
        games = (PAN, PAGRUC) if c.rank.in_pan_pack else (PAGRUC,)
        ranks = {c.rank.symbol, c.rank.symbol.lower()} | ({"10"} if c.rank is Rank.TEN else set())
        suits = {c.suit.value, c.suit.value.upper(), *symbols[c.suit]}
        for game in games:
            for r in ranks:
                for s in suits:
                    got: Card = parse_card(r + s, game)
                    assert got is c
                    assert parse_meld(f"{r}{s}{s}", game) == (c, c)


def test_N8_a_tab_counts_as_one_column_on_both_paths() -> None:
    from pancli.notation.grammar import parse_meld_text

    for text in ("\t5x5s5s", "5s\t5x 5s"):
        with pytest.raises(NotationError) as caught:
            parse_meld_text(text)
        assert (caught.value.code, caught.value.col) == ("N8", text.index("x") + 1)
