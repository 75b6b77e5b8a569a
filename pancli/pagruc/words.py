"""The words of PAGRUC's rulings on the rules object's refusals (:mod:`pancli.refusals`): a
table at fault (G1), a card seen more often than the pack holds it (G1), a game whose deals are
not official (G8). The judges word their rulings with them, and render/ the same facts shown
outside a ruling (``pan score --packs``, ``pan live --players``): one sentence, one function
(docs/architecture.md, "Where words are made"). A module of its own, imported at the first
fault: a replay with none does without it (start-up).

>>> from pancli.pagruc.rules import PagrucRules
>>> table_words(PagrucRules().official_problem(2))
'fewer than 3 players is not an official round'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pancli.refusals import TableFault

if TYPE_CHECKING:
    from pancli.cards import Card
    from pancli.pagruc.pack import PagrucPack
    from pancli.refusals import DealsProblem, TableProblem


def table_words(problem: TableProblem) -> str:
    """What G1 says of a table at fault (``problem``, as the rules object answers it: the
    referee's G1 ruling, the standings, ``pan score --packs``, ``pan live --players``)."""
    fault, n, bound = problem.fault, problem.players, problem.bound
    if fault is TableFault.TOO_FEW:
        return f"a hand needs at least {bound} players, not {n}"
    if fault is TableFault.TOO_MANY:
        return f"at most {bound} players (with two packs), not {n}"
    if fault is TableFault.PACKS:
        return f"one or two 52-card packs, not {problem.packs}"
    if fault is TableFault.ONE_PACK_TOO_FEW:
        return f"{n} players need two packs; one pack is for 3 to {bound} players"
    if fault is TableFault.LISTED_TWICE:
        return f"a player is listed twice: {' '.join(problem.names)}"
    return f"fewer than {bound} players is not an official round"


def held_words(pack: PagrucPack, c: Card) -> str:
    """What G1 says of a card seen more often than ``pack`` holds it, as the end of a sentence
    (``... but one pack holds one 5h``): the G1 rulings' words.

    >>> from pancli.cards import card, Rank, Suit
    >>> from pancli.pagruc.pack import TWO_PACKS
    >>> held_words(TWO_PACKS, card(Rank.FIVE, Suit.HEARTS))
    'but two packs hold two 5h'
    """
    held = "one pack holds one" if pack.packs == 1 else "two packs hold two"
    return f"but {held} {c}"


def deals_words(problem: DealsProblem) -> str:
    """What G8 says of a game whose deals are not official (the rules object's answer ``problem``:
    :meth:`~pancli.pagruc.rules.PagrucRules.deals_problem`), as the standings' G8 problem.

    >>> from pancli.refusals import DealsProblem
    >>> deals_words(DealsProblem((("Ana", 2), ("Ben", 1)), False, 5))
    'every player deals the same number of times; deals: Ana 2, Ben 1'
    >>> deals_words(DealsProblem((("Ana", 6), ("Ben", 6)), True, 5))
    'each player dealt 6 times: at most 5 deals each'
    """
    if not problem.even:
        said = ", ".join(f"{p} {k}" for p, k in problem.deals)
        return f"every player deals the same number of times; deals: {said}"
    return f"each player dealt {problem.deals[0][1]} times: at most {problem.most} deals each"
