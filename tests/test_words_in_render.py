"""Output text is render/'s: the command line writes what render/ words (no f-string handed to
``click.echo`` or a stream's ``write`` in cli/), the application hands values (``--jobs``'s
fewer workers), and an action is put in words by the record writer alone."""

from __future__ import annotations

import ast
import errno
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from pancli.app.workers import FewerWorkers, Workers
from pancli.cli import cli
from pancli.render.fmt import left_unchanged, reformatted, would_reformat
from pancli.render.text import fewer_workers_text, jobs_clamped_text

PKG = Path(__file__).resolve().parent.parent / "pancli"


def _written_fstrings(path: Path) -> list[str]:
    """The f-strings ``path`` hands straight to ``echo``, ``secho`` or ``write``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.JoinedStr):
            f = node.func
            name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
            if name in ("echo", "secho", "write"):
                found.append(f"{path.name}:{node.lineno}")
    return found


def test_the_command_line_writes_no_words_of_its_own() -> None:
    found = [hit for path in sorted((PKG / "cli").glob("*.py")) for hit in _written_fstrings(path)]
    assert not found, found


def test_I3_fewer_workers_is_a_value_the_command_line_words_through_render(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse() -> int:
        raise BlockingIOError(errno.EAGAIN, "Resource temporarily unavailable")

    monkeypatch.setattr(os, "fork", refuse)
    said: list[FewerWorkers] = []
    with Workers(3, abs, int, note=said.append) as pool:
        assert [r for _, r in pool.results(range(-2, 2), abs)] == [2, 1, 0, 1]
    assert said == [FewerWorkers(3, 0, "Resource temporarily unavailable")]
    assert fewer_workers_text(said[0]) == (
        "pan: --jobs 3: cannot make worker 1 (Resource temporarily unavailable): the work goes on in one process,"
        " pan's own"
    )
    assert fewer_workers_text(FewerWorkers(3, 1, "x")).endswith("the work goes on in 1 worker")
    assert fewer_workers_text(FewerWorkers(4, 2, "x")).endswith("the work goes on in 2 workers")
    assert jobs_clamped_text(9, 2) == "pan: --jobs 9 is more than the 2 CPUs here: 2 workers"


def test_fmt_s_status_lines_are_the_old_words_escaped() -> None:
    assert would_reformat("a.pan") == "would reformat a.pan"
    assert reformatted("a\x1b.pan") == "reformatted a\\x1b.pan"
    assert left_unchanged("b.pan", 1) == "pan fmt: b.pan left unchanged: 1 malformed hand(s)"


def test_fmt_check_says_would_reformat_on_standard_error(tmp_path: Path) -> None:
    messy = tmp_path / "m.pan"
    messy.write_text('[Players "Ana Ben"]\n\nAna   stay\nBen stay\n', encoding="utf-8")
    got = CliRunner().invoke(cli, ["fmt", "--check", str(messy)])
    assert (got.exit_code, got.stderr) == (1, f"would reformat {messy}\n")


_ACTION_WORDS = ("draw ", "discard ", "take ", "meld ", "add ", "borrow ", "split ", "mend ", "back ", "lay ")


def test_replay_json_writes_each_action_through_the_record_writer() -> None:
    """No second writer of a plain turn's ``draw X`` / ``discard X`` beside ``action_text``."""
    tree = ast.parse((PKG / "render" / "json.py").read_text(encoding="utf-8"))
    found = [
        f"line {node.lineno}: {node.value!r}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.startswith(_ACTION_WORDS)
    ]
    assert not found, found


def _docstrings(tree: ast.AST) -> set[int]:
    """The string constants standing as statements: docstrings (a module's, a class's, a
    function's, an attribute's), not words made."""
    return {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)
    }


def _sentences_made(path: Path) -> list[str]:
    """The f-strings of ``path`` and its string constants with a space in them, docstrings aside:
    the words a module makes."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = _docstrings(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            found.append(f"{path.name}:{node.lineno}: f-string")
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docstrings
            and " " in node.value.strip()
        ):
            found.append(f"{path.name}:{node.lineno}: {node.value!r}")
    return found


def test_C7_C9_the_hand_report_decides_a_dispute_as_a_value_and_words_nothing() -> None:
    """Why a hand is disputed (a wrong claim, an irregularity and the violation after it) is a
    value the report decides; render/text.py words it."""
    assert _sentences_made(PKG / "app" / "report.py") == []


_DISPUTE_WORDS = ("claims [%pays", "the Ledger claims", "but the referee finds", "; then ")


def test_C7_C9_no_module_of_the_application_words_a_claim_or_a_dispute() -> None:
    found = []
    for path in sorted((PKG / "app").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = _docstrings(tree)
        found += [
            f"{path.name}:{node.lineno}: {node.value!r}"
            for node in ast.walk(tree)
            if isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docstrings
            and any(w in node.value for w in _DISPUTE_WORDS)
        ]
    assert found == [], found
