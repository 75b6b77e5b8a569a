"""The fused batch path of ``pan check`` in a pipe (:class:`PlainRows` of a :class:`BatchJudge`) against the reference,
:func:`plain_row` line by line: the same bytes on stdout and stderr, whatever the order of the
cards, the spelling, the profile, or how often its caches start afresh."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from msgspec.structs import replace
from profiles_kit import any_profile

from pancli.app.check import BatchJudge, judge_fields
from pancli.app.lines import STDIN_FILE, batch_text, is_skipped
from pancli.cards import ALL_CARDS, Card, Game, Rank
from pancli.melds import Verdict
from pancli.notation.fast import fast_reject
from pancli.panrules import PanRules
from pancli.render.check import PlainRows, plain_row
from pancli.render.exports import JsonBatch
from pancli.rules import CARDROOM, HOYLE, Profile, profile_from_mapping

TINY = profile_from_mapping({"base": "cardroom", "packs": 5, "conditions": {"C2": {"base": 3, "extra": 2}}})
"""Five packs less a spade suit: four spades break E4, so short spreads already reach it."""
PROFILES = (HOYLE, CARDROOM, TINY)


def reference(lines: list[str], profile: Profile, file: str = STDIN_FILE, before: int = 0) -> tuple[str, str]:
    """What the batch must print: :func:`plain_row` of each line, skipped lines aside."""
    outs, errs = [], []
    for n, text in enumerate(lines, before + 1):
        if file == STDIN_FILE and is_skipped(text):
            continue
        line, suffix = plain_row(text, PanRules(profile))
        outs.append(line)
        if suffix is not None:
            errs.append(f"{file}:{n}{suffix}")
    return "".join(outs), "".join(errs)


def spell(c: Card, rng: random.Random) -> str:
    """A token of ``c``: mostly canonical, sometimes another spelling."""
    text = str(c)
    roll = rng.random()
    if roll < 0.1:
        return text.lower()
    if roll < 0.15:
        return text[0] + {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}[text[1]]
    return text


@st.composite
def batches(draw: st.DrawFn) -> list[str]:
    """Lines drawn from a few multisets of cards (few ranks and suits, so sets, ropes, E2, E4 and
    repeated cards all occur), each written in several orders, plus noise lines."""
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    ranks = rng.sample(range(13), rng.randint(1, 4))
    suits = rng.sample(range(4), rng.randint(1, 4))
    pool = [ALL_CARDS[r * 4 + s] for r in ranks for s in suits]
    if rng.random() < 0.2:
        pool = list(ALL_CARDS)
    lines: list[str] = []
    for _ in range(draw(st.integers(1, 6))):
        cards = [rng.choice(pool) for _ in range(rng.choice((0, 1, 2, 3, 3, 4, 4, 5, 6, 7, 9, 12)))]
        for _ in range(rng.randint(1, 4)):
            rng.shuffle(cards)
            sep = " " if rng.random() < 0.85 else rng.choice((",", ", ", "  ", "\t"))
            lines.append(sep.join(spell(c, rng) for c in cards))
    lines += draw(
        st.lists(st.sampled_from(["", "  ", "# note", "5sss", "3-5h", " 5s 5s 5s", "5s 5s 5s\r", "x"]), max_size=3)
    )
    rng.shuffle(lines)
    return lines


@settings(max_examples=150)
@given(batches(), st.one_of(st.sampled_from(PROFILES), any_profile), st.sampled_from([2, 5, 200_000]), st.booleans())
def test_batch_rows_equal_plain_row_for_every_order_and_spelling(
    lines: list[str], profile: Profile, cache_max: int, stdin: bool
) -> None:
    file = STDIN_FILE if stdin else "<arg>"
    batch = PlainRows(BatchJudge(file, PanRules(profile), cache_max=cache_max), cache_max=cache_max)
    half = len(lines) // 2
    first = batch.rows(lines[:half], 0)
    second = batch.rows(lines[half:], half)  # caches carry over from one block to the next
    want_first = reference(lines[:half], profile, file)
    want_second = reference(lines[half:], profile, file, half)
    assert first == want_first
    assert second == want_second


@settings(max_examples=100)
@given(batches(), st.one_of(st.sampled_from(PROFILES), any_profile))
def test_M1_M4_E2_E4_the_batch_judge_rules_each_line_as_judge_fields_does(lines: list[str], profile: Profile) -> None:
    """What both writers of a batch render from (:class:`BatchJudge`: a meld's text and its ruling,
    values, not text) is, field by field, the judgement of the line on its own."""
    rules = PanRules(profile)
    judge = BatchJudge(STDIN_FILE, rules)
    for text in lines * 2:  # the second time from what the judge remembers
        row = judge.row(text)
        if is_skipped(text):
            assert row is None
            continue
        assert row is not None
        meld, r = row
        col, want, legal, kind, shape, conds, value, rule, reason, _, _ = judge_fields(
            batch_text(text), rules, Game.PANGUINGUE
        )
        got = (r.col, meld, r.legal, r.kind, r.shape, r.conditions, r.value, r.rule, r.full_reason(meld))
        assert got == (col, want, legal, kind, shape, conds, value, rule, reason)


def every_order(cards: str) -> list[str]:
    return [" ".join(p) for p in dict.fromkeys(itertools.permutations(cards.split()))]


def test_M2_E4_reasons_that_name_one_card_follow_each_order() -> None:
    # Two repeated ranks in one suit (M2 names the first repeated), two ninth copies (E4 names the
    # first), a mixed set (M3 quotes the text), a gap (M2), a wrap (E2), a set and a rope.
    for cards in (
        "5h 5h 6h 6h 7h",
        "3c 3c 4c",
        "Kc 5s Kc 5s Kc",
        "7c 7s 7s",
        "2h 4h 6h",
        "Qh Kh Ah",
        "Ah Kh Ac",
        "Jd 6d 7d",
    ):
        lines = every_order(cards)
        for profile in PROFILES:
            assert PlainRows(BatchJudge(STDIN_FILE, PanRules(profile))).rows(lines, 0) == reference(lines, profile)
    nine = ["5s"] * 9 + ["5h"] * 9
    lines = [" ".join(random.Random(i).sample(nine, 18)) for i in range(30)]
    for profile in PROFILES:
        assert PlainRows(BatchJudge(STDIN_FILE, PanRules(profile))).rows(lines, 0) == reference(lines, profile)


def test_E4_long_spreads_and_lines_beyond_the_key_width_match_the_reference() -> None:
    rng = random.Random(7)
    pan = [c for c in ALL_CARDS if c.rank.in_pan_pack]
    lines = [" ".join(str(rng.choice(pan)) for _ in range(k)) for k in (3, 4, 5, 7, 8, 9, 30, 31, 32, 33, 120)]
    lines += [" ".join(["Ks"] * k) for k in (8, 9, 31, 32)]
    # Two ranks and two suits but too many copies of one card: E4 comes before M2 (four spades
    # already break it under TINY, eight under CARDROOM, nine under HOYLE).
    lines += [" ".join(["5s"] * k + ["Kh"]) for k in (4, 5, 7, 8, 9)] + ["Kh " + " ".join(["5h"] * 9)]
    for profile in PROFILES:
        assert PlainRows(BatchJudge(STDIN_FILE, PanRules(profile))).rows(lines, 0) == reference(lines, profile)


@settings(max_examples=200)
@given(
    st.lists(
        st.tuples(
            st.integers(0, 3),
            st.sampled_from(sorted("{}|!?;<>()=*&^%$@~`/\\[5")),
            st.text(alphabet=st.sampled_from(list("5s 3-5h[]{},KQJA10♠x\t\x1b\x00\u202e")), max_size=12),
        ).map(lambda t: " " * t[0] + t[1] + t[2]),
        max_size=20,
    )
)
def test_lines_refused_from_their_first_character_print_what_plain_row_prints(lines: list[str]) -> None:
    """``{comment}`` and ``[`` lines take a ruling made once per error (:class:`BatchJudge`)
    instead of a judgement each: the same meld and ruling as :func:`judge_fields`, the same row and
    error line as the reference, control characters escaped alike."""
    rules = PanRules(HOYLE)
    judge = BatchJudge(STDIN_FILE, rules)
    for text in lines:
        row = judge.row(text)
        if row is not None and fast_reject(batch_text(text)) is not None:
            meld, r = row
            col, want_meld, legal, _, _, _, _, rule, reason, _, _ = judge_fields(
                batch_text(text), rules, Game.PANGUINGUE
            )
            assert (r.col, meld, r.legal, r.rule, r.reason) == (col, want_meld, legal, rule, reason)
            assert judge.row(text) == row
    assert PlainRows(BatchJudge(STDIN_FILE, PanRules(HOYLE))).rows(lines, 0) == reference(lines, HOYLE)


class KingsApart(PanRules):
    """M2 in other words for a spread holding a king: a judge the spread template cannot know."""

    @property
    def order_free(self) -> bool:  # its words follow the cards, not their order
        return True

    def judge(self, cards: tuple[Card, ...]) -> Verdict:
        v = super().judge(cards)
        if v.rule == "M2" and any(c.rank is Rank.KING for c in cards):
            why = "kings stand apart in this house"
            return replace(v, reason=why, lead=why, then_meld=False)
        return v


class NoSevens(PanRules):
    """E1 with a pack that holds no 7s."""

    def copies_of(self, c: Card) -> int:
        return 0 if c.rank is Rank.SEVEN else super().copies_of(c)


@pytest.mark.parametrize("rules", [KingsApart(HOYLE), NoSevens(HOYLE)], ids=type)
def test_M2_E1_the_batch_s_spread_template_follows_the_rules_object_s_judge(rules: PanRules) -> None:
    lines = ["As 2h 3s", "Ks Qh Jc", "Kh 2s 3d 4c", "7s 2h 3c", "2c 7h Qd Qd", "As 2h 3s"]
    outs, errs = [], []
    for n, text in enumerate(lines, 1):
        line, suffix = plain_row(text, rules)
        outs.append(line)
        errs += [] if suffix is None else [f"{STDIN_FILE}:{n}{suffix}"]
    assert PlainRows(BatchJudge(STDIN_FILE, rules)).rows(lines, 0) == ("".join(outs), "".join(errs))
    assert "kings stand apart" in "".join(errs) or "7s is not in this pack" in "".join(errs)


class LongWinded(PanRules):
    """M2 and M3 that quote the meld after 280 characters: an error line quotes 300 of a reason."""

    @property
    def order_free(self) -> bool:  # its words follow the cards, not their order
        return True

    def judge(self, cards: tuple[Card, ...]) -> Verdict:
        v = super().judge(cards)
        if v.then_meld:
            lead = "x" * 280 + " "
            return replace(v, reason=lead + " ".join(map(str, cards)), lead=lead)
        return v


def test_M2_a_reason_ending_with_the_meld_is_cut_short_by_the_writers_as_alone() -> None:
    """The judge shares a ruling whose reason ends with the meld's text however long the meld
    (``then_meld``); the writers cut the error line's reason short where a line judged alone is
    cut: spreads (M2) and keyed lines (M3, any order), short enough and one card too long."""
    rules = LongWinded(HOYLE)
    lines = ["As 2h 3s", "As 2h 3s 4d 5c 6h 7s", "7c 7s 7s", "7c 7s 7s 7s 7d 7d 7h", "As 2h 3s 4d 5c 6h 7s",
             "7s 7c 7s 7s 7d 7h 7d"]  # fmt: skip
    outs, errs = [], []
    for n, text in enumerate(lines, 1):
        line, suffix = plain_row(text, rules)
        outs.append(line)
        errs += [] if suffix is None else [f"{STDIN_FILE}:{n}{suffix}"]
    assert [len(e) for e in errs][:4] == [len("-:1:1: M2 ") + 289 + 1, len("-:2:1: M2 ") + 303 + 1,
                                          len("-:3:1: M3 ") + 289 + 1, len("-:4:1: M3 ") + 303 + 1]  # fmt: skip
    assert PlainRows(BatchJudge(STDIN_FILE, rules)).rows(lines, 0) == ("".join(outs), "".join(errs))
    rulings = [BatchJudge(STDIN_FILE, rules).row(t) for t in lines]
    assert all(r is not None and r[1].then_meld for r in rulings)
    [(_, errors)] = JsonBatch(BatchJudge(STDIN_FILE, rules)).slices([lines])
    assert errors == "".join(errs)


def test_M2_M3_the_rows_of_a_block_are_made_a_part_at_a_time_with_the_same_bytes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A block of input is written a part at a time (memory holds one part's rows, not a
    block's): the parts' text, lines numbered across parts and blocks, is the whole block's."""
    import pancli.render.check as render_check

    rng = random.Random(3)
    cards = [str(c) for c in ALL_CARDS if c.rank.in_pan_pack]
    lines = [" ".join(rng.choice(cards) for _ in range(rng.randint(3, 5))) for _ in range(50)]
    lines[7:9] = ["# note", "5sss"]
    blocks = [lines[:23], lines[23:24], lines[24:]]
    whole = PlainRows(BatchJudge(STDIN_FILE, PanRules(HOYLE))).rows(lines, 0)
    monkeypatch.setattr(render_check, "ROWS_AT_ONCE", 4)
    parts = list(PlainRows(BatchJudge(STDIN_FILE, PanRules(HOYLE))).blocks(blocks))
    assert len(parts) == 6 + 1 + 7
    assert ("".join(o for o, _ in parts), "".join(e for _, e in parts)) == whole


class OwnWords(PanRules):
    """M2 and M3 in a house's own words, order-free as the rulebook's judge is (``order_free``):
    a rope's gap quotes the cards as given (no lead: each order is judged), a mixed set quotes
    them first (no lead) or last (its lead, then the meld)."""

    @property
    def order_free(self) -> bool:  # each order judged alike, but for the order its words name them in
        return True

    def judge(self, cards: tuple[Card, ...]) -> Verdict:
        v = super().judge(cards)
        text = " ".join(map(str, cards))
        if v.rule == "M2" and len(set(cards)) == len(cards) and len({c.suit for c in cards}) == 1:
            return Verdict(v.cards, None, "M2", f"{text} is no rope here (a gap)", v.profile)
        if v.rule == "M3" and cards[0].rank is Rank.SEVEN:
            return Verdict(v.cards, None, "M3", f"{text}: sevens of two suits and one", v.profile)
        if v.rule == "M3":
            lead = f"{cards[0].rank.symbol}s are one suit or all suits here, so not "
            return replace(v, reason=lead + text, lead=lead, then_meld=True)
        return v


def test_M2_M3_a_subclass_s_own_words_get_the_rows_of_each_line_judged_alone() -> None:
    """The batch shares between orders of the same cards what the verdict gives as order-free
    (``Verdict.lead``), whatever the judge's words: a reason naming the cards in their order
    without a lead is the judge's for each order, never the first order's cut short."""
    rules = OwnWords(HOYLE)
    lines = [*every_order("2s 3s 5s"), *every_order("7c 7s 7s"), *every_order("5c 5s 5s"), "As 2h 3s"]
    outs, errs = [], []
    for n, text in enumerate(lines, 1):
        line, suffix = plain_row(text, rules)
        outs.append(line)
        errs += [] if suffix is None else [f"{STDIN_FILE}:{n}{suffix}"]
    assert "3s 2s 5s is no rope here" in "".join(errs) and "7s 7c 7s: sevens" in "".join(errs)
    assert "5s are one suit or all suits here, so not 5s 5c 5s" in "".join(errs)
    assert PlainRows(BatchJudge(STDIN_FILE, rules)).rows(lines, 0) == ("".join(outs), "".join(errs))
    [(_, errors)] = JsonBatch(BatchJudge(STDIN_FILE, rules)).slices([lines])
    assert errors == "".join(errs)


class WrittenLowToHigh(PanRules):
    """A house that takes a rope only as written low to high: a judge that follows the order."""

    def judge(self, cards: tuple[Card, ...]) -> Verdict:
        v = super().judge(cards)
        if v.rule is None and v.meld is not None and tuple(cards) != tuple(v.meld.cards):
            return Verdict(tuple(cards), None, "M2", "written out of order", self.profile)
        return v


def test_M2_a_judge_that_follows_the_order_is_asked_of_every_order_in_a_batch() -> None:
    """The batch judges a multiset of cards once only for a rules object whose judge is order-free
    (``PanRules.order_free``): a subclass that overrides ``judge`` is asked of every line."""
    rules = WrittenLowToHigh(HOYLE)
    lines = ["3h 4h 5h", "5h 4h 3h", "4h 3h 5h", "3h 4h 5h", "5s 5s 5s"]
    outs, errs = [], []
    for n, text in enumerate(lines, 1):
        line, suffix = plain_row(text, rules)
        outs.append(line)
        errs += [] if suffix is None else [f"{STDIN_FILE}:{n}{suffix}"]
    assert len(errs) == 2 and all("written out of order" in e for e in errs)
    assert PlainRows(BatchJudge(STDIN_FILE, rules)).rows(lines, 0) == ("".join(outs), "".join(errs))
    assert not rules.order_free and PanRules(HOYLE).order_free
