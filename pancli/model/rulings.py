"""Rulings: what the rulebook prescribes when a rule is broken (RULES.md sections 2-6).

A referee check that fails raises :class:`Ruling`, which carries the
:class:`~pancli.model.results.Violation` (rule id, player, turn, place, message and
the prescribed ruling). :data:`PRESCRIBED` holds the rulebook's remedy for each rule.

>>> r = Ruling.make("P3", "Ana", "Ana takes Qd, a dead discard", line=7, col=10, turn=3)
>>> r.violation.rule, r.violation.line, r.violation.turn
('P3', 7, 3)
>>> r.violation.ruling.startswith("P3: a card discarded from a hand is dead")
True
"""

from __future__ import annotations

from typing import Final

from pancli.model.results import Violation

I1_AT_DEAL: Final = (
    "I1: more than 10 cards: the extras are removed to the dead cards; fewer: the hand is filled from the stock."
)
I2_FOUL: Final = (
    "I2: an illegal meld must be made good on demand; if the player cannot and has not yet discarded, he "
    "returns what it collected and goes on legally; if he has already discarded, he returns all his collections "
    "of the hand, his hand is dead, and he retires until the next deal, still paying others."
)

PRESCRIBED: Final[dict[str, str]] = {
    "S1": "S1: 2 to 15 players are seated, each under one name, in order of play (dealer last).",
    "S3": "S3: the winner of a hand is first hand in the next one; the player on his left deals.",
    "S2": "S2: ten cards are dealt to each player; the rest is the stock, whose top card is the upcard.",
    "T1": "T1: before play, in order of play, each player once either stays or goes on top.",
    "T3": "T3: a player who went on top takes no further part in the hand.",
    "T4": "T4: when all players but one have gone on top, he wins at once and no cards are played.",
    "P1": "P1: the player in turn begins his turn by drawing from the stock or taking the live discard.",
    "P2": "P2: the drawn card never joins the hand: it is used this turn, or (from the stock) discarded at once.",
    "P3": "P3: a card discarded from a hand is dead and can never be taken; a taken card is melded at once.",
    "P4": "P4: hand cards may be melded only in a turn in which the drawn or taken card is used.",
    "P5": "P5: a player who used his draw ends his turn by discarding one card from his hand; the discard ends it.",
    "P6": "P6: a player adds only to his own melds.",
    "P7": "P7: between turns hand plus melded cards is exactly 10; going out is the 11th card melded, no discard.",
    "P8": "P8: a forced live discard must be taken and added to the player's meld; it replaces his draw.",
    "P9": "P9: the player keeps a stock draw that fits the flat next player's melds and discards a hand card.",
    "P10": "P10: an empty stock is rebuilt from the dead discards; with no card left the hand is void.",
    "M6": "M6: borrow one card off a rope end or a set of 4+ to complete a new meld this turn; value may not drop.",
    "C7": "C7: a change that would lower a meld's value is not allowed.",
    "E1": "E1: the pack holds A 2 3 4 5 6 7 J Q K only.",
    "E4": "E4: no card appears more times than the pack holds, wherever the copies are.",
    "I1": I1_AT_DEAL,
    "I2": I2_FOUL,
    "I3": "I3: once the going-out payment is made the hand is closed; nothing is heard after.",
}
"""The rulebook's prescription for each rule id a violation can cite."""


def counted(n: int, noun: str) -> str:
    """``n`` and ``noun`` in the right number, for violation messages.

    >>> counted(1, "meld"), counted(0, "card"), counted(16, "player")
    ('1 meld', '0 cards', '16 players')
    """
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


class Ruling(Exception):
    """A rule broken: raised by a verify step, caught by the referee loop."""

    def __init__(self, violation: Violation) -> None:
        super().__init__(f"{violation.rule} {violation.message}")
        self.violation = violation

    @classmethod
    def make(
        cls,
        rule: str,
        player: str | None,
        message: str,
        *,
        line: int = 0,
        col: int = 0,
        turn: int = 0,
        ruling: str | None = None,
    ) -> Ruling:
        """A ruling citing ``rule``; ``ruling`` defaults to the rulebook's prescription.

        A ruling on a whole line (a tag, say) with no column is placed at its column 1.
        """
        text = PRESCRIBED.get(rule, "") if ruling is None else ruling
        return cls(Violation(rule, line, col or (1 if line else 0), player, message, text, turn))
