"""A house-rules file costs what its known knobs can cost (R3): the shape of its keys, numbers and
nesting is bounded before tomllib reads it, and every refusal names the key and its line.

A 65 KB file holding one dotted key of 32,700 parts once cost 4.2 GB and up to 49 s inside
tomllib; a 5,000-digit number was reported at ``1:1`` with no key. The memory bound below is
tracemalloc's count of allocated bytes, the same on any machine.
"""

from __future__ import annotations

import contextlib
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import pytest
from cli_kit import pan
from hypothesis import given, settings
from hypothesis import strategies as st
from profiles_kit import any_profile

from pancli.limits import MAX_HOUSE_RULES_BYTES
from pancli.notation.houserules import MAX_KEY_PARTS, check_shape, profile_from_toml, profile_to_toml
from pancli.rules import Condition, HouseRulesError, Profile

PARTS = 32_700
DIGITS = "9" * 5000

HOSTILE = {
    "dotted-key": ("a" + ".a" * (PARTS - 1) + " = 1\n", "a.a.a.a", 1, 1),
    "dotted-key-after-knobs": ('name = "x"\nante = 1\n' + "ante" + ".b" * PARTS + " = 1\n", "ante.b.b.b", 3, 1),
    "quoted-parts": ('"a"' + '."a"' * (PARTS // 2) + " = 1\n", "a.a.a.a", 1, 1),
    "spaced-parts": ("x" + " . x" * (PARTS // 2) + " = 1\n", "x.x.x.x", 1, 1),
    "table-header": ("[" + "t." * (PARTS - 1) + "t]\n", "t.t.t.t", 1, 2),
    "array-of-tables-header": ("[[" + "t." * (PARTS - 1) + "t]]\n", "t.t.t.t", 1, 3),
    "key-under-a-header": ("[conditions.C2]\nbase" + ".b" * PARTS + " = 1\n", "conditions.C2.base.b", 2, 1),
    "inline-table": ("conditions = {C2 = {base" + ".b" * PARTS + " = 1}}\n", "conditions.C2.base.b", 1, 21),
    "inline-table-in-array": ("x = [{a" + ".b" * PARTS + " = 1}]\n", "x.a.b.b", 1, 7),
    "number": (f"packs = {DIGITS}\n", "packs", 1, 9),
    "number-with-underscores": ("packs = " + "9_" * 2500 + "9\n", "packs", 1, 9),
    "negative-number": (f"\n\nante = -{DIGITS}\n", "ante", 3, 8),
    "number-in-a-condition": (f"[conditions.C3]\nspades = {DIGITS}\n", "conditions.C3.spades", 2, 10),
    "number-in-an-inline-table": (f"conditions = {{C3 = {{spades = {DIGITS}}}}}\n", "conditions.C3.spades", 1, 30),
    "number-in-an-array": (f"packs = [1, 2, {DIGITS}]\n", "packs", 1, 16),
    "hex-number": ("packs = 0x" + "f" * 5000 + "\n", "packs", 1, 9),
    "float": ("packs = 1." + "9" * 5000 + "\n", "packs", 1, 9),
    "long-key": ("a" * 50_000 + " = 1\n", "a" * 60, 1, 1),
    "deep-arrays": ("x = " + "[" * 5000 + "]" * 5000 + "\n", "x", 1, 21),
}


def peak_bytes(work: Callable[[], object]) -> int:
    tracemalloc.start()
    with contextlib.suppress(HouseRulesError):
        work()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak


@pytest.mark.parametrize("name", HOSTILE)
def test_R3_a_house_rules_file_past_what_its_knobs_allow_names_the_key_and_its_line(name: str) -> None:
    text, key, line, col = HOSTILE[name]
    assert len(text.encode()) <= MAX_HOUSE_RULES_BYTES, "within the size limit: the shape is what is refused"
    with pytest.raises(HouseRulesError) as caught:
        profile_from_toml(text.encode())
    exc = caught.value
    assert exc.key.startswith(key) and len(exc.key) <= 63, exc.key
    assert (exc.line, exc.col) == (line, col), str(exc)
    # bounded work: a few times the text, not tomllib's square of the key's parts (4.2 GB before)
    assert peak_bytes(lambda: profile_from_toml(text.encode())) < 2_000_000


def test_R3_the_command_line_and_a_rules_tag_report_the_key_and_its_place(tmp_path: Path) -> None:
    text, _key, _line, _col = HOSTILE["dotted-key-after-knobs"]
    (tmp_path / "h.toml").write_text(text, encoding="utf-8")
    r = pan("check", "--rules", str(tmp_path / "h.toml"), "5sss")
    assert r.exit_code == 2
    assert r.stderr.startswith(f"{tmp_path / 'h.toml'}:3:1: R3 ante.b.b.b: a key of 32,701 parts is deeper")
    (tmp_path / "r.pan").write_text('[Players "Ana Ben"]\n[Rules "h.toml"]\n\nAna stay\n', encoding="utf-8")
    r = pan("replay", str(tmp_path / "r.pan"))
    assert r.exit_code == 1 and "house rules: ante.b.b.b (line 3): a key of 32,701 parts" in r.stderr
    (tmp_path / "h.toml").write_text(HOSTILE["number"][0], encoding="utf-8")
    r = pan("rules", str(tmp_path / "h.toml"))
    assert r.exit_code == 2 and ":1:9: R3 packs: a number of 5000 digits is too large" in r.stderr


def every_form(profile: Profile) -> list[str]:
    """``profile``'s house-rules file written with its conditions as [conditions.C2] tables, as
    top-level dotted keys of MAX_KEY_PARTS parts, as nested inline tables and as dotted keys
    under [conditions]: every shape a legal file takes."""
    text = profile_to_toml(profile)
    knobs = text.split("\n[conditions.", 1)[0]
    fields = [
        (c.value, {k: getattr(rate, k) for k in RATE_FIELDS})
        for c, rate in zip(Condition, profile.conditions, strict=True)
    ]
    dotted = "".join(f"{cid}.{k} = {v}\n" for cid, f in fields for k, v in f.items())
    inline = ", ".join(f"{cid} = {{{', '.join(f'{k} = {v}' for k, v in f.items())}}}" for cid, f in fields)
    top = "".join(f"conditions.{line}\n" for line in dotted.splitlines())
    return [text, f"{knobs}\n{top}", f"{knobs}\nconditions = {{{inline}}}\n", f"{knobs}\n[conditions]\n{dotted}"]


RATE_FIELDS = ("base", "spades", "extra", "extra_spades")


@settings(max_examples=40)
@given(any_profile)
def test_R3_every_legal_shape_of_a_house_rules_file_passes_the_shape_check(profile: Profile) -> None:
    assert MAX_KEY_PARTS == 3  # conditions.C2.base
    for text in every_form(profile):
        check_shape(text)
        got = profile_from_toml(text.encode())
        assert got.knobs() == {**profile.knobs(), "name": got.name}


PIECES = ["a", "conditions", "C2", '"q.k"', "'lit'", " ", ".", "=", "[", "]", "{", "}", ",", "\n", "#", "9" * 12, '"']


@settings(max_examples=200)
@given(st.lists(st.sampled_from(PIECES), max_size=40))
def test_R3_any_text_of_toml_pieces_is_read_or_refused_with_its_key_never_a_traceback(pieces: list[str]) -> None:
    """The shape check follows TOML's keys, strings, comments and brackets: whatever it cannot
    follow, tomllib refuses; nothing but HouseRulesError comes out."""
    text = "".join(pieces)
    try:
        profile_from_toml(text.encode())
    except HouseRulesError as exc:
        assert exc.key and exc.line >= 0 and exc.col >= 0


@pytest.mark.parametrize("text", ['[""]\n', '"" = 1\n', '[""]\na = 1\n'])
def test_R3_an_empty_key_is_named_as_toml_writes_it(text: str) -> None:
    """A blank knob name gets a key the message can show (it was ``: unknown knob``)."""
    with pytest.raises(HouseRulesError) as caught:
        profile_from_toml(text.encode())
    assert caught.value.key == '""'
    assert str(caught.value).startswith('"": unknown knob')
