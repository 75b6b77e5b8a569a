"""``pan check`` through click's runner and through a real pipe (docs/commands.md)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from cli_kit import pan
from click.testing import Result

ERROR_LINE = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+):(?P<col>\d+): (?P<rule>[A-Z]\d+) (?P<msg>.+)$")
FIELDS = {"meld", "legal", "kind", "condition", "value", "rule", "reason"}


def run(*args: str, input: str | bytes | None = None, env: dict[str, str | None] | None = None) -> Result:
    result = pan("check", *args, input=input, env=env)
    assert "Traceback" not in result.output
    return result


def rows(result: Result) -> list[list[str]]:
    return [line.split("\t") for line in result.stdout.splitlines()]


def errors(result: Result) -> list[re.Match[str]]:
    found = []
    for line in result.stderr.splitlines():
        m = ERROR_LINE.match(line)
        assert m, line
        found.append(m)
    return found


def test_legal_melds_exit_0_with_plain_rows_in_a_pipe() -> None:
    r = run("5s 5s 5s", "Jc Qc Kc", "5h,5c,5d")
    assert r.exit_code == 0
    assert rows(r) == [
        ["5s 5s 5s", "legal", "set", "C2", "4", "-", "one-suit set; C2 valle set, one suit"],
        ["Jc Qc Kc", "legal", "rope", "C5", "1", "-", "rope; C5 rope that includes the king"],
        ["5h 5c 5d", "legal", "set", "C1", "1", "-", "different-suits set; C1 valle set, different suits"],
    ]
    assert r.stderr == ""


def test_M3_illegal_meld_exit_1_with_error_line() -> None:
    r = run("5s 5s 5s", "7c 7s 7s")
    assert r.exit_code == 1
    assert rows(r)[1][:6] == ["7c 7s 7s", "illegal", "-", "-", "0", "M3"]
    (e,) = errors(r)
    assert (e["file"], e["line"], e["col"], e["rule"]) == ("<arg>", "2", "1", "M3")


def test_json_has_exactly_the_notation_fields_and_extras() -> None:
    r = run("--json", "5s 5s 5s", "Qh Kh Ah", "Ah 2h 3h 4h 5h 6h 7h Jh Qh Kh")
    assert r.exit_code == 1
    data = json.loads(r.stdout)
    assert isinstance(data, list) and len(data) == 3
    for obj in data:
        assert set(obj) >= FIELDS
    five, wrap, a_to_k = data
    assert {k: five[k] for k in FIELDS} == {
        "meld": "5s 5s 5s",
        "legal": True,
        "kind": "set",
        "condition": "C2",
        "value": 4,
        "rule": None,
        "reason": "one-suit set; C2 valle set, one suit",
    }
    assert (wrap["legal"], wrap["kind"], wrap["condition"], wrap["value"], wrap["rule"]) == (False, None, None, 0, "E2")
    assert (a_to_k["condition"], a_to_k["conditions"], a_to_k["value"]) == ("C4", ["C4", "C5"], 9)
    assert five["shape"] == "one-suit" and a_to_k["shape"] is None
    (e,) = errors(r)
    assert e["rule"] == "E2"


def test_rope_canonical_text_is_low_to_high() -> None:
    r = run("--json", "5h 3h 4h")
    assert json.loads(r.stdout)[0]["meld"] == "3h 4h 5h"


def test_rules_cardroom_changes_E4() -> None:
    eight = " ".join(["5s"] * 8)
    assert run(eight).exit_code == 0
    r = run("--rules", "cardroom", eight)
    assert r.exit_code == 1
    assert errors(r)[0]["rule"] == "E4"


def test_stdin_batch_skips_blank_lines_and_comments_and_keeps_line_numbers() -> None:
    text = "# my melds\n5s 5s 5s\n\n   \n  # indented comment\n7c 7s 7s\r\nJc Qc Kc\n3h 4h 6h"
    r = run("-", input=text)
    assert r.exit_code == 1
    assert [row[0] for row in rows(r)] == ["5s 5s 5s", "7c 7s 7s", "Jc Qc Kc", "3h 4h 6h"]
    assert [(e["file"], e["line"], e["col"], e["rule"]) for e in errors(r)] == [
        ("-", "6", "1", "M3"),
        ("-", "8", "1", "M2"),
    ]


def test_stdin_without_dash_when_piped() -> None:
    r = run(input="5s 5s 5s\n")
    assert (r.exit_code, rows(r)[0][1]) == (0, "legal")


def test_stdin_json_and_table_paths_agree_with_the_plain_path() -> None:
    text = "5sss\n# c\n7c 7s 7s\n\nKc Kd Ks\n"
    plain = run("-", input=text)
    as_json = run("--json", "-", input=text)
    data = json.loads(as_json.stdout)
    assert [r[0] for r in rows(plain)] == [d["meld"] for d in data]
    assert [(d["file"], d["line"]) for d in data] == [("-", 1), ("-", 3), ("-", 5)]
    assert plain.stderr == as_json.stderr
    assert plain.exit_code == as_json.exit_code == 1


def test_the_same_line_twice_is_reported_at_each_line() -> None:
    r = run("-", input="7c 7s 7s\n5s 5s 5s\n7c 7s 7s\n")
    assert [e["line"] for e in errors(r)] == ["1", "3"]
    assert len(rows(r)) == 3


def test_shorthands_are_read() -> None:
    r = run("--json", "5sss", "5hcd", "3-5h", "6-Jd", "A-3s", "5s5s5s")
    assert r.exit_code == 0, r.stderr
    assert [d["meld"] for d in json.loads(r.stdout)] == [
        "5s 5s 5s",
        "5h 5c 5d",
        "3h 4h 5h",
        "6d 7d Jd",
        "As 2s 3s",
        "5s 5s 5s",
    ]


def test_E1_notation_error_names_the_rule_and_column() -> None:
    r = run("5s 5s 8s", "Th Jh Qh")
    assert r.exit_code == 1
    e1, e2 = errors(r)
    assert (e1["line"], e1["col"], e1["rule"]) == ("1", "7", "E1")
    assert "not in a Panguingue pack" in e1["msg"]
    assert (e2["line"], e2["col"], e2["rule"]) == ("2", "1", "E1")


def test_notation_error_has_its_column_and_the_row_keeps_the_text() -> None:
    r = run("-", input="5s 5s 5s\n5s  5x 5s\n")
    assert r.exit_code == 1
    (e,) = errors(r)
    assert (e["file"], e["line"], e["col"]) == ("-", "2", "6")
    assert rows(r)[1][:2] == ["5s 5x 5s", "illegal"]


def test_binary_junk_on_stdin_is_an_error_not_a_traceback() -> None:
    junk = bytes(range(1, 256)) * 8 + b"\n\xff\xfe\x01\n5s 5s 5s\n"
    r = run("-", input=junk)
    assert r.exit_code == 1
    assert rows(r)[-1][:2] == ["5s 5s 5s", "legal"]
    for e in errors(r):
        assert e["file"] == "-"


def test_N1_a_NUL_byte_ends_the_input_there_said_once() -> None:
    """No line of input holds a NUL: binary data. Its line is an error at the NUL, and nothing after it
    is read (``pan check - < /dev/zero`` ends at once)."""
    r = run("-", input=b"5s 5s 5s\n# a note\x00\n5h 5h 5h\n")
    assert r.exit_code == 1
    assert [row[0] for row in rows(r)] == ["5s 5s 5s", "\\x00"]
    assert r.stderr.count("binary data") == 1
    assert "-:2:9: N1 binary data (a NUL byte)" in r.stderr


@pytest.mark.parametrize(
    "command",
    [("check",), ("check", "--json"), ("pay",), ("pay", "--json"), ("pay", "--jsonl"), ("score",), ("analyze",),
     ("check", "--game", "pagruc")],
)  # fmt: skip
def test_N1_the_line_a_NUL_cuts_has_one_error_in_its_line_order(command: tuple[str, ...]) -> None:
    # the NUL's line is binary data's, not also "found U+0000"; after line 2's error, as each command writes
    r = pan(*command, "-", input=b"5sss\nxx\n3-5h\n# a note\x00 5h\n5h 5h 5h\n")
    assert r.exit_code == 1
    said = [line.split(" ", 2)[:2] for line in r.stderr.splitlines() if " N1 " in line]
    assert said == [["-:2:1:", "N1"], ["-:4:9:", "N1"]], r.stderr
    assert r.stderr.count("binary data (a NUL byte)") == 1 and "U+0000" not in r.stderr


@pytest.mark.parametrize("command", ["check", "pay", "score", "analyze"])
def test_N1_a_byte_not_utf8_on_stdin_is_named_as_in_an_argument(command: str) -> None:
    # the same bytes as an argument (argv keeps them, surrogateescape) and as a line of standard input
    arg = pan(command, b"5s 5s \xff".decode("utf-8", "surrogateescape"))
    piped = pan(command, "-", input=b"5s 5s \xff\n")
    assert piped.exit_code == arg.exit_code == 1
    said = "N1 expected a card, found the byte \\xff, which is not UTF-8"
    assert said in arg.stderr and said in piped.stderr and "\ufffd" not in piped.stdout + piped.stderr
    assert piped.stdout == arg.stdout


def test_a_1_MB_line_is_read_without_traceback() -> None:
    big = " ".join(["5s"] * 350_000)
    r = run("-", input=big + "\n5h 5h 5h\n")
    assert r.exit_code == 1
    (e,) = errors(r)
    assert e["line"] == "1" and e["rule"] in ("N10", "E4")  # too long to read, or a ninth 5s
    assert len(r.stderr) < 1000
    assert rows(r)[1][0] == "5h 5h 5h"


def test_a_1_MB_junk_line_is_read_without_traceback() -> None:
    r = run("-", input="5s" + "x" * 1_000_000 + "\n")
    assert r.exit_code == 1
    assert len(errors(r)) == 1


def test_terminal_output_is_a_rich_table_and_no_color_is_respected() -> None:
    env = {"PAN_FORCE_TERMINAL": "1", "NO_COLOR": "1", "COLUMNS": "120"}
    r = run("5s 5s 5s", "7c 7s 7s", env=env)
    assert r.exit_code == 1
    assert not re.search(r"\x1b\[(3[0-7]|9[0-7]|38;)", r.stdout)  # NO_COLOR: no foreground colours
    text = re.sub(r"\x1b\[[0-9;]*m", "", r.stdout)
    assert "┃ meld" in text and "│ 5s 5s 5s" in text and "│ M3" in text
    coloured = run("5s 5s 5s", "7c 7s 7s", env={"PAN_FORCE_TERMINAL": "1", "COLUMNS": "120", "NO_COLOR": None})
    assert re.search(r"\x1b\[31m", coloured.stdout)  # red for the broken rule without NO_COLOR
    assert errors(r)[0]["rule"] == "M3"


def test_usage_errors_exit_2() -> None:
    assert run("--rules", "vegas", "5sss").exit_code == 2
    assert run("--bogus", "5sss").exit_code == 2
    assert run("--game", "poker", "5sss").exit_code == 2


def test_house_rules_file_bad_knob_exit_2_naming_the_key(tmp_path: Path) -> None:
    bad = tmp_path / "house.toml"
    bad.write_text("out_bonsu = 3\n")
    r = run("--rules", str(bad), "5sss")
    assert r.exit_code == 2
    assert "out_bonsu" in r.stderr
    nested = tmp_path / "nested.toml"
    nested.write_text("[conditions.C2]\nspades = -1\n")
    r = run("--rules", str(nested), "5sss")
    assert r.exit_code == 2 and "conditions.C2.spades" in r.stderr
    assert run("--rules", str(tmp_path / "missing.toml"), "5sss").exit_code == 2


def test_house_rules_file_changes_the_value(tmp_path: Path) -> None:
    house = tmp_path / "house.toml"
    house.write_text('base = "cardroom"\n[conditions.C2]\nspades = 5\n')
    r = run("--json", "--rules", str(house), "5s 5s 5s")
    assert r.exit_code == 0
    assert json.loads(r.stdout)[0]["value"] == 5


def test_pipe_through_a_real_subprocess() -> None:
    text = "5s 5s 5s\n# comment\n\n7c 7s 7s\nJc Qc Kc\n"
    p = subprocess.run(
        [sys.executable, "-m", "pancli", "check", "-"], input=text, capture_output=True, text=True, check=False
    )
    assert p.returncode == 1
    assert [line.split("\t")[:5] for line in p.stdout.splitlines()] == [
        ["5s 5s 5s", "legal", "set", "C2", "4"],
        ["7c 7s 7s", "illegal", "-", "-", "0"],
        ["Jc Qc Kc", "legal", "rope", "C5", "1"],
    ]
    assert p.stderr.splitlines() == ["-:4:1: M3 a set of 7s must be all one suit or all different suits, not 7c 7s 7s"]


def test_plain_path_in_a_real_pipe_imports_neither_rich_nor_pyparsing_nor_json() -> None:
    code = (
        "import sys\n"
        "from pancli.cli import cli\n"
        "try:\n"
        "    cli(['check', '5s 5s 5s', 'Jc Qc Kc'], prog_name='pan')\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(sorted(m for m in ('rich', 'pyparsing', 'json') if m in sys.modules), file=sys.stderr)\n"
    )
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert p.stderr.strip() == "[]", p.stderr


def test_M3_json_error_fields_name_the_place_rule_and_message() -> None:
    bad, good = json.loads(run("--json", "7c 7s 7s", "5s 5s 5s").stdout)
    assert {k: bad[k] for k in ("file", "line", "col", "rule", "player")} == {
        "file": "<arg>",
        "line": 1,
        "col": 1,
        "rule": "M3",
        "player": None,
    }
    assert bad["message"] == bad["reason"] and bad["message"].startswith("a set of 7s must be")
    assert good["message"] is None and good["rule"] is None


def test_check_objects_of_both_games_have_one_writer() -> None:
    """The JSON object of a checked meld (``pan check --json``, ``pay --json``, both games, the
    batch path too) is made by one function, :func:`pancli.render.exports.check_item`, of one
    class per game: no dict in the package spells its fields, and both games' objects share the
    order of the fields they have in common."""
    import ast

    import pancli

    writers, classes = [], []
    for path in sorted(Path(pancli.__file__).parent.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Dict):
                keys = {k.value for k in node.keys if isinstance(k, ast.Constant)}
                if {"meld", "legal", "reason"} <= keys:
                    writers.append(f"{path.name}:{node.lineno}")
            if isinstance(node, ast.ClassDef):
                fields = {
                    n.target.id for n in node.body if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)
                }
                if {"meld", "legal", "reason", "message"} <= fields:
                    classes.append(f"{path.name}:{node.name}")
    assert not writers, writers
    assert classes == ["exports.py:CheckItem", "exports.py:PagrucCheckItem"], classes
    pan_obj = json.loads(run("--json", "5s 5s 5s").stdout)[0]
    pagruc_obj = json.loads(run("--json", "--game", "pagruc", "Ac Ad As").stdout)[0]
    assert [k for k in pan_obj if k in pagruc_obj] == [k for k in pagruc_obj if k in pan_obj]
    assert set(pan_obj) ^ set(pagruc_obj) == {"conditions", "shape", "points"}
    assert pagruc_obj["points"] == pagruc_obj["value"] == 45
