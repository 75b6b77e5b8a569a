"""The progress line is drawn only while pan is the terminal's foreground process group: a
background job (``pan replay big.pan > out.txt &``) would be stopped by SIGTTOU under ``stty
tostop``, or draw over the foreground's screen. The terminal and the process groups are faked
in-process, so nothing here waits on the machine."""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Callable

import pytest

from pancli.cli import progress


class FakeTerminal(io.StringIO):
    """Standard error as a terminal on descriptor 2."""

    def isatty(self) -> bool:
        return True

    def fileno(self) -> int:
        return 2


@pytest.fixture
def terminal(monkeypatch: pytest.MonkeyPatch) -> Callable[[], tuple[FakeTerminal, list[int]]]:
    """Installs a fake terminal on standard error (standard output a file) whose foreground
    group is ``group[0]``; pan's own group is 100. Called in the test's body: pytest's capture
    swaps the streams back between a fixture and its test."""
    return lambda: _install(monkeypatch)


def _install(monkeypatch: pytest.MonkeyPatch) -> tuple[FakeTerminal, list[int]]:
    err = FakeTerminal()
    group = [100]
    monkeypatch.setattr(sys, "stderr", err)
    monkeypatch.setattr(sys, "stdout", io.StringIO())
    monkeypatch.setattr(os, "tcgetpgrp", lambda fd: group[0])
    monkeypatch.setattr(os, "getpgrp", lambda: 100)
    for name in ("CI", "TERM"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("PAN_PROGRESS_DELAY", "0")
    return err, group


def test_progress_is_wanted_in_the_foreground(terminal: Callable[[], tuple[FakeTerminal, list[int]]]) -> None:
    terminal()
    assert progress.wanted(False)


def test_progress_is_not_wanted_in_a_background_job(terminal: Callable[[], tuple[FakeTerminal, list[int]]]) -> None:
    terminal()[1][0] = 200  # another process group holds the terminal: pan runs with `&`
    assert not progress.wanted(False)
    assert not progress.wanted(False, stdout_too=True)


def test_progress_stops_drawing_when_sent_to_the_background(
    terminal: Callable[[], tuple[FakeTerminal, list[int]]],
) -> None:
    """Ctrl-Z then ``bg`` while it runs: the next redraws and the erasing write nothing."""
    err, group = terminal()
    p = progress.Progress("replay", 10, "hands", enabled=progress.wanted(False))
    p.drawn = -1.0  # the first redraw is due at once
    p.advance()
    assert "replay" in err.getvalue()
    drawn = err.getvalue()
    group[0] = 200
    p.drawn = -1.0
    p.advance(5)
    p.close()
    assert err.getvalue() == drawn


def test_progress_draws_again_back_in_the_foreground(terminal: Callable[[], tuple[FakeTerminal, list[int]]]) -> None:
    err, group = terminal()
    group[0] = 200
    p = progress.Progress("replay", 10, "hands", enabled=True)
    p.drawn = -1.0
    p.advance()
    assert err.getvalue() == ""
    group[0] = 100  # `fg`
    p.drawn = -1.0
    p.advance()
    p.close()
    assert " 20% " in err.getvalue() and err.getvalue().endswith("\r\x1b[K")


def test_no_progress_when_the_terminal_has_no_foreground_group(
    terminal: Callable[[], tuple[FakeTerminal, list[int]]], monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_terminal(fd: int) -> int:
        raise OSError(25, "Inappropriate ioctl for device")

    terminal()
    monkeypatch.setattr(os, "tcgetpgrp", no_terminal)
    assert not progress.wanted(False)
