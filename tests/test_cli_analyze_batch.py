"""``pan analyze`` and standard input (docs/notation.md and docs/commands.md): ``-`` or no HAND with piped
input reads a batch, one hand per line; errors name ``-:LINE:COL``; ``--json`` gives a list, and an
``error`` object for a bad hand."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

from cli_kit import pan
from click.testing import Result

HAND = "5s 5s 5s 3h 4h Kd Kh Kc 2c 7d"
OTHER = "5sss 3-5h Kdhc 2h +Qc"
ERROR_FIELDS = {"file", "line", "col", "rule", "player", "message"}


def run(*args: str, input: str | None = None, env: dict[str, str] | None = None) -> Result:
    return pan("analyze", "--samples", "50", *args, input=input, env=env)


def entries(r: Result) -> list[dict[str, Any]]:
    """The ``--json`` list of a batch."""
    data = json.loads(r.stdout)
    assert isinstance(data, list)
    return data


def single(hand: str) -> dict[str, Any]:
    """The ``--json`` object of one HAND argument analysed cleanly."""
    [data] = entries(run("--json", "-", input=hand))
    assert data.pop("file") == "-" and data.pop("line") == 1
    alone = json.loads(run("--json", hand).stdout)
    assert alone == data
    return data


def test_dash_reads_the_hand_from_standard_input() -> None:
    r = run("--json", "-", input=HAND + "\n")
    assert r.exit_code == 0, r.stderr
    [entry] = entries(r)
    assert (entry.pop("file"), entry.pop("line")) == ("-", 1)
    assert entry == json.loads(run("--json", HAND).stdout)  # the same analysis as the hand given as an argument


def test_no_hand_argument_and_piped_input_reads_standard_input() -> None:
    piped = run("--json", input=HAND + "\n")
    dashed = run("--json", "-", input=HAND + "\n")
    assert piped.exit_code == 0 and piped.stdout == dashed.stdout


def test_batch_skips_blank_and_comment_lines_and_analyses_each_hand() -> None:
    text = f"# two hands\n\n{HAND}\n   \n  # another comment\n{OTHER}  # trailing comment\n"
    r = run("--json", "-", input=text)
    assert r.exit_code == 0, r.stderr
    got = entries(r)
    assert [(e["line"], e["error"]) for e in got] == [(3, None), (6, None)]
    assert got[0]["hand"] == HAND and got[0]["drawn"] is None
    assert got[1]["drawn"] == "Qc" and got[1]["melded"] == single(OTHER)["melded"]


def test_batch_text_output_separates_the_hands_with_a_header() -> None:
    r = run("-", input=f"{HAND}\n\n{OTHER}\n")
    assert r.exit_code == 0, r.stderr
    first, second = r.stdout.split("\n\n")
    assert first.startswith("input\t-:1\nhand\t" + HAND + "\n")
    assert second.startswith("input\t-:3\nhand\t5s 5s 5s 3h 4h 5h Kd Kh Kc 2h +Qc\n")
    alone = run(HAND).stdout
    assert first + "\n" == "input\t-:1\n" + alone  # the analysis itself is the one of the argument


def test_batch_on_a_terminal_draws_every_hand() -> None:
    r = run("-", input=f"{HAND}\n{OTHER}\n", env={"PAN_FORCE_TERMINAL": "1", "COLUMNS": "160"})
    assert r.exit_code == 0, r.stderr
    assert r.stdout.count("usable draws") == 2 and "-:1" in r.stdout and "-:2" in r.stdout


def test_P7_E1_bad_hands_in_a_batch_name_their_line_and_the_others_are_analysed() -> None:
    text = f"{HAND}\n5s 5s 5s\n  3h 4h Kd Kh Kc 2c 7d 8d 5s 5s\n{OTHER}\n"
    r = run("-", input=text)
    assert r.exit_code == 1
    assert r.stderr.splitlines() == [
        "-:2:1: P7 the player holds 3 and has 0 melded: not 10 in all (the drawn card apart)",
        "-:3:24: E1 8d is not in a Panguingue pack (no 8, 9 or 10)",
    ]
    assert [ln for ln in r.stdout.splitlines() if ln.startswith("input\t")] == ["input\t-:1", "input\t-:4"]
    assert "Traceback" not in r.output


def test_N1_notation_error_in_a_batch_keeps_its_column() -> None:
    r = run("--json", "-", input=f"{HAND}\n5s 5s Zs\n")
    assert r.exit_code == 1
    good, bad = entries(r)
    assert good["error"] is None and good["melded"] == 6
    assert bad == {
        "file": "-",
        "line": 2,
        "error": {"file": "-", "line": 2, "col": 7, "rule": "N1", "player": None, "message": bad["error"]["message"]},
    }
    assert r.stderr.startswith("-:2:7: N1 ")


def test_options_apply_to_every_hand_of_the_batch() -> None:
    text = "3h 4h Kd Kh Kc 2c 7d\n2h 3h 4h Kd Kh Kc 7c\n"
    got = entries(run("--json", "-", "--melds", "[5sss]", "--seen", "5s 5h", "--players", "4", input=text))
    assert len(got) == 2
    for e in got:
        assert e["melds_on_table"] == ["5s 5s 5s"] and e["players"] == 4 and e["opponents"] == 3
        assert next(d for d in e["draws"] if d["card"] == "5s")["live"] == 8 - 3 - 1
    drawn = entries(run("--json", "-", "--draw", "5h", "--rules", "cardroom", input=f"{HAND}\n{HAND}\n"))
    assert [(e["drawn"], e["rules"]) for e in drawn] == [("5h", "cardroom")] * 2


def test_P7_a_trailing_drawn_card_and_draw_option_is_two_draws() -> None:
    r = run("--json", "-", "--draw", "5h", input=f"{HAND} +5d\n{HAND}\n")
    assert r.exit_code == 1
    bad, good = entries(r)
    assert bad["error"]["rule"] == "P7" and bad["error"]["col"] == len(HAND) + 2
    assert good["drawn"] == "5h"


def test_a_bad_option_stops_the_batch_before_any_hand() -> None:
    r = run("--json", "-", "--melds", "[5s 6h 7d]", input=f"{HAND}\n")
    assert r.exit_code == 1
    [entry] = entries(r)
    assert entry["file"] == "<melds 1>" and set(entry["error"]) == ERROR_FIELDS
    r = run("-", "--draw", "9h", input=f"{HAND}\n")
    assert r.exit_code == 1 and r.stdout == ""
    assert r.stderr.startswith("<draw>:1:1: E1 ")


def test_an_empty_batch_is_no_hand_and_no_error() -> None:
    r = run("--json", "-", input="# nothing\n\n")
    assert (r.exit_code, entries(r)) == (0, [])


def test_P7_json_of_a_bad_hand_argument_is_an_error_object() -> None:
    r = run("--json", "5s 5s 5s")
    assert r.exit_code == 1
    data = json.loads(r.stdout)
    assert data == {
        "error": {
            "file": "<hand>",
            "line": 1,
            "col": 1,
            "rule": "P7",
            "player": None,
            "message": "the player holds 3 and has 0 melded: not 10 in all (the drawn card apart)",
        }
    }
    assert r.stderr.startswith("<hand>:1:1: P7 ")
    assert single(HAND)["error"] is None


def test_E1_json_of_a_bad_card_names_its_column() -> None:
    r = run("--json", "5s 5s 5s 3h 4h Kd Kh Kc 2c 8d")
    assert r.exit_code == 1
    assert {k: v for k, v in json.loads(r.stdout)["error"].items() if k != "message"} == {
        "file": "<hand>",
        "line": 1,
        "col": 28,
        "rule": "E1",
        "player": None,
    }


def test_dash_with_at_still_reads_a_record() -> None:
    r = run("-", "--at", "1", input=HAND + "\n")
    assert (r.exit_code, r.stdout) == (1, "")  # the text is read as a record, not as a hand
    assert r.stderr.startswith("-:1:1: R2 the hand has no Players tag")


def _pipe(args: list[str], text: str) -> subprocess.CompletedProcess[str]:
    argv = [sys.executable, "-m", "pancli", "analyze", "--samples", "50", *args]
    return subprocess.run(argv, input=text, capture_output=True, text=True, timeout=60)


def test_a_real_pipe_into_analyze_dash_and_with_no_argument() -> None:
    text = f"{HAND}\n# skip\n5s 5s 5s\n"
    for args in (["-"], []):
        p = _pipe(["--json", *args], text)
        assert p.returncode == 1, p.stderr
        good, bad = json.loads(p.stdout)
        assert (good["line"], good["melded"], bad["line"], bad["error"]["rule"]) == (1, 6, 3, "P7")
        assert p.stderr.startswith("-:3:1: P7 ") and "Traceback" not in p.stderr
