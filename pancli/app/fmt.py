"""What ``pan fmt`` does between its options and its output: each hand of a record in canonical
form (docs/notation.md), a hand at a time; each input compared with its canonical text
(``--check``, ``--diff``) or rewritten in place (``--write``).

Streams: one hand at a time is read and formatted, so printing or checking a file of any size
takes constant memory (``--check`` compares chunk by chunk with a second reading of the file);
``--diff``, ``--json`` and standard input keep the whole text. Each malformed hand is told to
the caller as it is met (``malformed``), before the input's result.
"""

from __future__ import annotations

import errno
import io
import os
import stat
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import IO, TYPE_CHECKING

from pancli.escapes import DECODE_ERRORS
from pancli.notation.record_writer import format_record
from pancli.records import read_hands
from pancli.records.tags import record_folder

if TYPE_CHECKING:
    from pancli.notation.errors import NotationError as NotationError

Malformed = Callable[[str, int, int, str, str], None]
"""Told of each malformed hand as it is met: the input's name and the fields of the hand's error
(line, column, notation code, message)."""


def canonical_hands(stream: IO[str], file: str, base_dir: str | None) -> Iterator[tuple[str, NotationError | None]]:
    """Each hand of the record ``stream`` (``file`` in errors; house rules looked up in
    ``base_dir``) in canonical form, a malformed hand as written, with its error (None when it reads).

    >>> import io
    >>> record = io.StringIO('[Players "Ana  Ben"]\\nAna  stay\\n')
    >>> list(canonical_hands(record, "-", None))
    [('[Players "Ana Ben"]\\n\\nAna stay\\n', None)]
    """
    for hand in read_hands(stream, file, base_dir):
        yield format_record(hand), hand.error


@dataclass(slots=True)
class Formatted:
    """What formatting one input found."""

    file: str
    hands: int = 0
    errors: list[NotationError] = field(default_factory=list)
    """One per malformed hand (written as it was)."""
    canonical: bool | None = None
    """The input was already canonical (None: not compared, or not read)."""
    text: str | None = None
    """The canonical text, when kept (``--json`` without ``--check``, ``--diff``)."""
    original: str | None = None
    """The input's text, when kept (``--diff``)..."""
    formatted: str | None = None
    """...and its canonical text."""
    failure: OSError | None = None
    """Why the input could not be read (None: it was)."""


def _chunks(stream: IO[str], found: Formatted, base_dir: str | None, malformed: Malformed) -> Iterator[str]:
    """The canonical text hand by hand; malformed hands are told and counted in ``found``."""
    for i, (text, e) in enumerate(canonical_hands(stream, found.file, base_dir)):
        found.hands += 1
        if e is not None:
            malformed(found.file, e.line, e.col, e.code, e.message)
            found.errors.append(e)
        yield ("\n" if i else "") + text


def _open(name: str) -> IO[str]:
    return open(name, encoding="utf-8", errors=DECODE_ERRORS, newline="")


class _Recording(io.TextIOBase):
    """Standard input read through, keeping what was read (``--check``/``--diff`` of ``-``
    compare it with the canonical text): never more than the reader asks for."""

    def __init__(self, inner: IO[str]) -> None:
        super().__init__()
        self._inner = inner
        self._parts: list[str] = []

    def readable(self) -> bool:
        return True

    def read(self, size: int | None = -1) -> str:
        data = self._inner.read(-1 if size is None else size)
        self._parts.append(data)
        return data

    def text(self) -> str:
        """Everything read so far."""
        return "".join(self._parts)


def format_files(
    names: Sequence[str],
    *,
    check: bool,
    diff: bool,
    whole: bool,
    write: Callable[[str], object],
    malformed: Malformed,
    stdin: Callable[[], IO[str]],
) -> Iterator[Formatted]:
    """Each input formatted, in order (``-``: ``stdin()``). With none of ``check``, ``diff`` and
    ``whole`` the canonical text is given to ``write`` as it is made; ``check``: compared with
    the input (``canonical``); ``diff``: both texts kept; ``whole``: the canonical text kept
    (``--json``; not with ``check``)."""
    for name in names:
        yield _format_one(name, check, diff, whole, write, malformed, stdin)


def _format_one(
    name: str,
    check: bool,
    diff: bool,
    whole: bool,
    write: Callable[[str], object],
    malformed: Malformed,
    stdin: Callable[[], IO[str]],
) -> Formatted:
    found = Formatted(name)
    recording: _Recording | None = None
    if name == "-":  # read as the reader goes (a pipe with no end is cut by the reader's limits)
        recording = _Recording(stdin())
        source: IO[str] = recording  # type: ignore[assignment]
        base_dir = None
    else:
        try:
            source = _open(name)
        except OSError as exc:
            found.failure = exc
            return found
        base_dir = record_folder(name)
    with source:
        if not check and not diff and not whole:
            for chunk in _chunks(source, found, base_dir, malformed):
                write(chunk)
            return found
        if diff or not check or recording is not None:  # the whole text: a diff, --json's text, stdin
            original = ""
            if recording is None:
                original = source.read()
                source = io.StringIO(original)
            formatted = "".join(_chunks(source, found, base_dir, malformed))
            if recording is not None:
                original = recording.text()
            found.canonical = formatted == original
            found.text = None if check else formatted
            if diff:
                found.original, found.formatted = original, formatted
            return found
        # --check of a file: compared chunk by chunk with a second reading (constant memory)
        same = True
        with _open(name) as again:
            for chunk in _chunks(source, found, base_dir, malformed):
                if same and again.read(len(chunk)) != chunk:
                    same = False
            if same and again.read(1):
                same = False
        found.canonical = same
        return found


class NotRegular(OSError):
    """``fmt --write`` given a device, a FIFO or a folder."""


def _open_regular(name: str) -> IO[str]:
    """``name`` opened for ``--write``, which replaces regular files only: anything else (a FIFO
    would wait for a writer, a device would be written in place) is refused once opened, without
    waiting and without reading (OSError)."""
    fd = os.open(name, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise NotRegular(errno.EINVAL, "not a regular file (a device, a FIFO or a folder)", name)
        os.set_blocking(fd, True)
        return open(fd, encoding="utf-8", errors=DECODE_ERRORS, newline="")
    except BaseException:
        os.close(fd)
        raise


class Outcome(Enum):
    """What ``--write`` did to one file."""

    REFORMATTED = "reformatted"
    UNCHANGED = "unchanged"
    """Already canonical: not touched (nor its time)."""
    MALFORMED = "malformed"
    """A hand is malformed: left as it was."""
    FAILED = "failed"
    """It could not be read or written (``failure``, ``verb``)."""


@dataclass(frozen=True, slots=True)
class Rewritten:
    """One file of ``--write``."""

    file: str
    outcome: Outcome
    malformed: int = 0
    failure: OSError | None = None
    verb: str = "read"
    """What failed: ``read`` or ``write``."""


class _Malformed(Exception):
    """A hand of the file being rewritten is malformed: the file is left as it was."""


class _Unchanged(Exception):
    """The file is already in canonical form: it is left as it was."""


def rewrite_files(names: Sequence[str], malformed: Malformed) -> Iterator[Rewritten]:
    """``--write``: each file rewritten in canonical form through :func:`pancli.files.atomic_write`
    (a temporary file in the same folder, fsync, rename: the file holds the old text or the new,
    its permissions kept), in order. An unchanged file is not touched; a file with a malformed
    hand is left as it was."""
    from pancli.files import atomic_write  # only for --write: tempfile and shutil

    for name in names:
        found = Formatted(name)
        verb = "read"
        try:
            with _open_regular(name) as source, _open_regular(name) as again:
                verb = "write"
                with atomic_write(name, newline="", regular_only=True) as out:
                    same = True
                    for chunk in _chunks(source, found, record_folder(name), malformed):
                        out.write(chunk)
                        if same and again.read(len(chunk)) != chunk:
                            same = False
                    if found.errors:
                        raise _Malformed
                    if same and not again.read(1):
                        raise _Unchanged  # nothing to change: leave the file (and its time) alone
        except _Malformed:
            yield Rewritten(name, Outcome.MALFORMED, len(found.errors))
            continue
        except _Unchanged:
            yield Rewritten(name, Outcome.UNCHANGED)
            continue
        except OSError as exc:
            yield Rewritten(name, Outcome.FAILED, failure=exc, verb="write" if isinstance(exc, NotRegular) else verb)
            continue
        yield Rewritten(name, Outcome.REFORMATTED)
