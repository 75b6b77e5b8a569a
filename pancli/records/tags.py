"""The tag pairs of a hand: what they mean to the referee (Players, Rules, Game, Stake, Packs, Ledger).

>>> from pancli.notation.record_common import TagPair
>>> h = read_header([TagPair("Players", "Ana Ben", 1, 1, 11), TagPair("Ledger", "Ben -3, Ana +3", 2, 1, 10)], 1)
>>> h.players, dict(h.ledger_claim.units)
(('Ana', 'Ben'), {'Ben': -3, 'Ana': 3})
>>> read_header([TagPair("Players", "Jos\u00e9 Pe\u00f1a", 1, 1, 11)], 1).players == ("Jos\u00e9", "Pe\u00f1a")
True
"""

from __future__ import annotations

import os
import re
from decimal import Decimal
from typing import TYPE_CHECKING, Final

from pancli.cards import Game
from pancli.escapes import escape_text
from pancli.limits import (
    MAX_NAME_CHARS,
    MAX_TAG_VALUE_CHARS,
    number_too_large,
    too_large_message,
    too_long_message,
)
from pancli.model.actions import LedgerClaim
from pancli.notation.errors import NotationError
from pancli.notation.record_common import TagPair, name_key, name_problem, player_name
from pancli.rules import HOYLE, HouseRulesError, Profile, builtin_profile, is_builtin
from pancli.values import Value

if TYPE_CHECKING:
    from pathlib import Path

    from pancli.notation.errors import NotationCode

# (pattern texts: re compiles each when the first tag that needs it comes, not at start-up)
_STAKE: Final = r"[0-9]+(?:\.[0-9]+)?"
_COUNT: Final = r"[0-9]+"
_MEANINGFUL_TAGS: Final = {t.lower(): t for t in ("Players", "Rules", "Game", "Stake", "Packs", "Ledger")}
"""The tags the referee reads, by their lower-case names: ``[players "..."]`` is a mistake, not a
tag to pass through (other tags, ``Event`` or ``event``, are kept as written)."""


class Header(Value):
    """The referee's view of a hand's tags."""

    players: tuple[str, ...]
    profile: Profile = HOYLE
    game: Game = Game.PANGUINGUE
    stake: Decimal | None = None
    ledger_claim: LedgerClaim | None = None
    packs: int | None = None
    tags: tuple[tuple[str, str], ...] = ()
    warnings: tuple[NotationError, ...] = ()
    """Not errors: the hand is read and refereed (two names that look alike, with their place)."""


class ProfileCache:
    """House-rules files already read (a file of 100,000 hands names the same file each time)."""

    __slots__ = ("files",)

    def __init__(self) -> None:
        self.files: dict[Path, Profile | str] = {}

    def load(self, path: Path, within: Path | None = None) -> Profile | str:
        """The profile of ``path`` (a file inside the folder ``within``, when given), or the error
        message."""
        got = self.files.get(path)
        if got is None:
            # start-up: pan replay does without it
            from pancli.notation.houserules import OutsideFolder, profile_from_toml, read_rules_file

            try:
                got = profile_from_toml(read_rules_file(path, within), default=HOYLE)
            except OutsideFolder as exc:
                got = str(exc.strerror)
            except FileNotFoundError:
                got = "no such profile or file (built-in: hoyle, cardroom)"
            except OSError as exc:
                got = f"cannot read the file: {exc.strerror}"
            except HouseRulesError as exc:
                where = f" (line {exc.line})" if exc.line else ""
                got = f"house rules: {exc.key}{where}: {exc.message}"
            self.files[path] = got
        return got


def record_folder(name: str) -> str | None:
    """The folder of a record file, where the house-rules files it names are; None for ``-``
    (the working folder).

    >>> record_folder("samples/friday-hoyle.pan"), record_folder("friday-hoyle.pan"), record_folder("-")
    ('samples', '.', None)
    """
    return None if name == "-" else os.path.dirname(name) or "."


def rules_path(spec: str, base_dir: Path | str | None) -> Path | str:
    """The house-rules file a ``Rules`` tag names, or why it may not name it.

    A record names a file inside its own folder by a relative path: no absolute path, no
    ``..``, no control character. That no symbolic link leads out of the folder is checked on
    the file opened, once opened (:func:`pancli.notation.houserules.read_rules_file`), as is
    that it is a regular file of at most MAX_HOUSE_RULES_BYTES (:meth:`ProfileCache.load`).

    >>> rules_path("house/friday.toml", "/games").as_posix()
    '/games/house/friday.toml'
    >>> rules_path("/etc/passwd", "/games")
    "an absolute path (name a file in the record's folder by a relative path)"
    >>> rules_path("../x.toml", "/games")
    "a path with '..' (stay in the record's folder)"
    """
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in spec):
        return "a path with a control character"
    from pathlib import Path  # only for a Rules tag naming a file: no cost of every other record

    path = Path(spec)
    if path.is_absolute() or spec.startswith("~"):
        return "an absolute path (name a file in the record's folder by a relative path)"
    if ".." in path.parts:
        return "a path with '..' (stay in the record's folder)"
    base = Path(base_dir) if base_dir is not None else Path.cwd()
    return base / path


def _at(tag: TagPair, offset: int) -> tuple[int, int]:
    """(col, line) of ``offset`` in the tag's value (the value's start when it had escapes)."""
    return (tag.value_col + (0 if tag.escaped else offset)), tag.line


def read_stake(text: str) -> Decimal | tuple[NotationCode, str]:
    """The money value of one unit, as a ``Stake`` tag and ``pan settle --stake`` write it (one
    reader for both): ASCII digits, then a point and more digits if need be, each part at most
    MAX_NUMBER_DIGITS digits; or the code and message of why it is not one (R2 the form, R10
    a part too long: no Decimal context then rounds or traps on it).

    >>> read_stake("0.25"), read_stake("1e3")
    (Decimal('0.25'), ('R2', "the money value of one unit, like 0.25, not '1e3'"))
    >>> read_stake("1" * 30)
    ('R10', 'a Stake part of 30 digits is too large (at most 999999999)')
    >>> read_stake("1_000")[0], read_stake("\u0661")[0], read_stake("-1")[0]
    ('R2', 'R2', 'R2')
    """
    if not re.fullmatch(_STAKE, text):
        shown = text if len(text) <= 40 else text[:40] + "..."
        return "R2", f"the money value of one unit, like 0.25, not {shown!r}"
    whole, _, cents = text.partition(".")
    if number_too_large(whole) or number_too_large(cents):
        return "R10", too_large_message("a Stake part", max(whole, cents, key=len))

    return Decimal(text)


def _err(code: NotationCode, message: str, tag: TagPair, offset: int = 0) -> NotationError:
    return NotationError(code, message, *_at(tag, offset))


def _players(tag: TagPair, warnings: list[NotationError]) -> tuple[str, ...]:
    """The names of a Players tag; a warning for each name that looks like one before it."""
    names: list[str] = []
    keys: dict[str, str] = {}
    for start, word in _words(tag.value):
        name = player_name(word)
        if len(name) > MAX_NAME_CHARS:
            raise _err("R10", too_long_message("a player name", len(name), MAX_NAME_CHARS), tag, start)
        problem = name_problem(name)
        if problem is not None:
            raise _err("R2", problem, tag, start)
        if name in names:
            raise _err("R2", f"{name!r} is seated twice", tag, start)
        like = keys.setdefault(name_key(name), name)
        if like != name:  # told apart by the referee, hardly by the players reading its rulings
            message = (
                f"{escape_text(name)!r} and {escape_text(like)!r} look alike (the same after NFKC and case folding)"
            )
            warnings.append(_err("R2", message, tag, start))
        names.append(name)
    if not names:
        raise _err("R2", "Players names no player", tag)
    return tuple(names)


def _words(value: str, marks: str = "") -> list[tuple[int, str]]:
    """The words of a tag's value with their offsets: runs of characters that are not blank
    (as ``str.split`` cuts them), each character of ``marks`` a word of its own. String methods,
    not patterns: compiling them cost start-up.

    >>> _words(" Ana  Ben"), _words("Ana +2, Ben -2;", ",;")
    ([(1, 'Ana'), (6, 'Ben')], [(0, 'Ana'), (4, '+2'), (6, ','), (8, 'Ben'), (12, '-2'), (14, ';')])
    """
    words: list[tuple[int, str]] = []
    pos = 0
    for run in value.split():
        pos = value.index(run, pos)  # (a run starts with no blank: its first match from here is it)
        if not any(m in run for m in marks):
            words.append((pos, run))
        else:
            start = 0
            for i, ch in enumerate(run):
                if ch in marks:
                    if i > start:
                        words.append((pos + start, run[start:i]))
                    words.append((pos + i, ch))
                    start = i + 1
            if start < len(run):
                words.append((pos + start, run[start:]))
        pos += len(run)
    return words


def _units(text: str) -> bool:
    """Ledger units: a sign or none, then ASCII digits (``+12``, ``-4``, ``0``)."""
    digits = text[1:] if text[:1] in ("+", "-") else text
    return digits.isascii() and digits.isdigit()


def _ledger_pairs(tag: TagPair) -> list[tuple[tuple[int, str], tuple[int, str] | None]]:
    """The ``NAME units`` pairs of a Ledger value, each word with its offset (units None when
    the value ends after a name). Pairs are separated by blanks, or by one comma or semicolon
    (with or without blanks)."""
    pairs: list[tuple[tuple[int, str], tuple[int, str] | None]] = []
    tokens = _words(tag.value, ",;")
    i = 0
    while i < len(tokens):
        who = tokens[i]
        if who[1] in (",", ";"):
            raise _err("R4", f"expected a player name, found {who[1]!r}", tag, who[0])
        amount = tokens[i + 1] if i + 1 < len(tokens) else None
        if amount is not None and amount[1] in (",", ";"):
            raise _err("R4", f"expected units like +12, -4 or 0, found {amount[1]!r}", tag, amount[0])
        pairs.append((who, amount))
        i += 2
        if i < len(tokens) and tokens[i][1] in (",", ";"):
            if i + 1 == len(tokens):
                raise _err("R4", f"{tokens[i][1]!r} with no NAME units pair after it", tag, tokens[i][0])
            i += 1
    return pairs


def _ledger(tag: TagPair, players: tuple[str, ...]) -> LedgerClaim:
    """The ``Ledger`` claim: ``NAME units`` pairs separated by blanks, commas or semicolons
    (``Ana +26, Ben -13, Cruz -13``, the form ``pan replay`` prints, or ``Ana +26 Ben -13``)."""
    units: dict[str, int] = {}
    for (at, who), amount in _ledger_pairs(tag):
        name = player_name(who)
        if name not in players:
            raise _err("R4", f"Ledger names {who!r}, who is not in Players", tag, at)
        if name in units:
            raise _err("R4", f"Ledger names {who!r} twice", tag, at)
        if amount is None:
            raise _err("R4", f"Ledger gives no units for {who!r}", tag, at + len(who))
        at, text = amount
        if not _units(text):
            raise _err("R4", f"expected units like +12, -4 or 0, found {text!r}", tag, at)
        if number_too_large(text):
            raise _err("R10", too_large_message("a Ledger amount", text), tag, at)
        units[name] = int(text)
    missing = [p for p in players if p not in units]
    if missing:
        raise _err("R4", f"Ledger gives no units for {', '.join(missing)} (name every player)", tag, len(tag.value))
    return LedgerClaim(units, tag.line, tag.col)


def read_header(
    tags: list[TagPair], first_line: int, base_dir: Path | str | None = None, cache: ProfileCache | None = None
) -> Header:
    """Check and interpret the tags of a hand (errors R2, R3, R4 with their place).

    ``first_line`` places the R2 error of a hand without a ``Players`` tag.
    """
    seen: dict[str, TagPair] = {}
    for t in tags:
        if len(t.value) > MAX_TAG_VALUE_CHARS:
            raise NotationError(
                "R10", too_long_message("a tag value", len(t.value), MAX_TAG_VALUE_CHARS), t.value_col, t.line
            )
        if t.name in seen:
            raise NotationError(
                "R2", f"a second {t.name} tag (the first is on line {seen[t.name].line})", t.col, t.line
            )
        seen[t.name] = t
    for t in tags:
        known = _MEANINGFUL_TAGS.get(t.name.lower())
        if known is not None and known != t.name:
            raise NotationError(
                "R2", f"tag names are case-sensitive: write [{known} ...], not [{t.name} ...]", t.col + 1, t.line
            )
    players_tag = seen.get("Players")
    if players_tag is None:
        raise NotationError("R2", "the hand has no Players tag", 1, first_line)
    warnings: list[NotationError] = []
    players = _players(players_tag, warnings)
    game = Game.PANGUINGUE
    if (g := seen.get("Game")) is not None:
        try:
            game = Game(g.value.strip().lower())
        except ValueError:
            raise _err("R2", f"Game is panguingue or pagruc, not {g.value!r}", g) from None
    profile = HOYLE
    if (r := seen.get("Rules")) is not None:
        spec = r.value.strip()
        if is_builtin(spec):
            profile = builtin_profile(spec)
        else:
            from pathlib import Path  # start-up: only a house-rules file needs pathlib, not the other records

            path = rules_path(spec, base_dir)
            within = Path(base_dir) if base_dir is not None else Path.cwd()
            got = path if isinstance(path, str) else (cache or ProfileCache()).load(path, within)
            if isinstance(got, str):
                raise _err("R3", f"Rules {spec!r}: {got}", r)
            profile = got
    stake: Decimal | None = None
    if (s := seen.get("Stake")) is not None:
        money = read_stake(s.value)
        if isinstance(money, tuple):
            code, problem = money
            raise _err(code, f"Stake is {problem}" if code == "R2" else problem, s)
        stake = money
    packs: int | None = None
    if (p := seen.get("Packs")) is not None:
        if game is not Game.PAGRUC:
            raise _err("R2", "Packs is a PAGRUC tag; a Panguingue pack is set by the Rules profile", p)
        if re.fullmatch(_COUNT, p.value) and number_too_large(p.value):
            raise _err("R10", too_large_message("Packs", p.value), p)
        if not re.fullmatch(_COUNT, p.value) or int(p.value) < 1:
            raise _err("R2", f"Packs is a number of packs, like 2, not {p.value!r}", p)
        packs = int(p.value)
    ledger = _ledger(seen["Ledger"], players) if "Ledger" in seen else None
    return Header(players, profile, game, stake, ledger, packs, tuple((t.name, t.value) for t in tags), tuple(warnings))
