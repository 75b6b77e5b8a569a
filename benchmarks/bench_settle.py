"""Benchmark of ``pan settle``: time against ``pan replay``, and memory.

Run from the repository root (the package installed, e.g. ``pip install -e .``)::

    nice -n 19 python benchmarks/bench_settle.py                 # 100,000 hands, 3 runs each
    python benchmarks/bench_settle.py --hands 20000 --repeat 1
    python benchmarks/bench_settle.py --hands 20000 --copies 5 --repeat 1   # 100,000 hands

Inputs are generated once and cached under ``benchmarks/out/`` (``replay-6p-N.pan``: N hands
of ``pan simulate --players 6 --seed 1``, shared with ``bench_replay.py``; ``--copies K`` makes
the input K copies of it, one after the other: K times the hands without K times the wait to
simulate them, the hands repeating only after ``--hands``). It prints, measured
in the same run (machines are noisy: compare ratios), ``pan settle FILE`` against ``pan replay
FILE`` (plain text), whole process, stdout to nothing, run alternately: the median of
``--repeat`` runs each, wall and CPU time (on a shared machine the CPU time is the steadier),
their ratios (target: settle within 1.2 times replay) and each one's peak resident memory (run
it with two sizes to see that it does not grow with the hands). The HTML report's benchmark is
``bench_html.py``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_replay import env, pan_command, simulated


def run(cmd: list[str]) -> tuple[float, float, float]:
    """Seconds ``cmd`` takes (output thrown away), its CPU seconds and its peak resident memory in MB."""
    t = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env())
    _, status, usage = os.wait4(p.pid, 0)
    took = time.perf_counter() - t
    p.returncode = os.waitstatus_to_exitcode(status)  # reaped here, for its memory figure
    return took, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def copies(source: Path, k: int) -> Path:
    """``k`` copies of the record ``source`` in one file (a blank line between), made once."""
    if k == 1:
        return source
    path = source.with_name(f"{source.stem}-x{k}.pan")
    if not path.exists():
        data = source.read_bytes().rstrip(b"\n") + b"\n\n"
        tmp = path.with_suffix(".tmp")
        with tmp.open("wb") as f:
            for _ in range(k):
                f.write(data)
        tmp.rename(path)
    return path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, default=100_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--copies", type=int, default=1, help="the input is this many copies of the simulated hands")
    args = ap.parse_args()
    pan = pan_command()
    big = copies(simulated(args.hands), args.copies)
    hands = args.hands * args.copies
    cmds = {"replay": [*pan, "replay", str(big)], "settle": [*pan, "settle", str(big)]}
    times: dict[str, list[float]] = {k: [] for k in cmds}
    cpus: dict[str, list[float]] = {k: [] for k in cmds}
    rss: dict[str, list[float]] = {k: [] for k in cmds}
    for _ in range(args.repeat):
        for k, cmd in cmds.items():
            took, cpu, mb = run(cmd)
            times[k].append(took)
            cpus[k].append(cpu)
            rss[k].append(mb)
    t = {k: statistics.median(v) for k, v in times.items()}
    c = {k: statistics.median(v) for k, v in cpus.items()}
    print(f"{hands:,} hands ({big.stat().st_size / 1e6:.0f} MB), whole process, median of {args.repeat}:")
    for k in cmds:
        print(f"   pan {k:7} {t[k]:8.2f} s wall {c[k]:8.2f} s CPU   peak RSS {max(rss[k]):6.1f} MB")
    ratio, cpu_ratio = t["settle"] / t["replay"], c["settle"] / c["replay"]
    print(f"   settle / replay = {ratio:.2f} wall, {cpu_ratio:.2f} CPU (target <= 1.2)")


if __name__ == "__main__":
    main()
