"""Benchmark of ``pan replay FILE --html OUT.html``: writing the page and opening it.

Run from the repository root (the package installed, e.g. ``pip install -e .``)::

    python benchmarks/bench_html.py                    # a 100-hand record, 5 runs each
    python benchmarks/bench_html.py --hands 100 --repeat 3 --page old.html

The record is ``pan simulate --players 6 --seed 1`` of ``--hands`` hands, cached under
``benchmarks/out/`` (shared with ``bench_replay.py``). It prints, all measured in the same run
(machines are noisy: compare the figures with their calibration):

1. **Writing**: ``pan replay FILE --html OUT`` against ``pan replay FILE`` (text to nothing),
   whole process, run alternately, the median of ``--repeat`` runs each (target: under 2 s);
   the page's size and number of elements.
2. **Opening** (with Chromium installed): a small wrapper page loads the report in a 1280 x 900
   frame and, when the frame's load event fires, forces its style and layout
   (``offsetHeight``) and notes the time since the frame was created; the same for an empty
   page, alternately (the calibration: what any page costs). Each is one headless Chromium
   process (``--dump-dom`` of the wrapper, which holds the figures); the median of
   ``--repeat`` runs. The page "opens" in ``report - empty`` (target: under 1 s). Also printed:
   the frame's first contentful paint, and the whole process's wall time of a screenshot of
   the page against one of the empty page.

``--page FILE`` also measures the opening of another page in the same runs (an A/B of two
versions of the report: write the old one with the old tree).
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from html.parser import HTMLParser
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_replay import env, pan_command, simulated

WRAPPER = """<!DOCTYPE html><html><body><pre id="out">no result</pre><script>
const t0 = performance.now();
const f = document.createElement("iframe");
f.style.width = "1280px"; f.style.height = "900px";
f.onload = () => {
  const d = f.contentDocument, w = f.contentWindow;
  const height = d.body ? d.body.offsetHeight : 0;  // style and layout, now
  const laid = performance.now() - t0;
  const fcp = w.performance.getEntriesByName("first-contentful-paint")[0];
  document.getElementById("out").textContent = JSON.stringify(
    {laid: laid, fcp: fcp ? fcp.startTime : null, height: height, elements: d.getElementsByTagName("*").length});
};
f.src = "PAGE";
document.body.appendChild(f);
</script></body></html>
"""


def wall(cmd: list[str]) -> float:
    """Seconds ``cmd`` takes, output thrown away."""
    t = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env(), check=False)
    return time.perf_counter() - t


def elements(page: Path) -> int:
    """The number of elements of an HTML page."""

    class Count(HTMLParser):
        n = 0

        def handle_starttag(self, tag: str, attrs: object) -> None:
            self.n += 1

    c = Count()
    c.feed(page.read_text(encoding="utf-8"))
    return c.n


def opened(chromium: str, folder: Path, page: Path) -> dict[str, float]:
    """The figures of the wrapper for ``page`` (one Chromium process)."""
    wrapper = folder / f"open-{page.stem}.html"
    wrapper.write_text(WRAPPER.replace("PAGE", page.name), encoding="utf-8")
    cmd = [
        chromium,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--allow-file-access-from-files",
        f"--user-data-dir={folder / 'profile'}",
        "--dump-dom",
        wrapper.as_uri(),
    ]
    r = subprocess.run(cmd, capture_output=True, text=True, check=False, timeout=300)
    m = re.search(r'<pre id="out">(\{.*?\})</pre>', r.stdout)
    if m is None:
        raise SystemExit(f"no figures from Chromium for {page}:\n{r.stdout[-500:]}{r.stderr[-1500:]}")
    figures: dict[str, float] = json.loads(m.group(1))
    return figures


def screenshot(chromium: str, folder: Path, page: Path) -> list[str]:
    return [
        chromium,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        f"--user-data-dir={folder / 'profile'}",
        "--window-size=1280,900",
        f"--screenshot={folder / 'shot.png'}",
        page.as_uri(),
    ]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, default=100)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--page", type=Path, help="another page to open in the same runs (A/B)")
    args = ap.parse_args()
    pan = pan_command()
    record = simulated(args.hands)

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        report = folder / "report.html"
        times: dict[str, list[float]] = {"replay": [], "html": []}
        for _ in range(args.repeat):
            times["replay"].append(wall([*pan, "replay", str(record)]))
            times["html"].append(wall([*pan, "replay", str(record), "--html", str(report)]))
        html, replay = statistics.median(times["html"]), statistics.median(times["replay"])
        size = report.stat().st_size
        print(f"1. {args.hands} hands, whole process, median of {args.repeat}:")
        print(f"   pan replay --html  {html:6.2f} s   (target < 2 s)")
        print(f"   pan replay         {replay:6.2f} s   (calibration: the same record, text to nothing)")
        print(f"   page {size / 1e6:.2f} MB, {elements(report):,} elements")

        chromium = next((p for p in map(shutil.which, ("chromium", "chromium-browser", "google-chrome")) if p), None)
        if chromium is None:
            print("2. chromium is not installed: the page's opening is not measured")
            return
        empty = folder / "empty.html"
        empty.write_text("<!DOCTYPE html><title>empty</title><p>empty</p>", encoding="utf-8")
        pages = {"empty": empty, "report": report}
        if args.page is not None:
            other = folder / "other.html"
            shutil.copyfile(args.page, other)
            pages["other"] = other
        runs: dict[str, list[dict[str, float]]] = {k: [] for k in pages}
        shots: dict[str, list[float]] = {k: [] for k in pages}
        for _ in range(args.repeat):
            for k, p in pages.items():
                runs[k].append(opened(chromium, folder, p))
                shots[k].append(wall(screenshot(chromium, folder, p)))
        base = statistics.median(r["laid"] for r in runs["empty"]) / 1000
        print(f"2. opening in headless Chromium (1280 x 900), median of {args.repeat}:")
        print(f"   {'page':8} {'loaded+laid out':>16} {'minus empty':>12} {'first paint':>12} {'screenshot':>11}")
        for k in pages:
            laid = statistics.median(r["laid"] for r in runs[k]) / 1000
            fcps = [r["fcp"] for r in runs[k] if r["fcp"] is not None]
            fcp = f"{statistics.median(fcps) / 1000:10.2f} s" if fcps else "         -  "
            shot = statistics.median(shots[k])
            print(f"   {k:8} {laid:14.2f} s {laid - base:10.2f} s {fcp} {shot:9.2f} s")
        print("   target: the report's 'minus empty' under 1 s")


if __name__ == "__main__":
    main()
