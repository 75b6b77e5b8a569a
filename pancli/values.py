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

import enum
from collections.abc import Mapping
from typing import dataclass_transform

import msgspec
from msgspec.structs import replace

__all__ = ["Item", "Line", "Value", "readable", "replace"]


@dataclass_transform(frozen_default=True, field_specifiers=(msgspec.field,))  # for type checkers
class Value(msgspec.Struct, frozen=True):
    """A frozen value class (subclass it and annotate the fields, as a dataclass).

    Its ``str`` is for people (its ``repr`` stays Python's): cards as the notation writes them,
    rule ids and other enums by their value, nested values readable too (:func:`readable`).

    >>> from pancli.cards import card, Rank, Suit
    >>> class Paid(Value):
    ...     payer: str
    ...     meld: tuple[object, ...]
    ...     units: int = 0
    >>> print(Paid("Ben", (card(Rank.SEVEN, Suit.SPADES),) * 2, 4))
    Paid(payer='Ben', meld=[7s 7s], units=4)
    """

    def __str__(self) -> str:
        fields = ", ".join(f"{name}={readable(getattr(self, name))}" for name in self.__struct_fields__)
        return f"{type(self).__name__}({fields})"

    def __deepcopy__(self, memo: object) -> Value:
        """A value never changes, so a deep copy of what holds it (a referee's table taken back by
        ``pop``) shares it, as it shares a str."""
        return self


def readable(v: object) -> str:
    """``v`` for people: a value by its ``str``, an enum by its value, a run of cards (or of anything
    else that is one word) as ``[7s 7s 7c]``, text, numbers and None as Python writes them.

    >>> import enum
    >>> class Rule(enum.Enum):
    ...     C2 = "C2"
    >>> readable((Rule.C2,)), readable({"Ana": 4, "Ben": None}), readable(("Ana", "Ben")), readable(())
    ('(C2)', "{'Ana': 4, 'Ben': None}", "('Ana', 'Ben')", '()')
    >>> from pancli.rulebook import Rule
    >>> readable((Rule.C4, Rule.C5))
    '(C4, C5)'
    """
    if isinstance(v, Value):
        return str(v)
    if isinstance(v, enum.Enum):
        return str(v.value)
    if v is None or type(v) in (str, int, float, bool):  # (a rule id is a str of its own kind: its text)
        return repr(v)
    if isinstance(v, Mapping):
        return "{" + ", ".join(f"{readable(k)}: {readable(x)}" for k, x in v.items()) + "}"
    if isinstance(v, tuple | list):
        if v and all(_word(x) for x in v):
            return "[" + " ".join(map(str, v)) + "]"
        return "(" + ", ".join(map(readable, v)) + ")"
    return str(v)


def _word(v: object) -> bool:
    """A thing written as one word by its own ``str`` (a card, a decimal), not a value or a container."""
    return not (v is None or isinstance(v, Value | enum.Enum | str | int | float | Mapping | tuple | list))


class Item(msgspec.Struct, gc=False):
    """An object of JSON output, its fields in the order written (no cycles: untracked by gc).
    Defined here, not with the encoder (:mod:`pancli.jsontext`), so that a command declares its
    output objects without loading the encoder on paths that write no JSON."""


class Line(Item, tag_field="event"):
    """A ``--jsonl`` line whose ``event`` (the class's tag) comes first."""
