"""The Panguingue referee, one test (legal and illegal variants) per rule of docs/rules.md."""

from __future__ import annotations

import io
from itertools import pairwise
from pathlib import Path

import pytest
from msgspec.structs import replace
from referee_kit import T, cards, force, hand, line_item, one, reshuffle, stays

from pancli.cards import Card, Rank, Suit
from pancli.model.actions import Deal, Decision, HandScript, Turn
from pancli.model.results import ClaimKind, HandResult, Source
from pancli.records import read_hands
from pancli.referee import Table, referee_script
from pancli.referee.simulate import simulate_hands
from pancli.rulebook import I1_AT_DEAL, Rule, prescribed
from pancli.rules import CARDROOM, HOYLE, profile_from_mapping

ANA = "5s 5s 3h 4h Kd Kh Kc 2c 7d Jc"
BEN = "2d 2d 6c Jd Jd Qs 4s 4s 6h 7c"
CRUZ = "Qh Qh Ah 2h 3c 3d 6s 6s Js Ks"
DEALS = {"Ana": ANA, "Ben": BEN, "Cruz": CRUZ}
BEN_FLAT = "2d 2d 4s 4s 4s 6h 6h 6h 6h 7c"
"""Ben draws 2d and lays all but 7c: ten melded, flat (P9)."""
DEALS4 = {"Ana": ANA, "Ben": BEN_FLAT, "Cruz": CRUZ, "Dee": "Jh Jh Jh 2s 2s 6d 6d Qc Qc 7h"}

ANA5 = {**DEALS, "Ana": "5s 5s 5s 3h 4h Kd Kh Kc 2c 7d"}
"""Ana holds a third 5s (to add a fourth)."""
ANA_MELDS_FIVES = T("Ana", "draw 5s", "meld [5s 5s 5s]", "discard 7d")


def ok(r: HandResult) -> HandResult:
    assert not r.violations, r.violations
    assert sum(r.ledger.values()) == 0
    return r


def bad(r: HandResult, rule: str) -> HandResult:
    assert r.violations, "expected a violation"
    assert r.violations[0].rule == rule, r.violations[0]
    if rule != "I3":  # a hand won before an I3 violation keeps its winner
        assert r.winner is None
    assert sum(r.ledger.values()) == 0
    return r


def play(events: list, deals: dict[str, str] | None = None, **kw: object) -> HandResult:
    return referee_script(hand(deals if deals is not None else DEALS, events, **kw))  # type: ignore[arg-type]


def play_strict(events: list, deals: dict[str, str] | None = None, **kw: object) -> HandResult:
    """As ``pan replay --strict``: an irregularity (I1, I2) is a violation that stops the hand."""
    return referee_script(hand(deals if deals is not None else DEALS, events, **kw), remedy=False)  # type: ignore[arg-type]


OUT_GAME = [
    *stays("Ana", "Ben", "Cruz", "Dee top"),
    ANA_MELDS_FIVES,
    T("Ben", "draw 2d", "meld [2d 2d 2d]", "meld [4s 4s 4s]", "meld [6h 6h 6h 6h]", "discard 7c"),
    T("Cruz", "draw Jc", "discard Jc"),
    T("Ana", "draw 6h", "discard Kd"),
    T("Ben", "draw 2d", "add 2d to #1", "out"),
]
"""Ben goes flat, Ana keeps the 6h that fits him (P9), Ben goes out (C8); Dee went on top."""


# ---------------------------------------------------------------- S: seats and deal


def test_S1_two_to_fifteen_players_with_unique_names() -> None:
    ok(referee_script(HandScript(players=("Ana", "Ben"))))
    ok(referee_script(HandScript(players=tuple(f"P{i}" for i in range(15)))))
    bad(referee_script(HandScript(players=("Ana",))), "S1")
    bad(referee_script(HandScript(players=tuple(f"P{i}" for i in range(16)))), "S1")
    r = bad(referee_script(HandScript(players=("Ana", "Ben", "Ana"))), "S1")
    assert r.violations[0].player == "Ana"
    seated = hand({"Ana": ANA}, [], players=("Ana", "Ben"))
    bad(referee_script(replace(seated, deals=(*seated.deals, Deal("Zed", cards(BEN), line=4)))), "S1")


def test_S2_each_player_dealt_once() -> None:
    ok(play(stays("Ana", "Ben", "Cruz")))
    s = hand(DEALS, [])
    twice = replace(s, deals=(*s.deals, Deal("Ana", cards(ANA))))
    bad(referee_script(twice), "S2")


def test_S3_winner_is_first_hand_of_the_next() -> None:
    players = ("Ana", "Ben", "Cruz", "Dee")
    scripts = list(simulate_hands(players, 6, seed=11, profile=HOYLE))
    for prev, nxt in pairwise(scripts):
        winner = referee_script(prev).winner
        if winner is not None:
            assert nxt.players[0] == winner
            assert (
                nxt.players == prev.players[prev.players.index(winner) :] + prev.players[: prev.players.index(winner)]
            )
        else:
            assert nxt.players == prev.players[1:] + prev.players[:1]


# ---------------------------------------------------------------- T: going on top


def test_T1_decisions_in_order_of_play_once_each() -> None:
    ok(play([*stays("Ana", "Ben top", "Cruz"), ANA_MELDS_FIVES]))
    bad(play(stays("Ben", "Ana", "Cruz")), "T1")
    bad(play([*stays("Ana", "Ben"), ANA_MELDS_FIVES]), "T1")
    bad(play([*stays("Ana", "Ben", "Cruz", "Ana")]), "T1")


def test_T2_forfeit_paid_by_those_on_top_to_the_winner_hoyle() -> None:
    r = ok(play(OUT_GAME, DEALS4))
    assert r.winner == "Ben"
    t2 = [p for p in r.payments if p.rule == "T2"]
    assert [(p.payer, p.payee, p.units) for p in t2] == [("Dee", "Ben", HOYLE.forfeit)]
    assert r.ledger == {"Ana": -5, "Ben": 24, "Cruz": -17, "Dee": -2}


def test_T2_tops_cardroom_every_other_seated_player_loses_his_top() -> None:
    r = ok(play(OUT_GAME, DEALS4, profile=CARDROOM))
    t2 = sorted((p.payer, p.units) for p in r.payments if p.rule == "T2")
    assert t2 == [("Ana", 1), ("Cruz", 1), ("Dee", 1)]
    doubled = profile_from_mapping({"base": "cardroom", "ante": 2})
    r2 = ok(play(OUT_GAME, DEALS4, profile=doubled))
    assert sorted(p.units for p in r2.payments if p.rule == "T2") == [2, 2, 2]


def test_T3_player_on_top_takes_no_part_and_pays_nothing() -> None:
    r = ok(play([*stays("Ana", "Ben top", "Cruz"), ANA_MELDS_FIVES]))
    assert [(p.payer, p.units) for p in r.payments] == [("Cruz", 4)]
    bad(play([*stays("Ana", "Ben top", "Cruz"), ANA_MELDS_FIVES, T("Ben", "draw 2d", "discard 2d")]), "T3")


def test_T4_all_but_one_on_top_wins_at_once() -> None:
    r = ok(play(stays("Ana top", "Ben", "Cruz top")))
    assert r.winner == "Ben" and not r.void
    assert sorted((p.payer, p.payee, p.units, p.rule) for p in r.payments) == [
        ("Ana", "Ben", 2, "T2"),
        ("Cruz", "Ben", 2, "T2"),
    ]
    r = bad(play([*stays("Ana top", "Ben", "Cruz top"), T("Ben", "draw 2d", "discard 2d")]), "I3")
    assert r.winner == "Ben"


def test_T4_everybody_on_top_is_void_and_nothing_is_paid() -> None:
    r = ok(play(stays("Ana top", "Ben top", "Cruz top"), profile=CARDROOM))
    assert r.void and r.winner is None and not r.payments
    assert set(r.ledger.values()) == {0}


# ---------------------------------------------------------------- P: the turn


def test_P1_the_player_in_turn_begins_with_one_draw_or_take() -> None:
    ok(play([*stays("Ana", "Ben", "Cruz"), ANA_MELDS_FIVES, T("Ben", "draw Qd", "discard Qd")]))
    r = bad(play([*stays("Ana", "Ben", "Cruz"), T("Ben", "draw Qd", "discard Qd")]), "P1")
    assert r.violations[0].player == "Ben" and r.violations[0].line == 10
    bad(play([*stays("Ana", "Ben", "Cruz"), T("Ana", "meld [Kd Kh Kc]", "discard 7d")]), "P1")
    bad(play([*stays("Ana", "Ben", "Cruz"), T("Ana", "draw Qd", "draw Qd", "discard Qd")]), "P1")
    decided = hand(DEALS, stays("Ana", "Ben", "Cruz"))  # a turn with no action: no record line reads so
    bad(referee_script(replace(decided, events=(*decided.events, Turn("Ana", (), line=10)))), "P1")


def test_P2_drawn_card_is_used_or_discarded_at_once() -> None:
    ok(play([*stays("Ana", "Ben", "Cruz"), T("Ana", "draw Jh", "discard Jh")]))
    r = bad(play([*stays("Ana", "Ben", "Cruz"), T("Ana", "draw Jh", "discard 7d")]), "P2")
    assert r.violations[0].col == 14  # Ana draw Jh, >discard 7d
    bad(play([*stays("Ana", "Ben", "Cruz"), T("Ana", "draw Jh")]), "P2")


def test_P3_upcard_or_previous_unused_draw_may_be_taken() -> None:
    ok(play([*stays("Ana", "Ben", "Cruz"), T("Ana", "take 5h", "meld [3h 4h 5h]", "discard 7d")], up="5h"))
    ok(
        play(
            [
                *stays("Ana", "Ben", "Cruz"),
                T("Ana", "draw Jd", "discard Jd"),
                T("Ben", "take Jd", "meld [Jd Jd Jd] {[%pays 1]}", "discard 7c"),
            ]
        )
    )
    # the upcard is live only for the first player to act
    bad(play([*stays("Ana", "Ben", "Cruz"), T("Ana", "draw Jh", "discard Jh"), T("Ben", "take 4c")]), "P3")
    bad(play([*stays("Ana", "Ben", "Cruz"), T("Ana", "take 5h", "meld [3h 4h 5h]", "discard 7d")], up="4c"), "P3")


def test_P3_dead_discard_cannot_be_taken() -> None:
    bad(play([*stays("Ana", "Ben", "Cruz"), ANA_MELDS_FIVES, T("Ben", "take 7d")]), "P3")
    bad(
        play(
            [
                *stays("Ana", "Ben", "Cruz"),
                T("Ana", "draw Jd", "discard Jd"),
                T("Ben", "draw 2d", "meld [2d 2d 2d]", "discard 7c"),
                T("Cruz", "take Jd"),
            ]
        ),
        "P3",
    )


def test_P3_taken_card_must_be_melded_at_once() -> None:
    bad(play([*stays("Ana", "Ben", "Cruz"), T("Ana", "take 4c", "discard 4c")]), "P3")
    bad(play([*stays("Ana", "Ben", "Cruz"), T("Ana", "take 4c", "discard 7d")]), "P3")


def test_P4_hand_cards_melded_only_when_the_draw_is_used() -> None:
    ok(play([*stays("Ana", "Ben", "Cruz"), T("Ana", "draw Ks", "meld [Kd Kh Kc Ks]", "discard 7d")]))
    ok(play([*stays("Ana", "Ben", "Cruz"), T("Ana", "draw 5s", "meld [Kd Kh Kc]", "meld [5s 5s 5s]", "discard 7d")]))
    bad(play([*stays("Ana", "Ben", "Cruz"), T("Ana", "draw Jh", "meld [Kd Kh Kc]", "discard Jh")]), "P4")


def test_P5_a_discard_ends_the_turn_of_a_player_who_used_his_draw() -> None:
    bad(play([*stays("Ana", "Ben", "Cruz"), T("Ana", "draw 5s", "meld [5s 5s 5s]")]), "P5")
    bad(play([*stays("Ana", "Ben", "Cruz"), T("Ana", "draw 5s", "meld [5s 5s 5s]", "discard 7d", "discard Jc")]), "P5")
    bad(play([*stays("Ana", "Ben", "Cruz"), T("Ana", "draw Jh", "discard Jh", "meld [Kd Kh Kc]")]), "P5")


def test_P6_own_melds_only() -> None:
    ok(play([*stays("Ana", "Ben", "Cruz"), T("Ana", "draw 5s", "meld [5s 5s 5s]", "add 5s to #1", "discard 7d")], ANA5))
    r = bad(
        play(
            [*stays("Ana", "Ben", "Cruz"), T("Ana", "draw 5s", "meld [5s 5s 5s]", "add 5s to #2", "discard 7d")], ANA5
        ),
        "P6",
    )
    assert "#2" in r.violations[0].message


def test_P7_count_invariant_and_going_out() -> None:
    r = ok(play(OUT_GAME, DEALS4))
    assert r.winner == "Ben"
    no_out = [*OUT_GAME[:-1], T("Ben", "draw 2d", "add 2d to #1")]
    assert ok(play(no_out, DEALS4)).winner == "Ben"  # "out" is optional
    bad(play([*OUT_GAME[:-1], T("Ben", "draw 2d", "add 2d to #1", "discard 7c")], DEALS4), "P7")
    bad(play([*stays("Ana", "Ben", "Cruz"), T("Ana", "draw 5s", "meld [5s 5s 5s]", "out")]), "P7")


def test_I1_unknown_hand_is_trusted_within_its_count() -> None:
    unknown = {"Ana": ANA, "Cruz": CRUZ}
    events = [*stays("Ana", "Ben", "Cruz"), ANA_MELDS_FIVES]
    ok(
        play(
            [*events, T("Ben", "draw 2d", "meld [2d 2d 2d]", "meld [4s 4s 4s]", "discard 7c")],
            unknown,
            players=("Ana", "Ben", "Cruz"),
        )
    )
    too_many = T(
        "Ben", "draw 2d", "meld [2d 2d 2d]", "meld [4s 4s 4s]", "meld [6h 6h 6h]", "meld [7c 7c 7c]", "discard 7c"
    )
    r = bad(play_strict([*events, too_many], unknown, players=("Ana", "Ben", "Cruz")), "I1")
    assert r.violations[0].col == 65  # the fourth meld, the first that Ben cannot hold
    # put right: Ben shows he holds more than ten after the first draw, so he retires (I1)
    r = ok(play([*events, too_many], unknown, players=("Ana", "Ben", "Cruz")))
    [remedy] = r.remedies
    assert (remedy.rule, remedy.violation.col, remedy.retired) == ("I1", 65, True)


CRUZ_P8 = {**DEALS, "Cruz": "Qh Qh Ah 2h 3c 3d 6s 6s Jh Kh"}


def test_P8_automatic_forcing_drawing_instead_is_a_violation() -> None:
    head = [
        *stays("Ana", "Ben", "Cruz"),
        T("Ana", "draw Qh", "discard Qh"),
        T("Ben", "draw 2d", "meld [2d 2d 2d]", "discard 7c"),
        T("Cruz", "draw Qh", "meld [Qh Qh Qh]", "discard 3c"),
        T("Ana", "draw 2c", "discard 2c"),
        T("Ben", "draw Qh", "discard Qh"),
    ]
    r = ok(play([*head, T("Cruz", "take Qh", "add Qh to #1 {[%pays 1]}", "discard 3d")], CRUZ_P8, profile=CARDROOM))
    assert all(c.ok for c in r.claims)
    bad(play([*head, T("Cruz", "draw 6s", "meld [6s 6s 6s]", "discard 3d")], CRUZ_P8, profile=CARDROOM), "P8")
    bad(play([*head, T("Cruz", "take Qh", "meld [Jh Qh Kh]", "discard 3d")], CRUZ_P8, profile=CARDROOM), "P8")
    # demand mode: nobody demanded it, so drawing is legal
    ok(play([*head, T("Cruz", "draw 6s", "meld [6s 6s 6s]", "discard 3d")], CRUZ_P8, profile=HOYLE))
    ok(play([*head, T("Cruz", "take Qh", "meld [Jh Qh Kh]", "discard 3d")], CRUZ_P8, profile=HOYLE))


def test_P8_demand_forcing_after_a_force_line() -> None:
    head = [
        *stays("Ana", "Ben", "Cruz"),
        T("Ana", "draw Qh", "discard Qh"),
        T("Ben", "draw 2d", "meld [2d 2d 2d]", "discard 7c"),
        T("Cruz", "draw Qh", "meld [Qh Qh Qh]", "discard 3c"),
        T("Ana", "draw 2c", "discard 2c"),
        T("Ben", "draw Qh", "discard Qh"),
    ]
    ok(play([*head, force("Ana", "Cruz"), T("Cruz", "take Qh", "add Qh to #1", "discard 3d")], CRUZ_P8))
    r = bad(play([*head, force("Ana", "Cruz"), T("Cruz", "draw 6s", "meld [6s 6s 6s]", "discard 3d")], CRUZ_P8), "P8")
    assert "Ana" in r.violations[0].message
    bad(play([*head, force("Ana", "Cruz"), T("Cruz", "take Qh", "meld [Jh Qh Kh]", "discard 3d")], CRUZ_P8), "P8")
    bad(play([*head, force("Ana", "Ben")], CRUZ_P8), "P8")  # Ben is not in turn
    bad(play([*head, force("Cruz", "Cruz")], CRUZ_P8), "P8")
    bad(play([*head[:-1], T("Ben", "draw Jd", "discard Jd"), force("Ana", "Cruz")], CRUZ_P8), "P8")  # fits nothing


def _sample_hand(name: str, old: str, new: str) -> HandResult:
    text = (Path(__file__).resolve().parent.parent / "samples" / name).read_text(encoding="utf-8")
    assert old in text
    (h,) = read_hands(io.StringIO(text.replace(old, new)), name)
    assert h.script is not None
    return referee_script(h.script)


def test_P8_a_live_K_is_forced_onto_an_A_Q_rope_since_C6_counts_A_to_K_in_full() -> None:
    taken = "4. Ana take Kh, add Kh to #1 ! {[%pays 2]}, discard Kc"
    ok(_sample_hand("cardroom-a-to-k-rope.pan", taken, taken))
    r = bad(_sample_hand("cardroom-a-to-k-rope.pan", taken, "4. Ana draw 3s, discard 3s"), "P8")
    assert (r.violations[0].player, r.violations[0].line) == ("Ana", 18)


def test_P9_flat_player_next_the_fitting_draw_is_kept() -> None:
    ok(play(OUT_GAME, DEALS4))
    head = OUT_GAME[:-2]
    r = bad(play([*head, T("Ana", "draw 6h", "discard 6h")], DEALS4), "P9")
    assert r.violations[0].player == "Ana"
    # the card fits none of the flat player's melds: discarding it is the normal P2 discard
    ok(play([*head, T("Ana", "draw Jh", "discard Jh")], DEALS4))
    off = replace(HOYLE, flat_rule=False)
    ok(play([*head, T("Ana", "draw 6h", "discard 6h")], DEALS4, profile=off))
    bad(play([*head, T("Ana", "draw 6h", "discard Kd")], DEALS4, profile=off), "P2")


def _long_hand(extra: list, *, show_ben: bool = True) -> HandScript:
    """Two players, five packs: draw-and-discard until the stock (179 cards) is empty (Ben's
    deal line left out unless ``show_ben``)."""
    profile = profile_from_mapping({"packs": 5})
    deals = {"Ana": "5s 5s 3h 4h Kd Kh Kc 2c 7d Jc", "Ben": "2d 2d 6c Jd Jd Qs 4s 4s 6h 7c"}
    left = {c: profile.pack.copies(c) for c in profile.pack.full()}
    for text in (*deals.values(), "4c"):
        for c in cards(text):
            left[c] -= 1
    stock = [c for c, n in left.items() for _ in range(n)]
    events: list = stays("Ana", "Ben")
    for k, c in enumerate(stock):
        events.append(T("Ana" if k % 2 == 0 else "Ben", f"draw {c}", f"discard {c}"))
    shown = deals if show_ben else {"Ana": deals["Ana"]}
    return hand(shown, events + extra, profile=profile, players=("Ana", "Ben"))


def test_P10_stock_exhausted_dead_discards_reshuffled() -> None:
    s = _long_hand([reshuffle(), T("Ben", "draw 4c", "discard 4c")])
    assert len(s.events) == 2 + 179 + 2
    r = ok(referee_script(s))
    assert any(m == (one("4c"), Source.DISCARD_PILE, Source.STOCK) for st in r.steps for m in st.moves)
    bad(referee_script(_long_hand([T("Ben", "draw 4c", "discard 4c")])), "P10")
    early = hand(DEALS, [*stays("Ana", "Ben", "Cruz"), reshuffle()])
    bad(referee_script(early), "P10")


def test_P10_the_new_stock_holds_exactly_the_dead_discards() -> None:
    """Ben's cards are not written down, so E4 allows a fourth Jd (he may hold some); but the
    stock rebuilt from the discards holds only the three the record shows discarded."""
    jd = [T(p, "draw Jd", "discard Jd") for p in ("Ben", "Ana", "Ben")]
    ok(referee_script(_long_hand([reshuffle(), *jd], show_ben=False)))
    r = bad(referee_script(_long_hand([reshuffle(), *jd, T("Ana", "draw Jd", "discard Jd")], show_ben=False)), "P10")
    assert r.violations[0].message == "Jd is not among the dead discards reshuffled into the stock"


def test_P10_no_card_left_the_hand_is_void_and_conditions_stand() -> None:
    t = Table(hand(DEALS, []))
    for d in t.script.deals:
        t.apply_deal(d)
    t.apply_upcard()
    for line, text in enumerate([*stays("Ana", "Ben", "Cruz"), ANA_MELDS_FIVES], 17):
        t.play_event(line_item(text, DEALS, line))
    t.stock_n = 0
    t.pile[:] = [one("7d")]  # nothing under the top card
    t.play_event(line_item(reshuffle(), DEALS, 21))
    r = t.result([])
    assert r.void and r.winner is None
    assert [(p.payer, p.units, p.rule) for p in r.payments] == [("Ben", 4, "C2"), ("Cruz", 4, "C2")]
    with pytest.raises(Exception, match="P10"):
        t.play_event(line_item(T("Ben", "draw 2d", "discard 2d"), DEALS, 22))


# ---------------------------------------------------------------- M and C: melds and payments


def test_M5_increase_keeps_the_meld_character() -> None:
    r = ok(
        play(
            [
                *stays("Ana", "Ben", "Cruz"),
                T("Ana", "draw 5s", "meld [5s 5s 5s]", "add 5s to #1 {[%pays 2]}", "discard 7d"),
            ],
            ANA5,
        )
    )
    assert [p.rule for p in r.payments] == ["C2", "C2", "C7", "C7"]
    assert r.claims[0].ok
    r = bad(
        play_strict(
            [*stays("Ana", "Ben", "Cruz"), T("Ana", "draw 5h", "meld [3h 4h 5h]", "add 5s to #1", "discard 7d")]
        ),
        "M5",
    )
    assert r.violations[0].ruling == prescribed(Rule.M5)  # the ruling of the rule cited


def test_M6_borrow_off_a_rope_end_to_complete_a_new_meld() -> None:
    deals = {"Ana": "2c 3c 4c 5c Jh Jh 7d 5c 6s Kd", "Ben": BEN, "Cruz": CRUZ}
    head = [*stays("Ana", "Ben", "Cruz"), T("Ana", "draw Jh", "meld [Jh Jh Jh]", "meld [2c 3c 4c 5c]", "discard 7d")]
    mid = [T("Ben", "draw Qd", "discard Qd"), T("Cruz", "draw Qd", "discard Qd")]
    turn = T("Ana", "draw 5c", "borrow 5c from #2", "meld [5c 5c 5c] {[%pays 2]}", "discard Kd")
    r = ok(play([*head, *mid, turn], deals, profile=CARDROOM))
    assert r.claims[0].ok
    bad(play([*head, *mid, turn], deals, profile=HOYLE), "M6")
    bad(play([*head, *mid, T("Ana", "draw 3c", "borrow 3c from #2")], deals, profile=CARDROOM), "M6")
    bad(play([*head, *mid, T("Ana", "draw 5c", "borrow Jh from #1")], deals, profile=CARDROOM), "M6")
    foul = T("Ana", "draw 5c", "borrow 5c from #2", "meld [5c 5c 6s]")
    bad(play_strict([*head, *mid, foul], deals, profile=CARDROOM), "M2")
    unused = T("Ana", "draw 5c", "borrow 5c from #2", "add 5c to #2", "discard Kd")
    bad(play([*head, *mid, unused], deals, profile=CARDROOM), "M6")


def test_M6_a_borrowed_card_added_to_a_meld_is_M6_not_E4() -> None:
    deals = {"Ana": "2c 3c 4c 5c 5h 5d Kd Qs 7d 6s", "Ben": BEN, "Cruz": CRUZ}
    head = [*stays("Ana", "Ben", "Cruz"), T("Ana", "draw 5s", "meld [5h 5d 5s]", "meld [2c 3c 4c 5c]", "discard 7d")]
    mid = [T("Ben", "draw Qd", "discard Qd"), T("Cruz", "draw Qd", "discard Qd")]
    r = bad(
        play([*head, *mid, T("Ana", "draw Kh", "borrow 5c from #2", "add 5c to #1")], deals, profile=CARDROOM), "M6"
    )
    assert "5c was borrowed this turn: a borrowed card may only complete a new meld" in r.violations[0].message
    assert (r.violations[0].line, r.violations[0].col) == (13, 33)  # at the add, not the borrow
    split = T("Ana", "draw 5c", "borrow 5c from #2", "split #1 [5h 5d 5s] [5c 5c 5c]")
    bad(play([*head, *mid, split], deals, profile=CARDROOM), "M6")


def test_M6_borrow_may_not_lower_the_value() -> None:
    deals = {"Ana": "As 2s 3s 4s 5s 5s 7d Jh Jh Kd", "Ben": BEN, "Cruz": CRUZ}
    head = [*stays("Ana", "Ben", "Cruz"), T("Ana", "draw Jh", "meld [Jh Jh Jh]", "meld [As 2s 3s 4s]", "discard 7d")]
    mid = [T("Ben", "draw Qd", "discard Qd"), T("Cruz", "draw Qd", "discard Qd")]
    r = bad(play([*head, *mid, T("Ana", "draw 4s", "borrow 4s from #2")], deals, profile=CARDROOM), "M6")
    assert "lower" in r.violations[0].message


def test_M6_split_collects_what_the_two_melds_gain() -> None:
    deals = {"Ana": "2c 3c 4c 5c Jh Jh 7d 5c 6s Kd", "Ben": BEN, "Cruz": CRUZ}
    head = [*stays("Ana", "Ben", "Cruz"), T("Ana", "draw Jh", "meld [Jh Jh Jh]", "meld [2c 3c 4c 5c]", "discard 7d")]
    mid = [T("Ben", "draw Qd", "discard Qd"), T("Cruz", "draw Qd", "discard Qd")]
    split = T("Ana", "draw 5c", "split #2 [2c 3c 4c] [5c 5c 5c] {[%pays 2]}", "discard Kd")
    r = ok(play([*head, *mid, split], deals, profile=CARDROOM))
    assert [(p.payer, p.units, p.rule) for p in r.payments[-2:]] == [("Ben", 2, "C7"), ("Cruz", 2, "C7")]
    assert r.claims[0].ok
    bad(play([*head, *mid, split], deals, profile=HOYLE), "M6")
    foul = T("Ana", "draw 5c", "split #2 [2c 3c] [4c 5c 5c]")
    bad(play_strict([*head, *mid, foul], deals, profile=CARDROOM), "M1")
    bad(play([*head, *mid, foul], deals, profile=CARDROOM), "I2")  # a foul split is refused whole


def test_C6_value_as_laid_paid_at_once_by_each_active_opponent() -> None:
    r = ok(play([*stays("Ana", "Ben", "Cruz"), ANA_MELDS_FIVES]))
    assert [(p.payer, p.payee, p.units, p.rule, p.line) for p in r.payments] == [
        ("Ben", "Ana", 4, "C2", 10),
        ("Cruz", "Ana", 4, "C2", 10),
    ]
    four = ok(
        play(
            [*stays("Ana", "Ben", "Cruz"), T("Ana", "draw 5s", "meld [5s 5s 5s 5s] {[%pays 6]}", "discard 7d")],
            {**DEALS, "Ana": "5s 5s 5s 4h Kd Kh Kc 2c 7d Jc"},
        )
    )
    assert four.ledger["Ana"] == 12 and four.claims[0].ok


def test_C7_change_collected_from_each_active_opponent() -> None:
    r = ok(
        play(
            [*stays("Ana", "Ben top", "Cruz"), T("Ana", "draw 5s", "meld [5s 5s 5s]", "add 5s to #1", "discard 7d")],
            ANA5,
        )
    )
    c7 = [(p.payer, p.units) for p in r.payments if p.rule == "C7"]
    assert c7 == [("Cruz", 2)]
    # extending 2h 3h 4h down to Ah collects 2 (C4 base)
    deals = {**DEALS, "Cruz": "Qh Qh Ah 2h 3h 3d 6s 6s Js 4h"}
    events = [*stays("Ana", "Ben", "Cruz"), T("Ana", "draw Jh", "discard Jh"), T("Ben", "draw Jh", "discard Jh")]
    r = ok(play([*events, T("Cruz", "draw 2h", "meld [2h 3h 4h]", "add Ah to #1 {[%pays 2]}", "discard 6s")], deals))
    assert r.claims[0].ok


def test_C8_going_out_collects_bonus_and_all_meld_values_again() -> None:
    r = ok(play(OUT_GAME, DEALS4))
    c8 = [(p.payer, p.units) for p in r.payments if p.rule == "C8"]
    assert c8 == [("Ana", 7), ("Cruz", 7)]  # bonus 1 + 2 + 2 + 2
    r = ok(play(OUT_GAME, DEALS4, profile=CARDROOM))
    assert [p.units for p in r.payments if p.rule == "C8"] == [8, 8]  # bonus 2 + 6


def test_C9_units_and_money_with_a_stake() -> None:
    r = ok(play([*stays("Ana", "Ben", "Cruz"), ANA_MELDS_FIVES], stake="0.25"))
    money = r.money()
    assert money is not None and str(money["Ana"]) == "2.00"
    assert play([*stays("Ana", "Ben", "Cruz"), ANA_MELDS_FIVES]).money() is None


def test_C10_melds_scored_as_laid_never_rearranged() -> None:
    deals = {**DEALS, "Ana": "5s 5s 5s 5s 5s 4h Kd Kh 2c 7d"}
    r = ok(
        play(
            [*stays("Ana", "Ben", "Cruz"), T("Ana", "draw 5s", "meld [5s 5s 5s]", "meld [5s 5s 5s]", "discard 7d")],
            deals,
        )
    )
    assert r.ledger["Ana"] == 16  # two laid sets of three (4 + 4), not six 5s (7)


def test_claims_pays_and_ledger_are_checked() -> None:
    events = [*stays("Ana", "Ben", "Cruz"), T("Ana", "draw 5s", "meld [5s 5s 5s] {[%pays 3]}", "discard 7d")]
    r = referee_script(hand(DEALS, events, ledger={"Ana": 8, "Ben": -4, "Cruz": -5}))
    assert not r.violations and not r.ok
    assert [(c.kind, c.player, c.claimed, c.actual, c.ok) for c in r.claims] == [
        (ClaimKind.PAYS, "Ana", 3, 4, False),
        (ClaimKind.LEDGER, "Ana", 8, 8, True),
        (ClaimKind.LEDGER, "Ben", -4, -4, True),
        (ClaimKind.LEDGER, "Cruz", -5, -4, False),
    ]


# ---------------------------------------------------------------- E: equipment


def test_E1_only_pan_cards() -> None:
    eight = Card(Rank.EIGHT, Suit.HEARTS)
    s = hand(DEALS, [])
    bad(referee_script(replace(s, deals=(Deal("Ana", (*cards(ANA)[:9], eight)),))), "E1")


def test_E4_no_card_beyond_the_pack() -> None:
    nine = {"Ana": "5s 5s 5s 5s 5s 5s 5s 5s 2c 7d", "Ben": "5s 2d 6c Jd Jd Qs 4s 4s 6h 7c", "Cruz": CRUZ}
    bad(play([], nine), "E4")
    # every hand dealt is known: the stock holds no more Qh once eight are seen
    queens = {"Ana": "Qh Qh Qh Qh 3h 4h Kd Kh 2c 7d", "Ben": "Qh Qh 6c Jd Jd Qs 4s 4s 6h 7c", "Cruz": CRUZ}
    r = bad(play([*stays("Ana", "Ben", "Cruz"), T("Ana", "draw Qh", "discard Qh")], queens), "E4")
    assert r.violations[0].col == 5  # Ana >draw Qh
    ok(play([*stays("Ana", "Ben", "Cruz"), T("Ana", "draw Qd", "discard Qd")], queens))
    # a card laid from a known hand that does not hold it comes from nowhere
    bad(play([*stays("Ana", "Ben", "Cruz"), T("Ana", "draw Jd", "meld [Jd Jd Jd]", "discard 7d")]), "E4")


def test_E4_unknown_hands_trusted_within_the_pack() -> None:
    queens = {"Ana": "Qh Qh Qh Qh 3h 4h Kd Kh 2c 7d", "Cruz": "Qh Qh Qh Qh Jd Qs 4s 4s 6h 7c"}
    events = [*stays("Ana", "Ben", "Cruz"), T("Ana", "draw 2c", "discard 2c")]
    ok(play([*events, T("Ben", "draw Qd", "meld [Qd Qd Qd]", "discard Qc")], queens, players=("Ana", "Ben", "Cruz")))
    r = bad(play([*events, T("Ben", "draw Qh", "discard Qh")], queens, players=("Ana", "Ben", "Cruz")), "E4")
    assert r.violations[0].player == "Ben"
    bad(
        play([*events, T("Ben", "draw Qd", "meld [Qh Qd Qc]", "discard 7c")], queens, players=("Ana", "Ben", "Cruz")),
        "E4",
    )


# ---------------------------------------------------------------- I: irregularities


def test_I1_wrong_count_at_the_deal() -> None:
    long = {**DEALS, "Ben": BEN + " Qd"}
    r = bad(play_strict(stays("Ana", "Ben", "Cruz"), long), "I1")
    v = r.violations[0]
    assert v.ruling == I1_AT_DEAL and v.player == "Ben" and v.line == 4  # Ben's deal line
    bad(play_strict(stays("Ana", "Ben", "Cruz"), {**DEALS, "Ben": "2d 2d 6c"}), "I1")
    # put right (the default): the extra card is dead, I1 is a ruling with its place, and play goes on
    lax = ok(play([*stays("Ana", "Ben", "Cruz"), ANA_MELDS_FIVES], long))
    [remedy] = lax.remedies
    assert (remedy.rule, remedy.violation.player, remedy.violation.line, remedy.retired) == ("I1", "Ben", 4, False)
    assert "Qd" in remedy.remedy and remedy.returns == ()
    assert lax.ledger["Ana"] == 8
    short = ok(play([*stays("Ana", "Ben", "Cruz"), ANA_MELDS_FIVES], {**DEALS, "Ben": "2d 2d 6c"}))
    assert "filled from the stock with 7 cards" in short.remedies[0].remedy
    # the steps: Ben's eleventh card goes from the deal to the dead cards; the others' ten, recorded whole, to the hand
    assert [type(x).__name__ for x in lax.recorded[:4]] == ["Deal", "Step", "Step", "Deal"]  # the deal, its remedy
    ben = lax.steps[1]
    assert ben.player == "Ben" and ben.moves[-1] == (one("Qd"), Source.DEAL, Source.DEAD)
    assert [(a, b) for _, a, b in ben.moves[:-1]] == [(Source.DEAL, Source.HAND)] * 10
    assert lax.steps[0].moves == tuple((c, Source.DEAL, Source.HAND) for c in cards(ANA))
    assert lax.steps[2].event is remedy and lax.steps[2].moves == ()


def test_I2_foul_meld_stopped_at_cites_the_meld_rule_and_its_ruling() -> None:
    deals = {**DEALS, "Ana": "7s 7s 3h 4h Kd Kh Kc 2c 7d Jc"}
    foul = [*stays("Ana", "Ben", "Cruz"), T("Ana", "draw 7c", "meld [7c 7s 7s]", "discard 7d")]
    r = bad(play_strict(foul, deals), "M3")
    v = r.violations[0]
    assert v.ruling == prescribed(Rule.M3) and "I2" in v.message and v.col == 14  # Ana draw 7c, >meld [7c 7s 7s]
    assert not r.payments
    bad(play_strict([*stays("Ana", "Ben", "Cruz"), T("Ana", "draw 5s", "meld [5s 5s]", "discard 7d")]), "M1")
    bad(play_strict([*stays("Ana", "Ben", "Cruz"), T("Ana", "draw 6h", "meld [3h 4h 6h]", "discard 7d")]), "M2")
    # put right (the default): found after the discard, the ruling cites I2 and names the meld's rule
    [remedy] = ok(play(foul, deals)).remedies
    assert (remedy.rule, remedy.violation.col, remedy.retired) == ("I2", 14, True)
    assert remedy.violation.message.endswith("(M3)")


def test_I3_closed_hand_after_going_out() -> None:
    for r in (
        bad(play([*OUT_GAME, T("Cruz", "draw Jc", "discard Jc")], DEALS4), "I3"),
        bad(play([*OUT_GAME[:-1], T("Ben", "draw 2d", "add 2d to #1", "out", "discard 7c")], DEALS4), "I3"),
        bad(play([*OUT_GAME, Decision("Ana", True)], DEALS4), "I3"),
    ):
        assert r.winner == "Ben" and any(p.rule == "C8" and p.payee == "Ben" for p in r.payments)


# ---------------------------------------------------------------- results: steps, strictness


def test_steps_record_provenance_and_payments() -> None:
    r = ok(play([*stays("Ana", "Ben", "Cruz"), ANA_MELDS_FIVES]))
    meld = next(s for s in r.steps if s.action is not None and type(s.action).__name__ == "MeldNew")
    assert meld.moves == (
        (one("5s"), Source.STOCK, Source.MELD),
        (one("5s"), Source.HAND, Source.MELD),
        (one("5s"), Source.HAND, Source.MELD),
    )
    assert len(meld.payments) == 2 and meld.line == 10
    discard = r.steps[-1]
    assert discard.moves == ((one("7d"), Source.HAND, Source.DISCARD_PILE),)
    assert referee_script(hand(DEALS, [*stays("Ana", "Ben", "Cruz"), ANA_MELDS_FIVES]), record_steps=False).steps == ()


def test_steps_of_a_plain_turn_are_recorded_whole_by_either_path() -> None:
    """A plain turn line (draw C, discard C) is recorded as its Turn, by the fast path and the
    general path alike; ``steps`` gives its two steps: the draw, then the drawn card from the
    stock to the pile."""
    script = hand(DEALS, [*stays("Ana", "Ben", "Cruz"), T("Ana", "draw Qd", "discard Qd")])
    general = referee_script(script, fast=False)
    fast = referee_script(script)
    assert fast == general and fast.recorded == general.recorded
    turn = fast.recorded[-1]
    assert isinstance(turn, Turn) and turn.player == "Ana"
    draw, discard = fast.steps[-2:]
    assert (draw.action, draw.moves, draw.event) == (turn.actions[0], (), turn)
    assert discard.moves == ((one("Qd"), Source.STOCK, Source.DISCARD_PILE),) and discard.event is turn
    assert len(fast.steps) == len(fast.recorded) + 1


def test_non_strict_records_every_violation_and_goes_on() -> None:
    events = [
        *stays("Ana", "Ben", "Cruz"),
        T("Ben", "draw 2d", "discard 2d"),
        T("Ana", "draw 5s", "meld [5s 5s 5s]", "add 7d to #1", "discard 7d"),
        T("Ben", "take 7d"),
    ]
    strict = referee_script(hand(DEALS, events), remedy=False)
    lax = referee_script(hand(DEALS, events), strict=False, remedy=False)
    assert [v.rule for v in strict.violations] == ["P1"]
    assert [v.rule for v in lax.violations] == ["P1", "M5", "P3", "P1"]
    assert lax.ledger["Ana"] == 8 and sum(lax.ledger.values()) == 0


def test_turn_numbers_in_rulings() -> None:
    r = bad(play([*stays("Ana", "Ben", "Cruz"), ANA_MELDS_FIVES, T("Ben", "take 7d")]), "P3")
    assert r.violations[0].turn == 2
