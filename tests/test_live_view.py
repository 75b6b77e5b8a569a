"""The full-screen view of ``pan live``: a whole night kept through it (Textual's Pilot,
headless), completion and history of the input line, undo; and one run on a real terminal
(pexpect)."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
from pathlib import Path

import pytest
from cli_kit import ROOT, pan
from live_kit import PLAYERS, REFUSED, accepted_lines, night_lines
from textual.widgets import Input

from pancli.app.live import LiveOptions, Session
from pancli.render.live_view import LiveApp


def screen_text(app: LiveApp) -> str:
    """What the terminal shows, as text (a screenshot without colours)."""
    strips = app.screen._compositor.render_strips()
    return "\n".join(s.text.rstrip() for s in strips)


def _session(path: Path) -> Session:
    s = Session(str(path), LiveOptions(PLAYERS.split(), stake="0.25"))
    s.open()
    return s


async def _type(app: LiveApp, pilot: object, line: str) -> None:
    app.query_one(Input).value = line
    await pilot.press("enter")  # type: ignore[attr-defined]


def test_a_night_kept_in_the_view_replays_to_the_same_ledger(tmp_path: Path) -> None:
    night = tmp_path / "night.pan"
    session = _session(night)
    shots: dict[str, str] = {}

    async def run() -> bool | None:
        app = LiveApp(session)
        async with app.run_test(size=(120, 44)) as pilot:
            for x in night_lines():
                await _type(app, pilot, x)
                if x == REFUSED:
                    await pilot.pause()
                    shots["refused"] = screen_text(app)
                if x.startswith("Cruz mend #1"):
                    await pilot.pause()
                    shots["foul"] = screen_text(app)
            await _type(app, pilot, "settle")
            await pilot.pause()
            shots["end"] = screen_text(app)
            await pilot.press("ctrl+q")
        return app.return_value

    try:
        clean = asyncio.run(run())
    finally:
        session.close()
    assert clean is False  # one line was refused
    lines = [x for x in night.read_text().splitlines() if x.strip() and not x.startswith("[")]
    assert lines == accepted_lines()
    assert "refused" in shots["refused"] and "P2" in shots["refused"]
    assert "I2" in shots["foul"] and "#1 [7c 7c 7c 7c]" in shots["foul"]
    hands = json.loads(pan("replay", "--json", str(night)).stdout)
    night_units = {p: sum(h["ledger"][p] for h in hands) for p in PLAYERS.split()}
    for p, units in night_units.items():
        assert f"{p}" in shots["end"] and f"{units:+d}" in shots["end"]
    assert "pays\tpanguingue" in shots["end"] or "pays" in shots["end"]
    if os.environ.get("PAN_LIVE_SHOT"):
        Path(os.environ["PAN_LIVE_SHOT"]).write_text(shots["foul"] + "\n")


def test_the_input_line_completes_and_keeps_a_history(tmp_path: Path) -> None:
    night = tmp_path / "night.pan"
    session = _session(night)

    async def run() -> list[str]:
        seen = []
        app = LiveApp(session)
        async with app.run_test(size=(100, 40)) as pilot:
            await pilot.press("A", "tab")  # a player's name
            seen.append(app.query_one(Input).value)
            await pilot.press("space", "s", "tab")  # the decision: stay
            seen.append(app.query_one(Input).value)
            await pilot.press("enter")
            await pilot.press("up")  # the line entered before
            seen.append(app.query_one(Input).value)
            await pilot.press("down")
            seen.append(app.query_one(Input).value)
            await _type(app, pilot, "undo")
            await pilot.pause()
            seen.append(screen_text(app))
            await pilot.press("ctrl+q")
        return seen

    try:
        seen = asyncio.run(run())
    finally:
        session.close()
    assert seen[:4] == ["Ana", "Ana stay", "Ana stay", ""]
    assert "undone: Ana stay" in seen[4]
    assert night.read_text() == ""


def test_completion_offers_what_is_legal_now(tmp_path: Path) -> None:
    from pancli.render.live import candidates, complete_line

    session = _session(tmp_path / "n.pan")
    try:
        for x in ["deal Ana 5s 5s 3h 4h Kd Kh Kc Jc Qc 2d", "up 6h", "Ana stay", "Ben stay", "Cruz stay", "Dee stay"]:
            session.enter(x)
        assert complete_line(session, "") == "Ana"  # the player in turn first
        assert candidates(session, "Ana ") == ["draw", "take"]
        assert complete_line(session, "Ana t") == "Ana take"
        assert complete_line(session, "Ana take ") == "Ana take 6h"  # the live discard
        assert complete_line(session, "Ana draw 5s, d") == "Ana draw 5s, discard"
        assert "Jc" in candidates(session, "Ana draw 5s, meld [5s 5s 5s], discard ")  # his known cards
        assert complete_line(session, "rules p") == "rules P1"
    finally:
        session.close()


@pytest.mark.slow
def test_a_real_terminal_run(tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    night = tmp_path / "night.pan"
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "110", "LINES": "40"}
    child = pexpect.spawn(
        sys.executable,
        ["-m", "pancli", "live", str(night), "--players", PLAYERS],
        cwd=str(ROOT),
        env=env,
        dimensions=(40, 110),
        encoding="utf-8",
        timeout=120,  # a hang detector only: Textual starting on a loaded machine takes what it takes
    )
    try:
        child.expect("deal lines, the upcard")
        child.send("Ana stay\r")
        child.expect("Ben decides")
        child.send("Cruz stay\r")  # out of turn (T1): refused
        child.expect("refused")
        child.send("quit\r")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 1  # a line was refused
    assert [x for x in night.read_text().splitlines() if x and not x.startswith("[")] == ["Ana stay"]


def test_a_resumed_hand_shows_its_lines_with_payments_and_rulings(tmp_path: Path) -> None:
    from live_kit import HAND_1, HAND_2

    night = tmp_path / "night.pan"
    h2 = HAND_2.splitlines()
    upto = next(i for i, x in enumerate(h2) if "mend #1" in x) + 1  # the foul meld made good
    pan("live", str(night), "--players", PLAYERS, input=HAND_1 + "".join(x + "\n" for x in h2[:upto]))
    session = _session(night)

    async def run() -> str:
        app = LiveApp(session)
        async with app.run_test(size=(120, 44)) as pilot:
            await pilot.pause()
            shot = screen_text(app)
            await pilot.press("ctrl+q")
        return shot

    try:
        shot = asyncio.run(run())
    finally:
        session.close()
    assert "Cruz collects C2 [7c 7c 7c 7c]" in shot and "IRREGULARITY" in shot and "I2" in shot


_HUNG_UP_IN_A_HANDLER = """\
import os, signal, sys
import pancli.app.live as live
from textual.widgets import Static
enter, render, entered = live.Session.enter, Static.render, []
def entered_then_hung_up(self, text):
    entered.append(text)
    return enter(self, text)
def drawn_then_hung_up(self):
    if entered and entered.pop():  # the first drawing after the line: Textual's refresh, an asyncio callback
        os.kill(os.getpid(), signal.SIGHUP)
        for _ in range(1000):
            pass
    return render(self)
live.Session.enter = entered_then_hung_up
Static.render = drawn_then_hung_up
from pancli.cli import main
sys.argv = ["pan", *sys.argv[1:]]
main()
"""


@pytest.mark.slow
def test_a_hang_up_while_the_view_draws_ends_it_with_129(tmp_path: Path) -> None:
    """pan's handler raised wherever the main thread was: inside Textual's refresh, one of
    asyncio's callbacks, asyncio kept the exception, and the view hung (5 hang-ups in 12 sent
    just after a line); once pan took the first signal as the one that decides, nothing but
    SIGKILL ended it (7 in 12). The app's loop answers the signal now, between its callbacks."""
    pexpect = pytest.importorskip("pexpect")
    night = tmp_path / "night.pan"
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "110", "LINES": "40"}
    child = pexpect.spawn(
        sys.executable,
        ["-c", _HUNG_UP_IN_A_HANDLER, "live", str(night), "--players", PLAYERS],
        cwd=str(ROOT), env=env, dimensions=(40, 110), encoding="utf-8", timeout=60,
    )  # fmt: skip
    try:
        child.expect("deal lines, the upcard")
        child.send("Ana stay\r")
        child.expect(pexpect.EOF)  # (before: a hang; 60 s is a hang detector only)
    finally:
        child.close(force=True)
    assert child.exitstatus == 128 + signal.SIGHUP
    assert [x for x in night.read_text().splitlines() if x and not x.startswith("[")] == ["Ana stay"]
