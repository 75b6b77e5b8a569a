"""What reading and refereeing a record cost in objects and questions, counted (never timed):
the actions read and the payments made are left to the collector untracked, a line's head is
read by the fast path as the grammar reads it, a seat's payers are the table's whatever the
seat, and a deal's cards are asked of the rules object once when none is past the pack.
"""

from __future__ import annotations

import gc
import io
import typing

import pytest

from pancli.cards import Game
from pancli.model import actions
from pancli.model.actions import HandScript, LedgerClaim
from pancli.model.results import PaidFor, Payment
from pancli.notation.errors import NotationError
from pancli.notation.record_common import LineContext
from pancli.notation.record_fast import fast_play
from pancli.notation.record_grammar import grammar_play
from pancli.notation.record_writer import write_scripts
from pancli.panrules import PanRules
from pancli.records import read_hands
from pancli.referee import Table, referee_script
from pancli.referee.simulate import simulate_hands
from pancli.rules import HOYLE
from pancli.values import Value

UNTRACKED = [
    c
    for c in vars(actions).values()
    if isinstance(c, type) and issubclass(c, Value) and c.__module__ == actions.__name__
    if c not in (HandScript, LedgerClaim)  # (one a hand, and they hold mappings: left tracked)
]


@pytest.mark.parametrize("cls", [*UNTRACKED, Payment], ids=lambda c: c.__name__)
def test_R6_actions_and_payments_hold_no_container_and_are_left_untracked(cls: type) -> None:
    """An action or a payment holds only cards, numbers, text, enums and tuples of them: it can
    be in no reference cycle, so the collector does not track it (a record is hundreds of
    thousands of actions, and each tracked one counts towards the next collection)."""
    assert cls.__struct_config__.gc is False  # type: ignore[attr-defined]
    hints = typing.get_type_hints(cls, vars(actions) | {"Decimal": object, "Rule": str, "PaidFor": PaidFor})
    for name in cls.__struct_fields__:  # type: ignore[attr-defined]
        shown = str(hints[name])
        assert not any(word in shown for word in ("list", "dict", "set", "Mapping", "object", "Any")), (name, shown)


def test_R6_the_actions_read_from_a_record_are_not_tracked() -> None:
    text = "".join(write_scripts(simulate_hands(("Ana", "Ben", "Cy"), 3, 5, HOYLE)))
    hands = list(read_hands(io.StringIO(text), "t.pan"))
    events = [ev for h in hands if h.script is not None for ev in h.script.events]
    assert events and not any(gc.is_tracked(ev) for ev in events)
    assert not any(gc.is_tracked(a) for ev in events for a in getattr(ev, "actions", ()))
    result = referee_script(hands[0].script)  # type: ignore[arg-type]
    assert result.payments and not any(gc.is_tracked(p) for p in result.payments)


HEADS = [
    "Ana stay",
    "Ana top",
    "Ana  stay",
    "Ana stay x",
    "Ana force Ben",
    "Ana force",
    "Ana force Cy",
    "Ana count",
    "Ana count Ben",
    "Ana count Ben 3",
    "Ana count Ben 03",
    "Ana count Ben 3 4",
    "Ana count Cy 3",
    "Ana call Ben #2",
    "Ana call Ben",
    "Ana draw 5s, discard 5s",
    "Ana draw 5s , discard 5s",
    "Ana draw 5s,discard 5s",
    "Ana draw 5s,  discard 5s",
    "Ana draw 5s, discard 5s,",
    "Ana draw  5s, discard 5s",
    "Ana, draw 5s",
    "Ana",
    "7. Ana draw 5s, discard 5s",
    "7.  Ana draw 5s, discard 5s",
    "7.",
    "x. Ana draw 5s, discard 5s",
    "Ana draw 5s, meld [5s 5s 5s] !, discard 7d ?",
    "Ana draw 5s, meld [5s 5s 5s]     , discard 7d",
    "deal Ana 5s 5s 2h 3h Kd Kh Kc 2c 7d Jc",
    "deal Ana 5s 5s, 2h",
    "deal Cy 5s",
    "up 4c",
    "up 4c 5c",
    "reshuffle",
    "reshuffle now",
]


@pytest.mark.parametrize("line", HEADS)
def test_R1_the_fast_path_reads_a_line_s_head_as_the_grammar_does(line: str) -> None:
    """Decisions, forces, counts and calls, numbered turns, deals and the up line: what the fast
    path reads (it may leave a line to the grammar) is what the grammar reads."""
    ctx = LineContext(Game.PANGUINGUE, frozenset({"Ana", "Ben"}), line=4)
    fast = fast_play(line, ctx)
    try:
        slow: object = grammar_play(line, ctx)
    except NotationError:
        assert fast is None, line
        return
    if fast is not None:
        assert fast == slow, line


def test_C6_a_seat_s_payers_are_the_other_active_players_then_the_retired() -> None:
    """The payers of a seat in play are the other active players; of a seat out of the turn
    order (retired), every active player; the retired are added after them."""
    script = next(iter(simulate_hands(("Ana", "Ben", "Cy", "Dee"), 1, 3, HOYLE)))
    table = Table(script, rules=PanRules(HOYLE))
    assert table.deal_in()
    for ev in script.events[:4]:  # the decisions
        table.push(ev)
    ana, *_, dee = table.seats
    active = list(table.active)
    assert table.payers(ana) == [s for s in active if s is not ana]
    table.active.remove(dee)
    table.retired.append(dee)
    assert table.payers(ana) == [s for s in active if s is not ana and s is not dee] + [dee]
    assert table.payers(dee) == [s for s in active if s is not dee] + [dee]
    assert table.active == [s for s in active if s is not dee]  # (not changed by asking)


class CountingRules(PanRules):
    """A rules object counting the copies it is asked about."""

    asked: list[int]

    def past_the_pack(self, seen, counts, copies=None):  # type: ignore[no-untyped-def]
        counts = list(counts)
        self.asked.append(len(counts))
        return super().past_the_pack(seen, counts, copies)


def test_E4_a_clean_deal_is_asked_once_with_each_card_once() -> None:
    """A deal none of whose cards is past the pack is one question of the rules object, each
    distinct card once with its copies (E4); a deal with one is asked again in the deal's order,
    to name the copy."""
    script = next(iter(simulate_hands(("Ana", "Ben"), 1, 3, HOYLE)))
    rules = CountingRules(HOYLE)
    rules.asked = []
    table = Table(script, rules=rules)
    assert table.deal_in()
    assert any(len(set(d.cards)) < len(d.cards) for d in script.deals)  # (a card dealt twice)
    assert rules.asked[: len(script.deals)] == [len(set(d.cards)) for d in script.deals]
