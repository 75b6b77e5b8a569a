"""ONE RULE, ONE PLACE, at run time: which function rules on each rule, watched while
the referees judge real hands.

tests/test_one_rule_one_place.py changes the functions that decide the rules and requires every
caller to follow. This test sees every ruling however its rule is computed (a
rule in a variable, a dict lookup, ``Rule(code)``, a meld engine's verdict passed through): while
the referees judge every sample, every record case, the fuzz corpus and simulated hands (as
played, and mutated so that they break rules), each :class:`~pancli.model.results.Violation` and
:class:`~pancli.model.results.ClaimCheck` made is traced back to the function that made it (past
the plumbing that only builds a ruling: ``Ruling.make``, each game's ``Board.fail``). Each
rule must come from the one function its referee's rule table names; a meld engine rule (M1-M5)
from the function that raises the engine's verdicts in a hand (the I2 row). A second judge of a
rule, static or not, fails here once a hand reaches it.
"""

from __future__ import annotations

import ast
import contextlib
import inspect
import io
import random
import re
import sys
import textwrap
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from types import FrameType
from typing import Any

import msgspec.structs
import pytest
from pagruc_selfplay import corpus
from test_one_rule_one_place import (
    _FUNCTION,
    PAGRUC_CLAIMS,
    PAGRUC_RULINGS,
    PAN_CLAIMS,
    PAN_PAYMENTS,
    PAN_RULINGS,
    _ids,
)

from pancli.cards import ALL_CARDS, Card, Game
from pancli.model.actions import Draw, HandScript, Reshuffle, Turn
from pancli.model.results import ClaimCheck, Payment, Violation
from pancli.pagruc import judges
from pancli.pagruc import referee as pagruc_referee
from pancli.pagruc.referee import referee_script as pagruc_referee_hand
from pancli.panrules import PanRules
from pancli.records import read_hands
from pancli.referee import play, referee_script
from pancli.referee import table as pan_table
from pancli.referee.play import next_hand_violation
from pancli.referee.simulate import simulate_hands
from pancli.rules import CARDROOM, HOYLE

ROOT = Path(__file__).resolve().parent.parent
RECORDS = sorted(
    [
        *(ROOT / "samples").glob("*.pan"),
        *(ROOT / "grammar" / "record-cases").rglob("*.pan"),
        *(ROOT / "tests" / "fuzz_corpus").glob("*.pan"),
    ]
)

COPIES = frozenset({"referee._Referee.record"})
"""Functions that copy a ruling already made (``msgspec.structs.replace``, compiled, leaves no
frame of its own): the copy is not a ruling of theirs."""

PLUMBING = frozenset(
    {
        "results.Ruling.make",
        "board.Board.fail",
        "play._i2",
        "play._foul_ruling",
        "board.PagrucBoard.fail",
        "board.Board.collect",
        "results.Ledger.pay",
    }
)
"""Functions that only build the ruling (or pay the payment) another function decided on (its
rule is their argument)."""


_COMPREHENSION = re.compile(r"(\.<locals>\.<(listcomp|genexpr|setcomp|dictcomp)>)+$")


def _where(frame: FrameType | None) -> str | None:
    """The function that made the value being built in ``frame``'s caller chain (None: a copy,
    made by ``msgspec.structs.replace`` from a ruling already made)."""
    while frame is not None:
        name = f"{frame.f_globals.get('__name__', '').rpartition('.')[2]}.{frame.f_code.co_qualname}"
        name = _COMPREHENSION.sub("", name)  # Python 3.11 runs a comprehension in a frame of its own
        if name in COPIES:
            return None
        if name not in PLUMBING:
            return name
        frame = frame.f_back
    return None  # pragma: no cover - always called from somewhere


class Audit:
    """Rule -> the functions seen making a ruling (a claim check, a payment) on it, per game."""

    def __init__(self) -> None:
        self.rulings: dict[Game, dict[str, set[str]]] = {g: defaultdict(set) for g in Game}
        self.claims: dict[Game, dict[str, set[str]]] = {g: defaultdict(set) for g in Game}
        self.payments: dict[Game, dict[str, set[str]]] = {g: defaultdict(set) for g in Game}
        self.game = Game.PANGUINGUE

    def watch(self, monkeypatch: pytest.MonkeyPatch) -> None:
        # a Struct's constructor is compiled: each module's name for the class is pointed at a
        # subclass whose __post_init__ (run by the constructor) notes who called it
        for cls, seen in ((Violation, self.rulings), (ClaimCheck, self.claims), (Payment, self.payments)):

            def traced(obj: Any, _seen: Any = seen) -> None:
                where = _where(sys._getframe(1))
                if where is not None:
                    for rule in getattr(obj, "rules", (obj.rule,)):  # a payment cites one rule or more
                        _seen[self.game][str(rule)].add(where)

            body = {"__post_init__": traced, "__module__": cls.__module__, "__qualname__": cls.__qualname__}
            sub = type(cls)(cls.__name__, (cls,), body)
            for module in list(sys.modules.values()):
                if getattr(module, "__name__", "").startswith("pancli"):
                    for name, value in list(vars(module).items()):
                        if isinstance(value, type) and issubclass(value, cls):  # another audit's too
                            monkeypatch.setattr(module, name, sub)

    def judge(self, script: HandScript, previous: Any = None) -> Any:
        self.game = script.game
        if script.game is Game.PAGRUC:
            pagruc_referee_hand(script, strict=False)
            return pagruc_referee_hand(script)
        if previous is not None:
            next_hand_violation(previous, script, PanRules(script.profile))
        referee_script(script, strict=False, remedy=False)  # as --strict: a foul meld cites its rule (M1-M5)
        referee_script(script, strict=False)  # irregularities put right (I1, I2)
        return referee_script(script)


def _scripts() -> Iterator[HandScript]:
    for path in RECORDS:
        text = path.read_text(encoding="utf-8", errors="replace")
        for hand in read_hands(io.StringIO(text), str(path), path.parent):
            if hand.script is not None:
                yield hand.script


def _simulated(n: int) -> list[HandScript]:
    names = ("Ana", "Ben", "Cruz", "Dee")
    played = [*simulate_hands(names, n, 7, HOYLE), *simulate_hands(names[:3], n, 8, CARDROOM)]
    pagruc = [h.script for text in corpus(9, n) for h in read_hands(io.StringIO(text), "selfplay.pan", ROOT)]
    return [*played, *(s for s in pagruc if s is not None)]


def _cards_of(value: object) -> bool:
    return isinstance(value, tuple) and bool(value) and all(isinstance(c, Card) for c in value)


def _other_card(rng: random.Random, value: object) -> object:
    if isinstance(value, Card):
        return rng.choice(ALL_CARDS)
    if isinstance(value, tuple) and _cards_of(value):
        cards = list(value)
        cards[rng.randrange(len(cards))] = rng.choice(ALL_CARDS)
        return tuple(cards)
    return value


def _mutated(script: HandScript, rng: random.Random) -> HandScript:
    """``script`` with one random change: an event dropped or moved, a reshuffle put in, a turn's
    action dropped, a card or a meld number changed, a meld's card dropped, a player changed, a
    deal or the upcard dropped, a player seated or left out."""
    events = list(script.events)
    kind = rng.randrange(9)
    if kind == 7:
        events.insert(rng.randrange(len(events) + 1), Reshuffle())
    elif kind == 0 and events:
        del events[rng.randrange(len(events))]
    elif kind == 1 and len(events) > 1:
        i = rng.randrange(len(events) - 1)
        events[i], events[i + 1] = events[i + 1], events[i]
    elif kind == 5:
        deals = list(script.deals)
        if deals:
            deals[rng.randrange(len(deals))] = deals[0]
        return msgspec.structs.replace(script, deals=tuple(deals), upcard=None if rng.random() < 0.3 else script.upcard)
    elif kind == 6:
        players = script.players[:-1] if rng.random() < 0.5 else (*script.players, script.players[0])
        return msgspec.structs.replace(script, players=players)
    else:
        turns = [i for i, e in enumerate(events) if isinstance(e, Turn) and e.actions]
        if not turns:
            return script
        i = rng.choice(turns)
        turn = events[i]
        assert isinstance(turn, Turn)
        actions = list(turn.actions)
        j = rng.randrange(len(actions))
        a = actions[j]
        if kind == 2:
            del actions[j]
        elif kind == 8:
            name = next((n for n in a.__struct_fields__ if _cards_of(getattr(a, n))), "")
            if name:
                actions[j] = msgspec.structs.replace(a, **{name: getattr(a, name)[1:]})
        elif kind == 3:
            name = rng.choice(list(a.__struct_fields__))
            actions[j] = msgspec.structs.replace(a, **{name: _other_card(rng, getattr(a, name))})
        elif hasattr(a, "target") or hasattr(a, "source"):
            name = "target" if hasattr(a, "target") else "source"
            actions[j] = msgspec.structs.replace(a, **{name: rng.randrange(1, 4)})
        else:
            events[i] = msgspec.structs.replace(turn, player=rng.choice(script.players))
            return msgspec.structs.replace(script, events=tuple(events))
        events[i] = msgspec.structs.replace(turn, actions=tuple(actions))
    return msgspec.structs.replace(script, events=tuple(events))


@pytest.fixture(scope="module")
def audit() -> Iterator[Audit]:
    mp = pytest.MonkeyPatch()
    a = Audit()
    a.watch(mp)
    try:
        rng = random.Random(9)
        originals = [*_scripts(), *_simulated(12)]
        previous = None
        for script in originals:
            previous = a.judge(script, previous if script.game is Game.PANGUINGUE else None)
        for _ in range(6):
            for script in originals:
                with contextlib.suppress(ValueError):  # a mutation no referee takes
                    a.judge(_mutated(script, rng))
        yield a
    finally:
        mp.undo()


def _expected(rulings: dict[str, str], claims: dict[str, str], kind: str, rule: str) -> str | None:
    """The one function the tables name for ``rule`` (a meld engine rule: the I2 row's)."""
    rows = rulings if kind == "rulings" else claims
    function = rows.get(rule)
    if function is not None and not _FUNCTION.fullmatch(function):
        return rulings.get("I2")  # the meld engine's rules are raised in a hand by the I2 judge
    return function


def questions(doc: str) -> dict[str, frozenset[str]]:
    """Rule -> the judges its row names after ``one function a question:``: a rule that asks
    several questions (G3: whose turn, in order, doing something, ...) has a judge for each,
    beside the one named first (no judge takes a mode saying which question it answers)."""
    rows: dict[str, str] = {}
    column = ""
    rules_seen = 0
    for line in doc.splitlines():
        if line.startswith("====="):
            rules_seen += 1
            continue
        if rules_seen != 2 or not line.strip():  # the rulings table only (a payment row may share an id)
            continue
        if line.startswith(" "):
            rows[column] += line
        else:
            column, rest = re.split(r"\s{2,}", line, maxsplit=1)
            rows[column] = rest
    return {
        r: frozenset(re.findall(r":func:`\.([\w.]+)`", text.split("one function a question:", 1)[1]))
        for column, text in rows.items()
        if "one function a question:" in text
        for r in _ids(column)  # a row of several rules (E1 E4) asks its questions for each
    }


@pytest.mark.parametrize("module", [play, judges], ids=lambda m: m.__name__)
def test_no_judge_takes_a_flag_saying_which_question_it_answers(module: Any) -> None:
    """A judge (``*_fault``, ``*_ruling``) answers one question: a second question is a judge
    of its own, named in its rule's row after ``one function a question:``, never a bool."""
    flags = [
        (name, p.name)
        for name, f in vars(module).items()
        if inspect.isfunction(f) and f.__module__ == module.__name__ and name.endswith(("_fault", "_ruling"))
        for p in inspect.signature(f).parameters.values()
        if p.annotation == "bool"
    ]
    assert flags == []


def _is_kind(e: ast.expr, params: set[str], kinds: set[str]) -> bool:
    """``e`` is the kind of a parameter or a test of it: ``type(node)``, ``isinstance(node, ...)``,
    a local holding one, or a comparison, ``not``, ``and``/``or`` of them (``kind is Draw``)."""
    if isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and e.func.id in {"isinstance", "type"}:
        return bool(e.args) and isinstance(e.args[0], ast.Name) and e.args[0].id in params
    if isinstance(e, ast.Name):
        return e.id in kinds
    if isinstance(e, ast.Compare):
        return _is_kind(e.left, params, kinds)
    if isinstance(e, ast.UnaryOp):
        return _is_kind(e.operand, params, kinds)
    if isinstance(e, ast.BoolOp):
        return any(_is_kind(v, params, kinds) for v in e.values)
    return False


def _reads_kind(test: ast.expr, params: set[str], kinds: set[str]) -> bool:
    """``test`` (an ``if``'s) reads the kind of a parameter."""
    return _is_kind(test, params, kinds)


def kinds_judged(f: Any) -> int:
    """In how many places, told apart by the kind of a parameter, judge ``f`` makes its rulings
    (``.fail(...)``): the branches of each ``if`` that reads the kind, and outside them all. Two
    or more: the judge asks a different question of each kind of line it is handed. Words picked
    by the kind (a conditional expression) are one place."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(f)))
    func = tree.body[0]
    assert isinstance(func, ast.FunctionDef)
    params = {a.arg for a in (*func.args.args, *func.args.kwonlyargs)}
    kinds: set[str] = set()
    while True:  # a local read from another that holds a kind holds one too
        more = {
            t.id
            for n in ast.walk(func)
            if isinstance(n, ast.Assign) and _is_kind(n.value, params, kinds)
            for t in n.targets
            if isinstance(t, ast.Name)
        }
        if more <= kinds:
            break
        kinds |= more
    places: set[tuple[int, str] | None] = set()

    def visit(node: ast.AST, place: tuple[int, str] | None) -> None:
        if isinstance(node, ast.If) and _reads_kind(node.test, params, kinds):
            for child in node.body:
                visit(child, (id(node), "then"))
            for child in node.orelse:
                visit(child, (id(node), "else"))
            return
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "fail":
            places.add(place)
        for child in ast.iter_child_nodes(node):
            visit(child, place)

    for stmt in func.body:
        visit(stmt, None)
    return len(places)


KIND_IS_THE_QUESTION = {
    "draw_first_fault": "P1 asks of every action what it is: Panguingue's, a draw or take first, no second",
}
"""Judges whose one question is about the kind of the action they are handed."""


def _judges(module: Any) -> dict[str, Any]:
    return {
        name: f
        for name, f in vars(module).items()
        if inspect.isfunction(f) and f.__module__ == module.__name__ and name.endswith(("_fault", "_ruling"))
    }


@pytest.mark.parametrize("module", [play, judges], ids=lambda m: m.__name__)
def test_no_judge_dispatches_on_the_kind_of_line_it_is_handed(module: Any) -> None:
    """A judge asked of several kinds of line (a draw, a reshuffle, a ``force`` line) answers one
    question, the same of each: a question of one kind of line is a judge of its own, which the
    table that applies that kind of line asks (named in its rule's row after ``one function a
    question:``), never a branch on ``type(node)`` or ``isinstance(node, ...)``."""
    dispatching = sorted(name for name, f in _judges(module).items() if kinds_judged(f) > 1)
    assert sorted(set(dispatching) - KIND_IS_THE_QUESTION.keys()) == []


def test_a_judge_that_dispatches_on_the_kind_of_its_line_is_found() -> None:
    """The check above can fail: a judge of a draw and of a reshuffle, as P10's was, is found;
    one that only words its ruling by the kind of line is not."""

    def stock_judge(b: Any, node: Any) -> Any:
        kind = type(node)
        if kind is Draw and b.stock_n == 0:
            return b.fail("P10", "the stock is empty", node)
        if kind is Reshuffle and b.stock_n:
            return b.fail("P10", "the stock still holds cards", node)
        return None

    def worded_judge(b: Any, node: Any) -> Any:
        if b.pending_used:
            return None
        return b.fail("P3", "melded at once" + (", not left unused" if type(node) is Draw else ""), node)

    assert kinds_judged(stock_judge) == 2 and kinds_judged(worded_judge) == 1
    assert sorted(KIND_IS_THE_QUESTION) == sorted(n for n in KIND_IS_THE_QUESTION if kinds_judged(vars(play)[n]) > 1)


PAGRUC_QUESTIONS = questions(pagruc_referee.__doc__ or "")
PAN_QUESTIONS = questions(pan_table.__doc__ or "")

TABLES = {Game.PANGUINGUE: (PAN_RULINGS, PAN_CLAIMS), Game.PAGRUC: (PAGRUC_RULINGS, PAGRUC_CLAIMS)}


@pytest.mark.parametrize("game", list(Game), ids=lambda g: g.value)
@pytest.mark.parametrize("kind", ["rulings", "claims"])
def test_every_ruling_made_comes_from_the_one_function_of_its_rule(audit: Audit, game: Game, kind: str) -> None:
    seen = (audit.rulings if kind == "rulings" else audit.claims)[game]
    assert seen, "nothing seen: the audit is broken"
    rulings, claims = TABLES[game]
    asked = (PAGRUC_QUESTIONS if game is Game.PAGRUC else PAN_QUESTIONS) if kind == "rulings" else {}
    allowed = {rule: {_expected(rulings, claims, kind, rule), *asked.get(rule, ())} for rule in seen}
    wrong = {rule: sorted(where) for rule, where in seen.items() if not where <= allowed[rule]}
    assert wrong == {}, "a rule ruled on by another function than its table's, or by several"


NO_RULING = {
    "M4": "a permission (a set of aces or kings may mix suits): nothing to break",
    "T4": "a win before play: its payments are the pot's (T2), never a violation",
}
"""Rows of the tables that no violation or claim check ever carries."""


def test_the_audit_reaches_every_rule(audit: Audit) -> None:
    """The hands judged reach every rule of both tables that a ruling can carry, so the check
    above covers every judge: a new rule fails here until a hand reaches it."""
    reached = {r for g in Game for r in audit.rulings[g]} | {r for g in Game for r in audit.claims[g]}
    tabled = {*PAN_RULINGS, *PAN_CLAIMS, *PAGRUC_RULINGS, *PAGRUC_CLAIMS} - NO_RULING.keys()
    assert sorted(tabled - reached) == [], " ".join(sorted(tabled - reached))


def test_every_payment_made_comes_from_the_one_function_of_its_rule(audit: Audit) -> None:
    """Each rule a payment cites is one of the payments table's, paid by the function the table
    names for it (a new meld's conditions C1-C5 included, which the source does not spell)."""
    seen = audit.payments[Game.PANGUINGUE]
    assert seen, "nothing seen: the audit is broken"
    wrong = {rule: sorted(where) for rule, where in seen.items() if where != {PAN_PAYMENTS.get(rule)}}
    assert wrong == {}, "a payment under a rule outside its table, or paid by another function than the table's"
    assert sorted(PAN_PAYMENTS.keys() - seen.keys()) == [], "a payment rule no hand reached"
    assert audit.payments[Game.PAGRUC] == {}, "PAGRUC scores points: no payments"


def test_the_audit_sees_a_payment_outside_its_table(monkeypatch: pytest.MonkeyPatch) -> None:
    """The payment audit can fail: a payment citing P8 (no payment rule) is seen, where it is made."""
    from pancli.model.results import Ledger
    from pancli.rulebook import Rule

    a = Audit()
    a.watch(monkeypatch)

    def rogue_p8() -> None:
        Ledger(("Ana", "Ben")).pay("Ben", "Ana", 1, (Rule("P8"), Rule("C7")), 9)

    rogue_p8()
    where = "test_rulings_audit.test_the_audit_sees_a_payment_outside_its_table.<locals>.rogue_p8"
    assert a.payments[Game.PANGUINGUE] == {"P8": {where}, "C7": {where}}
    assert PAN_PAYMENTS.get("P8") is None and PAN_PAYMENTS["C7"] != where


def test_the_audit_sees_a_second_judge(monkeypatch: pytest.MonkeyPatch) -> None:
    """The audit can fail: a ruling on P8 made by another function is seen there."""
    from pancli.model.results import Ruling
    from pancli.rulebook import Rule

    a = Audit()
    a.watch(monkeypatch)

    def rogue_p8() -> None:
        Ruling.make(Rule("P8"), "Ana", "forced")

    rogue_p8()
    where = a.rulings[Game.PANGUINGUE]["P8"]
    assert where == {"test_rulings_audit.test_the_audit_sees_a_second_judge.<locals>.rogue_p8"}
    assert where != {_expected(PAN_RULINGS, PAN_CLAIMS, "rulings", "P8")}
