"""A progress line on standard error for long work: ``replay`` of large inputs, ``simulate``,
``analyze --advice``, ``standings`` of many files.

Shown only when standard error is a terminal whose foreground process group is pan's (a
background job, ``pan replay big.pan > out.txt &``, would be stopped by SIGTTOU under ``stty
tostop`` and would draw over the foreground's screen otherwise: the test is made again before
each redraw, as a job can be sent to the background while it runs), standard output is not
that same screen (the output itself would show the progress, and the two would mix), ``TERM`` is not
``dumb``, no ``CI`` variable is set and ``--quiet`` is not given; and only once the work has
taken half a second (a quick run draws nothing; ``PAN_PROGRESS_DELAY`` sets another wait, in
seconds, so that a test need not outrun the machine). The line is redrawn at most ten times a
second and erased when the work ends, is interrupted or fails. No rich: one line of text.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from typing import IO, Any, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])

DELAY = 0.5
"""Seconds of work before the line first appears (unless ``PAN_PROGRESS_DELAY`` says otherwise)."""
EVERY = 0.1
"""Seconds between two redraws."""


def delay() -> float:
    """The wait before the line first appears: ``PAN_PROGRESS_DELAY`` when it is a number of
    seconds from 0 to 3600, else :data:`DELAY`.

    >>> os.environ["PAN_PROGRESS_DELAY"] = "0"; delay()
    0.0
    >>> os.environ["PAN_PROGRESS_DELAY"] = "soon"; delay()
    0.5
    >>> del os.environ["PAN_PROGRESS_DELAY"]
    """
    try:
        wait = float(os.environ.get("PAN_PROGRESS_DELAY", DELAY))
    except ValueError:
        return DELAY
    return wait if 0 <= wait <= 3600 else DELAY


def quiet_option(f: F) -> F:
    """``--quiet``/``-q``: no progress line."""
    return click.option("--quiet", "-q", is_flag=True, help="No progress line on standard error.")(f)


def wanted(quiet: bool, *, stdout_too: bool = False) -> bool:
    """Whether a progress line may be drawn (see the module's rules). ``stdout_too``: the command
    prints nothing on standard output until the work is done, so a terminal there is fine."""
    if quiet or os.environ.get("TERM", "") == "dumb" or os.environ.get("CI"):
        return False
    try:
        if not sys.stderr.isatty() or not foreground(sys.stderr.fileno()):
            return False
        return stdout_too or not (sys.stdout.isatty() and os.path.sameopenfile(1, 2))
    except (AttributeError, OSError, ValueError):
        return False


def foreground(fd: int) -> bool:
    """Whether pan's process group is the foreground one of the terminal on ``fd``."""
    try:
        return os.tcgetpgrp(fd) == os.getpgrp()
    except (AttributeError, OSError):
        return False


class Progress:
    """``done`` of ``total`` (None: unknown) ``unit`` (``hands``, ``bytes``, ``samples``), with a
    rate. A disabled Progress does nothing (its methods cost a comparison).

    >>> p = Progress("replay", total=10, unit="hands", enabled=False)
    >>> p.advance(3); p.close(); p.done
    3
    """

    def __init__(
        self,
        label: str,
        total: int | None,
        unit: str,
        *,
        enabled: bool,
        rate_unit: str | None = None,
        out: IO[str] | None = None,
    ) -> None:
        self.label = label
        self.total = total
        self.unit = unit
        self.rate_unit = rate_unit or unit
        self.enabled = enabled
        self.out = out if out is not None else sys.stderr
        self.fd: int | None = None
        """The terminal drawn on, when it is standard error (drawn only in its foreground)."""
        if enabled and out is None:
            try:
                self.fd = sys.stderr.fileno()
            except (AttributeError, OSError, ValueError):
                self.enabled = False
        self.done = 0
        self.counted = 0
        """What the rate counts (hands when progress is in bytes)."""
        self.start = time.monotonic()
        self.drawn = 0.0
        self.shown = False
        self.delay = delay() if enabled else DELAY

    def advance(self, n: int = 1, *, count: int = 0) -> None:
        """``n`` more units done (``count`` more of the rate's unit, when it differs)."""
        self.done += n
        self.counted += count or n
        if self.enabled:
            now = time.monotonic()
            if now - self.start >= self.delay and now - self.drawn >= EVERY:
                self.drawn = now
                self._draw(now)

    def set(self, done: int, *, count: int = 0) -> None:
        """Progress as an absolute amount (bytes read so far)."""
        self.advance(done - self.done, count=count)

    def _draw(self, now: float) -> None:
        if self.fd is not None and not foreground(self.fd):
            return
        width = _columns()
        rate = self.counted / max(now - self.start, 1e-9)
        tail = f" {_amount(self.done, self.unit)}  {rate:,.0f} {self.rate_unit}/s"
        if self.total:
            share = min(self.done / self.total, 1.0)
            head = f"{self.label} {share:4.0%} "
            bar_width = max(0, min(30, width - len(head) - len(tail) - 3))
            filled = round(share * bar_width)
            line = f"{head}[{'#' * filled}{'.' * (bar_width - filled)}]{tail}"
        else:
            line = f"{self.label}{tail}"
        self.out.write("\r" + line[: width - 1] + "\x1b[K")
        self.out.flush()
        self.shown = True

    def close(self) -> None:
        """Erase the line (if it was drawn)."""
        if self.shown and (self.fd is None or foreground(self.fd)):
            self.out.write("\r\x1b[K")
            self.out.flush()
        self.shown = False

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _amount(n: int, unit: str) -> str:
    if unit == "bytes":
        for size, name in ((1 << 30, "GB"), (1 << 20, "MB"), (1 << 10, "KB")):
            if n >= size:
                return f"{n / size:.1f} {name}"
        return f"{n} B"
    return f"{n:,} {unit}"


def _columns() -> int:
    try:
        return os.get_terminal_size(sys.stderr.fileno()).columns
    except (AttributeError, OSError, ValueError):
        return 80
