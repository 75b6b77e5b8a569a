"""``pan fmt``: canonical output, --check, --diff, errors and exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from pancli.cli import cli

MESSY = '[Players "Ana  Ben"]\n[Event "x"]\nAna STAY\nBen stay ;ok\nAna draw 5h,discard 5h\n'
CANON = '[Event "x"]\n[Players "Ana Ben"]\n\nAna stay\nBen stay ; ok\nAna draw 5h, discard 5h\n'


def _run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    r = CliRunner().invoke(cli, ["fmt", *args], input=stdin)
    return r.exit_code, r.stdout, r.stderr


def test_fmt_prints_the_canonical_form(tmp_path: Path) -> None:
    f = tmp_path / "a.pan"
    f.write_text(MESSY, encoding="utf-8")
    assert _run(str(f)) == (0, CANON, "")


def test_fmt_of_canonical_text_is_identical() -> None:
    assert _run("-", stdin=CANON) == (0, CANON, "")


def test_fmt_check_exits_1_and_names_the_file_not_canonical(tmp_path: Path) -> None:
    messy, canon = tmp_path / "m.pan", tmp_path / "c.pan"
    messy.write_text(MESSY, encoding="utf-8")
    canon.write_text(CANON, encoding="utf-8")
    code, out, err = _run("--check", str(messy), str(canon))
    assert (code, out) == (1, "")
    assert f"would reformat {messy}" in err and str(canon) not in err
    assert _run("--check", str(canon)) == (0, "", "")


def test_fmt_check_sees_a_missing_final_newline(tmp_path: Path) -> None:
    f = tmp_path / "n.pan"
    f.write_text(CANON.rstrip("\n"), encoding="utf-8")
    assert _run("--check", str(f))[0] == 1


def test_fmt_diff_shows_the_changes() -> None:
    code, out, _ = _run("--diff", "-", stdin=MESSY)
    assert code == 0
    assert "-Ana STAY" in out and "+Ana stay" in out


def test_fmt_malformed_hand_is_reported_with_its_place_and_kept() -> None:
    text = CANON + '\n[Players "Ana Ben"]\n\nAna draw 9h\n'
    code, out, err = _run("-", stdin=text)
    assert code == 1
    assert err.strip() == "-:10:10: E1 9h is not in a Panguingue pack (no 8, 9 or 10)"
    assert out == text


def test_fmt_missing_file_is_a_usage_error(tmp_path: Path) -> None:
    code, _, err = _run(str(tmp_path / "nope.pan"))
    assert code == 2 and "nope.pan" in err


def _json(*args: str, stdin: str | None = None) -> tuple[int, list[dict[str, Any]], str]:
    code, out, err = _run("--json", *args, stdin=stdin)
    data = json.loads(out)
    assert isinstance(data, list)
    return code, data, err


def test_fmt_json_gives_one_object_per_file(tmp_path: Path) -> None:
    messy, canon = tmp_path / "m.pan", tmp_path / "c.pan"
    messy.write_text(MESSY, encoding="utf-8")
    canon.write_text(CANON, encoding="utf-8")
    code, data, err = _json(str(messy), str(canon))
    assert (code, err) == (0, "")
    assert data == [
        {"file": str(messy), "canonical": False, "text": CANON, "hands": 1, "errors": [], "read_error": None},
        {"file": str(canon), "canonical": True, "text": CANON, "hands": 1, "errors": [], "read_error": None},
    ]


def test_fmt_json_check_has_no_text_and_keeps_the_exit_status(tmp_path: Path) -> None:
    messy, canon = tmp_path / "m.pan", tmp_path / "c.pan"
    messy.write_text(MESSY, encoding="utf-8")
    canon.write_text(CANON, encoding="utf-8")
    code, data, err = _json("--check", str(messy), str(canon))
    assert code == 1 and err == f"would reformat {messy}\n"
    assert [(d["canonical"], d["text"], d["hands"]) for d in data] == [(False, None, 1), (True, None, 1)]
    assert _json("--check", str(canon))[0] == 0


def test_fmt_json_E1_malformed_hand_has_the_error_fields() -> None:
    text = CANON + '\n[Players "Ana Ben"]\n\nAna draw 9h\n'
    code, [data], err = _json("-", stdin=text)
    assert code == 1 and err.startswith("-:10:10: E1 ")
    assert data["hands"] == 2 and data["canonical"] is True and data["text"] == text
    assert data["errors"] == [
        {
            "file": "-",
            "line": 10,
            "col": 10,
            "rule": "E1",
            "player": None,
            "message": "9h is not in a Panguingue pack (no 8, 9 or 10)",
        }
    ]


def test_fmt_json_diff_is_a_field_not_stdout_text() -> None:
    code, [data], _ = _json("--diff", "-", stdin=MESSY)
    assert code == 0 and data["text"] == CANON and data["canonical"] is False
    assert "-Ana STAY\n" in data["diff"] and "+Ana stay\n" in data["diff"]
    assert _json("--diff", "-", stdin=CANON)[1][0]["diff"] == ""


def test_fmt_json_missing_file_is_exit_2_and_named(tmp_path: Path) -> None:
    missing = str(tmp_path / "nope.pan")
    code, [data], err = _json(missing)
    assert code == 2 and missing in err
    assert data["file"] == missing and data["canonical"] is None and data["hands"] == 0
    assert "No such file" in data["read_error"]


def test_R3_fmt_json_read_error_is_made_from_the_error_value_in_render() -> None:
    """``read_error`` is worded from the OSError by render/fmt.py, as standard error words it
    (less ``pan: ``), not read back out of the command line's message."""
    from pancli.cli.common import io_message
    from pancli.render.fmt import file_item

    why = FileNotFoundError(2, "No such file or directory")
    item = file_item("a\tb.pan", None, None, 0, (), why, False, None)
    assert item.read_error == io_message("a\tb.pan", "read", why).removeprefix("pan: ")
    assert item.read_error == "cannot read a\\tb.pan: No such file or directory"
    assert file_item("x.pan", True, "", 0, (), None, False, None).read_error is None
    assert "removeprefix" not in (Path(__file__).parent.parent / "pancli" / "cli" / "fmt.py").read_text()


def test_fmt_json_through_a_real_pipe() -> None:
    p = subprocess.run(
        [sys.executable, "-m", "pancli", "fmt", "--json"], input=MESSY, capture_output=True, text=True, timeout=60
    )
    assert p.returncode == 0, p.stderr
    [data] = json.loads(p.stdout)
    assert (data["file"], data["text"], data["canonical"]) == ("-", CANON, False)
