"""Benchmark of ``pan settle`` and ``pan replay --html`` (issue 12).

Run from the repository root (the package installed, e.g. ``pip install -e .``)::

    python benchmarks/bench_settle.py                   # 100,000 hands, 3 runs each
    python benchmarks/bench_settle.py --hands 20000 --repeat 1

Inputs are generated once and cached under ``benchmarks/out/`` (``replay-6p-N.pan``: N hands
of ``pan simulate --players 6 --seed 1``, shared with ``bench_replay.py``). It prints, all
measured in the same run (machines are noisy: compare ratios):

1. ``pan settle FILE`` against ``pan replay FILE`` (plain text), whole process, stdout to
   nothing, run alternately; the median of ``--repeat`` runs each and their ratio
   (target: settle within 1.2 times replay);
2. ``pan replay FILE --html OUT`` of a 100-hand record, whole process (target < 2 s), against
   ``pan replay FILE`` of the same record, alternately, and the page's size;
3. with Chromium installed: the time headless Chromium takes to load and render that page
   (``--dump-dom``) minus the time it takes for an empty page, alternately (target < 1 s).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_replay import env, pan_command, simulated


def wall(cmd: list[str]) -> float:
    """Seconds ``cmd`` takes, output thrown away."""
    t = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env(), check=False)
    return time.perf_counter() - t


def alternately(cmds: dict[str, list[str]], repeat: int) -> dict[str, float]:
    """The median wall time of each command, the commands run in turn ``repeat`` times."""
    times: dict[str, list[float]] = {k: [] for k in cmds}
    for _ in range(repeat):
        for k, cmd in cmds.items():
            times[k].append(wall(cmd))
    return {k: statistics.median(v) for k, v in times.items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, default=100_000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    pan = pan_command()

    big = simulated(args.hands)
    t = alternately({"replay": [*pan, "replay", str(big)], "settle": [*pan, "settle", str(big)]}, args.repeat)
    ratio = t["settle"] / t["replay"]
    print(f"1. {args.hands:,} hands: pan replay {t['replay']:.2f} s, pan settle {t['settle']:.2f} s")
    print(f"   settle / replay = {ratio:.2f} (target <= 1.2)")

    small = simulated(100)
    with tempfile.TemporaryDirectory() as tmp:
        page = Path(tmp) / "report.html"
        t = alternately(
            {"replay": [*pan, "replay", str(small)], "html": [*pan, "replay", str(small), "--html", str(page)]},
            max(args.repeat, 3),
        )
        size = page.stat().st_size
        print(
            f"2. 100 hands: pan replay --html {t['html']:.2f} s (target < 2 s), pan replay {t['replay']:.2f} s;"
            f" page {size / 1e6:.1f} MB"
        )
        chromium = next((p for p in map(shutil.which, ("chromium", "chromium-browser", "google-chrome")) if p), None)
        if chromium is None:
            print("3. chromium is not installed: the page's load time is not measured")
            return
        empty = Path(tmp) / "empty.html"
        empty.write_text("<!DOCTYPE html><title>empty</title>", encoding="utf-8")
        base = [chromium, "--headless", "--no-sandbox", "--disable-gpu", f"--user-data-dir={tmp}/profile", "--dump-dom"]
        t = alternately({"empty": [*base, empty.as_uri()], "page": [*base, page.as_uri()]}, max(args.repeat, 3))
        print(
            f"3. Chromium loads and renders the page in {t['page'] - t['empty']:.2f} s more than an empty page"
            f" ({t['page']:.2f} s against {t['empty']:.2f} s, whole process; target < 1 s)"
        )


if __name__ == "__main__":
    main()
