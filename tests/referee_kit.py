"""Test helpers for the referee: hands written as real ``.pan`` text, read by the record reader.

``T("Ana", "draw 5s", "meld [5s 5s 5s] {[%pays 4]}", "discard 7d")`` is the play line
``Ana draw 5s, meld [5s 5s 5s] {[%pays 4]}, discard 7d``; :func:`stays`, :func:`force` and
:func:`reshuffle` write the other play lines. :func:`hand` writes the whole record (tags, deal
lines, the up line, then the play lines in order) and reads it with
:func:`pancli.records.read_hands`, so a test's hand is exactly what a record file would give,
with the places (line, column) a ruling points to in that text: the tags are lines 1-3, the
deals follow a blank line, and the play lines come after the up line.

>>> script = hand({"Ana": "5s 5s 3h 4h Kd Kh Kc 2c 7d Jc", "Ben": "2d 2d 6c Jd Jd Qs 4s 4s 6h 7c"},
...               [*stays("Ana", "Ben"), T("Ana", "draw 5s", "meld [5s 5s 5s] {[%pays 4]}", "discard 7d")])
>>> print(record_text(script))
[Players "Ana Ben"]
<BLANKLINE>
deal Ana 5s 5s 3h 4h Kd Kh Kc 2c 7d Jc
deal Ben 2d 2d 6c Jd Jd Qs 4s 4s 6h 7c
up 4c
Ana stay
Ben stay
Ana draw 5s, meld [5s 5s 5s] {[%pays 4]}, discard 7d
>>> turn = script.events[-1]
>>> (turn.line, turn.actions[1].col, turn.actions[1].claim)
(8, 14, 4)
"""

from __future__ import annotations

import io
from collections.abc import Iterable

from msgspec.structs import replace

from pancli.cards import Card, Game
from pancli.model.actions import Event, HandScript
from pancli.notation.fast import fast_cards
from pancli.notation.layout import RecordHand
from pancli.notation.record_common import LineContext, PlayItem, lex
from pancli.notation.record_fast import fast_play
from pancli.notation.record_grammar import grammar_play
from pancli.notation.record_writer import item_text
from pancli.records import read_hands
from pancli.rules import HOYLE, Profile


def cards(text: str) -> tuple[Card, ...]:
    """The cards of a hand text (one-card tokens: ``5s 5s 3h``)."""
    out = fast_cards(" ".join(text.split()))
    assert out is not None, text
    return out


def one(text: str) -> Card:
    """One card."""
    (c,) = cards(text)
    return c


def T(player: str, *actions: str) -> str:
    """A turn line: ``player`` and the actions, as written in a record."""
    return f"{player} {', '.join(actions)}"


def stays(*decisions: str) -> list[str]:
    """``stays("Ana", "Ben top", "Cruz")``: the decision lines (``stay`` unless ``top`` is given)."""
    return [d if " " in d else f"{d} stay" for d in decisions]


def force(player: str, other: str) -> str:
    """A force line (P8)."""
    return f"{player} force {other}"


def reshuffle() -> str:
    """A reshuffle line (P10)."""
    return "reshuffle"


def line_item(text: str, players: Iterable[str], line: int = 1) -> PlayItem:
    """One play line read alone (by the fast reader, else the grammar of record), at ``line``.
    Comments (and so ``[%pays N]`` claims) are not read here: :func:`hand` reads those."""
    ctx = LineContext(Game.PANGUINGUE, frozenset(players), line)
    blanked = lex(text)[0]
    got = fast_play(blanked, ctx) or grammar_play(blanked, ctx)
    return got[0]


def record(
    deals: dict[str, str],
    events: Iterable[str | Event],
    *,
    players: tuple[str, ...] | None = None,
    up: str | None = "4c",
    ledger: dict[str, int] | None = None,
    stake: str | None = None,
) -> str:
    """The ``.pan`` text of one hand; ``events`` are play lines (text, or values written by the
    canonical writer with their claims)."""
    names = players if players is not None else tuple(deals)
    lines = [f'[Players "{" ".join(names)}"]']
    if ledger is not None:
        lines.append(f'[Ledger "{" ".join(f"{p} {u:+d}" for p, u in ledger.items())}"]')
    if stake is not None:
        lines.append(f'[Stake "{stake}"]')
    lines.append("")
    lines += [f"deal {p} {c}" for p, c in deals.items()]
    if up:
        lines.append(f"up {up}")
    lines += [e if isinstance(e, str) else item_text(e, claims=True) for e in events]
    return "\n".join(lines) + "\n"


def read_one(text: str, name: str = "kit.pan") -> RecordHand:
    """The one hand of a record text (it must read cleanly)."""
    [h] = read_hands(io.StringIO(text), name)
    assert h.error is None and h.script is not None, h.error
    return h


def hand(
    deals: dict[str, str],
    events: Iterable[str | Event],
    *,
    players: tuple[str, ...] | None = None,
    up: str | None = "4c",
    profile: Profile = HOYLE,
    ledger: dict[str, int] | None = None,
    stake: str | None = None,
) -> HandScript:
    """A hand as the reader gives it: players default to the dealt players in order; ``profile``
    replaces the record's (``hoyle``: no Rules tag), since a test profile may have no name."""
    text = record(deals, events, players=players, up=up, ledger=ledger, stake=stake)
    script = read_one(text).script
    assert script is not None
    return script if profile is HOYLE else replace(script, profile=profile)


def record_text(script: HandScript) -> str:
    """The canonical text of a script (for doctests and failure messages)."""
    from pancli.notation.record_writer import write_script

    return write_script(script).rstrip("\n")
