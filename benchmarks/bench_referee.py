"""Benchmark of the Panguingue engine alone: self-play and ``referee_script``, in process.

Run from the repository root (the package installed)::

    python benchmarks/bench_referee.py                    # 20,000 six-player hands, both profiles
    python benchmarks/bench_referee.py --hands 100000 --players 6 --runs 3

It prints, measured in the same run (machines are noisy: compare ratios, take the best run):

1. self-play: ``simulate_hands`` throughput in hands/s, the mean number of turn lines per
   hand and the time to generate the hands;
2. referee only: ``referee_script(script, record_steps=False)`` (bulk replay) and with steps
   (``--jsonl`` and the timeline need them) in hands/s, best of ``--runs``, every hand legal.

No parsing here: ``bench_replay.py`` measures the whole process with the record reader.
"""

from __future__ import annotations

import argparse
import time

from pancli.model.actions import Turn
from pancli.referee import referee_script
from pancli.referee.simulate import simulate_hands
from pancli.rules import PROFILES


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=20_000)
    ap.add_argument("--players", type=int, default=6)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    names = tuple(f"P{i}" for i in range(1, args.players + 1))
    for name, profile in PROFILES.items():
        t = time.perf_counter()
        scripts = list(simulate_hands(names, args.hands, args.seed, profile))
        gen = time.perf_counter() - t
        turns = sum(1 for s in scripts for e in s.events if isinstance(e, Turn)) / len(scripts)
        print(
            f"{name}: self-play {len(scripts) / gen:,.0f} hands/s "
            f"({len(scripts):,} hands of {args.players} players in {gen:.1f} s, {turns:.1f} turns per hand)"
        )
        for steps in (False, True):
            best = float("inf")
            for _ in range(args.runs):
                t = time.perf_counter()
                bad = sum(1 for s in scripts if not referee_script(s, record_steps=steps).ok)
                best = min(best, time.perf_counter() - t)
            assert bad == 0, f"{bad} simulated hands have a violation"
            label = "with steps" if steps else "record_steps=False"
            print(f"{name}: referee {label}: {len(scripts) / best:,.0f} hands/s")


if __name__ == "__main__":
    main()
