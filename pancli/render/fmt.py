"""The exporters of ``pan fmt``: the ``--json`` object of each input, the unified diff of
``--diff`` (the canonical text itself is the canonical writer's) and the status lines said on
standard error (:func:`would_reformat`, :func:`reformatted`, :func:`left_unchanged`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from pancli.app.lines import ErrorFields
from pancli.escapes import escape_text
from pancli.jsontext import Item
from pancli.render.text import io_words

if TYPE_CHECKING:
    from pancli.notation.errors import NotationError


class FileItem(Item):
    """One input: ``file``, ``canonical`` (the input was already in canonical form; null when it
    could not be read), ``text`` (the canonical text; null with ``--check``), ``hands`` (count),
    ``errors`` (one per malformed hand), ``read_error`` (why the file could not be read, or null)."""

    file: str
    canonical: bool | None
    text: str | None
    hands: int
    errors: list[ErrorFields]
    read_error: str | None


class FileDiffItem(FileItem):
    """One input with ``--diff``: its unified ``diff`` last ("" when canonical)."""

    diff: str | None


def file_item(
    file: str,
    canonical: bool | None,
    text: str | None,
    hands: int,
    errors: Sequence[NotationError],
    failure: OSError | None,
    with_diff: bool,
    diff: str | None,
) -> FileItem:
    """The ``--json`` object of one input (:class:`FileItem`, or :class:`FileDiffItem` with ``--diff``);
    ``failure``: why it could not be read (``read_error``, worded as on standard error)."""
    fields = [ErrorFields(file, e.line, e.col, e.code, None, e.message) for e in errors]
    read_error = None if failure is None else io_words(file, "read", failure)
    if with_diff:
        return FileDiffItem(file, canonical, text, hands, fields, read_error, diff)
    return FileItem(file, canonical, text, hands, fields, read_error)


def unified_diff(original: str, formatted: str, file: str) -> str:
    """``pan fmt --diff``: the unified diff from the original text to the canonical one."""
    import difflib  # start-up: pan fmt --diff does without it

    return escape_text(  # the original's lines are shown: no raw control character
        "".join(
            difflib.unified_diff(
                original.splitlines(keepends=True),
                formatted.splitlines(keepends=True),
                fromfile=f"{escape_text(file)} (original)",
                tofile=f"{escape_text(file)} (canonical)",
            )
        ),
        layout=True,
    )


def would_reformat(file: str) -> str:
    """``--check``'s line for a file not in canonical form.

    >>> would_reformat("a\\x1bb.pan")
    'would reformat a\\\\x1bb.pan'
    """
    return f"would reformat {escape_text(file)}"


def reformatted(file: str) -> str:
    """``--write``'s line for a file rewritten in canonical form."""
    return f"reformatted {escape_text(file)}"


def left_unchanged(file: str, malformed: int) -> str:
    """``--write``'s line for a file left as it is: it holds ``malformed`` malformed hands.

    >>> left_unchanged("a.pan", 2)
    'pan fmt: a.pan left unchanged: 2 malformed hand(s)'
    """
    return f"pan fmt: {escape_text(file)} left unchanged: {malformed} malformed hand(s)"
