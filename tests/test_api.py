"""The Python API: ``import pancli`` is light and gives the documented names (docs/api.md runs as a
doctest); the version has one source; the command line judges melds through the same function."""

from __future__ import annotations

import doctest
import importlib.metadata
import json
import subprocess
import sys
from pathlib import Path

import pytest
from cli_kit import ROOT
from click.testing import CliRunner

import pancli
from pancli.cli import cli
from pancli.panrules import PanRules


def test_docs_api_md_runs_as_a_doctest() -> None:
    result = doctest.testfile(
        str(ROOT / "docs" / "api.md"),
        module_relative=False,
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,
    )
    assert result.attempted >= 10 and result.failed == 0


def test_import_pancli_loads_nothing_until_a_name_is_used() -> None:
    code = (
        "import sys, pancli; before = {m for m in ('click', 'rich', 'pyparsing', 'pancli.api') if m in sys.modules};"
        " pancli.check_meld; print(sorted(before), 'pancli.api' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[] True"


def test_every_api_name_is_there_and_others_are_not() -> None:
    for name in pancli.API:
        assert getattr(pancli, name) is getattr(importlib.import_module("pancli.api"), name)
        assert name in dir(pancli)
    with pytest.raises(AttributeError):
        pancli.no_such_name  # noqa: B018


def test_the_version_has_one_source() -> None:
    assert CliRunner().invoke(cli, ["--version"]).stdout == f"pan, version {pancli.__version__}\n"
    assert importlib.metadata.version("pancli") == pancli.__version__


@pytest.mark.parametrize("text", ["5s 5s 5s", "7c 7s 7s", "3-5h", "Qh Kh Ah", "5s 9s 5s", "Zz", "As Ad Ac Ah"])
def test_pan_check_json_says_what_check_meld_says(text: str) -> None:
    """The same values; a legal meld's reason is the judge's words, which pan check follows with
    its conditions (render/check.py's words)."""
    from pancli.render.check import check_reason

    [obj] = json.loads(CliRunner().invoke(cli, ["check", "--json", "--rules", "cardroom", text]).stdout)
    m = pancli.check_meld(text, "cardroom")
    assert (obj["meld"], obj["legal"], obj["kind"], obj["value"], obj["rule"], obj["reason"], obj["col"]) == (
        m.meld, m.legal, m.kind, m.value, m.rule, check_reason(m), m.col,
    )  # fmt: skip
    assert obj["reason"].startswith(m.reason)


@pytest.mark.parametrize("text", ["5s 5s 5s", "7c 7s 7s", "3-5h", "5s 9s 5s", "Zz"])
def test_one_meld_check_type_for_the_api_and_pan_check(text: str) -> None:
    """check_meld and pan check's batch give the same MeldCheck (one type), placed where read."""
    from msgspec.structs import replace

    from pancli.app.check import MeldCheck, assess
    from pancli.app.lines import InputLine
    from pancli.render.exports import check_item

    m = pancli.check_meld(text, "cardroom")
    assert type(m) is MeldCheck is pancli.MeldCheck
    assert (m.file, m.line) == ("<string>", 1)
    placed = assess(InputLine("-", 7, text), PanRules(pancli.load_rules("cardroom")))
    assert placed == MeldCheck("-", 7, *(getattr(m, f) for f in MeldCheck.__struct_fields__[2:]))
    assert check_item(placed) == replace(check_item(m), file="-", line=7)


def test_read_records_reads_a_file_and_referee_judges_its_hands() -> None:
    hands = list(pancli.read_records(ROOT / "samples" / "illegal-P8-forcing.pan"))
    [result] = [pancli.referee_hand(h) for h in hands]
    assert [str(v.rule) for v in result.violations] == ["P8"]


def test_bad_input_raises_pan_error_with_its_rule() -> None:
    with pytest.raises(pancli.PanError) as caught:
        pancli.analyze_hand("5s 5s")
    assert caught.value.rule == "P7"
    with pytest.raises(pancli.PanError, match="R3"):
        pancli.load_rules("/no/such/house.toml")


def api_md_as_a_script() -> str:
    """The examples of docs/api.md as one Python script: each ``>>>`` or ``...`` line of its
    ``python`` blocks, in order (outputs and tracebacks left out)."""
    import re

    text = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    lines: list[str] = []
    for block in re.findall(r"```python\n(.*?)```", text, flags=re.DOTALL):
        lines += [ln[4:] for ln in block.splitlines() if ln.startswith((">>> ", "... "))]
    return "\n".join(lines) + "\n"


@pytest.mark.slow
def test_docs_api_md_examples_pass_mypy_strict_against_the_installed_package(tmp_path: Path) -> None:
    """As a user's script: outside the checkout, so pancli is found as installed (editable here:
    its .pth path entry, which type checkers follow, unlike an import hook)."""
    script = tmp_path / "api_examples.py"
    script.write_text(api_md_as_a_script(), encoding="utf-8")
    assert "referee_hand" in script.read_text(encoding="utf-8")
    p = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--cache-dir",
            str(tmp_path / "cache"),
            "--no-incremental",
            script.name,
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert p.returncode == 0, p.stdout + p.stderr


def test_referee_hand_takes_the_path_of_a_record_of_one_hand(tmp_path: Path) -> None:
    one = (ROOT / "samples" / "illegal-P8-forcing.pan").read_text(encoding="utf-8")
    record = tmp_path / "one.pan"
    record.write_text(one, encoding="utf-8")
    for given in (record, str(record)):
        result = pancli.referee_hand(given)
        assert [v.rule for v in result.violations] == ["P8"]
        assert result.violations[0].line == 28
    with pytest.raises(pancli.PanError, match="R1 the record holds 2 hands, not one"):
        pancli.referee_hand(ROOT / "samples" / "friday-hoyle.pan")
    with pytest.raises(pancli.PanError, match=r"R2 'nothing\.pan' is neither a file nor the text of a hand"):
        pancli.referee_hand("nothing.pan")


def test_analyze_hand_takes_the_drawn_card_as_the_command_line_does() -> None:
    plus = pancli.analyze_hand("5sss 3-4h Kdhc 2c 7d +5h", samples=50)
    keyword = pancli.analyze_hand("5sss 3-4h Kdhc 2c 7d", drawn="5h", samples=50)
    assert str(plus.drawn) == str(keyword.drawn) == "5h" and plus.now == keyword.now
    with pytest.raises(pancli.PanError, match="P7 two drawn cards"):
        pancli.analyze_hand("5sss 3-4h Kdhc 2c 7d +5h", drawn="5h")
