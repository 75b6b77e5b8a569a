"""End to end through real processes and pipes: ``pan simulate | pan fmt - | pan replay -``,
the README's first command, and exit statuses seen by the shell."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from cli_kit import ROOT

PAN = shutil.which("pan")


def _pan(*args: str) -> list[str]:
    return [PAN, *args] if PAN else [sys.executable, "-m", "pancli", *args]


def test_simulate_fmt_replay_pipeline() -> None:
    sim = subprocess.Popen(_pan("simulate", "-n", "6", "-k", "40", "-s", "4"), stdout=subprocess.PIPE)
    fmt = subprocess.Popen(_pan("fmt", "-"), stdin=sim.stdout, stdout=subprocess.PIPE)
    assert sim.stdout is not None and fmt.stdout is not None
    sim.stdout.close()
    rep = subprocess.run(_pan("replay", "--json", "-"), stdin=fmt.stdout, capture_output=True, text=True, timeout=120)
    fmt.stdout.close()
    assert sim.wait(timeout=60) == 0 and fmt.wait(timeout=60) == 0
    assert rep.returncode == 0, rep.stderr
    hands = json.loads(rep.stdout)
    assert len(hands) == 40
    assert all(not h["violations"] and sum(h["ledger"].values()) == 0 for h in hands)


def test_plain_replay_in_a_pipe_and_exit_status() -> None:
    p = subprocess.run(
        _pan("replay", "samples/friday-hoyle.pan", "samples/illegal-P7-count.pan"),
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert p.returncode == 1
    assert "\x1b[" not in p.stdout  # no terminal styling in a pipe
    assert p.stdout.rstrip().endswith("3 hands: 2 clean, 1 with a violation, 0 with a wrong claim, 0 malformed")
    assert p.stderr == "samples/illegal-P7-count.pan:21:51: P7 Ana is not out: 2 cards in hand\n"


def test_readme_first_command_runs() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    first = next(line for line in readme.splitlines() if " && .venv/bin/pan replay " in line)
    sample = first.split("pan replay ", 1)[1].split()[0]
    p = subprocess.run(_pan("replay", sample), capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert p.returncode == 0 and "went out (C8)" in p.stdout


def test_replay_reads_a_process_substitution() -> None:
    """``pan replay <(pan simulate ...)``: /dev/fd/N is a pipe, not a regular file."""
    if PAN is None:
        pytest.skip("process substitution runs the installed console script 'pan', not on PATH here")
    p = subprocess.run(
        ["bash", "-c", f"{PAN} replay <({PAN} simulate -k 3 -s 5) | tail -1"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert p.stdout.startswith("3 hands: 3 clean"), p.stderr


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("args", [("check", "5sss"), ("rules",), ("replay", "samples/friday-hoyle.pan")])
def test_output_that_cannot_be_written_is_a_message_and_exit_2(args: tuple[str, ...]) -> None:
    with open("/dev/full", "w") as full:
        p = subprocess.run(_pan(*args), stdout=full, stderr=subprocess.PIPE, text=True, cwd=ROOT, timeout=60)
    assert p.returncode == 2
    assert p.stderr == "pan: cannot write standard output: No space left on device\n"


def test_simulate_to_a_path_that_cannot_be_written_exits_2(tmp_path: Path) -> None:
    p = subprocess.run(
        _pan("simulate", "--players", "3", "--hands", "1", "-o", str(tmp_path / "no" / "such" / "dir.pan")),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert p.returncode == 2 and "Traceback" not in p.stderr
    assert "No such file or directory" in p.stderr
