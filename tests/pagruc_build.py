"""PAGRUC HandScripts for the engine tests, their play lines written as real ``.pan`` text.

``turn("Ana", "draw 2s", "meld [5h 6h 7h]", "lay 8h on Ben#1", "take 3", "discard Ks")`` is the
play line ``Ana draw 2s, meld [5h 6h 7h], lay 8h on Ben#1, take 3, discard Ks`` read by the
record reader's line reader; :func:`script` puts the deal, the up card and such turns together.
"""

from __future__ import annotations

from pancli.cards import Card, Game
from pancli.model.actions import Deal, Event, HandScript, LedgerClaim, Turn
from pancli.notation.fast import fast_cards
from pancli.notation.record_common import LineContext, lex
from pancli.notation.record_fast import fast_play
from pancli.notation.record_grammar import grammar_play


def cards(text: str) -> tuple[Card, ...]:
    got = fast_cards(text, Game.PAGRUC)
    assert got is not None, text
    return got


def one(text: str) -> Card:
    (c,) = cards(text)
    return c


NAMES = frozenset({"Ana", "Ben", "Cy", "Dee", *(f"P{i}" for i in range(10))})
"""The players the tests seat (a play line may name any of them: ``lay 8h on Ben#1``)."""


def turn(player: str, *acts: str, line: int = 1) -> Turn:
    """The turn of the ``.pan`` play line ``player act, act, ...`` (``meld [5h 6h 7h]``,
    ``lay 8h on Ben#1``, ``add 8c to #1``, ``take 3``), read as the record reader reads it at
    file line ``line``."""
    text = f"{player} {', '.join(acts)}"
    ctx = LineContext(Game.PAGRUC, NAMES, line)
    blanked = lex(text)[0]
    got = fast_play(blanked, ctx) or grammar_play(blanked, ctx)
    event = got[0]
    assert isinstance(event, Turn), text
    return event


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
    turn("Ana", "draw 2s", "meld [5h 6h 7h]", "meld [Ac Ad As]", "discard Ks", line=10),
    turn("Ben", "draw Jh", "meld [2c 3c 4c 5c 6c 7c]", "discard Jh", line=11),
    turn("Cy", "draw Jd", "meld [2d 3d 4d]", "discard Jd", line=12),
)
"""Ana holds 2s, Ben 8c, Cy 9s 9h Qd Qc after these; the pile is Kh Ks Jh Jd (Jd on top)."""
