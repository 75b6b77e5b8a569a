"""The Python API of pan: a small, stable, typed surface for scripts and notebooks.

``import pancli`` gives these names (loaded on first use, so the import stays light):

- :func:`load_rules`: a rule profile (``hoyle``, ``cardroom`` or a house-rules TOML file);
- :func:`check_meld`: is a meld legal, its kind, conditions, value and the rule broken;
- :func:`meld_value`: what a legal meld collects from each active opponent;
- :func:`read_records` / :func:`parse_records`: the hands of a ``.pan`` record, from a
  path or from a string;
- :func:`referee_hand`: referee one hand of a record (payments, ledger, violations);
- :func:`analyze_hand`: analyse a ten-card Panguingue hand (best arrangement, draws, odds).

``pan check`` judges each meld through :func:`check_meld`'s judgement (:func:`judge_text`),
and ``pan replay``, ``pan analyze`` call the same reader, referees and analyser. Bad input
raises :class:`PanError` (a ValueError) with the rule id and the column. See docs/api.md.

>>> import pancli
>>> pancli.check_meld("5s 5s 5s").legal, pancli.meld_value("5s 5s 5s")
(True, 4)
>>> pancli.check_meld("7c 7s 7s").rule
'M3'
"""

from __future__ import annotations

import io
import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from pancli.app.check import MeldCheck, judge_text
from pancli.escapes import DECODE_ERRORS, escape_text
from pancli.limits import MAX_SAMPLES
from pancli.panrules import PanRules
from pancli.rulebook import Rule
from pancli.rules import HouseRulesError, Profile, builtin_profile, is_builtin

if TYPE_CHECKING:
    from pancli.analyze.analysis import Analysis
    from pancli.model.results import HandResult
    from pancli.notation.layout import RecordHand
    from pancli.pagruc.referee import PagrucHandResult

__all__ = [
    "HandResult",
    "MeldCheck",
    "PagrucHandResult",
    "PanError",
    "analyze_hand",
    "check_meld",
    "judge_text",
    "load_rules",
    "meld_value",
    "parse_records",
    "read_records",
    "referee_hand",
]


def __getattr__(name: str) -> object:
    """The result types of :func:`referee_hand`, imported when asked for (for ``isinstance``)."""
    if name == "HandResult":
        # start-up: pancli.check_meld does without these
        from pancli.model.results import HandResult

        return HandResult
    if name == "PagrucHandResult":
        # start-up: only a PAGRUC caller asks for it
        from pancli.pagruc.referee import PagrucHandResult

        return PagrucHandResult
    raise AttributeError(f"module 'pancli.api' has no attribute {name!r}")


class PanError(ValueError):
    """Input pan cannot use: ``rule`` is the rule or notation code (``M3``, ``N1``, ``R3``),
    ``col`` the column in the text (1 when the whole text is at fault)."""

    def __init__(self, rule: str, message: str, col: int = 1) -> None:
        super().__init__(f"{rule} {message}")
        self.rule = rule
        self.message = message
        self.col = col

    def __reduce__(self) -> tuple[type[PanError], tuple[str, str, int]]:
        """Pickled and copied with its fields: a ``multiprocessing`` pool sends it back to the
        caller (with ValueError's own, remaking it from its one text failed in the pool's
        thread, and ``Pool.map`` waited for ever).

        >>> import pickle
        >>> pickle.loads(pickle.dumps(PanError("M3", "not a set", 4))).col
        4
        """
        return (type(self), (self.rule, self.message, self.col))


def _shown(value: object) -> str:
    """An argument as an error names it: its type, and its text when short (never a long repr)."""
    short = not isinstance(value, (str, bytes)) or len(value) <= 40
    simple = isinstance(value, (str, float, bytes)) or (isinstance(value, int) and value.bit_length() < 128)
    text = repr(value) if short and simple and not isinstance(value, bool) else ""  # (repr of 10**5000 raises)
    kind = type(value).__name__
    return f"{kind} {escape_text(text)}" if text and len(text) <= 40 else kind


def _text(value: object, what: str, rule: Rule = Rule.N3) -> str:
    """``value`` when it is a string, else PanError naming ``what`` was expected."""
    if not isinstance(value, str):
        raise PanError(rule, f"{what} must be a string, not {_shown(value)}")
    return value


def _whole(value: object, what: str, lo: int | None, hi: int | None, rule: Rule) -> int:
    """``value`` when it is a whole number from ``lo`` to ``hi`` (the limits the commands set),
    else PanError (a bool is no number here)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise PanError(rule, f"{what} must be a whole number, not {_shown(value)}")
    if lo is not None and hi is not None and not lo <= value <= hi:
        span = f"from {lo:,} to {hi:,}"
        raise PanError(
            rule, f"{what} must be {span}, not {value:,}" if value.bit_length() < 64 else f"{what} must be {span}"
        )
    return value


def load_rules(spec: str | os.PathLike[str] | Profile = "hoyle") -> Profile:
    """The rule profile named ``spec``: ``hoyle``, ``cardroom``, or a house-rules TOML file.

    >>> load_rules("cardroom").name
    'cardroom'
    >>> load_rules("no-such-rules")
    Traceback (most recent call last):
    ...
    pancli.api.PanError: R3 no profile or file named 'no-such-rules' (built-in: hoyle, cardroom)
    """
    if isinstance(spec, Profile):
        return spec
    if not isinstance(spec, (str, os.PathLike)):
        raise PanError(Rule.R3, f"rules must be a profile name, a path or a Profile, not {_shown(spec)}")
    try:
        text = os.fspath(spec)
    except TypeError:  # a PathLike whose __fspath__ gives bytes or nothing
        raise PanError(Rule.R3, f"rules must be a profile name, a path or a Profile, not {_shown(spec)}") from None
    if not isinstance(text, str):
        raise PanError(Rule.R3, f"rules must be a profile name, a path or a Profile, not {_shown(text)}")
    if is_builtin(text):
        return builtin_profile(text)
    # start-up: pancli.check_meld does without it
    from pancli.notation.houserules import profile_from_toml, read_rules_file

    shown = escape_text(text if len(text) <= 200 else text[:200] + "...")
    try:  # the commands' reader: a regular file of at most 64 KiB, never a device or a FIFO
        return profile_from_toml(read_rules_file(Path(text)))
    except FileNotFoundError:
        raise PanError(Rule.R3, f"no profile or file named {shown!r} (built-in: hoyle, cardroom)") from None
    except OSError as exc:
        raise PanError(Rule.R3, f"{shown}: {exc.strerror or exc}") from None
    except ValueError as exc:  # a NUL in the path (HouseRulesError is one too: its key and place)
        if isinstance(exc, HouseRulesError):
            where = f" (line {exc.line})" if exc.line else ""
            raise PanError(Rule.R3, escape_text(f"{shown}{where}: {exc}"), exc.col or 1) from None
        raise PanError(Rule.R3, f"{shown}: not a path ({escape_text(str(exc))})") from None


_profile = load_rules
""":func:`load_rules` under a short name."""


def check_meld(text: str, rules: str | Profile = "hoyle") -> MeldCheck:
    """Judge one Panguingue meld written in pan's notation (``5s 5s 5s``, ``5sss``, ``3-5h``).

    >>> r = check_meld("3-5h")
    >>> r.meld, r.kind, r.legal
    ('3h 4h 5h', 'rope', True)
    >>> check_meld("5s 9s 5s").rule
    'E1'
    """
    return judge_text(_text(text, "the meld"), PanRules(_profile(rules)))


def meld_value(text: str, rules: str | Profile = "hoyle") -> int:
    """The units a legal meld collects from each active opponent (C6, C7); PanError if illegal.

    >>> meld_value("Jc Qc Kc", "cardroom")
    1
    >>> meld_value("7c 7s 7s")
    Traceback (most recent call last):
    ...
    pancli.api.PanError: M3 a set of 7s must be all one suit or all different suits, not 7c 7s 7s
    """
    found = check_meld(text, rules)
    if not found.legal:
        raise PanError(found.rule or Rule.M1, found.reason, found.col or 1)
    return found.value


def parse_records(
    text: str, name: str = "<string>", rules_dir: str | os.PathLike[str] | None = None
) -> list[RecordHand]:
    """The hands of a record given as a string (``name`` is used in errors; a Rules tag's
    house-rules file is looked up in ``rules_dir``, the current folder by default).

    >>> hands = parse_records('[Players "Ana Ben"]\\n\\nAna stay\\nBen stay\\n')
    >>> len(hands), hands[0].script.players, hands[0].error is None
    (1, ('Ana', 'Ben'), True)
    """
    from pancli.records import read_hands  # start-up: pancli.check_meld does without it

    _text(text, "the record", Rule.R1)
    _text(name, "the name", Rule.R1)
    folder = None if rules_dir is None else _folder(rules_dir)
    return list(read_hands(io.StringIO(text), name, folder))


def _folder(value: object) -> Path:
    if not isinstance(value, (str, os.PathLike)):
        raise PanError(Rule.R3, f"rules_dir must be a path, not {_shown(value)}")
    try:
        return Path(value)
    except TypeError:
        raise PanError(Rule.R3, f"rules_dir must be a path, not {_shown(value)}") from None


def read_records(path: str | os.PathLike[str]) -> Iterator[RecordHand]:
    """The hands of a record file, one at a time (constant memory). A malformed hand comes with
    ``error`` set and ``script`` None; reading goes on. OSError when the file cannot be read."""
    from pancli.records import read_hands  # start-up: pancli.check_meld does without it

    if not isinstance(path, (str, os.PathLike)):
        raise PanError(Rule.R1, f"path must be a path, not {_shown(path)}")
    name = os.fspath(path)
    if not isinstance(name, str):
        raise PanError(Rule.R1, f"path must be a path, not {_shown(name)}")
    try:
        stream = open(name, encoding="utf-8", errors=DECODE_ERRORS)  # noqa: SIM115 - closed below, as a generator may be
    except ValueError as exc:  # a NUL in the name
        raise PanError(Rule.R1, f"not a path ({escape_text(str(exc))})") from None
    with stream:
        yield from read_hands(stream, name, Path(name).parent)


def referee_hand(hand: RecordHand | str | os.PathLike[str], *, strict: bool = False) -> HandResult | PagrucHandResult:
    """Referee one hand under its record's rules: every payment, the ledger, the winner, the
    first violation, and the irregularities put right (``remedies``: I1, I2; with ``strict``, the
    first one is a violation that stops the hand, as ``pan replay --strict``). ``hand`` is a
    :class:`RecordHand`, the text of one hand, or the path of a record file holding one hand (a
    ``str`` of one line naming a file is its path). PanError for a malformed hand, or a text or
    file of more hands than one (:func:`read_records` reads those).

    The result is a :class:`HandResult` (Panguingue: ``ledger``, ``payments``) or a
    :class:`PagrucHandResult` (``scores``): ``isinstance`` tells them apart; both have ``ok``,
    ``winner``, ``violations``, ``claims`` and ``totals``.

    >>> text = '[Players "Ana Ben"]\\n\\nAna stay\\nBen stay\\n'
    >>> result = referee_hand(text)
    >>> result.ok, result.violations
    (True, ())
    >>> referee_hand("no-such-record.pan")
    Traceback (most recent call last):
    ...
    pancli.api.PanError: R2 'no-such-record.pan' is neither a file nor the text of a hand (tags, play lines)
    """
    # start-up: pancli.check_meld does without these
    from pancli.notation.layout import RecordHand

    if not isinstance(hand, (str, os.PathLike, RecordHand)):
        raise PanError(Rule.R1, f"hand must be a RecordHand, the text of one hand or a path, not {_shown(hand)}")
    if isinstance(hand, (str, os.PathLike)):
        hands = _one_hand_text(hand)
        if len(hands) != 1:
            raise PanError(Rule.R1, f"the record holds {len(hands)} hands, not one (read_records gives each)")
        hand = hands[0]
    if hand.script is None:
        err = hand.error
        raise PanError(err.code if err else Rule.R6, err.message if err else "unreadable hand", err.col if err else 1)
    # start-up: pancli.check_meld does without the referee
    from pancli.app.replay import referee

    return referee(hand.script, remedy=not strict)


def _one_hand_text(hand: str | os.PathLike[str]) -> list[RecordHand]:
    """The hands of ``hand``: a path (a ``PathLike``, or a one-line ``str`` naming a file) or a record's text."""
    is_path = not isinstance(hand, str) or ("\n" not in hand and _is_file(hand))
    if not is_path:
        text = str(hand)
        if "\n" not in text and "[" not in text:
            shown = escape_text(repr(text if len(text) <= 60 else text[:60] + "..."))
            raise PanError(Rule.R2, f"{shown} is neither a file nor the text of a hand (tags, play lines)")
        return parse_records(text)
    from pancli.records import read_hands  # start-up: pancli.check_meld does without it

    name = os.fspath(hand)
    if not isinstance(name, str):
        raise PanError(Rule.R1, f"hand must be a RecordHand, the text of one hand or a path, not {_shown(name)}")
    path = Path(name)
    hands: list[RecordHand] = []
    try:
        with open(name, encoding="utf-8", errors=DECODE_ERRORS) as stream:
            # read as the records are (a line, a hand, binary data bounded), and no further than
            # a second hand: a device that never ends (/dev/zero) is never held
            for got in read_hands(stream, name, path.parent):
                hands.append(got)
                if len(hands) > 1:
                    break
    except (OSError, ValueError) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise PanError(Rule.R2, escape_text(f"{name}: {why}")) from None
    return hands


def _is_file(name: str) -> bool:
    """Whether ``name`` is an existing file (False for a name the system refuses: too long, a NUL)."""
    try:
        return Path(name).is_file()
    except (OSError, ValueError):
        return False


def analyze_hand(
    hand: str,
    rules: str | Profile | PanRules = "hoyle",
    *,
    drawn: str | None = None,
    players: int = 6,
    samples: int = 2000,
    seed: int = 1,
) -> Analysis:
    """Analyse a ten-card Panguingue hand (and the card just drawn: a trailing ``+CARD``, as
    ``pan analyze`` takes it, or ``drawn``): the best arrangement, what every draw would do, the
    odds of going out. PanError for a bad hand or position.

    ``rules``: a profile (``"hoyle"``, ``"cardroom"``, a house-rules path, a :class:`Profile`),
    whose rules object (:class:`PanRules`) is built once for the call and asked every question
    of it; or a rules object, asked as it is (build it once for many calls: the analyses share
    what its meld space learns, and a subclass that answers a rule otherwise is followed).

    >>> a = analyze_hand("5s 5s 5s 6h 7h Jc Qc Kc 2d 3d", samples=50)
    >>> a.best.melded, a.best.value
    (6, 5)
    >>> str(analyze_hand("5sss 3-4h Kdhc 2c 7d +5h", samples=50).discard)
    '7d'
    """
    # start-up: pancli.check_meld does without these
    from pancli.analyze.analysis import ImpossiblePosition, analyze
    from pancli.app.analyze import InputProblem, read_hand

    judge = rules if isinstance(rules, PanRules) else PanRules(_profile(rules))
    _text(hand, "the hand")
    if drawn is not None:
        _text(drawn, "the drawn card")
    seats = judge.seats()  # S1: the rules object's
    _whole(players, "players", seats[0], seats[-1], Rule.S1)
    _whole(samples, "samples", 1, MAX_SAMPLES, Rule.R10)
    _whole(seed, "seed", None, None, Rule.R10)  # any whole number, as --seed
    try:
        cards, card = read_hand(hand, drawn, rules=judge)
    except InputProblem as exc:
        raise PanError(exc.rule, exc.message, exc.col) from None
    try:
        return analyze(cards, judge.profile, card, players=players, samples=samples, seed=seed, rules=judge)
    except ImpossiblePosition as exc:
        raise PanError(exc.rule, exc.message) from None
