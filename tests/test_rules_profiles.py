"""Profiles and their knobs (docs/rules.md, profiles and knobs), house-rules mappings and TOML files."""

from __future__ import annotations

import pytest

from pancli.notation.houserules import profile_from_toml
from pancli.rules import (
    CARDROOM,
    DEFAULT_TABLE,
    HOYLE,
    Condition,
    ConditionRate,
    Forcing,
    HouseRulesError,
    SetGrowth,
    builtin_profile,
    profile_from_mapping,
)


def test_section9_hoyle_knobs() -> None:
    k = HOYLE.knobs()
    assert (k["packs"], k["spade_suits_removed"], k["ante"], k["forfeit"], k["out_bonus"]) == (8, 0, 0, 2, 1)
    assert (k["forcing"], k["flat_rule"], k["mixed_set_growth"], k["borrowing"]) == (
        "demand",
        True,
        "missing_suit",
        False,
    )


def test_section9_cardroom_knobs() -> None:
    k = CARDROOM.knobs()
    assert (k["packs"], k["spade_suits_removed"], k["ante"], k["forfeit"], k["out_bonus"]) == (8, 1, 1, 0, 2)
    assert (k["forcing"], k["flat_rule"], k["mixed_set_growth"], k["borrowing"]) == (
        "automatic",
        True,
        "missing_suit",
        True,
    )


def test_section5_conditions_table_in_both_profiles() -> None:
    want = {
        "C1": {"base": 1, "spades": 1, "extra": 1, "extra_spades": 1},
        "C2": {"base": 2, "spades": 4, "extra": 1, "extra_spades": 2},
        "C3": {"base": 1, "spades": 2, "extra": 1, "extra_spades": 2},
        "C4": {"base": 1, "spades": 2, "extra": 1, "extra_spades": 2},
        "C5": {"base": 1, "spades": 2, "extra": 1, "extra_spades": 2},
    }
    assert HOYLE.knobs()["conditions"] == want == CARDROOM.knobs()["conditions"]
    assert HOYLE.rate(Condition.C2) == ConditionRate(2, 4, 1, 2)


def test_knobs_cover_every_field_of_a_profile() -> None:
    assert set(HOYLE.knobs()) == {
        "name", "packs", "spade_suits_removed", "ante", "forfeit", "out_bonus",
        "forcing", "flat_rule", "mixed_set_growth", "borrowing", "conditions",
    }  # fmt: skip


def test_builtin_profile_by_name_case_insensitive() -> None:
    assert builtin_profile("HOYLE") is HOYLE
    with pytest.raises(HouseRulesError) as err:
        builtin_profile("vegas")
    assert err.value.key == "base"


def test_every_knob_can_be_set() -> None:
    p = profile_from_mapping(
        {
            "name": "friday",
            "packs": 6,
            "spade_suits_removed": 1,
            "ante": 2,
            "forfeit": 3,
            "out_bonus": 4,
            "forcing": "automatic",
            "flat_rule": False,
            "mixed_set_growth": "any",
            "borrowing": True,
            "conditions": {"C3": {"base": 2}},
        }
    )
    assert (p.name, p.packs, p.spade_suits_removed, p.ante, p.forfeit, p.out_bonus) == ("friday", 6, 1, 2, 3, 4)
    assert (p.forcing, p.flat_rule, p.mixed_set_growth, p.borrowing) == (Forcing.AUTOMATIC, False, SetGrowth.ANY, True)
    assert p.rate(Condition.C3) == ConditionRate(2, 2, 1, 2)
    assert p.rate(Condition.C2) == DEFAULT_TABLE[1]
    assert p.pack.size == 6 * 40 - 10


def test_base_profile_then_overrides_and_the_derived_name() -> None:
    p = profile_from_mapping({"base": "cardroom", "out_bonus": 3})
    assert (p.name, p.out_bonus, p.borrowing) == ("cardroom+house", 3, True)
    assert profile_from_mapping({"base": "cardroom"}) == CARDROOM


@pytest.mark.parametrize(
    ("data", "key"),
    [
        ({"out_bonsu": 3}, "out_bonsu"),
        ({"packs": 4}, "packs"),
        ({"packs": 12}, "packs"),
        ({"packs": "8"}, "packs"),
        ({"packs": True}, "packs"),
        ({"spade_suits_removed": 2}, "spade_suits_removed"),
        ({"ante": -1}, "ante"),
        ({"flat_rule": "yes"}, "flat_rule"),
        ({"borrowing": 1}, "borrowing"),
        ({"forcing": "sometimes"}, "forcing"),
        ({"mixed_set_growth": "none"}, "mixed_set_growth"),
        ({"base": "vegas"}, "base"),
        ({"base": 3}, "base"),
        ({"name": ""}, "name"),
        ({"conditions": 3}, "conditions"),
        ({"conditions": {"C9": {"base": 1}}}, "conditions.C9"),
        ({"conditions": {"C2": 4}}, "conditions.C2"),
        ({"conditions": {"C2": {"bse": 1}}}, "conditions.C2.bse"),
        ({"conditions": {"C2": {"spades": -4}}}, "conditions.C2.spades"),
        ({"conditions": {"C2": {"spades": 4.5}}}, "conditions.C2.spades"),
    ],
)
def test_house_rules_errors_name_the_key(data: dict[str, object], key: str) -> None:
    with pytest.raises(HouseRulesError) as err:
        profile_from_mapping(data)
    assert err.value.key == key
    assert str(err.value).startswith(f"{key}: ")


def test_house_rules_toml_nested_conditions_table() -> None:
    p = profile_from_toml(b'base = "cardroom"\nout_bonus = 3\n[conditions.C2]\nspades = 5\nextra_spades = 3\n')
    assert (p.out_bonus, p.spade_suits_removed) == (3, 1)
    assert p.rate(Condition.C2) == ConditionRate(2, 5, 1, 3)


@pytest.mark.parametrize(
    ("toml", "key"),
    [
        (b"out_bonsu = 3\n", "out_bonsu"),
        (b'forcing = "sometimes"\n', "forcing"),
        (b"[conditions.C2]\nbase = 1\nextra = -1\n", "conditions.C2.extra"),
        (b"[conditions.C7]\nbase = 1\n", "conditions.C7"),
        (b"[conditions]\nC2 = 4\n", "conditions.C2"),
        (b"[forcing]\nmode = 'demand'\n", "forcing"),
        (b"packs = = 8\n", "toml"),
        (b"packs = 8\xff\n", "toml"),
    ],
)
def test_house_rules_toml_errors_name_the_key(toml: bytes, key: str) -> None:
    with pytest.raises(HouseRulesError) as err:
        profile_from_toml(toml)
    assert err.value.key == key


def test_section9_every_engine_entry_point_takes_the_profile_without_a_default() -> None:
    """A judge that silently falls back to hoyle ignores --rules (pan analyze --melds did)."""
    import importlib
    import inspect

    modules = [
        "pancli.melds",
        "pancli.analyze.arrange",
        "pancli.analyze.odds",
        "pancli.analyze.analysis",
        "pancli.analyze.advice",
        "pancli.referee.simulate",
        "pancli.referee.board",
        "pancli.panrules",
    ]
    checked = []
    for name in modules:
        mod = importlib.import_module(name)
        for obj in vars(mod).values():
            if getattr(obj, "__module__", None) != name:
                continue
            funcs = [obj] if inspect.isfunction(obj) else []
            if inspect.isclass(obj):
                funcs = [f for f in vars(obj).values() if inspect.isfunction(f)]
            for f in funcs:
                param = inspect.signature(f).parameters.get("profile")
                if param is not None:
                    checked.append(f.__qualname__)
                    assert param.default is inspect.Parameter.empty, f"{name}.{f.__qualname__}"
    assert {"judge", "grow", "going_out_value", "Rope.value", "Set.accepts", "best_arrangement"} <= set(checked)
