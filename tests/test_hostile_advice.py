"""``pan analyze --advice`` (T1, T2) in memory that does not grow with ``--samples``, within a bound on
``--samples``, and ended at once by a signal.

Before: 10,000 samples took 771 MB and 20,000 1.5 GB (the simulation's policy remembered every
position it met), ``--samples`` went to 1,000,000, a memory limit gave a MemoryError traceback.
"""

from __future__ import annotations

import resource
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from cli_kit import ROOT, pan

from pancli import limits
from pancli.analyze import advice
from pancli.analyze.analysis import analyze
from pancli.analyze.odds import Policy
from pancli.notation import parse_meld
from pancli.panrules import PanRules
from pancli.rules import CARDROOM, HOYLE, Profile

HAND = "5s 5s 5s 3h 4h 5h Kd Kh 7c 2c"


class CountingPolicy(Policy):
    """A policy that records how many were made and the most positions any remembered."""

    made = 0
    most = 0

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        CountingPolicy.made += 1

    def move(self, nid: int, slot: int) -> int:
        CountingPolicy.most = max(CountingPolicy.most, self.remembered)
        return super().move(nid, slot)


@pytest.mark.parametrize("profile", [HOYLE, CARDROOM], ids=["hoyle", "cardroom"])
def test_T1_T2_advice_remembers_a_bounded_number_of_positions_and_advises_the_same(
    profile: Profile, monkeypatch: pytest.MonkeyPatch
) -> None:
    a = analyze(parse_meld(HAND), profile, players=4, samples=50)
    remembering_all = advice.advise(a, PanRules(profile), samples=300, seed=7, memo=10**9)
    monkeypatch.setattr(advice, "Policy", CountingPolicy)
    CountingPolicy.made = CountingPolicy.most = 0
    bounded = advice.advise(a, PanRules(profile), samples=300, seed=7, memo=150)
    assert bounded == remembering_all  # the memos are only memos: every sample plays the same
    assert CountingPolicy.made > 3, "the policy started afresh as it passed the bound"
    assert CountingPolicy.most < 150 + 200  # the bound, plus what one sample adds before it is checked
    # remembering all, 300 samples remember thousands of positions: the growth the bound stops
    CountingPolicy.most = 0
    advice.advise(a, PanRules(profile), samples=300, seed=7, memo=10**9)
    assert CountingPolicy.most > 2000
    assert advice.POLICY_NODES == 5_000


def test_T1_samples_past_the_limit_is_a_usage_error() -> None:
    r = pan("analyze", HAND, "--advice", "--samples", str(limits.MAX_SAMPLES + 1))
    assert r.exit_code == 2 and "1<=x<=100000" in r.stderr
    assert "1 to 100,000" in pan("analyze", "--help").stdout


def _pan(*args: str) -> list[str]:
    return [sys.executable, "-m", "pancli", *args]


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / 100


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads a process's CPU time from /proc")
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
@pytest.mark.parametrize("cpu", [0.5, 1.5])
def test_T1_advice_of_the_most_samples_ends_at_once_on_a_signal(signum: int, cpu: float) -> None:
    """Sent as the analysis starts or well into the simulation (by the process's own CPU time, not the clock's),
    the signal ends pan quietly with 128 + its number."""
    args = _pan("analyze", HAND, "--advice", "--samples", str(limits.MAX_SAMPLES))
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    try:
        while _cpu_seconds(proc.pid) < cpu and proc.poll() is None:
            time.sleep(0.02)
        assert proc.poll() is None, "the simulation of 100,000 samples is still at work"
        proc.send_signal(signum)
        _out, err = proc.communicate(timeout=30)  # at once: the loop checks between samples
    finally:
        proc.kill()
        proc.wait()
    assert (proc.returncode, err) == (128 + signum, b"")


def _limited(megabytes: int) -> Callable[[], None]:
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (megabytes << 20, megabytes << 20))

    return limit


@pytest.mark.slow
def test_T1_advice_of_thousands_of_samples_runs_under_a_memory_limit() -> None:
    """Under 100 MB of address space: 3,000 samples once needed about 130 MB and ended in a
    MemoryError traceback; the positions remembered are bounded now."""
    args = _pan("analyze", HAND, "--advice", "--samples", "3000", "--json")
    p = subprocess.run(args, capture_output=True, cwd=ROOT, preexec_fn=_limited(100), timeout=300)
    assert p.returncode == 0, p.stderr.decode()[-500:]
    assert b"advice" in p.stdout


def test_out_of_memory_is_a_message_and_status_2_not_a_traceback() -> None:
    """A limit too small for the work: pan says so, without a traceback."""
    code = "import sys; sys.argv = ['pan', 'analyze', '--samples', '20', sys.argv[1]]; "
    code += "import pancli.cli as c; c.cli.main = lambda **k: bytearray(1 << 40); c.main()"
    p = subprocess.run([sys.executable, "-c", code, HAND], capture_output=True, cwd=ROOT, timeout=60)
    assert (p.returncode, p.stderr) == (2, b"pan: out of memory\n")
