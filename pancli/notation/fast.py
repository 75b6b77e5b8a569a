"""The fast path: canonical (and simply-cased) card tokens by dictionary lookup.

PERF-NOTES.md: pyparsing reads about 10-50k melds/s; ``str.split`` plus dictionary
lookups of pre-built card objects reads over 1M. The fast path handles the common
forms and returns ``None`` for anything else, which then goes to the grammar of record
(:mod:`pancli.notation.grammar`) for shorthands and for the exact error.
"""

from __future__ import annotations

from typing import Final

from pancli.cards import ALL_CARDS, Card, Game

_SUIT_SPELLINGS: Final = {
    "s": "s", "S": "s", "♠": "s", "♤": "s",
    "h": "h", "H": "h", "♥": "h", "♡": "h",
    "d": "d", "D": "d", "♦": "d", "♢": "d",
    "c": "c", "C": "c", "♣": "c", "♧": "c",
}  # fmt: skip


def _token_table(game: Game) -> dict[str, Card]:
    table: dict[str, Card] = {}
    for c in ALL_CARDS:
        if game is Game.PANGUINGUE and not c.rank.in_pan_pack:
            continue
        syms = {c.rank.symbol, c.rank.symbol.lower()}
        if c.rank.symbol == "T":
            syms |= {"10"}
        for r in syms:
            for spelled, letter in _SUIT_SPELLINGS.items():
                if letter == c.suit.value:
                    table[r + spelled] = c
    return table


PAN_TOKENS: Final = _token_table(Game.PANGUINGUE)
"""Every accepted one-card token of Panguingue (``5s``, ``kH``, ``Q♥``) to its card."""
PAGRUC_TOKENS: Final = _token_table(Game.PAGRUC)
"""The same for PAGRUC's 52 cards (``10h`` and ``Th`` both mean the ten)."""


def fast_cards(text: str, game: Game = Game.PANGUINGUE) -> tuple[Card, ...] | None:
    """Cards of a space/comma separated list of single-card tokens, or None.

    None means "not this simple": the caller falls back to the grammar, which reads
    shorthands and reports errors.

    >>> fast_cards("5s 5S,5♠")
    (Card('5s'), Card('5s'), Card('5s'))
    >>> fast_cards("5sss") is None
    True
    """
    table = PAN_TOKENS if game is Game.PANGUINGUE else PAGRUC_TOKENS
    get = table.get
    out = []
    for tok in text.replace(",", " ").split():
        c = get(tok)
        if c is None:
            return None
        out.append(c)
    return tuple(out)
