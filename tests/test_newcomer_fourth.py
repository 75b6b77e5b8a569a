"""What a newcomer's fourth evening with ``pan`` showed: useful draws and the way out in words,
a retired seat in the picture, money in every command, readable values from the API, and docs."""

from __future__ import annotations

import re
from pathlib import Path

from tests.cli_kit import SAMPLES, pan

# --------------------------------------------------------------------------- money everywhere


def test_C9_simulate_stake_writes_the_stake_tag_that_settle_pays_in_money() -> None:
    r = pan("simulate", "--players", "4", "--hands", "3", "--seed", "3", "--stake", "0.25")
    assert r.exit_code == 0, r.output
    assert r.stdout.count('[Stake "0.25"]\n') == 3
    settled = pan("settle", "-", input=r.stdout)
    assert settled.exit_code == 0, settled.output
    assert settled.stdout.splitlines()[0] == "sitting\tpanguingue\t3\t0\tmoney"
    assert pan("replay", "-", input=r.stdout).stdout.splitlines()[-1].startswith("3 hands: 3 clean")
    bad = pan("simulate", "--stake", "a lot")
    assert bad.exit_code == 2 and "R2" in bad.stderr and "--stake" in bad.stderr


def test_C9_replay_html_takes_default_stake_as_settle_does(tmp_path: Path) -> None:
    record = str(SAMPLES / "eight-handed-hoyle.pan")  # names no Stake
    page = tmp_path / "page.html"
    r = pan("replay", record, "--html", str(page), "--default-stake", "0.25")
    assert r.exit_code == 0, r.output
    text = page.read_text(encoding="utf-8")
    assert "money (stake 0.25, --default-stake)" in text
    assert "--default-stake 0.25 a unit for the 1 counted hand that names no Stake" in text
    settle = pan("settle", record, "--default-stake", "0.25").stdout
    for payer, payee, amount in re.findall(r"^pays\tpanguingue\t(\S+)\t(\S+)\t(\S+)$", settle, re.M):
        assert f"<li>{payer} pays {payee} <strong>{amount}</strong></li>" in text  # the same money as settle's
    both = pan("replay", record, "--html", str(page), "--default-stake", "0.25", "--stake", "1")
    assert both.exit_code == 2 and "give one" in both.stderr
    alone = pan("replay", record, "--default-stake", "0.25")
    assert alone.exit_code == 2 and "--html" in alone.stderr
