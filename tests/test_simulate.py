"""The self-play generator: seeded, complete and legal hands that follow the documented policy."""

from __future__ import annotations

from collections import Counter

import pytest

from pancli.model.actions import Decision, Discard, Draw, Force, Take, Turn
from pancli.referee import referee_hand
from pancli.referee.simulate import simulate_hands
from pancli.rules import CARDROOM, HOYLE

SIX = ("Ana", "Ben", "Cruz", "Dee", "Eve", "Fay")


def test_identical_seeds_give_identical_scripts() -> None:
    a = list(simulate_hands(SIX, 5, seed=42, profile=HOYLE))
    b = list(simulate_hands(SIX, 5, seed=42, profile=HOYLE))
    c = list(simulate_hands(SIX, 5, seed=43, profile=HOYLE))
    assert a == b
    assert a != c


@pytest.mark.parametrize("profile", [HOYLE, CARDROOM], ids=["hoyle", "cardroom"])
@pytest.mark.parametrize("n", [2, 4, 9, 15])
def test_hands_are_complete_and_legal(profile: object, n: int) -> None:
    players = tuple(f"P{i}" for i in range(n))
    for s in simulate_hands(players, 8, seed=n, profile=profile):  # type: ignore[arg-type]
        assert s.profile is profile and set(s.players) == set(players)
        assert [d.player for d in s.deals] == list(s.players) and all(len(d.cards) == 10 for d in s.deals)
        assert [e.player for e in s.events[:n] if isinstance(e, Decision)] == list(s.players)
        r = referee_hand(s)
        assert r.ok, r.violations
        assert r.winner is not None or r.void


def test_policy_exercises_forcing_and_the_flat_rule() -> None:
    seen: Counter[str] = Counter()
    for profile in (HOYLE, CARDROOM):
        for s in simulate_hands(SIX[:4], 60, seed=9, profile=profile):
            for e in s.events:
                if isinstance(e, Force):
                    seen[f"force-{profile.name}"] += 1
                elif isinstance(e, Turn):
                    first, last = e.actions[0], e.actions[-1]
                    if isinstance(first, Take):
                        seen["take"] += 1
                    if isinstance(first, Draw) and isinstance(last, Discard) and len(e.actions) == 2:
                        seen["keep-P9" if first.card != last.card else "draw-discard"] += 1
            seen["top"] += sum(1 for e in s.events if isinstance(e, Decision) and not e.stay)
    assert seen["force-hoyle"] > 0 and seen["force-cardroom"] == 0
    assert seen["keep-P9"] > 0 and seen["take"] > 0 and seen["top"] > 0


def test_bad_seating_is_refused() -> None:
    with pytest.raises(ValueError, match="2 to 15"):
        next(simulate_hands(("Ana",), 1, seed=1, profile=HOYLE))
    with pytest.raises(ValueError, match="unique"):
        next(simulate_hands(("Ana", "Ana"), 1, seed=1, profile=HOYLE))
