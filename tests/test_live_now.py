"""What ``pan live`` says may come next, read from the referee's position (``TableNow``): how a
void hand ended (T4 or P10, as the table recorded it), whether a reshuffle voids the hand (P10),
and the completion offering only what the position allows (P8)."""

from __future__ import annotations

import io
from pathlib import Path
from types import SimpleNamespace
from typing import cast

from live_kit import PLAYERS
from msgspec.structs import replace

from pancli.app.live import LiveOptions, Session
from pancli.model.actions import HandScript
from pancli.records import read_hands
from pancli.referee.position import now_of, table_now
from pancli.referee.table import Table
from pancli.render.live import candidates, now_text
from pancli.rulebook import Rule
from pancli.rules import Ending

SAMPLES = Path(__file__).resolve().parent.parent / "samples"

DEALT = """[Players "Ana Ben Cruz"]

deal Ana 5s 5s 3h 4h Kd Kh Kc Jc Qc 2d
up 6h
Ana stay
Ben stay
Cruz stay
"""


def _script(text: str) -> HandScript:
    (hand,) = list(read_hands(io.StringIO(text), "case.pan"))
    assert hand.script is not None
    return hand.script


def test_T4_a_hand_everybody_left_says_its_own_rule() -> None:
    hands = list(read_hands(io.StringIO((SAMPLES / "cardroom-tops-and-borrowing.pan").read_text()), "s.pan"))
    script = hands[1].script
    assert script is not None
    now = table_now(script)
    assert (now.over, now.ending, now.ending_rule) == (True, Ending.VOID, Rule.T4)
    assert now_text(now) == "the hand is void (T4)"  # it said "(T4, P10)" whatever ended it


def _played(text: str) -> Table:
    script = _script(text)
    table = Table(script, record_steps=False)
    assert table.deal_in()
    for ev in script.events:
        table.push(ev)
    return table


def test_P10_an_empty_stock_with_no_dead_discard_voids_the_hand_at_the_reshuffle() -> None:
    table = _played(DEALT)
    table.stock_n = 0  # the stock drawn out: only the upcard lies on the pile
    now = now_of(table)
    assert now.reshuffle and now.reshuffle_voids
    assert now_text(now) == "the stock is empty and no dead discard is left: the reshuffle voids the hand (P10)"
    more = _played(DEALT + "Ana draw 2d, discard 2d\n")
    more.stock_n = 0
    now = now_of(more)
    assert now.reshuffle and not now.reshuffle_voids  # the upcard is a dead discard now
    assert now_text(now) == "the stock is empty: reshuffle (P10), then Ben draws"


def test_P8_completion_offers_a_force_only_to_a_player_who_may_force() -> None:
    script = _script(DEALT)
    now = table_now(script)
    assert now.forcers == ()  # nobody has a meld the live 6h fits
    session = cast(Session, SimpleNamespace(now=now, players=tuple(script.players)))
    assert candidates(session, "Cruz force ") == []  # it offered every other player


def test_P8_completion_offers_only_take_when_the_take_is_forced(tmp_path: Path) -> None:
    s = Session(str(tmp_path / "n.pan"), LiveOptions(PLAYERS.split(), stake="0.25"))
    s.open()
    try:
        for x in ["deal Ana 5s 5s 3h 4h Kd Kh Kc Jc Qc 2d", "up 6h", "Ana stay", "Ben stay", "Cruz stay", "Dee stay"]:
            s.enter(x)
        assert candidates(s, "Ana ") == ["draw", "take"]
        assert s.now is not None
        forced = cast(Session, SimpleNamespace(now=replace(s.now, must_take=-1), players=s.players))
        assert candidates(forced, "Ana ") == ["take"]  # drawing instead breaks P8
        none = cast(Session, SimpleNamespace(now=replace(s.now, live=None), players=s.players))
        assert candidates(none, "Ana ") == ["draw"]  # no live discard to take
    finally:
        s.close()


def test_P2_P3_P5_completion_after_discard_offers_what_the_table_allows(tmp_path: Path) -> None:
    """After ``discard`` the completion asks the referee's table about the line as written so
    far: the unused draw alone (P2), nothing while a taken card waits to be melded (P3), the
    hand cards after a meld (P5); a line the table refuses falls back to the known hand."""
    s = Session(str(tmp_path / "n.pan"), LiveOptions(PLAYERS.split(), stake="0.25"))
    s.open()
    try:
        for x in ["deal Ana 5s 5s 3h 4h Kd Kh Kc Jc Qc 2d", "up 6h", "Ana stay", "Ben stay", "Cruz stay", "Dee stay"]:
            s.enter(x)
        hand = ["5s", "3h", "4h", "Kd", "Kh", "Kc", "Jc", "Qc", "2d"]
        assert candidates(s, "Ana draw 5s, discard ") == ["5s"]  # it offered every hand card
        assert candidates(s, "Ana take 6h, discard ") == []
        after = candidates(s, "1. Ana draw 5s, meld [5s 5s 5s], discard J")
        assert sorted(after) == sorted(c for c in hand if c != "5s")
        assert sorted(candidates(s, "Ana draw 9s, discard ")) == sorted(hand)  # E1: the table cannot say
        assert s.lines_of_hand[-1] == "Dee stay" and s.now is not None and s.now.to_act == "Ana"  # nothing played
    finally:
        s.close()
