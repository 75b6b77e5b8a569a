"""``pan check --json`` streams its list and ``--jsonl`` writes one object per line: the text is
exactly what the encoder (pancli.jsontext) gives for every report (the batch path encodes each distinct line once)."""

from __future__ import annotations

import io
import json

import pytest
from click.testing import CliRunner, Result
from hypothesis import given, settings
from hypothesis import strategies as st
from profiles_kit import any_profile

from pancli.app.check import assess
from pancli.cards import Game
from pancli.cli import cli
from pancli.cli.common import InputLine, batch_text, is_skipped
from pancli.jsontext import dumps, dumps_indented
from pancli.panrules import PanRules
from pancli.render.exports import JsonBatch, check_item
from pancli.render.stream import JsonStream
from pancli.rules import CARDROOM, HOYLE, Profile

TOKENS = ["5s", "5h", "7c", "7s", "As", "Ad", "Kh", "Kd", "Qh", "3h", "4h", "Jc", "10c", "5S", "kh", "Zz", "#"]
RANDOM_LINE = st.lists(st.sampled_from(TOKENS), min_size=1, max_size=6).flatmap(
    lambda toks: st.sampled_from([" ", ",", "\t", "  "]).map(lambda sep: sep.join(toks))
)
LINES = ["5s 5s 5s", "7c 7s 7s", "3-5h", "", "# comment", "Qh Kh Ah", "5sss", "Zz 9q", "5s,5s,5s", "  ", "A-Kh", "5hcd"]


def run(*args: str, input: str | None = None) -> Result:
    return CliRunner().invoke(cli, ["check", *args], input=input)


def expected(lines: list[str], profile: Profile, file: str = "-") -> list[dict[str, object]]:
    items = [InputLine(file, n, t) for n, t in enumerate(lines, 1)]
    if file == "-":  # '#' starts a comment anywhere on a line of standard input
        items = [InputLine(file, i.line, batch_text(i.text)) for i in items if not is_skipped(i.text)]
    return [json.loads(dumps(check_item(assess(i, PanRules(profile))))) for i in items]


@settings(max_examples=40)
@given(st.lists(st.sampled_from(LINES) | RANDOM_LINE, max_size=30), st.sampled_from([HOYLE, CARDROOM]))
def test_json_of_stdin_is_json_dumps_of_every_report(lines: list[str], profile: Profile) -> None:
    r = run("--json", "--rules", profile.name, "-", input="".join(t + "\n" for t in lines))
    assert r.stdout == dumps_indented(expected(lines, profile)) + "\n"


@settings(max_examples=40)
@given(st.lists(st.sampled_from(LINES) | RANDOM_LINE, max_size=30), any_profile, st.booleans())
def test_the_json_batch_is_json_dumps_of_every_report_under_any_profile(
    lines: list[str], profile: Profile, as_lines: bool
) -> None:
    """The batch path (:class:`JsonBatch`: objects made from plain rows, each distinct row encoded
    once and cut at its line number) against the encoder of every report, profiles of any knobs."""
    out = io.StringIO()
    stream = JsonStream(as_lines, out)
    batch = JsonBatch("-", PanRules(profile), Game.PANGUINGUE, stream)
    slices = list(batch.slices([lines[:9], lines[9:]]))
    for text, _, items in slices:
        stream.add_encoded(text, items)
    stream.close()
    reports = expected(lines, profile)
    if as_lines:
        assert out.getvalue() == "".join(dumps(o) + "\n" for o in reports)
    else:
        assert out.getvalue() == dumps_indented(reports) + "\n"
    errors = [f"-:{o['line']}:{o['col']}: {o['rule']} " for o in reports if not o["legal"]]
    assert [
        e[: len(want)] for e, want in zip("".join(e for _, e, _ in slices).splitlines(), errors, strict=True)
    ] == errors


@settings(max_examples=40)
@given(st.lists(st.sampled_from(LINES) | RANDOM_LINE, max_size=30))
def test_jsonl_of_stdin_is_one_compact_object_per_report(lines: list[str]) -> None:
    r = run("--jsonl", "-", input="".join(t + "\n" for t in lines))
    assert r.stdout == "".join(dumps(o) + "\n" for o in expected(lines, HOYLE))


def test_a_batch_of_many_lines_with_repeats_is_json_dumps_of_every_report() -> None:
    lines = [LINES[i % len(LINES)] for i in range(3000)] + ["5s\t5s 5s", "x\tlegal\ty", "As Ad Ac Ah"] * 5
    r = run("--jsonl", "-", input="".join(t + "\n" for t in lines))
    assert r.stdout == "".join(dumps(o) + "\n" for o in expected(lines, HOYLE))


def test_json_of_arguments_numbers_them_and_reports_errors() -> None:
    args = ["5s 5s 5s", "7c 7s 7s", "5s 5s 5s"]
    r = run("--json", *args)
    assert r.exit_code == 1
    assert json.loads(r.stdout) == expected(args, HOYLE, "<arg>")
    assert r.stderr.startswith("<arg>:2:1: M3 ")


def test_json_of_no_meld_is_an_empty_list() -> None:
    r = run("--json", "-", input="# nothing\n\n")
    assert (r.exit_code, r.stdout) == (0, "[]\n")
    assert run("--jsonl", "-", input="").stdout == ""


def test_json_and_jsonl_together_are_a_usage_error() -> None:
    assert run("--json", "--jsonl", "5sss").exit_code == 2


@pytest.mark.parametrize("flag", ["--json", "--jsonl"])
def test_pagruc_check_streams_too(flag: str) -> None:
    r = run(flag, "--game", "pagruc", "-", input="5h 6h 7h\n5h 6c\n")
    objs = json.loads(r.stdout) if flag == "--json" else [json.loads(x) for x in r.stdout.splitlines()]
    assert [o["legal"] for o in objs] == [True, False]
    assert r.exit_code == 1
