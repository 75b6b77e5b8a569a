"""Player names that print alike (S1: each player seated under one name). A name holding a
character that prints as nothing (Unicode's default-ignorable characters: U+034F, variation
selectors, the Hangul fillers) is refused (R2, with its place); two names of a hand that look
alike after NFKC and case folding are seated, with an R2 warning on standard error.

Before: ``Ana`` and ``Ana`` followed by U+034F, U+FE0F or U+E0100 were two players that printed
alike, and a Hangul filler seated a player whose name printed blank.
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from cli_kit import pan
from hypothesis import given, settings
from hypothesis import strategies as st

from pancli.notation.layout import RecordHand
from pancli.notation.record_common import DEFAULT_IGNORABLE, name_problem, player_name
from pancli.records import read_hands

INVISIBLE = {
    "combining-grapheme-joiner": "Ana\u034f",
    "variation-selector-16": "Ana\ufe0f",
    "variation-selector-17": "Ana\U000e0100",
    "mongolian-variation-selector": "Ana\u180b",
    "khmer-inherent-vowel": "Ana\u17b4",
    "hangul-filler": "\u3164",
    "hangul-choseong-filler": "\u115f",
    "hangul-jungseong-filler": "A\u1160",
    "halfwidth-hangul-filler": "\uffa0",
    "filler-inside": "An\u3164a",
}


def hand_of(players: str) -> RecordHand:
    [hand] = read_hands(io.StringIO(f'[Players "Ben {players} Cruz"]\n\nBen stay\n'), "n.pan")
    return hand


@pytest.mark.parametrize("name", INVISIBLE.values(), ids=INVISIBLE.keys())
def test_R2_a_name_with_a_character_that_prints_as_nothing_is_refused_at_its_place(name: str) -> None:
    hand = hand_of(f"Ana {name}")
    assert hand.error is not None and hand.script is None
    assert (hand.error.code, hand.error.line, hand.error.col) == ("R2", 1, 19)
    hidden = re.search(DEFAULT_IGNORABLE, name)
    assert hidden is not None and f"U+{ord(hidden.group()):04X}" in hand.error.message
    assert "prints as nothing" in hand.error.message


def test_R2_the_refusal_shows_the_invisible_character_as_an_escape(tmp_path: Path) -> None:
    (tmp_path / "n.pan").write_text('[Players "Ana Ana\u034f"]\n\nAna stay\n', encoding="utf-8")
    r = pan("replay", str(tmp_path / "n.pan"))
    assert r.exit_code == 1
    assert "R2 'Ana\\u034f' holds U+034F COMBINING GRAPHEME JOINER, which prints as nothing" in r.stderr
    assert "\u034f" not in r.stdout + r.stderr


def test_S1_simulate_refuses_an_invisible_name_too() -> None:
    r = pan("simulate", "--players", "2", "--names", "Ana,Ana\ufe0f")
    assert r.exit_code == 2 and "U+FE0F" in r.stderr


@settings(max_examples=100)
@given(
    st.text(st.characters(categories=["Lu", "Ll", "Lo", "Nd"]), min_size=1, max_size=8),
    st.sampled_from(["\u034f", "\ufe0f", "\U000e0100", "\u3164", "\u115f", "\u1160", "\uffa0", "\u180b", "\u17b5"]),
    st.integers(0, 8),
)
def test_R2_any_name_with_an_invisible_character_anywhere_is_refused(name: str, hidden: str, at: int) -> None:
    """The neighbours of the example: a name that would be accepted, with one default-ignorable
    character put anywhere in it, is refused."""
    if name_problem(name) is not None:
        return
    at = min(at, len(name))
    assert name_problem(name[:at] + hidden + name[at:]) is not None


ALIKE = [
    ("Ana", "ana"),  # case
    ("Ana", "\uff21na"),  # fullwidth A: NFKC
    ("Stra\u00dfe", "STRASSE"),  # sharp s: case folding
    ("\ufb01n", "fin"),  # the fi ligature: NFKC
    ("\u212aim", "kim"),  # the Kelvin sign: NFKC and case
    ("\U0001d400na", "Ana"),  # mathematical bold A: NFKC
]


@pytest.mark.parametrize(("first", "second"), ALIKE, ids=[f"{a}-{b}" for a, b in ALIKE])
def test_R2_two_names_that_look_alike_are_seated_with_a_warning(first: str, second: str) -> None:
    hand = hand_of(f"{first} {second}")
    assert hand.error is None and hand.script is not None, hand.error
    assert hand.script.players[1:3] == (player_name(first), player_name(second))  # (NFC: the Kelvin sign is K)
    [warning] = hand.warnings
    assert (warning.code, warning.line, warning.col) == ("R2", 1, 16 + len(first))
    assert "look alike" in warning.message


def test_R2_no_warning_for_names_that_differ() -> None:
    assert hand_of("Ana Anna Ana-2 Jos\u00e9 Jose").warnings == ()


@pytest.mark.parametrize(
    "form", [(), ("--json",), ("--jsonl",), ("--jobs", "2")], ids=["plain", "json", "jsonl", "jobs"]
)
def test_R2_the_warning_is_on_standard_error_and_changes_no_status(form: tuple[str, ...], tmp_path: Path) -> None:
    record = tmp_path / "alike.pan"
    record.write_text('[Players "Ana ana"]\n\nAna stay\nana stay\n', encoding="utf-8")
    r = pan("replay", *form, str(record))
    assert r.exit_code == 0, r.stderr
    assert f"{record}:1:15: R2 warning: 'ana' and 'Ana' look alike" in r.stderr
    if form == ("--json",):
        assert json.loads(r.stdout)[0]["players"] == ["Ana", "ana"]
    settled = pan("settle", str(record))
    assert settled.exit_code == 0 and "R2 warning: 'ana' and 'Ana' look alike" in settled.stderr
