"""The Python API: ``import pancli`` is light and gives the documented names (docs/api.md runs as a
doctest); the version has one source; the command line judges melds through the same function."""

from __future__ import annotations

import doctest
import importlib.metadata
import json
import subprocess
import sys

import pytest
from cli_kit import ROOT
from click.testing import CliRunner

import pancli
from pancli.cli import cli


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
    [obj] = json.loads(CliRunner().invoke(cli, ["check", "--json", "--rules", "cardroom", text]).stdout)
    m = pancli.check_meld(text, "cardroom")
    assert (obj["meld"], obj["legal"], obj["kind"], obj["value"], obj["rule"], obj["reason"], obj["col"]) == (
        m.meld, m.legal, m.kind, m.value, m.rule, m.reason, m.col,
    )  # fmt: skip


@pytest.mark.parametrize("text", ["5s 5s 5s", "7c 7s 7s", "3-5h", "5s 9s 5s", "Zz"])
def test_one_meld_check_type_for_the_api_and_pan_check(text: str) -> None:
    """check_meld and pan check's batch give the same MeldCheck (one type), placed where read."""
    from pancli.app.check import MeldCheck, assess
    from pancli.app.lines import InputLine

    m = pancli.check_meld(text, "cardroom")
    assert type(m) is MeldCheck is pancli.MeldCheck
    assert (m.file, m.line) == ("<string>", 1)
    placed = assess(InputLine("-", 7, text), pancli.load_rules("cardroom"))
    assert placed == MeldCheck("-", 7, *(getattr(m, f) for f in MeldCheck.__slots__[2:]))
    assert placed.to_json() == {**m.to_json(), "file": "-", "line": 7}


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
