"""``pan pay`` through click's runner: payments per opponent, totals, going out (C7, C8)."""

from __future__ import annotations

import json

import pytest
from cli_kit import pan
from click.testing import CliRunner, Result
from hypothesis import example, given, settings
from hypothesis import strategies as st
from profiles_kit import any_profile

from pancli.app.pay import PayBatch, PayLine, pay_report
from pancli.cli import cli
from pancli.panrules import PanRules
from pancli.render.check import meld_error
from pancli.render.pay import PayRows, summary, summary_text
from pancli.rules import HOYLE, Profile


def run(*args: str, input: str | None = None) -> Result:
    return pan("pay", *args, input=input)


def pay_json(*args: str, input: str | None = None) -> dict:  # type: ignore[type-arg]
    r = run("--json", *args, input=input)
    data: dict = json.loads(r.stdout)  # type: ignore[type-arg]
    return data


def test_json_fields_and_section8_figures() -> None:
    d = pay_json("5s 5s 5s", "--players", "6")
    assert {"melds", "per_opponent", "opponents", "total"} <= set(d)
    assert (d["per_opponent"], d["opponents"], d["total"]) == (4, 5, 20)
    (m,) = d["melds"]
    assert (m["meld"], m["legal"], m["kind"], m["condition"], m["value"], m["rule"]) == (
        "5s 5s 5s",
        True,
        "set",
        "C2",
        4,
        None,
    )


@pytest.mark.parametrize(
    ("meld", "each"),
    [("5h 5h 5h", 2), ("5h 5c 5d", 1), ("Qs Qs Qs", 2), ("Qh Qh Qh", 1), ("Kc Kd Ks", 0), ("As 2s 3s", 2)],
)
def test_section8_each_meld_at_a_table_of_six(meld: str, each: int) -> None:
    d = pay_json(meld)  # 6 players is the default
    assert (d["per_opponent"], d["opponents"], d["total"]) == (each, 5, 5 * each)


def test_C7_four_5s_laid_at_once_collect_6_from_each() -> None:
    d = pay_json("5s 5s 5s 5s", "-n", "6")
    assert (d["per_opponent"], d["total"]) == (6, 30)


def test_C8_going_out_in_cardroom_14_in_all_from_each() -> None:
    d = pay_json("5s 5s 5s 5s", "7c Jc Qc", "2h 3h 4h", "--out", "--rules", "cardroom")
    assert d["laid"]["per_opponent"] == 6
    assert d["going_out"] == {"rule": "C8", "out_bonus": 2, "melds_again": 6, "per_opponent": 8}
    assert (d["per_opponent"], d["opponents"], d["total"]) == (14, 5, 70)
    assert d["rules"] == "cardroom"


def test_C8_going_out_in_hoyle_bonus_1() -> None:
    d = pay_json("Jc Qc Kc", "--out", "--players", "3")
    assert (d["per_opponent"], d["opponents"], d["total"]) == (1 + 1 + 1, 2, 6)


@pytest.mark.parametrize("melds", [["7c 7s 7s"], ["5sss", "7c 7s 7s"], ["5s 5s 5s 5s", "5s5s5s5s5s"], ["5sss", "[5s"]])
def test_C8_nobody_goes_out_with_an_illegal_meld(melds: list[str]) -> None:
    """Going out is with melds laid legally (a foul meld is no meld, I2): with an illegal, past the
    pack (E4) or unreadable meld, --out adds no C8 payment, and the going out line says so."""
    d = pay_json(*melds, "--out")
    assert d["going_out"] is None and d["per_opponent"] == d["laid"]["per_opponent"]
    said = "going out\t0\tC8: none, a meld is illegal: nobody goes out with a foul meld\n"
    laid = d["laid"]["per_opponent"]
    for r in (run(*melds, "--out"), run("--out", "-", input="\n".join(melds) + "\n")):
        assert r.exit_code == 1 and said in r.stdout and f"per opponent\t{laid}\t" in r.stdout
    assert "going out" not in run(*melds).stdout  # without --out, no line
    assert pay_json("5sss", "--out")["going_out"]["per_opponent"] == 5  # legal melds go out


def test_plain_output_lines() -> None:
    r = run("5sss", "3-5h", "--players", "4", "--out")
    assert r.exit_code == 0, r.stderr
    lines = [line.split("\t") for line in r.stdout.splitlines()]
    assert lines[0] == ["5s 5s 5s", "C2", "4"]
    assert lines[1] == ["3h 4h 5h", "-", "0"]
    table = {row[0]: row[1] for row in lines[2:]}
    assert table == {"laid": "4", "going out": "5", "per opponent": "9", "opponents": "3", "total": "27"}


def test_illegal_meld_exit_1_counts_0_with_error_line() -> None:
    r = run("5s 5s 5s", "7c 7s 7s")
    assert r.exit_code == 1
    assert r.stderr.splitlines() == [
        "<arg>:2:1: M3 a set of 7s must be all one suit or all different suits, not 7c 7s 7s"
    ]
    assert "per opponent\t4" in r.stdout


def test_E4_across_the_melds_of_one_player() -> None:
    d = pay_json("5s 5s 5s 5s", "5s 5s 5s 5s", "--rules", "cardroom")
    first, second = d["melds"]
    assert first["legal"] and not second["legal"]
    assert second["rule"] == "E4"
    assert d["per_opponent"] == 6
    assert run("5s 5s 5s 5s", "5s 5s 5s 5s").exit_code == 0  # 8 copies in the hoyle pack


def test_stdin_melds_one_per_line() -> None:
    d = pay_json("-", input="# laid this turn\n5s 5s 5s\n\nJc Qc Kc\n")
    assert [m["line"] for m in d["melds"]] == [2, 4]
    assert d["per_opponent"] == 5


@pytest.mark.parametrize("players", ["1", "16", "x"])
def test_players_out_of_range_is_a_usage_error(players: str) -> None:
    r = run("5sss", "--players", players)
    assert r.exit_code == 2
    assert "--players" in r.stderr
    if players != "x":  # S1 in the rules object's words (pan simulate --players says them too)
        seated = "1 player" if players == "1" else "16 players"
        assert f"{seated} seated; Panguingue seats 2 to 15 (S1)" in r.stderr


def test_terminal_table() -> None:
    r = CliRunner().invoke(cli, ["pay", "5sss", "--out"], env={"PAN_FORCE_TERMINAL": "1", "COLUMNS": "120"})
    assert r.exit_code == 0
    assert "per opponent" in r.stdout and "5s 5s 5s" in r.stdout


def test_E4_the_streamed_pipe_path_says_what_the_report_path_says() -> None:
    """pan pay - in a pipe streams (PackCounter, no report objects); the terminal/JSON path builds
    reports (conserve): the same rows, totals and error lines, E4 included."""
    from pancli.app.lines import InputLine
    from pancli.app.pay import pay_report
    from pancli.rules import HOYLE

    lines = ["5sss", "5s 5s 5s 5s", "3-5h", "5sss", "7c 7s 7s", "bad", "5s5s", "3-5h", "Kh Kd Ks", "5sss"]
    for out in ([], ["--out"]):
        r = CliRunner().invoke(cli, ["pay", *out, "-n", "4", "-"], input="\n".join(lines) + "\n")
        items = [InputLine("-", i, t) for i, t in enumerate(lines, 1)]
        result = pay_report(items, 4, PanRules(HOYLE), bool(out))
        reports = result.melds
        rows = [f"{m.meld}\t{'+'.join(m.conditions) or '-'}\t{m.value}\n" for m in reports]
        rows += [f"{label}\t{units}\t{why}\n" for label, units, why in summary(result)]
        assert r.stdout == "".join(rows)
        assert r.stderr == "".join(meld_error(m) + "\n" for m in reports if not m.legal)
        assert r.exit_code == 1


PAY_LINES = ["5sss", "5s 5s 5s 5s", "5s5s5s5s5s", "3-5h", "J-Kc", "Kh Kd Ks", "7c 7s 7s", "bad", "[5s", "{x}", "",
             "# note", "5sss # again", "2h 3h 4h 5h\r", "Ac 2c 3c", "\x1b[31m5s"]  # fmt: skip


@settings(max_examples=60)
@example(["5s 5s 5s 5s", "5s5s5s5s5s", "5sss", "5s5s5s5s5s"], False, HOYLE)  # refused twice, 9 then 12 held
@given(st.lists(st.sampled_from(PAY_LINES), max_size=60), st.booleans(), any_profile)
def test_E4_stream_equals_report_path_and_a_plain_count(lines: list[str], out: bool, profile: Profile) -> None:
    """The streamed pipe path (:class:`PayBatch`: memo of lines, E4 reasons remembered while
    nothing is counted) says what the report path (:func:`pay_report`) says, line by line, under
    profiles of any knob values; and E4 falls exactly where a plain count of copies (a Counter
    per line, no memo) passes the pack."""
    from collections import Counter

    from pancli.app.lines import InputLine, batch_item

    batch = PayBatch("-", PanRules(profile), 4, out)
    text = [(rows, errors) for rows, errors in PayRows(batch).blocks([lines[:7], lines[7:]])]
    kept = [(i, batch_item(t)) for i, t in enumerate(lines, 1)]
    items = [InputLine("-", i, t) for i, t in kept if t is not None]
    result = pay_report(items, 4, PanRules(profile), out)
    reports = result.melds
    rows = [f"{m.meld}\t{'+'.join(m.conditions) or '-'}\t{m.value}\n" for m in reports]
    assert "".join(r for r, _ in text) + summary_text(batch.report()) == "".join(rows) + summary_text(result)
    assert "".join(e for _, e in text) == "".join(meld_error(m) + "\n" for m in reports if not m.legal)
    assert any(e for _, e in text) == any(not m.legal for m in reports)
    held: Counter[object] = Counter()
    for m in reports:
        alone = Counter(m.cards)  # a meld past the pack on its own is the meld engine's E4 (pan check's)
        if m.rule == "E4" and all(n <= profile.pack.copies(c) for c, n in alone.items()):
            c, n = next((c, n) for c, n in Counter(m.cards).items() if held[c] + n > profile.pack.copies(c))
            assert (
                m.reason == f"the melds hold {held[c] + n} copies of {c}, but the pack holds {profile.pack.copies(c)}"
            )
        elif m.legal:
            held.update(m.cards)
            assert all(held[c] <= profile.pack.copies(c) for c in m.cards)


def test_C6_a_pay_row_has_one_writer_for_arguments_and_pipes(monkeypatch: pytest.MonkeyPatch) -> None:
    # the arguments' rows and the pipe's rows come from render.pay.pay_row, not a second f-string
    import pancli.render.pay as pay_module

    real = pay_module.pay_row
    monkeypatch.setattr(pay_module, "pay_row", lambda meld, conds, value: "ROW " + real(meld, conds, value))
    melds = ("5s 5s 5s", "7c 7s 7s")
    by_args = CliRunner().invoke(cli, ["pay", *melds])
    by_pipe = CliRunner().invoke(cli, ["pay", "-"], input="\n".join(melds) + "\n")
    rows = ["ROW 5s 5s 5s\tC2\t4", "ROW 7c 7s 7s\t-\t0"]
    assert by_args.stdout.splitlines()[:2] == rows
    assert by_pipe.stdout.splitlines()[:2] == rows


def test_C7_the_pipe_s_lines_are_values_and_render_remembers_their_text() -> None:
    """``PayBatch`` judges a pipe's line into a value and counts it (C7, E4); the text is made by
    ``PayRows`` in render/, once per distinct line, in a memo of its own (not one per process)."""
    batch = PayBatch("-", PanRules(HOYLE), 4, False)
    line = batch.line("5sss")
    assert isinstance(line, PayLine) and (line.meld, line.conditions, line.value) == ("5s 5s 5s", ("C2",), 4)
    assert batch.line("# a note") is None and batch.line("7c 7s 7s") == PayLine(
        "7c 7s 7s", (), 0, 1, "M3", "a set of 7s must be all one suit or all different suits, not 7c 7s 7s", None, None
    )
    first, second = PayRows(batch), PayRows(PayBatch("-", PanRules(HOYLE), 4, False))
    assert list(first.blocks([["5sss", "5sss", "7c 7s 7s"]])) == [
        (
            "5s 5s 5s\tC2\t4\n" * 2 + "7c 7s 7s\t-\t0\n",
            "-:3:1: M3 a set of 7s must be all one suit or all different suits, not 7c 7s 7s\n",
        )
    ]
    assert len(first._lines) == 2 and second._lines == {}
    assert batch.report().laid == 8
