"""Workers and signals: ``replay --jobs`` ends with the output of a run with no worker whichever
worker is killed when (the last chunk included), its workers die with it, and SIGHUP ends pan as
SIGTERM does (status 129, quietly, no temporary file left by any atomic writer).

Real processes and real signals. The moments are chosen from what the run has written (hands
seen on its output), not from the clock; timeouts only detect a hang.
"""

from __future__ import annotations

import contextlib
import os
import random
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from cli_kit import ROOT, SAMPLES
from click.testing import CliRunner

from pancli.cli import cli

pytestmark = pytest.mark.skipif(
    not Path("/proc/self/task").exists() or not hasattr(signal, "SIGHUP"), reason="needs Linux's /proc"
)

CHUNK = 4
"""Hands a chunk (the run below sets it: many chunks from a small record)."""
_RUN = f"""
import sys
import pancli.app.replay as replay
replay.CHUNK_HANDS = {CHUNK}
from pancli.cli import main
sys.argv = ["pan", *sys.argv[1:]]
main()
"""
HANG = 120
"""Seconds after which a run is taken for hung (a hang detector only)."""


def _children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with contextlib.suppress(OSError):
            found += [int(n) for n in (task / "children").read_text().split()]
    return found


def _alive(pid: int) -> bool:
    """Running (a zombie, dead but not yet reaped by its new parent, is not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def _wait_for(check: object, what: str) -> None:
    deadline = time.monotonic() + HANG
    while not check():  # type: ignore[operator]
        assert time.monotonic() < deadline, what
        time.sleep(0.005)


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """40 simulated hands and a sample with a violation: 11 chunks, exit status 1."""
    path = tmp_path_factory.mktemp("workers") / "hands.pan"
    simulated = CliRunner().invoke(cli, ["simulate", "-n", "5", "-k", "40", "-s", "8"]).stdout
    bad = (SAMPLES / "illegal-P8-forcing.pan").read_text(encoding="utf-8")
    path.write_text(simulated + "\n" + bad, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def serial(record: Path) -> tuple[int, str, str]:
    p = subprocess.run(
        [sys.executable, "-c", _RUN, "replay", str(record)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=HANG,
    )
    assert p.returncode == 1 and p.stderr
    return p.returncode, p.stdout, p.stderr


def _kill(worker: int) -> None:
    """SIGKILL to a worker listed a moment ago: with the run's last hand out, pan may have ended and
    reaped it in between (ProcessLookupError: the test failed where pan had done right)."""
    with contextlib.suppress(ProcessLookupError):
        os.kill(worker, signal.SIGKILL)


def _killed_run(record: Path, after_hands: int, victims: str) -> tuple[int, str, str]:
    """``replay --jobs 2``, with ``victims`` ("one", "both", "one-twice") of its workers killed
    once ``after_hands`` hands are on its output."""
    errors = record.parent / f"err-{after_hands}-{victims}.txt"
    with errors.open("w") as err_file:
        proc = subprocess.Popen(
            [sys.executable, "-c", _RUN, "replay", "--jobs", "2", str(record)],
            stdout=subprocess.PIPE,
            stderr=err_file,
            text=True,
            cwd=ROOT,
        )
    assert proc.stdout is not None
    hung = threading.Timer(HANG, proc.kill)  # a hang detector only: the run is killed, the test fails
    hung.start()
    try:
        _wait_for(lambda: len(_children(proc.pid)) == 2 or proc.poll() is not None, "the workers never started")
        lines = []
        seen = 0
        while seen < after_hands:
            line = proc.stdout.readline()
            if not line:
                break
            lines.append(line)
            seen += ", hand " in line
        workers = _children(proc.pid)
        for pid in workers[: 2 if victims == "both" else 1]:
            _kill(pid)
        if victims == "one-twice":  # the worker left dies too, a moment later
            line = proc.stdout.readline()
            lines.append(line)
            for pid in _children(proc.pid):
                _kill(pid)
        out = proc.stdout.read()
        proc.wait()
    finally:
        hung.cancel()
        proc.kill()
    return proc.returncode, "".join(lines) + out, errors.read_text()


@pytest.mark.slow
@pytest.mark.parametrize("victims", ["one", "both", "one-twice"])
def test_I3_jobs_a_worker_killed_at_any_moment_changes_nothing(
    record: Path, serial: tuple[int, str, str], victims: str
) -> None:
    """Killed before the first chunk, after each chunk's output, and with the last chunk out."""
    hands = serial[1].count(", hand ")
    moments = list(range(0, hands + 1, CHUNK))  # every chunk boundary, the last chunk in flight
    if os.environ.get("PAN_FUZZ") != "long":
        moments = [0, CHUNK, hands // 2, hands - CHUNK, hands - 1, hands]
    for after in moments:
        assert _killed_run(record, after, victims) == serial, f"killed after {after} hands"


def _signalled_at_work(record: Path, signum: int) -> tuple[int, bytes, list[int]]:
    """``replay --jobs 2 -`` sent ``signum`` once at work: its status, standard error and its
    workers' process ids. Its input stays open until then, so however fast the machine the run
    is still going when the signal comes (a whole file could be done first)."""
    proc = subprocess.Popen(
        [sys.executable, "-c", _RUN, "replay", "--jobs", "2", "-"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
    )
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    text, stdin = record.read_bytes() * 40, proc.stdin

    def feed() -> None:
        with contextlib.suppress(OSError):  # the pipe's reader is gone once the signal ended it
            stdin.write(text)
            stdin.flush()

    feeder = threading.Thread(target=feed, daemon=True)
    feeder.start()
    try:
        _wait_for(lambda: len(_children(proc.pid)) == 2, "the workers never started")
        proc.stdout.readline()  # at work
        workers = _children(proc.pid)
        proc.send_signal(signum)
        proc.wait(timeout=HANG)
        err = proc.stderr.read()
    finally:
        proc.kill()
        feeder.join(timeout=HANG)
        with contextlib.suppress(OSError):
            stdin.close()
    return proc.returncode, err, workers


@pytest.mark.slow
def test_I3_jobs_workers_die_with_the_main_process(record: Path) -> None:
    """SIGKILL: no handler of pan runs, the kernel (or the ends of their pipes) end the workers."""
    status, _, workers = _signalled_at_work(record, signal.SIGKILL)
    assert status == -signal.SIGKILL
    _wait_for(lambda: not any(_alive(w) for w in workers), "a worker outlived the main process")


@pytest.mark.parametrize("signum", [signal.SIGHUP, signal.SIGTERM, signal.SIGINT])
def test_a_signal_ends_replay_jobs_quietly_and_its_workers_with_it(record: Path, signum: int) -> None:
    status, err, workers = _signalled_at_work(record, signum)
    # the record's own P8 ruling may be judged and written before the signal comes (a fast
    # machine): that line is pan's output, not noise; anything else is
    noise = [line for line in err.splitlines() if not re.fullmatch(rb"-:\d+:\d+: P8 .*", line)]
    assert (status, noise) == (128 + signum, [])
    assert not any(_alive(w) for w in workers)  # killed and reaped before pan ended


def _random_hangups(args: list[str], target: Path, old: str, rng: random.Random, tries: int) -> set[int]:
    """Run ``pan ARGS`` ``tries`` times, each hung up at a random moment of its run; the target
    is always the old text or the whole new one, and no temporary file is left."""
    command = [sys.executable, "-m", "pancli", *args]
    target.write_text(old, encoding="utf-8")
    started = time.monotonic()
    assert subprocess.run(command, cwd=ROOT, timeout=HANG, capture_output=True).returncode in (0, 1)
    took = time.monotonic() - started
    new = target.read_text(encoding="utf-8")
    statuses = set()
    for _ in range(tries):
        target.write_text(old, encoding="utf-8")
        proc = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        time.sleep(rng.uniform(0.0, took * 1.2))
        proc.send_signal(signal.SIGHUP)
        _, err = proc.communicate(timeout=HANG)
        statuses.add(proc.returncode)
        # (-SIGHUP: hung up while Python was starting, before pan's handler: nothing written yet)
        assert proc.returncode in (0, 1, 129, -signal.SIGHUP) and b"Traceback" not in err, err
        assert target.read_text(encoding="utf-8") in (old, new)
        assert sorted(p.name for p in target.parent.iterdir() if p.name.endswith(".tmp")) == []
    return statuses


@pytest.mark.slow
def test_SIGHUP_during_fmt_write_and_simulate_o_leaves_no_temporary_file(tmp_path: Path) -> None:
    rng = random.Random(20)
    games = tmp_path / "games.pan"
    old = CliRunner().invoke(cli, ["simulate", "-n", "5", "-k", "40", "-s", "2"]).stdout.replace("deal ", "deal  ")
    _random_hangups(["fmt", "--write", str(games)], games, old, rng, 3)
    out = tmp_path / "out.pan"
    _random_hangups(["simulate", "-n", "5", "-k", "40", "-s", "3", "-o", str(out)], out, "old\n", rng, 3)


def test_SIGHUP_while_a_command_runs_is_status_129_quietly() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "pancli", "simulate", "--hands", "100000"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
    )
    assert proc.stdout is not None
    try:
        assert proc.stdout.readline()
        proc.send_signal(signal.SIGHUP)
        _, err = proc.communicate(timeout=HANG)
    finally:
        proc.kill()
    assert (proc.returncode, err) == (129, b"")


class _HungUp(Exception):
    pass


def _hang_up(signum: int, frame: object) -> None:
    raise _HungUp(signum)


def _signal_blocked(pid: int | str) -> str:
    """The signals a process holds (``SigBlk`` of /proc/PID/status, a hexadecimal mask)."""
    status = Path(f"/proc/{pid}/status").read_text()
    return re.search(r"^SigBlk:\s*(\S+)", status, re.M).group(1)  # type: ignore[union-attr]


def test_a_hang_up_just_as_a_worker_is_forked_still_ends_and_reaps_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """A signal that came between ``os.fork`` and the worker's listing left the worker out of
    the workers the main process ends and reaps. It now waits until the worker is listed."""
    from pancli.app.workers import Workers

    forked: list[int] = []
    fork = os.fork

    def fork_then_hung_up() -> int:
        pid = fork()
        if pid:
            forked.append(pid)
            signal.pthread_kill(threading.get_ident(), signal.SIGHUP)  # to this thread: the one forking
        return pid

    monkeypatch.setattr(os, "fork", fork_then_hung_up)
    before = signal.signal(signal.SIGHUP, _hang_up)
    left = []
    try:
        with pytest.raises(_HungUp), Workers(2, abs, int, note=lambda _: None) as pool:
            list(pool.results(range(-3, 3), abs))
    finally:
        signal.signal(signal.SIGHUP, before)
        for pid in forked:
            try:
                os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                continue  # reaped by pan
            left.append(pid)
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
    assert forked == forked[:1] and left == []


def test_a_worker_holds_the_signals_the_main_process_held_before_it_forked() -> None:
    """The main process holds the stopping signals while it forks; the worker, which inherits
    that mask, puts back the one from before once its own handlers are set: SIGTERM still ends it."""
    from pancli.app.workers import Workers

    mine = _signal_blocked("self")
    with Workers(1, abs, int, note=lambda _: None) as pool:
        assert [r for _, r in pool.results([-1], abs)] == [1]  # the worker is at its work: past its set-up
        (worker,) = _children(os.getpid())
        assert _signal_blocked(worker) == mine
