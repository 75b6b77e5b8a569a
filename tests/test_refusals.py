"""The rules objects answer in values, never in sentences (issue 31: results record what was
decided, rendering lives in render/): a refusal is a value of :mod:`pancli.refusals`, worded by
the one wording function of each, the judges' and render/'s alike (docs/architecture.md, "Where
words are made")."""

from __future__ import annotations

import inspect
import re
from typing import Any

import pytest

from pancli.pagruc.pack import TWO_PACKS
from pancli.pagruc.rules import PagrucRules
from pancli.pagruc.words import deals_words, held_words, table_words
from pancli.panrules import PanRules
from pancli.refusals import DealsProblem, NotTen, PastThePack, TableFault, TableProblem, Unseated
from pancli.rules import HOYLE, past_the_pack_words, seating_words, ten_words

NAMES_NOT_WORDS = {(PanRules, "seated_twice"): "the name of the first player seated twice"}
"""Public methods that answer with a text that is no sentence made for people."""

_TEXT = re.compile(r"^(str|Literal\[.*\])( \| None)?$|, str\]")
"""An answer in text: a ``str`` or string literals (or None), or a text beside its facts (as
``beyond`` once answered ``tuple[Card, int, str]``); names of players (``tuple[str, ...]``) are
facts."""


def _public_questions(cls: type) -> dict[str, Any]:
    """Each public method and property of ``cls``: the function that answers it."""
    got = {n: v.fget if isinstance(v, property) else v for n, v in vars(cls).items() if not n.startswith("_")}
    return {n: f for n, f in got.items() if callable(f)}


@pytest.mark.parametrize("cls", [PanRules, PagrucRules], ids=lambda c: c.__name__)
def test_no_question_of_a_rules_object_answers_in_words(cls: type) -> None:
    """Methods and properties alike (``next_order_rule`` answered ``"S3"``, a text, beside
    PAGRUC's ``Rule.G8``)."""
    said = {
        name: inspect.signature(f).return_annotation
        for name, f in _public_questions(cls).items()
        if (cls, name) not in NAMES_NOT_WORDS
    }
    assert [n for n, ann in said.items() if _TEXT.search(str(ann))] == []
    assert len(said) > 15  # the scan sees the questions


def test_each_refusal_is_a_value_and_worded_as_before() -> None:
    rules = PanRules(HOYLE)
    unseated = rules.seating(16)
    assert unseated == Unseated(16, 2, 15)
    assert seating_words(unseated) == "16 players seated; Panguingue seats 2 to 15"
    not_ten = rules.ten_fault(9, 0)
    assert not_ten == NotTen(9, 0, 10)
    said = ten_words("the player", not_ten.hand, not_ten.melded, not_ten.dealt)
    assert said == "the player holds 9 and has 0 melded: not 10 in all"
    five = next(c for c in TWO_PACKS.full() if str(c) == "5s")
    over = rules.copies_fault([(five.index, 9)])
    assert over == PastThePack(five, 9, 8)
    assert past_the_pack_words(over) == "9 copies of 5s, but the pack holds 8"
    pagruc = PagrucRules()
    twice = pagruc.seating_problem(("Ana", "Ben", "Ana"))
    assert twice == TableProblem(TableFault.LISTED_TWICE, 3, names=("Ana", "Ben", "Ana"))
    assert table_words(twice) == "a player is listed twice: Ana Ben Ana"
    assert [table_words(p) for p in (pagruc.official_problem(2), pagruc.seating_problem(tuple("ABCDEFGHI")))] == [
        "fewer than 3 players is not an official round",
        "at most 8 players (with two packs), not 9",
    ]
    assert pagruc.beyond(TWO_PACKS, [(five, 3)]) == (five, 3)
    assert held_words(TWO_PACKS, five) == "but two packs hold two 5s"
    uneven = pagruc.deals_problem({"Ana": 2, "Ben": 1})
    assert uneven == DealsProblem((("Ana", 2), ("Ben", 1)), False, 5)
    assert deals_words(uneven) == "every player deals the same number of times; deals: Ana 2, Ben 1"
    many = pagruc.deals_problem({"Ana": 6, "Ben": 6})
    assert many is not None and deals_words(many) == "each player dealt 6 times: at most 5 deals each"
