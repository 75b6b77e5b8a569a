"""ONE RULE, ONE PLACE: each rule is decided by one function that every caller asks.

Two registries name them: the tables in the docstrings of ``pancli/referee/table.py`` and
``pancli/pagruc/referee.py`` (rule -> the judge that rules on it in a hand, claim -> the one
that checks it; tests/test_rulings_audit.py watches the rulings made while hands are judged),
and :data:`pancli.referee.deciders.DECIDERS` (rule -> the function that decides the question
the referee, the analyzer, the check and pay batches and self-play all ask).

The checks here are behavioural: each decider is changed (every binding of it replaced, as a
house rule might change it) and every caller is driven through the same cases, before and
after: each must follow the change, which a caller that restated the rule would not.
"""

from __future__ import annotations

import importlib
import io
import pkgutil
import re
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from msgspec.structs import replace

from pancli.cards import past_the_pack
from pancli.melds import keeps_value
from pancli.model.actions import HandScript
from pancli.notation.fast import fast_cards
from pancli.pagruc import referee as pagruc_referee
from pancli.referee import table
from pancli.referee.deciders import DECIDERS, DECIDES, NO_DECIDER, SHARED
from pancli.referee.forcing import must_keep_draw
from pancli.rulebook import Rule
from pancli.rules import HOYLE, Profile

_NOT_IN_A_HAND = {Rule.E2, Rule.E3, Rule.C6, Rule.C10}
"""Rules no ruling or payment of a Panguingue hand names: the rank order and the valle cards
(definitions the meld engine uses), a meld's value as laid (the meld engine's; the C1-C5, C7
and C8 payments are made of it), scoring as laid (the referee's way of scoring, not a check)."""


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
    "Panguingue": (PAN_RULINGS, PAN_CLAIMS, "pancli.referee"),
    "PAGRUC": (PAGRUC_RULINGS, PAGRUC_CLAIMS, "pancli.pagruc"),
}


def test_the_tables_list_every_rule_a_hand_is_ruled_on() -> None:
    listed = PAN_RULINGS.keys() | PAN_CLAIMS.keys() | PAN_PAYMENTS.keys()
    missing = [str(r) for r in Rule if str(r)[0] in "SIETPMC" and str(r) not in listed and r not in _NOT_IN_A_HAND]
    assert missing == []
    pagruc = PAGRUC_RULINGS.keys() | PAGRUC_CLAIMS.keys()
    assert pagruc == {"G1", "G2", "G3", "G4", "G5", "G6", "G7"}  # G8, G9: a game's standings, not a hand


_FUNCTION = re.compile(r"\w+(\.\w+)+")
"""How a table names a function (``deal.seat_fault``, ``judges.pack_fault``); other rows name the engine."""


def _tabled() -> list[tuple[str, str, str]]:
    return [
        (package, rule, function)
        for rulings, claims, package in REFEREES.values()
        for rule, function in sorted({**rulings, **claims}.items())
        if _FUNCTION.fullmatch(function)
    ] + [("pancli.referee", rule, function) for rule, function in sorted(PAN_PAYMENTS.items())]


def test_only_the_meld_engine_s_rules_are_tabled_without_a_referee_function() -> None:
    engine = {r for rulings, claims, _ in REFEREES.values() for r, f in {**rulings, **claims}.items()}
    engine -= {rule for _, rule, _ in _tabled()}
    assert engine == {"M1", "M2", "M3", "M4", "M5"}


@pytest.mark.parametrize(("package", "rule", "function"), _tabled())
def test_each_function_of_the_tables_exists(package: str, rule: str, function: str) -> None:
    module, *names = function.split(".")
    obj: object = importlib.import_module(f"{package}.{module}")
    for name in names:
        obj = getattr(obj, name, None)
        assert obj is not None, f"{rule}: no {function}"


# Checks on input that is not a record (a position to analyse, a game's seating) ask the judges
# the rule tables name, or the counting rule those judges call: they never restate the rule.

_NAMES = tuple(f"P{i}" for i in range(20))


@pytest.mark.parametrize("players", [0, 1, 16])
def test_S1_of_an_analysed_position_is_the_referee_s_S1(players: int) -> None:
    from pancli.analyze.analysis import ImpossiblePosition, analyze
    from pancli.model.actions import HandScript
    from pancli.referee.board import Board
    from pancli.referee.deal import seat_fault
    from pancli.rules import HOYLE

    ruling = seat_fault(Board(HandScript(players=_NAMES[:players])), None)
    assert ruling is not None
    with pytest.raises(ImpossiblePosition) as caught:
        analyze(list(fast_cards("5s 5s 5s 2h 3h 4h Kd Kh Kc 2c")), HOYLE, players=players, samples=10)
    assert (caught.value.rule, caught.value.message) == (ruling.violation.rule, ruling.violation.message)


def test_P7_of_an_analysed_position_is_the_referee_s_P7() -> None:
    from pancli.analyze.analysis import ImpossiblePosition, check_position
    from pancli.model.actions import HandScript, Turn
    from pancli.referee.board import Board
    from pancli.referee.going_out import ten_cards_fault
    from pancli.rules import HOYLE

    b = Board(HandScript(players=("the player", "Ben")))
    b.seat = b.seats[0]
    b.seat.hand_n, b.discarded = 9, True
    ruling = ten_cards_fault(b, Turn("the player", ()))
    assert ruling is not None
    with pytest.raises(ImpossiblePosition) as caught:
        check_position(fast_cards("5s 5s 5s 2h 3h 4h Kd Kh Kc"), None, [], [], HOYLE)
    assert caught.value.rule == ruling.violation.rule
    assert caught.value.message.startswith(ruling.violation.message)
    with pytest.raises(ImpossiblePosition, match="mark the drawn card"):  # eleven cards: the draw not marked
        check_position(fast_cards("5s 5s 5s 2h 3h 4h Kd Kh Kc 2c 7d"), None, [], [], HOYLE)


def test_E4_of_an_analysed_position_is_the_meld_engine_s_E4() -> None:
    from pancli.analyze.analysis import ImpossiblePosition, check_position
    from pancli.melds import judge
    from pancli.rules import HOYLE

    verdict = judge(fast_cards(" ".join(["5s"] * 10)), HOYLE)
    with pytest.raises(ImpossiblePosition) as caught:
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


# --------------------------------------------------------------------------- the deciders, changed


def change(monkeypatch: pytest.MonkeyPatch, decider: Callable[..., object], to: Callable[..., object]) -> int:
    """Replace every binding of ``decider`` in the loaded modules of pancli by ``to`` (for this
    test); the number of modules that bind it."""
    bound = 0
    for name, module in list(sys.modules.items()):
        if name == "pancli" or name.startswith("pancli."):
            for attr, value in list(vars(module).items()):
                if value is decider:
                    monkeypatch.setattr(module, attr, to)
                    bound += 1
    return bound


_FRESH = iter(range(1_000_000))


def fresh(profile: Profile = HOYLE, **knobs: object) -> Profile:
    """``profile`` under a name of its own: no cache kept under a profile answers for it."""
    return replace(profile, name=f"changed-{next(_FRESH)}", **knobs)  # type: ignore[arg-type]


def _referee_rules(text: str | HandScript, profile: Profile) -> list[str]:
    """The rules the referee finds broken in the hands of a record text (or in one hand) under ``profile``."""
    from pancli.records import read_hands
    from pancli.referee import referee_hand

    scripts = [h.script for h in read_hands(io.StringIO(text), "case.pan")] if isinstance(text, str) else [text]
    out: list[str] = []
    for script in scripts:
        assert script is not None
        out += [str(v.rule) for v in referee_hand(replace(script, profile=profile)).violations]
    return out


def _deal(deals: dict[str, str], *plays: str) -> str:
    lines = [f'[Players "{" ".join(deals)}"]', ""]
    lines += [f"deal {p} {c}" for p, c in deals.items()]
    return "\n".join([*lines, "up 4c", *(f"{p} stay" for p in deals), *plays]) + "\n"


EIGHT = " ".join(["5s"] * 8)


def e4_callers(profile: Profile) -> dict[str, bool]:
    """Whether each caller finds the eighth copy of 5s past the pack (hoyle's pack holds 8)."""
    from pancli.analyze.analysis import ImpossiblePosition, check_position
    from pancli.analyze.arrange import HandContext, best_arrangement
    from pancli.analyze.odds import draw_table, live_copies
    from pancli.app.check import PlainBatch, judge_text
    from pancli.app.lines import InputLine
    from pancli.app.pay import pay_report
    from pancli.melds import judge
    from pancli.meldspace import SLOT_OF

    five = fast_cards("5s")[0]
    try:
        check_position(fast_cards(EIGHT + " 2h 3h"), None, [], [], profile)
        position = False
    except ImpossiblePosition as e:
        position = e.rule == "E4"
    five_melded = judge(fast_cards(" ".join(["5s"] * 6)), profile).meld
    assert five_melded is not None
    seven = list(fast_cards(" ".join(["5s"] * 7)))
    row = draw_table(HandContext(seven, profile), live_copies(profile, seven, []))[SLOT_OF[five]]
    deals = {"Ana": "5s 5s 5s 5s 2h 3h 4h 6c 7c Jc", "Ben": "5s 5s 5s 5s 2d 3d 4d 6h 7h Jh"}
    return {
        "meld engine": judge(fast_cards(EIGHT), profile).rule == "E4",
        "pan check": judge_text(EIGHT, profile).rule == "E4",
        "pan check batch": ": E4 " in PlainBatch("-", profile).rows([EIGHT], 0)[1],
        "pan pay (across melds)": any(
            m.rule == "E4" for m in pay_report([InputLine("-", 1, "5s 5s 5s 5s")] * 2, 4, profile, False).melds
        ),
        "analyzer (position)": position,
        "analyzer (draw table)": not row.usable,
        "analyzer (additions)": best_arrangement(fast_cards("5s 5s"), profile, [five_melded]).melded < 2,
        "referee": _referee_rules(_deal(deals), profile) == ["E4"],
    }


def test_E4_every_caller_asks_past_the_pack(monkeypatch: pytest.MonkeyPatch) -> None:
    assert DECIDERS[Rule.E4] is past_the_pack
    assert e4_callers(fresh()) == dict.fromkeys(e4_callers(fresh()), False)

    def one_copy_fewer(seen: object, copies: list[int], counts: object) -> object:
        return past_the_pack(seen, [n - 1 for n in copies], counts)  # type: ignore[arg-type]

    assert change(monkeypatch, past_the_pack, one_copy_fewer) >= 4
    got = e4_callers(fresh())
    assert got == dict.fromkeys(got, True)


_ROPE_PLAY = (
    "Ana draw 4h, meld [2h 3h 4h], discard Kc",
    "Ben draw 7c, discard 7c",
    "Ana draw 5h, add 5h to #1, discard Qc",
)
"""A rope of no condition (worth 0) grown to one still worth 0."""


def c7_callers(profile: Profile) -> dict[str, bool]:
    """Whether each caller lets 5h grow the rope 2h 3h 4h (worth 0 before and after)."""
    from pancli.analyze.arrange import HandContext, best_arrangement
    from pancli.analyze.odds import distance_to_out, live_copies
    from pancli.melds import MeldError, grow, judge

    rope = judge(fast_cards("2h 3h 4h"), profile).meld
    assert rope is not None
    try:
        grow(rope, fast_cards("5h"), profile)
        engine = True
    except MeldError as e:
        assert e.rule == "C7"
        engine = False
    hand = list(fast_cards("6h Kc Kd Ks 7c 7d 7s"))  # out in one draw: 5h, with 6h added to the rope
    distance = distance_to_out(HandContext(hand, profile, [rope]), live_copies(profile, hand, []))
    deals = {"Ana": "2h 3h 5h Kc Qc 6c 7s Js Jd 2c", "Ben": "2d 3d 4d 6h 7h Jh 5c 5c 6s 6s"}
    return {
        "meld engine": engine,
        "analyzer (arrangement)": best_arrangement(fast_cards("5h"), profile, [rope]).melded == 1,
        "analyzer (distance)": any(t == 0 for _, _, t in distance.plan),
        "referee": _referee_rules(_deal(deals, *_ROPE_PLAY), profile) == [],
    }


def _simulated(profile: Profile, hands: int = 6) -> list[HandScript]:
    """``hands`` hands of self-play under ``profile``."""
    from pancli.referee.simulate import simulate_hands

    return list(simulate_hands(("Ana", "Ben", "Cruz", "Dee"), hands, 5, profile))


def _plays(scripts: list[HandScript]) -> list[object]:
    return [s.events for s in scripts]


def test_C7_every_caller_asks_keeps_value(monkeypatch: pytest.MonkeyPatch) -> None:
    assert DECIDERS[Rule.C7] is keeps_value
    assert c7_callers(fresh()) == dict.fromkeys(c7_callers(fresh()), True)
    before = _simulated(profile := fresh())
    assert all(_referee_rules(text, profile) == [] for text in before)

    def must_gain(before: int, after: int) -> bool:
        return after > before

    assert change(monkeypatch, keeps_value, must_gain) >= 3
    got = c7_callers(fresh())
    assert got == dict.fromkeys(got, False)
    # self-play grows melds only as the referee allows: under the changed C7 its hands are clean,
    # and hands played under the rulebook's C7 break it
    after = _simulated(profile := fresh())
    assert _plays(after) != _plays(before) and all(_referee_rules(text, profile) == [] for text in after)
    assert any("C7" in _referee_rules(text, profile) for text in before)


P9_SAMPLE = Path(__file__).resolve().parent.parent / "samples" / "illegal-P9-flat-player.pan"


def test_P9_every_caller_asks_must_keep_draw(monkeypatch: pytest.MonkeyPatch) -> None:
    assert DECIDERS[Rule.P9] is must_keep_draw
    text = P9_SAMPLE.read_text(encoding="utf-8")
    profile = fresh()
    assert _referee_rules(text, profile) == ["P9"]
    before = _simulated(profile := fresh(flat_rule=True), 8)
    assert all(_referee_rules(t, profile) == [] for t in before)

    def keeps_every_draw(profile: Profile, js: object, holder: object, nxt: object, card: object) -> bool:
        return getattr(holder, "hand_n", 0) > 0  # a rule where every unused draw is kept

    def keeps_none(profile: Profile, js: object, holder: object, nxt: object, card: object) -> bool:
        return False  # no flat rule at all

    assert change(monkeypatch, must_keep_draw, keeps_none) >= 3
    assert _referee_rules(text, fresh()) == []
    monkeypatch.undo()
    assert change(monkeypatch, must_keep_draw, keeps_every_draw) >= 3
    # self-play now keeps every unused draw, as the changed referee requires of it
    after = _simulated(profile := fresh(flat_rule=True), 8)
    assert _plays(after) != _plays(before) and all(_referee_rules(t, profile) == [] for t in after)
    monkeypatch.undo()
    assert any(_referee_rules(t, fresh(flat_rule=True)) for t in after)


def test_every_decider_is_changed_by_a_test_here_or_has_its_callers_compared() -> None:
    """A rule added to the registry needs a test that drives its callers."""
    here = Path(__file__).read_text(encoding="utf-8")
    compared = {Rule.S1, Rule.P7, Rule.E2, Rule.M1, Rule.M2, Rule.M3, Rule.M4, Rule.M5, Rule.P8, Rule.C8}
    changed = {r for r in SHARED if f"change(monkeypatch, {DECIDERS[r].__name__}," in here}
    assert changed == {Rule.E4, Rule.C7, Rule.P9}
    assert changed | compared == SHARED


# --------------------------------------------------------------------------- the registry, whole


def test_every_rule_has_a_decider_or_a_reason_for_none_exactly_once() -> None:
    assert DECIDERS.keys().isdisjoint(NO_DECIDER.keys())
    assert set(DECIDERS) | set(NO_DECIDER) == set(Rule)
    assert DECIDES.keys() == DECIDERS.keys() and DECIDERS.keys() >= SHARED
    said = [*DECIDES.values(), *NO_DECIDER.values()]
    assert all(s.strip() and "\n" not in s for s in said)


_RULE_ID_NAME = re.compile(r"_?(check_|judge_?)?[a-z]\d+\w*|\w*_[a-z]\d+|judge\d+")
"""A name that is a rule id or says no more than a number (``p8``, ``check_p8``, ``_m3``, ``judge2``)."""


def test_deciders_are_named_for_what_they_judge() -> None:
    named_by_id = {f.__name__ for f in DECIDERS.values() if _RULE_ID_NAME.fullmatch(f.__name__)}
    assert named_by_id == set()


def _dotted(f: Callable[..., object]) -> str:
    return f"{f.__module__}.{f.__qualname__}"


@pytest.mark.parametrize("rule", [r for r in Rule if r in DECIDERS])
def test_each_decider_is_found_at_its_dotted_name(rule: Rule) -> None:
    assert pkgutil.resolve_name(_dotted(DECIDERS[rule])) is DECIDERS[rule]


def test_a_rule_judged_in_a_hand_is_decided_by_its_judge() -> None:
    """A rule a referee's table gives a judge, and no question shared with other parts, is
    decided by that judge (E1's question, the copies the pack holds, is what ``card_fault`` asks)."""
    for rulings, _, package in REFEREES.values():
        for rule, function in rulings.items():
            if not _FUNCTION.fullmatch(function) or Rule(rule) in SHARED | {Rule.E1}:
                continue
            assert _dotted(DECIDERS[Rule(rule)]) == f"{package}.{function}", rule


def decider_table() -> str:
    """The table of docs/architecture.md, "Who decides each rule", made from the registry."""
    rows = ["| rule | decided by | what it decides |", "|---|---|---|"]
    for r in Rule:
        if r in DECIDERS:
            rows.append(f"| {r} | `{_dotted(DECIDERS[r])}` | {DECIDES[r]} |")
        else:
            rows.append(f"| {r} | (no engine function) | {NO_DECIDER[r]} |")
    return "\n".join(rows) + "\n"


def test_the_architecture_doc_shows_the_registry() -> None:
    doc = (Path(__file__).resolve().parent.parent / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = doc.split("## Who decides each rule\n", 1)[1].split("\n## ", 1)[0]
    assert decider_table() in section
