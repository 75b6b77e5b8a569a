"""The last restated rules, asked of the rules object: each caller here followed a comparison, a
bound or a shape of its own, and now asks :class:`pancli.panrules.PanRules`. Each test hands a
subclass that answers the question otherwise to the caller and requires the caller to follow it
(tests/test_one_rule_one_place.py holds the others)."""

from __future__ import annotations

import io
import random
from collections.abc import Iterable, Sequence
from types import SimpleNamespace
from typing import Any, cast

import pytest
from msgspec.structs import replace

from pancli.cards import Card, Rank
from pancli.melds import Meld, MeldError
from pancli.model.actions import HandScript
from pancli.notation.fast import fast_cards
from pancli.panrules import PanRules
from pancli.referee import referee_script
from pancli.referee.board import Seat
from pancli.referee.irregular import Irregularity, inject
from pancli.referee.simulate import simulate_hands
from pancli.refusals import BorrowRefusal, ForceRefusal, SplitRefusal
from pancli.rules import HOYLE


def _hands(text: str) -> list[Any]:
    from pancli.records import read_hands

    return list(read_hands(io.StringIO(text), "case.pan"))


def _referee_rules(text: str | HandScript, rules: PanRules) -> list[str]:
    """The rules the referee asking ``rules`` finds broken in a record text or one hand (``--strict``)."""
    scripts = [h.script for h in _hands(text)] if isinstance(text, str) else [text]
    out: list[str] = []
    for script in scripts:
        result = referee_script(replace(script, profile=rules.profile), rules=rules, remedy=False)
        out += [str(v.rule) for v in result.violations]
    return out


def _both_paths(text: str, rules: PanRules) -> list[str]:
    """:func:`_referee_rules`, requiring the fast and the general path to agree."""
    out: list[str] = []
    for h in _hands(text):
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
    return list(simulate_hands(("Ana", "Ben", "Cruz", "Dee"), hands, 5, rules.profile, rules=rules))


class NoSevens(PanRules):
    """E1 with a pack that holds no 7s."""

    def copies_of(self, c: Card) -> int:
        return 0 if c.rank is Rank.SEVEN else super().copies_of(c)


def test_I1_self_play_s_injector_asks_the_caller_s_rules_object() -> None:
    """The eleventh card an injected I1 deals is one of the caller's pack (no 7 under NoSevens),
    and the place is the one its referee finds I1 at and nothing else."""
    rules = NoSevens(HOYLE)
    extras = []
    for seed in range(12):
        script = next(simulate_hands(("Ana", "Ben", "Cruz"), 1, seed, HOYLE, rules=rules))
        bad = inject(script, Irregularity.I1_EXTRA, random.Random(seed), rules)
        assert bad is not None
        extras += [c for d, e in zip(bad.deals, script.deals, strict=True) for c in d.cards[len(e.cards) :]]
        result = referee_script(bad, rules=rules)
        assert not result.violations and len(result.remedies) == 1
    assert len(extras) == 12 and all(c.rank is not Rank.SEVEN for c in extras)


class OneCopyFewer(PanRules):
    """E4 with one copy fewer of every card in the pack (the comparison changed, not the copies)."""

    def past_the_pack(
        self, seen: Sequence[int], counts: Iterable[tuple[int, int]], copies: Sequence[int] | None = None
    ) -> tuple[int, int] | None:
        return super().past_the_pack(seen, counts, [n - 1 for n in (self.copies if copies is None else copies)])


def test_E4_the_meld_engine_s_judge_grow_and_spread_ask_past_the_pack() -> None:
    """The meld engine's E4 (a meld's own copies: ``judge``, ``grow``, the check batch's spread
    template) is the rules object's comparison, as the referee's count of the pack is."""
    from pancli.app.check import judge_text

    book, fewer = PanRules(HOYLE), OneCopyFewer(HOYLE)
    eight = " ".join(["5s"] * 8)
    assert book.judge(fast_cards(eight)).legal and judge_text(eight, book).legal
    refused = fewer.judge(fast_cards(eight))
    assert (refused.rule, judge_text(eight, fewer).rule) == ("E4", "E4")
    seven = book.judge(fast_cards(" ".join(["5s"] * 7))).meld
    assert seven is not None
    assert not isinstance(book.try_grow(seven, fast_cards("5s")), MeldError)
    grown = fewer.try_grow(seven, fast_cards("5s"))
    assert isinstance(grown, MeldError) and grown.rule == "E4"
    assert (book.spread_rule(8), fewer.spread_rule(8)) == ("M2", None)


class ThreeIsBest(PanRules):
    """C6 where a meld of three is worth one unit more than the book says."""

    def value(self, meld: Meld) -> int:
        return super().value(meld) + (len(meld.cards) == 3)


def test_C7_C8_the_meld_engine_s_grow_and_going_out_ask_value() -> None:
    """Growing compares the values the rules object gives (C6) before and after (C7), and going out
    collects the melds again at those values (C8)."""
    book, three = PanRules(HOYLE), ThreeIsBest(HOYLE)
    rope = book.judge(fast_cards("2h 3h 4h")).meld
    assert rope is not None
    assert not isinstance(book.try_grow(rope, fast_cards("5h")), MeldError)
    lowered = three.try_grow(rope, fast_cards("5h"))  # 1 unit as laid, 0 with four cards
    assert isinstance(lowered, MeldError) and lowered.rule == "C7"
    fives = book.judge(fast_cards("5s 5s 5s")).meld
    assert fives is not None
    assert [r.going_out_value([rope, fives]).melds for r in (book, three)] == [4, 6]


@pytest.mark.parametrize("rules", [PanRules(HOYLE), ThreeIsBest(HOYLE)], ids=["rulebook", "C6"])
def test_C7_the_analyzer_s_additions_ask_value_before_and_after(rules: PanRules) -> None:
    """The search offers the addition to a three-card rope only where the rules object values it
    no lower (the meld space asks ``grow``, which asks ``value``)."""
    from pancli.meldspace import SearchMeld, counts_of, encode

    rope = rules.judge(fast_cards("2h 3h 4h")).meld
    assert rope is not None
    space = rules.meld_space()
    blocks = space.blocks(counts_of(encode(fast_cards("5h Kc Qd"))), (SearchMeld.of(rope, rules),))
    assert [b[3] for b in blocks] == ([0] if type(rules) is PanRules else [])


class NobodyForces(PanRules):
    """P8 where no player may force another (``demand`` mode without the demand)."""

    def may_force(self, forcer: Seat, forced: Seat, in_turn: Seat, card: Card | None) -> ForceRefusal | None:
        return ForceRefusal.FITS_NO_MELD


_FORCED = _deal(
    {"Ana": "5s 5s 2h 3h Kd Kh Kc 2c 7d Jc", "Ben": "2d 2d 6c Jd Jd Qs 4s 4s 6h 7c"},
    "Ana draw 5s, meld [5s 5s 5s], discard 7d",
    "Ben draw 5s, discard 5s",
    "Ben force Ana",
    "Ana take 5s, add 5s to #1, discard Jc",
)
"""Ben forces Ana to take the live 5s, which fits her set of 5s."""


def test_P8_the_referee_positions_live_and_self_play_ask_may_force() -> None:
    """Whether a ``force`` line stands, who a position says may force (what ``pan live`` offers
    after ``NAME force``) and whether self-play writes force lines follow the rules object's
    ``may_force``."""
    from pancli.app.live import Session
    from pancli.model.actions import Force
    from pancli.referee.position import table_now
    from pancli.render.live import candidates

    book, none = PanRules(HOYLE), NobodyForces(HOYLE)
    assert _both_paths(_FORCED, book) == []
    assert _both_paths(_FORCED, none) == ["P8"]
    (hand,) = _hands(_FORCED)
    before = replace(hand.script, events=hand.script.events[:-2])
    offered = []
    for rules in (book, none):
        now = table_now(before, rules)
        session = cast(Session, SimpleNamespace(now=now, players=tuple(hand.script.players)))
        offered.append((now.forcers, candidates(session, "Ben force ")))
    assert offered == [(("Ben",), ["Ana"]), ((), [])]
    forces = [sum(type(e) is Force for h in _simulated(r, 8) for e in h.events) for r in (book, none)]
    assert forces[0] > 0 and forces[1] == 0
    assert all(_referee_rules(h, none) == [] for h in _simulated(none, 8))


class TwoCardMelds(PanRules):
    """M1 where a meld is two cards or more."""

    @property
    def min_meld(self) -> int:
        return 2


def test_M1_the_engine_the_meld_space_positions_and_self_play_ask_min_meld() -> None:
    """The fewest cards of a meld is the rules object's: the meld engine's M1, the check batch's
    spread lengths, the analyzer's candidate melds (the meld space, the search's blocks), a
    position's lays and self-play's melds all start from it."""
    from pancli.analyze.arrange import hand_blocks
    from pancli.meldspace import decode, encode
    from pancli.model.actions import MeldNew, Turn
    from pancli.referee.position import _lays

    book, two = PanRules(HOYLE), TwoCardMelds(HOYLE)
    pair = fast_cards("5s 5s")
    assert book.judge(pair).reason == "a meld is 3 or more cards, not 2" and two.judge(pair).legal
    assert (book.spread_rule(2), two.spread_rule(2)) == (None, "M2")
    hand = encode(fast_cards("5s 5s 6h 7h Kc"))

    def blocks(rules: PanRules) -> list[str]:
        return sorted(" ".join(map(str, decode(b[0]))) for b in hand_blocks(hand, rules.meld_space()))

    assert blocks(book) == []
    assert blocks(two) == ["5s 5s", "6h 7h"]
    assert (_lays(book, pair), _lays(two, pair)) == ((), (pair,))
    played = _simulated(two, 4)
    turns = [e for h in played for e in h.events if isinstance(e, Turn)]
    assert 2 in {len(a.cards) for t in turns for a in t.actions if isinstance(a, MeldNew)}
    assert all(_referee_rules(h, two) == [] for h in played)


def test_M6_M1_what_a_borrow_leaves_is_a_meld_of_min_meld_cards() -> None:
    """A borrow needs a card more than the fewest cards of a meld: four under the rulebook,
    three where a meld is two cards (the referee says so in the rules object's number)."""
    from pancli.rules import CARDROOM

    book, two = PanRules(CARDROOM), TwoCardMelds(CARDROOM)
    rope = book.judge(fast_cards("2h 3h 4h")).meld  # worth nothing, as what a borrow leaves of it
    assert rope is not None
    (four,) = fast_cards("4h")
    assert book.borrow(rope, four).refused is BorrowRefusal.TOO_FEW_CARDS
    left = two.borrow(rope, four).left
    assert left is not None and left.cards == fast_cards("2h 3h")
    record = _deal(
        {"Ana": "5s 5s 2h 3h Kd Kh Kc 2c 7d Jc", "Ben": "2d 2d 6c Jd Jd Qs 4s 4s 6h 7c"},
        "Ana draw 5s, meld [5s 5s 5s], discard 7d",
        "Ben draw 4h, discard 4h",
        "Ana draw 4s, borrow 5s from #1, meld [4s 4s 5s], discard Jc",
    )
    found = [
        v for h in _hands(record) for v in referee_script(replace(h.script, profile=CARDROOM), rules=book).violations
    ]
    assert [(str(v.rule), v.message) for v in found] == [("M6", "#1 has 3 cards; borrowing needs 4 or more")]


class FourCardMelds(PanRules):
    """M1 where a meld is four cards or more."""

    @property
    def min_meld(self) -> int:
        return 4


@pytest.mark.parametrize("rules", [PanRules(HOYLE), TwoCardMelds(HOYLE), FourCardMelds(HOYLE)], ids=type)
def test_M1_the_out_odds_blocks_start_from_min_meld(rules: PanRules) -> None:
    """The analyzer's buildable blocks (the distance to going out) are the smallest melds the rules
    object's ``min_meld`` allows: a meld of ``min_meld`` cards, or one card fewer and a draw."""
    from pancli.meldspace import NSLOT, SLOT_OF, buildable, decode, encode

    least = rules.min_meld
    live = [1] * NSLOT

    def built(hand: str) -> set[tuple[str, str]]:
        cards = fast_cards(hand)
        got = buildable(rules.meld_space(), (), live, encode(cards), SLOT_OF[cards[0]], 0)
        return {(" ".join(map(str, decode(h))), " ".join(map(str, decode(d)))) for h, d, _, _ in got}

    fives = ["5s", "5h", "5d", "5c"]
    sets = built(" ".join(fives))
    assert (" ".join(fives[:least]), "") in sets  # a set of hand cards alone, min_meld of them
    assert all(len(h.split()) + len(d.split()) >= least for h, d in sets)
    assert any(len(h.split()) == least - 1 and d for h, d in sets)  # one card fewer, and a draw
    ropes = built("2h 3h 4h 5h")
    assert (" ".join(["2h", "3h", "4h", "5h"][:least]), "") in ropes
    assert all(len(h.split()) + len(d.split()) >= least for h, d in ropes)


class SplitsAddingNothing(PanRules):
    """M6 where a meld may be split into two without adding a card from the hand."""

    def split(self, meld: Meld, first: Sequence[Card], second: Sequence[Card]) -> Any:
        got = super().split(meld, first, second)
        return replace(got, refused=None) if got.refused is SplitRefusal.ADDS_NOTHING else got


def test_M6_the_referee_asks_the_rules_object_the_shape_of_a_split() -> None:
    """What a split must be (every card of the meld, and hand cards added) is the rules object's
    ``split``: the referee follows a subclass that lets a split add nothing, on both paths."""
    from pancli.rules import CARDROOM

    book, lax = PanRules(CARDROOM), SplitsAddingNothing(CARDROOM)
    rope = book.judge(fast_cards("2h 3h 4h 5h 6h 7h")).meld
    assert rope is not None
    assert book.split(rope, fast_cards("2h 3h 4h"), fast_cards("5h 6h 7h")).refused is SplitRefusal.ADDS_NOTHING
    record = _deal(
        {"Ana": "2h 3h 4h 5h 6h Kd Kh Kc 2c Jc", "Ben": "2d 2d 6c Jd Jd Qs 4s 4s 6s 7c"},
        "Ana draw 7h, meld [2h 3h 4h 5h 6h 7h], discard Jc",
        "Ben draw Qh, discard Qh",
        "Ana draw 3s, split #1 [2h 3h 4h] [5h 6h 7h], discard 3s",
    )
    assert _both_paths(record, book) == ["M6"]
    assert _both_paths(record, lax) == []
    missing = record.replace("[5h 6h 7h]", "[5h 6h]")
    assert _both_paths(missing, lax) == ["M6"]  # every card of the meld, still
