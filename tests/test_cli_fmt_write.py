"""``pan fmt --write``: files rewritten in place atomically; ``pan fmt x.pan > x.pan`` refused;
``--jsonl`` and a streamed ``--json``."""

from __future__ import annotations

import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from pancli.cli import cli

MESSY = '[Players "Ana  Ben"]\n[Event "x"]\nAna STAY\nBen stay ;ok\nAna draw 5h,discard 5h\n'
CANON = '[Event "x"]\n[Players "Ana Ben"]\n\nAna stay\nBen stay ; ok\nAna draw 5h, discard 5h\n'
MALFORMED = MESSY + '\n[Players "Ana Ben"]\n\nAna draw 9h\n'
PAN = shutil.which("pan")


def _pan(*args: str) -> list[str]:
    return [PAN, *args] if PAN else [sys.executable, "-m", "pancli", *args]


def _run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    r = CliRunner().invoke(cli, ["fmt", *args], input=stdin)
    return r.exit_code, r.stdout, r.stderr


def test_write_rewrites_each_file_in_place_keeping_its_mode(tmp_path: Path) -> None:
    a, b = tmp_path / "a.pan", tmp_path / "b.pan"
    a.write_text(MESSY, encoding="utf-8")
    b.write_text(MESSY, encoding="utf-8")
    os.chmod(a, 0o640)
    code, out, err = _run("--write", str(a), str(b))
    assert (code, out) == (0, "")
    assert a.read_text(encoding="utf-8") == CANON == b.read_text(encoding="utf-8")
    assert stat.S_IMODE(a.stat().st_mode) == 0o640
    assert err == f"reformatted {a}\nreformatted {b}\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.pan", "b.pan"]


def test_write_leaves_a_canonical_file_untouched(tmp_path: Path) -> None:
    a = tmp_path / "a.pan"
    a.write_text(CANON, encoding="utf-8")
    os.utime(a, (1_000_000, 1_000_000))
    assert _run("-w", str(a)) == (0, "", "")
    assert a.stat().st_mtime == 1_000_000


def test_write_leaves_a_file_with_a_malformed_hand_untouched_and_exits_1(tmp_path: Path) -> None:
    bad, good = tmp_path / "bad.pan", tmp_path / "good.pan"
    bad.write_text(MALFORMED, encoding="utf-8")
    good.write_text(MESSY, encoding="utf-8")
    code, _, err = _run("--write", str(bad), str(good))
    assert code == 1
    assert bad.read_text(encoding="utf-8") == MALFORMED
    assert good.read_text(encoding="utf-8") == CANON
    assert f"{bad}:9:10: E1 " in err and f"pan fmt: {bad} left unchanged" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.pan", "good.pan"]


@pytest.mark.parametrize(
    "args", [["--write", "-"], ["--write"], ["--write", "--check", "x.pan"], ["-w", "--json", "x"]]
)
def test_write_with_standard_input_or_another_output_is_a_usage_error(args: list[str]) -> None:
    assert _run(*args)[0] == 2


def test_write_of_a_missing_file_exits_2(tmp_path: Path) -> None:
    code, _, err = _run("--write", str(tmp_path / "none.pan"))
    assert code == 2 and "none.pan" in err


@pytest.mark.parametrize("mode", ["a", "w"])
def test_standard_output_into_an_input_file_is_refused_before_writing(tmp_path: Path, mode: str) -> None:
    """``pan fmt x.pan >> x.pan`` (and ``>``, which the shell has emptied already): exit 2, nothing written."""
    x = tmp_path / "x.pan"
    x.write_text(MESSY, encoding="utf-8")
    before = x.read_text(encoding="utf-8") if mode == "a" else ""
    with x.open(mode, encoding="utf-8") as out:
        p = subprocess.run(_pan("fmt", str(x)), stdout=out, stderr=subprocess.PIPE, text=True, timeout=60)
    assert p.returncode == 2 and "standard output is" in p.stderr
    assert x.read_text(encoding="utf-8") == before
    with x.open("a", encoding="utf-8") as out, x.open(encoding="utf-8") as stdin:
        p = subprocess.run(_pan("fmt", "-"), stdin=stdin, stdout=out, stderr=subprocess.PIPE, text=True, timeout=60)
    assert p.returncode == 2 and "standard output is standard input" in p.stderr


def _messy(text: str) -> str:
    return text.replace(", ", ",").replace(" stay", " STAY")


@pytest.fixture(scope="module")
def big_record(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    """A record of many hands in a messy form, and its canonical text."""
    folder = tmp_path_factory.mktemp("big")
    sim = subprocess.run(_pan("simulate", "--hands", "120", "--seed", "5"), capture_output=True, text=True, timeout=120)
    canon = sim.stdout
    messy = _messy(canon)
    # fmt gives the simulator's text back: checked here on the first ten hands (on all 120 it
    # costs 5.5 s CPU, each messy line being read by the grammar; the tests kill it long before)
    ten = "[Players ".join(canon.split("[Players ")[:11]).removesuffix("\n")  # less the blank line before hand 11
    assert _run("-", stdin=_messy(ten)) == (0, ten, "")
    assert messy != canon
    (folder / "unused").write_text("")
    return messy, canon


@pytest.mark.slow
@pytest.mark.parametrize(("signum", "delay"), [(signal.SIGKILL, 0.2), (signal.SIGKILL, 0.6), (signal.SIGTERM, 0.4)])
def test_write_killed_midway_leaves_the_old_text_or_the_new(
    tmp_path: Path, big_record: tuple[str, str], signum: int, delay: float
) -> None:
    messy, canon = big_record
    x = tmp_path / "x.pan"
    x.write_text(messy, encoding="utf-8")
    proc = subprocess.Popen(_pan("fmt", "--write", str(x)), stderr=subprocess.PIPE)
    time.sleep(delay)
    proc.send_signal(signum)
    _, err = proc.communicate(timeout=60)
    assert x.read_text(encoding="utf-8") in (messy, canon)
    if signum == signal.SIGTERM:  # pan ends itself: quietly, and its temporary file is gone
        assert proc.returncode in (0, 143, -signal.SIGTERM) and b"Traceback" not in err  # -15: before main()
        assert [p.name for p in tmp_path.iterdir()] == ["x.pan"]


def test_json_streams_one_object_per_file_and_jsonl_one_line_each(tmp_path: Path) -> None:
    a, b = tmp_path / "a.pan", tmp_path / "b.pan"
    a.write_text(MESSY, encoding="utf-8")
    b.write_text(CANON, encoding="utf-8")
    code, out, _ = _run("--json", str(a), str(b))
    listed = json.loads(out)
    assert code == 0 and [d["canonical"] for d in listed] == [False, True]
    code, out, _ = _run("--jsonl", str(a), str(b))
    assert [json.loads(line) for line in out.splitlines()] == listed
