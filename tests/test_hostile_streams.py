"""Standard streams in every state: each command (``--help`` and ``--version`` too) ends with its
documented status and without a traceback when standard output or standard error is closed
(``>&-``), full (``>/dev/full``) or a pipe whose reader is gone.

- standard output that cannot be written: ``pan: cannot write standard output: ...``, status 2
  (a closed pipe: 141, quietly), when the command writes to it at all;
- standard error that cannot be written: the command's own status (what it had to say is lost).

Real processes: the states are those of file descriptors, which an in-process run cannot have.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from cli_kit import ROOT
from click.testing import CliRunner

from pancli.cli import cli

pytestmark = pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")

FRIDAY = "samples/friday-hoyle.pan"
COMMANDS: dict[str, tuple[str, ...]] = {
    "help": ("--help",),
    "version": ("--version",),
    "check-help": ("check", "--help"),
    "check-legal": ("check", "5sss"),
    "check-illegal": ("check", "7c 7s 7s"),
    "usage-error": ("check", "--bogus"),
    "missing-file": ("replay", "no-such-file.pan"),
    "pay": ("pay", "5sss", "3-5h"),
    "rules": ("rules", "P8"),
    "replay": ("replay", FRIDAY),
    "replay-jobs": ("replay", "--jobs", "2", FRIDAY, "samples/eight-handed-hoyle.pan"),
    "replay-violation": ("replay", "samples/illegal-P8-forcing.pan"),
    "fmt": ("fmt", FRIDAY),
    "settle": ("settle", FRIDAY),
    "standings": ("standings", "samples/pagruc-common-room.pan"),
    "simulate": ("simulate", "-k", "2", "-s", "3"),
    "analyze": ("analyze", "5sss 3h 4h Kd Kh Kc 2c 7d +5h"),
    "score": ("score", "[5h 6h 7h] | Ks"),
    "samples": ("samples",),
    "completion": ("completion", "bash"),
}
STATES = ["closed", "full", "broken-pipe"]


def _target(state: str) -> tuple[int | None, list[int]]:
    """The descriptor a stream gets in ``state`` (None: closed) and the ones to close after."""
    if state == "full":
        fd = os.open("/dev/full", os.O_WRONLY)
        return fd, [fd]
    if state == "broken-pipe":
        read, write = os.pipe()
        os.close(read)  # nobody will ever read: the first write fails with EPIPE
        return write, [write]
    return None, []


def _run(args: tuple[str, ...], stream: int | None = None, state: str = "") -> tuple[int, bytes, bytes]:
    """``pan ARGS`` with descriptor ``stream`` (1 or 2) in ``state``; (status, stdout, stderr) as far
    as they can be seen."""
    target, to_close = _target(state) if stream else (None, [])
    keep = {1: subprocess.PIPE, 2: subprocess.PIPE}
    if stream is not None:
        keep[stream] = target if target is not None else subprocess.DEVNULL
    closing = stream if stream is not None and target is None else None

    def close_it() -> None:
        if closing is not None:
            os.close(closing)

    try:
        proc = subprocess.run(
            [sys.executable, "-m", "pancli", *args],
            stdin=subprocess.DEVNULL,
            stdout=keep[1],
            stderr=keep[2],
            preexec_fn=close_it,
            cwd=ROOT,
            timeout=120,  # a hang detector only
        )
    finally:
        for fd in to_close:
            os.close(fd)
    return proc.returncode, proc.stdout or b"", proc.stderr or b""


LONG = os.environ.get("PAN_FUZZ", "") == "long"
"""The whole matrix (every command x every state of each stream) under ``PAN_FUZZ=long``; by
default every command meets one state of each stream, in turn, and the first three every state."""


def _cases() -> list[tuple[str, int, str]]:
    cases = []
    for i, name in enumerate(COMMANDS):
        for stream in (1, 2):
            states = STATES if LONG or i < 3 else [STATES[(i + stream) % len(STATES)]]
            cases += [(name, stream, state) for state in states]
    return cases


def _baseline(args: tuple[str, ...]) -> tuple[int, str]:
    """The command's status and standard output with both streams fine (in-process)."""
    r = CliRunner().invoke(cli, list(args), prog_name="pan")
    return r.exit_code, r.stdout


@pytest.mark.parametrize(("name", "stream", "state"), _cases())
def test_a_command_ends_with_its_status_whatever_state_its_streams_are_in(name: str, stream: int, state: str) -> None:
    status, out = _baseline(COMMANDS[name])
    got, got_out, got_err = _run(COMMANDS[name], stream, state)
    assert b"Traceback" not in got_err and b"Exception ignored" not in got_err, got_err
    if stream == 2 or not out:  # an error message cannot change a verdict; nothing to write
        assert got == status, got_err
        if stream == 2 and "help" not in name:  # (help is wrapped to the terminal's width)
            assert got_out.decode() == out
    elif state == "broken-pipe":
        assert (got, got_err) == (141, b""), got_err
    else:
        why = b"Bad file descriptor" if state == "closed" else b"No space left on device"
        assert got == 2, got_err
        assert got_err.endswith(b"pan: cannot write standard output: " + why + b"\n"), got_err


def test_a_file_opened_while_standard_output_is_closed_never_receives_the_report(tmp_path: Path) -> None:
    """With descriptor 1 closed, the next file opened would get number 1: pan takes it first."""
    out = tmp_path / "games.pan"
    got, _, err = _run(("simulate", "-k", "2", "-s", "4", "-o", str(out)), 1, "closed")
    assert got == 0, err
    whole = out.read_text(encoding="utf-8")
    assert whole == _run(("simulate", "-k", "2", "-s", "4"))[1].decode()


def test_closed_standard_input_reads_as_empty() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "pancli", "check", "-"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        preexec_fn=lambda: os.close(0),
        cwd=ROOT,
        timeout=120,
    )
    assert (proc.returncode, proc.stdout) == (0, b""), proc.stderr
    assert b"Traceback" not in proc.stderr
