"""The worked figures of docs/rules.md: a table of 6 active players, so 5 opponents."""

from __future__ import annotations

import pytest

from pancli.cards import Card
from pancli.melds import going_out_value, judge
from pancli.notation.fast import fast_cards
from pancli.rules import CARDROOM, HOYLE, Profile

PLAYERS = 6


def cards(text: str) -> tuple[Card, ...]:
    got = fast_cards(text)
    assert got is not None, text
    return got


@pytest.mark.parametrize("profile", [HOYLE, CARDROOM], ids=lambda p: p.name)
@pytest.mark.parametrize(
    ("text", "each", "total"),
    [
        ("5s 5s 5s", 4, 20),
        ("5h 5h 5h", 2, 10),
        ("5h 5c 5d", 1, 5),
        ("Qs Qs Qs", 2, 10),
        ("Qh Qh Qh", 1, 5),
        ("Kc Kd Ks", 0, 0),
        ("As 2s 3s", 2, 10),
        ("Jc Qc Kc", 1, 5),
        ("7c Jc Qc", 0, 0),
    ],
)
def test_section8_figure(text: str, each: int, total: int, profile: Profile) -> None:
    v = judge(cards(text), profile)
    assert v.legal, v.reason
    assert (v.value, v.value * (PLAYERS - 1)) == (each, total)  # from each of the 5 others


def test_section8_four_5s_laid_at_once_collect_6_from_each() -> None:
    v = judge(cards("5s 5s 5s 5s"), HOYLE)
    assert v.value == 6
    # the same as laying three and adding the fourth (C7): 4 + 2
    three = judge(cards("5s 5s 5s"), HOYLE)
    assert three.value + (v.value - three.value) == 6


def test_section8_going_out_in_cardroom_collects_14_in_all_from_each() -> None:
    laid = [judge(cards(t), CARDROOM) for t in ("5s 5s 5s 5s", "7c Jc Qc", "2h 3h 4h")]
    assert all(v.legal for v in laid)
    on_laying = sum(v.value for v in laid)
    melds = [v.meld for v in laid if v.meld is not None]
    on_going_out = going_out_value(melds, CARDROOM).total
    assert (on_laying, on_going_out) == (6, 8)
    assert on_laying + on_going_out == 14
