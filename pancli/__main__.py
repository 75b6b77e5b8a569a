"""The ``pan`` program (the console script, and ``python -m pancli``): the collector set for a
process that is pan's alone, then the command line (:func:`pancli.cli.main`), and the process's
end without the interpreter's teardown when that has nothing to do (:func:`end`).

Whoever imports :mod:`pancli.cli` itself (a test, a program driving its commands) keeps its
collector as it was: these settings are the program's, made here and nowhere else.
"""

from __future__ import annotations

import gc
import os
import sys

TYPE_CHECKING = False  # not typing's: the program loads typing with the collector off
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import NoReturn


def load() -> Callable[[], None]:
    """Load the command line with pan's collector settings and give its entry point.

    The modules pan loads, click's included, live as long as the process: no collection while
    they load (each would walk them all again for nothing), then they are frozen out of every
    later one; a young collection every 10,000 new objects (not Python's 700, 2000 from 3.13) still collects
    what a long run leaves (benchmarks/README.md, start-up).
    """
    gc.set_threshold(10_000)
    gc.disable()
    try:
        from pancli.cli import main  # start-up: loaded with the collector off (above)
    finally:
        gc.freeze()
        gc.enable()
    return main


def main() -> None:
    """The ``pan`` console script: the command, then the process ends (:func:`end`)."""
    run = load()
    try:
        run()
    except SystemExit as stop:
        end(stop.code)
    end(None)


def end(status: object) -> NoReturn:
    """End the process with ``status`` (a :class:`SystemExit`'s code) as Python would, but without
    the interpreter's teardown when it has nothing left to do: freeing every module, class and
    object one by one is about 7 M instructions, 3 % of a command's start-up (benchmarks/README.md).

    It has something to do, and runs, when a status is not a number from 0 to 255 (Python writes
    it, or makes it one), standard output or error cannot be flushed (Python reports it), a thread
    other than this one runs (Python waits for it), or a module imported :mod:`atexit` (its
    functions are run: nothing pan loads registers one, but ``replay --jobs``'s multiprocessing
    and logging do).
    """
    import threading  # start-up: click loaded it already (not imported above: the collector is on there)

    number = 0 if status is None else status if isinstance(status, int) and 0 <= status <= 255 else -1
    if number >= 0 and threading.active_count() == 1 and "atexit" not in sys.modules:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except (OSError, ValueError):
            raise SystemExit(status) from None
        os._exit(number)
    raise SystemExit(status)


if __name__ == "__main__":
    main()
