"""PAGRUC engine, one or more tests per rule (docs/rules.md, G1-G9), on values built
directly (HandScript objects, no record text)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pagruc_build import DEALS, OPENING, cards, one, script, turn

from pancli.cards import ALL_CARDS, SUITS, Card, Game, Rank, card
from pancli.melds import MeldError
from pancli.model.actions import Borrow, Decision, Reshuffle, Turn
from pancli.pagruc import ONE_PACK, TWO_PACKS, PagrucKind, Where, card_points, judge, lay_off, pack_for
from pancli.pagruc.pack import official_problem, pack_problem
from pancli.pagruc.referee import PagrucHandResult, ScoreUnknown, referee_script
from pancli.pagruc.rules import PagrucRules
from pancli.pagruc.standings import GameHand, game_standings
from pancli.rules import Ending

pagruc_points = PagrucRules().pagruc_points
"""G9 as the shipped rules object ranks a game."""


def only_violation(r: PagrucHandResult) -> tuple[str, str | None, int]:
    assert len(r.violations) == 1, r.violations
    v = r.violations[0]
    return v.rule, v.player, v.line


# --------------------------------------------------------------------------- G1 players and packs


def test_G1_one_pack_for_three_to_five_players_two_for_six_to_eight() -> None:
    assert [pack_for(n).packs for n in range(3, 9)] == [1, 1, 1, 2, 2, 2]
    assert ONE_PACK.size == 52 and TWO_PACKS.size == 104
    assert {TWO_PACKS.copies(c) for c in ALL_CARDS} == {2}
    assert sorted(ONE_PACK.full(), key=Card.sort_key) == sorted(ALL_CARDS, key=Card.sort_key)
    assert pack_problem(6, 1) is not None and pack_problem(6, 2) is None and pack_problem(3, 2) is None
    assert pack_problem(9) is not None and official_problem(2) is not None and official_problem(3) is None


def test_G1_six_players_with_one_pack_is_a_violation() -> None:
    r = referee_script(script("A B C D E F", {}, "Kh", packs=1))
    assert only_violation(r)[0] == "G1"
    assert "two packs" in r.violations[0].message


def test_G1_a_player_listed_twice_is_a_violation() -> None:
    r = referee_script(script("Ana Ben Ana", {}, "Kh"))
    assert only_violation(r)[0] == "G1"
    assert r.violations[0].message == "a player is listed twice: Ana Ben Ana"


def test_G1_nine_players_is_too_many() -> None:
    r = referee_script(script("A B C D E F G H I", {}, "Kh"))
    assert only_violation(r)[0] == "G1"


def test_G1_a_card_twice_in_one_pack_breaks_conservation() -> None:
    deals = dict(DEALS, Cy="2d 3d 4d 9s 9h Qd Ks")  # Ana holds Ks too
    r = referee_script(script("Ana Ben Cy", deals, "Kh"))
    rule, player, _ = only_violation(r)
    assert (rule, player) == ("G1", "Cy")
    assert "2 copies of Ks" in r.violations[0].message


def test_G1_names_the_first_card_of_the_line_over_the_pack_whatever_the_hash_seed() -> None:
    """Two cards of Cy's deal are Ana's (Ks, 7h): the first of them in the line is named, in
    every process (cards are looked at in line order, not in a set's, which follows the hash seed)."""
    import subprocess
    import sys
    from pathlib import Path

    code = (
        "from pagruc_build import DEALS, script\n"
        "from pancli.pagruc.referee import referee_script\n"
        "deals = dict(DEALS, Cy='2d 3d Ks 9s 7h Qd Qc')\n"
        "print(referee_script(script('Ana Ben Cy', deals, 'Kh')).violations[0].message)\n"
    )
    said = {
        subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            cwd=Path(__file__).parent,
            env={"PYTHONHASHSEED": str(seed)},
        ).stdout
        for seed in range(4)
    }
    assert said == {"2 copies of Ks are in play, but one pack holds one Ks\n"}


def test_G1_two_packs_may_serve_three_players() -> None:
    deals = dict(DEALS, Cy="2d 3d 4d 9s 9h Qd Ks")
    r = referee_script(script("Ana Ben Cy", deals, "Kh", *OPENING, packs=2))
    assert r.violations == () and r.packs == 2


def test_G1_an_unknown_hand_may_not_show_a_card_the_pack_has_no_more_of() -> None:
    deals = {"Ana": DEALS["Ana"], "Ben": DEALS["Ben"]}  # Cy's cards are unknown
    r = referee_script(script("Ana Ben Cy", deals, "Kh", *OPENING[:2], turn("Cy", "draw Jd", "meld [Ac 2c 3c]")))
    rule, player, _ = only_violation(r)
    assert (rule, player) == ("G1", "Cy")


# --------------------------------------------------------------------------- G2 the deal


def test_G2_seven_cards_each() -> None:
    r = referee_script(script("Ana Ben Cy", dict(DEALS, Ben="2c 3c 4c 5c 6c 7c"), "Kh"))
    assert only_violation(r)[:2] == ("G2", "Ben")
    assert "6 cards, not 7" in r.violations[0].message


def test_G2_one_card_face_up_starts_the_discard_pile() -> None:
    r = referee_script(script("Ana Ben Cy", DEALS, None, turn("Ana", "draw 2s", "discard 2s", line=6)))
    assert only_violation(r) == ("G2", "Ana", 6) and r.violations[0].col == 1
    assert r.ending is Ending.STOPPED
    ok = referee_script(script("Ana Ben Cy", DEALS, "Kh", turn("Ana", "take Kh", "discard Kh")))
    assert ok.violations == ()


def test_G2_a_hand_with_no_play_line_and_no_up_card_is_being_dealt_not_stopped() -> None:
    """The record (or a live session) stops after the deal lines: the hand is unfinished, as a
    Panguingue hand cut there is; the G2 fault is a play line's (before, the hand stopped at its
    first line, and pan live began the next hand over it)."""
    for strict in (True, False):
        r = referee_script(script("Ana Ben Cy", DEALS, None), strict=strict)
        assert (r.violations, r.ending, r.finished) == ((), Ending.UNFINISHED, False)
    lax = referee_script(script("Ana Ben Cy", DEALS, None, turn("Ana", "draw 2s", "discard 2s", line=6)), strict=False)
    assert only_violation(lax) == ("G2", "Ana", 6) and lax.ending is Ending.STOPPED


def test_G2_deal_to_a_player_not_in_the_hand() -> None:
    r = referee_script(script("Ana Ben Cy", dict(DEALS, Zed="Th Tc Td Ts Jh Jc Js"), "Kh"))
    assert only_violation(r)[:2] == ("G2", "Zed")


# --------------------------------------------------------------------------- G3 the turn


def test_G3_turns_go_in_order_of_play() -> None:
    r = referee_script(script("Ana Ben Cy", DEALS, "Kh", OPENING[0], turn("Cy", "draw Jd", "discard Jd", line=11)))
    assert only_violation(r) == ("G3", "Cy", 11)
    assert "Ben's turn" in r.violations[0].message


def test_G3_a_turn_starts_by_taking_a_card() -> None:
    r = referee_script(script("Ana Ben Cy", DEALS, "Kh", turn("Ana", "meld [5h 6h 7h]", "discard Ks")))
    assert only_violation(r)[:2] == ("G3", "Ana")


def test_G3_only_one_pickup_a_turn() -> None:
    r = referee_script(script("Ana Ben Cy", DEALS, "Kh", turn("Ana", "draw 2s", "take Kh", "discard Ks")))
    assert only_violation(r)[:2] == ("G3", "Ana")


def test_G3_take_is_the_top_discard() -> None:
    r = referee_script(script("Ana Ben Cy", DEALS, "Kh", turn("Ana", "take Qh", "discard Ks")))
    assert only_violation(r)[0] == "G3"
    assert "top discard is Kh" in r.violations[0].message


def test_G3_taking_several_discards_needs_a_meld_on_the_table() -> None:
    # after the opening the pile is Kh Ks Jh Jd; Cy has a meld, so he may take several
    without = referee_script(script("Ana Ben Cy", DEALS, "Kh", *OPENING[:2], turn("Cy", "take 2", "discard Jd")))
    assert only_violation(without)[:2] == ("G3", "Cy")
    assert "no meld on the table" in without.violations[0].message
    events = (*OPENING, turn("Ana", "take 2", "discard Jh"))
    r = referee_script(script("Ana Ben Cy", DEALS, "Kh", *events))
    assert r.violations == ()
    assert r.hands["Ana"] == cards("2s Jd")


def test_G3_taking_several_named_discards_must_match_the_top_of_the_pile() -> None:
    good = referee_script(script("Ana Ben Cy", DEALS, "Kh", *OPENING, turn("Ana", "take Jd Jh Ks", "discard 2s")))
    assert good.violations == ()
    assert sorted(map(str, good.hands["Ana"])) == ["Jd", "Jh", "Ks"]
    bad = referee_script(script("Ana Ben Cy", DEALS, "Kh", *OPENING, turn("Ana", "take Jd Kh", "discard 2s")))
    assert only_violation(bad)[0] == "G3"
    too_many = referee_script(script("Ana Ben Cy", DEALS, "Kh", *OPENING, turn("Ana", "take 5", "discard 2s")))
    assert only_violation(too_many)[0] == "G3"


def test_G3_a_turn_ends_with_one_discard() -> None:
    r = referee_script(script("Ana Ben Cy", DEALS, "Kh", turn("Ana", "draw 2s", "meld [5h 6h 7h]")))
    assert only_violation(r)[:2] == ("G3", "Ana")
    after = referee_script(script("Ana Ben Cy", DEALS, "Kh", turn("Ana", "draw 2s", "discard 2s", "meld [5h 6h 7h]")))
    assert only_violation(after)[0] == "G3"
    assert "discard ends the turn" in after.violations[0].message


def test_G3_only_cards_in_hand_are_played() -> None:
    r = referee_script(script("Ana Ben Cy", DEALS, "Kh", turn("Ana", "draw 2s", "discard Qh")))
    assert only_violation(r)[:2] == ("G3", "Ana")
    assert "does not hold Qh" in r.violations[0].message


def test_G3_panguingue_lines_are_not_pagruc() -> None:
    # built as values, not read: the reader refuses these lines in a PAGRUC record (R9) before
    # the referee would see them; the referee must refuse them too (an API caller's script)
    dec = referee_script(script("Ana Ben Cy", DEALS, "Kh", Decision("Ana", True, line=5)))
    assert only_violation(dec)[0] == "G3"
    borrow = Turn("Ana", (Borrow(one("Ac"), 1),))
    r = referee_script(script("Ana Ben Cy", DEALS, "Kh", *OPENING, turn("Ana", "draw 3s", "discard 3s"), borrow))
    assert only_violation(r)[0] == "G3"


def test_G3_non_strict_refereeing_reports_and_goes_on() -> None:
    events = (turn("Ana", "draw 2s", "discard Qh", line=5), turn("Ben", "draw Jh", "discard Jh", line=6))
    r = referee_script(script("Ana Ben Cy", DEALS, "Kh", *events, turn("Cy", "draw 9c", "discard Qh")), strict=False)
    assert [(v.rule, v.player) for v in r.violations] == [("G3", "Ana"), ("G3", "Cy")]


# --------------------------------------------------------------------------- G4 melds


def test_G4_runs_are_one_suit_consecutive_ace_low_only() -> None:
    assert judge(cards("Ah 2h 3h"), TWO_PACKS).kind is PagrucKind.RUN
    assert judge(cards("Jh Qh Kh"), TWO_PACKS).kind is PagrucKind.RUN
    assert judge(cards("8s 9s Ts Js"), TWO_PACKS).kind is PagrucKind.RUN
    assert judge(cards("10s 9s 8s"), TWO_PACKS).legal  # 10 and T both mean ten
    for bad in ("Qh Kh Ah", "Kh Ah 2h", "5h 6h 7c", "5h 7h 8h", "5h 5h 6h 7h", "5h 6h"):
        v = judge(cards(bad), TWO_PACKS)
        assert (v.legal, v.rule) == (False, "G4"), bad
    assert "ace" in judge(cards("Qh Kh Ah"), TWO_PACKS).reason


def test_G4_sets_of_one_rank_any_suits() -> None:
    assert judge(cards("9s 9h 9c"), TWO_PACKS).kind is PagrucKind.SET
    assert judge(cards("9s 9h 9c 9d"), TWO_PACKS).legal
    assert judge(cards("9s 9h 9c 9d 9s"), TWO_PACKS).legal
    assert not judge(cards("9s 9h 9c 9d 9s"), ONE_PACK).legal


def test_G1_the_same_card_twice_only_with_two_packs() -> None:
    dup = cards("5h 5h 5c")
    assert judge(dup, TWO_PACKS).legal
    v = judge(dup, ONE_PACK)
    assert (v.legal, v.rule) == (False, "G1")  # conservation is G1 (the packs), as the referee rules it
    assert "two packs" in v.reason
    assert judge(cards("5h 5h 5h"), TWO_PACKS).rule == "G1"
    with pytest.raises(MeldError) as err:
        lay_off(judge(cards("5h 5c 5d"), ONE_PACK).meld, cards("5h"), ONE_PACK)  # type: ignore[arg-type]
    assert err.value.rule == "G1"


def test_G4_an_illegal_meld_in_a_hand_is_a_violation() -> None:
    r = referee_script(script("Ana Ben Cy", DEALS, "Kh", turn("Ana", "draw 2s", "meld [5h 6h Ks]", line=7)))
    assert only_violation(r) == ("G4", "Ana", 7)


_RUN_STARTS = st.integers(1, 11)


@settings(max_examples=150)
@given(start=_RUN_STARTS, data=st.data(), suit=st.sampled_from(SUITS))
def test_G4_any_run_of_consecutive_ranks_is_legal(start: int, data: st.DataObject, suit: object) -> None:
    length = data.draw(st.integers(3, 14 - start))
    run = [card(Rank(r), suit) for r in range(start, start + length)]  # type: ignore[arg-type]
    shuffled = data.draw(st.permutations(run))
    v = judge(shuffled, ONE_PACK)
    assert v.kind is PagrucKind.RUN and v.meld is not None
    assert v.meld.cards == tuple(run)
    assert v.points == sum(1 if r == 1 else min(r, 10) for r in range(start, start + length))


@settings(max_examples=150)
@given(rank=st.sampled_from(list(Rank)), suits=st.lists(st.sampled_from(SUITS), min_size=3, max_size=8))
def test_G4_any_set_within_the_pack_is_legal(rank: Rank, suits: list[object]) -> None:
    got = [card(rank, s) for s in suits]  # type: ignore[arg-type]
    fits_two = max(suits.count(s) for s in suits) <= 2
    v = judge(got, TWO_PACKS)
    assert v.legal is fits_two
    if fits_two:
        assert v.kind is PagrucKind.SET
        assert v.points == len(got) * (15 if rank is Rank.ACE else min(int(rank), 10))


# --------------------------------------------------------------------------- G5 laying off


def test_G5_lay_off_on_another_players_meld_scores_for_the_layer() -> None:
    events = (
        *OPENING,
        turn("Ana", "draw 3s", "discard 3s"),
        turn("Ben", "draw Ah", "lay Ah on Ana#1", "discard Ah"),
    )
    r = referee_script(script("Ana Ben Cy", DEALS, "Kh", *events))
    assert only_violation(r)[0] == "G5"  # Ah does not fit 5h 6h 7h
    events = (
        *OPENING,
        turn("Ana", "draw 3s", "discard 3s", line=13),
        turn("Ben", "draw Ah", "lay Ah on Ana#2", "discard 8c", line=14),
    )
    r = referee_script(script("Ana Ben Cy", DEALS, "Kh", *events))
    assert r.violations == () and r.winner == "Ben"  # his last card, 8c, discarded
    ana_aces = r.table[1]
    assert ana_aces.label == "Ana#2" and ana_aces.laid_by[-1] == ("Ben", one("Ah"))
    ben_table = [c for c in r.cards["Ben"] if c.where is not Where.HAND]
    assert ben_table[-1].card == one("Ah") and ben_table[-1].points == 15 and ben_table[-1].meld == "Ana#2"
    assert r.scores["Ben"] == 2 + 3 + 4 + 5 + 6 + 7 + 15


def test_G5_laying_off_needs_a_meld_of_ones_own() -> None:
    events = (OPENING[0], turn("Ben", "draw 8h", "lay 8h on Ana#1", "discard 8c"))
    r = referee_script(script("Ana Ben Cy", DEALS, "Kh", *events))
    assert only_violation(r)[:2] == ("G5", "Ben")


def test_G5_laying_off_keeps_a_legal_meld_and_names_an_existing_one() -> None:
    events = (*OPENING, turn("Ana", "draw 9c", "lay 9c on Ben#1", "discard 2s"))
    r = referee_script(script("Ana Ben Cy", DEALS, "Kh", *events))
    assert only_violation(r)[0] == "G5"
    assert "missing 8" in r.violations[0].message
    events = (*OPENING, turn("Ana", "draw 8d", "lay 8d on Cy#2", "discard 2s"))
    r = referee_script(script("Ana Ben Cy", DEALS, "Kh", *events))
    assert only_violation(r)[0] == "G5"
    assert "Cy#2" in r.violations[0].message
    run = judge(cards("5h 6h 7h"), TWO_PACKS).meld
    assert run is not None
    with pytest.raises(MeldError) as err:
        lay_off(run, cards("5c"), TWO_PACKS)
    assert err.value.rule == "G5"


def test_G5_add_to_ones_own_meld_is_laying_off() -> None:
    events = (*OPENING, turn("Ana", "draw 4h", "add 4h to #1", "discard 2s"))
    r = referee_script(script("Ana Ben Cy", DEALS, "Kh", *events))
    assert r.violations == () and str(r.table[0].meld) == "4h 5h 6h 7h"
    assert r.winner == "Ana" and r.scores["Ana"] == 4 + 18 + 45


# --------------------------------------------------------------------------- G6 end of the hand


def test_G6_the_hand_ends_when_a_player_discards_his_last_card() -> None:
    events = (*OPENING, turn("Ana", "draw 3s", "discard 3s"), turn("Ben", "draw 9c", "add 8c 9c to #1", "discard Tc"))
    r = referee_script(script("Ana Ben Cy", DEALS, "Kh", *events))
    assert only_violation(r)[0] == "G3"  # Ben has no Tc: he drew 9c
    events = (*OPENING, turn("Ana", "draw 3s", "discard 3s"), turn("Ben", "draw 9c", "add 8c to #1", "discard 9c"))
    r = referee_script(script("Ana Ben Cy", DEALS, "Kh", *events))
    assert r.finished and r.winner == "Ben" and r.violations == ()
    late = referee_script(script("Ana Ben Cy", DEALS, "Kh", *events, turn("Cy", "draw Th", "discard Th", line=30)))
    assert only_violation(late) == ("G6", "Cy", 30)


def test_G6_melding_every_card_leaves_nothing_to_discard() -> None:
    events = (*OPENING, turn("Ana", "draw 3s", "discard 3s"), turn("Ben", "draw 9c", "add 8c 9c to #1"))
    r = referee_script(script("Ana Ben Cy", DEALS, "Kh", *events))
    assert only_violation(r)[:2] == ("G6", "Ben")
    assert "last card" in r.violations[0].message


def test_G6_out_is_only_said_with_an_empty_hand() -> None:
    events = (turn("Ana", "draw 2s", "discard 2s", "out"),)
    r = referee_script(script("Ana Ben Cy", DEALS, "Kh", *events))
    assert only_violation(r)[:2] == ("G6", "Ana")


def _five_player_stock_run() -> tuple[list[Turn], dict[str, str], str, list[Card]]:
    """Five players (one pack: 52 - 35 - 1 = 16 stock cards), each draws and discards until the stock is empty."""
    pack = list(ALL_CARDS)
    names = ["P1", "P2", "P3", "P4", "P5"]
    deals = {p: " ".join(str(c) for c in pack[i * 7 : i * 7 + 7]) for i, p in enumerate(names)}
    up = str(pack[35])
    stock = pack[36:]
    turns = [turn(names[i % 5], f"draw {c}", f"discard {c}", line=20 + i) for i, c in enumerate(stock)]
    return turns, deals, up, stock


def test_G6_the_discard_pile_is_turned_over_when_the_stock_runs_out() -> None:
    turns, deals, up, stock = _five_player_stock_run()
    players = "P1 P2 P3 P4 P5"
    assert referee_script(script(players, deals, up, *turns)).violations == ()
    no_reshuffle = referee_script(
        script(players, deals, up, *turns, turn("P2", f"draw {up}", f"discard {up}", line=99))
    )
    assert only_violation(no_reshuffle)[:1] == ("G6",)
    assert "stock is empty" in no_reshuffle.violations[0].message
    again = (*turns, Reshuffle(line=98), turn("P2", f"draw {up}", f"discard {up}", line=99))
    r = referee_script(script(players, deals, up, *again))
    assert r.violations == ()
    # the last discard (the 16th stock card) stays as the pile; the stock holds the rest
    wrong = (*turns, Reshuffle(line=98), turn("P2", f"draw {stock[-1]}", f"discard {stock[-1]}", line=99))
    r = referee_script(script(players, deals, up, *wrong))
    assert only_violation(r)[0] == "G6"
    assert "not in the turned-over stock" in r.violations[0].message


def test_G6_the_stock_is_turned_over_only_when_empty() -> None:
    r = referee_script(script("Ana Ben Cy", DEALS, "Kh", *OPENING, Reshuffle(line=20)))
    assert only_violation(r)[0] == "G6"


# --------------------------------------------------------------------------- G7 hand scores


def test_G7_card_points() -> None:
    ace, king, ten, five = one("Ah"), one("Kh"), one("Th"), one("5h")
    assert [card_points(ace, w) for w in (Where.RUN, Where.SET, Where.HAND)] == [1, 15, -15]
    assert [card_points(king, w) for w in (Where.RUN, Where.SET, Where.HAND)] == [10, 10, -10]
    assert card_points(one("Jc"), Where.SET) == card_points(one("Qd"), Where.RUN) == 10
    assert card_points(ten, Where.HAND) == -10 and card_points(five, Where.RUN) == 5


def test_G7_the_worked_score_is_38() -> None:
    s = PagrucRules().score([cards("5h 6h 7h"), cards("Ac Ad As")], cards("Ks Ah"), TWO_PACKS)
    assert [(str(c.card), c.where.value, c.points) for c in s.cards] == [
        ("5h", "run", 5),
        ("6h", "run", 6),
        ("7h", "run", 7),
        ("Ac", "set", 15),
        ("Ad", "set", 15),
        ("As", "set", 15),
        ("Ks", "hand", -10),
        ("Ah", "hand", -15),
    ]
    assert (s.table, s.in_hand, s.total) == (63, -25, 38)


def test_G7_invalid_melds_and_too_many_copies_are_refused() -> None:
    with pytest.raises(MeldError) as err:
        PagrucRules().score([cards("Qh Kh Ah")], (), TWO_PACKS)
    assert err.value.rule == "G4"
    with pytest.raises(MeldError) as err:
        PagrucRules().score([cards("5h 6h 7h")], cards("5h"), ONE_PACK)
    assert err.value.rule == "G1"


@settings(max_examples=100)
@given(st.lists(st.sampled_from(ALL_CARDS), max_size=14))
def test_G7_a_hand_with_nothing_melded_scores_minus_its_card_values(hand: list[Card]) -> None:
    values = {1: 15, 11: 10, 12: 10, 13: 10}
    try:
        s = PagrucRules().score([], hand, TWO_PACKS)
    except MeldError as exc:
        assert exc.rule == "G1" and max(hand.count(c) for c in hand) > 2
        return
    assert s.total == -sum(values.get(int(c.rank), int(c.rank)) for c in hand)


def test_G7_the_refereed_hand_scores_table_plus_and_hand_minus() -> None:
    events = (*OPENING, turn("Ana", "draw 3s", "discard 3s"), turn("Ben", "draw 9c", "add 8c to #1", "discard 9c"))
    r = referee_script(script("Ana Ben Cy", DEALS, "Kh", *events, ledger={"Ana": 61, "Ben": 35, "Cy": -29}))
    assert dict(r.scores) == {"Ana": 18 + 45 - 2, "Ben": 35, "Cy": 9 - 9 - 9 - 10 - 10}
    assert r.claims_ok and len(r.claims) == 3
    wrong = referee_script(script("Ana Ben Cy", DEALS, "Kh", *events, ledger={"Ana": 60, "Ben": 35, "Cy": -29}))
    assert not wrong.claims_ok and [c.player for c in wrong.claims if not c.ok] == ["Ana"]


def test_G7_an_unknown_hand_has_no_score() -> None:
    deals = {"Ana": DEALS["Ana"], "Ben": DEALS["Ben"]}
    events = (*OPENING, turn("Ana", "draw 3s", "discard 3s"), turn("Ben", "draw 9c", "add 8c to #1", "discard 9c"))
    r = referee_script(script("Ana Ben Cy", deals, "Kh", *events))
    assert r.violations == () and r.winner == "Ben"
    assert r.scores["Cy"] is None and r.hidden["Cy"] == 4 and r.unknown == ("Cy",)
    assert ScoreUnknown("Cy", 4) in r.notes


def test_G7_referee_refuses_a_panguingue_script() -> None:
    s = script("Ana Ben Cy", DEALS, "Kh")
    with pytest.raises(ValueError):
        referee_script(type(s)(players=s.players, game=Game.PANGUINGUE))


# --------------------------------------------------------------------------- G8, G9 the game


def _result(players: str, scores: dict[str, int], finished: bool = True) -> PagrucHandResult:
    names = tuple(players.split())
    return PagrucHandResult(names, 1, names[0] if finished else None, finished, scores, {p: () for p in names})


def _game(orders: list[str], scores: list[dict[str, int]]) -> list[GameHand]:
    return [GameHand(_result(o, s), "g.pan", 10 * i, i) for i, (o, s) in enumerate(zip(orders, scores, strict=True), 1)]


ROUND = ["Ana Ben Cy", "Ben Cy Ana", "Cy Ana Ben"]
"""Three hands, each player dealing once: Cy deals first, then Ana (who played first), then Ben."""
S = [{"Ana": 40, "Ben": -10, "Cy": 5}, {"Ana": -20, "Ben": 30, "Cy": 0}, {"Ana": 10, "Ben": 5, "Cy": 60}]


def test_G8_an_official_game() -> None:
    g = game_standings(_game(ROUND, S))
    assert g.official, g.problems
    assert g.totals == {"Ana": 30, "Ben": 25, "Cy": 65}
    assert dict(g.deals) == {"Ana": 1, "Ben": 1, "Cy": 1}
    assert [(s.player, s.place, s.points) for s in g.table] == [("Cy", 1, 3), ("Ana", 2, 2), ("Ben", 3, 1)]


def test_G8_the_first_player_deals_next() -> None:
    g = game_standings(_game(["Ana Ben Cy", "Cy Ana Ben", "Ben Cy Ana"], S))
    assert not g.official
    assert g.problems[0].rule == "G8" and "Ana played first" in g.problems[0].message


def test_G8_dealing_keeps_one_direction() -> None:
    g = game_standings(_game(["Ana Ben Cy Dee", "Ben Dee Cy Ana"], [dict.fromkeys(["Ana", "Ben", "Cy", "Dee"], 0)] * 2))
    assert any(p.rule == "G8" and "one direction" in p.message for p in g.problems)


def test_G8_every_player_deals_the_same_number_of_times() -> None:
    g = game_standings(_game(ROUND[:2], S[:2]))
    assert [p.rule for p in g.problems] == ["G8"]
    assert "same number of times" in g.problems[0].message
    assert all(s.points is None for s in g.table)


def test_G8_at_most_five_deals_each() -> None:
    orders = ROUND * 6
    g = game_standings(_game(orders, S * 6))
    assert [p.rule for p in g.problems] == ["G8"] and "at most 5" in g.problems[0].message
    assert game_standings(_game(ROUND * 5, S * 5)).official


def test_G8_every_hand_counts_only_when_finished_and_clean() -> None:
    hands = _game(ROUND, S)
    hands[1] = GameHand(_result(ROUND[1], S[1], finished=False), "g.pan", 20, 2)
    g = game_standings(hands)
    assert [p.rule for p in g.problems] == ["G6"]


def test_G8_the_same_players_play_every_hand() -> None:
    g = game_standings(_game(["Ana Ben Cy", "Ben Cy Dee"], [S[0], {"Ben": 0, "Cy": 0, "Dee": 0}]))
    assert g.problems[0].rule == "G8" and "not by the game's" in g.problems[0].message


def test_G1_fewer_than_three_players_is_not_an_official_game() -> None:
    g = game_standings(_game(["Ana Ben", "Ben Ana"], [{"Ana": 1, "Ben": 2}, {"Ana": 3, "Ben": 4}]))
    assert [p.rule for p in g.problems] == ["G1"]


def test_G8_a_refereed_hand_alone_is_not_a_game_of_three() -> None:
    events = (*OPENING, turn("Ana", "draw 3s", "discard 3s"), turn("Ben", "draw 9c", "add 8c to #1", "discard 9c"))
    r = referee_script(script("Ana Ben Cy", DEALS, "Kh", *events))
    g = game_standings([GameHand(r, "x.pan", 1, 1)])
    assert g.totals == {"Ana": 61, "Ben": 35, "Cy": -29}
    assert dict(g.deals) == {"Ana": 0, "Ben": 0, "Cy": 1}
    assert [p.rule for p in g.problems] == ["G8"]


def test_G9_points_by_place() -> None:
    assert pagruc_points({"A": 3, "B": 2, "C": 1}) == {"A": (1, 3), "B": (2, 2), "C": (3, 1)}
    eight = pagruc_points({str(i): i for i in range(8)})
    assert sorted(pts for _, pts in eight.values()) == list(range(1, 9))


def test_G9_ties_share_the_better_place() -> None:
    got = pagruc_points({"A": 50, "B": 20, "C": 20, "D": -7})
    assert got == {"A": (1, 4), "B": (2, 3), "C": (2, 3), "D": (4, 1)}
    assert pagruc_points({"A": 0, "B": 0, "C": 0}) == {"A": (1, 3), "B": (1, 3), "C": (1, 3)}


@settings(max_examples=100)
@given(st.lists(st.integers(-200, 200), min_size=3, max_size=8))
def test_G9_points_follow_the_totals(totals: list[int]) -> None:
    got = pagruc_points({f"p{i}": t for i, t in enumerate(totals)})
    n = len(totals)
    for i, t in enumerate(totals):
        place, pts = got[f"p{i}"]
        assert 1 <= pts <= n and place == 1 + sum(1 for u in totals if u > t)
        for j, u in enumerate(totals):
            if u > t:
                assert got[f"p{j}"][1] > pts
            elif u == t:
                assert got[f"p{j}"][1] == pts


def test_G7_a_pays_claim_after_a_meld_claims_its_points() -> None:
    from msgspec.structs import replace

    from pancli.model.actions import MeldNew

    first = OPENING[0]
    claimed = replace(first, actions=(first.actions[0], replace(first.actions[1], claim=18), *first.actions[2:]))
    assert isinstance(claimed.actions[1], MeldNew)
    r = referee_script(script("Ana Ben Cy", DEALS, "Kh", claimed))
    assert [(c.claimed, c.actual, c.ok) for c in r.claims] == [(18, 18, True)]
    wrong = replace(first, actions=(first.actions[0], replace(first.actions[1], claim=3), *first.actions[2:]))
    assert not referee_script(script("Ana Ben Cy", DEALS, "Kh", wrong)).claims_ok


def test_G3_violations_carry_the_turn_number() -> None:
    r = referee_script(script("Ana Ben Cy", DEALS, "Kh", *OPENING, turn("Ana", "draw 3s", "discard Qh")))
    assert only_violation(r)[0] == "G3" and r.violations[0].turn == 4
