"""``pan simulate``: legal, complete, canonical records from self-play (S1 seats, S3 rotation),
checked by replaying and formatting them."""

from __future__ import annotations

import contextlib
import itertools
import json
from pathlib import Path

import pytest
from cli_kit import pan
from hypothesis import given, settings
from hypothesis import strategies as st
from profiles_kit import any_profile, rules_name

from pancli.app.simulate import DEFAULT_NAMES
from pancli.rules import Profile


def test_default_names_and_players() -> None:
    r = pan("simulate", "--hands", "1", "--seed", "3")
    assert r.exit_code == 0
    assert '[Players "Ana Ben Cruz Dee Eli Fay"]' in r.stdout  # 6 by default, in order of play
    assert len(DEFAULT_NAMES) == 15 and len(set(DEFAULT_NAMES)) == 15


def test_same_arguments_same_records_and_seeds_differ() -> None:
    a = pan("simulate", "-n", "4", "-k", "3", "-s", "11").stdout
    assert a == pan("simulate", "-n", "4", "-k", "3", "-s", "11").stdout
    assert a != pan("simulate", "-n", "4", "-k", "3", "-s", "12").stdout


def test_zero_hands_writes_nothing() -> None:
    r = pan("simulate", "-k", "0")
    assert r.exit_code == 0 and r.stdout == ""


@pytest.mark.parametrize(
    "args",
    [
        ["--players", "1"],
        ["--players", "16"],
        ["--players", "0"],
        ["--names", "Ana"],
        ["--names", "Ana Ana Ben"],
        ["--names", "Ana B!en"],
        ["--names", "Ana deal Ben"],
        ["--players", "3", "--names", "Ana Ben"],
        ["--hands", "-1"],
        ["--rules", "nowhere.toml"],
    ],
)
def test_S1_bad_seating_and_bad_options_exit_2(args: list[str]) -> None:
    r = pan("simulate", *args)
    assert r.exit_code == 2 and r.stdout == ""


def test_names_and_the_output_file(tmp_path: Path) -> None:
    out = tmp_path / "games.pan"
    r = pan("simulate", "--names", "Mo, Lu Bo", "-k", "2", "-s", "5", "-o", str(out))
    assert r.exit_code == 0 and r.stdout == ""
    text = out.read_text(encoding="utf-8")
    assert text == pan("simulate", "--names", "Mo Lu Bo", "-k", "2", "-s", "5").stdout
    assert '[Players "Mo Lu Bo"]' in text


def test_cardroom_records_say_so() -> None:
    r = pan("simulate", "-n", "5", "-k", "2", "-s", "1", "--rules", "cardroom")
    assert r.stdout.count('[Rules "cardroom"]') == 2
    assert pan("replay", "--json", "-", input=r.stdout).exit_code == 0


def test_house_rules_file_is_named_relative_to_the_output(tmp_path: Path) -> None:
    rules = tmp_path / "games" / "rules" / "house.toml"
    rules.parent.mkdir(parents=True)
    rules.write_text('base = "cardroom"\nname = "house"\nout_bonus = 3\n', encoding="utf-8")
    out = tmp_path / "games" / "h.pan"
    assert pan("simulate", "-n", "4", "-k", "2", "-s", "2", "--rules", str(rules), "-o", str(out)).exit_code == 0
    assert '[Rules "rules/house.toml"]' in out.read_text(encoding="utf-8")
    r = pan("replay", "--json", str(out))
    assert r.exit_code == 0
    assert {h["rules"] for h in json.loads(r.stdout)} == {"house"}


def test_R3_a_house_rules_file_outside_the_output_folder_is_refused(tmp_path: Path) -> None:
    """A record may name only a file inside its folder, so simulate will not write '../'."""
    rules = tmp_path / "rules" / "house.toml"
    rules.parent.mkdir()
    rules.write_text('name = "house"\n', encoding="utf-8")
    out = tmp_path / "games" / "h.pan"
    out.parent.mkdir()
    r = pan("simulate", "-n", "4", "-k", "1", "--rules", str(rules), "-o", str(out))
    assert r.exit_code == 2 and "R3" in r.stderr and "outside" in r.stderr
    assert not out.exists()


def test_S3_the_winner_is_first_hand_of_the_next() -> None:
    r = pan("replay", "--json", "-", input=pan("simulate", "-n", "5", "-k", "6", "-s", "8").stdout)
    hands = json.loads(r.stdout)
    for before, after in itertools.pairwise(hands):
        if before["winner"] is not None:
            assert after["players"][0] == before["winner"]
        else:
            assert after["players"] == before["players"][1:] + before["players"][:1]


@settings(max_examples=12)
@given(
    seed=st.integers(0, 2**31),
    players=st.integers(2, 9),
    profile=any_profile,
)
def test_every_simulated_record_replays_clean_formats_to_itself_and_sums_to_zero(
    rules_folder: Path, seed: int, players: int, profile: Profile
) -> None:
    rules = rules_name(profile, rules_folder)
    with contextlib.chdir(rules_folder):  # where a record may name its house-rules file
        sim = pan("simulate", "-n", str(players), "-k", "2", "-s", str(seed), "--rules", rules)
        assert sim.exit_code == 0, sim.stderr
        text = sim.stdout
        r = pan("replay", "--json", "-", input=text)
    assert r.exit_code == 0, r.stderr
    hands = json.loads(r.stdout)
    assert len(hands) == 2
    for h in hands:
        assert not h["violations"] and h["claims_ok"]
        assert h["winner"] is not None or h["void"]
        assert sum(h["ledger"].values()) == 0
        assert len(h["players"]) == players
    assert pan("fmt", "-", input=text).stdout == text


def test_json_lists_every_hand_where_the_text_puts_it_and_its_winner() -> None:
    args = ["simulate", "-n", "4", "-k", "3", "-s", "9", "--rules", "cardroom"]
    text = pan(*args).stdout
    r = pan(*args, "--json")
    assert r.exit_code == 0
    hands = json.loads(r.stdout)
    assert "\n".join(h["text"] for h in hands) == text  # the text output, hand by hand
    replayed = json.loads(pan("replay", "--json", "-", input=text).stdout)
    assert [h["hand"] for h in hands] == [1, 2, 3]
    for h, ref in zip(hands, replayed, strict=True):
        assert (h["first_line"], h["last_line"]) == (ref["first_line"], ref["last_line"])
        assert (h["players"], h["rules"], h["winner"]) == (ref["players"], "cardroom", ref["winner"])
        assert h["seed"] == 9
        assert text.splitlines()[h["first_line"] - 1 : h["last_line"]] == h["text"].splitlines()
    assert any(h["winner"] is not None for h in hands)


def test_json_with_output_writes_the_json_to_the_file(tmp_path: Path) -> None:
    out = tmp_path / "games.json"
    r = pan("simulate", "-n", "3", "-k", "2", "-s", "5", "--json", "-o", str(out))
    assert r.exit_code == 0 and r.stdout == ""
    assert out.read_text(encoding="utf-8") == pan("simulate", "-n", "3", "-k", "2", "-s", "5", "--json").stdout
    assert [h["hand"] for h in json.loads(out.read_text(encoding="utf-8"))] == [1, 2]


def test_json_of_zero_hands_is_an_empty_list() -> None:
    r = pan("simulate", "-k", "0", "--json")
    assert r.exit_code == 0 and json.loads(r.stdout) == []
