"""What a newcomer's first evening with ``pan`` showed: a stopped hand's claim, the analyzer and
the drawn card, words, layout, titles from standard input, settling, help examples, the API, the
HTML page, completion, docs and the Pythons tested."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli_kit import SAMPLES, pan

P8_WITH_LEDGER = (
    (SAMPLES / "illegal-P8-forcing.pan")
    .read_text(encoding="utf-8")
    .replace(
        '[Players "Gil Hal Ida Jo Kim Lou"]\n',
        '[Players "Gil Hal Ida Jo Kim Lou"]\n[Ledger "Gil +10, Hal -5, Ida +1, Jo 0, Kim +1, Lou -7"]\n',
    )
)


def test_C9_a_stopped_hand_ledger_claim_is_not_compared(tmp_path: Path) -> None:
    record = tmp_path / "stopped.pan"
    record.write_text(P8_WITH_LEDGER, encoding="utf-8")
    r = pan("replay", str(record))
    assert r.exit_code == 1
    assert "WRONG CLAIM" not in r.output
    notes = [ln for ln in r.output.splitlines() if "Ledger claim" in ln]
    assert notes == [
        "  note: the Ledger claim (line 6) cannot be compared (C9): the hand stopped at line 29 (P8) before its end"
    ]
    assert r.stdout.splitlines()[-1].startswith("1 hand: 0 clean, 1 with a violation, 0 with a wrong claim")
    hand = json.loads(pan("replay", "--json", str(record)).stdout)[0]
    assert hand["claims_ok"] is True and all(c["kind"] == "pays" for c in hand["claims"])
    assert hand["notes"] == [notes[0].removeprefix("  note: ")]


def test_C9_a_finished_hand_ledger_claim_is_still_compared(tmp_path: Path) -> None:
    text = (SAMPLES / "illegal-claim-wrong-ledger.pan").read_text(encoding="utf-8")
    record = tmp_path / "wrong.pan"
    record.write_text(text, encoding="utf-8")
    r = pan("replay", str(record))
    assert "WRONG CLAIM" in r.output and "note: the Ledger claim" not in r.output
