"""JSON text: the one encoder behind every ``--json`` and ``--jsonl`` (msgspec's).

``dumps`` writes one compact line (``--jsonl``, a list's items), ``dumps_indented`` a document
indented by two spaces (``--json``). Values encode as JSON does them: enums by their value, a
:class:`~pancli.values.Value` as an object of its fields, a card and a decimal as their text.
What msgspec leaves raw in a string and a terminal would act on (DEL, C1, zero-width and
bidirectional controls) is written as a ``\\u`` escape: the same value, harmless when shown.
C0 controls msgspec escapes itself.

>>> dumps({"player": "Ana\\u202e", "units": 3, "rule": None})
'{"player":"Ana\\\\u202e","units":3,"rule":null}'
>>> print(dumps_indented({"hands": [1, 2]}))
{
  "hands": [
    1,
    2
  ]
}
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from decimal import Decimal
from typing import Any, Final

import msgspec

from pancli.cards import Card
from pancli.values import Item as Item
from pancli.values import Line as Line

# DEL, C1 (U+0080-009F), U+200B-200F, U+2028-202E, U+2060-2069 and U+FEFF in UTF-8: they only
# occur inside strings, since JSON's own syntax is ASCII
_RAW: Final = re.compile(rb"\x7f|\xc2[\x80-\x9f]|\xe2\x80[\x8b-\x8f\xa8-\xae]|\xe2\x81[\xa0-\xa9]|\xef\xbb\xbf")


def _escaped(m: re.Match[bytes]) -> bytes:
    return b"\\u%04x" % ord(m.group().decode())


def _hook(obj: Any) -> Any:
    if isinstance(obj, Card):
        return obj.text
    if isinstance(obj, Decimal):
        return format(obj, "f")
    if isinstance(obj, str):  # a LongLine: its text
        return str(obj)
    raise TypeError(f"{type(obj).__name__} is not written as JSON")


_ENCODER: Final = msgspec.json.Encoder(enc_hook=_hook, decimal_format="string")
_encode: Final = _ENCODER.encode
_encode_lines: Final = _ENCODER.encode_lines


def _text(data: bytes) -> str:
    # ASCII (nearly all output) can hold only DEL of those: two C scans spare the regex's
    if (not data.isascii() or b"\x7f" in data) and _RAW.search(data) is not None:
        data = _RAW.sub(_escaped, data)
    return data.decode()


def dumps(obj: object) -> str:
    """``obj`` as one line of compact JSON (no newline)."""
    return _text(_encode(obj))


def lines(objs: Iterable[object]) -> str:
    """Each of ``objs`` as a line of compact JSON, each line ending with a newline (encoded,
    escaped and decoded once for all: a hand's step lines are many and short)."""
    return _text(_encode_lines(objs))


def dumps_indented(obj: object) -> str:
    """``obj`` as a JSON document indented by two spaces (no final newline)."""
    return _text(msgspec.json.format(_encode(obj), indent=2))
