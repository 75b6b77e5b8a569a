"""The shipped Panguingue samples replay as their sidecars say (samples/expected/NAME.json:
exit status, and per hand the winner, the ledger, whether the claims hold and the first
violation with its rule, line, column and player), they are in canonical form, and
together they show what the issue asks of them (both profiles, 4 to 8 players, going on
top, both kinds of forcing, increases, borrowing and splitting, comments, glyphs, claims
and a stake).

The ledgers in the sidecars were worked out by hand from docs/rules.md and agree with the
``[Ledger]`` tag of each legal record, which the referee checks independently.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from cli_kit import SAMPLES
from click.testing import CliRunner

from pancli.cli import cli
from pancli.model.actions import Add, Borrow, Decision, Force, HandScript, MeldNew, Split, Take, Turn
from pancli.records import read_hands
from pancli.rules import Forcing

EXPECTED = SAMPLES / "expected"


def _sidecars() -> list[Path]:
    """The Panguingue sidecars (the PAGRUC ones have their own shape and tests)."""
    return sorted(p for p in EXPECTED.glob("*.json") if "exit" in json.loads(p.read_text(encoding="utf-8")))


SIDECARS = _sidecars()
LEGAL = [p for p in SIDECARS if json.loads(p.read_text(encoding="utf-8"))["exit"] == 0]


def _replay_json(path: Path, *extra: str) -> tuple[int, list[dict[str, Any]], str]:
    r = CliRunner().invoke(cli, ["replay", "--json", *extra, str(path)])
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    return r.exit_code, json.loads(r.stdout), r.stderr


def _scripts(path: Path) -> list[HandScript]:
    with path.open(encoding="utf-8") as f:
        hands = list(read_hands(f, path.name, path.parent))
    return [h.script for h in hands if h.script is not None]


def test_there_are_enough_samples() -> None:
    assert len(LEGAL) >= 6
    assert len(SIDECARS) - len(LEGAL) >= 12


def test_every_sample_has_a_sidecar() -> None:
    for pan in SAMPLES.glob("*.pan"):
        assert (EXPECTED / f"{pan.stem}.json").is_file(), pan.name


@pytest.mark.parametrize("sidecar", SIDECARS, ids=lambda p: p.stem)
def test_sample_replays_as_its_sidecar_says(sidecar: Path) -> None:
    expected = json.loads(sidecar.read_text(encoding="utf-8"))
    code, hands, _ = _replay_json(SAMPLES / expected["file"])
    assert code == expected["exit"]
    got = []
    for h in hands:
        v = h["violations"][0] if h["violations"] else None
        got.append(
            {
                "hand": h["hand"],
                "malformed": bool(h.get("malformed")),
                "winner": h["winner"],
                "ending": h.get("ending"),  # how the referee recorded the end (none: malformed)
                "ending_rule": h.get("ending_rule"),
                "ledger": h["ledger"],
                "claims_ok": h["claims_ok"],
                "violation": None
                if v is None
                else {"rule": v["rule"], "line": v["line"], "col": v["col"], "player": v["player"]},
            }
        )
        if h.get("rulings"):  # irregularities put right (I1, I2): what was returned, who retired
            got[-1]["rulings"] = [
                {
                    "rule": r["rule"],
                    "line": r["line"],
                    "col": r["col"],
                    "player": r["player"],
                    "retired": r["retired"],
                    "returned": sum(p["units"] for p in r["returns"]),
                }
                for r in h["rulings"]
            ]
    assert got == expected["hands"]


@pytest.mark.parametrize("sidecar", SIDECARS, ids=lambda p: p.stem)
def test_sample_ledgers_sum_to_zero(sidecar: Path) -> None:
    for hand in json.loads(sidecar.read_text(encoding="utf-8"))["hands"]:
        assert sum(hand["ledger"].values()) == 0


@pytest.mark.parametrize("sidecar", LEGAL, ids=lambda p: p.stem)
def test_legal_sample_claims_hold_and_every_hand_is_finished(sidecar: Path) -> None:
    code, hands, stderr = _replay_json(SAMPLES / json.loads(sidecar.read_text(encoding="utf-8"))["file"])
    assert code == 0 and stderr == ""
    for h in hands:
        assert h["claims_ok"] and not h["violations"]
        assert h["finished"] and (h["winner"] is not None or h["void"])
        assert any(c["kind"] == "ledger" for c in h["claims"])  # every legal hand states its ledger


@pytest.mark.parametrize("sidecar", [p for p in SIDECARS if p.stem.startswith("illegal-")], ids=lambda p: p.stem)
def test_illegal_sample_is_named_after_the_rule_it_breaks(sidecar: Path) -> None:
    expected = json.loads(sidecar.read_text(encoding="utf-8"))
    rule = sidecar.stem.split("-")[1]
    hands = expected["hands"]
    if rule == "claim":
        assert all(h["violation"] is None for h in hands)
        assert any(not h["claims_ok"] for h in hands)
    elif any(h.get("rulings") for h in hands):  # an irregularity put right: I1, I2 (a foul meld's M rule)
        _, judged, _ = _replay_json(SAMPLES / expected["file"])
        first = next(r for h in judged for r in h["rulings"])
        assert rule in (first["rule"], first["message"].rsplit("(", 1)[-1].rstrip(")"))
    else:
        first = next(h["violation"] for h in hands if h["violation"] is not None)
        assert first["rule"] == rule


def test_malformed_hand_is_reported_and_the_next_hand_refereed() -> None:
    code, hands, stderr = _replay_json(SAMPLES / "malformed-record.pan")
    assert code == 1
    assert [h.get("malformed", False) for h in hands] == [True, False]
    assert hands[1]["winner"] == "Ana" and hands[1]["claims_ok"]
    assert stderr.startswith("malformed-record.pan:12:10: E1 ") or "malformed-record.pan:12:10: E1 " in stderr


@pytest.mark.parametrize(
    "pan", [p for p in sorted(SAMPLES.glob("*.pan")) if not p.stem.startswith("malformed-")], ids=str
)
def test_sample_is_in_canonical_form(pan: Path) -> None:
    r = CliRunner().invoke(cli, ["fmt", "--check", str(pan)])
    assert r.exit_code == 0, r.stderr


def _legal_scripts() -> list[HandScript]:
    out: list[HandScript] = []
    for sidecar in LEGAL:
        out.extend(_scripts(SAMPLES / json.loads(sidecar.read_text(encoding="utf-8"))["file"]))
    return out


def test_legal_samples_cover_what_the_issue_asks() -> None:
    scripts = _legal_scripts()
    texts = "".join((SAMPLES / json.loads(p.read_text(encoding="utf-8"))["file"]).read_text() for p in LEGAL)
    actions = [a for s in scripts for e in s.events if isinstance(e, Turn) for a in e.actions]
    assert {s.profile.name for s in scripts} >= {"hoyle", "cardroom"}
    assert {len(s.players) for s in scripts} >= {4, 5, 6, 8}
    assert any(isinstance(e, Decision) and not e.stay for s in scripts for e in s.events)  # T1 going on top
    assert any(isinstance(e, Force) for s in scripts for e in s.events)  # P8 demand (hoyle)
    automatic = [s for s in scripts if s.profile.forcing is Forcing.AUTOMATIC]
    assert any(  # P8 automatic: a take added to a meld in a cardroom hand
        isinstance(e, Turn) and isinstance(e.actions[0], Take) and any(isinstance(a, Add) for a in e.actions)
        for s in automatic
        for e in s.events
    )
    assert any(isinstance(a, Add) for a in actions)  # M5 increases
    assert any(isinstance(a, Borrow) for a in actions) and any(isinstance(a, Split) for a in actions)  # M6
    assert any(isinstance(a, MeldNew | Add | Split) and a.claim is not None for a in actions)  # [%pays N]
    assert all(s.ledger_claim is not None for s in scripts)  # [Ledger]
    assert any(s.stake is not None for s in scripts)  # [Stake]
    assert any(not s.deals for s in scripts if any(isinstance(e, Turn) for e in s.events)) or any(
        len(s.deals) < len(s.players) for s in scripts
    )  # players with unknown hands
    for glyph in ("!", "?", "!!", "?!"):
        assert f" {glyph} " in texts or f" {glyph}," in texts or f" {glyph}\n" in texts
    assert "{" in texts and ";" in texts
