"""Marks on the callables that decide rules: :func:`decides` only sets an attribute on the
function it marks; :mod:`pancli.referee.deciders` collects the marks into the registry (rule ->
the one callable that decides it), so the registry is the code.

A core module without imports of its own: the rules object (:mod:`pancli.panrules`) is marked
too, and ``pan check`` asks it without loading the rulebook (a rule id is a string: pass
``Rule.P8`` where the rulebook is loaded anyway, ``"P8"`` where it is not; the registry reads
each id into a :class:`~pancli.rulebook.Rule`, and a test requires every mark to name one).

>>> @decides("S1", what="whether a table is seated")
... def seated(players: int) -> bool:
...     return 2 <= players <= 15
>>> marked(seated)
Mark(rules=('S1',), what='whether a table is seated')
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, TypeVar


class Mark:
    """What a marked callable decides: the ids of the ``rules`` whose question it answers, and
    ``what`` it decides in a line (a plain class: a NamedTuple's class costs start-up)."""

    __slots__ = ("rules", "what")

    def __init__(self, rules: tuple[str, ...], what: str) -> None:
        self.rules = rules
        self.what = what

    def __repr__(self) -> str:
        return f"Mark(rules={self.rules!r}, what={self.what!r})"


DECISION: Final = "__decides__"
"""The attribute :func:`decides` sets on the callable it marks."""

_F = TypeVar("_F", bound=Callable[..., object])


def decides(*rules: str, what: str) -> Callable[[_F], _F]:
    """Mark a function or method as the one that decides ``rules`` (rule ids; ``what``: the
    question, in a line)."""

    def mark(f: _F) -> _F:
        setattr(f, DECISION, Mark(tuple(str(r) for r in rules), what))
        return f

    return mark


def marked(f: object) -> Mark | None:
    """The :class:`Mark` :func:`decides` put on ``f`` (a property's getter counts), or None."""
    if isinstance(f, property):
        f = f.fget
    elif isinstance(f, staticmethod | classmethod):
        f = f.__func__
    d = getattr(f, DECISION, None)
    return d if isinstance(d, Mark) else None
