"""A faster constructor for frozen slots dataclasses, for the hot paths that build many
small values (the record reader's actions and turn lines).

Kept for speed (benchmarks/README.md, "Reader"); the doctest compares what it
builds with the dataclass's own ``__init__``. Model layer, so that the reader and the referee
share it without the notation importing a referee.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


def slot_constructor(cls: type[T]) -> Callable[..., T] | None:
    """A faster constructor of the frozen slots dataclass ``cls``: every field given positionally,
    in order, each slot set directly (a frozen dataclass's ``__init__`` goes through
    ``object.__setattr__`` once per field). None when that would not build what ``__init__``
    builds: not a dataclass, a ``__post_init__``, a field outside ``__init__`` or fields that are
    not exactly its slots.

    >>> from pancli.model.results import Payment
    >>> make = slot_constructor(Payment)
    >>> make("Ben", "Ana", 4, "C2", 12, None, "") == Payment("Ben", "Ana", 4, "C2", 12)
    True
    """
    if not dataclasses.is_dataclass(cls) or hasattr(cls, "__post_init__"):
        return None
    fields = dataclasses.fields(cls)
    names = tuple(f.name for f in fields)
    if names != getattr(cls, "__slots__", None) or not all(f.init for f in fields):
        return None
    env: dict[str, Any] = {f"s{i}": cls.__dict__[n].__set__ for i, n in enumerate(names)}
    env.update(new=object.__new__, cls=cls)
    args = ", ".join(f"a{i}" for i in range(len(names)))
    binds = ", ".join(f"{k}={k}" for k in env)
    body = "".join(f"    s{i}(o, a{i})\n" for i in range(len(names)))
    namespace: dict[str, Any] = {}
    exec(f"def make({args}, *, {binds}):\n    o = new(cls)\n{body}    return o\n", env, namespace)
    make: Callable[..., T] = namespace["make"]
    make.__qualname__ = f"{cls.__name__}.slot_constructor"
    return make
