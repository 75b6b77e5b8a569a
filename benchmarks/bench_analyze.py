"""Benchmark of ``pan analyze`` (issue 4): best arrangement in-process, whole process in a pipe.

Run from the repository root (the package installed, e.g. ``pip install -e .``)::

    python benchmarks/bench_analyze.py                  # 10,000 hands, 15 cold starts each
    python benchmarks/bench_analyze.py --hands 2000 --runs 7

It prints, all measured in the same run (machines are noisy: compare ratios):

1. best arrangement (:func:`pancli.analyze.best_arrangement`) over N random 10- and 11-card
   hands dealt from the 320-card pack: p50, p99 and max (targets p50 <= 50 us, p99 <= 1 ms),
   the slowest hands, and the ratio of p50 to a baseline measured alongside: ``judge()`` of the
   same cards as one meld (the cheapest engine call on a hand);
2. the worst hands (eleven kings; eight 5s plus 5h 5d; A to K of one suit): median of 5 runs
   each, fresh search every time (target <= 20 ms);
3. whole process: ``pan analyze HAND`` writing to a pipe against the cold start of
   ``pan check "5s 5s 5s"``, runs interleaved, medians and the ratio (target <= 2).
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import subprocess
import sys
import time

from pancli.analyze import best_arrangement
from pancli.cards import PAN_CARDS, Rank, Suit, card, format_cards
from pancli.melds import judge
from pancli.rules import HOYLE

WORST = {
    "eleven kings": [card(Rank.KING, s) for s in Suit] * 2 + [card(Rank.KING, Suit.SPADES)] * 3,
    "eleven kings 3-3-3-2": [card(Rank.KING, s) for s in Suit] * 2 + [card(Rank.KING, s) for s in list(Suit)[:3]],
    "eight 5s plus 5h 5d": [card(Rank.FIVE, Suit.SPADES)] * 8
    + [card(Rank.FIVE, Suit.HEARTS), card(Rank.FIVE, Suit.DIAMONDS)],
    "A to K of hearts": [c for c in PAN_CARDS if c.suit is Suit.HEARTS],
    "A to K of hearts + Kh": [c for c in PAN_CARDS if c.suit is Suit.HEARTS] + [card(Rank.KING, Suit.HEARTS)],
}  # fmt: skip

HAND = "5s 5s 5s 3h 4h Kd Kh Kc 2c 7d"


def pct(xs: list[float], q: float) -> float:
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def arrangement(hands: int, seed: int) -> None:
    rng = random.Random(seed)
    pack = HOYLE.pack.full()
    deals = [rng.sample(pack, 10 + i % 2) for i in range(hands)]
    times: list[tuple[float, list]] = []
    base: list[float] = []
    clock = time.perf_counter
    for h in deals:
        t0 = clock()
        judge(h, HOYLE)
        t1 = clock()
        best_arrangement(h, HOYLE)
        t2 = clock()
        base.append(t1 - t0)
        times.append((t2 - t1, h))
    ts = sorted(t for t, _ in times)
    base.sort()
    p50, p99, worst = pct(ts, 0.5), pct(ts, 0.99), ts[-1]
    b50 = pct(base, 0.5)
    print(f"best arrangement, {hands} random 10/11-card hands (seed {seed})")
    print(
        f"  p50 {p50 * 1e6:8.1f} us  (target <= 50)    baseline judge() p50 {b50 * 1e6:.1f} us, ratio {p50 / b50:.1f}x"
    )
    print(f"  p99 {p99 * 1e6:8.1f} us  (target <= 1000)")
    print(f"  max {worst * 1e6:8.1f} us")
    for t, h in sorted(times, key=lambda x: -x[0])[:3]:
        print(f"  slow: {t * 1e6:8.1f} us  {format_cards(sorted(h, key=lambda c: c.sort_key()))}")


def worst_hands() -> None:
    print("worst hands (median of 5, fresh search each; target <= 20 ms)")
    for name, h in WORST.items():
        runs = []
        for _ in range(5):
            t0 = time.perf_counter()
            a = best_arrangement(h, HOYLE)
            runs.append(time.perf_counter() - t0)
        print(f"  {name:24s} {statistics.median(runs) * 1e3:7.2f} ms  melded {a.melded} value {a.value} ways {a.count}")


def whole_process(runs: int) -> None:
    pan = shutil.which("pan")
    if pan is None:
        print("whole process: 'pan' is not on PATH (pip install -e .)")
        return
    check = [pan, "check", "5s 5s 5s"]
    analyze = [pan, "analyze", HAND]
    tc: list[float] = []
    ta: list[float] = []
    for _ in range(runs):
        for cmd, acc in ((check, tc), (analyze, ta)):
            t0 = time.perf_counter()
            subprocess.run(cmd, capture_output=True, check=False)
            acc.append(time.perf_counter() - t0)
    mc, ma = statistics.median(tc), statistics.median(ta)
    print(f"whole process, {runs} interleaved runs each, output to a pipe")
    print(f"  pan check cold start  {mc * 1e3:7.1f} ms")
    print(f"  pan analyze HAND      {ma * 1e3:7.1f} ms   ratio {ma / mc:.2f}x (target <= 2)   [{HAND}]")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=10_000)
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    print(f"python {sys.version.split()[0]}")
    arrangement(args.hands, args.seed)
    worst_hands()
    whole_process(args.runs)


if __name__ == "__main__":
    main()
