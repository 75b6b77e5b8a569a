"""Details of the referee's and the record reader's reports: the winner of a closed hand,
wording, places, malformed hands, comments (one test per rule concerned)."""

from __future__ import annotations

import json

import pytest
from cli_kit import SAMPLES
from click.testing import CliRunner
from pagruc_build import DEALS as PAGRUC_DEALS
from pagruc_build import script as pagruc_script
from referee_kit import T, hand, stays
from test_referee_rules import ANA5, DEALS, DEALS4, OUT_GAME

from pancli.cli import cli
from pancli.model.actions import Decision, HandScript
from pancli.pagruc.referee import referee_script as pagruc_referee_hand
from pancli.referee import referee_script
from pancli.rules import CARDROOM


def _replay(*args: str, stdin: str | None = None) -> tuple[int, str]:
    r = CliRunner().invoke(cli, ["replay", *args], input=stdin)
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    return r.exit_code, r.stdout


# ---------------------------------------------------------------- 1. I3: the winner stands


def test_I3_winner_reported_after_a_line_in_the_closed_hand() -> None:
    code, out = _replay("--json", str(SAMPLES / "illegal-I3-after-out.pan"))
    (h,) = json.loads(out)
    assert code == 1 and h["winner"] == "Cruz" and h["violations"][0]["rule"] == "I3"
    code, text = _replay(str(SAMPLES / "illegal-I3-after-out.pan"))
    assert "  Cruz went out (C8); stopped at the first violation after it (I3)\n" in text
    assert "no winner" not in text


def test_I3_T4_winner_reported_after_a_play_line() -> None:
    record = (
        '[Players "Ana Ben Cruz"]\n\ndeal Ana 5s 5s 3h 4h Kd Kh Kc 2c 7d Jc\ndeal Ben 2d 2d 6c Jd Jd Qs 4s 4s 6h 7c\n'
        "deal Cruz Qh Qh Ah 2h 3c 3d 6s 6s Js Ks\nup 4c\nAna top\nBen stay\nCruz top\n1. Ben draw 2d, discard 2d\n"
    )
    code, out = _replay("--json", "-", stdin=record)
    (h,) = json.loads(out)
    assert code == 1 and h["winner"] == "Ben" and h["violations"][0]["rule"] == "I3"
    _, text = _replay("-", stdin=record)
    assert "  Ben wins: all the others went on top (T4); stopped at the first violation after it (I3)\n" in text


def test_I3_non_strict_win_after_an_earlier_violation_has_no_winner() -> None:
    events = [*OUT_GAME[:4], Decision("Ana", True), *OUT_GAME[4:], T("Cruz", "draw Jc", "discard Jc")]
    r = referee_script(hand(DEALS4, events), strict=False)
    assert [v.rule for v in r.violations] == ["T1", "I3"]
    assert r.winner is None
    r = referee_script(hand(DEALS4, [*OUT_GAME, T("Cruz", "draw Jc", "discard Jc")]), strict=False)
    assert [v.rule for v in r.violations] == ["I3"] and r.winner == "Ben"


# ---------------------------------------------------------------- 2. wording: one card, one meld, one player


def test_S1_one_player_seated_is_singular() -> None:
    r = referee_script(HandScript(players=("Ana",)))
    assert r.violations[0].rule == "S1" and r.violations[0].message.startswith("1 player seated;")


def test_I1_dealt_one_card_is_singular() -> None:
    r = referee_script(hand({**DEALS, "Ben": "2d"}, stays("Ana", "Ben", "Cruz")))
    v = r.remedies[0].violation
    assert (v.rule, v.message) == ("I1", "Ben is dealt 1 card, not 10")
    assert "filled from the stock with 9 cards" in r.remedies[0].remedy


def test_P6_one_meld_is_singular() -> None:
    events = [*stays("Ana", "Ben", "Cruz"), T("Ana", "draw 5s", "meld [5s 5s 5s]", "add 5s to #2", "discard 7d")]
    r = referee_script(hand(ANA5, events))
    assert (r.violations[0].rule, r.violations[0].message) == ("P6", "Ana has 1 meld: no #2 to change")


def test_P7_one_card_in_hand_is_singular() -> None:
    flat = T("Ben", "draw 2d", "meld [2d 2d 2d]", "meld [4s 4s 4s]", "meld [6h 6h 6h 6h]", "out")
    r = referee_script(hand(DEALS4, [*OUT_GAME[:5], flat]))
    assert (r.violations[0].rule, r.violations[0].message) == ("P7", "Ben is not out: 1 card in hand")


def test_G2_dealt_one_card_is_singular() -> None:
    r = pagruc_referee_hand(pagruc_script("Ana Ben Cy", dict(PAGRUC_DEALS, Ben="2c"), "Kh"))
    assert r.violations[0].rule == "G2" and "Ben is dealt 1 card, not 7" in r.violations[0].message


# ---------------------------------------------------------------- 3. places


def test_C7_wrong_pays_claim_is_placed_at_the_claim() -> None:
    path = str(SAMPLES / "illegal-claim-wrong-pays.pan")
    r = CliRunner().invoke(cli, ["replay", path])
    assert f"{path}:23:41: C7 Cruz claims [%pays 2] but each opponent paid 3\n" in r.stderr
    assert f"WRONG CLAIM {path}:23:41: C7" in r.stdout
    _, out = _replay("--json", path)
    (wrong,) = [c for c in json.loads(out)[0]["claims"] if not c["ok"]]
    assert (wrong["line"], wrong["col"]) == (23, 41)


E4_RECORD = '[Players "Ana Ben"]\n\ndeal Ana 5s 5s 5s 5s 5s 5s 5s 5s 3h 4h\n{deal}\n{up}\n'


def _first_violation(record: str) -> dict[str, object]:
    _, out = _replay("--json", "-", stdin=record)
    v: dict[str, object] = json.loads(out)[0]["violations"][0]
    return v


def test_E4_on_a_deal_line_is_placed_at_the_card_and_charged_to_the_dealt_player() -> None:
    fast = E4_RECORD.format(deal="deal Ben 2d 5s 2d 6c 4s Jh 3d Ac 6d 2s", up="up 6h")
    v = _first_violation(fast)
    assert (v["rule"], v["line"], v["col"], v["player"]) == ("E4", 4, 13, "Ben")
    spaced = E4_RECORD.format(deal="deal Ben  {cut} 2d   5s 2d 6c 4s Jh 3d Ac 6d 2s", up="up 6h")
    v = _first_violation(spaced)
    assert (v["rule"], v["line"], v["col"], v["player"]) == ("E4", 4, 22, "Ben")


def test_E4_on_the_up_line_is_placed_at_the_upcard() -> None:
    for up, col in (("up 5s", 4), ("up  {turned} 5s", 14)):
        v = _first_violation(E4_RECORD.format(deal="deal Ben 2d 2d 6c 4s Jh 3d Ac 6d 2s 2s", up=up))
        assert (v["rule"], v["line"], v["col"], v["player"]) == ("E4", 5, col, None)


def test_M6_unused_borrow_is_placed_at_the_borrow() -> None:
    deals = {"Ana": "2c 3c 4c 5c Jh Jh 7d 5c 6s Kd", "Ben": "2d 2d 6c Jd Jd Qs 4s 4s 6h 7c", "Cruz": DEALS["Cruz"]}
    head = [*stays("Ana", "Ben", "Cruz"), T("Ana", "draw Jh", "meld [Jh Jh Jh]", "meld [2c 3c 4c 5c]", "discard 7d")]
    mid = [T("Ben", "draw Qd", "discard Qd"), T("Cruz", "draw Qd", "discard Qd")]
    for turn in (
        T("Ana", "draw 5c", "borrow 5c from #2", "add 5c to #2", "discard Kd"),  # at the discard
        T("Ana", "draw 5c", "borrow 5c from #2"),  # at the end of the turn
    ):
        r = referee_script(hand(deals, [*head, *mid, turn], profile=CARDROOM))
        v = r.violations[0]
        assert (v.rule, v.col) == ("M6", 14) and "completes no new meld" in v.message  # Ana draw 5c, >borrow


# ---------------------------------------------------------------- 4. a malformed hand keeps its players (R5)


def test_R5_malformed_hand_json_names_the_players_read_from_the_tags() -> None:
    code, out = _replay("--json", str(SAMPLES / "malformed-unknown-player.pan"))
    (h,) = json.loads(out)
    assert code == 1 and h["malformed"] and h["players"] == ["Ana", "Ben", "Cruz", "Dee"]
    _, out = _replay("--json", "-", stdin='[Players "Ana Ben"]\n[Rules "nowhere"]\n\nup 6h\n')
    (h,) = json.loads(out)
    assert h["malformed"] and h["players"] == ["Ana", "Ben"]
    _, out = _replay("--json", "-", stdin='[Event "x"]\n\nup 6h\n')
    (h,) = json.loads(out)
    assert h["malformed"] and h["players"] == []


# ---------------------------------------------------------------- 5. only a well-formed [%pays N] is a claim (R8)

PROSE = (
    '[Players "Ana Ben Cruz"]\n\ndeal Ana 5s 5s 3h 4h Kd Kh Kc 2c 7d Jc\nup 4c\nAna stay\nBen stay\nCruz stay\n'
    "1. Ana draw 5s { no [%pays] claim here }, meld [5s 5s 5s] {[%pays two] or [%pays 4]}, discard 7d {[%payslip]}\n"
)


def test_R8_pays_text_in_comment_prose_is_just_comment() -> None:
    code, out = _replay("--json", "-", stdin=PROSE)
    (h,) = json.loads(out)
    assert code == 0 and not h["violations"]
    assert [(c["claimed"], c["ok"], c["col"]) for c in h["claims"]] == [(4, True, 75)]
    r = CliRunner().invoke(cli, ["fmt", "-"], input=PROSE)
    assert r.exit_code == 0 and "{ no [%pays] claim here }" in r.stdout


def test_R8_well_formed_claim_misplaced_or_repeated_is_still_malformed() -> None:
    for late in ("discard 7d {[%pays 2]}", "discard 7d {[%pays\t2 ]}"):
        code, out = _replay("--json", "-", stdin=PROSE.replace("discard 7d {[%payslip]}", late))
        assert code == 1 and json.loads(out)[0]["violations"][0]["rule"] == "R8"
    twice = PROSE.replace("{[%pays two] or [%pays 4]}", "{[%pays 4]} {[%pays 4]}")
    code, out = _replay("--json", "-", stdin=twice)
    assert code == 1 and json.loads(out)[0]["violations"][0]["rule"] == "R8"


# ---------------------------------------------------------------- 6. fmt keeps ';' comment text as written (R8)

TABLE = '[Players "Ana Ben"]\n;   | who | units |\n;   | Ana |   +3  |\n\nAna stay ;    kept   \nBen stay ;x\n'


def test_R8_fmt_keeps_the_text_of_semicolon_comments_and_is_idempotent() -> None:
    once = CliRunner().invoke(cli, ["fmt", "-"], input=TABLE).stdout
    assert ";   | who | units |\n;   | Ana |   +3  |\n" in once
    assert "Ana stay ;    kept\nBen stay ; x\n" in once
    assert CliRunner().invoke(cli, ["fmt", "-"], input=once).stdout == once


def test_P6_meld_number_naming_no_meld_is_placed_at_the_number_like_R6() -> None:
    sample = (SAMPLES / "illegal-P6-own-melds.pan").read_text(encoding="utf-8")
    assert "5. Ana draw 7c, add 7c to #2 ??" in sample
    places = {}
    for target in ("#2", "#0", "#99999", "#" + "9" * 30):
        _, out = _replay("--json", "-", stdin=sample.replace("add 7c to #2", f"add 7c to {target}"))
        v = json.loads(out)[0]["violations"][0]
        places[target] = (v["rule"], v["line"], v["col"])
    assert places == {
        "#2": ("P6", 21, 27),
        "#0": ("R6", 21, 27),
        "#99999": ("P6", 21, 27),
        "#" + "9" * 30: ("R10", 21, 27),  # past the 9-digit limit of any number (docs/limits.md)
    }
    spaced = sample.replace("add 7c to #2", "add 7c {not #2} to   #2")
    _, out = _replay("--json", "-", stdin=spaced)
    assert json.loads(out)[0]["violations"][0]["col"] == 38


@pytest.mark.parametrize(
    "action",
    ["borrow 5s from #2, meld [5s 5s 7c], discard 3h", "split #2 [5s 5s 5s] [7c 7c 7c]", "add 7c to {#1} #2"],
)
def test_P6_of_a_borrow_or_split_is_placed_at_the_number_the_reader_recorded(action: str) -> None:
    sample = (SAMPLES / "illegal-P6-own-melds.pan").read_text(encoding="utf-8")
    record = sample.replace("add 7c to #2 ??", action)
    _, out = _replay("--json", "--rules", "cardroom", "-", stdin=record)
    v = json.loads(out)[0]["violations"][0]
    line = record.splitlines()[v["line"] - 1]
    assert (v["rule"], v["col"]) == ("P6", line.index("#2") + 1)


def test_G7_wrong_pagruc_claim_is_placed_at_the_claim() -> None:
    sample = (SAMPLES / "pagruc-common-room.pan").read_text(encoding="utf-8")
    line = "Ana take 4d, meld [4h 4c 4d], discard Qs"
    assert line in sample
    record = sample.replace(line, "Ana take 4d, meld [4h 4c 4d] {[%pays 99]}, discard Qs")
    r = CliRunner().invoke(cli, ["replay", "-"], input=record)
    assert "-:19:31: G7 Ana claims [%pays 99] but the meld scores 12\n" in r.stderr
    _, out = _replay("--json", "-", stdin=record)
    (claim,) = [c for c in json.loads(out)[0]["claims"] if c["kind"] == "pays"]
    assert (claim["line"], claim["col"], claim["claimed"]) == (19, 31, 99)
