"""Names in the code: one meaning per class name across the package.

A class name defined twice (a ``Board`` of each game, two ``Hand`` values, two ``Options``) makes
every reader and every ``grep`` ask which one is meant; each class gets the name of what it is.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

PKG = Path(__file__).resolve().parent.parent / "pancli"


def _trees() -> dict[str, ast.Module]:
    return {str(p.relative_to(PKG.parent)): ast.parse(p.read_text(encoding="utf-8")) for p in sorted(PKG.rglob("*.py"))}


def class_names(trees: dict[str, ast.Module]) -> dict[str, list[str]]:
    """Class name -> where each class of that name is defined (``file:line``), nested ones too."""
    where: defaultdict[str, list[str]] = defaultdict(list)
    for rel, tree in trees.items():
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                where[node.name].append(f"{rel}:{node.lineno}")
    return where


def test_each_class_name_is_defined_once() -> None:
    twice = {name: places for name, places in class_names(_trees()).items() if len(places) > 1}
    assert twice == {}


def test_a_second_class_of_a_name_is_found() -> None:
    trees = {
        "a.py": ast.parse("class Board:\n    pass\n"),
        "b.py": ast.parse("def f():\n    class Board:\n        pass\n"),
    }
    assert class_names(trees)["Board"] == ["a.py:1", "b.py:2"]
