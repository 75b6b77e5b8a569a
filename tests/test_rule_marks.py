"""Every callable that rules or answers a question under a rule carries that rule's mark.

:data:`pancli.referee.deciders.QUESTIONS` is collected from the marks: a judge left unmarked
would rule under a rule that the registry, ``docs/architecture.md`` and the referees' tables
do not show. The scans here read the judges' source, so a new judge without its mark fails.
"""

from __future__ import annotations

import ast
import inspect
import re
import textwrap
from pathlib import Path
from types import ModuleType
from typing import Final

import pytest

from pancli.decides import marked
from pancli.pagruc import judges as pagruc_judges
from pancli.pagruc import referee as pagruc_referee
from pancli.pagruc.rules import PagrucRules
from pancli.panrules import PanRules
from pancli.referee import play, table
from pancli.referee.deciders import DECIDERS, MARKED_IN, QUESTIONS
from pancli.rulebook import Rule

_RULING_CALLS: Final = frozenset({"fail", "make", "ClaimCheck"})
"""What makes a ruling or checks a claim: ``board.fail(Rule.X, ...)``, ``Ruling.make(Rule.X, ...)``,
``ClaimCheck(Rule.X, ...)``."""


def _rules_ruled(fn: ast.AST) -> set[str]:
    """The rule ids ``fn`` makes a ruling (or a claim check) under, written as ``Rule.X``."""
    out: set[str] = set()
    for n in ast.walk(fn):
        if not (isinstance(n, ast.Call) and n.args):
            continue
        name = n.func.attr if isinstance(n.func, ast.Attribute) else n.func.id if isinstance(n.func, ast.Name) else ""
        a = n.args[0]
        if name in _RULING_CALLS and isinstance(a, ast.Attribute) and isinstance(a.value, ast.Name):
            out |= {a.attr} if a.value.id == "Rule" else set()
    return out


def _called(fn: ast.AST) -> set[str]:
    """The names ``fn`` calls: ``f(...)`` and ``self.f(...)``."""
    out: set[str] = set()
    for n in ast.walk(fn):
        if isinstance(n, ast.Call):
            if isinstance(n.func, ast.Name):
                out.add(n.func.id)
            elif isinstance(n.func, ast.Attribute) and isinstance(n.func.value, ast.Name) and n.func.value.id == "self":
                out.add(n.func.attr)
    return out


def unmarked_rulings(source: str, marks_of: dict[str, set[str]]) -> list[str]:
    """``name: rule`` for each public function or method of ``source`` that rules under a rule
    its mark does not name (``marks_of``: the rules each name is marked with). A private helper
    that rules is charged to the functions that call it."""
    tree = ast.parse(source)
    defs: dict[str, ast.FunctionDef] = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            defs[node.name] = node
        elif isinstance(node, ast.ClassDef):
            defs.update({f"{node.name}.{m.name}": m for m in node.body if isinstance(m, ast.FunctionDef)})
    short = {q.rsplit(".", 1)[-1]: q for q in defs if q.rsplit(".", 1)[-1].startswith("_")}
    ruled = {q: _rules_ruled(f) for q, f in defs.items()}
    calls = {q: {short[c] for c in _called(f) if c in short} for q, f in defs.items()}
    changed = True
    while changed:  # a helper's rulings are its callers', through helpers that call helpers
        changed = False
        for q in defs:
            more = set().union(*(ruled[c] for c in calls[q])) - ruled[q]
            if more:
                ruled[q] |= more
                changed = True
    return [
        f"{q}: {r}"
        for q in defs
        if not q.rsplit(".", 1)[-1].startswith("_")
        for r in sorted(ruled[q] - marks_of.get(q, set()))
    ]


def _marks_of(module: ModuleType) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for name, obj in vars(module).items():
        if getattr(obj, "__module__", None) != module.__name__:
            continue
        attrs = vars(obj).items() if isinstance(obj, type) else [("", obj)]
        for attr, value in attrs:
            d = marked(value)
            if d is not None:
                out[f"{name}.{attr}" if attr else name] = set(d.rules)
    return out


@pytest.mark.parametrize("module", MARKED_IN, ids=lambda m: m.__name__)
def test_every_function_that_rules_under_a_rule_is_marked_with_it(module: ModuleType) -> None:
    assert unmarked_rulings(inspect.getsource(module), _marks_of(module)) == []


def test_an_unmarked_judge_is_found_through_its_helper() -> None:
    """The scan can fail: a judge that rules under P1 itself, or through a private helper."""
    source = textwrap.dedent(
        """
        def marked_fault(b):
            return b.fail(Rule.P1, "a")

        def own_fault(b):
            return b.fail(Rule.P1, "b")

        def _helper(b):
            return Ruling.make(Rule.P10, "c")

        def helped_fault(b):
            return _helper(b)

        class Rules:
            def claim(self, b):
                return ClaimCheck(Rule.C9, 1)
        """
    )
    found = unmarked_rulings(source, {"marked_fault": {"P1"}, "helped_fault": {"P1"}})
    assert found == ["own_fault: P1", "helped_fault: P10", "Rules.claim: C9"]


RULES_HELPERS: Final = {
    PanRules: {
        "profile": "the house rules the questions are answered from, not a question",
        "meld_space": "the analyzer's cache of judge, grow and value answers",
        "pack_cards": "copies_of (E1) of every card, listed for self-play's shuffle",
        "spread_rule": "what judge answers for a shape of meld, known before its cards: the batch's shortcut",
        "order_free": "whether judge ignores the order of the cards: what lets the batch judge a multiset once",
        "laid": "judge and value of new cards, cached",
        "try_grow": "grow, with the MeldError returned, cached",
        "grown": "grow and value of a laid meld, cached",
    },
    PagrucRules: {},
}
"""Public methods of the rules objects that answer no question of their own, with why."""


@pytest.mark.parametrize("cls", list(RULES_HELPERS), ids=lambda c: c.__name__)
def test_every_public_method_of_a_rules_object_is_marked_or_a_helper(cls: type) -> None:
    public = {
        name
        for name, attr in vars(cls).items()
        if not name.startswith("_")
        and (inspect.isfunction(attr) or isinstance(attr, property | staticmethod | classmethod))
    }
    unmarked = {name for name in public if marked(vars(cls)[name]) is None}
    assert unmarked == set(RULES_HELPERS[cls])
    assert all(why.strip() and "\n" not in why for why in RULES_HELPERS[cls].values())


def _rows(doc: str) -> dict[str, str]:
    """The rows of a referee docstring's tables of rulings and of claims (not of payments): rule
    ids -> the row's text (a rule in both tables: both rows, joined)."""
    parts = doc.split("=====  =====")
    rows: dict[str, str] = {}
    for header, body in zip(parts[1::3], parts[2::3], strict=False):
        if "judges it" not in header and "checks it" not in header:
            continue
        key = ""
        for line in body.splitlines():
            if line.strip().startswith("="):
                continue
            if line and not line.startswith(" "):
                key, _, text = line.partition("  ")
                rows[key] = f"{rows[key]}; {text.strip()}" if key in rows else text.strip()
            elif key:
                rows[key] += " " + line.strip()
    return rows


def _outside_parentheses(text: str) -> str:
    out, depth = [], 0
    for ch in text:
        depth += ch == "("
        if depth == 0:
            out.append(ch)
        depth -= ch == ")" and depth > 0
    return "".join(out)


_REFEREE_TABLES: Final = (
    (table.__doc__ or "", play, "play"),
    (pagruc_referee.__doc__ or "", pagruc_judges, "judges"),
)


def tabled_judges() -> list[tuple[str, str, set[str]]]:
    """``(module, rules, names)``: each row of a referee's tables of rulings and claims that
    begins with a judge, and the judges it names outside parentheses (the first, and those
    after "one function a question:")."""
    out: list[tuple[str, str, set[str]]] = []
    for doc, module, short in _REFEREE_TABLES:
        for key, text in _rows(doc).items():
            if not text.startswith(f":func:`.{short}."):
                continue
            names = set(re.findall(rf":func:`\.{short}\.(\w+)`", _outside_parentheses(text)))
            out.append((module.__name__, key, names))
    return out


@pytest.mark.parametrize(("module", "rules", "names"), tabled_judges(), ids=lambda x: x if isinstance(x, str) else "")
def test_a_referee_table_names_the_judges_marked_with_its_rules(module: str, rules: str, names: set[str]) -> None:
    marked_here = {
        q.callable.__name__ for r in rules.split() for q in QUESTIONS[Rule(r)] if q.callable.__module__ == module
    }
    assert names == marked_here


def test_every_judge_marked_in_a_judges_module_is_in_its_referee_s_table() -> None:
    tabled = {(module, r) for module, rules, _ in tabled_judges() for r in rules.split()}
    for _, judges, _ in _REFEREE_TABLES:
        for r, questions in QUESTIONS.items():
            if any(q.callable.__module__ == judges.__name__ for q in questions):
                assert (judges.__name__, str(r)) in tabled, r


def answers_table() -> str:
    """The table of docs/architecture.md, "The other questions under each rule", made from the marks."""
    rows = ["| rule | also answered by | what it answers |", "|---|---|---|"]
    for r, questions in QUESTIONS.items():
        main = DECIDERS.get(r)
        rows += [
            f"| {r} | `{q.callable.__module__}.{q.callable.__qualname__}` | {q.what} |"
            for q in questions
            if q.callable is not main
        ]
    return "\n".join(rows) + "\n"


def test_the_architecture_doc_shows_every_other_question() -> None:
    doc = (Path(__file__).resolve().parent.parent / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = doc.split("## The other questions under each rule\n", 1)[1].split("\n## ", 1)[0]
    assert answers_table() in section


def test_every_rule_with_other_questions_has_its_decider() -> None:
    assert set(QUESTIONS) <= set(DECIDERS)
    for r, questions in QUESTIONS.items():
        assert questions[0].callable is DECIDERS[r]
        assert all(q.what.strip() and "\n" not in q.what for q in questions)
