"""The terminal layout at 40, 80 and 200 columns (in-process, the terminal forced by
``PAN_FORCE_TERMINAL``): one wrap rule for every labelled message (the lines a message wraps
onto start under its first word, never at column 0); a meld in brackets and the ``(pan rules X)``
hint never split across lines; no name, number or card cut to "…" (a table too wide for the
screen becomes plain lines); the play column of a wide screen as wide as its longest line; and a
screen width bounded whatever ``COLUMNS`` says."""

from __future__ import annotations

import re

import pytest
from cli_kit import SAMPLES, pan
from rich.cells import cell_len

STYLE = re.compile("\x1b\\[[0-9;]*m")
WIDTHS = (40, 80, 200)


def on_terminal(*args: str, columns: int) -> str:
    """What ``pan ARGS`` draws on a terminal of ``columns`` columns, styles taken out."""
    r = pan(*args, env={"PAN_FORCE_TERMINAL": "1", "NO_COLOR": "1", "COLUMNS": str(columns)})
    assert r.exit_code in (0, 1), r.output
    return STYLE.sub("", r.stdout)


def block(out: str, label: str, until: str) -> list[str]:
    """The lines from the one that starts with ``label`` to the next that starts with ``until``."""
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(label))
    end = next(i for i in range(start + 1, len(lines)) if lines[i].startswith(until))
    return lines[start:end]


REPLAYS = ["irregular-I2-made-good.pan", "illegal-P9-flat-player.pan", "illegal-claim-wrong-pays.pan",
           "tutorial-dispute.pan", "friday-hoyle.pan"]  # fmt: skip


@pytest.mark.parametrize("columns", WIDTHS)
@pytest.mark.parametrize("sample", REPLAYS)
def test_replay_fits_the_screen_and_keeps_melds_and_hints_whole(sample: str, columns: int) -> None:
    out = on_terminal("replay", str(SAMPLES / sample), columns=columns)
    assert "…" not in out
    for line in out.splitlines():
        assert cell_len(line) <= columns, line
        assert line.count("[") == line.count("]"), f"a meld split at {columns} columns: {line!r}"
        assert not re.search(r"\(pan\s*$", line), f"the hint split at {columns} columns: {line!r}"


def test_I2_irregularity_and_remedy_wrap_under_their_message_as_a_violation_does() -> None:
    out = on_terminal("replay", str(SAMPLES / "irregular-I2-made-good.pan"), columns=40)
    irregularity = block(out, "IRREGULARITY ", "  remedy:")
    assert len(irregularity) > 1 and all(line.startswith(" " * 13) for line in irregularity[1:]), irregularity
    assert "irregular-I2-made-good.pan" in out  # the path broken after a "/", its file name whole
    remedy = block(out, "  remedy: ", "Cruz went out")
    assert len(remedy) > 1 and all(line.startswith(" " * 10) for line in remedy[1:]), remedy
    violation = block(
        on_terminal("replay", str(SAMPLES / "illegal-P9-flat-player.pan"), columns=40), "VIOLATION ", "  ruling:"
    )
    assert all(line.startswith(" " * 10) for line in violation[1:]), violation


@pytest.mark.parametrize("columns", WIDTHS)
def test_P9_the_rule_hint_stays_on_one_line(columns: int) -> None:
    out = on_terminal("replay", str(SAMPLES / "illegal-P9-flat-player.pan"), columns=columns)
    assert "(pan rules P9)" in out


def test_C2_a_meld_stays_on_one_line_in_a_narrow_timeline() -> None:
    out = on_terminal("replay", str(SAMPLES / "irregular-I2-made-good.pan"), columns=40)
    for meld in ("[5s 5s 5s]", "[7c 7c 7c 4d]", "[7c 7c 7c 7c]"):
        assert meld in out, meld


def test_a_wide_screen_gives_the_play_column_its_longest_line() -> None:
    """At 200 columns no play line wraps: the comments and actions of a turn stay on its line."""
    out = on_terminal("replay", str(SAMPLES / "irregular-I2-made-good.pan"), columns=200)
    assert re.search(r"2\. Cruz draw 7c, .* discard Jd +Cruz I2", out), out[:3000]
    rows = [line for line in out.splitlines() if re.match(r" +\d+  \S", line)]
    assert len(rows) == 26  # each play line on one screen line (none continues on the next)
    assert not any(re.match(r" {6}\S", line) for line in out.splitlines())


@pytest.mark.parametrize("columns", [16, 24, 32])
def test_the_ledger_never_cuts_a_name_or_a_number(columns: int) -> None:
    out = on_terminal("replay", str(SAMPLES / "friday-hoyle.pan"), columns=columns)
    assert "…" not in out
    for word in ("Ana", "Cruz", "stayed", "+39", "-11", "+9.75"):
        assert re.search(rf"(?<![\w+-]){re.escape(word)}(?!\w)", out), word


@pytest.mark.parametrize("columns", WIDTHS)
def test_settle_headers_and_money_are_never_cut(columns: int) -> None:
    out = on_terminal("settle", "--stake", "0.25", *(str(p) for p in sorted(SAMPLES.glob("*.pan"))), columns=columns)
    assert "…" not in out
    assert "player" in out or "Ana:" in out
    for money in ("+38.25", "+87.50", "-76.50"):
        assert f"money {money}" in out or re.search(rf"│ +{re.escape(money)} │", out), money  # never apart
    assert max(map(cell_len, out.splitlines())) <= columns


def long_names_game(tmp_path: object) -> str:
    from pathlib import Path

    assert isinstance(tmp_path, Path)
    text = (SAMPLES / "pagruc-common-room.pan").read_text(encoding="utf-8")
    for short, long in (("Ana", "Anastasia_Maria"), ("Ben", "Benedictus_Otto"), ("Cruz", "Cruzeiro_Fernando"),
                        ("Dee", "Deedeedee_Smith")):  # fmt: skip
        text = re.sub(rf"\b{short}\b", long, text)
    path = tmp_path / "long.pan"
    path.write_text(text, encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("columns", WIDTHS)
def test_G8_standings_never_cut_a_dealer_or_a_player(tmp_path: object, columns: int) -> None:
    out = on_terminal("standings", long_names_game(tmp_path), columns=columns)
    assert "…" not in out
    for name in ("Anastasia_Maria", "Benedictus_Otto", "Cruzeiro_Fernando", "Deedeedee_Smith"):
        assert out.count(name) >= 3, name  # a column head or a row's name, a dealer, a standing
    assert max(map(cell_len, out.splitlines())) <= columns


def test_a_huge_columns_value_is_bounded() -> None:
    """``COLUMNS=99999`` no longer pads each rule line and table row to 99,999 cells."""
    from pancli.render.text import MAX_COLUMNS

    out = on_terminal("replay", str(SAMPLES / "friday-hoyle.pan"), columns=99999)
    assert max(map(cell_len, out.splitlines())) <= MAX_COLUMNS
    assert len(out) < 100_000


def test_the_console_and_the_size_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    from pancli.render.terminal import size
    from pancli.render.text import MAX_COLUMNS, stdout_console

    monkeypatch.setenv("COLUMNS", "99999999")
    monkeypatch.setenv("PAN_FORCE_TERMINAL", "1")
    assert stdout_console().width == MAX_COLUMNS
    assert size().columns == MAX_COLUMNS


@pytest.mark.parametrize("columns", WIDTHS)
def test_review_summary_fits_the_screen(columns: int) -> None:
    out = on_terminal("review", "--summary", str(SAMPLES / "tutorial-dispute.pan"), columns=columns)
    assert max(map(cell_len, out.splitlines())) <= columns
    if columns < 87:  # the aligned table is 85 columns: one line per player instead
        assert out.startswith("Ana: reviewed 9, ! 1,"), out
        words = " ".join(out.split())  # wrapped at whole words, wherever the width falls
        assert "Ana: reviewed 9, ! 1, ?! 0, ? 0, ?? 0, units given up 0.00, per 100 decisions 19.75," in words
    else:
        assert out.startswith("player  reviewed  !  ?!  ?  ??  units given up  per 100 decisions  lines not reviewed\n")


@pytest.mark.parametrize("columns", [40, 60])
def test_analyze_keeps_its_columns_aligned_on_a_narrow_screen(columns: int) -> None:
    out = on_terminal("analyze", "--samples", "50", "5s", "5s", "5s", "6h", "7h", "Jc", "Qc", "Kc", "2d", "3d",
                      columns=columns)  # fmt: skip
    lines = out.splitlines()
    assert max(map(cell_len, lines)) <= columns
    head = next(line for line in lines if re.match(r"card +live +usable( +raises)? +down +value +total +out", line))
    rows = lines[lines.index(head) + 1 :][:9]
    assert len(rows) == 9
    for name in ("live", "down", "value", "total"):  # right-aligned under their heads
        end = head.index(name) + len(name)
        assert all(row[end - 1].isdigit() and row[end : end + 1] in (" ", "") for row in rows), (name, rows)
    assert "5s 5s 5s 5s" in out and "7c Jc Qc Kc" in out  # a meld never split
    assert ": live " not in out  # columns, not one line per card


@pytest.mark.parametrize("columns", [30, *WIDTHS])
def test_C2_pay_keeps_each_meld_and_head_whole(columns: int) -> None:
    out = on_terminal("pay", "5sss", "7hhh", "--out", columns=columns)
    assert "…" not in out
    assert max(map(cell_len, out.splitlines())) <= columns
    for word in ("5s 5s 5s", "7h 7h 7h", "condition", "legal"):
        assert word in out, word
