"""How a hand ends is one vocabulary: the rules object answers with :class:`HandEnd` (the values of
the results' :class:`~pancli.model.results.Ending`), never with strings its callers compare."""

from __future__ import annotations

import pytest

from pancli.model.results import Ending
from pancli.panrules import HandEnd, PanRules
from pancli.rules import CARDROOM, HOYLE, Profile


@pytest.mark.parametrize("profile", [HOYLE, CARDROOM], ids=["hoyle", "cardroom"])
def test_I3_T4_the_rules_object_answers_how_a_hand_ends_with_HandEnd(profile: Profile) -> None:
    rules = PanRules(profile)
    answers = [rules.after_decisions(n) for n in range(4)]
    answers += [rules.ending(a, hand, dead) for a in (0, 1, 3) for hand in (None, 0, 2) for dead in (None, 0, 5)]
    assert {a for a in answers if a is not None} == set(HandEnd)
    assert all(a is None or type(a) is HandEnd for a in answers)
    assert rules.after_decisions(3) is None and rules.after_decisions(1) is HandEnd.TOPS
    assert rules.ending(3, hand=0) is HandEnd.OUT and rules.ending(3, dead_discards=0) is HandEnd.VOID


def test_each_hand_end_is_recorded_as_the_ending_of_its_value() -> None:
    assert {Ending(e.value) for e in HandEnd} == {Ending.OUT, Ending.TOPS, Ending.VOID}
