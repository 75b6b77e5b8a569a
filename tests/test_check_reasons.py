"""The reasons ``pan check`` writes of a legal meld: the application hands over values (the
judge's words, the conditions, what an ace scores, the packs needed) and render/check.py words
them, in the words pan has always written."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from pancli.app.check import PacksNeeded, assess, assess_pagruc
from pancli.app.lines import InputLine
from pancli.panrules import PanRules
from pancli.render.check import check_reason, legal_reason, packs_text
from pancli.rules import HOYLE

APP = Path(__file__).resolve().parent.parent / "pancli" / "app"
APP_CHECK = APP / "check.py"


@pytest.mark.parametrize(
    ("meld", "conditions", "said"),
    [
        ("3s 3h 3d", ("C1",), "different-suits set; C1 valle set, different suits"),
        ("5s 5s 5s", ("C2",), "one-suit set; C2 valle set, one suit"),
        ("Qs Qs Qs", ("C3",), "one-suit set; C3 non-valle set, one suit"),
        ("As 2s 3s", ("C4",), "rope; C4 rope that includes the ace"),
        ("Jh Qh Kh", ("C5",), "rope; C5 rope that includes the king"),
        ("As 2s 3s 4s 5s 6s 7s Js Qs Ks", ("C4", "C5"),
         "rope; C4 rope that includes the ace; C5 rope that includes the king"),
        ("3h 4h 5h", (), "rope; no condition (pays nothing)"),
        ("Ks Kh Kd", (), "set of non-comoquers, mixed suits (M4); no condition (pays nothing)"),
    ],
)  # fmt: skip
def test_C1_C5_a_legal_meld_s_reason_names_its_conditions_in_the_old_words(
    meld: str, conditions: tuple[str, ...], said: str
) -> None:
    c = assess(InputLine("-", 1, meld), PanRules(HOYLE))
    assert (c.legal, c.conditions) == (True, conditions)
    assert c.reason == said.split("; ")[0]  # the judge's words only: the conditions are values
    assert check_reason(c) == legal_reason(c.reason, c.conditions) == said


@pytest.mark.parametrize(
    ("meld", "ace", "packs", "said"),
    [
        ("Ac Ad As", 15, None, "set of aces: aces 15 each in a set"),
        ("Ah 2h 3h", 1, None, "run of hearts: the ace counts 1 in a run"),
        ("5h 5h 5c", None, PacksNeeded(2, 2), "set of 5s: needs two packs (the same card twice)"),
        ("Ac Ac As", 15, PacksNeeded(2, 2),
         "set of aces: aces 15 each in a set; needs two packs (the same card twice)"),
        ("5h 6h 7h", None, None, "run of hearts"),
    ],
)  # fmt: skip
def test_G7_G1_a_legal_pagruc_meld_s_notes_are_values_worded_as_before(
    meld: str, ace: int | None, packs: PacksNeeded | None, said: str
) -> None:
    c = assess_pagruc(InputLine("<arg>", 1, meld))
    assert (c.legal, c.ace_points, c.packs_needed) == (True, ace, packs)
    assert check_reason(c) == said


def test_G1_packs_needed_past_two_packs_is_written_in_figures() -> None:
    assert packs_text(PacksNeeded(2, 2)) == "needs two packs (the same card twice)"
    assert packs_text(PacksNeeded(1, 1)) == "needs one pack (the same card 1 times)"
    assert packs_text(PacksNeeded(3, 3)) == "needs 3 packs (the same card 3 times)"


def test_M3_an_illegal_meld_s_reason_is_the_rule_s_words_alone() -> None:
    c = assess(InputLine("-", 1, "7c 7s 7s"), PanRules(HOYLE))
    assert check_reason(c) == c.reason == "a set of 7s must be all one suit or all different suits, not 7c 7s 7s"


_WORDS = re.compile(r"[A-Za-z]+ +[A-Za-z(]")
"""Two words one after the other: a sentence, or a piece of one."""


def _docstrings(tree: ast.Module) -> set[int]:
    """The ids of the docstring nodes (of the module, classes and functions) and of the strings
    documenting a name (a string statement after an assignment)."""
    out: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list):
            for stmt in body:
                if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
                    out.add(id(stmt.value))
    return out


@pytest.mark.parametrize("source", [APP_CHECK, APP / "pay.py"], ids=lambda p: p.name)
def test_app_check_builds_no_english(source: Path) -> None:
    """The application hands values to render/; a reason written in app/check.py or app/pay.py
    (an f-string, or a literal of words) would be output text outside render/ (E4's words across
    a player's melds are the rules module's, beside the other E4 sentences)."""
    tree = ast.parse(source.read_text(encoding="utf-8"))
    docs = _docstrings(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            found.append(f"line {node.lineno}: an f-string")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            found.extend([f"line {node.lineno}: {node.value!r}"] if _WORDS.search(node.value) else [])
    assert not found, found
