"""The rule -> deciding callable registry, collected from the marks in the code: every rule of
the rulebook is either decided by the one callable marked as its decider
(:func:`pancli.decides.decides`; :data:`DECIDERS`, with the line the mark says in
:data:`DECIDES`) or is listed in :data:`NO_DECIDER` with the reason no engine function does (a
definition, a principle, or a rule of the notation that the reader decides while it reads).
Every other callable that rules or answers a question under a rule is marked with it too
(:func:`pancli.decides.answers`): :data:`QUESTIONS` holds them all, rule by rule, so that no
judge of a rule is left out of the registry.

The marks are on the methods of the rules objects (:class:`pancli.panrules.PanRules`: the
questions the referee, self-play, positions, the analyzer and the payment batches ask;
:class:`pancli.pagruc.rules.PagrucRules`: PAGRUC's pack, meld, lay-off, score, order and
places) and on
the referee's and PAGRUC's judges (the rules only a hand's judge rules on). A callable may
decide several rules (the rules object's ``judge`` decides M1-M4 and E2 together, in its
order). :data:`SHARED` are the questions several parts ask: tests/test_one_rule_one_place.py
answers them otherwise in a subclass of the rules object and requires every caller to follow.

>>> DECIDERS[Rule.P9].__qualname__, DECIDES[Rule.P9]
('PanRules.must_keep_draw', 'whether an unused stock draw that fits a flat next player must be kept')
>>> [q.callable.__name__ for q in QUESTIONS[Rule.P1]]
['draw_first_fault', 'out_of_turn_fault', 'drawless_turn_fault']
>>> sorted(set(DECIDERS) & set(NO_DECIDER))
[]
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from types import MappingProxyType, ModuleType
from typing import Final

from msgspec import Struct

from pancli import panrules
from pancli.decides import Mark, marked
from pancli.pagruc import judges as pagruc_judges
from pancli.pagruc import rules as pagruc_rules
from pancli.pagruc import scoring as pagruc_scoring
from pancli.referee import play
from pancli.rulebook import Rule

MARKED_IN: Final[tuple[ModuleType, ...]] = (
    panrules,
    play,
    pagruc_rules,
    pagruc_judges,
    pagruc_scoring,
)
"""The modules whose functions and classes carry the marks (a test finds no mark elsewhere)."""


def marks(modules: tuple[ModuleType, ...] = MARKED_IN) -> Iterator[tuple[Callable[..., object], Mark]]:
    """Every marked callable defined in ``modules`` (a module's own functions, and the methods of
    its own classes), with its mark, in the order they are written."""
    for module in modules:
        for obj in vars(module).values():
            if getattr(obj, "__module__", None) != module.__name__:
                continue  # imported here: marked where it is defined
            if isinstance(obj, type):
                for attr in vars(obj).values():
                    d = marked(attr)
                    if d is not None:
                        yield _callable(attr), d
            else:
                d = marked(obj)
                if d is not None and callable(obj):
                    yield obj, d


def _callable(attr: object) -> Callable[..., object]:
    if isinstance(attr, property):
        assert attr.fget is not None
        return attr.fget
    if isinstance(attr, staticmethod | classmethod):
        f: Callable[..., object] = attr.__func__
        return f
    assert callable(attr)
    return attr


def _registry() -> dict[Rule, tuple[Callable[..., object], str]]:
    out: dict[Rule, tuple[Callable[..., object], str]] = {}
    for f, d in marks():
        if d.main:
            for r in d.rules:
                out.setdefault(Rule(r), (f, d.what))  # a second mark of a rule: the test on the marks names it
    return {r: out[r] for r in Rule if r in out}


class Question(Struct, frozen=True):
    """One callable marked with a rule, and ``what`` it answers (its mark's line)."""

    callable: Callable[..., object]
    what: str


def _questions() -> dict[Rule, tuple[Question, ...]]:
    out: dict[Rule, list[Question]] = {}
    for f, d in marks():
        for r in d.rules:
            out.setdefault(Rule(r), []).append(Question(f, d.what))
    first = {r: f for r, (f, _) in _REGISTRY.items()}
    return {r: tuple(sorted(out[r], key=lambda q: q.callable is not first.get(r))) for r in Rule if r in out}


_READER = "decided by the reader while it reads a record (pancli.records, pancli.notation: the text layer)"
_NOTATION = "decided by the card notation's grammar while it reads cards (pancli.notation.grammar, fast)"

NO_DECIDER: Final[Mapping[Rule, str]] = MappingProxyType(
    {
        Rule.E3: "a definition (Rank.is_valle, Rank.is_noncomoquer) that the conditions and M4 read",
        Rule.C10: "a principle: every payment is made of the melds as laid, none rearranges them",
        Rule.R3: "what the rules object is built from: house rules read into a profile"
        " (pancli.rules.profile_from_mapping, named knobs with valid values on a built-in base)",
        **{r: _READER for r in (Rule.R1, Rule.R2, Rule.R4, Rule.R5, Rule.R6, Rule.R7, Rule.R8, Rule.R9, Rule.R10)},
        **{r: _NOTATION for r in Rule if r.startswith("N")},
    }
)
"""Rule -> why no engine function decides it."""

_REGISTRY: Final = _registry()

DECIDERS: Final[Mapping[Rule, Callable[..., object]]] = MappingProxyType({r: f for r, (f, _) in _REGISTRY.items()})
"""Rule -> the one callable marked as deciding it."""

DECIDES: Final[Mapping[Rule, str]] = MappingProxyType({r: what for r, (_, what) in _REGISTRY.items()})
"""Rule -> what its deciding callable decides, in a line (its mark's)."""

QUESTIONS: Final[Mapping[Rule, tuple[Question, ...]]] = MappingProxyType(_questions())
"""Rule -> every callable marked with it, each with what it answers: its decider first
(:data:`DECIDERS`), then the callables that answer one question each under it (the judges of
one question, the rules object's methods they and the decider ask), in the order written."""

SHARED: Final = frozenset(
    {
        Rule.S1,
        Rule.S2,
        Rule.S3,
        Rule.E1,
        Rule.E2,
        Rule.E4,
        Rule.M1,
        Rule.M2,
        Rule.M3,
        Rule.M4,
        Rule.M5,
        Rule.M6,
        Rule.C1,
        Rule.C2,
        Rule.C3,
        Rule.C4,
        Rule.C5,
        Rule.C6,
        Rule.C7,
        Rule.C8,
        Rule.P7,
        Rule.P8,
        Rule.P9,
        Rule.T2,
        Rule.T4,
        Rule.I3,
        Rule.I1,
        Rule.G1,
        Rule.G2,
        Rule.G4,
        Rule.G5,
        Rule.G6,
        Rule.G7,
        Rule.G8,
    }
)
"""The rules a rules object's method decides, whose question the referee, the analyzer, the
batches, self-play or ``pan live`` ask (PAGRUC's: the referee, ``pan check --game pagruc``, ``pan
score``, the standings and ``pan live``); I1's only the referee asks, the count a deal must hold."""
