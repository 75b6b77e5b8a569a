"""The built-in profiles are named in one place: :data:`pancli.rules.PROFILES`, asked through
:func:`pancli.rules.is_builtin`. A third built-in profile is then one entry there, not a
house-rules path in every reader of a ``Rules`` tag or ``--rules``."""

from __future__ import annotations

import ast
from pathlib import Path

from pancli.rules import PROFILES, is_builtin

PKG = Path(__file__).resolve().parent.parent / "pancli"


def _profile_names(node: ast.expr) -> list[str]:
    """The built-in profile names a constant or a literal tuple, list or set spells."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.lower() in PROFILES:
        return [node.value]
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return [n for e in node.elts for n in _profile_names(e)]
    return []


def profile_tests(sources: dict[str, str]) -> list[str]:
    """Places that test a name against the built-in profiles' names themselves (``x in ("hoyle",
    "cardroom")``, ``x == "cardroom"``) or write their list out (``("hoyle", "cardroom")``).
    A message, a default (``"hoyle"``) or a document saying the names is no test.

    >>> profile_tests({"m.py": "if r.lower() in ('hoyle', 'cardroom'):\\n    pass\\nok = r == 'cardroom'\\n"})
    ['m.py:1', 'm.py:3']
    >>> profile_tests({"m.py": "NAMES = ('hoyle', 'cardroom')\\nx = f(rules='hoyle')\\n"})
    ['m.py:1']
    """
    out: list[str] = []
    for rel, text in sources.items():
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.Compare):
                if any(_profile_names(x) for x in (node.left, *node.comparators)):
                    out.append(f"{rel}:{node.lineno}")
            elif isinstance(node, ast.Tuple | ast.List | ast.Set) and len(_profile_names(node)) > 1:
                out.append(f"{rel}:{node.lineno}")
    return sorted(set(out), key=lambda w: (w.split(":")[0], int(w.split(":")[1])))


def test_R3_only_the_rules_module_tests_for_a_builtin_profile_name() -> None:
    sources = {
        str(p.relative_to(PKG.parent)): p.read_text(encoding="utf-8")
        for p in sorted(PKG.rglob("*.py"))
        if p != PKG / "rules.py"
    }
    assert profile_tests(sources) == []


def test_R3_is_builtin_answers_from_the_profiles() -> None:
    assert all(is_builtin(name) and is_builtin(name.upper()) for name in PROFILES)
    assert not is_builtin("house.toml")
    assert not is_builtin("")
