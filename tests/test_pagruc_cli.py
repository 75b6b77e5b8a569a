"""PAGRUC at the command line: pan score (G7), pan check --game pagruc (G4), pan standings
(G1, G8, G9), the record reader on PAGRUC records (G2-G6) and the samples with their
expected-result sidecars (samples/expected/pagruc-*.json)."""

from __future__ import annotations

import io
import itertools
import json
import re
from pathlib import Path
from typing import Any

import pytest
from cli_kit import SAMPLES, pan
from click.testing import CliRunner, Result

from pancli.cli import cli
from pancli.jsontext import dumps
from pancli.pagruc.referee import referee_script
from pancli.records import read_hands
from pancli.render.json import pagruc_item
from pancli.render.plain import plain_lines
from pancli.render.terminal import render_text

GAME = SAMPLES / "pagruc-common-room.pan"
ILLEGAL = SAMPLES / "pagruc-illegal.pan"
UNOFFICIAL = SAMPLES / "pagruc-unofficial.pan"


def to_json(result: Any, hand: int | None = None) -> Any:
    """A PAGRUC hand's ``--json`` object as a script reads it (through the one encoder)."""
    return json.loads(dumps(pagruc_item(result, hand)))


def run(*args: str, input: str | None = None) -> Result:
    return pan(*args, input=input)


def sample_summary(path: Path) -> dict[str, Any]:
    """What the sidecar samples/expected/NAME.json holds: each hand's referee result (players,
    dealer, winner, scores, violations, claims) and the game's standings."""
    hands = []
    for rh in read_hands(path.open(encoding="utf-8"), path.name):
        assert rh.script is not None, rh.error
        d = to_json(referee_script(rh.script), rh.index)
        hands.append({k: d[k] for k in ("hand", "players", "dealer", "winner", "scores", "violations", "claims_ok")})
    result = run("standings", "--json", str(path))
    doc = json.loads(result.stdout)
    standings = {
        "exit": result.exit_code,
        "official": doc["official"],
        "totals": doc["totals"],
        "points": {s["player"]: s["points"] for s in doc["standings"]},
        "problems": [{"rule": p["rule"], "line": p["line"], "hand": p["hand"]} for p in doc["problems"]],
    }
    return {"file": path.name, "hands": hands, "standings": standings}


# --------------------------------------------------------------------------- samples


@pytest.mark.parametrize("name", ["pagruc-common-room", "pagruc-illegal", "pagruc-unofficial"])
def test_samples_match_their_sidecars(name: str) -> None:
    expected = json.loads((SAMPLES / "expected" / f"{name}.json").read_text(encoding="utf-8"))
    assert sample_summary(SAMPLES / f"{name}.pan") == expected


def test_G8_the_sample_game_is_official_and_its_ledgers_hold() -> None:
    results = [referee_script(rh.script) for rh in read_hands(GAME.open(encoding="utf-8"), GAME.name) if rh.script]
    assert len(results) == 4 and all(r.ok and r.finished for r in results)
    assert all(len(r.claims) == 4 for r in results)  # every Ledger claim checked
    # hand 1, worked by hand: Ana 4h 4c 4d + 8c 8d 8s (36) less 2s 3h 5c (10) ...
    assert dict(results[0].scores) == {"Ana": 26, "Ben": 29, "Cruz": 30, "Dee": 60}
    # ... hand 3: Cruz and Dee meld nothing; Ben's ace laid on Ana's set scores 15 for Ben
    assert dict(results[2].scores) == {"Cruz": -40, "Dee": -50, "Ana": 27, "Ben": 48}


def test_G9_standings_referee_the_hands_without_their_steps() -> None:
    """The standings read each hand's scores only: no per-action step is recorded (start-up),
    and the scores are those of a replay that records them."""
    from pancli.app.standings import read_game

    hands, problems, skipped = read_game([str(GAME)], open)
    assert len(hands) == 4 and not problems and not skipped
    assert all(h.result.steps == () for h in hands)
    full = [referee_script(rh.script) for rh in read_hands(GAME.open(encoding="utf-8"), GAME.name) if rh.script]
    assert all(r.steps for r in full)
    assert [dict(h.result.scores) for h in hands] == [dict(r.scores) for r in full]


def test_G6_the_sample_game_turns_the_stock_over() -> None:
    hands = list(read_hands(GAME.open(encoding="utf-8"), GAME.name))
    assert "reshuffle" in hands[1].text
    r = referee_script(hands[1].script)  # type: ignore[arg-type]
    assert r.ok and r.winner == "Cruz"


# --------------------------------------------------------------------------- records (G2-G6 through the reader)

RECORD = """[Game "pagruc"]
[Players "Ana Ben Cy"]
[Ledger "Ana +61 Ben +35 Cy -29"]

deal Ana 5h 6h 7h Ac Ad As Ks
deal Ben 2c 3c 4c 5c 6c 7c 8c
deal Cy 2d 3d 4d 9s 9h Qd Qc
up Kh
Ana draw 2s, meld [5h 6h 7h], meld [Ac Ad As], discard Ks
Ben draw Jh, meld [2c 3c 4c 5c 6c 7c], discard Jh
Cy draw Jd, meld [2d 3d 4d], discard Jd
Ana draw 3s, discard 3s
Ben draw 9c, lay 8c on Ben#1, discard 9c
"""


def _result(text: str) -> Any:
    [rh] = list(read_hands(io.StringIO(text), "t.pan"))
    assert rh.script is not None, rh.error
    return referee_script(rh.script)


def test_G5_a_record_with_lay_and_ledger() -> None:
    r = _result(RECORD)
    assert r.ok and r.winner == "Ben" and dict(r.scores) == {"Ana": 61, "Ben": 35, "Cy": -29}


def test_G3_take_several_in_a_record_by_count_and_by_cards() -> None:
    lines = RECORD.splitlines()
    lines[-2] = "Ana take 3, discard Jd"  # Jd Jh Ks off the top of the pile
    r = _result("\n".join(lines[:-1]) + "\n")
    assert r.violations == () and sorted(map(str, r.hands["Ana"])) == ["2s", "Jh", "Ks"]
    lines[-2] = "Ana take Jd Jh Ks, discard 2s"
    r = _result("\n".join(lines[:-1]) + "\n")
    assert r.violations == () and sorted(map(str, r.hands["Ana"])) == ["Jd", "Jh", "Ks"]


def test_G7_a_wrong_ledger_claim_is_reported() -> None:
    r = _result(RECORD.replace("Ana +61", "Ana +60"))
    assert not r.claims_ok
    assert [(c.player, c.claimed, c.actual) for c in r.claims if not c.ok] == [("Ana", 60, 61)]
    assert any("claim wrong" in line for line in plain_lines(r, 1, "t.pan"))


def test_replay_rendering_json_and_text() -> None:
    r = _result(RECORD)
    d = to_json(r, 1)
    assert d["claims"][0]["kind"] == "ledger"
    assert d["hand"] == 1 and d["winner"] == "Ben" and d["scores"]["Cy"] == -29 and d["claims_ok"]
    assert d["violations"] == [] and d["dealer"] == "Cy" and d["game"] == "pagruc"
    assert {"card": "8c", "where": "run", "points": 8, "meld": "Ben#1", "line": 13} in d["cards"]["Ben"]
    assert d["table"][2]["meld"] == "Ben#1" and d["table"][2]["cards"] == "2c 3c 4c 5c 6c 7c 8c"
    out = "\n".join(plain_lines(r, 1, "t.pan"))
    assert "Ben went out (G6)" in out
    assert re.search(r"^  Cy +-29  2d\+2 3d\+3 4d\+4 9s-9 9h-9 Qd-10 Qc-10$", out, re.M)
    from rich.console import Console

    console = Console(file=io.StringIO(), width=120)
    render_text(r, console, 1)
    assert "Ben went out" in console.file.getvalue()  # type: ignore[attr-defined]


def test_replay_rendering_of_a_violation() -> None:
    bad = RECORD.replace("meld [2c 3c 4c 5c 6c 7c]", "meld [2c 3c 5c]")
    r = _result(bad)
    d = to_json(r, 1)
    [v] = d["violations"]
    assert (v["rule"], v["line"], v["col"], v["player"]) == ("G4", 10, 14, "Ben")
    assert "missing 4" in v["message"]
    assert any("G4" in line for line in plain_lines(r))


# --------------------------------------------------------------------------- pan score (G7)


def test_G7_pan_score_prints_each_card() -> None:
    result = run("score", "--game", "pagruc", "[5h 6h 7h] [Ac Ad As] | Ks Ah")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == "[5h 6h 7h] [Ac Ad As] | Ks Ah"
    assert [ln.split()[:3] for ln in lines[1:9]] == [
        ["5h", "run", "+5"],
        ["6h", "run", "+6"],
        ["7h", "run", "+7"],
        ["Ac", "set", "+15"],
        ["Ad", "set", "+15"],
        ["As", "set", "+15"],
        ["Ks", "hand", "-10"],
        ["Ah", "hand", "-15"],
    ]
    assert lines[-1].strip() == "table +63, hand -25: score 38"


def test_G7_pan_score_json() -> None:
    result = run("score", "--json", "--game", "pagruc", "[5h 6h 7h] [Ac Ad As] | Ks Ah")
    doc = json.loads(result.stdout)
    assert doc["score"] == 38 and doc["table"] == 63 and doc["hand"] == -25
    assert doc["cards"][0] == {"card": "5h", "where": "run", "points": 5, "meld": "1"}
    assert [c["points"] for c in doc["cards"]] == [5, 6, 7, 15, 15, 15, -10, -15]
    assert doc["melds"] == [
        {"meld": "5h 6h 7h", "kind": "run", "points": 18},
        {"meld": "Ac Ad As", "kind": "set", "points": 45},
    ]


def test_G7_pan_score_forms_of_input() -> None:
    unquoted = run("score", "--json", "[8c", "9c", "10c]", "|", "Qd")
    assert json.loads(unquoted.stdout)["score"] == 27 - 10
    no_bar = json.loads(run("score", "--json", "[As 2s 3s] Kd").stdout)
    assert no_bar["score"] == 6 - 10 and no_bar["cards"][0]["where"] == "run"
    one_meld = json.loads(run("score", "--json", "Jc Jd Jh | Ah").stdout)
    assert one_meld["score"] == 30 - 15
    all_in_hand = json.loads(run("score", "--json", "| Ah Kc 9d").stdout)
    assert all_in_hand["score"] == -(15 + 10 + 9)
    out = run("score", "-", input="[2-4s] | Kh\n# comment\n\n| As Ad\n")
    assert out.exit_code == 0 and "score -1" in out.stdout and "score -30" in out.stdout


def test_G4_pan_score_refuses_an_illegal_meld_with_its_rule() -> None:
    result = run("score", "--game", "pagruc", "[Qh Kh Ah] | 2c")
    assert result.exit_code == 1
    assert result.stderr.startswith("<arg>:1:1: G4 meld 1 (Qh Kh Ah): aces are low only")
    doc = json.loads(run("score", "--json", "[5h 6h] | 2c").stdout)
    assert doc["score"] is None and doc["error"]["rule"] == "G4"


def test_G1_pan_score_counts_copies_against_the_packs() -> None:
    assert run("score", "[5h 6h 7h] | 5h").exit_code == 0  # two packs by default
    one = run("score", "--packs", "1", "[5h 6h 7h] | 5h")
    assert one.exit_code == 1 and ": G1 " in one.stderr


def test_G1_three_copies_of_Ah_with_one_pack_is_G1_in_check_score_and_replay() -> None:
    check = run("check", "--game", "pagruc", "--json", "Ah Ah Ah")
    assert check.exit_code == 1 and json.loads(check.stdout)[0]["rule"] == "G1"
    score = run("score", "--packs", "1", "[Ah Ah Ah]")
    assert score.exit_code == 1 and ": G1 " in score.stderr
    record = (
        '[Game "pagruc"]\n[Players "Ana Ben Cruz"]\n\n'
        "deal Ana Ah Ah Ah 2c 3c 4c 9d\nup 8h\nAna draw 5c, meld [Ah Ah Ah], discard 9d\n"
    )
    (hand,) = json.loads(run("replay", "--json", "-", input=record).stdout)
    assert hand["violations"][0]["rule"] == "G1"


def test_pan_score_usage_errors() -> None:
    assert run("score", "--game", "panguingue", "[5h 6h 7h]").exit_code == 2
    assert run("score", "--packs", "3", "[5h 6h 7h]").exit_code == 2
    bad = run("score", "[5h 6h 7h] | Kd | 2c")
    assert bad.exit_code == 1 and "G7" in bad.stderr
    notation = run("score", "[5h 6h 7h] | Zz")
    assert notation.exit_code == 1 and "N1" in notation.stderr and "Traceback" not in notation.output


# --------------------------------------------------------------------------- pan check --game pagruc (G4)


def test_G4_pan_check_game_pagruc_json() -> None:
    result = run("check", "--game", "pagruc", "--json", "Qh Kh Ah", "5h 5h 5c", "10s 9s 8s", "Ac Ad As")
    assert result.exit_code == 1
    doc = json.loads(result.stdout)
    assert [(d["legal"], d["kind"], d["rule"], d["value"]) for d in doc] == [
        (False, None, "G4", 0),
        (True, "set", None, 15),
        (True, "run", None, 27),
        (True, "set", None, 45),
    ]
    assert all(d["condition"] is None and d["points"] == d["value"] for d in doc)
    assert doc[2]["meld"] == "8s 9s Ts"
    assert "<arg>:1:1: G4 aces are low only" in result.stderr


def test_G4_pan_check_game_pagruc_plain_and_stdin() -> None:
    result = run("check", "--game", "pagruc", "-", input="Ac Ad As\n# note\n\n4h 5h\n")
    assert result.exit_code == 1
    assert result.stdout.splitlines()[0].split("\t")[:5] == ["Ac Ad As", "legal", "set", "-", "45"]
    assert result.stderr.startswith("-:4:1: G4 a meld is 3 or more cards")


# --------------------------------------------------------------------------- pan standings (G1, G8, G9)


def test_G9_pan_standings_of_the_sample_game() -> None:
    result = run("standings", str(GAME))
    assert result.exit_code == 0, result.stderr
    assert "official" in result.stdout.splitlines()[0] and "NOT" not in result.stdout
    doc = json.loads(run("standings", "--json", str(GAME)).stdout)
    assert doc["official"] and doc["problems"] == []
    assert doc["totals"] == {"Ana": 140, "Ben": 188, "Cruz": 28, "Dee": 58}
    assert [(s["player"], s["place"], s["points"]) for s in doc["standings"]] == [
        ("Ben", 1, 4),
        ("Ana", 2, 3),
        ("Dee", 3, 2),
        ("Cruz", 4, 1),
    ]
    assert [h["dealer"] for h in doc["hands"]] == ["Dee", "Ana", "Ben", "Cruz"]
    assert doc["deals"] == {"Ana": 1, "Ben": 1, "Cruz": 1, "Dee": 1}


def test_G8_pan_standings_says_why_a_game_is_not_official() -> None:
    result = run("standings", str(UNOFFICIAL))
    assert result.exit_code == 1
    errs = result.stderr.splitlines()
    assert errs[0].endswith("G8 hand 2 is dealt by Ben, but Ana played first in hand 1 and so deals next")
    assert "G8 every player deals the same number of times" in errs[1]
    assert errs[0].startswith(f"{UNOFFICIAL}:23:1:")
    doc = json.loads(run("standings", "--json", str(UNOFFICIAL)).stdout)
    assert not doc["official"] and all(s["points"] is None for s in doc["standings"])


def test_G8_pan_standings_two_files_make_one_game(tmp_path: Path) -> None:
    text = GAME.read_text(encoding="utf-8")
    cut = text.index('[Event "Sixth Form common room"]\n[Date "2000.03.14"]\n[Game "pagruc"]\n[Players "Cruz')
    first, second = tmp_path / "a.pan", tmp_path / "b.pan"
    first.write_text(text[:cut], encoding="utf-8")
    second.write_text(text[cut:], encoding="utf-8")
    both = json.loads(run("standings", "--json", str(first), str(second)).stdout)
    assert both["official"] and both["totals"] == {"Ana": 140, "Ben": 188, "Cruz": 28, "Dee": 58}
    alone = run("standings", str(first))
    assert alone.exit_code == 1 and "same number of times" in alone.stderr


def test_G8_pan_standings_passes_over_panguingue_hands_and_reports_bad_ones(tmp_path: Path) -> None:
    pan = '[Players "Ana Ben"]\n\ndeal Ana 5s 5s 5s 3h 4h Kd Kh Kc 2c 7d\nup 4c\nAna stay\nBen stay\n\n'
    broken = '[Game "pagruc"]\n[Players "Ana Ben Cy"]\n\ndeal Ana 5h 6h\nAna frobnicate\n\n'
    f = tmp_path / "mixed.pan"
    f.write_text(pan + GAME.read_text(encoding="utf-8"), encoding="utf-8")
    doc = json.loads(run("standings", "--json", str(f)).stdout)
    assert doc["official"] and doc["skipped"] == 1
    g = tmp_path / "broken.pan"
    g.write_text(broken + GAME.read_text(encoding="utf-8"), encoding="utf-8")
    bad = run("standings", str(g))
    assert bad.exit_code == 1 and "unreadable" in bad.stderr and "Traceback" not in bad.output


def test_G1_pan_standings_with_two_players_is_not_official(tmp_path: Path) -> None:
    two = '[Game "pagruc"]\n[Players "Ana Ben"]\n\n'
    two += "deal Ana 5h 6h 7h 8h 9h Th 2c\ndeal Ben 2s 3s 4s 5s 6s 7s 2d\nup Kd\n"
    two += "Ana draw Jh, meld [5h 6h 7h 8h 9h Th Jh], discard 2c\n"
    f = tmp_path / "two.pan"
    f.write_text(two, encoding="utf-8")
    result = run("standings", str(f))
    assert result.exit_code == 1 and "G1 2 players: fewer than 3 players is not an official round" in result.stderr


def test_pan_standings_usage_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with monkeypatch.context() as m:
        m.setattr("pancli.cli.common.stdin_is_piped", lambda: False)  # a terminal: nothing to read
        assert run("standings").exit_code == 2
    assert run("standings", str(tmp_path / "missing.pan")).exit_code == 2
    empty = tmp_path / "empty.pan"
    empty.write_text("", encoding="utf-8")
    result = run("standings", str(empty))
    assert result.exit_code == 1 and "G8 no PAGRUC hand" in result.stderr


def test_G9_pan_standings_reads_piped_input_without_a_file_argument() -> None:
    piped = CliRunner().invoke(cli, ["standings", "--json"], input=GAME.read_text(encoding="utf-8"))
    named = CliRunner().invoke(cli, ["standings", "--json", str(GAME)])
    assert piped.exit_code == named.exit_code == 0
    strip = [{k: v for k, v in h.items() if k != "file"} for h in json.loads(piped.stdout)["hands"]]
    assert strip == [{k: v for k, v in h.items() if k != "file"} for h in json.loads(named.stdout)["hands"]]
    assert json.loads(piped.stdout)["standings"] == json.loads(named.stdout)["standings"]


def test_G7_a_wrong_ledger_claim_makes_the_game_unofficial(tmp_path: Path) -> None:
    text = GAME.read_text(encoding="utf-8")
    assert "Ana +26, Ben" in text
    bad = tmp_path / "claim.pan"
    bad.write_text(text.replace("Ana +26, Ben", "Ana +27, Ben", 1), encoding="utf-8")
    r = run("standings", str(bad))
    assert r.exit_code == 1
    line = 1 + text[: text.index("Ana +26, Ben")].count("\n")
    assert f"{bad}:{line}:1: G7 hand 1: the Ledger claim of Ana is +27, the referee finds +26" in r.stderr
    d = json.loads(run("standings", "--json", str(bad)).stdout)
    assert d["official"] is False and [p["rule"] for p in d["problems"]] == ["G7"]
    assert all(s["points"] is None for s in d["standings"])


def test_terminal_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PAN_FORCE_TERMINAL", "1")
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "120")
    score = run("score", "[5h 6h 7h] [Ac Ad As] | Ks Ah")
    assert score.exit_code == 0 and "│ Ah    │ hand  │ -    │    -15 │" in score.stdout and "38" in score.stdout
    check = run("check", "--game", "pagruc", "Ac Ad As", "Qh Kh Ah")
    assert check.exit_code == 1 and "pan check (PAGRUC)" in check.stdout and "set of aces" in check.stdout
    standings = run("standings", str(GAME))
    assert standings.exit_code == 0 and "standings (G9)" in standings.stdout and "official" in standings.stdout


def test_G7_replay_json_of_pagruc_hands_has_the_panguingue_fields_and_cites_G7_for_claims(tmp_path: Path) -> None:
    hands = json.loads(run("replay", "--json", str(GAME)).stdout)
    for h in hands:
        assert {"hand", "players", "winner", "ledger", "payments", "violations", "claims_ok"} <= set(h)
        assert h["ledger"] == h["scores"] and h["payments"] == []
        assert 1 <= h["first_line"] <= h["last_line"]
    assert all(b["first_line"] > a["last_line"] for a, b in itertools.pairwise(hands))
    bad = tmp_path / "claim.pan"
    bad.write_text(GAME.read_text(encoding="utf-8").replace("Ana +26, Ben", "Ana +27, Ben", 1), encoding="utf-8")
    r = run("replay", str(bad))
    assert r.exit_code == 1 and ": G7 the Ledger claims Ana +27 but the referee finds +26" in r.stderr


def test_G4_check_with_game_pagruc_refuses_a_panguingue_profile() -> None:
    r = run("check", "--game", "pagruc", "--rules", "cardroom", "Qh Kh Ah")
    assert r.exit_code == 2 and "--rules picks a Panguingue profile" in r.stderr
    assert run("check", "--game", "pagruc", "5h 6h 7h").exit_code == 0
