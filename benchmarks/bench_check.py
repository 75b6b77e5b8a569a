"""Benchmark of ``pan check``: cold start and batch throughput, whole process.

Run from the repository root (the package installed, e.g. ``pip install -e .``)::

    python benchmarks/bench_check.py                 # 1,000,000 lines, 21 cold starts each
    python benchmarks/bench_check.py --lines 200000 --runs 11

It prints, all measured in the same run (machines are noisy: compare ratios):

1. cold start: median wall time of ``pan check "5s 5s 5s"`` writing to a pipe against
   ``python -c "import click"``, runs interleaved; the ratio (target <= 1.5, as for every
   command: bench_startup.py);
2. throughput: ``pan check -`` over N generated meld lines (stdin from a file, stdout a
   pipe drained by this script), whole process, in melds/s (target >= 200,000), against a
   plain ``str.split`` validator script reading the same input, runs interleaved; medians
   and their ratio;
3. the worst case for the batch path's caches: random 3-5 card lines, nearly all distinct
   and most illegal (so one error line each on standard error), whole process, against the
   same validator on the same input; medians and their ratio.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RANKS = ["A", "2", "3", "4", "5", "6", "7", "J", "Q", "K"]
SUITS = "shdc"

VALIDATOR = r"""
import sys
VALID = {r + s for r in "A 2 3 4 5 6 7 J Q K".split() for s in "shdc"}
good = bad = 0
out = []
for line in sys.stdin:
    toks = line.split()
    if not toks or toks[0].startswith("#"):
        continue
    if len(toks) >= 3 and all(t in VALID for t in toks):
        good += 1
        out.append("ok\n")
    else:
        bad += 1
        out.append("bad\n")
sys.stdout.write("".join(out))
print(good, bad, file=sys.stderr)
"""


def generate(n: int, seed: int = 2) -> str:
    """``n`` meld lines: ropes, one-suit sets, different-suits sets, mixed A/K sets and random
    (mostly illegal) triples, one in five shuffled."""
    rng = random.Random(seed)
    lines = []
    for _ in range(n):
        t = rng.random()
        if t < 0.3:
            k = rng.randint(3, 5)
            i = rng.randint(0, 10 - k)
            s = rng.choice(SUITS)
            cs = [RANKS[j] + s for j in range(i, i + k)]
        elif t < 0.55:
            cs = [rng.choice(RANKS) + rng.choice(SUITS)] * rng.randint(3, 5)
        elif t < 0.75:
            r = rng.choice(RANKS)
            cs = [r + x for x in rng.sample(SUITS, rng.randint(3, 4))]
        elif t < 0.85:
            r = rng.choice("AK")
            cs = [r + rng.choice(SUITS) for _ in range(rng.randint(3, 4))]
        else:
            cs = [rng.choice(RANKS) + rng.choice(SUITS) for _ in range(3)]
        if rng.random() < 0.2:
            rng.shuffle(cs)
        lines.append(" ".join(cs) + "\n")
    return "".join(lines)


def random_lines(n: int, seed: int = 5) -> str:
    """``n`` lines of 3 to 5 cards drawn at random: nearly every line distinct, most illegal."""
    rng = random.Random(seed)
    cards = [r + s for r in RANKS for s in SUITS]
    return "".join(" ".join(rng.choice(cards) for _ in range(rng.randint(3, 5))) + "\n" for _ in range(n))


def pan_command() -> list[str]:
    """The installed ``pan`` console script next to this interpreter (else ``python -m pancli``)."""
    script = Path(sys.executable).parent / "pan"
    if script.exists():
        return [str(script)]
    found = shutil.which("pan")
    if found and "shims" not in found:
        return [found]
    return [sys.executable, "-m", "pancli"]


ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
"""Subprocesses may write and use .pyc files, as an installed program does (benchmarks/README.md:
without them start-up doubles)."""


def wall(cmd: list[str], stdin_path: str | None = None) -> float:
    """Whole-process wall time of ``cmd``, stdout and stderr pipes drained."""
    stdin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL  # noqa: SIM115
    try:
        t0 = time.perf_counter()
        subprocess.run(cmd, stdin=stdin, capture_output=True, check=False, env=ENV)
        return time.perf_counter() - t0
    finally:
        if stdin_path:
            stdin.close()  # type: ignore[union-attr]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lines", type=int, default=1_000_000)
    ap.add_argument("--runs", type=int, default=21, help="cold starts of each command")
    ap.add_argument("--repeat", type=int, default=3, help="throughput runs of each command (median is kept)")
    opts = ap.parse_args()
    pan = pan_command()
    print(f"python {sys.version.split()[0]}, pan = {' '.join(pan)}")

    # 1. cold start
    click_cmd = [sys.executable, "-c", "import click"]
    check_cmd = [*pan, "check", "5s 5s 5s"]
    for cmd in (click_cmd, check_cmd):  # warm the file cache and the .pyc files
        wall(cmd)
    t_click, t_check = [], []
    for _ in range(opts.runs):
        t_click.append(wall(click_cmd))
        t_check.append(wall(check_cmd))
    m_click, m_check = statistics.median(t_click), statistics.median(t_check)
    print(f"cold start, median of {opts.runs}:")
    print(f"  python -c 'import click'   {m_click * 1000:7.1f} ms")
    print(f"  pan check '5s 5s 5s'       {m_check * 1000:7.1f} ms")
    print(f"  ratio                      {m_check / m_click:7.2f}   (target <= 1.5)")

    # 2. throughput on generated melds (they repeat: the line cache hits)
    with tempfile.TemporaryDirectory() as tmp:
        validator = Path(tmp) / "validator.py"
        validator.write_text(VALIDATOR)
        data = Path(tmp) / "melds.txt"
        text = generate(opts.lines)
        data.write_text(text)
        distinct = len(set(text.splitlines()))
        title = f"throughput, {opts.lines:,} lines ({distinct:,} distinct)"
        throughput(title, pan, validator, data, opts.lines, opts.repeat)

        # 3. the worst case: random card lines, nearly all distinct, most illegal (one error line each)
        text = random_lines(opts.lines)
        data.write_text(text)
        distinct = len(set(text.splitlines()))
        title = f"worst case, {opts.lines:,} random 3-5 card lines ({distinct:,} distinct, most illegal)"
        throughput(title, pan, validator, data, opts.lines, opts.repeat)


def throughput(title: str, pan: list[str], validator: Path, data: Path, lines: int, repeat: int) -> None:
    """``pan check -`` and the validator over ``data``, runs interleaved; medians and their ratio."""
    t_pan, t_val = [], []
    for _ in range(repeat):
        t_pan.append(wall([*pan, "check", "-"], str(data)))
        t_val.append(wall([sys.executable, str(validator)], str(data)))
    m_pan, m_val = statistics.median(t_pan), statistics.median(t_val)
    print(f"{title}, whole process, median of {repeat}:")
    print(f"  pan check -                {m_pan:7.2f} s   {lines / m_pan:12,.0f} melds/s   (target >= 200,000)")
    print(f"  str.split validator        {m_val:7.2f} s   {lines / m_val:12,.0f} lines/s")
    print(f"  ratio pan / validator      {m_pan / m_val:7.2f}   (time)")


if __name__ == "__main__":
    main()
