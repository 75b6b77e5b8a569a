"""House rules as TOML (docs/rules.md, profiles and knobs): yes/no knobs take
``true``/``false`` and ``"on"``/``"off"``; ``pan rules PROFILE --toml`` prints a house-rules file
that reads back to the same knobs; a bad file is reported as ``FILE:LINE:COL: R3 ...`` first."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_kit import SAMPLES, pan
from hypothesis import given, settings
from hypothesis import strategies as st

from pancli.notation.houserules import profile_from_toml, profile_to_toml
from pancli.rules import CARDROOM, HOYLE, Condition, HouseRulesError, Profile, profile_from_mapping


@pytest.mark.parametrize(
    ("written", "value"), [("true", True), ("false", False), ('"on"', True), ('"off"', False), ('"OFF"', False)]
)
def test_R3_a_yes_no_knob_takes_true_false_and_on_off(written: str, value: bool) -> None:
    for knob in ("borrowing", "flat_rule"):
        p = profile_from_toml(f"{knob} = {written}\n".encode())
        assert getattr(p, knob) is value


@pytest.mark.parametrize("written", ['"yes"', "1", '"true"', '""'])
def test_R3_a_yes_no_knob_refuses_other_values_naming_the_key(written: str) -> None:
    with pytest.raises(HouseRulesError) as err:
        profile_from_toml(f"ante = 0\nborrowing = {written}\n".encode())
    assert (err.value.key, err.value.line, err.value.col) == ("borrowing", 2, 1)
    assert 'expected true or false (or "on" or "off")' in err.value.message


@pytest.mark.parametrize("spec", ["hoyle", "cardroom", str(SAMPLES / "oakland.toml")])
def test_rules_toml_reads_back_as_the_same_knobs(spec: str, tmp_path: Path) -> None:
    r = pan("rules", spec, "--toml")
    assert r.exit_code == 0 and r.stderr == ""
    house = tmp_path / "h.toml"
    house.write_text(r.stdout, encoding="utf-8")
    for form in ([], ["--json"], ["--diff"]):
        assert pan("rules", str(house), *form).stdout == pan("rules", spec, *form).stdout
    assert 'borrowing = "' in r.stdout and "[conditions.C5]" in r.stdout


def test_rules_toml_is_refused_with_json_or_diff() -> None:
    assert pan("rules", "cardroom", "--toml", "--json").exit_code == 2
    assert pan("rules", "cardroom", "--toml", "--diff").exit_code == 2


_RATE = st.fixed_dictionaries({k: st.integers(0, 100) for k in ("base", "spades", "extra", "extra_spades")})
PROFILES = st.builds(
    lambda base, name, knobs, table: profile_from_mapping({"base": base, "name": name, **knobs, "conditions": table}),
    st.sampled_from(["hoyle", "cardroom"]),
    st.text(st.characters(categories=("L", "Nd", "P"), include_characters=" "), min_size=1, max_size=12).filter(
        lambda n: n.strip() and n.isprintable()
    ),
    st.fixed_dictionaries(
        {},
        optional={
            "packs": st.integers(5, 11),
            "spade_suits_removed": st.integers(0, 1),
            "ante": st.integers(0, 100),
            "forfeit": st.integers(0, 100),
            "out_bonus": st.integers(0, 100),
            "forcing": st.sampled_from(["demand", "automatic"]),
            "flat_rule": st.sampled_from([True, False, "on", "off"]),
            "mixed_set_growth": st.sampled_from(["missing_suit", "any"]),
            "borrowing": st.sampled_from([True, False, "on", "off"]),
        },
    ),
    st.fixed_dictionaries({}, optional={c.value: _RATE for c in Condition}),
)


@settings(max_examples=60)
@given(PROFILES)
def test_round_trip_every_profile_printed_as_toml_reads_back_equal(profile: Profile) -> None:
    assert profile_from_toml(profile_to_toml(profile).encode("utf-8")) == profile


def test_round_trip_the_builtin_profiles() -> None:
    for p in (HOYLE, CARDROOM):
        assert profile_from_toml(profile_to_toml(p).encode()) == p


@pytest.mark.parametrize(
    "command",
    [
        ["rules", "{f}"],
        ["check", "--rules", "{f}", "5sss"],
        ["pay", "--rules", "{f}", "5sss"],
        ["analyze", "--rules", "{f}", "5s 5s 5s 3h 4h Kd Kh Kc 2c 7d"],
        ["replay", "--rules", "{f}", str(SAMPLES / "friday-hoyle.pan")],
    ],
)
def test_R3_a_house_rules_error_line_starts_with_file_line_col(command: list[str], tmp_path: Path) -> None:
    f = tmp_path / "house.toml"
    f.write_text('ante = 0\nborrowing = "maybe"\n', encoding="utf-8")
    r = pan(*(part.format(f=f) for part in command))
    assert r.exit_code == 2 and r.stdout == ""
    first = r.stderr.splitlines()[0]
    assert first.startswith(f"{f}:2:1: R3 borrowing: expected true or false"), r.stderr
    assert "Error:" not in r.stderr and "Usage:" not in r.stderr
