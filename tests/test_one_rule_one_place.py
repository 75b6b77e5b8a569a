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
import random
import re
import types
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

import click
import pytest
from msgspec.structs import replace

from pancli.cards import ALL_CARDS as _ALL
from pancli.cards import Card, Game, Rank
from pancli.decides import decides
from pancli.melds import Meld, MeldError, OutValue, Rope, Verdict
from pancli.model.actions import Decision, Draw, HandScript, Turn
from pancli.model.results import HOUSE
from pancli.notation.fast import fast_cards
from pancli.pagruc import referee as pagruc_referee
from pancli.pagruc.melds import PagrucKind, PagrucMeld, PagrucVerdict, Where
from pancli.pagruc.pack import TWO_PACKS, PagrucPack
from pancli.pagruc.rules import PagrucRules
from pancli.panrules import Borrowing, PanRules, PanRulesByProfile
from pancli.referee import referee_script, table
from pancli.referee.board import Seat
from pancli.referee.deciders import DECIDERS, DECIDES, MARKED_IN, NO_DECIDER, SHARED, marks
from pancli.referee.table import Phase, Table
from pancli.refusals import BorrowRefusal, DealsProblem, TableFault, TableProblem, Unseated
from pancli.rulebook import Rule
from pancli.rules import CARDROOM, HOYLE, Condition, Ending, Profile

if TYPE_CHECKING:
    from pancli.panrules import Holding

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
"""How a table names a function (``play.seating_fault``, ``judges.pack_fault``); other rows name the engine."""


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
    from pancli.referee.play import seating_fault
    from pancli.rules import HOYLE

    ruling = seating_fault(Board(HandScript(players=_NAMES[:players])))
    assert ruling is not None
    with pytest.raises(ImpossiblePosition) as caught:
        analyze(list(fast_cards("5s 5s 5s 2h 3h 4h Kd Kh Kc 2c")), HOYLE, players=players, samples=10)
    assert (caught.value.rule, caught.value.message) == (ruling.violation.rule, ruling.violation.message)


def test_P7_of_an_analysed_position_is_the_referee_s_P7() -> None:
    from pancli.analyze.analysis import ImpossiblePosition, check_position
    from pancli.model.actions import HandScript, Turn
    from pancli.referee.board import Board
    from pancli.referee.play import ten_cards_fault
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
    from pancli.pagruc.words import table_words

    seats = _NAMES[:players]
    result = PagrucHandResult(seats, 2, None, True, dict.fromkeys(seats, 0), {p: () for p in seats})
    problems = [p for p in game_standings([GameHand(result, "g.pan", 1, 1)]).problems if p.rule == "G1"]
    why = official_problem(players)
    assert why is not None and [p.message for p in problems] == [f"{players} players: {table_words(why)}"]
    assert players < 3 or why == pack_problem(players)  # above the official minimum: the referee's own words


@pytest.mark.parametrize("packs", [1, 2])
def test_G1_conservation_is_one_comparison_for_the_referee_the_meld_engine_and_scoring(packs: int) -> None:
    from pancli.melds import MeldError
    from pancli.pagruc.melds import judge
    from pancli.pagruc.pack import PagrucPack, beyond_pack
    from pancli.pagruc.rules import PagrucRules
    from pancli.pagruc.words import held_words

    pack = PagrucPack(packs)
    five, six, seven = fast_cards("5h 6h 7h")
    over = [five] * (packs + 1)
    beyond = beyond_pack(pack, [(five, packs + 1)])
    assert beyond == (five, packs + 1) and beyond_pack(pack, [(five, packs)]) is None
    but = held_words(pack, five)
    verdict = judge(over, pack)
    assert verdict.rule == Rule.G1 and but in verdict.reason
    with pytest.raises(MeldError) as caught:  # each group fits, the cards together do not
        PagrucRules().score([[five, six, seven]], [five] * packs, pack)
    assert caught.value.rule == Rule.G1 and caught.value.reason.endswith(f"copies of {five} in all, {but}")


# --------------------------------------------------------------------------- the rules object, answered otherwise
#
# Each shared question is answered otherwise by a subclass of the rules object, handed to every
# caller: each must follow the change, which a caller that restated the rule (or asked a
# function of its own) would not.


def _referee_rules(text: str | HandScript, rules: PanRules) -> list[str]:
    """The rules the referee asking ``rules`` finds broken in the hands of a record text (or in one
    hand), an irregularity a violation (``--strict``)."""
    from pancli.records import read_hands

    scripts = [h.script for h in read_hands(io.StringIO(text), "case.pan")] if isinstance(text, str) else [text]
    out: list[str] = []
    for script in scripts:
        assert script is not None
        result = referee_script(replace(script, profile=rules.profile), rules=rules, remedy=False)
        out += [str(v.rule) for v in result.violations]
    return out


def _both_paths(text: str, rules: PanRules) -> list[str]:
    """:func:`_referee_rules`, requiring the fast and the general path to agree."""
    from pancli.records import read_hands

    out: list[str] = []
    for h in read_hands(io.StringIO(text), "case.pan"):
        assert h.script is not None
        script = replace(h.script, profile=rules.profile)
        fast = [str(v.rule) for v in referee_script(script, rules=rules, remedy=False).violations]
        plain = [str(v.rule) for v in referee_script(script, rules=rules, fast=False, remedy=False).violations]
        assert fast == plain
        out += fast
    return out


def _deal(deals: dict[str, str], *plays: str) -> str:
    lines = [f'[Players "{" ".join(deals)}"]', ""]
    lines += [f"deal {p} {c}" for p, c in deals.items()]
    return "\n".join([*lines, "up 4c", *(f"{p} stay" for p in deals), *plays]) + "\n"


def _simulated(rules: PanRules, hands: int = 6) -> list[HandScript]:
    """``hands`` hands of self-play asking ``rules``."""
    from pancli.referee.simulate import simulate_hands

    return list(simulate_hands(("Ana", "Ben", "Cruz", "Dee"), hands, 5, rules.profile, rules=rules))


def _plays(scripts: list[HandScript]) -> list[object]:
    return [s.events for s in scripts]


def _sample(name: str) -> str:
    return (SAMPLES / name).read_text(encoding="utf-8")


SAMPLES = Path(__file__).resolve().parent.parent / "pancli" / "samples"


class OneCopyFewer(PanRules):
    """E4 with one copy fewer of every card in the pack."""

    def past_the_pack(
        self, seen: Sequence[int], counts: Iterable[tuple[int, int]], copies: Sequence[int] | None = None
    ) -> tuple[int, int] | None:
        return super().past_the_pack(seen, counts, [n - 1 for n in (self.copies if copies is None else copies)])


EIGHT = " ".join(["5s"] * 8)


def test_E4_the_referee_and_pan_pay_ask_past_the_pack() -> None:
    from pancli.app.lines import InputLine
    from pancli.app.pay import pay_report

    deals = {"Ana": "5s 5s 5s 5s 2h 3h 4h 6c 7c Jc", "Ben": "5s 5s 5s 5s 2d 3d 4d 6h 7h Jh"}
    assert _referee_rules(_deal(deals), PanRules(HOYLE)) == []
    assert _referee_rules(_deal(deals), OneCopyFewer(HOYLE)) == ["E4"]

    def across(rules: PanRules) -> list[str | None]:
        return [m.rule for m in pay_report([InputLine("-", 1, "5s 5s 5s 5s")] * 2, 4, rules, False).melds]

    assert across(PanRules(HOYLE)) == [None, None]
    assert across(OneCopyFewer(HOYLE)) == [None, "E4"]
    # the analyzer's position: eight 5s and two cards are a position of the rulebook's pack only
    from pancli.analyze.analysis import ImpossiblePosition, check_position

    check_position(fast_cards(EIGHT + " 2h 3h"), None, [], [], HOYLE, PanRules(HOYLE))
    with pytest.raises(ImpossiblePosition) as caught:
        check_position(fast_cards(EIGHT + " 2h 3h"), None, [], [], HOYLE, OneCopyFewer(HOYLE))
    assert caught.value.rule == "E4"


_ROPE_PLAY = (
    "Ana draw 4h, meld [2h 3h 4h], discard Kc",
    "Ben draw 7c, discard 7c",
    "Ana draw 5h, add 5h to #1, discard Qc",
)
"""A rope of no condition (worth 0) grown to one still worth 0."""


class MustGain(PanRules):
    """C7 where a meld may change only when its value rises."""

    def keeps_value(self, before: int, after: int) -> bool:
        return after > before


def test_C7_the_referee_self_play_and_growing_ask_keeps_value() -> None:
    deals = {"Ana": "2h 3h 5h Kc Qc 6c 7s Js Jd 2c", "Ben": "2d 3d 4d 6h 7h Jh 5c 5c 6s 6s"}
    rulebook, gain = PanRules(HOYLE), MustGain(HOYLE)
    rope = rulebook.judge(fast_cards("2h 3h 4h")).meld
    assert rope is not None
    assert not isinstance(rulebook.try_grow(rope, fast_cards("5h")), MeldError)
    refused = gain.try_grow(rope, fast_cards("5h"))
    assert isinstance(refused, MeldError) and refused.rule == "C7"
    assert _both_paths(_deal(deals, *_ROPE_PLAY), rulebook) == []
    assert _both_paths(_deal(deals, *_ROPE_PLAY), gain) == ["C7"]
    # self-play grows melds only as its rules object allows: under the changed C7 its hands are
    # clean, and hands played under the rulebook's C7 break it
    before, after = _simulated(rulebook), _simulated(gain)
    assert all(_referee_rules(t, rulebook) == [] for t in before)
    assert _plays(after) != _plays(before) and all(_referee_rules(t, gain) == [] for t in after)
    assert any("C7" in _referee_rules(t, gain) for t in before)


class KeepsEveryDraw(PanRules):
    """P9 where every unused draw is kept."""

    def must_keep_draw(self, holder: Seat, nxt: Seat, card: Card) -> bool:
        return holder.hand_n > 0


class KeepsNone(PanRules):
    """No flat rule at all."""

    def must_keep_draw(self, holder: Seat, nxt: Seat, card: Card) -> bool:
        return False


def test_P9_the_referee_self_play_and_positions_ask_must_keep_draw() -> None:
    from pancli.referee.position import position_at

    text = _sample("illegal-P9-flat-player.pan")
    assert _both_paths(text, PanRules(HOYLE)) == ["P9"]
    assert _both_paths(text, KeepsNone(HOYLE)) == []
    flat = replace(HOYLE, flat_rule=True)
    before = _simulated(PanRules(flat), 8)
    assert all(_referee_rules(t, PanRules(flat)) == [] for t in before)
    # self-play now keeps every unused draw, as the changed referee requires of it
    after = _simulated(KeepsEveryDraw(flat), 8)
    assert _plays(after) != _plays(before) and all(_referee_rules(t, KeepsEveryDraw(flat)) == [] for t in after)
    assert any(_referee_rules(t, PanRules(flat)) for t in after)
    # a position after a draw says whether the draw must be kept, as the rules object answers
    from pancli.notation.record_writer import write_script

    played = (_hands(write_script(h))[0].script for h in before)
    script = next(h for h in played if any(isinstance(e, Turn) for e in h.events))
    turn = next(e for e in script.events if isinstance(e, Turn) and isinstance(e.actions[0], Draw))
    assert not position_at(script, turn.line, turn.player, PanRules(flat)).keeps_draw
    assert position_at(script, turn.line, turn.player, KeepsEveryDraw(flat)).keeps_draw


class KeepsEveryDrawNoExcuse(KeepsEveryDraw):
    """P9 where every unused draw is kept, and the kept draw never goes, even from a hand of
    nothing but copies of it."""

    def kept_draw(self, holder: Holding, card: Card) -> Card | None:
        return card


def test_P9_the_discard_due_asks_kept_draw_for_the_excuse() -> None:
    """Which card may not go when the draw is kept (P9's excuse: none, from a hand of nothing but
    copies of the draw) is the rules object's ``kept_draw``, as the discard due asks it."""
    from pancli.model.actions import Discard
    from pancli.model.results import Ruling
    from pancli.referee.play import Discarding

    deals = {"Ana": "5s 5s 2h 3h Kd Kh Kc 2c 7d Jc", "Ben": "2d 2d 6c Jd Jd Qs 4s 4s 6h 7c"}
    (hand,) = _hands(_deal(deals))
    (five,) = fast_cards("5s")
    answers = []
    for rules in (KeepsEveryDraw(HOYLE), KeepsEveryDrawNoExcuse(HOYLE)):
        t = _table_at(hand.script, rules)
        t.begin_turn(Turn("Ana", (Draw(five),)))
        t.apply(Draw(five), t.verify(Draw(five)))
        ana = t.by_name["Ana"]
        ana.hand = [0] * 52
        ana.hand[five.index] = ana.hand_n  # nothing but copies of the draw
        due = t.discard_due()
        assert (due.rule, due.due) == (Rule.P9, Discarding.HAND_CARD)
        try:
            t.verify(Discard(five))
            answers.append((due.excluded, None))
        except Ruling as r:
            answers.append((due.excluded, str(r.violation.rule)))
    assert answers == [(None, None), (five, "P9")]


def test_P9_the_position_s_discard_due_asks_must_keep_draw() -> None:
    """What the position says must be discarded after a draw (``Table.discard_due``) follows the
    rules object's P9: the draw itself (P2), or, kept, a hand card (P9)."""
    from pancli.model.actions import Discard
    from pancli.model.results import Ruling
    from pancli.referee.table import Table

    flat = replace(HOYLE, flat_rule=True)
    script = next(h for h in _simulated(PanRules(flat), 4) if any(isinstance(e, Turn) for e in h.events))
    turn = next(e for e in script.events if isinstance(e, Turn) and isinstance(e.actions[0], Draw))
    answers = []
    for rules in (PanRules(flat), KeepsEveryDraw(flat)):
        t = Table(script, record_steps=False, rules=rules)
        assert t.deal_in()
        for ev in script.events[: script.events.index(turn)]:
            t.push(ev)
        draw = turn.actions[0]
        t.begin_turn(Turn(turn.player, (draw,)))
        t.apply(draw, t.verify(draw))
        answers.append(t.discard_due().rule)
        discard = Discard(draw.card)  # type: ignore[attr-defined]
        try:
            t.verify(discard)
            answers.append(None)
        except Ruling as r:  # the referee's ruling on the draw's discard
            answers.append(r.violation.rule)
    assert answers == [Rule.P2, None, Rule.P9, Rule.P9]


def test_P9_a_flat_player_s_own_draw_is_never_kept() -> None:
    """P9's one answer: with no hand card a player cannot keep the draw, whoever is flat next
    (positions and the referee asked a second predicate that said "kept" here)."""
    rules = PanRules(replace(HOYLE, flat_rule=True))
    (five,) = fast_cards("5s")
    laid = rules.laid(fast_cards("5s 5s 5s"))
    assert laid is not None

    def flat(name: str) -> Seat:
        s = Seat(name, 10)
        s.hand_n, s.unknown, s.melded_n, s.melds, s.fit_mask = 0, 0, 10, [laid], -1
        return s

    holder, nxt = Seat("Ana", 10), flat("Ben")
    assert rules.must_keep_draw(holder, nxt, five)
    assert not rules.must_keep_draw(flat("Ana"), nxt, five)


class NeverForced(PanRules):
    """P8 where no live discard must ever be taken."""

    def must_take(self, forced_by: str | None, seat: Seat, card: Card | None) -> int:
        return 0


def test_P8_the_referee_self_play_and_positions_ask_must_take() -> None:
    from pancli.referee.position import table_now

    text = _sample("illegal-P8-forcing.pan")
    assert _both_paths(text, PanRules(CARDROOM)) == ["P8"]
    assert _both_paths(text, NeverForced(CARDROOM)) == []
    before, after = _simulated(PanRules(CARDROOM), 8), _simulated(NeverForced(CARDROOM), 8)
    assert _plays(after) != _plays(before) and all(_referee_rules(t, NeverForced(CARDROOM)) == [] for t in after)
    assert any("P8" in _referee_rules(t, PanRules(CARDROOM)) for t in after)
    # what may be played next: the forced take, as the rules object answers
    hand = next(h.script for h in _hands(text))
    cut = replace(hand, events=tuple(e for e in hand.events if e.line < 28))
    assert table_now(cut, PanRules(CARDROOM)).must_take == 1
    assert table_now(cut, NeverForced(CARDROOM)).must_take == 0


def _hands(text: str) -> list[Any]:
    from pancli.records import read_hands

    return list(read_hands(io.StringIO(text), "case.pan"))


class NineCards(PanRules):
    """P7 where a hand and melds hold nine cards between turns."""

    def holds_ten(self, hand: int, melded: int, dealt: int = 10) -> bool:
        return hand + melded == dealt - 1


def test_P7_the_referee_and_the_analyzer_ask_holds_ten() -> None:
    from pancli.analyze.analysis import ImpossiblePosition, check_position

    deals = {"Ana": "5s 5s 2h 3h Kd Kh Kc 2c 7d Jc", "Ben": "2d 2d 6c Jd Jd Qs 4s 4s 6h 7c"}
    play = ("Ana draw 5s, meld [5s 5s 5s], discard 7d",)
    assert _both_paths(_deal(deals, *play), PanRules(HOYLE)) == []
    assert _both_paths(_deal(deals, *play), NineCards(HOYLE)) == ["P7"]
    nine = fast_cards("5s 5s 5s 2h 3h 4h Kd Kh Kc")
    check_position(nine, None, [], [], HOYLE, NineCards(HOYLE))
    with pytest.raises(ImpossiblePosition, match="P7"):
        check_position(nine, None, [], [], HOYLE, PanRules(HOYLE))


class DealsNine(PanRules):
    """Nine cards to each player: P7's count, I1's deal and count, P9's flat player, self-play's
    deal and the advice's deals all follow the rules object's ``hand_size``."""

    @property
    def hand_size(self) -> int:
        return 9


def test_P7_I1_the_referee_self_play_and_the_advice_ask_hand_size() -> None:
    from pancli.analyze.advice import advise
    from pancli.analyze.analysis import analyze

    deals = {"Ana": "5s 5s Ah 2h 3h 4h Kd Kh Kc", "Ben": "2d 2d 6c Jd Jd Qs 4s 4s 6h"}
    out = ("Ana draw 5s, meld [5s 5s 5s], meld [Ah 2h 3h 4h], meld [Kd Kh Kc], out",)
    assert _both_paths(_deal(deals, *out), DealsNine(HOYLE)) == []
    assert _both_paths(_deal(deals, *out), PanRules(HOYLE)) == ["I1"]
    # a turn that leaves nine, and a count that finds nine: right with nine dealt
    deals["Ana"] = "5s 5s 2h 3h Kd Kh Kc 2c 7d"
    play = ("Ana draw 5s, meld [5s 5s 5s], discard 7d", "Ben count Ana", "Ben draw Jc, discard Jc")
    assert _both_paths(_deal(deals, *play), DealsNine(HOYLE)) == []
    one_more = {"Ana": "5s 5s 2h 3h Kd Kh Kc 2c 7d Jc", "Ben": "2d 2d 6c Jd Jd Qs 4s 4s 6h 7c"}
    assert _both_paths(_deal(one_more, *play[:1]), DealsNine(HOYLE)) == ["I1"]
    # self-play deals what the rules object says, and the referee asking it passes every hand
    scripts = _simulated(DealsNine(HOYLE), 3)
    assert {len(d.cards) for s in scripts for d in s.deals} == {9}
    assert all(not referee_script(s, rules=DealsNine(HOYLE)).violations for s in scripts)
    # the advice deals the opponents what the rules object says
    a = analyze(list(fast_cards("5s 5s 5s 2h 3h 4h Kd Kh Kc 2c")), HOYLE, players=4, samples=30)
    tens, nines = (advise(a, r, samples=60, seed=2) for r in (PanRules(HOYLE), DealsNine(HOYLE)))
    assert (tens.stay, tens.samples) != (nines.stay, nines.samples)


class ElevenDealtStands(PanRules):
    """I1 where a deal of one card too many is no irregularity."""

    def dealt_right(self, cards: int) -> bool:
        return cards in (self.hand_size, self.hand_size + 1)


def test_I1_the_referee_s_deal_asks_dealt_right() -> None:
    """Whether a deal is the right count is the rules object's ``dealt_right``: the referee's
    deal judge follows a subclass that takes eleven, on both paths, stopping at it or putting it
    right; the count it compares with is still ``hand_size``'s (S2)."""
    deals = {"Ana": "5s 5s 2h 3h Kd Kh Kc 2c 7d Jc Qs", "Ben": "2d 2d 6c Jd Jd Qs 4s 4s 6h 7c"}
    record = _deal(deals)
    assert _both_paths(record, PanRules(HOYLE)) == ["I1"]
    assert _both_paths(record, ElevenDealtStands(HOYLE)) == []
    for h in _hands(record):
        put_right = referee_script(h.script, rules=PanRules(HOYLE))
        assert [str(r.violation.rule) for r in put_right.remedies] == ["I1"]
        assert referee_script(h.script, rules=ElevenDealtStands(HOYLE)).remedies == ()
    twelve = {**deals, "Ana": deals["Ana"] + " Qh"}
    assert _both_paths(_deal(twelve), ElevenDealtStands(HOYLE)) == ["I1"]


def test_I1_the_deal_keeps_what_dealt_right_takes() -> None:
    """The cards kept at the deal follow ``dealt_right`` too: before, a subclass that takes eleven
    gave no ruling, yet the deal itself compared with ten and made the eleventh card dead."""
    from pancli.referee import Table

    deals = {"Ana": "5s 5s 2h 3h Kd Kh Kc 2c 7d Jc Qs", "Ben": "2d 2d 6c Jd Jd Qs 4s 4s 6h 7c"}
    (h,) = _hands(_deal(deals))
    held = {}
    for rules in (PanRules(HOYLE), ElevenDealtStands(HOYLE)):
        t = Table(h.script, rules=rules, strict=False)
        t.deal_in()
        ana = t.by_name["Ana"]
        held[type(rules).__name__] = (ana.hand_n, ana.size, [str(c) for c in t.dead])
        assert sum(ana.hand) == ana.hand_n
    assert held == {"PanRules": (10, 10, ["Qs"]), "ElevenDealtStands": (11, 11, [])}


class OutWithTwelve(PanRules):
    """P7 where going out takes two cards melded beyond the ten."""

    def out_holds_ten(self, melded: int, dealt: int | None = None) -> bool:
        return self.holds_ten(0, melded - 2, dealt)


def test_P7_going_out_asks_out_holds_ten_on_both_paths() -> None:
    """The count at going out is the rules object's ``out_holds_ten``: the referee's plain turn
    and its fast turn follow a subclass (before, both wrote ``holds_ten(0, melded - 1)``)."""
    text = _sample("friday-hoyle.pan")
    assert "P7" not in _both_paths(text, PanRules(HOYLE))
    assert "P7" in _both_paths(text, OutWithTwelve(HOYLE))


class DoubleBonus(PanRules):
    """C8 with the going-out bonus paid twice."""

    def going_out_value(self, melds: Iterable[Meld]) -> OutValue:
        v = super().going_out_value(melds)
        return OutValue(v.melds, 2 * v.bonus, v.melds + 2 * v.bonus)


def test_C8_the_referee_and_pan_pay_ask_going_out_value() -> None:
    from pancli.app.lines import InputLine
    from pancli.app.pay import pay_report

    def paid(rules: PanRules) -> list[int]:
        out = []
        for h in _hands(_sample("friday-hoyle.pan")):
            result = referee_script(h.script, rules=rules)
            out += [p.units for p in result.payments if p.rule == "C8"]
        return out

    rulebook, doubled = paid(PanRules(HOYLE)), paid(DoubleBonus(HOYLE))
    assert rulebook and [u + HOYLE.out_bonus for u in rulebook] == doubled
    # the exporters explain the payment with the parts the rules object decided
    from pancli.render.words import collection_lines

    for h in _hands(_sample("friday-hoyle.pan")):
        result = referee_script(h.script, rules=DoubleBonus(HOYLE))
        if result.going_out is not None:
            g = result.going_out
            (line,) = [x for x in collection_lines(result.payments, g) if " C8 " in x]
            assert f"going out: bonus {2 * HOYLE.out_bonus} + melds again {g.melds}:" in line
    melds = [InputLine("-", 1, "5s 5s 5s")]
    plain, twice = (pay_report(melds, 4, rules, True).going_out for rules in (PanRules(HOYLE), DoubleBonus(HOYLE)))
    assert plain == OutValue(melds=4, bonus=1, total=5) and twice == OutValue(melds=4, bonus=2, total=6)


class NoOneSuitSets(PanRules):
    """M3 where a set of one suit is no meld."""

    def judge(self, cards: tuple[Card, ...]) -> Verdict:
        v = super().judge(cards)
        if v.meld is not None and len({c.suit for c in cards}) == 1 and len({c.rank for c in cards}) == 1:
            return Verdict(v.cards, None, "M3", "no one-suit sets here", v.profile)
        return v


def test_M3_the_referee_self_play_and_pan_check_ask_judge() -> None:
    from pancli.app.check import judge_text

    deals = {"Ana": "5s 5s 2h 3h Kd Kh Kc 2c 7d Jc", "Ben": "2d 2d 6c Jd Jd Qs 4s 4s 6h 7c"}
    play = ("Ana draw 5s, meld [5s 5s 5s], discard 7d",)
    assert _both_paths(_deal(deals, *play), PanRules(HOYLE)) == []
    assert _both_paths(_deal(deals, *play), NoOneSuitSets(HOYLE)) == ["M3"]
    assert judge_text("5s 5s 5s", PanRules(HOYLE)).legal
    assert judge_text("5s 5s 5s", NoOneSuitSets(HOYLE)).rule == "M3"
    after = _simulated(NoOneSuitSets(HOYLE))
    assert all(_referee_rules(t, NoOneSuitSets(HOYLE)) == [] for t in after)
    assert _plays(after) != _plays(_simulated(PanRules(HOYLE)))


class NoSevens(PanRules):
    """E1 with a pack that holds no 7s."""

    def copies_of(self, c: Card) -> int:
        return 0 if c.rank is Rank.SEVEN else super().copies_of(c)


def test_E1_pan_check_the_referee_growing_and_the_search_ask_copies_of() -> None:
    from pancli.analyze.analysis import analyze
    from pancli.app.check import judge_text

    assert judge_text("5h 6h 7h", PanRules(HOYLE)).legal
    refused = judge_text("5h 6h 7h", NoSevens(HOYLE))
    assert (refused.rule, refused.reason) == ("E1", "7h is not in this pack")
    assert judge_text("8h 9h 10h", NoSevens(HOYLE)).reason == "8h is not in a Panguingue pack (no 8, 9 or 10)"
    rope = PanRules(HOYLE).judge(fast_cards("4h 5h 6h")).meld
    assert rope is not None
    assert not isinstance(PanRules(HOYLE).try_grow(rope, fast_cards("7h")), MeldError)
    assert isinstance(NoSevens(HOYLE).try_grow(rope, fast_cards("7h")), MeldError)
    deals = {"Ana": "5s 5s 2h 3h Kd Kh Kc 2c 7d Jc", "Ben": "2d 2d 6c Jd Jd Qs 4s 4s 6h 6c"}
    assert _referee_rules(_deal(deals), PanRules(HOYLE)) == []
    assert _referee_rules(_deal(deals), NoSevens(HOYLE)) == ["E1"]
    # the analyzer's draw table: a 7h would lay a rope with 5h 6h, in a pack that holds it
    hand = fast_cards("5h 6h 2s 2s Kd Kd Jc Qc 4d 3c")
    (seven,) = fast_cards("7h")
    usable = [analyze(hand, HOYLE, samples=10, rules=r).row(seven).usable for r in (PanRules(HOYLE), NoSevens(HOYLE))]
    assert usable == [True, False]


def test_E1_the_analyzer_s_live_copies_and_the_advice_s_start_ask_copies_of() -> None:
    from pancli.analyze.advice import Start
    from pancli.analyze.analysis import analyze

    hand = fast_cards("5h 6h 2s 2s Kd Kd Jc Qc 4d 3c")
    (seven,) = fast_cards("7h")
    live = [analyze(hand, HOYLE, samples=10, rules=r).row(seven).live for r in (PanRules(HOYLE), NoSevens(HOYLE))]
    assert live == [8, 0]
    starts = [Start.of(hand, fast_cards("4c"), 4, r) for r in (PanRules(HOYLE), NoSevens(HOYLE))]
    assert sum(starts[0].live) - sum(starts[1].live) == 4 * 8


class HoldsEights(PanRules):
    """E1 with a pack that holds 8s too, as many copies as of the other ranks."""

    def copies_of(self, c: Card) -> int:
        return self.profile.packs if c.rank is Rank.EIGHT else super().copies_of(c)


def test_E2_a_rope_through_a_rank_the_panguingue_order_lacks_is_refused_not_a_crash() -> None:
    """A rules object whose pack holds 8s: a set of 8s is a set, but a rope through an 8 has no
    rank order (E2) to follow: the meld engine refuses it (it raised KeyError)."""
    eights = HoldsEights(HOYLE)
    eight = next(c for c in _ALL if c.rank is Rank.EIGHT and str(c) == "8h")
    rope = eights.judge((*(fast_cards("6h 7h") or ()), eight))
    assert (rope.legal, str(rope.rule)) == (False, "E2") and "8 has no place" in rope.reason
    assert eights.judge((eight,) * 3).legal


def _read(text: str, rules: PanRules) -> str:
    """The cards of a meld literal read in the pack of ``rules``, or its error."""
    from pancli.notation import NotationError, pack_spellings, parse_meld

    try:
        return " ".join(map(str, parse_meld(text, Game.PANGUINGUE, pack_spellings(rules.copies))))
    except NotationError as e:
        return str(e)


def test_E1_the_card_readers_read_the_cards_the_rules_object_s_pack_holds() -> None:
    from pancli.notation import meld_reader, pack_spellings, parse_card, parse_hand

    usual, eights, no_sevens = PanRules(HOYLE), HoldsEights(HOYLE), NoSevens(HOYLE)
    # the fast path (one-card tokens, letter shorthands) and the grammar (packed lists, symbols)
    for text in ("8s 8h 8d", "8sss", "8s8h8d", "8\u2660 8\u2665  8\u2666"):
        assert _read(text, usual).startswith("1:1: E1 8s is not in a Panguingue pack (no 8, 9 or 10)")
        assert _read(text, eights) in ("8s 8h 8d", "8s 8s 8s")
    assert [_read("6-Jh", r) for r in (usual, eights, no_sevens)] == ["6h 7h Jh", "6h 7h 8h Jh", "6h Jh"]
    assert _read("5h 6h 7h", usual) == "5h 6h 7h"
    assert _read("5h 6h 7h", no_sevens) == "1:7: E1 7h is not in this pack"
    assert _read("5h6h7h", no_sevens) == "1:5: E1 7h is not in this pack"
    assert _read("5-7h", no_sevens) == "1:3: E1 7h is not in this pack"
    assert _read("5s 7", no_sevens) == "1:4: E1 7 is not in this pack"
    hand = parse_hand("[8sss] 8h", Game.PANGUINGUE, pack_spellings(eights.copies))
    assert [str(c) for c in hand.cards] == ["8s", "8s", "8s", "8h"]
    assert str(parse_card(" 8c ", Game.PANGUINGUE, pack_spellings(eights.copies))) == "8c"
    assert [str(c) for c in meld_reader(Game.PANGUINGUE, pack_spellings(eights.copies))("8s,8h 8d\n")] == [
        "8s",
        "8h",
        "8d",
    ]


def test_E1_the_batch_s_spread_template_asks_the_pack_s_copies() -> None:
    """A spread of the cards a pack holds is M2 whatever they are: a card it holds none of is
    never read, so it keeps no length of spread from the template."""
    assert NoSevens(HOYLE).spread_rule(3) == PanRules(HOYLE).spread_rule(3) == "M2"


def test_E1_pan_check_and_pay_read_in_the_rules_object_s_pack() -> None:
    from pancli.app.check import BatchJudge, judge_text
    from pancli.app.pay import PayBatch
    from pancli.render.check import PlainRows, plain_row
    from pancli.render.pay import PayRows

    refused = judge_text("5h 6h 7h", NoSevens(HOYLE))
    assert (refused.rule, refused.col, refused.reason) == ("E1", 7, "7h is not in this pack")
    eights = judge_text("8s 8s 8s", HoldsEights(HOYLE))
    assert (eights.legal, eights.meld) == (True, "8s 8s 8s")
    lines = ["5h 6h 7h", "7s 7s 7s", "5s 5s 5s", "8s8s8s", "8s 8s 8s"]
    for rules in (NoSevens(HOYLE), HoldsEights(HOYLE)):
        out, err = PlainRows(BatchJudge("-", rules)).rows(lines, 0)
        rows = [plain_row(t, rules) for t in lines]
        assert out == "".join(r for r, _ in rows)
        assert err == "".join(f"-:{n}{e}" for n, (_, e) in enumerate(rows, 1) if e is not None)
    _, errors = next(PayRows(PayBatch("-", HoldsEights(HOYLE), 4, False)).blocks([["8s 8s 8s", "7s 7s 7s"]]))
    assert errors == ""
    _, errors = next(PayRows(PayBatch("-", NoSevens(HOYLE), 4, False)).blocks([["8s 8s 8s", "7s 7s 7s"]]))
    assert errors == ("-:1:1: E1 8s is not in a Panguingue pack (no 8, 9 or 10)\n-:2:1: E1 7s is not in this pack\n")


def test_E1_the_record_reader_reads_the_cards_the_judge_s_rules_object_holds() -> None:
    from pancli.app.replay import RecordJudge, Tally
    from pancli.panrules import PanRulesByProfile
    from pancli.records import read_hands

    deals = {"Ana": "5s 5s 2h 3h Kd Kh Kc 2c 7d Jc", "Ben": "2d 2d 6c Jd Jd Qs 4s 4s 6h 6c"}

    class Seen:
        wants_steps = False

        def __init__(self) -> None:
            self.errors: list[str] = []

        def hand(self, report: Any) -> None:
            self.errors += [str(v.rule) for v in report.result.violations]

        def malformed(self, hand: Any) -> None:
            self.errors.append(str(hand.error))

        def close(self, tally: Tally, stopped: bool) -> None: ...

    def judged(text: str, rules: Callable[[Any], PanRules]) -> list[str]:
        sink = Seen()
        judge = RecordJudge(sink, None, rules_by_profile=PanRulesByProfile(rules))
        for hand in read_hands(io.StringIO(text), "case.pan", packs=judge.pack_of):
            judge.hand(hand, Tally())
        return sink.errors

    assert judged(_deal(deals), PanRules) == []
    assert judged(_deal(deals), NoSevens) == ["3:34: E1 7d is not in this pack"]  # (the fast path gives up)
    with_eights = {**deals, "Ana": "5s 5s 2h 3h Kd Kh Kc 2c 8d Jc"}
    text = _deal(with_eights)
    assert judged(text, PanRules) == ["3:34: E1 8d is not in a Panguingue pack (no 8, 9 or 10)"]

    def cards(text: str, rules: Callable[[Any], PanRules]) -> list[list[str]]:
        (hand,) = read_hands(io.StringIO(text), "case.pan", packs=lambda _g, p: rules(p).copies)
        assert hand.script is not None, hand.error
        return [[str(c) for c in d.cards] for d in hand.script.deals]

    assert cards(text, HoldsEights)[0][8] == "8d"  # the fast path
    assert cards(text.replace("8d Jc", "8dd"), HoldsEights)[0][8:] == ["8d", "8d"]  # the grammar
    played = text.replace("Ben stay\n", "Ben stay\nAna draw 8h, discard 8h\n")
    (hand,) = read_hands(io.StringIO(played), "case.pan", packs=lambda _g, p: HoldsEights(p).copies)
    assert hand.script is not None and str(hand.script.events[-1].actions[0].card) == "8h"


class NoTens(PagrucRules):
    """G1 otherwise: a pack without its tens, which the readers of PAGRUC text ask."""

    def copies_without_table(self) -> tuple[int, ...]:
        return tuple(0 if c.rank is Rank.TEN else n for c, n in zip(_ALL, super().copies_without_table(), strict=True))


def test_E1_G1_pagruc_check_and_the_record_reader_read_the_rules_object_s_pack() -> None:
    from pancli.app.check import assess_pagruc_all
    from pancli.app.lines import InputLine
    from pancli.app.standings import read_game
    from pancli.render.check import meld_error

    items = [InputLine("<arg>", 1, "8h 9h 10h"), InputLine("<arg>", 2, "Th Jh Qh")]
    assert [c.legal for c in assess_pagruc_all(items)] == [True, True]
    refused = [meld_error(c) for c in assess_pagruc_all(items, NoTens())]
    assert refused == ["<arg>:1:7: E1 10h is not in this pack", "<arg>:2:1: E1 Th is not in this pack"]
    sample = str(Path(__file__).resolve().parent.parent / "samples" / "pagruc-common-room.pan")
    hands, problems, _ = read_game([sample], open)
    assert hands and not problems
    _, problems, _ = read_game([sample], open, rules=NoTens())
    assert problems and all(p.rule == "E1" and "is not in this pack" in p.message for p in problems)


class ValleSetsAreC3(PanRules):
    """C1-C5 otherwise: a one-suit set of valles is C3, as other one-suit sets are."""

    def conditions(self, meld: Meld) -> tuple[Condition, ...]:
        return tuple(Condition.C3 if c is Condition.C2 else c for c in super().conditions(meld))


def test_C1_C5_check_pay_the_referee_the_analyzer_and_its_exports_ask_conditions() -> None:
    """The conditions ``pan check`` and ``pan pay`` write, the referee's payments cite and the
    analyzer's text, JSON and SVG show are the rules object's, read from what it decided."""
    from pancli.analyze.analysis import analyze
    from pancli.app.check import BatchJudge, judge_text
    from pancli.app.lines import InputLine
    from pancli.app.pay import PayBatch, pay_report
    from pancli.render.analysis import summary_lines, to_json
    from pancli.render.check import PlainRows, check_reason
    from pancli.render.pay import PayRows
    from pancli.render.svg import analysis as analysis_svg

    def shown(rules: PanRules) -> list[object]:
        check = judge_text("5s 5s 5s", rules)
        rows, _ = PlainRows(BatchJudge("-", rules)).rows(["5s 5s 5s", "5S,5s 5s"], 0)
        paid = pay_report([InputLine("-", 1, "5s 5s 5s")], 4, rules, False).melds[0].conditions
        [(piped, _)] = PayRows(PayBatch("-", rules, 4, False)).blocks([["5s 5s 5s"]])
        a = analyze(fast_cards("5s 5s 5s 2h 3h Kd Kh Kc 2c 7d"), HOYLE, samples=10, rules=rules)
        text = "\n".join(v for _, v in summary_lines(a))
        (laid,) = [m for m in to_json(a, None)["best"] if m["meld"] == "5s 5s 5s"]
        svg = analysis_svg(a).body
        return [check.conditions, check_reason(check), rows, paid, piped, "(C3 4)" in text, laid["conditions"],
                "meld C3 4" in svg]  # fmt: skip

    deals = {"Ana": "5s 5s 2h 3h Kd Kh Kc 2c 7d Jc", "Ben": "2d 2d 6c Jd Jd Qs 4s 4s 6h 7c"}
    cited = [
        [p.rule for p in referee_script(h.script, rules=r).payments]
        for r in (PanRules(HOYLE), ValleSetsAreC3(HOYLE))
        for h in _hands(_deal(deals, _LAID))
    ]
    assert cited == [["C2"], ["C3"]]
    book, house = shown(PanRules(HOYLE)), shown(ValleSetsAreC3(HOYLE))
    assert book == [
        ("C2",), "one-suit set; C2 valle set, one suit", "5s 5s 5s\tlegal\tset\tC2\t4\t-\tone-suit set; C2 valle set, "
        "one suit\n" * 2, ("C2",), "5s 5s 5s\tC2\t4\n", False, ["C2"], False,
    ]  # fmt: skip
    assert house == [
        ("C3",), "one-suit set; C3 non-valle set, one suit", "5s 5s 5s\tlegal\tset\tC3\t4\t-\tone-suit set; C3 "
        "non-valle set, one suit\n" * 2, ("C3",), "5s 5s 5s\tC3\t4\n", True, ["C3"], True,
    ]  # fmt: skip


class DoubleValues(PanRules):
    """C6 where every meld is worth twice what the book says."""

    def value(self, meld: Meld) -> int:
        return 2 * super().value(meld)


def test_C6_check_pay_and_the_referee_ask_value() -> None:
    """The value ``pan check`` and ``pan pay`` write (one meld, a pipe's batch) and the units the
    referee's payments for a new meld carry are the rules object's."""
    from pancli.app.check import BatchJudge, judge_text
    from pancli.app.lines import InputLine
    from pancli.app.pay import PayBatch, pay_report
    from pancli.render.check import PlainRows
    from pancli.render.pay import PayRows

    def shown(rules: PanRules) -> list[object]:
        rows, _ = PlainRows(BatchJudge("-", rules)).rows(["5s 5s 5s", "5S,5s 5s", "5s5s5s5s"], 0)
        report = pay_report([InputLine("-", 1, "5s 5s 5s"), InputLine("-", 2, "5s 5s 5s 5s")], 4, rules, False)
        [(piped, _)] = PayRows(PayBatch("-", rules, 4, False)).blocks([["5s 5s 5s"]])
        return [judge_text("5s 5s 5s", rules).value, [r.split("\t")[4] for r in rows.splitlines()], report.laid, piped]

    assert shown(PanRules(HOYLE)) == [4, ["4", "4", "6"], 10, "5s 5s 5s\tC2\t4\n"]
    assert shown(DoubleValues(HOYLE)) == [8, ["8", "8", "12"], 20, "5s 5s 5s\tC2\t8\n"]
    deals = {"Ana": "5s 5s 2h 3h Kd Kh Kc 2c 7d Jc", "Ben": "2d 2d 6c Jd Jd Qs 4s 4s 6h 7c"}
    paid = [
        [p.units for p in referee_script(h.script, rules=r).payments]
        for r in (PanRules(HOYLE), DoubleValues(HOYLE))
        for h in _hands(_deal(deals, _LAID))
    ]
    assert paid == [[4], [8]]


class PaysOneMore(PanRules):
    """C7 where laying or changing a meld collects one unit more than its change of value (a
    house's bonus for every meld laid, grown, borrowed from or split)."""

    def change_value(self, before: int, after: int) -> int:
        return super().change_value(before, after) + 1


def _c7_units(result: Any) -> dict[tuple[int, str, str, str], list[int]]:
    """The units of each meld's payment (C1-C7) of a hand, by line, payer, payee and rules."""
    out: dict[tuple[int, str, str, str], list[int]] = {}
    for p in result.payments:
        if p.rule not in ("C8", "T2", "I1", "I2"):
            out.setdefault((p.line, p.payer, p.payee, p.rule), []).append(p.units)
    return out


def test_C7_the_referee_pay_self_play_and_the_analyzer_ask_change_value() -> None:
    """What laying a meld and each change of one (an addition, a mend, a borrow, a split)
    collects is the rules object's ``change_value``: the referee on both paths, its
    ``[%pays N]`` checks, ``pan pay``'s laid (arguments and pipe), self-play's mend claims, and
    the analyzer's arrangements and its going-out policy all follow a house that pays one more."""
    from pancli.analyze.analysis import analyze
    from pancli.analyze.arrange import best_arrangement
    from pancli.analyze.odds import Policy
    from pancli.app.lines import InputLine
    from pancli.app.pay import PayBatch, pay_report
    from pancli.meldspace import SLOT_OF, encode
    from pancli.referee.irregular import Irregularity, inject

    book, house = PanRules(HOYLE), PaysOneMore(HOYLE)
    deals = {"Ana": "5s 5s 2h 3h Kd Kh Kc 2c 7d Jc", "Ben": "2d 2d 6c Jd Jd Qs 4s 4s 6h 7c"}
    (h,) = _hands(_deal(deals, _LAID, _ADDED, _ADD))
    for fast in (True, False):
        paid = [[p.units for p in referee_script(h.script, rules=r, fast=fast).payments] for r in (book, house)]
        assert paid == [[4, 2], [5, 3]]
    samples = ("cardroom-saturday.pan", "irregular-I2-made-good.pan", "irregular-I2-addition-made-good.pan")
    for name in samples:
        for hand in _hands(_sample(name)):
            rules = (PanRules(hand.script.profile), PaysOneMore(hand.script.profile))
            before, after = (_c7_units(referee_script(hand.script, rules=r)) for r in rules)
            for key, units in after.items():
                rest = Counter(units)
                rest.subtract(u + 1 for u in before.get(key, ()))
                assert +rest == Counter({1: rest[1]}) and -rest == Counter(), (name, key)
            assert set(before) < set(after)  # changes worth nothing under the book pay one here
    said = referee_script(_hands(_sample("cardroom-saturday.pan"))[0].script, rules=PaysOneMore(CARDROOM))
    wrong = {c.line: c.actual - c.claimed for c in said.claims if c.rule == "C7"}  # each [%pays N], as the house pays
    assert set(wrong.values()) == {1} and {29, 30} <= set(wrong)  # the split, the meld of the borrowed card
    # pan pay: from its arguments and from a pipe
    items = [InputLine("<arg>", 1, "5s 5s 5s"), InputLine("<arg>", 2, "2h 3h 4h")]
    assert [pay_report(items, 4, r, False).laid for r in (book, house)] == [4, 6]
    batch = PayBatch("-", house, 4, False)
    for text in ("5s 5s 5s", "2h 3h 4h"):
        line = batch.line(text)
        assert line is not None and line.counts is not None and batch.take(line.counts) is None
        batch.count(line)
    assert batch.report().laid == 6
    # self-play: a meld or an addition made good claims what the house pays, and the referee agrees
    kinds: Counter[Irregularity] = Counter()
    for script in _simulated(house, 8):
        for kind in (Irregularity.I2_MENDED, Irregularity.I2_ADDITION_MENDED):
            fixed = inject(script, kind, random.Random(2), house)
            if fixed is not None:
                kinds[kind] += 1
                assert all(c.ok for c in referee_script(fixed, rules=house).claims)
                assert not all(c.ok for c in referee_script(fixed, rules=book).claims)
    assert set(kinds) == {Irregularity.I2_MENDED, Irregularity.I2_ADDITION_MENDED}
    # the analyzer: what each meld of the best arrangement collects, and the policy's payment
    rope = book.judge(fast_cards(_TABLE_ROPE)).meld
    assert rope is not None
    hand = fast_cards(_HAND)
    best = [analyze(hand, HOYLE, table=(rope,), samples=10, rules=r).best for r in (book, house)]
    placed = [[p.value for p in b.placed] for b in best]
    assert placed == [[4, 0], [5, 1]]
    # the search weighs what each meld collects: two ropes, each paying one, beat the one rope
    laid = [[str(p) for p in best_arrangement(fast_cards("2h 3h 4h 5h 6h 7h"), HOYLE, space=r.meld_space()).placed]
            for r in (book, house)]  # fmt: skip
    assert laid == [["2h 3h 4h 5h 6h 7h"], ["2h 3h 4h", "5h 6h 7h"]]
    paid = []
    for r in (book, house):
        policy = Policy(HOYLE, space=r.meld_space())
        nid = policy.node(encode(fast_cards("5s 5s 2h 3h Kd Kh Qc 7c Jd Jd")), (rope,))
        slot = SLOT_OF[fast_cards("5s")[0]]
        policy.move(nid, slot)
        paid.append(policy.nodes[nid].paid[slot])
    assert paid == [4, 5]


class NoAdditions(PanRules):
    """M5 where nothing may be added to a meld on the table."""

    def grow(self, meld: Meld, added: tuple[Card, ...]) -> Meld:
        raise MeldError("M5", "nothing is added here")


_LAID = "Ana draw 5s, meld [5s 5s 5s], discard 7d"
_ADDED = "Ben draw 4h, discard 4h"
_ADD = "Ana draw 5s, add 5s to #1, discard Jc"


def test_M5_the_referee_and_self_play_ask_grow() -> None:
    deals = {"Ana": "5s 5s 2h 3h Kd Kh Kc 2c 7d Jc", "Ben": "2d 2d 6c Jd Jd Qs 4s 4s 6h 7c"}
    play = (_LAID, _ADDED, _ADD)
    assert _both_paths(_deal(deals, *play), PanRules(HOYLE)) == []
    assert _both_paths(_deal(deals, *play), NoAdditions(HOYLE)) == ["M5"]
    before, after = _simulated(PanRules(HOYLE), 8), _simulated(NoAdditions(HOYLE), 8)
    assert _plays(after) != _plays(before) and all(_referee_rules(t, NoAdditions(HOYLE)) == [] for t in after)


class BorrowsFromSetsOnly(PanRules):
    """M6 where nothing is borrowed off a rope."""

    def borrow(self, meld: Meld, card: Card) -> Borrowing:
        if isinstance(meld, Rope):
            return Borrowing(None, BorrowRefusal.NOT_THERE)
        return super().borrow(meld, card)


def test_M6_the_referee_asks_borrow() -> None:
    """Whether a borrow stands, and what it leaves, are the rules object's ``borrow``'s answers;
    the referee words them as before."""
    text = _sample("cardroom-saturday.pan")  # Hal borrows 3d off his rope 3d 4d 5d 6d
    (hand,) = _hands(text)
    book, sets = PanRules(hand.script.profile), BorrowsFromSetsOnly(hand.script.profile)
    assert _both_paths(text, book) == []
    assert [(str(v.rule), v.message) for v in referee_script(hand.script, rules=sets).violations] == [
        ("M6", "3d is not an end of #1 (3d 4d 5d 6d)")
    ]


_TABLE_ROPE = "2h 3h 4h"
_HAND = "5h 5s 5s 5s Kc Qd 7c"
"""Seven cards beside a rope of no condition on the table: 5h grows the rope (worth 0 either way),
5s 5s 5s is a set of one suit."""


def _search(rules: PanRules) -> list[str]:
    """What ``pan analyze``'s search lays (the application's analysis, asking ``rules``) of
    :data:`_HAND` beside :data:`_TABLE_ROPE`, and what a position's ``lays`` offers of it."""
    from pancli.app.analyze import Job

    rope = PanRules(HOYLE).judge(fast_cards(_TABLE_ROPE)).meld
    assert rope is not None
    job = Job(HOYLE, 4, 20, 1, False, rules_by={HOYLE: rules})
    analysis, _ = job.analyse(fast_cards(_HAND), None, (rope,), (), "-", 1)
    return [str(p) for p in analysis.best.placed]


@pytest.mark.parametrize(
    ("rules", "laid"),
    [
        (PanRules(HOYLE), ["5s 5s 5s", "5h to #1"]),
        (NoOneSuitSets(HOYLE), ["5h to #1"]),  # M3: judge
        (NoAdditions(HOYLE), ["5s 5s 5s"]),  # M5: grow
        (MustGain(HOYLE), ["5s 5s 5s"]),  # C7: keeps_value, which grow asks
    ],
    ids=["rulebook", "M3", "M5", "C7"],
)
def test_M3_M5_C7_the_analyzer_s_search_asks_judge_grow_and_keeps_value(rules: PanRules, laid: list[str]) -> None:
    assert _search(rules) == laid


def test_M3_review_s_advice_and_a_position_s_lays_ask_judge() -> None:
    from pancli.analyze.review import Memo, Options
    from pancli.app.replay import referee
    from pancli.app.review import review_hand
    from pancli.referee.position import table_now

    opts = Options(samples=20, advice_samples=10, depth=2)
    text = _deal({"Ana": "5s 5s 2h 3h Kd Kh Kc 2c 7d Jc", "Ben": "2d 2d 6c Jd Jd Qs 4s 4s 6h 7c"}, _LAID)
    (h,) = _hands(text)

    def judged(rules: PanRules) -> list[tuple[object, ...]]:
        review = review_hand(h, h.script, referee(h.script), opts, memo=Memo(rules))
        return [(j.kind, j.chips, j.out_part, j.best) for j in review.judgements]

    assert judged(PanRules(HOYLE)) != judged(NoOneSuitSets(HOYLE))
    (dealt,) = _hands(_deal({"Ana": "5s 5s 5s 2h 3h Kd Kh Kc 2c 7d", "Ben": "2d 2d 6c Jd Jd Qs 4s 4s 6h 7c"}))
    fives = fast_cards("5s 5s 5s")
    assert fives in table_now(dealt.script, PanRules(HOYLE)).lays
    assert fives not in table_now(dealt.script, NoOneSuitSets(HOYLE)).lays


class SeatsThree(PanRules):
    """S1 where a table seats three to fifteen players."""

    def seats(self) -> range:
        return range(3, 16)


def test_S1_the_referee_self_play_and_the_analyzer_ask_seating() -> None:
    from pancli.analyze.analysis import ImpossiblePosition, analyze
    from pancli.referee.simulate import simulate_hands

    deals = {"Ana": "5s 5s 2h 3h Kd Kh Kc 2c 7d Jc", "Ben": "2d 2d 6c Jd Jd Qs 4s 4s 6h 7c"}
    assert _referee_rules(_deal(deals), PanRules(HOYLE)) == []
    assert _referee_rules(_deal(deals), SeatsThree(HOYLE)) == ["S1"]
    with pytest.raises(ValueError, match="seats 3 to 15"):
        next(simulate_hands(("Ana", "Ben"), 1, 1, HOYLE, rules=SeatsThree(HOYLE)))
    hand = fast_cards("5s 5s 5s 2h 3h 4h Kd Kh Kc 2c")
    with pytest.raises(ImpossiblePosition, match="seats 3 to 15"):
        analyze(hand, HOYLE, players=2, samples=10, rules=SeatsThree(HOYLE))


class SeatsAnaOnce(PanRules):
    """S1's one seat each, where a name may be seated twice unless it is Ana."""

    def seated_twice(self, names: Sequence[str]) -> str | None:
        return "Ana" if names.count("Ana") > 1 else None


def test_S1_the_commands_the_api_and_simulate_s_seats_ask_seats() -> None:
    from click.testing import CliRunner

    from pancli.api import PanError, analyze_hand
    from pancli.app.simulate import SimulateProblem, seat_names
    from pancli.cli.common import players_option, seated_players
    from pancli.render.text import seated_text

    @click.command()
    @players_option("players")
    @click.pass_context
    def seat(ctx: click.Context, players: int) -> None:
        click.echo(seated_players(ctx, seated_text(SeatsThree(HOYLE).seating(players)), players))

    assert CliRunner().invoke(seat, ["-n", "3"]).output == "3\n"
    refused = CliRunner().invoke(seat, ["-n", "2"])
    assert refused.exit_code == 2
    # the rules object's words, as simulate's --players gives them
    assert "Invalid value for '--players' / '-n': 2 players seated; Panguingue seats 3 to 15 (S1)\n" in refused.output
    with pytest.raises(PanError, match="players must be from 3 to 15, not 2"):
        analyze_hand("5sss 2-4h Kdhc 2c", SeatsThree(HOYLE), players=2, samples=10)
    with pytest.raises(SimulateProblem) as unseated:
        seat_names(2, None, SeatsThree(HOYLE))
    assert unseated.value.message == Unseated(2, 3, 15)
    assert seat_names(None, "Ben Ben", SeatsAnaOnce(HOYLE)) == ("Ben", "Ben")
    with pytest.raises(SimulateProblem, match="one seat"):
        seat_names(None, "Ben Ana Ana", SeatsAnaOnce(HOYLE))
    # the referee's seating judge (a record cannot name a player twice: its reader refuses it first)
    from pancli.referee.board import Board
    from pancli.referee.play import seating_fault

    def seated(names: tuple[str, ...], rules: PanRules) -> str | None:
        r = seating_fault(Board(HandScript(players=names), rules=rules))
        return None if r is None else r.violation.message

    assert seated(("Ben", "Ben"), PanRules(HOYLE)) == "Ben is seated twice; each player has one seat"
    assert seated(("Ben", "Ben"), SeatsAnaOnce(HOYLE)) is None
    assert seated(("Ben", "Ana", "Ana"), SeatsAnaOnce(HOYLE)) == "Ana is seated twice; each player has one seat"


class VoidOnTops(PanRules):
    """T4 where a hand that all but one player leave is void, not won."""

    def after_decisions(self, stayed: int) -> Ending | None:
        return None if stayed > 1 else Ending.VOID


def test_T4_the_referee_and_self_play_ask_after_decisions() -> None:
    text = _deal({"Ana": "5s 5s 2h 3h Kd Kh Kc 2c 7d Jc", "Ben": "2d 2d 6c Jd Jd Qs 4s 4s 6h 7c"}).replace(
        "Ben stay", "Ben top"
    )
    (hand,) = _hands(text)
    won, void = (referee_script(hand.script, rules=r) for r in (PanRules(HOYLE), VoidOnTops(HOYLE)))
    assert (won.winner, won.ending_rule, void.winner, void.void) == ("Ana", "T4", None, True)
    before, after = _simulated(PanRules(HOYLE), 12), _simulated(VoidOnTops(HOYLE), 12)
    assert all(_referee_rules(t, VoidOnTops(HOYLE)) == [] for t in after)
    tops = [i for i, t in enumerate(before) if sum(isinstance(e, Decision) and e.stay for e in t.events) == 1]
    assert tops  # a hand won on tops; under VoidOnTops the next hand's first player differs
    assert _plays(after) != _plays(before)


def test_T4_pan_simulate_names_the_winner_the_table_that_played_found() -> None:
    """``pan simulate --json``'s winner is the one self-play's table found, under the rules
    object it played by, not a second refereeing under the rulebook's."""
    from pancli.app.simulate import simulated

    played = list(simulated(("Ana", "Ben", "Cruz", "Dee"), 12, 5, HOYLE, rules=VoidOnTops(HOYLE)))
    assert [h.winner for h in played] == [referee_script(h.script, rules=VoidOnTops(HOYLE)).winner for h in played]
    voided = [h for h in played if h.winner is None and referee_script(h.script).winner is not None]
    assert voided  # a hand won on tops under the rulebook, void under VoidOnTops


def _table_at(script: HandScript, rules: PanRules, kind: type[Table] = Table) -> Table:
    """A table of ``kind`` asking ``rules``, dealt and with every line of ``script`` pushed."""
    t = kind(script, record_steps=False, rules=rules)
    assert t.deal_in()
    for ev in script.events:
        assert t.push(ev) == ()
    return t


class NeverOut(PanRules):
    """I3 where melding the last card ends nothing: nobody goes out (a discard is still due)."""

    def ending(self, active: int, hand: int | None = None, dead_discards: int | None = None) -> Ending | None:
        answer = super().ending(active, hand, dead_discards)
        return None if answer is Ending.OUT else answer


_OUT_DEALS = {"Ana": "5s 5s Ah 2h 3h 4h 5h Kd Kh Kc", "Ben": "2d 2d 6c Jd Jd Qs 4s 4s 6h 7c"}
_GOES_OUT = "Ana draw 5s, meld [5s 5s 5s], meld [Ah 2h 3h 4h 5h], meld [Kd Kh Kc]"


def test_I3_going_out_is_the_rules_object_s_ending_on_both_paths_and_at_the_discard_due() -> None:
    """The end of a turn (both paths), an ``out`` line and the discard a turn calls for all ask
    ``ending`` whether the hand ends with the last card melded."""
    from pancli.referee.play import Discarding

    for line in (_GOES_OUT, _GOES_OUT + ", out"):
        assert _both_paths(_deal(_OUT_DEALS, line), PanRules(HOYLE)) == []
        (hand,) = _hands(_deal(_OUT_DEALS, line))
        won = referee_script(hand.script, rules=PanRules(HOYLE))
        assert (won.winner, won.ending_rule) == ("Ana", "C8")
    assert _both_paths(_deal(_OUT_DEALS, _GOES_OUT), NeverOut(HOYLE)) == ["P5"]  # a discard is due
    assert _both_paths(_deal(_OUT_DEALS, _GOES_OUT + ", out"), NeverOut(HOYLE)) == ["P7"]  # not out
    (hand,) = _hands(_deal(_OUT_DEALS))
    (turn,) = _hands(_deal(_OUT_DEALS, _GOES_OUT))[0].script.events[-1:]
    for rules, due in ((PanRules(HOYLE), Discarding.NONE), (NeverOut(HOYLE), Discarding.HAND_CARD)):
        t = _table_at(hand.script, rules)
        t.begin_turn(turn)
        for a in turn.actions:
            t.apply(a, t.verify(a))
        assert t.discard_due().due is due


def test_P7_a_discard_with_no_card_left_asks_ending_whether_he_went_out() -> None:
    """The discard after the last card is melded is P7's "went out" only when the rules object's
    ``ending`` says the empty hand went out; under NeverOut the hand goes on and the discard is
    judged as any other (a card he does not hold)."""
    text = _deal(_OUT_DEALS, _GOES_OUT + ", discard 5h")
    (h,) = _hands(text)
    for rules, said in ((PanRules(HOYLE), ("P7", "went out")), (NeverOut(HOYLE), ("E4", "does not hold 5h"))):
        assert _both_paths(text, rules) == [said[0]]
        (v,) = referee_script(h.script, rules=rules, remedy=False).violations
        assert said[1] in v.message


class VoidAtReshuffle(PanRules):
    """I3 (P10) where a hand whose stock runs out is void: the dead discards are never reshuffled."""

    def ending(self, active: int, hand: int | None = None, dead_discards: int | None = None) -> Ending | None:
        return Ending.VOID if dead_discards is not None else super().ending(active, hand, dead_discards)


class OneCopy(PanRules):
    """One copy of each card: a short stock, so that self-play reshuffles."""

    def copies_of(self, c: Card) -> int:
        return min(1, super().copies_of(c))


class OneCopyVoidAtReshuffle(OneCopy, VoidAtReshuffle):
    """A short stock, and the hand void when it runs out."""


def test_I3_P10_the_referee_a_position_and_self_play_ask_ending_at_a_reshuffle() -> None:
    from pancli.model.actions import Reshuffle
    from pancli.referee.position import now_of
    from pancli.referee.simulate import simulate_hands

    deals = {"Ana": "5s 5s 2h 3h Kd Kh Kc 2c 7d Jc", "Ben": "2d 2d 6c Jd Jd Qs 4s 4s 6h 7c"}
    (hand,) = _hands(_deal(deals, "Ana draw 2s, discard 2s"))
    for rules, voids in ((PanRules(HOYLE), False), (VoidAtReshuffle(HOYLE), True)):
        t = _table_at(hand.script, rules)
        t.stock_n = 0  # the stock drawn out; the upcard lies under the live 2s: a dead discard
        now = now_of(t)
        assert (now.reshuffle, now.reshuffle_voids) == (True, voids)
        t.push(Reshuffle())
        assert (t.ending is Ending.VOID, t.ending_rule) == (voids, "P10" if voids else None)
    before, after = (
        list(simulate_hands(("Ana", "Ben"), 8, 5, HOYLE, rules=r))
        for r in (OneCopy(HOYLE), OneCopyVoidAtReshuffle(HOYLE))
    )
    reshuffled = [s for s in before if any(isinstance(e, Reshuffle) for e in s.events)]
    assert reshuffled and all(referee_script(s, rules=OneCopy(HOYLE)).winner for s in reshuffled)
    voids = []
    for s in after:
        result = referee_script(s, rules=OneCopyVoidAtReshuffle(HOYLE))
        assert result.violations == ()
        voids.append(result.ending_rule == "P10")
        assert any(isinstance(e, Reshuffle) for e in s.events) == voids[-1]
        assert not voids[-1] or isinstance(s.events[-1], Reshuffle)  # self-play stops there
    assert any(voids)


class LoneSurvivorVoids(PanRules):
    """I3 (I1, I2) where a hand left to one player by retirements is void: he does not play on."""

    def ending(self, active: int, hand: int | None = None, dead_discards: int | None = None) -> Ending | None:
        return Ending.VOID if active < 2 else super().ending(active, hand, dead_discards)


def test_I3_I1_a_retirement_asks_ending_whether_anybody_plays_on() -> None:

    deals = {"Ana": "5s 5s 2h 3h Kd Kh Kc 2c 7d Jc Qc", "Ben": "2d 2d 6c Jd Jd Qs 4s 4s 6h 7c"}
    (hand,) = _hands(_deal(deals, "Ana draw 5s, meld [5s 5s 5s], discard 7d", "Ben count Ana"))
    on, void = (referee_script(hand.script, rules=r) for r in (PanRules(HOYLE), LoneSurvivorVoids(HOYLE)))
    assert [r.rule for r in on.retirements] == [r.rule for r in void.retirements] == ["I1"]
    assert (on.ending, void.ending, void.ending_rule) == (Ending.UNFINISHED, Ending.VOID, "I1")


class EarlyReshuffle(Table):
    """A table whose stock is first reshuffled with 250 cards still in it (P10's question, otherwise)."""

    def must_reshuffle(self) -> bool:
        early = self.stock_n <= 250 and self.restock is None
        return self.phase is Phase.PLAYING and (self.stock_n <= 0 or early)


def test_P10_a_position_and_self_play_read_the_table_s_must_reshuffle(monkeypatch: pytest.MonkeyPatch) -> None:
    from pancli.model.actions import Reshuffle
    from pancli.referee.board import Board
    from pancli.referee.position import now_of

    deals = {"Ana": "5s 5s 2h 3h Kd Kh Kc 2c 7d Jc", "Ben": "2d 2d 6c Jd Jd Qs 4s 4s 6h 7c"}
    (hand,) = _hands(_deal(deals, "Ana draw 2s, discard 2s"))
    for kind, reshuffle in ((Table, False), (EarlyReshuffle, True)):
        t = _table_at(hand.script, PanRules(HOYLE), kind)
        t.stock_n = 250
        assert now_of(t).reshuffle is reshuffle
    assert not any(isinstance(e, Reshuffle) for s in _simulated(PanRules(HOYLE), 4) for e in s.events)
    monkeypatch.setattr(Board, "must_reshuffle", EarlyReshuffle.must_reshuffle)
    assert any(isinstance(e, Reshuffle) for s in _simulated(PanRules(HOYLE), 4) for e in s.events)


class SeatsCaseBlind(PanRules):
    """S1's one seat each, where names differing only in case are one player."""

    def seated_twice(self, names: Sequence[str]) -> str | None:
        folded = [n.casefold() for n in names]
        return next((n for n, f in zip(names, folded, strict=True) if folded.count(f) > 1), None)


def test_S1_self_play_asks_seated_twice() -> None:
    from pancli.referee.simulate import simulate_hands

    assert next(simulate_hands(("Ana", "ana"), 1, 1, HOYLE, rules=PanRules(HOYLE))).players == ("Ana", "ana")
    with pytest.raises(ValueError, match="unique"):
        next(simulate_hands(("Ana", "ana"), 1, 1, HOYLE, rules=SeatsCaseBlind(HOYLE)))


class AsksNextOrder(PanRules):
    """S3 as the book has it, keeping the winner each question named."""

    def __init__(self, profile: Profile) -> None:
        super().__init__(profile)
        self.asked: list[str | None] = []

    def next_order(self, players: Sequence[str], winner: str | None) -> tuple[str, ...] | None:
        self.asked.append(winner)
        return super().next_order(players, winner)


def test_S3_live_hands_next_order_the_result_s_winner(tmp_path: Path) -> None:
    """``pan live`` asks the next hand's order with the winner the result names, whatever the
    hand's ending: "no winner, no order" is the rules object's to decide."""
    from types import SimpleNamespace

    from pancli.app.live import LiveOptions, Session
    from pancli.model.results import HandResult

    names = ("Ana", "Ben", "Cruz")
    rules = AsksNextOrder(HOYLE)
    result = HandResult(players=names, winner="Ben", payments=(), ledger=dict.fromkeys(names, 0))
    assert result.ending is Ending.UNFINISHED
    report = SimpleNamespace(result=result, script=HandScript(players=names))
    with Session(str(tmp_path / "night.pan"), LiveOptions(names)) as session:
        session.judge.rules_by_profile = PanRulesByProfile(lambda _: rules)
        assert session._next_order(report) == (("Ben", "Cruz", "Ana"), "S3")  # type: ignore[arg-type]
    assert rules.asked == ["Ben"]


# PAGRUC's rules object, answered otherwise: its referee, ``pan check --game pagruc`` and ``pan
# score`` each follow the subclass they are handed.


class RunsOnly(PagrucRules):
    """G4 otherwise: no set is a meld."""

    def meld(self, cards: Iterable[Card], pack: PagrucPack) -> PagrucVerdict:
        v = super().meld(cards, pack)
        if v.meld is not None and v.meld.kind is PagrucKind.SET:
            return PagrucVerdict(v.cards, None, Rule.G4, "this house melds runs only")
        return v


class NoLayOffs(PagrucRules):
    """G5 otherwise: nothing may be laid off."""

    def lay_off(self, meld: PagrucMeld, added: Iterable[Card], pack: PagrucPack) -> PagrucMeld:
        raise MeldError(Rule.G5, "this house lays nothing off")


class DoubledPoints(PagrucRules):
    """G7 otherwise: every card scores twice its points."""

    def points(self, c: Card, where: Where) -> int:
        return 2 * super().points(c, where)


class TwoPacksAlways(PagrucRules):
    """G1 otherwise: two packs whatever the players."""

    def pack(self, players: int, packs: int | None = None) -> PagrucPack:
        return PagrucPack(2)


def _pagruc_hands() -> list[HandScript]:
    from pancli.records import read_hands

    text = (Path(__file__).resolve().parent.parent / "samples" / "pagruc-common-room.pan").read_text(encoding="utf-8")
    scripts = [h.script for h in read_hands(io.StringIO(text), "common-room.pan")]
    assert all(s is not None for s in scripts)
    return [s for s in scripts if s is not None]


def _pagruc_results(rules: PagrucRules) -> list[pagruc_referee.PagrucHandResult]:
    return [pagruc_referee.referee_script(s, rules=rules, strict=False) for s in _pagruc_hands()]


def test_G4_the_pagruc_referee_check_and_score_ask_the_rules_object_s_meld() -> None:
    from pancli.app.check import assess_pagruc
    from pancli.app.lines import InputLine
    from pancli.app.score import assess_score, placed

    before, after = _pagruc_results(PagrucRules()), _pagruc_results(RunsOnly())
    assert all(r.violations == () for r in before)
    assert "G4" in {str(v.rule) for r in after for v in r.violations}
    aces = InputLine("<arg>", 1, "Ac Ad As")
    assert assess_pagruc(aces).legal and not assess_pagruc(aces, RunsOnly()).legal
    assert assess_pagruc(aces, RunsOnly()).rule == Rule.G4
    literal = InputLine("<arg>", 1, "[Ac Ad As] | Ks")
    assert assess_score(literal, TWO_PACKS).score is not None
    assert assess_score(literal, TWO_PACKS, RunsOnly()).rule == Rule.G4
    assert [r.rule for r in placed([literal], TWO_PACKS, RunsOnly())] == [Rule.G4]


def test_G5_the_pagruc_referee_asks_the_rules_object_s_lay_off() -> None:
    after = _pagruc_results(NoLayOffs())
    refused = [v for r in after for v in r.violations if str(v.rule) == "G5"]
    assert refused and all(v.message == "this house lays nothing off" for v in refused)


def test_G7_the_pagruc_referee_check_and_score_ask_the_rules_object_s_points() -> None:
    from pancli.app.check import assess_pagruc
    from pancli.app.lines import InputLine
    from pancli.app.score import Scorer, assess_score
    from pancli.render.score import ScoreRows

    before, after = _pagruc_results(PagrucRules()), _pagruc_results(DoubledPoints())
    assert [r.violations for r in after] == [r.violations for r in before]
    for b, a in zip(before, after, strict=True):
        assert {p: 2 * n for p, n in b.scores.items() if n is not None} == {
            p: n for p, n in a.scores.items() if n is not None
        }
        assert b.claims_ok and not a.claims_ok  # the records' claims are the book's points
    aces = InputLine("<arg>", 1, "Ac Ad As")
    assert (assess_pagruc(aces).value, assess_pagruc(aces, DoubledPoints()).value) == (45, 90)
    literal = InputLine("<arg>", 1, "[5h 6h 7h] [Ac Ad As] | Ks Ah")
    scores = [assess_score(literal, TWO_PACKS, r).score for r in (PagrucRules(), DoubledPoints())]
    assert [s.total for s in scores if s is not None] == [38, 76]
    [(text, _)] = ScoreRows(Scorer(TWO_PACKS, DoubledPoints()), "-").blocks([["| Ah"]])
    assert "score -30" in text


def test_G7_a_meld_made_by_the_rules_object_keeps_its_points() -> None:
    """A library caller reading a meld's or a verdict's points, the scored melds of ``pan score
    --json`` and the referee's table melds (``pan replay --json``) follow the rules object."""
    from pancli.app.lines import InputLine
    from pancli.app.score import assess_score
    from pancli.render.exports import ScoreItem, score_item

    aces, run = fast_cards("Ac Ad As"), fast_cards("5h 6h 7h")
    for rules, factor in ((PagrucRules(), 1), (DoubledPoints(), 2)):
        v = rules.meld(aces, TWO_PACKS)
        assert v.meld is not None and (v.points, v.meld.points) == (45 * factor, 45 * factor)
        laid = rules.meld(run, TWO_PACKS).meld
        assert laid is not None
        assert rules.lay_off(laid, fast_cards("8h", Game.PAGRUC) or (), TWO_PACKS).points == 26 * factor
        assert rules.meld_points(laid) == laid.points
        report = assess_score(InputLine("<arg>", 1, "[5h 6h 7h] [Ac Ad As] | Ks Ah"), TWO_PACKS, rules)
        item = score_item(report)
        assert isinstance(item, ScoreItem) and [m.points for m in item.melds] == [18 * factor, 45 * factor]
        tables = [m.meld.points for r in _pagruc_results(rules) for m in r.table]
        assert tables and tables == [
            sum(rules.points(c, m.meld.where) for c in m.meld.cards) for r in _pagruc_results(rules) for m in r.table
        ]
    book = [m.meld.points for r in _pagruc_results(PagrucRules()) for m in r.table]
    assert [2 * n for n in book] == [m.meld.points for r in _pagruc_results(DoubledPoints()) for m in r.table]


class EndsAtOne(PagrucRules):
    """G6 where a discard that leaves one card ends the hand."""

    def hand_over(self, cards_left: int) -> bool:
        return cards_left <= 1


def test_G6_the_pagruc_referee_asks_hand_over() -> None:
    before, after = _pagruc_results(PagrucRules()), _pagruc_results(EndsAtOne())
    assert all(r.violations == () for r in before)
    assert "G6" in {str(v.rule) for r in after for v in r.violations}  # play went on after the end


class DealsSix(PagrucRules):
    """G2 where each player is dealt six cards."""

    @property
    def deal_size(self) -> int:
        return 6


class TakesMany(PagrucRules):
    """G3 where anyone may take more than the top discard."""

    def may_take_many(self, has_meld: bool) -> bool:
        return True


class TurnsOverAtOne(PagrucRules):
    """G6 where a stock of one card left is turned over with the discard pile."""

    def turns_over(self, stock: int) -> bool:
        return stock <= 1


def _six_card_hand(*events: Turn) -> HandScript:
    from pancli.model.actions import Deal, Discard, MeldNew

    cards = {str(x): x for x in _ALL}

    def of(text: str) -> tuple[Card, ...]:
        return tuple(cards[t] for t in text.split())

    deals = (("Ana", "5h 6h 7h Ac Ad As"), ("Ben", "2c 3c 4c 5c 6c 7c"), ("Cy", "2d 3d 4d 9s 9h Qd"))
    win = Turn("Ana", (Draw(cards["2s"]), MeldNew(of("5h 6h 7h")), MeldNew(of("Ac Ad As")), Discard(cards["2s"])))
    return HandScript(
        players=("Ana", "Ben", "Cy"),
        game=Game.PAGRUC,
        deals=tuple(Deal(p, of(c)) for p, c in deals),
        upcard=cards["Kh"],
        events=events or (win,),
    )


def test_G2_a_six_card_deal_replays_clean_under_rules_that_deal_six() -> None:
    script = _six_card_hand()
    book = pagruc_referee.referee_script(script, strict=False)
    assert [v.message for v in book.violations] == ["Ana is dealt 6 cards, not 7"]
    six = pagruc_referee.referee_script(script, rules=DealsSix(), strict=False)
    assert six.violations == () and six.winner == "Ana"
    table = pagruc_referee.PagrucTable(replace(script, deals=script.deals[:2], events=()), rules=DealsSix())
    assert table.deal_in()
    assert table.stock == table.pack.size - 6 * 3 - 1  # Cy, with no deal line, holds six unknown cards
    assert table.hands["Cy"].size == 6


def test_G3_taking_more_than_the_top_discard_asks_may_take_many() -> None:
    from pancli.model.actions import Discard, TakeMany

    cards = {str(x): x for x in _ALL}
    turns = (
        Turn("Ana", (Draw(cards["2s"]), Discard(cards["2s"]))),
        Turn("Ben", (Draw(cards["Jh"]), Discard(cards["Jh"]))),
        Turn("Cy", (TakeMany(2), Discard(cards["Qd"]))),
    )
    script = _six_card_hand(*turns)
    book = pagruc_referee.referee_script(script, rules=DealsSix(), strict=False)
    assert [(str(v.rule), v.player) for v in book.violations] == [("G3", "Cy")]
    both = type("Both", (DealsSix, TakesMany), {})()
    assert pagruc_referee.referee_script(script, rules=both, strict=False).violations == ()


def test_G6_a_draw_and_a_reshuffle_ask_turns_over() -> None:
    from pancli.model.actions import Discard, Reshuffle

    cards = {str(x): x for x in _ALL}
    script = _six_card_hand(Turn("Ana", (Draw(cards["2s"]), Discard(cards["2s"]))), Reshuffle())
    book = pagruc_referee.referee_script(script, rules=DealsSix(), strict=False)
    assert [str(v.rule) for v in book.violations] == ["G6"]  # the stock still holds cards
    changed = type("Both", (DealsSix, TurnsOverAtOne), {})()
    table = pagruc_referee.PagrucTable(script, rules=changed)
    table.stock = 1
    assert pagruc_referee.judges.early_reshuffle_fault(table, 1, 1) is None
    assert pagruc_referee.judges.empty_stock_fault(table, 1, 1, "Ben") is not None


class NoCardTwice(PagrucRules):
    """G1's conservation where no card may be seen twice, whatever the packs."""

    def beyond(self, pack: PagrucPack, counts: Iterable[tuple[Card, int]]) -> tuple[Card, int] | None:
        return super().beyond(PagrucPack(1), counts)


class SixOrMore(PagrucRules):
    """G1 where an official table seats six to eight (two packs)."""

    def official_players(self) -> range:
        return range(6, 9)


def test_G1_the_referee_melds_lay_offs_score_and_check_ask_beyond() -> None:
    import random

    from pagruc_selfplay import selfplay_hand

    from pancli.app.check import PacksNeeded, assess_pagruc
    from pancli.app.lines import InputLine
    from pancli.app.score import assess_score
    from pancli.records import read_hands

    twice = InputLine("<arg>", 1, "5h 5h 5c")
    assert assess_pagruc(twice).legal
    refused = assess_pagruc(twice, NoCardTwice())
    assert (refused.legal, refused.rule) == (False, Rule.G1)
    five = fast_cards("5h", Game.PAGRUC) or ()
    fives = PagrucRules().meld(fast_cards("5c 5d 5h", Game.PAGRUC) or (), TWO_PACKS).meld
    assert fives is not None and PagrucRules().lay_off(fives, five, TWO_PACKS).points
    with pytest.raises(MeldError, match="G1"):
        NoCardTwice().lay_off(fives, five, TWO_PACKS)
    literal = InputLine("<arg>", 1, "[4h 5h 6h] | 5h")
    assert assess_score(literal, TWO_PACKS).score is not None
    assert assess_score(literal, TWO_PACKS, NoCardTwice()).rule == Rule.G1
    # pan check's pack note looks for the smallest official table whose pack holds the meld
    assert assess_pagruc(twice).packs_needed == PacksNeeded(2, 2)
    assert assess_pagruc(twice, SixOrMore()).packs_needed is None
    # the referee's G1 judge, over hands of six (two packs)
    text = "\n\n".join(selfplay_hand(("Ana", "Ben", "Cruz", "Dee", "Eve", "Fay"), random.Random(i)) for i in range(6))
    scripts = [h.script for h in read_hands(io.StringIO(text), "six.pan") if h.script is not None]
    rules_of = [
        [str(v.rule) for v in pagruc_referee.referee_script(s, rules=r, strict=False).violations]
        for s in scripts
        for r in (PagrucRules(), NoCardTwice())
    ]
    assert not any(rules_of[0::2]) and "G1" in {r for rs in rules_of[1::2] for r in rs}


def test_G1_the_pagruc_referee_asks_the_rules_object_s_pack() -> None:
    assert {r.packs for r in _pagruc_results(PagrucRules())} == {1}
    assert {r.packs for r in _pagruc_results(TwoPacksAlways())} == {2}


class OnePackAlways(PagrucRules):
    """G1 otherwise: one pack whatever the players, and an official round is five at least."""

    def pack(self, players: int | None, packs: int | None = None) -> PagrucPack:
        return PagrucPack(1)

    def official_problem(self, players: int, packs: int | None = None) -> TableProblem | None:
        return None if players >= 5 else TableProblem(TableFault.NOT_OFFICIAL, players, 5)


def test_G1_check_score_and_the_standings_ask_the_rules_object_s_pack() -> None:
    from pancli.app.check import assess_pagruc
    from pancli.app.lines import InputLine
    from pancli.app.score import PacksProblem, score_pack
    from pancli.app.standings import standings_of

    twice = InputLine("<arg>", 1, "5h 5h 5c")
    assert assess_pagruc(twice).legal
    refused = assess_pagruc(twice, OnePackAlways())
    assert (refused.legal, refused.rule) == (False, Rule.G1)
    assert [score_pack(None, r).packs for r in (PagrucRules(), OnePackAlways())] == [2, 1]
    with pytest.raises(PacksProblem) as caught:
        score_pack(3, PagrucRules())
    assert caught.value.problem == TableProblem(TableFault.PACKS, 0, packs=3)
    sample = str(Path(__file__).resolve().parent.parent / "samples" / "pagruc-common-room.pan")
    book, _ = standings_of([sample], open)
    house, _ = standings_of([sample], open, rules=OnePackAlways())
    assert book.official and [p.message for p in house.problems] == [
        "4 players: fewer than 5 players is not an official round"
    ]


class DealsOnce(PagrucRules):
    """G8 otherwise: a game is one deal each, no more, and every hand scores twice (G7)."""

    def deals_problem(self, deals: Mapping[str, int]) -> DealsProblem | None:
        counts = set(deals.values())
        return None if counts == {1} else DealsProblem(tuple(deals.items()), len(counts) == 1, 1)

    def points(self, c: Card, where: Where) -> int:
        return 2 * super().points(c, where)


def test_G8_pan_standings_referees_and_judges_by_the_rules_object_it_was_handed() -> None:
    from pancli.app.standings import standings_of

    sample = Path(__file__).resolve().parent.parent / "samples" / "pagruc-common-room.pan"
    text = sample.read_text(encoding="utf-8")
    first, rest = text.split("\n\n[Event", 1)
    book, _ = standings_of([str(sample)], open)
    house, _ = standings_of([str(sample)], open, rules=DealsOnce())
    assert book.official and {p.rule for p in house.problems} == {Rule.G7}  # the claims are the book's
    assert book.totals and house.totals == {p: 2 * n for p, n in book.totals.items()}
    twice = io.StringIO(first + "\n\n[Event" + rest + "\n\n[Event" + rest)
    deals = [p.message for p in standings_of(["x"], lambda _: twice, rules=DealsOnce())[0].problems if p.rule == "G8"]
    assert "every player deals the same number of times; deals: Ana 2, Ben 2, Cruz 2, Dee 1" in deals
    # each dealt twice: official by the book, not by the house's one deal each
    for rules, said in ((PagrucRules(), []), (DealsOnce(), ["each player dealt 2 times: at most 1 deals each"])):
        again = text.rstrip("\n") + "\n\n" + text
        problems = standings_of(["x"], lambda _, t=again: io.StringIO(t), rules=rules)[0].problems
        assert [p.message for p in problems if p.rule == "G8" and "deal" in p.message and "times" in p.message] == said


class WinnerDeals(PanRules):
    """S3 where the winner deals the next hand (he plays last)."""

    def next_order(self, players: Sequence[str], winner: str | None) -> tuple[str, ...] | None:
        order = super().next_order(players, winner)
        return None if order is None else (*order[1:], order[0])


class _Results:
    """A sink of the record judge that keeps each hand's result."""

    wants_steps = False

    def __init__(self) -> None:
        self.results: list[Any] = []

    def hand(self, report: Any) -> None:
        self.results.append(report.result)

    def malformed(self, hand: Any) -> None:  # pragma: no cover - the records here are well formed
        raise AssertionError(hand)


def _judged_orders(text: str, rules: PanRules) -> list[str]:
    """The rule of each hand's first violation (S3 stops a hand before play), judging the record's
    hands in order as ``pan replay`` does, with ``rules`` for every hand."""
    from pancli.app.replay import RecordJudge, Tally
    from pancli.panrules import PanRulesByProfile
    from pancli.records import read_hands

    sink = _Results()
    judge = RecordJudge(sink, None, rules_by_profile=PanRulesByProfile(lambda p: type(rules)(p)))
    for hand in read_hands(io.StringIO(text)):
        judge.hand(hand, Tally())
    return [r.violations[0].rule if r.violations else "" for r in sink.results]


def test_S3_self_play_the_record_judge_and_live_ask_next_order(tmp_path: Path) -> None:
    from live_kit import HAND_1, PLAYERS

    from pancli.app.live import LiveOptions, Session
    from pancli.notation.record_writer import write_script
    from pancli.panrules import PanRulesByProfile
    from pancli.referee.simulate import simulate_hands

    names = ("Ana", "Ben", "Cruz", "Dee")
    for rules, other in ((PanRules(HOYLE), WinnerDeals(HOYLE)), (WinnerDeals(HOYLE), PanRules(HOYLE))):
        played = list(simulate_hands(names, 6, 5, HOYLE, rules=rules))
        winners = [referee_script(h, rules=rules).winner for h in played]
        assert [h.players for h in played[1:]] == [
            rules.next_order(h.players, w) or (*h.players[1:], h.players[0])
            for h, w in zip(played[:-1], winners[:-1], strict=True)
        ]
        text = "\n\n".join(write_script(h) for h in played)
        assert set(_judged_orders(text, rules)) == {""}  # self-play seats each hand as the judge expects
        assert "S3" in _judged_orders(text, other)
    with Session(str(tmp_path / "night.pan"), LiveOptions(tuple(PLAYERS.split()))) as session:
        session.judge.rules_by_profile = PanRulesByProfile(WinnerDeals)
        for line in HAND_1.strip().split("\n"):
            session.enter(line)
        assert session.previous is not None and session.previous.winner == "Ana"
        assert session.header[-1] == '[Players "Ben Cruz Dee Ana"]'  # Ana won: she deals, last


class TurnsBack(PagrucRules):
    """G8 where the deal passes the other way: the dealer's right deals next."""

    def next_order(self, players: Sequence[str]) -> tuple[str, ...]:
        return (players[-1], *players[:-1])


def test_G8_the_standings_and_live_ask_the_rules_object_s_next_order(tmp_path: Path) -> None:
    from pancli.app.live import LiveOptions, Session
    from pancli.app.standings import game_standings, read_game

    sample = Path(__file__).resolve().parent.parent / "samples" / "pagruc-common-room.pan"
    hands, unreadable, _ = read_game([str(sample)], open)
    assert unreadable == [] and game_standings(hands).official
    assert not game_standings(hands, PagrucRules()).problems
    assert {p.rule for p in game_standings(hands, TurnsBack()).problems} == {Rule.G8}
    first = sample.read_text().split("\n\n[Event")[0].split("\n")
    lines = [x for x in first if x and x[0] not in "[;{"]
    with Session(str(tmp_path / "game.pan"), LiveOptions(("Ana", "Ben", "Cruz", "Dee"), game=Game.PAGRUC)) as session:
        for line in lines:
            session.enter(line)
        assert session.header[-1] == '[Players "Ben Cruz Dee Ana"]'  # G8: Ana played first, Dee dealt
    with Session(str(tmp_path / "back.pan"), LiveOptions(("Ana", "Ben", "Cruz", "Dee"), game=Game.PAGRUC)) as session:
        session.judge.pagruc_rules = TurnsBack()
        for line in lines:
            session.enter(line)
        assert session.header[-1] == '[Players "Dee Ana Ben Cruz"]'  # the rules object handed in


def test_G7_G1_pan_check_s_pagruc_notes_are_the_rules_object_s_answers() -> None:
    """The notes ``pan check --game pagruc`` gives a legal meld: what an ace scores in it (G7,
    ``points``) and the packs it needs (G1, ``pack``), in the rules object's numbers."""
    from pancli.app.check import assess_pagruc
    from pancli.app.lines import InputLine
    from pancli.render.check import check_reason

    def reasons(rules: PagrucRules) -> list[str]:
        melds = ("Ac Ad As", "Ah 2h 3h", "5h 5h 5c")
        return [check_reason(assess_pagruc(InputLine("<arg>", 1, t), rules)) for t in melds]

    assert reasons(PagrucRules()) == [
        "set of aces: aces 15 each in a set",
        "run of hearts: the ace counts 1 in a run",
        "set of 5s: needs two packs (the same card twice)",
    ]
    assert reasons(DoubledPoints())[:2] == [
        "set of aces: aces 30 each in a set",
        "run of hearts: the ace counts 2 in a run",
    ]
    assert reasons(TwoPacksAlways())[2] == "set of 5s"  # every table has two packs: nothing to note


def test_pan_check_builds_one_pagruc_rules_object_for_its_melds(monkeypatch: pytest.MonkeyPatch) -> None:
    from click.testing import CliRunner

    from pancli.cli.check import check

    built: list[PagrucRules] = []
    monkeypatch.setattr(PagrucRules, "__init__", lambda self: built.append(self))
    got = CliRunner().invoke(check, ["--game", "pagruc", "Ac Ad As", "5h 6h 7h", "Qh Kh Ah"])
    assert got.exit_code == 1 and len(built) == 1


class LowestFirst(PagrucRules):
    """G9 otherwise: the lowest total ranks first."""

    def pagruc_points(self, totals: Mapping[str, int]) -> dict[str, tuple[int, int]]:
        return super().pagruc_points({p: -t for p, t in totals.items()})


def test_G9_the_standings_ask_the_rules_object_s_places_and_points() -> None:
    from pancli.app.standings import game_standings, read_game

    sample = Path(__file__).resolve().parent.parent / "samples" / "pagruc-common-room.pan"
    hands, _, _ = read_game([str(sample)], open)
    book, house = game_standings(hands, PagrucRules()), game_standings(hands, LowestFirst())
    assert book.official and house.official and book.totals is not None and house.totals == book.totals
    ranked = {s.player: (s.place, s.points) for s in house.table}
    assert ranked == LowestFirst().pagruc_points(book.totals) != PagrucRules().pagruc_points(book.totals)


class LaysOffFirst(PagrucRules):
    """G5 otherwise: a player may lay off before he has a meld of his own."""

    def may_lay_off(self, has_meld: bool) -> bool:
        return True


def test_G5_the_pagruc_referee_asks_whether_a_player_may_lay_off() -> None:
    from pagruc_build import DEALS, OPENING, script, turn

    hand = script("Ana Ben Cy", DEALS, "Kh", OPENING[0], turn("Ben", "draw 8h", "lay 8h on Ana#1", "discard 8c"))
    book = pagruc_referee.referee_script(hand, strict=False)
    assert [(v.rule, v.message) for v in book.violations] == [
        (Rule.G5, "Ben has no meld on the table yet, so may not lay off")
    ]
    house = pagruc_referee.referee_script(hand, rules=LaysOffFirst(), strict=False)
    assert house.violations == () and [str(m.meld) for m in house.table] == ["5h 6h 7h 8h", "Ac Ad As"]


class MeldsTheLastCard(PagrucRules):
    """G6 otherwise: no card need be kept to discard (the turn's end is then G3's to judge)."""

    def kept_card_to_discard(self, cards_left: int) -> bool:
        return True


def test_G6_the_pagruc_referee_asks_whether_a_card_was_kept_to_discard() -> None:
    from pagruc_build import DEALS, OPENING, script, turn

    ana = turn("Ana", "draw Th", "discard Th")
    hand = script("Ana Ben Cy", DEALS, "Kh", *OPENING, ana, turn("Ben", "draw 9c", "add 8c 9c to #1"))
    book = pagruc_referee.referee_script(hand, strict=False)
    house = pagruc_referee.referee_script(hand, rules=MeldsTheLastCard(), strict=False)
    assert [(v.rule, v.message) for v in book.violations] == [
        (Rule.G6, "Ben melded the last card in hand: one card is kept to discard, and that discard ends the hand")
    ]
    assert [(v.rule, v.message) for v in house.violations] == [(Rule.G3, "Ben's turn does not end with a discard")]


class OnePackHouse(PagrucRules):
    """G1 otherwise: the house owns one pack, and seats no two players of the same initial."""

    def packs_problem(self, packs: int) -> TableProblem | None:
        return None if packs == 1 else TableProblem(TableFault.PACKS, 0, packs=packs)

    def seating_problem(self, players: Sequence[str], packs: int | None = None) -> TableProblem | None:
        why = super().seating_problem(players, packs)
        if why is not None or len({p[0] for p in players}) == len(players):
            return why
        return TableProblem(TableFault.LISTED_TWICE, len(players), names=tuple(p[0] for p in players))


def test_G1_the_pagruc_board_and_seating_ask_the_rules_object_s_packs_and_seating() -> None:
    from pagruc_build import DEALS, OPENING, script

    two = script("Ana Ben Cy", DEALS, "Kh", *OPENING, packs=2)
    book, house = (pagruc_referee.referee_script(two, rules=r, strict=False) for r in (PagrucRules(), OnePackHouse()))
    assert (book.packs, book.violations) == (2, ())
    assert house.packs == 1 and [(v.rule, v.message) for v in house.violations] == [
        (Rule.G1, "one or two 52-card packs, not 2")
    ]
    initials = script("P1 P2 P3", {}, "Kh")
    assert pagruc_referee.referee_script(initials, strict=False).violations == ()
    seated = pagruc_referee.referee_script(initials, rules=OnePackHouse(), strict=False)
    assert [(v.rule, v.message) for v in seated.violations] == [(Rule.G1, "a player is listed twice: P P P")]


PAGRUC_CHANGED: Final = {
    Rule.G1: TwoPacksAlways,
    Rule.G4: RunsOnly,
    Rule.G5: NoLayOffs,
    Rule.G6: EndsAtOne,
    Rule.G2: DealsSix,
    Rule.G7: DoubledPoints,
    Rule.G8: TurnsBack,
}
"""Each PAGRUC rule answered otherwise by a subclass of PAGRUC's rules object in a test here."""


class DoubleForfeit(PanRules):
    """T2 where a player who went on top pays the winner twice the forfeit."""

    def owes_winner(self, went_on_top: bool) -> tuple[int, int]:
        forfeit, top = super().owes_winner(went_on_top)
        return (2 * forfeit, top)


CHANGED: Final = {
    Rule.I1: ElevenDealtStands,
    Rule.E4: OneCopyFewer,
    Rule.C7: MustGain,
    Rule.P9: KeepsEveryDraw,
    Rule.P8: NeverForced,
    Rule.P7: NineCards,
    Rule.C8: DoubleBonus,
    Rule.M3: NoOneSuitSets,
    Rule.M5: NoAdditions,
    Rule.M6: BorrowsFromSetsOnly,
    Rule.E1: NoSevens,
    Rule.S1: SeatsThree,
    Rule.S3: WinnerDeals,
    Rule.T4: VoidOnTops,
    Rule.T2: DoubleForfeit,
    Rule.S2: DealsNine,
    Rule.I3: NeverOut,
    Rule.C1: ValleSetsAreC3,
    Rule.C2: ValleSetsAreC3,
    Rule.C3: ValleSetsAreC3,
    Rule.C4: ValleSetsAreC3,
    Rule.C5: ValleSetsAreC3,
    Rule.C6: DoubleValues,
}
"""Each rule answered otherwise by a subclass of the rules object in a test here."""


def _getter(attr: object) -> object:
    """A property's getter (a marked property decides as its getter), else ``attr``."""
    return attr.fget if isinstance(attr, property) else attr


def test_every_shared_decider_is_changed_by_a_test_here_or_has_its_callers_compared() -> None:
    """A shared rule added to the registry needs a test that drives its callers."""
    for rule, cls in CHANGED.items():
        name = DECIDERS[rule].__name__
        assert name in vars(cls) and DECIDERS[rule] is _getter(getattr(PanRules, name)), rule
    for rule, pcls in PAGRUC_CHANGED.items():
        name = DECIDERS[rule].__name__
        assert name in vars(pcls) and DECIDERS[rule] is _getter(getattr(PagrucRules, name)), rule
    compared = {Rule.E2, Rule.M1, Rule.M2, Rule.M4}
    assert set(CHANGED) | set(PAGRUC_CHANGED) | compared == SHARED


# --------------------------------------------------------------------------- the registry, whole


def test_every_rule_is_marked_on_exactly_one_callable_or_has_a_reason_for_none() -> None:
    marked = Counter(Rule(r) for _, d in marks() if d.main for r in d.rules)
    assert [r for r, n in marked.items() if n > 1] == []
    assert set(marked) == set(DECIDERS) and set(DECIDERS) | set(NO_DECIDER) == set(Rule)
    assert DECIDERS.keys().isdisjoint(NO_DECIDER.keys())


def test_a_second_mark_of_a_rule_is_found() -> None:
    """The count above can fail: a judge of its own marked with P8 is a second decider."""

    @decides(Rule.P8, what="a second answer to P8")
    def second_forcing(n: int) -> int:
        return n

    module = types.ModuleType("second")
    second_forcing.__module__ = module.__name__
    module.second_forcing = second_forcing  # type: ignore[attr-defined]
    marked = Counter(Rule(r) for _, d in marks((*MARKED_IN, module)) if d.main for r in d.rules)
    assert marked[Rule.P8] == 2


_MARKED_LAYERS = ("pancli.referee", "pancli.pagruc", "pancli.analyze", "pancli.model")


def _modules() -> list[str]:
    import pancli

    names = [m.name for m in pkgutil.iter_modules(pancli.__path__, "pancli.") if not m.ispkg]
    for package in _MARKED_LAYERS:
        path = importlib.import_module(package).__path__
        names += [m.name for m in pkgutil.iter_modules(path, f"{package}.")]
    return sorted(n for n in names if n != "pancli.__main__")


def test_no_mark_is_left_out_of_the_registry() -> None:
    """Every module of core and the judges: a mark outside :data:`MARKED_IN` would decide nothing."""
    modules = tuple(importlib.import_module(n) for n in _modules())
    everywhere = {f for f, _ in marks(modules)}
    assert everywhere == {f for f, _ in marks()}
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
    assert _getter(pkgutil.resolve_name(_dotted(DECIDERS[rule]))) is DECIDERS[rule]


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


def test_C8_the_analyzer_and_the_review_ask_going_out_value() -> None:
    from pancli.analyze.analysis import analyze
    from pancli.analyze.review import Memo, Options
    from pancli.app.replay import referee
    from pancli.app.review import review_hand

    hand = list(fast_cards("5s 5s 5s 5s 2h 3h 4h Kc Kd Ks"))
    plain, doubled = (
        analyze(hand, HOYLE, players=6, samples=50, rules=r) for r in (PanRules(HOYLE), DoubleBonus(HOYLE))
    )
    out = [(plain.out_value(r), doubled.out_value(r)) for r in plain.rows if r.out]
    assert out and all(twice == once + HOYLE.out_bonus for once, twice in out)
    # the review's stakes and going-out payments are the rules object's too
    opts = Options(samples=20, advice_samples=10, depth=2)
    (h, *_) = _hands(_sample("friday-hoyle.pan"))

    def figures(rules: PanRules) -> list[tuple[float, float]]:
        review = review_hand(h, h.script, referee(h.script), opts, memo=Memo(rules))
        return [(j.chips, j.out_part) for j in review.judgements]

    assert figures(PanRules(HOYLE)) != figures(DoubleBonus(HOYLE))


class HouseShare(PanRules):
    """C6-C8 collected with the house paying one share more than the opponents (a house rule a
    club might play): what so many payers come to in all is the rules object's answer."""

    def collected(self, units: Any, payers: int) -> Any:
        return units * (payers + 1)


def test_C6_C8_the_review_asks_collected_what_the_payers_come_to() -> None:
    """The reviewer never multiplies by the number of payers itself: what a play collects in all,
    at once and at the next draw and by going out, is the rules object's ``collected``."""
    from pancli.analyze.arrange import HandContext
    from pancli.analyze.review import Memo, Options, _after
    from pancli.app.replay import referee
    from pancli.app.review import review_hand
    from pancli.meldspace import SLOT_OF

    hand = fast_cards("5s 5s 5s 2h 3h 4h Kd Kh Kc 7c")
    arr = HandContext(hand, HOYLE, (), PanRules(HOYLE).meld_space()).using(SLOT_OF[fast_cards("5h")[0]])
    assert arr is not None
    (chips, _), (more, _) = (_after(arr, (), r, 3) for r in (PanRules(HOYLE), HouseShare(HOYLE)))
    assert (chips, more) == (arr.value * 3, arr.value * 4)
    opts = Options(samples=20, advice_samples=10, depth=2)
    (h, *_) = _hands(_sample("friday-hoyle.pan"))

    def figures(rules: PanRules) -> list[tuple[float, float]]:
        review = review_hand(h, h.script, referee(h.script), opts, memo=Memo(rules))
        return [(j.chips, j.out_part) for j in review.judgements]

    assert figures(PanRules(HOYLE)) != figures(HouseShare(HOYLE))


def test_C6_C8_the_advice_asks_collected_what_the_payers_come_to() -> None:
    """The advice's simulation never multiplies a payment by the opponents itself: what a meld
    or going out collects from the others in all is the rules object's ``collected``, asked once
    for each distinct payment of a call (not once a meld)."""
    from pancli.analyze.advice import advise
    from pancli.analyze.analysis import analyze

    asked: list[tuple[Any, int]] = []

    class AskedShare(HouseShare):
        def collected(self, units: Any, payers: int) -> Any:
            asked.append((units, payers))
            return super().collected(units, payers)

    hand = list(fast_cards("5s 5s 5s 2h 3h 4h Kd Kh Kc 2c"))
    a = analyze(hand, HOYLE, players=4, samples=30)
    plain = advise(a, PanRules(HOYLE), samples=300, seed=3)
    house = advise(a, AskedShare(HOYLE), samples=300, seed=3)
    assert (house.won, house.void, house.top) == (plain.won, plain.void, plain.top)  # the same hands played
    assert house.won > 0 and house.stay > plain.stay  # each win and meld of his collects a share more
    assert asked and {payers for _, payers in asked} == {3} and len(asked) == len(set(asked))


def test_C6_C8_pay_asks_collected_and_payers() -> None:
    """``pan pay``'s total, from its arguments and from a pipe, is the rules object's
    ``collected`` of what each opponent pays, from the rules object's ``payers``."""
    from pancli.app.lines import InputLine
    from pancli.app.pay import PayBatch, pay_report
    from pancli.render.pay import summary_text

    items = [InputLine("<arg>", 1, "5s 5s 5s")]
    plain, shared = (pay_report(items, 4, r, False) for r in (PanRules(HOYLE), HouseShare(HOYLE)))
    assert (plain.per_opponent, plain.opponents, plain.total) == (4, 3, 12)
    assert (shared.per_opponent, shared.opponents, shared.total) == (4, 3, 16)
    assert "total\t16\t" in summary_text(shared)
    batch = PayBatch("-", HouseShare(HOYLE), 4, True)
    line = batch.line("5s 5s 5s")
    assert line is not None and line.counts is not None and batch.take(line.counts) is None
    batch.count(line)
    report = batch.report()
    assert report.total == HouseShare(HOYLE).collected(report.per_opponent, 3)


def test_C6_C8_a_replay_s_collection_lines_are_the_rules_object_s_collected() -> None:
    """Every collection a replay writes ("4 from each of Ben Cruz = 8") says in all what the
    referee's rules object's ``collected`` answered where the collection was made."""
    from pancli.render.words import collection_lines, collections

    (h, *_) = _hands(_sample("friday-hoyle.pan"))
    plain, shared = (referee_script(h.script, rules=r) for r in (PanRules(HOYLE), HouseShare(HOYLE)))
    groups = [c for c in collections(shared.payments) if not c.returned and len(c.payers) > 1]
    assert groups and all(c.total == c.units * (len(c.payers) + 1) == c.units * len(c.payers) + c.house for c in groups)
    said = [re.search(r": (\d+) from each of ([^=]+) and (\d+) from the house = (\d+)$", line) for line in
            collection_lines(shared.payments, shared.going_out)]  # fmt: skip
    amounts = [(int(m[1]), len(m[2].split()), int(m[3]), int(m[4])) for m in said if m is not None]
    assert len(amounts) == len(groups) and all(
        house == units and total == units * (n + 1) for units, n, house, total in amounts
    )
    assert [c.total for c in collections(plain.payments)] == [
        c.units * len(c.payers) for c in collections(plain.payments)
    ]
    assert HOUSE not in plain.ledger and not any(c.house for c in collections(plain.payments))


def test_C6_C8_C9_the_ledger_credits_what_the_collection_line_says_and_the_house_pays_the_rest() -> None:
    """A collection that comes to more than its payers pay (HouseShare) is paid up by the house:
    the collector's net is what the lines say he collected, the house's is what it paid, and the
    net still sums to zero (C9); a collection short of it (a cut) is the house's to take. pan pay
    says the same total and the house's part in it."""
    from pancli.app.lines import InputLine
    from pancli.app.pay import pay_report
    from pancli.render.pay import summary_text
    from pancli.render.words import collection_lines, collections

    (h, *_) = _hands(_sample("friday-hoyle.pan"))
    for rules, sign in ((HouseShare(HOYLE), 1), (HouseCut(HOYLE), -1)):
        r = referee_script(h.script, rules=rules)
        made = [c for c in collections(r.payments) if not c.returned]
        assert sum(r.ledger.values()) == 0
        for p in r.players:  # what he collected, as the lines say, less what he paid others
            assert r.ledger[p] == sum(c.total for c in made if c.payee == p) - sum(
                c.units for c in made if p in c.payers
            )
        shares = [c.house for c in made if c.house]
        assert shares and all(x * sign > 0 for x in shares) and r.ledger[HOUSE] == -sum(shares)
    items = [InputLine("<arg>", 1, "5s 5s 5s")]
    shared, cut = (pay_report(items, 4, r, False) for r in (HouseShare(HOYLE), HouseCut(HOYLE)))
    assert "total\t16\t4 x 3 + 4 from the house\n" in summary_text(shared)
    assert "total\t11\t4 x 3 - 1 to the house\n" in summary_text(cut)
    # Ana's three fives at a table of four (Ben went on top): the replay's line says what pan pay says
    said = collection_lines(referee_script(h.script, rules=HouseShare(HOYLE)).payments, None)
    ana = "  line 23: Ana collects C2 [5s 5s 5s] valle set, one suit"
    assert said[0] == f"{ana}: 4 from each of Cruz Dee Eli and 4 from the house = 16"


class HouseCut(PanRules):
    """C6-C8 collected less one unit the house takes (a cut): what so many payers come to in all."""

    def collected(self, units: Any, payers: int) -> Any:
        return units * payers - 1


@pytest.mark.parametrize("rules", [HouseShare(HOYLE), HouseCut(HOYLE)], ids=["share", "cut"])
def test_I1_a_retirement_undoes_the_house_s_part_of_what_he_collected(rules: PanRules) -> None:
    """Dee collects twice, then retires (I1): every collection of hers is undone, the house's
    part too (its share back to it, its cut back to her), so her net is what she paid the others,
    as under the book's rules, and the house has no part left of what she collected."""
    (h, *_) = _hands(_sample("irregular-I1-found-late.pan"))
    book, house = (referee_script(h.script, rules=r) for r in (PanRules(HOYLE), rules))
    assert any(p.payee == "Dee" and p.returned_of is None for p in house.payments)
    assert house.retirements and house.retirements[0].player == "Dee"
    assert house.ledger["Dee"] == book.ledger["Dee"] and sum(house.ledger.values()) == 0
    dee = [p for p in house.payments if HOUSE in (p.payer, p.payee) and "Dee" in (p.payer, p.payee)]
    assert dee and sum(p.units if p.payee == HOUSE else -p.units for p in dee) == 0
    kept = [p for p in house.payments if p.returned_of is None]  # what she collected, less the house's cut
    made = sum(p.units for p in kept if p.payee == "Dee")
    made -= sum(p.units for p in kept if p.payer == "Dee" and p.payee == HOUSE)
    (said,) = [r.remedy for r in house.remedies if r.retired]
    assert said.startswith(f"Dee returns the {made} units collected in the hand"), (said, made)


class OnePayerFewer(PanRules):
    """C6-C8 paid by one opponent fewer (a house whose dealer never pays): who pays is the rules
    object's answer."""

    def payers(self, players: int) -> int:
        return players - 2


def test_C6_C8_an_analysis_and_a_position_before_play_ask_payers() -> None:
    """Neither the analysis (its opponents and totals) nor a record position in the decision round
    counts the payers itself (``players - 1``): the rules object's ``payers`` says who pay."""
    from pancli.analyze.analysis import analyze
    from pancli.referee.position import position_at

    hand = list(fast_cards("5s 5s 5s 2h 3h 4h Kd Kh Kc 7c"))
    plain, fewer = (
        analyze(hand, HOYLE, players=4, samples=20, rules=r) for r in (PanRules(HOYLE), OnePayerFewer(HOYLE))
    )
    assert (plain.opponents, fewer.opponents) == (3, 2)
    assert fewer.collected(fewer.best.value) == 2 * fewer.best.value > 0
    (h, *_) = _hands(_sample("friday-hoyle.pan"))
    line = next(e.line for e in h.script.events if isinstance(e, Decision))  # the first decision: five in play
    book, house = (position_at(h.script, line, "Ana", rules=r) for r in (PanRules(HOYLE), OnePayerFewer(HOYLE)))
    assert book.deciding and (book.payers, house.payers) == (4, 3)


def test_C6_an_analysis_s_totals_are_the_rules_object_s_collected() -> None:
    """What ``pan analyze`` shows in all (the best arrangement's, each draw's) is the answer of
    the rules object it was handed, not its own multiplication by the opponents."""
    from pancli.analyze.analysis import analyze
    from pancli.render.analysis import to_json

    hand = list(fast_cards("5s 5s 5s 2h 3h 4h Kd Kh Kc 7c"))
    plain, shared = (analyze(hand, HOYLE, players=4, samples=20, rules=r) for r in (PanRules(HOYLE), HouseShare(HOYLE)))
    assert plain.best.value > 0
    assert plain.collected(plain.best.value) == 3 * plain.best.value
    assert shared.collected(shared.best.value) == 4 * shared.best.value
    rows = [(d["value"], d["total"]) for d in to_json(shared, None)["draws"]]
    assert any(v for v, _ in rows) and all(total == 4 * v for v, total in rows)


def test_T2_the_referee_the_advice_and_the_review_ask_owes_winner() -> None:
    from pancli.analyze.advice import advise
    from pancli.analyze.analysis import analyze
    from pancli.analyze.review import Memo, Options, judge_decision

    def forfeits(rules: PanRules) -> list[int]:
        return [
            p.units
            for h in _simulated(rules, 12)
            for p in referee_script(h, rules=rules).payments
            if p.rules == (Rule.T2,)
        ]

    assert forfeits(PanRules(HOYLE)) and {2 * n for n in forfeits(PanRules(HOYLE))} == set(
        forfeits(DoubleForfeit(HOYLE))
    )
    hand = fast_cards("5s 5s 5s 2h 3h 4h Kd Kh Kc 2c")
    a = analyze(list(hand), HOYLE, players=3, samples=30)
    assert advise(a, samples=30, seed=3, rules=PanRules(HOYLE)).top == -2.0
    assert advise(a, samples=30, seed=3, rules=DoubleForfeit(HOYLE)).top == -4.0
    opts = Options(samples=20, advice_samples=10, depth=2)
    said = [
        judge_decision("Ana", 3, hand, (), False, HOYLE, 3, opts, memo=Memo(r)).note
        for r in (PanRules(HOYLE), DoubleForfeit(HOYLE))
    ]
    assert [getattr(n, "top", None) for n in said] == [-2.0, -4.0]


def test_T2_a_house_with_forfeit_and_ante_costs_both_in_the_referee_and_the_advice() -> None:
    """Going on top under a forfeit of 2 and an ante of 1 costs 3: the referee charges it and the
    advice weighs it (they used to say 1, the ante alone)."""
    from pancli.analyze.advice import advise
    from pancli.analyze.analysis import analyze

    house = replace(HOYLE, ante=1)
    rules = PanRules(house)
    assert sum(rules.owes_winner(True)) == 3
    paid: Counter[tuple[int, str]] = Counter()
    for k, h in enumerate(_simulated(rules, 12)):
        toppers = {d.player for d in h.events if isinstance(d, Decision) and not d.stay}
        for p in referee_script(h, rules=rules).payments:
            if p.rules == (Rule.T2,) and p.payer in toppers:
                paid[k, p.payer] += p.units
    assert paid and set(paid.values()) == {3}
    a = analyze(list(fast_cards("5s 5s 5s 2h 3h 4h Kd Kh Kc 2c")), house, players=3, samples=30)
    assert advise(a, samples=30, seed=3, rules=rules).top == -3.0


def _counting_rules(monkeypatch: pytest.MonkeyPatch) -> list[PanRules]:
    """Every PanRules built from now on, in order."""
    made: list[PanRules] = []
    plain = PanRules.__init__

    def counting(self: PanRules, profile: Any) -> None:
        made.append(self)
        plain(self, profile)

    monkeypatch.setattr(PanRules, "__init__", counting)
    return made


def test_one_rules_object_per_profile_serves_a_whole_review(monkeypatch: pytest.MonkeyPatch) -> None:
    """The review's referee, its positions (the walked table: P8, P9, E4) and its reviewer (the
    meld space, T2, T4) ask one rules object per profile, the one of the run's ``make``."""
    from pancli.analyze.review import Options
    from pancli.app.review import HandReview, review_files
    from pancli.cli.common import open_text
    from pancli.panrules import PanRulesByProfile

    made = _counting_rules(monkeypatch)
    reviews: list[HandReview] = []
    runs = PanRulesByProfile(make=KeepsEveryDraw)
    review_files(["samples/friday-hoyle.pan"], reviews.append, open_record=open_text,
                 opts=Options(samples=20, advice_samples=10, depth=2), rules_by_profile=runs)  # fmt: skip
    assert sum(len(r.judgements) for r in reviews) > 10
    assert len(made) == 1 and type(made[0]) is KeepsEveryDraw  # before: the walk and the reviewer built their own


def test_analyze_at_asks_one_rules_object_for_the_position_and_its_analysis(monkeypatch: pytest.MonkeyPatch) -> None:
    from pancli.app.analyze import Job, read_position
    from pancli.cli.common import open_text

    made = _counting_rules(monkeypatch)
    job = Job(HOYLE, 4, 20, 1, False)
    spot = read_position("samples/friday-hoyle.pan", 27, "Cruz", None, open_text, job.rules_of)
    job.at_position(spot)
    assert len(made) == 1


def test_T4_the_review_asks_after_decisions_whether_a_decision_is_a_choice() -> None:
    """A rules object under which one player who stays still plays the hand out (T4 otherwise):
    the review judges the last player's decision after everyone else went on top."""
    from pancli.analyze.review import Memo, Options
    from pancli.app.replay import referee
    from pancli.app.review import review_hand

    class PlaysAlone(PanRules):
        def after_decisions(self, stayed: int) -> Ending | None:
            return None if stayed else Ending.VOID

    deals = {"Ana": "5s 5s 2h 3h Kd Kh Kc 2c 7d Jc", "Ben": "2d 2d 6c Jd Jd Qs 4s 4s 6h 7c"}
    text = "\n".join([f'[Players "{" ".join(deals)}"]', "", *(f"deal {p} {c}" for p, c in deals.items()),
                      "up 4c", "Ana top", "Ben stay"]) + "\n"  # fmt: skip
    (h,) = _hands(text)
    opts = Options(samples=20, advice_samples=10, depth=2)

    def ben_judged(rules: PanRules) -> bool:
        review = review_hand(h, h.script, referee(h.script), opts, memo=Memo(rules))
        return any(j.player == "Ben" for j in review.judgements)

    assert not ben_judged(PanRules(HOYLE))
    assert ben_judged(PlaysAlone(HOYLE))


def test_G4_the_replay_s_judge_asks_the_pagruc_rules_object_it_is_given() -> None:
    """RecordJudge hands its PAGRUC rules object to every PAGRUC hand (before, each hand got a fresh one)."""
    from pancli.app.replay import RecordJudge, Tally
    from pancli.app.report import HandReport
    from pancli.records import read_hands

    class Kept:
        wants_steps = False

        def __init__(self) -> None:
            self.results: list[Any] = []

        def hand(self, report: HandReport) -> None:
            self.results.append(report.result)

        def malformed(self, hand: Any) -> None:
            raise AssertionError(hand)

    def judged(rules: PagrucRules | None) -> set[str]:
        sink = Kept()
        judge = RecordJudge(sink, None, pagruc_rules=rules)
        with open("samples/pagruc-common-room.pan", encoding="utf-8") as f:
            for hand in read_hands(f, "pagruc-common-room.pan"):
                judge.hand(hand, Tally())
        return {str(v.rule) for r in sink.results for v in r.violations}

    assert "G4" not in judged(None)
    assert "G4" in judged(RunsOnly())


def test_E1_self_play_deals_and_the_board_counts_the_pack_the_rules_object_holds() -> None:
    """Self-play shuffles the cards ``copies_of`` says the pack holds, and the board's stock is that
    pack less the deal: no 7 is dealt under NoSevens (the referee would refuse it), 32 cards fewer."""
    from pancli.referee.board import Board
    from pancli.referee.simulate import simulate_hands

    hands = list(simulate_hands(("Ana", "Ben", "Cruz"), 20, 4, HOYLE, rules=NoSevens(HOYLE)))
    dealt = {c.rank for h in hands for d in h.deals for c in d.cards}
    assert len(hands) == 20 and Rank.SEVEN not in dealt and Rank.SIX in dealt
    script = hands[0]
    assert Board(script, rules=PanRules(HOYLE)).stock_n - Board(script, rules=NoSevens(HOYLE)).stock_n == 32


def test_I2_each_question_of_putting_a_foul_meld_right_is_one_named_judge() -> None:
    """Every function that makes an I2 ruling of its own words is a judge of one question, named
    ``*_fault`` (or ``*_ruling``) and listed in the referee's rule table. Before, eight callers
    each decided an I2 question inline and handed its words to one ``put_right_fault``."""
    import ast

    from pancli.referee import play, table

    tree = ast.parse(Path(play.__file__).read_text(encoding="utf-8"))
    makers = {
        f.name
        for f in ast.walk(tree)
        if isinstance(f, ast.FunctionDef)
        and any(isinstance(c, ast.Call) and isinstance(c.func, ast.Name) and c.func.id == "_i2" for c in ast.walk(f))
    }
    row = (table.__doc__ or "").split("\nI2 ", 1)[1].split("\nI3 ", 1)[0]
    assert makers == {m for m in makers if m.endswith(("_fault", "_ruling")) and f".play.{m}`" in row}
    assert {"no_foul_fault", "mend_keeps_fault", "mend_adds_fault", "earlier_foul_back_fault"} <= makers


def test_C6_C8_analyze_at_a_record_position_takes_the_position_s_payers() -> None:
    """``analyze --at`` analyses a record position with the payers the position counted, not a
    player count made from them and counted again (``payers + 1`` asked of ``payers`` again:
    one payer fewer twice under a house whose dealer never pays), and with its active players."""
    from pancli.app.analyze import Job, RecordSpot
    from pancli.referee.position import position_at

    (h, *_) = _hands(_sample("friday-hoyle.pan"))
    line = next(e.line for e in h.script.events if isinstance(e, Decision))  # the first decision: five in play
    for rules, payers in ((PanRules(HOYLE), 4), (OnePayerFewer(HOYLE), 3)):
        pos = position_at(h.script, line, "Ana", rules=rules)
        job = Job(HOYLE, 6, 20, 1, False, rules_by={HOYLE: rules})
        analysis, _ = job.at_position(RecordSpot("friday-hoyle.pan", 1, pos))
        assert (analysis.players, analysis.opponents, pos.payers) == (pos.players, payers, payers)
        assert analysis.collected(analysis.best.value) == rules.collected(analysis.best.value, payers)
