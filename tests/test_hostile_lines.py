"""Lines past the limit (R10 in a record, N10 in a line of batch input): the line is reported
with its whole length and reading goes on, whatever its length (MAX_HAND_CHARS once ended the
reading of the whole input there), from a file or a pipe, in every command that reads lines;
the skipped line is never held in memory.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import IO

import pytest
from cli_kit import ROOT, SAMPLES, pan
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pancli.limits import MAX_HAND_CHARS, MAX_LINE_CHARS, LongLine

GOOD = (SAMPLES / "friday-hoyle.pan").read_text(encoding="utf-8")
PAGRUC = (SAMPLES / "pagruc-common-room.pan").read_text(encoding="utf-8")
LENGTHS = [MAX_LINE_CHARS + 1, 300_000, MAX_HAND_CHARS + 2_000_000]
"""Just past the line limit, past it within one read, and past the old stop at MAX_HAND_CHARS."""


def _record(text: str, size: int) -> str:
    """``text`` twice, a line of ``size`` characters (a comment) between them."""
    return text.rstrip("\n") + "\n\n{" + "x" * (size - 2) + "}\n\n" + text


def _r10(size: int) -> str:
    return f"a line of {size:,} characters is too long (at most {MAX_LINE_CHARS:,})"


def _n10(size: int) -> str:
    return f"N10 a text of {size:,} characters is too long (at most 4,096)"


@pytest.mark.parametrize("size", LENGTHS)
@pytest.mark.parametrize("source", ["file", "pipe"])
def test_R10_replay_reports_the_long_line_and_judges_every_hand_after_it(
    size: int, source: str, tmp_path: Path
) -> None:
    text = _record(GOOD, size)
    if source == "file":
        (tmp_path / "r.pan").write_text(text, encoding="utf-8")
        r = pan("replay", "--json", str(tmp_path / "r.pan"))
    else:
        r = pan("replay", "--json", "-", input=text)
    hands = json.loads(r.stdout)
    assert [h["finished"] for h in hands] == [True, False, True, True]  # the long line spoils only its hand
    assert r.exit_code == 1
    assert _r10(size) in r.stderr and f":71:{MAX_LINE_CHARS + 1}: R10" in r.stderr


@pytest.mark.parametrize("command", ["settle", "fmt", "standings"])
def test_R10_settle_fmt_and_standings_go_on_after_a_long_line(command: str, tmp_path: Path) -> None:
    size = LENGTHS[-1]
    record = PAGRUC if command == "standings" else GOOD
    body = record.split("\n[", 1)
    text = body[0] + "\n[" + _record(body[1], size)  # (after a whole hand: the comment opens the next)
    path = tmp_path / "r.pan"
    path.write_text(text, encoding="utf-8")
    alone = tmp_path / "alone.pan"
    alone.write_text(record, encoding="utf-8")
    r = pan(command, str(path))
    assert r.exit_code == 1 and _r10(size) in r.stderr, r.stderr[-300:]
    if command == "fmt":  # the hands after the line are written, canonical
        last = pan("fmt", str(alone)).stdout
        assert r.stdout.endswith(last[last.rindex("[Event") :])
    elif command == "settle":  # 3 hands settled (the first, and both after the line), 1 disputed
        assert "sitting\tpanguingue\t3\t1\tmoney" in r.stdout.splitlines()
    else:  # the hands after the line are read (G8 finds the dealers out of turn there)
        long_at = text[: text.index("{x")].count("\n") + 1
        assert any(int(e.split(":")[1]) > long_at for e in r.stderr.splitlines() if ": G8 " in e), r.stderr


@pytest.mark.parametrize("size", LENGTHS)
@pytest.mark.parametrize("command", ["check", "pay", "score", "analyze"])
def test_N10_a_long_batch_line_names_its_length_and_the_lines_after_it_are_judged(command: str, size: int) -> None:
    after = "7c 7s 7s" if command != "score" else "[Qh Kh Ah] | 2c"
    text = "5sss\n" + "y" * size + f"\n{after}\n# a comment\n{after}\n"
    r = pan(command, "-", input=text)
    assert f"-:2:4097: {_n10(size)}" in r.stderr, r.stderr[:300]
    later = [line.split(":")[1] for line in r.stderr.splitlines() if line.startswith("-:")]
    assert "3" in later and "5" in later  # both later lines judged (each has an error in every command)
    assert r.exit_code in (1, 2)


@pytest.mark.parametrize("command", ["check", "pay", "score", "analyze"])
def test_N10_a_long_line_of_blanks_or_a_comment_is_still_too_long(command: str) -> None:
    """The limit is on the physical line: what the skipped part holds is never read."""
    for line in (" " * 200_000 + "# x", "#" + "x" * 200_000):
        r = pan(command, "-", input=f"{line}\n")
        assert _n10(len(line)) in r.stderr, r.stderr[:300]


@pytest.mark.parametrize("form", [[], ["--json"], ["--jsonl"]])
@pytest.mark.parametrize("command", ["check", "pay", "score", "analyze"])
def test_N10_two_long_lines_alike_at_the_start_each_name_their_own_length(command: str, form: list[str]) -> None:
    head = "z" * (MAX_LINE_CHARS + 10)
    if command in ("pay", "score") and form == ["--json"]:
        form = []  # (their --json judges the lines together)
    r = pan(command, *form, "-", input=f"{head}a\n{head}bb\n{head}a\n")
    assert _n10(MAX_LINE_CHARS + 11) in r.stderr and _n10(MAX_LINE_CHARS + 12) in r.stderr
    assert r.stderr.count(_n10(MAX_LINE_CHARS + 11)) == 2


def test_N10_a_long_line_in_json_output_too() -> None:
    r = pan("check", "--jsonl", "-", input="y" * 300_000 + "\n5sss\n")
    rows = [json.loads(line) for line in r.stdout.splitlines()]
    assert [row["legal"] for row in rows] == [False, True]
    assert _n10(300_000) in r.stderr


def test_the_length_counts_characters_not_bytes_across_reads() -> None:
    """The reader of standard input reads bytes: a character cut between two reads is one."""
    from pancli.cli.common import stdin_blocks

    line = "é" * 3_000_000  # 6 MB: several reads of 1 MiB, some cutting an é in two
    r = pan("check", "-", input=(line + "\n5sss\n").encode())
    assert _n10(3_000_000) in r.stderr
    assert stdin_blocks  # (the reader under test)


def test_a_long_line_comes_as_its_head_and_its_length() -> None:
    import io

    from pancli.records.reader import _blocks

    text = "a\n" + "b" * (MAX_HAND_CHARS + 5) + "\r\nc\n"
    lines = [line for block in _blocks(io.StringIO(text)) for line in block]
    assert lines == ["a", ("b" * 200, MAX_HAND_CHARS + 5), "c"]
    assert LongLine("5s", 9).length == 9


def _feed(stdin: IO[bytes], command: str, chunks: int) -> None:
    block = b"z" * (1 << 20)
    around = GOOD.encode() if command == "replay" else b"7c 7s 7s\n"
    try:
        stdin.write(around)
        for _ in range(chunks):
            stdin.write(block)
        stdin.write(b"\n\n" + around)
        stdin.close()
    except BrokenPipeError:  # pragma: no cover - the test fails on the status below
        pass


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "fork") or sys.platform != "linux", reason="needs Linux")
@pytest.mark.parametrize("args", [("check", "-"), ("replay", "-")])
def test_a_line_of_200_MB_through_a_pipe_is_skipped_in_bounded_memory(args: tuple[str, ...]) -> None:
    """The line is never held: the process's peak memory stays far below its length."""
    proc = subprocess.Popen(
        [sys.executable, "-c", _PEAK, *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
    )
    proc.stdin, stdin = None, proc.stdin  # fed by the thread, not by communicate()
    assert stdin is not None
    feeder = threading.Thread(target=_feed, args=(stdin, args[0], 200))
    feeder.start()
    out, err = proc.communicate(timeout=300)  # a hang detector only
    feeder.join()
    peak_kb = int(err.decode().strip().splitlines()[-1].removeprefix("peak="))
    assert peak_kb < 150_000, peak_kb  # a held 200 MB line would be 200,000 KB and more
    assert b"209,715,200 characters is too long" in err, err[-300:]
    if args[0] == "check":
        assert b"-:4:1: M3" in err  # the line after it
    else:
        assert out.endswith(b"4 hands: 3 clean, 0 with a violation, 0 with a wrong claim, 1 malformed\n")


_PEAK = """
import sys, resource
from pancli.cli import cli
try:
    cli.main(sys.argv[1:], prog_name="pan")
except SystemExit:
    pass
sys.stdout.flush()
print(f"peak={resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}", file=sys.stderr)
"""


@pytest.mark.filterwarnings("ignore:Generating overly large repr")
@settings(max_examples=15 if os.environ.get("PAN_FUZZ") != "long" else 500, suppress_health_check=list(HealthCheck))
@given(
    st.lists(
        st.one_of(
            st.sampled_from(["5sss", "7c 7s 7s", "# a note", "", "3-5h"]),
            st.integers(MAX_LINE_CHARS - 2, MAX_LINE_CHARS + 3).map(lambda n: "5s " * (n // 3) + "x" * (n % 3)),
            st.integers(MAX_LINE_CHARS, 3 * MAX_LINE_CHARS).map(lambda n: "#" * n),
        ),
        min_size=1,
        max_size=8,
    )
)
def test_N10_long_lines_anywhere_each_line_judged_once_with_its_length(lines: list[str]) -> None:
    """Lines at and past the limit among ordinary ones, through ``check -``: every line past the
    limit is one N10 naming its length, every other line is judged as when alone."""
    r = pan("check", "-", input="\n".join(lines) + "\n")
    errors = {int(e.split(":")[1]): e for e in r.stderr.splitlines() if e.startswith("-:")}
    for n, line in enumerate(lines, 1):
        if len(line) > MAX_LINE_CHARS:
            assert errors[n].endswith(_n10(len(line))), errors.get(n)
        else:
            alone = pan("check", "-", input=line + "\n").stderr.rstrip("\n")
            assert errors.get(n, "").split(":", 2)[-1] == alone.split(":", 2)[-1]  # ":COL: RULE message"
