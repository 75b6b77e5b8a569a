"""S3 between hands: the winner of a hand is first hand in the next one (docs/rules.md)."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_kit import ROOT
from click.testing import CliRunner

from pancli.cards import Game
from pancli.cli import cli
from pancli.model.actions import HandScript
from pancli.model.results import HandResult
from pancli.panrules import PanRules
from pancli.referee.play import next_hand_violation
from pancli.referee.table import Table
from pancli.rules import HOYLE, Ending

FRIDAY = ROOT / "samples" / "friday-hoyle.pan"

WON = HandResult(("Ana", "Ben", "Cy", "Dee"), "Cy", (), {"Ana": -1, "Ben": -1, "Cy": 3, "Dee": -1}, ending=Ending.OUT)
RULES = PanRules(HOYLE)


def test_S3_the_winner_is_first_hand_and_the_seating_order_is_kept() -> None:
    assert RULES.next_order(WON.players, WON.winner) == ("Cy", "Dee", "Ana", "Ben")
    assert next_hand_violation(WON, HandScript(players=("Cy", "Dee", "Ana", "Ben")), RULES) is None


@pytest.mark.parametrize(
    "order", [("Dee", "Ana", "Ben", "Cy"), ("Cy", "Ana", "Dee", "Ben"), ("Ana", "Ben", "Cy", "Dee")]
)
def test_S3_another_order_is_a_violation_before_play(order: tuple[str, ...]) -> None:
    v = next_hand_violation(WON, HandScript(players=order, first_line=30), RULES)
    assert v is not None and (v.rule, v.line, v.col, v.player, v.turn) == ("S3", 30, 1, order[0], 0)
    assert "Cy Dee Ana Ben" in v.message and v.ruling.startswith("S3:")
    table = Table(HandScript(players=order, first_line=30), rules=RULES, after=WON)
    assert not table.deal_in() and table.stopped  # the position stops before play (S3)
    stopped = table.finish()
    assert stopped.violations == (v,) and (stopped.ending, stopped.ending_rule) == (Ending.STOPPED, "S3")
    assert stopped.payments == () and set(stopped.ledger.values()) == {0} and stopped.winner is None


@pytest.mark.parametrize("order", [("Dee", "Cy", "Ana"), ("Eve", "Ana", "Ben", "Cy", "Dee"), ("Ana", "Eve", "Cy")])
def test_S3_holds_when_others_left_or_joined_if_the_winner_sits(order: tuple[str, ...]) -> None:
    v = next_hand_violation(WON, HandScript(players=order, first_line=30), RULES)
    assert v is not None and (v.rule, v.line, v.player) == ("S3", 30, order[0])
    assert v.message.endswith(f"the order of play starts with Cy, not {order[0]}")
    assert next_hand_violation(WON, HandScript(players=("Cy", *[p for p in order if p != "Cy"])), RULES) is None


def test_S3_no_constraint_without_a_winner_with_the_winner_gone_or_in_pagruc() -> None:
    void = HandResult(WON.players, None, (), dict.fromkeys(WON.players, 0), ending=Ending.VOID)
    assert next_hand_violation(void, HandScript(players=("Dee", "Ana", "Ben", "Cy")), RULES) is None
    assert next_hand_violation(WON, HandScript(players=("Dee", "Ana", "Ben", "Eve")), RULES) is None  # Cy left
    pagruc = HandScript(players=("Dee", "Ana", "Ben", "Cy"), game=Game.PAGRUC)
    assert next_hand_violation(WON, pagruc, RULES) is None


def _hand_one() -> str:
    text = FRIDAY.read_text(encoding="utf-8")
    return text[: text.index("; Cruz won")]  # hand 1, legal on its own: Cruz wins it


def _seated_wrong() -> str:
    """Hand 1 twice: legal each on its own, but Cruz won the first and Ana leads the second."""
    return _hand_one() + _hand_one()


def test_S3_replay_stops_the_next_hand_and_the_record_is_illegal() -> None:
    r = CliRunner().invoke(cli, ["replay", "--json", "-"], input=_seated_wrong())
    assert r.exit_code == 1
    import json

    first, second = json.loads(r.stdout)
    assert first["winner"] == "Cruz" and first["violations"] == []
    [v] = second["violations"]
    assert (v["rule"], v["player"], v["col"]) == ("S3", "Ana", 1)
    assert second["payments"] == [] and second["winner"] is None


def test_S3_holds_only_within_one_record(tmp_path: Path) -> None:
    one, two = tmp_path / "one.pan", tmp_path / "two.pan"
    one.write_text(_hand_one(), encoding="utf-8")
    two.write_text(_hand_one(), encoding="utf-8")
    r = CliRunner().invoke(cli, ["replay", str(one), str(two)])
    assert r.exit_code == 0, r.stderr


def test_S3_is_checked_across_the_chunks_of_replay_jobs(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import pancli.app.replay as replay

    monkeypatch.setattr(replay, "CHUNK_HANDS", 1)  # every hand its own chunk: S3 always across a cut
    bad = tmp_path / "bad.pan"
    bad.write_text(_seated_wrong(), encoding="utf-8")
    one = CliRunner().invoke(cli, ["replay", "--json", str(bad)])
    two = CliRunner().invoke(cli, ["replay", "--json", "--jobs", "2", str(bad)])
    assert one.exit_code == two.exit_code == 1
    assert one.stdout == two.stdout and one.stderr == two.stderr
    good = CliRunner().invoke(cli, ["replay", "--jobs", "2", str(FRIDAY)])
    assert good.exit_code == 0, good.stderr
    assert good.stdout.rstrip().endswith("2 clean, 0 with a violation, 0 with a wrong claim, 0 malformed")
