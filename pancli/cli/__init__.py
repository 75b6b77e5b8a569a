"""The ``pan`` command line: a thin click layer over the engine.

Subcommands are imported only when used, so ``pan --help`` and a batch of thousands
of ``pan check`` calls in a pipeline stay cheap (benchmarks/README.md): no command module
imports rich or pyparsing at its top.
"""

from __future__ import annotations

import contextlib
import errno
import gc
import importlib
import io
import os
import resource
import signal
import sys
from typing import Any, NoReturn

import click

from pancli import __version__

# name -> (module, attribute, short help). A command appears once its module exists. The short help
# is the first sentence of the command's help (tests/test_startup.py checks it), so ``pan --help``
# lists every command without importing one (start-up: importing them all doubled it).
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
    "review": (
        "pancli.cli.review",
        "review",
        "Annotate played hands, as a chess engine annotates a game: where was a hand lost?",
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
    "live": (
        "pancli.cli.live",
        "live",
        "Keep the score at the table: each line entered is judged at once, and written when legal.",
    ),
    "completion": (
        "pancli.cli.completion",
        "completion",
        "Print the shell completion script of pan for SHELL (bash, zsh or fish).",
    ),
    "samples": (
        "pancli.cli.samples_cmd",
        "samples",
        "List the sample records shipped with pan, or print one (to pipe into another command).",
    ),
}


class LazyGroup(click.Group):
    """A click group whose subcommands are imported on first use.

    A reader that goes away while pan writes (``| head``) becomes :class:`PipeClosed` here,
    before click can turn it into its own exit status 1 (see :func:`main`).
    """

    def list_commands(self, ctx: click.Context) -> list[str]:
        import importlib.util  # start-up: only the command list (help, completion) looks modules up

        return [n for n, (mod, _, _) in COMMANDS.items() if importlib.util.find_spec(mod) is not None]

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        entry = COMMANDS.get(cmd_name)
        if entry is None:
            return None
        try:
            module = importlib.import_module(entry[0])
        except ModuleNotFoundError as missing:
            if missing.name == entry[0]:  # a command whose module is not there (yet): unknown
                return None
            raise
        command: Any = getattr(module, entry[1])
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

    def make_context(
        self, info_name: str | None, args: list[str], parent: click.Context | None = None, **extra: Any
    ) -> click.Context:
        try:  # --help and --version write while the arguments are parsed
            return super().make_context(info_name, args, parent, **extra)
        except BrokenPipeError:
            raise PipeClosed from None

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except BrokenPipeError:
            raise PipeClosed from None


class PipeClosed(BaseException):
    """Standard output's reader went away (a BaseException: no command's handler catches it)."""


class Interrupted(BaseException):
    """A signal asked pan to stop (Ctrl-C, ``kill``): raised by the handler :func:`main` installs.

    Not KeyboardInterrupt, which click would report as "Aborted!" with status 1.
    """

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


class Stopping:
    """The signal that asked pan to stop, turned into :class:`Interrupted` wherever it lands.

    Python runs a signal's handler in whatever code is running, a finalizer too (an object's
    ``__del__``, a generator the collector closes), where the exception cannot propagate: Python
    only prints it ("Exception ignored in") and pan would go on, or wait on its input for good.
    Such a signal is not lost: it comes again once the finalizer is done, by a timer, and a
    command that finished meanwhile still ends as stopped.
    """

    AGAIN_AFTER = 0.01
    """Seconds before a signal caught in a finalizer comes again: long enough for the finalizer
    to end, short enough not to be seen."""

    STOPPING = frozenset(getattr(signal, n) for n in ("SIGINT", "SIGTERM", "SIGHUP", "SIGALRM") if hasattr(signal, n))
    """The signals whose handler is one of this class's: held once pan's way out is decided."""

    def __init__(self) -> None:
        self.signum = 0
        self.ending = False
        """How pan ends is decided (:meth:`end`): a signal changes nothing any more."""

    def stop(self, signum: int, frame: object) -> None:
        """The handler of every signal that stops pan. The first one stops it: a second (``kill``
        after Ctrl-C, SIGHUP with SIGTERM) must not cut short the clean-up the first set going
        (a temporary file removed, workers reaped), nor land in the report of how pan ended."""
        if self.signum or self.ending:
            return
        self.signum = signum
        raise Interrupted(signum)

    def again(self, signum: int, frame: object) -> None:
        """The timer's handler: the signal a finalizer swallowed, raised where it can propagate."""
        if not self.ending:
            raise Interrupted(self.signum)

    def end(self) -> None:
        """How pan ends is decided: from now on a stopping signal is held, and dropped when the
        process exits. Let through, it would land in the interpreter's own exit (its finalizers,
        atexit), where it cannot propagate (the timer of :meth:`unraisable` then killed pan with
        SIGALRM) or where Python has put back the default handlers (killed by the signal)."""
        self.ending = True
        if hasattr(signal, "setitimer"):
            signal.setitimer(signal.ITIMER_REAL, 0)
        if hasattr(signal, "pthread_sigmask"):
            signal.pthread_sigmask(signal.SIG_BLOCK, self.STOPPING)

    def unraisable(self, unraisable: sys.UnraisableHookArgs) -> None:
        """``sys.unraisablehook``: an Interrupted a finalizer could not let out comes again; anything
        else is reported as Python reports it."""
        if isinstance(unraisable.exc_value, Interrupted) and hasattr(signal, "setitimer"):
            signal.signal(signal.SIGALRM, self.again)
            signal.setitimer(signal.ITIMER_REAL, self.AGAIN_AFTER)
            return
        sys.__unraisablehook__(unraisable)

    def check(self) -> None:
        """Raise Interrupted if a signal came (one a finalizer swallowed included), its timer stopped."""
        if self.signum:
            if hasattr(signal, "setitimer"):
                signal.setitimer(signal.ITIMER_REAL, 0)
            raise Interrupted(self.signum)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(version=__version__, prog_name="pan")
def cli() -> None:
    """pan: a rules referee and hand analyzer for Panguingue and PAGRUC.

    \b
    Examples:
      pan check "7c 7s 7s"          # illegal (M3): exits 1
      pan pay 5sss 3-5h --players 6
      pan samples friday-hoyle | pan replay -
      pan rules P8
    """
    _tolerant_output()


def _tolerant_output() -> None:
    """Any standard-output encoding works: a character it cannot hold is written as a
    backslash escape (``PYTHONIOENCODING=ascii pan check "Ä"``), never a UnicodeEncodeError,
    whatever handler the stream began with (``surrogateescape`` under ``LC_ALL=C`` fails on
    any character past ASCII)."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None and getattr(stream, "errors", "strict") != "backslashreplace":
            with contextlib.suppress(ValueError, OSError):  # a stream that cannot change stays as it is
                reconfigure(errors="backslashreplace")


_STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))
"""The signals that stop pan quietly, each with its status (128 + its number): pancli.files.STOP_SIGNALS,
written again here because the entry point of a command that writes no file loads no pancli.files."""


EXIT_PIPE_CLOSED = 128 + 13
"""Exit status when standard output's reader went away: 128 + SIGPIPE, what a shell shows."""


def main() -> None:
    """Console-script entry point: the one place that turns how pan ended into its exit status.

    0, 1 and 2 are the commands' own (docs/commands.md: all legal, something illegal,
    usage or I/O error). Besides them, and quietly (no traceback, no "Aborted!"):

    - standard output's reader went away (``pan replay big.pan | head -1``): 141;
    - Ctrl-C: 130, ``kill`` (SIGTERM): 143, a hangup (SIGHUP, the terminal closed): 129. Files
      being written are left as they were (:mod:`pancli.files` removes its temporary file), and
      ``replay --jobs`` ends its workers;
    - output that cannot be written (a full disk, a closed file): an error message and 2;
    - memory exhausted under a limit (``ulimit -v``): ``pan: out of memory`` and 2.
    """

    stopping = Stopping()
    try:
        try:
            _run(stopping)
        finally:
            # inside the try: a signal that comes before the way out is decided ends pan as stopped
            stopping.end()
    except Interrupted as stop_signal:
        _silence_stdout()
        _end_terminal_line()
        sys.exit(128 + stop_signal.signum)


def _run(stopping: Stopping) -> None:
    """:func:`main` but for a signal: the handlers set, the command run, how it ended turned
    into its status (an :class:`Interrupted` raised anywhere here is :func:`main`'s)."""
    reserve: bytes | None = None
    try:
        # inside the try: a signal that comes while pan is still setting up ends it as quietly
        sys.unraisablehook = stopping.unraisable
        # SIGHUP, the terminal went away: as SIGTERM (129, temporary files removed). A signal the
        # caller set to be ignored (nohup, a shell's background job and Ctrl-C) stays ignored.
        for signum in _STOP_SIGNALS:
            if signal.getsignal(signum) is not signal.SIG_IGN:
                signal.signal(signum, stopping.stop)
        _guard_streams()
        _buffer_stdout()
        _enough_memory()
        _completion_request()
        # room to report running out of memory in (``ulimit -v``): freed first when memory runs out;
        # bytes(n) asks the allocator for zeroed pages and never writes them (bytearray(n) wrote 1 MB)
        reserve = bytes(_RESERVE_BYTES)
        try:
            cli.main(prog_name="pan")
        finally:
            sys.stdout.flush()
            # the interpreter's last collection need not walk every module and class pan loaded
            # (nothing waits on it): a cheaper exit for every command (benchmarks/README.md)
            gc.freeze()
            stopping.check()  # the command ended (click exits) before a swallowed signal came again
    except (PipeClosed, BrokenPipeError):
        _silence_stdout()
        sys.exit(EXIT_PIPE_CLOSED)
    except OSError as exc:
        _silence_stdout()
        sys.stderr.write(_os_failure(exc) + "\n")
        sys.exit(2)
    except MemoryError:  # under a memory limit (ulimit -v)
        del reserve  # the room to report in
        _out_of_memory()


_OUTPUT_ERRNOS = frozenset(["ENOSPC", "EIO", "EBADF", "EFBIG", "EDQUOT", "EAGAIN", "EINVAL"])
"""How writing standard output fails (a full disk, a closed or broken device, ulimit -f)."""


def _os_failure(exc: OSError) -> str:
    """The message of an OSError no command caught: what failed, named (never "standard output"
    for what is not about it: a descriptor or process limit, a folder deleted, memory).

    >>> _os_failure(OSError(28, "No space left on device"))
    'pan: cannot write standard output: No space left on device'
    >>> _os_failure(OSError(24, "Too many open files"))
    'pan: Too many open files (EMFILE): raise the limit (ulimit -n) or use fewer --jobs'
    """
    why = exc.strerror or str(exc) or type(exc).__name__
    code = errno.errorcode.get(exc.errno or 0, "")
    if code == "ENOMEM":
        return "pan: out of memory" + (f" (reading {exc.filename})" if exc.filename else "")
    if exc.filename:
        return f"pan: {exc.filename}: {why}"
    if code in _OUTPUT_ERRNOS:
        return f"pan: cannot write standard output: {why}"
    if code == "ENOENT":
        try:
            os.getcwd()
        except OSError:
            return f"pan: the current folder is gone (deleted or moved): {why}; cd to a folder that exists"
    hint = {
        "EMFILE": ": raise the limit (ulimit -n) or use fewer --jobs",
        "ENFILE": ": the system's open files are used up",
    }.get(code, "")
    return f"pan: {why}" + (f" ({code})" if code else "") + hint


_RESERVE_BYTES = 1 << 20
"""Memory :func:`main` holds back to report running out of it."""


MIN_MEMORY_MB = 64
"""The address space pan needs to run at all (``ulimit -v``): the interpreter, click, the engine
and ``analyze --advice``, with a margin (measured: benchmarks/README.md). Under less, running
out of memory may come where Python cannot report it (a fatal error, a crash), so pan does not start."""


def _enough_memory() -> None:
    """End at once, with status 2 and a message, under an address-space limit pan cannot run in."""
    soft, _hard = resource.getrlimit(resource.RLIMIT_AS)
    if soft != resource.RLIM_INFINITY and soft < MIN_MEMORY_MB << 20:
        given = soft >> 20
        message = f"pan: out of memory: the limit (ulimit -v) is {given} MB, pan needs {MIN_MEMORY_MB} MB to run\n"
        os.write(2, message.encode())
        os._exit(2)


def _completion_request() -> None:
    """A shell's completion request (``_PAN_COMPLETE``, :mod:`pancli.cli.completion`) with a word
    number that is no number: status 2 and why, where click would end in a traceback."""
    if os.environ.get("_PAN_COMPLETE") and not os.environ.get("COMP_CWORD", "0").strip().isdigit():
        os.write(2, b"pan: shell completion: COMP_CWORD is not a word number\n")
        raise SystemExit(2)


def _out_of_memory() -> NoReturn:
    """Say ``pan: out of memory`` and end with status 2 at once: nothing more is run that could
    need memory (no cleanup, no flush of what is buffered, no second error while reporting one),
    and a signal from now on ends pan as it would any program."""
    try:
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        os.write(2, b"pan: out of memory\n")
    except BaseException:  # pragma: no cover - no memory even for that, or standard error gone
        pass
    os._exit(2)


def _guard_streams() -> None:
    """Standard streams that are closed (``>&-``), full (``2>/dev/full``) or a closed pipe end as
    pan ends anywhere else (docs/commands.md, "Exit status"):

    - a closed descriptor 0, 1 or 2 is taken by /dev/null at once, so that no file pan opens
      later gets its number (an output file opened as descriptor 1 would receive the report);
    - closed standard input reads as empty; closed standard output fails at its first write
      like a full one (``pan: cannot write standard output: Bad file descriptor``, status 2);
    - standard error never fails: what cannot be written there is dropped, and the command
      ends with its own status (an error message cannot change a verdict).
    """
    closed: set[int] = set()
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            closed.add(fd)
            null = os.open(os.devnull, os.O_RDWR)  # the lowest free number: ``fd`` itself
            if null != fd:  # pragma: no cover - a lower descriptor was closed too and is taken
                os.dup2(null, fd)
                os.close(null)
    if 0 in closed:
        sys.stdin = open(0, encoding="utf-8", errors="replace", closefd=False)  # noqa: SIM115 - the process's
    if 1 in closed:
        sys.stdout = io.TextIOWrapper(io.BufferedWriter(_ClosedOutput()), encoding="utf-8")
    encoding = getattr(sys.stderr, "encoding", None) or "utf-8"
    sys.stderr = io.TextIOWrapper(
        _QuietError(), encoding=encoding, errors="backslashreplace", line_buffering=True, write_through=True
    )


class _ClosedOutput(io.RawIOBase):
    """Standard output that was closed when pan started: every write fails as writing to a
    closed descriptor does, until pan has said so (``quiet``: then what is left is dropped)."""

    quiet = False

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        if self.quiet:
            return len(memoryview(data))
        raise OSError(errno.EBADF, os.strerror(errno.EBADF))


class _QuietError(io.RawIOBase):
    """Standard error (descriptor 2) that never raises: once a write fails (a full device, a
    closed pipe), what follows is dropped."""

    def __init__(self) -> None:
        super().__init__()
        self.failed = False

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return 2

    def isatty(self) -> bool:
        return os.isatty(2)

    def write(self, data: Any) -> int:
        view = memoryview(data)
        size = len(view)
        while view and not self.failed:
            try:
                view = view[os.write(2, view) :]
            except InterruptedError:  # pragma: no cover - a signal's handler returned
                continue
            except OSError:
                self.failed = True
        return size


def _buffer_stdout() -> None:
    """Give standard output a buffer when ``python -u`` or PYTHONUNBUFFERED took it away.

    Unbuffered, a write that the pipe takes only in part (its reader went away) is cut short
    without an error, so a closed pipe would look like success; and each line would cost a
    system call. Commands flush where output must show at once (``--jsonl``, terminals).
    """
    out = sys.stdout
    if not isinstance(getattr(out, "buffer", None), io.RawIOBase) or not isinstance(out, io.TextIOWrapper):
        return
    with contextlib.suppress(OSError, ValueError):  # no file descriptor behind stdout: leave it
        sys.stdout = open(  # noqa: SIM115 - lives as long as the process; fd 1 is not closed with it
            out.fileno(),
            "w",
            encoding=out.encoding,
            errors=out.errors,
            closefd=False,
            buffering=1 if out.isatty() else -1,
        )


def _end_terminal_line() -> None:
    """After Ctrl-C on a terminal, end the line the terminal's ``^C`` echo left open."""
    try:
        if sys.stderr.isatty():
            sys.stderr.write("\n")
            sys.stderr.flush()
    except (OSError, ValueError):  # pragma: no cover - standard error is gone too
        pass


def _silence_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's last flush cannot fail again.

    What was buffered but not yet written is dropped: the reader is gone or the user
    asked pan to stop.
    """
    closed = getattr(getattr(sys.stdout, "buffer", None), "raw", None)
    if isinstance(closed, _ClosedOutput):
        closed.quiet = True
        return
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # pragma: no cover - no file descriptor behind stdout
        pass
