"""``pan live`` in the line mode: a night kept line by line, what is written and when, undo,
the lock, the file that is refused, a torn line, and kill -9 at several moments."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from cli_kit import ROOT, pan
from live_kit import HAND_1, PLAYERS, REFUSED, accepted_lines, night_lines

from pancli.app.live import LineVerdict, LiveOptions, Session
from pancli.notation.errors import NotationError

PAN = [sys.executable, "-m", "pancli"]


def _keep(path: Path, lines: list[str], *extra: str) -> tuple[int, str, str]:
    r = pan("live", str(path), "--players", PLAYERS, *extra, input="".join(x + "\n" for x in lines))
    return r.exit_code, r.stdout, r.stderr


def _play_lines(path: Path) -> list[str]:
    """The file's play lines (no tags, no blank lines)."""
    return [x for x in path.read_text(encoding="utf-8").splitlines() if x.strip() and not x.startswith("[")]


def test_a_night_kept_in_line_mode_replays_to_the_same_ledger(tmp_path: Path) -> None:
    night = tmp_path / "night.pan"
    code, out, _ = _keep(night, [*night_lines(), "settle"], "--stake", "0.25")
    assert code == 1  # one line was refused
    assert _play_lines(night) == accepted_lines()
    assert out.count("refused ") == 1 and "P2" in out.split("refused ", 1)[1].split("\n", 1)[0]
    replayed = pan("replay", "--json", str(night))
    hands = json.loads(replayed.stdout)
    assert [h["winner"] for h in hands] == ["Ana", "Cruz", "Cruz"]
    assert [h["violations"] for h in hands] == [[], [], []]
    assert [len(h["rulings"]) for h in hands] == [0, 1, 0]  # the foul meld made good (I2)
    # the night so far, as pan settle writes it
    settled = pan("settle", str(night)).stdout
    assert settled in out


def test_jsonl_events_are_those_of_replay_jsonl(tmp_path: Path) -> None:
    night = tmp_path / "night.pan"
    code, out, _ = _keep(night, night_lines(), "--jsonl")
    assert code == 1
    events = [json.loads(x) for x in out.splitlines()]
    assert events[0]["event"] == "started"
    refused = [e for e in events if e["event"] == "refused"]
    assert [(e["rule"], e["text"]) for e in refused] == [("P2", REFUSED)]
    kept = [x for x, e in zip(out.splitlines(), events, strict=True) if e["event"] not in ("started", "refused")]
    replayed = [x for x in pan("replay", "--jsonl", str(night)).stdout.splitlines() if '"violation"' not in x[:30]]
    # each hand's object is the whole hand's, as replay writes it
    hand = '{"event":"hand"'
    assert [x for x in kept if x.startswith(hand)] == [x for x in replayed if x.startswith(hand)]

    # each line's events are the referee's of the hand so far: those of replay, but for the lines
    # before a late call (hand 2), judged then as the record stood (the foul meld found at its
    # turn's end) and judged again when the call comes
    def of_hand(lines: list[str], n: int) -> list[str]:
        return [x for x in lines if json.loads(x).get("hand") == n]

    assert of_hand(kept, 1) == of_hand(replayed, 1) and of_hand(kept, 3) == of_hand(replayed, 3)


def test_P2_a_refused_line_is_not_written_and_shows_its_ruling(tmp_path: Path) -> None:
    night = tmp_path / "night.pan"
    h1 = HAND_1.splitlines()
    lines = [*h1[: h1.index("4. Dee draw Kc, discard Kc")], REFUSED]
    code, out, _ = _keep(night, lines)
    assert code == 1
    assert REFUSED not in night.read_text(encoding="utf-8")
    refusal = out.split("refused ", 1)[1]
    assert refusal.startswith(f"{night}:") and " P2 " in refusal.split("\n")[0]
    assert "ruling: P2" in refusal


def test_S3_the_next_hand_seats_the_winner_first_its_tags_written_with_its_first_line(tmp_path: Path) -> None:
    night = tmp_path / "night.pan"
    lines = accepted_lines()
    hand_1 = HAND_1.splitlines()
    code, out, _ = _keep(night, hand_1)
    assert code == 0
    assert night.read_text(encoding="utf-8").count("[Players") == 1  # no empty hand at the end
    assert "hand 2: Ana Ben Cruz Dee (Ana first, Dee deals) (S3)" in out
    code, out, _ = _keep(night, lines[len(hand_1) : len(hand_1) + 1])  # resumed: the next hand's first line
    assert code == 0
    text = night.read_text(encoding="utf-8")
    assert text.count('[Players "Ana Ben Cruz Dee"]') == 2
    code, out, _ = _keep(night, lines[len(hand_1) + 1 :])
    assert code == 0
    assert '[Players "Cruz Dee Ana Ben"]' in night.read_text(encoding="utf-8")  # Cruz won hand 2
    assert pan("replay", str(night)).exit_code == 1  # only for the foul meld put right (I2)
    assert ": S3 " not in pan("replay", str(night)).stderr


def _session(path: Path) -> Session:
    s = Session(str(path), LiveOptions(PLAYERS.split()))
    s.open()
    return s


def test_undo_takes_back_the_last_line_across_a_hand_end(tmp_path: Path) -> None:
    night = tmp_path / "night.pan"
    hand_1 = HAND_1.splitlines()
    s = _session(night)
    try:
        for x in [*hand_1, "deal Ana 5s 5s 3h 4h Kd Kh Kc Jc Qc 2d"]:
            assert s.enter(x).verdict is LineVerdict.ACCEPTED, x
        assert night.read_text(encoding="utf-8").count("[Players") == 2
        assert s.undo() == "deal Ana 5s 5s 3h 4h Kd Kh Kc Jc Qc 2d"
        assert night.read_text(encoding="utf-8").count("[Players") == 1  # the tags went with it
        assert s.undo() == hand_1[-1]
        assert _play_lines(night) == hand_1[:-1]
        assert s.now is not None and s.now.to_act == "Ana"
        assert s.enter(hand_1[-1]).hand_over
        # the lock is kept across the rewrite: a second session is refused
        with pytest.raises(Exception, match="kept by another pan live"):
            _session(night)
    finally:
        s.close()
    assert _play_lines(night) == hand_1


def test_undo_with_nothing_written(tmp_path: Path) -> None:
    code, out, _ = _keep(tmp_path / "n.pan", ["undo"])
    assert code == 0 and "nothing to take back" in out
    assert not (tmp_path / "n.pan").exists()  # nothing kept: not left empty


def test_a_second_live_on_the_same_file_is_refused(tmp_path: Path) -> None:
    night = tmp_path / "night.pan"
    s = _session(night)
    try:
        code, _, err = _keep(night, ["Ana stay"])
    finally:
        s.close()
    assert code == 2 and "kept by another pan live" in err
    assert not night.exists()  # nothing kept: the file the session made is not left empty


@pytest.mark.parametrize(
    "content",
    [
        '[Players "Ana Ben"]\n\nAna stay\nBen draw 5q\n',  # a notation error
        "\x00\x01 not text\n",
        b"\xff\xfe".decode("latin-1") + "\n",
    ],
)
def test_a_file_that_is_not_a_record_is_refused_before_anything_is_written(tmp_path: Path, content: str) -> None:
    night = tmp_path / "night.pan"
    night.write_bytes(content.encode("latin-1") if "\xff" in content else content.encode())
    before = night.read_bytes()
    code, _, err = _keep(night, ["Ana stay"])
    assert code == 2 and "not a record" in err
    assert night.read_bytes() == before


def test_R2_E1_a_malformed_record_is_refused_with_its_place_and_rule_and_no_usage_banner(tmp_path: Path) -> None:
    # exit status 2, as docs/commands.md gives every FILE pan live cannot keep; one line, as replay's
    night = tmp_path / "night.pan"
    night.write_bytes((ROOT / "samples" / "malformed-record.pan").read_bytes())
    code, out, err = _keep(night, ["Ana stay"])
    assert code == 2 and out == ""
    assert err == f"{night}:12:10: E1 8h is not in a Panguingue pack (no 8, 9 or 10): not a record, nothing written\n"
    night.write_bytes(b'[Players "Ana Ben"]\nAna st\xffay\n')
    code, out, err = _keep(night, ["Ana stay"])
    said = "R2 found the byte \\xff, which is not UTF-8: records are UTF-8"  # as every reader of records says
    assert code == 2 and err == f"{night}:2:7: {said}: not a record, nothing written\n"


def test_a_file_that_cannot_be_written_is_refused(tmp_path: Path) -> None:
    code, _, err = _keep(tmp_path / "no" / "such" / "folder.pan", ["Ana stay"])
    assert code == 2 and "cannot write" in err
    code, _, err = _keep(tmp_path, ["Ana stay"])
    assert code == 2 and "not a regular file" in err
    if os.geteuid() != 0:
        ro = tmp_path / "ro.pan"
        ro.write_text("")
        ro.chmod(0o444)
        code, _, err = _keep(ro, ["Ana stay"])
        assert code == 2 and "cannot write" in err


def test_a_new_record_needs_its_players_and_good_options(tmp_path: Path) -> None:
    r = pan("live", str(tmp_path / "n.pan"), input="Ana stay\n")
    assert r.exit_code == 2 and "--players" in r.stderr
    r = pan("live", str(tmp_path / "n.pan"), "--players", "Ana Ana!", input="Ana stay\n")
    assert r.exit_code == 2 and "do not read" in r.stderr
    r = pan("live", str(tmp_path / "n.pan"), "--players", "Ana Ben", "--stake", "x", input="")
    assert r.exit_code == 2
    r = pan("live", str(tmp_path / "n.pan"), "--players", "Ana Ben", "--rules", "nope.toml", input="")
    assert r.exit_code == 2
    assert not (tmp_path / "n.pan").exists()


def test_a_torn_last_line_is_reported_with_its_place_and_set_aside(tmp_path: Path) -> None:
    night = tmp_path / "night.pan"
    code, _, _ = _keep(night, ["Ana stay", "Ben stay", "Cruz stay", "Dee stay"])
    with open(night, "ab") as f:
        f.write(b"Ana draw 5s, disc")  # the power went off mid-write
    code, out, _ = _keep(night, ["Ana draw 5s, discard 5s"])
    assert code == 0
    assert f"torn {night}:8: " in out and "'Ana draw 5s, disc'" in out
    assert (tmp_path / "night.pan.torn").read_text() == "Ana draw 5s, disc\n"
    assert _play_lines(night)[-2:] == ["Dee stay", "Ana draw 5s, discard 5s"]


def test_commands_rules_settle_and_quit(tmp_path: Path) -> None:
    code, out, _ = _keep(tmp_path / "n.pan", ["Ana stay", "rules p8", "rules Z9", "quit", "Ben stay"])
    assert code == 1  # rules of no rule
    assert "rule\tP8 Forcing" in out and "no rule 'Z9'" in out
    assert _play_lines(tmp_path / "n.pan") == ["Ana stay"]  # nothing after quit


def test_rules_of_an_unknown_id_names_the_closest_as_pan_rules_does(tmp_path: Path) -> None:
    code, out, _ = _keep(tmp_path / "n.pan", ["rules ZZ9", "rules P99", "rules", "rules hello"])
    assert code == 1
    assert "refused rules ID: no rule 'ZZ9' in the rulebook; closest: P9, C9, R9" in out
    assert "refused rules ID: no rule 'P99' in the rulebook; closest: P9" in out  # pan rules P99's words
    assert "refused rules ID: name one rule id (P8)" in out  # no id given
    assert "refused rules ID: no rule 'hello' in the rulebook\n" in out


def test_a_tag_line_is_refused(tmp_path: Path) -> None:
    code, out, _ = _keep(tmp_path / "n.pan", ['[Event "x"]'])
    assert code == 1 and "R1" in out


def test_R1_a_tag_line_is_refused_at_its_line_and_column_one(tmp_path: Path) -> None:
    """audit7 M1: the refusal's place is the line entered, column 1 (line and column were
    swapped: ``n.pan:1:9``, and in JSON ``"line":1,"col":9``)."""
    night = tmp_path / "n.pan"
    assert _keep(night, HAND_1.splitlines()[:5])[0] == 0  # lines 4-8 of the file
    code, out, _ = _keep(night, ['[Event "x"]'])
    assert code == 1
    assert "n.pan:9:1: R1 pan live writes each hand's tags itself" in out
    r = pan("live", str(night), "--jsonl", input='[Event "x"]\n')
    (refused,) = [json.loads(x) for x in r.stdout.splitlines() if '"refused"' in x]
    assert (refused["rule"], refused["line"], refused["col"]) == ("R1", 9, 1)


def test_R1_a_line_that_reads_as_more_than_one_hand_is_refused_at_its_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """audit7 M1, the other refusal: a line the reader cannot take as one line of the hand in
    play (made here by a reader that gives the hand twice) is refused at its line, column 1."""
    import pancli.app.live as live

    with Session(str(tmp_path / "n.pan"), LiveOptions(tuple(PLAYERS.split()))) as session:
        assert session.enter("Ana stay").verdict is LineVerdict.ACCEPTED
        real = live.read_chunk
        monkeypatch.setattr(live, "read_chunk", lambda *a, **k: [*real(*a, **k)] * 2)
        entry = session.enter("Ben stay")
    assert entry.verdict is LineVerdict.REFUSED and isinstance(entry.error, NotationError)
    assert (entry.error.code, entry.error.line, entry.error.col) == ("R1", 5, 1)


def test_comments_before_a_hand_are_written_with_its_first_line(tmp_path: Path) -> None:
    night = tmp_path / "n.pan"
    code, _, _ = _keep(night, ["; Tuesday at Ana's", "Ana stay", "; Ben thinks", "Ben stay"])
    assert code == 0
    text = night.read_text()
    assert text.index("[Players") < text.index("; Tuesday") < text.index("Ana stay") < text.index("; Ben thinks")


# --------------------------------------------------------------------------- kill -9


def _start(path: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [*PAN, "live", str(path), "--players", PLAYERS],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )


def _judged(p: subprocess.Popen[str], line: str) -> str:
    """Send a line and read its judgement (up to its last line: "now: ..." or "not written")."""
    assert p.stdin is not None and p.stdout is not None
    p.stdin.write(line + "\n")
    p.stdin.flush()
    got = []
    while True:
        x = p.stdout.readline()
        assert x, "pan live ended"
        got.append(x)
        if x.startswith(("  now: ", "  not written")):
            return "".join(got)


def _opened(p: subprocess.Popen[str]) -> str:
    assert p.stdout is not None
    got = []
    while not got or not got[-1].startswith("  now: "):
        got.append(p.stdout.readline())
        assert got[-1], "pan live ended"
    return "".join(got)


@pytest.mark.slow
@pytest.mark.parametrize("moment", [1, 9, 14, 27, 45])
def test_kill_9_leaves_every_accepted_line_and_the_night_resumes(tmp_path: Path, moment: int) -> None:
    night = tmp_path / "night.pan"
    lines = night_lines()
    p = _start(night)
    _opened(p)
    for x in lines[:moment]:
        _judged(p, x)
    os.kill(p.pid, signal.SIGKILL)  # waiting for the next line
    p.wait()
    assert _play_lines(night) == [x for x in lines[:moment] if x != REFUSED]
    # one more line sent and killed at once: written whole or not at all
    p = _start(night)
    assert "hand" in _opened(p)
    assert p.stdin is not None
    p.stdin.write(lines[moment] + "\n")
    p.stdin.flush()
    os.kill(p.pid, signal.SIGKILL)
    p.wait()
    done = _play_lines(night)
    expected = [x for x in lines[:moment] if x != REFUSED]
    assert done in (expected, [*expected, lines[moment]] if lines[moment] != REFUSED else expected)
    assert night.read_bytes().endswith(b"\n")
    rest = lines[moment + 1 :] if len(done) > len(expected) else lines[moment:]
    pan("live", str(night), input="".join(x + "\n" for x in rest))  # the record's own players (S3 after hand 1)
    assert _play_lines(night) == accepted_lines()
    hands = json.loads(pan("replay", "--json", str(night)).stdout)
    assert [h["winner"] for h in hands] == ["Ana", "Cruz", "Cruz"]


def test_line_mode_does_not_import_textual(tmp_path: Path) -> None:
    run = (
        "import sys\nsys.argv=['pan', *sys.argv[1:]]\nfrom pancli.cli import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "sys.stderr.write('MODULES ' + ' '.join(sys.modules))\n"
    )
    p = subprocess.run(
        [sys.executable, "-c", run, "live", str(tmp_path / "n.pan"), "--players", PLAYERS],
        input="Ana stay\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    mods = p.stderr.rsplit("MODULES ", 1)[1].split()
    assert "ok 4: Ana stay" in p.stdout
    assert not [m for m in mods if m.split(".")[0] in ("textual", "rich")]


# --------------------------------------------------------------------------- what may be played next


def _at(tmp_path: Path, sample: str, line: int) -> tuple[Session, str]:
    """A session on the sample's lines before ``line``, and that line."""
    text = (ROOT / "samples" / sample).read_text(encoding="utf-8").split("\n")
    path = tmp_path / sample
    path.write_text("\n".join(text[: line - 1]) + "\n", encoding="utf-8")
    s = Session(str(path), LiveOptions())
    s.open()
    return s, text[line - 1]


def test_P8_the_position_says_the_live_card_must_be_taken_and_the_referee_refuses_a_draw(tmp_path: Path) -> None:
    s, line = _at(tmp_path, "illegal-P8-forcing.pan", 28)
    try:
        now = s.now
        assert now is not None and (now.to_act, now.must_take, str(now.live)) == ("Kim", 1, "5c")
        from pancli.render.live import may_now

        assert "Kim must take 5c and add it to #1 (P8)" in may_now(s)
        entry = s.enter(line)
        assert entry.verdict is LineVerdict.REFUSED and entry.error is not None and entry.error.rule == "P8"
    finally:
        s.close()


def test_P8_a_record_whose_last_hand_stopped_opens_on_the_next_hand_and_says_why(tmp_path: Path) -> None:
    # the session keeps the stopped hand and its violation as values; the exporter words the note
    from pancli.render.live import notes_text

    path = tmp_path / "forcing.pan"
    path.write_text((ROOT / "samples" / "illegal-P8-forcing.pan").read_text(encoding="utf-8"), encoding="utf-8")
    s = Session(str(path), LiveOptions())
    s.open()
    try:
        assert s.stopped is not None
        hand, v = s.stopped
        assert (hand, v.rule, v.line) == (1, "P8", 28)
        (note,) = notes_text(s)
        assert note.startswith(f"{path}:28:{v.col}: P8 ")
        assert note.endswith(": hand 1 stops there, the next hand begins")
    finally:
        s.close()


_ESC_NAME = "e\x1b[7mv\x1b[0m.pan"
_ESC_SHOWN = "e\\x1b[7mv\\x1b[0m.pan"


def test_M2_a_file_name_with_a_control_character_is_escaped_in_the_opening_notes(tmp_path: Path) -> None:
    """audit7 M2: the note of a last hand stopped by a violation and the torn line's report wrote
    the file name raw (an escape sequence reached the terminal); the note is the one error line."""
    path = tmp_path / _ESC_NAME
    text = (ROOT / "samples" / "illegal-P8-forcing.pan").read_text(encoding="utf-8")
    path.write_text(text + "Kim dr", encoding="utf-8")
    r = pan("live", str(path), input="")
    assert r.exit_code == 0 and "\x1b" not in r.stdout
    shown = str(tmp_path / _ESC_SHOWN)
    assert f"note {shown}:28:8: P8 " in r.stdout and ": hand 1 stops there, the next hand begins\n" in r.stdout
    assert f"torn {shown}:29: a last line cut off mid-write, set aside in {shown}.torn: 'Kim dr'" in r.stdout


def test_M2_a_file_that_is_not_a_record_is_named_escaped(tmp_path: Path) -> None:
    path = tmp_path / _ESC_NAME
    path.write_text('[Players "Ana Ben"]\n\nAna draw 8h, discard 8h\n', encoding="utf-8")
    r = pan("live", str(path), input="")
    assert r.exit_code == 2 and "\x1b" not in r.stderr
    said = "E1 8h is not in a Panguingue pack (no 8, 9 or 10): not a record, nothing written"
    assert r.stderr == f"{tmp_path / _ESC_SHOWN}:3:10: {said}\n"


def _night_of_one_line(tmp_path: Path, *options: str) -> Path:
    night = tmp_path / "n.pan"
    assert pan("live", str(night), "--players", "Ana Ben", *options, input="Ana stay\n").exit_code == 0
    return night


@pytest.mark.parametrize(
    ("given", "said"),
    [
        (["--players", "Ben Cruz"], "hand 1 is played by Ana Ben, in order of play; --players names a new record's"),
        (["--players", "Ana Ben Cruz"], "hand 1 is played by Ana Ben, in order of play"),
        (["--game", "pagruc"], "hand 1's game is panguingue; --game names a new record's game"),
        (["--rules", "hoyle"], "hand 1 is played under cardroom; --rules names a new record's rules"),
    ],
)
def test_L2_an_option_that_says_otherwise_than_an_existing_record_is_a_usage_error(
    tmp_path: Path, given: list[str], said: str
) -> None:
    """audit7 L2: --players, --rules and --game of an existing record were ignored without a word."""
    night = _night_of_one_line(tmp_path, "--rules", "cardroom")
    before = night.read_bytes()
    r = pan("live", str(night), *given, input="Ben stay\n")
    assert r.exit_code == 2 and said in r.stderr, r.stderr
    assert night.read_bytes() == before


def test_L2_options_that_say_what_an_existing_record_says_are_noted(tmp_path: Path) -> None:
    night = _night_of_one_line(tmp_path, "--rules", "cardroom")
    given = ("--players", "Ana Ben", "--rules", "Cardroom", "--game", "panguingue")
    r = pan("live", str(night), *given, input="Ben stay\n")
    assert r.exit_code == 0
    assert f"note --players, --game, --rules: as {night} has them (an existing record keeps its own tags)" in r.stdout
    assert "ok 6: Ben stay" in r.stdout
    r = pan("live", str(night), "--jsonl", "--players", "Ana Ben", input="")
    (started,) = [json.loads(x) for x in r.stdout.splitlines() if '"started"' in x]
    assert started["notes"] == [f"--players: as {night} has them (an existing record keeps its own tags)"]
    # no option: nothing said (a PAGRUC record resumes without --game: tests of G2 above)
    assert "note" not in pan("live", str(night), input="").stdout


def test_L2_players_of_the_next_hand_are_those_s3_seats(tmp_path: Path) -> None:
    """After a hand that ended, --players is compared with the next hand's seating (S3: Ana won
    hand 1, so she plays first in hand 2 and the others follow in their order)."""
    night = tmp_path / "n.pan"
    assert pan("live", str(night), "--players", PLAYERS, input=HAND_1).exit_code == 0
    assert "note --players: as" in pan("live", str(night), "--players", PLAYERS, input="").stdout
    r = pan("live", str(night), "--players", "Ben Cruz Dee Eli", input="")
    assert r.exit_code == 2 and f"hand 2 is played by {PLAYERS}, in order of play" in r.stderr


def test_L2_the_same_players_in_another_order_are_the_record_s_table(tmp_path: Path) -> None:
    """The night's command line given again after a reseat (or in any order) names the same table:
    noted, and the record's order of play stands (it was refused, exit 2)."""
    night = tmp_path / "n.pan"
    assert pan("live", str(night), "--players", PLAYERS, input=HAND_1).exit_code == 0
    before = night.read_bytes()
    r = pan("live", str(night), "--players", " ".join(reversed(PLAYERS.split())), input="")
    assert r.exit_code == 0, r.stderr
    assert f"note --players: as {night} has them (an existing record keeps its own tags)" in r.stdout
    assert night.read_bytes() == before


def test_L11_the_help_says_a_command_not_done_counts_for_the_exit_status() -> None:
    out = pan("live", "--help").stdout
    assert "1 some line refused or a command not done (rules of no rule)" in " ".join(out.split())


def test_P9_the_position_says_the_next_player_is_flat(tmp_path: Path) -> None:
    s, line = _at(tmp_path, "cardroom-saturday.pan", 38)
    try:
        now = s.now
        assert now is not None and now.to_act == "Lou" and now.next_flat
        assert s.enter(line).verdict is LineVerdict.ACCEPTED
    finally:
        s.close()


def test_T1_the_position_names_who_decides_and_the_melds_a_known_hand_can_lay(tmp_path: Path) -> None:
    s = _session(tmp_path / "n.pan")
    try:
        assert s.now is None  # no line yet: the view says what comes first
        for x in ["deal Ana 5s 5s 3h 4h Kd Kh Kc Jc Qc 2d", "up 6h", "Ana stay"]:
            assert s.enter(x).verdict is LineVerdict.ACCEPTED
        assert s.now is not None and s.now.to_act == "Ben"
        for x in ["Ben stay", "Cruz stay", "Dee stay"]:
            s.enter(x)
        now = s.now
        assert now is not None and now.to_act == "Ana" and str(now.live) == "6h" and now.must_take == 0
        assert {" ".join(map(str, m)) for m in now.lays} == {"Jc Qc Kc", "Kh Kd Kc"}
    finally:
        s.close()


def test_R2_a_typed_byte_that_is_not_utf8_is_refused_where_it_stands_and_not_written(tmp_path: Path) -> None:
    # as every reader of records names it (it was read as U+FFFD and the line written)
    night = tmp_path / "n.pan"
    typed = b"; caf\xe9\nAna stay\nBen st\xffay\nrules P\xff\nBen stay\n"
    said = "R2 found the byte \\x{}, which is not UTF-8: records are UTF-8"
    r = pan("live", str(night), "--players", PLAYERS, input=typed)
    assert r.exit_code == 1
    refused = [x for x in r.stdout.splitlines() if x.startswith("refused ")]
    # (a comment before the hand's first line, a play line, a command's argument: each a line entered)
    places = [(4, 6, "e9"), (5, 7, "ff"), (5, 8, "ff")]
    assert refused == [f"refused {night}:{n}:{c}: {said.format(b)}" for n, c, b in places]
    assert _play_lines(night) == ["Ana stay", "Ben stay"]
    assert b"\xef\xbf\xbd" not in night.read_bytes()  # no U+FFFD written in the byte's place
    night.unlink()
    r = pan("live", "--jsonl", str(night), "--players", PLAYERS, input=typed)
    out = r.stdout.encode("utf-8")  # (a lone surrogate cannot be: the events are UTF-8)
    events = [json.loads(x) for x in out.decode("utf-8").splitlines()]
    refused = [(e["rule"], e["line"], e["col"], e["text"]) for e in events if e["event"] == "refused"]
    assert refused == [("R2", 4, 6, "; caf\\xe9"), ("R2", 5, 7, "Ben st\\xffay"), ("R2", 5, 8, "rules P\\xff")]


def test_a_record_written_with_crlf_and_a_byte_order_mark_goes_on(tmp_path: Path) -> None:
    night = tmp_path / "n.pan"
    night.write_bytes(b'\xef\xbb\xbf[Players "Ana Ben Cruz Dee"]\r\n\r\nAna stay\r\nBen stay\r\n')
    code, out, _ = _keep(night, ["Cruz stay", "undo", "Cruz top"])
    assert code == 0, out
    assert night.read_bytes().endswith(b"Ben stay\r\nCruz top\n")
    assert pan("replay", str(night)).exit_code == 0


def _opened_at(tmp_path: Path, sample: str, last_line: int) -> Session:
    """A session opened on the first ``last_line`` lines of a shipped sample."""
    lines = (ROOT / "samples" / sample).read_text(encoding="utf-8").splitlines()[:last_line]
    path = tmp_path / sample
    path.write_text("".join(x + "\n" for x in lines), encoding="utf-8")
    return Session(str(path), LiveOptions())


def test_C7_the_view_shows_what_each_meld_paid_as_the_referee_valued_it(tmp_path: Path) -> None:
    """Each meld's "paid N each" is the position's (the value the referee collected, laid and
    grown), not payments matched by their cards: after Gil splits [7h 7c 7d 7s] (paid 2 each)
    into [7h 7h 7h] and [7c 7d 7s] (1 more each), the two melds paid 2 and 1."""
    from pancli.render.live import table_lines

    with _opened_at(tmp_path, "cardroom-saturday.pan", 29) as session:
        gil = [x for x in table_lines(session) if x.startswith("    #")][:3]
    assert gil == [
        "    #1 [2h 3h 4h]",
        "    #2 [7h 7h 7h]  paid 2 each",
        "    #3 [7c 7d 7s]  paid 1 each",
    ]


def test_C7_two_additions_on_one_line_are_both_counted(tmp_path: Path) -> None:
    """A meld laid and grown twice on one line paid three times (C5, then two C7 payments)."""
    from pancli.render.live import table_lines

    path = tmp_path / "adds.pan"
    path.write_text(
        '[Players "Ana Ben"]\n\ndeal Ana Qh Kh 7h 6h 2s 3s Qc Jc 7s 7c\ndeal Ben 2d 2d 6c Jd Jd Qs 4s 4s 6d 7d\n'
        "up 4c\nAna stay\nBen stay\n1. Ana draw Jh, meld [Jh Qh Kh], add 7h to #1, add 6h to #1, discard 2s\n",
        encoding="utf-8",
    )
    with Session(str(path), LiveOptions()) as session:
        (ana,) = [x for x in table_lines(session) if x.startswith("    #1")]
        paid = [p.units for p in session.report.result.payments]  # type: ignore[union-attr]
    assert (ana, paid) == ("    #1 [6h 7h Jh Qh Kh]  paid 3 each", [1, 1, 1])  # C5, then C7 twice


def test_the_night_s_ledger_is_pan_settle_s_units(tmp_path: Path) -> None:
    """The view's night (the finished hands) is what ``pan settle`` counts: disputed hands left out."""
    from pancli.render.settle import SettleSink  # the totals pan settle writes

    for sample, cut in (("friday-hoyle.pan", 10_000), ("tutorial-dispute.pan", 10_000), ("cardroom-saturday.pan", 60)):
        with _opened_at(tmp_path, sample, cut) as session:
            night = session.night_units()
            reports = session.hand_reports()
            in_play = session.hand_index if session.report is not None else None
        sink = SettleSink(None, False)
        for r in reports:
            if r.hand.index != in_play:
                sink.hand(r)
        assert night == {t.player: t.units for t in sink.pan.totals() if t.hands}, sample


def test_S3_the_next_hand_s_tags_and_players_are_values_not_text_read_back(tmp_path: Path) -> None:
    """The next hand's header carries the last hand's tags as the reader read them (a comment
    after a tag stays with its hand) and its players as S3 seated them, kept as a value."""
    night = tmp_path / "night.pan"
    header = '[Event "Friday \\"late\\""] ; the usual\n[Players "Ana Ben Cruz Dee"]\n\n'
    night.write_text(header + HAND_1, encoding="utf-8")
    s = Session(str(night), LiveOptions())
    s.open()
    try:
        assert s.header[1] == '[Event "Friday \\"late\\""]'
        assert s.header[-1] == '[Players "Ana Ben Cruz Dee"]'
        assert s.players == s.next_players == ("Ana", "Ben", "Cruz", "Dee")
    finally:
        s.close()


def test_S1_a_new_record_of_sixteen_players_is_refused_before_any_line(tmp_path: Path) -> None:
    """The table's own rule is asked of ``--players`` (S1: 2 to 15), as "seated twice" is: before,
    every line was taken and written, and ``pan replay`` of the file then stopped at S1."""
    night = tmp_path / "n.pan"
    names = " ".join(f"P{i}" for i in range(1, 17))
    r = pan("live", str(night), "--players", names, input="P1 stay\n")
    assert r.exit_code == 2 and "S1 16 players seated; Panguingue seats 2 to 15" in r.stderr
    assert not night.exists()


def test_G1_a_new_pagruc_record_of_more_players_than_the_packs_seat_is_refused(tmp_path: Path) -> None:
    night = tmp_path / "n.pan"
    names = " ".join(f"P{i}" for i in range(1, 10))
    r = pan("live", str(night), "--players", names, "--game", "pagruc", input="up 5s\n")
    assert r.exit_code == 2 and "G1 at most 8 players (with two packs), not 9" in r.stderr
    assert not night.exists()


def test_G2_a_pagruc_line_before_the_up_card_is_refused_and_the_up_card_taken(tmp_path: Path) -> None:
    """A play line before the up card is refused at its own place (G2; a Panguingue line, G3,
    as after the up card); deal lines and the up card are still taken."""
    night = tmp_path / "p.pan"
    r = pan(
        "live", str(night), "--players", "Ana Ben Cruz", "--game", "pagruc",
        input="deal Ana 2s 4h 3h 5c Qs 4c 8c\nAna draw 6s, discard 6s\nAna stay\nup 5s\nAna draw 6s, discard 6s\n",
    )  # fmt: skip
    assert "now: deal lines, the up card (G2), then Ana draws (G3)" in r.stdout
    assert "p.pan:6:1: G2 no up card: one card is turned face up to start the discard pile (Ana)" in r.stdout
    assert "p.pan:6:1: G3 staying or going on top is Panguingue, not PAGRUC (Ana)" in r.stdout
    assert r.exit_code == 1
    assert _play_lines(night) == ["deal Ana 2s 4h 3h 5c Qs 4c 8c", "up 5s", "Ana draw 6s, discard 6s"]
    assert pan("replay", str(night)).exit_code == 0


_PAGRUC_DEALS = "deal Ana 2s 4h 3h 5c Qs 4c 8c\ndeal Ben Ah Ad 2d 6s 9s 6h Ac\ndeal Cruz 9h 8d 6c As 3s 9d Qh\n"


def test_G2_a_pagruc_hand_resumed_before_its_up_card_goes_on(tmp_path: Path) -> None:
    """audit7 H1: a session that stopped between the deal lines and the up card is resumed in
    the same hand (before, the hand was read as stopped by G2 at its first line: the next hand
    began and the up card was written under new tags, exit 0)."""
    night = tmp_path / "g.pan"
    first = pan("live", str(night), "--players", "Ana Ben Cruz", "--game", "pagruc", input=_PAGRUC_DEALS + "quit\n")
    assert first.exit_code == 0
    before = night.read_text(encoding="utf-8")
    r = pan("live", str(night), input="up 4d\nAna take 4d, meld [4h 4c 4d], discard Qs\n")
    assert r.exit_code == 0, r.stdout
    assert "stops at" not in r.stdout and "hand 2" not in r.stdout
    assert night.read_text(encoding="utf-8") == before + "up 4d\nAna take 4d, meld [4h 4c 4d], discard Qs\n"
    assert night.read_text(encoding="utf-8").count("[Players") == 1


def test_G2_undo_of_a_pagruc_up_card_keeps_the_hand_in_play(tmp_path: Path) -> None:
    """audit7 H1: ``undo`` of the up line leaves the hand being dealt, not stopped: the up card
    typed again is written in hand 1."""
    night = tmp_path / "g.pan"
    r = pan(
        "live", str(night), "--players", "Ana Ben Cruz", "--game", "pagruc",
        input=_PAGRUC_DEALS + "up 4d\nundo\nup 4d\n",
    )  # fmt: skip
    assert r.exit_code == 0, r.stdout
    assert "undone: up 4d" in r.stdout and "hand 2" not in r.stdout
    assert night.read_text(encoding="utf-8").count("[Players") == 1
    assert _play_lines(night) == [*_PAGRUC_DEALS.splitlines(), "up 4d"]


def test_G2_pan_replay_of_a_pagruc_record_cut_after_its_deal_is_unfinished(tmp_path: Path) -> None:
    """As a Panguingue record cut after its deal lines: unfinished, exit 0 (before: stopped by a
    violation of G2 at line 1, exit 1); a play line before the up card is the violation, at its place."""
    cut = tmp_path / "cut.pan"
    cut.write_text('[Game "pagruc"]\n[Players "Ana Ben Cruz"]\n\n' + _PAGRUC_DEALS, encoding="utf-8")
    r = pan("replay", str(cut))
    assert r.exit_code == 0, r.stdout
    assert "not finished" in r.stdout and "no up card" not in r.stdout and "1 unfinished" in r.stdout
    cut.write_text(cut.read_text(encoding="utf-8") + "Ana draw 5s, discard 5s\n", encoding="utf-8")
    r = pan("replay", str(cut))
    assert r.exit_code == 1
    assert "line 7:1: G2 Ana: no up card" in r.stdout


def test_C9_the_night_s_money_prices_each_hand_at_its_own_stake_as_pan_settle_does(tmp_path: Path) -> None:
    """Hand 1 at 0.25 a unit, hand 2 (in play, Dee's four 6d paid 2 each by three) at 1.00: the view's
    money is each hand's units at its own stake, what ``pan settle`` writes, never the night's units
    at the stake of the hand in play (Dee: -6 x 0.25 + 6 x 1.00 = +4.50, not +0 x 1.00)."""
    from pancli.render.live import ledger_lines
    from pancli.render.settle import SettleSink

    lines = (ROOT / "samples" / "friday-hoyle.pan").read_text(encoding="utf-8").splitlines()[:60]
    assert (lines[43], lines[45]) == ('[Stake "0.25"]', '[Ledger "Cruz -15, Dee -11, Eli -2, Ana +39, Ben -11"]')
    lines[43] = '[Stake "1.00"]'
    del lines[45]  # the finished hand's Ledger: hand 2 is cut off in play
    path = tmp_path / "mixed.pan"
    path.write_text("".join(x + "\n" for x in lines), encoding="utf-8")
    with Session(str(path), LiveOptions()) as session:
        rows = session.ledger(session.finished_hands())
        reports = session.hand_reports()
        text = ledger_lines(rows)
    sink = SettleSink(None, False)
    for r in reports:
        sink.hand(r)
    settled = {t.player: (t.units, t.money) for t in sink.pan.totals()}
    assert {r.player: (r.night, r.money) for r in rows} == settled
    assert next(x for x in text if x.startswith("Dee")).split() == ["Dee", "+6", "+0", "+4.50"]


class _HungUp(Exception):
    pass


def _hang_up(signum: int, frame: object) -> None:
    raise _HungUp(signum)


def test_a_hang_up_between_two_writes_of_a_line_leaves_it_whole_on_the_disk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A line the system takes in two writes, with a signal after the first: the file ended on
    half a line (torn, set aside at the next opening) and unsynced. The line is now written whole
    and put on the disk before the signal is taken up."""
    import threading

    night = tmp_path / "night.pan"
    s = _session(night)
    write, synced = os.write, []

    def half_then_hung_up(fd: int, data: bytes) -> int:
        if fd != s.fd:
            return write(fd, data)
        done = write(fd, bytes(data)[: max(1, len(data) // 2)])
        signal.pthread_kill(threading.get_ident(), signal.SIGHUP)  # to this thread: pan's only one
        return done

    monkeypatch.setattr(os, "write", half_then_hung_up)
    monkeypatch.setattr(os, "fsync", lambda fd: synced.append(fd))
    before = signal.signal(signal.SIGHUP, _hang_up)
    try:
        with pytest.raises(_HungUp):
            s.enter(HAND_1.splitlines()[0])
    finally:
        signal.signal(signal.SIGHUP, before)
        s.close()
    assert synced
    assert night.read_text(encoding="utf-8").endswith(HAND_1.splitlines()[0] + "\n")


def test_a_hang_up_as_a_torn_line_is_set_aside_sets_it_aside_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A torn last line is appended to FILE.torn, then taken out of the file: a signal between
    the two left it in both, and the next opening set it aside a second time."""
    import threading

    night = tmp_path / "night.pan"
    _keep(night, ["Ana stay", "Ben stay"])
    with open(night, "ab") as f:
        f.write(b"Cruz st")
    rewrite = Session._rewrite

    def hung_up_then_rewritten(self: Session, data: bytes) -> None:
        signal.pthread_kill(threading.get_ident(), signal.SIGHUP)  # to this thread: pan's only one
        rewrite(self, data)

    monkeypatch.setattr(Session, "_rewrite", hung_up_then_rewritten)
    before = signal.signal(signal.SIGHUP, _hang_up)
    try:
        with pytest.raises(_HungUp):
            _session(night).close()
    finally:
        signal.signal(signal.SIGHUP, before)
    monkeypatch.undo()
    _session(night).close()
    assert (tmp_path / "night.pan.torn").read_text() == "Cruz st\n"
    assert _play_lines(night) == ["Ana stay", "Ben stay"]


def test_a_hang_up_just_as_the_file_is_locked_leaves_it_unlocked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A signal between the lock and the session's record of its descriptor left the file
    locked for as long as the process lived: a program that went on (Ctrl-C caught) could never
    keep it again ("kept by another pan live")."""
    import fcntl
    import threading

    night = tmp_path / "night.pan"
    flock = fcntl.flock

    def locked_then_hung_up(fd: int, how: int) -> None:
        flock(fd, how)
        signal.pthread_kill(threading.get_ident(), signal.SIGHUP)  # to this thread: pan's only one

    monkeypatch.setattr(fcntl, "flock", locked_then_hung_up)
    before = signal.signal(signal.SIGHUP, _hang_up)
    try:
        with pytest.raises(_HungUp):
            _session(night)
    finally:
        signal.signal(signal.SIGHUP, before)
    monkeypatch.undo()
    _session(night).close()  # not "kept by another pan live"


def test_a_hang_up_as_undo_renames_the_file_leaves_the_session_on_the_new_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``undo`` rewrites the file (a new file renamed over it): a signal after the rename, before
    the session took the new file's descriptor, left it appending to the old one, gone from the
    folder (its lines lost), with the new one unlocked."""
    import threading

    import pancli.files

    night = tmp_path / "night.pan"
    s = _session(night)
    try:
        for x in ["Ana stay", "Ben stay"]:
            assert s.enter(x).verdict is LineVerdict.ACCEPTED
        sync = pancli.files._sync_folder

        def synced_then_hung_up(folder: str) -> None:
            sync(folder)
            signal.pthread_kill(threading.get_ident(), signal.SIGHUP)  # to this thread: pan's only one

        monkeypatch.setattr(pancli.files, "_sync_folder", synced_then_hung_up)
        before = signal.signal(signal.SIGHUP, _hang_up)
        try:
            with pytest.raises(_HungUp):
                s.undo()
        finally:
            signal.signal(signal.SIGHUP, before)
        assert os.fstat(s.fd).st_ino == night.stat().st_ino
        with pytest.raises(Exception, match="kept by another pan live"):
            _session(night)
    finally:
        s.close()


@pytest.mark.parametrize("lines", ["", "quit\n", "; a comment held for the first line\n", "Ana stay\nundo\n"])
def test_a_new_file_nothing_was_written_to_is_not_left_behind(tmp_path: Path, lines: str) -> None:
    """No line kept (end of input, quit, a comment held for a hand never begun, the one line taken
    back): no empty FILE stays, which a later pan live would take for a record of no players."""
    night = tmp_path / "n.pan"
    r = pan("live", str(night), "--players", PLAYERS, input=lines)
    assert r.exit_code == 0, r.stdout
    assert not night.exists() and os.listdir(tmp_path) == []


def test_a_run_that_fails_at_once_leaves_no_new_file(tmp_path: Path) -> None:
    """Standard output closed: the opening cannot be said, nothing is accepted, no file stays."""
    night = tmp_path / "n.pan"
    command = " ".join([*PAN, "live", str(night), "--players", f"'{PLAYERS}'", ">&-"])
    r = subprocess.run(["sh", "-c", command], input="Ana stay\n", capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and "cannot write standard output" in r.stderr
    assert os.listdir(tmp_path) == []


def test_an_empty_file_that_was_there_stays(tmp_path: Path) -> None:
    night = tmp_path / "n.pan"
    night.write_bytes(b"")
    assert pan("live", str(night), "--players", PLAYERS, input="quit\n").exit_code == 0
    assert night.read_bytes() == b""
