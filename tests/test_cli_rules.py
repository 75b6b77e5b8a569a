"""``pan rules``: every knob with its rule id, the conditions table, --diff, --json, bad files."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner, Result

from pancli.cli import cli
from pancli.rules import CARDROOM, HOYLE


def run(*args: str, env: dict[str, str | None] | None = None) -> Result:
    result = CliRunner().invoke(cli, ["rules", *args], env=env)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def test_json_is_the_profile_knobs() -> None:
    assert json.loads(run("--json").stdout) == HOYLE.knobs()
    assert json.loads(run("cardroom", "--json").stdout) == CARDROOM.knobs()
    assert json.loads(run("--rules", "cardroom", "--json").stdout) == CARDROOM.knobs()


def test_plain_text_every_knob_with_its_rule_and_the_conditions_table() -> None:
    r = run("cardroom")
    assert r.exit_code == 0
    knobs, table = r.stdout.split("\n\n")
    rows = {line.split("\t")[0]: line.split("\t")[1:] for line in knobs.splitlines()[2:]}
    assert set(rows) == set(CARDROOM.knobs()) - {"conditions"}
    assert rows["out_bonus"][:2] == ["2", "C8"]
    assert rows["forcing"][:2] == ["automatic", "P8"]
    assert rows["borrowing"][:2] == ["on", "M6"]
    assert rows["spade_suits_removed"][:2] == ["1", "E1"]
    conds = [line.split("\t") for line in table.splitlines()[1:]]
    assert [c[:5] for c in conds] == [
        ["C1", "1", "1", "1", "1"],
        ["C2", "2", "4", "1", "2"],
        ["C3", "1", "2", "1", "2"],
        ["C4", "1", "2", "1", "2"],
        ["C5", "1", "2", "1", "2"],
    ]


def test_diff_against_hoyle() -> None:
    assert "conditions table as hoyle" in run("hoyle", "--diff").stdout
    r = run("cardroom", "--diff")
    knobs = [line.split("\t") for line in r.stdout.split("\n\n")[0].splitlines()[2:]]
    assert {k[0] for k in knobs} == {"spade_suits_removed", "ante", "forfeit", "out_bonus", "forcing", "borrowing"}
    assert knobs[[k[0] for k in knobs].index("out_bonus")][:4] == ["out_bonus", "2", "1", "C8"]


def test_house_rules_file(tmp_path: Path) -> None:
    f = tmp_path / "house.toml"
    f.write_text('base = "cardroom"\nout_bonus = 3\n[conditions.C2]\nspades = 5\n')
    d = json.loads(run(str(f), "--json", "--diff").stdout)
    assert d["differs"]["out_bonus"] == {"value": 3, "hoyle": 1}
    assert d["differs"]["conditions"]["value"] == {"C2": {"base": 2, "spades": 5, "extra": 1, "extra_spades": 2}}
    assert "C2\t2\t5 (was 4)" in run(str(f), "--diff").stdout


def test_R3_bad_house_rules_exit_2_naming_the_key_and_its_place(tmp_path: Path) -> None:
    for text, key, place in (
        ("out_bonsu = 3\n", "out_bonsu", "1:1"),
        ("ante = 1\n  packs = 40\n", "packs", "2:3"),
        ("[conditions.C2]\nbase = 'two'\n", "conditions.C2.base", "2:1"),
        ("ante = 0\n[conditions.C6]\nbase = 1\n", "conditions.C6", "2:1"),
        ("ante = 0\npacks = \n", "toml", "2:9"),
    ):
        f = tmp_path / "bad.toml"
        f.write_text(text)
        r = run(str(f))
        assert r.exit_code == 2, text
        assert f"{f}:{place}: R3 {key}" in " ".join(r.stderr.split()), (text, r.stderr)
        assert "Traceback" not in r.output


def test_unknown_profile_and_conflicting_arguments_exit_2() -> None:
    assert run("vegas").exit_code == 2
    assert run("hoyle", "--rules", "cardroom").exit_code == 2


def test_terminal_tables_respect_no_color() -> None:
    r = run("cardroom", env={"PAN_FORCE_TERMINAL": "1", "NO_COLOR": "1", "COLUMNS": "140"})
    assert r.exit_code == 0
    assert "conditions (RULES.md section 5)" in r.stdout and "automatic" in r.stdout
    assert "\x1b[31m" not in r.stdout and "\x1b[32m" not in r.stdout
