"""``pan replay`` (docs/notation.md and docs/commands.md): plain text in a pipe, the rich timeline on a
terminal, ``--json`` with the contract's fields, ``--jsonl`` events with provenance,
``--strict``, ``--rules``, standard input, malformed hands, PAGRUC hands and exit codes."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from cli_kit import ROOT, SAMPLES, pan
from click.testing import CliRunner, Result

from pancli.cli import cli
from pancli.model.results import PaidFor, Payment
from pancli.render.words import collections, why
from pancli.rulebook import Rule

FRIDAY = SAMPLES / "friday-hoyle.pan"
SATURDAY = SAMPLES / "cardroom-saturday.pan"


def run(*args: str, input: str | None = None, env: dict[str, str] | None = None) -> Result:
    return pan("replay", *args, input=input, env=env)


# --------------------------------------------------------------------------- plain text


def test_plain_text_shows_each_collection_with_rule_meld_and_amounts() -> None:
    r = run(str(FRIDAY))
    assert r.exit_code == 0 and r.stderr == ""
    out = r.stdout
    assert "line 23: Ana collects C2 [5s 5s 5s] valle set, one suit: 4 from each of Cruz Dee Eli = 12" in out
    assert "line 29: Cruz collects C7 [7c 7c 7c 7c 7c] #1 grows: 1 from each of Ana Dee Eli = 3" in out
    assert "Cruz collects C8 going out: bonus 1 + melds again 7: 8 from each of Ana Dee Eli = 24" in out
    assert "Cruz collects T2 forfeit; went out: 2 from Ben" in out
    assert "  ledger: Ana -2, Ben -2, Cruz +36, Dee -6, Eli -26" in out
    assert "  money (stake 0.25): Ana -0.50, Ben -0.50, Cruz +9.00, Dee -1.50, Eli -6.50" in out
    assert out.rstrip().endswith("2 hands: 2 clean, 0 with a violation, 0 with a wrong claim, 0 malformed")


def test_P3_violation_in_plain_text_and_on_stderr_with_its_place_and_ruling() -> None:
    r = run(str(SAMPLES / "illegal-P3-dead-discard.pan"))
    assert r.exit_code == 1
    name = str(SAMPLES / "illegal-P3-dead-discard.pan")
    assert f"  VIOLATION {name}:20:8: P3 the top discard Kd is dead" in r.stdout
    assert "    ruling: P3: a card discarded from a hand is dead" in r.stdout
    assert r.stderr.startswith(f"{name}:20:8: P3 the top discard Kd is dead")


def test_wrong_claims_exit_1_and_name_the_claim() -> None:
    r = run(str(SAMPLES / "illegal-claim-wrong-pays.pan"))
    assert r.exit_code == 1
    assert ":23:41: C7 Cruz claims [%pays 2] but each opponent paid 3" in r.stderr
    assert "WRONG CLAIM" in r.stdout
    r = run(str(SAMPLES / "illegal-claim-wrong-ledger.pan"))
    assert r.exit_code == 1
    assert "C9 the Ledger claims Cruz +34 but the referee finds +36" in r.stderr


def test_plain_path_imports_neither_rich_nor_json() -> None:
    code = (
        "import sys\n"
        "from pancli.cli import cli\n"
        "try:\n"
        f"    cli(['replay', {str(FRIDAY)!r}], standalone_mode=False)\n"
        "except SystemExit:\n"
        "    pass\n"
        "sys.stderr.write(repr(sorted(m for m in ('rich', 'json', 'pyparsing') if m in sys.modules)))\n"
    )
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert p.stderr.endswith("[]"), p.stderr


# --------------------------------------------------------------------------- JSON


def test_json_has_the_contract_fields() -> None:
    r = run("--json", str(FRIDAY))
    assert r.exit_code == 0
    hands = json.loads(r.stdout)
    assert [h["hand"] for h in hands] == [1, 2]
    h = hands[0]
    for key in ("hand", "players", "winner", "ledger", "payments", "violations", "claims_ok"):
        assert key in h
    assert h["players"] == ["Ana", "Ben", "Cruz", "Dee", "Eli"] and h["winner"] == "Cruz"
    assert h["ledger"] == {"Ana": -2, "Ben": -2, "Cruz": 36, "Dee": -6, "Eli": -26}
    assert set(h["payments"][0]) >= {"payer", "payee", "units", "rule", "line"}
    assert h["payments"][0] == {
        "payer": "Cruz",
        "payee": "Ana",
        "units": 4,
        "rule": "C2",
        "line": 23,
        "meld": "5s 5s 5s",
        "note": "",
    }
    assert h["claims_ok"] is True and h["violations"] == []
    assert h["money"]["Cruz"] == "9.00" and h["stake"] == "0.25"
    # the ledger is the sum of the payments
    net: Counter[str] = Counter()
    for p in h["payments"]:
        net[p["payee"]] += p["units"]
        net[p["payer"]] -= p["units"]
    assert {k: net[k] for k in h["ledger"]} == h["ledger"]


def test_json_violation_fields_include_ruling_and_file() -> None:
    path = str(SAMPLES / "illegal-M3-foul-meld.pan")
    r = run("--json", "--strict", path)  # the foul meld stops the hand, as it did before I2 was put right
    assert r.exit_code == 1
    [h] = json.loads(r.stdout)
    [v] = h["violations"]
    assert (v["rule"], v["line"], v["col"], v["player"]) == ("M3", 19, 18, "Cruz")
    assert v["file"] == path and v["ruling"].startswith("M3: a set that mixes suits")
    assert h["winner"] is None
    # the payments made before the violation stand in the ledger
    assert h["ledger"] == {"Ana": 12, "Ben": 0, "Cruz": -4, "Dee": -4, "Eli": -4}


def test_json_reports_a_malformed_hand_and_keeps_going() -> None:
    r = run("--json", str(SAMPLES / "malformed-record.pan"))
    assert r.exit_code == 1
    first, second = json.loads(r.stdout)
    assert first["malformed"] is True and first["violations"][0]["rule"] == "E1"
    assert (first["violations"][0]["line"], first["violations"][0]["col"]) == (12, 10)
    assert second["winner"] == "Ana"
    assert r.stderr.count("\n") == 1 and ":12:10: E1 " in r.stderr


def test_json_of_nothing_is_an_empty_list() -> None:
    r = run("--json", "-", input="")
    assert r.exit_code == 0 and json.loads(r.stdout) == []


# --------------------------------------------------------------------------- JSON lines


def _events(*args: str) -> list[dict[str, Any]]:
    r = run("--jsonl", *args)
    return [json.loads(line) for line in r.stdout.splitlines()]


def test_jsonl_one_event_per_action_with_provenance() -> None:
    events = _events(str(SATURDAY))
    kinds = Counter(e["event"] for e in events)
    assert kinds["deal"] == 6 and kinds["up"] == 1 and kinds["stay"] == 5 and kinds["top"] == 1
    assert kinds["split"] == 1 and kinds["borrow"] == 1 and kinds["out"] == 1 and kinds["hand"] == 1
    assert events[-1]["event"] == "hand" and events[-1]["winner"] == "Gil"
    take = next(e for e in events if e["event"] == "add" and e["line"] == 32)
    assert take["moves"] == [{"card": "5c", "from": "discard", "to": "meld"}]  # P8: the forced 5c
    kept = next(e for e in events if e["event"] == "discard" and e["line"] == 38)
    assert kept["moves"] == [  # P9: Lou keeps the 5h and discards the Jc
        {"card": "5h", "from": "stock", "to": "hand"},
        {"card": "Jc", "from": "hand", "to": "discard"},
    ]
    out = next(e for e in events if e["event"] == "out")
    assert {p["rule"] for p in out["payments"]} == {"C8", "T2"}


def test_jsonl_moves_account_for_every_card() -> None:
    """Replaying the moves: at the end each active player holds hand + melds = 10 (P7),
    the winner 11 melded and none in hand; the ones on top hold nothing."""
    events = [e for e in _events(str(SATURDAY)) if e["event"] != "hand"]
    hand: Counter[str] = Counter()
    melded: Counter[str] = Counter()
    for e in events:
        for m in e["moves"]:
            who = e["player"]
            if m["from"] == "hand":
                hand[who] -= 1
            if m["to"] == "hand":
                hand[who] += 1
            if m["to"] == "meld" and m["from"] != "meld":
                melded[who] += 1
    assert hand["Gil"] == 0 and melded["Gil"] == 11
    assert hand["Jo"] == 0 and melded["Jo"] == 0
    for p in ("Hal", "Ida", "Kim", "Lou"):
        assert hand[p] + melded[p] == 10, p


def test_jsonl_violation_event() -> None:
    events = _events(str(SAMPLES / "illegal-P8-forcing.pan"))
    v = next(e for e in events if e["event"] == "violation")
    assert (v["rule"], v["line"], v["col"], v["player"]) == ("P8", 28, 8, "Kim")


# --------------------------------------------------------------------------- terminal


def test_terminal_timeline_and_ledger_table() -> None:
    r = run(str(SAMPLES / "illegal-P9-flat-player.pan"), env={"PAN_FORCE_TERMINAL": "1", "COLUMNS": "160"})
    assert r.exit_code == 1
    out = r.stdout
    assert "paid and why" in out and "ledger" in out
    assert "valle set, one suit" in out
    assert "VIOLATION" in out and "illegal-P9-flat-player.pan:35:14: P9" in out
    assert "ruling:" in out
    r = run(str(FRIDAY), env={"PAN_FORCE_TERMINAL": "1", "COLUMNS": "160", "NO_COLOR": "1"})
    assert "money (stake 0.25)" in r.stdout and "+9.00" in r.stdout and "stayed, winner" in r.stdout


def test_plain_flag_on_a_terminal() -> None:
    r = run("--plain", str(FRIDAY), env={"PAN_FORCE_TERMINAL": "1"})
    assert "  ledger: Ana -2, Ben -2, Cruz +36, Dee -6, Eli -26" in r.stdout


# --------------------------------------------------------------------------- options, input, exits


def test_strict_stops_at_the_first_bad_hand_of_the_run() -> None:
    r = run("--json", "--strict", str(SAMPLES / "malformed-record.pan"), str(FRIDAY))
    assert r.exit_code == 1
    assert len(json.loads(r.stdout)) == 1
    assert "stopped at the first violation (--strict)" in r.stderr
    r = run("--json", str(SAMPLES / "malformed-record.pan"), str(FRIDAY))
    assert len(json.loads(r.stdout)) == 4


def test_rules_option_overrides_the_records_rules_tag() -> None:
    oakland = str(SAMPLES / "oakland-house-rules.pan")
    assert run(oakland).exit_code == 0
    r = run("--json", "--rules", "hoyle", oakland)
    assert r.exit_code == 1
    [h] = json.loads(r.stdout)
    assert h["rules"] == "hoyle"
    # under hoyle a different-suits set takes only a missing suit: a foul addition (M5), put right (I2)
    assert (h["rulings"][0]["rule"], h["rulings"][0]["line"]) == ("I2", 26)
    assert h["rulings"][0]["message"].endswith("(M5)")
    # Ana retired at the end of that turn: her next turn is out of order (P1)
    v = h["violations"][0]
    assert (v["rule"], v["line"], v["player"]) == ("P1", 30, "Ana")
    assert "retired from the hand at line 26 (I2)" in v["message"]
    r = run("--json", "--strict", "--rules", "hoyle", oakland)
    assert json.loads(r.stdout)[0]["violations"][0]["line"] == 26
    r = run("--json", "--rules", str(SAMPLES / "oakland.toml"), str(FRIDAY))
    assert [h["rules"] for h in json.loads(r.stdout)] == ["oakland", "oakland"]


def test_standard_input() -> None:
    text = FRIDAY.read_text(encoding="utf-8")
    r = run("-", input=text)
    assert r.exit_code == 0 and "Friday game (standard input), hand 2 (lines 39-69)" in r.stdout
    r = run(input=text)
    assert r.exit_code == 0


@pytest.mark.parametrize(
    "args",
    [
        ["nowhere.pan"],
        [str(SAMPLES)],
        ["--json", "nowhere.pan"],
        ["--rules", "nowhere.toml", str(FRIDAY)],
        ["--json", "--jsonl", str(FRIDAY)],
        ["--bogus", str(FRIDAY)],
        ["-", "-"],
    ],
)
def test_usage_errors_exit_2(args: list[str]) -> None:
    r = run(*args, input="")
    assert r.exit_code == 2
    assert r.stdout == ""


def test_missing_file_is_found_before_any_output() -> None:
    r = run(str(FRIDAY), "nowhere.pan")
    assert r.exit_code == 2 and r.stdout == "" and "nowhere.pan" in r.stderr


def test_junk_input_is_malformed_not_a_traceback() -> None:
    r = run("-", input='[Players "Ana Ben"]\n\nAna stay\nBen stay\nAna draw 5s, fly away\n\x00\x01 junk {\n')
    assert r.exit_code == 1
    assert r.stderr.startswith("-:")


def test_pagruc_hands_go_to_the_pagruc_referee() -> None:
    r = run("--json", str(SAMPLES / "pagruc-common-room.pan"))
    hands = json.loads(r.stdout)
    assert hands and all(h["game"] == "pagruc" for h in hands)
    assert r.exit_code == (0 if all(not h["violations"] and h["claims_ok"] for h in hands) else 1)
    r = run(str(SAMPLES / "pagruc-illegal.pan"))
    assert r.exit_code == 1 and ": G3 " in r.stderr


# --------------------------------------------------------------------------- rendering helpers


def test_collections_group_one_moment_and_keep_distinct_ones_apart() -> None:
    ps = (
        Payment("Ben", "Ana", 4, (Rule.C2,), 9),
        Payment("Cruz", "Ana", 4, (Rule.C2,), 9),
        Payment("Ben", "Ana", 1, (Rule.C5,), 9),
        Payment("Ben", "Ana", 2, (Rule.T2,), 20, paid_for=PaidFor.FORFEIT),
    )
    groups = collections(ps)
    assert [(c.rule, c.payers, c.total) for c in groups] == [
        ("C2", ("Ben", "Cruz"), 8),
        ("C5", ("Ben",), 1),
        ("T2", ("Ben",), 2),
    ]
    assert groups[2].amounts() == "2 from Ben" and groups[2].what() == "forfeit; went out"
    assert why("C4+C5") == "rope with the ace and the king"


# --------------------------------------------------------------------------- memory


def test_replay_keeps_no_hand_alive_after_it_is_written(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A 1 GB file replays in constant memory only if nothing of a finished hand stays reachable
    (a cached MeldError raised again once kept every Table alive through its traceback)."""
    import gc
    import io

    from pancli.app.replay import replay_files
    from pancli.cli.common import open_text
    from pancli.referee.table import Table
    from pancli.render.replay import Sink

    text = CliRunner().invoke(cli, ["simulate", "-n", "6", "-k", "150", "-s", "9"]).stdout
    record = tmp_path / "hands.pan"
    record.write_text(text, encoding="utf-8")
    gc.collect()
    before = sum(isinstance(o, Table) for o in gc.get_objects())  # other tests' tables, if any
    monkeypatch.setattr(sys, "stdout", io.StringIO())
    tally = replay_files([str(record)], Sink(), open_record=open_text, strict=False, profile=None)
    assert tally.clean == tally.hands == 150
    gc.collect()
    assert sum(isinstance(o, Table) for o in gc.get_objects()) <= before + 1


def test_cached_meld_errors_hold_no_traceback() -> None:
    """The referee's judgement cache keeps MeldErrors without frames (each frame holds its callers)."""
    from pancli.cards import Rank, Suit, card
    from pancli.melds import MeldError
    from pancli.panrules import LaidMeld, PanRules
    from pancli.rules import HOYLE

    rules = PanRules(HOYLE)
    five = card(Rank.FIVE, Suit.SPADES)
    meld = rules.judge((five, five, five)).meld
    assert meld is not None
    error = rules.try_grow(meld, (card(Rank.KING, Suit.HEARTS),))
    assert isinstance(error, MeldError) and error.__traceback__ is None
    assert not LaidMeld.of(meld, rules).fits(rules, card(Rank.KING, Suit.HEARTS))


def test_C6_plain_collection_lines_match_the_collections() -> None:
    """The batch path's collection lines are those of :func:`collections` (C6-C8 payments grouped)."""
    from pancli.referee import referee_script
    from pancli.referee.simulate import simulate_hands
    from pancli.render.words import collection_lines, collections
    from pancli.rules import CARDROOM, HOYLE

    for profile in (HOYLE, CARDROOM):
        for script in simulate_hands(("Ana", "Ben", "Cruz", "Dee", "Eve"), 40, 3, profile):
            result = referee_script(script, record_steps=False)
            ps = result.payments
            for going_out in (result.going_out, None):
                expected = [
                    f"  line {c.line}: {c.payee} collects {c.reason(going_out)}: {c.amounts()}" for c in collections(ps)
                ]
                assert collection_lines(ps, going_out) == expected


# --------------------------------------------------------------------------- --jobs


@pytest.mark.parametrize("form", [[], ["--json"], ["--jsonl"], ["--strict"], ["--json", "--strict"]])
def test_I3_jobs_write_the_same_output_in_the_same_order(tmp_path: Path, form: list[str]) -> None:
    """Worker processes referee chunks of hands; what is written (and the exit status) is the same."""
    from pancli.app import replay as replay_module

    simulated = CliRunner().invoke(cli, ["simulate", "-n", "5", "-k", "60", "-s", "4"]).stdout
    samples = sorted(Path("samples").glob("*.pan"))
    text = simulated + "\n" + "\n".join(p.read_text(encoding="utf-8") for p in samples) + "\n" + simulated
    record = tmp_path / "mixed.pan"
    record.write_text(text, encoding="utf-8")
    for path in Path("samples").glob("*.toml"):
        (tmp_path / path.name).write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    one = CliRunner().invoke(cli, ["replay", *form, str(record)])
    old = replay_module.CHUNK_HANDS
    replay_module.CHUNK_HANDS = 7  # many chunks, cut at every kind of hand
    try:
        many = CliRunner().invoke(cli, ["replay", "--jobs", "2", *form, str(record)])
    finally:
        replay_module.CHUNK_HANDS = old
    assert one.exit_code == 1 and one.stdout and one.stderr  # the samples hold illegal hands
    assert (many.exit_code, many.stdout, many.stderr) == (one.exit_code, one.stdout, one.stderr)


def test_jsonl_events_and_pagruc_cards_never_place_at_line_or_col_0() -> None:
    events = [json.loads(x) for x in run_ok_jsonl(SAMPLES / "friday-hoyle.pan")]
    assert events and all(e["line"] >= 1 and e["col"] >= 1 for e in events if e["event"] not in ("hand",))
    pagruc = json.loads(CliRunner().invoke(cli, ["replay", "--json", str(SAMPLES / "pagruc-common-room.pan")]).stdout)
    lines = [c["line"] for h in pagruc for cards in h["cards"].values() for c in cards]
    assert None in lines and all(x is None or x >= 1 for x in lines)


def run_ok_jsonl(path: Path) -> list[str]:
    r = CliRunner().invoke(cli, ["replay", "--jsonl", str(path)])
    assert r.exit_code == 0, r.stderr
    return r.stdout.splitlines()


# --------------------------------------------------------------------------- JSON text


def test_jsonl_lines_are_the_step_events_and_hands_encoded() -> None:
    """Each ``--jsonl`` line is one object: the steps of :func:`step_events`, the violations,
    then the hand's object of ``--json``, in that order."""
    from pancli.jsontext import dumps
    from pancli.records import read_hands
    from pancli.referee import referee_script
    from pancli.render.json_steps import step_events

    path = SAMPLES / "friday-hoyle.pan"
    r = CliRunner().invoke(cli, ["replay", "--jsonl", str(path)])
    whole = CliRunner().invoke(cli, ["replay", "--json", str(path)])
    assert r.exit_code == whole.exit_code == 0, r.stderr
    got = [json.loads(line) for line in r.stdout.splitlines()]
    hands = json.loads(whole.stdout)
    with path.open(encoding="utf-8") as f:
        scripts = [h.script for h in read_hands(f, str(path), SAMPLES) if h.script is not None]
    want: list[object] = []
    for n, (script, hand) in enumerate(zip(scripts, hands, strict=True), 1):
        want += json.loads(dumps(list(step_events(referee_script(script).recorded, n, str(path)))))
        want.append({"event": "hand", **hand})
    assert got == want and len(got) > 50


def test_jsonl_step_lines_escape_a_hostile_file_name(tmp_path: Path) -> None:
    """A file name with a bidirectional mark, a quote and a backslash: each step's ``file`` is
    written escaped (the same value, never the raw mark)."""
    name = tmp_path / 'odd \u202e"\\.pan'
    name.write_text((SAMPLES / "friday-hoyle.pan").read_text(encoding="utf-8"), encoding="utf-8")
    r = CliRunner().invoke(cli, ["replay", "--jsonl", str(name)])
    assert r.exit_code == 0, r.stderr
    assert "\u202e" not in r.stdout and r.stdout.count("\\u202e") == len(r.stdout.splitlines()) > 50
    assert {json.loads(line)["file"] for line in r.stdout.splitlines()} == {str(name)}


def _children(pid: int) -> list[int]:
    """The process ids of ``pid``'s children (Linux's /proc)."""
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(n) for n in text.split()]


@pytest.mark.slow
@pytest.mark.skipif(
    not Path("/proc/self/task").exists() or (os.cpu_count() or 1) < 2, reason="needs Linux's /proc and two CPUs"
)
def test_I3_jobs_a_killed_worker_loses_no_hand_and_nothing_hangs(tmp_path: Path) -> None:
    """A worker killed mid-run (kill -9, out of memory): the pool starts another but the chunk
    it held is lost; the main process judges that chunk itself, so the run ends, with exactly the
    output and status of a run with no worker (before, it waited for the lost chunk forever)."""
    record = tmp_path / "hands.pan"
    record.write_text(
        CliRunner().invoke(cli, ["simulate", "-n", "6", "-k", "1200", "-s", "5"]).stdout, encoding="utf-8"
    )
    command = [sys.executable, "-m", "pancli", "replay"]
    serial = subprocess.run([*command, str(record)], capture_output=True, text=True, timeout=120)
    run = subprocess.Popen(
        [*command, "--jobs", "2", str(record)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        deadline = time.monotonic() + 120  # a hang detector only
        while len(_children(run.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.01)
        workers = _children(run.pid)
        assert len(workers) == 2, "the pool's two workers never started"
        time.sleep(0.3)  # the first chunks are sent: both workers hold one
        os.kill(workers[0], signal.SIGKILL)
        out, err = run.communicate(timeout=180)  # a hang never ends; a loaded machine (load 17) took over 60 s
    finally:
        run.kill()
    assert (run.returncode, out, err) == (serial.returncode, serial.stdout, serial.stderr)


def test_jsonl_step_lines_of_whole_turns_and_deals_are_those_of_their_steps() -> None:
    """:func:`step_events` writes a plain turn and a deal recorded whole straight from the record;
    the lines are those of the steps they stand for (:func:`~pancli.model.results.each_step`),
    over every shipped sample and simulated hands."""
    import io

    from pancli.jsontext import lines
    from pancli.model.actions import Deal, Turn
    from pancli.records import read_hands
    from pancli.referee import referee_script
    from pancli.render.json_steps import step_events, step_events_of_steps

    simulated = CliRunner().invoke(cli, ["simulate", "-n", "6", "-k", "20", "-s", "3"]).stdout
    sources = [(p.name, p.read_text(encoding="utf-8")) for p in sorted(SAMPLES.glob("*.pan"))]
    whole = 0
    for name, text in [*sources, ("simulated", simulated)]:
        for n, hand in enumerate(read_hands(io.StringIO(text), name, SAMPLES), 1):
            if hand.script is None:
                continue
            recorded = referee_script(hand.script).recorded if hand.script.game.value == "panguingue" else ()
            whole += sum(isinstance(r, Turn | Deal) for r in recorded)
            assert lines(step_events(recorded, n, name)) == lines(step_events_of_steps(recorded, n, name))
    assert whole > 500
