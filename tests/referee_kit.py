"""Test helpers for the referee: HandScript values from short strings (tests only).

``act("meld 5s 5s 5s =4")`` is a MeldNew claiming 4; ``act("add 2d to 1")``,
``act("borrow 5c from 2")``, ``act("split 2 | 2c 3c 4c | 5c 5c 5c")``, ``act("out")``.
:func:`hand` numbers the play lines from line 10 (actions get the turn's line and their
position as column), so tests can check where a ruling points.
"""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal

from pancli.cards import Card
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
    LedgerClaim,
    MeldNew,
    Out,
    Reshuffle,
    Split,
    Take,
    Turn,
)
from pancli.notation.fast import fast_cards
from pancli.rules import HOYLE, Profile

FIRST_LINE = 10


def cards(text: str) -> tuple[Card, ...]:
    out = fast_cards(" ".join(text.split()))
    assert out is not None, text
    return out


def one(text: str) -> Card:
    (c,) = cards(text)
    return c


def _claim(words: list[str]) -> tuple[list[str], int | None]:
    if words and words[-1].startswith("="):
        return words[:-1], int(words[-1][1:])
    return words, None


def act(text: str) -> Action:
    verb, *rest = text.split()
    rest, claim = _claim(rest)
    if verb == "draw":
        return Draw(one(rest[0]))
    if verb == "take":
        return Take(one(rest[0]))
    if verb == "discard":
        return Discard(one(rest[0]))
    if verb == "meld":
        return MeldNew(cards(" ".join(rest)), claim=claim)
    if verb == "add":
        i = rest.index("to")
        return Add(cards(" ".join(rest[:i])), int(rest[i + 1]), claim=claim)
    if verb == "borrow":
        return Borrow(one(rest[0]), int(rest[2]))
    if verb == "split":
        target, first, second = " ".join(rest).split("|")
        return Split(int(target), cards(first), cards(second), claim=claim)
    if verb == "out":
        return Out()
    raise ValueError(text)


def T(player: str, *actions: str) -> Turn:
    """A turn line."""
    return Turn(player, tuple(act(a) for a in actions))


def stays(*decisions: str) -> list[Event]:
    """``stays("Ana", "Ben top", "Cruz")``: the decision round."""
    out: list[Event] = []
    for d in decisions:
        name, *word = d.split()
        out.append(Decision(name, not word or word[0] == "stay"))
    return out


def force(player: str, other: str) -> Force:
    return Force(player, other)


def reshuffle() -> Reshuffle:
    return Reshuffle()


def number(events: list[Event]) -> tuple[Event, ...]:
    """Give each play line a line number and each action its turn's line and a column."""
    out: list[Event] = []
    for k, ev in enumerate(events):
        line = FIRST_LINE + k
        if isinstance(ev, Turn):
            acts = tuple(replace(a, line=line, col=j + 1) for j, a in enumerate(ev.actions))
            out.append(replace(ev, actions=acts, line=line, col=1))
        else:
            out.append(replace(ev, line=line, col=1))
    return tuple(out)


def hand(
    deals: dict[str, str],
    events: list[Event],
    *,
    players: tuple[str, ...] | None = None,
    up: str | None = "4c",
    profile: Profile = HOYLE,
    ledger: dict[str, int] | None = None,
    stake: str | None = None,
) -> HandScript:
    """A hand: players default to the dealt players in order; ``events`` are numbered from line 10."""
    names = players if players is not None else tuple(deals)
    return HandScript(
        players=names,
        profile=profile,
        deals=tuple(Deal(p, cards(c), line=2 + k) for k, (p, c) in enumerate(deals.items())),
        upcard=one(up) if up else None,
        upcard_line=8,
        events=number(events),
        stake=Decimal(stake) if stake else None,
        ledger_claim=LedgerClaim(ledger, line=1) if ledger is not None else None,
        first_line=1,
    )
