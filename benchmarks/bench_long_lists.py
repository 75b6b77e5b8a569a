"""Card lists past the 64-card limit: ``pan replay`` of a record of such lists against a normal
record of the same size, timed alternately in one run (CPU of the process, best of R).

Usage: ``python benchmarks/bench_long_lists.py [--melds N] [--chars C] [--repeat R]``

The hostile record holds N hands, each a turn whose card list (a new meld, an addition, a
lay-off of loose cards) runs to about C characters; the normal record is simulated 6-player
hands written out to the same number of bytes. The reader stops at the 65th card of a list
(N10), so the hostile record costs about what reading as many bytes of ordinary play does.
Target: at most 2x the normal record's time.
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pancli.notation.record_writer import write_scripts
from pancli.referee.simulate import simulate_hands
from pancli.rules import HOYLE

PLAYERS = ("Ana", "Ben", "Cruz", "Dee", "Eve", "Fay")
SHAPES = (
    "Ana draw 5s, meld [{cards}]",
    "Ana draw 5s, add {cards} to #1",
    "Ana draw 5s, meld {cards}",
)


def hostile(melds: int, chars: int) -> str:
    cards = " ".join(["5s"] * (chars // 3))
    hands = []
    for i in range(melds):
        turn = SHAPES[i % len(SHAPES)].format(cards=cards)
        hands.append(f'[Players "Ana Ben"]\n\n{turn}\n')
    return "\n".join(hands)


def normal(size: int) -> str:
    out: list[str] = []
    total = 0
    hands = 100
    while total < size:
        for text in write_scripts(simulate_hands(PLAYERS, hands, len(out) + 1, HOYLE)):
            out.append(text)
            total += len(text)
            if total >= size:
                break
    return "".join(out)


def cpu_of(path: Path) -> tuple[float, float]:
    """CPU seconds (user + system) and wall seconds of ``pan replay PATH`` to /dev/null."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "pancli", "replay", str(path)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=False,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime, wall


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--melds", type=int, default=10)
    ap.add_argument("--chars", type=int, default=98_000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        bad = Path(tmp) / "long-lists.pan"
        bad.write_text(hostile(args.melds, args.chars), encoding="utf-8")
        good = Path(tmp) / "normal.pan"
        good.write_text(normal(bad.stat().st_size), encoding="utf-8")
        print(f"hostile: {args.melds} lists of ~{args.chars:,} characters, {bad.stat().st_size / 1e6:.2f} MB")
        print(f"normal:  simulated 6-player hands, {good.stat().st_size / 1e6:.2f} MB")
        best_bad = best_good = (float("inf"), 0.0)
        for _ in range(args.repeat):  # alternately: both see the same load
            best_bad = min(best_bad, cpu_of(bad))
            best_good = min(best_good, cpu_of(good))
        print(f"pan replay hostile: {best_bad[0]:.2f} s CPU ({best_bad[1]:.2f} s wall)")
        print(f"pan replay normal:  {best_good[0]:.2f} s CPU ({best_good[1]:.2f} s wall)")
        print(f"ratio:              {best_bad[0] / best_good[0]:.2f}x the normal record's CPU (target: at most 2x)")


if __name__ == "__main__":
    main()
