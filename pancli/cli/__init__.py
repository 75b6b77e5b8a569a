"""The ``pan`` command line: a thin click layer over the engine.

Subcommands are imported only when used, so ``pan --help`` and a batch of thousands
of ``pan check`` calls in a pipeline stay cheap (benchmarks/README.md): no command module
imports rich or pyparsing at its top.
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import Any

import click

# name -> (module, attribute, short help). A command appears once its module exists. The short help
# is the first sentence of the command's help (tests/test_startup.py checks it), so ``pan --help``
# lists every command without importing one (issue 14: 2.2x the cold start of ``import click`` before).
COMMANDS: dict[str, tuple[str, str, str]] = {
    "check": (
        "pancli.cli.check",
        "check",
        "Is each meld legal? Its kind, condition (C1-C5), value, and the rule broken when not.",
    ),
    "pay": ("pancli.cli.pay", "pay", "What one player's melds collect from each active opponent, and in all."),
    "rules": (
        "pancli.cli.rules_cmd",
        "rules",
        "Show a rule profile (every knob and the conditions table), or explain one rule.",
    ),
    "replay": (
        "pancli.cli.replay",
        "replay",
        "Referee hand records: every payment, the final ledger, the first violation of each hand.",
    ),
    "fmt": (
        "pancli.cli.fmt",
        "fmt",
        "Print records in canonical form (tag order, one turn per line, canonical cards and melds;"
        " comments and annotations kept).",
    ),
    "simulate": (
        "pancli.cli.simulate",
        "simulate",
        "Write legal, complete hand records from self-play (canonical .pan text).",
    ),
    "analyze": (
        "pancli.cli.analyze",
        "analyze",
        "Analyse one Panguingue hand: the best arrangement, what every draw would do, the odds.",
    ),
    "score": (
        "pancli.cli.score",
        "score",
        "A PAGRUC hand score (G7), card by card: melded cards plus, cards left in the hand minus.",
    ),
    "standings": (
        "pancli.cli.standings",
        "standings",
        "A PAGRUC game: is it official, each player's total, and the PAGRUC points.",
    ),
    "settle": (
        "pancli.cli.settle",
        "settle",
        "Settle a sitting: each player's hands, units and money over all the hands, and who pays whom.",
    ),
    "samples": (
        "pancli.cli.samples_cmd",
        "samples",
        "List the sample records shipped with pan, or print one (to pipe into another command).",
    ),
}


class LazyGroup(click.Group):
    """A click group whose subcommands are imported on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return [n for n, (mod, _, _) in COMMANDS.items() if importlib.util.find_spec(mod) is not None]

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        entry = COMMANDS.get(cmd_name)
        if entry is None or importlib.util.find_spec(entry[0]) is None:
            return None
        command: Any = getattr(importlib.import_module(entry[0]), entry[1])
        assert isinstance(command, click.Command)
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The command list of ``pan --help``, as click writes it, from COMMANDS' short help."""
        names = self.list_commands(ctx)
        if not names:
            return
        limit = formatter.width - 6 - max(len(n) for n in names)
        rows = [(n, click.Command(n, help=COMMANDS[n][2]).get_short_help_str(limit)) for n in names]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="pancli", prog_name="pan")
def cli() -> None:
    """pan: a rules referee and hand analyzer for Panguingue and PAGRUC.

    \b
    Examples:
      pan check "7c 7s 7s"          # illegal: M3
      pan pay 5sss 3-5h --players 6
      pan samples friday-hoyle | pan replay -
      pan rules P8
    """
    _tolerant_output()


def _tolerant_output() -> None:
    """Any standard-output encoding works: a character it cannot hold is written as a
    backslash escape (``PYTHONIOENCODING=ascii pan check "Ä"``), never a UnicodeEncodeError."""
    import contextlib
    import sys

    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None and getattr(stream, "errors", "strict") == "strict":
            with contextlib.suppress(ValueError, OSError):  # a stream that cannot change stays as it is
                reconfigure(errors="backslashreplace")


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
