"""Building PAGRUC HandScripts directly (no record reader) for the engine tests.

``turn("Ana", "draw 2s", "meld 5h 6h 7h", "lay 8h on Ben#1", "take 3", "discard Ks")``: one
action per string, cards as plain tokens (the notation's fast path).
"""

from __future__ import annotations

from pancli.cards import Card, Game
from pancli.model.actions import (
    Action,
    Add,
    Deal,
    Discard,
    Draw,
    Event,
    HandScript,
    Lay,
    LedgerClaim,
    MeldNew,
    Out,
    Take,
    TakeMany,
    Turn,
)
from pancli.notation.fast import fast_cards


def cards(text: str) -> tuple[Card, ...]:
    got = fast_cards(text, Game.PAGRUC)
    assert got is not None, text
    return got


def one(text: str) -> Card:
    (c,) = cards(text)
    return c


def action(text: str, line: int = 0) -> Action:
    kw, _, rest = text.partition(" ")
    if kw == "draw":
        return Draw(one(rest), line)
    if kw == "take":
        if rest.isdigit():
            return TakeMany(int(rest), (), line)
        got = cards(rest)
        return Take(got[0], line) if len(got) == 1 else TakeMany(len(got), got, line)
    if kw == "meld":
        return MeldNew(cards(rest), None, line)
    if kw == "lay":
        what, _, where = rest.partition(" on ")
        owner, _, n = where.partition("#")
        return Lay(cards(what), owner, int(n), line)
    if kw == "add":
        what, _, n = rest.partition(" to ")
        return Add(cards(what), int(n), None, line)
    if kw == "discard":
        return Discard(one(rest), line)
    if kw == "out":
        return Out(line)
    raise AssertionError(text)


def turn(player: str, *acts: str, line: int = 0) -> Turn:
    return Turn(player, tuple(action(a, line) for a in acts), line=line)


def script(
    players: str,
    deals: dict[str, str],
    up: str | None,
    *events: Event,
    packs: int | None = None,
    ledger: dict[str, int] | None = None,
) -> HandScript:
    names = tuple(players.split())
    return HandScript(
        players=names,
        game=Game.PAGRUC,
        deals=tuple(Deal(p, cards(t), line=i) for i, (p, t) in enumerate(deals.items(), 2)),
        upcard=None if up is None else one(up),
        events=tuple(events),
        packs=packs,
        ledger_claim=None if ledger is None else LedgerClaim(ledger, line=1),
        first_line=1,
    )


ANA = "5h 6h 7h Ac Ad As Ks"
BEN = "2c 3c 4c 5c 6c 7c 8c"
CY = "2d 3d 4d 9s 9h Qd Qc"
DEALS = {"Ana": ANA, "Ben": BEN, "Cy": CY}
"""A three-player deal (one pack) used by many tests; the up card is Kh."""
OPENING = (
    turn("Ana", "draw 2s", "meld 5h 6h 7h", "meld Ac Ad As", "discard Ks", line=10),
    turn("Ben", "draw Jh", "meld 2c 3c 4c 5c 6c 7c", "discard Jh", line=11),
    turn("Cy", "draw Jd", "meld 2d 3d 4d", "discard Jd", line=12),
)
"""Ana holds 2s, Ben 8c, Cy 9s 9h Qd Qc after these; the pile is Kh Ks Jh Jd (Jd on top)."""
