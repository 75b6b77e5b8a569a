"""``@frozen`` and :class:`QuickEnum`: pan's frozen value classes and enums, built for a cheap start-up.

``@frozen`` makes the class a frozen slots dataclass, as ``@dataclass(frozen=True, slots=True)``
does: the same fields (``dataclasses.fields``, ``replace``, ``asdict`` work), the same ``__init__``
signature, ``__match_args__``, ``__repr__``, ``__eq__``, ``__hash__``, ``FrozenInstanceError`` and
pickling, and on Python 3.13 ``copy.replace``. tests/test_values.py compares every value class of
pan with the plain dataclass of the same body (and the names each class holds).

Why it exists: start-up (issue 14). Python 3.11's ``dataclass`` compiles six methods from source text
for each frozen class, reads each string annotation three times with a regular expression (is it a
``ClassVar``, an ``InitVar``, a ``KW_ONLY``?) and, for the slots, builds the class a second time; with
about fifty value classes on a command's path that was the largest part of pan's start-up beyond
importing click. Here the class is built once, slots and all, from its own body with the fields'
defaults taken out; ``__init__``, ``__eq__`` and ``__hash__``, as dataclass writes them, are made
when they are first looked up (a call, or ``inspect.signature``) and put in the class in place of
their stand-in (:class:`_OnFirstUse`): a command makes values of few of the classes it imports (``pan
replay`` of a small file, 19 of 49) and compares or hashes fewer. Each is made from a template
compiled once for all the classes of its shape (:func:`_template`: ``pan standings`` makes values of
33 classes of 13 shapes), with the class's names put in. The other methods are shared functions or
closures. Measured in valgrind instructions (they do not drift as times do here): a
class of four fields costs about 3.6 million as ``dataclass(frozen=True, slots=True)``, 0.54 million
as ``@frozen`` built on ``dataclass(slots=True)`` with ``__init__``, ``__eq__`` and ``__hash__`` compiled
on first use, 0.21 million now (a plain class with ``__slots__``: 0.07); ``import pancli.model.settle,
pancli.model.rulings, pancli.melds`` after ``import click`` (35 value classes) 52.7 -> 39.1 million,
``pan replay`` of a small file 291.9 -> 275.7, ``pan standings`` 325.7 -> 308.1 (``import click``: 190.8).
A class's first value costs 0.45 million more when its ``__init__`` is compiled for it, 0.07 when the
template of its shape is there; its first comparison 0.62 and 0.09.

What it does not take (a ``TypeError`` says so): ``InitVar`` and ``KW_ONLY`` fields, keyword-only
fields and bases that are dataclasses.

>>> @frozen
... class Meld:
...     cards: tuple[str, ...]
...     claim: int | None = None
>>> m = Meld(("5s", "5s", "5s"))
>>> m, m == Meld(("5s",) * 3), hash(m) == hash(Meld(("5s",) * 3))
(Meld(cards=('5s', '5s', '5s'), claim=None), True, True)
>>> m.claim = 4
Traceback (most recent call last):
dataclasses.FrozenInstanceError: cannot assign to field 'claim'
"""

from __future__ import annotations

import dataclasses
import enum
import sys
import types
from collections.abc import Callable
from typing import Any, TypeVar, dataclass_transform

T = TypeVar("T")
Methods = dict[str, Callable[..., Any]]


@dataclass_transform(frozen_default=True, field_specifiers=(dataclasses.field, dataclasses.Field))
def frozen(cls: type[T]) -> type[T]:
    """``cls`` as a frozen slots dataclass (see the module's docstring)."""
    if any(hasattr(b, "__dataclass_fields__") for b in cls.__bases__):
        raise TypeError(f"@frozen {cls.__qualname__}: a base is a dataclass (not taken)")
    own = cls.__dict__
    body = {k: v for k, v in own.items() if k not in ("__dict__", "__weakref__")}
    fields = _fields(cls, body)
    body.update(
        __qualname__=cls.__qualname__,
        __slots__=tuple(fields),
        __dataclass_fields__=fields,
        __dataclass_params__=_PARAMS,
        __match_args__=tuple(n for n, f in fields.items() if f.init),
        __init__=_OnFirstUse(_init),
        __setattr__=_setattr,
        __delattr__=_delattr,
        __getstate__=_getstate,
        __setstate__=_setstate,
    )
    if sys.version_info >= (3, 13) and "__replace__" not in own:  # copy.replace(), as dataclass gives it there
        body["__replace__"] = _replace
    if "__eq__" not in own:
        body["__eq__"] = _OnFirstUse(_compared)
    if own.get("__hash__") is None:  # none written (one written with __eq__ only is None): as dataclass
        body["__hash__"] = _OnFirstUse(_compared)
    if "__repr__" not in own:
        body["__repr__"] = _repr(tuple(n for n, f in fields.items() if f.repr))
    meta: Any = type(cls)  # type(cls) as dataclass does (a class with a metaclass keeps it)
    made = meta(cls.__name__, cls.__bases__, body)
    if own.get("__doc__") is None:  # dataclass's own stand-in, from the signature of the __init__
        import inspect

        made.__doc__ = made.__name__ + str(inspect.signature(made)).replace(" -> None", "")
    return made  # type: ignore[no-any-return]


def _fields(cls: type, body: dict[str, Any]) -> dict[str, dataclasses.Field[Any]]:
    """The fields of ``cls``, as dataclass makes them from its annotations (``ClassVar`` left out);
    their defaults are taken out of ``body`` (a slot and a class attribute cannot share a name)."""
    fields: dict[str, dataclasses.Field[Any]] = {}
    defaulted = False
    for name, annotation in body.get("__annotations__", {}).items():
        kind = _kind(annotation)
        if kind == "ClassVar":
            continue
        given = body.pop(name, dataclasses.MISSING)
        f: dataclasses.Field[Any] = given if isinstance(given, dataclasses.Field) else dataclasses.field(default=given)
        if kind in ("InitVar", "KW_ONLY") or f.kw_only is True:
            raise TypeError(f"@frozen {cls.__qualname__}.{name}: {kind or 'kw_only'} is not taken")
        if f.default.__class__.__hash__ is None:  # as dataclass: a list, dict or set would be shared
            raise ValueError(f"mutable default {type(f.default)} for field {name} is not allowed: use default_factory")
        required = f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
        if f.init and required and defaulted:
            raise TypeError(f"non-default argument {name!r} follows default argument")  # as dataclass
        defaulted = defaulted or (f.init and not required)
        f.name, f.type, f.kw_only = name, annotation, False
        f._field_type = dataclasses._FIELD  # type: ignore[attr-defined]  # what dataclasses.fields() lists
        fields[name] = f
    return fields


def _kind(annotation: object) -> str:
    """``ClassVar``, ``InitVar`` or ``KW_ONLY`` for an annotation of one of those (``typing.`` or
    ``dataclasses.`` before it or not), else ``""``."""
    head = str(annotation).partition("[")[0].strip().rpartition(".")[2]
    return head if head in ("ClassVar", "InitVar", "KW_ONLY") else ""


@dataclasses.dataclass(init=False, repr=False, eq=False, match_args=False)
class _Parameters:
    """The ``__dataclass_params__`` every value class shares (those ``dataclass`` was asked for
    when it processed them: the methods are ``@frozen``'s own)."""


_PARAMS = _Parameters.__dataclass_params__  # type: ignore[attr-defined]


class _OnFirstUse:
    """The stand-in of a method compiled when first looked up: its class's first call of
    ``__init__`` (or ``inspect.signature`` of the class), first comparison or hash. ``compile``
    gives the methods of the class it makes (``__eq__`` and ``__hash__`` come together); each
    replaces its stand-in in the class, so a compilation happens once."""

    __slots__ = ("cls", "compile", "name")

    def __init__(self, compile: Callable[[type], Methods]) -> None:
        self.compile = compile

    def __set_name__(self, cls: type, name: str) -> None:
        self.cls, self.name = cls, name

    def __get__(self, obj: object, owner: type | None = None) -> Any:
        methods = self.compile(self.cls)
        for name, method in methods.items():
            method.__qualname__ = f"{self.cls.__qualname__}.{name}"
            if isinstance(self.cls.__dict__.get(name), _OnFirstUse):
                setattr(self.cls, name, method)
        return methods[self.name].__get__(obj, owner)


class _Factory:
    """The default shown for a field with a ``default_factory`` (as dataclass shows it)."""

    def __repr__(self) -> str:
        return "<factory>"


FACTORY = _Factory()


def _fields_of(cls: type) -> list[dataclasses.Field[Any]]:
    return list(cls.__dict__["__dataclass_fields__"].values())


def _init(cls: type) -> Methods:
    """The dataclass ``__init__``: each field set through its slot (about 3x faster than through
    ``object.__setattr__``), then ``__post_init__``; with dataclass's defaults and annotations."""
    env: dict[str, Any] = {"FACTORY": FACTORY}
    shape, params, defaults = [], [], []
    for i, f in enumerate(_fields_of(cls)):
        env[f"s{i}"] = cls.__dict__[f.name].__set__
        factory = f.default_factory is not dataclasses.MISSING
        if factory:
            env[f"f{i}"] = f.default_factory
        if f.init:
            params.append(f.name)
            shape.append("f" if factory else "p")
            if factory or f.default is not dataclasses.MISSING:
                defaults.append(FACTORY if factory else f.default)
        elif f.default is not dataclasses.MISSING:
            env[f"d{i}"] = f.default
            shape.append("d")
        else:
            shape.append("F" if factory else "-")
    if hasattr(cls, "__post_init__"):
        shape.append("+")
    code = _template("".join(shape), _init_source)["__init__"]
    me = "__dataclass_self__" if "self" in params else "self"  # as dataclass names it
    init = _function(cls, code.replace(co_varnames=(me, *params)), env, tuple(defaults) or None)
    init.__annotations__ = {**{f.name: f.type for f in _fields_of(cls) if f.init}, "return": None}
    return {"__init__": init}


def _init_source(shape: str) -> str:
    """The ``__init__`` of a class of this shape: a letter a field (``p`` a parameter, ``f`` one
    with a ``default_factory``, ``d`` and ``F`` not in ``__init__`` but with a default or a factory,
    ``-`` set by nobody), ``+`` for a ``__post_init__``; field ``i``'s slot setter is ``s{i}``, its
    parameter ``a{i}`` (renamed to the field's name), its default ``d{i}`` or factory ``f{i}``."""
    set_by = {
        "p": "s{i}(self, a{i})",
        "f": "s{i}(self, f{i}() if a{i} is FACTORY else a{i})",
        "d": "s{i}(self, d{i})",
        "F": "s{i}(self, f{i}())",
        "+": "self.__post_init__()",
    }
    params = "".join(f", a{i}" for i, kind in enumerate(shape) if kind in "pf")
    body = "".join(f"    {set_by[kind].format(i=i)}\n" for i, kind in enumerate(shape) if kind in set_by)
    return f"def __init__(self{params}):\n{body}    pass\n"


def _compared(cls: type) -> Methods:
    """The dataclass ``__eq__`` and ``__hash__``, on the tuple of the compared fields."""
    compared = {f"n{i}": f.name for i, f in enumerate(f for f in _fields_of(cls) if f.compare)}
    codes = _template(f"={len(compared)}", _compared_source)
    return {
        name: _function(cls, code.replace(co_names=tuple(compared.get(n, n) for n in code.co_names)), {}, None)
        for name, code in codes.items()
    }


def _compared_source(shape: str) -> str:
    """``__eq__`` and ``__hash__`` on ``self.n0``, ``self.n1`` .. (renamed to the compared fields)."""
    mine, theirs = (f"({''.join(f'{who}.n{i},' for i in range(int(shape[1:])))})" for who in ("self", "other"))
    return (
        "def __eq__(self, other):\n"
        f"    if other.__class__ is self.__class__:\n        return {mine} == {theirs}\n"
        "    return NotImplemented\n"
        f"def __hash__(self):\n    return hash({mine})\n"
    )


_TEMPLATES: dict[str, dict[str, types.CodeType]] = {}


def _template(shape: str, source: Callable[[str], str]) -> dict[str, types.CodeType]:
    """The code of the functions ``source(shape)`` defines, compiled once a process for each shape
    (``__init__`` of four plain fields, ``__eq__`` of two ...): the classes of a shape share it,
    each with its own names put in. A compilation costs about 0.45 million instructions (valgrind),
    which was once a class: ``pan standings`` made values of 33 classes of 13 shapes."""
    codes = _TEMPLATES.get(shape)
    if codes is None:
        defined: dict[str, Any] = {}
        exec(source(shape), {}, defined)
        codes = _TEMPLATES[shape] = {name: f.__code__ for name, f in defined.items()}
    return codes


def _function(cls: type, code: types.CodeType, env: dict[str, Any], defaults: tuple[Any, ...] | None) -> Any:
    """A method of ``cls`` running ``code``, with ``env`` for its globals."""
    return types.FunctionType(code.replace(co_qualname=f"{cls.__qualname__}.{code.co_name}"), env, None, defaults)


def _repr(names: tuple[str, ...]) -> Callable[[object], str]:
    def __repr__(self: object) -> str:
        return f"{type(self).__qualname__}({', '.join([f'{n}={getattr(self, n)!r}' for n in names])})"

    return __repr__


def _setattr(self: object, name: str, value: object) -> None:
    raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")


def _delattr(self: object, name: str) -> None:
    raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")


def _getstate(self: object) -> list[Any]:
    return [getattr(self, n) for n in _names(self)]


def _setstate(self: object, state: list[Any]) -> None:
    for n, v in zip(_names(self), state, strict=False):
        object.__setattr__(self, n, v)


def _replace(self: object, /, **changes: Any) -> Any:
    return dataclasses.replace(self, **changes)  # type: ignore[type-var]


def _names(self: object) -> dict[str, Any]:
    names: dict[str, Any] = type(self).__dataclass_fields__  # type: ignore[attr-defined]
    return names


class QuickEnum(enum.EnumType):
    """The metaclass of pan's enums, for start-up: ``class Suit(enum.Enum, metaclass=QuickEnum)``
    makes the enum ``class Suit(enum.Enum)`` makes (tests/test_values.py compares each of pan's
    with the enum of the same source, as the standard library's ``enum._test_simple_enum`` does),
    built by the standard library's own fast path, ``enum._simple_enum`` (``re`` and ``ast`` build
    theirs so), which skips the checks made on each member as the class body runs. Its members are
    then put in the class as ``EnumType`` puts them (``enum._simple_enum`` leaves a property for
    each, which makes ``Suit.SPADES`` a Python call). Measured (valgrind instructions): the
    69-member ``Rule`` 5.4 -> 2.6 million, an enum of two members 0.43 -> 0.25 million, the twelve
    enums of the core and model modules 5.7 million less.
    mypy reads these classes as the enums they are (the metaclass derives from ``EnumType``).
    ``enum._simple_enum`` is private to the standard library (present in Python 3.11-3.13): on a
    Python without it, ``QuickEnum`` builds the plain enum, as ``EnumType`` does."""

    @classmethod
    def __prepare__(metacls, cls: str, bases: tuple[type, ...], **kwds: Any) -> dict[str, Any]:  # type: ignore[override]
        if not hasattr(enum, "_simple_enum"):
            return super().__prepare__(cls, bases, **kwds)
        return {}

    def __new__(metacls, cls: str, bases: tuple[type, ...], classdict: dict[str, Any], **kwds: Any) -> Any:
        if not hasattr(enum, "_simple_enum"):  # no fast path in this Python: the plain enum
            return super().__new__(metacls, cls, bases, classdict, **kwds)  # type: ignore[arg-type]
        (base,) = bases
        made: Any = enum._simple_enum(base)(type(cls, (), classdict))
        for name, member in made._member_map_.items():
            type.__setattr__(made, name, member)
        return made
