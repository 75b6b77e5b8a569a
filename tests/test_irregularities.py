"""I1 and I2 put right as a table puts them right: the remedy is applied to the ledger and the
hand goes on (docs/rules.md, "Irregularities").

Properties over self-play hands with each irregularity injected (pancli.referee.irregular.inject):
the chips sum to zero, no card is created or lost, the returns equal what the player collected,
and a retired player collects nothing after and pays what he owes. Then each branch as a user
meets it: the shipped samples through ``pan replay`` (every output), ``--strict``, ``pan settle``.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter

import pytest
from cli_kit import SAMPLES, pan
from hypothesis import given, settings
from hypothesis import strategies as st

from pancli.api import parse_records
from pancli.model.results import DEAD, HandResult, Remedy, is_return
from pancli.referee import referee_script
from pancli.referee.irregular import Irregularity, inject
from pancli.referee.simulate import simulate_hands
from pancli.rulebook import Rule
from pancli.rules import CARDROOM, HAND_SIZE, HOYLE

NAMES = ("Ana", "Ben", "Cruz", "Dee", "Eli", "Fay")


def run_cli(*args: str, input: str | None = None) -> tuple[int, str, str]:
    r = pan(*args, input=input)
    return r.exit_code, r.stdout, r.stderr


def _injected(seed: int, players: int, kind: Irregularity, cardroom: bool) -> tuple[object, HandResult] | None:
    script = next(simulate_hands(NAMES[:players], 1, seed, CARDROOM if cardroom else HOYLE))
    bad = inject(script, kind, random.Random(seed))
    return None if bad is None else (bad, referee_script(bad))


def _where_cards_end(result: HandResult) -> Counter[tuple[str, str]]:
    """How many of each card every place holds after the hand's moves (the deal included)."""
    held: Counter[tuple[str, str]] = Counter()
    for step in result.steps:
        for card, src, dst in step.moves:
            held[(str(card), str(src))] -= 1
            held[(str(card), str(dst))] += 1
    return +held  # (the places cards come from at the deal go negative: dropped alike)


def _retired_remedy(result: HandResult) -> Remedy:
    [remedy] = result.remedies
    assert remedy.retired
    return remedy


@settings(max_examples=30)
@given(
    seed=st.integers(0, 10_000),
    players=st.integers(3, 6),
    kind=st.sampled_from(Irregularity),
    cardroom=st.booleans(),
)
def test_I1_I2_remedies_keep_the_books_and_the_cards(
    seed: int, players: int, kind: Irregularity, cardroom: bool
) -> None:
    got = _injected(seed, players, kind, cardroom)
    if got is None:
        return  # this hand offers no place for it (a hand won at the first turn, say)
    script, r = got
    assert not r.violations and sum(r.ledger.values()) == 0
    [remedy] = r.remedies
    assert remedy.rule == (Rule.I2 if kind.value.startswith("I2") else Rule.I1)
    steps = r.steps
    if kind is Irregularity.I1_EXTRA:
        # the last card dealt goes to the dead cards: ten to the hand, one dead, none lost
        [deal] = [s for s in steps if s.player == remedy.violation.player and s.moves and s.event is None]
        assert [to for _, _, to in deal.moves].count(DEAD) == 1 and len(deal.moves) == HAND_SIZE + 1
        assert not remedy.retired and remedy.returns == ()
        return
    if kind is Irregularity.I1_SHORT:
        assert "filled from the stock with 1 card" in remedy.remedy and not remedy.returns
        return
    if kind in (Irregularity.I2_MENDED, Irregularity.I2_TAKEN_BACK, Irregularity.I2_ADDITION_MENDED):
        # made good or taken back at once: no penalty; what the table paid for the foul meld (or
        # addition) on the player's word is returned, and every result is the legal hand's
        legal = referee_script(next(simulate_hands(NAMES[:players], 1, seed, CARDROOM if cardroom else HOYLE)))
        assert (r.ledger, r.winner) == (legal.ledger, legal.winner) and not remedy.retired
        assert r.claims_ok  # a mend's [%pays N] is the claim of the meld as made good
        assert _where_cards_end(r) == _where_cards_end(legal)  # no card created or lost
        paid = [p for p in r.payments if p.rules == (Rule.I2,) and not is_return(p)]
        assert paid and sorted((p.payee, p.payer, p.units) for p in remedy.returns) == sorted(
            (p.payer, p.payee, p.units) for p in paid
        )
        return
    who = _retired_properties(r, kind)
    if kind in LATE:
        return  # --strict stops at the foul meld or the deal, not at the call or the count
    # --strict: the same irregularity is a violation that stops the hand, at the same place
    strict = referee_script(script, remedy=False)  # type: ignore[arg-type]
    v = strict.violations[0]
    assert (v.line, v.col, v.player) == (remedy.violation.line, remedy.violation.col, who)


LATE = (Irregularity.I2_CALLED_LATE, Irregularity.I1_COUNTED_LATE)
"""The irregularities found where a call or a count is written, lines after they were made."""


def _retired_properties(r: HandResult, kind: Irregularity) -> str:
    """The books and the cards of a hand where a player retired (I1, I2): he returns all he
    collected, collects nothing after, pays every other player's collection, and every card
    he held and melded goes dead; his name."""
    [remedy] = r.remedies
    steps = r.steps
    who = _retired_remedy(r).violation.player
    assert who is not None
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
    if kind in (
        Irregularity.I2_FOUND,
        Irregularity.I2_CALLED_LATE,
    ):  # a known hand: his ten cards, held and melded, all go dead
        assert len(step.moves) == HAND_SIZE and all(to is DEAD for _, _, to in step.moves)
    if kind is Irregularity.I1_COUNTED_LATE:  # the eleven dealt to him, none taken at the deal
        assert len(step.moves) == HAND_SIZE + 1 and all(to is DEAD for _, _, to in step.moves)
        assert not [s for s in steps if s.event is None and s.player == who and any(t is DEAD for *_, t in s.moves)]
    assert not any(s.player == who and s.action is not None for s in steps[steps.index(step) + 1 :])
    return who


def test_I1_I2_late_calls_and_counts_keep_the_books_and_the_cards_over_200_hands() -> None:
    """Properties over at least 200 hands where a foul meld is called, or an eleven-card deal
    counted, lines after it was made (pancli.referee.irregular.inject)."""
    done = dict.fromkeys(LATE, 0)
    seed = 0
    while min(done.values()) < 100:
        seed += 1
        assert seed < 1_000, done
        players = 3 + seed % 4
        profile = CARDROOM if seed % 3 == 0 else HOYLE
        script = next(simulate_hands(NAMES[:players], 1, seed, profile))
        for kind in LATE:
            bad = inject(script, kind, random.Random(seed))
            if bad is None:
                continue
            done[kind] += 1
            r = referee_script(bad)
            assert not r.violations and sum(r.ledger.values()) == 0  # the chips sum to zero
            [remedy] = r.remedies
            late = next(
                e for e in bad.events if type(e).__name__ == ("Call" if kind.value.startswith("I2") else "Count")
            )
            assert (remedy.rule, remedy.violation.line) == (
                Rule.I2 if kind.value.startswith("I2") else Rule.I1,
                late.line,
            )
            _retired_properties(r, kind)
    assert sum(done.values()) >= 200


def test_the_injector_finds_a_place_for_each_irregularity_in_most_hands() -> None:
    found = dict.fromkeys(Irregularity, 0)
    for script in simulate_hands(NAMES[:5], 12, 5, HOYLE):
        for kind in Irregularity:
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
        "Eli's hand is filled from the stock with 1 card the record does not show; play goes on",
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
        "irregular-I2-addition-made-good",
        "27:18: I2 foul addition: cannot add 4d to one-suit set 7c 7c 7c 7c: a set of 7s takes only 7s (M5)",
        "Cruz makes the addition to #1 good as [7c 7c 7c 7c 7c] at line 27: no penalty; what the foul addition "
        "collected is returned",
        {"Ana": -2, "Ben": -2, "Cruz": 36, "Dee": -6, "Eli": -26},  # as if added right
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
        "1 with an irregularity put right (I1)\n"
    )


def test_I2_summary_names_only_the_rules_put_right() -> None:
    """The summary names the irregularity rules that happened, not always both."""
    _, out, _ = run_cli("replay", str(SAMPLES / "irregular-I2-called-late.pan"))
    assert out.endswith("1 with an irregularity put right (I2)\n")
    _, out, _ = run_cli(
        "replay", str(SAMPLES / "irregular-I2-called-late.pan"), str(SAMPLES / "illegal-I1-wrong-count.pan")
    )
    assert out.endswith("2 with an irregularity put right (I1, I2)\n")


def test_I1_I2_summary_counts_each_hand_once_and_the_parts_add_up() -> None:
    """Every shipped sample: each hand under one heading, so the counts add up to the hands read
    (an unfinished hand with an irregularity put right was counted twice)."""
    names = sorted(str(p) for p in SAMPLES.glob("*.pan"))
    code, out, _ = run_cli("replay", *names)
    last = out.rstrip("\n").splitlines()[-1]
    total, _, parts = last.partition(" hands: ")
    counted = [int(n) for n in re.findall(r"(?:^|, )(\d+) ", parts)]
    assert sum(counted) == int(total), last
    assert code == 1


def test_I2_an_unfinished_hand_put_right_is_counted_once() -> None:
    _, out, _ = run_cli("replay", str(SAMPLES / "illegal-M3-foul-meld.pan"))
    assert out.endswith(
        "1 hand: 0 clean, 0 with a violation, 0 with a wrong claim, 0 malformed, "
        "1 with an irregularity put right (I2)\n"
    )


def test_an_unfinished_hand_is_not_clean_but_exits_0() -> None:
    text = '[Players "Ana Ben"]\n\nAna stay\nBen stay\n'
    code, out, _ = run_cli("replay", "-", input=text)
    assert out.endswith(
        "1 hand: 0 clean, 0 with a violation, 0 with a wrong claim, 0 malformed, "
        "1 unfinished (no going out, no T4, not void)\n"
    )
    assert code == 0


ADDITION = (SAMPLES / "irregular-I2-addition-made-good.pan").read_text(encoding="utf-8")
ADDITION_TURN = "6. Cruz take 7c, add 4d to #1 ?? {[%pays 1]}, mend #1 [7c 7c 7c 7c 7c] {[%pays 1]}, discard 4d"


def _addition_turn(turn: str) -> tuple[int, str, str]:
    assert ADDITION_TURN in ADDITION
    return run_cli("replay", "-", input=ADDITION.replace(ADDITION_TURN, turn))


def test_I2_a_foul_addition_made_good_is_read_written_and_shown() -> None:
    code, out, _ = run_cli("fmt", "-", input=ADDITION)
    assert code == 0 and out == ADDITION  # the claim after the mend stays with it
    _, out, _ = run_cli("replay", "--jsonl", str(SAMPLES / "irregular-I2-addition-made-good.pan"))
    [mend] = [json.loads(x) for x in out.splitlines() if '"event":"mend"' in x]
    assert mend["text"] == "mend #1 [7c 7c 7c 7c 7c]"
    # the taken 7c joins the meld, the foul 4d goes back to the hand (then is discarded)
    assert [(m["card"], m["from"], m["to"]) for m in mend["moves"]] == [
        ("7c", "discard", "meld"),
        ("4d", "meld", "hand"),
    ]
    assert [(p["payer"], p["units"], p["rule"]) for p in mend["payments"]] == [
        ("Cruz", 1, "I2"),
        ("Cruz", 1, "I2"),
        ("Cruz", 1, "I2"),
        ("Ana", 1, "C7"),
        ("Dee", 1, "C7"),
        ("Eli", 1, "C7"),
    ]
    _, out, _ = run_cli("replay", str(SAMPLES / "irregular-I2-addition-made-good.pan"))
    assert (
        "  line 27: Cruz collects I2 [4d] foul addition, paid on Cruz's word: 1 from each of Ana Dee Eli = 3\n" in out
    )
    assert "  line 27: Cruz collects C7 [7c 7c 7c 7c 7c] #1 grows: 1 from each of Ana Dee Eli = 3\n" in out


def test_I2_a_foul_addition_is_made_good_only_as_a_legal_addition() -> None:
    fix = "6. Cruz take 7c, add 4d to #1 ??, mend #1 {}, discard 4d"
    # every card #1 held before the addition stays in it
    code, _, err = _addition_turn(fix.format("[7c 7c 7c 4d]"))
    assert code == 1 and "-:27:35: I2 mend #1 keeps every card #1 held before the addition (7c missing)" in err
    # still foul: the mend is refused, a violation that stops the hand
    code, out, err = _addition_turn(fix.format("[7c 7c 7c 7c 7c 4d]"))
    assert "VIOLATION -:27:35: I2 foul addition: cannot add 4d" in out and "(M5)" in err
    code, _, err = _addition_turn(fix.format("[7c 7c 7c 7c]"))  # #1 as it was: that is a take-back
    assert code == 1 and "-:27:35: I2 mend #1 adds nothing to #1: take the addition back (back #1)" in err
    code, out, _ = _addition_turn(fix.format("[7c 7c 7c 7c 7c]"))
    assert "Cruz went out (C8)" in out and "ledger: Ana -2, Ben -2, Cruz +36, Dee -6, Eli -26" in out
    # taken back instead, and added right
    code, out, _ = _addition_turn("6. Cruz take 7c, add 4d to #1 {[%pays 1]}, back #1, add 7c to #1, discard 4d")
    assert "remedy: Cruz takes #1 back at line 27 and returns the 3 units it collected; the turn goes on" in out
    assert "ledger: Ana -2, Ben -2, Cruz +36, Dee -6, Eli -26" in out


def test_I2_a_pays_claim_after_a_mend_is_the_claim_of_the_meld_made_good() -> None:
    # the claim is checked against what the meld made good was paid: its gain as an addition (C7)
    code, out, err = _addition_turn(ADDITION_TURN.replace("7c 7c] {[%pays 1]}", "7c 7c] {[%pays 2]}"))
    assert "WRONG CLAIM -:27:73: C7 Cruz claims [%pays 2] but each opponent paid 1" in out
    made = (SAMPLES / "irregular-I2-made-good.pan").read_text(encoding="utf-8")
    assert "mend #1 [7c 7c 7c 7c] {[%pays 3]}" in made  # its value as a new meld (C2)
    _, out, _ = run_cli("replay", "-", input=made.replace("7c 7c] {[%pays 3]}", "7c 7c] {[%pays 4]}"))
    assert "C7 Cruz claims [%pays 4] but each opponent paid 3" in out
    # a claim still follows only an action that is paid
    code, _, err = _addition_turn("6. Cruz take 7c, add 4d to #1, back #1 {[%pays 1]}, add 7c to #1, discard 4d")
    assert code == 1 and "-:27:41: R8 a [%pays N] claim follows a meld, add, split or mend" in err


TABLE = (SAMPLES / "irregular-I2-taken-back.pan").read_text(encoding="utf-8")
TABLE_TURN = "9. Ana draw 2h, meld [2h 3h Jc] ?? {[%pays 1]}, back #2, meld [2h 3h 4h], discard Jc"
TABLE_LAST = "13. Ana draw Ah, add Ah to #2 {[%pays 2]}, meld [Kd Kh Kc], discard Qc ; flat: ten melded"


def _table(turn: str, last: str) -> tuple[int, str, str]:
    assert TABLE_TURN in TABLE and TABLE_LAST in TABLE
    return run_cli("replay", "-", input=TABLE.replace(TABLE_TURN, turn).replace(TABLE_LAST, last))


def test_I2_meld_numbers_count_a_foul_meld_while_it_lies_on_the_table() -> None:
    # Ana's [5s 5s 5s] is #1 and her foul [2h 3h Jc] #2, so the kings laid after it are #3
    turn = "9. Ana draw 2h, meld [2h 3h Jc] ??, meld [Kd Kh Kc], {}, discard Jc"
    code, out, err = _table(turn.format("add 4h to #3, back #3, mend #2 [2h 3h 4h]"), "13. Ana draw Ah, discard Ah")
    assert "remedy: Ana takes #3 back at line 28; the turn goes on" in out  # the foul addition to the kings
    assert "remedy: Ana makes #2 good as [2h 3h 4h] at line 28: no penalty" in out
    # and #2 is the foul meld: it is put right before anything changes it
    code, _, err = _table(turn.format("add 4h to #2"), TABLE_LAST)
    assert code == 1 and "-:28:54: I2 #2 is a foul meld: make it good (mend #2) or take it back (back #2) first" in err
    # made good, it keeps its place: the rope is #2, the kings #3
    code, out, _ = _table(turn.format("mend #2 [2h 3h 4h]"), "13. Ana draw Ah, add Ah to #2 {[%pays 2]}, discard Qc")
    assert "Ana collects C7 [Ah 2h 3h 4h] #2 grows" in out and "ledger: Ana -2, Ben -2, Cruz +36" in out
    # taken back, it leaves the table and the melds after it move up: the kings are #2
    code, out, _ = _table(
        turn.format("back #2, meld [2h 3h 4h]"), "13. Ana draw Ah, add Ah to #3 {[%pays 2]}, discard Qc"
    )
    assert "Ana collects C7 [Ah 2h 3h 4h] #3 grows" in out and "ledger: Ana -2, Ben -2, Cruz +36" in out


def _sample_until(name: str, last_line: int, *more: str) -> str:
    """The shipped sample ``name`` up to its line ``last_line``, then the lines ``more``."""
    lines = (SAMPLES / name).read_text(encoding="utf-8").splitlines()[:last_line]
    return "\n".join([*lines, *more]) + "\n"


def _returned_by(result: HandResult, name: str, line: int) -> int:
    return sum(p.units for p in result.payments if is_return(p) and p.payer == name and p.line == line)


def _cruz_retires_after(sample: str) -> HandResult:
    """The sample to its line 28, then Cruz lays a foul meld and discards (I2 c: he retires)."""
    text = _sample_until(
        sample,
        28,
        "10. Cruz draw Qs, meld [Qs Qs 6s] ??, discard Ah",
        "11. Dee draw 3s, meld [3s 3s 3s] {[%pays 4]}, discard 6c",
    )
    [hand] = parse_records(text)
    assert hand.script is not None
    r = referee_script(hand.script)
    assert isinstance(r, HandResult)
    return r


def test_I2_retiring_returns_what_he_still_holds_not_a_foul_meld_already_given_back() -> None:
    """Cruz's foul meld was made good at line 20 (its 9 given back then); found later with a
    foul meld after his discard, he returns the 9 his meld as made good collected and the 3 of
    its growth, 12 in all: not the 9 of the foul meld a second time."""
    r = _cruz_retires_after("irregular-I2-made-good.pan")
    assert _returned_by(r, "Cruz", 29) == 12
    assert dict(r.ledger) == {"Ana": 7, "Ben": 0, "Cruz": -9, "Dee": 11, "Eli": -9}
    assert sum(r.ledger.values()) == 0


def test_I2_a_return_made_to_him_is_no_collection_of_his_to_return() -> None:
    """Ana's foul meld was taken back at line 28 and Cruz was given back the 1 he paid for it;
    when Cruz retires he returns his own collections (12), not that 1 to Ana."""
    r = _cruz_retires_after("irregular-I2-taken-back.pan")
    assert _returned_by(r, "Cruz", 29) == 12
    foul_of_ana = [p for p in r.payments if is_return(p) and p.payer == "Cruz" and p.meld and "Jc" in map(str, p.meld)]
    assert foul_of_ana == []
    assert sum(r.ledger.values()) == 0


def test_I2_a_card_borrowed_for_a_foul_meld_taken_back_is_still_borrowed_M6() -> None:
    """Dee borrows Ks off her kings for a foul meld and takes it back: the Ks does not join her
    hand; it is a borrowed card of the turn again, and completing no new meld it breaks M6."""
    text = _sample_until(
        "cardroom-tops-and-borrowing.pan",
        52,
        "Dee draw Qs, borrow Ks from #2, meld [Ks Qs 6d] ?? {[%pays 2]}, back #3, discard Qs",
    )
    hands = parse_records(text)
    script = hands[-1].script
    assert script is not None
    r = referee_script(script)
    assert [v.rule for v in r.violations] == [Rule.M6]
    assert "borrowed Ks completes no new meld" in r.violations[0].message
