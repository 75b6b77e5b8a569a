"""The fuzzing suite: hostile text through every parser entry point and every command
in-process, and mutated records through the referee and the formatter.

What must hold for every input:

- no exception escapes (a parser raises only NotationError / HouseRulesError; a command ends by
  an exit status);
- the exit status is 0, 1 or 2 with its documented meaning (2 only for usage and I/O);
- every error names a place: ``file:line:col: CODE message`` with line and col >= 1;
- no raw control character reaches standard output or standard error;
- ledgers of refereed hands sum to zero;
- ``fmt`` is a fixed point, and replaying ``fmt(x)`` judges every hand as replaying ``x`` does.

Profiles: the default run tries a few hundred inputs in a few seconds; ``PAN_FUZZ=long`` tries
100,000 (docs/limits.md says how to run it). Inputs that once failed are kept in
``tests/fuzz_corpus/`` (one file each; ``*.toml`` house rules, ``*.pan`` records, ``*.txt`` lines
for the batch commands) and run every time.
"""

from __future__ import annotations

import io
import json
import os
import random
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import pytest
from cli_kit import ROOT
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

from pancli.cards import Game
from pancli.cli import cli
from pancli.notation import parse_card, parse_hand, parse_meld
from pancli.notation.errors import NotationError
from pancli.notation.houserules import profile_from_toml
from pancli.notation.record_common import DEFAULT_IGNORABLE, name_key
from pancli.records import read_hands
from pancli.rules import HouseRulesError

CORPUS = Path(__file__).resolve().parent / "fuzz_corpus"
SAMPLES = sorted((ROOT / "samples").glob("*.pan"))

T = TypeVar("T")

LONG = os.environ.get("PAN_FUZZ", "") == "long"
# (quick, long) examples per property; the long counts add up to 100,000 inputs (records: every
# sample once more, on top)
BUDGET: dict[str, tuple[int, int]] = {
    "parsers": (80, 47_000),
    "names": (60, 3_000),
    "reader": (40, 25_000),
    "toml": (60, 12_000),
    "batch": (40, 12_000),
    "mutations": (8, 1_000),
}
assert sum(long for _, long in BUDGET.values()) == 100_000
CHUNK = 250
"""Inputs per pytest case in the long profile (pytest-xdist spreads the cases over processes).

One Hypothesis run of 50,000 examples stalls: Hypothesis remembers every choice it made in the
run (its data tree), and generating one example of ``HOSTILE_TEXT`` went from 3 ms to 13 ms within
the first 4,000, ever slower. Fresh runs of a few hundred keep the rate steady, but even then
generating took 60% of the time of the parser property (11 of 19 ms an input on the loaded
machine): Hypothesis' bookkeeping per choice, some hundred choices an input. So the long profile
draws the hostile text from ``random.Random`` seeded per input (``*_from`` below, the same pieces
as the strategies), and a failure names its seed; the default run keeps the strategies, which
shrink a failing input."""
SEED = int(os.environ.get("PAN_FUZZ_SEED", "1"))
LOG = os.environ.get("PAN_FUZZ_LOG", "")
"""When set, each run of the long profile appends ``property chunk seed inputs seconds`` to it."""

SETTINGS = settings(
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
    database=None,
)


def fuzz(
    name: str, strategy: st.SearchStrategy[T], draw: Callable[[random.Random], T] | None = None
) -> Callable[[Callable[[T], None]], Callable[..., None]]:
    """A property over ``strategy``: a few derandomized examples by default (the same each time,
    shrunk by Hypothesis when one fails). In the long profile ``BUDGET[name]`` inputs in runs of
    ``CHUNK`` (one pytest case each): drawn by ``draw`` from a ``random.Random`` seeded per input
    when given (the same pieces as ``strategy``), else Hypothesis runs seeded per chunk."""
    quick, long = BUDGET[name]

    def decorate(check: Callable[[T], None]) -> Callable[..., None]:
        if not LONG:
            test: Callable[..., None] = settings(SETTINGS, max_examples=quick, derandomize=True)(given(strategy)(check))
            return test

        def run(chunk: int) -> None:
            inputs = 0
            examples = min(CHUNK, long - chunk * CHUNK)
            start = time.perf_counter()
            try:
                if draw is not None:
                    for i in range(chunk * CHUNK, chunk * CHUNK + examples):
                        value = draw(random.Random(f"{name}:{SEED}:{i}"))
                        try:
                            check(value)
                        except BaseException as exc:  # the input and how to draw it again
                            raise AssertionError(f"input {name}:{SEED}:{i} failed: {value!r:.3000}") from exc
                        inputs += 1
                else:

                    def counted(value: T) -> None:
                        nonlocal inputs
                        inputs += 1
                        check(value)

                    seeded = seed(SEED * 1_000_003 + chunk)(
                        settings(SETTINGS, max_examples=examples)(given(strategy)(counted))
                    )
                    seeded()
            finally:
                if LOG:
                    with open(LOG, "a", encoding="utf-8") as log:
                        log.write(f"{name} {chunk} {SEED} {inputs} {time.perf_counter() - start:.1f}\n")

        run.__name__ = run.__qualname__ = check.__name__
        run.__doc__ = check.__doc__
        return pytest.mark.parametrize("chunk", range(-(-long // CHUNK)))(run)

    return decorate


# --------------------------------------------------------------------------- strategies

FRAGMENTS = [
    "5s", "5sss", "3-5h", "Kd", "kH", "Q♥", "10c", "8h", "Ts", "[", "]", "{", "}", ";", "#", ",", ".", " ", "  ",
    "\t", "\n", "\r\n", "\r", "\x00", "\x1b[31m", "\x7f", "\u009b", "\u202e", "\ufeff", "Ä", "♠", "♤\ufe0f", '"',
    "\\", "|", "-", "+", "deal", "up", "reshuffle", "stay", "top", "force", "draw", "discard", "meld", "take",
    "add", "to", "#1", "#0", "borrow", "from", "split", "mend", "back", "out", "lay", "on", "!", "??", "Ana", "Ben",
    "Cy", '[Players "Ana Ben"]', '[Players "Ana Ben Cy"]', '[Game "pagruc"]', '[Rules "cardroom"]', '[Rules "../x"]',
    '[Ledger "Ana +3 Ben -3"]', '[Stake "0.25"]', '[Packs "2"]', "[%pays 4]", "{[%pays 1]}", "1.", "99999.",
]  # fmt: skip
"""Pieces of the notation and of trouble: joined at random they make near-misses of every line."""


def huge_number() -> st.SearchStrategy[str]:
    return st.integers(min_value=1, max_value=6000).map(lambda n: "9" * n)


def long_run() -> st.SearchStrategy[str]:
    return st.tuples(st.sampled_from(["x", "5s ", "{", "[", "\x00", "a,", "{a} "]), st.integers(0, 3000)).map(
        lambda t: t[0] * t[1]
    )


HOSTILE_TEXT: st.SearchStrategy[str] = st.lists(
    st.one_of(
        st.sampled_from(FRAGMENTS),
        st.text(max_size=12),
        huge_number(),
        long_run(),
        st.characters(max_codepoint=0x30FF, blacklist_categories=("Cs",)).map(str),
    ),
    max_size=30,
).map("".join)
"""Text made of notation pieces, control characters, huge numbers, long runs and any Unicode."""

HOSTILE_LINES = st.lists(HOSTILE_TEXT, max_size=12).map("\n".join)


def invalid_utf8() -> st.SearchStrategy[bytes]:
    return st.tuples(HOSTILE_TEXT, st.binary(max_size=8)).map(lambda t: t[0].encode("utf-8") + b"\xff\xfe" + t[1])


_RUNS = ["x", "5s ", "{", "[", "\x00", "a,", "{a} "]


def _sized(r: random.Random, most: int) -> int:
    """0 to ``most``, log-uniform: mostly short, now and then the longest."""
    return int((most + 1) ** r.random()) - 1


def _char(r: random.Random) -> str:
    """Any character but a surrogate: ASCII, C0/C1 controls and bidirectional marks, or anything."""
    k = r.randrange(4)
    if k == 0:
        return chr(r.randrange(0x20, 0x7F))
    if k == 1:
        return chr(r.choice([*range(0x20), *range(0x7F, 0xA0), 0x202E, 0x2066, 0xFEFF]))
    n = r.randrange(0x30FF if k == 2 else 0x110000)
    return chr(n) if not 0xD800 <= n < 0xE000 else "\ufffd"


def hostile_text_from(r: random.Random) -> str:
    """:data:`HOSTILE_TEXT`, drawn from ``r``."""
    parts = []
    for _ in range(_sized(r, 30)):
        k = r.randrange(5)
        if k == 0:
            parts.append(r.choice(FRAGMENTS))
        elif k == 1:
            parts.append("".join(_char(r) for _ in range(r.randrange(13))))
        elif k == 2:
            parts.append("9" * (1 + _sized(r, 5999)))
        elif k == 3:
            parts.append(r.choice(_RUNS) * _sized(r, 3000))
        else:
            parts.append(_char(r))
    return "".join(parts)


def hostile_lines_from(r: random.Random) -> str:
    """:data:`HOSTILE_LINES`, drawn from ``r``."""
    return "\n".join(hostile_text_from(r) for _ in range(_sized(r, 12)))


def invalid_utf8_from(r: random.Random) -> bytes:
    """:func:`invalid_utf8`, drawn from ``r``."""
    return hostile_text_from(r).encode("utf-8") + b"\xff\xfe" + r.randbytes(r.randrange(9))


# --------------------------------------------------------------------------- checks

PLACE = re.compile(r"^(?P<file>.+?):(?P<line>[0-9]+):(?P<col>[0-9]+): (?P<code>[A-Z][0-9]+|[A-Z][0-9]+\+?) ")
RAW_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def invoke(*args: str, input: str | bytes | None = None) -> Result:
    result = CliRunner().invoke(cli, list(args), input=input)
    exc = result.exception
    assert exc is None or isinstance(exc, SystemExit), f"pan {' '.join(args)}: {exc!r}"
    assert result.exit_code in (0, 1, 2), result.exit_code
    for stream in (result.stdout, result.stderr):  # (fmt too: its records write controls as escapes)
        assert RAW_CONTROL.search(stream) is None, f"raw control character in output: {stream[:300]!r}"
    return result


def every_error_names_a_place(result: Result) -> None:
    """Exit 1: each error line is ``file:line:col: CODE message`` with line, col >= 1."""
    if result.exit_code != 1:
        return
    for line in result.stderr.splitlines():
        if not line or line.startswith(("pan: reading standard input", "would reformat")):
            continue
        m = PLACE.match(line)
        assert m is not None, f"an error without its place: {line!r}"
        assert int(m["line"]) >= 1 and int(m["col"]) >= 1, line


def notation_only(read: Callable[[str], object], text: str) -> None:
    try:
        read(text)
    except NotationError as exc:
        assert exc.line >= 1 and exc.col >= 1 and re.fullmatch(r"[A-Z][0-9]+", exc.code), exc


def reader_holds(text: str) -> None:
    for hand in read_hands(io.StringIO(text), "f.pan"):
        if hand.error is not None:
            assert hand.error.line >= 1 and hand.error.col >= 1
            assert re.fullmatch(r"[A-Z][0-9]+", hand.error.code)
        else:
            assert hand.script is not None


def toml_holds(data: bytes) -> None:
    try:
        profile_from_toml(data)
    except HouseRulesError as exc:
        assert exc.line >= 0 and exc.col >= 0
        if "deeper than any knob" in exc.message or "digits is too large" in exc.message:
            assert exc.line >= 1 and exc.key != "toml" and len(exc.key) <= 63, exc  # the key, shortened, and its line


BATCH = [("check", "-"), ("pay", "-"), ("score", "-"), ("analyze", "--samples", "20", "-")]


def batch_holds(text: str | bytes) -> None:
    for args in BATCH:
        every_error_names_a_place(invoke(*args, input=text))


def judged(out: str) -> list[tuple[object, ...]]:
    """What replay --json decided of each hand, without places (fmt moves lines)."""
    return [
        (
            h["winner"],
            h.get("void"),  # (a PAGRUC hand has no void; the long profile found it on pagruc-common-room.pan)
            json.dumps(h["ledger"], sort_keys=True),
            tuple(v["rule"] for v in h["violations"]),
            h["claims_ok"],
        )
        for h in json.loads(out)
    ]


def record_holds(text: str) -> None:
    """Replay: a status with its meaning, ledgers summing to zero; fmt: a fixed point that judges alike."""
    replay = invoke("replay", "--json", "-", input=text)
    assert replay.exit_code in (0, 1), replay.stderr
    every_error_names_a_place(invoke("replay", "-", input=text))
    hands = json.loads(replay.stdout)
    for h in hands:
        if h["ledger"] and h["game"] == "panguingue":  # (a PAGRUC ledger is the hand's scores)
            assert sum(h["ledger"].values()) == 0, h["ledger"]
    once = invoke("fmt", "-", input=text)
    assert once.exit_code in (0, 1)
    twice = invoke("fmt", "-", input=once.stdout)
    assert twice.stdout == once.stdout, "fmt is not a fixed point"
    if once.exit_code == 0:
        again = invoke("replay", "--json", "-", input=once.stdout)
        assert judged(again.stdout) == judged(replay.stdout), "replay of fmt(x) differs from replay of x"


# --------------------------------------------------------------------------- properties


@fuzz(
    "parsers",
    st.tuples(HOSTILE_TEXT, st.sampled_from(list(Game))),
    lambda r: (hostile_text_from(r), r.choice(list(Game))),
)
def test_fuzz_card_meld_and_hand_parsers_raise_only_notation_errors(case: tuple[str, Game]) -> None:
    text, game = case
    notation_only(lambda t: parse_meld(t, game), text)
    notation_only(lambda t: parse_card(t, game), text)
    notation_only(lambda t: parse_hand(t, game), text)


@fuzz("reader", HOSTILE_LINES, hostile_lines_from)
def test_fuzz_the_record_reader_never_raises_and_places_every_error(text: str) -> None:
    reader_holds(text)
    reader_holds('[Players "Ana Ben"]\ndeal Ana 5s 5s 5s 3h 4h Kd Kh Kc 2c 7d\n' + text)


KEY_PARTS = ["a", "conditions", "C2", "base", '"q.k"', "'x'", "ante", " a "]
"""Parts of a dotted key: names of knobs, quoted and spaced parts."""
KEY_SHAPES = ["{key} = 1\n", "[{key}]\nx = 1\n", "[[{key}]]\n", "conditions = {{C2 = {{{key} = 1}}}}\n",
              "x = [{{{key} = 2}}]\n", "[conditions.C2]\n{key} = 3\n"]  # fmt: skip
"""Where a key goes: top level, a header, an inline table, an array, under a table."""


def hostile_key(parts: list[str], shape: str) -> bytes:
    """A house-rules text holding the dotted key of ``parts`` in ``shape``: within the size
    limit, a key of thousands of parts (tomllib's work grows with the square of that)."""
    return shape.format(key=".".join(parts)).encode("utf-8")[:65_536]


TOML_BYTES = st.one_of(
    HOSTILE_LINES.map(lambda t: t.encode("utf-8")),
    invalid_utf8(),
    huge_number().map(lambda n: f"packs = {n}".encode()),
    st.builds(
        hostile_key,
        st.integers(1, 9000).flatmap(lambda n: st.lists(st.sampled_from(KEY_PARTS), min_size=n, max_size=n)),
        st.sampled_from(KEY_SHAPES),
    ),
)


def toml_bytes_from(r: random.Random) -> bytes:
    """:data:`TOML_BYTES`, drawn from ``r``."""
    k = r.randrange(4)
    if k == 0:
        return hostile_lines_from(r).encode("utf-8")
    if k == 3:
        return hostile_key([r.choice(KEY_PARTS) for _ in range(1 + _sized(r, 20_000))], r.choice(KEY_SHAPES))
    return invalid_utf8_from(r) if k == 1 else f"packs = {'9' * (1 + _sized(r, 5999))}".encode()


NAME_PIECES = [
    "Ana", "ana", "ANA", "\uff21na", "Stra\u00dfe", "STRASSE", "\ufb01n", "fin", "Jos\u00e9", "Jose\u0301", "\u674e",
    "\u034f", "\ufe0f", "\U000e0100", "\u3164", "\u115f", "\u1160", "\uffa0", "\u180b", "\u17b4", "\u200b",
    "\u00ad", "\u2060", "\u0301", "_", "-", "1", "\u0661", "\u2163", "\u212a",
]  # fmt: skip
"""Pieces of player names: names that look alike after NFKC and case folding, invisible characters."""


def names_from(r: random.Random) -> list[str]:
    """:data:`PLAYER_NAMES`, drawn from ``r``."""
    return ["".join(r.choice(NAME_PIECES) for _ in range(1 + r.randrange(3))) for _ in range(2 + r.randrange(4))]


PLAYER_NAMES = st.lists(
    st.lists(st.sampled_from(NAME_PIECES), min_size=1, max_size=3).map("".join), min_size=2, max_size=5
)


@fuzz("names", PLAYER_NAMES, names_from)
def test_fuzz_player_names_print_apart_or_are_refused_or_warned(names: list[str]) -> None:
    """A seated name holds no invisible character, and two seated names that look alike after
    NFKC and case folding are warned about (R2), with the place of the second."""
    [hand] = read_hands(io.StringIO(f'[Players "{" ".join(names)}"]\n'), "n.pan")
    if hand.error is not None:
        assert hand.error.code in ("R2", "R10") and hand.error.line == 1 and hand.error.col >= 10
        return
    assert hand.script is not None
    seated = hand.script.players
    assert not any(re.search(DEFAULT_IGNORABLE, n) for n in seated), seated
    alike = sum(1 for i, n in enumerate(seated) if any(name_key(n) == name_key(m) for m in seated[:i]))
    assert len(hand.warnings) == alike and all(w.code == "R2" and w.line == 1 for w in hand.warnings)


@fuzz("toml", TOML_BYTES, toml_bytes_from)
def test_fuzz_house_rules_raise_only_house_rules_errors(data: bytes) -> None:
    toml_holds(data)


@fuzz(
    "batch",
    st.tuples(st.one_of(HOSTILE_LINES, invalid_utf8()), st.sampled_from(BATCH)),
    lambda r: (hostile_lines_from(r) if r.randrange(2) else invalid_utf8_from(r), r.choice(BATCH)),
)
def test_fuzz_batch_commands_in_process(case: tuple[str | bytes, tuple[str, ...]]) -> None:
    text, args = case
    every_error_names_a_place(invoke(*args, input=text))


def _mutations() -> st.SearchStrategy[tuple[int, list[tuple[str, int, int, str]]]]:
    op = st.tuples(
        st.sampled_from(["swap", "delete", "duplicate", "card", "name", "number", "insert"]),
        st.integers(0, 10_000),
        st.integers(0, 10_000),
        st.sampled_from([*FRAGMENTS, "9" * 30, "Kh", "2c", "Zed", "ana", "#99", "0."]),
    )
    return st.tuples(st.integers(0, len(SAMPLES) - 1), st.lists(op, min_size=1, max_size=4))


_CARD = re.compile(r"\b(?:[2-7AJQK]|10|T)[shdc]\b")
_NAME = re.compile(r"\b(?:Ana|Ben|Cruz|Dee|Eli|Flo|Gus|Hal)\b")
_NUMBER = re.compile(r"[0-9]+")


def mutate(text: str, ops: list[tuple[str, int, int, str]]) -> str:
    lines = text.split("\n")
    for kind, a, b, piece in ops:
        if not lines:
            break
        i, j = a % len(lines), b % len(lines)
        if kind == "swap":
            lines[i], lines[j] = lines[j], lines[i]
        elif kind == "delete":
            del lines[i]
        elif kind == "duplicate":
            lines.insert(j, lines[i])
        elif kind == "insert":
            lines.insert(i, piece)
        else:
            pattern = {"card": _CARD, "name": _NAME, "number": _NUMBER}[kind]
            found = list(pattern.finditer(lines[i]))
            if found:
                m = found[b % len(found)]
                lines[i] = lines[i][: m.start()] + piece + lines[i][m.end() :]
    return "\n".join(lines)


@pytest.mark.parametrize("path", SAMPLES if LONG else SAMPLES[:: max(1, len(SAMPLES) // 6)], ids=lambda p: p.name)
def test_fuzz_every_sample_record_holds(path: Path) -> None:
    """Every sample in the long profile, one in six by default."""
    record_holds(path.read_text(encoding="utf-8"))


@fuzz("mutations", _mutations())
def test_fuzz_mutated_records_hold(case: tuple[int, list[tuple[str, int, int, str]]]) -> None:
    k, ops = case
    record_holds(mutate(SAMPLES[k].read_text(encoding="utf-8"), ops))


# --------------------------------------------------------------------------- the corpus

CORPUS_FILES = sorted(CORPUS.glob("*")) if CORPUS.is_dir() else []


@pytest.mark.parametrize("path", CORPUS_FILES, ids=lambda p: p.name)
def test_fuzz_corpus_inputs_that_once_failed(path: Path) -> None:
    data = path.read_bytes()
    if path.suffix == ".toml":
        toml_holds(data)
        return
    text = data.decode("utf-8", "replace")
    reader_holds(text)
    if path.suffix == ".pan":
        replay = invoke("replay", "--json", "-", input=data)
        assert replay.exit_code in (0, 1)
        every_error_names_a_place(invoke("replay", "-", input=data))
        every_error_names_a_place(invoke("fmt", "-", input=data))
    else:
        for line in text.splitlines()[:50]:
            for read in (parse_meld, parse_card, parse_hand):
                notation_only(read, line)
        batch_holds(data)


def test_fuzz_corpus_is_not_empty() -> None:
    assert len(CORPUS_FILES) >= 10
