"""Streamed JSON output: ``--json`` lists written item by item, ``--jsonl`` one object a line.

Every command that can produce many results writes them as they are produced, so memory
stays flat and a reader sees the first result at once:

- ``--jsonl``: one compact JSON object per line, flushed as produced;
- ``--json``: one list written as ``[``, the items, ``]``: each item indented by two spaces
  (:func:`indented_item`), or, for the long lists of ``pan replay`` and ``pan simulate``, one
  compact object a line.

Both through :mod:`pancli.jsontext`'s one encoder, and every list and every run of JSON lines
through :class:`JsonStream`: nothing else writes a list's brackets and commas.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from typing import IO, TYPE_CHECKING, Any, Protocol

from pancli.jsontext import dumps, dumps_indented, encode_indented, encode_lines, lines


def write_json(obj: Any) -> None:
    """Write one JSON document (``--json``), indented by two spaces, to standard output."""
    sys.stdout.write(dumps_indented(obj) + "\n")


def indented_item(obj: Any) -> str:
    """One item of a JSON list indented by two spaces, as it stands inside the list (indented
    one level, no comma, no newline at either end).

    >>> items = [{"a": [1, "é"], "b": None}, 2]
    >>> print("[\\n" + ",\\n".join(indented_item(i) for i in items) + "\\n]")
    [
      {
        "a": [
          1,
          "é"
        ],
        "b": null
      },
      2
    ]
    """
    return "  " + dumps_indented(obj).replace("\n", "\n  ")


_OPEN = "[\n"
_SEPARATOR = ",\n"
_CLOSE = "\n]\n"
_EMPTY = "[]\n"
_LAST_LINE = "\n]"
"""A list's opening (before its first item), separator (before each other), end, and the
whole of an empty list: the one place they are written (``_LAST_LINE``: how the encoder ends a
list it indents)."""


if TYPE_CHECKING:  # (for the type checker only: a Protocol's class costs start-up)

    class Output(Protocol):
        """Where a :class:`JsonStream` writes: a text stream, or :class:`Kept`."""

        def write(self, text: str, /) -> object: ...

        def flush(self) -> None: ...


class Kept:
    """An :class:`Output` that keeps the text in a list, for a sink that writes its standard
    output in batches with its error lines (:class:`~pancli.render.replay.Sink`)."""

    __slots__ = ("parts",)

    def __init__(self, parts: list[str]) -> None:
        self.parts = parts

    def write(self, text: str, /) -> None:
        self.parts.append(text)

    def flush(self) -> None:
        pass


class JsonStream:
    """The items of a result list, written as they come: a JSON list (``lines=False``) or
    JSON lines (``lines=True``). ``flush_each``: flush standard output after every item
    (the default; a caller that writes a block of items at a time flushes per block).
    ``compact``: a list's items one compact object a line, not indented. ``raw``: the byte
    stream under ``out`` (``sys.stdout.buffer``), which :meth:`add_all` writes a block of items
    to as the encoder's bytes (``out`` flushed before, so the order holds): the long output of a
    ``pan check --json`` batch is not decoded and encoded again (benchmarks/README.md).

    >>> import io
    >>> out = io.StringIO()
    >>> s = JsonStream(False, out)
    >>> s.add({"meld": "5s 5s 5s"}); s.close()
    >>> print(out.getvalue(), end="")
    [
      {
        "meld": "5s 5s 5s"
      }
    ]
    >>> out = io.StringIO()
    >>> s = JsonStream(True, out)
    >>> s.add({"meld": "5s 5s 5s"}); s.add({"meld": "3-5h"}); s.close()
    >>> print(out.getvalue(), end="")
    {"meld":"5s 5s 5s"}
    {"meld":"3-5h"}
    >>> out = io.StringIO()
    >>> s = JsonStream(False, out, compact=True)
    >>> s.add({"hand": 1}); s.add_all([{"hand": 2}, {"hand": 3}]); s.close()
    >>> print(out.getvalue(), end="")
    [
    {"hand":1},
    {"hand":2},
    {"hand":3}
    ]
    """

    def __init__(
        self,
        lines: bool,
        out: IO[str] | Output | None = None,
        *,
        flush_each: bool = True,
        compact: bool = False,
        raw: IO[bytes] | None = None,
    ) -> None:
        self.lines = lines
        self.out: IO[str] | Output = out if out is not None else sys.stdout
        self.raw = raw
        self.flush_each = flush_each
        self.compact = compact
        self.count = 0
        self.held = ""
        """The last item of a list, written with what follows it (its comma, or the list's end):
        every line goes out whole with its newline, so standard error never lands inside one."""

    def encode(self, obj: Any) -> str:
        """The text of one item as :meth:`add_text` takes it."""
        return dumps(obj) if self.lines or self.compact else indented_item(obj)

    def add(self, obj: Any) -> None:
        """Write one item."""
        self.add_text(self.encode(obj))

    def encode_all(self, objs: list[Any] | tuple[Any, ...]) -> str:
        """The text of several items as :meth:`add_encoded` takes it, encoded in one go (a hand's
        steps are many, a batch's melds more): JSON lines as lines; an indented list's items as the
        encoder writes a list of them (:meth:`_listed`), each after a separator.

        >>> s = JsonStream(False)
        >>> s.encode_all([{"a": 1}, [2], []]) == "".join(s.lead + s.encode(o) for o in ({"a": 1}, [2], []))
        True
        """
        if not objs:
            return ""
        if self.lines:
            return lines(objs)
        if self.compact:
            return "".join(self.lead + self.encode(o) for o in objs)
        listed, start, end = self._listed(objs)
        return self.lead + listed[start:end]

    @staticmethod
    def _listed(objs: list[Any] | tuple[Any, ...]) -> tuple[str, int, int]:
        """The indented JSON list of ``objs`` and where its items start and end in it: the encoder
        writes them between the list's opening and its last line, one level in, separated as the
        stream separates them, so the list of a slice of the items holds the stream's text of them."""
        listed = dumps_indented(objs)
        return listed, len(_OPEN), len(listed) - len(_LAST_LINE)

    def add_all(self, objs: list[Any] | tuple[Any, ...]) -> None:
        """Write several items at once (an indented list's from the encoder's list of them: no
        text made per item).

        >>> import io
        >>> raw = io.BytesIO()
        >>> out = io.TextIOWrapper(raw, encoding="utf-8")
        >>> s = JsonStream(False, out, raw=raw)
        >>> s.add_all([{"meld": "é"}, 2]); s.add(3); s.add_all([4]); s.close()
        >>> print(raw.getvalue().decode(), end="")
        [
          {
            "meld": "é"
          },
          2,
          3,
          4
        ]
        """
        if self.compact or not objs:
            self.add_encoded(self.encode_all(objs), len(objs))
            return
        if self.raw is None:
            if self.lines:
                self.add_encoded(self.encode_all(objs), len(objs))
                return
            listed, start, end = self._listed(objs)
            cut = max(listed.rfind("\n", start, end) + 1, start)  # the last item's last line is held
            self.out.write(self.held + (_SEPARATOR if self.count else _OPEN))
            self.out.write(listed[start:cut])
            self.held = listed[cut:end]
        elif self.lines:
            self.out.flush()
            self.raw.write(encode_lines(objs))
        else:
            data = encode_indented(objs)
            start, end = len(_OPEN), len(data) - len(_LAST_LINE)
            cut = max(data.rfind(b"\n", start, end) + 1, start)
            self.out.write(self.held + (_SEPARATOR if self.count else _OPEN))
            self.out.flush()
            self.raw.write(memoryview(data)[start:cut])
            self.held = data[cut:end].decode()  # a whole line: cut after a newline
        self.count += len(objs)
        if self.raw is not None:
            self.raw.flush()
        self.out.flush()

    @property
    def lead(self) -> str:
        """What leads each item in :meth:`add_encoded`'s text: the separator of a list's items
        (the list's opening stands for the first one's), nothing for JSON lines."""
        return "" if self.lines else _SEPARATOR

    def add_encoded(self, text: str, items: int) -> None:
        """Write ``items`` items already encoded (:meth:`encode`, or an equivalent fast path) and
        joined, each led by :attr:`lead` (and ending with a newline in JSON lines); standard output
        is flushed after them (a block of items at a time).

        >>> import io
        >>> out = io.StringIO()
        >>> s = JsonStream(False, out)
        >>> s.add_encoded(s.lead + s.encode(1) + s.lead + s.encode(2), 2); s.add(3); s.close()
        >>> print(out.getvalue(), end="")
        [
          1,
          2,
          3
        ]
        """
        if not items:
            return
        if self.lines:
            self.out.write(text)
        else:
            if self.count == 0:
                text = _OPEN + text[len(self.lead) :]  # the opening stands for the first separator
            self._whole_lines(text)
        self.count += items
        self.out.flush()

    def _whole_lines(self, text: str) -> None:
        """Write ``text`` after what is held, up to its last newline; hold the rest."""
        text = self.held + text
        cut = text.rfind("\n") + 1
        self.out.write(text[:cut])
        self.held = text[cut:]

    def add_text(self, text: str) -> None:
        """Write one item already encoded by :meth:`encode` (or by an equivalent fast path)."""
        if self.lines:
            self.out.write(text + "\n")
        else:
            self._whole_lines((_SEPARATOR if self.count else _OPEN) + text)
        self.count += 1
        if self.flush_each:
            self.out.flush()

    def close(self) -> None:
        """End the list (``[]`` when it is empty) and flush."""
        if not self.lines:
            self.out.write(self.held + _CLOSE if self.count else _EMPTY)
            self.held = ""
        self.out.flush()


def stream_reports(
    reports: Iterable[Any], lines: bool, to_json: Callable[[Any], Any], error: Callable[[Any], str | None]
) -> bool:
    """Write each report as it comes (``to_json(report)``; a list, or JSON lines), and its error
    line (``error(report)``, None when it has none) on standard error; True when none had one."""
    stream = JsonStream(lines)
    clean = True
    for report in reports:
        stream.add(to_json(report))
        problem = error(report)
        if problem is not None:
            clean = False
            sys.stderr.write(problem + "\n")
    stream.close()
    return clean
