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

from pancli.limits import MAX_HOUSE_RULES_BYTES, MAX_HOUSE_RULES_DEPTH, too_long_message
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
    after it resolves to another file."""
    try:
        real = Path(os.path.realpath(path, strict=True))
        now = os.stat(real)
        inside = real.is_relative_to(os.path.realpath(folder, strict=True))
    except (OSError, RuntimeError):  # gone meanwhile, or a loop
        return False
    return inside and (now.st_dev, now.st_ino) == (opened.st_dev, opened.st_ino)


def _too_deep(text: str) -> int:
    """The line of the first bracket or brace nested past MAX_HOUSE_RULES_DEPTH, else 0
    (strings and comments are not counted; tomllib would recurse once per level)."""
    depth = 0
    line = 1
    quote = ""
    comment = False
    for ch in text:
        if ch == "\n":
            line += 1
            comment = False
            continue
        if comment:
            continue
        if quote:
            if ch == quote:
                quote = ""
            continue
        if ch == "#":
            comment = True
        elif ch in "\"'":
            quote = ch
        elif ch in "[{":
            depth += 1
            if depth > MAX_HOUSE_RULES_DEPTH:
                return line
        elif ch in "]}":
            depth = max(0, depth - 1)
    return 0


def profile_from_toml(data: bytes, default: Profile = HOYLE) -> Profile:
    """Parse a house-rules TOML document; every key must be a knob of docs/rules.md, profiles and knobs.

    Past the limits (a file over MAX_HOUSE_RULES_BYTES, nesting past MAX_HOUSE_RULES_DEPTH,
    a number tomllib cannot convert) it raises HouseRulesError with the place, like any
    other bad value:

    >>> profile_from_toml(b"packs = " + b"9" * 5000)
    Traceback (most recent call last):
    ...
    pancli.rules.HouseRulesError: toml: a number too large to read
    """
    if len(data) > MAX_HOUSE_RULES_BYTES:
        raise HouseRulesError("file", too_long_message("a file", len(data), MAX_HOUSE_RULES_BYTES, "bytes"))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise HouseRulesError("toml", f"not UTF-8 text (byte {exc.start})") from None
    deep = _too_deep(text)
    if deep:
        raise HouseRulesError("toml", f"nested more than {MAX_HOUSE_RULES_DEPTH} deep", deep, 1)
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
    import json

    return json.dumps(text, ensure_ascii=False)
