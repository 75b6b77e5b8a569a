"""PAGRUC's position answers what may be played next (:mod:`pancli.pagruc.position`), and
``pan live --game pagruc`` says it ("now: ..."): before the deal, while it is dealt, at each turn
(draw or take, how many discards, the melds and lay-offs of the known hand), after an undo and
at the next hand. Each answer is the table's or a question of its rules object (a subclass that
answers otherwise changes it), and each is what the referee accepts next (``push_action``),
which takes one action back exactly (``pop_action``)."""

from __future__ import annotations

import io
import random
from itertools import combinations
from pathlib import Path

import pytest
from cli_kit import pan
from hypothesis import given, settings
from hypothesis import strategies as st
from pagruc_selfplay import NAMES, selfplay_hand

from pancli.cards import ALL_CARDS, Card, Game
from pancli.model.actions import Draw, HandScript, Lay, MeldNew, Reshuffle, Take, TakeMany, Turn
from pancli.pagruc.melds import PagrucMeld, PagrucVerdict
from pancli.pagruc.pack import PagrucPack
from pancli.pagruc.position import PagrucPhase, pagruc_now, pagruc_now_of
from pancli.pagruc.referee import PagrucTable, referee_script
from pancli.pagruc.rules import PagrucRules
from pancli.records import read_hands
from pancli.rulebook import Rule
from pancli.rules import MeldError

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
FIRST_HAND = [
    line
    for line in (SAMPLES / "pagruc-common-room.pan").read_text(encoding="utf-8").split("\n\n[Event")[0].split("\n")
    if line and line[0] not in "[;{"
]


def _nows(stdout: str) -> list[str]:
    return [x.removeprefix("  now: ") for x in stdout.splitlines() if x.startswith("  now: ")]


def test_G2_G6_pan_live_says_what_the_pagruc_position_allows_at_each_stage(tmp_path: Path) -> None:
    """Before, every line after the up card said "play goes on (no position for this game)"."""
    night = tmp_path / "p.pan"
    lines = [*FIRST_HAND[:16], "undo", *FIRST_HAND[15:]]
    r = pan("live", str(night), "--players", "Ana Ben Cruz Dee", "--game", "pagruc", input="\n".join(lines) + "\n")
    assert r.exit_code == 0, r.stdout
    nows = _nows(r.stdout)
    assert nows[:5] == ["deal lines, the up card (G2), then Ana draws (G3)"] * 5  # opened, then 4 deal lines
    assert nows[5] == "Ana draws, or takes 4d (G3)"  # the up card: Ana has no meld, so one discard
    assert nows[6] == "Ben draws, or takes Qs (G3); lays: [Ah Ad Ac]; one card is kept to discard (G6)"
    assert nows[9] == "Ana draws, or takes Kh, or up to 4 cards from the top of the discard pile (G3)"
    assert nows[12] == (
        "Dee draws, or takes 8d, or up to 6 cards from the top of the discard pile (G3); "
        "lay off: 9c on Cruz#1; one card is kept to discard (G6)"
    )
    assert "undone: Cruz draw Ts, discard Ts" in r.stdout
    assert nows[-1] == "deal lines, the up card (G2), then Ben draws (G3)"  # hand 2, G8: Ben first
    assert "no position" not in r.stdout


def test_G6_the_now_line_says_a_stock_to_turn_over(tmp_path: Path) -> None:
    from pancli.app.live import LiveOptions, Session
    from pancli.render.live import may_now

    with Session(str(tmp_path / "p.pan"), LiveOptions(("Ana", "Ben", "Cruz", "Dee"), game=Game.PAGRUC)) as s:
        for line in FIRST_HAND[:8]:
            assert s.enter(line).verdict.value == "accepted"
        assert s._pagruc is not None and s.pagruc_now is not None
        s._pagruc.stock = 0  # the stock drawn out
        s._pagruc_now = None
        assert may_now(s) == (
            "the stock is empty: turn the discard pile over (reshuffle, G6), then Dee draws; or Dee takes Qh (G3); "
            "lays: [7s 7d 7c]; one card is kept to discard (G6)"
        )


def test_G3_G4_G5_the_view_s_table_and_completion_in_a_pagruc_hand(tmp_path: Path) -> None:
    """The full-screen view's table and its completion ask the PAGRUC position: before, the table
    showed the players alone and the completion offered Panguingue's "stay" and "top"."""
    from pancli.app.live import LiveOptions, Session
    from pancli.render.live import PAGRUC_THEN, candidates, table_lines

    with Session(str(tmp_path / "p.pan"), LiveOptions(("Ana", "Ben", "Cruz", "Dee"), game=Game.PAGRUC)) as s:
        assert candidates(s, "")[:1] == ["Ana"] and candidates(s, "Ana ") == []  # the deal first
        for line in FIRST_HAND[:12]:
            assert s.enter(line).verdict.value == "accepted"
        table = table_lines(s)
        assert table[0] == "turn 7 · stock 18 · discard pile 6, top 8d"
        assert "> Dee    4 cards  9c Jd 8s Td" in table and "    #1 [9h 9d 9s]" in table
        assert candidates(s, "")[:1] == ["Dee"]
        assert candidates(s, "Dee ") == ["draw", "take"] and candidates(s, "Ana ") == []
        assert candidates(s, "Dee take ") == ["8d"]
        assert candidates(s, "Dee draw Jh, ") == list(PAGRUC_THEN)
        assert candidates(s, "Dee draw Jh, lay ") == ["9c"]
        assert candidates(s, "Dee draw Jh, lay 9c on ") == ["Cruz#1"]


def _script(lines: list[str]) -> HandScript:
    text = '[Game "pagruc"]\n[Players "Ana Ben Cruz Dee"]\n\n' + "\n".join(lines) + "\n"
    (hand,) = read_hands(io.StringIO(text), "p.pan")
    assert hand.script is not None
    return hand.script


class NeverMany(PagrucRules):
    def may_take_many(self, has_meld: bool) -> bool:
        return False


class AlwaysMany(PagrucRules):
    def may_take_many(self, has_meld: bool) -> bool:
        return True


class NoSets(PagrucRules):
    def meld(self, cards: object, pack: PagrucPack) -> PagrucVerdict:
        v = super().meld(cards, pack)  # type: ignore[arg-type]
        if v.meld is not None and v.meld.kind.value == "set":
            return PagrucVerdict(v.cards, None, Rule.G4, "no sets at this table")
        return v


class FourOrMore(PagrucRules):
    @property
    def min_meld(self) -> int:
        return 4


class NoLayingOff(PagrucRules):
    def may_lay_off(self, has_meld: bool) -> bool:
        return False


class NothingGrows(PagrucRules):
    def lay_off(self, meld: PagrucMeld, added: object, pack: PagrucPack) -> PagrucMeld:
        raise MeldError(Rule.G5, "nothing grows here")


class MeldOut(PagrucRules):
    def kept_card_to_discard(self, cards_left: int) -> bool:
        return True


def test_G3_G4_G5_G6_each_answer_is_the_rules_object_s() -> None:
    """A rules object that answers a question otherwise changes the position's answer to it."""
    dealt = _script(FIRST_HAND[:5])
    ana = _script(FIRST_HAND[:9])  # Ana in turn, with a meld: four discards on the pile
    dee = _script(FIRST_HAND[:12])  # Dee in turn, with a meld; 9c fits Cruz#1
    plain = PagrucRules()
    assert pagruc_now(ana, plain).takes == 4 and pagruc_now(ana, NeverMany()).takes == 1
    assert pagruc_now(dealt, plain).takes == 1 and pagruc_now(dealt, AlwaysMany()).takes == 1  # one card there
    ben = _script(FIRST_HAND[:10])  # Ben in turn, with a meld ([Ah Ad Ac]); five discards
    assert pagruc_now(ben, plain).takes == 5 and pagruc_now(ben, NeverMany()).takes == 1
    cruz = _script(FIRST_HAND[:11])  # Cruz: no meld of his own yet
    assert pagruc_now(cruz, plain).takes == 1 and pagruc_now(cruz, AlwaysMany()).takes == 6
    after_ana = _script(FIRST_HAND[:6])  # Ben in turn: Ah Ad Ac in his hand
    assert [len(m) for m in pagruc_now(after_ana, plain).lays] == [3]
    assert pagruc_now(after_ana, NoSets()).lays == () and pagruc_now(after_ana, FourOrMore()).lays == ()
    assert [str(x.card) for x in pagruc_now(dee, plain).lay_offs] == ["9c"]
    assert pagruc_now(dee, NoLayingOff()).lay_offs == () and pagruc_now(dee, NothingGrows()).lay_offs == ()
    assert pagruc_now(dee, plain).keeps_one and not pagruc_now(dee, MeldOut()).keeps_one
    stock = pagruc_now(dee, plain).stock

    class TurnsOverEarly(PagrucRules):
        def turns_over(self, left: int) -> bool:
            return left <= stock  # (the stock of Dee's turn, and never before it)

    now = pagruc_now(dee, TurnsOverEarly())
    assert (now.may_draw, now.turn_over) == (False, True) and pagruc_now(dee, plain).may_draw


def test_G2_G6_the_phase_and_the_player_in_turn() -> None:
    now = pagruc_now(HandScript(("Ana", "Ben", "Cruz"), game=Game.PAGRUC))
    assert (now.phase, now.to_act, now.takes, now.lays) == (PagrucPhase.DEALING, "Ana", 0, ())
    over = pagruc_now(_script(FIRST_HAND))
    assert (over.phase, over.to_act, over.winner, over.ending_rule) == (PagrucPhase.OVER, None, "Dee", "G6")
    assert over.ending is not None and over.ending.value == "out"
    stopped = pagruc_now(_script([*FIRST_HAND[:6], "Cruz draw 2s, discard 2s"]))
    assert (stopped.phase, stopped.winner, stopped.ending_rule) == (PagrucPhase.OVER, None, "G3")


# --------------------------------------------------------------------------- the answers are the referee's


def _drawable(table: PagrucTable) -> Card:
    """A card the stock may hold (G1: fewer of it seen than the pack holds)."""
    if table.stock_known is not None:
        return next(c for c, n in table.stock_known.items() if n > 0)
    return next(c for c in ALL_CARDS if table.visible(c) < table.pack.copies(c))


def _accepted(table: PagrucTable, player: str, *actions: object) -> bool:
    """Whether the referee accepts ``actions`` as the start of ``player``'s turn (taken back after)."""
    turn = Turn(player, tuple(actions))  # type: ignore[arg-type]
    ok = True
    pushed = 0
    for a in actions:
        pushed += 1
        if table.push_action(a, turn) is not None:  # type: ignore[arg-type]
            ok = False
            break
    for _ in range(pushed):
        table.pop_action()
    return ok


def _check_now_against_the_referee(table: PagrucTable) -> None:
    now = pagruc_now_of(table)
    p = now.to_act
    if now.phase is not PagrucPhase.PLAYING or p is None:
        return
    for n in {1, now.takes, now.takes + 1, now.pile} - {0}:
        assert _accepted(table, p, TakeMany(n)) is (n <= now.takes), n
    card = _drawable(table) if table.stock else ALL_CARDS[0]  # (an empty stock: any card is refused)
    assert _accepted(table, p, Draw(card)) is now.may_draw
    table.undo = []
    assert (table.push(Reshuffle()) == ()) is now.turn_over
    table.pop()
    table.undo = None
    top = Take(table.pile[-1])
    known = list(table.hands[p].known)  # (a copy: pop_action puts back a copy of the table's lists)
    if len(known) <= 8:
        for g in {tuple(sorted(g, key=lambda c: c.index)) for g in combinations(known, 3)}:
            assert _accepted(table, p, top, MeldNew(g)) is (g in now.lays), g
    assert all(_accepted(table, p, top, MeldNew(m)) for m in now.lays)
    fits = {(x.card, x.meld) for x in now.lay_offs}
    for m in tuple(table.order):
        for c in dict.fromkeys(known):
            assert _accepted(table, p, top, Lay((c,), m.owner, m.number)) is ((c, m.label) in fits), (c, m.label)


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32), n=st.integers(3, 6))
def test_G3_G4_G5_G6_each_answer_is_what_the_referee_accepts_over_self_played_hands(seed: int, n: int) -> None:
    """Between the lines of self-played hands: the takes, the draw, the turn-over, the melds of
    the known hand (every group of three cards tried) and the lay-offs the position
    gives are exactly what the referee accepts as the start of the next turn."""
    rng = random.Random(seed)
    text = selfplay_hand(tuple(rng.sample(NAMES, n)), rng)
    (hand,) = read_hands(io.StringIO(text), "s.pan")
    script = hand.script
    assert script is not None
    table = PagrucTable(script, record_steps=False)
    assert table.deal_in()
    for ev in script.events[:30]:
        _check_now_against_the_referee(table)
        if table.push(ev):
            break


# --------------------------------------------------------------------------- one action: push_action, pop_action


def _state(table: PagrucTable) -> dict[str, str]:
    hands = {p: (tuple(h.known), h.hidden) for p, h in table.hands.items()}
    return {k: repr(hands if k == "hands" else v) for k, v in vars(table).items() if k not in ("undo", "kept_actions")}


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32), n=st.integers(3, 8))
def test_G3_push_action_then_pop_action_gives_the_same_table_over_self_played_hands(seed: int, n: int) -> None:
    """Before every turn line of self-played hands, its actions pushed one by one and then popped
    one by one give back, at each step, the table as it was; the line pushed whole after is the
    referee's, and so is the hand played action by action."""
    rng = random.Random(seed)
    text = selfplay_hand(tuple(rng.sample(NAMES, n)), rng)
    (hand,) = read_hands(io.StringIO(text), "s.pan")
    script = hand.script
    assert script is not None
    table, by_actions = PagrucTable(script), PagrucTable(script)
    assert table.deal_in() and by_actions.deal_in()
    for ev in script.events:
        if isinstance(ev, Turn):
            states = []
            for a in ev.actions:
                states.append(_state(table))
                assert table.push_action(a, ev) is None, a
                assert by_actions.push_action(a, ev) is None
            assert table.turn is ev and table.close_turn() is None and by_actions.close_turn() is None
            for before in reversed(states):  # the close is taken back with the last action
                table.pop_action()
                assert _state(table) == before, ev
            with pytest.raises(IndexError):
                table.pop_action()
        else:
            assert by_actions.push(ev) == ()
        assert table.push(ev) == ()
    assert table.finish() == referee_script(script) == by_actions.finish()


@pytest.mark.parametrize("strict", [True, False])
def test_G3_a_turn_out_of_order_or_idle_is_refused_whole_by_push_action(strict: bool) -> None:
    script = _script(FIRST_HAND[:6])
    table = PagrucTable(script, strict=strict)
    assert table.deal_in() and table.push(script.events[0]) == ()
    late = Turn("Cruz", (Draw(_drawable(table)),))
    v = table.push_action(late.actions[0], late)
    assert v is not None and (str(v.rule), v.message) == ("G3", "it is Ben's turn, not Cruz's")
    assert (table.turn is late) is not strict  # a late turn is played when not strict, as push plays it
    table.pop_action()
    assert table.turn is None and table.turn_no == 1
