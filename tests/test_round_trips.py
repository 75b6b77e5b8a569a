"""Whatever ``pan`` prints, ``pan`` reads, for generated inputs: every meld
``check`` prints reads back as the same meld; every ``best`` arrangement ``analyze`` prints reads
back as ``--melds``; every ledger ``replay`` prints reads back as a ``Ledger`` tag that ``replay``
confirms; ``fmt`` of a record written in any accepted spelling is a fixed point and replays to the
same results. (``pan rules --toml`` reading back: tests/test_rules_toml.py.)"""

from __future__ import annotations

import contextlib
import json
import re
import unicodedata
from pathlib import Path
from typing import Any

from cli_kit import pan
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from profiles_kit import any_profile, rules_name
from test_notation_properties import written_meld

from pancli.cards import PAN_CARDS, Game, format_cards
from pancli.rules import Profile

NAMES = ["Ana", "Ben", "José", "Peña", "Nguyễn", "李娜", "Zoë-2", "Ωmega"]


def _json(*args: str, input: str | None = None) -> Any:
    r = pan(*args, "--json", input=input)
    assert r.exit_code in (0, 1), r.stderr
    return json.loads(r.stdout)


# --------------------------------------------------------------------------- check


@settings(max_examples=20)
@given(st.lists(written_meld(Game.PANGUINGUE), min_size=1, max_size=12))
def test_round_trip_every_meld_check_prints_reads_back_as_the_same_meld(melds: list[Any]) -> None:
    lines = [m.text.replace("\n", " ") for m in melds]
    first = _json("check", "-", input="\n".join(lines) + "\n")
    readable = [o for o in first if o["rule"] is None or not o["rule"].startswith("N")]
    assume(readable)
    again = _json("check", "-", input="\n".join(o["meld"] for o in readable) + "\n")
    fields = ("meld", "legal", "kind", "condition", "conditions", "value", "rule", "reason")
    assert [{k: o[k] for k in fields} for o in again] == [{k: o[k] for k in fields} for o in readable]


# --------------------------------------------------------------------------- analyze


@settings(max_examples=8)
@given(st.lists(st.sampled_from(PAN_CARDS), min_size=10, max_size=10), any_profile)
def test_round_trip_every_best_arrangement_analyze_prints_reads_back_as_melds(
    rules_folder: Path, cards: list[Any], profile: Profile
) -> None:
    hand = format_cards(cards)
    rules = rules_name(profile, rules_folder)
    with contextlib.chdir(rules_folder):  # where the house-rules file is
        first = _json("analyze", "--samples", "10", "--rules", rules, hand)
        assume("best" in first and first["best"] and first["dead"])
        groups = " ".join(f"[{m['meld']}]" for m in first["best"])
        dead = first["dead"] if isinstance(first["dead"], str) else " ".join(first["dead"])
        again = _json("analyze", "--samples", "10", "--rules", rules, dead, "--melds", groups)
    assert again.get("error") is None
    assert again["melds_on_table"] == [m["meld"] for m in first["best"]]


# --------------------------------------------------------------------------- replay ledger


def _hands(text: str) -> list[str]:
    """The hands of a simulated record (each starts at a [Players line)."""
    return ["[Players" + h for h in text.split("[Players")[1:]]


def _printed_ledgers(record: str) -> list[str]:
    """The ``ledger:`` lines ``pan replay`` prints for a record, one per hand."""
    out = pan("replay", "-", input=record).stdout.splitlines()
    return [ln.split("ledger: ", 1)[1] for ln in out if "ledger: " in ln]


@settings(max_examples=5)
@given(st.integers(0, 10_000), st.lists(st.sampled_from(NAMES), min_size=2, max_size=6, unique=True))
def test_round_trip_every_ledger_replay_prints_reads_back_as_a_Ledger_tag(seed: int, names: list[str]) -> None:
    record = pan("simulate", "--names", " ".join(names), "-k", "3", "-s", str(seed)).stdout
    printed = _printed_ledgers(record)
    hands = _hands(record)
    assert len(printed) == len(hands)
    claimed = "".join(h.replace("\n", f'\n[Ledger "{ledger}"]\n', 1) for h, ledger in zip(hands, printed, strict=True))
    r = pan("replay", "--json", "-", input=claimed)
    assert r.exit_code == 0, r.stderr
    assert all(h["claims_ok"] and any(c["kind"] == "ledger" for c in h["claims"]) for h in json.loads(r.stdout))


# --------------------------------------------------------------------------- fmt


_DEAL = re.compile(r"^deal (\S+) (.*)$", re.M)


@st.composite
def respelled(draw: st.DrawFn, canonical: str) -> str:
    """A canonical record written in other accepted forms: keywords in other cases, deal lines with
    commas and set shorthand, names decomposed (NFD), ledgers with other separators, extra blanks."""

    def deal(m: re.Match[str]) -> str:
        cards = m.group(2).split(" ")
        sep = draw(st.sampled_from([" ", ",", ", ", " ,"]))
        out: list[str] = []
        for c in cards:
            if out and draw(st.booleans()) and out[-1][:-1] == c[:-1] and len(out[-1]) >= 2:
                out[-1] += c[-1]  # 5s 5h -> 5sh (set shorthand)
            else:
                out.append(c)
        word = draw(st.sampled_from(["deal", "DEAL", "Deal"]))
        return f"{word} {m.group(1)}  {sep.join(out)}"

    text = _DEAL.sub(deal, canonical)
    if draw(st.booleans()):
        text = unicodedata.normalize("NFD", text)
    if draw(st.booleans()):
        text = re.sub(r" (stay|top)$", lambda m: " " + m.group(1).upper(), text, flags=re.M)
    sep = draw(st.sampled_from([" ", "; ", ",", " ;"]))
    return re.sub(r'\[Ledger "([^"]*)"\]', lambda m: '[Ledger "' + m.group(1).replace(", ", sep) + '"]', text)


def _results(text: str) -> list[dict[str, Any]]:
    keep = ("players", "winner", "ledger", "claims_ok")
    return [{k: h[k] for k in keep} | {"payments": len(h["payments"])} for h in _json("replay", "-", input=text)]


@settings(max_examples=6)
@given(st.data(), st.integers(0, 10_000), st.lists(st.sampled_from(NAMES), min_size=3, max_size=5, unique=True))
def test_round_trip_fmt_of_any_spelling_is_a_fixed_point_and_replays_the_same(
    data: st.DataObject, seed: int, names: list[str]
) -> None:
    record = pan("simulate", "--names", " ".join(names), "-k", "2", "-s", str(seed)).stdout
    printed = _printed_ledgers(record)
    canonical = "".join(
        h.replace("\n", f'\n[Ledger "{ledger}"]\n', 1) for h, ledger in zip(_hands(record), printed, strict=True)
    )
    assert pan("fmt", "--check", "-", input=canonical).exit_code == 0
    text = data.draw(respelled(canonical))
    once = pan("fmt", "-", input=text)
    assert once.exit_code == 0, once.stderr
    assert once.stdout == canonical  # every spelling formats to the one canonical form
    assert pan("fmt", "-", input=once.stdout).stdout == once.stdout  # a fixed point
    assert _results(text) == _results(once.stdout) == _results(canonical)
