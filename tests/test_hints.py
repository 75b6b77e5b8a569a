"""Common mistakes get a hint: a rope written card-dash-card, 10h in
Panguingue, a lower-case tag name, an unknown action or a misspelled name, and ``#`` comments
anywhere on a batch line of ``check``, ``pay``, ``score`` and ``analyze``."""

from __future__ import annotations

import json

import pytest
from cli_kit import pan

HAND = "5s 5s 5s 3h 4h Kd Kh Kc 2c 7d"


def record(*lines: str, players: str = "Ana Ben") -> str:
    return f'[Players "{players}"]\n\n' + "\n".join(lines) + "\n"


@pytest.mark.parametrize(
    ("meld", "rope", "col"),
    [("3h-5h", "3-5h", 1), ("Qh-Ah", "Q-Ah", 1), ("5s 3H-5h", "3-5h", 4), ("3h-5d", "3-5h", 1)],
)
def test_N4_a_rope_written_card_dash_card_says_write_a_rope_as(meld: str, rope: str, col: int) -> None:
    r = pan("check", meld)
    assert r.exit_code == 1
    assert f"<arg>:1:{col}: N4 write a rope as {rope} (a rank range, then one suit)" in r.stderr


def test_N4_the_rope_hint_in_analyze_and_in_records() -> None:
    assert "N4 write a rope as 3-5h" in pan("analyze", "3h-5h 5sss Kd Kh Kc 7d").stderr
    deal = pan("replay", "-", input=record("deal Ana 5s 3h-5h", "Ana stay"))
    assert "-:3:13: N4 write a rope as 3-5h" in deal.stderr
    meld = pan("replay", "-", input=record("Ana stay", "Ben stay", "Ana draw 5h, meld [3h-5h]"))
    assert "-:5:20: N4 write a rope as 3-5h" in meld.stderr


def test_E1_10h_in_panguingue_names_E1() -> None:
    r = pan("check", "10h 10h 10h")
    assert r.exit_code == 1 and "<arg>:1:1: E1 10h is not in a Panguingue pack" in r.stderr


@pytest.mark.parametrize(("written", "meant"), [("players", "Players"), ("LEDGER", "Ledger"), ("rules", "Rules")])
def test_R2_a_tag_name_in_the_wrong_case_says_tag_names_are_case_sensitive(written: str, meant: str) -> None:
    tags = f'[{written} "Ana 0, Ben 0"]\n' if written != "players" else ""
    text = f'[{written if written == "players" else "Players"} "Ana Ben"]\n{tags}\nAna stay\n'
    r = pan("replay", "--json", "-", input=text)
    v = json.loads(r.stdout)[0]["violations"][0]
    assert v["rule"] == "R2" and v["col"] == 2
    assert f"tag names are case-sensitive: write [{meant} ...], not [{written} ...]" in v["message"]


def test_R2_other_tags_in_any_case_are_passed_through() -> None:
    r = pan("fmt", "-", input='[event "Friday"]\n[Players "Ana Ben"]\n\nAna stay\n')
    assert r.exit_code == 0 and '[event "Friday"]' in r.stdout


@pytest.mark.parametrize(
    ("line", "col", "meant"),
    [
        ("Ana drew 5h, discard 5h", 5, "draw"),
        ("Ana draw 5h, discrad 5h", 14, "discard"),
        ("Ana stya", 5, "stay"),
        ("Ana forse Ben", 5, "force"),
    ],
)
def test_R6_an_unknown_action_suggests_the_nearest(line: str, col: int, meant: str) -> None:
    r = pan("replay", "-", input=record("Ana stay", "Ben stay", line))
    assert f"-:5:{col}: R6 expected " in r.stderr and f"did you mean {meant!r}?" in r.stderr


def test_R6_a_word_near_no_action_gets_no_guess() -> None:
    r = pan("replay", "-", input=record("Ana stay", "Ben stay", "Ana xyzzy 5h"))
    assert "-:5:5: R6 expected " in r.stderr and "did you mean" not in r.stderr


@pytest.mark.parametrize(("line", "col", "meant"), [("Anna stay", 1, "Ana"), ("dael Ana 5s", 1, "deal")])
def test_R5_a_misspelled_name_or_line_word_suggests_the_nearest(line: str, col: int, meant: str) -> None:
    r = pan("replay", "-", input=record(line))
    assert f"-:3:{col}: R5 " in r.stderr and f"did you mean {meant!r}?" in r.stderr


def test_batch_a_hash_starts_a_comment_anywhere_on_a_check_line() -> None:
    r = pan("check", "-", input="5sss # my fives\n7c 7s 7s#bad\n# only a comment\n\n3-5h\n")
    assert r.exit_code == 1
    assert r.stdout.splitlines()[0].startswith("5s 5s 5s\tlegal")
    assert "-:2:1: M3 " in r.stderr and "N1" not in r.stderr
    assert len(r.stdout.splitlines()) == 3
    j = json.loads(pan("check", "--json", "-", input="5sss # fives\n").stdout)
    assert [(m["meld"], m["line"]) for m in j] == [("5s 5s 5s", 1)]


def test_batch_a_hash_starts_a_comment_on_pay_analyze_and_score_lines() -> None:
    pay = pan("pay", "-", input="5sss # fives\n7-Qc # nothing\n")
    assert pay.exit_code == 0 and "per opponent\t4" in pay.stdout
    analyze = pan("analyze", "--samples", "50", "-", input=f"{HAND}  # mine\n")
    assert analyze.exit_code == 0 and "hand\t" + HAND in analyze.stdout
    score = pan("score", "-", input="[5h 6h 7h] | Kd # left\n")
    assert score.exit_code == 0 and "score 8" in score.stdout


QUOTE_HINT = 'pan check: each argument is one meld; to check these cards as one meld, quote them: pan check "7c 7s 7s"'


@pytest.mark.parametrize("options", [(), ("--json",), ("--jsonl",), ("--game", "pagruc")])
def test_M1_one_meld_s_cards_as_separate_arguments_says_quote_them(options: tuple[str, ...]) -> None:
    r = pan("check", *options, "7c", "7s", "7s")
    assert r.exit_code == 1
    assert r.stderr.splitlines()[-1] == QUOTE_HINT  # after the three one-card rulings
    assert QUOTE_HINT not in r.stdout
    quoted = pan("check", *options, "7c 7s 7s")
    assert "quote them" not in quoted.stderr  # (one meld: M3 in Panguingue, a legal set of 7s in PAGRUC)


@pytest.mark.parametrize("args", [("7c",), ("7c", "5sss"), ("5s 5s 5s", "7c"), ("-",)])
def test_no_quote_hint_unless_every_argument_is_one_card(args: tuple[str, ...]) -> None:
    assert "quote them" not in pan("check", *args, input="7c\n").stderr


def test_no_quote_hint_after_a_usage_error() -> None:
    for args in (("--game", "pagruc", "--rules", "cardroom"), ("--rules", "no-such-house.toml")):
        r = pan("check", *args, "7c", "7s", "7s")
        assert r.exit_code == 2 and "quote them" not in r.stderr
