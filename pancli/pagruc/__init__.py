"""PAGRUC, the second game (docs/rules.md, rules G1-G9): a rummy game with its own scoring.

The engine only: values in, values out; no text. :mod:`~pancli.pagruc.pack` (G1 packs),
:mod:`~pancli.pagruc.melds` (G4 melds, G7 card points), :mod:`~pancli.pagruc.scoring`
(G7 hand scores), :mod:`~pancli.pagruc.rules` (the rules object the referee, the meld check and
the scorer ask), :mod:`~pancli.pagruc.referee` (G1-G7 over a HandScript: its :mod:`~pancli.pagruc.judges`,
one per rule, read the :mod:`~pancli.pagruc.board`) and
:mod:`~pancli.pagruc.standings` (G8 official games, G9 PAGRUC points).

>>> from pancli.pagruc import judge, TWO_PACKS
>>> from pancli.cards import card, Rank, Suit
>>> judge([card(Rank.KING, s) for s in (Suit.SPADES, Suit.HEARTS, Suit.CLUBS)], TWO_PACKS).points
30
"""

from __future__ import annotations

from pancli.pagruc.melds import PagrucKind, PagrucMeld, PagrucVerdict, Where, card_points, judge, lay_off
from pancli.pagruc.pack import ONE_PACK, TWO_PACKS, PagrucPack, pack_for
from pancli.pagruc.rules import PagrucRules
from pancli.pagruc.scoring import CardScore, HandScore

__all__ = [
    "ONE_PACK",
    "TWO_PACKS",
    "CardScore",
    "HandScore",
    "PagrucKind",
    "PagrucMeld",
    "PagrucPack",
    "PagrucRules",
    "PagrucVerdict",
    "Where",
    "card_points",
    "judge",
    "lay_off",
    "pack_for",
]
