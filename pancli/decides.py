"""Marks on the callables that decide rules: :func:`decides` (the one callable that decides a
rule's question) and :func:`answers` (each other question asked under the rule: a judge of one
question, or a rules object's method that answers part of it) only set an attribute on the
function they mark; :mod:`pancli.referee.deciders` collects the marks into the registry (rule ->
its decider, and every callable marked with it), so the registry is the code.

A core module without imports of its own: the rules object (:mod:`pancli.panrules`) is marked
too, and ``pan check`` asks it without loading the rulebook (a rule id is a string: pass
``Rule.P8`` where the rulebook is loaded anyway, ``"P8"`` where it is not; the registry reads
each id into a :class:`~pancli.rulebook.Rule`, and a test requires every mark to name one).

>>> @decides("S1", what="whether a table is seated")
... def seated(players: int) -> bool:
...     return 2 <= players <= 15
>>> marked(seated)
Mark(rules=('S1',), what='whether a table is seated', main=True)
>>> @answers("S1", what="whether each player is seated once")
... def seated_once(names: list[str]) -> bool:
...     return len(set(names)) == len(names)
>>> marked(seated_once).main
False
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, TypeVar


class Mark:
    """What a marked callable decides: the ids of the ``rules`` whose question it answers,
    ``what`` it decides in a line, and whether it is the ``main`` decider of those rules
    (:func:`decides`) or answers one more question under them (:func:`answers`). A plain class:
    a NamedTuple's class costs start-up."""

    __slots__ = ("main", "rules", "what")

    def __init__(self, rules: tuple[str, ...], what: str, main: bool) -> None:
        self.rules = rules
        self.what = what
        self.main = main

    def __repr__(self) -> str:
        return f"Mark(rules={self.rules!r}, what={self.what!r}, main={self.main!r})"


DECISION: Final = "__decides__"
"""The attribute :func:`decides` sets on the callable it marks."""

_F = TypeVar("_F", bound=Callable[..., object])


def decides(*rules: str, what: str) -> Callable[[_F], _F]:
    """Mark a function or method as the one that decides ``rules`` (rule ids; ``what``: the
    question, in a line)."""
    return _marking(rules, what, True)


def answers(*rules: str, what: str) -> Callable[[_F], _F]:
    """Mark a function or method that answers one more question under ``rules``, beside the one
    that decides them (a judge that rules under a rule, a rules object's method the decider or
    the judges ask; ``what``: its question, in a line)."""
    return _marking(rules, what, False)


def _marking(rules: tuple[str, ...], what: str, main: bool) -> Callable[[_F], _F]:
    def mark(f: _F) -> _F:
        setattr(f, DECISION, Mark(tuple(str(r) for r in rules), what, main))
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
