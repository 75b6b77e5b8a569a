"""House-rules files: TOML text to a :class:`~pancli.rules.Profile` (read with tomllib).

>>> profile_from_toml(b'base = "cardroom"\\nout_bonus = 3\\n').out_bonus
3
>>> profile_from_toml(b'forcing = "sometimes"')
Traceback (most recent call last):
...
pancli.rules.HouseRulesError: forcing: expected one of 'demand', 'automatic', got 'sometimes'

Errors carry the place of the offending key (tomllib gives none for values, so the
key is looked up in the text):

>>> try:
...     profile_from_toml(b'ante = 1\\n[conditions.C2]\\nbase = "x"\\n')
... except HouseRulesError as exc:
...     (exc.key, exc.line, exc.col)
('conditions.C2.base', 3, 1)
"""

from __future__ import annotations

import re
import tomllib

from pancli.rules import HOYLE, HouseRulesError, Profile, profile_from_mapping


def profile_from_toml(data: bytes, default: Profile = HOYLE) -> Profile:
    """Parse a house-rules TOML document; every key must be a knob of RULES.md section 9."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise HouseRulesError("toml", f"not UTF-8 text (byte {exc.start})") from None
    try:
        mapping = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        where = _DECODE_PLACE.search(str(exc))
        line, col = (int(where.group(1)), int(where.group(2))) if where else (1, 1)
        message = _DECODE_PLACE.sub("", str(exc)).strip()
        raise HouseRulesError("toml", message, line, col) from None
    try:
        return profile_from_mapping(mapping, default)
    except HouseRulesError as exc:
        line, col = key_place(text, exc.key)
        raise HouseRulesError(exc.key, exc.message, line, col) from None


_DECODE_PLACE = re.compile(r"\s*\(at line (\d+), column (\d+)\)")
_HEADER = re.compile(r"\s*\[\s*([^\]]*?)\s*\]")
_KEY = re.compile(r"\s*([^=#\s][^=#]*?)\s*=")


def _dotted(text: str) -> str:
    return ".".join(part.strip().strip("\"'") for part in text.split("."))


def key_place(text: str, key: str) -> tuple[int, int]:
    """(line, col) of a dotted key in a TOML text: its ``key =`` line or its ``[table]``
    header; (1, 1) when it is not written as such (an inline table, say).

    >>> key_place('ante = 1\\n[conditions.C3]\\n  spades = 9\\n', "conditions.C3.spades")
    (3, 3)
    >>> key_place('[conditions.C9]\\n', "conditions.C9")
    (1, 1)
    """
    table = ""
    for n, line in enumerate(text.splitlines(), 1):
        header = _HEADER.match(line)
        if header is not None:
            table = _dotted(header.group(1))
            if table == key:
                return n, line.index("[") + 1
            continue
        found = _KEY.match(line)
        if found is not None:
            name = _dotted(found.group(1))
            full = f"{table}.{name}" if table else name
            if full == key or key.startswith(full + "."):
                return n, found.start(1) + 1
    return 1, 1
