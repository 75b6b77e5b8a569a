"""``@frozen``: pan's frozen value classes, built for a cheap start-up.

``@frozen`` makes the class a frozen slots dataclass, as ``@dataclass(frozen=True, slots=True)``
does: the same fields (``dataclasses.fields``, ``replace``, ``asdict`` work), the same ``__init__``
signature, ``__repr__``, ``__eq__``, ``__hash__``, ``FrozenInstanceError`` and pickling.

Why it exists: Python 3.11's ``dataclass`` compiles six methods from source text for each frozen
class, one compilation each (``__init__``, ``__repr__``, ``__eq__``, ``__hash__``, ``__setattr__``,
``__delattr__``), and with about fifty such classes on a command's path those compilations were
the largest part of pan's start-up beyond importing click (issue 14). Here ``dataclass`` is asked
for the fields and the slots only; ``__init__`` is compiled as dataclass writes it (each slot set
directly: about 3x faster than through ``object.__setattr__``) when the class is first called,
``__eq__`` and ``__hash__`` when first used, and the others are shared functions or closures,
which cost no compilation (a command makes values of few of the classes it imports). Measured
against this module made plain ``dataclass(frozen=True, slots=True)`` (CPU time, medians of 15
alternating runs; ``python -c "import click"`` 95 ms): ``pan replay`` of a small file 230 -> 186 ms,
``pan standings`` 223 -> 187 ms. tests/test_values.py compares every value class of pan with the
plain dataclass of the same body.

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
import inspect
from collections.abc import Callable
from typing import Any, TypeVar, dataclass_transform

T = TypeVar("T")


@dataclass_transform(frozen_default=True, field_specifiers=(dataclasses.field, dataclasses.Field))
def frozen(cls: type[T]) -> type[T]:
    """``cls`` as a frozen slots dataclass (see the module's docstring)."""
    documented = cls.__doc__ is not None
    made: Any = dataclasses.dataclass(cls, init=False, repr=False, eq=False, slots=True)
    fields = dataclasses.fields(made)
    own = made.__dict__
    made.__init__ = _init_on_first_use(made, fields)
    if not documented:  # dataclass's own stand-in, from the signature of the __init__ now in place
        made.__doc__ = made.__name__ + str(inspect.signature(made)).replace(" -> None", "")
    eq, hash_ = _compared_on_first_use(made, tuple(f.name for f in fields if f.compare))
    if "__eq__" not in own:
        made.__eq__ = eq
    if own.get("__hash__") is None:  # none written (one written with __eq__ only is None): as dataclass
        made.__hash__ = hash_
    if "__repr__" not in own:
        made.__repr__ = _repr(tuple(f.name for f in fields if f.repr))
    made.__setattr__, made.__delattr__ = _setattr, _delattr
    names = tuple(f.name for f in fields)
    made.__getstate__ = lambda self: [getattr(self, n) for n in names]
    made.__setstate__ = _setstate(names)
    return made  # type: ignore[no-any-return]


class _Factory:
    """The default shown for a field with a ``default_factory`` (as dataclass shows it)."""

    def __repr__(self) -> str:
        return "<factory>"


FACTORY = _Factory()


def _compiled(cls: type, source: str, env: dict[str, Any]) -> dict[str, Callable[..., Any]]:
    """The functions ``source`` defines, named as methods of ``cls``."""
    methods: dict[str, Callable[..., Any]] = {}
    exec(source, env, methods)
    for name, method in methods.items():
        method.__qualname__ = f"{cls.__qualname__}.{name}"
    return methods


def _init_on_first_use(cls: type, fields: tuple[dataclasses.Field[Any], ...]) -> Callable[..., None]:
    """An ``__init__`` that compiles the real one (:func:`_init`) when first called and puts it in
    its place, as ``__eq__`` and ``__hash__`` are: a command makes values of few of the classes it
    imports (``pan replay`` of a small file, 19 of 49), and each compilation costs about 0.1 ms:
    that run went from 297 to 289 million instructions (valgrind; ``import click``: 188).
    Until then it carries the real one's signature and annotations, built from the fields."""

    def __init__(self: object, *args: Any, **kwargs: Any) -> None:
        init = _init(cls, fields)
        if cls.__dict__.get("__init__") is __init__:
            cls.__init__ = init  # type: ignore[misc]
        init(self, *args, **kwargs)

    __init__.__qualname__ = f"{cls.__qualname__}.__init__"
    __init__.__annotations__ = {**{f.name: f.type for f in fields if f.init}, "return": None}
    p = inspect.Parameter
    params = [p("self", p.POSITIONAL_OR_KEYWORD)]
    for f in fields:
        if f.init:
            default = f.default if f.default_factory is dataclasses.MISSING else FACTORY
            default = p.empty if default is dataclasses.MISSING else default
            params.append(p(f.name, p.POSITIONAL_OR_KEYWORD, default=default, annotation=f.type))
    __init__.__signature__ = inspect.Signature(params, return_annotation=None)  # type: ignore[attr-defined]
    return __init__


def _init(cls: type, fields: tuple[dataclasses.Field[Any], ...]) -> Callable[..., None]:
    """The dataclass ``__init__``, compiled: each field set through its slot, then ``__post_init__``."""
    env: dict[str, Any] = {"FACTORY": FACTORY}
    params, body = [], []
    for f in fields:
        n = f.name
        env[f"_set_{n}"] = cls.__dict__[n].__set__
        if f.default is not dataclasses.MISSING:
            env[f"_default_{n}"] = f.default
            param, given = f"{n}=_default_{n}", f"_default_{n}"
        elif f.default_factory is not dataclasses.MISSING:
            env[f"_factory_{n}"] = f.default_factory
            param, given = f"{n}=FACTORY", f"_factory_{n}()"
            if f.init:
                given = f"{given} if {n} is FACTORY else {n}"
        else:
            param, given = n, ""
        if f.init:
            params.append(param)
            body.append(f"    _set_{n}(self, {given if f.default_factory is not dataclasses.MISSING else n})\n")
        elif given:
            body.append(f"    _set_{n}(self, {given})\n")
    if hasattr(cls, "__post_init__"):
        body.append("    self.__post_init__()\n")
    source = f"def __init__(self, {', '.join(params)}):\n{''.join(body) or '    pass'}\n"
    init = _compiled(cls, source, env)["__init__"]
    init.__annotations__ = {**{f.name: f.type for f in fields if f.init}, "return": None}
    return init


def _compared_on_first_use(cls: type, compared: tuple[str, ...]) -> tuple[Callable[..., Any], Callable[..., Any]]:
    """``__eq__`` and ``__hash__`` that compile the dataclass ones (on the tuple of the compared
    fields) when either is first called and put them in their place: most value classes of a run
    are never compared nor hashed (in ``pan replay`` of a small file, 2 of 49), and compiling both
    for every class was a third of the compilations (about 5 ms of start-up)."""
    mine, theirs = (f"({''.join(f'{who}.{n},' for n in compared)})" for who in ("self", "other"))
    source = (
        "def __eq__(self, other):\n"
        f"    if other.__class__ is self.__class__:\n        return {mine} == {theirs}\n"
        "    return NotImplemented\n"
        f"def __hash__(self):\n    return hash({mine})\n"
    )

    def compile_now() -> dict[str, Callable[..., Any]]:
        methods = _compiled(cls, source, {})
        for name, first_use in (("__eq__", __eq__), ("__hash__", __hash__)):
            if cls.__dict__.get(name) is first_use:
                setattr(cls, name, methods[name])
        return methods

    def __eq__(self: object, other: object) -> Any:
        return compile_now()["__eq__"](self, other)

    def __hash__(self: object) -> int:
        result: int = compile_now()["__hash__"](self)
        return result

    return __eq__, __hash__


def _repr(names: tuple[str, ...]) -> Callable[[object], str]:
    def __repr__(self: object) -> str:
        return f"{type(self).__qualname__}({', '.join([f'{n}={getattr(self, n)!r}' for n in names])})"

    return __repr__


def _setattr(self: object, name: str, value: object) -> None:
    raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")


def _delattr(self: object, name: str) -> None:
    raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")


def _setstate(names: tuple[str, ...]) -> Callable[[object, list[Any]], None]:
    def __setstate__(self: object, state: list[Any]) -> None:
        for n, v in zip(names, state, strict=False):
            object.__setattr__(self, n, v)

    return __setstate__
