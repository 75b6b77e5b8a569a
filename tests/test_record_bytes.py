"""A byte that is not UTF-8 in a record: every reader of records names it where it stands (R2,
``found the byte \\xff, which is not UTF-8``, as a batch of standard input names one), its hand
is malformed and the others are read; ``pan fmt --write`` leaves such a file as it was."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from cli_kit import SAMPLES, pan

from pancli.records import read_hands
from pancli.records.reader import split_hands

GOOD = (SAMPLES / "tutorial-four-handed.pan").read_bytes()
"""A clean hand (31 lines, its Event tag on line 3)."""

BAD = GOOD.replace(b"Tuesday at Ana's\"]", b"Tuesday at Ana\xff's\"]")
"""The same hand with a byte that is not UTF-8 in its Event tag, column 23."""

SAID = "R2 found the byte \\xff, which is not UTF-8: records are UTF-8"


def _three(tmp_path: Path) -> Path:
    """A clean hand, the hand with the byte (its tag at line 35), a clean hand."""
    path = tmp_path / "three.pan"
    path.write_bytes(GOOD + b"\n" + BAD + b"\n" + GOOD)
    return path


def _hands(data: bytes) -> list[tuple[int, str | None, int, int]]:
    stream = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", errors="surrogateescape", newline=None)
    return [
        (
            h.index,
            h.error and f"{h.error.code} {h.error.message}",
            h.error.line if h.error else 0,
            h.error.col if h.error else 0,
        )
        for h in read_hands(stream, "x.pan")
    ]


def test_R2_the_reader_names_the_byte_where_it_stands_and_reads_the_next_hand() -> None:
    assert _hands(GOOD + b"\n" + BAD + b"\n" + GOOD) == [(1, None, 0, 0), (2, SAID, 35, 23), (3, None, 0, 0)]


@pytest.mark.parametrize(
    ("old", "new", "line", "col"),
    [
        (b"; Ana going out", b"; Ana going\xe9 out", 2, 12),  # a comment line
        (b"deal Ben 7h", b"deal Ben 7\xffh", 11, 11),  # a play line, in a card
        (b"Ana stay", b"Ana stay {a\n long\xff comment}", 16, 6),  # a { comment over two lines
        (b"up 6h", b"up 6h\xe2\x82", 14, 6),  # a character cut short: its first byte
    ],
)
def test_R2_a_byte_anywhere_is_named_at_its_line_and_column(old: bytes, new: bytes, line: int, col: int) -> None:
    assert old in GOOD
    [(_, said, at, column)] = _hands(GOOD.replace(old, new, 1))
    assert said is not None and said.startswith("R2 found the byte \\x")
    assert (at, column) == (line, col)


def test_R2_a_comment_line_with_the_byte_goes_with_the_hand_after_it() -> None:
    between = GOOD + b"\n; Thursday\xff\n" + GOOD
    assert _hands(between) == [(1, None, 0, 0), (2, SAID, 33, 11)]
    assert _hands(b"; only a note\xff\n\n") == [(1, SAID, 1, 14)]


def test_R2_the_hands_read_apart_for_jobs_are_the_hands_read_whole() -> None:
    data = (GOOD + b"\n") * 3 + BAD + b"\n" + GOOD + b"; a note\xff\n" + (GOOD + b"\n") * 2

    def stream() -> io.TextIOWrapper:
        return io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", errors="surrogateescape", newline=None)

    from pancli.records.reader import read_chunk

    apart = [h for chunk in split_hands(stream(), 2) for h in read_chunk(chunk, "x.pan")]
    whole = list(read_hands(stream(), "x.pan"))
    assert [(h.index, h.first_line, h.error and h.error.message) for h in apart] == [
        (h.index, h.first_line, h.error and h.error.message) for h in whole
    ]
    assert [h.index for h in whole if h.error is not None] == [4, 6]


@pytest.mark.parametrize("command", ["replay", "settle", "review"])
def test_R2_a_command_reading_records_names_the_byte_and_goes_on(command: str, tmp_path: Path) -> None:
    path = _three(tmp_path)
    got = pan(command, str(path))
    assert got.exit_code == 1
    assert f"{path}:35:23: {SAID}\n" in got.stderr
    piped = pan(command, "-", input=path.read_bytes())
    assert piped.exit_code == 1
    assert f"-:35:23: {SAID}\n" in piped.stderr


def test_R2_replay_counts_the_hand_malformed_and_settle_lists_it_disputed(tmp_path: Path) -> None:
    path = _three(tmp_path)
    assert "3 hands: 2 clean, 0 with a violation, 0 with a wrong claim, 1 malformed" in pan("replay", str(path)).stdout
    settled = json.loads(pan("settle", "--json", str(path)).stdout)
    [d] = settled["disputed"]
    assert (d["kind"], d["rule"], d["line"], d["col"], d["message"]) == ("malformed", "R2", 35, 23, SAID[3:])
    assert settled["panguingue"]["hands"] == 2


def test_R2_replay_jobs_says_what_one_process_says(tmp_path: Path) -> None:
    path = tmp_path / "many.pan"
    path.write_bytes((GOOD + b"\n") * 6 + BAD + b"\n" + (GOOD + b"\n") * 6)
    one = subprocess.run([sys.executable, "-m", "pancli", "replay", "--json", str(path)], capture_output=True)
    two = subprocess.run(
        [sys.executable, "-m", "pancli", "replay", "--json", "--jobs", "2", str(path)], capture_output=True
    )
    assert (one.returncode, one.stdout, one.stderr) == (two.returncode, two.stdout, two.stderr)
    assert b":195:23: R2 found the byte \\xff" in one.stderr


def test_R2_standings_names_the_byte(tmp_path: Path) -> None:
    got = pan("standings", str(_three(tmp_path)))
    assert got.exit_code == 1
    assert "three.pan:35:23: R2 hand 2 is unreadable: found the byte \\xff, which is not UTF-8" in got.stderr


def test_R2_fmt_write_leaves_a_file_it_could_not_read_faithfully_as_it_was(tmp_path: Path) -> None:
    path = _three(tmp_path)
    before = path.read_bytes()
    os.utime(path, (1_000_000, 1_000_000))
    got = pan("fmt", "--write", str(path))
    assert got.exit_code == 1
    assert f"{path}:35:23: {SAID}\n" in got.stderr
    assert "left unchanged: 1 malformed hand(s)" in got.stderr
    assert path.read_bytes() == before and path.stat().st_mtime == 1_000_000


@pytest.mark.parametrize("mode", [(), ("--check",), ("--diff",), ("--json",)])
def test_R2_fmt_names_the_byte_in_every_mode(mode: tuple[str, ...], tmp_path: Path) -> None:
    path = _three(tmp_path)
    got = pan("fmt", *mode, str(path))
    assert got.exit_code == 1
    assert f"{path}:35:23: {SAID}\n" in got.stderr
    piped = pan("fmt", *mode, "-", input=path.read_bytes())
    assert piped.exit_code == 1
    assert f"-:35:23: {SAID}\n" in piped.stderr


MIXED = (
    b'[Players "Ana Ben"]\nAna stay\nBen stay\n\n'
    b'[Event "caf\xe9"]\n[Players "Ana Ben"]\nAna stay\n\n'  # a tag: line 5
    b'[Players "Ana Ben"]\nAna draw 5\xffh\n\n'  # a card: line 10
    b'; a note \xe2\x82 cut short\n[Players "Ana Ben"]\nAna stay\n\n'  # a comment line, the next hand's: 12
    b'[Players "Ana Ben"]\nAna stay\nBen stay {a note\non \xffa second line}\n\n'  # a { comment: line 19
    b'[Players "Ana Ben"]\nAna stay\n'
)


def test_R2_each_hand_with_a_byte_is_malformed_and_the_others_are_read() -> None:
    got = [(i, said and said[:2], line, col) for i, said, line, col in _hands(MIXED)]
    assert got == [
        (1, None, 0, 0),
        (2, "R2", 5, 12),
        (3, "R2", 10, 11),
        (4, "R2", 12, 10),
        (5, "R2", 19, 4),
        (6, None, 0, 0),
    ]


def test_R2_fmt_write_never_writes_a_byte_back_as_U_FFFD(tmp_path: Path) -> None:
    """A file to reformat (a run of spaces) with a Latin-1 byte: it was rewritten with U+FFFD."""
    path = tmp_path / "latin1.pan"
    path.write_bytes(b'[Event "caf\xe9"]\n[Players "Ana Ben"]\nAna   stay\nBen stay\n')
    got = pan("fmt", "--write", str(path))
    assert got.exit_code == 1
    assert f"{path}:1:12: R2 found the byte \\xe9, which is not UTF-8: records are UTF-8\n" in got.stderr
    assert path.read_bytes() == b'[Event "caf\xe9"]\n[Players "Ana Ben"]\nAna   stay\nBen stay\n'
