"""Paths: a Rules tag's file is opened once and what was opened is checked (a file swapped for a
link between a check and the opening is never read); the writers (``fmt --write``, ``--html``,
``--svg``, ``-o``) treat a read-only file, a FIFO, ``-`` and the empty name alike.
"""

from __future__ import annotations

import io
import os
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from cli_kit import ROOT, SAMPLES, pan

from pancli.files import READ_ONLY
from pancli.records import read_hands

HAND = '[Players "Ana Ben"]\n[Rules "h.toml"]\nAna stay\n'
FRIDAY = str(SAMPLES / "friday-hoyle.pan")
HAND_LITERAL = "5sss 3h 4h Kd Kh Kc 2c 7d +5h"


def _profile_or_error(base: Path) -> str:
    [hand] = list(read_hands(io.StringIO(HAND), "x.pan", base))
    if hand.error is not None:
        assert hand.error.code == "R3", hand.error
        return "R3"
    assert hand.script is not None
    return hand.script.profile.name


def test_R3_a_link_out_of_the_folder_is_refused_once_opened(tmp_path: Path) -> None:
    base = tmp_path / "games"
    base.mkdir()
    (tmp_path / "outside.toml").write_text('name = "out"\n', encoding="utf-8")
    (base / "h.toml").symlink_to(tmp_path / "outside.toml")
    [hand] = list(read_hands(io.StringIO(HAND), "x.pan", base))
    assert hand.error is not None and "a path leading out of the record's folder" in hand.error.message
    (base / "h.toml").unlink()
    (base / "real.toml").write_text('name = "in"\n', encoding="utf-8")
    (base / "h.toml").symlink_to("real.toml")  # a link that stays inside is fine
    assert _profile_or_error(base) == "in"


def test_R3_a_rules_file_swapped_for_a_link_just_before_it_is_opened_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The race made certain: the file is swapped for a link out of the folder at the moment it
    is opened (before, the check resolved the old file and the opening read the outside one)."""
    base = tmp_path / "games"
    base.mkdir()
    (tmp_path / "outside.toml").write_text('name = "out"\n', encoding="utf-8")
    (base / "h.toml").write_text('name = "in"\n', encoding="utf-8")
    assert _profile_or_error(base) == "in"
    real_open = os.open

    def swapped_then_opened(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if Path(path).name == "h.toml":
            (base / "h.toml").unlink()
            (base / "h.toml").symlink_to(tmp_path / "outside.toml")
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", swapped_then_opened)
    assert _profile_or_error(base) == "R3"


_SWAP = """
import os, sys
from pathlib import Path
from typing import Any
base = Path(sys.argv[1])
inside, link = base / ".in.toml", base / ".link.toml"
while True:
    inside.write_text('name = "in"\\n')
    os.replace(inside, base / "h.toml")
    link.symlink_to(base.parent / "outside.toml")
    os.replace(link, base / "h.toml")
"""


def test_R3_a_link_swapped_back_between_the_check_s_two_lookups_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The race the swapping test below hits about once in a few hundred reads, made certain: the
    file opened is the outside one (h.toml is a link then); while the check resolves the name,
    h.toml is the inside file; by the time the check looks at what the name resolved to, it is
    the link again. Following that link would find the very file that was opened."""
    base = tmp_path / "games"
    base.mkdir()
    outside = tmp_path / "outside.toml"
    outside.write_text('name = "out"\n', encoding="utf-8")
    target = base / "h.toml"
    target.symlink_to(outside)
    plain = os.path.realpath

    def swapping(path: Any, *, strict: bool = False) -> str:
        if Path(path).name != "h.toml":
            return plain(path, strict=strict)
        (base / ".in.toml").write_text('name = "in"\n', encoding="utf-8")
        os.replace(base / ".in.toml", target)
        resolved = plain(path, strict=strict)
        (base / ".link.toml").symlink_to(outside)
        os.replace(base / ".link.toml", target)
        return resolved

    monkeypatch.setattr(os.path, "realpath", swapping)
    assert _profile_or_error(base) == "R3"


def test_R3_a_rules_file_swapped_for_a_link_while_it_is_read_is_never_read_from_outside(tmp_path: Path) -> None:
    """Another process swaps h.toml between a file inside the folder and a link to one outside
    (each swap one rename: the name always exists) while hands naming it are read: each hand
    gets the inside profile or R3, never the outside one."""
    base = tmp_path / "games"
    base.mkdir()
    (tmp_path / "outside.toml").write_text('name = "out"\n', encoding="utf-8")
    (base / "h.toml").write_text('name = "in"\n', encoding="utf-8")
    swapper = subprocess.Popen([sys.executable, "-c", _SWAP, str(base)])
    try:
        seen = [_profile_or_error(base) for _ in range(300)]
    finally:
        swapper.kill()
        swapper.wait()
    assert "out" not in seen
    assert set(seen) <= {"in", "R3"}


# --------------------------------------------------------------------------- writers


def _writers(tmp_path: Path) -> dict[str, tuple[list[str], Path]]:
    """Each writer's command line and the file it writes."""
    return {
        "fmt --write": (["fmt", "--write"], tmp_path / "games.pan"),
        "replay --html": (["replay", FRIDAY, "--html"], tmp_path / "page.html"),
        "analyze --svg": (["analyze", HAND_LITERAL, "--svg"], tmp_path / "hand.svg"),
        "simulate -o": (["simulate", "-k", "1", "-o"], tmp_path / "sim.pan"),
    }


@pytest.mark.parametrize("writer", ["fmt --write", "replay --html", "analyze --svg", "simulate -o"])
def test_every_writer_refuses_a_read_only_file_and_leaves_it_alone(writer: str, tmp_path: Path) -> None:
    args, target = _writers(tmp_path)[writer]
    old = (SAMPLES / "friday-hoyle.pan").read_text(encoding="utf-8").replace("deal ", "deal  ")
    target.write_text(old, encoding="utf-8")
    target.chmod(0o444)
    r = pan(*args, str(target))
    assert r.exit_code == 2, r.output
    assert f"pan: cannot write {target}: {READ_ONLY}" in r.stderr
    assert target.read_text(encoding="utf-8") == old and stat.S_IMODE(target.stat().st_mode) == 0o444
    assert [p.name for p in tmp_path.iterdir()] == [target.name]  # no temporary file left
    target.chmod(0o644)  # writable again: rewritten, its bits kept
    assert pan(*args, str(target)).exit_code in (0, 1)
    assert target.read_text(encoding="utf-8") != old and stat.S_IMODE(target.stat().st_mode) == 0o644


@pytest.mark.parametrize("writer", ["replay --html", "analyze --svg", "simulate -o"])
def test_the_empty_name_is_a_usage_error_and_dash_is_standard_output_or_a_usage_error(
    writer: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    args, _ = _writers(tmp_path)[writer]
    empty = pan(*args, "")
    assert empty.exit_code == 2 and "an empty file name" in empty.stderr
    dash = pan(*args, "-")
    if writer == "simulate -o":  # its only output: '-' is standard output
        assert dash.exit_code == 0 and dash.stdout == pan(*args[:-1]).stdout
    else:  # standard output carries the report: '-' is refused
        assert dash.exit_code == 2 and "'-' (standard output) carries the report already" in dash.stderr
    assert list(tmp_path.iterdir()) == []  # never a file named '-'


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
@pytest.mark.parametrize("kind", ["fifo", "device"])
def test_fmt_write_refuses_a_fifo_or_a_device_without_waiting(kind: str, tmp_path: Path) -> None:
    target = tmp_path / "fifo" if kind == "fifo" else Path("/dev/null")
    if kind == "fifo":
        os.mkfifo(target)
    p = subprocess.run(
        [sys.executable, "-m", "pancli", "fmt", "--write", str(target)],
        capture_output=True,
        cwd=ROOT,
        timeout=120,  # a hang detector only (before: waited for a writer forever)
    )
    assert p.returncode == 2
    assert p.stderr.decode() == f"pan: cannot write {target}: not a regular file (a device, a FIFO or a folder)\n"


def test_fmt_write_replaces_the_file_so_a_hard_link_keeps_the_old_text(tmp_path: Path) -> None:
    """As documented (docs/commands.md): the file is replaced, not written into."""
    games, other = tmp_path / "games.pan", tmp_path / "other-name.pan"
    old = (SAMPLES / "friday-hoyle.pan").read_text(encoding="utf-8").replace("deal ", "deal  ")
    games.write_text(old, encoding="utf-8")
    os.link(games, other)
    assert pan("fmt", "--write", str(games)).exit_code == 0
    assert games.read_text(encoding="utf-8") != old and other.read_text(encoding="utf-8") == old
