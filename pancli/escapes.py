"""Control characters shown as escapes: what a record, a house-rules file or an argument holds
never reaches a terminal, a tab-separated line or a record written by ``pan fmt`` raw.

One form everywhere (``\\t``, ``\\n``, ``\\r``, ``\\xHH``, ``\\uHHHH``), the form a record's tag value
reads back (:func:`read_escape`; docs/notation.md). Standard library only: every command imports it.
"""

from __future__ import annotations

import functools
import re
from typing import Final

CONTROLS: Final = "[\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff\ud800-\udfff]"
"""Characters that move the cursor, change colours or reorder text on a terminal (C0, DEL, C1,
zero-width and bidirectional controls), and lone surrogates (a byte of a file name or an argument
that is not UTF-8, as Python holds it): never written raw from user text."""

DECODE_ERRORS: Final = "surrogateescape"
"""How a record (a file or standard input) and a batch of standard input are decoded: a byte
that is not UTF-8 is kept as a lone surrogate, so its reader can name it (:func:`not_utf8`)
where it stands, never read as U+FFFD and gone on with."""

UNDECODED: Final = "[\udc80-\udcff]"
"""A byte that is not UTF-8, as :data:`DECODE_ERRORS` keeps it."""


def not_utf8(ch: str) -> str:
    """How an error names a byte that is not UTF-8 (``ch``: the lone surrogate it was read as).

    >>> not_utf8("\\udcff")
    'the byte \\\\xff, which is not UTF-8'
    """
    return f"the byte \\x{ord(ch) - 0xDC00:02x}, which is not UTF-8"


def bytes_shown(text: str) -> str:
    """``text`` with each byte that is not UTF-8 (as :data:`DECODE_ERRORS` keeps it) written as
    :func:`escape_text` writes it, ``\\xff``, and nothing else changed: a line entered that holds
    one can be written as JSON (UTF-8 cannot hold a lone surrogate), its other characters as typed.

    >>> bytes_shown("Ana st\\udcffay\\x1b"), bytes_shown("5s ♠")
    ('Ana st\\\\xffay\\x1b', '5s ♠')
    """
    return text if text.isascii() else pattern(UNDECODED).sub(_escaped, text)


SHOWN: Final = CONTROLS.replace("\x00-\x1f", "\x00-\x08\x0b-\x1f")
"""The controls escaped in text whose layout stays (tab and line end kept)."""


@functools.cache
def pattern(characters: str) -> re.Pattern[str]:
    """``characters`` (one of the classes above) compiled when first needed: its ranges beyond
    Latin-1 are slow to compile, and text without a control character, most of what pan writes,
    needs none (every command's start-up)."""
    return re.compile(characters)


def _escaped(m: re.Match[str]) -> str:
    n = ord(m.group())
    if 0xDC80 <= n <= 0xDCFF:  # a byte that is not UTF-8 (surrogateescape): shown as that byte
        return f"\\x{n - 0xDC00:02x}"
    return {9: "\\t", 10: "\\n", 13: "\\r"}.get(n) or (f"\\x{n:02x}" if n < 0x100 else f"\\u{n:04x}")


def escape_text(text: str, layout: bool = False) -> str:
    """``text`` with every control character shown as an escape (``\\x1b``, ``\\t``, ``\\u202e``):
    what a record, a house-rules file or an argument holds never reaches a terminal or a
    tab-separated line raw. Text without any comes back as it is (one regex search).

    >>> escape_text("Ana\\tBen\\x1b[31m\\x00"), escape_text("5s 5s 5s ♠")
    ('Ana\\\\tBen\\\\x1b[31m\\\\x00', '5s 5s 5s ♠')
    >>> escape_text("night\\udcff.pan")
    'night\\\\xff.pan'
    """
    if layout:  # a record's own line ends and tabs stay (pan fmt)
        shown = pattern(SHOWN)
        return text if shown.search(text) is None else shown.sub(_escaped, text)
    if text.isprintable() or pattern(CONTROLS).search(text) is None:  # (isprintable: a C loop, cheaper than a search)
        return text
    return pattern(CONTROLS).sub(_escaped, text)


_NAMED: Final = {"t": "\t", "n": "\n", "r": "\r", "\\": "\\", '"': '"'}
_HEX: Final = {"x": 2, "u": 4}


def read_escape(text: str, at: int) -> tuple[str, int] | None:
    r"""The character of the escape starting at ``text[at]`` (a backslash) and the escape's length,
    or None when it is not one: ``\"`` and ``\\``, and the forms :func:`escape_text` writes.

    >>> read_escape(r"a\x1bb", 1), read_escape(r'\"', 0), read_escape(r"\q", 0), read_escape(r"\x1", 0)
    (('\x1b', 4), ('"', 2), None, None)
    """
    kind = text[at + 1 : at + 2]
    named = _NAMED.get(kind)
    if named is not None:
        return named, 2
    digits = _HEX.get(kind)
    if digits is None:
        return None
    hexa = text[at + 2 : at + 2 + digits]
    if len(hexa) != digits or not all(c in "0123456789abcdefABCDEF" for c in hexa):
        return None
    n = int(hexa, 16)
    if 0xD800 <= n < 0xE000:
        return None
    return chr(n), 2 + digits
