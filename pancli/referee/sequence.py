"""Between hands (S3): the winner of a hand is first hand in the next one.

A record lists each hand's players in order of play, the first hand first and the dealer
last (S1). When a hand has a winner who sits in the next hand of the same record, the next
hand lists him first; when it seats the same players, it lists them from the winner on, in
the same seating order (the player on the winner's left deals). When others left or joined,
only his place is known: first. A hand that breaks this is stopped before play, as any hand
is at its first violation: nothing is paid.

A winner who does not sit in the next hand, a hand with no winner (void, stopped by a
violation, unfinished) or a PAGRUC hand (G8 rules its deals) puts no constraint on the next.

>>> from pancli.model.actions import HandScript
>>> from pancli.model.results import HandResult
>>> from pancli.panrules import PanRules
>>> from pancli.rules import HOYLE
>>> rules = PanRules(HOYLE)
>>> last = HandResult(("Ana", "Ben", "Cy"), "Ben", (), {"Ana": -1, "Ben": 2, "Cy": -1})
>>> next_hand_violation(last, HandScript(players=("Ben", "Cy", "Ana")), rules) is None
True
>>> v = next_hand_violation(last, HandScript(players=("Cy", "Ana", "Ben"), first_line=12), rules)
>>> str(v.rule), v.line, v.col, v.player
('S3', 12, 1, 'Cy')
>>> v.message
'Ben won the last hand and is first hand in this one: the order of play is Ben Cy Ana, not Cy Ana Ben'
>>> next_hand_violation(last, HandScript(players=("Dee", "Ben", "Cy")), rules).message
'Ben won the last hand and is first hand in this one (Ana left, Dee joined): the order of play starts with Ben, not Dee'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pancli.cards import Game
from pancli.model.actions import HandScript
from pancli.model.results import Ending, HandResult, Violation
from pancli.model.rulings import Ruling
from pancli.rulebook import Rule

if TYPE_CHECKING:
    from pancli.panrules import PanRules


def next_hand_violation(previous: HandResult, script: HandScript, rules: PanRules) -> Violation | None:
    """The S3 violation of ``script`` as the hand after ``previous`` in a record, if any: the
    order ``rules`` sets (:meth:`.PanRules.next_order`), whole with the same players; when
    others left or joined, only its first hand is known."""
    if script.game is not Game.PANGUINGUE:
        return None
    expected = rules.next_order(previous.players, previous.winner)
    if expected is None or expected[0] not in script.players:
        return None
    if set(previous.players) == set(script.players):
        if script.players == expected:
            return None
        why = f"the order of play is {' '.join(expected)}, not {' '.join(script.players)}"
        message = f"{expected[0]} won the last hand and is first hand in this one: {why}"
    else:
        if script.players[0] == expected[0]:
            return None
        left = [p for p in previous.players if p not in script.players]
        joined = [p for p in script.players if p not in previous.players]
        moves = [f"{' '.join(left)} left" if left else "", f"{' '.join(joined)} joined" if joined else ""]
        why = f"the order of play starts with {expected[0]}, not {script.players[0]}"
        message = (
            f"{expected[0]} won the last hand and is first hand in this one ({', '.join(m for m in moves if m)}): {why}"
        )
    return Ruling.make(Rule.S3, script.players[0], message, line=script.first_line or 1, col=1).violation


def stopped_before_play(script: HandScript, violation: Violation) -> HandResult:
    """The result of a hand stopped before any play by ``violation``: nothing paid.

    >>> from pancli.model.actions import HandScript
    >>> from pancli.model.results import Violation
    >>> r = stopped_before_play(HandScript(players=("Ana", "Ben")), Violation("S3", 1, 1, "Ana", "x"))
    >>> r.winner, r.ledger, r.ok
    (None, {'Ana': 0, 'Ben': 0}, False)
    """
    return HandResult(
        players=script.players,
        winner=None,
        payments=(),
        ledger=dict.fromkeys(script.players, 0),
        violations=(violation,),
        ending=Ending.STOPPED,
        ending_rule=violation.rule,
        stake=script.stake,
    )
