"""How pan ends, seen from a shell: exit 141 when the reader of its output goes away, 130 after
Ctrl-C, 143 after ``kill``, 129 after a hangup, always quietly. Real processes, real pipes, real signals."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from cli_kit import ROOT

PAN = shutil.which("pan")


def _pan(*args: str) -> list[str]:
    return [PAN, *args] if PAN else [sys.executable, "-m", "pancli", *args]


@pytest.fixture(scope="module")
def many_hands(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("hands") / "many.pan"
    with path.open("w", encoding="utf-8") as out:
        subprocess.run(_pan("simulate", "--hands", "150", "--seed", "3"), stdout=out, check=True, timeout=120)
    return path


@pytest.fixture(scope="module")
def many_melds(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("melds") / "melds.txt"
    path.write_text("5s 5s 5s\nQh Kh Ah\n3-5h\n" * 120_000, encoding="utf-8")
    return path


def _read_one_line_then_close(args: list[str], stdin_path: Path | None = None) -> tuple[int, str]:
    stdin = stdin_path.open("rb") if stdin_path else subprocess.DEVNULL
    try:
        proc = subprocess.Popen(args, stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
        assert proc.stdout is not None and proc.stderr is not None
        assert proc.stdout.readline()
        proc.stdout.close()  # the reader goes away, as `| head -1` does
        err = proc.stderr.read().decode()
        return proc.wait(timeout=120), err
    finally:
        if stdin_path:
            stdin.close()  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "command",
    [
        ("simulate", "--hands", "100000"),
        ("check", "-"),
        ("replay", "-"),
        ("replay", "--jsonl", "-"),
        ("fmt", "-"),
    ],
    ids=" ".join,
)
def test_a_closed_pipe_ends_quietly_with_141(command: tuple[str, ...], many_hands: Path, many_melds: Path) -> None:
    stdin = many_melds if command[0] == "check" else many_hands if command[-1] == "-" else None
    status, err = _read_one_line_then_close(_pan(*command), stdin)
    assert (status, err) == (141, "")


def test_help_to_a_closed_pipe_is_not_an_error() -> None:
    p = subprocess.run(["bash", "-o", "pipefail", "-c", f"{' '.join(_pan('--help'))} | head -c 1"], capture_output=True)
    assert p.returncode in (0, 141) and p.stderr == b""


def _interrupt_midway(args: list[str], signum: int) -> tuple[int, str]:
    """Start pan, wait for its first line of output (it is at work), then send ``signum``."""
    proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    assert proc.stdout is not None
    assert proc.stdout.readline()
    proc.send_signal(signum)
    try:
        _, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    return proc.returncode, err.decode()


@pytest.mark.parametrize(
    ("command", "signum", "status"),
    [
        (("simulate", "--hands", "100000"), signal.SIGINT, 130),
        (("simulate", "--hands", "100000"), signal.SIGTERM, 143),
        (("replay", "--jsonl", "{many}"), signal.SIGINT, 130),
        (("replay", "--jsonl", "--jobs", "2", "{many}"), signal.SIGINT, 130),
        (("simulate", "--hands", "100000"), signal.SIGHUP, 129),
        (("replay", "--jsonl", "{many}"), signal.SIGHUP, 129),
        (("replay", "--jsonl", "--jobs", "2", "{many}"), signal.SIGHUP, 129),
        (("replay", "--jsonl", "--jobs", "2", "{many}"), signal.SIGTERM, 143),
    ],
    ids=lambda v: " ".join(v) if isinstance(v, tuple) else str(v),
)
def test_a_signal_ends_quietly_with_128_plus_its_number(
    command: tuple[str, ...], signum: int, status: int, many_hands: Path
) -> None:
    args = [str(many_hands) if a == "{many}" else a for a in command]
    assert _interrupt_midway(_pan(*args), signum) == (status, "")


def _drained(proc: subprocess.Popen[bytes]) -> bool:
    """Whether pan has read everything written to its standard input so far (FIONREAD on the
    pipe: nothing left in it), so that it is past start-up and its signal handlers."""
    import fcntl
    import struct
    import termios

    assert proc.stdin is not None
    left = fcntl.ioctl(proc.stdin.fileno(), termios.FIONREAD, struct.pack("i", 0))
    return struct.unpack("i", left)[0] == 0


_PAGRUC = (ROOT / "samples" / "pagruc-common-room.pan").read_bytes()
_RECORD = (ROOT / "samples" / "friday-hoyle.pan").read_bytes()
READERS: dict[str, tuple[list[str], bytes]] = {
    "check": (["check", "-"], b"5s 5s 5s\nQh Kh Ah\n3-5h\n7c 7s 7s\n"),
    "pay": (["pay", "-"], b"5sss Qhhh 2-4h\n"),
    "score": (["score", "--game", "pagruc", "-"], b"[5h 6h 7h] [Ac Ad As] | Ks Ah\n"),
    "analyze": (["analyze", "--samples", "50", "-"], b"5s 5s 5s 6h 7h Jc Qc Kc 2d 3d\n"),
    "analyze --advice": (["analyze", "--advice", "--samples", "50", "-"], b"5s 5s 5s 6h 7h Jc Qc Kc 2d 3d\n"),
    "replay": (["replay", "-"], _RECORD),
    "replay --jobs 2": (["replay", "--jobs", "2", "-"], _RECORD),
    "settle": (["settle", "-"], _RECORD),
    "standings": (["standings", "-"], _PAGRUC),
    "fmt": (["fmt", "-"], _RECORD),
    "review": (["review", "--samples", "50", "--advice-samples", "10", "-"], _RECORD),
}
"""Every command that reads standard input, with a unit of its input."""
SIGNALS = {signal.SIGINT: 130, signal.SIGTERM: 143, signal.SIGHUP: 129}


def _signals_for(name: str) -> list[signal.Signals]:
    """Every signal under PAN_FUZZ=long; else one drawn for the command (seeded by its name)."""
    import os
    import random

    if os.environ.get("PAN_FUZZ") == "long":
        return list(SIGNALS)
    return [random.Random(name).choice(list(SIGNALS))]


@pytest.mark.parametrize(
    ("name", "signum"), [(n, s) for n in READERS for s in _signals_for(n)], ids=lambda v: getattr(v, "name", v)
)
def test_a_signal_at_a_random_moment_of_any_reader_ends_it_quietly(name: str, signum: signal.Signals) -> None:
    """pan reads a random number of units of input from a pipe that stays open (so it is at
    work however fast the machine), has read them all, then gets the signal: 128 + its number,
    nothing on standard error, whatever it was doing (but the error lines of the input's own
    illegal melds, ``-:LINE:COL: RULE ...``, which it may have judged by then)."""
    import random
    import time

    args, unit = READERS[name]
    proc = subprocess.Popen(
        _pan(*args), stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT
    )
    assert proc.stdin is not None and proc.stderr is not None
    try:
        proc.stdin.write(unit * random.Random(f"{name} {signum}").randint(1, 6))
        proc.stdin.flush()
        deadline = time.monotonic() + 120  # a hang detector only
        while not _drained(proc) and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.01)
        assert proc.poll() is None, "pan ended before its input did"
        proc.send_signal(signum)
        status = proc.wait(timeout=120)
        err = proc.stderr.read().decode()
    finally:
        proc.kill()
        proc.stdin.close()
    err = "".join(line for line in err.splitlines(keepends=True) if not re.match(r"-:\d+:\d+: [A-Z]+\d* ", line))
    assert (status, err) == (SIGNALS[signum], "")


@pytest.mark.parametrize("signum", list(SIGNALS), ids=lambda s: s.name)
def test_a_signal_the_caller_ignores_stays_ignored(tmp_path: Path, signum: signal.Signals) -> None:
    """``nohup pan ...`` (SIGHUP ignored), a shell's background job (SIGINT ignored): pan does not
    turn the signal back on; the command goes on and ends as it would have."""

    def ignored() -> None:
        signal.signal(signum, signal.SIG_IGN)

    proc = subprocess.Popen(
        [*_pan("live", str(tmp_path / "n.pan"), "--players", "Ana Ben")],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=ignored, cwd=ROOT,
    )  # fmt: skip
    assert proc.stdout is not None
    assert proc.stdout.readline().startswith("hand 1:")  # the command runs: pan's handlers are in place
    proc.send_signal(signum)
    out, err = proc.communicate("Ana stay\n", timeout=120)
    assert (proc.returncode, err) == (0, "")
    assert "ok 4: Ana stay" in out


def test_a_hangup_nohup_ignores_leaves_replay_jobs_and_its_workers_running(many_hands: Path) -> None:
    """Under nohup the hangup reaches pan's whole process group: its ``--jobs`` workers keep
    ignoring it as the main process does, and the replay ends whole."""
    whole = subprocess.run(_pan("replay", str(many_hands)), capture_output=True, timeout=300, cwd=ROOT).stdout
    proc = subprocess.Popen(
        _pan("replay", "--jobs", "2", str(many_hands)), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        preexec_fn=lambda: signal.signal(signal.SIGHUP, signal.SIG_IGN), start_new_session=True, cwd=ROOT,
    )  # fmt: skip
    assert proc.stdout is not None
    first = os.read(proc.stdout.fileno(), 1)  # the workers are at work (their output comes)
    os.killpg(proc.pid, signal.SIGHUP)
    out, err = proc.communicate(timeout=300)
    assert (proc.returncode, err) == (0, b"")
    assert first + out == whole
