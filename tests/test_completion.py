"""Shell completion, driven in-process through click's completion machinery: commands, FILE
arguments (paths), ``--rules`` (profiles and ``*.toml`` files), ``--game`` (its choices), and
``pan completion SHELL`` printing the script."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.shell_completion import BashComplete, CompletionItem
from click.testing import CliRunner

from pancli.cli import cli
from pancli.cli.completion import COMPLETE_VAR


def complete(args: list[str], incomplete: str) -> list[CompletionItem]:
    return BashComplete(cli, {}, "pan", COMPLETE_VAR).get_completions(args, incomplete)


def values(args: list[str], incomplete: str) -> list[tuple[str, str]]:
    return [(c.type, c.value) for c in complete(args, incomplete)]


@pytest.fixture
def in_tmp(tmp_path: Path) -> Iterator[Path]:
    old = os.getcwd()
    os.chdir(tmp_path)
    try:
        yield tmp_path
    finally:
        os.chdir(old)


def test_commands_complete() -> None:
    assert ("plain", "replay") in values([], "re")
    assert ("plain", "completion") in values([], "comp")


@pytest.mark.parametrize(
    "args", [["replay"], ["fmt"], ["standings"], ["settle"], ["analyze"], ["fmt", "--write"], ["replay", "a.pan"]]
)
def test_file_arguments_complete_paths(args: list[str]) -> None:
    assert values(args, "sam") == [("file", "sam")]


@pytest.mark.parametrize("option", [["simulate", "-o"], ["replay", "--html"]])
def test_file_options_complete_paths(option: list[str]) -> None:
    assert [c.type for c in complete(option, "ou")] == ["file"]


@pytest.mark.parametrize("command", ["check", "pay", "analyze", "simulate", "replay"])
def test_rules_offers_the_profiles_and_toml_files(command: str, in_tmp: Path) -> None:
    (in_tmp / "house.toml").write_text("")
    (in_tmp / "notes.txt").write_text("")
    (in_tmp / "rules").mkdir()
    (in_tmp / "rules" / "friday.toml").write_text("")
    assert {v for _, v in values([command, "--rules"], "")} == {"hoyle", "cardroom", "house.toml", "rules/"}
    assert values([command, "--rules"], "c") == [("plain", "cardroom")]
    assert values([command, "--rules"], "rules/") == [("plain", "rules/friday.toml")]


def test_game_offers_its_choices() -> None:
    assert values(["check", "--game"], "") == [("plain", "panguingue"), ("plain", "pagruc")]
    assert values(["check", "--game"], "pa") == [("plain", "panguingue"), ("plain", "pagruc")]


@pytest.mark.parametrize(
    ("shell", "marker"),
    [("bash", "complete -o nosort -F"), ("zsh", "#compdef pan"), ("fish", "complete --no-files --command pan")],
)
def test_completion_prints_the_script_of_each_shell(shell: str, marker: str) -> None:
    r = CliRunner().invoke(cli, ["completion", shell])
    assert r.exit_code == 0 and marker in r.stdout and COMPLETE_VAR in r.stdout


def test_completion_of_an_unknown_shell_is_a_usage_error() -> None:
    assert CliRunner().invoke(cli, ["completion", "tcsh"]).exit_code == 2


def test_samples_offers_the_sample_names() -> None:
    assert values(["samples"], "friday") == [("plain", "friday-hoyle")]
    assert ("plain", "illegal-P8-forcing") in values(["samples"], "illegal-P")
    assert ("plain", "oakland.toml") in values(["samples"], "oak")
    assert values(["samples", "--path"], "pagruc-u") == [("plain", "pagruc-unofficial")]


def test_rules_offers_profiles_and_rule_ids(in_tmp: Path) -> None:
    assert values(["rules"], "") == [("plain", "hoyle"), ("plain", "cardroom")]
    assert values(["rules"], "P1") == [("plain", "P1"), ("plain", "P10")]
    assert values(["rules"], "p8") == [("plain", "P8")]
    assert ("plain", "cardroom") in values(["rules"], "c") and ("plain", "C10") in values(["rules"], "c")
    assert dict((c.value, c.help) for c in complete(["rules"], "T2"))["T2"] == "Cost of going on top"
