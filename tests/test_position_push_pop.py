"""The referee's table is the hand's position: ``push`` plays one line by the referee's one path,
``pop`` takes it back exactly.

Over simulated hands (every profile knob), corrupted ones and every shipped sample (fouls, calls,
counts, reshuffles, retirements), strict and not: after ``push`` then ``pop`` the table equals
what it was, field by field and reference by reference; the lines pushed one by one give the
result :func:`referee_script` gives.
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
from pancli.referee import Table, referee_script
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
    assert (table.finish() if dealt else table.result(table.violations)) == referee_script(script, strict=strict)
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
            assert referee_script(script, strict=strict) == referee_script(script, strict=strict, fast=False)


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
    fast, general = referee_script(changed, strict=False), referee_script(changed, strict=False, fast=False)
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


# --------------------------------------------------------------------------- one action: push_action, pop_action

SKIP_KEPT = frozenset({"undo", "acted"})


def by_actions(script: HandScript, *, strict: bool) -> Table:
    """Referee ``script`` as a scorekeeper enters it action by action: each turn line's actions
    pushed one at a time (:meth:`Table.push_action`), the turn closed after them; other lines pushed."""
    table = Table(script, strict=strict)
    if not table.deal_in():
        return table
    vs = table.violations
    for ev in script.events:
        if type(ev) is not Turn:
            if table.push(ev) and strict:
                break
            continue
        n = len(vs)
        for a in ev.actions:
            v = table.push_action(a, ev)
            if v is not None:
                vs.append(v)
            if table.turn is not ev or (v is not None and strict):
                break  # the line refused whole, or answered whole (a lone mend); or the hand stops
        if strict and len(vs) > n:
            break
        if table.turn is ev:
            v = table.close_turn()
            if v is not None:
                vs.append(v)
                if strict:
                    break
                table.end_turn()
    return table


@pytest.mark.parametrize("sample", sorted(p.name for p in SAMPLES.glob("*.pan")))
def test_pushing_each_action_gives_every_sample_the_result_of_its_lines(sample: str) -> None:
    """Fouls, calls and lone mends, counts, retirements: a hand entered action by action by
    push_action is refereed as Table.push of its lines referees it, strict and not."""
    with open(SAMPLES / sample, encoding="utf-8") as f:
        scripts = [h.script for h in read_hands(f, sample, SAMPLES)]
    for script in scripts:
        if script is None or script.game is not Game.PANGUINGUE:
            continue
        for strict in (True, False):
            table = by_actions(script, strict=strict)
            got = table.finish() if not table.stopped else table.result(table.violations)
            assert got == referee_script(script, strict=strict), (sample, strict)


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32), n=st.integers(2, 6), profile=any_profile)
def test_push_action_then_pop_action_gives_the_same_table_over_simulated_hands(
    seed: int, n: int, profile: object
) -> None:
    """Before every turn line of self-played hands, each of its actions pushed one by one and then
    popped one by one gives back, at each step, the table as it was, field by field and reference
    by reference; the line then pushed whole is the referee's."""
    script = one_hand(seed, n, profile)
    table = Table(script)
    assert table.deal_in()
    for ev in script.events:
        if type(ev) is Turn:
            states = []
            for a in ev.actions:
                states.append(state(table, SKIP_KEPT))
                assert table.push_action(a, ev) is None, a
            assert table.turn is ev and table.close_turn() is None  # legal to its end
            for before in reversed(states):  # the close is taken back with the last action
                table.pop_action()
                assert state(table, SKIP_KEPT) == before, ev
            with pytest.raises(IndexError):
                table.pop_action()
        assert table.push(ev) == ()
    assert table.finish() == referee_script(script)


MENDED = (SAMPLES / "irregular-I2-mended-on-call.pan").read_text(encoding="utf-8").splitlines()
"""A foul meld called, then made good by a lone ``mend`` on the next line (I2)."""


def _called_in_turn() -> HandScript:
    """The sample's hand with the call made just before Cruz's own turn: the lone mend that
    answers it is by the player in turn, the line a turn would be."""
    lines = [*MENDED[:21], "3. Dee draw Kc, discard Kc", "4. Eli take Kc, meld [Kd Kd Kc] ?!, discard 3c"]
    lines += ["5. Ana draw 5h, discard 5h", "Ana call Cruz #1", "Cruz mend #1 [7c 7c 7c 7c] {[%pays 3]}"]
    lines += ["6. Cruz draw Qs, discard Qs"]
    return _read(lines)


def _read(lines: list[str]) -> HandScript:
    import io

    (hand,) = read_hands(io.StringIO("\n".join(lines) + "\n"), "called.pan")
    assert hand.script is not None
    return hand.script


@pytest.mark.parametrize("in_turn", [False, True])
def test_I2_a_lone_mend_answering_a_call_is_pushed_and_asked_as_replay_plays_it(in_turn: bool) -> None:
    """The lone mend line is the call's answer, never a turn, to whatever asks: pushed as one
    action it leaves the table its line leaves; no discard may end it (discards_after None); the
    positions at it and after it are the ones refereed from the deal; taken back, nothing is left."""
    from pancli.model.actions import Mend

    script = _called_in_turn() if in_turn else _read(MENDED)

    (k,) = [i for i, e in enumerate(script.events) if type(e) is Turn and len(e.actions) == 1]
    mend = script.events[k]
    assert isinstance(mend, Turn) and type(mend.actions[0]) is Mend
    rules = PanRules(script.profile)  # (one rules object: the laid melds it caches are shared)
    lines, actions = Table(script, undo=True, rules=rules), Table(script, rules=rules)
    assert lines.deal_in() and actions.deal_in()
    for ev in script.events[:k]:
        assert lines.push(ev) == actions.push(ev) == ()
    assert lines.answering is not None and lines.discards_after(mend) is None
    before = state(actions, SKIP_KEPT)
    assert actions.push_action(mend.actions[0], mend) is None
    assert lines.push(mend) == ()
    assert actions.turn is None and state(actions, SKIP_KEPT) == state(lines, SKIP_KEPT)
    actions.pop_action()
    assert state(actions, SKIP_KEPT) == before
    walk = Walk(script)
    for line in (mend.line - 1, mend.line, mend.line + 1):
        for player in ("Cruz", "Dee"):
            assert _asked(walk, line, player) == _asked(Walk(script), line, player)
    assert _asked(walk, mend.line, "Cruz")[0] == "PositionUnavailable"  # type: ignore[index]
    assert referee_script(script).ok


def test_one_action_is_played_in_one_place() -> None:
    """Judging and applying one action of a turn line (verify, apply, the I1 retirement) is
    Table.play_action's alone, and opening a turn line (its place, a lone mend's answer) is
    open_turn's: the turn line, the position's look at a draw and discards_after go through them."""
    import ast
    import inspect

    import pancli.referee.position as position
    import pancli.referee.table as table_module

    where: dict[str, set[str]] = {}
    for module in (table_module, position):
        tree = ast.parse(inspect.getsource(module))
        for fn in ast.walk(tree):
            if not isinstance(fn, ast.FunctionDef):
                continue
            for node in ast.walk(fn):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                    name = node.func.attr
                    if name in {"verify", "apply", "begin_turn", "verify_turn", "answer", "lone_mend", "retire"}:
                        where.setdefault(name, set()).add(fn.name)
    assert where["verify"] == where["apply"] == {"play_action"}
    assert where["answer"] == where["lone_mend"] == {"open_turn"}
    assert where["begin_turn"] == {"open_turn", "_fast_meld_turn", "begin_turn"}  # the fast turn: checked apart
    assert where["retire"] == {"play_action", "verify_turn_end"}
    assert "verify_turn" not in where
