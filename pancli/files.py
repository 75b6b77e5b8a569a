"""Writing files atomically: a reader sees the old text or the new text, never half of one.

Every file ``pan`` writes (``fmt --write``, ``simulate -o``, ``replay --html``, pictures)
goes through :func:`atomic_write`: the text is written to a temporary file in the same
folder, flushed to the disk (``fsync``), given the old file's permission bits, and renamed
over the target in one step (``os.replace``). If anything fails on the way, or the writer
raises (Ctrl-C included), the temporary file is removed and the target is untouched.

Standard library only, so any layer may use it.

>>> import pathlib, tempfile
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> target = folder / "hands.pan"
>>> with atomic_write(target) as out:
...     _ = out.write("7s 7s 7s\\n")
>>> target.read_text()
'7s 7s 7s\\n'
>>> try:
...     with atomic_write(target) as out:
...         _ = out.write("half a")
...         raise RuntimeError("interrupted")
... except RuntimeError:
...     pass
>>> target.read_text(), sorted(p.name for p in folder.iterdir())
('7s 7s 7s\\n', ['hands.pan'])
"""

from __future__ import annotations

import contextlib
import errno
import os
import signal
import stat
import tempfile
from collections.abc import Iterator
from typing import IO, Any, BinaryIO, Literal, TextIO, overload

__all__ = ["STOP_SIGNALS", "atomic_write", "signals_held"]

StrPath = str | os.PathLike[str]
READ_ONLY = "Permission denied (a read-only file: pan replaces only files that may be written)"


@overload
def atomic_write(
    path: StrPath,
    mode: Literal["w"] = "w",
    *,
    encoding: str = "utf-8",
    newline: str | None = None,
    regular_only: bool = False,
) -> contextlib.AbstractContextManager[TextIO]: ...


@overload
def atomic_write(
    path: StrPath,
    mode: Literal["wb"],
    *,
    encoding: str = "utf-8",
    newline: str | None = None,
    regular_only: bool = False,
) -> contextlib.AbstractContextManager[BinaryIO]: ...


def atomic_write(
    path: StrPath,
    mode: Literal["w", "wb"] = "w",
    *,
    encoding: str = "utf-8",
    newline: str | None = None,
    regular_only: bool = False,
) -> contextlib.AbstractContextManager[Any]:
    """Open ``path`` for writing so that it changes in one step when the block ends.

    ``mode`` is ``"w"`` (text, ``encoding``/``newline`` as for :func:`open`) or ``"wb"``.
    The file keeps its permission bits (and, when allowed, its owner); a new file gets
    the umask's default, as :func:`open` would give it. A symbolic link is followed: the
    file it points to is replaced, the link stays: the file is replaced, not written into, so
    another name of it (a hard link) keeps the old text. A file marked read-only (no write
    permission bit, or one the user may not write) is refused (PermissionError), for root too:
    a read-only mark means "leave this file alone". A device or FIFO (``-o /dev/stdout``) is
    written in place, unless ``regular_only``, which refuses it (``fmt --write``). Errors are
    :class:`OSError` naming ``path`` (never the temporary file).

    >>> import pathlib, tempfile
    >>> target = pathlib.Path(tempfile.mkdtemp()) / "picture.svg"
    >>> with atomic_write(target, "wb") as out:
    ...     _ = out.write(b"<svg/>")
    >>> target.read_bytes()
    b'<svg/>'
    """
    if mode not in ("w", "wb"):
        raise ValueError(f"atomic_write: mode must be 'w' or 'wb', not {mode!r}")
    return _atomic_write(os.fspath(path), mode, encoding, newline, regular_only)


@contextlib.contextmanager
def _atomic_write(path: str, mode: str, encoding: str, newline: str | None, regular_only: bool) -> Iterator[IO[Any]]:
    if _is_special(path):
        if regular_only:
            raise OSError(errno.EINVAL, "not a regular file (a device, a FIFO or a folder)", path)
        # A device or a FIFO (-o /dev/stdout, /dev/null, a pipe): written in place. Renaming a
        # file over it would replace the device itself (as root: /dev/full became a file).
        try:
            if mode == "wb":
                with open(path, "wb") as raw:
                    yield raw
            else:
                with open(path, "w", encoding=encoding, newline=newline) as text:
                    yield text
        except OSError as exc:
            raise _naming(exc, path) from None
        return
    target = os.path.realpath(path)
    folder = os.path.dirname(target) or "."
    old = _stat_or_none(target, path)
    held = _hold_stopping_signals()
    try:
        fd, temp = tempfile.mkstemp(dir=folder, prefix=_temp_prefix(os.path.basename(target)), suffix=".tmp")
        try:
            stream: IO[Any] = (
                os.fdopen(fd, "wb") if mode == "wb" else os.fdopen(fd, "w", encoding=encoding, newline=newline)
            )
        except BaseException:
            os.close(fd)
            os.unlink(temp)
            raise
    except BaseException as exc:
        _release(held)
        if isinstance(exc, OSError):
            raise _naming(exc, path) from None
        raise
    try:
        with stream:
            _release(held)  # a signal held meanwhile is raised here, where the file is removed
            yield stream
            stream.flush()
            _keep_mode_and_owner(fd, old)
            os.fsync(fd)
        os.replace(temp, target)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        if isinstance(exc, OSError):
            raise _naming(exc, path) from None
        raise
    _sync_folder(folder)


STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))
"""The signals that stop pan quietly (Ctrl-C, ``kill``, a hang-up), each with its status (128 + its number)."""

_STOPPING = frozenset((*STOP_SIGNALS, *((signal.SIGALRM,) if hasattr(signal, "SIGALRM") else ())))
"""The signals whose handler may raise (Ctrl-C, a hang-up, pan's own timer): held while the
temporary file is made, so none lands between its creation and the code that removes it. A
mask is the thread's own: pan writes from its only thread, where it holds every such signal."""


def _hold_stopping_signals() -> set[int | signal.Signals] | None:
    """Block :data:`_STOPPING`; the mask to put back, or None where signals cannot be blocked."""
    if not hasattr(signal, "pthread_sigmask"):
        return None
    before = signal.pthread_sigmask(signal.SIG_BLOCK, ())
    try:
        signal.pthread_sigmask(signal.SIG_BLOCK, _STOPPING)
    except BaseException:
        # Python runs the handlers of signals that came before once the mask is set: one that
        # raises leaves the mask set for a caller that never gets it to put back
        signal.pthread_sigmask(signal.SIG_SETMASK, before)
        raise
    return before


def _release(held: set[int | signal.Signals] | None) -> None:
    """Put back the mask :func:`_hold_stopping_signals` changed; a signal held meanwhile comes now."""
    if held is not None:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


@contextlib.contextmanager
def signals_held() -> Iterator[set[int | signal.Signals] | None]:
    """Hold :data:`_STOPPING` over a block that must not be cut in two (a process forked and put
    where it is ended, a line written and put on the disk): a signal that comes meanwhile is raised
    when the block ends. Gives the mask to put back in a process forked in the block (it inherits
    this one), or None where signals cannot be blocked.

    >>> with signals_held():
    ...     pass
    """
    held = _hold_stopping_signals()
    try:
        yield held
    finally:
        _release(held)


_TEMP_NAME_BYTES = 120
"""Bytes of the target's name kept in the temporary name: with the dot, the random part and
``.tmp`` it stays far under NAME_MAX (255) when the target itself takes all 255."""


def _temp_prefix(name: str) -> str:
    """The temporary file's name before its random part: ``.NAME.``, the name cut short when long.

    >>> _temp_prefix("hands.pan"), len(os.fsencode(_temp_prefix("é" * 127)))
    ('.hands.pan.', 122)
    """
    raw = os.fsencode(name)
    if len(raw) > _TEMP_NAME_BYTES:
        name = os.fsdecode(raw[:_TEMP_NAME_BYTES])
    return f".{name}."


def _is_special(path: str) -> bool:
    """Whether ``path`` names an existing device, FIFO or socket (not a file, not a folder)."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return not stat.S_ISREG(mode) and not stat.S_ISDIR(mode)


def _stat_or_none(target: str, path: str) -> os.stat_result | None:
    try:
        found = os.stat(target)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise _naming(exc, path) from None
    if stat.S_ISDIR(found.st_mode):
        raise IsADirectoryError(21, os.strerror(21), path)
    if not stat.S_IMODE(found.st_mode) & 0o222 or not os.access(target, os.W_OK):
        raise PermissionError(errno.EACCES, READ_ONLY, path)
    return found


def _keep_mode_and_owner(fd: int, old: os.stat_result | None) -> None:
    """Give the temporary file the old file's bits, or the umask default for a new file."""
    if old is None:
        os.fchmod(fd, 0o666 & ~_umask())
        return
    mine = os.fstat(fd)
    if (mine.st_uid, mine.st_gid) != (old.st_uid, old.st_gid):
        with contextlib.suppress(OSError):  # only the owner or root may give a file away
            os.fchown(fd, old.st_uid, old.st_gid)
    os.fchmod(fd, stat.S_IMODE(old.st_mode))  # after chown, which may clear set-id bits


def _umask() -> int:
    """The process's umask (reading it means setting it; put straight back)."""
    current = os.umask(0o022)
    os.umask(current)
    return current


def _sync_folder(folder: str) -> None:
    """Make the rename itself durable; best effort (some systems cannot open folders)."""
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _naming(exc: OSError, path: str) -> OSError:
    """The same error, naming the file the user asked for rather than the temporary one."""
    if exc.errno is None:
        return exc
    return type(exc)(exc.errno, exc.strerror, path)
