"""``@frozen`` (pancli.values) builds what ``@dataclass(frozen=True, slots=True)`` builds.

Every value class of pan is rebuilt here as the plain dataclass from its own fields and methods,
and both are compared: ``__init__`` signature, fields, slots, repr, equality, hash, frozenness,
pickling (issue 14: ``@frozen`` exists for start-up speed only, so it must not change behaviour).
"""

from __future__ import annotations
import __future__

import copy
import dataclasses
import enum
import importlib
import inspect
import pickle
import pkgutil
import sys
import textwrap
from typing import Any, ClassVar

import pytest

import pancli
from pancli import values
from pancli.cards import ALL_CARDS, Card
from pancli.pagruc.pack import PagrucPack
from pancli.values import frozen

DATACLASS = ("__slots__", "__dataclass_fields__", "__dataclass_params__", "__match_args__")
GENERATED = (
    *("__init__", "__repr__", "__eq__", "__hash__", "__setattr__", "__delattr__", "__getstate__", "__setstate__"),
    "__replace__",  # Python 3.13's dataclass: copy.replace()
)


def value_classes() -> list[type]:
    """Every class of pancli made by ``@frozen`` (its ``__setattr__`` is the frozen one)."""
    out: dict[str, type] = {}
    for m in pkgutil.walk_packages(pancli.__path__, "pancli."):
        if m.name == "pancli.__main__":
            continue
        mod = importlib.import_module(m.name)
        for obj in vars(mod).values():
            if (
                isinstance(obj, type)
                and obj.__module__ == m.name
                and obj.__dict__.get("__setattr__") is values._setattr
            ):
                out[f"{m.name}.{obj.__qualname__}"] = obj
    return [out[k] for k in sorted(out)]


def plain(cls: type) -> type:
    """``cls`` rebuilt as ``@dataclass(frozen=True, slots=True)`` of the same body."""
    ns: dict[str, Any] = {
        k: v
        for k, v in cls.__dict__.items()
        if k not in GENERATED
        and k not in cls.__dict__["__slots__"]
        and k not in ("__slots__", "__dataclass_fields__", "__dataclass_params__", "__match_args__")
    }
    if ns.get("__doc__", "").startswith(f"{cls.__name__}("):  # no docstring: dataclass writes one
        del ns["__doc__"]
    for k in ("__repr__", "__eq__", "__hash__"):  # the class's own, when it wrote one
        if k in cls.__dict__ and getattr(cls.__dict__[k], "__module__", None) != "pancli.values":
            ns[k] = cls.__dict__[k]
    for f in dataclasses.fields(cls):
        kw: dict[str, Any] = {"init": f.init, "repr": f.repr, "compare": f.compare, "hash": f.hash}
        if f.default is not dataclasses.MISSING:
            kw["default"] = f.default
        if f.default_factory is not dataclasses.MISSING:
            kw["default_factory"] = f.default_factory
        ns[f.name] = dataclasses.field(**kw)
    made: type = dataclasses.dataclass(frozen=True, slots=True)(type(cls.__name__, cls.__bases__, ns))
    made.__qualname__ = cls.__qualname__
    return made


CLASSES = value_classes()


def outcome(f: Any, x: object) -> tuple[str, object]:
    try:
        return "value", f(x)
    except Exception as exc:
        return "raises", type(exc)


def test_every_value_class_is_found() -> None:
    names = {c.__name__ for c in CLASSES}
    assert {"Card", "Turn", "HandScript", "Payment", "Profile"} <= names and len(CLASSES) > 60


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: f"{c.__module__}.{c.__qualname__}")
def test_frozen_class_is_the_plain_frozen_slots_dataclass(cls: type) -> None:
    ref = plain(cls)
    assert str(inspect.signature(cls)) == str(inspect.signature(ref))
    assert (
        vars(cls)["__slots__"] == vars(ref)["__slots__"] and vars(cls)["__match_args__"] == vars(ref)["__match_args__"]
    )
    assert [(f.name, f.init, f.repr, f.compare) for f in dataclasses.fields(cls)] == [
        (f.name, f.init, f.repr, f.compare) for f in dataclasses.fields(ref)
    ]
    assert cls.__doc__ == ref.__doc__
    assert sorted(vars(cls)) == sorted(vars(ref)), "a method dataclass makes on this Python is missing (or one more)"
    if "__post_init__" in cls.__dict__:
        return  # Card and the PAGRUC pack compute from their values: compared in the test below
    # distinct stand-in values for the fields without a default (the methods do not look at types)
    required = [
        f.name
        for f in dataclasses.fields(cls)
        if f.init and f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
    ]
    args = [f"<{n}>" for n in required]
    a, b, again = cls(*args), ref(*args), cls(*args)
    assert repr(a) == repr(b)
    assert a == again and (a != again) is False and (a == b) is False
    assert outcome(hash, a) == outcome(hash, b) == outcome(hash, again)  # a dict field: TypeError in both
    for f in dataclasses.fields(cls):
        assert getattr(a, f.name) == getattr(b, f.name)
        with pytest.raises(dataclasses.FrozenInstanceError, match=f"cannot assign to field '{f.name}'"):
            setattr(a, f.name, 1)
        with pytest.raises(dataclasses.FrozenInstanceError, match=f"cannot delete field '{f.name}'"):
            delattr(a, f.name)
    if required:  # a compared field that differs makes them unequal (and a field not compared does not)
        other = cls(*args[:-1], "<changed>")
        compared = next(f.compare for f in dataclasses.fields(cls) if f.name == required[-1])
        assert (a == other) is not compared
    assert pickle.loads(pickle.dumps(a)) == a
    assert dataclasses.replace(a) == a and dataclasses.astuple(a) == dataclasses.astuple(b)
    if sys.version_info >= (3, 13):
        assert outcome(lambda x: copy.replace(x), a) == ("value", a)  # type: ignore[attr-defined]


def test_cards_are_the_plain_dataclass_cards() -> None:
    ref = plain(Card)
    for c in ALL_CARDS:
        r = ref(c.rank, c.suit)
        assert (repr(c), hash(c), c.index, c.text) == (repr(r), hash(r), r.index, r.text)
        assert c == Card(c.rank, c.suit) and pickle.loads(pickle.dumps(c)) == c


def test_pagruc_packs_are_the_plain_dataclass_packs() -> None:
    ref = plain(PagrucPack)
    for n in (1, 2):
        assert (repr(PagrucPack(n)), hash(PagrucPack(n))) == (repr(ref(n)), hash(ref(n)))
    for cls in (PagrucPack, ref):  # __post_init__ runs in both
        with pytest.raises(ValueError, match="one or two packs, not 3"):
            cls(3)


def test_defaults_factories_and_fields_outside_init() -> None:
    @frozen
    class Bag:
        name: str
        items: dict[str, int] = dataclasses.field(default_factory=dict)
        count: int = 3
        hidden: int = dataclasses.field(default=7, init=False, repr=False, compare=False)

    ref = plain(Bag)
    assert (
        str(inspect.signature(Bag))
        == str(inspect.signature(ref))
        == "(name: 'str', items: 'dict[str, int]' = <factory>, count: 'int' = 3) -> None"
    )
    a, b = Bag("x"), ref("x")
    assert repr(a) == repr(b) and repr(a).endswith(".Bag(name='x', items={}, count=3)") and a.hidden == b.hidden == 7
    assert Bag("x").items is not a.items and Bag("x", {"k": 1}, 4) == Bag("x", {"k": 1}, 4) != a
    with pytest.raises(TypeError):  # unhashable field, as the dataclass
        hash(a)


def test_eq_and_hash_are_compiled_on_first_use_and_replace_themselves() -> None:
    @frozen
    class Pair:
        a: int
        b: str = "x"

    first_eq, first_hash = Pair.__dict__["__eq__"], Pair.__dict__["__hash__"]
    assert (Pair(1) == Pair(1), Pair(1) == Pair(2), Pair(1) != Pair(1)) == (True, False, False)
    assert Pair.__dict__["__eq__"] is not first_eq and Pair.__dict__["__hash__"] is not first_hash
    assert hash(Pair(1)) == hash((1, "x")) and Pair(1).__eq__(3) is NotImplemented


def test_init_is_compiled_on_first_use_and_replaces_its_stand_in() -> None:
    def trio() -> Any:
        @frozen
        class Trio:
            """Three fields."""

            a: int
            b: dict[str, int] = dataclasses.field(default_factory=dict)
            c: str = "x"

        return Trio

    called, asked = trio(), trio()
    assert all(isinstance(c.__dict__["__init__"], values._OnFirstUse) for c in (called, asked))
    with pytest.raises(TypeError, match=r"Trio.__init__\(\) missing 1 required positional argument: 'a'"):
        called()  # the first call compiles it, and the real one reports the missing field
    signature = str(inspect.signature(asked))  # asking for the signature compiles it too
    assert signature == "(a: 'int', b: 'dict[str, int]' = <factory>, c: 'str' = 'x') -> None"
    for cls in (called, asked):
        init = cls.__dict__["__init__"]
        assert inspect.isfunction(init) and init.__qualname__ == f"{cls.__qualname__}.__init__"
        assert init.__annotations__ == {"a": "int", "b": "dict[str, int]", "c": "str", "return": None}
        assert str(inspect.signature(cls)) == signature
    t = called(1, c="y")
    assert (t.a, t.b, t.c) == (1, {}, "y") and called(2).b is not called(2).b


def test_classes_of_one_shape_share_one_compiled_template_each_with_its_names() -> None:
    @frozen
    class Pair:
        """Two fields, the second with a default."""

        x: int
        y: str = "y"

    @frozen
    class Other:
        """Two other fields of the same shape."""

        p: tuple[int, ...]
        q: int = 0

    a, b = Pair(1), Other((2,), q=3)
    assert (a.x, a.y, b.p, b.q, Other(()).q) == (1, "y", (2,), 3, 0)
    template = values._TEMPLATES["pp"]["__init__"]
    for cls, names in ((Pair, ("self", "x", "y")), (Other, ("self", "p", "q"))):
        init = cls.__init__
        assert init.__code__.co_code == template.co_code and init.__code__.co_varnames == names
        assert init.__code__.co_qualname == init.__qualname__ == f"{cls.__qualname__}.__init__"
    with pytest.raises(TypeError, match=r"Other.__init__\(\) got an unexpected keyword argument 'x'"):
        Other(x=1)
    assert (Pair(1) == Pair(1), Other((1,)) == Other((1,), 0), Other((1,)) == Other((1,), 5)) == (True, True, False)
    assert hash(Pair(1)) == hash((1, "y")) and Pair.__eq__.__code__.co_code == Other.__eq__.__code__.co_code
    with pytest.raises(TypeError, match="non-default argument 'b' follows default argument"):
        frozen(type("Bad", (), {"__annotations__": {"a": "int", "b": "int"}, "a": 1}))


def test_class_variables_stay_on_the_class_and_what_frozen_does_not_take_is_refused() -> None:
    @frozen
    class Counted:
        """A field and a class variable."""

        n: int
        unit: ClassVar[str] = "card"

    assert [f.name for f in dataclasses.fields(Counted)] == ["n"] and Counted(3).unit == "card"
    assert vars(Counted)["__slots__"] == ("n",) and Counted.__match_args__ == ("n",)
    with pytest.raises(ValueError, match="mutable default <class 'list'> for field xs"):
        frozen(type("Listed", (), {"__annotations__": {"xs": "list[int]"}, "xs": []}))
    for annotation in ("InitVar[int]", "dataclasses.KW_ONLY"):
        with pytest.raises(TypeError, match="is not taken"):
            frozen(type("Odd", (), {"__annotations__": {"x": annotation}}))
    with pytest.raises(TypeError, match="a base is a dataclass"):
        frozen(type("Sub", (Counted,), {"__annotations__": {"m": "int"}}))


def quick_enums() -> list[type[enum.Enum]]:
    """Every enum of pancli built by :class:`~pancli.values.QuickEnum` (named in its class statement)."""
    out: dict[str, type[enum.Enum]] = {}
    for m in pkgutil.walk_packages(pancli.__path__, "pancli."):
        if m.name == "pancli.__main__":
            continue
        for obj in vars(importlib.import_module(m.name)).values():
            if isinstance(obj, enum.EnumType) and obj.__module__ == m.name and "metaclass=QuickEnum" in source(obj):
                out[f"{m.name}.{obj.__qualname__}"] = obj
    return [out[k] for k in sorted(out)]


def source(cls: type) -> str:
    return textwrap.dedent(inspect.getsource(cls))


QUICK_ENUMS = quick_enums()


def test_every_quick_enum_is_found() -> None:
    names = {e.__name__ for e in QUICK_ENUMS}
    assert {"Rule", "Family", "Suit", "Rank", "Game", "Source"} <= names


@pytest.mark.parametrize("quick", QUICK_ENUMS, ids=lambda e: f"{e.__module__}.{e.__qualname__}")
def test_quick_enum_is_the_enum_of_the_same_source(quick: type[enum.Enum]) -> None:
    ns = dict(vars(sys.modules[quick.__module__]))
    text = source(quick).replace(", metaclass=QuickEnum", "")
    exec(compile(text, "<the same enum>", "exec", flags=__future__.annotations.compiler_flag), ns)
    checked = ns[quick.__name__]
    assert type(checked) is enum.EnumType and "QuickEnum" not in text
    enum._test_simple_enum(checked, quick)  # type: ignore[attr-defined]  # raises on a difference
    assert [(m.name, m.value, str(m), repr(m), f"{m}") for m in checked] == [
        (m.name, m.value, str(m), repr(m), f"{m}") for m in quick
    ]
    for m in quick:  # each member in the class as EnumType puts it (not behind a property)
        assert vars(quick)[m.name] is m and vars(checked)[m.name] is checked[m.name]
        assert quick(m.value) is m and quick[m.name] is m and pickle.loads(pickle.dumps(m)) is m


def test_quick_enum_without_the_fast_path_builds_the_plain_enum(monkeypatch: pytest.MonkeyPatch) -> None:
    """A Python whose ``enum`` has no ``_simple_enum`` (it is private) still gets pan's enums."""
    monkeypatch.delattr(enum, "_simple_enum")
    rule = QUICK_ENUMS[[e.__name__ for e in QUICK_ENUMS].index("Rule")]
    ns = dict(vars(sys.modules[rule.__module__]))
    exec(compile(source(rule), "<Rule without the fast path>", "exec", flags=__future__.annotations.compiler_flag), ns)
    plain = ns[rule.__name__]
    assert type(plain) is values.QuickEnum
    assert [(m.name, m.value, str(m), repr(m)) for m in plain] == [(m.name, m.value, str(m), repr(m)) for m in rule]
    assert all(vars(plain)[m.name] is m and plain(m.value) is m for m in plain)
