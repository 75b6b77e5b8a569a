"""Text to engine objects and back: the notation of cards, melds, hands and records.

``parse_meld`` and friends try the hand-written fast path first and fall back to the
pyparsing grammar of record for shorthands and precise errors.

>>> [str(c) for c in parse_meld("5sss")]
['5s', '5s', '5s']
>>> parse_meld("8h 8h 8h")
Traceback (most recent call last):
...
pancli.notation.errors.NotationError: 1:1: E1 8h is not in a Panguingue pack (no 8, 9 or 10)
"""

from __future__ import annotations

from pancli.cards import Card, Game
from pancli.notation.errors import NotationError
from pancli.notation.fast import fast_cards

__all__ = ["NotationError", "parse_meld"]


def parse_meld(text: str, game: Game = Game.PANGUINGUE) -> tuple[Card, ...]:
    """The cards of one meld literal (lists, ``5s5s5s``, ``5sss``, ``3-5h``)."""
    got = fast_cards(text, game)
    if got is not None:
        return got
    from pancli.notation.grammar import parse_meld_text

    return parse_meld_text(text, game)
