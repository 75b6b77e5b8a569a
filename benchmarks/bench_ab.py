"""A/B benchmark of two source trees of pan, run alternately in one run (machines drift: compare
the ratio, not the absolute figures).

Each tree is a checkout of the repository (``git worktree add`` or ``git archive REV | tar -x``);
its ``pancli`` is the one imported, because every command runs with the tree as its working
folder (the folder comes first on ``sys.path`` for ``python -m pancli``). Run from anywhere::

    python benchmarks/bench_ab.py OLD_TREE NEW_TREE                # 5,000 hands, 5 rounds
    python benchmarks/bench_ab.py OLD_TREE NEW_TREE --hands 20000 --rounds 7
    python benchmarks/bench_ab.py OLD_TREE NEW_TREE --also MAIN_TREE --only replay

It measures, whole process, stdin from a file and stdout to nothing, alternating A and B (and
which goes first) each round; the median of the rounds is kept, of the wall time and of the
CPU time (user + system) of the process: on a shared machine the CPU time is the steadier
ratio, since waiting for a core does not count in it. ``--also TREE`` times more trees in the
same rounds (each against A). Every tree runs with its ``.pyc`` files written and read, as an
installed program does (``PYTHONDONTWRITEBYTECODE`` is dropped for the runs, and each command
runs once untimed first): otherwise a tree never run before compiles every module each run.

1. ``pan replay -`` over N simulated 6-player hands (hands/s);
2. ``pan replay --jobs 2 -`` over the same hands (hands/s);
3. ``pan check -`` over 200,000 random 3-5 card lines, nearly all distinct and most illegal
   (the worst case of ``benchmarks/bench_check.py``; melds/s);
4. ``pan replay`` and ``pan standings`` over N PAGRUC hands of 3 to 8 players played by the
   self-play of ``tests/pagruc_selfplay.py`` (``--pagruc-hands``, default 1,000; hands/s);
5. ``pan simulate`` of the N 6-player hands of case 1 (hands/s; each played on the referee's
   table, written as text).
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

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from bench_check import random_lines
from pagruc_selfplay import NAMES, selfplay_hand


def pagruc_hands(n: int) -> str:
    """``n`` legal PAGRUC hands of 3 to 8 players, one record."""
    import random

    rng = random.Random(1)
    return "\n".join(selfplay_hand(tuple(rng.sample(NAMES, rng.randint(3, 8))), rng) for _ in range(n))


ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def wall(tree: Path, args: list[str], stdin: Path) -> tuple[float, float]:
    """Wall and CPU seconds of one whole-process run of ``pan ARGS < stdin`` with ``tree``'s pancli."""
    with stdin.open("rb") as f:
        before = os.times()
        t = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "pancli", *args],
            cwd=tree,
            stdin=f,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=ENV,
        )
        elapsed = time.perf_counter() - t
        after = os.times()
        cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
        return elapsed, cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("old", type=Path, help="tree A (the previous main)")
    ap.add_argument("new", type=Path, help="tree B (the change)")
    ap.add_argument("--also", type=Path, action="append", default=[], help="another tree timed in the same rounds")
    ap.add_argument("--hands", type=int, default=5000, help="simulated 6-player hands (default 5,000)")
    ap.add_argument("--pagruc-hands", type=int, default=1000, help="PAGRUC hands (default 1,000)")
    ap.add_argument("--only", action="append", default=[], help="run only the cases of this name (repeatable)")
    ap.add_argument("--rounds", type=int, default=5, help="runs of each command per tree (median kept)")
    opts = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        record = Path(tmp) / "hands.pan"
        sim = ["simulate", "-n", "6", "-k", str(opts.hands), "-s", "1"]
        text = subprocess.run([sys.executable, "-m", "pancli", *sim], cwd=opts.new, capture_output=True, text=True)
        record.write_text(text.stdout, encoding="utf-8")
        melds = Path(tmp) / "melds.txt"
        melds.write_text(random_lines(200_000), encoding="utf-8")
        pagruc = Path(tmp) / "pagruc.pan"
        pagruc.write_text(pagruc_hands(opts.pagruc_hands), encoding="utf-8")
        cases = [
            ("replay", ["replay", "-"], record, opts.hands, "hands/s"),
            ("replay --jobs 2", ["replay", "--jobs", "2", "-"], record, opts.hands, "hands/s"),
            ("check - (worst case)", ["check", "-"], melds, 200_000, "melds/s"),
            ("replay pagruc", ["replay", "-"], pagruc, opts.pagruc_hands, "hands/s"),
            ("standings", ["standings", "-"], pagruc, opts.pagruc_hands, "hands/s"),
            ("simulate", [*sim, "-q"], record, opts.hands, "hands/s"),
        ]
        trees = [opts.old, opts.new, *opts.also]
        for name, args, data, n, unit in cases:
            if opts.only and name not in opts.only:
                continue
            times: dict[Path, list[float]] = {tree: [] for tree in trees}
            cpus: dict[Path, list[float]] = {tree: [] for tree in trees}
            for tree in trees:
                wall(tree, args, data)  # its .pyc written, its caches warm
            for r in range(opts.rounds):
                order = trees if r % 2 == 0 else trees[::-1]
                for tree in order:
                    t, cpu = wall(tree, args, data)
                    times[tree].append(t)
                    cpus[tree].append(cpu)
            a, ca = statistics.median(times[opts.old]), statistics.median(cpus[opts.old])
            for label, tree in [("B", opts.new), *((f"C{i}", t) for i, t in enumerate(opts.also, 1))]:
                b, cb = statistics.median(times[tree]), statistics.median(cpus[tree])
                print(
                    f"{name:22s} A {n / a:12,.0f} {unit}   {label} {n / b:12,.0f} {unit}   {label}/A time {b / a:.3f}"
                    f"   {label}/A cpu {cb / ca:.3f} ({ca:.2f} s, {cb:.2f} s)",
                    flush=True,
                )


if __name__ == "__main__":
    main()
