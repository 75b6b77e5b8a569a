"""``pan replay``, ``pan replay --json`` and ``pan replay --jsonl`` over the same simulated hands,
whole process, run alternately in one run (targets: ``--jsonl`` at most 1.2x plain replay,
``--json`` at most 1.05x); optionally the same three in a second source tree, to compare.

Run from anywhere with the package's dependencies installed::

    python benchmarks/bench_json.py                          # 2,000 hands, 3 rounds, this tree
    python benchmarks/bench_json.py --hands 5000 --rounds 5 --against /tmp/old-tree
    python benchmarks/bench_json.py --jobs 2 --against /tmp/old-tree   # each form with --jobs 2

Each command runs with a tree as its working folder (``python -m pancli``, so that tree's
``pancli`` is the one imported), standard input a file of ``pan simulate -n 6 -s 1`` hands and
standard output to nothing. Every round runs each (tree, mode) once, the order turning from round
to round; the medians of the wall time and of the CPU time (user + system: the steadier figure on
a shared machine) are kept, and each mode's time is given as a multiple of the same tree's plain
replay. The outputs of the trees are compared byte for byte once, first. Run it with
PYTHONDONTWRITEBYTECODE unset: a tree without compiled byte code compiles every module on each run.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
MODES: dict[str, list[str]] = {"plain": [], "--json": ["--json"], "--jsonl": ["--jsonl"]}


def run(tree: Path, extra: list[str], record: Path) -> tuple[float, float]:
    """Wall and CPU seconds of one ``pan replay [extra] - < record > /dev/null`` with ``tree``'s pancli."""
    with record.open("rb") as f:
        before = os.times()
        t = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "pancli", "replay", *extra, "-"],
            cwd=tree,
            stdin=f,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            check=False,
        )
        wall = time.perf_counter() - t
        after = os.times()
    return wall, (after.children_user - before.children_user) + (after.children_system - before.children_system)


def output(tree: Path, extra: list[str], record: Path) -> bytes:
    """What ``pan replay [extra] -`` writes to standard output."""
    with record.open("rb") as f:
        return subprocess.run(
            [sys.executable, "-m", "pancli", "replay", *extra, "-"], cwd=tree, stdin=f, capture_output=True, check=False
        ).stdout


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=2000, help="simulated 6-player hands (default 2,000)")
    ap.add_argument("--rounds", type=int, default=3, help="runs of each command (median kept, default 3)")
    ap.add_argument("--against", type=Path, default=None, help="a second source tree, measured alongside")
    ap.add_argument("--jobs", type=int, default=0, help="run every form with --jobs N (worker processes)")
    opts = ap.parse_args()
    if opts.jobs:
        for extra in MODES.values():
            extra += ["--jobs", str(opts.jobs), "-q"]
    trees = [HERE] + ([opts.against] if opts.against is not None else [])
    with tempfile.TemporaryDirectory() as tmp:
        record = Path(tmp) / "hands.pan"
        sim = ["simulate", "-n", "6", "-k", str(opts.hands), "-s", "1"]
        text = subprocess.run([sys.executable, "-m", "pancli", *sim], cwd=HERE, capture_output=True, check=True).stdout
        record.write_bytes(text)
        if opts.against is not None:
            for mode, extra in MODES.items():
                same = output(HERE, extra, record) == output(opts.against, extra, record)
                print(f"output of {mode:8s} the same in both trees: {same}")
        runs = [(tree, mode) for tree in trees for mode in MODES]
        walls: dict[tuple[Path, str], list[float]] = {r: [] for r in runs}
        cpus: dict[tuple[Path, str], list[float]] = {r: [] for r in runs}
        for r in range(opts.rounds):
            order = runs[r % len(runs) :] + runs[: r % len(runs)]
            for tree, mode in order if r % 2 == 0 else order[::-1]:
                wall, cpu = run(tree, MODES[mode], record)
                walls[tree, mode].append(wall)
                cpus[tree, mode].append(cpu)
        print(f"pan replay of {opts.hands:,} simulated 6-player hands, whole process, median of {opts.rounds}:")
        for tree in trees:
            name = "this tree" if tree == HERE else str(tree)
            w0 = statistics.median(walls[tree, "plain"])
            c0 = statistics.median(cpus[tree, "plain"])
            for mode in MODES:
                w = statistics.median(walls[tree, mode])
                c = statistics.median(cpus[tree, mode])
                print(
                    f"  {name:12s} {mode:8s} wall {w:7.2f} s ({w / w0:4.2f}x plain)"
                    f"   cpu {c:7.2f} s ({c / c0:4.2f}x plain)   {opts.hands / c:8,.0f} hands/cpu-s",
                    flush=True,
                )
        print("targets: --json <= 1.05x plain, --jsonl <= 1.2x plain")


if __name__ == "__main__":
    main()
