"""What every command shares: options, input, errors, output and exit codes.

Exit status (docs/commands.md): 0 all legal and every claim holds; 1 input read but
something illegal, malformed or a wrong claim; 2 usage error (bad option, missing file).
Errors go to standard error as ``file:line:col: RULE message``.

Rich is imported only when a table is drawn for a terminal (:func:`stdout_console`).
"""

from __future__ import annotations

import functools
import io
import os
import stat
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import IO, TYPE_CHECKING, Any, TypeVar

import click

from pancli.app.lines import (
    ARG_FILE,
    DEFAULT_PLAYERS,
    GAMES,
    SEATS,
    STDIN_FILE,
    InputLine,
    LineBlocks,
    ProfileProblem,
    batch_item,
    decoded,
    open_decoded,
    rules_files_named,
    rules_profile,
    stake_option,
)
from pancli.render.text import (
    error_line,
    escaped,
    fewer_workers_text,
    io_words,
    jobs_clamped_text,
    profile_problem_text,
    rule_hint,
    stdout_is_terminal,
)

if TYPE_CHECKING:
    from decimal import Decimal

    from pancli.app.workers import FewerWorkers

F = TypeVar("F", bound=Callable[..., Any])

EXIT_OK = 0
EXIT_ILLEGAL = 1
EXIT_USAGE = 2


# --------------------------------------------------------------------------- options


def json_option(f: F) -> F:
    """``--json``: emit one JSON document on standard output."""
    return click.option("--json", "as_json", is_flag=True, help="Print one JSON document instead of text.")(f)


def jsonl_option(help: str = "Print one JSON object per line instead of text.") -> Callable[[F], F]:
    """``--jsonl``: one JSON object per line (``help`` says what each object is)."""
    return click.option("--jsonl", "as_jsonl", is_flag=True, help=help)


def json_mode(as_json: bool, as_jsonl: bool) -> None:
    """Refuse ``--json`` with ``--jsonl`` (a usage error, exit 2)."""
    if as_json and as_jsonl:
        raise click.UsageError("choose one of --json and --jsonl")


RULES_HELP = "Rule profile: hoyle, cardroom, or a house-rules TOML file."


def _complete_rules(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[Any]:
    """Shell completion of ``--rules``: hoyle, cardroom and ``*.toml`` files."""
    from pancli.cli.completion import complete_rules  # start-up: pan check does without it

    return complete_rules(ctx, param, incomplete)


def complete_paths(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[Any]:
    """Shell completion of a FILE argument or option: paths, completed by the shell."""
    from click.shell_completion import CompletionItem  # start-up: pan check does without it

    return [CompletionItem(incomplete, type="file")]


def rules_option(f: F) -> F:
    """``--rules NAME|FILE``: the profile (hoyle, cardroom) or a house-rules TOML file."""
    return click.option(
        "--rules",
        "rules",
        default="hoyle",
        show_default=True,
        metavar="NAME|FILE",
        help=RULES_HELP,
        shell_complete=_complete_rules,
    )(f)


def rules_override_option(f: F) -> F:
    """``--rules NAME|FILE`` for records: no default (each record's ``Rules`` tag decides)."""
    return click.option(
        "--rules",
        "rules",
        default=None,
        metavar="NAME|FILE",
        help="Override every record's Rules tag: hoyle, cardroom, or a house-rules TOML file.",
        shell_complete=_complete_rules,
    )(f)


"""Active players when ``--players`` is not given (the worked figures of docs/rules.md)."""


class _Seats(click.IntRange):
    """``--players``: a whole number, its help showing the built-in profiles' seats (S1). Whether
    so many are seated is the command's rules object's question (:func:`seated_players`): the
    rules are known only once every option is read."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        try:
            return int(value)
        except (TypeError, ValueError):
            self.fail(f"{value!r} is not a valid {self.name}.", param, ctx)


def players_option(help: str, *, default: int | None = DEFAULT_PLAYERS, checked: bool = True) -> Callable[[F], F]:
    """``--players/-n N``: players at the table, ``default`` when not given. ``checked``: the
    command asks :func:`seated_players` (S1) and the help shows the seats; otherwise the
    command checks it its own way (and says why)."""
    kind = _Seats(SEATS[0], SEATS[-1]) if checked else click.INT
    return click.option(
        "--players", "-n", "players", type=kind, default=default, show_default=default is not None, help=help
    )


def seated_players(ctx: click.Context, unseated: str | None, players: int) -> int:
    """``players`` (``--players``) when the command's rules object seats so many (``unseated``,
    its answer as :func:`~pancli.render.text.seated_text` words it, is None: ``PanRules.seating``,
    S1), else the usage error naming why not."""
    if unseated is None:
        return players
    param = next((p for p in ctx.command.params if p.name == "players"), None)
    raise click.BadParameter(escaped(unseated), ctx, param)


def seed_option(help: str, *, default: int) -> Callable[[F], F]:
    """``--seed N``: the seed of everything random in the command (same seed, same output)."""
    return click.option("--seed", "-s", "seed", type=int, default=default, show_default=True, help=help)


STAKE_HELP = "The money value of one unit for every hand (e.g. 0.25)."
DEFAULT_STAKE_HELP = "The money value of one unit for the hands that name no Stake (the others keep theirs)."


def stake_options(stake_help: str = STAKE_HELP, default_help: str = DEFAULT_STAKE_HELP) -> Callable[[F], F]:
    """``--stake MONEY`` and ``--default-stake MONEY``: the one pair every command that counts money takes
    (``settle``, ``replay --html``); :func:`stakes` reads them."""

    def add(f: F) -> F:
        f = click.option("--default-stake", "default_stake", default=None, metavar="MONEY", help=default_help)(f)
        return click.option("--stake", "stake", default=None, metavar="MONEY", help=stake_help)(f)

    return add


def stakes(stake: str | None, default_stake: str | None) -> tuple[Decimal | None, Decimal | None]:
    """``--stake`` and ``--default-stake`` read as a ``Stake`` tag is (:func:`.stake_option`), at most one given.

    >>> stakes("0.25", None), stakes(None, "1")
    ((Decimal('0.25'), None), (None, Decimal('1')))
    """
    money = _stake(stake, "--stake")
    default = _stake(default_stake, "--default-stake")
    if money is not None and default is not None:
        raise click.UsageError(
            "--stake sets every hand's stake; --default-stake only the hands that name none: give one"
        )
    return money, default


def _stake(value: str | None, option: str) -> Decimal | None:
    if value is None:
        return None

    stake = stake_option(value)
    if isinstance(stake, tuple):
        raise click.BadParameter(escaped(f"{stake[0]} {stake[1]}"), param_hint=option)
    return stake


def game_option(f: F) -> F:
    """``--game panguingue|pagruc``."""
    return click.option(
        "--game",
        type=click.Choice(GAMES, case_sensitive=False),
        default=GAMES[0],
        show_default=True,
        help="Which game's rules apply.",
    )(f)


class HouseRulesProblem(click.ClickException):
    """A profile that cannot be loaded: one error line on standard error, starting with
    ``FILE:LINE:COL: R3`` (the file and the place of the bad key), exit status 2."""

    exit_code = EXIT_USAGE

    def show(self, file: IO[Any] | None = None) -> None:
        click.echo(self.format_message(), err=True)


def _profile_problem(why: ProfileProblem) -> HouseRulesProblem:
    return HouseRulesProblem(profile_problem_text(why))


load_profile = functools.partial(rules_profile, problem=_profile_problem)
"""The profile ``--rules SPEC`` names (:func:`~pancli.app.lines.rules_profile`); a profile that
cannot be loaded is a :class:`HouseRulesProblem` (exit 2) naming the bad knob or the unreadable
file, with its place and rule R3."""


# --------------------------------------------------------------------------- input


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
    """Standard input as UTF-8 text; a byte that is not UTF-8 is kept (:data:`~pancli.escapes.DECODE_ERRORS`)
    for the record reader to name."""
    return decoded(stdin_binary())


# --------------------------------------------------------------------------- I/O failures


def io_message(name: str, verb: str, problem: OSError | str) -> str:
    """The one wording of every I/O failure, for every command: ``pan: cannot VERB NAME: why``.

    ``verb`` is ``read`` or ``write``; ``name`` is the file as the user gave it (``-`` is
    standard input, ``standard output`` the output).

    >>> io_message("games.pan", "read", FileNotFoundError(2, "No such file or directory"))
    'pan: cannot read games.pan: No such file or directory'
    >>> io_message("out.pan", "write", "a folder")
    'pan: cannot write out.pan: a folder'
    """
    return f"pan: {io_words(name, verb, problem)}"


class IOFailure(click.ClickException):
    """A file that cannot be read or written: its :func:`io_message` on standard error, exit 2."""

    exit_code = EXIT_USAGE

    def __init__(self, name: str, verb: str, problem: OSError | str) -> None:
        super().__init__(io_message(name, verb, problem))
        self.name = name
        self.verb = verb

    def show(self, file: IO[Any] | None = None) -> None:
        click.echo(self.format_message(), err=True)


def check_readable(name: str) -> None:
    """Fail early (IOFailure, exit 2) for a file that cannot be read: missing, in a missing
    folder, a folder, no permission, a loop of symbolic links. A FIFO or a device passes
    (reading it is the user's choice); nothing is opened, so a FIFO's writer is not disturbed."""
    if name == "-":
        return
    try:
        info = os.stat(name)
    except OSError as exc:
        raise IOFailure(name, "read", exc) from None

    if stat.S_ISDIR(info.st_mode):
        raise IOFailure(name, "read", "a folder, not a file")
    if not os.access(name, os.R_OK):
        raise IOFailure(name, "read", "Permission denied")


class _ReadGuard(io.TextIOBase):
    """A text stream whose read errors (EIO, a file that vanished) become IOFailure(read)."""

    def __init__(self, inner: IO[str], name: str) -> None:
        super().__init__()
        self._inner = inner
        self._name = name

    def readable(self) -> bool:
        return True

    def read(self, size: int | None = -1) -> str:
        try:
            return self._inner.read(-1 if size is None else size)
        except OSError as exc:
            raise IOFailure(self._name, "read", exc) from None

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        try:
            return self._inner.readline(-1 if size is None else size)
        except OSError as exc:
            raise IOFailure(self._name, "read", exc) from None

    def close(self) -> None:
        self._inner.close()
        super().close()

    def bytes_read(self) -> int:
        """Bytes taken from the file so far (the share of it a progress line shows)."""
        try:
            return int(self._inner.buffer.raw.tell())  # type: ignore[attr-defined]
        except (AttributeError, OSError, ValueError):
            return 0


def open_text(name: str) -> IO[str]:
    """Open a file (or ``-`` for stdin) as UTF-8 text; a byte that is not UTF-8 is kept for the
    record reader to name (R2, the hand malformed; :data:`~pancli.escapes.DECODE_ERRORS`).

    A file that cannot be opened or read raises IOFailure (exit 2, :func:`io_message`).
    On a terminal, ``-`` says on standard error how input is piped before it waits.
    """
    if name == "-":
        hint_terminal_stdin()
        return stdin_text()
    try:
        stream = open_decoded(name)
    except OSError as exc:
        # docs/commands.md: a file that cannot be read is a usage error (2)
        raise IOFailure(name, "read", exc) from None
    return _ReadGuard(stream, name)  # type: ignore[return-value]


def hint_terminal_stdin() -> None:
    """On a terminal, ``-`` would wait silently for typed input: say how to pipe it instead."""
    if stdin_is_piped():
        return
    click.echo(
        "pan: reading standard input from the terminal: type lines and end with Ctrl-D,"
        " or pipe input in (printf '5sss\\n' | pan check -; pan simulate | pan replay -)",
        err=True,
    )


_BLOCK = 1 << 20
"""Bytes read from standard input at a time."""


def stdin_blocks(block: int = _BLOCK) -> Iterator[list[str]]:
    """Standard input as lists of lines, one list per block read (:class:`~pancli.app.lines.LineBlocks`,
    the one reader of line-by-line input); binary data, which ends the reading, is its line's one
    error (a :class:`~pancli.limits.BinaryLine`)."""
    hint_terminal_stdin()
    stream = stdin_binary()
    yield from LineBlocks(getattr(stream, "read1", stream.read), block)


def stdin_lines() -> Iterator[InputLine]:
    """The items of standard input, one a line (blank lines skipped, a ``#`` comment cut off,
    line numbers kept, a ``\\r`` before the line end dropped), read by :func:`stdin_blocks`."""
    for items in stdin_item_blocks():
        yield from items


def stdin_item_blocks() -> Iterator[list[InputLine]]:
    """:func:`stdin_lines` a block at a time (what one read gave): a command that writes after
    each block answers a pipe as its lines arrive."""
    n = 0
    for lines in stdin_blocks():
        items = []
        for text in lines:
            n += 1
            item = batch_item(text)
            if item is not None:
                items.append(InputLine(STDIN_FILE, n, item))
        yield items


def reads_stdin(args: Sequence[str]) -> bool:
    """True when the input is standard input: ``-`` alone, or no argument and input piped in."""
    return list(args) == ["-"] or (not args and stdin_is_piped())


NOTHING_TO_CHECK = "nothing to check: give melds as arguments, or '-' to read standard input"


def input_lines(args: Sequence[str], nothing: str) -> Iterator[InputLine]:
    """Each argument (file ``<arg>``, line = its position), or with ``-`` (or no argument and
    piped input) each line of standard input (:func:`stdin_lines`).

    Raises click.UsageError (exit 2) saying ``nothing`` when there is nothing to read.
    """
    if reads_stdin(args):
        yield from stdin_lines()
        return
    if not args:
        raise click.UsageError(nothing)
    for i, text in enumerate(args, 1):
        yield InputLine(ARG_FILE, i, text)


def say_on_stderr(fewer: FewerWorkers) -> None:
    """Write a note of the application's (``--jobs``: fewer workers than asked could be made) on
    standard error: the application says what happened, render/ words it, the command line writes it."""
    click.echo(fewer_workers_text(fewer), err=True)


def worker_count(jobs: int) -> int:
    """``--jobs N`` as run: 0 means one per CPU, and more than the CPUs is clamped to them with
    a note on standard error (``-j 1000000`` must not fork a million workers)."""
    cpus = os.cpu_count() or 1
    if jobs == 0:
        return cpus
    if jobs > cpus:
        click.echo(jobs_clamped_text(jobs, cpus), err=True)
        return cpus
    return jobs


def output_file(*, to_stdout: bool) -> Callable[[click.Context, click.Parameter, str | None], str | None]:
    """The click callback of an option naming a file to write (``-o``, ``--html``, ``--svg``): the
    empty name is a usage error, never a folder; ``-`` is standard output (None: as without the
    option) when ``to_stdout``, else a usage error (standard output carries the command's report),
    never a file named ``-``."""

    def check(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
        if value == "":
            raise click.BadParameter("an empty file name: name the file to write")
        if value == "-":
            if to_stdout:
                return None
            raise click.BadParameter("'-' (standard output) carries the report already: name a file to write")
        if value is not None and value.startswith("-"):  # an option taken for the name (--html --json f.pan)
            raise click.BadParameter(
                escaped(f"{value} looks like an option, not a file to write (write ./{value} to mean the file)")
            )
        return value

    return check


def same_file(a: str, b: str) -> bool:
    """Whether the names ``a`` and ``b`` are one existing file (device and inode); ``b`` may be
    ``-``, standard input (``pan replay - --html g.pan < g.pan``)."""
    try:
        found = os.fstat(stdin_binary().fileno()) if b == "-" else os.stat(b)
        target = os.stat(a)
    except (AttributeError, OSError, ValueError):
        return False
    return (found.st_dev, found.st_ino) == (target.st_dev, target.st_ino)


def refuse_writing_an_input(
    target: str | None, names: Iterable[str], option: str, rules: str | None = None, *, records: bool = True
) -> None:
    """A usage error (exit 2), before anything is read or written, when ``option`` would write over
    a file the command reads: one of the records (standard input too, by device and inode), the
    house-rules file of ``--rules`` or of a record's ``Rules`` tag (``records``: the names are
    records, whose tags are looked at). The file would be lost to the output."""
    if target is None or not os.path.isfile(target):
        return

    for name in names:
        if same_file(target, name):
            shown = "standard input, a record being read" if name == "-" else "a record being read"
            raise click.BadParameter(escaped(f"{target} is {shown}: name another file"), param_hint=option)
    if rules is not None and same_file(target, rules):
        raise click.BadParameter(
            escaped(f"{target} is the house rules of --rules: name another file"), param_hint=option
        )
    for name in names if records else ():
        for spec in rules_files_named(name):
            if same_file(target, spec):
                message = f"{target} is the house-rules file {name}'s Rules tag names: name another file"
                raise click.BadParameter(escaped(message), param_hint=option)


def refuse_two_outputs(a: str | None, b: str | None, options: str) -> None:
    """A usage error (exit 2) when two outputs name one file (``review f.pan -o x --html x``):
    the second would replace the first."""
    if a is None or b is None:
        return
    if os.path.realpath(a) == os.path.realpath(b) or same_file(a, b):
        raise click.UsageError(escaped(f"{options} name one file, {a}: each output needs its own"))


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
    seen: dict[tuple[int, int], str] = {}
    for name in names:  # one file under two names (a.pan ./a.pan, a link): its hands counted twice
        try:
            found = os.fstat(stdin_binary().fileno()) if name == "-" else os.stat(name)
        except (AttributeError, OSError, ValueError):
            continue

        if not stat.S_ISREG(found.st_mode):
            continue
        first = seen.setdefault((found.st_dev, found.st_ino), name)
        if first is not name:
            if "-" in (first, name):
                what = f"{first if name == '-' else name} is standard input"
            else:
                what = f"{first} and {name} name one file"
            raise click.UsageError(escaped(f"{what}: give it once (its hands would count twice)"))
    return names


def refuse_output_into_input(names: Iterable[str], in_place: str = "--write") -> None:
    """A usage error (exit 2), raised before anything is written, when standard output is one of
    the input files (``pan fmt x.pan > x.pan``, ``pan fmt - < x.pan >> x.pan``): the same file
    (device and inode) read and written at once would be lost. ``in_place`` is the command's own
    option that rewrites a file in place, which the message names."""
    try:
        out = os.fstat(sys.stdout.fileno())
    except (AttributeError, OSError, ValueError):  # no file behind standard output (tests)
        return
    if not stat.S_ISREG(out.st_mode):
        return
    for name in names:
        try:
            found = os.fstat(stdin_binary().fileno()) if name == "-" else os.stat(name)
        except (AttributeError, OSError, ValueError):
            continue
        if (found.st_dev, found.st_ino) == (out.st_dev, out.st_ino):
            shown = "standard input" if name == "-" else name
            raise click.UsageError(
                f"standard output is {shown}, which is also read: nothing written"
                f" (a shell's '>' empties it before pan starts; to rewrite a file in place use {in_place})"
            )


# --------------------------------------------------------------------------- output


def report(file: str, line: int, col: int, rule: str, message: str) -> None:
    """Write one error line to standard error (on a terminal, with the hint to look the rule up)."""
    hint = rule_hint(rule) if stdout_is_terminal() else ""
    sys.stderr.write(error_line(file, line, col, rule, message) + hint + "\n")  # not click.echo: far dearer a line
