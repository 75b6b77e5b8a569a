"""``pan rules``: every knob with its rule id, the conditions table, --diff, --json, bad files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_kit import pan
from click.testing import CliRunner, Result

from pancli.cli import cli
from pancli.rulebook import Rule
from pancli.rules import CARDROOM, HOYLE


def run(*args: str, env: dict[str, str | None] | None = None) -> Result:
    return pan("rules", *args, env=env)


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
    assert "conditions (C1-C5)" in r.stdout and "automatic" in r.stdout
    assert "\x1b[31m" not in r.stdout and "\x1b[32m" not in r.stdout


# --------------------------------------------------------------------------- pan rules RULE


def _rules(*args: str) -> tuple[int, str, str]:

    r = CliRunner().invoke(cli, ["rules", *args])
    return r.exit_code, r.stdout, r.stderr


def test_pan_rules_P8_explains_the_rule_under_each_profile() -> None:
    code, out, _ = _rules("P8")
    assert code == 0
    assert out.startswith("rule\tP8 Forcing (turn)\nstatement\t")
    assert "knob\tforcing = demand under hoyle; built in: hoyle demand, cardroom automatic" in out
    assert "ruling\tP8: a forced live discard must be taken" in out
    code, out, _ = _rules("p8", "--rules", "cardroom")
    assert code == 0 and "knob\tforcing = automatic under cardroom" in out


def test_pan_rules_takes_a_house_rules_file_for_the_knobs(tmp_path: Path) -> None:
    house = tmp_path / "house.toml"
    house.write_text('base = "cardroom"\nout_bonus = 3\n', encoding="utf-8")
    code, out, _ = _rules("C8", "--rules", str(house))
    assert code == 0 and "knob\tout_bonus = 3 under cardroom+house; built in: hoyle 1, cardroom 2" in out


def test_pan_rules_unknown_id_exits_2_and_names_the_closest() -> None:
    code, _, err = _rules("P11")
    assert code == 2 and "no rule 'P11' in the rulebook; closest: P1, P10" in err


def test_pan_rules_list_names_every_registry_id() -> None:
    code, out, _ = _rules("--list")
    assert code == 0 and [ln.split("\t")[0] for ln in out.splitlines()] == [str(r) for r in Rule]
    code, out, _ = _rules("--list", "--json")
    assert json.loads(out)[0] == {"rule": "E1", "family": "equipment", "title": "Pack"}


def test_pan_rules_json_of_a_rule() -> None:
    code, out, _ = _rules("c7", "--json")
    data = json.loads(out)
    assert code == 0 and data["rule"] == "C7" and data["profile"] == "hoyle"
    assert data["example"]["sample"] == "illegal-claim-wrong-pays"


def test_a_profile_named_like_a_file_still_shows_the_profile() -> None:
    code, out, _ = _rules("cardroom")
    assert code == 0 and out.startswith("# profile cardroom")


def _with_a_sample() -> list[Rule]:
    """The rules a shipped sample is meant to break (``illegal-RULE-*``, or named in
    ``rule_examples.EXTRA_SAMPLES``): each must have an example; the others have none to check."""
    from pancli.app.rule_examples import EXTRA_SAMPLES
    from pancli.records.shipped import sample_names

    names = sample_names()
    return [r for r in Rule if r in EXTRA_SAMPLES or any(n.startswith(f"illegal-{r}-") for n in names)]


@pytest.mark.parametrize("rule", _with_a_sample())
def test_rule_example_is_what_replay_really_prints(rule: Rule) -> None:
    """The fragment `pan rules RULE` shows is the sample's line, and its replay line is what
    `pan samples NAME | pan replay -` writes on standard error."""

    from pancli.app.rule_examples import example
    from pancli.records.shipped import sample_path

    ex = example(rule)
    assert ex is not None, f"no shipped sample breaks {rule}, though one is meant to"
    record = sample_path(ex.sample).read_text(encoding="utf-8")
    assert record.splitlines()[ex.line - 1].strip() == ex.text
    r = CliRunner().invoke(cli, ["replay", *(["--strict"] if ex.strict else []), "-"], input=record)
    assert ex.replay in r.stderr.splitlines()
    assert f": {rule} " in ex.replay


def test_the_examples_file_is_what_refereeing_the_samples_finds() -> None:
    """``pan rules RULE`` reads its example from rule_examples.tsv (start-up: no referee): the file
    must be what refereeing the samples gives now, for every rule (its first line says how to
    write it again)."""
    from pancli.app import rule_examples
    from pancli.app.rule_examples import EXAMPLES_FILE, example
    from pancli.render.rules import examples_table, judged_example

    written = (Path(rule_examples.__file__).parent / EXAMPLES_FILE).read_text(encoding="utf-8")
    assert written == examples_table(), f"pancli/app/{EXAMPLES_FILE} is out of date: {written.splitlines()[0]}"
    assert all(example(r) == judged_example(r) for r in (Rule.P8, Rule.G4, Rule.C9, Rule.S2, Rule.E2))


def test_I1_I2_show_the_count_and_the_call_first_then_the_deal_and_the_turn() -> None:
    from pancli.render.rules import rule_lines

    i1 = rule_lines(Rule.I1, HOYLE)
    assert "record\tline 33: Dee count Eli" in "\n".join(i1)
    assert i1[-3].startswith("also\tpan samples illegal-I1-wrong-count")
    i2 = "\n".join(rule_lines(Rule.I2, HOYLE))
    assert "record\tline 35: Dee call Ana #2" in i2 and "also\tpan samples illegal-I2-foul-meld-found" in i2


def test_every_illegal_sample_is_some_rule_s_example() -> None:
    from pancli.app.rule_examples import examples
    from pancli.records.shipped import sample_names

    shown = {ex.sample for r in Rule for ex in examples(r)}
    assert {n for n in sample_names() if n.startswith("illegal-") and "claim" not in n} <= shown


def test_terminal_violations_end_with_the_pan_rules_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    """On a terminal a cited rule comes with the command that explains it; in a pipe the id is enough."""
    from click.testing import CliRunner

    from pancli.cli import cli

    piped = CliRunner().invoke(cli, ["check", "7c 7s 7s"])
    assert piped.stderr.rstrip().endswith("not 7c 7s 7s")
    monkeypatch.setenv("PAN_FORCE_TERMINAL", "1")
    shown = CliRunner().invoke(cli, ["check", "7c 7s 7s"])
    assert shown.stderr.rstrip().endswith("(pan rules M3)")
    analyzed = CliRunner().invoke(cli, ["analyze", "5s 5s 5s"])
    assert analyzed.stderr.rstrip().endswith("(pan rules P7)")
    sample = Path(__file__).resolve().parent.parent / "samples" / "illegal-P3-dead-discard.pan"
    replayed = CliRunner().invoke(cli, ["replay", str(sample)])
    assert "(pan rules P3)" in replayed.stdout


def test_pan_rules_RULE_on_a_terminal_is_a_panel(monkeypatch: pytest.MonkeyPatch) -> None:
    import re

    monkeypatch.setenv("PAN_FORCE_TERMINAL", "1")
    code, out, _ = _rules("P8", "--rules", "cardroom")
    out = re.sub(r"\x1b\[[0-9;]*m", "", out)
    assert code == 0 and out.startswith("P8 Forcing (turn)")
    assert "forcing = automatic under cardroom" in out and "\t" not in out


def test_R3_an_example_is_shown_strict_by_its_rule_not_by_the_words_of_its_line() -> None:
    from pancli.app.rule_examples import Example

    # a foul meld is reported under I2 unless --strict: what decides is the example's rule
    assert Example("M3", "s", "hoyle", 1, "x", "-:1:1: I2 foul meld (M3)").strict
    assert not Example("I2", "s", "hoyle", 1, "x", "-:1:1: M3 as if the line said M3").strict


def test_R3_examples_come_from_what_the_referee_and_the_reader_decided(tmp_path: Path) -> None:
    """The rule, the line and the rules of each finding are the violations' and the tags' values,
    never parsed back out of replay's standard error: a file name holding ``": "`` changes nothing."""
    from pancli.records.shipped import sample_path
    from pancli.render.rules import _replay_findings

    odd = tmp_path / "x: P3 odd.pan"
    odd.write_text(sample_path("illegal-P8-forcing").read_text(encoding="utf-8"), encoding="utf-8")
    findings = _replay_findings(str(odd))
    rule, line, rules, text = findings[0]
    assert (rule, line, rules) == ("P8", 28, "cardroom")
    assert text.startswith("-:28:") and " P8 " in text
    malformed = tmp_path / "m.pan"
    record = sample_path("malformed-record").read_text(encoding="utf-8")
    malformed.write_text(record.replace('[Event "Kitchen table"]', '[Rules "cardroom"]', 1), encoding="utf-8")
    assert _replay_findings(str(malformed))[0][:3] == ("E1", 12, "cardroom")
