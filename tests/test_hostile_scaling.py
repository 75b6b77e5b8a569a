"""Hangs and blow-ups on large input, as tests that count work instead of timing it (timings
are benchmarks/bench_batch.py's): a batch judges each distinct line once and never runs the
grammar for a comment or bracket line; ``fmt --diff`` of canonical input does not run difflib;
the batch commands answer each block of a pipe as it arrives instead of holding all output.
"""

from __future__ import annotations

import os
import select
import subprocess
import sys

import pytest
from cli_kit import ROOT, pan

import pancli.notation.grammar as grammar


@pytest.fixture
def grammar_runs(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every text the grammar (pyparsing) is run on."""
    runs: list[str] = []
    real = grammar._run

    def counted(element: object, text: str, offset: int) -> object:
        runs.append(text)
        return real(element, text, offset)  # type: ignore[arg-type]

    monkeypatch.setattr(grammar, "_run", counted)
    return runs


@pytest.mark.parametrize(
    ("command", "line"),
    [(["check"], "7c 7s 7s x"), (["pay"], "7c 7s 7s x"), (["score"], "[2-4s] | Kh x"), (["analyze"], "5s 5s x")],
)
def test_a_batch_runs_the_grammar_once_per_distinct_line_and_never_for_a_comment_line(
    grammar_runs: list[str], command: list[str], line: str
) -> None:
    """A batch (``pay -``, ``score -``, ``analyze -``) of a million short lines must finish, and
    so must 200,000 ``{...}`` comment lines: 3,000 repeats of a line the grammar must read run it
    once; 1,000 distinct comment lines never."""
    lines = [line] * 3000 + [f"{{comment {i}}}" for i in range(1000)]
    result = pan(*command, "-", input="\n".join(lines) + "\n")
    assert result.exit_code == 1
    assert len(grammar_runs) <= 2, grammar_runs[:5]  # (analyze reads a hand and a meld of the same text)


@pytest.mark.parametrize("command", [["check"], ["pay"]])
def test_a_meld_batch_never_runs_the_grammar_for_a_bracket_line(grammar_runs: list[str], command: list[str]) -> None:
    """``[N`` lines (distinct) are refused from their first character, as the grammar refuses them."""
    result = pan(*command, "-", input="".join(f"[{i}\n" for i in range(1000)))
    assert result.exit_code == 1 and result.stderr.count(" N7 ") == 1000
    assert grammar_runs == []


def test_fmt_diff_of_canonical_input_does_not_run_difflib(monkeypatch: pytest.MonkeyPatch) -> None:
    """``fmt --diff`` of canonical input has no difference to find, and difflib is slow on large input."""
    import difflib

    def refuse(*_: object, **__: object) -> object:
        raise AssertionError("difflib run on canonical input")

    monkeypatch.setattr(difflib, "unified_diff", refuse)
    canonical = pan("fmt", "-", input=(ROOT / "samples" / "friday-hoyle.pan").read_text(encoding="utf-8")).stdout
    result = pan("fmt", "--diff", "-", input=canonical)
    assert result.exit_code == 0 and result.stdout == ""


def _first_output_before_input_ends(args: list[str], line: str) -> bytes:
    """Start ``pan ARGS`` with a pipe on standard input, write one block of lines and wait for
    output while the pipe is still open: what comes before the end of input."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "pancli", *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        cwd=ROOT,
        env={**os.environ, "PAN_FORCE_TERMINAL": ""},
    )
    assert proc.stdin is not None and proc.stdout is not None
    try:
        proc.stdin.write((line + "\n").encode() * 200)
        proc.stdin.flush()
        ready, _, _ = select.select([proc.stdout], [], [], 60)
        return os.read(proc.stdout.fileno(), 65536) if ready else b""
    finally:
        proc.stdin.close()
        proc.stdout.read()  # (drained: a full pipe would stop it)
        proc.wait(timeout=60)
        proc.stdout.close()


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["check", "-"], "5s 5s 5s"),
        (["check", "--json", "-"], "5s 5s 5s"),
        (["pay", "-"], "5sss"),
        (["score", "-"], "[2-4s] | Kh"),
        (["analyze", "-"], "5s 5s 5s 3h 4h Kd Kh Kc 2c 7d"),
    ],
)
def test_batch_output_streams_each_block_as_it_arrives(args: list[str], line: str) -> None:
    """A batch command must not hold all its output (memory would grow with the input): the rows
    of a block are written before the next block is read."""
    assert _first_output_before_input_ends(args, line).strip()
