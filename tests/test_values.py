"""Value classes (msgspec Structs) and cards: what callers rely on.

Values are frozen, compared and hashed by their fields (places where something was written
excepted), copied by ``replace`` and pickled whole (``--jobs`` workers send them); a card is
one shared instance per rank and suit, hashed by its index.
"""

from __future__ import annotations

import copy
import enum
import importlib
import io
import pickle
import pkgutil

import pytest

import pancli
from pancli.cards import ALL_CARDS, Card, Rank, Suit
from pancli.model.actions import Deal, HandScript
from pancli.notation.record_common import UpLine
from pancli.records import read_hands
from pancli.records.shipped import sample_path
from pancli.referee import referee_script
from pancli.referee.simulate import simulate_hands
from pancli.rules import HOYLE
from pancli.values import Value, replace


def modules() -> list[object]:
    return [
        importlib.import_module(m.name)
        for m in pkgutil.walk_packages(pancli.__path__, "pancli.")
        if m.name != "pancli.__main__"
    ]


def value_classes() -> list[type[Value]]:
    seen: dict[str, type[Value]] = {}
    for mod in modules():
        for obj in vars(mod).values():
            if isinstance(obj, type) and issubclass(obj, Value) and obj is not Value:
                seen[f"{obj.__module__}.{obj.__qualname__}"] = obj
    return [seen[k] for k in sorted(seen)]


def test_every_value_class_is_a_frozen_struct() -> None:
    classes = value_classes()
    assert {"Turn", "HandScript", "Payment", "Profile", "Deal"} <= {c.__name__ for c in classes}
    assert len(classes) > 60
    assert all(c.__struct_config__.frozen for c in classes)


def test_every_enum_is_a_plain_enum() -> None:
    enums = {obj for mod in modules() for obj in vars(mod).values() if isinstance(obj, enum.EnumType)}
    assert {Rank, Suit} <= enums
    assert all(type(e) is enum.EnumType for e in enums if e.__module__.startswith("pancli"))


@pytest.fixture(scope="module")
def played() -> tuple[HandScript, object]:
    script = next(iter(simulate_hands(("Ana", "Ben", "Cruz", "Dee"), 1, 3, HOYLE)))
    return script, referee_script(script)


def test_values_are_frozen_and_replace_makes_a_changed_copy(played: tuple[HandScript, object]) -> None:
    script, _ = played
    with pytest.raises(AttributeError):
        script.players = ()  # type: ignore[misc]
    changed = replace(script, first_line=99)
    assert changed.first_line == 99 and script.first_line != 99
    assert replace(changed, first_line=script.first_line) == script


def test_values_pickle_whole_and_compare_equal(played: tuple[HandScript, object]) -> None:
    script, result = played
    for value in (script, result):
        back = pickle.loads(pickle.dumps(value))
        assert back == value and back is not value
    assert hash(pickle.loads(pickle.dumps(script))) == hash(script)


def test_where_a_deal_or_an_upcard_was_written_is_not_part_of_it() -> None:
    five = Card(Rank.FIVE, Suit.SPADES)
    placed = Deal("Ana", (five, five), 7, 1, ((7, 10), (7, 13)))
    plain = Deal("Ana", (five, five), 7, 1)
    assert placed == plain and hash(placed) == hash(plain)
    assert placed != Deal("Ana", (five, five), 8, 1)
    assert UpLine(five, 3, 1, 4) == UpLine(five, 3, 1) and hash(UpLine(five, 3, 1, 4)) == hash(UpLine(five, 3, 1))
    assert UpLine(five, 3, 1) != UpLine(five, 3, 2)


def test_a_hand_is_equal_whatever_its_columns() -> None:
    text = sample_path("friday-hoyle").read_text(encoding="utf-8")
    one = next(iter(read_hands(io.StringIO(text), "a.pan"))).script
    assert one is not None
    moved = replace(one, claim_cols={(1, 1): 5}, upcard_col=40)
    assert moved == one and moved != replace(one, first_line=one.first_line + 1)


def test_cards_are_shared_and_hash_by_their_index() -> None:
    for c in ALL_CARDS:
        assert Card(c.rank, c.suit) is c and hash(c) == c.index == ALL_CARDS.index(c)
        assert pickle.loads(pickle.dumps(c)) is c and copy.copy(c) is c and copy.deepcopy(c) is c
    king = Card(Rank.KING, Suit.HEARTS)
    assert king == Card(Rank.KING, Suit.HEARTS) and king != Card(Rank.KING, Suit.CLUBS)
    with pytest.raises(AttributeError):
        king.rank = Rank.ACE  # type: ignore[misc]
    match king:
        case Card(Rank.KING, suit):
            assert suit is Suit.HEARTS
        case _:  # pragma: no cover
            pytest.fail("a card matches its rank and suit")
