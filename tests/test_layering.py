"""The one-way arrows of the architecture: each layer imports only the layers before it.

core (cards, melds, rules, rulebook) -> model (the record vocabulary, results, violations,
payments) -> judges (referee/, pagruc/, analyze/) -> text (notation/, records/) -> app ->
cli (click options, rendering, exit codes).

Core, model and judges never import text, the application layer, click, rich or pyparsing;
nothing below the CLI imports click or rich; notation never imports a judge; and no two
packages import each other, directly or through others (every import counts, lazy ones and
``TYPE_CHECKING`` ones too).
"""

from __future__ import annotations

import ast
import enum
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest

PKG = Path(__file__).resolve().parent.parent / "pancli"


class Layer(enum.IntEnum):
    """The layers, lowest first."""

    CORE = 0
    MODEL = 1
    JUDGES = 2
    TEXT = 3
    APP = 4
    CLI = 5


LAYERS: Mapping[str, Layer] = {
    "pancli": Layer.CORE,
    "pancli.cards": Layer.CORE,
    "pancli.melds": Layer.CORE,
    "pancli.rules": Layer.CORE,
    "pancli.rulebook": Layer.CORE,
    "pancli.limits": Layer.CORE,
    "pancli.values": Layer.CORE,
    "pancli.escapes": Layer.CORE,
    "pancli.model": Layer.MODEL,
    "pancli.referee": Layer.JUDGES,
    "pancli.pagruc": Layer.JUDGES,
    "pancli.analyze": Layer.JUDGES,
    "pancli.notation": Layer.TEXT,
    "pancli.records": Layer.TEXT,
    "pancli.svg": Layer.TEXT,
    "pancli.app": Layer.APP,
    "pancli.files": Layer.APP,
    "pancli.api": Layer.APP,
    "pancli.cli": Layer.CLI,
    "pancli.__main__": Layer.CLI,
}
"""Each package (or top-level module) of pancli and its layer. A new one must be placed here."""

FORBIDDEN_BELOW_TEXT = ("pancli.notation", "pancli.records", "pancli.app", "pancli.cli", "click", "rich", "pyparsing")
FORBIDDEN_BELOW_CLI = ("pancli.cli", "click", "rich")
JUDGES = ("pancli.referee", "pancli.pagruc", "pancli.analyze")


def _module_name(path: Path) -> str:
    rel = path.relative_to(PKG.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path) -> set[str]:
    """Every module ``path`` imports, anywhere in it (relative imports resolved)."""
    me = _module_name(path)
    package = me if path.name == "__init__.py" else me.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                out.add(".".join([*base, node.module] if node.module else base))
            elif node.module:
                out.add(node.module)
    return out


def _node(module: str) -> str:
    """The package (``pancli.X``) or top-level module a pancli module belongs to."""
    return ".".join(module.split(".")[:2])


MODULES = sorted(PKG.rglob("*.py"))


def _graph() -> dict[str, set[str]]:
    """The package graph: an edge X -> Y when any module of X imports one of Y."""
    graph: dict[str, set[str]] = {}
    for path in MODULES:
        me = _node(_module_name(path))
        edges = graph.setdefault(me, set())
        for imported in _imports(path):
            if imported.startswith("pancli."):
                them = _node(imported)
                if them != me:
                    edges.add(them)
    return graph


def _cycles(graph: Mapping[str, set[str]]) -> Iterator[list[str]]:
    """Every strongly connected group of more than one node (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()

    def visit(v: str) -> Iterator[list[str]]:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                yield from visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group: list[str] = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                yield sorted(group)

    for v in sorted(graph):
        if v not in index:
            yield from visit(v)


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PKG)))
def test_imports_follow_the_layers(path: Path) -> None:
    me = _module_name(path)
    assert _node(me) in LAYERS, f"{me} belongs to no layer: place {_node(me)} in LAYERS (tests/test_layering.py)"
    mine = LAYERS[_node(me)]
    for imported in _imports(path):
        if mine < Layer.TEXT:
            assert not imported.startswith(FORBIDDEN_BELOW_TEXT), f"{me} ({mine.name}) imports {imported}"
        if mine < Layer.CLI:
            assert not imported.startswith(FORBIDDEN_BELOW_CLI), f"{me} ({mine.name}) renders: it imports {imported}"
        if me.startswith("pancli.notation"):
            assert not imported.startswith(JUDGES), f"{me} (notation) imports the judge {imported}"
        if imported.startswith("pancli."):
            assert _node(imported) in LAYERS, f"{me} imports {imported}, which belongs to no layer"
            theirs = LAYERS[_node(imported)]
            assert theirs <= mine, f"{me} ({mine.name}) imports {imported} ({theirs.name})"


def test_no_import_cycle_between_packages() -> None:
    assert list(_cycles(_graph())) == []


def test_the_cycle_check_finds_a_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}}
    assert list(_cycles(graph)) == [["a", "b", "c"]]


def test_the_graph_sees_lazy_and_type_checking_imports() -> None:
    # record_writer imports the layout only for type checking; the graph still counts it
    assert "pancli.model" in _graph()["pancli.notation"]
    assert _imports(PKG / "notation" / "record_writer.py") >= {"pancli.notation.layout"}
