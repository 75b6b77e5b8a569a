"""The rule -> deciding function registry: for each rule that more than one part of ``pan``
asks about, the one function that decides it. The referee's judges, the analyzer, the check
and pay batches and self-play all ask these functions and never restate the rule;
tests/test_one_rule_one_place.py changes each function and requires every caller to follow.

The judges that rule on a hand (``flat_player_fault`` raises the P9 ruling) are listed in the tables of
:mod:`pancli.referee.table`; the functions here decide the question such a judge, and the
other callers, ask.

>>> DECIDERS[Rule.P9].__name__
'must_keep_draw'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Final

from pancli.cards import past_the_pack
from pancli.melds import going_out_value, grow, judge, keeps_value
from pancli.referee.forcing import must_keep_draw, must_take
from pancli.rulebook import Rule
from pancli.rules import seating_fault, ten_fault

DECIDERS: Final[Mapping[Rule, Callable[..., object]]] = MappingProxyType(
    {
        Rule.S1: seating_fault,  # how many players a table seats
        Rule.E2: judge,  # aces low, no wrapping past the king
        Rule.E4: past_the_pack,  # no more copies of a card than the pack holds
        Rule.M1: judge,  # a meld is three cards or more
        Rule.M2: judge,  # a rope: one suit, unbroken rank order
        Rule.M3: judge,  # a set: one rank, one suit or all different suits
        Rule.M4: judge,  # aces and kings mix suits
        Rule.M5: grow,  # what adding cards to a meld makes
        Rule.C7: keeps_value,  # a change never lowers a meld's value
        Rule.C8: going_out_value,  # what going out collects
        Rule.P7: ten_fault,  # ten cards between turns
        Rule.P8: must_take,  # a live discard that must be taken
        Rule.P9: must_keep_draw,  # an unused draw kept for a flat next player
    }
)
"""Rule -> the function that decides it (a function may decide several rules: the meld engine's
:func:`~pancli.melds.judge` decides M1-M4 and E2 together, in its order)."""
