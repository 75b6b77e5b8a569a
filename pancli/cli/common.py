"""What every command shares: options, input, errors, output and exit codes.

Exit status (NOTATION.md section 4): 0 all legal and every claim holds; 1 input read but
something illegal, malformed or a wrong claim; 2 usage error (bad option, missing file).
Errors go to standard error as ``file:line:col: RULE message``.

Rich is imported only when a table is drawn for a terminal (:func:`stdout_console`).
"""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, TypeVar

import click

from pancli.cards import Game
from pancli.rules import HOYLE, HouseRulesError, Profile, builtin_profile

if TYPE_CHECKING:
    from rich.console import Console

F = TypeVar("F", bound=Callable[..., Any])

EXIT_OK = 0
EXIT_ILLEGAL = 1
EXIT_USAGE = 2


# --------------------------------------------------------------------------- options


def json_option(f: F) -> F:
    """``--json``: emit one JSON document on standard output."""
    return click.option("--json", "as_json", is_flag=True, help="Print one JSON document instead of text.")(f)


def rules_option(f: F) -> F:
    """``--rules NAME|FILE``: the profile (hoyle, cardroom) or a house-rules TOML file."""
    return click.option(
        "--rules",
        "rules",
        default="hoyle",
        show_default=True,
        metavar="NAME|FILE",
        help="Rule profile: hoyle, cardroom, or a house-rules TOML file.",
    )(f)


def game_option(f: F) -> F:
    """``--game panguingue|pagruc``."""
    return click.option(
        "--game",
        type=click.Choice([g.value for g in Game], case_sensitive=False),
        default=Game.PANGUINGUE.value,
        show_default=True,
        help="Which game's rules apply.",
    )(f)


def resolve_game(value: str) -> Game:
    """The Game for a ``--game`` value."""
    return Game(value.lower())


def load_profile(spec: str, relative_to: Path | None = None) -> Profile:
    """A built-in profile by name, or a house-rules TOML file (read with tomllib).

    Raises click.BadParameter (exit 2) naming the bad knob or the unreadable file, with
    its place and rule R3 (grammar/README-records.md: a bad profile or house-rules file).
    """
    if spec.lower() in ("hoyle", "cardroom"):
        return builtin_profile(spec)
    path = Path(spec)
    if relative_to is not None and not path.is_absolute():
        path = relative_to / path
    try:
        from pancli.notation.houserules import profile_from_toml

        return profile_from_toml(path.read_bytes(), default=HOYLE)
    except FileNotFoundError:
        raise click.BadParameter(f"R3 no profile or file named {spec!r} (built-in: hoyle, cardroom)") from None
    except OSError as exc:
        raise click.BadParameter(f"{spec}: R3 {exc.strerror}") from None
    except HouseRulesError as exc:
        where = f":{exc.line}:{exc.col}" if exc.line else ""
        raise click.BadParameter(f"{spec}{where}: R3 {exc}") from None


# --------------------------------------------------------------------------- input


@dataclass(frozen=True, slots=True)
class InputLine:
    """One line of batch input: where it came from and its text (without newline)."""

    file: str
    line: int
    text: str


def stdin_is_piped() -> bool:
    """True when standard input is not a terminal (something is piped in)."""
    try:
        return not sys.stdin.isatty()
    except (AttributeError, ValueError):
        return False


def stdin_binary() -> IO[bytes]:
    """Standard input as bytes (the raw buffer under ``sys.stdin``)."""
    stream: IO[bytes] | None = getattr(sys.stdin, "buffer", None)
    if stream is None:  # pragma: no cover - a stdin replaced by a text-only object
        return io.BytesIO(sys.stdin.read().encode("utf-8", "surrogateescape"))
    return stream


def stdin_text() -> IO[str]:
    """Standard input as UTF-8 text; undecodable bytes become U+FFFD."""
    return io.TextIOWrapper(stdin_binary(), encoding="utf-8", errors="replace", newline=None)


class FileArgumentError(click.FileError):
    """A file named on the command line cannot be opened: a usage error (exit 2)."""

    exit_code = EXIT_USAGE


def open_text(name: str) -> IO[str]:
    """Open a file (or ``-`` for stdin) as UTF-8 text; undecodable bytes become U+FFFD.

    Missing files raise click.FileError (exit 2).
    """
    if name == "-":
        return stdin_text()
    try:
        return open(name, encoding="utf-8", errors="replace", newline=None)
    except OSError as exc:
        # NOTATION.md: a missing file is a usage error (2)
        raise FileArgumentError(name, hint=exc.strerror or str(exc)) from None


def batch_lines(stream: IO[str], file: str = "-") -> Iterator[InputLine]:
    """Lines of a batch: blank lines and ``#`` comments skipped, line numbers kept."""
    for n, raw in enumerate(stream, 1):
        text = raw.rstrip("\r\n")
        stripped = text.strip()
        if not stripped or stripped.startswith("#"):
            continue
        yield InputLine(file, n, text)


def arguments_or_stdin(args: Iterable[str]) -> Iterator[InputLine]:
    """Command-line arguments (each one item, file ``<arg>``, line = position), or,
    with ``-`` or no argument and piped input, the batch lines of standard input.

    Raises click.UsageError (exit 2) with nothing to read.
    """
    items = list(args)
    if items == ["-"] or (not items and stdin_is_piped()):
        yield from batch_lines(open_text("-"), "-")
        return
    if not items:
        raise click.UsageError("nothing to read: give arguments, or '-' to read standard input")
    for i, text in enumerate(items, 1):
        yield InputLine("<arg>", i, text)


def record_files(files: Iterable[str]) -> list[str]:
    """The files to read: as given, or ``["-"]`` (standard input) when none is given and
    input is piped in. Raises click.UsageError (exit 2) with nothing to read, or ``-`` twice.
    """
    names = list(files)
    if not names:
        if not stdin_is_piped():
            raise click.UsageError("nothing to read: give record files, or '-' to read standard input")
        names = ["-"]
    if names.count("-") > 1:
        raise click.UsageError("standard input ('-') can be read only once")
    return names


# --------------------------------------------------------------------------- output


def error_line(file: str, line: int, col: int, rule: str, message: str) -> str:
    """The canonical error line: ``file:line:col: RULE message``."""
    return f"{file}:{line}:{col}: {rule} {message}"


def report(file: str, line: int, col: int, rule: str, message: str) -> None:
    """Write one error line to standard error."""
    click.echo(error_line(file, line, col, rule, message), err=True)


def emit_json(data: Any) -> None:
    """Write one JSON document to standard output (json is imported here: not on the plain path)."""
    import json

    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2))
    sys.stdout.write("\n")


def stdout_is_terminal() -> bool:
    """True when standard output is a terminal (rich tables), False in a pipe (plain text)."""
    if os.environ.get("PAN_FORCE_TERMINAL"):
        return True
    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


def stdout_console() -> Console:
    """A rich console on standard output (imports rich: use only for terminal output).

    Rich honours ``NO_COLOR``; ``PAN_FORCE_TERMINAL=1`` forces terminal rendering (tests).
    """
    from rich.console import Console

    force = bool(os.environ.get("PAN_FORCE_TERMINAL"))
    return Console(force_terminal=force or None, highlight=False, soft_wrap=False)


def stderr_console() -> Console:
    """A rich console on standard error."""
    from rich.console import Console

    return Console(stderr=True, highlight=False)
