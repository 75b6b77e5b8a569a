"""Hostile files and streams: one voice for I/O failures (exit 2, the file named, the
right verb), no raw control character on any output, any output encoding, endless inputs stop,
and a file written by pan is never left half-written.
"""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cli_kit import ROOT
from click.testing import CliRunner, Result

from pancli.cli import cli
from pancli.cli.common import io_message
from pancli.escapes import escape_text
from pancli.files import atomic_write

GOOD = (ROOT / "samples" / "friday-hoyle.pan").read_text(encoding="utf-8")


def pan(*args: str, input: str | bytes | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), input=input)


def run(
    *args: str, stdin: object = None, env: dict[str, str] | None = None, timeout: float = 60
) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "pancli", *args],
        stdin=stdin,
        capture_output=True,
        timeout=timeout,
        cwd=ROOT,
        env={**os.environ, **(env or {})},
    )


# --------------------------------------------------------------------------- one voice, exit 2


def _bad_paths(tmp_path: Path) -> dict[str, str]:
    loop = tmp_path / "loop"
    loop.symlink_to(tmp_path / "loop")
    return {
        "missing": str(tmp_path / "nope.pan"),
        "missing-folder": str(tmp_path / "no" / "such" / "x.pan"),
        "folder": str(tmp_path),
        "loop": str(loop),
    }


@pytest.mark.parametrize("kind", ["missing", "missing-folder", "folder", "loop"])
@pytest.mark.parametrize("command", ["replay", "fmt", "standings", "settle"])
def test_every_command_says_cannot_read_the_file_and_exits_2(command: str, kind: str, tmp_path: Path) -> None:
    name = _bad_paths(tmp_path)[kind]
    r = pan(command, name)
    assert r.exit_code == 2, r.output
    assert r.stderr.startswith(f"pan: cannot read {name}: "), r.stderr
    if kind == "loop":
        assert "no such file" not in r.stderr.lower()  # a loop is not a missing file


def test_unreadable_file_is_exit_2_with_permission_named(tmp_path: Path) -> None:
    if os.geteuid() == 0:
        pytest.skip("root reads any file")
    locked = tmp_path / "locked.pan"
    locked.write_text(GOOD, encoding="utf-8")
    locked.chmod(0)
    r = pan("replay", str(locked))
    assert r.exit_code == 2 and "cannot read" in r.stderr


@pytest.mark.skipif(not Path("/proc/self/mem").exists(), reason="needs /proc")
def test_a_read_error_is_a_read_error_not_a_write_error() -> None:
    p = run("replay", "/proc/self/mem")
    assert p.returncode == 2
    assert p.stderr.decode().startswith("pan: cannot read /proc/self/mem: "), p.stderr


def test_simulate_output_into_a_folder_or_a_missing_folder_is_a_write_error(tmp_path: Path) -> None:
    for target in (tmp_path, tmp_path / "no" / "x.pan"):
        r = pan("simulate", "-n", "3", "-k", "1", "-o", str(target))
        assert r.exit_code == 2 and r.stderr.startswith(f"pan: cannot write {target}: "), r.stderr


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_disk_full_on_output_is_a_write_error_and_the_device_stays_a_device() -> None:
    p = run("simulate", "-n", "3", "-k", "20", "-o", "/dev/full")
    assert p.returncode == 2
    assert p.stderr.decode() == "pan: cannot write /dev/full: No space left on device\n"
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)  # never replaced by a renamed file


def test_io_message_is_one_format() -> None:
    assert io_message("-", "read", "gone") == "pan: cannot read standard input: gone"
    assert io_message("a\x1bb", "write", "x") == "pan: cannot write a\\x1bb: x"


# --------------------------------------------------------------------------- control characters


HOSTILE = "5s\x00x\n\x1b[31mred\tx\n\u202e5s\n"


@pytest.mark.parametrize("command", ["check", "pay", "analyze"])
def test_no_raw_control_character_reaches_the_output(command: str) -> None:
    r = pan(command, "-", input=HOSTILE)
    for text in (r.stdout, r.stderr):
        body = text.replace("\n", "").replace("\t", "")
        assert not any(ord(c) < 32 or 0x7F <= ord(c) <= 0x9F or c == "\u202e" for c in body), repr(text)


def test_tab_separated_output_keeps_its_columns_with_tabs_in_user_text() -> None:
    r = pan("check", "-", input="5s\tx 5s\n5s 5s 5s\n")
    rows = r.stdout.splitlines()
    assert [len(row.split("\t")) for row in rows] == [7, 7]


def test_R3_house_rules_name_with_a_newline_a_tab_or_esc_is_refused_escaped(tmp_path: Path) -> None:
    (tmp_path / "h.toml").write_text('name = "a\\tb\\nc\\u001b[31m"\n', encoding="utf-8")
    r = pan("rules", str(tmp_path / "h.toml"))
    assert r.exit_code == 2 and r.stdout == ""
    assert "R3" in r.stderr and "\x1b" not in r.stderr and "\t" not in r.stderr.rstrip("\n")


def test_json_output_escapes_c1_and_bidirectional_controls() -> None:
    r = pan("check", "--json", "-", input="5s\u202e\u009b\n")
    assert "\u202e" not in r.stdout and "\u009b" not in r.stdout
    json.loads(r.stdout)


def test_escape_text_shows_every_control_and_keeps_suits() -> None:
    assert escape_text("a\x00\x7f\u0085\u200f♠") == "a\\x00\\x7f\\x85\\u200f♠"


@pytest.mark.parametrize("encoding", ["ascii", "latin-1"])
def test_any_standard_output_encoding_works(encoding: str) -> None:
    p = run("check", "Ä", "5♠ 5♠ 5♠", env={"PYTHONIOENCODING": encoding})
    assert p.returncode == 1, p.stderr
    assert b"Traceback" not in p.stderr and b"UnicodeEncodeError" not in p.stderr


# --------------------------------------------------------------------------- endless inputs


@pytest.mark.parametrize("args", [("replay", "-"), ("fmt", "-"), ("check", "-"), ("pay", "-")])
def test_a_stream_with_no_line_end_is_one_line_too_long(args: tuple[str, ...]) -> None:
    """30 MB of one letter and no line end: one line, read to its end (tests/test_hostile_lines.py)."""
    zeros = subprocess.Popen(["sh", "-c", "head -c 30000000 /dev/zero | tr '\\0' x"], stdout=subprocess.PIPE)
    p = run(*args, stdin=zeros.stdout, timeout=120)
    zeros.wait(timeout=60)
    assert p.returncode == 1
    assert b"a line of 30,000,000 characters" in p.stderr or b"a text of 30,000,000 characters" in p.stderr


def test_dash_on_a_terminal_says_how_to_pipe_input() -> None:
    import pty

    leader, follower = pty.openpty()
    try:
        proc = subprocess.Popen(
            [sys.executable, "-m", "pancli", "check", "-"],
            stdin=follower,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=ROOT,
        )
        os.write(leader, b"5sss\n\x04\x04")  # (a buffered read needs a second end of input)
        out, err = proc.communicate(timeout=120)  # a hang detector only
    finally:
        os.close(leader)
        os.close(follower)
    assert b"pipe input" in err and b"Ctrl-D" in err
    assert out.startswith(b"5s 5s 5s\tlegal")


# --------------------------------------------------------------------------- nothing half-written


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_atomic_write_to_a_fifo_or_device_writes_in_place(tmp_path: Path) -> None:
    with atomic_write("/dev/null") as out:
        out.write("x")
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_simulate_killed_at_random_moments_leaves_the_old_file_or_the_new_whole_one(tmp_path: Path) -> None:
    """Real processes, killed with SIGKILL at random moments of a write (seeded: reproducible)."""
    import random

    out, whole = tmp_path / "games.pan", tmp_path / "whole.pan"
    old = '[Players "A B"]\n\nA stay\n'
    out.write_text(old, encoding="utf-8")
    args = [sys.executable, "-m", "pancli", "simulate", "-n", "4", "-k", "100", "-s", "3", "-o"]
    started = time.monotonic()
    assert subprocess.run([*args, str(whole)], cwd=ROOT, timeout=120).returncode == 0
    took = time.monotonic() - started
    full = whole.read_text(encoding="utf-8")
    rng = random.Random(13)
    for _ in range(4):
        proc = subprocess.Popen([*args, str(out)], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0.02, took * 1.1))
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=60)
        now = out.read_text(encoding="utf-8")
        assert now in (old, full), f"half-written: {len(now)} characters"
        for p in tmp_path.iterdir():  # a killed writer may leave its temporary file, never a half target
            assert p.name in ("games.pan", "whole.pan") or (
                p.name.startswith(".games.pan.") and p.name.endswith(".tmp")
            )


def test_jobs_past_the_cpu_count_is_clamped_with_a_note() -> None:
    r = pan("replay", "-j", "1000000", str(ROOT / "samples" / "friday-hoyle.pan"))
    cpus = os.cpu_count() or 1
    assert r.exit_code == 0
    assert f"--jobs 1000000 is more than the {cpus} CPUs here: {cpus} workers" in r.stderr
    assert r.stdout == pan("replay", str(ROOT / "samples" / "friday-hoyle.pan")).stdout


def test_replay_tells_a_cut_off_hand_from_a_finished_one(tmp_path: Path) -> None:
    """A record cut in the middle of a hand (a writer killed without atomic writes) is not
    'clean' in silence: finished false in JSON and 'N unfinished' in the summary line."""
    whole = pan("simulate", "-n", "4", "-k", "2", "-s", "5").stdout
    done = pan("replay", "--json", "-", input=whole)
    assert [h["finished"] for h in json.loads(done.stdout)] == [True, True]
    assert "unfinished" not in pan("replay", "-", input=whole).stdout
    cut = whole[: whole.rindex("\n", 0, len(whole) - 200)] + "\n"  # the last hand loses its end
    hands = json.loads(pan("replay", "--json", "-", input=cut).stdout)
    assert [h["finished"] for h in hands] == [True, False]
    summary = pan("replay", "-", input=cut).stdout.splitlines()[-1]
    assert summary.endswith(", 1 unfinished (no going out, no T4, not void)"), summary
