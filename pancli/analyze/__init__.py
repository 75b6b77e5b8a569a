"""The hand analyzer: best arrangement, draw table, odds, stay-or-top advice.

Engine layer: imports only cards, melds and rules (never notation, click or rich).
"""

from __future__ import annotations

from pancli.analyze.arrange import Arrangement, HandContext, Placed, best_arrangement

__all__ = ["Arrangement", "HandContext", "Placed", "best_arrangement"]
