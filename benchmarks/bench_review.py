"""Benchmark of ``pan review``: a 60-turn six-player hand, every player staying, at the default depth.

Run from the repository root (the package installed, e.g. ``pip install -e .``)::

    python benchmarks/bench_review.py              # 5 runs
    python benchmarks/bench_review.py --runs 9 --jobs-hands 4

It prints, all measured in the same run (machines are noisy: compare ratios and CPU times):

1. the hand: the first self-play hand (six players, ``hoyle``, seeds from 1) where all six stay
   and play lasts at least 60 turns, cut after its 60th turn (an unfinished hand is refereed and
   reviewed as it stands);
2. in-process: :func:`pancli.app.review.review_hand` of that hand, CPU and wall seconds, median of
   the runs, with the decisions judged by kind (target: under 2 s);
3. whole process: ``pan review`` of the hand writing to a pipe, CPU (user + system of the child)
   and wall seconds, medians, against ``pan replay`` of the same hand, runs interleaved;
4. with ``--jobs-hands K``: K such hands (seeds on) reviewed with ``--jobs 1`` and ``--jobs 2``,
   wall seconds, and whether the outputs are the same;
5. the night: ``pan simulate --players 5 --hands 30 --seed 1`` reviewed by one ``pan review``
   process (``-q``, default depth), CPU and wall seconds, medians (target: under 3 s of CPU), and
   with ``--against TREE`` the same night by TREE's ``pan`` (its ``.venv``), runs interleaved,
   with the marks of the two compared.
"""

from __future__ import annotations

import argparse
import io
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter

from pancli.analyze.review import Options
from pancli.app.replay import referee
from pancli.app.review import review_hand
from pancli.model.actions import Decision, Turn
from pancli.notation.record_writer import write_script
from pancli.records import read_hands
from pancli.referee.simulate import simulate_hands
from pancli.rules import HOYLE

PLAYERS = ("Ana", "Ben", "Cruz", "Dee", "Eli", "Fay")


def long_hands(count: int, turns: int = 60) -> list[str]:
    """``count`` hands of six players, all staying, cut after ``turns`` turns (module text)."""
    out: list[str] = []
    seed = 1
    while len(out) < count:
        for script in simulate_hands(PLAYERS, 20, seed, HOYLE):
            stays = sum(1 for e in script.events if isinstance(e, Decision) and e.stay)
            played = [i for i, e in enumerate(script.events) if isinstance(e, Turn)]
            if stays == 6 and len(played) >= turns:
                cut = script.events[: played[turns - 1] + 1]
                from pancli.values import replace

                out.append(write_script(replace(script, events=cut)))
                if len(out) == count:
                    break
        seed += 1
    return out


def child_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run(args: list[str]) -> tuple[float, float]:
    """(CPU, wall) seconds of one ``pan`` process."""
    before = child_cpu()
    t = time.perf_counter()
    subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, check=False)
    return child_cpu() - before, time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--jobs-hands", type=int, default=0)
    ap.add_argument("--against", metavar="TREE", help="another checkout, with its .venv, for the night")
    ap.add_argument("--night-only", action="store_true", help="only the night (figure 5)")
    a = ap.parse_args()
    if a.night_only:
        night(a.runs, a.against)
        return
    (text,) = long_hands(1)
    (hand,) = read_hands(io.StringIO(text), "bench", None)
    assert hand.script is not None
    result = referee(hand.script)
    turns = sum(1 for e in hand.script.events if isinstance(e, Turn))
    print(f"hand: {len(PLAYERS)} players, all staying, {turns} turns, {len(text.splitlines())} lines")
    cpu, wall = [], []
    kinds: Counter[str] = Counter()
    for _ in range(a.runs):
        c, t = time.process_time(), time.perf_counter()
        r = review_hand(hand, hand.script, result, Options())
        cpu.append(time.process_time() - c)
        wall.append(time.perf_counter() - t)
        kinds = Counter(j.kind for j in r.judgements)
    print(f"in-process review_hand: CPU {statistics.median(cpu):.3f} s, wall {statistics.median(wall):.3f} s "
          f"(median of {a.runs}); judged {dict(kinds)}")  # fmt: skip
    pan = os.path.join(os.path.dirname(sys.executable), "pan")
    with tempfile.NamedTemporaryFile("w", suffix=".pan", delete=False) as f:
        f.write(text)
    rv, rp = [], []
    for _ in range(a.runs):
        rv.append(run([pan, "review", "-q", f.name]))
        rp.append(run([pan, "replay", f.name]))
    vc, vw = statistics.median(x[0] for x in rv), statistics.median(x[1] for x in rv)
    pc, pw = statistics.median(x[0] for x in rp), statistics.median(x[1] for x in rp)
    print(f"pan review: CPU {vc:.3f} s, wall {vw:.3f} s; pan replay: CPU {pc:.3f} s, wall {pw:.3f} s; "
          f"review/replay CPU {vc / pc:.1f}x")  # fmt: skip
    os.unlink(f.name)
    if a.jobs_hands:
        with tempfile.NamedTemporaryFile("w", suffix=".pan", delete=False) as f:
            f.write("\n".join(long_hands(a.jobs_hands)))
        outs = []
        for jobs in ("1", "2"):
            t = time.perf_counter()
            got = subprocess.run([pan, "review", "-q", "--jobs", jobs, f.name], capture_output=True, text=True)
            outs.append(got.stdout + got.stderr)
            print(f"--jobs {jobs}: {a.jobs_hands} hands, wall {time.perf_counter() - t:.2f} s")
        print(f"outputs identical: {outs[0] == outs[1]}")
        os.unlink(f.name)
    night(a.runs, a.against)


def marks(pan: str, name: str) -> list[tuple[int, int, str, str]]:
    """(hand, line, kind, mark) of every marked judgement of ``pan review --json``."""
    import json

    got = subprocess.run([pan, "review", "-q", "--json", name], capture_output=True, text=True, check=False)
    return [(j["hand"], j["line"], j["kind"], j["mark"]) for j in json.loads(got.stdout)["judgements"] if j["mark"]]


def night(runs: int, against: str | None) -> None:
    """Figure 5: a 30-hand five-player night, one process, default depth."""
    pan = os.path.join(os.path.dirname(sys.executable), "pan")
    other = os.path.join(against, ".venv", "bin", "pan") if against else None
    text = subprocess.run([pan, "simulate", "--players", "5", "--hands", "30", "--seed", "1"], capture_output=True,
                          text=True, check=True).stdout  # fmt: skip
    with tempfile.NamedTemporaryFile("w", suffix=".pan", delete=False) as f:
        f.write(text)
    mine, theirs = [], []
    for _ in range(runs):
        mine.append(run([pan, "review", "-q", f.name]))
        if other:
            theirs.append(run([other, "review", "-q", f.name]))
    c, w = statistics.median(x[0] for x in mine), statistics.median(x[1] for x in mine)
    print(
        f"night (30 hands, 5 players): pan review CPU {c:.2f} s, wall {w:.2f} s (median of {runs}; target: CPU < 3 s)"
    )
    if other:
        oc, ow = statistics.median(x[0] for x in theirs), statistics.median(x[1] for x in theirs)
        print(f"  {against}: CPU {oc:.2f} s, wall {ow:.2f} s; this tree / that one, CPU: {c / oc:.2f}x")
        a, b = marks(pan, f.name), marks(other, f.name)
        print(f"  marks: {len(a)} here, {len(b)} there, {len(set(a) & set(b))} the same")
    os.unlink(f.name)


if __name__ == "__main__":
    main()
