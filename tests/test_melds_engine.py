"""Engine smoke tests for the meld classifier; the full rule-named suite lives beside it."""

from pancli.cards import Rank, Suit, card
from pancli.melds import judge
from pancli.rules import CARDROOM


def test_M3_mixed_suits_set_is_illegal() -> None:
    v = judge([card(Rank.SEVEN, Suit.CLUBS), card(Rank.SEVEN, Suit.SPADES), card(Rank.SEVEN, Suit.SPADES)])
    assert not v.legal
    assert v.rule == "M3"


def test_E4_eighth_spade_in_cardroom_pack() -> None:
    v = judge([card(Rank.FIVE, Suit.SPADES)] * 8, CARDROOM)
    assert v.rule == "E4"
    assert judge([card(Rank.FIVE, Suit.SPADES)] * 8).legal
