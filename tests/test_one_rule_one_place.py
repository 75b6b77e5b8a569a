"""ONE RULE, ONE PLACE (issue 9): each rule the Panguingue referee rules on is judged by exactly
one function, and the table in ``pancli/referee/table.py``'s docstring (rule -> the one function
that judges it) names it.

Read from the source: every ``Rule.X`` that a referee module raises (the rule of a
``Board.fail``, a ``Ruling.make``, a ``Violation`` or a ``ClaimCheck``) is found with the
function it stands in. A rule raised from two functions, or from another function than the
table's, fails here; so does a table row naming a function that does not exist.
"""

from __future__ import annotations

import ast
import importlib
import re
from collections import defaultdict
from pathlib import Path

import pytest

from pancli.referee import table
from pancli.rulebook import Rule

REFEREE = Path(table.__file__).resolve().parent
RULINGS = frozenset({"fail", "make", "Violation"})
"""The calls whose ``Rule.X`` argument is a ruling on that rule (a violation)."""
CLAIMS = frozenset({"ClaimCheck"})
"""The call whose ``Rule.X`` argument is the rule a wrong claim is reported under."""

_NOT_IN_A_HAND = {Rule.E2, Rule.E3, Rule.C10}
"""Rules no ruling of a hand names: the rank order and the valle cards (definitions the meld
engine uses), scoring as laid (the referee's way of scoring, not a check)."""


def raised_rules(folder: Path, calls: frozenset[str]) -> dict[str, set[str]]:
    """Rule id -> the functions (``module.function``) of ``folder`` where a ``Rule.X`` is an
    argument of one of ``calls``."""
    found: dict[str, set[str]] = defaultdict(set)

    class Finder(ast.NodeVisitor):
        def __init__(self, module: str) -> None:
            self.module = module
            self.where: list[str] = []

        def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
            self.where.append(node.name)
            self.generic_visit(node)
            self.where.pop()

        def visit_Call(self, node: ast.Call) -> None:
            f = node.func
            name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
            if name in calls and self.where:
                for arg in [*node.args, *(k.value for k in node.keywords)]:
                    if isinstance(arg, ast.Attribute) and isinstance(arg.value, ast.Name) and arg.value.id == "Rule":
                        found[arg.attr].add(f"{self.module}.{self.where[-1]}")
            self.generic_visit(node)

    for path in sorted(folder.glob("*.py")):
        Finder(path.stem).visit(ast.parse(path.read_text(encoding="utf-8")))
    return found


def _ids(column: str) -> list[str]:
    """``E1 E4`` -> E1, E4; ``C1-C6`` -> C1 .. C6."""
    out: list[str] = []
    for part in column.split():
        m = re.fullmatch(r"([A-Z])(\d+)-\1(\d+)", part)
        out += [f"{m[1]}{n}" for n in range(int(m[2]), int(m[3]) + 1)] if m else [part]
    return out


def tables() -> list[dict[str, str]]:
    """The tables of the docstring (rulings, then claims): rule id -> the one function named
    first on its row (``module.name``), or the row's words when it names none of the referee's."""
    out: list[dict[str, str]] = []
    rows: dict[str, str] | None = None
    rules_seen = 0
    for line in (table.__doc__ or "").splitlines():
        if line.startswith("=====  ====="):
            rules_seen += 1
            if rules_seen % 3 == 2:
                rows = {}
            elif rules_seen % 3 == 0 and rows is not None:
                out.append(rows)
                rows = None
            continue
        if rows is None or not line.strip() or line.startswith(" "):
            continue
        column, rest = re.split(r"\s{2,}", line, maxsplit=1)
        m = re.search(r":(?:func|meth):`\.(\w+)\.(\w+)`", rest)
        for rule in _ids(column):
            assert rule not in rows, f"{rule} twice in a table"
            rows[rule] = f"{m[1]}.{m[2]}" if m else rest.split(",")[0]
    return out


RULINGS_TABLE, CLAIMS_TABLE = tables()


def test_the_table_lists_every_rule_a_hand_is_ruled_on() -> None:
    assert set(RULINGS_TABLE) <= {str(r) for r in Rule}
    families = {"S", "I", "E", "T", "P", "M", "C"}
    listed = RULINGS_TABLE.keys() | CLAIMS_TABLE.keys()
    missing = [str(r) for r in Rule if str(r)[0] in families and str(r) not in listed and r not in _NOT_IN_A_HAND]
    assert missing == []


@pytest.mark.parametrize(("rule", "function"), sorted({**RULINGS_TABLE, **CLAIMS_TABLE}.items()))
def test_each_function_of_the_tables_exists(rule: str, function: str) -> None:
    if not re.fullmatch(r"\w+\.\w+", function):
        pytest.skip(f"{rule}: judged by the meld engine ({function})")
    module, name = function.split(".")
    assert hasattr(importlib.import_module(f"pancli.referee.{module}"), name), f"{rule}: no {function}"


@pytest.mark.parametrize(
    ("calls", "rows"), [(RULINGS, RULINGS_TABLE), (CLAIMS, CLAIMS_TABLE)], ids=["rulings", "claims"]
)
def test_every_rule_is_ruled_on_by_its_one_function(calls: frozenset[str], rows: dict[str, str]) -> None:
    raised = raised_rules(REFEREE, calls)
    assert raised, "nothing found: the finder is broken"
    wrong = {rule: sorted(where) for rule, where in raised.items() if where != {rows.get(rule)}}
    assert wrong == {}, "a rule ruled on by another function than the table's, or by several"


def test_the_finder_sees_a_second_function(tmp_path: Path) -> None:
    """The check can fail: a rule raised from two functions is found in both."""
    (tmp_path / "judges.py").write_text(
        "def p8(b, node):\n    return b.fail(Rule.P8, 'forced', node)\n\n"
        "def p1(b, node):\n    if node:\n        return b.fail(Rule.P8, 'forced again', node)\n",
        encoding="utf-8",
    )
    assert raised_rules(tmp_path, RULINGS) == {"P8": {"judges.p8", "judges.p1"}}
