"""What a newcomer's first evening with ``pan`` showed: a stopped hand's claim, the analyzer and
the drawn card, words, layout, titles from standard input, settling, help examples, the API, the
HTML page, completion, docs and the Pythons tested."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.cli_kit import ROOT, SAMPLES, pan

P8_WITH_LEDGER = (
    (SAMPLES / "illegal-P8-forcing.pan")
    .read_text(encoding="utf-8")
    .replace(
        '[Players "Gil Hal Ida Jo Kim Lou"]\n',
        '[Players "Gil Hal Ida Jo Kim Lou"]\n[Ledger "Gil +10, Hal -5, Ida +1, Jo 0, Kim +1, Lou -7"]\n',
    )
)


def test_C9_a_stopped_hand_ledger_claim_is_not_compared(tmp_path: Path) -> None:
    record = tmp_path / "stopped.pan"
    record.write_text(P8_WITH_LEDGER, encoding="utf-8")
    r = pan("replay", str(record))
    assert r.exit_code == 1
    assert "WRONG CLAIM" not in r.output
    notes = [ln for ln in r.output.splitlines() if "Ledger claim" in ln]
    assert notes == [
        "  note: the Ledger claim (line 6) cannot be compared (C9): the hand stopped at line 29 (P8) before its end"
    ]
    assert r.stdout.splitlines()[-1].startswith("1 hand: 0 clean, 1 with a violation, 0 with a wrong claim")
    hand = json.loads(pan("replay", "--json", str(record)).stdout)[0]
    assert hand["claims_ok"] is True and all(c["kind"] == "pays" for c in hand["claims"])
    assert hand["notes"] == [notes[0].removeprefix("  note: ")]


def test_C9_a_finished_hand_ledger_claim_is_still_compared(tmp_path: Path) -> None:
    text = (SAMPLES / "illegal-claim-wrong-ledger.pan").read_text(encoding="utf-8")
    record = tmp_path / "wrong.pan"
    record.write_text(text, encoding="utf-8")
    r = pan("replay", str(record))
    assert "WRONG CLAIM" in r.output and "note: the Ledger claim" not in r.output


def test_P5_with_a_drawn_card_the_analyzer_advises_the_turn_and_the_next_draw() -> None:
    r = pan("analyze", "7s 7s 3s 3s 5h 5d Jc Qc Kc 2h +7s")
    assert r.exit_code == 0
    lines = dict(line.split("\t", 1) for line in r.stdout.splitlines() if line.count("\t") >= 1)
    assert lines["now"].startswith("7s 7s 7s (C2 4) | Jc Qc Kc (C5 1)")
    assert lines["discard"].startswith("2h (P5), leaving 3s 3s 5h 5d in hand;")
    assert "next turn's draw" in lines["discard"]
    assert "draw 7s" not in lines["distance"]  # never advises drawing the card already drawn
    data = json.loads(pan("analyze", "--json", "7s 7s 3s 3s 5h 5d Jc Qc Kc 2h +7s").stdout)
    assert data["draws_for"] == "next turn" and data["discard"] == "2h" and data["next_hand"] == "3s 3s 5h 5d"
    assert data["next_melds"] == ["7s 7s 7s", "Jc Qc Kc"]
    seven = next(d for d in data["draws"] if d["card"] == "7s")
    assert seven["melds"] == ["7s 7s 7s 7s"] and seven["drawn"] is False  # the next 7s grows the laid set


def test_P2_an_unusable_drawn_card_is_the_discard_and_the_table_is_for_the_next_draw() -> None:
    r = pan("analyze", "7s 7s 3s 3s 5h 5d Jc Qc Kc 2h +6d")
    assert "next\tthe lines and the draw table below are for the next turn's draw, to the hand as it is" in r.stdout
    assert json.loads(pan("analyze", "--json", "7s 7s 3s 3s 5h 5d Jc Qc Kc 2h").stdout)["draws_for"] == "this turn"


def test_left_in_hand_not_dead_in_the_analysis() -> None:
    r = pan("analyze", "5sss 3-4h Kdhc 2c 7d")
    assert "left in hand\t2c 3h 4h 7d" in r.stdout
    assert "\ndead\t" not in r.stdout


def test_T1_a_fold_line_suggests_top_and_stay(tmp_path: Path) -> None:
    record = tmp_path / "fold.pan"
    record.write_text('[Players "Ana Ben Jack"]\n\nAna stay\nBen stay\nJack fold\n', encoding="utf-8")
    r = pan("replay", str(record))
    assert r.exit_code == 1
    assert "the decision before play is Jack stay or Jack top (T1); did you mean 'Jack top'?" in r.stderr


def test_R6_a_deal_line_without_a_name_says_the_name_is_missing(tmp_path: Path) -> None:
    record = tmp_path / "deal.pan"
    record.write_text('[Players "Ana Ben Jack"]\n\ndeal 5c 5c 5c 2h 3h 4h Kd Kh Kc 2c\n', encoding="utf-8")
    r = pan("replay", str(record))
    assert f"{record}:3:6: R6 the player's name is missing: a deal line is 'deal NAME cards', found '5c'" in r.stderr
    assert "not in Players" not in r.stderr


def test_R2_a_utf16_record_is_named_as_such(tmp_path: Path) -> None:
    record = tmp_path / "wide.pan"
    record.write_text((SAMPLES / "friday-hoyle.pan").read_text(encoding="utf-8"), encoding="utf-16")
    r = pan("replay", str(record))
    assert r.exit_code == 1
    assert f"{record}:1:1: R2 the file is UTF-16 text, not UTF-8: records are UTF-8" in r.stderr
    assert "no Players tag" not in r.stderr


def test_T1_advice_policy_is_described_in_the_help() -> None:
    text = " ".join(pan("analyze", "--help").stdout.split())
    assert "The policy of every simulated player:" in text and "fewest partners" in text
    advice = pan("analyze", "5sss 3-5h Kd Kh 7c 2c", "--advice", "--samples", "20").stdout
    assert "'pan analyze --help', under --advice" in advice


def _terminal(args: list[str], columns: int, redirect: str = "", cwd: Path = ROOT) -> str:
    """What a terminal of ``columns`` columns shows for ``pan ARGS`` (then ``redirect``, a shell
    redirection), escapes removed."""
    import os
    import shlex
    import shutil
    import sys

    import pytest

    pexpect = pytest.importorskip("pexpect")
    pan = shutil.which("pan")
    command = shlex.join([pan, *args] if pan else [sys.executable, "-m", "pancli", *args]) + redirect
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "PAN_FORCE_TERMINAL", "COLUMNS", "LINES")}
    env.update({"TERM": "xterm", "NO_COLOR": "1", "PAN_PROGRESS_DELAY": "0"})
    child = pexpect.spawn(
        "bash", ["-c", command], dimensions=(40, columns), encoding="utf-8", timeout=120, env=env, cwd=str(cwd)
    )
    out = child.read()
    child.close()
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", out).replace("\r", "")


def test_P8_violation_and_ruling_lines_wrap_indented_on_a_terminal() -> None:
    shown = _terminal(["replay", str(SAMPLES / "illegal-P8-forcing.pan")], 60)
    lines = shown.split("\n")
    start = next(i for i, ln in enumerate(lines) if ln.startswith("VIOLATION "))
    ruling = next(i for i, ln in enumerate(lines) if ln.startswith("  ruling: "))
    assert start < ruling
    assert all(ln.startswith(" " * 10) for ln in lines[start + 1 : ruling])  # under the message, not column 0
    assert lines[ruling + 1].startswith(" " * 10) and "player's meld" in lines[ruling + 1]


def test_settle_disputed_line_keeps_its_place_apart_on_a_terminal() -> None:
    shown = _terminal(["settle", "friday-hoyle.pan", "illegal-P8-forcing.pan"], 80, "", SAMPLES)
    first = shown.split("\n")[0]
    assert first.startswith("DISPUTED illegal-P8-forcing.pan:28:8: P8 the live discard 5c")
    assert "(hand 1, lines 1-28)" in shown


def test_replay_progress_line_shows_the_share_of_the_input_read(tmp_path: Path) -> None:
    record = tmp_path / "night.pan"
    assert pan("simulate", "--hands", "30", "--seed", "2", "-o", str(record)).exit_code == 0
    shown = _terminal(["replay", "--plain", str(record)], 100, " > /dev/null")
    assert re.search(r"replay +\d+% \[[#.]*\] [\d.]+ [KM]?B +[\d,]+ hands/s", shown), shown[-300:]


def test_standard_input_is_titled_by_the_event_tag_or_standard_input(tmp_path: Path) -> None:
    record = (SAMPLES / "friday-hoyle.pan").read_text(encoding="utf-8")
    page = tmp_path / "friday.html"
    r = pan("replay", "-", "--html", str(page), input=record)
    assert r.stdout.startswith("Friday game (standard input), hand 1 (lines 1-37): hoyle;")
    html = page.read_text(encoding="utf-8")
    assert "<title>pan replay Friday game (standard input)</title>" in html
    assert "<h2>Friday game (standard input), hand 2 (lines 39-69)" in html
    assert "<title>pan replay -</title>" not in html
    untitled = record.replace('[Event "Friday game"]\n', "")
    assert pan("replay", "-", input=untitled).stdout.startswith("standard input, hand 1 (lines 1-36)")
    assert "-:" not in pan("replay", "-", input=untitled).stdout.split("\n")[0]


def test_P3_the_svg_of_a_position_keeps_the_table_size_and_labels_a_taken_card(tmp_path: Path) -> None:
    folder = tmp_path.joinpath(*["a-long-folder-name"] * 12)
    folder.mkdir(parents=True)
    record = folder / "friday-hoyle-written-down-at-the-club.pan"
    record.write_text((SAMPLES / "friday-hoyle.pan").read_text(encoding="utf-8"), encoding="utf-8")
    short, long = tmp_path / "short.svg", tmp_path / "long.svg"
    assert pan("analyze", str(SAMPLES / "friday-hoyle.pan"), "--at", "65", "--svg", str(short)).exit_code == 0
    assert pan("analyze", str(record), "--at", "65", "--svg", str(long)).exit_code == 0

    def width(svg: Path) -> float:
        found = re.search(r'<svg [^>]*width="([\d.]+)"', svg.read_text(encoding="utf-8"))
        assert found is not None
        return float(found.group(1))

    assert width(long) == width(short) < 500  # the table's width, whatever the path (1,370 px before)
    text = long.read_text(encoding="utf-8")
    assert ">taken<" in text and ">drawn<" not in text  # Ana took 5c from the discard pile (P3)


def test_C9_default_stake_prices_only_the_hands_without_a_stake() -> None:
    friday, eight = str(SAMPLES / "friday-hoyle.pan"), str(SAMPLES / "eight-handed-hoyle.pan")
    units = pan("settle", friday, eight)
    assert "sitting\tpanguingue\t3\t0\tunits" in units.stdout and "name no Stake" in units.stderr
    r = pan("settle", "--default-stake", "0.10", friday, eight)
    assert r.exit_code == 0 and "sitting\tpanguingue\t3\t0\tmoney" in r.stdout
    assert f"default-stake\tpanguingue\t{eight}\t1\t0.10" in r.stdout
    # the Friday hands keep their own Stake (0.25 a unit), the eight-handed hand takes 0.10
    totals = {
        p["player"]: p
        for p in json.loads(pan("settle", "--json", "--default-stake", "0.10", friday, eight).stdout)["panguingue"][
            "players"
        ]
    }
    friday_only = {p["player"]: p for p in json.loads(pan("settle", "--json", friday).stdout)["panguingue"]["players"]}
    eight_only = {p["player"]: p for p in json.loads(pan("settle", "--json", eight).stdout)["panguingue"]["players"]}
    from decimal import Decimal

    for name, t in totals.items():
        own = Decimal(friday_only[name]["money"]) if name in friday_only else Decimal(0)
        extra = Decimal(eight_only[name]["units"]) * Decimal("0.10") if name in eight_only else Decimal(0)
        assert Decimal(t["money"]) == own + extra, name
    data = json.loads(pan("settle", "--json", "--default-stake", "0.10", friday, eight).stdout)
    assert data["default_stake"] == {"stake": "0.10", "hands": [{"file": eight, "first": 1, "last": 1}]}
    assert pan("settle", "--stake", "1", "--default-stake", "0.10", friday).exit_code == 2


def test_settle_reports_an_unfinished_hand(tmp_path: Path) -> None:
    cut = tmp_path / "cut.pan"
    cut.write_text("".join((SAMPLES / "friday-hoyle.pan").read_text(encoding="utf-8").splitlines(True)[:45]))
    assert "1 unfinished" in pan("replay", str(cut)).stdout
    r = pan("settle", str(cut))
    assert r.exit_code == 0
    assert f"unfinished\t{cut}:45\thand 2 (lines 39-45)\tthe record stops before the hand's end" in r.stdout
    assert json.loads(pan("settle", "--json", str(cut)).stdout)["unfinished"] == [
        {"file": str(cut), "first": 2, "last": 2}
    ]


def test_C7_the_html_page_shows_comments_and_claims_in_words(tmp_path: Path) -> None:
    page = tmp_path / "friday.html"
    pan("replay", str(SAMPLES / "friday-hoyle.pan"), "--html", str(page))
    html = page.read_text(encoding="utf-8")
    assert '<p class="note">Friday game at the club: five at the table' in html  # no '; '
    assert "claimed: 4 from each opponent" in html and "[%pays" not in html
    assert "kings mix suits (M4) but pay nothing" in html and "{ kings" not in html


def test_the_html_page_cites_rules_in_rulebook_order(tmp_path: Path) -> None:
    from pancli.rulebook import RULEBOOK

    page = tmp_path / "night.html"
    pan("replay", str(SAMPLES / "friday-hoyle.pan"), str(SAMPLES / "illegal-P8-forcing.pan"), "--html", str(page))
    cited = re.findall(r'<dt id="rule-([A-Z]+[0-9]+)"', page.read_text(encoding="utf-8"))
    order = [str(r) for r in RULEBOOK]
    assert len(cited) > 5 and cited == sorted(cited, key=order.index)


def test_a_sitting_with_no_counted_hand_draws_no_chart(tmp_path: Path) -> None:
    page = tmp_path / "p8.html"
    pan("replay", str(SAMPLES / "illegal-P8-forcing.pan"), "--html", str(page))
    totals = page.read_text(encoding="utf-8").split('id="totals"', 1)[1]
    assert "0 hands counted, 1 disputed" in totals
    assert "<svg" not in totals.split('id="rules"')[0]


def test_the_readme_names_every_command_with_jsonl() -> None:
    import click

    from pancli.cli import cli

    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    start = readme.index("`--jsonl` prints one JSON object per line")
    sentence = readme[start : readme.index(";", start)]
    ctx = click.Context(cli)
    with_jsonl = [
        name
        for name in cli.list_commands(ctx)
        if any("--jsonl" in p.opts for p in (cli.get_command(ctx, name) or cli).params)
    ]
    assert "settle" in with_jsonl and len(with_jsonl) >= 8
    assert [n for n in with_jsonl if f"`{n}`" not in sentence] == []


def test_the_classifiers_list_the_pythons_tested() -> None:
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    claimed = sorted(
        c.rsplit(" :: ", 1)[1]
        for c in project["classifiers"]
        if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c)
    )
    found = re.search(r"^PYTHONS = \[(.*)\]$", (ROOT / "noxfile.py").read_text(encoding="utf-8"), flags=re.MULTILINE)
    assert found is not None
    tested = sorted(v.strip().strip('"') for v in found.group(1).split(","))
    assert claimed == tested == ["3.11", "3.12", "3.13"]
    assert project["requires-python"] == f">={tested[0]}"
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "noxfile.py" in ci and "skipped tests-$v" in ci and '.venv/bin/nox -s "${sessions[@]}"' in ci


def test_G7_a_stopped_pagruc_hand_says_its_ledger_claim_cannot_be_compared(tmp_path: Path) -> None:
    text = (SAMPLES / "pagruc-illegal.pan").read_text(encoding="utf-8")
    record = tmp_path / "claim.pan"
    record.write_text(
        text.replace('[Players "Ana Ben Cruz"]\n', '[Players "Ana Ben Cruz"]\n[Ledger "Ana -1, Ben 0, Cruz 1"]\n', 1),
        encoding="utf-8",
    )
    hand = json.loads(pan("replay", "--json", str(record)).stdout)[0]
    assert hand["claims_ok"] is True
    assert hand["notes"] == [
        "the Ledger claim (line 9) cannot be compared (G7): the hand stopped at line 16 (G3) before its end"
    ]
