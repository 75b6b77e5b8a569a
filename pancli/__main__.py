"""The ``pan`` program (the console script, and ``python -m pancli``): the collector set for a
process that is pan's alone, then the command line (:func:`pancli.cli.main`).

Whoever imports :mod:`pancli.cli` itself (a test, a program driving its commands) keeps its
collector as it was: these settings are the program's, made here and nowhere else.
"""

from __future__ import annotations

import gc

TYPE_CHECKING = False  # not typing's: the program loads typing with the collector off
if TYPE_CHECKING:
    from collections.abc import Callable


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
    """The ``pan`` console script."""
    load()()


if __name__ == "__main__":
    main()
