"""What every command shares: help with an example, a lean start-up, exit codes."""

from __future__ import annotations

import subprocess
import sys

import click
import pytest
from click.testing import CliRunner

from pancli.cli import cli

COMMANDS = cli.list_commands(click.Context(cli))


def test_the_issue_2_commands_exist() -> None:
    assert {"check", "pay", "rules"} <= set(COMMANDS)


@pytest.mark.parametrize("name", COMMANDS)
def test_every_command_has_help_with_an_example(name: str) -> None:
    r = CliRunner().invoke(cli, [name, "--help"])
    assert r.exit_code == 0, r.output
    assert "Example" in r.stdout, f"pan {name} --help shows no example"
    assert f"pan {name}" in r.stdout.split("Example", 1)[1], f"pan {name} --help: the example does not run pan {name}"


def test_top_level_help_lists_the_commands() -> None:
    r = CliRunner().invoke(cli, ["--help"])
    assert r.exit_code == 0
    for name in ("check", "pay", "rules"):
        assert name in r.stdout


@pytest.mark.parametrize("argv", [["--help"], ["check", "--help"], ["pay", "--help"], ["rules", "--help"]])
def test_help_imports_neither_pyparsing_nor_rich(argv: list[str]) -> None:
    code = (
        "import sys\n"
        "from pancli.cli import cli\n"
        "try:\n"
        f"    cli({argv!r}, prog_name='pan')\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(sorted(m for m in ('rich', 'pyparsing') if m in sys.modules), file=sys.stderr)\n"
    )
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert p.stderr.strip() == "[]", p.stderr


def test_unknown_command_is_a_usage_error() -> None:
    assert CliRunner().invoke(cli, ["chekc"]).exit_code == 2
