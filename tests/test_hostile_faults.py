"""Hostile input and faults of a third kind: binary data, names that are not UTF-8, names at the
length limit, errors that are not about standard output, output onto input, long card lists, the
API's errors across processes, and running out of memory. Each ends with a message naming what
failed, never a traceback, never a hang, nothing lost.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from cli_kit import ROOT, SAMPLES

from pancli.records.reader import read_chunk, read_hands, split_hands

LONG = os.environ.get("PAN_FUZZ") == "long"
GOOD = (SAMPLES / "friday-hoyle.pan").read_text(encoding="utf-8")


def run(
    *args: str,
    stdin: object = subprocess.DEVNULL,
    input: bytes | None = None,
    env: dict[str, str] | None = None,
    cwd: str | Path = ROOT,
    timeout: float = 60,
    preexec_fn: object = None,
) -> subprocess.CompletedProcess[bytes]:
    """``pan ARGS`` in a process of its own (``timeout`` only guards against a hang: no test waits
    on the machine's speed)."""
    return subprocess.run(
        [sys.executable, "-m", "pancli", *args],
        stdin=None if input is not None else stdin,  # type: ignore[arg-type]
        input=input,
        capture_output=True,
        timeout=timeout,
        cwd=cwd,
        env={**os.environ, **(env or {})},
        preexec_fn=preexec_fn,  # type: ignore[arg-type]
    )


# --------------------------------------------------------------------------- binary data


ENDLESS = [
    ("replay", "/dev/zero"),
    ("replay", "-"),
    ("check", "-"),
    ("pay", "-"),
    ("score", "-"),
    ("analyze", "-"),
    ("fmt", "-"),
    ("settle", "/dev/zero"),
    ("standings", "/dev/zero"),
    ("review", "/dev/zero"),
    ("analyze", "/dev/zero", "--at", "1"),
    ("replay", "--jobs", "2", "/dev/zero"),
]


@pytest.mark.parametrize("args", ENDLESS if LONG else ENDLESS[:3] + ENDLESS[-2:])
def test_R2_a_stream_of_NULs_ends_at_the_first_one(args: tuple[str, ...]) -> None:
    """``/dev/zero`` never ends a line: the first NUL is binary data, said once, and reading stops."""
    with open("/dev/zero", "rb") as zero:
        p = run(*args, stdin=zero)
    assert p.returncode == 1, p.stderr
    assert b"Traceback" not in p.stderr
    assert p.stderr.count(b"binary data (a NUL byte)") == 1, p.stderr
    assert b":1:1: " in p.stderr


def test_R2_a_NUL_ends_the_record_there_and_the_hands_before_it_stand() -> None:
    text = GOOD + "\n" + GOOD.replace("Ana", "An\x00a", 3)
    hands = list(read_hands(io.StringIO(text), "x.pan"))
    good = list(read_hands(io.StringIO(GOOD), "x.pan"))
    assert [h.error for h in hands[: len(good)]] == [None] * len(good)
    last = hands[-1]
    assert last.error is not None and last.error.code == "R2"
    line = text.count("\n", 0, text.index("\x00")) + 1
    col = text.index("\x00") - text.rfind("\n", 0, text.index("\x00"))
    assert (last.error.line, last.error.col) == (line, col)
    assert last.error.message.startswith("binary data (a NUL byte)")
    # cut into chunks (replay --jobs), the same hands
    chunked = [h for c in split_hands(io.StringIO(text), 1) for h in read_chunk(c, "x.pan")]
    assert [(h.index, h.first_line, h.last_line, str(h.error)) for h in chunked] == [
        (h.index, h.first_line, h.last_line, str(h.error)) for h in hands
    ]


def test_R2_a_file_of_NULs_is_binary_data_not_UTF16(tmp_path: Path) -> None:
    zeros = tmp_path / "zeros.pan"
    zeros.write_bytes(b"\x00" * 300)
    p = run("replay", str(zeros))
    assert p.returncode == 1 and b"UTF-16" not in p.stderr
    assert b"zeros.pan:1:1: R2 binary data (a NUL byte)" in p.stderr
    wide = tmp_path / "wide.pan"
    wide.write_bytes('[Players "Ana Ben"]\n\nAna stay\n'.encode("utf-16"))
    p = run("replay", str(wide))
    assert p.returncode == 1 and b"wide.pan:1:1: R2 the file is UTF-16 text" in p.stderr
    assert b"binary data" not in p.stderr
