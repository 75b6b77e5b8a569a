"""Streaming output: ``pan check --json -`` and ``--jsonl -`` against the plain
``pan check -`` over the same generated meld lines, whole process, stdin from a file and stdout a
pipe drained by this script; peak memory through GNU time (``/usr/bin/time -f %M``).

Run from the repository root (the package installed, e.g. ``pip install -e .``)::

    python benchmarks/bench_stream.py                  # 1,000,000 lines, 3 rounds
    python benchmarks/bench_stream.py --lines 200000 --rounds 5

Each round runs the three commands once, in an order that turns from round to round; the medians
are compared (targets: JSON at least a third of the plain output's speed, i.e. at most 3x its
time, and peak RSS under 100 MB). The input is ``bench_check.generate`` (ropes, sets, random
triples; about 6% of the lines distinct).
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
from bench_check import generate

MODES = {"plain": [], "--json": ["--json"], "--jsonl": ["--jsonl"]}


def run(pan: str, extra: list[str], source: Path, gnu_time: str | None) -> tuple[float, int | None, int]:
    """Wall time, peak RSS in KB (None without GNU time) and bytes written, of one run."""
    prefix = [gnu_time, "-f", "%M", "-o", str(source) + ".rss"] if gnu_time else []
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    with source.open("rb") as stdin:
        start = time.perf_counter()
        proc = subprocess.Popen([*prefix, pan, "check", *extra, "-"], stdin=stdin, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, env=env)  # fmt: skip
        assert proc.stdout is not None
        size = 0
        while chunk := proc.stdout.read(1 << 20):
            size += len(chunk)
        proc.wait()
        elapsed = time.perf_counter() - start
    rss = int(Path(str(source) + ".rss").read_text().split()[-1]) if gnu_time else None
    return elapsed, rss, size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--lines", type=int, default=1_000_000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    pan = shutil.which("pan")
    if pan is None:
        sys.exit("bench_stream: install the package first (pip install -e .)")
    gnu_time = "/usr/bin/time" if Path("/usr/bin/time").exists() else None
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "melds.txt"
        source.write_text(generate(args.lines), encoding="utf-8")
        times: dict[str, list[float]] = {m: [] for m in MODES}
        peaks: dict[str, list[int]] = {m: [] for m in MODES}
        sizes: dict[str, int] = {}
        names = list(MODES)
        for r in range(args.rounds):
            for mode in names[r % 3 :] + names[: r % 3]:
                elapsed, rss, size = run(pan, MODES[mode], source, gnu_time)
                times[mode].append(elapsed)
                if rss is not None:
                    peaks[mode].append(rss)
                sizes[mode] = size
    plain = statistics.median(times["plain"])
    print(f"pan check over {args.lines:,} lines, whole process, median of {args.rounds} (rounds interleaved):")
    for mode in MODES:
        t = statistics.median(times[mode])
        peak = f"{max(peaks[mode]) / 1024:6.1f} MB peak RSS" if peaks[mode] else "(no GNU time)"
        print(
            f"  {mode:8} {t:6.2f} s  {args.lines / t:>10,.0f} melds/s  {sizes[mode] / 1e6:7.1f} MB out  {peak}"
            f"  time ratio to plain {t / plain:4.2f}"
        )
    print("targets: --json and --jsonl at most 3.00x the plain time, peak RSS under 100 MB")


if __name__ == "__main__":
    main()
