"""``--jsonl`` on every command that can produce many results: one JSON object per line, the
objects of ``--json`` (its list's items), and ``--json --jsonl`` together a usage error."""

from __future__ import annotations

import json

import pytest
from cli_kit import ROOT
from click.testing import CliRunner, Result

from pancli.cli import cli

PAGRUC = [str(p) for p in sorted((ROOT / "samples").glob("pagruc-*.pan"))]


def run(*args: str, input: str | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), input=input)


def objects(r: Result) -> list[dict[str, object]]:
    return [json.loads(line) for line in r.stdout.splitlines()]


@pytest.mark.parametrize(
    ("args", "stdin"),
    [
        (("check", "-"), "5sss\n7c 7s 7s\n"),
        (("analyze", "--samples", "20", "-"), "5s 5s 5s 6h 7h Jc Qc Kc 2d 3d\nbad\n"),
        (("score", "--game", "pagruc", "-"), "[2-4s] | Kh\n| As Ad\nzz\n"),
        (("simulate", "--players", "3", "--hands", "2"), None),
        (("fmt", str(ROOT / "samples" / "friday-hoyle.pan")), None),
    ],
    ids=lambda v: v[0] if isinstance(v, tuple) else "",
)
def test_jsonl_lines_are_the_items_of_the_json_list(args: tuple[str, ...], stdin: str | None) -> None:
    listed = run(*args[:1], "--json", *args[1:], input=stdin)
    lined = run(*args[:1], "--jsonl", *args[1:], input=stdin)
    assert lined.exit_code == listed.exit_code
    assert objects(lined) == json.loads(listed.stdout)
    assert all(line.startswith("{") for line in lined.stdout.splitlines())


def test_pay_jsonl_gives_each_meld_then_the_totals() -> None:
    whole = json.loads(run("pay", "--json", "5sss", "3-5h", "5sss", "5sss").stdout)
    r = run("pay", "--jsonl", "5sss", "3-5h", "5sss", "5sss")
    *melds, totals = objects(r)
    assert r.exit_code == 1 and "E4" in r.stderr
    assert melds == whole.pop("melds")
    assert totals == whole


def test_standings_jsonl_gives_each_hand_then_the_standings() -> None:
    whole = json.loads(run("standings", "--json", *PAGRUC).stdout)
    r = run("standings", "--jsonl", *PAGRUC)
    *hands, last = objects(r)
    assert [{k: v for k, v in h.items() if k != "event"} for h in hands] == whole.pop("hands")
    assert {h["event"] for h in hands} == {"hand"} and last.pop("event") == "standings"
    assert last == whole


@pytest.mark.parametrize("command", ["check", "pay", "analyze", "score", "fmt", "simulate", "standings", "replay"])
def test_json_and_jsonl_together_are_a_usage_error(command: str) -> None:
    r = run(command, "--json", "--jsonl", *([] if command == "simulate" else ["-"]), input="5sss\n")
    assert r.exit_code == 2 and "--json" in r.stderr
