"""The base of pan's value classes: a frozen :class:`msgspec.Struct`.

Every value of the engine (cards excepted: see :class:`pancli.cards.Card`), of the records and
of the results is a ``Value``: immutable, compared and hashed by its fields, picklable (``--jobs``
workers send them), and written as JSON by :mod:`pancli.jsontext`'s one encoder. A Struct is a
compiled class, cheap to define and to build, so no start-up or construction tricks are needed.

>>> class Meld(Value):
...     cards: tuple[str, ...]
...     claim: int | None = None
>>> m = Meld(("5s", "5s", "5s"))
>>> m, m == Meld(("5s",) * 3), hash(m) == hash(Meld(("5s",) * 3))
(Meld(cards=('5s', '5s', '5s'), claim=None), True, True)
>>> replace(m, claim=4).claim
4
"""

from __future__ import annotations

from typing import dataclass_transform

import msgspec
from msgspec.structs import replace

__all__ = ["Item", "Line", "Value", "replace"]


@dataclass_transform(frozen_default=True, field_specifiers=(msgspec.field,))  # for type checkers
class Value(msgspec.Struct, frozen=True):
    """A frozen value class (subclass it and annotate the fields, as a dataclass)."""


class Item(msgspec.Struct, gc=False):
    """An object of JSON output, its fields in the order written (no cycles: untracked by gc).
    Defined here, not with the encoder (:mod:`pancli.jsontext`), so that a command declares its
    output objects without loading the encoder on paths that write no JSON."""


class Line(Item, tag_field="event"):
    """A ``--jsonl`` line whose ``event`` (the class's tag) comes first."""
