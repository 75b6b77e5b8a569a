"""Placeholder until the pyparsing grammar of record lands (issue 2, notation part)."""

from __future__ import annotations

from pancli.cards import Card, Game
from pancli.notation.errors import NotationError


def parse_meld_text(text: str, game: Game = Game.PANGUINGUE) -> tuple[Card, ...]:
    """Not yet implemented beyond the fast path."""
    raise NotationError("N1", f"cannot read {text!r}", 1)
