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

__all__ = ["Value", "replace"]


@dataclass_transform(frozen_default=True, field_specifiers=(msgspec.field,))  # for type checkers
class Value(msgspec.Struct, frozen=True):
    """A frozen value class (subclass it and annotate the fields, as a dataclass)."""
