"""Benchmark of ``pan analyze``: best arrangement in-process, whole process in a pipe.

Run from the repository root (the package installed, e.g. ``pip install -e .``)::

    python benchmarks/bench_analyze.py                  # 10,000 hands, 15 cold starts each
    python benchmarks/bench_analyze.py --hands 2000 --runs 7
    python benchmarks/bench_analyze.py --cpu --repeat 3 --against /tmp/old   # part 1, CPU, A/B

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


REFERENCE_LOOP = 1.45 / 3
"""CPU seconds of the calibration loop on the reference machine the targets were set on (as bench_odds.py)."""


def calibrate() -> float:
    """CPU seconds of ``for i in range(10**7): s += i`` (median of three 10**6 loops, x10)."""
    cpus = []
    for _ in range(3):
        c0 = time.process_time()
        s = 0
        for i in range(10**6):
            s += i
        cpus.append((time.process_time() - c0) * 10)
    return statistics.median(cpus)


def arrangement_cpu(hands: int, seed: int, repeat: int, against: str | None) -> None:
    """Part 1 in CPU time: each hand timed ``repeat`` times (median kept), alternately with the
    ``arrange.py`` of the tree ``against`` when given (results checked equal), scaled to the
    reference machine by the calibration loop measured before and after."""
    import importlib.util
    from pathlib import Path

    from pancli.analyze import arrange

    trees: list[tuple[str, object]] = [("this", arrange)]
    if against is not None:
        spec = importlib.util.spec_from_file_location("arrange_against", Path(against) / "pancli/analyze/arrange.py")
        assert spec is not None and spec.loader is not None
        old = importlib.util.module_from_spec(spec)
        sys.modules["arrange_against"] = old
        spec.loader.exec_module(old)
        trees.append(("against", old))
    rng = random.Random(seed)
    pack = HOYLE.pack.full()
    deals = [rng.sample(pack, 10 + i % 2) for i in range(hands)]
    times: dict[str, list[float]] = {name: [] for name, _ in trees}
    loops = [calibrate()]
    clock = time.process_time
    for i, h in enumerate(deals):
        got = []
        for name, mod in trees if i % 2 else trees[::-1]:
            runs = []
            for _ in range(repeat):
                t0 = clock()
                a = mod.best_arrangement(h, HOYLE)  # type: ignore[attr-defined]
                runs.append(clock() - t0)
            times[name].append(statistics.median(runs))
            got.append((tuple((p.cards, p.value, p.target) for p in a.placed), a.dead, a.count))
        assert len(set(got)) == 1, f"the trees disagree on {format_cards(h)}"
    loops.append(calibrate())
    loop = statistics.median(loops)
    scale = REFERENCE_LOOP / loop
    print(f"best arrangement, {hands} random 10/11-card hands (seed {seed}), CPU, median of {repeat} per hand")
    print(f"  calibration loop CPU {loops[0]:.2f} / {loops[1]:.2f} s: x{scale:.2f} scales to the reference machine")
    for name, ts in times.items():
        ts.sort()
        p50, p99 = pct(ts, 0.5), pct(ts, 0.99)
        print(
            f"  {name:8s} p50 {p50 * 1e6:7.1f}  p99 {p99 * 1e6:7.1f}  max {ts[-1] * 1e6:8.1f} us"
            f" | scaled p50 {p50 * scale * 1e6:6.1f}  p99 {p99 * scale * 1e6:6.1f} us (target <= 100)"
        )
    if against is not None:
        a, b = times["against"], times["this"]
        print(f"  against/this: p50 {pct(a, 0.5) / pct(b, 0.5):.2f}x  p99 {pct(a, 0.99) / pct(b, 0.99):.2f}x")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=10_000)
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cpu", action="store_true", help="part 1 only, in CPU time, scaled by a calibration loop")
    ap.add_argument("--repeat", type=int, default=1, help="with --cpu: timings per hand (median kept)")
    ap.add_argument("--against", help="with --cpu: a source tree (git archive REV | tar -x) timed alternately")
    args = ap.parse_args()
    print(f"python {sys.version.split()[0]}")
    if args.cpu:
        arrangement_cpu(args.hands, args.seed, args.repeat, args.against)
        return
    arrangement(args.hands, args.seed)
    worst_hands()
    whole_process(args.runs)


if __name__ == "__main__":
    main()
