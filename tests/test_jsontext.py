"""The one JSON encoder (pancli.jsontext): the same values as the standard library's json,
control characters a terminal would act on escaped, cards, decimals, enums and values written."""

from __future__ import annotations

import json
import re
from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from pancli.cards import ALL_CARDS, Game
from pancli.escapes import CONTROLS
from pancli.jsontext import dumps, dumps_indented
from pancli.model.results import Payment
from pancli.rulebook import Rule

_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53), 2**53) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=200)
@given(_JSON)
def test_json_reads_back_the_same_value_with_no_raw_control(value: object) -> None:
    for text in (dumps(value), dumps_indented(value)):
        assert json.loads(text) == value
        assert re.search(CONTROLS.replace("\x00-\x1f", "\x00-\x09\x0b-\x1f"), text) is None
    assert "\n" not in dumps(value)


def test_indented_is_the_standard_librarys_indent_two() -> None:
    value = {"a": [1, "é", {"b": None}], "c": [], "d": {}, "e": True}
    assert dumps_indented(value) == json.dumps(value, ensure_ascii=False, indent=2)


def test_del_c1_and_bidirectional_controls_are_escaped() -> None:
    assert dumps("a\x7f\x85\u202e\u2066\ufeff\u200bz é") == '"a\\u007f\\u0085\\u202e\\u2066\\ufeff\\u200bz é"'


def test_cards_decimals_enums_and_values_are_written() -> None:
    five = ALL_CARDS[16]
    assert dumps([five, Decimal("0.10"), Game.PAGRUC, Rule.C7]) == '["5s","0.10","pagruc","C7"]'
    p = Payment("Ana", "Ben", 2, (Rule.C2,), 9, (five,) * 3)
    assert json.loads(dumps(p))["meld"] == ["5s", "5s", "5s"]
