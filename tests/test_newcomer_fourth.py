"""What a newcomer's fourth evening with ``pan`` showed: useful draws and the way out in words,
a retired seat in the picture, money in every command, readable values from the API, and docs."""

from __future__ import annotations

import json
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


# --------------------------------------------------------------------------- analyze


def _lines(*args: str) -> dict[str, str]:
    r = pan("analyze", *args)
    assert r.exit_code == 0, r.output
    return dict(line.split("\t", 1) for line in r.stdout.splitlines() if "\t" in line)


def test_C7_a_draw_is_useful_only_when_it_raises_the_cards_down_or_their_value() -> None:
    hand = "3s 3d 3c 5s 5s 7h 7h Jd Qc 2h"  # lays 3s 3d 3c (C1 1) without a draw
    lines = _lines(hand)
    assert lines["useful"].startswith("3 of 40 cards raise what the hand lays or its value: 3h 5s 7h;")
    assert lines["useful"].endswith("; usable for no gain: 3s 3d 3c 4s")
    r = pan("analyze", hand)
    table = [
        ln.split("\t")
        for ln in r.stdout.splitlines()[
            r.stdout.splitlines().index("card\tlive\tusable\traises\tdown\tvalue\ttotal\tout\tmelds") + 1 :
        ]
    ]
    rows = {f[0]: f for f in table}
    assert rows["4s"][2:6] == ["yes", "-", "3", "0"] and rows["4s"][8] == "3s 4s 5s"  # a rope that pays nothing
    assert rows["3h"][3] == rows["5s"][3] == "down+value"
    data = json.loads(pan("analyze", "--json", hand).stdout)
    four = next(d for d in data["draws"] if d["card"] == "4s")
    assert four["usable"] and not four["useful"] and four["raises"] == []
    assert data["p_useful"] == sum(d["live"] for d in data["draws"] if d["useful"]) / data["unseen"]
    assert data["useful_live"] == 8 + 6 + 6  # 3h, 5s, 7h


def test_C7_a_draw_that_only_raises_the_value_says_so() -> None:
    # the hand lays 2s 2h 2c and 5d 6d 7d Jd, 7 cards for nothing; a 2s lays 7 too, with 2s 2s 2s (C2)
    data = json.loads(pan("analyze", "--json", "2s 2s 2h 2c 5h 5d 6d 7d Jd Jd").stdout)
    two = next(d for d in data["draws"] if d["card"] == "2s")
    assert two["useful"] and two["raises"] == ["value"] and (two["down"], data["melded"]) == (7, 7)


def test_P5_the_way_out_is_said_in_words_and_keeps_what_the_best_arrangement_lays() -> None:
    lines = _lines("6h 3h 5c 4s 7c 2s 6c 4h 7h 7d")
    assert lines["best"] == "7h 7d 7c (C1 1)"
    distance = lines["distance"]
    assert distance.startswith("3 useful draws to go out, at the fewest: lay 7h 7d 7c;"), distance
    assert "discard 4s and 2s on the way, one a turn" in distance and "7d" not in distance.split("discard")[1]
    # of two ways alike, the one that keeps the pair worth more (3s 3s 3s pays 4; 5h 5d 5x pays 1)
    lines = _lines("7s 7s 3s 3s 5h 5d Jc Qc Kc 2h +7s")
    assert "draw 3s to meld with 3s 3s" in lines["distance"] and "discard 5d and 5h" in lines["distance"]


def test_P5_no_advised_discard_is_a_card_the_best_arrangement_lays() -> None:
    import random
    from collections import Counter

    from pancli.analyze.analysis import analyze
    from pancli.meldspace import SLOT_CARDS
    from pancli.notation import parse_meld
    from pancli.rules import HOYLE

    rng = random.Random(5)
    pool = [c for c in SLOT_CARDS for _ in range(HOYLE.pack.copies(c))]
    found = ["6h 3h 5c 4s 7c 2s 6c 4h 7h 7d", "3h As Jc Kc 3s 2c Ad 2s 7c Js", "6c Kd 4c 2s Qs 5h 6c 5c Qh Ad"]
    for cards in [list(parse_meld(h)) for h in found] + [rng.sample(pool, 10) for _ in range(40)]:
        a = analyze(cards, HOYLE, samples=100, turns=2)
        assert not Counter(a.distance.discards) - Counter(a.best.dead), (cards, a.distance)


# --------------------------------------------------------------------------- the picture


def test_I2_the_picture_marks_a_retired_player_retired(tmp_path: Path) -> None:
    picture = tmp_path / "table.svg"
    record = str(SAMPLES / "illegal-I2-foul-meld-found.pan")  # Ana retires at line 28
    r = pan("analyze", record, "--at", "30", "--player", "Dee", "--svg", str(picture))
    assert r.exit_code == 0, r.output
    texts = re.findall(r"<text[^>]*>([^<]*)</text>", picture.read_text(encoding="utf-8"))
    ana = texts.index("Ana")
    assert texts[ana + 1 : ana + 3] == ["retired (I2)", "cards dead"]
    assert texts[ana + 3] == "Ben"  # no "hand" of 0 cards drawn for him


# --------------------------------------------------------------------------- the API

PUBLIC = {
    "MeldCheck": "pancli.app.check",
    "RecordHand": "pancli.notation.layout",
    "HandResult": "pancli.model.results",
    "PagrucHandResult": "pancli.pagruc.referee",
    "Violation": "pancli.model.results",
    "Remedy": "pancli.model.results",
    "Retirement": "pancli.model.results",
    "ClaimCheck": "pancli.model.results",
    "Payment": "pancli.model.results",
    "Analysis": "pancli.analyze.analysis",
    "Arrangement": "pancli.analyze.arrange",
    "Placed": "pancli.analyze.arrange",
    "DrawRow": "pancli.analyze.odds",
    "Distance": "pancli.analyze.odds",
    "OutOdds": "pancli.analyze.odds",
}
"""The values the API returns, and the values inside them a script reads (docs/api.md)."""


def test_api_values_print_for_people() -> None:
    import pancli

    results = [pancli.referee_hand(h) for h in pancli.read_records(SAMPLES / "friday-hoyle.pan")]
    shown = " ".join(str(r) for r in results)
    assert "Card(" not in shown and "Rule." not in shown
    payment = next(p for r in results if isinstance(r, pancli.HandResult) for p in r.payments if p.meld)
    text = str(payment)
    assert text.startswith(f"Payment(payer='{payment.payer}', payee='{payment.payee}', units={payment.units}, rules=(")
    assert f"meld=[{' '.join(map(str, payment.meld or ()))}]" in text
    assert str(payment.meld) == " ".join(c.text for c in payment.meld or ())  # not (Card('7h'), ...)
    a = pancli.analyze_hand("5s 5s 5s 6h 7h Jc Qc Kc 2d 3d", samples=100)
    assert str(a.best) == "Arrangement(placed=(5s 5s 5s, Jc Qc Kc), dead=[2d 3d 6h 7h], count=1)"
    assert "Card(" not in str(a) and repr(a.best).startswith("Arrangement(placed=(Placed(cards=(Card('5s')")


def test_docs_api_md_gives_the_type_of_every_public_field() -> None:
    import importlib

    from tests.cli_kit import ROOT

    text = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    for name, module in PUBLIC.items():
        cls = getattr(importlib.import_module(module), name)
        section = text.split(f"\n### `{name}`\n", 1)[1].split("\n#", 1)[0]
        listed = dict(re.findall(r"^\| `(\w+)`(?: \(property\))? \| `(.+)` \|$", section, re.M))
        annotations: dict[str, str] = {}
        for k in reversed(cls.__mro__):
            annotations.update(getattr(k, "__annotations__", {}))
        wanted = {f: annotations[f] for f in cls.__struct_fields__}
        wanted |= {
            p: attr.fget.__annotations__["return"]
            for p, attr in vars(cls).items()
            if isinstance(attr, property) and not p.startswith("_")
        }
        assert {f: t.replace("\\|", "|") for f, t in listed.items()} == wanted, name
