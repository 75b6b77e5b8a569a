"""Properties of the record notation (hypothesis): the writer and the reader round-trip, the
fast path agrees with the grammar of record, ``pan fmt`` is idempotent and keeps comments."""

from __future__ import annotations

import functools
import io
from decimal import Decimal
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from hypothesis import assume, given, reject, settings
from hypothesis import strategies as st
from msgspec import Struct
from msgspec.structs import replace
from profiles_kit import any_profile, rules_name

from pancli.cards import ALL_CARDS, PAN_CARDS, Card, Game
from pancli.model.actions import (
    Action,
    Add,
    Borrow,
    Deal,
    Decision,
    Discard,
    Draw,
    Event,
    Force,
    HandScript,
    Lay,
    LedgerClaim,
    MeldNew,
    Out,
    Reshuffle,
    Split,
    Take,
    TakeMany,
    Turn,
)
from pancli.notation.errors import NotationError
from pancli.notation.record_common import LexError, LineContext, lex
from pancli.notation.record_fast import fast_play
from pancli.notation.record_grammar import grammar_play
from pancli.notation.record_writer import format_records, script_tags, write_script, write_scripts
from pancli.records import read_hands
from pancli.rules import CARDROOM, HOYLE, Profile

NAMES = ["Ana", "Ben", "Cruz", "Dee", "eve_2", "Lu-3", "7"]
FAST = settings(max_examples=60)


def strip_places(value: Any) -> Any:
    """The value with every line/col (and first_line, upcard_line) set to 0."""
    if isinstance(value, tuple):
        return tuple(strip_places(v) for v in value)
    if isinstance(value, Struct):
        changes = {}
        for name in value.__struct_fields__:
            v = getattr(value, name)
            if name in ("line", "col", "first_line", "upcard_line", "number_at"):
                changes[name] = 0
            elif isinstance(v, (tuple, Struct)):
                changes[name] = strip_places(v)
        return replace(value, **changes)
    return value


class _Parts(NamedTuple):
    dealt: st.SearchStrategy[list[str]]
    deal: st.SearchStrategy[tuple[Card, ...]]
    upcard: st.SearchStrategy[Card | None]
    events: st.SearchStrategy[tuple[Event, ...]]


@functools.cache
def _parts(game: Game, players: tuple[str, ...]) -> _Parts:
    """The strategies of a hand of ``game`` between ``players``, built once for each: hypothesis
    checks every new strategy object on its first draw, and building these inside ``scripts`` made
    that check most of the time of drawing a script (``test_fast_path_and_grammar_agree`` took
    13-14 s CPU, now about 4)."""
    pool = PAN_CARDS if game is Game.PANGUINGUE else ALL_CARDS
    cards = st.sampled_from(pool)
    some = st.lists(cards, min_size=1, max_size=5).map(tuple)
    group = st.lists(cards, min_size=1, max_size=5).map(tuple)
    who = st.sampled_from(players)
    target = st.integers(1, 12)
    claim = st.none() | st.integers(0, 40)
    acts: list[st.SearchStrategy[Action]] = [
        st.builds(Draw, cards),
        st.builds(Take, cards),
        st.builds(MeldNew, group, claim),
        st.builds(Add, some, target, claim),
        st.builds(Borrow, cards, target),
        st.builds(Split, target, group, group, claim),
        st.builds(Discard, cards),
        st.just(Out()),
    ]
    if game is Game.PAGRUC:
        acts += [
            st.builds(TakeMany, st.integers(1, 20)),
            st.lists(cards, min_size=2, max_size=4).map(lambda cs: TakeMany(len(cs), tuple(cs))),
            st.builds(Lay, some, who, target),
        ]
    action = st.one_of(*acts)
    event: st.SearchStrategy[Event] = st.one_of(
        st.builds(Decision, who, st.booleans()),
        st.builds(Turn, who, st.lists(action, min_size=1, max_size=4).map(tuple), st.none() | st.integers(0, 99)),
        st.builds(Force, who, who),
        st.just(Reshuffle()),
    )
    return _Parts(
        dealt=st.lists(who, unique=True, max_size=len(players)),
        deal=st.lists(cards, min_size=1, max_size=11).map(tuple),
        upcard=st.none() | cards,
        events=st.lists(event, max_size=12).map(tuple),
    )


_TAGS = st.lists(st.tuples(st.sampled_from(["Event", "Site", "Date", "Table"]), st.text(max_size=12)), max_size=3)


@st.composite
def scripts(draw: st.DrawFn) -> HandScript:
    game = draw(st.sampled_from([Game.PANGUINGUE, Game.PAGRUC]))
    players = tuple(draw(st.lists(st.sampled_from(NAMES), min_size=2, max_size=6, unique=True)))
    parts = _parts(game, players)
    deals = tuple(Deal(p, draw(parts.deal)) for p in draw(parts.dealt))
    ledger = None
    if draw(st.booleans()):
        ledger = LedgerClaim({p: draw(st.integers(-50, 50)) for p in players})
    tags = tuple(dict(draw(_TAGS)).items())
    return HandScript(
        players=players,
        profile=draw(st.sampled_from([HOYLE, CARDROOM])) if game is Game.PANGUINGUE else HOYLE,
        game=game,
        deals=deals,
        upcard=draw(parts.upcard),
        events=draw(parts.events),
        stake=draw(st.none() | st.sampled_from([Decimal("0.25"), Decimal("1"), Decimal("2.50")])),
        ledger_claim=ledger,
        tags=tags,
        packs=draw(st.none() | st.integers(1, 2)) if game is Game.PAGRUC else None,
    )


def _ok_tags(text: str) -> bool:
    return all(ch.isprintable() for ch in text)


@FAST
@given(scripts(), any_profile)
def test_write_script_then_read_gives_the_same_script(rules_folder: Path, script: HandScript, profile: Profile) -> None:
    assume(all(_ok_tags(v) for _, v in script.tags))  # tag values are one line of printable text
    if script.game is Game.PANGUINGUE:  # a profile of any knob values, read back from its file
        house = () if profile in (HOYLE, CARDROOM) else (("Rules", rules_name(profile, rules_folder)),)
        script = replace(script, profile=profile, tags=(*script.tags, *house))
    text = write_script(script)
    [hand] = read_hands(io.StringIO(text), "t.pan", rules_folder)
    assert hand.error is None, (hand.error, text)
    assert hand.script is not None
    assert hand.script.tags == tuple(script_tags(script))
    assert strip_places(replace(hand.script, tags=())) == strip_places(replace(script, tags=()))
    assert hand.text == text


@FAST
@given(st.lists(scripts(), min_size=1, max_size=3))
def test_several_hands_stream_back_in_order(many: list[HandScript]) -> None:
    # Only a tag line after play lines starts a hand (grammar/README-records.md), so a hand
    # of tags only cannot be told from the next hand's tags: each hand here has a play line.
    assume(all(s.deals or s.upcard is not None or s.events for s in many))
    many = [replace(s, tags=()) for s in many]
    text = "".join(write_scripts(many))
    hands = list(read_hands(io.StringIO(text), "t.pan"))
    assert [h.index for h in hands] == list(range(1, len(many) + 1))
    assert [strip_places(h.script).events for h in hands] == [strip_places(s).events for s in many]
    assert "".join(format_records(hands)) == text  # the writer's text is canonical


@FAST
@given(scripts())
def test_fast_path_reads_every_canonical_play_line(script: HandScript) -> None:
    script = replace(script, tags=())
    ctx = LineContext(script.game, frozenset(script.players), 1)
    for line in _play_lines(write_script(script)):
        blanked, _ = lex(line)
        assert fast_play(blanked, ctx) is not None, line


# --------------------------------------------------------------------------- differential


def _play_lines(text: str) -> list[str]:
    return text.partition("\n\n")[2].splitlines()


_JUNK = st.sampled_from([*list(" ,#[]!?.-5sSh8T0tox\t\xa0♠;"), "to", "from", "on", "meld", "10"])


def _mutate(draw: st.DrawFn, line: str) -> str:
    kind = draw(st.sampled_from(["keep", "insert", "delete", "replace", "upper", "spaces", "glue"]))
    if not line or kind == "keep":
        return line
    i = draw(st.integers(0, len(line) - 1))
    if kind == "insert":
        return line[:i] + draw(_JUNK) + line[i:]
    if kind == "delete":
        return line[:i] + line[i + 1 :]
    if kind == "replace":
        return line[:i] + draw(_JUNK) + line[i + 1 :]
    if kind == "upper":
        return line.upper()
    if kind == "spaces":
        return line.replace(" ", "  ", 1)
    return line.replace(", ", ",")


@st.composite
def play_lines(draw: st.DrawFn) -> tuple[HandScript, str]:
    script = replace(draw(scripts()), tags=())
    lines = _play_lines(write_script(script)) or ["Ana stay"]
    line = draw(st.sampled_from(lines))
    return script, _mutate(draw, line)


@pytest.mark.slow
@settings(max_examples=300)
@given(play_lines())
def test_fast_path_and_grammar_agree(case: tuple[HandScript, str]) -> None:
    script, line = case
    ctx = LineContext(script.game, frozenset(script.players), 3)
    try:
        blanked, _ = lex(line)
    except LexError:
        reject()  # not a line the lexer reads: neither path sees it
    fast = fast_play(blanked, ctx)
    try:
        slow: object = grammar_play(blanked, ctx)
    except NotationError as exc:
        assert fast is None, (line, exc)  # what the fast path reads, the grammar reads too
        assert exc.line == 3 and 1 <= exc.col <= len(line) + 1
        assert exc.code[0] in "RNE"
        return
    if fast is not None:
        assert fast == slow, line


# --------------------------------------------------------------------------- fmt with comments


@st.composite
def commented(draw: st.DrawFn) -> str:
    script = replace(draw(scripts()), tags=())
    out: list[str] = []
    for line in write_script(script).splitlines():
        if line and draw(st.integers(0, 4)) == 0:
            out.append(draw(st.sampled_from(["; a note", "{ a block\n  comment }", "{x} ;y"])))
        if line and not line.startswith("[") and draw(st.booleans()):
            words = line.split(" ")
            i = draw(st.integers(1, len(words)))
            words.insert(i, draw(st.sampled_from(["{c}", "{two words}", "!", "?!"])))
            line = " ".join(words)
        if line and draw(st.integers(0, 3)) == 0:
            line += "   ;  end "
        out.append(line)
    return "\n".join(out) + "\n"


@settings(max_examples=80)
@given(commented())
def test_fmt_is_idempotent_and_keeps_comments(text: str) -> None:
    hands = list(read_hands(io.StringIO(text), "t.pan"))
    once = "".join(format_records(hands))
    twice = "".join(format_records(read_hands(io.StringIO(once), "t.pan")))
    assert twice == once
    if all(h.error is None for h in hands):
        for comment in ("a note", "a block\n  comment", "two words", "end"):
            assert text.count(comment) == once.count(comment)
