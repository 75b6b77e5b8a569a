"""``pan live`` keeps the referee's position of the hand in play: each line entered is pushed on it
(the lines before are not refereed again), ``undo`` and a refused line pop it, and only a line
that changes how earlier lines are judged (a call, a count, a lone mend: I1, I2) has the hand
refereed again from the deal. The judge calls are counted, never timed."""

from __future__ import annotations

from pathlib import Path

import pytest
from live_kit import HAND_1, HAND_2, PLAYERS

from pancli.app.live import LineVerdict, LiveOptions, Session
from pancli.cards import Rank, Suit, card
from pancli.referee import table as referee_table
from pancli.referee.table import Table

HOYLE_CARDS = [card(r, s) for r in Rank if r.value not in (8, 9, 10) for s in Suit]


def long_hand(n: int) -> list[str]:
    """``n`` lines of a two-player hand without deal lines: the decisions, then plain turns."""
    out = ["Ana stay", "Ben stay"]
    i = 0
    while len(out) < n:
        c = HOYLE_CARDS[i % len(HOYLE_CARDS)]
        out.append(f"{'Ana' if i % 2 == 0 else 'Ben'} draw {c}, discard {c}")
        i += 1
    return out


class Calls:
    """Counts of the referee's work: lines pushed, hands dealt, whole hands refereed."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.pushed = self.dealt = self.refereed = 0
        push, deal_in, referee_script = Table.push, Table.deal_in, referee_table.referee_script

        def counted_push(table: Table, ev: object) -> object:
            self.pushed += 1
            return push(table, ev)  # type: ignore[arg-type]

        def counted_deal(table: Table) -> bool:
            self.dealt += 1
            return deal_in(table)

        def counted_hand(*args: object, **kwargs: object) -> object:
            self.refereed += 1
            return referee_script(*args, **kwargs)  # type: ignore[arg-type]

        monkeypatch.setattr(Table, "push", counted_push)
        monkeypatch.setattr(Table, "deal_in", counted_deal)
        monkeypatch.setattr(referee_table, "referee_script", counted_hand)
        monkeypatch.setattr("pancli.referee.referee_script", counted_hand)

    def take(self) -> tuple[int, int, int]:
        got = (self.pushed, self.dealt, self.refereed)
        self.pushed = self.dealt = self.refereed = 0
        return got


def test_P1_a_long_hand_s_lines_are_each_refereed_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = Calls(monkeypatch)
    lines = long_hand(120)
    with Session(str(tmp_path / "long.pan"), LiveOptions(("Ana", "Ben"))) as session:
        for k, text in enumerate(lines):
            entry = session.enter(text)
            assert entry.verdict is LineVerdict.ACCEPTED, entry.error
            assert session.now is not None and session.now.turn == max(0, k - 1)
            assert calls.take() == (1, 1 if k == 0 else 0, 0)  # one push; dealt with the first line only
        refused = session.enter("Ben draw 2c, discard 2c")  # not his turn (P1): pushed, then popped
        assert refused.verdict is LineVerdict.REFUSED and calls.take() == (1, 0, 0)
        assert session.now is not None and session.now.to_act == "Ana"
        assert session.undo() == lines[-1]
        assert calls.take() == (0, 0, 0)  # popped off the position
        assert session.now is not None and session.now.turn == len(lines) - 3
        assert session.enter(lines[-1]).verdict is LineVerdict.ACCEPTED
        assert calls.take() == (1, 0, 0)
    # the night resumes: the hand in play is refereed once when the file is read, then pushed on
    with Session(str(tmp_path / "long.pan"), LiveOptions()) as session:
        assert calls.take() == (len(lines), 1, 0)
        assert session.now is not None and session.now.turn == len(lines) - 2
        assert session.enter(long_hand(121)[-1]).verdict is LineVerdict.ACCEPTED
        assert calls.take() == (1, 0, 0)


def test_I2_a_call_has_the_hand_refereed_again_from_the_deal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A call changes how the foul meld's own turn is judged (it stands until the call): the position
    is dealt again and every line pushed with the call in view; the lines after it are pushed."""
    calls = Calls(monkeypatch)
    hand_2 = HAND_2.strip().split("\n")
    call = next(k for k, x in enumerate(hand_2) if " call " in x)
    with Session(str(tmp_path / "night.pan"), LiveOptions(tuple(PLAYERS.split()))) as session:
        for text in HAND_1.strip().split("\n"):
            assert session.enter(text).verdict is LineVerdict.ACCEPTED
        calls.take()
        for text in hand_2[:call]:
            assert session.enter(text).verdict is LineVerdict.ACCEPTED
        pushed_before = calls.take()[0]
        entry = session.enter(hand_2[call])
        assert entry.verdict is LineVerdict.ACCEPTED, entry.error
        assert calls.take() == (pushed_before + 1, 1, 0)  # every play line again, from the deal
        entry = session.enter(hand_2[call + 1])  # the mend that answers it
        assert entry.verdict is LineVerdict.ACCEPTED and entry.remedies
        assert calls.take()[1] == 1
        entry = session.enter(hand_2[call + 2])
        assert entry.verdict is LineVerdict.ACCEPTED
        assert calls.take() == (1, 0, 0)
