"""Record forms (docs/notation.md, records): player names in any script (R2, R5), Ledger
pairs separated by blanks, commas or semicolons (R4, C9), deal lines in every card-list form
(S2, E4 places), and the canonical forms ``pan fmt`` writes for them."""

from __future__ import annotations

import io
import json
import re
import unicodedata
from typing import Any

import pytest
from click.testing import CliRunner

from pancli.cli import cli
from pancli.notation.cells import cell_width
from pancli.records import read_hands

NFD_JOSE = unicodedata.normalize("NFD", "José")
assert NFD_JOSE != "José"


def run(*args: str, input: str | None = None, env: dict[str, str] | None = None) -> Any:
    r = CliRunner().invoke(cli, list(args), input=input, env=env)
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    return r


def read_one(text: str) -> Any:
    (h,) = read_hands(io.StringIO(text), "t.pan")
    return h


# --------------------------------------------------------------------------- names (R2, R5)


def test_R2_player_names_in_any_script_are_read() -> None:
    h = read_one('[Players "José Peña Nguyễn 李娜 Ωmega_2 Ana-Sofía"]\n\nJosé stay\n李娜 stay\n')
    assert h.error is None
    assert h.script.players == ("José", "Peña", "Nguyễn", "李娜", "Ωmega_2", "Ana-Sofía")


def test_R2_two_spellings_of_one_name_are_one_player_in_NFC() -> None:
    h = read_one(f'[Players "José Ben"]\n\n{NFD_JOSE} stay\nBen stay\n')
    assert h.error is None and h.script.players == ("José", "Ben")
    assert h.script.events[0].player == "José"
    nfd_tag = read_one(f'[Players "{NFD_JOSE} Ben"]\n\nJosé stay\n')
    assert nfd_tag.error is None and nfd_tag.script.players == ("José", "Ben")
    twice = read_one(f'[Players "José {NFD_JOSE}"]\n\nJosé stay\n')
    assert twice.error is not None and (twice.error.code, twice.error.col) == ("R2", 16)
    assert "seated twice" in twice.error.message


@pytest.mark.parametrize("name", ["deal", "Deal", "UP", "Reshuffle", "dEaL"])
def test_R2_reserved_words_stay_reserved_in_any_case(name: str) -> None:
    h = read_one(f'[Players "Ana {name}"]\n\nAna stay\n')
    assert h.error is not None and h.error.code == "R2" and "cannot be a player name" in h.error.message


@pytest.mark.parametrize("name", ["Ana!", "Bé.n", "A+B", "Ana#1", "\u0301Ana"])
def test_R2_a_name_of_other_characters_is_refused_with_its_column(name: str) -> None:
    h = read_one(f'[Players "José {name}"]\n\nJosé stay\n')
    assert h.error is not None and (h.error.code, h.error.line, h.error.col) == ("R2", 1, 16)
    assert "letters of any script, digits, _ and -" in h.error.message


def test_R5_columns_stay_right_after_a_name_in_another_script() -> None:
    text = '[Players "Nguyễn 李娜"]\n\nNguyễn stay\n李娜 stay\nNguyễn draw 5h, discard 9h\n'
    h = read_one(text)
    assert h.error is not None and (h.error.code, h.error.line) == ("E1", 5)
    assert h.error.col == "Nguyễn draw 5h, discard ".__len__() + 1 == 25
    r = run("replay", "-", input=text)
    assert r.exit_code == 1 and "-:5:25: E1 9h is not in a Panguingue pack" in r.stderr


def test_R5_a_name_that_starts_like_a_keyword_is_a_name() -> None:
    h = read_one('[Players "Upé Dealer Ana"]\n\nUpé stay\nDealer stay\nAna stay\nUpé draw 5h, discard 5h\n')
    assert h.error is None and [e.player for e in h.script.events][:2] == ["Upé", "Dealer"]


def test_wide_names_keep_the_terminal_tables_aligned() -> None:
    text = '[Players "李娜 Ana Nguyễn"]\n\n李娜 stay\nAna stay\nNguyễn stay\n李娜 draw 5h, discard 5h\n'
    r = run("replay", "-", input=text, env={"PAN_FORCE_TERMINAL": "1", "COLUMNS": "100", "NO_COLOR": "1"})
    lines = [re.sub(r"\x1b\[[0-9;]*m", "", ln) for ln in r.stdout.splitlines()]
    table = [ln for ln in lines if ln[:1] in "┏┃┡│├└"]
    assert any("李娜" in ln for ln in table)
    assert len({cell_width(ln) for ln in table}) == 1, table


def test_wide_names_keep_pagruc_plain_columns_aligned() -> None:
    text = '[Game "pagruc"]\n[Players "李娜 Ana Nguyễn"]\n\nup 8h\n李娜 draw 5h, discard 5h\n'
    rows = [ln for ln in run("replay", "-", input=text).stdout.splitlines() if ln.endswith("and 7 unknown")]
    assert len(rows) == 3 and rows[0].lstrip().startswith("李娜")
    assert len({cell_width(ln.split("?")[0]) for ln in rows}) == 1, rows  # the score column lines up


# --------------------------------------------------------------------------- Ledger (R4, C9)

LEDGER_HAND = (
    '[Players "Ana Ben Cruz"]\n[Ledger "{ledger}"]\n\n'
    "deal Ana 5s 5s 3h 4h Kd Kh Kc 2c 7d Jc\nup 4c\nAna stay\nBen stay\nCruz stay\n"
    "Ana draw 5s, meld [5s 5s 5s], discard 7d\n"
)


@pytest.mark.parametrize(
    "ledger",
    [
        "Ana +8 Ben -4 Cruz -4",
        "Ana +8, Ben -4, Cruz -4",
        "Ana +8; Ben -4; Cruz -4",
        "Ana +8,Ben -4 ;Cruz -4",
        "Cruz -4, Ana 8, Ben -4",
    ],
)
def test_R4_ledger_pairs_separated_by_blanks_commas_or_semicolons(ledger: str) -> None:
    r = run("replay", "--json", "-", input=LEDGER_HAND.format(ledger=ledger))
    (hand,) = json.loads(r.stdout)
    assert hand["claims_ok"] and hand["ledger"] == {"Ana": 8, "Ben": -4, "Cruz": -4}
    assert [c["ok"] for c in hand["claims"] if c["kind"] == "ledger"] == [True, True, True]


@pytest.mark.parametrize(
    ("ledger", "col"),
    [("Ana, +8 Ben -4 Cruz -4", 13), ("Ana +8,, Ben -4 Cruz -4", 17), ("Ana +8 Ben -4 Cruz -4;", 31)],
)
def test_R4_a_separator_not_between_two_pairs_is_refused_at_its_column(ledger: str, col: int) -> None:
    h = read_one(LEDGER_HAND.format(ledger=ledger))
    assert h.error is not None and (h.error.code, h.error.line, h.error.col) == ("R4", 2, col)


def test_C9_the_ledger_line_replay_prints_pastes_back_as_a_Ledger_tag() -> None:
    plain = LEDGER_HAND.replace('[Ledger "{ledger}"]\n', "")
    printed = next(ln for ln in run("replay", "-", input=plain).stdout.splitlines() if "ledger:" in ln)
    ledger = printed.split("ledger: ", 1)[1]
    assert ledger == "Ana +8, Ben -4, Cruz -4"
    back = run("replay", "--json", "-", input=LEDGER_HAND.format(ledger=ledger))
    assert back.exit_code == 0 and json.loads(back.stdout)[0]["claims_ok"]
    wrong = run("replay", "-", input=LEDGER_HAND.format(ledger=ledger.replace("+8", "+9").replace("-4, C", "-5, C")))
    assert wrong.exit_code == 1 and "C9 the Ledger claims Ana +9 but the referee finds +8" in wrong.stderr


def test_fmt_writes_the_ledger_in_one_canonical_form() -> None:
    for ledger in ("Cruz -4; Ana +8 Ben -4", "Ana 8,Ben -4,Cruz -4"):
        out = run("fmt", "-", input=LEDGER_HAND.format(ledger=ledger)).stdout
        assert '[Ledger "Ana +8, Ben -4, Cruz -4"]' in out
        assert run("fmt", "-", input=out).stdout == out


# --------------------------------------------------------------------------- deal lines (S2, E4)


@pytest.mark.parametrize(
    "cards",
    [
        "5s 5s 3h 4h Kd Kh Kc 2c 7d Jc",
        "5s,5s,3h,4h,Kd,Kh,Kc,2c,7d,Jc",
        "5s, 5s, 3-4h, Kdhc 2c 7d Jc",
        "5s5s 3h4h Kd Kh Kc 2c7dJc",
        "5ss 3-4h KDHC 2c,7d, Jc",
    ],
)
def test_S2_deal_lines_take_every_card_list_form(cards: str) -> None:
    text = LEDGER_HAND.format(ledger="Ana +8 Ben -4 Cruz -4").replace("5s 5s 3h 4h Kd Kh Kc 2c 7d Jc", cards)
    h = read_one(text)
    assert h.error is None
    assert " ".join(map(str, h.script.deals[0].cards)) == "5s 5s 3h 4h Kd Kh Kc 2c 7d Jc"
    assert run("replay", "-", input=text).exit_code == 0
    out = run("fmt", "-", input=text).stdout
    assert "\ndeal Ana 5s 5s 3h 4h Kd Kh Kc 2c 7d Jc\n" in out


def test_E4_on_a_deal_line_points_at_the_shorthand_that_holds_the_copy() -> None:
    text = '[Players "Ana Ben"]\n\ndeal Ana 5sss 5sss Kd 2c 7d Jc\ndeal Ben 2c, 5sss Qh\nAna stay\n'
    r = run("replay", "--json", "-", input=text)
    v = json.loads(r.stdout)[0]["violations"][0]
    assert (v["rule"], v["line"], v["col"], v["player"]) == ("E4", 4, 14, "Ben")


def test_S1_simulate_seats_names_in_any_script_and_its_records_read_back() -> None:
    out = run("simulate", "--names", f"{NFD_JOSE} Peña 李娜", "-k", "2", "-s", "5").stdout
    assert '[Players "José Peña 李娜"]' in out  # written in NFC
    assert run("replay", "-", input=out).exit_code == 0
    assert run("simulate", "--names", "Ana dEAL", "-k", "1").exit_code == 2


def test_R5_analyze_player_option_matches_a_name_however_it_is_spelled(tmp_path: Any) -> None:
    rec = tmp_path / "j.pan"
    rec.write_text(
        '[Players "José Ben"]\n\ndeal José 5s 5s 3h 4h Kd Kh Kc 2c 7d Jc\nJosé stay\nBen stay\n'
        "José draw 5s, meld [5s 5s 5s], discard 7d\n",
        encoding="utf-8",
    )
    r = run("analyze", str(rec), "--at", "6", "--player", NFD_JOSE, "--samples", "10")
    assert r.exit_code == 0 and "José, in turn" in r.stdout
