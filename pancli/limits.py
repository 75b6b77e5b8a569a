"""The limits of what ``pan`` reads: every number, line, name, value, comment, hand and file.

Input past a limit is an error with its place and a code, never a traceback and never a
hang: in a record it is ``R10`` (too long or too large; ``R3`` for a house-rules file), in
a meld or hand literal ``N10``. The limits are far above anything a real game writes; they
exist so that hostile input costs bounded time and memory (docs/notation.md, "Limits").

Core layer: plain constants and two pure helpers, no I/O.

>>> number_too_large("999999999"), number_too_large("1000000000")
(False, True)
>>> too_large_message("a move number", "12345678901")
'a move number of 11 digits is too large (at most 999999999)'
"""

from __future__ import annotations

from typing import Final

MAX_NUMBER_DIGITS: Final = 9
"""Digits of any whole number written in a record or a literal: Ledger units, move numbers,
``[%pays N]`` claims, meld numbers (``#N``), ``take N``, Packs, the integer part of a Stake."""
MAX_NUMBER: Final = 10**MAX_NUMBER_DIGITS - 1
"""The largest number any field takes (999,999,999)."""

MAX_LINE_CHARS: Final = 100_000
"""Characters of one physical line (a record line, a line of batch input)."""
MAX_HAND_LINES: Final = 100_000
"""Physical lines of one hand: no more turns than that either (one per line at least)."""
MAX_HAND_CHARS: Final = 10_000_000
"""Characters of one hand's text: the bound on the memory one hand takes while it is read."""
MAX_COMMENT_CHARS: Final = 100_000
"""Characters of one ``{...}`` comment, over all the lines it spans."""
MAX_TAG_VALUE_CHARS: Final = 1_000
"""Characters of a tag's value (``[Event "..."]``)."""
MAX_NAME_CHARS: Final = 40
"""Characters of a player name."""
MAX_ACTIONS_PER_TURN: Final = 1_000
"""Actions in one turn line (however it is continued over physical lines)."""
MAX_MELD_CARDS: Final = 64
"""Cards in one meld or group (a Panguingue set holds at most 32: 4 suits of 8 packs)."""
MAX_COUNTED: Final = MAX_MELD_CARDS
"""The most cards a ``count`` line may find in a hand (more is no count but a slip of the pen)."""
MAX_HANDS_PER_FILE: Final = 10_000_000
"""Hands in one record file."""
MAX_LITERAL_CHARS: Final = 4_096
"""Characters of one meld, card or hand literal (``pan check``, ``pan pay``, ``pan analyze``)."""
MAX_HOUSE_RULES_BYTES: Final = 65_536
"""Bytes of a house-rules TOML file (a full one is under 2 KB)."""
MAX_HOUSE_RULES_DEPTH: Final = 16
"""Nesting of arrays and tables in a house-rules file (a valid one nests two deep)."""
MAX_SAMPLES: Final = 100_000
"""Monte Carlo samples of ``pan analyze --samples`` (and ``analyze_hand(samples=)``): the most keeps
the advice to minutes (benchmarks/README.md, bench_odds), and its standard error is 0.3% of 1,000."""


class LongLine(str):
    """The head of a physical line past :data:`MAX_LINE_CHARS` (the rest was skipped unread),
    with the whole line's length: a reader of lines gives it in the line's place so that its
    error names the real length (:func:`text_length`).

    >>> line = LongLine("5s 5s", 12_000_000)
    >>> line, text_length(line), text_length("5s 5s")
    ('5s 5s', 12000000, 5)
    >>> line == LongLine("5s 5s", 12_000_000), line == LongLine("5s 5s", 9), line == "5s 5s"
    (True, False, False)
    """

    __slots__ = ("length",)
    length: int

    def __new__(cls, head: str, length: int) -> LongLine:
        made = super().__new__(cls, head)
        made.length = length
        return made

    # Equal only to a LongLine of the same head and length: the memos of the batch commands,
    # keyed by a line's text, then never give one long line another's error.
    def __eq__(self, other: object) -> bool:
        return type(other) is LongLine and other.length == self.length and str.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash((str(self), self.length))


class BinaryLine(str):
    """The line of batch input a NUL byte cut (binary data, after which nothing is read), the NUL
    its last character: a reader of lines gives it in the line's place so that its one error is
    that of binary data, at the NUL, in its line's order (:func:`pancli.notation.fast.unread_error`).

    >>> line = BinaryLine("Kd\\x00")
    >>> line == BinaryLine("Kd\\x00"), line == "Kd\\x00", len({line, "Kd\\x00"})
    (True, False, 2)
    """

    __slots__ = ()

    # Equal only to a BinaryLine: the memos of the batch commands, keyed by a line's text, then
    # never give text holding a NUL (pancli.check_meld's) the error of binary data, nor the reverse.
    def __eq__(self, other: object) -> bool:
        return type(other) is BinaryLine and str.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash((str(self), BinaryLine))


BINARY_MESSAGE: Final = "binary data (a NUL byte): input is text, the rest is not read"
"""The N1 error of a :class:`BinaryLine`."""


def text_length(text: str) -> int:
    """The length of ``text``, or of the whole line when it is a :class:`LongLine`."""
    return text.length if type(text) is LongLine else len(text)


def number_too_large(digits: str) -> bool:
    """Whether a run of decimal digits (a sign allowed) is past :data:`MAX_NUMBER`.

    Leading zeros count (``0000000001`` is refused): the text, not the value, is bounded,
    so no number is ever converted past Python's int-string limit.

    >>> number_too_large("+12"), number_too_large("-0123456789")
    (False, True)
    """
    return len(digits.lstrip("+-")) > MAX_NUMBER_DIGITS


def too_large_message(what: str, digits: str) -> str:
    """The message of a number past the limit (the number itself is not repeated)."""
    return f"{what} of {len(digits.lstrip('+-'))} digits is too large (at most {MAX_NUMBER})"


def too_long_message(what: str, size: int, limit: int, unit: str = "characters") -> str:
    """The message of a text past a length limit.

    >>> too_long_message("a player name", 41, MAX_NAME_CHARS)
    'a player name of 41 characters is too long (at most 40)'
    """
    return f"{what} of {size:,} {unit} is too long (at most {limit:,})"


MAX_REVIEWED_LINES: Final = 1_000
"""Play lines of one hand that ``pan review`` reviews (each position is refereed from the deal: the
work grows with the square of the lines); the rest are counted as not reviewed."""
