"""The one-way arrows of the architecture: each layer imports only the layers before it.

core (cards, melds, rules, rulebook) -> model (the record vocabulary, results, violations,
payments) -> judges (referee/, pagruc/, analyze/) -> text (notation/, records/) -> app ->
render (one exporter per output form) -> cli (click options, the choice of output, exit codes).

Core, model and judges never import text, the application layer, click, rich or pyparsing;
nothing below render imports rich or textual (and in render, only the full-screen view of ``pan
live``, ``render/live_view.py``, imports textual), nothing below the CLI imports click; notation never
imports a judge; the CLI imports the application layer (``app/``, ``files.py``, the package root),
the exporters (``render/``) and its own modules only, never the core, a judge, the text layer, the
model or msgspec (a command is options -> one app function -> render -> exit code), and every name
it takes from them is theirs, not a lower layer's passed on; and no two packages, nor any two
modules, import each other, directly or through others (every import counts, lazy ones and
``TYPE_CHECKING`` ones too).
"""

from __future__ import annotations

import ast
import enum
import re
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
    RENDER = 5
    CLI = 6


LAYERS: Mapping[str, Layer] = {
    "pancli": Layer.APP,  # the package's face: __version__ and the public API, pancli.api (loaded on first use)
    "pancli.cards": Layer.CORE,
    "pancli.melds": Layer.CORE,
    "pancli.meldspace": Layer.CORE,
    "pancli.rules": Layer.CORE,
    "pancli.rulebook": Layer.CORE,
    "pancli.decides": Layer.CORE,
    "pancli.panrules": Layer.CORE,
    "pancli.refusals": Layer.CORE,
    "pancli.limits": Layer.CORE,
    "pancli.values": Layer.CORE,
    "pancli.escapes": Layer.CORE,
    "pancli.jsontext": Layer.CORE,
    "pancli.model": Layer.MODEL,
    "pancli.referee": Layer.JUDGES,
    "pancli.pagruc": Layer.JUDGES,
    "pancli.analyze": Layer.JUDGES,
    "pancli.notation": Layer.TEXT,
    "pancli.records": Layer.TEXT,
    "pancli.app": Layer.APP,
    "pancli.files": Layer.APP,
    "pancli.api": Layer.APP,
    "pancli.render": Layer.RENDER,
    "pancli.cli": Layer.CLI,
    "pancli.__main__": Layer.CLI,
}
"""Each package (or top-level module) of pancli and its layer. A new one must be placed here."""

FORBIDDEN_BELOW_TEXT = ("pancli.notation", "pancli.records", "pancli.app", "pancli.cli", "click", "rich", "pyparsing")
FORBIDDEN_BELOW_CLI = ("pancli.cli", "click")
FORBIDDEN_BELOW_RENDER = ("pancli.render", "rich", "textual")
JUDGES = ("pancli.referee", "pancli.pagruc", "pancli.analyze")
CLI_MAY_IMPORT = frozenset({"pancli", "pancli.app", "pancli.files", "pancli.render", "pancli.cli"})
"""What the CLI imports of pancli: the application layer, the exporters and its own modules."""
CLI_MAY_NOT_IMPORT = ("msgspec",)
"""Libraries of the layers under the CLI: values are built and changed by the application layer."""


def _module_name(path: Path) -> str:
    rel = path.relative_to(PKG.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path) -> set[str]:
    """Every module ``path`` imports, anywhere in it (relative imports resolved)."""
    me = _module_name(path)
    return imports_in(path.read_text(encoding="utf-8"), me, path.name == "__init__.py")


def _is_module(name: str) -> bool:
    """Whether ``name`` is a module or package of pancli (``pancli.svg``, ``pancli.referee``)."""
    rel = Path(*name.split(".")[1:]) if name.startswith("pancli.") else None
    return rel is not None and ((PKG / rel).with_suffix(".py").is_file() or (PKG / rel / "__init__.py").is_file())


def imports_in(source: str, me: str, is_package: bool = False, *, containers: bool = True) -> set[str]:
    """Every module the source of module ``me`` imports, anywhere in it: ``import X``, ``from X
    import Y`` (``X.Y`` too when that is a module: ``from pancli import referee``), relative
    imports resolved, and ``importlib.import_module("X")`` with a literal name. ``containers``
    False: ``from P import m1, m2`` naming only submodules counts as importing them, not ``P``
    (a package is only their container there, as it is for ``import P.m1``)."""
    package = me if is_package else me.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join([*base, node.module] if node.module else base)
            elif node.module:
                module = node.module
            else:
                continue
            subs = {f"{module}.{a.name}" for a in node.names if _is_module(f"{module}.{a.name}")}
            if containers or len(subs) < len(node.names):
                out.add(module)
            out.update(subs)
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute | ast.Name)
            and (node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id) == "import_module"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            out.add(node.args[0].value)
    return out


def _node(module: str) -> str:
    """The package (``pancli.X``) or top-level module a pancli module belongs to."""
    return ".".join(module.split(".")[:2])


MODULES = sorted(PKG.rglob("*.py"))


def _graph(extra: Mapping[str, set[str]] | None = None) -> dict[str, set[str]]:
    """The package graph: an edge X -> Y when any module of X imports one of Y (``extra``:
    more modules and what they import, for the tests of this test)."""
    graph: dict[str, set[str]] = {}
    modules = {_module_name(path): _imports(path) for path in MODULES}
    for me, imported_all in {**modules, **(extra or {})}.items():
        mine = _node(me)
        edges = graph.setdefault(mine, set())
        for imported in imported_all:
            if imported.startswith("pancli."):
                them = _node(imported)
                if them != mine:
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


def faults(me: str, imported_all: set[str]) -> list[str]:
    """What module ``me`` breaks of the layering by importing ``imported_all``."""
    out = []
    if _node(me) not in LAYERS:
        return [f"{me} belongs to no layer: place {_node(me)} in LAYERS (tests/test_layering.py)"]
    mine = LAYERS[_node(me)]
    for imported in sorted(imported_all):
        if mine < Layer.TEXT and imported.startswith(FORBIDDEN_BELOW_TEXT):
            out.append(f"{me} ({mine.name}) imports {imported}")
        if mine < Layer.CLI and imported.startswith(FORBIDDEN_BELOW_CLI):
            out.append(f"{me} ({mine.name}) imports the command line: {imported}")
        if mine < Layer.RENDER and imported.startswith(FORBIDDEN_BELOW_RENDER):
            out.append(f"{me} ({mine.name}) renders: it imports {imported}")
        if mine is Layer.CLI and imported.startswith("pancli.") and _node(imported) not in CLI_MAY_IMPORT:
            out.append(f"{me} (CLI) imports below the application layer: {imported}")
        if mine is Layer.CLI and imported.split(".")[0] in CLI_MAY_NOT_IMPORT:
            out.append(f"{me} (CLI) imports {imported}, a library of the layers below it")
        if me.startswith("pancli.notation") and imported.startswith(JUDGES):
            out.append(f"{me} (notation) imports the judge {imported}")
        if imported.startswith("pancli."):
            if _node(imported) not in LAYERS:
                out.append(f"{me} imports {imported}, which belongs to no layer")
            elif LAYERS[_node(imported)] > mine:
                out.append(f"{me} ({mine.name}) imports {imported} ({LAYERS[_node(imported)].name})")
    return out


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PKG)))
def test_imports_follow_the_layers(path: Path) -> None:
    assert faults(_module_name(path), _imports(path)) == []


@pytest.mark.parametrize(
    "source",
    [
        "from pancli.referee.play import card_fault",
        "from pancli import referee",
        "from .. import pagruc",
        "from ..analyze.arrange import best",
        "def f():\n    import pancli.referee.table",
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pancli.referee import Table",
        "import importlib\nimportlib.import_module('pancli.pagruc.referee')",
    ],
)
def test_a_notation_module_importing_a_judge_is_refused(source: str) -> None:
    found = faults("pancli.notation.fake", imports_in(source, "pancli.notation.fake"))
    assert any("(notation) imports the judge" in f for f in found), found


@pytest.mark.parametrize(
    "source",
    [
        "from pancli.notation.fast import fast_card",
        "def f():\n    from pancli.records.shipped import sample_names",
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pancli.analyze.review import Options",
        "from pancli.melds import Meld",
        "from pancli.pagruc.pack import PagrucPack",
        "from pancli.cards import Game",
        "from pancli.rules import Profile",
        "from pancli import panrules",
        "def f():\n    from pancli.rulebook import RULEBOOK",
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pancli.limits import LongLine",
        "from pancli.escapes import escape_text",
    ],
)
def test_a_cli_module_reaching_below_the_application_layer_is_refused(source: str) -> None:
    found = faults("pancli.cli.fake", imports_in(source, "pancli.cli.fake"))
    assert any("(CLI) imports below the application layer" in f for f in found), found
    for allowed in ("from pancli.app.check import assess", "from pancli.files import atomic_write", "import click"):
        assert faults("pancli.cli.fake", imports_in(allowed, "pancli.cli.fake")) == []


def test_a_cli_module_importing_msgspec_is_refused() -> None:
    found = faults("pancli.cli.fake", imports_in("from msgspec.structs import replace", "pancli.cli.fake"))
    assert found == ["pancli.cli.fake (CLI) imports msgspec.structs, a library of the layers below it"]


def _imported_names(module: str) -> set[str]:
    """The names the source of pancli module ``module`` binds by an import at its top level (a
    value such as ``MAX_SAMPLES`` re-exported there is one), unless it also defines them."""
    path = (PKG / Path(*module.split(".")[1:])).with_suffix(".py")
    if not path.is_file():
        path = PKG / Path(*module.split(".")[1:]) / "__init__.py"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    imported: set[str] = set()
    defined: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.ImportFrom | ast.Import):
            imported |= {a.asname or a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.FunctionDef | ast.ClassDef):
            defined.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            defined |= {t.id for t in targets if isinstance(t, ast.Name)}
    return imported - defined


def passed_on(source: str, me: str) -> list[str]:
    """The names module ``me`` of the CLI takes from the application layer or the exporters that
    are not theirs: a class or function of a lower layer passed on (``PagrucRules`` through
    ``app.score``), a value a module of them imports and re-exports (``MAX_SAMPLES`` of
    ``pancli.limits`` through ``app.lines``), or a name only a type checker sees there."""
    import importlib

    out = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.ImportFrom) or node.level or not node.module:
            continue
        if _node(node.module) not in CLI_MAY_IMPORT - {"pancli", "pancli.cli"}:
            continue
        module = importlib.import_module(node.module)
        for alias in node.names:
            if _is_module(f"{node.module}.{alias.name}"):
                continue
            if not hasattr(module, alias.name):
                out.append(f"{me}: {alias.name} of {node.module} exists only for the type checker")
                continue
            home = getattr(getattr(module, alias.name), "__module__", None)
            if isinstance(home, str) and home.startswith("pancli") and _node(home) not in CLI_MAY_IMPORT:
                out.append(f"{me}: {alias.name} of {node.module} is {home}'s, passed on")
            elif node.module.startswith("pancli.") and alias.name in _imported_names(node.module):
                out.append(f"{me}: {alias.name} of {node.module} is imported there, passed on")
    return out


@pytest.mark.parametrize("path", sorted((PKG / "cli").glob("*.py")), ids=lambda p: p.name)
def test_the_cli_takes_only_the_application_layer_s_own_names(path: Path) -> None:
    assert passed_on(path.read_text(encoding="utf-8"), _module_name(path)) == []


@pytest.mark.parametrize(
    "source",
    [
        "from pancli.app.lines import escape_text",
        "from pancli.app.analyze import MAX_SAMPLES",
        "from pancli.app.score import PagrucRules",
        "from pancli.app.review import Options",
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pancli.app.analyze import Analysis",
    ],
)
def test_a_judge_or_core_name_passed_on_by_the_application_layer_is_refused(source: str) -> None:
    assert passed_on(source, "pancli.cli.fake") != []
    assert passed_on("from pancli.app.check import Checker, MeldCheck", "pancli.cli.fake") == []


def test_a_lower_layer_importing_a_higher_one_is_refused() -> None:
    assert faults("pancli.model.fake", imports_in("from pancli import app", "pancli.model.fake")) != []
    assert faults("pancli.melds", imports_in("import rich", "pancli.melds")) != []
    assert faults("pancli.newthing", set()) != []  # a package no layer holds


TEXTUAL_VIEW = "pancli.render.live_view"
"""The one module that imports Textual (the full-screen view of ``pan live``)."""


def test_only_the_live_view_imports_textual_and_only_pan_live_imports_the_view() -> None:
    textual = sorted(_module_name(p) for p in MODULES if any(m.split(".")[0] == "textual" for m in _imports(p)))
    assert textual == [TEXTUAL_VIEW]
    viewers = sorted(_module_name(p) for p in MODULES if TEXTUAL_VIEW in _imports(p))
    assert viewers == ["pancli.cli.live"]


def test_no_import_cycle_between_packages() -> None:
    assert list(_cycles(_graph())) == []


def _module_graph(extra: Mapping[str, str] | None = None) -> dict[str, set[str]]:
    """The module graph: an edge X -> Y when module X imports module Y of pancli anywhere
    (lazily, for type checking, through ``importlib``); ``extra``: more modules and their source."""
    sources = {_module_name(path): (path.read_text(encoding="utf-8"), path.name == "__init__.py") for path in MODULES}
    sources.update((name, (text, False)) for name, text in (extra or {}).items())
    graph: dict[str, set[str]] = {}
    for me, (text, is_package) in sources.items():
        imported = imports_in(text, me, is_package, containers=False)
        graph[me] = {m for m in imported if m.startswith("pancli") and m != me and (m in sources or _is_module(m))}
    return graph


def test_no_import_cycle_between_modules() -> None:
    assert list(_cycles(_module_graph())) == []


def test_a_planted_cycle_between_two_modules_is_found() -> None:
    # pancli.render.plain imports pancli.render.words; a lazy import back closes a circle
    assert "pancli.render.words" in _module_graph()["pancli.render.plain"]
    planted = (PKG / "render" / "words.py").read_text(encoding="utf-8") + (
        "\n\ndef _back() -> None:\n    from pancli.render.plain import hand_text\n"
    )
    cycles = list(_cycles(_module_graph({"pancli.render.words": planted})))
    assert ["pancli.render.plain", "pancli.render.words"] in cycles


def test_a_planted_type_checking_cycle_is_found() -> None:
    # app.replay imports app.report: the report importing the replay back, for type checking only, closes a cycle
    planted = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pancli.app.replay import Tally\n"
    graph = _module_graph({"pancli.app.report": planted})
    assert any({"pancli.app.report", "pancli.app.replay"} <= set(c) for c in _cycles(graph))


def test_the_cycle_check_finds_a_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}}
    assert list(_cycles(graph)) == [["a", "b", "c"]]


def test_a_cycle_between_packages_through_a_lazy_import_is_found() -> None:
    # records imports notation: a notation module importing records lazily closes a cycle
    assert "pancli.notation" in _graph()["pancli.records"]
    lazy = imports_in("def f():\n    from pancli.records import reader", "pancli.notation.fake")
    assert faults("pancli.notation.fake", lazy) == []  # the layers alone allow it (same layer)
    assert ["pancli.notation", "pancli.records"] in list(_cycles(_graph({"pancli.notation.fake": lazy})))


def test_the_graph_sees_lazy_and_type_checking_imports() -> None:
    # record_writer imports the layout only for type checking; the graph still counts it
    assert "pancli.model" in _graph()["pancli.notation"]
    assert _imports(PKG / "notation" / "record_writer.py") >= {"pancli.notation.layout"}


CONSTANT_CACHES = {
    "pancli/escapes.py:pattern": "one of the module's character classes, compiled when first needed",
    "pancli/notation/__init__.py:_pan_meld_reader": "parse_meld_line's reader of the usual Panguingue pack",
    "pancli/notation/fast.py:_usual": "each game's usual pack spellings",
    "pancli/notation/fast.py:_usual_key": "which cards each game's usual pack holds, a reader's pack compared with it",
    "pancli/notation/grammar.py:_usual_elements": "each game's grammar of its usual pack",
    "pancli/notation/record_grammar.py:_usual_grammar": "each game's record grammar of its usual pack",
    "pancli/rulebook.py:_tables": "the rulebook's texts",
}
"""The only memoised functions: constants built when first read (start-up), none keyed by what a
run reads (a house-rules pack, a profile, a line): such a cache is a field of the object that
asks (the rules object, a reader's context, a pack's spellings)."""


def test_the_only_caches_at_module_level_are_constants_built_when_first_read() -> None:
    found = {}
    for path in sorted(PKG.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.FunctionDef):
                continue
            names = {ast.unparse(d).split("(")[0] for d in node.decorator_list}
            if names & {"functools.cache", "functools.lru_cache", "cache", "lru_cache", "functools.cached_property"}:
                found[f"{path.relative_to(PKG.parent)}:{node.name}"] = [a.arg for a in node.args.args]
    assert set(found) == set(CONSTANT_CACHES)
    assert all(len(args) <= 1 for args in found.values())  # a game, a flag or a constant's name


def test_E1_a_house_pack_s_grammar_is_kept_with_its_spellings_not_by_the_module() -> None:
    from pancli.cards import ALL_CARDS, Game, Rank
    from pancli.notation.fast import pack_spellings, usual_spellings
    from pancli.notation.grammar import elements, parse_meld_text

    eights = [1 if c.rank is Rank.EIGHT else 0 for c in ALL_CARDS]
    one, two = pack_spellings(eights), pack_spellings(eights)
    assert one is not two and one == two  # made for each caller that asks
    assert [str(c) for c in parse_meld_text("8s 8s 8s", pack=one)] == ["8s"] * 3
    assert ("elements", Game.PANGUINGUE) in one.grammars and not two.grammars
    assert elements(Game.PANGUINGUE, one) is elements(Game.PANGUINGUE, one)
    assert not usual_spellings(Game.PANGUINGUE).grammars  # the usual grammar is the module's constant


ARCHITECTURE = PKG.parent / "docs" / "architecture.md"


def module_list(doc: str) -> list[tuple[str, str]]:
    """The rows of docs/architecture.md's "Every module" table: (path under pancli/, layer)."""
    section = doc.split("\n## Every module\n", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `([\w/.]+)` \| (\w+) \| .+ \|$", section, re.MULTILINE)
    return [(path, layer) for path, layer in rows]


def test_the_architecture_doc_lists_every_module_once_in_its_layer() -> None:
    """A module added, moved or removed is a line of that table: no module named only by its folder."""
    listed = module_list(ARCHITECTURE.read_text(encoding="utf-8"))
    paths = [path for path, _ in listed]
    assert sorted(p for p in set(paths) if paths.count(p) > 1) == []
    have = {path.relative_to(PKG).as_posix(): path for path in MODULES}
    assert sorted(have.keys() - set(paths)) == [], "modules missing from the list"
    assert sorted(set(paths) - have.keys()) == [], "the list names modules that are gone"
    wrong = [(p, layer) for p, layer in listed if LAYERS[_node(_module_name(have[p]))].name.lower() != layer]
    assert wrong == []


def test_a_module_left_out_of_the_architecture_doc_is_found() -> None:
    """The check above can fail: a table without ``referee/play.py`` lacks it."""
    doc = ARCHITECTURE.read_text(encoding="utf-8")
    row = next(line for line in doc.splitlines() if line.startswith("| `referee/play.py` |"))
    listed = {p for p, _ in module_list(doc.replace(row + "\n", ""))}
    assert "referee/play.py" not in listed and len(listed) == len(MODULES) - 1
