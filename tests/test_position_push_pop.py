"""The referee's table is the hand's position: ``push`` plays one line by the referee's one path,
``pop`` takes it back exactly.

Over simulated hands (every profile knob), corrupted ones and every shipped sample (fouls, calls,
counts, reshuffles, retirements), strict and not: after ``push`` then ``pop`` the table equals
what it was, field by field and reference by reference; the lines pushed one by one give the
result :func:`referee_hand` gives.
"""

from __future__ import annotations

import enum
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from msgspec.structs import replace
from profiles_kit import any_profile

from pancli.cards import ALL_CARDS, Card, Game
from pancli.model.actions import Discard, HandScript, Turn
from pancli.panrules import LaidMeld, PanRules
from pancli.records import read_hands
from pancli.referee import Table, referee_hand
from pancli.referee.position import PositionError, Walk
from pancli.referee.simulate import simulate_hands
from pancli.rules import HOYLE
from pancli.values import Value

NAMES = ("Ana", "Ben", "Cruz", "Dee", "Eve", "Fay", "Gus", "Hal")
SAMPLES = Path(__file__).resolve().parent.parent / "samples"


TURN_IN_PROGRESS = frozenset(
    {"turn", "seat", "pending", "pending_src", "pending_used", "drew", "hand_melded", "discarded", "out"}
    | {"must_add", "borrowed", "moves", "fouls", "fast", "fit_mask"}
)
"""What a turn in progress holds (and the fit table a seat works out when asked): between two lines
it is no part of the position."""


def state(table: Table, skip: frozenset[str] = frozenset({"undo"})) -> object:
    """Everything the table holds, as nested plain data: objects by their fields (sorted), a second
    reference to a mutable object as a reference to the first (so aliasing is compared too)."""
    seen: dict[int, int] = {}

    def walk(x: object) -> object:
        if x is None or isinstance(x, int | str | bytes | float | Card | Value | enum.Enum):
            return x
        if isinstance(x, LaidMeld | PanRules):  # shared, never changed: the same object
            return ("shared", id(x))
        if id(x) in seen:
            return ("ref", seen[id(x)])
        seen[id(x)] = len(seen)
        if isinstance(x, list | tuple):
            return (type(x).__name__, [walk(i) for i in x])
        if isinstance(x, dict):
            return ("dict", [(k, walk(v)) for k, v in x.items()])
        names = sorted(vars(x)) if hasattr(x, "__dict__") else sorted(type(x).__slots__)  # type: ignore[attr-defined]
        return (type(x).__name__, [(n, walk(getattr(x, n))) for n in names if n not in skip])

    return walk(table)


def push_pop_each(script: HandScript, *, strict: bool = True) -> Table:
    """Push each line of ``script``, checking that ``pop`` restores the table each time, and
    that the result is the referee's; returns the table after the last line."""
    table = Table(script, strict=strict, undo=True)
    dealt = table.deal_in()
    start = state(table)
    pushed = 0
    if dealt:
        for ev in script.events:
            before = state(table)
            got = table.push(ev)
            table.pop()
            assert state(table) == before, ev
            assert table.push(ev) == got
            pushed += 1
            if got and strict:
                break
    assert table.pushed == pushed
    end = state(table)
    assert (table.finish() if dealt else table.result(table.violations)) == referee_hand(script, strict=strict)
    for _ in range(pushed):
        table.pop()
    assert state(table) == start
    with pytest.raises(IndexError):
        table.pop()
    for ev in script.events[:pushed]:
        table.push(ev)
    assert state(table) == end  # what finish() added was taken back with the lines
    return table


def one_hand(seed: int, n: int, profile: object) -> HandScript:
    return next(simulate_hands(NAMES[:n], 1, seed, profile))  # type: ignore[arg-type]


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32), n=st.integers(2, 8), profile=any_profile)
def test_push_then_pop_gives_the_same_position_over_simulated_hands(seed: int, n: int, profile: object) -> None:
    push_pop_each(one_hand(seed, n, profile))


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32), n=st.integers(2, 6), data=st.data())
def test_push_then_pop_over_corrupted_hands_strict_and_not(seed: int, n: int, data: st.DataObject) -> None:
    script = one_hand(seed, n, HOYLE)
    events = list(script.events)
    turns = [k for k, e in enumerate(events) if isinstance(e, Turn) and e.actions]
    assume(turns)
    k = data.draw(st.sampled_from(turns))
    turn = events[k]
    assert isinstance(turn, Turn)
    other = data.draw(st.sampled_from([d.cards[0] for d in script.deals]))
    events[k] = replace(turn, actions=(*turn.actions[:-1], Discard(other)))  # a card he may not hold
    bad = replace(script, events=tuple(events))
    push_pop_each(bad)
    push_pop_each(bad, strict=False)


@pytest.mark.parametrize("sample", sorted(p.name for p in SAMPLES.glob("*.pan")))
def test_push_then_pop_over_every_sample_hand(sample: str) -> None:
    with open(SAMPLES / sample, encoding="utf-8") as f:
        scripts = [h.script for h in read_hands(f, sample, SAMPLES)]
    for script in scripts:
        if script is not None and script.game is Game.PANGUINGUE:
            push_pop_each(script)
            push_pop_each(script, strict=False)


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32), n=st.integers(2, 8), profile=any_profile)
def test_the_fast_turn_leaves_the_table_as_the_general_path_does(seed: int, n: int, profile: object) -> None:
    """After every line, the table of the fast turns (plain turns and meld turns applied in one go)
    is the general path's, but for what a turn in progress holds."""
    script = one_hand(seed, n, profile)
    rules = PanRules(script.profile)
    fast, plain = Table(script, rules=rules), Table(script, rules=rules, fast=False)
    assert fast.deal_in() and plain.deal_in()
    skip = TURN_IN_PROGRESS | {"undo"}
    for ev in script.events:
        assert fast.push(ev) == plain.push(ev) == ()
        assert state(fast, skip) == state(plain, skip), ev
    assert fast.finish() == plain.finish()


@pytest.mark.parametrize("sample", sorted(p.name for p in SAMPLES.glob("*.pan")))
def test_the_fast_turns_give_every_sample_the_general_path_s_result(sample: str) -> None:
    """Fouls, calls, counts, retirements: the fast turns never change a sample's result."""
    for hand in read_hands((SAMPLES / sample).open(encoding="utf-8"), sample):
        script = hand.script
        if script is None or script.game is not Game.PANGUINGUE:
            continue
        for strict in (True, False):
            assert referee_hand(script, strict=strict) == referee_hand(script, strict=strict, fast=False)


def test_I2_a_plain_turn_over_a_foul_meld_left_lying_goes_the_general_way() -> None:
    """Ana's foul meld lies uncalled at her next turn (the only call is refused, S1): a plain
    ``draw, discard`` turn then finds it (I2), as the general path does; the fast turn let it lie."""
    from pancli.model.actions import Add, Call, Draw

    (hand,) = read_hands((SAMPLES / "irregular-I2-called-late.pan").open(encoding="utf-8"), "s.pan")
    script = hand.script
    assert script is not None
    ev = list(script.events)
    at = next(
        i for i, e in enumerate(ev) if type(e) is Turn and e.player == "Ana" and any(type(a) is Add for a in e.actions)
    )
    called = next(i for i, e in enumerate(ev) if type(e) is Call)
    turn = ev[at]
    five = next(c for c in ALL_CARDS if str(c) == "5s")
    plain = Turn(
        "Ana", (Draw(five, line=turn.line, col=1), Discard(five, line=turn.line, col=2)), line=turn.line, col=1
    )
    stranger = replace(ev[called], player="Zed", line=turn.line - 1)
    changed = replace(script, events=(*ev[:at], stranger, plain, *ev[called + 1 :]))
    fast, general = referee_hand(changed, strict=False), referee_hand(changed, strict=False, fast=False)
    assert [str(r.violation.rule) for r in general.remedies] == ["I2"]
    assert fast == general


def test_the_fast_turns_change_the_table_only_by_the_general_path_s_functions() -> None:
    """The fast turns keep only their checks: neither sets a field of the table or of a seat, nor
    changes a hand, a pile or a list of melds, itself; what they apply is applied by the
    functions the general path applies each action by (``turns``, ``melding``, ``forcing``)."""
    import ast
    import inspect
    import textwrap

    for method in (Table.fast_turn, Table._fast_meld_turn):
        tree = ast.parse(textwrap.dedent(inspect.getsource(method)))
        bound = {"self"} | {
            t.id
            for node in ast.walk(tree)
            if isinstance(node, ast.Assign)
            for t in node.targets
            if isinstance(t, ast.Name)
            and isinstance(node.value, ast.Attribute | ast.Subscript)
            and "self" in ast.unparse(node.value)
        }
        changed = []
        for node in ast.walk(tree):
            targets = (
                node.targets
                if isinstance(node, ast.Assign)
                else [node.target]
                if isinstance(node, ast.AugAssign)
                else []
            )
            for t in targets:
                base = t.value if isinstance(t, ast.Attribute | ast.Subscript) else None
                while isinstance(base, ast.Attribute | ast.Subscript):
                    base = base.value
                if isinstance(base, ast.Name) and base.id in bound:
                    changed.append(ast.unparse(t))
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                owner = node.func.value
                if node.func.attr in {"append", "pop", "remove", "extend", "clear"} and ast.unparse(owner).startswith(
                    ("self.", "s.", "hand")
                ):
                    changed.append(ast.unparse(node))
        assert changed == [], (method.__name__, changed)


def _asked(walk: Walk, line: int, player: str) -> object:
    try:
        return walk.at(line, player)
    except PositionError as e:
        return (type(e).__name__, str(e), e.line, e.col)


@pytest.mark.parametrize("sample", sorted(p.name for p in SAMPLES.glob("*.pan")))
def test_a_walked_position_is_the_one_refereed_from_the_deal(sample: str) -> None:
    """One table walked forward through a hand (what ``pan review`` asks) gives at every line, for
    every player, what a table refereed from the deal to that line gives, violations included;
    a line before the last one asked walks again from the deal."""
    with open(SAMPLES / sample, encoding="utf-8") as f:
        scripts = [h.script for h in read_hands(f, sample, SAMPLES)]
    for script in scripts[:3]:
        if script is None or script.game is not Game.PANGUINGUE:
            continue
        walk = Walk(script)
        lines = sorted({ev.line for ev in script.events} | {script.first_line, 10**6})
        for line in lines:
            for player in script.players[:4]:
                assert _asked(walk, line, player) == _asked(Walk(script), line, player), (line, player)
        back = lines[len(lines) // 2]
        assert _asked(walk, back, script.players[0]) == _asked(Walk(script), back, script.players[0])


def test_P8_may_force_is_what_push_accepts_of_a_force_line() -> None:
    """Between the lines of simulated demand-mode hands, each seated player may force exactly when
    the referee accepts his ``force`` line: any other active player, not only the one before."""
    from pancli.model.actions import Force
    from pancli.referee.position import now_of

    most = 0
    for script in simulate_hands(NAMES[:5], 6, 1, HOYLE):
        table = Table(script, strict=True, undo=True)
        assert table.deal_in()
        for ev in script.events:
            if table.phase.name == "PLAYING" and table.to_act is not None:
                asked = {s.name: table.may_force(s.name) for s in table.seats}
                for name, may in asked.items():
                    got = table.push(Force(name, table.to_act, 1, 1))
                    table.pop()
                    assert (got == ()) is may, (name, got)
                forcers = now_of(table).forcers
                assert set(forcers) == ({n for n, m in asked.items() if m} if not table.must_take() else set())
                most = max(most, len(forcers))
            if table.push(ev):
                break
    assert most > 1


def test_P9_the_position_s_flat_players_are_the_rules_object_s() -> None:
    """The live view's flat players are those the rules object calls flat (``is_flat``, which P9's
    ``must_keep_draw`` asks): a subclass that never calls anyone flat has none."""
    from pancli.referee.position import now_of

    class NeverFlat(PanRules):
        def is_flat(self, seat: object) -> bool:
            return False

    flats = {"plain": 0, "never": 0}
    for script in simulate_hands(NAMES[:4], 12, 3, HOYLE):
        for key, rules in (("plain", PanRules(HOYLE)), ("never", NeverFlat(HOYLE))):
            table = Table(script, rules=rules)
            assert table.deal_in()
            for ev in script.events:
                if table.push(ev):
                    break
                flats[key] += sum(s.flat for s in now_of(table).seats)
    assert flats["plain"] > 0 and flats["never"] == 0
