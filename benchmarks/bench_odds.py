"""Benchmark of the full ``pan analyze`` analysis (issue 14): draw table, distance and odds, in process.

Run from the repository root (the package installed, e.g. ``pip install -e .``)::

    python benchmarks/bench_odds.py                         # 1,500 random hands
    python benchmarks/bench_odds.py --hands 300 --against /tmp/old-tree

It deals N random positions (ten cards and a drawn card from the 320-card pack, seeded), times
:func:`pancli.analyze.analysis.analyze` on each with the defaults of ``pan analyze`` (2,000 samples,
seed 1), and prints p50, p99 and the maximum (targets: p99 < 30 ms, worst < 50 ms), the slowest
hands it found (a search for the worst case: each is timed again, median of 3) and the known worst.

With ``--against TREE`` (a source tree of another version, e.g. ``git archive main | tar -x -C
TREE``) every hand is timed in both trees by two worker processes, alternately, hand by hand, and
the ratios are printed: the machine's load drifts, the ratio of neighbouring runs does not.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

KNOWN_WORST = ["Ah Ac 3s 5h 5c 5c 6c Qd Ks Kh +Qd"]


def worker() -> None:
    """Read hands (``10 cards +drawn``) line by line, print the seconds the analysis took."""
    import pancli
    from pancli.analyze.analysis import analyze
    from pancli.notation.fast import fast_cards
    from pancli.rules import HOYLE

    print(json.dumps({"pancli": str(Path(pancli.__file__).parent)}), flush=True)
    clock = time.perf_counter
    for line in sys.stdin:
        text = line.strip()
        cards = fast_cards(text.replace("+", ""))
        assert cards is not None and len(cards) == 11, text
        t0 = clock()
        a = analyze(list(cards[:10]), HOYLE, drawn=cards[10])
        t = clock() - t0
        print(json.dumps({"t": t, "p": a.odds.p[-1], "se": max(a.odds.se), "n": a.odds.samples}), flush=True)


class Worker:
    def __init__(self, tree: Path | None) -> None:
        env = dict(os.environ)
        if tree is not None:
            env["PYTHONPATH"] = str(tree)
        self.proc = subprocess.Popen(
            [sys.executable, __file__, "--worker"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env
        )
        assert self.proc.stdout is not None
        self.where = json.loads(self.proc.stdout.readline())["pancli"]

    def time(self, hand: str) -> dict[str, float]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(hand + "\n")
        self.proc.stdin.flush()
        got: dict[str, float] = json.loads(self.proc.stdout.readline())
        return got

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait()


def deal(n: int, seed: int) -> list[str]:
    from pancli.cards import format_cards
    from pancli.rules import HOYLE

    rng = random.Random(seed)
    pack = HOYLE.pack.full()
    out = []
    for _ in range(n):
        h = rng.sample(pack, 11)
        out.append(f"{format_cards(sorted(h[:10], key=lambda c: c.sort_key()))} +{h[10]}")
    return out


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--hands", type=int, default=1500)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--slowest", type=int, default=5, help="how many of the slowest hands to time again")
    ap.add_argument("--against", type=Path, help="a source tree of another version, timed alternately")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        worker()
        return
    trees: list[tuple[str, Path | None]] = [("this", None)]
    if args.against is not None:
        trees.append(("against", args.against.resolve()))
    workers = {name: Worker(tree) for name, tree in trees}
    print(f"python {sys.version.split()[0]}; " + "; ".join(f"{n}: {w.where}" for n, w in workers.items()))
    hands = deal(args.hands, args.seed)
    times: dict[str, list[float]] = {n: [] for n in workers}
    info: dict[str, list[dict[str, float]]] = {n: [] for n in workers}
    for i, hand in enumerate(hands):
        order = list(workers) if i % 2 == 0 else list(reversed(workers))  # alternate who goes first
        for name in order:
            got = workers[name].time(hand)
            times[name].append(got["t"])
            info[name].append(got)
    print(f"full analysis, {len(hands)} random positions (10 cards + drawn, seed {args.seed}), in process")
    for name in workers:
        ts = times[name]
        ns = [x["n"] for x in info[name]]
        print(
            f"  {name:8s} p50 {pct(ts, 0.5) * 1e3:7.1f} ms  p99 {pct(ts, 0.99) * 1e3:7.1f} ms"
            f"  max {max(ts) * 1e3:7.1f} ms  (targets p99 < 30, max < 50)  samples p50 {pct(ns, 0.5):.0f}"
        )
    if "against" in workers:
        a, b = times["against"], times["this"]
        r = [x / y for x, y in zip(a, b, strict=True)]
        print(
            f"  ratio against/this: p50 {pct(a, 0.5) / pct(b, 0.5):.2f}x  p99 {pct(a, 0.99) / pct(b, 0.99):.2f}x"
            f"  max {max(a) / max(b):.2f}x  per-hand median {statistics.median(r):.2f}x"
        )
        diffs = [
            abs(x["p"] - y["p"]) / max(1e-9, (x["se"] ** 2 + y["se"] ** 2) ** 0.5)
            for x, y in zip(info["against"], info["this"], strict=True)
            if x["se"] or y["se"]
        ]
        if diffs:
            print(
                f"  P(out within 10) this vs against, in combined s.e.: median {statistics.median(diffs):.2f},"
                f" p99 {pct(diffs, 0.99):.2f}, max {max(diffs):.2f}"
            )
    slow = sorted(range(len(hands)), key=lambda i: -times["this"][i])[: args.slowest]
    print(f"slowest hands found here, timed again (median of 3, {' / '.join(workers)})")
    for i in [*slow, *(hands.index(h) if h in hands else h for h in KNOWN_WORST)]:
        hand = hands[i] if isinstance(i, int) else i
        cells = []
        for name in workers:
            cells.append(f"{statistics.median(workers[name].time(hand)['t'] for _ in range(3)) * 1e3:7.1f} ms")
        print(f"  {' / '.join(cells)}  {hand}")
    for w in workers.values():
        w.close()


if __name__ == "__main__":
    main()
