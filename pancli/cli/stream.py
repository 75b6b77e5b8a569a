"""Streamed JSON output: ``--json`` lists written item by item, ``--jsonl`` one object a line.

Every command that can produce many results writes them as they are produced, so memory
stays flat and a reader sees the first result at once:

- ``--jsonl``: one compact JSON object per line, flushed as produced;
- ``--json``: the same list ``json.dumps(items, ensure_ascii=False, indent=2)`` gives, byte
  for byte, but written as ``[``, the items, ``]`` (:func:`indented_item`).

json is imported when a stream is made, never on the plain path.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from json.encoder import encode_basestring  # the C function when available
from typing import IO, Any


def indented_item(obj: Any) -> str:
    """One item of an ``indent=2`` JSON list as ``json.dumps`` writes it inside the list
    (indented one level, no comma, no newline at either end).

    A flat object (values None, bool, int, str, or lists of those) is written by
    :func:`_flat_item`, about 5 times faster than ``json.dumps`` with ``indent`` (which has
    no C encoder): ``pan check --json`` of 1,000,000 lines, 62,172 distinct, went from
    41.8 s to ... s (tests/test_check_stream.py checks both give the same text).

    >>> import json
    >>> items = [{"a": [1, "é"], "b": None}, 2, {"c": {"d": 1.5}}]
    >>> text = "[\\n" + ",\\n".join(indented_item(i) for i in items) + "\\n]"
    >>> text == json.dumps(items, ensure_ascii=False, indent=2)
    True
    """
    if type(obj) is dict:
        text = _flat_item(obj)
        if text is not None:
            return text
    import json

    return "  " + json.dumps(obj, ensure_ascii=False, indent=2).replace("\n", "\n  ")


def _scalar(value: Any) -> str | None:
    """The JSON of None, a bool, an int or a str (as json.dumps writes it), else None."""
    kind = type(value)
    if kind is str:
        return encode_basestring(value)
    if value is None:
        return "null"
    if kind is bool:
        return "true" if value else "false"
    if kind is int:
        return int.__repr__(value)
    return None


def _flat_item(obj: dict[Any, Any]) -> str | None:
    """:func:`indented_item` of a dict of scalars and lists of scalars (None for anything else)."""
    if not obj:
        return "  {}"
    rows = []
    for key, value in obj.items():
        if type(key) is not str:
            return None
        if type(value) is list:
            if not value:
                text: str | None = "[]"
            else:
                inner = [_scalar(v) for v in value]
                if None in inner:
                    return None
                text = "[\n      " + ",\n      ".join(inner) + "\n    ]"  # type: ignore[arg-type]
        else:
            text = _scalar(value)
            if text is None:
                return None
        rows.append(f"    {_scalar(key)}: {text}")
    return "  {\n" + ",\n".join(rows) + "\n  }"


class JsonStream:
    """The items of a result list, written as they come: a JSON list (``lines=False``) or
    JSON lines (``lines=True``). ``flush_each``: flush standard output after every item
    (the default; a caller that writes a block of items at a time flushes per block).

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
    {"meld": "5s 5s 5s"}
    {"meld": "3-5h"}
    """

    def __init__(self, lines: bool, out: IO[str] | None = None, *, flush_each: bool = True) -> None:
        import json

        self.lines = lines
        self.out = out if out is not None else sys.stdout
        self.flush_each = flush_each
        self.count = 0
        self.compact = json.JSONEncoder(ensure_ascii=False).encode

    def encode(self, obj: Any) -> str:
        """The text of one item as :meth:`add_text` takes it (no raw DEL, C1 or bidirectional
        control from user text: :func:`~pancli.cli.common.escape_json`)."""
        from pancli.cli.common import escape_json

        return escape_json(self.compact(obj) if self.lines else indented_item(obj))

    def add(self, obj: Any) -> None:
        """Write one item."""
        self.add_text(self.encode(obj))

    def add_text(self, text: str) -> None:
        """Write one item already encoded by :meth:`encode` (or by an equivalent fast path)."""
        if self.lines:
            self.out.write(text + "\n")
        else:
            self.out.write(("[\n" if self.count == 0 else ",\n") + text)
        self.count += 1
        if self.flush_each:
            self.out.flush()

    def close(self) -> None:
        """End the list (``[]`` when it is empty) and flush."""
        if not self.lines:
            self.out.write("\n]\n" if self.count else "[]\n")
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
