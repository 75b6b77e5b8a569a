"""Details of the referee's and the record reader's reports: the winner of a closed hand,
wording, places, malformed hands, comments (one test per rule concerned)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from referee_kit import T, hand
from test_referee_rules import DEALS4, OUT_GAME

from pancli.cli import cli
from pancli.referee import referee_hand
from pancli.referee.actions import Decision

SAMPLES = Path(__file__).resolve().parent.parent / "samples"


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
    r = referee_hand(hand(DEALS4, events), strict=False)
    assert [v.rule for v in r.violations] == ["T1", "I3"]
    assert r.winner is None
    r = referee_hand(hand(DEALS4, [*OUT_GAME, T("Cruz", "draw Jc", "discard Jc")]), strict=False)
    assert [v.rule for v in r.violations] == ["I3"] and r.winner == "Ben"
