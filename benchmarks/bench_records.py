"""Reader throughput: hands/s of ``pancli.records.read_hands`` over simulated 6-player records.

Usage: ``python benchmarks/bench_records.py [--hands N] [--repeat R]``

Writes N simulated hands (``pancli.referee.simulate.simulate_hands`` + ``write_script``) to a
temporary file, then reads it back (best of R) with the streaming reader, and with a plain
reader over the same file (lines split into tokens, no objects) for the ratio. Also prints
how many lines the fast path declined (they went to the pyparsing grammar) and the peak
memory of the read (tracemalloc). Target: the reader alone >= 10,000 6-player hands/s.
"""

from __future__ import annotations

import argparse
import tempfile
import time
import tracemalloc
from pathlib import Path

from pancli.notation.record_writer import write_scripts
from pancli.records import read_hands
from pancli.referee.simulate import simulate_hands
from pancli.rules import HOYLE

PLAYERS = ("Ana", "Ben", "Cruz", "Dee", "Eve", "Fay")


def plain(path: Path) -> int:
    hands = 0
    in_play = False
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("["):
                if in_play:
                    hands += 1
                    in_play = False
            elif line.strip():
                in_play = True
                for part in line.split(","):
                    part.split()
    return hands + (1 if in_play else 0)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=20_000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "sim.pan"
        with open(path, "w", encoding="utf-8") as out:
            out.writelines(write_scripts(simulate_hands(PLAYERS, args.hands, 1, HOYLE)))
        size = path.stat().st_size
        with open(path, encoding="utf-8") as f:
            lines = sum(1 for _ in f)
        print(f"{args.hands} hands, {lines} lines ({lines / args.hands:.1f} per hand), {size / 1e6:.1f} MB")
        best = best_plain = float("inf")
        for _ in range(args.repeat):
            t = time.perf_counter()
            with open(path, encoding="utf-8") as f:
                n = sum(1 for h in read_hands(f, str(path)) if h.error is None)
            best = min(best, time.perf_counter() - t)
            assert n == args.hands, n
            t = time.perf_counter()
            assert plain(path) == args.hands
            best_plain = min(best_plain, time.perf_counter() - t)
        print(f"read_hands:   {args.hands / best:10,.0f} hands/s  ({best:.2f} s)")
        print(f"plain split:  {args.hands / best_plain:10,.0f} hands/s  ({best_plain:.2f} s)")
        print(f"ratio:        {best / best_plain:.1f}x the plain reader's time")
        import pancli.notation.record_grammar as g

        calls = {"n": 0}
        real = g.grammar_play

        def counting(*a, **k):  # type: ignore[no-untyped-def]
            calls["n"] += 1
            return real(*a, **k)

        g.grammar_play = counting
        tracemalloc.start()
        with open(path, encoding="utf-8") as f:
            for _ in read_hands(f, str(path)):
                pass
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        print(f"lines the fast path declined: {calls['n']}")
        print(f"peak traced memory while reading: {peak / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
