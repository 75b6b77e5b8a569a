"""The position's question "what must be discarded" (``Table.discard_due``): its answer on the
samples' positions (P2, P5, P9, P3, P4, going out, P7), and over simulated hands the referee
refuses every discard it forbids and accepts every one it allows."""

from __future__ import annotations

from pathlib import Path

import pytest

from pancli.cards import ALL_CARDS, Card
from pancli.model.actions import Action, Discard, HandScript, Turn
from pancli.panrules import PanRules
from pancli.referee.board import Seat
from pancli.referee.play import DiscardDue, Discarding
from pancli.referee.simulate import simulate_hands
from pancli.referee.table import Table
from pancli.rulebook import Rule
from pancli.rules import CARDROOM, HOYLE

SAMPLES = Path(__file__).resolve().parent.parent / "pancli" / "samples"


def _script(name: str, hand: int = 0) -> HandScript:
    import pancli

    script = list(pancli.read_records(SAMPLES / name))[hand].script
    assert script is not None
    return script


def _before(script: HandScript, line: int) -> Table:
    """A table that keeps its lines, every play line before ``line`` pushed."""
    t = Table(script, record_steps=False, undo=True)
    assert t.deal_in()
    for ev in script.events:
        if ev.line >= line:
            break
        assert t.push(ev) == ()
    return t


def _due_after(t: Table, turn: Turn, n: int) -> DiscardDue:
    """The answer once the first ``n`` actions of ``turn`` are played (the table left as it was)."""
    before = t.snapshot()
    try:
        t.begin_turn(turn)
        for a in turn.actions[:n]:
            t.apply(a, t.verify(a))
        return t.discard_due()
    finally:
        t.restore(before)


def _turn(script: HandScript, text: str) -> Turn:
    """The turn line of ``script`` whose player and first card are ``text`` (``Hal Jd``)."""
    player, first = text.split()
    for ev in script.events:
        if isinstance(ev, Turn) and ev.player == player and str(getattr(ev.actions[0], "card", "")) == first:
            return ev
    raise AssertionError(text)


def test_P9_the_flat_next_player_s_card_is_kept_and_a_hand_card_discarded() -> None:
    script = _script("illegal-P9-flat-player.pan")
    turn = _turn(script, "Hal Jd")
    t = _before(script, turn.line)
    due = _due_after(t, turn, 1)
    assert due == DiscardDue(Rule.P9, Discarding.HAND_CARD, excluded=turn.actions[0].card)  # type: ignore[attr-defined]
    assert not due.allows(turn.actions[0].card, held=True)  # type: ignore[attr-defined]
    assert t.push(turn)[0].rule == Rule.P9  # the referee refuses what the answer forbids


def test_P7_going_out_leaves_nothing_to_discard() -> None:
    script = _script("friday-hoyle.pan")
    turn = _turn(script, "Cruz 3h")  # draw 3h, meld [Ah 2h 3h], out
    t = _before(script, turn.line)
    assert _due_after(t, turn, 0) == DiscardDue(Rule.P1, Discarding.NOT_YET)
    assert _due_after(t, turn, 2) == DiscardDue(Rule.P7, Discarding.NONE)


def test_P3_a_taken_card_is_melded_before_any_discard() -> None:
    script = _script("friday-hoyle.pan")
    turn = _turn(script, "Eli Kc")  # take Kc, meld [Kd Kd Kc], discard 3c
    t = _before(script, turn.line)
    assert _due_after(t, turn, 1) == DiscardDue(Rule.P3, Discarding.NOT_YET)
    assert _due_after(t, turn, 2) == DiscardDue(Rule.P5, Discarding.HAND_CARD)


def test_P2_the_unused_draw_then_P5_a_hand_card_after_the_melds() -> None:
    script = _script("illegal-P9-flat-player.pan")
    turn = _turn(script, "Ana 2c")  # draw 2c, meld, meld, discard 4s
    t = _before(script, turn.line)
    drawn: Card = turn.actions[0].card  # type: ignore[attr-defined]
    assert _due_after(t, turn, 1) == DiscardDue(Rule.P2, Discarding.THE_DRAW, card=drawn)
    after = _due_after(t, turn, 3)
    assert after == DiscardDue(Rule.P5, Discarding.HAND_CARD)
    assert after.allows(turn.actions[3].card, held=True) and not after.allows(drawn, held=False)  # type: ignore[attr-defined]
    t.push(turn)
    assert t.discard_due() == DiscardDue(Rule.P1, Discarding.NOT_YET)  # between turns: the next one draws


def test_P4_hand_cards_melded_before_the_draw_is_used() -> None:
    script = _script("illegal-P4-melding-gate.pan")
    turn = _turn(script, "Eli 2h")  # draw 2h, meld [Jd Qd Kd], discard 2h
    t = _before(script, turn.line)
    assert _due_after(t, turn, 2) == DiscardDue(Rule.P4, Discarding.NOT_YET)
    assert t.push(turn)[0].rule == Rule.P4


def test_after_the_hand_nothing_is_discarded_under_the_rule_it_ended_by() -> None:
    t = _before(_script("friday-hoyle.pan"), 10**6)
    assert t.winner is not None and t.discard_due() == DiscardDue(Rule.C8, Discarding.NONE)


class _KeepsEveryDraw(PanRules):
    """P9 wherever the holder has a hand card: many kept draws to check."""

    def must_keep_draw(self, holder: Seat, nxt: Seat, card: Card) -> bool:
        return holder.hand_n > 0


def _held(t: Table, c: Card) -> bool:
    s = t.seat
    assert s is not None
    return s.hand[c.index] > 0 or s.unknown > 0


@pytest.mark.parametrize(
    "rules", [PanRules(HOYLE), PanRules(CARDROOM), _KeepsEveryDraw(HOYLE)], ids=["hoyle", "cardroom", "keeps"]
)
def test_P2_P5_P9_a_discard_the_answer_forbids_is_refused_and_one_it_allows_accepted(rules: PanRules) -> None:
    checked = {True: 0, False: 0}
    rules_seen: set[Rule] = set()
    for script in simulate_hands(("Ana", "Ben", "Cruz", "Dee"), 3, 7, rules.profile, rules=rules):
        t = Table(script, record_steps=False, rules=rules, undo=True)
        assert t.deal_in()
        for ev in script.events:
            if isinstance(ev, Turn):
                acts = ev.actions
                body = len(acts) - 1 if isinstance(acts[-1], Discard) else len(acts)
                for n in sorted({1, body}):
                    prefix: tuple[Action, ...] = acts[:n]
                    before = t.snapshot()
                    t.begin_turn(Turn(ev.player, prefix, line=ev.line))
                    for a in prefix:
                        t.apply(a, t.verify(a))
                    due = t.discard_due()
                    seat = t.seat
                    assert seat is not None
                    cards = {c for c in ALL_CARDS if seat.hand[c.index]} | {t.pending} - {None}
                    held = {c: _held(t, c) for c in cards if c is not None}
                    t.restore(before)
                    rules_seen.add(due.rule)
                    for c, has in held.items():
                        allowed = due.allows(c, has)
                        refused = t.push(Turn(ev.player, (*prefix, Discard(c)), line=ev.line))
                        t.pop()
                        assert (not refused) == allowed, (ev, n, c, due, refused)
                        checked[allowed] += 1
            assert t.push(ev) == ()
    assert checked[True] > 20 and checked[False] > 20
    assert {Rule.P2, Rule.P5} <= rules_seen
    if isinstance(rules, _KeepsEveryDraw):
        assert Rule.P9 in rules_seen


def test_P2_P9_a_position_after_the_draw_carries_the_table_s_answer() -> None:
    """``pan review`` and ``pan analyze --at`` read what the discard must be from the position
    (``Position.discard_due``; ``keeps_draw`` is its P9), as the table answers it."""
    from pancli.referee.position import position_at

    script = _script("illegal-P9-flat-player.pan")
    kept = _turn(script, "Hal Jd")
    pos = position_at(script, kept.line, "Hal")
    assert pos.discard_due == DiscardDue(Rule.P9, Discarding.HAND_CARD, excluded=pos.drawn) and pos.keeps_draw
    thrown = _turn(script, "Dee 5s")
    pos = position_at(script, thrown.line, "Dee")
    assert pos.discard_due == DiscardDue(Rule.P2, Discarding.THE_DRAW, card=pos.drawn) and not pos.keeps_draw
    assert position_at(script, thrown.line, "Ana").discard_due is None  # not his turn line
