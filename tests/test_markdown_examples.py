"""The README and docs/ show what ``pan`` really prints: every ``console`` block of every
markdown file is run, by this one mechanism.

A block holds ``$ command`` lines, each followed by the output it prints (stdout, then
stderr, as a terminal would show them in a pipe). A command with no output under it (the
list of analyze invocations) must still run cleanly and print something. Pipelines of
``printf``, ``pan``, ``head -n N``, ``tail -n N`` and ``jq`` stages are run stage by stage; a ``jq`` stage is
skipped (its input is checked to be JSON).

A block fenced ```` ```text columns=N ```` is what a terminal N columns wide shows: its commands
run as on such a terminal (``PAN_FORCE_TERMINAL``, ``NO_COLOR``), compared without the styles'
escapes and the spaces that end a line.
"""

from __future__ import annotations

import json
import os
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

import pytest
from cli_kit import ROOT
from click.testing import CliRunner

from pancli.cli import cli

SKIPPED = ("build", "dist", "node_modules")


def markdown_files() -> list[Path]:
    """Every markdown file of the repository (README.md, docs/, benchmarks/, grammar/ ...),
    skipping hidden folders (.venv, .git) and build output."""
    found: list[Path] = []
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in SKIPPED and "egg-info" not in d)
        found += [Path(folder) / f for f in sorted(files) if f.endswith(".md")]
    return found


MARKDOWN = markdown_files()


@dataclass(frozen=True)
class Example:
    file: str
    line: int
    command: str
    output: str | None  # None: the README shows no output for it
    columns: int | None = None  # a terminal this wide (None: a pipe)


def examples(path: Path) -> list[Example]:
    text = path.read_text(encoding="utf-8")
    name = path.relative_to(ROOT).as_posix()
    found: list[Example] = []
    for block in re.finditer(r"```(?:console|text columns=(\d+))\n(.*?)```", text, re.S):
        first = text.count("\n", 0, block.start(2)) + 1
        columns = int(block.group(1)) if block.group(1) else None
        lines = block.group(2).splitlines(keepends=True)
        starts = [i for i, ln in enumerate(lines) if ln.startswith("$ ")]
        for k, i in enumerate(starts):
            end = starts[k + 1] if k + 1 < len(starts) else len(lines)
            output = "".join(lines[i + 1 : end])
            found.append(Example(name, first + i, lines[i][2:].rstrip("\n"), output or None, columns))
    return found


def on_terminal(shown: str) -> str:
    """Terminal output as the docs show it: no style escapes, no spaces at the ends of lines."""
    return "".join(ln.rstrip() + "\n" for ln in re.sub(r"\x1b\[[0-9;]*m", "", shown).splitlines())


def run(command: str, columns: int | None = None) -> tuple[int, str]:
    """Run a documented command line (on a terminal ``columns`` wide, or in a pipe); returns the last
    pan stage's exit code and its stdout + stderr."""
    stdin: str | None = None
    code, shown = 0, ""
    stages: list[list[str]] = [[]]
    for token in shlex.split(command, comments=True):
        if token == "|":
            stages.append([])
        else:
            stages[-1].append(token)
    for argv in stages:
        stage = " ".join(argv)
        if argv[0] == "printf":
            stdin = argv[1].encode().decode("unicode_escape")
            continue
        if argv[0] in ("head", "tail"):
            assert argv[1] == "-n" and stdin is not None, stage
            lines, n = stdin.splitlines(keepends=True), int(argv[2])
            shown = stdin = "".join(lines[:n] if argv[0] == "head" else lines[-n:])
            continue
        if argv[0] == "jq":
            assert stdin is not None
            json.loads(stdin)
            continue
        assert argv[0] == "pan", stage
        env = None if columns is None else {"PAN_FORCE_TERMINAL": "1", "NO_COLOR": "1", "COLUMNS": str(columns)}
        r = CliRunner().invoke(cli, argv[1:], input=stdin, env=env)
        assert r.exception is None or isinstance(r.exception, SystemExit), (stage, r.exception)
        code, shown, stdin = r.exit_code, r.stdout + r.stderr, r.stdout
    return code, shown


EXAMPLES = [e for path in MARKDOWN for e in examples(path)]


def test_the_docs_have_examples_of_every_command() -> None:
    commands = {shlex.split(e.command)[1] for e in EXAMPLES}
    assert {"check", "pay", "rules", "replay", "simulate", "analyze", "score", "standings"} <= commands
    assert {"README.md", "docs/commands.md"} <= {e.file for e in EXAMPLES}


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: f"{e.file}:{e.line}")
def test_documented_example_is_real_output(example: Example, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    code, shown = run(example.command, example.columns)
    if example.columns is not None:
        shown = on_terminal(shown)
    assert code in (0, 1), (example.command, shown)
    assert "Traceback" not in shown
    if example.output is None:
        assert shown.strip(), example.command
    else:
        assert shown == example.output, example.command
