"""``pan settle`` shows each hand with an irregularity put right (I1, I2) in every output form:
where (file:line), the rule, and who returned what to whom; a disputed hand's reason is its
cause, not a later symptom."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from pancli.cli import cli

CALLED_LATE = "samples/irregular-I2-called-late.pan"
RETURNS = "Ana returns 6 units to Cruz, 6 to Dee, 6 to Eli"


def _run(*args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    r = CliRunner().invoke(cli, list(args), env=env)
    return r.exit_code, r.stdout, r.stderr


def _retired_then_plays(tmp_path: Path) -> Path:
    """The called-late sample with Ana, retired at the call (line 35, I2), playing the next turn."""
    text = Path(CALLED_LATE).read_text(encoding="utf-8").splitlines()
    assert text[35].startswith("14. Cruz draw 3h")
    text[35] = "14. Ana draw 3h, discard 3h"
    path = tmp_path / "retired-then-plays.pan"
    path.write_text("\n".join(text) + "\n", encoding="utf-8")
    return path


def test_I2_settle_plain_lists_the_remedied_hand_with_its_place_rule_and_returns() -> None:
    code, out, _ = _run("settle", "--plain", CALLED_LATE)
    assert code == 1
    remedied = [line.split("\t") for line in out.splitlines() if line.startswith("remedied\t")]
    assert len(remedied) == 1
    _, place, rule, hand, returns, message = remedied[0]
    assert place == f"{CALLED_LATE}:35:1" and rule == "I2" and hand == "hand 1 (lines 1-36)"
    assert returns == RETURNS  # 4 collected at line 21 and 2 at line 34, from each of three
    assert "Jc Qc Qh" in message


def test_I1_settle_plain_says_when_nothing_was_returned() -> None:
    _, out, _ = _run("settle", "--plain", "samples/irregular-I1-short-deal.pan")
    (line,) = [x for x in out.splitlines() if x.startswith("remedied\t")]
    assert line.split("\t")[1:3] == ["samples/irregular-I1-short-deal.pan:11:1", "I1"]
    assert line.split("\t")[4] == "nothing returned"


def test_I2_settle_terminal_shows_the_remedied_hand() -> None:
    code, out, _ = _run("settle", CALLED_LATE, env={"PAN_FORCE_TERMINAL": "1", "COLUMNS": "80", "NO_COLOR": "1"})
    assert code == 1
    flat = " ".join(re.sub(r"\x1b\[[0-9;]*m", "", out).split())
    assert f"REMEDIED {CALLED_LATE}:35:1: I2 {RETURNS}:" in flat
    assert "(hand 1, lines 1-36)" in flat


def test_I1_settle_terminal_writes_the_remedied_hand_error_line_however_quick_the_run(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # no flush on the clock: the line must come from the end of the run, not from a slow first hand
    monkeypatch.setattr("pancli.render.replay.FLUSH_EVERY", 1e9)
    code, _, err = _run("settle", "samples/irregular-I1-short-deal.pan", env={"PAN_FORCE_TERMINAL": "1"})
    assert code == 1
    assert err == "samples/irregular-I1-short-deal.pan:11:1: I1 Eli is dealt 9 cards, not 10\n"


def test_I2_settle_json_has_the_remedies_of_each_remedied_hand() -> None:
    code, out, _ = _run("settle", "--json", CALLED_LATE, "samples/friday-hoyle.pan")
    assert code == 1
    data = json.loads(out)
    assert data["disputed"] == [] and data["panguingue"]["hands"] > 1  # the existing fields stay
    (hand,) = data["remedied"]
    assert (hand["file"], hand["hand"], hand["first_line"], hand["last_line"]) == (CALLED_LATE, 1, 1, 36)
    (remedy,) = hand["remedies"]
    assert (remedy["rule"], remedy["line"], remedy["player"], remedy["retired"]) == ("I2", 35, "Ana", True)
    returned: dict[str, int] = {}
    for p in remedy["returns"]:
        assert p["payer"] == "Ana" and p["rule"] == "I2"
        returned[p["payee"]] = returned.get(p["payee"], 0) + p["units"]
    assert returned == {"Cruz": 6, "Dee": 6, "Eli": 6}


def test_I2_settle_jsonl_has_a_remedied_line_before_the_totals() -> None:
    _, out, _ = _run("settle", "--jsonl", CALLED_LATE)
    events = [json.loads(line) for line in out.splitlines()]
    assert [e["event"] for e in events][:2] == ["remedied", "player"]
    assert events[0]["file"] == CALLED_LATE and events[0]["remedies"][0]["line"] == 35
    assert {p["payee"] for p in events[0]["remedies"][0]["returns"]} == {"Cruz", "Dee", "Eli"}


def test_every_remedied_sample_is_listed_with_its_rule() -> None:
    samples = sorted(str(p) for p in Path("samples").glob("irregular-*.pan"))
    _, out, _ = _run("settle", "--json", *samples)
    listed = {h["file"]: {r["rule"] for r in h["remedies"]} for h in json.loads(out)["remedied"]}
    assert listed == {s: {"I1" if "-I1-" in s else "I2"} for s in samples}


def test_I2_a_disputed_hands_reason_is_its_cause_not_the_later_symptom(tmp_path: Path) -> None:
    path = _retired_then_plays(tmp_path)
    code, out, _ = _run("settle", "--json", str(path))
    assert code == 1
    (d,) = json.loads(out)["disputed"]
    # Ana's turn at line 36 breaks P1 only because she retired at the call on line 35 (I2)
    assert (d["rule"], d["line"], d["col"], d["player"], d["kind"]) == ("I2", 35, 1, "Ana", "irregularity")
    assert "then P1 at line 36" in d["message"]
    _, plain, _ = _run("settle", "--plain", str(path))
    (line,) = [x for x in plain.splitlines() if x.startswith("disputed\t")]
    assert line.split("\t")[1:3] == [f"{path}:35:1", "I2"]


def test_P1_a_later_violation_of_another_player_stays_the_reason(tmp_path: Path) -> None:
    text = Path(CALLED_LATE).read_text(encoding="utf-8").replace("14. Cruz draw 3h", "14. Ben draw 3h", 1)
    text = text.replace("meld [Ah 2h 3h] {[%pays 1]}, out !", "discard 3h", 1)
    path = tmp_path / "other-player.pan"
    path.write_text(text, encoding="utf-8")
    _, out, _ = _run("settle", "--json", str(path))
    (d,) = json.loads(out)["disputed"]
    assert d["kind"] == "violation" and d["player"] == "Ben" and d["line"] == 36


def test_settle_json_is_one_document_in_one_layout() -> None:
    """``settle --json`` is written whole by the one encoder: indented by two throughout (the
    disputed hands were spliced in compact, after a hand-written ``{"disputed": [``)."""
    names = sorted(str(p) for p in Path("samples").glob("*.pan"))
    _, out, _ = _run("settle", "--json", *names)
    document = json.loads(out)
    assert document["disputed"], "the samples hold disputed hands"
    assert out == json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    assert list(document) == ["disputed", "panguingue", "pagruc", "unfinished", "default_stake", "remedied"]
