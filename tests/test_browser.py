"""The ``pan replay --html`` page of a shipped sample, in a real browser (headless Chromium):
no console error, the cards and the ledger in the rendered DOM, a screenshot that is not blank.

Skipped, with the reason, where Chromium is not installed (``.ci/run`` installs it).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import zlib
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from pancli.cli import cli

CHROMIUM = next((p for p in map(shutil.which, ("chromium", "chromium-browser", "google-chrome")) if p), None)
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (.ci/run installs it)")


def _chromium(tmp_path: Path, *args: str, url: str) -> subprocess.CompletedProcess[str]:
    assert CHROMIUM is not None
    cmd = [
        CHROMIUM,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--hide-scrollbars",
        "--no-first-run",
        f"--user-data-dir={tmp_path / 'profile'}",
        "--enable-logging=stderr",
        "--v=0",
        *args,
        url,
    ]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=False)


def _console(stderr: str) -> list[str]:
    """The page's console messages (errors, failed loads) in Chromium's log."""
    return [line for line in stderr.splitlines() if ":CONSOLE" in line]


def _rgb(png: bytes) -> tuple[int, int, list[bytes]]:
    """Width, height and the rows of an 8-bit RGB or RGBA PNG, as RGB triples' bytes."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat = 8, b""
    width = height = channels = 0
    while pos < len(png):
        n = int.from_bytes(png[pos : pos + 4], "big")
        kind, data = png[pos + 4 : pos + 8], png[pos + 8 : pos + 8 + n]
        pos += 12 + n
        if kind == b"IHDR":
            width, height = int.from_bytes(data[:4], "big"), int.from_bytes(data[4:8], "big")
            assert data[8] == 8 and data[9] in (2, 6) and data[12] == 0  # 8-bit RGB(A), not interlaced
            channels = 3 if data[9] == 2 else 4
        elif kind == b"IDAT":
            idat += data
    raw = zlib.decompress(idat)
    stride = width * channels
    rows: list[bytes] = []
    prev = bytearray(stride)
    i = 0
    for _ in range(height):
        kind_, line = raw[i], bytearray(raw[i + 1 : i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - channels] if x >= channels else 0
            b = prev[x]
            if kind_ == 1:
                line[x] = (line[x] + a) & 255
            elif kind_ == 2:
                line[x] = (line[x] + b) & 255
            elif kind_ == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif kind_ == 4:
                c = prev[x - channels] if x >= channels else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line) if channels == 3 else bytes(v for j, v in enumerate(line) if j % 4 != 3))
        prev = line
    return width, height, rows


def test_the_console_check_sees_a_broken_page(tmp_path: Path) -> None:
    """The check below can fail: a page with a script error has console messages."""
    bad = tmp_path / "bad.html"
    bad.write_text("<!DOCTYPE html><p>x</p><script>console.error('boom'); nosuch();</script>", encoding="utf-8")
    r = _chromium(tmp_path, "--dump-dom", url=bad.as_uri())
    assert _console(r.stderr), r.stderr[-2000:]


def test_a_sample_report_renders_in_chromium_with_cards_and_ledger(tmp_path: Path) -> None:
    page = tmp_path / "friday.html"
    result = CliRunner().invoke(cli, ["replay", "samples/friday-hoyle.pan", "--html", str(page)])
    assert result.exit_code == 0
    shot = tmp_path / "shot.png"
    dom = _chromium(
        tmp_path,
        "--dump-dom",
        f"--screenshot={shot}",
        "--window-size=900,900",
        "--force-device-scale-factor=0.5",
        url=page.as_uri(),
    )
    assert dom.returncode == 0, dom.stderr[-2000:]
    assert _console(dom.stderr) == []
    html = dom.stdout
    cards = re.findall(r'<i(?: class="[a-z ]+")?>([^<]+)</i>', html)  # each card: its rank and suit
    assert len(cards) > 100 and "5 \u2660" in cards and "K \u2665" in cards
    assert "ledger-table" in html and "Cruz" in html and "+36" in html
    assert "Eli pays Ana" in html
    width, height, rows = _rgb(shot.read_bytes())
    assert width > 100 and height > 100
    pixels = [row[x : x + 3] for row in rows for x in range(0, len(row), 3)]
    background = Counter(pixels).most_common(1)[0][0]
    drawn = sum(p != background for p in pixels) / len(pixels)
    assert drawn > 0.05, f"the screenshot is almost blank ({drawn:.1%} drawn)"
    red = sum(1 for p in pixels if p[0] > 150 and p[1] < 90 and p[2] < 90)  # red suits, the losses' bars
    assert red > 20, "no red ink: the card pictures were not drawn"


def _shot(tmp_path: Path, page: Path, size: str) -> tuple[subprocess.CompletedProcess[str], list[bytes]]:
    """The page's DOM and its screenshot's rows (RGB bytes), at ``size`` pixels, scale 1."""
    shot = tmp_path / "shot.png"
    dom = _chromium(tmp_path, "--dump-dom", f"--screenshot={shot}", f"--window-size={size}",
                    "--force-device-scale-factor=1", url=page.as_uri())  # fmt: skip
    assert dom.returncode == 0, dom.stderr[-2000:]
    assert _console(dom.stderr) == []
    return dom, _rgb(shot.read_bytes())[2]


def test_the_bar_chart_shows_wide_names_whole(tmp_path: Path) -> None:
    """A name of wide letters ("MMMMMMMM", "Memo") once overran the room left of the axis and was
    cut at the chart's left edge ("emo"): no ink touches that edge, and each name is drawn."""
    from pancli.render.html import CSS, bars

    names = {"MMMMMMMM": 8, "Memo": -4, "WWWWWW": 3, "Ana": -7}
    page = tmp_path / "bars.html"
    page.write_text(f"<!DOCTYPE html><html><head><style>{CSS} body{{margin:0;background:#fff}}</style></head>"
                    f"<body>{bars(names)}</body></html>", encoding="utf-8")  # fmt: skip
    _, rows = _shot(tmp_path, page, "600,200")
    height = len(names) * 20 + 8

    def ink(x: int, y: int) -> bool:
        r, g, b = rows[y][3 * x : 3 * x + 3]
        return r + g + b < 3 * 160

    assert not any(ink(x, y) for x in (0, 1, 2) for y in range(height)), "a name is cut at the chart's left edge"
    for i in range(len(names)):  # each label row has ink left of the axis
        assert any(ink(x, y) for x in range(3, 60) for y in range(i * 20 + 4, i * 20 + 18)), f"label {i} not drawn"


def test_a_comment_written_over_several_lines_is_one_paragraph(tmp_path: Path) -> None:
    page = tmp_path / "dispute.html"
    result = CliRunner().invoke(cli, ["replay", "samples/tutorial-dispute.pan", "--html", str(page)])
    assert result.exit_code == 1
    dom, _ = _shot(tmp_path, page, "900,600")
    head = dom.stdout.split('<dl class="tags">')[0].split('id="hand-1"')[1]
    notes = re.findall(r'<p class="note">(.*?)</p>', head, re.S)
    assert len(notes) == 1, notes
    assert notes[0].startswith("The tutorial's hand as the table scored it") and "The referee disagrees" in notes[0]
