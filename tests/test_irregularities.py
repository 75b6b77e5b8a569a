"""I1 and I2 put right as a table puts them right: the remedy is applied to the ledger and the
hand goes on (docs/rules.md, "Irregularities").

Properties over self-play hands with each irregularity injected (pancli.referee.simulate.inject):
the chips sum to zero, no card is created or lost, the returns equal what the player collected,
and a retired player collects nothing after and pays what he owes. Then each branch as a user
meets it: the shipped samples through ``pan replay`` (every output), ``--strict``, ``pan settle``.
"""

from __future__ import annotations

import json
import random

import pytest
from cli_kit import SAMPLES, pan
from hypothesis import given, settings
from hypothesis import strategies as st

from pancli.model.results import DEAD, HandResult, Remedy, is_return
from pancli.referee import referee_hand
from pancli.referee.simulate import IRREGULARITIES, inject, simulate_hands
from pancli.rulebook import Rule
from pancli.rules import CARDROOM, HAND_SIZE, HOYLE

NAMES = ("Ana", "Ben", "Cruz", "Dee", "Eli", "Fay")


def run_cli(*args: str, input: str | None = None) -> tuple[int, str, str]:
    r = pan(*args, input=input)
    return r.exit_code, r.stdout, r.stderr


def _injected(seed: int, players: int, kind: str, cardroom: bool) -> tuple[object, HandResult] | None:
    script = next(simulate_hands(NAMES[:players], 1, seed, CARDROOM if cardroom else HOYLE))
    bad = inject(script, kind, random.Random(seed))
    return None if bad is None else (bad, referee_hand(bad))


def _retired_remedy(result: HandResult) -> Remedy:
    [remedy] = result.remedies
    assert remedy.retired
    return remedy


@settings(max_examples=30)
@given(
    seed=st.integers(0, 10_000),
    players=st.integers(3, 6),
    kind=st.sampled_from(IRREGULARITIES),
    cardroom=st.booleans(),
)
def test_I1_I2_remedies_keep_the_books_and_the_cards(seed: int, players: int, kind: str, cardroom: bool) -> None:
    got = _injected(seed, players, kind, cardroom)
    if got is None:
        return  # this hand offers no place for it (a hand won at the first turn, say)
    script, r = got
    assert not r.violations and sum(r.ledger.values()) == 0
    [remedy] = r.remedies
    assert remedy.rule == (Rule.I2 if kind.startswith("I2") else Rule.I1)
    steps = r.steps
    if kind == "I1-extra":
        # the last card dealt goes to the dead cards: ten to the hand, one dead, none lost
        [deal] = [s for s in steps if s.player == remedy.violation.player and s.moves and s.event is None]
        assert [to for _, _, to in deal.moves].count(DEAD) == 1 and len(deal.moves) == HAND_SIZE + 1
        assert not remedy.retired and remedy.returns == ()
        return
    if kind == "I1-short":
        assert "filled from the stock with 1 card" in remedy.remedy and not remedy.returns
        return
    if kind in ("I2-mended", "I2-taken-back"):
        # made good or taken back at once: no penalty; what the table paid for the foul meld on
        # the player's word is returned, and every result is the legal hand's
        legal = referee_hand(next(simulate_hands(NAMES[:players], 1, seed, CARDROOM if cardroom else HOYLE)))
        assert (r.ledger, r.winner) == (legal.ledger, legal.winner) and not remedy.retired
        paid = [p for p in r.payments if p.rules == (Rule.I2,) and not is_return(p)]
        assert paid and sorted((p.payee, p.payer, p.units) for p in remedy.returns) == sorted(
            (p.payer, p.payee, p.units) for p in paid
        )
        return
    who = _retired_remedy(r).violation.player
    at = r.payments.index(remedy.returns[0]) if remedy.returns else None
    before = r.payments if at is None else r.payments[:at]
    collected = sum(p.units for p in before if p.payee == who)
    assert sum(p.units for p in remedy.returns) == collected  # he returns all he collected
    assert all(p.payer == who and p.rules == (remedy.rule,) and is_return(p) for p in remedy.returns)
    after = r.payments[len(before) + len(remedy.returns) :]
    assert not any(p.payee == who for p in after)  # he collects nothing after
    for p in after:  # and pays every other player's collection, as an active opponent does
        if p.rules != (Rule.T2,):
            moment = [q for q in after if (q.payee, q.line, q.rules) == (p.payee, p.line, p.rules)]
            assert who in {q.payer for q in moment}
    [step] = [s for s in steps if s.event is remedy]
    if kind == "I2-found":  # a known hand: his ten cards, held and melded, all go dead
        assert len(step.moves) == HAND_SIZE and all(to is DEAD for _, _, to in step.moves)
    assert not any(s.player == who and s.action is not None for s in steps[steps.index(step) + 1 :])
    # --strict: the same irregularity is a violation that stops the hand, at the same place
    strict = referee_hand(script, remedy=False)  # type: ignore[arg-type]
    v = strict.violations[0]
    assert (v.line, v.col, v.player) == (remedy.violation.line, remedy.violation.col, who)


def test_the_injector_finds_a_place_for_each_irregularity_in_most_hands() -> None:
    found = dict.fromkeys(IRREGULARITIES, 0)
    for script in simulate_hands(NAMES[:5], 12, 5, HOYLE):
        for kind in IRREGULARITIES:
            found[kind] += inject(script, kind, random.Random(1)) is not None
    assert all(n >= 6 for n in found.values()), found


def test_a_retired_player_s_later_turn_is_a_violation() -> None:
    text = (SAMPLES / "illegal-I2-foul-meld-found.pan").read_text(encoding="utf-8")
    late = text.replace("14. Cruz", "Ana draw 2s, discard 2s\n14. Cruz")
    code, _, err = run_cli("replay", "-", input=late)
    assert code == 1
    assert "P1 Ana retired from the hand at line 28 (I2) and plays no further turn" in err


# ---------------------------------------------------------------- the samples, as a user meets them


BRANCHES = [
    # sample, stderr line, the remedy's words, ledger
    (
        "illegal-I1-wrong-count",
        "11:1: I1 Eli is dealt 11 cards, not 10",
        "the extra card 2s (the last dealt) goes to the dead cards; play goes on",
        {"Ana": -2, "Ben": -2, "Cruz": 36, "Dee": -6, "Eli": -26},
    ),
    (
        "irregular-I1-short-deal",
        "11:1: I1 Eli is dealt 9 cards, not 10",
        "his hand is filled from the stock with 1 card the record does not show; play goes on",
        {"Ana": -2, "Ben": -2, "Cruz": 36, "Dee": -6, "Eli": -26},
    ),
    (
        "irregular-I1-found-late",
        "29:47: I1 Dee lays 6 unseen cards but holds only 5: more than 10 were dealt",
        "Dee returns the 15 units collected in the hand; the cards held and melded are dead; retired from the hand, "
        "still paying others",
        {"Ana": 3, "Ben": -2, "Cruz": 41, "Dee": -21, "Eli": -21},
    ),
    (
        "illegal-I2-foul-meld-found",
        "28:17: I2 foul meld: not a set (ranks differ) and not a rope (a rope is one suit): Jc Qc Qh (M2)",
        "Ana returns the 12 units collected in the hand; the cards held and melded are dead; retired from the hand, "
        "still paying others",
        {"Ana": -20, "Ben": -2, "Cruz": 42, "Dee": 0, "Eli": -20},
    ),
    (
        "irregular-I2-made-good",
        "20:18: I2 foul meld: not a set (ranks differ) and not a rope (a rope is one suit): 7c 7c 7c 4d (M2)",
        "Cruz makes #1 good as [7c 7c 7c 7c] at line 20: no penalty; what the foul meld collected is returned",
        {"Ana": -2, "Ben": -2, "Cruz": 36, "Dee": -6, "Eli": -26},  # as if laid right
    ),
    (
        "irregular-I2-taken-back",
        "28:17: I2 foul meld: not a set (ranks differ) and not a rope (a rope is one suit): 2h 3h Jc (M2)",
        "Ana takes #2 back at line 28 and returns the 3 units it collected; the turn goes on",
        {"Ana": -2, "Ben": -2, "Cruz": 36, "Dee": -6, "Eli": -26},
    ),
]


@pytest.mark.parametrize(("name", "line", "remedy", "ledger"), BRANCHES, ids=[b[0] for b in BRANCHES])
def test_I1_I2_each_branch_is_put_right_and_the_hand_settled(
    name: str, line: str, remedy: str, ledger: dict[str, int]
) -> None:
    path = str(SAMPLES / f"{name}.pan")
    code, out, err = run_cli("replay", path)
    assert code == 1 and err == f"{path}:{line}\n"  # an irregularity is reported, exit 1
    assert f"  IRREGULARITY {path}:{line} (" in out and f"    remedy: {remedy}\n" in out
    assert "  Cruz went out (C8)\n" in out  # the hand went on to its end
    code, out, _ = run_cli("replay", "--json", path)
    [h] = json.loads(out)
    assert h["winner"] == "Cruz" and h["ledger"] == ledger and h["violations"] == []
    [ruling] = h["rulings"]
    assert {"rule", "player", "line", "col", "remedy", "returns", "retired"} <= ruling.keys()
    assert ruling["remedy"] == remedy
    assert all(p in h["payments"] for p in ruling["returns"])
    # --strict: the old behaviour, stopped at the irregularity with no winner
    code, out, _ = run_cli("replay", "--strict", "--json", path)
    [h] = json.loads(out)
    assert code == 1 and h["winner"] is None and h["rulings"] == [] and h["violations"][0]["line"] == ruling["line"]
    # pan settle settles the hand as played after the remedy
    code, out, _ = run_cli("settle", "--json", path)
    data = json.loads(out)
    assert data["disputed"] == [] and {p["player"]: p["units"] for p in data["panguingue"]["players"]} == ledger


def test_I2_made_good_and_taken_back_are_read_written_and_judged() -> None:
    text = (SAMPLES / "irregular-I2-taken-back.pan").read_text(encoding="utf-8")
    code, out, _ = run_cli("fmt", "-", input=text)
    assert code == 0 and "9. Ana draw 2h, meld [2h 3h Jc] ?? {[%pays 1]}, back #2, meld [2h 3h 4h], discard Jc" in out
    # the drawn card goes back with the foul meld: it must still be used or discarded (P2, P4)
    unused = text.replace("back #2, meld [2h 3h 4h], discard Jc", "back #2, discard Jc")
    _, out, err = run_cli("replay", "-", input=unused)
    assert "P2 " in err or "P4 " in err
    # only a foul meld of this turn is made good or taken back
    code, _, err = run_cli("replay", "-", input=text.replace("back #2", "back #1"))
    assert code == 1 and "I2 Ana has no foul meld #1 laid this turn to take back" in err
    made = (SAMPLES / "irregular-I2-made-good.pan").read_text(encoding="utf-8")
    code, _, err = run_cli("replay", "-", input=made.replace("mend #1 [7c 7c 7c 7c]", "mend #1 [7c 7c 7c 7d]"))
    assert code == 1 and "-:20:" in err and "(M3)" in err  # still foul: a violation
    _, out, _ = run_cli("replay", "--jsonl", str(SAMPLES / "irregular-I2-made-good.pan"))
    [mend] = [e for e in map(json.loads, out.splitlines()) if e.get("event") == "mend"]
    assert mend["text"] == "mend #1 [7c 7c 7c 7c]"
    assert [(m["card"], m["from"], m["to"]) for m in mend["moves"]] == [("7c", "hand", "meld"), ("4d", "meld", "hand")]


def test_I1_I2_returns_are_shown_by_the_player_who_returns_them() -> None:
    path = str(SAMPLES / "illegal-I2-foul-meld-found.pan")
    _, out, _ = run_cli("replay", path)
    assert "  line 28: Ana returns I2 [5s 5s 5s] (collected at line 19): 4 to each of Cruz Dee Eli = 12\n" in out
    assert "  line 32: Cruz collects C8 going out: bonus 1 + melds again 7: 8 from each of Dee Eli Ana = 24\n" in out


def test_I1_I2_remedies_in_jsonl_and_html(tmp_path: object) -> None:
    path = str(SAMPLES / "irregular-I1-found-late.pan")
    _, out, _ = run_cli("replay", "--jsonl", path)
    events = [json.loads(line) for line in out.splitlines()]
    [remedy] = [e for e in events if e["event"] == "remedy"]
    assert remedy["player"] == "Dee" and remedy["text"].startswith("I1 Dee lays 6 unseen cards")
    assert sum(p["units"] for p in remedy["payments"]) == 15
    assert {m["to"] for m in remedy["moves"]} == {"dead"}
    page = f"{tmp_path}/r.html"
    run_cli("replay", path, "--html", page)
    with open(page, encoding="utf-8") as f:
        html = f.read()
    assert "irregularity put right" in html and "retired from the hand, still paying others" in html


def test_I1_I2_summary_counts_the_hands_put_right() -> None:
    _, out, _ = run_cli("replay", str(SAMPLES / "illegal-I1-wrong-count.pan"))
    assert out.endswith(
        "1 hand: 0 clean, 0 with a violation, 0 with a wrong claim, 0 malformed, "
        "1 with an irregularity put right (I1, I2)\n"
    )
