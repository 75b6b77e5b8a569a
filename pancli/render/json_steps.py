"""``--jsonl``'s step events (one object per applied step, with the provenance of each card,
before the hand's object of :mod:`pancli.render.json`), and :class:`HandObjects`, a hand's
objects as a ``--jobs`` worker hands them back. ``--json`` in one process loads neither
(start-up: benchmarks/README.md)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Final, cast

import msgspec

from pancli.cards import ALL_CARDS
from pancli.jsontext import Item
from pancli.model.actions import (
    Add,
    Borrow,
    Call,
    Count,
    Deal,
    Decision,
    Discard,
    Draw,
    Force,
    Lay,
    MeldNew,
    Mend,
    Out,
    Reshuffle,
    Split,
    Take,
    TakeBack,
    TakeMany,
    Turn,
)
from pancli.model.results import DEALT, DISCARD_PILE, STOCK, Recorded, Remedy, Source, Step, each_step
from pancli.notation.record_common import UpLine
from pancli.notation.record_writer import action_text, item_text
from pancli.render.json import (
    HandItem,
    MalformedItem,
    PagrucHandItem,
    PaymentItem,
    ViolationEvent,
    hand_item,
    payment_item,
    violation_events,
)

if TYPE_CHECKING:
    from pancli.app.report import HandReport


class HandObjects(msgspec.Struct, frozen=True, gc=False, array_like=True):
    """One hand's objects of ``--json`` and ``--jsonl``, in the order they are written
    (:meth:`items`): its steps and its violation lines (``--jsonl``), then its object, which is
    one of ``hand``, ``pagruc`` and ``malformed``. What a ``--jobs`` worker hands back, a hand
    at a time (:class:`~pancli.app.chunks.JudgedChunk`), and what one process writes
    (:func:`jsonl_items`, or ``--json``'s one object): the same values through the same writer.
    Never written as JSON itself (its fields apart, not a union: msgspec decodes a union of
    Structs only by a tag, which the items' JSON does not have)."""

    steps: tuple[StepEvent, ...] = ()
    violations: tuple[ViolationEvent, ...] = ()
    hand: HandItem | None = None
    pagruc: PagrucHandItem | None = None
    malformed: MalformedItem | None = None

    def items(self) -> list[Item]:
        """The objects as written, in order."""
        last = self.hand or self.pagruc or self.malformed
        assert last is not None
        if not self.steps and not self.violations:
            return [last]
        return [*self.steps, *self.violations, last]

    @classmethod
    def of(cls, items: Sequence[Item]) -> HandObjects:
        """A hand's objects as written (:meth:`items`: steps, violations, its object), held
        apart by kind for a worker to hand back."""
        *events, last = items
        steps = tuple(e for e in events if type(e) is StepEvent)
        violations = tuple(e for e in events if type(e) is ViolationEvent)
        if type(last) is HandItem:
            return cls(steps, violations, hand=last)
        if type(last) is PagrucHandItem:
            return cls(steps, violations, pagruc=last)
        return cls(steps, violations, malformed=cast(MalformedItem, last))


def jsonl_items(report: HandReport, event: str | None = None) -> list[Item]:
    """A refereed hand's ``--jsonl`` objects as written: every applied step, then a Panguingue
    hand's violations, then its object (``event`` first)."""
    hand = report.hand
    item = hand_item(report, event)
    items: list[Item] = list(step_events(report.result.recorded, hand.index, hand.file))
    if type(item) is HandItem:  # a PAGRUC hand's violations are in its hand object only
        items.extend(violation_events(report))
    items.append(item)
    return items


_KIND: Final[dict[type, str]] = {
    Draw: "draw",
    Take: "take",
    TakeMany: "take",
    MeldNew: "meld",
    Add: "add",
    Lay: "lay",
    Borrow: "borrow",
    Split: "split",
    Mend: "mend",
    TakeBack: "back",
    Discard: "discard",
    Out: "out",
}


def _step_kind_text(step: Step) -> tuple[str, str]:
    """A step's ``event`` and ``text``."""
    action = step.action
    if action is not None:
        return _KIND[type(action)], action_text(action)
    ev = step.event
    if isinstance(ev, Decision):
        return ("stay" if ev.stay else "top"), item_text(ev)
    if isinstance(ev, Force):
        return "force", item_text(ev)
    if isinstance(ev, Reshuffle):
        return "reshuffle", item_text(ev)
    if isinstance(ev, Call):
        return "call", item_text(ev)
    if isinstance(ev, Count):
        return "count", item_text(ev)
    if isinstance(ev, Turn):
        return "out", "out"  # going out seen by the referee (no ``out`` written)
    if isinstance(ev, Remedy):
        return "remedy", f"{ev.rule} {ev.violation.message}: {ev.remedy}"
    if step.player is not None:
        return "deal", item_text(Deal(step.player, tuple(m[0] for m in step.moves)))
    return "up", item_text(UpLine(step.moves[0][0], 0, 0)) if step.moves else "up"


class Move(Item):
    """A card moved by a step: ``card from to`` (deal, stock, discard, hand, meld, dead)."""

    card: str
    from_: Source = msgspec.field(name="from")
    to: Source


class StepEvent(Item):
    """One ``--jsonl`` line of an applied step."""

    event: str
    file: str
    hand: int
    line: int
    col: int
    player: str | None
    text: str
    moves: tuple[Move, ...]
    payments: tuple[PaymentItem, ...]


def step_events(steps: Iterable[Recorded], hand: int, file: str) -> Iterator[StepEvent]:
    """One JSON object per applied step (a plain turn line recorded whole: its two steps,
    :func:`~pancli.model.results.each_step`): ``event`` (draw, take, meld, add, borrow, split,
    discard, out, deal, up, stay, top, force, reshuffle, remedy), ``file hand line col player text``,
    ``moves`` (``card from to``: deal, stock, discard, hand, meld, dead) and ``payments``.

    A drawn card moves when it is used: ``draw`` has no move, and the ``meld``, ``add`` or
    ``discard`` that uses it moves it from ``stock`` (or ``discard`` for a take)."""
    last_out = -1
    for s in steps:
        # the two kinds recorded whole (most of a hand), written straight from the record's values;
        # the same lines as their steps (tests/test_cli_replay.py compares them)
        if type(s) is Turn:
            d, x = s.actions
            i = cast(Draw, d).card.index
            drew, threw = _TURN_TEXT[i]
            player = s.player
            yield StepEvent("draw", file, hand, d.line, d.col or 1, player, drew, (), ())
            yield StepEvent("discard", file, hand, x.line, x.col or 1, player, threw, _DISCARDED[i], ())
            continue
        if type(s) is Deal:
            moves = tuple([_DEALT[c.index] for c in s.cards])
            text = item_text(s)
            yield StepEvent("deal", file, hand, s.line, s.col or 1, s.player, text, moves, ())
            continue
        s = cast(Step, s)
        if s.action is not None and type(s.action) is Out and not s.moves and not s.payments and last_out == s.line:
            continue  # the referee's going out was already reported for this ``out``
        kind, text = _step_kind_text(s)
        if kind == "out":
            last_out = s.line
        yield StepEvent(
            kind,
            file,
            hand,
            s.line,
            s.col or 1,  # a whole line (the upcard's) starts at column 1
            s.player,
            text,
            tuple([Move(c.text, a, b) for c, a, b in s.moves]) if s.moves else (),
            tuple([payment_item(p) for p in s.payments]) if s.payments else (),
        )


def step_events_of_steps(steps: Iterable[Recorded], hand: int, file: str) -> Iterator[StepEvent]:
    """:func:`step_events` of every step expanded first (:func:`~pancli.model.results.each_step`):
    the plain path its shortcut for whole turns and deals is tested against."""
    return step_events(list(each_step(steps)), hand, file)


_DEALT: Final = [Move(c.text, *DEALT) for c in ALL_CARDS]
"""The move of each card (by index) dealt to a hand."""
_DISCARDED: Final = [(Move(c.text, STOCK, DISCARD_PILE),) for c in ALL_CARDS]
"""The moves of a plain turn's discard, by the card's index: from the stock to the pile
(:func:`~pancli.model.results.turn_steps`)."""
_TURN_TEXT: Final = [(action_text(Draw(c)), action_text(Discard(c))) for c in ALL_CARDS]
"""A plain turn's two texts, by the drawn (and discarded) card's index: the record writer's words
(:func:`~pancli.notation.record_writer.action_text`, the one writer of an action), made once."""
