"""The last restated rules, asked of the rules object: each caller here followed a comparison, a
bound or a shape of its own, and now asks :class:`pancli.panrules.PanRules`. Each test hands a
subclass that answers the question otherwise to the caller and requires the caller to follow it
(tests/test_one_rule_one_place.py holds the others)."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from pancli.cards import Card, Rank
from pancli.panrules import PanRules
from pancli.referee import referee_hand
from pancli.referee.simulate import inject, simulate_hands
from pancli.rules import HOYLE


class NoSevens(PanRules):
    """E1 with a pack that holds no 7s."""

    def copies_of(self, c: Card) -> int:
        return 0 if c.rank is Rank.SEVEN else super().copies_of(c)


def test_I1_self_play_s_injector_asks_the_caller_s_rules_object() -> None:
    """The eleventh card an injected I1 deals is one of the caller's pack (no 7 under NoSevens),
    and the place is the one its referee finds I1 at and nothing else."""
    rules = NoSevens(HOYLE)
    extras = []
    for seed in range(12):
        script = next(simulate_hands(("Ana", "Ben", "Cruz"), 1, seed, HOYLE, rules=rules))
        bad = inject(script, "I1-extra", random.Random(seed), rules)
        assert bad is not None
        extras += [c for d, e in zip(bad.deals, script.deals, strict=True) for c in d.cards[len(e.cards) :]]
        result = referee_hand(bad, rules=rules)
        assert not result.violations and len(result.remedies) == 1
    assert len(extras) == 12 and all(c.rank is not Rank.SEVEN for c in extras)
