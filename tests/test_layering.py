"""The one-way arrows of the architecture: each layer imports only the layers before it.

cards/melds/rules -> referee/, analyze, pagruc/ -> notation/, records/ -> cli/.
The engine never imports notation, records, click, rich or pyparsing.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PKG = Path(__file__).resolve().parent.parent / "pancli"

CORE = {"pancli.cards", "pancli.melds", "pancli.rules"}
FORBIDDEN_IN_ENGINE = ("pancli.notation", "pancli.records", "pancli.cli", "click", "rich", "pyparsing")


def _module_name(path: Path) -> str:
    rel = path.relative_to(PKG.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.add(node.module)
    return out


def _layer(module: str) -> int:
    if module in CORE:
        return 0
    if module.startswith(("pancli.referee", "pancli.analyze", "pancli.pagruc")):
        return 1
    if module.startswith(("pancli.notation", "pancli.records")):
        return 2
    if module.startswith("pancli.cli") or module == "pancli.__main__":
        return 3
    return 0 if module == "pancli" else 3


MODULES = sorted(PKG.rglob("*.py"))


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PKG)))
def test_imports_follow_the_layers(path: Path) -> None:
    me = _module_name(path)
    mine = _layer(me)
    for imported in _imports(path):
        if mine <= 1:
            assert not imported.startswith(FORBIDDEN_IN_ENGINE), f"{me} (engine) imports {imported}"
        if imported.startswith("pancli"):
            theirs = _layer(imported)
            assert theirs <= mine, f"{me} (layer {mine}) imports {imported} (layer {theirs})"
