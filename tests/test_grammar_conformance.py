"""Every conformance case of grammar/cases/ through the public API and through the grammar alone."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pancli.cards import Game
from pancli.notation import NotationError, format_card, format_hand, format_meld, parse_card, parse_hand, parse_meld
from pancli.notation.grammar import parse_card_text, parse_hand_text, parse_meld_text

CASES = Path(__file__).resolve().parent.parent / "grammar" / "cases"
GAMES = {"pan": Game.PANGUINGUE, "pagruc": Game.PAGRUC}
_ESCAPE = re.compile(r"\\(x[0-9A-Fa-f]{2}|u[0-9A-Fa-f]{4}|[tnr\\])")
_SIMPLE = {"t": "\t", "n": "\n", "r": "\r", "\\": "\\"}


def unescape(field: str) -> str:
    r"""The escapes of the case files: \t \n \r \\ \xHH \uHHHH."""
    return _ESCAPE.sub(lambda m: _SIMPLE.get(m.group(1)) or chr(int(m.group(1)[1:], 16)), field)


def rows(name: str) -> list[Any]:
    """The data rows of a case file (header, comments and blank lines skipped), as pytest params."""
    out = []
    lines = (CASES / name).read_text(encoding="utf-8").splitlines()
    data = [(n, ln) for n, ln in enumerate(lines, 1) if ln and not ln.startswith("#")]
    for n, ln in data[1:]:
        fields = ln.split("\t")
        out.append(pytest.param(*fields, id=f"{name}:{n}"))
    return out


def test_case_files_have_enough_cases() -> None:
    """The brief: at least 60 good cases and 40 bad ones."""
    assert len(rows("melds.tsv")) + len(rows("hands.tsv")) >= 60
    assert len(rows("bad.tsv")) >= 40


def test_unescape() -> None:
    assert unescape(r"a\tb\x20\u00A0\\n") == "a\tb \u00a0\\n"


@pytest.mark.parametrize(("game", "text", "canonical"), rows("melds.tsv"))
def test_good_meld(game: str, text: str, canonical: str) -> None:
    g, text = GAMES[game], unescape(text)
    public, alone = parse_meld(text, g), parse_meld_text(text, g)
    assert public == alone
    assert format_meld(public) == canonical
    assert parse_meld(canonical, g) == public  # canonical text reads back the same
    assert format_meld(parse_meld_text(canonical, g)) == canonical  # and is a fixed point


@pytest.mark.parametrize(("game", "text", "canonical"), rows("hands.tsv"))
def test_good_hand(game: str, text: str, canonical: str) -> None:
    g, text = GAMES[game], unescape(text)
    public, alone = parse_hand(text, g), parse_hand_text(text, g)
    assert public == alone
    assert format_hand(public) == canonical
    assert parse_hand(canonical, g) == public
    assert format_hand(parse_hand_text(canonical, g)) == canonical


READERS: dict[str, tuple[Callable[[str, Game], object], Callable[[str, Game], object]]] = {
    "meld": (parse_meld, parse_meld_text),
    "hand": (parse_hand, parse_hand_text),
    "card": (parse_card, parse_card_text),
}


@pytest.mark.parametrize(("kind", "game", "text", "code", "line", "col"), rows("bad.tsv"))
def test_bad(kind: str, game: str, text: str, code: str, line: str, col: str) -> None:
    g, text = GAMES[game], unescape(text)
    for reader in READERS[kind]:
        with pytest.raises(NotationError) as info:
            reader(text, g)
        assert (info.value.code, info.value.line, info.value.col) == (code, int(line), int(col)), info.value


def test_single_cards_of_every_good_meld_read_alone() -> None:
    """parse_card agrees with parse_meld on each card of the good cases."""
    for param in rows("melds.tsv"):
        game, _text, canonical = param.values
        for token in canonical.split(" "):
            c = parse_card(token, GAMES[game])
            assert format_card(c) == token
            assert parse_card_text(token, GAMES[game]) is c
