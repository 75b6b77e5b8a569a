"""Start-up stays light: what each command imports, and ``pan --help`` without any command module.

This is the one test of start-up imports (issue 14): a command that needs a heavy module on a path
listed here is a slower cold start for every user of that path (benchmarks/bench_startup.py).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import click
import pytest

from pancli.cli import COMMANDS, LazyGroup, cli

ROOT = Path(__file__).resolve().parent.parent
SMALL = "samples/illegal-T1-decision-order.pan"
HAND = "5s 5s 5s 3h 4h Kd Kh Kc 2c 7d"

RUN = """
import sys
sys.argv = ['pan', *sys.argv[1:]]
from pancli.cli import main
try:
    main()
except SystemExit:
    pass
finally:
    sys.stderr.write('\\nMODULES ' + ' '.join(sorted(sys.modules)) + '\\n')
"""

ENGINES = ("pancli.referee", "pancli.analyze", "pancli.pagruc.referee", "pancli.notation.record_grammar")
UI = ("rich", "pyparsing")

# command line -> module prefixes it must not import (output to a pipe, canonical input)
CASES: dict[str, tuple[list[str], tuple[str, ...]]] = {
    "help": (
        ["--help"],
        (*UI, "json", *ENGINES, "pancli.melds", "pancli.model", *(m for m, _, _ in COMMANDS.values())),
    ),
    "check": (["check", "5s 5s 5s"], (*UI, "json", *ENGINES, "pancli.model")),
    "pay canonical": (["pay", "5s 5s 5s", "3h 4h 5h", "--players", "6"], (*UI, "json", *ENGINES, "pancli.model")),
    "rules": (["rules"], (*UI, "json", *ENGINES, "pancli.melds")),
    "replay": (["replay", SMALL], (*UI, "json", "pancli.analyze", "pancli.pagruc")),
    "replay --json": (["replay", "--json", SMALL], (*UI, "pancli.analyze", "pancli.pagruc")),
    "fmt": (["fmt", SMALL], (*UI, "json", *ENGINES)),
    "simulate": (["simulate", "--hands", "1"], (*UI, "json", "pancli.analyze", "pancli.pagruc")),
    "analyze": (["analyze", "--samples", "20", HAND], (*UI, "json", "pancli.referee", "pancli.pagruc")),
    "settle": (["settle", SMALL], (*UI, "json", "pancli.analyze")),
    "score --help": (["score", "--help"], (*UI, "json", *ENGINES)),
    "standings --help": (["standings", "--help"], (*UI, "json", "pancli.referee", "pancli.analyze")),
}


def imported(argv: list[str]) -> set[str]:
    p = subprocess.run([sys.executable, "-c", RUN, *argv], capture_output=True, text=True, cwd=ROOT, check=False)
    assert "MODULES " in p.stderr, p.stderr
    return set(p.stderr.rsplit("MODULES ", 1)[1].split())


@pytest.mark.parametrize("case", list(CASES))
def test_each_command_imports_no_heavy_module_it_does_not_need(case: str) -> None:
    argv, forbidden = CASES[case]
    mods = imported(argv)
    bad = sorted(m for m in mods if any(m == f or m.startswith(f + ".") for f in forbidden))
    assert not bad, f"pan {' '.join(argv)} imports {bad}"


@pytest.mark.parametrize("width", [50, 80, 200])
def test_help_lists_every_command_with_its_real_short_help(width: int) -> None:
    """``pan --help`` writes the command list from COMMANDS exactly as click would from the commands."""
    ctx = click.Context(cli, terminal_width=width)
    lazy, eager = click.HelpFormatter(width=width), click.HelpFormatter(width=width)
    LazyGroup.format_commands(cli, ctx, lazy)
    click.Group.format_commands(cli, ctx, eager)  # imports every command module
    assert lazy.getvalue() == eager.getvalue()
    for name, (_, _, short) in COMMANDS.items():
        real = cli.get_command(ctx, name)
        assert real is not None and real.name == name
        assert click.Command(name, help=short).get_short_help_str(10_000) == real.get_short_help_str(10_000), name
