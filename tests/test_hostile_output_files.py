"""Nothing raw in any output, the file name included: a record whose file name holds a line end,
ESC, BEL, an OSC title sequence, a C1 CSI and a bidirectional override, and whose tag values and
comments hold the same, is shown escaped by every command in every form it writes: plain lines,
the terminal, ``--jobs``, JSON, the ``--html`` page (title, headings, tags, comments) and ``--svg``
pictures, through the one escaping function (:func:`pancli.escapes.escape_text`).

Before: ``cat report.html`` changed the terminal's title (the page held the tag values and comments
raw), and the file name was printed raw in every hand header, so a line end in it forged lines.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_kit import ROOT, pan
from test_hostile_output import PAGRUC, PLAIN, RAW, SAMPLE, STYLE, TERMINAL, clean, hostile_record

NAME = "bad\nname\x1b[2J\x07\u202e\x9b1m"
"""A file name no output may print raw: its line end would start a forged line."""
TEXT = "\x1b]0;PWNED\x07 \u202e \x9b31m \x1b[2J"
"""Tag values and comments: a terminal title (OSC), a bidirectional override, a C1 CSI, a clear."""


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("hostile")
    pan_record = folder / f"{NAME}.pan"
    pan_record.write_text(hostile_record(TEXT), encoding="utf-8")
    pagruc = folder / f"{NAME}-pagruc.pan"
    pagruc.write_text(hostile_record(TEXT, PAGRUC), encoding="utf-8")
    return {"pan": pan_record, "pagruc": pagruc}


def nothing_raw(text: str, what: str) -> None:
    found = RAW.search(STYLE.sub("", text))
    assert found is None, f"{what}: raw {found.group()!r}: {text[max(0, found.start() - 60) :][:120]!r}"
    assert "bad\nname" not in text, f"{what}: the file name's line end is printed raw"


FORMS = [([], PLAIN), ([], TERMINAL), (["--json"], PLAIN), (["--jsonl"], PLAIN), (["--jobs", "2"], PLAIN)]


@pytest.mark.slow
@pytest.mark.parametrize("game", ["pan", "pagruc"])
def test_replay_and_settle_print_the_file_name_tags_and_comments_escaped(game: str, records: dict[str, Path]) -> None:
    record = str(records[game])
    for flags, env in FORMS:
        r = clean(pan("replay", *flags, record, env=env), f"replay {flags}")
        nothing_raw(r.stdout + r.stderr, f"replay {flags}")
        assert "bad\\nname\\x1b[2J\\x07\\u202e\\x9b1m" in r.stdout or flags[:1] in (["--json"], ["--jsonl"])
    for flags, env in FORMS[:3]:
        r = clean(pan("settle", *flags, record, env=env), f"settle {flags}")
        nothing_raw(r.stdout + r.stderr, f"settle {flags}")
    if game == "pagruc":
        for flags, env in FORMS[:3]:
            r = clean(pan("standings", *flags, record, env=env), f"standings {flags}")
            nothing_raw(r.stdout + r.stderr, f"standings {flags}")


@pytest.mark.parametrize("game", ["pan", "pagruc"])
def test_the_html_page_holds_no_raw_control_character(game: str, records: dict[str, Path], tmp_path: Path) -> None:
    page = tmp_path / "report.html"
    r = clean(pan("replay", "--html", str(page), str(records[game])), "replay --html")
    nothing_raw(r.stdout + r.stderr, "replay --html")
    html = page.read_text(encoding="utf-8")
    nothing_raw(html, "the page")  # `cat report.html` changes nothing on the terminal
    assert "bad\\nname\\x1b[2J\\x07\\u202e\\x9b1m.pan</title>" in html or "-pagruc.pan</title>" in html
    assert "\\x1b]0;PWNED\\x07 \\u202e \\x9b31m \\x1b[2J" in html  # the tag value, shown as pan shows it


def test_fmt_names_the_file_escaped(records: dict[str, Path]) -> None:
    for flags in ([], ["--check"], ["--diff"]):
        r = clean(pan("fmt", *flags, str(records["pan"]), env=PLAIN), f"fmt {flags}")
        nothing_raw(r.stdout + r.stderr, f"fmt {flags}")


def test_analyze_at_a_position_and_its_svg_print_the_file_name_escaped(
    records: dict[str, Path], tmp_path: Path
) -> None:
    record = records["pan"]
    line = next(n for n, text in enumerate(record.read_text(encoding="utf-8").split("\n"), 1) if " draw " in text)
    picture = tmp_path / "table.svg"
    for flags, env in (([], PLAIN), ([], TERMINAL), (["--json"], PLAIN), (["--svg", str(picture)], PLAIN)):
        r = clean(pan("analyze", str(record), "--at", str(line), *flags, env=env), f"analyze --at {flags}")
        assert r.exit_code == 0, r.stderr
        nothing_raw(r.stdout + r.stderr, f"analyze {flags}")
    svg = picture.read_text(encoding="utf-8")
    nothing_raw(svg, "the picture")
    assert "bad\\nname" in svg


def test_the_samples_hold_no_control_character_so_the_escaping_changes_no_shipped_output() -> None:
    for path in (ROOT / "samples").glob("*.pan"):
        assert RAW.search(path.read_text(encoding="utf-8")) is None, path
    assert RAW.search(SAMPLE) is None


def test_usage_errors_name_a_hostile_path_escaped(records: dict[str, Path], tmp_path: Path) -> None:
    missing = str(tmp_path / NAME / "x")
    for args in (
        ["analyze", "5sss 3-5h Kd Kh 7c 2c", "--svg", f"{missing}.svg"],
        ["replay", "--html", f"{missing}.html", str(records["pan"])],
        ["simulate", "--hands", "1", "-o", f"{missing}.pan"],
        ["analyze", str(records["pan"])],
        ["replay", f"{missing}.pan"],
    ):
        r = pan(*args, env=PLAIN)
        assert r.exit_code == 2, (args, r.stderr)
        nothing_raw(r.stdout + r.stderr, " ".join(args[:2]))
        assert "bad\\nname" in r.stderr
