"""The rule registry (pancli.rulebook): one entry per rule id, knobs that match the profile."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from pancli.rulebook import KNOBS, RULEBOOK, Family, Rule, closest, entry, lookup
from pancli.rules import HOYLE, Profile

PKG = Path(__file__).resolve().parent.parent / "pancli"
RULE_ID = re.compile(r"[ESTPMCIRNG](?:[1-9]|10)")


def test_every_rule_has_one_entry_in_family_order() -> None:
    assert list(RULEBOOK) == list(Rule)
    families = [e.family for e in RULEBOOK.values()]
    assert families == sorted(families, key=list(Family).index)
    for rule, e in RULEBOOK.items():
        assert e.rule is rule and rule.startswith(e.family.letter)


@pytest.mark.parametrize("rule", list(Rule))
def test_entry_is_complete(rule: Rule) -> None:
    e = entry(rule)
    assert e.title and e.source
    assert e.statement.endswith(".") and "\n" not in e.statement
    assert e.ruling.startswith(f"{rule}: ")


def test_knobs_are_the_profile_fields_and_each_rule_lists_its_knobs() -> None:
    assert list(KNOBS) == list(Profile.__struct_fields__)
    assert list(KNOBS) == list(HOYLE.knobs())
    for knob in KNOBS.values():
        for rule in knob.rules:
            assert knob.name in entry(rule).knobs
    assert entry(Rule.T2).knobs == ("ante", "forfeit")
    assert entry(Rule.E1).knobs == ("packs", "spade_suits_removed")


def test_lookup_is_case_insensitive_and_closest_suggests_the_family() -> None:
    assert lookup("c7") is Rule.C7 and lookup("g9") is Rule.G9 and lookup("X1") is None
    assert closest("P88")[0] is Rule.P8
    assert closest("m7") and all(r.startswith("M") for r in closest("m7"))


def _id_literals(path: Path) -> set[str]:
    """Every string literal in a module that looks exactly like a rule id."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {
        n.value
        for n in ast.walk(tree)
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and RULE_ID.fullmatch(n.value)
    }


def test_every_rule_id_written_in_the_package_is_in_the_registry() -> None:
    """A typo in a cited id ("P11", "C0") would make a violation nobody can look up."""
    seen: set[str] = set()
    for path in PKG.rglob("*.py"):
        seen |= _id_literals(path)
    unknown = sorted(i for i in seen if lookup(i) is None)
    assert not unknown, f"rule ids in the package but not in the registry: {unknown}"
