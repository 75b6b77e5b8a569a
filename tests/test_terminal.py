"""pan on a real pseudo-terminal (pexpect): nothing a user types back (a card, a rule id, a knob
name, a player) is cut in half on a 60-column screen; long batches stream plain rows; the
progress line shows only on a terminal, and never with --quiet, TERM=dumb or CI."""

from __future__ import annotations

import os
import re
import shutil
import sys
from pathlib import Path

import pytest
from cli_kit import ROOT

pexpect = pytest.importorskip("pexpect")

PAN = shutil.which("pan")
HANG = 120
"""Seconds after which a run is taken for hung (a hang detector only: no test waits on the clock)."""
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07")
BOX = "│┃┏┓┗┛┡┩└┘┌┐─━╇╈┳┻┼╋┃═║╔╗╚╝"


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "PAN_FORCE_TERMINAL", "COLUMNS", "LINES")}
    # the line shows from the first unit of work, however fast the machine (the default waits 0.5 s)
    env.update({"TERM": "xterm", "NO_COLOR": "1", "PAN_PROGRESS_DELAY": "0", **extra})
    return env


def on_terminal(command: str, columns: int, **extra: str) -> str:
    """What a terminal of ``columns`` columns shows for ``command`` (a shell line), escapes removed."""
    pan = PAN or f"{sys.executable} -m pancli"
    child = pexpect.spawn(
        "bash",
        ["-c", command.replace("pan ", f"{pan} ")],
        dimensions=(40, columns),
        encoding="utf-8",
        timeout=HANG,
        env=_env(**extra),
        cwd=str(ROOT),
    )
    out = child.read()
    child.close()
    return ANSI.sub("", out).replace("\r", "")


def words(text: str) -> set[str]:
    return {w.strip(".,;:()[]{}'\"") for w in text.translate({ord(c): " " for c in BOX}).split()} - {""}


@pytest.mark.parametrize(
    "command",
    [
        "pan rules cardroom",
        "pan replay samples/friday-hoyle.pan",
        "pan check '5s 5s 5s' '7c 7s 7s' 3-5h 'Qh Kh Ah' 5hcd",
        "pan analyze --samples 50 5s 5s 5s 6h 7h Jc Qc Kc 2d 3d",
    ],
)
def test_a_60_column_terminal_cuts_no_word_in_half(command: str) -> None:
    """Every word on the narrow screen is a word of the wide one: nothing was cut or ellipsised."""
    narrow = on_terminal(command, 60)
    wide = on_terminal(command, 200) + on_terminal(command + " | cat", 200)  # the table and the plain rows
    assert narrow.strip()
    assert max(map(len, narrow.splitlines())) <= 60
    cut = sorted(w for w in words(narrow) - words(wide) if not w.isdigit())
    assert cut == [], cut
    assert "…" not in narrow


def test_knob_names_stay_whole_on_60_columns() -> None:
    out = on_terminal("pan rules cardroom", 60)
    for knob in ("spade_suits_removed", "mixed_set_growth", "out_bonus", "flat_rule"):
        assert re.search(rf"(?<![\w]){knob}(?![\w])", out), knob


def test_a_long_check_streams_plain_rows_on_a_terminal(tmp_path: Path) -> None:
    """Past a screenful the rows come as they are judged: the first shows while input still flows.
    The input's last line waits until the first row has shown (a FIFO, not a clock: a slow machine
    only takes longer), so a row held back until the input ended never shows and the test fails."""
    pan = PAN or f"{sys.executable} -m pancli"
    gate = tmp_path / "gate"
    os.mkfifo(gate)
    writer = f"for i in $(seq 200); do echo '5s 5s 5s'; done; read -r _ < '{gate}'; echo 3-5h"
    child = pexpect.spawn("bash", ["-c", f"({writer}) | {pan} check -"], dimensions=(40, 60), encoding="utf-8",
                          timeout=HANG, env=_env())  # fmt: skip
    try:
        child.expect("5s 5s 5s  legal  set  C2  4")
        with gate.open("w") as opened:  # the rest of the input, only now
            opened.write("go\n")
        child.expect("3h 4h 5h +legal")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)


def test_the_progress_line_shows_on_a_terminal_and_is_erased(tmp_path: Path) -> None:
    out = tmp_path / "games.pan"
    shown = on_terminal(f"pan simulate --hands 400 --seed 2 -o {out}", 80)
    assert re.search(r"simulate +\d+% \[#*\.*\] [\d,]+ hands +[\d,]+ hands/s", shown), shown[-300:]
    assert out.read_text(encoding="utf-8").count("[Players ") == 400


def test_the_progress_line_waits_for_its_delay(tmp_path: Path) -> None:
    """A run shorter than the wait draws nothing (an hour: no machine is that slow at 400 hands)."""
    shown = on_terminal(f"pan simulate --hands 400 --seed 2 -o {tmp_path / 'g.pan'}", 80, PAN_PROGRESS_DELAY="3600")
    assert "hands/s" not in shown


@pytest.mark.parametrize("extra", [{"quiet": "1"}, {"TERM": "dumb"}, {"CI": "true"}])
def test_no_progress_line_with_quiet_dumb_terminal_or_ci(tmp_path: Path, extra: dict[str, str]) -> None:
    quiet = " --quiet" if extra.pop("quiet", None) else ""
    shown = on_terminal(f"pan simulate --hands 400 --seed 2{quiet} -o {tmp_path / 'g.pan'}", 80, **extra)
    assert "hands/s" not in shown


def test_no_progress_line_in_a_pipe(tmp_path: Path) -> None:
    import subprocess

    pan = [PAN] if PAN else [sys.executable, "-m", "pancli"]
    args = [*pan, "simulate", "--hands", "400", "-o", str(tmp_path / "g.pan")]
    p = subprocess.run(args, capture_output=True, text=True, timeout=HANG, env=_env())
    assert p.returncode == 0 and p.stderr == ""


def test_analyze_advice_shows_its_samples_then_the_analysis() -> None:
    shown = on_terminal("pan analyze --advice --samples 400 5s 5s 5s 6h 7h Jc Qc Kc 2d 3d", 100)
    assert re.search(r"advice +\d+% \[#*\.*\] [\d,]+ samples +[\d,]+ samples/s", shown)
    assert "pan analyze (hoyle)" in shown


def test_no_progress_line_from_a_background_job(tmp_path: Path) -> None:
    """``pan ... &`` under job control runs in its own process group, not the terminal's
    foreground one: it draws nothing (``stty tostop`` would stop it at the first redraw)."""
    out = tmp_path / "g.pan"
    shown = on_terminal(f"set -m; pan simulate --hands 400 --seed 2 -o '{out}' & wait", 80)
    assert "hands/s" not in shown, shown
    assert out.exists(), shown
    assert out.read_text(encoding="utf-8").count("[Players ") == 400
