"""``pan fmt``: canonical output, --check, --diff, errors and exit codes."""

from __future__ import annotations

from pathlib import Path

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
