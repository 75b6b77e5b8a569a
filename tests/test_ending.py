"""How a hand ended and how each player retired: recorded once by the referee
(``HandResult.ending``, ``ending_rule``, ``retirements``) and read by every output, never
worked out again from the payments or from a sentence."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_kit import SAMPLES, pan

from pancli.api import parse_records
from pancli.cards import Game
from pancli.model.results import HandResult, Retirement
from pancli.referee import referee_script
from pancli.referee.position import PositionUnavailable, position_at
from pancli.rulebook import Rule
from pancli.rules import Ending

TERMINAL = {"PAN_FORCE_TERMINAL": "1", "COLUMNS": "160", "NO_COLOR": "1"}


def _tops_without_forfeit(tmp_path: Path) -> Path:
    """Ana wins on tops (T4) under house rules with no forfeit: nobody pays anything."""
    (tmp_path / "free.toml").write_text('base = "hoyle"\nname = "free"\nforfeit = 0\n', encoding="utf-8")
    record = tmp_path / "tops.pan"
    record.write_text(
        '[Rules "free.toml"]\n[Players "Ana Ben Cruz"]\n\nAna stay\nBen top\nCruz top\n', encoding="utf-8"
    )
    return record


def _result(name: str, hand: int = 0, *, strict: bool = False) -> HandResult:
    script = parse_records((SAMPLES / name).read_text(encoding="utf-8"), name, SAMPLES)[hand].script
    assert script is not None
    return referee_script(script, remedy=not strict)


def test_T4_a_win_on_tops_with_no_forfeit_is_not_going_out(tmp_path: Path) -> None:
    record = _tops_without_forfeit(tmp_path)
    plain = pan("replay", str(record))
    assert plain.exit_code == 0
    assert "  Ana wins: all the others went on top (T4)\n" in plain.stdout
    assert "went out" not in plain.stdout and "C8" not in plain.stdout
    (hand,) = json.loads(pan("replay", "--json", str(record)).stdout)
    assert (hand["winner"], hand["ending"], hand["ending_rule"], hand["payments"]) == ("Ana", "tops", "T4", [])
    terminal = pan("replay", str(record), env=TERMINAL).stdout
    assert "Ana wins: all the others went on top (T4)" in terminal and "C8" not in terminal
    html = tmp_path / "tops.html"
    assert pan("replay", str(record), "--html", str(html)).exit_code == 0
    assert "Ana wins: all the others went on top (T4)" in html.read_text(encoding="utf-8")


def test_T4_the_position_after_a_win_on_tops_cites_T4(tmp_path: Path) -> None:
    record = _tops_without_forfeit(tmp_path)
    (hand,) = parse_records(record.read_text(encoding="utf-8"), record.name, tmp_path)
    script = hand.script
    assert script is not None
    with pytest.raises(PositionUnavailable) as e:
        position_at(script, 99, "Ana")
    assert e.value.rule == Rule.T4


@pytest.mark.parametrize(
    ("sample", "hand", "ending", "rule", "winner"),
    [
        ("friday-hoyle.pan", 0, Ending.OUT, Rule.C8, "Cruz"),
        ("cardroom-tops-and-borrowing.pan", 0, Ending.TOPS, Rule.T4, "Cruz"),
        ("cardroom-tops-and-borrowing.pan", 1, Ending.VOID, Rule.T4, None),
        ("illegal-M3-foul-meld.pan", 0, Ending.UNFINISHED, None, None),
        ("illegal-P7-count.pan", 0, Ending.STOPPED, Rule.P7, None),
        ("illegal-I3-after-out.pan", 0, Ending.OUT, Rule.C8, "Cruz"),
    ],
)
def test_the_referee_records_how_each_hand_ended(
    sample: str, hand: int, ending: Ending, rule: Rule | None, winner: str | None
) -> None:
    r = _result(sample, hand)
    assert (r.ending, r.ending_rule, r.winner) == (ending, rule, winner)
    assert r.finished == (ending in (Ending.OUT, Ending.TOPS, Ending.VOID))
    assert r.void == (ending is Ending.VOID)


def test_P10_a_hand_voided_by_the_stock_says_P10_alone() -> None:
    pan_text = (SAMPLES / "cardroom-tops-and-borrowing.pan").read_text(encoding="utf-8")
    out = pan("replay", "-", input=pan_text).stdout
    assert "void hand (everybody went on top): forfeits and tops returned (T4)\n" in out
    assert "(T4, P10)" not in out


@pytest.mark.parametrize(
    ("sample", "rule", "line"),
    [("illegal-M3-foul-meld.pan", Rule.I2, 19), ("irregular-I1-found-late.pan", Rule.I1, None)],
)
def test_I1_I2_each_retirement_is_recorded_with_its_rule(sample: str, rule: Rule, line: int | None) -> None:
    r = _result(sample)
    (gone,) = r.retirements
    assert gone.rule == rule and (line is None or gone.line == line)
    (remedy,) = [x for x in r.remedies if x.retired]
    assert remedy.violation.player == gone.player and r.retirement(gone.player) == gone
    assert r.retirement("nobody") is None


def test_I2_the_ledger_shows_a_retired_player_as_retired_under_his_rule(tmp_path: Path) -> None:
    sample = str(SAMPLES / "illegal-M3-foul-meld.pan")
    terminal = pan("replay", sample, env=TERMINAL).stdout
    row = next(line for line in terminal.splitlines() if line.startswith("│ Cruz"))
    assert "retired (I2)" in row and "stayed" not in row
    assert "unfinished: nobody went out (Cruz retired (I2))" in terminal
    html = tmp_path / "m3.html"
    pan("replay", sample, "--html", str(html))
    assert "<td>Cruz</td><td>retired (I2)</td>" in html.read_text(encoding="utf-8")


def test_I1_the_position_of_a_retired_player_cites_the_rule_he_retired_under() -> None:
    (hand,) = parse_records((SAMPLES / "irregular-I1-found-late.pan").read_text(encoding="utf-8"))
    script = hand.script
    assert script is not None
    r = referee_script(script)
    (gone,) = r.retirements
    with pytest.raises(PositionUnavailable) as e:
        position_at(script, gone.line + 1, gone.player)
    assert e.value.rule == Rule.I1 and f"at line {gone.line} (I1)" in e.value.message


def test_the_printed_ruling_belongs_to_the_rule_cited() -> None:
    """Every violation and irregularity of every sample, put right or stopped at (--strict):
    its ruling is the rulebook's ruling of the rule it cites."""
    seen = set()
    for path in sorted(SAMPLES.glob("*.pan")):
        if path.stem.startswith(("malformed-", "pagruc-")):
            continue
        for hand in parse_records(path.read_text(encoding="utf-8"), path.name, path.parent):
            script = hand.script
            if script is None or script.game is not Game.PANGUINGUE:
                continue
            for strict in (False, True):
                r = referee_script(script, strict=False, remedy=not strict)
                for v in (*r.violations, *(x.violation for x in r.remedies)):
                    assert v.ruling.startswith(f"{v.rule}:"), (path.name, v.rule, v.ruling)
                    seen.add(v.rule)
    assert {Rule.M3, Rule.I1, Rule.I2} <= seen


def test_M3_strict_cites_M3_with_its_own_ruling() -> None:
    out = pan("replay", "--strict", str(SAMPLES / "illegal-M3-foul-meld.pan")).stdout
    assert "    ruling: M3: a set that mixes suits" in out and "ruling: I2" not in out


def test_retirement_is_a_value() -> None:
    assert Retirement("Cruz", Rule.I2, 19) == Retirement("Cruz", Rule.I2, 19)


ALL_RETIRE = """[Players "Ana Ben"]

deal Ana 7c 7d Ah 2h 6s Qs Qs 4d Jd 3c
deal Ben 5c 5d 3h 4h Kd Kh Kc Jc Qc 2s
up 6h
Ana stay
Ben stay
1. Ana draw 7c, meld [7c 7c 7d], discard Jd
2. Ben draw 5c, meld [5c 5c 5d], discard Jc
"""


def test_I2_when_every_player_retires_the_hand_is_void_under_I2() -> None:
    (hand,) = parse_records(ALL_RETIRE)
    assert hand.script is not None
    r = referee_script(hand.script)
    assert (r.ending, r.ending_rule, r.winner) == (Ending.VOID, Rule.I2, None)
    assert [g.player for g in r.retirements] == ["Ana", "Ben"]
    out = pan("replay", "-", input=ALL_RETIRE).stdout
    assert "  void hand (every player retired): forfeits and tops returned (I2)\n" in out


def test_P10_a_line_after_every_player_retired_is_ruled_not_a_crash() -> None:
    r = pan("replay", "-", input=ALL_RETIRE + "3. Ana draw 3s, discard 3s\n")
    assert r.exit_code == 1 and "Traceback" not in r.stderr
    assert "-:10:4: P10 the hand is void: nothing more is played" in r.stderr
    assert pan("settle", "-", input=ALL_RETIRE + "3. Ana draw 3s, discard 3s\n").exit_code == 1


@pytest.mark.parametrize("sample", ["illegal-M3-foul-meld.pan", "irregular-I1-found-late.pan"])
@pytest.mark.parametrize("mode", [(), ("--json",), ("--jsonl",)])
def test_I1_I2_settle_exits_1_as_replay_does_for_an_irregularity_put_right(sample: str, mode: tuple[str, ...]) -> None:
    path = str(SAMPLES / sample)
    replay, settle = pan("replay", *mode, path), pan("settle", *mode, path)
    assert replay.exit_code == settle.exit_code == 1
    assert f"{path}:" in settle.stderr and (" I1 " in settle.stderr or " I2 " in settle.stderr)


def test_settle_exits_0_for_legal_and_unfinished_hands() -> None:
    assert pan("settle", str(SAMPLES / "friday-hoyle.pan")).exit_code == 0
    cut = '[Players "Ana Ben"]\n\nAna stay\nBen stay\n1. Ana draw 5s, discard 5s\n'
    r = pan("settle", "-", input=cut)
    assert r.exit_code == 0 and "unfinished" in r.stdout
