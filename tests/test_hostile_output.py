"""Nothing a record, a line of input, a house-rules file or an argument holds reaches the output
raw: control characters (C0 but the layout's tab and line end, DEL, C1, zero-width and
bidirectional marks) are shown escaped by every command in every output mode (plain text in a
pipe, the terminal, ``--json``, ``--jsonl``, ``fmt``'s records), and a tab-separated line never
carries a raw tab or line end from user text: its columns stay where they are.

Hostile text is put where each input keeps user text: a record's tag values, comments (``{..}``
and ``;``), comment lines, player names; batch lines and arguments; a house-rules ``name``.
"""

from __future__ import annotations

import json
import re

import pytest
from cli_kit import ROOT, pan
from click.testing import Result
from hypothesis import given, settings
from hypothesis import strategies as st

RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]")
"""What must never be written raw (the tab and the line end are layout)."""
STYLE = re.compile("\x1b\\[[0-9;]*m")
"""A terminal style of pan's own (rich): taken out before looking (hostile text has no ``m``)."""

CONTROLS = [chr(n) for n in (*range(0x20), 0x7F, 0x85, 0x9B, 0x200B, 0x202E, 0x2066, 0xFEFF)]
HOSTILE = st.text(alphabet=st.sampled_from([*CONTROLS, "a", "Z", " ", '"', "\\", "{", "}", ";", "[", "]", "5"]),
                  min_size=1, max_size=12)  # fmt: skip
"""Short text thick with control characters and the notation's own delimiters."""

TERMINAL = {"PAN_FORCE_TERMINAL": "1", "COLUMNS": "100"}
PLAIN = {"PAN_FORCE_TERMINAL": None}
MODES: list[tuple[list[str], dict[str, str | None]]] = [([], PLAIN), ([], TERMINAL), (["--json"], PLAIN),
                                                         (["--jsonl"], PLAIN)]  # fmt: skip

SAMPLE = (ROOT / "samples" / "tutorial-four-handed.pan").read_text(encoding="utf-8")
PAGRUC = (ROOT / "samples" / "pagruc-common-room.pan").read_text(encoding="utf-8")


def clean(result: Result, what: str) -> Result:
    """The command ended by a status with its meaning, and wrote no raw control character."""
    assert result.exit_code in (0, 1, 2), (what, result.exit_code, result.output[-300:])
    for name, text in (("stdout", result.stdout), ("stderr", result.stderr)):
        found = RAW.search(STYLE.sub("", text))
        assert found is None, f"{what}: raw {found.group()!r} on {name}: {text[max(0, found.start() - 80) :][:160]!r}"
    return result


def hostile_record(text: str, base: str = SAMPLE) -> str:
    """``base`` with ``text`` in a tag value, a comment line, a ``{..}`` comment and a ``;`` comment."""
    lines = base.split("\n")
    first_play = next(i for i, line in enumerate(lines) if line.startswith(("deal", "1.")))
    lines.insert(first_play + 1, f"{{{text}}}")
    lines[first_play] += f" ; {text}"
    head = next(i for i, line in enumerate(lines) if line.startswith("["))
    lines.insert(head, f'[Site "{text}"]')
    return "\n".join(lines)


def columns(text: str) -> set[int]:
    return {line.count("\t") for line in text.splitlines() if line}


@pytest.mark.slow
@settings(max_examples=15)
@given(HOSTILE)
def test_record_text_is_escaped_by_replay_fmt_settle_and_standings_in_every_mode(text: str) -> None:
    record = hostile_record(text)
    named = record.replace("Cruz", text.replace("\n", " "))  # a player name: an error line quoting it
    for source in (record, named):
        for flags, env in MODES:
            clean(pan("replay", *flags, "-", input=source, env=env), f"replay {flags}")
            clean(pan("settle", *flags, "-", input=source, env=env), f"settle {flags}")
        for flags in ([], ["--json"], ["--jsonl"], ["--diff"], ["--check"]):
            for env in (PLAIN, TERMINAL):
                clean(pan("fmt", *flags, "-", input=source, env=env), f"fmt {flags}")
    pagruc = hostile_record(text, PAGRUC)
    for flags, env in MODES:
        clean(pan("standings", *flags, "-", input=pagruc, env=env), f"standings {flags}")


def test_fmt_writes_control_characters_as_escapes_that_read_back_as_the_same_value() -> None:
    """A tag value's ESC, SOH and tab: ``\\x1b``, ``\\x01``, ``\\t`` in the canonical record, the same
    value when read again; a comment's are shown in the same form, as text."""
    from pancli.api import parse_records

    record = hostile_record("\x1b[31m\x01\tx")
    once = clean(pan("fmt", "-", input=record, env=PLAIN), "fmt")
    assert once.exit_code == 0
    assert '[Site "\\x1b[31m\\x01\\tx"]' in once.stdout and "{\\x1b[31m\\x01\tx}" in once.stdout
    value = [dict(h.script.tags)["Site"] for h in parse_records(once.stdout)]
    assert value == ["\x1b[31m\x01\tx"]
    assert pan("fmt", "-", input=once.stdout).stdout == once.stdout  # a fixed point
    assert pan("fmt", "--check", "-", input=record).exit_code == 1  # raw controls are not canonical


@pytest.mark.slow
@settings(max_examples=20)
@given(st.lists(HOSTILE, min_size=1, max_size=4))
def test_batch_lines_and_arguments_are_escaped_and_keep_their_columns(texts: list[str]) -> None:
    lines = [*texts, "5s 5s 5s", *[f"5s 5s {t}" for t in texts]]
    stdin = "\n".join(lines) + "\n"
    for command in (["check"], ["pay"], ["score"], ["analyze", "--samples", "20"]):
        for flags, env in MODES:
            clean(pan(*command, *flags, "-", input=stdin, env=env), f"{command} {flags} -")
            args = [t for t in lines if t.strip() and not t.lstrip().startswith("-")][:3]
            if args:
                clean(pan(*command, *flags, *args, env=env), f"{command} {flags} ARGS")
        plain = clean(pan(*command, "-", input=stdin, env=PLAIN), f"{command} -")
        if command[0] in ("check", "pay"):
            assert len(columns(plain.stdout.split("laid\t")[0])) <= 1, plain.stdout  # every row alike


@settings(max_examples=15)
@given(HOSTILE)
def test_a_house_rules_name_is_escaped_by_rules_in_every_mode(tmp_path_factory, text: str) -> None:  # type: ignore[no-untyped-def]
    folder = tmp_path_factory.mktemp("rules")
    house = folder / "house.toml"
    house.write_text(f'name = {json.dumps(text)}\nbase = "cardroom"\n', encoding="utf-8")
    for flags in ([], ["--json"], ["--toml"], ["--diff"]):
        for env in (PLAIN, TERMINAL):
            clean(pan("rules", *flags, str(house), env=env), f"rules {flags}")
    record = '[Rules "house.toml"]\n' + SAMPLE.split("\n", 2)[2].replace('[Rules "hoyle"]\n', "")
    (folder / "r.pan").write_text(record, encoding="utf-8")
    for flags, env in MODES:
        clean(pan("replay", *flags, str(folder / "r.pan"), env=env), f"replay {flags} with house rules")
