"""The ``pan`` command line: a thin click layer over the engine.

Subcommands are imported only when used, so ``pan --help`` and a batch of thousands
of ``pan check`` calls in a pipeline stay cheap (PERF-NOTES.md): no command module
imports rich or pyparsing at its top.
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import Any

import click

# name -> (module, attribute). A command appears once its module exists.
COMMANDS: dict[str, tuple[str, str]] = {
    "check": ("pancli.cli.check", "check"),
    "pay": ("pancli.cli.pay", "pay"),
    "rules": ("pancli.cli.rules_cmd", "rules"),
    "replay": ("pancli.cli.replay", "replay"),
    "fmt": ("pancli.cli.fmt", "fmt"),
    "simulate": ("pancli.cli.simulate", "simulate"),
    "analyze": ("pancli.cli.analyze", "analyze"),
    "score": ("pancli.cli.score", "score"),
    "standings": ("pancli.cli.standings", "standings"),
    "settle": ("pancli.cli.settle", "settle"),
}


class LazyGroup(click.Group):
    """A click group whose subcommands are imported on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return [n for n, (mod, _) in COMMANDS.items() if importlib.util.find_spec(mod) is not None]

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        entry = COMMANDS.get(cmd_name)
        if entry is None or importlib.util.find_spec(entry[0]) is None:
            return None
        command: Any = getattr(importlib.import_module(entry[0]), entry[1])
        assert isinstance(command, click.Command)
        return command


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="pancli", prog_name="pan")
def cli() -> None:
    """pan: a rules referee and hand analyzer for Panguingue and PAGRUC.

    \b
    Examples:
      pan check "7c 7s 7s"          # illegal: M3
      pan pay 5sss 3-5h --players 6
      pan replay samples/friday-hoyle.pan
    """


def main() -> None:
    """Console-script entry point.

    Output that cannot be written (a full disk, a closed file) is an error message and
    exit status 2, never a traceback; a reader that goes away (``| head``) ends quietly.
    """
    import sys

    try:
        try:
            cli.main(prog_name="pan")
        finally:
            sys.stdout.flush()
    except BrokenPipeError:
        _silence_stdout()
        sys.exit(0)
    except OSError as exc:
        _silence_stdout()
        where = exc.filename or "standard output"
        sys.stderr.write(f"pan: cannot write {where}: {exc.strerror or exc}\n")
        sys.exit(2)


def _silence_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's last flush cannot fail again."""
    import os
    import sys

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # pragma: no cover - no file descriptor behind stdout
        pass
