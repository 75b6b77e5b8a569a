"""Benchmark of the batch commands over standard input: ``pan check -``, ``pay -``,
``score -`` and ``analyze -`` read N short lines each, in a pipe, and the time must grow linearly
with N (the same per-line cost at N and at 10 N), with pay and score within 3 times check.

Run from the repository root (the package installed)::

    python benchmarks/bench_batch.py                 # 100,000 and 1,000,000 lines
    python benchmarks/bench_batch.py --lines 20000 200000 --runs 3
    python benchmarks/bench_batch.py --against ../old   # another source tree in the same runs

Runs are interleaved (check, pay, score, analyze, check, ...) and each figure is the median CPU
time (user + system) of the child process, which the machine's load disturbs less than the wall
clock; the ratio to ``pan check -`` of the same N is printed, and the cost per line. Pathological
lines (``{...}`` comments and ``[`` brackets, all distinct) are timed against ordinary distinct
lines (random cards) through ``check``, ``pay`` and ``score``.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time

MELDS = ["5sss", "3-5h", "5s 5s 5s", "7c 7s 7s", "J-Kc", "As 2s 3s", "Kh Kd Ks", "2h 3h 4h 5h"]
SCORES = ["[2-4s] | Kh", "| As Ad", "[5h 6h 7h] [Ac Ad As] | Ks Ah", "[8c 9c 10c] | Qd 2s", "[Kh Kd Ks] | 2c 3c"]
COMMANDS = {
    "check": (["check", "-"], MELDS),
    "pay": (["pay", "-"], MELDS),
    "score": (["score", "-"], SCORES),
    "analyze": (["analyze", "-"], MELDS),
}


def _file(lines: list[str], n: int, seed: int = 1) -> str:
    rng = random.Random(seed)
    fd, path = tempfile.mkstemp(suffix=".txt")
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write("".join(rng.choice(lines) + "\n" for _ in range(n)))
    return path


def _cpu(args: list[str], path: str, tree: str | None = None) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of ``pan ARGS < path > /dev/null`` (``python -m pancli`` in
    ``tree``, which is then the ``pancli`` imported, or in the current folder)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    with open(path, "rb") as stdin:
        subprocess.run([sys.executable, "-m", "pancli", *args], stdin=stdin, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, check=False, cwd=tree)  # fmt: skip
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lines", type=int, nargs="+", default=[100_000, 1_000_000])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--against", help="another source tree timed in the same runs (each tree its own pancli)")
    opts = parser.parse_args()
    trees: list[str | None] = [None]
    if opts.against:
        trees = [os.path.dirname(os.path.dirname(os.path.abspath(__file__))), os.path.abspath(opts.against)]
    for n in opts.lines:
        files = {name: _file(lines, n) for name, (_, lines) in COMMANDS.items()}
        times: dict[tuple[str | None, str], list[float]] = {(t, name): [] for t in trees for name in COMMANDS}
        for _ in range(opts.runs):
            for name, (args, _) in COMMANDS.items():
                for tree in trees:
                    times[(tree, name)].append(_cpu(args, files[name], tree)[0])
        for tree in trees:
            base = statistics.median(times[(tree, "check")])
            print(f"{n:,} lines (median CPU of {opts.runs} interleaved runs){f', {tree}' if tree else ''}")
            for name in COMMANDS:
                t = statistics.median(times[(tree, name)])
                print(f"  pan {name:8} {t:7.2f} s  {t / n * 1e6:6.2f} us/line  {t / base:5.2f} x check")
        for path in files.values():
            os.unlink(path)
    n = min(opts.lines)
    print(f"{n:,} distinct lines each, pathological against ordinary (median CPU of {opts.runs})")
    for name, ordinary in (("check", _random_melds), ("pay", _random_melds), ("score", _random_scores)):
        odd = {
            "ordinary": ordinary(n),
            "{comment N}": [f"{{comment {i}}}" for i in range(n)],
            "[N": [f"[{i}" for i in range(n)],
        }
        for label, lines in odd.items():
            fd, path = tempfile.mkstemp(suffix=".txt")
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                out.write("\n".join(lines) + "\n")
            for tree in trees:
                t = statistics.median(_cpu([name, "-"], path, tree)[0] for _ in range(opts.runs))
                print(f"  pan {name:6} {label:12} {t:7.2f} s  {t / len(lines) * 1e6:6.2f} us/line  {tree or ''}")
            os.unlink(path)


_RANKS = ["A", "2", "3", "4", "5", "6", "7", "J", "Q", "K"]


def _card(rng: random.Random) -> str:
    return rng.choice(_RANKS) + rng.choice("shdc")


def _random_melds(n: int, seed: int = 2) -> list[str]:
    """Random 3-5 card lines, nearly all distinct (and most illegal)."""
    rng = random.Random(seed)
    return [" ".join(_card(rng) for _ in range(rng.randint(3, 5))) for _ in range(n)]


def _random_scores(n: int, seed: int = 2) -> list[str]:
    """Random ``[meld] | hand`` lines, nearly all distinct (most melds illegal)."""
    rng = random.Random(seed)
    return [f"[{_card(rng)} {_card(rng)} {_card(rng)}] | {_card(rng)} {_card(rng)}" for _ in range(n)]


if __name__ == "__main__":
    main()
