"""Hostile input at the edge: every limit of pancli.limits is an error with its place
and a code, in the fast path and in the grammar alike; a Rules tag stays in its record's folder.

Each test is one of the cases a bad-input campaign found (a traceback, a hang, a file read
that should not be).
"""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from cli_kit import pan
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from pancli import limits
from pancli.cards import Game
from pancli.notation import parse_hand, parse_meld
from pancli.notation.errors import NotationError
from pancli.notation.houserules import profile_from_toml
from pancli.notation.layout import RecordHand
from pancli.notation.record_common import LineContext
from pancli.notation.record_fast import fast_play
from pancli.notation.record_grammar import grammar_play
from pancli.records import read_hands
from pancli.rules import HouseRulesError

BIG = "9" * 5000
"""Past Python's int-string limit (4300 digits): int() of it raises ValueError."""
DEAL = "deal Ana 5s 5s 5s 3h 4h Kd Kh Kc 2c 7d\n"


def one_hand(text: str, base: Path | None = None) -> RecordHand:
    [hand] = list(read_hands(io.StringIO(text), "x.pan", base))
    return hand


def where(hand: RecordHand) -> tuple[str, int, int]:
    assert hand.error is not None, "expected an error"
    return hand.error.code, hand.error.line, hand.error.col


# --------------------------------------------------------------------------- numbers


def test_R10_a_ledger_amount_past_nine_digits() -> None:
    hand = one_hand('[Players "Ana Ben"]\n[Ledger "Ana +1234567890 Ben -3"]\nAna stay\n')
    assert where(hand) == ("R10", 2, 14)
    assert "at most 999999999" in str(hand.error)


def test_R10_a_huge_ledger_amount_is_a_too_long_tag_value_not_a_traceback() -> None:
    hand = one_hand(f'[Players "Ana Ben"]\n[Ledger "Ana +{BIG} Ben -3"]\nAna stay\n')
    assert where(hand) == ("R10", 2, 10)


@pytest.mark.parametrize("digits", ["1234567890", BIG])
def test_R10_a_move_number_too_large_in_the_grammar_and_the_fast_path(digits: str) -> None:
    hand = one_hand(f'[Players "Ana Ben"]\n{DEAL}{digits}. Ana draw 5s\n')
    assert where(hand) == ("R10", 3, 1)
    ctx = LineContext(Game.PANGUINGUE, frozenset({"Ana", "Ben"}))
    assert fast_play(f"{digits}. Ana draw 5s", ctx) is None  # the fast path leaves it to the grammar
    with pytest.raises(NotationError) as exc:
        grammar_play(f"{digits}. Ana draw 5s", ctx)
    assert exc.value.code == "R10"


def test_R10_a_pays_claim_too_large() -> None:
    hand = one_hand(f'[Players "Ana Ben"]\nAna draw 5h, meld [3h 4h 5h] {{[%pays {BIG}]}}, discard 7d\n')
    assert where(hand) == ("R10", 2, 31)


@pytest.mark.parametrize("line", ["Ana draw 5h, add 5h to #99999999999", f"Ana borrow 5h from #{BIG}"])
def test_R10_a_meld_number_too_large(line: str) -> None:
    assert where(one_hand(f'[Players "Ana Ben"]\n{line}\n'))[0] == "R10"


def test_R10_packs_and_stake_too_large() -> None:
    packs = one_hand('[Players "Ana Ben Cy"]\n[Game "pagruc"]\n[Packs "12345678901"]\nAna stay\n')
    assert where(packs) == ("R10", 3, 9)
    stake = one_hand('[Players "Ana Ben"]\n[Stake "0.12345678901"]\nAna stay\n')
    assert where(stake) == ("R10", 2, 9)


def test_R10_take_a_number_of_cards_too_large_in_pagruc() -> None:
    hand = one_hand('[Players "Ana Ben Cy"]\n[Game "pagruc"]\nAna take 12345678901\n')
    assert where(hand)[0] == "R10"


# --------------------------------------------------------------------------- lengths


def test_R10_a_player_name_and_a_tag_value_too_long() -> None:
    name = "A" * (limits.MAX_NAME_CHARS + 1)
    assert where(one_hand(f'[Players "Ana {name}"]\nAna stay\n')) == ("R10", 1, 15)
    value = "x" * (limits.MAX_TAG_VALUE_CHARS + 1)
    assert where(one_hand(f'[Players "Ana Ben"]\n[Event "{value}"]\nAna stay\n')) == ("R10", 2, 9)


def test_R10_a_turn_of_too_many_actions() -> None:
    acts = ", ".join(["draw 5h"] * (limits.MAX_ACTIONS_PER_TURN + 1))
    assert where(one_hand(f'[Players "Ana Ben"]\nAna {acts}\n')) == ("R10", 2, 1)


def test_N10_a_meld_of_too_many_cards_everywhere() -> None:
    many = " ".join(["Kh"] * (limits.MAX_MELD_CARDS + 1))
    for parse in (parse_meld, parse_hand):
        with pytest.raises(NotationError) as exc:
            parse(many if parse is parse_meld else f"[{many}]")
        assert exc.value.code == "N10"
    assert len(parse_meld(" ".join(["Kh"] * limits.MAX_MELD_CARDS))) == limits.MAX_MELD_CARDS
    hand = one_hand(f'[Players "Ana Ben"]\nAna draw 5h, meld [{many}], discard 7d\n')
    assert where(hand) == ("N10", 2, 20)
    r = pan("check", many)
    assert r.exit_code == 1 and "N10" in r.stderr


def test_R10_a_comment_too_long_is_an_error_at_its_brace_in_bounded_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("pancli.records.reader.MAX_COMMENT_CHARS", 1000)
    body = "words words\n" * 200
    hand = one_hand(f'[Players "Ana Ben"]\nAna stay {{{body}}}\nBen stay\n')
    assert where(hand) == ("R10", 2, 10)


def test_R10_a_hand_too_large_in_characters(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("pancli.records.reader.MAX_HAND_CHARS", 2000)
    text = '[Players "Ana Ben"]\n' + DEAL + "Ana stay\nBen stay\n" + "Ana draw 5h, discard 5h\n" * 200
    hand = one_hand(text)
    assert hand.error is not None and hand.error.code == "R10" and "characters" in hand.error.message
    assert len(hand.text) <= 2000 + 100


def test_R10_a_file_of_too_many_hands_stops_there(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("pancli.records.reader.MAX_HANDS_PER_FILE", 3)
    text = '[Players "Ana Ben"]\nAna stay\n' * 10
    hands = list(read_hands(io.StringIO(text), "x.pan"))
    assert [h.index for h in hands] == [1, 2, 3, 4]
    assert where(hands[3]) == ("R10", 7, 1)


# --------------------------------------------------------------------------- house-rules files


@pytest.mark.parametrize(
    "toml",
    [f"packs = {BIG}\n".encode(), b"x = " + b"[" * 5000 + b"]" * 5000 + b"\n", b"ante = 1\n" * 20000],
    ids=["huge-int", "deep-arrays", "too-large"],
)
def test_R3_house_rules_past_the_limits_are_errors_not_tracebacks(toml: bytes, tmp_path: Path) -> None:
    with pytest.raises(HouseRulesError):
        profile_from_toml(toml)
    (tmp_path / "h.toml").write_bytes(toml)
    r = pan("check", "--rules", str(tmp_path / "h.toml"), "5sss")
    assert r.exit_code == 2 and "R3" in r.stderr
    hand = one_hand('[Players "Ana Ben"]\n[Rules "h.toml"]\nAna stay\n', tmp_path)
    assert where(hand) == ("R3", 2, 9)


@pytest.mark.parametrize(
    "spec",
    ["/etc/passwd", "../outside.toml", "sub/../../outside.toml", "/dev/zero", "a\x00b", "fifo", "folder", "link.toml"],
)
def test_R3_a_rules_tag_cannot_reach_outside_its_folder(spec: str, tmp_path: Path) -> None:
    base = tmp_path / "games"
    base.mkdir()
    (tmp_path / "outside.toml").write_text('name = "out"\n', encoding="utf-8")
    os.mkfifo(base / "fifo")
    (base / "folder").mkdir()
    (base / "link.toml").symlink_to(tmp_path / "outside.toml")
    hand = one_hand(f'[Players "Ana Ben"]\n[Rules "{spec}"]\nAna stay\n', base)
    # (a FIFO without a writer does not hang: it is not opened for reading; a NUL is binary data, R2)
    assert where(hand) == (("R2", 2, 10) if "\x00" in spec else ("R3", 2, 9))


def test_R3_a_rules_tag_names_a_file_in_a_subfolder(tmp_path: Path) -> None:
    (tmp_path / "house").mkdir()
    (tmp_path / "house" / "f.toml").write_text('name = "friday"\nout_bonus = 3\n', encoding="utf-8")
    hand = one_hand('[Players "Ana Ben"]\n[Rules "house/f.toml"]\nAna stay\n', tmp_path)
    assert hand.error is None and hand.script is not None and hand.script.profile.name == "friday"


@pytest.mark.parametrize("spec", ["/dev/zero", "fifo", "."])
def test_R3_rules_option_any_regular_file_but_no_device_fifo_or_folder(spec: str, tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "fifo")
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        r = pan("check", "--rules", spec, "5sss")
    finally:
        os.chdir(cwd)
    assert r.exit_code == 2 and "R3" in r.stderr and "not a regular file" in r.stderr


def test_rules_option_may_name_a_file_anywhere(tmp_path: Path) -> None:
    (tmp_path / "h.toml").write_text("out_bonus = 3\n", encoding="utf-8")
    assert pan("check", "--rules", str(tmp_path / "h.toml"), "5sss").exit_code == 0


def test_rules_empty_name_is_a_usage_error() -> None:
    r = pan("rules", "")
    assert r.exit_code == 2 and "R3" in r.stderr


@settings(max_examples=300)
@given(
    st.integers(0, 3),
    st.sampled_from(sorted("{}#|!?;<>()=*&^%$@~`/\\[")),
    st.text(alphabet=st.sampled_from(list("5s 3-5h[]{}#,KQJA10♠x\t")), max_size=12),
    st.booleans(),
)
def test_N1_N7_fast_rejection_of_a_literal_says_what_the_grammar_says(
    spaces: int, first: str, tail: str, hand: bool
) -> None:
    """A comment or bracket line refused without the grammar (a million of them cost what ordinary
    lines cost) gets the very error the grammar gives."""
    from pancli.notation.fast import fast_reject
    from pancli.notation.grammar import _read_hand, _read_meld, elements

    text = " " * spaces + first + tail
    fast = fast_reject(text, hand)
    assume(fast is not None)  # the fast path leaves this text to the grammar: nothing to compare
    assert fast is not None
    with pytest.raises(NotationError) as exc:
        (_read_hand if hand else _read_meld)(text, elements(Game.PANGUINGUE), 0)
    assert (fast.code, fast.line, fast.col, fast.message) == (
        exc.value.code,
        exc.value.line,
        exc.value.col,
        exc.value.message,
    )
