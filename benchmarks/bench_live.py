"""Benchmark of ``pan live``: judging a line deep in a hand, and the full-screen view's start.

Run from the repository root (the package installed, e.g. ``pip install -e .``)::

    python benchmarks/bench_live.py                # a 300-line hand, 30 runs
    python benchmarks/bench_live.py --lines 600 --repeat 10

The hand: two players without deal lines, each turn a plain ``draw C, discard C`` through the
pack's cards (the record's longest kind of hand: hoyle's stock gives 299 turns). It prints, for
the line entered at line ``--lines`` of the hand, the median and worst of ``--repeat`` runs of:

* the judgement alone (:meth:`Session.enter` with the file's ``fsync``: the hand so far read and
  refereed again with the line, the line appended and on the disk);
* the view's update after it (:func:`pancli.render.live.table_lines`, ``ledger_lines`` and
  ``may_now``: the referee's table position, the seats, the ledger);
* both together (target: under 30 ms);

and the view's start: a fresh process that imports the command, opens the session, draws the
first screen headless (Textual's ``run_test``) and ends, wall time (target: under 0.5 s; the
interpreter's own start is printed for comparison).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pancli.app.live import LiveOptions, Session
from pancli.cards import Rank, Suit, card
from pancli.render.live import ledger_lines, may_now, table_lines

HOYLE_CARDS = [card(r, s) for r in Rank if r.value not in (8, 9, 10) for s in Suit]


def hand_lines(n: int) -> list[str]:
    """``n`` lines of a two-player hand: the decisions, then plain turns."""
    out = ["Ana stay", "Ben stay"]
    i = 0
    while len(out) < n:
        c = HOYLE_CARDS[i % len(HOYLE_CARDS)]
        out.append(f"{'Ana' if i % 2 == 0 else 'Ben'} draw {c}, discard {c}")
        i += 1
    return out


def judge_once(folder: Path, lines: list[str]) -> tuple[float, float, float]:
    """Seconds to judge and write the last line, and to draw the view's text after it (wall);
    CPU seconds of both."""
    path = folder / "long.pan"
    path.write_text('[Players "Ana Ben"]\n\n' + "".join(x + "\n" for x in lines[:-1]), encoding="utf-8")
    with Session(str(path), LiveOptions()) as session:
        night = session.finished_hands()
        c = time.process_time()
        t = time.perf_counter()
        entry = session.enter(lines[-1])
        judged = time.perf_counter() - t
        assert entry.verdict.value == "accepted", entry.error
        t = time.perf_counter()
        table_lines(session)
        ledger_lines(session.ledger(night))
        may_now(session)
        drawn = time.perf_counter() - t
        cpu = time.process_time() - c
    return judged, drawn, cpu


START = """
import asyncio, sys, time
t0 = time.perf_counter()
from pancli.app.live import LiveOptions, Session
from pancli.render.live_view import LiveApp
s = Session(sys.argv[1], LiveOptions(("Ana", "Ben", "Cruz", "Dee"), stake="0.25"))
s.open()
async def main():
    app = LiveApp(s)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
asyncio.run(main())
s.close()
print(time.perf_counter() - t0)
"""


def _timed(cmd: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds of a process."""
    t = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(p.pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0, cmd
    return time.perf_counter() - t, usage.ru_utime + usage.ru_stime


def view_start(folder: Path) -> tuple[float, float, float, float]:
    """Wall and CPU seconds of a process that opens the view and draws its first screen; of a
    bare interpreter."""
    path = folder / "start.pan"
    if path.exists():
        path.unlink()
    wall, cpu = _timed([sys.executable, "-c", START, str(path)])
    bare_wall, bare_cpu = _timed([sys.executable, "-c", "pass"])
    return wall, cpu, bare_wall, bare_cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lines", type=int, default=300, help="the line of the hand entered (default 300)")
    ap.add_argument("--repeat", type=int, default=30)
    args = ap.parse_args()
    lines = hand_lines(args.lines)
    with tempfile.TemporaryDirectory() as d:
        folder = Path(d)
        runs = [judge_once(folder, lines) for _ in range(args.repeat)]
        starts = [view_start(folder) for _ in range(max(3, args.repeat // 10))]
    judged = [r[0] for r in runs]
    drawn = [r[1] for r in runs]
    both = [r[0] + r[1] for r in runs]
    cpu = [r[2] for r in runs]
    ms = 1000
    print(f"line {args.lines} of a hand, {args.repeat} runs (median / worst):")
    print(f"  judged and written (fsync): {statistics.median(judged) * ms:.1f} / {max(judged) * ms:.1f} ms")
    print(f"  the view's text after it:   {statistics.median(drawn) * ms:.1f} / {max(drawn) * ms:.1f} ms")
    print(f"  both (target under 30 ms):  {statistics.median(both) * ms:.1f} / {max(both) * ms:.1f} ms")
    print(f"  both, CPU time:             {statistics.median(cpu) * ms:.1f} / {max(cpu) * ms:.1f} ms")
    wall = statistics.median(s[0] for s in starts)
    start_cpu = statistics.median(s[1] for s in starts)
    print(f"view start, whole process (target under 0.5 s): {wall:.3f} s wall, {start_cpu:.3f} s CPU")
    bare_wall = statistics.median(s[2] for s in starts)
    bare_cpu = statistics.median(s[3] for s in starts)
    print(f"  a bare interpreter: {bare_wall:.3f} s wall, {bare_cpu:.3f} s CPU")
    print(f"  (cpus: {os.cpu_count()})")


if __name__ == "__main__":
    main()
