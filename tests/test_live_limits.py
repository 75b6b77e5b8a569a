"""``pan live`` writes only what its own reader takes back: a line past a reader's limit (R10) or
binary data (R2) is refused with its place, as ``pan replay`` would refuse the record; the night
can always be resumed."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from cli_kit import pan
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from live_kit import HAND_1

from pancli.app.live import LineVerdict, LiveOptions, Session
from pancli.records import reader
from pancli.records.reader import read_hands

PLAYERS = "Ana Ben"


def test_R10_a_line_past_the_reader_s_limit_is_refused_and_the_night_resumes(tmp_path: Path) -> None:
    night = tmp_path / "n.pan"
    long = "Ana stay ; " + "x" * 100_000
    r = pan("live", str(night), "--players", PLAYERS, input=long + "\nAna stay\n")
    assert r.exit_code == 1
    assert f"refused {night}:4:100001: R10 a line of 100,011 characters is too long (at most 100,000)\n" in r.stdout
    assert "ok 4: Ana stay\n" in r.stdout
    assert pan("replay", str(night)).exit_code == 0
    resumed = pan("live", str(night), input="Ben stay\n")
    assert resumed.exit_code == 0 and "ok 5: Ben stay" in resumed.stdout


def test_R10_a_comment_line_past_the_limit_is_refused_not_noted(tmp_path: Path) -> None:
    """A comment is no line of play, but it is a line of the record: read as the reader reads it."""
    night = tmp_path / "n.pan"
    r = pan("live", str(night), "--players", PLAYERS, input="Ana stay\n; " + "x" * 100_000 + "\nBen stay\n")
    assert r.exit_code == 1
    assert f"refused {night}:5:100001: R10 a line of 100,002 characters is too long" in r.stdout
    assert "noted" not in r.stdout
    assert pan("replay", str(night)).exit_code == 0


def test_R2_a_line_with_a_NUL_byte_is_refused_as_replay_reads_it(tmp_path: Path) -> None:
    night = tmp_path / "n.pan"
    r = pan("live", str(night), "--players", PLAYERS, input=b"Ana st\x00ay\nAna stay\n")
    binary = "R2 binary data (a NUL byte): a record is text, the rest of the file is not read"
    assert f"refused {night}:4:7: {binary}\n" in r.stdout, r.stdout
    assert "U+0000" not in r.stdout
    assert night.read_bytes().count(b"\x00") == 0
    assert pan("replay", str(night)).exit_code == 0


def test_R10_a_hand_past_the_reader_s_lines_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The hand's limits are the reader's own (made small here): the line that would pass them is refused."""
    monkeypatch.setattr(reader, "MAX_HAND_LINES", 5)  # two tags, a blank line, two more
    path = tmp_path / "n.pan"
    with Session(str(path), LiveOptions(PLAYERS.split())) as s:
        verdicts = [s.enter(x) for x in ("Ana stay", "; one", "; two", "Ben stay")]
    accepted, noted, refused = LineVerdict.ACCEPTED, LineVerdict.NOTED, LineVerdict.REFUSED
    assert [v.verdict for v in verdicts] == [accepted, noted, refused, refused]
    error = verdicts[2].error
    assert error is not None and (error.code, error.message) == ("R10", "a hand of 6 lines is too long (at most 5)")
    assert all(h.error is None for h in read_hands(path.open(encoding="utf-8")))


_PLAY = HAND_1.splitlines()
_STEP = st.one_of(
    st.just("play"),
    st.just("undo"),
    st.just(""),
    st.integers(0, 90).map(lambda n: "; " + "c" * n),
    st.integers(0, 90).map(lambda n: "{" + "b" * n + "}"),
    st.integers(0, 90).map(lambda n: "play ; " + "p" * n),
    st.sampled_from(["{ open", "Ana st\x00ay", "; a\x00b", "}"]),
)


@settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=st.lists(_STEP, max_size=40))
def test_R10_R2_any_lines_live_accepts_make_a_record_replay_reads(
    steps: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whatever is entered (lines and comments long and short, binary data, an open comment, undo),
    the file is one the reader reads without a malformed hand: the reader's limits made small so
    that a few lines reach them."""
    for name, value in (("MAX_LINE_CHARS", 60), ("MAX_COMMENT_CHARS", 60), ("MAX_HAND_LINES", 24)):
        monkeypatch.setattr(reader, name, value)
    monkeypatch.setattr(reader, "MAX_HAND_CHARS", 700)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "n.pan"
        at = 0
        with Session(str(path), LiveOptions(["Ana", "Ben", "Cruz", "Dee"])) as s:
            for step in steps:
                if step == "undo":
                    taken = s.undo()
                    if taken is not None and taken.split(" ; ")[0] == _PLAY[at - 1]:
                        at -= 1
                    continue
                text = step.replace("play", _PLAY[at % len(_PLAY)], 1) if step.startswith("play") else step
                if s.enter(text).verdict is LineVerdict.ACCEPTED and step.startswith("play"):
                    at = (at + 1) % len(_PLAY)
        if path.exists():
            with path.open(encoding="utf-8") as f:
                assert [h.error for h in read_hands(f, str(path)) if h.error is not None] == []
