"""End to end: corrupting one action of a legal simulated record, at the text level, makes
``pan replay`` find a violation (or a notation error) and exit 1; random damage to the text
never gives a traceback.

Each corruption below is one that the rules always catch:

* the draw or take that starts a turn dropped: the turn begins otherwise (P1);
* the discard that ends a turn dropped: the drawn card is neither used nor discarded (P2),
  or a player who used his draw does not discard (P5);
* the card of a ``take`` changed: only the live discard may be taken (P3);
* the card discarded in ``draw X, discard X`` changed: the drawn card never joins the hand (P2);
* a whole play line dropped (not the last, not a ``force``: a demanded take may also be
  made freely): someone plays or decides out of turn (P1, T1, P8) or the stock count no
  longer matches a ``reshuffle`` (P10).
"""

from __future__ import annotations

import contextlib
import json
import re
from pathlib import Path

from cli_kit import pan
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from profiles_kit import any_profile, rules_name

from pancli.rules import Profile

_CARD = re.compile(r"^(?:[A2-7JQK][shdc])$")
_OTHER = ("Ah", "2c", "3d", "4s", "5h", "6c", "7d", "Jh", "Qc", "Kd")


def _record(seed: int, players: int, rules: str) -> list[str]:
    """A simulated hand; run in the folder of the house-rules file ``rules`` names, if any."""
    sim = pan("simulate", "-n", str(players), "-k", "1", "-s", str(seed), "--rules", rules)
    assert sim.exit_code == 0, sim.stderr
    assert pan("replay", "-", input=sim.stdout).exit_code == 0
    return sim.stdout.splitlines()


def _turns(lines: list[str]) -> list[int]:
    """Indices of turn lines (a name, then comma-separated actions starting with draw or take)."""
    return [i for i, line in enumerate(lines) if re.match(r"^\S+ (draw|take) ", line)]


def _replace_card(action: str, new: str) -> str:
    verb, card = action.rsplit(" ", 1)
    assert _CARD.match(card)
    return f"{verb} {new}"


def _corrupt(lines: list[str], kind: str, pick: int, card: int) -> tuple[list[str], bool] | None:
    """The corrupted lines, or None when the record has no place for this corruption."""
    turns = _turns(lines)
    out = list(lines)
    if kind == "drop-draw":
        i = turns[pick % len(turns)]
        name, rest = out[i].split(" ", 1)
        actions = rest.split(", ")
        out[i] = name + " " + ", ".join(actions[1:]) if len(actions) > 1 else name
        return out, True
    if kind == "drop-discard":
        ends = [i for i in turns if ", discard " in out[i]]
        if not ends:
            return None
        i = ends[pick % len(ends)]
        out[i] = out[i].rsplit(", discard ", 1)[0]
        return out, True
    if kind == "change-take":
        takes = [i for i in turns if re.match(r"^\S+ take ", out[i])]
        if not takes:
            return None
        i = takes[pick % len(takes)]
        name, rest = out[i].split(" ", 1)
        first, *others = rest.split(", ")
        old = first.split(" ")[1]
        new = next(c for c in _OTHER[card % len(_OTHER) :] + _OTHER if c != old)
        out[i] = name + " " + ", ".join([_replace_card(first, new), *others])
        return out, True
    if kind == "change-discard":
        plain = [i for i in turns if re.match(r"^\S+ draw (\S+), discard \1$", out[i])]
        if not plain:
            return None
        i = plain[pick % len(plain)]
        old = out[i].rsplit(" ", 1)[1]
        new = next(c for c in _OTHER[card % len(_OTHER) :] + _OTHER if c != old)
        out[i] = out[i].rsplit(" ", 1)[0] + " " + new
        return out, True
    if kind == "drop-line":
        start = next(i for i, line in enumerate(out) if line.startswith("up "))
        plays = [i for i in range(start + 1, len(out) - 1) if " force " not in out[i]]
        if not plays:
            return None
        del out[plays[pick % len(plays)]]
        return out, True
    raise AssertionError(kind)


@settings(max_examples=40)
@given(
    seed=st.integers(0, 10_000),
    players=st.integers(3, 6),
    profile=any_profile,
    kind=st.sampled_from(["drop-draw", "drop-discard", "change-take", "change-discard", "drop-line"]),
    pick=st.integers(0, 1000),
    card=st.integers(0, 9),
)
def test_one_corrupted_action_is_a_violation_never_a_crash(
    rules_folder: Path, seed: int, players: int, profile: Profile, kind: str, pick: int, card: int
) -> None:
    with contextlib.chdir(rules_folder):
        lines = _record(seed, players, rules_name(profile, rules_folder))
    assume(_turns(lines))  # won at once under T4: no action to corrupt
    got = _corrupt(lines, kind, pick, card)
    assume(got is not None)
    assert got is not None
    text = "\n".join(got[0]) + "\n"
    with contextlib.chdir(rules_folder):
        r = pan("replay", "--json", "-", input=text)
    assert r.exit_code == 1, (kind, text)
    [hand] = json.loads(r.stdout)
    assert hand["violations"], (kind, text)
    v = hand["violations"][0]
    assert v["line"] >= 1 and v["rule"]
    assert r.stderr.startswith(f"-:{v['line']}:{v['col']}: {v['rule']} ")


@settings(max_examples=40)
@given(
    seed=st.integers(0, 10_000),
    cut=st.integers(0, 10_000),
    junk=st.text(min_size=1, max_size=12),
    mode=st.sampled_from(["insert", "replace", "truncate"]),
    profile=any_profile,
)
def test_random_damage_never_crashes(
    rules_folder: Path, seed: int, cut: int, junk: str, mode: str, profile: Profile
) -> None:
    with contextlib.chdir(rules_folder):  # where the record names its house-rules file
        text = "\n".join(_record(seed, 4, rules_name(profile, rules_folder))) + "\n"
        at = cut % len(text)
        if mode == "insert":
            text = text[:at] + junk + text[at:]
        elif mode == "replace":
            text = text[:at] + junk + text[at + len(junk) :]
        else:
            text = text[:at]
        for args in (["replay", "-"], ["replay", "--json", "-"], ["replay", "--jsonl", "-"]):
            r = pan(*args, input=text)
            assert r.exit_code in (0, 1)
