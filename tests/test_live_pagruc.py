"""``pan live`` keeps a PAGRUC game on the PAGRUC referee's position: each line entered is pushed
(G1-G7 judged at once), a refused line is taken back off it, and the hand's result is the one
``pan replay`` gives the file written."""

from __future__ import annotations

import io
from pathlib import Path

from pancli.app.live import LiveOptions, Session
from pancli.cards import Game
from pancli.pagruc.referee import PagrucTable, referee_script
from pancli.records import read_hands
from pancli.render.live import entry_text

SAMPLE = Path(__file__).resolve().parent.parent / "samples" / "pagruc-common-room.pan"


def _first_hand_lines() -> list[str]:
    first = SAMPLE.read_text(encoding="utf-8").split("\n\n[Event")[0].split("\n")
    return [x for x in first if x and x[0] not in "[;{"]


def test_G3_a_pagruc_line_is_pushed_on_the_position_and_a_refused_one_taken_back(tmp_path: Path) -> None:
    lines = _first_hand_lines()
    night = tmp_path / "game.pan"
    with Session(str(night), LiveOptions(("Ana", "Ben", "Cruz", "Dee"), game=Game.PAGRUC)) as session:
        tables = []
        for i, line in enumerate(lines):
            if i == len(lines) - 1:
                refused = session.enter("Cruz draw 2s, discard 2s")  # not his turn (G3)
                assert refused.verdict.value == "refused" and refused.error is not None
                assert str(refused.error.rule) == "G3"
            entry = session.enter(line)
            assert entry.verdict.value == "accepted", (line, entry.error)
            tables.append(session._pagruc)
        up = next(i for i, line in enumerate(lines) if line.startswith("up "))
        kept = tables[up:]
        assert len(kept) > 5 and all(t is kept[0] for t in kept)  # dealt once, each play line pushed
        assert isinstance(kept[0], PagrucTable)
        live_result = entry.report.result if entry.report is not None else None
    (hand,) = [h for h in read_hands(io.StringIO(night.read_text(encoding="utf-8")), "game.pan")][:1]
    assert hand.script is not None and live_result is not None
    assert live_result == referee_script(hand.script)  # what pan replay gives the file written


def test_G8_the_line_that_ends_a_pagruc_hand_names_g8_for_the_next_hand_s_seating(tmp_path: Path) -> None:
    """The seating ``pan live`` gives the next hand is named with the rule the game's rules object
    sets it under: PAGRUC's G8 (the first hand deals next), not Panguingue's S3."""
    night = tmp_path / "game.pan"
    with Session(str(night), LiveOptions(("Ana", "Ben", "Cruz", "Dee"), game=Game.PAGRUC)) as session:
        entries = [session.enter(line) for line in _first_hand_lines()]
        assert all(e.verdict.value == "accepted" for e in entries)
        said = entry_text(session, entries[-1])
    assert entries[-1].hand_over
    assert "hand 2: Ben Cruz Dee Ana (Ben first, Ana deals) (G8)\n" in said and "(S3)" not in said


def _state(table: PagrucTable) -> dict[str, str]:
    hands = {p: (tuple(h.known), h.hidden) for p, h in table.hands.items()}
    return {k: repr(hands if k == "hands" else v) for k, v in vars(table).items() if k != "undo"}


def test_G3_pop_puts_the_pagruc_table_back_exactly() -> None:
    """Every line of every PAGRUC sample hand pushed then popped leaves the table as it was."""
    for hand in read_hands(io.StringIO(SAMPLE.read_text(encoding="utf-8")), "s.pan"):
        script = hand.script
        assert script is not None
        table = PagrucTable(script, undo=True)
        assert table.deal_in()
        for ev in script.events:
            before = _state(table)
            table.push(ev)
            table.pop()
            assert _state(table) == before
            table.push(ev)
        assert table.finish() == referee_script(script)
