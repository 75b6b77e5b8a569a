"""Conformance cases of the .pan record grammar (grammar/record-cases/), through both paths."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from pancli.cards import Game
from pancli.model.actions import HandScript
from pancli.notation.errors import NotationError
from pancli.notation.layout import Notes
from pancli.notation.record_common import LineContext, lex
from pancli.notation.record_fast import fast_play
from pancli.notation.record_grammar import grammar_play
from pancli.notation.record_writer import format_records, item_text, write_script
from pancli.records import read_hands

CASES = Path(__file__).resolve().parent.parent / "grammar" / "record-cases"
PLAYERS = frozenset({"Ana", "Ben", "Cruz", "Dee"})


def _unescape(s: str) -> str:
    return s.encode("latin-1", "backslashreplace").decode("unicode_escape") if "\\" in s else s


def _line_cases() -> list[tuple[str, str, str, str, str]]:
    rows = []
    for raw in (CASES / "lines.tsv").read_text(encoding="utf-8").splitlines():
        if not raw or raw.startswith(("#", "game\t")):
            continue
        game, text, canonical, code, col = [*raw.split("\t"), "", "", ""][:5]
        rows.append((game, _unescape(text), canonical.strip(), code, col))
    return rows


@pytest.mark.parametrize(("game", "text", "canonical", "code", "col"), _line_cases())
def test_record_line_case(game: str, text: str, canonical: str, code: str, col: str) -> None:
    ctx = LineContext(Game.PAGRUC if game == "pag" else Game.PANGUINGUE, PLAYERS, line=1)
    blanked, _ = lex(text)
    fast = fast_play(blanked, ctx)
    if code:
        with pytest.raises(NotationError) as info:
            grammar_play(blanked, ctx)
        assert (info.value.code, info.value.line, info.value.col) == (code, 1, int(col)), info.value
        assert fast is None
        return
    item, glyphs = grammar_play(blanked, ctx)
    if fast is not None:
        assert fast == (item, glyphs)
    notes = Notes(actions=tuple((g, ()) for g in glyphs)) if glyphs else None
    assert item_text(item, notes) == canonical


GOOD = sorted(p for p in (CASES / "good").glob("*.pan") if not p.name.endswith(".canonical.pan"))


@pytest.mark.parametrize("path", GOOD, ids=lambda p: p.name)
def test_good_record_formats_to_its_canonical_form(path: Path) -> None:
    expected = path.with_suffix(".canonical.pan").read_text(encoding="utf-8")
    hands = list(read_hands(io.StringIO(path.read_text(encoding="utf-8")), str(path), path.parent))
    assert [h.error for h in hands] == [None] * len(hands)
    assert "".join(format_records(hands)) == expected
    again = list(read_hands(io.StringIO(expected), str(path), path.parent))
    assert "".join(format_records(again)) == expected
    # the same hands (places aside: the canonical text has other line numbers)
    assert [_text(h.script) for h in again] == [_text(h.script) for h in hands]


def _text(script: HandScript | None) -> str:
    assert script is not None
    return write_script(script)


BAD = sorted((CASES / "bad").glob("*.pan"))


@pytest.mark.parametrize("path", BAD, ids=lambda p: p.name)
def test_bad_record_reports_each_malformed_hand(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    m = re.match(r"; expect: (.*)\n", text)
    assert m, "a bad case starts with '; expect: CODE LINE:COL, ok, ...'"
    expected = [e.strip() for e in m.group(1).split(",")]
    got = []
    for h in read_hands(io.StringIO(text), str(path), path.parent):
        got.append("ok" if h.error is None else f"{h.error.code} {h.error.line}:{h.error.col}")
    assert got == expected


@pytest.mark.parametrize(
    "text",
    [
        "Ana draw 7c, add 7c to #2, discard 5s",
        "3. Ana draw 7c, borrow 5s from #12, meld [5s 5s 7c], discard 3h",
        "Ana draw 7c, split #3 [5s 5s 5s] [7c 7c 7c] !",
        "Ana draw 7c, add 7c to {#1} #2, discard 5s",
        "Ana  draw 7c ,add 7c  to\t#2",
    ],
)
def test_R6_the_reader_records_where_each_meld_number_is(text: str) -> None:
    """A P6 ruling is placed at the ``#N`` from what the reader recorded (``number_at``), by
    the fast path and by the grammar alike."""
    ctx = LineContext(Game.PANGUINGUE, PLAYERS, line=1)
    blanked, _ = lex(text)
    read = [grammar_play(blanked, ctx)[0], *[got[0] for got in [fast_play(blanked, ctx)] if got is not None]]
    for item in read:
        numbered = [a for a in getattr(item, "actions", ()) if hasattr(a, "number_at")]
        assert len(numbered) == 1
        a = numbered[0]
        assert text[a.col - 1 + a.number_at] == "#" and a.number_at > 0
    assert len(read) == (1 if "  " in text or "{" in text else 2)  # both paths where the fast one reads
