"""The lines pan reads around its judgements: a line of batch input (its place, ``#``
comments, blank lines), and standard input's bytes cut into lines (:class:`LineBlocks`) or read
as text as a record is (:func:`decoded`). The options every command shares are read here too
(``--game``, ``--players``' default and the seats its help shows, ``--rules`` into a profile,
``--stake``), so the commands need nothing below the application layer. Their words (the error
line, ``file:line:col: RULE message``) are :mod:`pancli.render.text`'s.
"""

from __future__ import annotations

import codecs
import io
import os
import re
import stat
from collections.abc import Callable, Iterable, Iterator
from typing import IO, TYPE_CHECKING, Any, Final, TypeVar

from pancli.cards import Game
from pancli.escapes import DECODE_ERRORS
from pancli.limits import MAX_LINE_CHARS, BinaryLine, LongLine
from pancli.rules import MAX_PLAYERS, MIN_PLAYERS, PROFILES, HouseRulesError, builtin_profile, is_builtin
from pancli.values import Value

if TYPE_CHECKING:
    from decimal import Decimal
    from pathlib import Path

    from pancli.panrules import PanRules
    from pancli.rulebook import Rule
    from pancli.rules import Profile

STDIN_FILE = "-"
"""The file name of standard input in error lines (``-:LINE:COL``)."""
ARG_FILE = "<arg>"
"""The file name of command-line arguments in error lines (``<arg>:N:COL``, N = argument number)."""


class InputLine(tuple[str, int, str]):
    """One line of batch input: where it came from and its text (without newline).

    A triple of its own type, as a named tuple would be (a batch makes one a line and unpacks
    it), but a plain class: a NamedTuple's class costs every command's start-up
    (benchmarks/README.md, start-up).

    >>> item = InputLine("-", 3, "5s 5s 5s")
    >>> item.file, item.line, item.text, item == ("-", 3, "5s 5s 5s"), type(item) is tuple
    ('-', 3, '5s 5s 5s', True, False)
    """

    __slots__ = ()

    def __new__(cls, file: str, line: int, text: str) -> InputLine:
        return tuple.__new__(cls, (file, line, text))

    def __getnewargs__(self) -> tuple[str, int, str]:  # pickled field by field, as a named tuple
        return (self[0], self[1], self[2])

    @property
    def file(self) -> str:
        return self[0]

    @property
    def line(self) -> int:
        return self[1]

    @property
    def text(self) -> str:
        return self[2]


def batch_text(text: str) -> str:
    """A line of batch input without its ``#`` comment: ``#`` starts a comment anywhere on a
    ``check``, ``pay``, ``score`` or ``analyze`` line (no card or meld is written with ``#``).

    >>> batch_text("5sss  # my fives"), batch_text("5sss")
    ('5sss  ', '5sss')
    """
    cut = text.find("#")
    if cut < 0 or type(text) is LongLine:
        return text
    if type(text) is BinaryLine:  # the line where binary data stopped the reading: its error, at its column
        return BinaryLine(text[:cut].ljust(len(text) - 1) + "\x00")
    return text[:cut]


def is_skipped(text: str) -> bool:
    """Blank lines and ``#`` comment lines are not input items.

    >>> is_skipped("  # a comment"), is_skipped(" \\r"), is_skipped("5sss # fives")
    (True, True, False)
    """
    return type(text) is not LongLine and not batch_text(text).strip()


def batch_item(text: str) -> str | None:
    """The item of one line of batch input: None for a blank or comment line (:func:`is_skipped`),
    else the line without its ``#`` comment and without a ``\\r`` before the line end.

    >>> batch_item("5sss # fives"), batch_item("5sss\\r"), batch_item("  # note")
    ('5sss ', '5sss', None)
    """
    if type(text) is LongLine:
        return text  # past the line limit: an item (its error), whatever it holds
    if is_skipped(text):
        return None
    text = batch_text(text)
    return text[:-1] if text[-1:] == "\r" else text


# --------------------------------------------------------------------------- output


class ErrorFields(Value):
    """An error as ``--json`` writes it: the fields of its error line (docs/commands.md), and
    whose hand it is (null where no player is concerned)."""

    file: str
    line: int
    col: int
    rule: str
    player: str | None
    message: str


T = TypeVar("T")
_UNSEEN: Any = object()


def remembered_items(
    blocks: Iterable[list[str]], file: str, read: Callable[[InputLine], T], limit: int
) -> Iterator[list[tuple[int, T]]]:
    """Each block of raw lines as ``(line number, what read made of it)`` pairs, blank and comment
    lines of standard input left out (:func:`batch_item`); ``read`` runs once per distinct raw
    line (the first place it is seen), the rest are remembered, up to ``limit`` lines. ``score -``'s
    pipe path answers a block at a time from it.

    >>> blocks = [["5s 5s 5s", "# a note"], ["5s 5s 5s"]]
    >>> list(remembered_items(blocks, "-", lambda i: (i.line, i.text), 10))
    [[(1, (1, '5s 5s 5s'))], [(3, (1, '5s 5s 5s'))]]
    """
    stdin = file == STDIN_FILE
    memo: dict[str, T | None] = {}
    n = 0
    for lines in blocks:
        block: list[tuple[int, T]] = []
        for raw in lines:
            n += 1
            known = memo.get(raw, _UNSEEN)
            if known is _UNSEEN:
                item = batch_item(raw) if stdin else raw
                known = None if item is None else read(InputLine(file, n, item))
                if len(memo) < limit:
                    memo[raw] = known
            if known is not None:
                block.append((n, known))
        yield block


_RULES_TAG = r'\[[ \t]*Rules[ \t]+"([^"\\\r\n]{1,1000})"[ \t]*\]'
"""A ``Rules`` tag naming a file (the names ``hoyle`` and ``cardroom`` are left out after)."""


def rules_files_named(name: str) -> Iterator[str]:
    """The house-rules files the ``Rules`` tags of the record file ``name`` name (resolved as
    the reader resolves them), found by a scan of its bytes; nothing for standard input or what is
    not a regular file (it cannot be read twice)."""
    # start-up: pan check does without these
    from pathlib import Path

    from pancli.records.tags import rules_path

    try:
        if name == STDIN_FILE or not stat.S_ISREG(os.stat(name).st_mode):
            return
        stream = open(name, "rb")  # noqa: SIM115 - closed below
    except (OSError, ValueError):
        return
    tag = re.compile(_RULES_TAG.encode())
    seen: set[str] = set()
    folder = Path(name).parent
    with stream:
        tail = b""
        while block := stream.read(1 << 20):
            data = tail + block
            for m in tag.finditer(data):
                spec = m.group(1).decode("utf-8", "replace")
                if not is_builtin(spec.strip()) and spec not in seen:
                    seen.add(spec)
                    path = rules_path(spec, folder)
                    if not isinstance(path, str):
                        yield str(path)
            tail = data[-1100:]


def player_option(name: str) -> str:
    """A ``--player`` name as the records' players are kept (one spelling of each name: NFC).

    >>> player_option("Jose\u0301") == "Jos\u00e9"
    True
    """
    from pancli.notation.record_common import player_name  # start-up: pan check does without it

    return player_name(name)


def stake_option(text: str) -> Decimal | tuple[str, str]:
    """A ``--stake`` value read as a ``Stake`` tag is: the money value of one unit, or the code
    and message of why it is not one.

    >>> stake_option("0.25"), stake_option("1e3")[0]
    (Decimal('0.25'), 'R2')
    """
    from pancli.records.tags import read_stake  # start-up: pan check does without it

    return read_stake(text)


# --------------------------------------------------------------------------- options


DEFAULT_PLAYERS: Final = 6
"""Players seated when a command is given neither a count nor names (``--players``; the worked
figures of docs/rules.md)."""
SEATS: Final = range(MIN_PLAYERS, MAX_PLAYERS + 1)
"""The seats ``--players``' help shows, the built-in rules' (S1): whether so many are seated is
the command's rules object's answer (``PanRules.seating``), asked once every option is read."""


def profile_names() -> tuple[str, ...]:
    """The built-in profiles' names (what ``--rules`` completes besides a house-rules file).

    >>> profile_names()
    ('hoyle', 'cardroom')
    """
    return tuple(PROFILES)


GAMES: tuple[str, ...] = tuple(g.value for g in Game)
"""The values of ``--game``, Panguingue's first (the default)."""
PAGRUC = Game.PAGRUC.value
"""``--game pagruc``."""


def game_named(value: str) -> Game:
    """The game a ``--game`` value names (any case).

    >>> game_named("PAGRUC") is Game.PAGRUC
    True
    """
    return Game(value.lower())


class ProfileProblem:
    """Why ``--rules`` names no profile (R3; grammar/README-records.md: a bad profile or
    house-rules file): the name or file given, the reason, and the place of a bad key in a
    house-rules file (its line and column; 0 when there is none). The command words it as an
    error line (:func:`~pancli.render.text.profile_problem_text`). A plain class: a Struct's
    class costs every command's start-up, and only a bad ``--rules`` makes one."""

    __slots__ = ("col", "line", "message", "spec")

    def __init__(self, spec: str, message: str, line: int = 0, col: int = 0) -> None:
        self.spec = spec
        self.message = message
        self.line = line
        self.col = col


def rules_profile(
    spec: str, problem: Callable[[ProfileProblem], Exception], relative_to: Path | None = None
) -> Profile:
    """The profile ``--rules`` names: a built-in one by name, or a house-rules TOML file (read with tomllib).

    A profile that cannot be loaded raises ``problem(why)`` (the caller's exception: the
    command's usage error), ``why`` a :class:`ProfileProblem` naming the bad knob (and its
    place) or the unreadable file:

    >>> import tempfile, os
    >>> with tempfile.TemporaryDirectory() as d:
    ...     bad = os.path.join(d, "h.toml")
    ...     _ = open(bad, "w").write('ante = 1\\nout_bonus = "x"\\n')
    ...     try:
    ...         rules_profile(bad, lambda why: ValueError(why.line, why.col, why.message))
    ...     except ValueError as exc:
    ...         print(*exc.args)
    2 1 out_bonus: expected a whole number from 0 to 100, got 'x'
    """
    if is_builtin(spec):
        return builtin_profile(spec)
    missing = f"no such profile or file (built-in: {', '.join(PROFILES)})"
    if not spec or "\0" in spec:
        raise problem(ProfileProblem(spec, missing))
    # start-up: pan check does without these
    from pathlib import Path  # only a house-rules file needs it: the commands start without pathlib

    path = Path(spec)
    if relative_to is not None and not path.is_absolute():
        path = relative_to / path
    try:
        # start-up: tomllib only for a house-rules file
        from pancli.app.profiles import house_rules

        return house_rules(path)
    except FileNotFoundError:
        raise problem(ProfileProblem(spec, missing)) from None
    except OSError as exc:
        raise problem(ProfileProblem(spec, f"cannot read the file: {exc.strerror or exc}")) from None
    except HouseRulesError as exc:
        raise problem(ProfileProblem(spec, str(exc), exc.line or 1, exc.col or 1)) from None


def rules_object(profile: Profile) -> PanRules:
    """The rules object of ``profile``: built once by a command and passed to everything it asks."""
    from pancli.panrules import PanRules  # start-up: pan score, fmt and samples do without it

    return PanRules(profile)


def rule_named(text: str) -> Rule | tuple[str, ...]:
    """The rule a ``RULE`` argument names (``P8``, ``p8``), or the ids closest to it when it names none.

    >>> rule_named("p8"), rule_named("P11")
    (Rule.P8, ('P1', 'P10'))
    """
    from pancli.rulebook import closest, lookup  # start-up: only pan rules RULE reads a rule id

    rule = lookup(text)
    return rule if rule is not None else tuple(str(r) for r in closest(text))


def rule_titles() -> list[tuple[str, str]]:
    """Every rule id of the rulebook and its title, in rulebook order (the completion of ``pan rules``)."""
    from pancli.rulebook import RULEBOOK  # start-up: only the shell's completion lists the rules

    return [(str(r), e.title) for r, e in RULEBOOK.items()]


# --------------------------------------------------------------------------- standard input


def decoded(stream: IO[bytes]) -> IO[str]:
    """``stream`` read as a record is (standard input): UTF-8, a byte that is not UTF-8 kept
    (:data:`~pancli.escapes.DECODE_ERRORS`) for the record reader to name where it stands (R2)."""
    return io.TextIOWrapper(stream, encoding="utf-8", errors=DECODE_ERRORS, newline=None)


def open_decoded(name: str) -> IO[str]:
    """The file ``name`` opened as :func:`decoded` reads standard input (OSError when it cannot be)."""
    return open(name, encoding="utf-8", errors=DECODE_ERRORS, newline=None)


class LineBlocks:
    """The bytes ``read`` gives, as lists of lines (without line ends), one list per read: the one
    reader of line-by-line input (``pan check``, ``pay``, ``score``, ``analyze`` with ``-``).

    Bytes that are not UTF-8 are kept as an argument's are (``surrogateescape``: an error names
    the byte, as it names one of an argument); a leading byte-order mark is dropped; lines
    end with ``\\n`` (a ``\\r`` before it stays: it is white space to every reader).
    A block is what one read gives (up to ``block`` bytes): from a file a whole block, from a
    pipe what has arrived, so lines typed or written slowly are answered as they come.
    A line past MAX_LINE_CHARS comes as a :class:`~pancli.limits.LongLine` (its head and its
    length), read to its end however long it is: the lines after it are read as any others.
    Binary data (a NUL byte) ends the reading: its line ends at the NUL and comes as a
    :class:`~pancli.limits.BinaryLine`, whose one error is binary data's, in its line's order.

    >>> import io
    >>> blocks = LineBlocks(io.BytesIO(b"\\xef\\xbb\\xbf5sss\\r\\n3-5h\\nKd\\x00zz\\n").read, 8)
    >>> [[type(x).__name__ for x in b] for b in blocks]
    [['str', 'str'], ['BinaryLine']]
    """

    def __init__(self, read: Callable[[int], bytes], block: int) -> None:
        self._read = read
        self._block = block

    def __iter__(self) -> Iterator[list[str]]:
        read = self._read
        block = self._block
        pending: list[bytes] = []
        pending_size = 0
        long_head = ""  # the head of a line past MAX_LINE_CHARS while its rest is skipped unread
        long_size = -1  # its length in characters so far; -1: no such line
        count = codecs.getincrementaldecoder("utf-8")("surrogateescape").decode  # (a character cut by a read)
        first = True
        nul = -1
        while nul < 0:
            data = read(block)
            if not data:
                break
            if first:
                first = False
                if data.startswith(b"\xef\xbb\xbf"):
                    data = data[3:]
            nul = data.find(b"\x00")
            if nul >= 0:  # binary data: its line ends at the NUL, and nothing after it is read
                data = data[: nul + 1] + b"\n"
            if long_size >= 0:  # the rest of a line too long: never held, however long it is
                end = data.find(b"\n")
                if end < 0:
                    long_size += len(count(data))
                    continue
                long_size += len(count(data[:end].removesuffix(b"\r"), True))
                yield [LongLine(long_head, long_size)]
                data = data[end + 1 :]
                long_size = -1
            cut = data.rfind(b"\n") + 1
            if cut == 0:
                pending.append(data)
                pending_size += len(data)
                if pending_size > MAX_LINE_CHARS:  # past the limit: keep its head, count the rest
                    held = count(b"".join(pending))
                    long_head = held[: MAX_LINE_CHARS + 1]
                    long_size = len(held)
                    pending = []
                    pending_size = 0
                continue
            pending_size = 0
            if pending:
                pending.append(data[:cut])
                head = b"".join(pending)
                pending = []
            else:
                head = data[:cut]
            pending_tail = data[cut:]
            if pending_tail:
                pending.append(pending_tail)
                pending_size = len(pending_tail)
            lines = head.decode("utf-8", "surrogateescape").split("\n")[:-1]
            if len(head) > MAX_LINE_CHARS:
                lines = [LongLine(x[: MAX_LINE_CHARS + 1], len(x)) if len(x) > MAX_LINE_CHARS else x for x in lines]
            if nul >= 0 and lines:  # the line the NUL cut (a long one stays too long: N10)
                lines[-1] = BinaryLine(lines[-1]) if type(lines[-1]) is str else lines[-1]
            yield lines
        if long_size >= 0:
            yield [LongLine(long_head, long_size + len(count(b"", True)))]
        elif pending:
            yield [b"".join(pending).decode("utf-8", "surrogateescape")]
