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

import errno
import os
import re
import stat
import tomllib
from pathlib import Path
from typing import Final, NoReturn

from pancli.limits import (
    MAX_HOUSE_RULES_BYTES,
    MAX_HOUSE_RULES_DEPTH,
    number_too_large,
    too_large_message,
    too_long_message,
)
from pancli.rules import HOYLE, Condition, HouseRulesError, Profile, profile_from_mapping


class OutsideFolder(OSError):
    """A house-rules file that, once opened, is not a file inside the folder it must be in."""


def read_rules_file(path: Path, within: Path | None = None) -> bytes:
    """The bytes of a house-rules file: a regular file of at most MAX_HOUSE_RULES_BYTES.

    A device, FIFO or folder is refused without reading it (a FIFO is opened without
    waiting for a writer), and so is a larger file: HouseRulesError (key ``file``).
    OSError when the file cannot be opened or read. With ``within`` (a record's folder), the
    file is opened once and what was opened is checked: it must be the file ``path`` resolves
    to, inside ``within`` (OutsideFolder otherwise), so a file swapped for a link between a
    check and the opening is never read.

    >>> read_rules_file(Path("/dev/null"))
    Traceback (most recent call last):
    ...
    pancli.rules.HouseRulesError: file: not a regular file (a device, a FIFO or a folder)
    """
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        info = os.fstat(fd)
        if within is not None and not _opened_within(info, path, within):
            raise OutsideFolder(errno.EACCES, "a path leading out of the record's folder (a symbolic link)", str(path))
        if not stat.S_ISREG(info.st_mode):
            raise HouseRulesError("file", "not a regular file (a device, a FIFO or a folder)")
        chunks: list[bytes] = []
        size = 0
        while size <= MAX_HOUSE_RULES_BYTES:
            chunk = os.read(fd, MAX_HOUSE_RULES_BYTES + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > MAX_HOUSE_RULES_BYTES:
            raise HouseRulesError(
                "file", too_long_message("a file", max(size, info.st_size), MAX_HOUSE_RULES_BYTES, "bytes")
            )
        return b"".join(chunks)
    finally:
        os.close(fd)


def _opened_within(opened: os.stat_result, path: Path, folder: Path) -> bool:
    """Whether the file opened (its ``fstat``) is the one ``path`` resolves to now, and that one
    lies inside ``folder``: a link swapped in before the opening resolves outside, one swapped in
    after it resolves to another file. ``lstat``: a link swapped in after ``realpath`` is itself
    compared (and differs), never followed to what was opened."""
    try:
        real = Path(os.path.realpath(path, strict=True))
        now = os.lstat(real)
        inside = real.is_relative_to(os.path.realpath(folder, strict=True))
    except (OSError, RuntimeError):  # gone meanwhile, or a loop
        return False
    return inside and (now.st_dev, now.st_ino) == (opened.st_dev, opened.st_ino)


MAX_KEY_PARTS: Final = 3
"""Parts of a dotted key, its table header's counted: the deepest knob is ``conditions.C2.base``."""
MAX_ATOM_CHARS: Final = 64
"""Characters of one key part or one bare value (a number, ``true``, a date): a knob's name
is under 30, a knob's number under 10 digits."""

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
_INTEGER = re.compile(r"[+-]?[0-9_]+")
_VALUE_END = frozenset(" \t\r\n,]}#")


def _shown_key(parts: list[str]) -> str:
    """A dotted key as an error names it: its first 60 characters."""
    key = ".".join(parts)
    return key if len(key) <= 60 else f"{key[:60]}..."


def _string_end(text: str, i: int) -> int:
    """The index after the TOML string starting at ``text[i]`` (its end of line or of text
    when it is not closed: tomllib then reports it)."""
    quote = text[i]
    closer = quote * 3 if text.startswith(quote * 3, i) else quote
    j = i + len(closer)
    n = len(text)
    while j < n:
        c = text[j]
        if c == "\\" and quote == '"':
            j += 2
            continue
        if c == "\n" and len(closer) == 1:
            return j
        if text.startswith(closer, j):
            return j + len(closer)
        j += 1
    return n


def check_shape(text: str) -> None:
    """Refuse, before tomllib reads it, a house-rules text that no file of the known knobs
    could be: a dotted key (with its table header) of more than MAX_KEY_PARTS parts, a key
    part or bare value of more than MAX_ATOM_CHARS characters, a number of more than
    MAX_NUMBER_DIGITS digits, arrays and tables nested past MAX_HOUSE_RULES_DEPTH.

    tomllib's work grows with the square of a key's parts (a long dotted key takes
    gigabytes of memory) and it converts a long number before anything can name its key:
    this scan, linear in the text, bounds both and names the key and its place. Text it cannot
    follow (a syntax error) is left to tomllib, which stops there too.

    >>> check_shape('[conditions.C2]\\nbase = 3\\n')
    >>> check_shape('[conditions.C2]\\nbase.x = 3\\n')
    Traceback (most recent call last):
    ...
    pancli.rules.HouseRulesError: conditions.C2.base.x: a key of 4 parts is deeper than any knob (at most 3, ...)
    >>> try:
    ...     check_shape('name = "x"\\npacks = ' + "9" * 5000)
    ... except HouseRulesError as exc:
    ...     (exc.key, exc.line, exc.col, exc.message)
    ('packs', 2, 9, 'a number of 5000 digits is too large (at most 999999999)')
    """
    n = len(text)

    def fail(parts: list[str], message: str, at: int) -> NoReturn:
        line = text.count("\n", 0, at) + 1
        raise HouseRulesError(_shown_key(parts) or "toml", message, line, at - text.rfind("\n", 0, at))

    def read_key(i: int, base: list[str]) -> tuple[int, list[str]]:
        """The dotted key at ``i`` after the table path ``base`` (no parts when there is
        none) and the index after it."""
        parts: list[str] = []
        count = 0
        while i < n and text[i] in " \t":
            i += 1
        start = i
        while True:
            while i < n and text[i] in " \t":
                i += 1
            at = i
            if i < n and text[i] in "\"'":
                i = _string_end(text, i)
                part = text[at + 1 : i - 1]
            else:
                bare = _BARE_KEY.match(text, i)
                if bare is None:
                    break
                part, i = bare.group(), bare.end()
            count += 1
            if len(parts) < MAX_KEY_PARTS + 1:  # the rest is counted, not kept
                parts.append(part[:MAX_ATOM_CHARS])
            if len(part) > MAX_ATOM_CHARS:
                fail(base + parts, too_long_message("a key", len(part), MAX_ATOM_CHARS), at)
            while i < n and text[i] in " \t":
                i += 1
            if i >= n or text[i] != ".":
                break
            i += 1
        if len(base) + count > MAX_KEY_PARTS:
            message = f"a key of {len(base) + count:,} parts is deeper than any knob"
            fail(base + parts, f"{message} (at most {MAX_KEY_PARTS}, as in conditions.C2.base)", start)
        return i, parts

    table: list[str] = []  # the parts of the last [table] header
    path: list[str] = []  # the key whose value is being read
    opened: list[tuple[str, list[str]]] = []  # the open arrays and inline tables, with their keys
    want_key = True
    i = 0
    while i < n:
        c = text[i]
        if c in " \t\r":
            i += 1
        elif c == "\n":
            i += 1
            want_key = want_key or not opened
        elif c == "#":
            end = text.find("\n", i)
            i = n if end < 0 else end
        elif want_key and not opened and c == "[":  # a [table] or [[array of tables]] header
            i += 2 if text.startswith("[[", i) else 1
            i, table = read_key(i, [])
            path = table
            while i < n and text[i] in " \t]":
                i += 1
        elif want_key and c == "}" and opened:  # an empty inline table
            path = opened.pop()[1]
            want_key = False
            i += 1
        elif want_key:
            base = opened[-1][1] if opened else table
            end, parts = read_key(i, base)
            if not parts or end >= n or text[end] != "=":
                return  # not TOML: tomllib says where
            path = base + parts
            want_key = False
            i = end + 1
        elif c in "\"'":
            i = _string_end(text, i)
        elif c in "[{":
            opened.append((c, path))
            if len(opened) > MAX_HOUSE_RULES_DEPTH:
                fail(path, f"nested more than {MAX_HOUSE_RULES_DEPTH} deep", i)
            want_key = c == "{"
            i += 1
        elif c in "]}":
            if opened:
                path = opened.pop()[1]
            i += 1
        elif c == ",":
            want_key = bool(opened) and opened[-1][0] == "{"
            i += 1
        else:  # a number, a boolean, a date
            end = i
            while end < n and text[end] not in _VALUE_END:
                end += 1
            value = text[i:end]
            if _INTEGER.fullmatch(value):
                digits = value.replace("_", "")
                if number_too_large(digits):
                    fail(path, too_large_message("a number", digits), i)
            elif len(value) > MAX_ATOM_CHARS:
                fail(path, too_long_message("a value", len(value), MAX_ATOM_CHARS), i)
            i = end


def profile_from_toml(data: bytes, default: Profile = HOYLE) -> Profile:
    """Parse a house-rules TOML document; every key must be a knob of docs/rules.md, profiles and knobs.

    Past the limits (a file over MAX_HOUSE_RULES_BYTES, and those of :func:`check_shape`) it
    raises HouseRulesError with the key and its place, like any other bad value:

    >>> profile_from_toml(b"packs = " + b"9" * 5000)
    Traceback (most recent call last):
    ...
    pancli.rules.HouseRulesError: packs: a number of 5000 digits is too large (at most 999999999)
    """
    if len(data) > MAX_HOUSE_RULES_BYTES:
        raise HouseRulesError("file", too_long_message("a file", len(data), MAX_HOUSE_RULES_BYTES, "bytes"))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise HouseRulesError("toml", f"not UTF-8 text (byte {exc.start})") from None
    check_shape(text)
    try:
        mapping = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        where = _DECODE_PLACE.search(str(exc))
        line, col = (int(where.group(1)), int(where.group(2))) if where else (1, 1)
        message = _DECODE_PLACE.sub("", str(exc)).strip()
        raise HouseRulesError("toml", message, line, col) from None
    except (ValueError, RecursionError):  # int() past Python's digit limit; nesting tomllib refuses
        raise HouseRulesError("toml", "a number too large to read", 1, 1) from None
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


def profile_to_toml(profile: Profile) -> str:
    """``profile`` as a house-rules file: every knob at the top level (yes/no knobs as ``"on"``
    or ``"off"``, the words ``pan rules`` prints) and the conditions table, so that reading
    it back gives the same profile.

    >>> from pancli.rules import CARDROOM
    >>> text = profile_to_toml(CARDROOM)
    >>> print(text.splitlines()[1:4])
    ['name = "cardroom"', 'packs = 8', 'spade_suits_removed = 1']
    >>> profile_from_toml(text.encode()) == CARDROOM
    True
    """
    lines = [f"# house rules: every knob of the profile {profile.name} (pan rules FILE reads it back)"]
    table = None
    for key, value in profile.knobs().items():
        if key == "conditions":
            table = value
        elif isinstance(value, bool):
            lines.append(f'{key} = "{"on" if value else "off"}"')
        elif isinstance(value, int):
            lines.append(f"{key} = {value}")
        else:
            lines.append(f"{key} = {_toml_string(str(value))}")
    assert isinstance(table, dict)
    for cond in Condition:
        lines.append("")
        lines.append(f"[conditions.{cond.value}]  # {cond.description}")
        lines.extend(f"{field} = {amount}" for field, amount in table[cond.value].items())
    return "\n".join(lines) + "\n"


def _toml_string(text: str) -> str:
    """A TOML basic string (JSON's escapes are TOML's, but for a few control characters)."""
    import json  # start-up: pan check --rules FILE does without it

    return json.dumps(text, ensure_ascii=False)
