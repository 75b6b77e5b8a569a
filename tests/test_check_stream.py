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

from pancli.app.check import BatchJudge, assess
from pancli.app.lines import InputLine, batch_text, is_skipped
from pancli.cli import cli
from pancli.jsontext import dumps, dumps_indented
from pancli.panrules import PanRules
from pancli.render.exports import JSON_SLICE, JsonBatch, check_item
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
    """The batch path (:class:`JsonBatch`: objects made from the batch judge's rulings, each
    distinct line's once, a slice encoded at a time) against the encoder of every report,
    profiles of any knobs."""
    out = io.StringIO()
    stream = JsonStream(as_lines, out)
    batch = JsonBatch(BatchJudge("-", PanRules(profile)))
    slices = list(batch.slices([lines[:9], lines[9:]]))
    for items, _ in slices:
        stream.add_all(items)
    stream.close()
    reports = expected(lines, profile)
    if as_lines:
        assert out.getvalue() == "".join(dumps(o) + "\n" for o in reports)
    else:
        assert out.getvalue() == dumps_indented(reports) + "\n"
    errors = [f"-:{o['line']}:{o['col']}: {o['rule']} " for o in reports if not o["legal"]]
    assert [
        e[: len(want)] for e, want in zip("".join(e for _, e in slices).splitlines(), errors, strict=True)
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


@settings(max_examples=40)
@given(st.lists(st.sampled_from(LINES) | RANDOM_LINE, max_size=30), any_profile, st.booleans())
def test_the_json_batch_yields_the_objects_of_check_item_not_text(
    lines: list[str], profile: Profile, stdin: bool
) -> None:
    """Each slice is the objects themselves (the encoder writes them; no text is cut or joined
    per line): equal to :func:`check_item` of each line's report, line numbers and all."""
    file = "-" if stdin else "<arg>"
    batch = JsonBatch(BatchJudge(file, PanRules(profile)))
    got = [item for items, _ in batch.slices([lines[:7], lines[7:]]) for item in items]
    items = [InputLine(file, n, t) for n, t in enumerate(lines, 1)]
    if stdin:
        items = [InputLine(file, i.line, batch_text(i.text)) for i in items if not is_skipped(i.text)]
    assert got == [check_item(assess(i, PanRules(profile))) for i in items]


@pytest.mark.parametrize("flag", ["--json", "--jsonl"])
@pytest.mark.parametrize("legal", [True, False], ids=["all-legal", "with-errors"])
def test_a_batch_of_several_slices_is_json_dumps_of_every_report(flag: str, legal: bool) -> None:
    """Past :data:`JSON_SLICE` lines the list is written a slice at a time (the last slice one
    line long here): the same bytes as one encoding of the whole list, the exit status as the
    errors say."""
    pool = ["5s 5s 5s", "3-5h", "# note", "Kh Kd Kc", "A-Kh"] + ([] if legal else ["7c 7s 7s", "Zz 9q"])
    lines = [pool[i % len(pool)] for i in range(2 * JSON_SLICE + 1)]
    r = run(flag, "-", input="".join(t + "\n" for t in lines))
    reports = expected(lines, HOYLE)
    if flag == "--json":
        assert r.stdout == dumps_indented(reports) + "\n"
    else:
        assert r.stdout == "".join(dumps(o) + "\n" for o in reports)
    assert r.exit_code == (0 if legal else 1)
    assert r.stderr == "".join(
        f"-:{o['line']}:{o['col']}: {o['rule']} {o['message']}\n" for o in reports if not o["legal"]
    )


@settings(max_examples=60)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["add", "add_all", "add_encoded"]),
            st.lists(st.one_of(st.integers(), st.text(max_size=4), st.lists(st.integers(), max_size=2)), max_size=4),
        ),
        max_size=6,
    ),
    st.booleans(),
)
def test_a_stream_written_by_any_mix_of_its_writers_is_the_list_dumped_at_once(
    calls: list[tuple[str, list[object]]], compact: bool
) -> None:
    """A list made of single items, slices encoded in one go (:meth:`JsonStream.add_all`) and
    encoded text is the encoder's list of all the items, every line written whole."""
    out = io.StringIO()
    writes: list[str] = []
    out.write = lambda t: writes.append(t) or len(t)  # type: ignore[method-assign]
    stream = JsonStream(False, out, compact=compact)
    every: list[object] = []
    for how, objs in calls:
        if how == "add":
            for o in objs:
                stream.add(o)
        elif how == "add_all":
            stream.add_all(objs)
        else:
            stream.add_encoded(stream.encode_all(objs), len(objs))
        every += objs
    stream.close()
    text = "".join(writes)
    if compact:
        assert json.loads(text) == every
    else:
        assert text == (dumps_indented(every) + "\n" if every else "[]\n")
    assert all(w.endswith("\n") for w in writes if w)
