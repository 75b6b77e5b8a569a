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
>>> last = HandResult(("Ana", "Ben", "Cy"), "Ben", (), {"Ana": -1, "Ben": 2, "Cy": -1})
>>> next_hand_violation(last, HandScript(players=("Ben", "Cy", "Ana"))) is None
True
>>> v = next_hand_violation(last, HandScript(players=("Cy", "Ana", "Ben"), first_line=12))
>>> str(v.rule), v.line, v.col, v.player
('S3', 12, 1, 'Cy')
>>> v.message
'Ben won the last hand and is first hand in this one: the order of play is Ben Cy Ana, not Cy Ana Ben'
>>> next_hand_violation(last, HandScript(players=("Dee", "Ben", "Cy"))).message
'Ben won the last hand and is first hand in this one (Ana left, Dee joined): the order of play starts with Ben, not Dee'
"""

from __future__ import annotations

from pancli.cards import Game
from pancli.decides import decides
from pancli.model.actions import HandScript
from pancli.model.results import Ending, HandResult, Violation
from pancli.model.rulings import Ruling
from pancli.rulebook import Rule


def next_hand_order(previous: HandResult) -> tuple[str, ...] | None:
    """The order of play S3 sets for the next hand with the same players (None: no winner).

    >>> from pancli.model.results import HandResult
    >>> next_hand_order(HandResult(("Ana", "Ben", "Cy", "Dee"), "Cy", (), {}))
    ('Cy', 'Dee', 'Ana', 'Ben')
    """
    winner = previous.winner
    if winner is None or winner not in previous.players:
        return None
    i = previous.players.index(winner)
    return previous.players[i:] + previous.players[:i]


@decides(Rule.S3, what="whether the last hand's winner is first hand in the next")
def next_hand_violation(previous: HandResult, script: HandScript) -> Violation | None:
    """The S3 violation of ``script`` as the hand after ``previous`` in a record, if any: the
    last winner, when he sits in this hand, is first hand (with the same players, the whole
    order of play follows from the last hand's)."""
    if script.game is not Game.PANGUINGUE:
        return None
    expected = next_hand_order(previous)
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
