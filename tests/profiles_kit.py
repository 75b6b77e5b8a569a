"""Profiles built from every knob value (tests only): the fast-versus-plain and property
tests of the referee run over these, not only the built-in profiles, so a new knob value is
exercised on every path. :data:`KNOB_VALUES` names a strategy for each knob of
:class:`~pancli.rules.Profile`; a test keeps it complete.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from hypothesis import strategies as st

from pancli.cards import Card
from pancli.melds import Meld, MeldError, grow
from pancli.notation.houserules import profile_to_toml
from pancli.rules import CARDROOM, HOYLE, ConditionRate, Forcing, Profile, SetGrowth

_RATES = st.builds(
    ConditionRate,
    base=st.integers(0, 4),
    spades=st.integers(0, 8),
    extra=st.integers(0, 2),
    extra_spades=st.integers(0, 4),
)

KNOB_VALUES: dict[str, st.SearchStrategy[object]] = {
    "name": st.just("house"),
    "packs": st.integers(5, 11),  # the rulebook's ranges (E1), which a house-rules file accepts
    "spade_suits_removed": st.integers(0, 1),
    "ante": st.integers(0, 2),
    "forfeit": st.integers(0, 3),
    "out_bonus": st.integers(0, 3),
    "forcing": st.sampled_from(Forcing),
    "flat_rule": st.booleans(),
    "mixed_set_growth": st.sampled_from(SetGrowth),
    "borrowing": st.booleans(),
    "conditions": st.one_of(st.just(HOYLE.conditions), st.tuples(*[_RATES] * 5)),
}
"""A strategy of values for each knob (``name`` only labels the profile)."""

any_profile: st.SearchStrategy[Profile] = st.one_of(
    st.sampled_from([HOYLE, CARDROOM]),
    st.builds(Profile, **KNOB_VALUES),  # type: ignore[arg-type]
)
"""The built-in profiles and profiles of any knob values."""


def rules_name(profile: Profile, folder: Path) -> str:
    """What ``--rules`` (or a ``Rules`` tag) says for ``profile``: a built-in profile's name, or
    the name of a house-rules file of its knobs written into ``folder`` (named by its text). A
    record names its house-rules file inside its own folder, and ``pan simulate`` refuses one
    outside the current directory: run ``pan`` in ``folder`` (``contextlib.chdir``)."""
    if profile in (HOYLE, CARDROOM):
        return profile.name
    text = profile_to_toml(profile)
    path = folder / f"house-{hashlib.sha256(text.encode()).hexdigest()[:16]}.toml"
    if not path.exists():
        path.write_text(text, encoding="utf-8")
    return path.name


def can_add(meld: Meld, c: Card, profile: Profile) -> bool:
    """Whether the engine lets one card be added to ``meld`` (M5, with C7 and E4): ``grow`` asked."""
    try:
        grow(meld, (c,), profile)
    except MeldError:
        return False
    return True
