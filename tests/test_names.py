"""Names in the code: one meaning per class name across the package, one judge per question,
and an import inside a function only with its reason.

A class name defined twice (a ``Board`` of each game, two ``Hand`` values, two ``Options``) makes
every reader and every ``grep`` ask which one is meant; each class gets the name of what it is.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections import defaultdict
from pathlib import Path

import pytest

PKG = Path(__file__).resolve().parent.parent / "pancli"


def _trees() -> dict[str, ast.Module]:
    return {str(p.relative_to(PKG.parent)): ast.parse(p.read_text(encoding="utf-8")) for p in sorted(PKG.rglob("*.py"))}


_GENERICS = frozenset({"tuple", "list", "dict", "set", "frozenset", "type", "Callable", "Literal", "Annotated"})
"""Subscripted, these make a type: ``Move = tuple[Card, Source, Source]`` names a type as a class does."""


_TYPE_VARIABLES = frozenset({"TypeVar", "ParamSpec", "TypeVarTuple", "NewType"})


def _is_union(v: ast.expr) -> bool:
    """``A | B | None``: a union of types (names, dotted names, subscripts, None)."""
    if not (isinstance(v, ast.BinOp) and isinstance(v.op, ast.BitOr)):
        return False
    return all(
        _is_union(x)
        or isinstance(x, ast.Name | ast.Attribute | ast.Subscript)
        or (isinstance(x, ast.Constant) and x.value is None)
        for x in (v.left, v.right)
    )


def _module_statements(body: list[ast.stmt]) -> list[ast.stmt]:
    """A module's own statements, those under ``if TYPE_CHECKING:`` and ``try:`` too."""
    out: list[ast.stmt] = []
    for s in body:
        out.append(s)
        if isinstance(s, ast.If | ast.Try):
            out += _module_statements(s.body) + _module_statements(s.orelse)
    return out


def _type_name(s: ast.stmt) -> tuple[str, str] | None:
    """The name a module-level statement gives a type, and how: a type alias (``X: TypeAlias = ...``,
    ``X = tuple[...]``; Python 3.11 has no ``type X = ...``), a union (``X = A | B``) or a type
    variable (``X = TypeVar("X")``)."""
    if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name) and "TypeAlias" in ast.unparse(s.annotation):
        return s.target.id, "alias"
    if not (isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name)):
        return None
    v = s.value
    if isinstance(v, ast.Call) and ast.unparse(v.func).rsplit(".", 1)[-1] in _TYPE_VARIABLES:
        return s.targets[0].id, "typevar"
    if _is_union(v):
        return s.targets[0].id, "union"
    if isinstance(v, ast.Subscript) and ast.unparse(v.value).rsplit(".", 1)[-1] in _GENERICS:
        return s.targets[0].id, "alias"
    return None


def class_names(trees: dict[str, ast.Module]) -> dict[str, list[str]]:
    """Type name -> where each type of that name is defined (``file:line``): classes (nested ones
    too), and a module's type aliases, unions and type variables (marked `` alias``, `` union``,
    `` typevar``): ``Plan = A | B`` in two modules is two meanings of one name as two classes are."""
    where: defaultdict[str, list[str]] = defaultdict(list)
    for rel, tree in trees.items():
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                where[node.name].append(f"{rel}:{node.lineno}")
        for s in _module_statements(tree.body):
            named = _type_name(s)
            if named is not None:
                where[named[0]].append(f"{rel}:{s.lineno} {named[1]}")
    return where


def twice(where: dict[str, list[str]]) -> dict[str, list[str]]:
    """The names given two meanings. Type variables may share a name (``T`` is "some type" in
    every module), but not with a class or an alias."""
    return {
        name: places
        for name, places in where.items()
        if len(places) > 1 and not all(p.endswith(" typevar") for p in places)
    }


def test_each_class_name_is_defined_once() -> None:
    assert twice(class_names(_trees())) == {}


def function_places(trees: dict[str, ast.Module], name: str) -> list[str]:
    """Where a module-level function ``name`` is defined (``file:line``)."""
    return [
        f"{rel}:{n.lineno}"
        for rel, tree in trees.items()
        for n in tree.body
        if isinstance(n, ast.FunctionDef) and n.name == name
    ]


@pytest.mark.parametrize("name", ["error_line", "error_suffix", "write_json", "referee_hand"])
def test_a_function_name_with_one_meaning_is_defined_once(name: str) -> None:
    # render/check.py's error suffix with its reason cut short is clipped_suffix; simulate's hands
    # streamed, stream_hands; the judges' referee of a HandScript, referee_script (the one
    # protocol of both games' referees, app/replay.py's Referee), apart from the API's referee_hand
    assert len(function_places(_trees(), name)) == 1


def test_a_second_class_of_a_name_is_found() -> None:
    trees = {
        "a.py": ast.parse("class Board:\n    pass\n"),
        "b.py": ast.parse("def f():\n    class Board:\n        pass\n"),
    }
    assert class_names(trees)["Board"] == ["a.py:1", "b.py:2"]


def test_a_type_alias_typevar_or_union_sharing_a_name_is_found() -> None:
    trees = {
        "a.py": ast.parse("class Out:\n    pass\nclass Judgement:\n    pass\n"),
        "b.py": ast.parse("Out = TypeVar('Out')\nPlan = A | B | None\nT = TypeVar('T')\nMove = tuple[int, int]\n"),
        "c.py": ast.parse(
            "if TYPE_CHECKING:\n    Judgement: TypeAlias = A | B\nPlan = C | None\nT = typing.TypeVar('T')\nMove = A\n"
        ),
    }
    assert twice(class_names(trees)) == {
        "Out": ["a.py:1", "b.py:1 typevar"],
        "Judgement": ["a.py:3", "c.py:2 alias"],
        "Plan": ["b.py:2 union", "c.py:3 union"],
    }


def mode_switches(trees: dict[str, ast.Module]) -> list[str]:
    """Judges (functions returning a ``Ruling``) that take a string saying which question to
    answer: a parameter compared with two string constants or more, or typed as a ``Literal``
    of strings (``turn_fault(..., stage="seat")``)."""
    out: list[str] = []
    for rel, tree in trees.items():
        for fn in ast.walk(tree):
            if not isinstance(fn, ast.FunctionDef) or "Ruling" not in ast.unparse(fn.returns or ast.Constant(None)):
                continue
            params = [*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs]
            modes = {a.arg for a in params if a.annotation is not None and "Literal[" in ast.unparse(a.annotation)}
            said: defaultdict[str, set[str]] = defaultdict(set)
            for node in ast.walk(fn):
                if isinstance(node, ast.Compare) and isinstance(node.left, ast.Name):
                    for c in node.comparators:
                        for const in (c, *getattr(c, "elts", ())):
                            if isinstance(const, ast.Constant) and isinstance(const.value, str):
                                said[node.left.id].add(const.value)
            modes |= {name for name, values in said.items() if len(values) >= 2 and name in {a.arg for a in params}}
            out += [f"{rel}:{fn.lineno} {fn.name}({name})" for name in sorted(modes)]
    return out


def test_no_judge_takes_a_mode() -> None:
    assert mode_switches(_trees()) == []


def test_a_judge_taking_a_mode_is_found() -> None:
    src = (
        "def turn_fault(b, stage: str) -> Ruling | None:\n"
        "    if stage == 'seat':\n        return None\n"
        "    if stage == 'order':\n        return None\n"
        "def pick(b, how: Literal['a', 'b']) -> Ruling:\n    return b\n"
        "def render(b, form: str) -> str:\n    return 'x' if form == 'a' else 'y' if form == 'b' else ''\n"
    )
    assert mode_switches({"m.py": ast.parse(src)}) == ["m.py:1 turn_fault(stage)", "m.py:6 pick(how)"]


def _imports_by_function(tree: ast.Module) -> dict[ast.AST, list[ast.Import | ast.ImportFrom]]:
    """Each function -> the imports in its own body (an inner function's are its own)."""
    inner: dict[ast.AST, list[ast.Import | ast.ImportFrom]] = defaultdict(list)

    def visit(node: ast.AST, fn: ast.AST | None) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import | ast.ImportFrom) and fn is not None:
                inner[fn].append(child)
            visit(child, child if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef) else fn)

    visit(tree, None)
    return inner


_NOT_A_REASON = ("noqa", "type:", "pragma", "fmt:", "pyright:")
"""Comments for tools, which give no reason."""

_WHY_INSIDE = re.compile(r"start-up|\bonly\b|\bnot for\b|\bcircular\b", re.IGNORECASE)
"""The words of a reason for an import inside a function: it is put off for start-up (``start-up:
pan check does without it``, ``only for --json``, ``not for --help``) or it would close an import
circle. A comment that says none of them (``# hi``, a note on the branch) is no reason."""


def _top_imports(tree: ast.Module) -> set[str]:
    """What a module imports at its top when run (``json``, ``pancli.cards.Card``); those under
    ``if TYPE_CHECKING:`` are not run, so a function may import them."""
    out: set[str] = set()
    for s in tree.body:
        if isinstance(s, ast.Import):
            out |= {a.name for a in s.names}
        elif isinstance(s, ast.ImportFrom):
            out |= {f"{s.module}.{a.name}" for a in s.names}
    return out


def _imported(imp: ast.Import | ast.ImportFrom) -> set[str]:
    if isinstance(imp, ast.Import):
        return {a.name for a in imp.names}
    return {f"{imp.module}.{a.name}" for a in imp.names}


def unexplained_imports(sources: dict[str, str]) -> list[str]:
    r"""Imports inside a function with no reason given: no comment saying why it is inside
    (:data:`_WHY_INSIDE`) on the import's lines, nor on the line just above the run of imports it
    belongs to (one reason for the imports written together, blank lines between them); a comment
    for a tool (``# noqa``, ``# type: ignore``) is no reason, and ``__import__`` is an import too.
    An import of what the module imports at its top anyway has no true reason (marked ``(at the top)``).

    An import belongs at the top of its module; one inside a function is there for start-up (a
    heavy library, a module only some commands need), and says so.

    >>> unexplained_imports({"m.py": "def f():\n    import json  # noqa\n"})
    ['m.py:2 import json']
    >>> unexplained_imports({"m.py": "def f():\n    # start-up: only f needs them\n    import json\n    import csv\n"})
    []
    >>> unexplained_imports({"m.py": "def f():\n    # start-up\n    import json\n    x = 1\n    import csv\n"})
    ['m.py:5 import csv']
    >>> unexplained_imports({"m.py": "def f():\n    return __import__('json')\n"})
    ["m.py:2 __import__('json')"]
    >>> unexplained_imports({"m.py": "def f():\n    # hi\n    import json\n"})
    ['m.py:3 import json']
    >>> unexplained_imports({"m.py": "import json\ndef f():\n    import json  # start-up: only f\n"})
    ['m.py:3 import json (at the top)']
    """
    out: list[str] = []
    for rel, text in sources.items():
        said = {
            t.start[0]
            for t in tokenize.generate_tokens(io.StringIO(text).readline)
            if t.type == tokenize.COMMENT
            and not t.string.lstrip("# ").startswith(_NOT_A_REASON)
            and _WHY_INSIDE.search(t.string)
        }
        tree = ast.parse(text)
        top = _top_imports(tree)
        lines = text.splitlines()
        for imports in _imports_by_function(tree).values():
            run_said = False
            after = -1  # the line the last import ended on
            for imp in imports:
                end = imp.end_lineno or imp.lineno
                if after < 0 or any(x.strip() for x in lines[after : imp.lineno - 1]):  # a new run of imports
                    run_said = imp.lineno - 1 in said
                if not run_said and not said.intersection(range(imp.lineno, end + 1)):
                    out.append(f"{rel}:{imp.lineno} {ast.unparse(imp)}")
                elif _imported(imp) & top:
                    out.append(f"{rel}:{imp.lineno} {ast.unparse(imp)} (at the top)")
                after = end
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "__import__"):
                continue
            if not {node.lineno, node.lineno - 1} & said:
                out.append(f"{rel}:{node.lineno} {ast.unparse(node)}")
    return out


def test_every_import_inside_a_function_says_why() -> None:
    sources = {str(p.relative_to(PKG.parent)): p.read_text(encoding="utf-8") for p in sorted(PKG.rglob("*.py"))}
    assert unexplained_imports(sources) == []


def test_an_import_inside_a_function_without_a_reason_is_found() -> None:
    src = (
        "def f():\n    import json  # start-up: only --json\n    import csv\n"
        "def g():\n    # start-up: only this command\n    import csv\n    import json\n"
        "def h():\n    x = 1\n    import csv\n"
        "def i():\n    # hi\n    import json\n"
        "def j():\n    import json  # a note on the branch\n"
    )
    assert unexplained_imports({"m.py": src}) == [
        "m.py:3 import csv",
        "m.py:10 import csv",
        "m.py:13 import json",
        "m.py:15 import json",
    ]


_LOADED_SCAN = r"""
import os, sys

def flagged(module, imports):
    __import__(module)
    loaded = set(sys.modules)
    import importlib.util

    def submodule(source, n):
        try:
            return importlib.util.find_spec(f"{source}.{n}") is not None
        except ImportError:
            return False

    out = []
    for line, source, names in imports:
        if source is None:  # import a, b.c
            hit = all(n in loaded for n in names)
        else:  # from source import names: a name that is a submodule must be loaded too
            hit = source in loaded and all(f"{source}.{n}" in loaded or not submodule(source, n) for n in names)
        if hit:
            out.append(line)
    return out

found = []
for module, imports in eval(sys.stdin.read()):
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # each module imported alone, in a fresh child of this bare interpreter
        os.close(read)
        os.write(write, repr(flagged(module, imports)).encode())
        os._exit(0)
    os.close(write)
    with os.fdopen(read) as r:
        lines = eval(r.read())
    os.waitpid(pid, 0)
    found += [f"{module}:{n}" for n in lines]
print(repr(found))
"""
"""Imports each module with inner imports in a forked child of one interpreter that has loaded
nothing more than Python starts with (``os``, ``sys``; its input and output are literals, read
by ``eval``), and names the inner imports whose modules that import has loaded already."""


def test_no_inner_import_of_a_module_its_own_module_has_loaded() -> None:
    """An import inside a function, put off "for start-up", buys nothing when importing its own
    module has loaded that module already (through another import): it belongs at the top."""
    import subprocess
    import sys

    todo = []
    for p in sorted(PKG.rglob("*.py")):
        module = ".".join(p.relative_to(PKG.parent).with_suffix("").parts).removesuffix(".__init__")
        imports = [
            (imp.lineno, None, [a.name for a in imp.names])
            if isinstance(imp, ast.Import)
            else (imp.lineno, imp.module, [a.name for a in imp.names])
            for fn_imports in _imports_by_function(ast.parse(p.read_text(encoding="utf-8"))).values()
            for imp in fn_imports
            if isinstance(imp, ast.Import) or imp.level == 0
        ]
        if imports:
            todo.append((module, imports))
    run = subprocess.run(
        [sys.executable, "-c", _LOADED_SCAN], input=repr(todo), capture_output=True, text=True, check=True
    )
    found = ast.literal_eval(run.stdout)
    assert not found, found
