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
# (the pattern's text: re compiles it, and keeps it, the first time output holds one of them)
_RAW: Final = rb"\x7f|\xc2[\x80-\x9f]|\xe2\x80[\x8b-\x8f\xa8-\xae]|\xe2\x81[\xa0-\xa9]|\xef\xbb\xbf"


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


def _safe(data: bytes) -> bytes:
    # ASCII (nearly all output) can hold only DEL of those: two C scans spare the regex's
    if (not data.isascii() or b"\x7f" in data) and re.search(_RAW, data) is not None:
        data = re.sub(_RAW, _escaped, data)
    return data


def _text(data: bytes) -> str:
    return _safe(data).decode()


_MARK: Final = "\ufdd0"
"""A noncharacter that stands for ``\\u`` while strings holding lone surrogates are encoded."""
_MARKED: Final = rb"\xef\xb7\x90([0-9a-f]{4})"
"""The mark and its four hex digits in the encoded bytes (compiled by re when a lone surrogate comes)."""


def _marked(obj: Any) -> Any:
    """``obj`` as builtins, each lone surrogate of its strings (a file name's byte that is not
    UTF-8) and each :data:`_MARK` written as the mark and four hex digits."""
    if isinstance(obj, str):
        return re.sub("[\ud800-\udfff\ufdd0]", lambda m: f"{_MARK}{ord(m.group()):04x}", obj)
    if isinstance(obj, dict):
        return {_marked(k): _marked(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_marked(v) for v in obj]
    return obj


def _encode_any(obj: object, indent: int = 0) -> bytes:
    """msgspec's encoding of ``obj`` (indented by ``indent`` spaces); strings holding lone
    surrogates, which UTF-8 cannot hold, get them as ``\\uDCFF`` escapes: the same value, read
    back by any JSON reader."""
    try:
        data = _encode(obj)
        return msgspec.json.format(data, indent=indent) if indent else data
    except UnicodeEncodeError:
        data = _encode(_marked(msgspec.to_builtins(obj, enc_hook=_hook)))
        if indent:
            data = msgspec.json.format(data, indent=indent)
        return re.sub(_MARKED, rb"\\u\1", data)


def dumps(obj: object) -> str:
    """``obj`` as one line of compact JSON (no newline).

    >>> dumps({"file": "night\\udcff.pan"})
    '{"file":"night\\\\udcff.pan"}'
    """
    return _text(_encode_any(obj))


def lines(objs: Iterable[object]) -> str:
    """Each of ``objs`` as a line of compact JSON, each line ending with a newline (encoded,
    escaped and decoded once for all: a hand's step lines are many and short)."""
    items = objs if isinstance(objs, list | tuple) else list(objs)
    try:
        return _text(_encode_lines(items))
    except UnicodeEncodeError:
        return "".join(_text(_encode_any(o)) + "\n" for o in items)


def dumps_indented(obj: object) -> str:
    """``obj`` as a JSON document indented by two spaces (no final newline)."""
    return _text(_encode_any(obj, 2))


def encode_indented(obj: object) -> bytes:
    """:func:`dumps_indented` as UTF-8 bytes, for a writer of a byte stream (no text made of
    output that goes out as bytes).

    >>> encode_indented(["é"]) == dumps_indented(["é"]).encode()
    True
    """
    return _safe(_encode_any(obj, 2))


def encode_lines(objs: list[object] | tuple[object, ...]) -> bytes:
    """:func:`lines` as UTF-8 bytes.

    >>> encode_lines([{"a": 1}, "\\u202e"]) == lines([{"a": 1}, "\\u202e"]).encode()
    True
    """
    try:
        return _safe(_encode_lines(objs))
    except UnicodeEncodeError:
        return b"".join(_safe(_encode_any(o)) + b"\n" for o in objs)
