"""Streaming output: ``pan check --json -`` and ``--jsonl -`` against the plain
``pan check -`` over the same generated meld lines, whole process, stdin from a file and stdout a
pipe drained by this script; CPU time (user + system of the process, ``os.wait4``) and peak
memory through GNU time (``/usr/bin/time -f %M``).

Run from the repository root (the package installed, e.g. ``pip install -e .``)::

    python benchmarks/bench_stream.py                  # 1,000,000 lines, 3 rounds
    python benchmarks/bench_stream.py --lines 200000 --rounds 5
    python benchmarks/bench_stream.py --against ../old --random   # another tree in the same rounds

Each round runs the three commands once (of each tree), in an order that turns from round to
round; the medians are compared (targets: JSON at least a third of the plain output's speed, i.e.
at most 3x its time, and peak RSS under 100 MB). On a shared machine the CPU ratio is the steadier
one. The input is ``bench_check.generate`` (ropes, sets, random triples; about 6% of the lines
distinct), or with ``--random`` ``bench_check.random_lines`` (3 to 5 random cards, nearly all
distinct and illegal). ``--against TREE`` times another source tree of pan alongside (``python -m
pancli`` with the tree as its working folder, as ``bench_ab.py`` runs it; this tree then runs the
same way).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_check import generate, random_lines

MODES = {"plain": [], "--json": ["--json"], "--jsonl": ["--jsonl"]}
HERE = Path(__file__).resolve().parent.parent
TIME = "/usr/bin/time"


def run(pan: list[str], cwd: Path | None, extra: list[str], source: Path) -> tuple[float, float, int | None, int]:
    """Wall time, CPU time (user + system), peak RSS in KB (None without GNU time) and bytes
    written, of one run. The peak comes from GNU time: the child's own counter would start
    from this script's size (Linux keeps it across the fork and exec)."""
    gnu_time = [TIME, "-f", "%M", "-o", str(source) + ".rss"] if Path(TIME).exists() else []
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    with source.open("rb") as stdin:
        start = time.perf_counter()
        proc = subprocess.Popen([*gnu_time, *pan, "check", *extra, "-"], stdin=stdin, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, env=env, cwd=cwd)  # fmt: skip
        assert proc.stdout is not None
        size = 0
        while chunk := proc.stdout.read(1 << 20):
            size += len(chunk)
        _, status, usage = os.wait4(proc.pid, 0)  # GNU time's usage holds its child's
        proc.returncode = os.waitstatus_to_exitcode(status)
        elapsed = time.perf_counter() - start
    rss = int(Path(str(source) + ".rss").read_text().split()[-1]) if gnu_time else None
    return elapsed, usage.ru_utime + usage.ru_stime, rss, size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--lines", type=int, default=1_000_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--random", action="store_true", help="random 3-5 card lines, nearly all distinct")
    parser.add_argument("--against", type=Path, help="another source tree timed in the same rounds")
    args = parser.parse_args()
    trees: dict[str, tuple[list[str], Path | None]] = {}
    if args.against is None:
        pan = shutil.which("pan")
        if pan is None:
            sys.exit("bench_stream: install the package first (pip install -e .)")
        trees["this tree"] = ([pan], None)
    else:
        trees["this tree"] = ([sys.executable, "-m", "pancli"], HERE)
        trees[str(args.against)] = ([sys.executable, "-m", "pancli"], args.against.resolve())
    runs = [(tree, mode) for tree in trees for mode in MODES]
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "melds.txt"
        source.write_text((random_lines if args.random else generate)(args.lines), encoding="utf-8")
        walls: dict[tuple[str, str], list[float]] = {r: [] for r in runs}
        cpus: dict[tuple[str, str], list[float]] = {r: [] for r in runs}
        peaks: dict[tuple[str, str], list[int]] = {r: [] for r in runs}
        sizes: dict[tuple[str, str], int] = {}
        for pan, cwd in trees.values():  # .pyc files written, the file cache warm
            run(pan, cwd, [], source)
        for r in range(args.rounds):
            for key in runs[r % len(runs) :] + runs[: r % len(runs)]:
                pan, cwd = trees[key[0]]
                elapsed, cpu, rss, size = run(pan, cwd, MODES[key[1]], source)
                walls[key].append(elapsed)
                cpus[key].append(cpu)
                if rss is not None:
                    peaks[key].append(rss)
                sizes[key] = size
    kind = "random lines" if args.random else "generated lines"
    print(f"pan check over {args.lines:,} {kind}, whole process, median of {args.rounds} (rounds interleaved):")
    for tree in trees:
        print(f" {tree}:")
        plain_wall = statistics.median(walls[(tree, "plain")])
        plain_cpu = statistics.median(cpus[(tree, "plain")])
        for mode in MODES:
            key = (tree, mode)
            t = statistics.median(walls[key])
            line = f"  {mode:8} wall {t:6.2f} s {args.lines / t:>10,.0f} melds/s, ratio to plain {t / plain_wall:4.2f}"
            c = statistics.median(cpus[key])
            line += f"; CPU {c:6.2f} s {args.lines / c:>10,.0f} melds/s, ratio {c / plain_cpu:4.2f}"
            if peaks[key]:
                line += f"; {max(peaks[key]) / 1024:5.1f} MB peak RSS"
            print(line + f"; {sizes[key] / 1e6:6.1f} MB out")
    print("targets: --json and --jsonl at most 3.00x the plain time, peak RSS under 100 MB")


if __name__ == "__main__":
    main()
