"""Benchmark of ``pan replay`` (issue 3): whole-process hands/s and peak memory.

Run from the repository root (the package installed, e.g. ``pip install -e .``)::

    python benchmarks/bench_replay.py                     # 100,000 hands, then a 1 GB file
    python benchmarks/bench_replay.py --hands 20000 --no-memory

Inputs are generated once and cached under ``benchmarks/out/``: ``replay-6p-N.pan`` (N hands
of ``pan simulate --players 6 --seed 1``) and ``replay-1gb.pan`` (that file repeated until it
reaches the size asked, ``--memory-gb``). It prints, all measured in the same run (machines
are noisy: compare ratios):

1. a plain line-splitting reader over the file (``for line in f: line.split()``), whole process:
   the floor any reader of the text pays;
2. ``pan replay FILE`` (plain text) and ``pan replay --json FILE``, stdout a pipe drained to
   nothing, whole process: hands/s (target >= 3,000; aim 5,000) and the ratio to (1);
3. where the time goes, in process: reading the records (``read_hands``), refereeing them
   (``referee_hand`` without steps) and writing the plain text, each in hands/s;
4. peak memory (max RSS of the child, from ``os.wait4``'s resource usage) of ``pan replay`` over the
   1 GB file (target < 100 MB), with the hands/s of that run.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
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


def in_process(path: Path, limit: int) -> None:
    """Where the time goes: reading, refereeing and plain rendering of the first ``limit`` hands."""
    from pancli.cli.replay_render import plain_text
    from pancli.records import read_hands
    from pancli.referee import referee_hand

    with path.open(encoding="utf-8") as f:
        t = time.perf_counter()
        hands = []
        for h in read_hands(f, str(path), path.parent):
            hands.append(h)
            if len(hands) >= limit:
                break
        read = time.perf_counter() - t
    scripts = [h.script for h in hands if h.script is not None]
    t = time.perf_counter()
    results = [referee_hand(s, record_steps=False) for s in scripts]
    ref = time.perf_counter() - t
    t = time.perf_counter()
    for r, h in zip(results, hands, strict=False):
        assert h.script is not None
        plain_text(r, h, h.script)
    render = time.perf_counter() - t
    n = len(hands)
    lines = sum(h.last_line - h.first_line + 1 for h in hands) / max(n, 1)
    print(f"in process, first {n:,} hands ({lines:.0f} lines each on average):")
    print(f"  read_hands                 {n / read:>10,.0f} hands/s")
    print(f"  referee_hand (no steps)    {n / ref:>10,.0f} hands/s")
    print(f"  plain text                 {n / render:>10,.0f} hands/s")
    print(f"  together                   {n / (read + ref + render):>10,.0f} hands/s")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=100_000, help="simulated 6-player hands (default 100,000)")
    ap.add_argument("--repeat", type=int, default=1, help="whole-process runs of each command (best kept)")
    ap.add_argument("--memory-gb", type=float, default=1.0, help="size of the memory test file (default 1 GB)")
    ap.add_argument("--no-memory", action="store_true", help="skip the memory test")
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
    }
    best: dict[str, float] = {}
    for _ in range(args.repeat):
        for name, cmd in runs.items():
            wall, code, _ = rss_of(cmd)
            assert code == 0, f"{name} exited {code}"
            best[name] = min(best.get(name, wall), wall)
    base = best["line-splitting reader"]
    print(f"whole process, stdout to nothing, best of {args.repeat}:")
    for name, wall in best.items():
        ratio = "" if name.startswith("line") else f"   {wall / base:6.1f}x the line splitter"
        print(f"  {name:<24} {wall:7.2f} s  {hands / wall:>10,.0f} hands/s{ratio}")
    print("  target: >= 3,000 hands/s (aim 5,000)")
    in_process(path, min(hands, 20_000))
    if not args.no_memory:
        bigfile = big(path, args.memory_gb)
        bhands = count_hands(bigfile)
        wall, code, rss = rss_of([*pan, "replay", str(bigfile)])
        print(f"memory: pan replay over {bigfile.name} ({bigfile.stat().st_size / 1e9:.2f} GB, {bhands:,} hands)")
        print(
            f"  max RSS {rss / 1024:.1f} MB (target < 100 MB), {wall:.0f} s, {bhands / wall:,.0f} hands/s, exit {code}"
        )


if __name__ == "__main__":
    main()
