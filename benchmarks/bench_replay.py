"""Benchmark of ``pan replay``: whole-process hands/s and peak memory.

Run from the repository root (the package installed, e.g. ``pip install -e .``)::

    python benchmarks/bench_replay.py                     # 100,000 hands, median of 3 runs
    python benchmarks/bench_replay.py --hands 20000 --repeat 1
    python benchmarks/bench_replay.py --memory            # and the 1 GB file (several minutes)

Inputs are generated once and cached under ``benchmarks/out/``: ``replay-6p-N.pan`` (N hands
of ``pan simulate --players 6 --seed 1``) and ``replay-1gb.pan`` (that file repeated until it
reaches the size asked, ``--memory-gb``). It prints, all measured in the same run (machines
are noisy: compare ratios):

1. a plain line-splitting reader over the file (``for line in f: line.split()``), whole process:
   the floor any reader of the text pays;
2. ``pan replay FILE`` (plain text), ``pan replay --json FILE`` and ``pan replay --jobs 2 FILE``,
   stdout to nothing, whole process: hands/s (target >= 3,000; aim 5,000) and the ratio of the
   time to (1); runs interleaved, the median of ``--repeat`` runs kept;
3. where the time goes, in process, streaming as ``pan replay`` does (nothing kept): reading the
   records (``read_hands``), reading and refereeing them (``referee_script`` without steps), and
   the plain text as well; each stage's cost is the difference to the previous one;
4. with ``--memory``: peak memory (max RSS of the child, from ``os.wait4``'s resource usage) of
   ``pan replay`` over the 1 GB file (target < 100 MB), with the hands/s of that run.
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

OUT = Path(__file__).resolve().parent / "out"

SPLITTER = r"""
import sys
n = 0
with open(sys.argv[1], encoding="utf-8") as f:
    for line in f:
        n += len(line.split())
print(n)
"""


def pan_command() -> list[str]:
    """The installed console script (as users run it), else ``python -m pancli``."""
    exe = shutil.which("pan")
    return [exe] if exe else [sys.executable, "-m", "pancli"]


def env() -> dict[str, str]:
    e = dict(os.environ)
    e.pop("PYTHONDONTWRITEBYTECODE", None)
    e.pop("PAN_FORCE_TERMINAL", None)
    return e


def simulated(hands: int) -> Path:
    """N simulated 6-player hoyle hands, generated once."""
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / f"replay-6p-{hands}.pan"
    if not path.exists():
        t = time.perf_counter()
        tmp = path.with_suffix(".tmp")
        cmd = [*pan_command(), "simulate", "--players", "6", "--hands", str(hands), "--seed", "1", "-o", str(tmp)]
        subprocess.run(cmd, check=True, env=env())
        tmp.rename(path)
        took = time.perf_counter() - t
        print(f"generated {path.name}: {hands:,} hands, {path.stat().st_size / 1e6:.1f} MB in {took:.0f} s")
    return path


def big(source: Path, gigabytes: float) -> Path:
    """``source`` repeated (blank line between copies) up to ``gigabytes``, generated once."""
    path = OUT / f"replay-{gigabytes:g}gb.pan"
    target = int(gigabytes * 1e9)
    if not path.exists() or path.stat().st_size < target:
        data = source.read_bytes()
        tmp = path.with_suffix(".tmp")
        with tmp.open("wb") as f:
            written = 0
            while written < target:
                f.write(data)
                f.write(b"\n")
                written += len(data) + 1
        tmp.rename(path)
        print(f"generated {path.name}: {path.stat().st_size / 1e9:.2f} GB")
    return path


def count_hands(path: Path) -> int:
    n = 0
    with path.open("rb") as f:
        for line in f:
            if line.startswith(b"[Players "):
                n += 1
    return n


def rss_of(cmd: list[str]) -> tuple[float, int, int]:
    """Wall time, exit status and the child's own max RSS (KB), via wait4."""
    t = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env())
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t
    p.returncode = os.waitstatus_to_exitcode(status)
    return wall, p.returncode, usage.ru_maxrss


def _stream(path: Path, limit: int, stage: int) -> tuple[int, float, float]:
    """Hands, seconds and lines per hand streaming the first ``limit`` hands through ``stage``
    (1 read, 2 and referee, 3 and plain text), keeping nothing (as ``pan replay`` does)."""
    from pancli.records import read_hands
    from pancli.referee import referee_script
    from pancli.render.plain import plain_text

    n = lines = 0
    with path.open(encoding="utf-8") as f:
        t = time.perf_counter()
        for h in read_hands(f, str(path), path.parent):
            n += 1
            lines += h.last_line - h.first_line + 1
            if stage > 1 and h.script is not None:
                r = referee_script(h.script, record_steps=False)
                if stage > 2:
                    plain_text(r, h, h.script)
            if n >= limit:
                break
        took = time.perf_counter() - t
    return n, took, lines / max(n, 1)


def peak_rss(cmd: list[str]) -> tuple[float, int, int]:
    """Wall time, exit status and the max RSS (KB) of ``cmd`` alone.

    ``os.wait4`` on a child of this process would report this process's own RSS when it is the
    larger: the child starts as a copy of it, and Linux keeps the peak across ``exec``. GNU time
    (``/usr/bin/time``), itself a small process, starts the command instead when it is there.
    """
    timer = Path("/usr/bin/time")
    if not timer.exists():
        return rss_of(cmd)
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "rss"
        wall, code, _ = rss_of([str(timer), "-o", str(report), "-f", "%M", *cmd])
        return wall, code, int(report.read_text().split()[-1])


def in_process(path: Path, limit: int) -> None:
    """Where the time goes: each stage's cost per hand, streaming the first ``limit`` hands."""
    n, read, lines = _stream(path, limit, 1)
    _, both, _ = _stream(path, limit, 2)
    _, plain, _ = _stream(path, limit, 3)
    us = 1e6 / n
    print(f"in process, first {n:,} hands streamed ({lines:.0f} lines each on average):")
    print(f"  read_hands                 {n / read:>10,.0f} hands/s   {read * us:6.0f} us/hand")
    print(f"  + referee_script (no steps)  {n / both:>10,.0f} hands/s   {(both - read) * us:6.0f} us/hand more")
    print(f"  + plain text               {n / plain:>10,.0f} hands/s   {(plain - both) * us:6.0f} us/hand more")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=100_000, help="simulated 6-player hands (default 100,000)")
    ap.add_argument("--repeat", type=int, default=3, help="whole-process runs of each command (median kept)")
    ap.add_argument("--jobs", type=int, default=2, help="worker processes of the --jobs run (default 2)")
    ap.add_argument("--memory", action="store_true", help="also measure peak memory over a large file")
    ap.add_argument("--memory-gb", type=float, default=1.0, help="size of the memory test file (default 1 GB)")
    ap.add_argument("--no-memory", action="store_true", help=argparse.SUPPRESS)  # the default now
    args = ap.parse_args()

    path = simulated(args.hands)
    hands = count_hands(path)
    size = path.stat().st_size
    print(f"input: {path.name}, {hands:,} hands, {size / 1e6:.1f} MB")
    pan = pan_command()
    runs = {
        "line-splitting reader": [sys.executable, "-c", SPLITTER, str(path)],
        "pan replay FILE": [*pan, "replay", str(path)],
        "pan replay --json FILE": [*pan, "replay", "--json", str(path)],
        f"pan replay --jobs {args.jobs} FILE": [*pan, "replay", "--jobs", str(args.jobs), str(path)],
    }
    times: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(args.repeat):
        for name, cmd in runs.items():
            wall, code, _ = rss_of(cmd)
            assert code == 0, f"{name} exited {code}"
            times[name].append(wall)
    median = {name: statistics.median(ts) for name, ts in times.items()}
    base = median["line-splitting reader"]
    print(f"whole process, stdout to nothing, median of {args.repeat} (runs interleaved):")
    for name, wall in median.items():
        ratio = "" if name.startswith("line") else f"   {wall / base:6.1f}x the line splitter"
        print(f"  {name:<28} {wall:7.2f} s  {hands / wall:>10,.0f} hands/s{ratio}")
    print("  target: >= 3,000 hands/s (aim 5,000)")
    if args.memory:  # first: this process stays small until in_process() runs
        bigfile = big(path, args.memory_gb)
        bhands = count_hands(bigfile)
        wall, code, rss = peak_rss([*pan, "replay", str(bigfile)])
        print(f"memory: pan replay over {bigfile.name} ({bigfile.stat().st_size / 1e9:.2f} GB, {bhands:,} hands)")
        print(
            f"  max RSS {rss / 1024:.1f} MB (target < 100 MB), {wall:.0f} s, {bhands / wall:,.0f} hands/s, exit {code}"
        )
    in_process(path, min(hands, 20_000))


if __name__ == "__main__":
    main()
