"""ONE RULE, ONE PLACE (issue 9): each rule a referee rules on is judged by exactly one
function, and the tables in the docstrings of ``pancli/referee/table.py`` (Panguingue) and
``pancli/pagruc/referee.py`` (PAGRUC) name it: rule -> the one function that judges it, and
claim -> the one function that checks it.

Read from the source: every ``Rule.X`` that a referee raises (the rule of a ``Board.fail``, a
``Ruling.make``, a ``Violation``; a ``ClaimCheck``'s rule) is found with the
function it stands in. A rule raised from two functions, or from another function than the
table's, fails here; so does a table row naming a function that does not exist.
"""

from __future__ import annotations

import ast
import importlib
import re
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

import pytest

from pancli.notation.fast import fast_cards
from pancli.pagruc import referee as pagruc_referee
from pancli.referee import table
from pancli.rulebook import Rule

PAN = Path(table.__file__).resolve().parent
PAGRUC = [Path(pagruc_referee.__file__).resolve().parent / f"{m}.py" for m in ("board", "judges", "referee")]
"""The PAGRUC referee's modules (the meld engine, the pack and scoring are asked, as ``melds.py``)."""
RULINGS = frozenset({"fail", "make", "Violation"})
"""The calls whose ``Rule.X`` argument is a ruling on that rule (a violation)."""
CLAIMS = frozenset({"ClaimCheck"})
"""The call whose ``Rule.X`` argument is the rule a wrong claim is reported under."""
PAYMENTS = frozenset({"collect", "pay", "Payment"})
"""The calls whose ``Rule.X`` arguments are the rules a payment is made under (``Board.collect``,
``Ledger.pay``, a ``Payment``)."""

_NOT_IN_A_HAND = {Rule.E2, Rule.E3, Rule.C6, Rule.C10}
"""Rules no ruling or payment of a Panguingue hand names: the rank order and the valle cards
(definitions the meld engine uses), a meld's value as laid (the meld engine's; the C1-C5, C7
and C8 payments are made of it), scoring as laid (the referee's way of scoring, not a check)."""


def raised_rules(paths: list[Path], calls: frozenset[str]) -> dict[str, set[str]]:
    """Rule id -> the functions (``module.function``, ``module.Class.method``) of the files
    ``paths`` where a ``Rule.X`` is in an argument of one of ``calls``."""
    found: dict[str, set[str]] = defaultdict(set)

    class Finder(ast.NodeVisitor):
        def __init__(self, module: str) -> None:
            self.module = module
            self.where: list[str] = []
            self.functions = 0

        def visit_ClassDef(self, node: ast.ClassDef) -> None:
            self.where.append(node.name)
            self.generic_visit(node)
            self.where.pop()

        def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
            self.where.append(node.name)
            self.functions += 1
            self.generic_visit(node)
            self.functions -= 1
            self.where.pop()

        def visit_Call(self, node: ast.Call) -> None:
            f = node.func
            name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
            if name in calls and self.functions:
                for arg in [*node.args, *(k.value for k in node.keywords)]:
                    for sub in ast.walk(arg):
                        if (
                            isinstance(sub, ast.Attribute)
                            and isinstance(sub.value, ast.Name)
                            and sub.value.id == "Rule"
                        ):
                            found[sub.attr].add(".".join([self.module, *self.where]))
            self.generic_visit(node)

    for path in paths:
        Finder(path.stem).visit(ast.parse(path.read_text(encoding="utf-8")))
    return found


def dynamic_rulings(paths: list[Path]) -> set[str]:
    """The functions of ``paths`` where a ruling's rule (the first argument of one of
    :data:`RULINGS`) is not written as ``Rule.X`` (nor a choice between such): a rule held in a
    variable, looked up or computed, which :func:`raised_rules` cannot see."""

    def static(node: ast.expr) -> bool:
        if isinstance(node, ast.IfExp):
            return static(node.body) and static(node.orelse)
        return isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "Rule"

    return {where for where, name, node in _calls(paths) if name in RULINGS and node.args and not static(node.args[0])}


def _calls(paths: list[Path]) -> Iterator[tuple[str, str, ast.Call]]:
    """Each call made in a function or method of ``paths``: where (``module.function``,
    ``module.Class.method``), the name called, the call."""
    for path in paths:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for top in ast.walk(tree):
            if not isinstance(top, ast.ClassDef | ast.Module):
                continue
            for fn in top.body:
                if not isinstance(fn, ast.FunctionDef):
                    continue
                where = ".".join([path.stem, *([top.name] if isinstance(top, ast.ClassDef) else []), fn.name])
                for node in ast.walk(fn):
                    if isinstance(node, ast.Call):
                        f = node.func
                        name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
                        yield where, name, node


def _ids(column: str) -> list[str]:
    """``E1 E4`` -> E1, E4; ``C1-C6`` -> C1 .. C6."""
    out: list[str] = []
    for part in column.split():
        m = re.fullmatch(r"([A-Z])(\d+)-\1(\d+)", part)
        out += [f"{m[1]}{n}" for n in range(int(m[2]), int(m[3]) + 1)] if m else [part]
    return out


def tables(doc: str, module: str = "") -> list[dict[str, str]]:
    """The tables of a docstring, in its order (rulings, payments if any, claims): rule id ->
    the one function named first on its row (``module.name``; ``module`` put before a name of
    one part or a class's method), or the row's words when it names none of the referee's."""
    out: list[dict[str, str]] = []
    rows: dict[str, str] | None = None
    rules_seen = 0
    for line in doc.splitlines():
        if line.startswith("=====  ====="):
            rules_seen += 1
            if rules_seen % 3 == 2:
                rows = {}
            elif rules_seen % 3 == 0 and rows is not None:
                out.append(rows)
                rows = None
            continue
        if rows is None or not line.strip() or line.startswith(" "):
            continue
        column, rest = re.split(r"\s{2,}", line, maxsplit=1)
        m = re.match(r":(?:func|meth):`\.?([\w.]+)`", rest)
        for rule in _ids(column):
            assert rule not in rows, f"{rule} twice in a table"
            if m is None:
                rows[rule] = rest.split(",")[0]
            else:
                rows[rule] = f"{module}.{m[1]}" if module and m[1][0] == "_" else m[1]
    return out


PAN_RULINGS, PAN_PAYMENTS, PAN_CLAIMS = tables(table.__doc__ or "")  # in the order of the docstring
PAGRUC_RULINGS, PAGRUC_CLAIMS = tables(pagruc_referee.__doc__ or "", "referee")
REFEREES = {
    "Panguingue": (sorted(PAN.glob("*.py")), PAN_RULINGS, PAN_CLAIMS, "pancli.referee"),
    "PAGRUC": (PAGRUC, PAGRUC_RULINGS, PAGRUC_CLAIMS, "pancli.pagruc"),
}


def test_the_tables_list_every_rule_a_hand_is_ruled_on() -> None:
    listed = PAN_RULINGS.keys() | PAN_CLAIMS.keys() | PAN_PAYMENTS.keys()
    missing = [str(r) for r in Rule if str(r)[0] in "SIETPMC" and str(r) not in listed and r not in _NOT_IN_A_HAND]
    assert missing == []
    pagruc = PAGRUC_RULINGS.keys() | PAGRUC_CLAIMS.keys()
    assert pagruc == {"G1", "G2", "G3", "G4", "G5", "G6", "G7"}  # G8, G9: a game's standings, not a hand


_FUNCTION = re.compile(r"\w+(\.\w+)+")
"""How a table names a function (``deal.s1``, ``referee._Referee.g1``); other rows name the engine."""


def _tabled() -> list[tuple[str, str, str]]:
    return [
        (package, rule, function)
        for _, rulings, claims, package in REFEREES.values()
        for rule, function in sorted({**rulings, **claims}.items())
        if _FUNCTION.fullmatch(function)
    ] + [("pancli.referee", rule, function) for rule, function in sorted(PAN_PAYMENTS.items())]


def test_only_the_meld_engine_s_rules_are_tabled_without_a_referee_function() -> None:
    engine = {r for _, rulings, claims, _ in REFEREES.values() for r, f in {**rulings, **claims}.items()}
    engine -= {rule for _, rule, _ in _tabled()}
    assert engine == {"M1", "M2", "M3", "M4", "M5"}


@pytest.mark.parametrize(("package", "rule", "function"), _tabled())
def test_each_function_of_the_tables_exists(package: str, rule: str, function: str) -> None:
    module, *names = function.split(".")
    obj: object = importlib.import_module(f"{package}.{module}")
    for name in names:
        obj = getattr(obj, name, None)
        assert obj is not None, f"{rule}: no {function}"


@pytest.mark.parametrize("game", sorted(REFEREES))
@pytest.mark.parametrize("kind", ["rulings", "claims"])
def test_every_rule_is_ruled_on_by_its_one_function(game: str, kind: str) -> None:
    paths, rulings, claims, _ = REFEREES[game]
    calls, rows = (RULINGS, rulings) if kind == "rulings" else (CLAIMS, claims)
    raised = raised_rules(paths, calls)
    assert raised, "nothing found: the finder is broken"
    wrong = {rule: sorted(where) for rule, where in raised.items() if where != {rows.get(rule)}}
    assert wrong == {}, "a rule ruled on by another function than the table's, or by several"


PAID_THROUGH = {"board.Board.collect", "melding.collect_laid"}
"""The only payment sites whose rules are not written ``Rule.X`` where they are: the plumbing
that pays what a function decided (:meth:`Board.collect`), and the payment of a new meld, whose
rules are its conditions (C1-C5, :attr:`pancli.referee.state.LaidMeld.rules`)."""


def dynamic_payments(paths: list[Path]) -> set[str]:
    """The functions of ``paths`` that make a payment (a call of :data:`PAYMENTS`) without a
    ``Rule.X`` among its arguments."""
    return {where for where, name, node in _calls(paths) if name in PAYMENTS and not raised_rules_in(node)}


def raised_rules_in(node: ast.AST) -> set[str]:
    """The ``Rule.X`` ids written anywhere in ``node``."""
    return {
        sub.attr
        for sub in ast.walk(node)
        if isinstance(sub, ast.Attribute) and isinstance(sub.value, ast.Name) and sub.value.id == "Rule"
    }


def test_every_payment_is_made_by_the_one_function_of_its_rule() -> None:
    """A payment citing a rule is made only in the function the payments table names for it;
    the one site whose rules are computed (a new meld's conditions) is the C1-C5 row's."""
    paid = raised_rules(REFEREES["Panguingue"][0], PAYMENTS)
    assert paid, "nothing found: the finder is broken"
    wrong = {rule: sorted(where) for rule, where in paid.items() if where != {PAN_PAYMENTS.get(rule)}}
    assert wrong == {}, "a payment under a rule made by another function than the table's, or by several"
    assert dynamic_payments(REFEREES["Panguingue"][0]) == PAID_THROUGH
    conditions = {"C1", "C2", "C3", "C4", "C5"}
    assert {PAN_PAYMENTS[r] for r in conditions} == PAID_THROUGH - {"board.Board.collect"}
    assert paid.keys() | conditions == PAN_PAYMENTS.keys()


def judges_file(tmp_path: Path, source: str) -> Path:
    """A module of judges written for a finder to read (the checks above must be able to fail)."""
    judges = tmp_path / "judges.py"
    judges.write_text(source, encoding="utf-8")
    return judges


def test_the_payment_finder_sees_a_stray_payment(tmp_path: Path) -> None:
    """The check can fail: a payment under P8, and one whose rules are computed, are found."""
    judges = judges_file(
        tmp_path,
        "def p8(b, s):\n    return b.collect(s, 2, (Rule.P8,), 9, ())\n\n"
        "class R:\n    def pay(self, b, s, rules):\n        b.ledger.pay('Ana', s, 1, rules, 9)\n",
    )
    assert raised_rules([judges], PAYMENTS) == {"P8": {"judges.p8"}}
    assert dynamic_payments([judges]) == {"judges.R.pay"}


def test_the_finder_sees_a_second_function(tmp_path: Path) -> None:
    """The check can fail: a rule raised from two functions is found in both."""
    judges = judges_file(
        tmp_path,
        "def p8(b, node):\n    return b.fail(Rule.P8, 'forced', node)\n\n"
        "class R:\n    def p1(self, node):\n        raise self.fail(Rule.P1 if node else Rule.P8, 'again')\n",
    )
    assert raised_rules([judges], RULINGS) == {"P8": {"judges.p8", "judges.R.p1"}, "P1": {"judges.R.p1"}}


# Checks on input that is not a record (a position to analyse, a game's seating) ask the judges
# the rule tables name, or the counting rule those judges call: they never restate the rule.

_NAMES = tuple(f"P{i}" for i in range(20))


@pytest.mark.parametrize("players", [0, 1, 16])
def test_S1_of_an_analysed_position_is_the_referee_s_S1(players: int) -> None:
    from pancli.analyze.analysis import PositionError, analyze
    from pancli.model.actions import HandScript
    from pancli.referee.board import Board
    from pancli.referee.deal import s1
    from pancli.rules import HOYLE

    ruling = s1(Board(HandScript(players=_NAMES[:players])), None)
    assert ruling is not None
    with pytest.raises(PositionError) as caught:
        analyze(list(fast_cards("5s 5s 5s 2h 3h 4h Kd Kh Kc 2c")), HOYLE, players=players, samples=10)
    assert (caught.value.rule, caught.value.message) == (ruling.violation.rule, ruling.violation.message)


def test_P7_of_an_analysed_position_is_the_referee_s_P7() -> None:
    from pancli.analyze.analysis import PositionError, check_position
    from pancli.model.actions import HandScript, Turn
    from pancli.referee.board import Board
    from pancli.referee.going_out import p7
    from pancli.rules import HOYLE

    b = Board(HandScript(players=("the player", "Ben")))
    b.seat = b.seats[0]
    b.seat.hand_n, b.discarded = 9, True
    ruling = p7(b, Turn("the player", ()))
    assert ruling is not None
    with pytest.raises(PositionError) as caught:
        check_position(fast_cards("5s 5s 5s 2h 3h 4h Kd Kh Kc"), None, [], [], HOYLE)
    assert caught.value.rule == ruling.violation.rule
    assert caught.value.message.startswith(ruling.violation.message)
    with pytest.raises(PositionError, match="mark the drawn card"):  # eleven cards: the draw not marked
        check_position(fast_cards("5s 5s 5s 2h 3h 4h Kd Kh Kc 2c 7d"), None, [], [], HOYLE)


def test_E4_of_an_analysed_position_is_the_meld_engine_s_E4() -> None:
    from pancli.analyze.analysis import PositionError, check_position
    from pancli.melds import judge
    from pancli.rules import HOYLE

    verdict = judge(fast_cards(" ".join(["5s"] * 10)), HOYLE)
    with pytest.raises(PositionError) as caught:
        check_position(fast_cards(" ".join(["5s"] * 10)), None, [], [], HOYLE)
    assert (caught.value.rule, verdict.rule) == ("E4", "E4")
    assert caught.value.message.startswith(verdict.reason)


@pytest.mark.parametrize("players", [2, 9])
def test_G1_of_a_game_s_seating_is_the_referee_s_G1_bound(players: int) -> None:
    from pancli.pagruc.pack import official_problem, pack_problem
    from pancli.pagruc.referee import PagrucHandResult
    from pancli.pagruc.standings import GameHand, game_standings

    seats = _NAMES[:players]
    result = PagrucHandResult(seats, 2, None, True, dict.fromkeys(seats, 0), {p: () for p in seats})
    problems = [p for p in game_standings([GameHand(result, "g.pan", 1, 1)]).problems if p.rule == "G1"]
    why = official_problem(players)
    assert why is not None and [p.message for p in problems] == [f"{players} players: {why}"]
    assert players < 3 or why == pack_problem(players)  # above the official minimum: the referee's own words


def test_the_seating_bounds_are_compared_only_by_their_judges() -> None:
    """MIN_PLAYERS and MAX_PLAYERS (S1 in pancli.rules, G1 in pancli.pagruc.pack) are compared
    in one function each: every other check asks it."""
    bounds = {"MIN_PLAYERS", "MAX_PLAYERS", "MAX_ONE_PACK"}
    found = set()
    for path in sorted(Path(table.__file__).resolve().parent.parent.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Compare):
                names = {n.id if isinstance(n, ast.Name) else getattr(n, "attr", "") for n in ast.walk(node)}
                if names & bounds:
                    found.add(f"{path.parent.name}/{path.name}:{node.lineno}")
    assert {f.split(":")[0] for f in found} <= {"pancli/rules.py", "pagruc/pack.py"}, sorted(found)


PASSED_THROUGH = {
    "Panguingue": {"board.Board.fail", "melding.i2"},
    "PAGRUC": {"board.Board.fail"},
}
"""The only ruling sites whose rule is not written where they are: the plumbing that builds the
ruling a judge decided (its rule is a parameter), and the I2 judge, which raises the meld
engine's verdict (M1-M5). tests/test_rulings_audit.py watches these at run time."""


@pytest.mark.parametrize("game", sorted(REFEREES))
def test_every_ruling_names_its_rule_where_it_is_made(game: str) -> None:
    assert dynamic_rulings(REFEREES[game][0]) == PASSED_THROUGH[game]


def test_the_finder_sees_a_rule_computed_at_run_time(tmp_path: Path) -> None:
    judges = judges_file(
        tmp_path,
        "def p8(b, node, code):\n    return b.fail(Rule(code), 'forced', node)\n\n"
        "class R:\n    def p1(self, node):\n        raise self.fail(Rule.P1 if node else Rule.P8, 'again')\n"
        "    def p2(self, rule):\n        raise self.fail(RULES[rule], 'again')\n",
    )
    assert dynamic_rulings([judges]) == {"judges.p8", "judges.R.p2"}


def test_the_rule_ids_spelled_for_the_type_checker_are_registry_ids() -> None:
    """The meld engine and the notation readers name rules by ``Literal`` ids (mypy rejects a
    typo; they start without importing the registry): each must be a rule of the registry."""
    from typing import get_args

    from pancli.app.pay import PayRule
    from pancli.melds import EngineRule
    from pancli.notation.errors import NotationCode

    registry = {str(r) for r in Rule}
    assert set(get_args(EngineRule)) <= registry and set(get_args(NotationCode)) <= registry
    assert set(get_args(PayRule)) <= registry and set(get_args(PayRule)) <= PAN_PAYMENTS.keys()
    assert {"M1", "M5", "E4"} <= set(get_args(EngineRule)) and {"N1", "R10", "E1"} <= set(get_args(NotationCode))


def test_the_copies_of_a_card_are_compared_with_the_pack_only_by_the_conservation_predicates() -> None:
    """E4 (Panguingue) and G1's conservation (PAGRUC) compare a count with the pack's copies in
    one function each, ``cards.past_the_pack`` and ``pagruc.pack.beyond_pack``: the referees,
    the meld engines, scoring and ``pan pay`` ask them."""
    found = set()
    for path in sorted(PAN.parent.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            ordered = isinstance(node, ast.Compare) and any(isinstance(op, ORDER) for op in node.ops)
            if ordered and any(_pack_copies(n) for n in ast.walk(node)):
                found.add(f"{path.parent.name}/{path.name}:{node.lineno}")
    assert {f.split(":")[0] for f in found} == {"pancli/cards.py", "pagruc/pack.py"}, sorted(found)


ORDER = (ast.Gt, ast.GtE, ast.Lt, ast.LtE)


def _pack_copies(node: ast.AST) -> bool:
    """``X.copies(c)``, ``X.copies[i]`` or ``copies[i]``: the copies of a card a pack holds."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        return node.func.attr == "copies"
    if not isinstance(node, ast.Subscript):
        return False
    held = node.value
    return (isinstance(held, ast.Attribute) and held.attr == "copies") or (
        isinstance(held, ast.Name) and held.id == "copies"
    )


@pytest.mark.parametrize("packs", [1, 2])
def test_G1_conservation_is_one_comparison_for_the_referee_the_meld_engine_and_scoring(packs: int) -> None:
    from pancli.melds import MeldError
    from pancli.pagruc.melds import judge
    from pancli.pagruc.pack import PagrucPack, beyond_pack
    from pancli.pagruc.scoring import score_hand

    pack = PagrucPack(packs)
    five, six, seven = fast_cards("5h 6h 7h")
    over = [five] * (packs + 1)
    beyond = beyond_pack(pack, [(five, packs + 1)])
    assert beyond is not None and beyond_pack(pack, [(five, packs)]) is None
    _, _, but = beyond
    verdict = judge(over, pack)
    assert verdict.rule == Rule.G1 and but in verdict.reason
    with pytest.raises(MeldError) as caught:  # each group fits, the cards together do not
        score_hand([[five, six, seven]], [five] * packs, pack)
    assert caught.value.rule == Rule.G1 and caught.value.reason.endswith(f"copies of {five} in all, {but}")
