"""``pan analyze``: input, validation (P7, E4), P4, C7/C8 through the draw table, JSON, output formats."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from typing import Any

from cli_kit import pan
from click.testing import CliRunner, Result

from pancli.analyze.analysis import analyze
from pancli.analyze.arrange import HandContext, best_arrangement
from pancli.cards import PAN_CARDS, Rank, Suit, card
from pancli.cli import cli
from pancli.meldspace import SLOT_OF
from pancli.notation import parse_hand, parse_meld
from pancli.rules import CARDROOM, HOYLE

HAND = "5s 5s 5s 3h 4h Kd Kh Kc 2c 7d"


def run(*args: str, input: str | None = None) -> Result:
    return pan("analyze", "--samples", "200", *args, input=input)


def as_json(*args: str) -> dict[str, Any]:
    r = run("--json", *args)
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert isinstance(data, dict)
    return data


def test_json_has_the_notation_fields() -> None:
    data = as_json(HAND)
    assert [m["meld"] for m in data["best"]] == ["5s 5s 5s", "Kh Kd Kc"]
    assert [m["value"] for m in data["best"]] == [4, 0]
    assert data["melded"] == 6
    assert sorted(data["dead"]) == sorted(["3h", "4h", "2c", "7d"])
    assert len(data["draws"]) == 40
    assert {"card", "live", "melds", "value"} <= set(data["draws"][0])
    useful = sum(d["live"] for d in data["draws"] if d["useful"])
    assert data["p_useful"] == useful / data["unseen"]
    assert data["unseen"] == 320 - 10


def test_hand_as_separate_arguments_and_shorthand_agree() -> None:
    a = as_json(*HAND.split())
    b = as_json("5sss 3-4h Kdhc 2c 7d")
    assert a["best"] == b["best"] and a["draws"] == b["draws"]


def test_P7_wrong_count_is_exit_1_with_the_rule() -> None:
    r = run("5s 5s 5s 3h 4h Kd Kh Kc 2c")
    assert r.exit_code == 1
    assert "P7" in r.stderr and "Traceback" not in r.output
    r = run(HAND + " 6c")
    assert r.exit_code == 1 and "+CARD" in r.stderr  # eleven cards: mark the drawn one


def test_E4_own_and_seen_copies_cannot_pass_the_pack() -> None:
    r = run(HAND, "--seen", "5s 5s 5s 5s 5s 5s")
    assert r.exit_code == 1 and " E4 " in r.stderr
    r = run("7s 7s 7s 7s 7s 7s 7s Kh Kc 2c", "--rules", "cardroom")  # 7 spades exist in a 310 pack
    assert r.exit_code == 0, r.stderr
    r = run("7s 7s 7s 7s 7s 7s 7s 7s Kc 2c", "--rules", "cardroom")
    assert r.exit_code == 1 and "E4" in r.stderr


def test_E4_melds_on_the_table_are_judged_under_the_rules_option() -> None:
    r = run("2c", "--melds", "[5s 5s 5s 5s 5s 5s 5s 5s 5s]", "--rules", "cardroom")
    assert r.exit_code == 1 and "9 copies of 5s, but the pack holds 7" in r.stderr
    r = run("2c 3c", "--melds", "[5s 5s 5s 5s 5s 5s 5s 5s]", "--rules", "cardroom")  # was accepted: 8 > 7
    assert r.exit_code == 1 and "8 copies of 5s, but the pack holds 7" in r.stderr
    r = run("2c 3c", "--melds", "[5s 5s 5s 5s 5s 5s 5s 5s]")
    assert r.exit_code == 0, r.stderr


def test_E1_card_not_in_pack_and_usage_errors() -> None:
    r = run("5s 5s 5s 3h 4h Kd Kh Kc 2c 8d")
    assert r.exit_code == 1 and "E1" in r.stderr
    assert run(HAND, "--players", "1").exit_code == 2
    assert run(HAND, "--draw", "Kd", "+Kd").exit_code == 2


def test_P4_unusable_draw_means_nothing_goes_down_now() -> None:
    data = as_json(HAND + " +Qc")
    assert data["drawn"] == "Qc"
    assert data["now"] is None
    assert [m["meld"] for m in data["waits"]["melds"]] == ["5s 5s 5s", "Kh Kd Kc"]


def test_P4_usable_draw_opens_the_gate_for_the_hand() -> None:
    data = as_json(HAND, "--draw", "5h")
    now = data["now"]
    assert [m["meld"] for m in now["melds"]] == ["3h 4h 5h", "5s 5s 5s", "Kh Kd Kc"]
    assert now["melded"] == 9 and now["value"] == 4
    assert data["waits"] is None


def test_C7_adding_a_fourth_5s_to_a_table_meld_collects_2() -> None:
    data = as_json("3h 4h Kd Kh Kc 2c 7d", "--melds", "[5s 5s 5s]", "--players", "6")
    row = next(d for d in data["draws"] if d["card"] == "5s")
    assert row["usable"] and row["value"] == 2 and row["total"] == 10


def test_C7_extending_2h_3h_4h_down_to_ah_collects_2() -> None:
    data = as_json("5s 5s 5s Kd Kh Kc 7d", "--melds", "2h 3h 4h")
    row = next(d for d in data["draws"] if d["card"] == "Ah")
    assert row["value"] == 2 + 4  # the ace's C4 change, and the hand's 5s 5s 5s goes down with it (P4)
    assert row["melds"] == ["Ah 2h 3h 4h"]


def test_C8_section_8_four_5s_and_two_conditionless_melds_going_out() -> None:
    hand = [*parse_meld("5s 5s 5s 5s 2h 3h 4h Kc Kd Ks")]
    a = analyze(hand, CARDROOM, players=6, samples=50)
    row = a.row(card(Rank.FIVE, Suit.HEARTS))
    assert row.out and row.value == 6  # four 5s laid at once: 6 from each (C7)
    assert a.out_value(row) == 8  # 6 again + 2 (C8, cardroom out_bonus)
    assert (row.value + a.out_value(row)) * a.opponents == 14 * 5


def test_section_8_worked_figures_through_the_analyzer() -> None:
    figures = {
        "5s 5s 5s": 4, "5h 5h 5h": 2, "5h 5c 5d": 1, "Qs Qs Qs": 2, "Qh Qh Qh": 1,
        "Kc Kd Ks": 0, "As 2s 3s": 2, "Jc Qc Kc": 1, "7c Jc Qc": 0, "5s 5s 5s 5s": 6,
    }  # fmt: skip
    for text, each in figures.items():
        a = best_arrangement(parse_meld(text), HOYLE)
        assert (a.melded, a.value, a.value * 5) == (len(text.split()), each, each * 5), text


def test_probabilities_match_a_direct_count_of_the_unseen_cards() -> None:
    hand = list(parse_hand("5sss 3h 4h Kd Kh Kc 2c 7d").cards)
    seen = list(parse_meld("5h 5h 2h Ks Qd"))
    a = analyze(hand, HOYLE, seen=seen, samples=100)
    unseen = Counter(HOYLE.pack.full())
    unseen.subtract(Counter(hand))
    unseen.subtract(Counter(seen))
    stock = list(unseen.elements())
    ctx = HandContext(hand, HOYLE)
    useful = sum(1 for c in stock if ctx.using(SLOT_OF[c]) is not None)
    outs = sum(1 for c in stock if (u := ctx.using(SLOT_OF[c])) is not None and not u.dead)
    assert a.unseen == len(stock)
    assert a.p_useful == useful / len(stock)
    assert a.p_out_next == outs / len(stock)
    assert all(0.0 <= p <= 1.0 for p in (a.p_useful, a.p_out_next, *a.odds.p))
    assert list(a.odds.p) == sorted(a.odds.p)


def test_out_odds_first_turn_is_exact_and_monte_carlo_agrees() -> None:
    hand = list(parse_meld("5s 5s 5s 3h 4h 5h Kd Kh Kc 2h"))
    a = analyze(hand, HOYLE, samples=3000, seed=7)
    assert a.odds.p[0] == a.p_out_next > 0
    q = a.odds.p[0]
    se = (q * (1 - q) / a.odds.samples) ** 0.5
    assert abs(a.odds.sampled_first - q) <= 4 * se  # the simulation agrees with the exact count
    assert a.odds.se[1] <= 0.5 / a.odds.samples**0.5 + 1e-12


def test_distance_counts_the_fewest_useful_draws() -> None:
    out_now = analyze(list(parse_meld("5s 5s 5s 3h 4h 5h Kd Kh Kc 2c")), samples=50, profile=HOYLE)
    assert out_now.distance.draws == 2  # 2c is discarded on one useful draw, the next puts him out
    ready = analyze(list(parse_meld("5s 5s 5s 3h 4h 5h Kd Kh Kc 2h")), samples=50, profile=HOYLE)
    assert ready.distance.draws == 1 and any(r.out for r in ready.rows)
    assert ready.p_out_next > 0


def test_every_card_row_and_live_copies() -> None:
    data = as_json(HAND, "--seen", "5s 5s Kh")
    live = {d["card"]: d["live"] for d in data["draws"]}
    assert set(live) == {str(c) for c in PAN_CARDS}
    assert live["5s"] == 8 - 3 - 2 and live["Kh"] == 8 - 1 - 1 and live["Qd"] == 8


def test_plain_output_in_a_pipe_without_rich() -> None:
    code = (
        "import sys; from pancli.cli import main; sys.argv = ['pan', 'analyze', '--samples', '100', "
        f"'{HAND}']\ntry:\n    main()\nexcept SystemExit:\n    pass\nassert 'rich' not in sys.modules"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    lines = dict(ln.split("\t", 1) for ln in r.stdout.splitlines() if "\t" in ln)
    assert lines["melded"].startswith("6 cards, 4 from each opponent (20 in all)")
    assert "card\tlive\tusable" in r.stdout


def test_terminal_output_draws_the_grid() -> None:
    r = CliRunner().invoke(
        cli, ["analyze", "--samples", "100", HAND], env={"PAN_FORCE_TERMINAL": "1", "COLUMNS": "160"}
    )
    assert r.exit_code == 0, r.output
    assert "draws (live copies)" in r.stdout and "usable draws" in r.stdout


def test_T2_advice_states_costs_and_interval() -> None:
    data = as_json("5sss 3-5h Kdhc 2h", "--advice", "--players", "3", "--seed", "4")
    adv = data["advice"]
    assert adv["top"] == -2 and adv["samples"] == 200
    lo, hi = adv["stay_ci95"]
    assert lo <= adv["stay"] <= hi
    cardroom = as_json("5sss 3-5h Kdhc 2h", "--advice", "--players", "3", "--rules", "cardroom")
    assert cardroom["advice"]["top"] == -1
    again = as_json("5sss 3-5h Kdhc 2h", "--advice", "--players", "3", "--seed", "4")
    assert again["advice"] == adv  # seeded
