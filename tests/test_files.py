"""pancli.files.atomic_write: the target holds the old text or the new text, never a part."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import tempfile
import textwrap
import threading
from pathlib import Path
from typing import Any

import pytest

from pancli.files import atomic_write


def _leftovers(folder: Path, *keep: str) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name not in keep)


def test_text_write_replaces_the_file_and_leaves_no_temporary(tmp_path: Path) -> None:
    target = tmp_path / "x.pan"
    target.write_text("old\n", encoding="utf-8")
    with atomic_write(target) as out:
        out.write("new ♠\n")
        assert target.read_text(encoding="utf-8") == "old\n"  # nothing visible before the block ends
    assert target.read_text(encoding="utf-8") == "new ♠\n"
    assert _leftovers(tmp_path, "x.pan") == []


def test_binary_mode_writes_bytes(tmp_path: Path) -> None:
    target = tmp_path / "p.svg"
    with atomic_write(str(target), "wb") as out:
        out.write(b"<svg/>\x00")
    assert target.read_bytes() == b"<svg/>\x00"


def test_encoding_and_newline_are_passed_on(tmp_path: Path) -> None:
    target = tmp_path / "latin.txt"
    with atomic_write(target, encoding="latin-1", newline="\r\n") as out:
        out.write("é\n")
    assert target.read_bytes() == b"\xe9\r\n"


@pytest.mark.parametrize("error", [RuntimeError("boom"), KeyboardInterrupt()])
def test_an_exception_in_the_block_keeps_the_old_file_and_removes_the_temporary(
    tmp_path: Path, error: BaseException
) -> None:
    target = tmp_path / "x.pan"
    target.write_text("old\n", encoding="utf-8")
    with pytest.raises(type(error)), atomic_write(target) as out:
        out.write("half")
        raise error
    assert target.read_text(encoding="utf-8") == "old\n"
    assert _leftovers(tmp_path, "x.pan") == []


def test_an_exception_before_any_file_existed_creates_nothing(tmp_path: Path) -> None:
    with pytest.raises(ValueError), atomic_write(tmp_path / "new.pan") as out:
        out.write("x")
        raise ValueError
    assert _leftovers(tmp_path) == []


def test_the_old_files_permission_bits_are_kept(tmp_path: Path) -> None:
    target = tmp_path / "x.pan"
    target.write_text("old\n", encoding="utf-8")
    os.chmod(target, 0o640)
    with atomic_write(target) as out:
        out.write("new\n")
    assert stat.S_IMODE(target.stat().st_mode) == 0o640


def test_a_new_file_gets_the_umask_default(tmp_path: Path) -> None:
    old = os.umask(0o027)
    try:
        with atomic_write(tmp_path / "new.pan") as out:
            out.write("x")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new.pan").stat().st_mode) == 0o640


def test_a_symbolic_link_is_followed_and_kept(tmp_path: Path) -> None:
    real = tmp_path / "real.pan"
    real.write_text("old\n", encoding="utf-8")
    link = tmp_path / "link.pan"
    link.symlink_to(real)
    with atomic_write(link) as out:
        out.write("new\n")
    assert link.is_symlink()
    assert real.read_text(encoding="utf-8") == "new\n"


def test_a_missing_folder_is_an_oserror_naming_the_path(tmp_path: Path) -> None:
    target = tmp_path / "nowhere" / "x.pan"
    with pytest.raises(FileNotFoundError) as caught, atomic_write(target) as out:
        out.write("x")
    assert caught.value.filename == str(target)


def test_a_folder_as_target_is_refused_before_writing(tmp_path: Path) -> None:
    with pytest.raises(IsADirectoryError) as caught, atomic_write(tmp_path) as out:
        out.write("x")
    assert caught.value.filename == str(tmp_path)


def test_a_bad_mode_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="mode"):
        atomic_write(tmp_path / "x", "a")  # type: ignore[call-overload]


def test_a_process_killed_mid_write_leaves_the_old_text(tmp_path: Path) -> None:
    target = tmp_path / "x.pan"
    target.write_text("old\n", encoding="utf-8")
    script = textwrap.dedent(
        f"""
        import os, signal
        from pancli.files import atomic_write
        with atomic_write({str(target)!r}) as out:
            out.write("new" * 100000)
            out.flush()
            os.kill(os.getpid(), signal.SIGKILL)
        """
    )
    done = subprocess.run([sys.executable, "-c", script], check=False)
    assert done.returncode == -9
    assert target.read_text(encoding="utf-8") == "old\n"


class _HungUp(Exception):
    pass


def _hang_up(signum: int, frame: object) -> None:
    raise _HungUp(signum)


@pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="signals cannot be blocked here")
def test_a_hang_up_just_after_the_temporary_file_is_made_still_removes_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The CI flake: SIGHUP landed between mkstemp and the try that removes the file, and
    ``.out.pan.XXXX.tmp`` stayed. The signal now waits until the clean-up is set up."""
    target = tmp_path / "out.pan"
    target.write_text("old\n", encoding="utf-8")
    made = tempfile.mkstemp

    def made_then_hung_up(*args: Any, **kwargs: Any) -> tuple[int, str]:
        found = made(*args, **kwargs)
        # to this thread: pan has no other, and another thread could take a signal sent to the process
        signal.pthread_kill(threading.get_ident(), signal.SIGHUP)
        return found

    monkeypatch.setattr(tempfile, "mkstemp", made_then_hung_up)
    before = signal.signal(signal.SIGHUP, _hang_up)
    try:
        with pytest.raises(_HungUp), atomic_write(target) as out:
            out.write("new\n")
    finally:
        signal.signal(signal.SIGHUP, before)
    assert target.read_text(encoding="utf-8") == "old\n"
    assert _leftovers(tmp_path, "out.pan") == []
    assert signal.pthread_sigmask(signal.SIG_BLOCK, set()) == set()  # nothing left blocked


@pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="signals cannot be blocked here")
def test_a_signal_taken_up_as_the_signals_are_held_leaves_none_held(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Python runs the handler of a signal that came just before the mask is set when the call
    that sets it returns: its exception came out of the hold with SIGINT, SIGTERM, SIGHUP and
    SIGALRM held for good (a program driving pan's API then ignored Ctrl-C)."""
    target = tmp_path / "out.pan"
    sigmask = signal.pthread_sigmask

    def hung_up_as_the_mask_is_set(how: int, mask: Any) -> set[int]:
        found = sigmask(how, mask)
        if how == signal.SIG_BLOCK and signal.SIGHUP in set(mask):
            signal.pthread_kill(threading.get_ident(), signal.SIGUSR1)  # not held: its handler runs now
        return found

    monkeypatch.setattr(signal, "pthread_sigmask", hung_up_as_the_mask_is_set)
    before = signal.signal(signal.SIGUSR1, _hang_up)
    try:
        with pytest.raises(_HungUp), atomic_write(target) as out:
            out.write("new\n")
    finally:
        signal.signal(signal.SIGUSR1, before)
    assert sigmask(signal.SIG_BLOCK, set()) == set()
    assert _leftovers(tmp_path) == []


def test_the_entry_point_stops_on_the_signals_the_writers_hold() -> None:
    """cli keeps its own copy of the stopping signals (start-up); it must be the same list."""
    from pancli.cli import _STOP_SIGNALS
    from pancli.files import STOP_SIGNALS

    assert _STOP_SIGNALS == STOP_SIGNALS
