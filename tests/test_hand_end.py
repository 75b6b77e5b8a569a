"""How a hand ends is one vocabulary, :class:`~pancli.rules.Ending`: the rules object answers with it
(never with strings its callers compare), the referee's board and the result record it, and no
other enum of pancli restates it (the board's :class:`~pancli.referee.board.Phase` says only where
the hand stands: over, not won or void)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from pancli.model import results
from pancli.panrules import PanRules
from pancli.referee.board import Phase
from pancli.rules import CARDROOM, HOYLE, Ending, Profile

PKG = Path(__file__).resolve().parent.parent / "pancli"


@pytest.mark.parametrize("profile", [HOYLE, CARDROOM], ids=["hoyle", "cardroom"])
def test_I3_T4_the_rules_object_answers_how_a_hand_ends_with_Ending(profile: Profile) -> None:
    rules = PanRules(profile)
    answers = [rules.after_decisions(n) for n in range(4)]
    answers += [rules.ending(a, hand, dead) for a in (0, 1, 3) for hand in (None, 0, 2) for dead in (None, 0, 5)]
    assert {a for a in answers if a is not None} == {Ending.OUT, Ending.TOPS, Ending.VOID}
    assert all(a is None or type(a) is Ending for a in answers)
    assert rules.after_decisions(3) is None and rules.after_decisions(1) is Ending.TOPS
    assert rules.ending(3, hand=0) is Ending.OUT and rules.ending(3, dead_discards=0) is Ending.VOID


def test_the_result_records_the_rules_object_s_enum() -> None:
    assert results.Ending is Ending
    assert results.HandResult.__annotations__["ending"] == "Ending"


def _enum_values() -> dict[str, set[str]]:
    """Each enum class of pancli (``module.Class``) and the string values of its members."""
    found: dict[str, set[str]] = {}
    for path in sorted(PKG.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and any(ast.unparse(b).endswith("Enum") for b in node.bases):
                values = {
                    st.value.value
                    for st in node.body
                    if isinstance(st, ast.Assign)
                    and isinstance(st.value, ast.Constant)
                    and isinstance(st.value.value, str)
                }
                found[f"{path.relative_to(PKG.parent).with_suffix('')}.{node.name}".replace("/", ".")] = values
    return found


def test_one_enum_says_how_a_hand_ended() -> None:
    ends = {"out", "tops", "void", "won"}
    assert "pancli.rules.Ending" in _enum_values()
    assert [name for name, values in _enum_values().items() if values & ends] == ["pancli.rules.Ending"]


def test_a_board_over_says_how_by_its_ending() -> None:
    assert [p.name for p in Phase] == ["DECIDING", "PLAYING", "OVER"]
