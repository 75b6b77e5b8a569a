"""Terminals: ``pan check -`` of 20,000 melds and ``pan replay`` of 300 hands on a real
pseudo-terminal (``script``, 60 columns) against the same command into a pipe, whole process,
runs interleaved; the target is at most 3x the piped time. Also the time to the first byte on the
terminal (target: half a second after start-up).

Run from the repository root (the package installed, e.g. ``pip install -e .``)::

    python benchmarks/bench_terminal.py            # 3 rounds
"""

from __future__ import annotations

import argparse
import os
import random
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

MELDS = ["5s 5s 5s", "7c 7s 7s", "3-5h", "Qh Kh Ah", "5hcd", "Jc Qc Kc"]


def on_terminal(command: str) -> tuple[float, float]:
    """(seconds to the first byte, seconds in all) of ``command`` on a 60x40 pseudo-terminal."""
    start = time.perf_counter()
    proc = subprocess.Popen(
        ["script", "-q", "-c", f"stty cols 60 rows 40; {command}", "/dev/null"], stdout=subprocess.PIPE
    )
    assert proc.stdout is not None
    first = 0.0
    while chunk := proc.stdout.read1(1 << 16):
        if not first and chunk.strip():
            first = time.perf_counter() - start
    proc.wait()
    return first, time.perf_counter() - start


def in_a_pipe(command: str) -> float:
    start = time.perf_counter()
    subprocess.run(["bash", "-c", f"{command} 2>&1 | cat > /dev/null"], check=False)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    pan = shutil.which("pan")
    if pan is None or shutil.which("script") is None:
        sys.exit("bench_terminal: needs pan installed and script(1)")
    env_pan = shlex.quote(pan)
    with tempfile.TemporaryDirectory() as tmp:
        melds = Path(tmp) / "melds.txt"
        rng = random.Random(1)
        melds.write_text("".join(rng.choice(MELDS) + "\n" for _ in range(20_000)), encoding="utf-8")
        hands = Path(tmp) / "hands.pan"
        with hands.open("w", encoding="utf-8") as out:
            subprocess.run([pan, "simulate", "--hands", "300", "--seed", "1"], stdout=out, check=True)
        cases = {
            "pan check - (20,000 melds)": f"{env_pan} check - < {melds}",
            "pan replay (300 hands)": f"{env_pan} replay {hands}",
        }
        os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
        for name, command in cases.items():
            term, first, pipe = [], [], []
            for _ in range(args.rounds):
                f, t = on_terminal(command)
                term.append(t)
                first.append(f)
                pipe.append(in_a_pipe(command))
            t, p = statistics.median(term), statistics.median(pipe)
            print(f"{name}: terminal {t:.2f} s (first byte {statistics.median(first):.2f} s), pipe {p:.2f} s,"
                  f" ratio {t / p:.2f} (target <= 3)")  # fmt: skip


if __name__ == "__main__":
    main()
