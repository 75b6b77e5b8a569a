"""Hostile input and faults of a third kind: binary data, names that are not UTF-8, names at the
length limit, errors that are not about standard output, output onto input, long card lists, the
API's errors across processes, and running out of memory. Each ends with a message naming what
failed, never a traceback, never a hang, nothing lost.
"""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from cli_kit import ROOT, SAMPLES

from pancli.records.reader import read_chunk, read_hands, split_hands

LONG = os.environ.get("PAN_FUZZ") == "long"
GOOD = (SAMPLES / "friday-hoyle.pan").read_text(encoding="utf-8")


def run(
    *args: str,
    stdin: object = subprocess.DEVNULL,
    input: bytes | None = None,
    env: dict[str, str] | None = None,
    cwd: str | Path = ROOT,
    timeout: float = 60,
    preexec_fn: object = None,
) -> subprocess.CompletedProcess[bytes]:
    """``pan ARGS`` in a process of its own (``timeout`` only guards against a hang: no test waits
    on the machine's speed)."""
    return subprocess.run(
        [sys.executable, "-m", "pancli", *args],
        stdin=None if input is not None else stdin,  # type: ignore[arg-type]
        input=input,
        capture_output=True,
        timeout=timeout,
        cwd=cwd,
        env={**os.environ, **(env or {})},
        preexec_fn=preexec_fn,  # type: ignore[arg-type]
    )


# --------------------------------------------------------------------------- binary data


ENDLESS = [
    ("replay", "/dev/zero"),
    ("replay", "-"),
    ("check", "-"),
    ("pay", "-"),
    ("score", "-"),
    ("analyze", "-"),
    ("fmt", "-"),
    ("settle", "/dev/zero"),
    ("standings", "/dev/zero"),
    ("review", "/dev/zero"),
    ("analyze", "/dev/zero", "--at", "1"),
    ("replay", "--jobs", "2", "/dev/zero"),
]


@pytest.mark.parametrize("args", ENDLESS if LONG else ENDLESS[:3] + ENDLESS[-2:])
def test_R2_a_stream_of_NULs_ends_at_the_first_one(args: tuple[str, ...]) -> None:
    """``/dev/zero`` never ends a line: the first NUL is binary data, said once, and reading stops."""
    with open("/dev/zero", "rb") as zero:
        p = run(*args, stdin=zero)
    assert p.returncode == 1, p.stderr
    assert b"Traceback" not in p.stderr
    assert p.stderr.count(b"binary data (a NUL byte)") == 1, p.stderr
    assert b":1:1: " in p.stderr


def test_R2_a_NUL_ends_the_record_there_and_the_hands_before_it_stand() -> None:
    text = GOOD + "\n" + GOOD.replace("Ana", "An\x00a", 3)
    hands = list(read_hands(io.StringIO(text), "x.pan"))
    good = list(read_hands(io.StringIO(GOOD), "x.pan"))
    assert [h.error for h in hands[: len(good)]] == [None] * len(good)
    last = hands[-1]
    assert last.error is not None and last.error.code == "R2"
    line = text.count("\n", 0, text.index("\x00")) + 1
    col = text.index("\x00") - text.rfind("\n", 0, text.index("\x00"))
    assert (last.error.line, last.error.col) == (line, col)
    assert last.error.message.startswith("binary data (a NUL byte)")
    # cut into chunks (replay --jobs), the same hands
    chunked = [h for c in split_hands(io.StringIO(text), 1) for h in read_chunk(c, "x.pan")]
    assert [(h.index, h.first_line, h.last_line, str(h.error)) for h in chunked] == [
        (h.index, h.first_line, h.last_line, str(h.error)) for h in hands
    ]


def test_R2_a_file_of_NULs_is_binary_data_not_UTF16(tmp_path: Path) -> None:
    zeros = tmp_path / "zeros.pan"
    zeros.write_bytes(b"\x00" * 300)
    p = run("replay", str(zeros))
    assert p.returncode == 1 and b"UTF-16" not in p.stderr
    assert b"zeros.pan:1:1: R2 binary data (a NUL byte)" in p.stderr
    wide = tmp_path / "wide.pan"
    wide.write_bytes('[Players "Ana Ben"]\n\nAna stay\n'.encode("utf-16"))
    p = run("replay", str(wide))
    assert p.returncode == 1 and b"wide.pan:1:1: R2 the file is UTF-16 text" in p.stderr
    assert b"binary data" not in p.stderr


# --------------------------------------------------------------------------- names that are not UTF-8


NOT_UTF8 = [
    ("replay", "--json"),
    ("replay", "--jsonl"),
    ("replay", "--html", "out.html"),
    ("review", "--json"),
    ("review", "--jsonl"),
    ("review", "--html", "out.html"),
    ("fmt", "--json"),
    ("analyze", "--at", "23", "--json"),
    ("analyze", "--at", "23", "--svg", "out.svg"),
    ("settle", "--jsonl"),
    ("standings", "--json"),
]


@pytest.mark.parametrize("args", NOT_UTF8 if LONG else NOT_UTF8[:1] + NOT_UTF8[2:3] + NOT_UTF8[-3:-1])
def test_a_file_name_that_is_not_UTF8_is_escaped_in_every_output(tmp_path: Path, args: tuple[str, ...]) -> None:
    """``night\\xff.pan``: Python holds the byte as a lone surrogate, which UTF-8 cannot write."""
    name = b"night\xff.pan"
    (tmp_path / os.fsdecode(name)).write_text(GOOD, encoding="utf-8")
    p = subprocess.run(
        [sys.executable, "-m", "pancli", args[0], os.fsdecode(name), *args[1:]],
        capture_output=True,
        timeout=120,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert p.returncode in (0, 1), p.stderr
    assert b"Traceback" not in p.stderr and b"udcff" not in p.stderr.lower()
    written = b"".join(f.read_bytes() for f in tmp_path.iterdir() if f.name.startswith("out."))
    shown = p.stdout + written + p.stderr
    assert args[0] == "settle" or b"night\\xff.pan" in shown or b"night\\udcff.pan" in shown
    shown.decode("utf-8")  # all of it UTF-8


def test_a_meld_that_is_not_UTF8_is_named_by_its_byte() -> None:
    p = subprocess.run(
        [sys.executable, "-m", "pancli", "check", "--json", os.fsdecode(b"5s\xff")],
        capture_output=True,
        timeout=60,
        cwd=ROOT,
    )
    assert p.returncode == 1 and b"Traceback" not in p.stderr
    assert b"found the byte \\xff, which is not UTF-8" in p.stderr


def test_ASCII_streams_with_surrogateescape_take_any_name(tmp_path: Path) -> None:
    """``PYTHONUTF8=0 LC_ALL=C``: standard streams are ASCII with surrogateescape, which fails on any
    character past ASCII; pan writes it as an escape instead."""
    (tmp_path / "nïght.pan").write_text(GOOD.replace("Ana", "José"), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONIOENCODING"}
    env.update(PYTHONUTF8="0", LC_ALL="C", PYTHONPATH=str(ROOT))
    for args in (["replay", "nïght.pan"], ["replay", "--json", "nïght.pan"], ["check", "Ä"], ["settle", "nïght.pan"]):
        p = subprocess.run(
            [sys.executable, "-m", "pancli", *args], capture_output=True, timeout=60, cwd=tmp_path, env=env
        )
        assert p.returncode in (0, 1), (args, p.stderr)
        assert b"Traceback" not in p.stderr and b"udc" not in p.stderr, args
        assert args[0] != "check" or b"found the byte \\xc3" in p.stderr  # (the bytes of Ä shown)


# --------------------------------------------------------------------------- names at the length limit


def test_atomic_write_takes_a_name_of_255_bytes(tmp_path: Path) -> None:
    from pancli.files import atomic_write

    for name in ("x" * 251 + ".pan", "é" * 127 + "x", "h" * 244):
        target = tmp_path / name
        with atomic_write(target) as out:
            out.write("5s 5s 5s\n")
        assert target.read_text() == "5s 5s 5s\n"
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []


WRITERS = [
    ("fmt", "--write", "{long}"),
    ("simulate", "--hands", "1", "-o", "{long}"),
    ("replay", "g.pan", "--html", "{long}"),
    ("review", "g.pan", "--html", "{long}"),
    ("review", "g.pan", "-o", "{long}"),
    ("analyze", "g.pan", "--at", "23", "--svg", "{long}"),
]


@pytest.mark.parametrize("args", WRITERS if LONG else WRITERS[:1] + WRITERS[-1:])
def test_every_writer_writes_a_legal_name_of_250_bytes(tmp_path: Path, args: tuple[str, ...]) -> None:
    long = "r" * 246 + ".pan"
    (tmp_path / "g.pan").write_text(GOOD, encoding="utf-8")
    (tmp_path / long).write_text(GOOD, encoding="utf-8")
    p = run(*(a.format(long=long) for a in args), cwd=tmp_path, env={"PYTHONPATH": str(ROOT)})
    assert p.returncode in (0, 1), p.stderr
    assert b"too long" not in p.stderr
    assert (tmp_path / long).stat().st_size > 0
    assert [q.name for q in tmp_path.iterdir() if q.name.endswith(".tmp")] == []


# --------------------------------------------------------------------------- output onto input


ONTO_INPUT = [
    (("analyze", "g.pan", "--at", "23", "--svg", "g.pan"), None),
    (("analyze", "-", "--at", "23", "--svg", "g.pan"), "g.pan"),
    (("replay", "-", "--html", "g.pan"), "g.pan"),
    (("review", "-", "--html", "g.pan"), "g.pan"),
    (("review", "-", "-o", "g.pan"), "g.pan"),
    (("replay", "r.pan", "--html", "h.toml"), None),
    (("review", "r.pan", "--html", "h.toml"), None),
    (("replay", "g.pan", "--rules", "h.toml", "--html", "h.toml"), None),
    (("analyze", "r.pan", "--at", "24", "--svg", "h.toml"), None),
    (("review", "g.pan", "-o", "x.pan", "--html", "x.pan"), None),
]


@pytest.mark.parametrize(("args", "stdin"), ONTO_INPUT if LONG else ONTO_INPUT[1:6] + ONTO_INPUT[-1:])
def test_an_output_onto_an_input_is_refused_and_the_input_kept(
    tmp_path: Path, args: tuple[str, ...], stdin: str | None
) -> None:
    rules = "ante = 1\n"
    (tmp_path / "g.pan").write_text(GOOD, encoding="utf-8")
    (tmp_path / "h.toml").write_text(rules, encoding="utf-8")
    (tmp_path / "r.pan").write_text('[Rules "h.toml"]\n' + GOOD.split("\n", 1)[1], encoding="utf-8")
    env = {"PYTHONPATH": str(ROOT)}
    if stdin is None:
        p = run(*args, cwd=tmp_path, env=env)
    else:
        with open(tmp_path / stdin, "rb") as given:
            p = run(*args, stdin=given, cwd=tmp_path, env=env)
    assert p.returncode == 2, p.stderr
    assert b"Traceback" not in p.stderr
    assert b"being read" in p.stderr or b"Rules tag" in p.stderr or b"--rules" in p.stderr or b"one file" in p.stderr
    assert (tmp_path / "g.pan").read_text(encoding="utf-8") == GOOD
    assert (tmp_path / "h.toml").read_text(encoding="utf-8") == rules
    assert not (tmp_path / "x.pan").exists()


def test_review_o_onto_its_own_named_record_still_rewrites_it(tmp_path: Path) -> None:
    (tmp_path / "g.pan").write_text(GOOD, encoding="utf-8")
    p = run("review", "g.pan", "-o", "g.pan", cwd=tmp_path, env={"PYTHONPATH": str(ROOT)}, timeout=120)
    assert p.returncode == 0, p.stderr
    assert "{review" in (tmp_path / "g.pan").read_text(encoding="utf-8")


# --------------------------------------------------------------------------- errors not about standard output


def _few_files(n: int) -> object:
    def limit() -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_NOFILE, (n, n))

    return limit


@pytest.mark.parametrize("files", [6, 7, 8] if LONG else [7])
def test_jobs_under_a_descriptor_limit_go_on_in_fewer_workers_and_say_so(files: int) -> None:
    """``ulimit -n 7`` with ``--jobs 2``: a worker's pipes cannot be made, so fewer workers (or pan's
    own process) do the work, with a note; the hands are all judged, as without ``--jobs``."""
    record = str(SAMPLES / "friday-hoyle.pan")
    alone = run("replay", record)
    p = run("replay", "--jobs", "2", record, preexec_fn=_few_files(files))
    assert p.returncode == alone.returncode, p.stderr
    assert p.stdout == alone.stdout
    assert b"standard output" not in p.stderr and b"Traceback" not in p.stderr
    assert b"pan: --jobs 2: cannot make worker" in p.stderr and b"Too many open files" in p.stderr


def test_a_refused_fork_leaves_the_work_to_pan_itself(monkeypatch: pytest.MonkeyPatch) -> None:
    """``ulimit -u``: fork fails with EAGAIN; the tasks are done in this process, and that is said."""
    import errno

    from pancli.app.workers import FewerWorkers, Workers
    from pancli.render.text import fewer_workers_text

    def refuse() -> int:
        raise BlockingIOError(errno.EAGAIN, "Resource temporarily unavailable")

    monkeypatch.setattr(os, "fork", refuse)
    said: list[FewerWorkers] = []
    with Workers(2, abs, int, note=said.append) as pool:
        assert [r for _, r in pool.results(range(-3, 3), abs)] == [3, 2, 1, 0, 1, 2]
    assert said == [FewerWorkers(2, 0, "Resource temporarily unavailable")]
    assert [fewer_workers_text(f) for f in said] == [
        "pan: --jobs 2: cannot make worker 1 (Resource temporarily unavailable): the work goes on in one process,"
        " pan's own"
    ]


def test_a_deleted_current_folder_is_named_not_standard_output(tmp_path: Path) -> None:
    gone = tmp_path / "gone"
    script = (
        "import os, sys; os.chdir(sys.argv[1]); os.rmdir(sys.argv[1]); sys.argv = ['pan', *sys.argv[2:]];"
        " from pancli.cli import main; main()"
    )
    record = str(SAMPLES / "friday-hoyle.pan")
    for args in (["replay", record, "--html", "o.html"], ["analyze", record, "--at", "23", "--svg", "o.svg"]):
        gone.mkdir()
        p = subprocess.run(
            [sys.executable, "-c", script, str(gone), *args], capture_output=True, timeout=60, cwd=tmp_path,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )  # fmt: skip
        assert p.returncode == 2, p.stderr
        assert b"standard output" not in p.stderr and b"Traceback" not in p.stderr
        assert b"pan: the current folder is gone" in p.stderr


def test_os_errors_name_what_failed() -> None:
    from pancli.cli import _os_failure

    assert _os_failure(OSError(24, "Too many open files")).startswith("pan: Too many open files (EMFILE)")
    site = "/usr/lib/python3/site-packages/click/core.py"
    assert _os_failure(OSError(12, "Cannot allocate memory", site)) == f"pan: out of memory (reading {site})"
    assert _os_failure(OSError(27, "File too large")) == "pan: cannot write standard output: File too large"


# --------------------------------------------------------------------------- long card lists


def _calls_to_read(text: str) -> tuple[int, list[str]]:
    """The Python calls made reading ``text`` (a count of work, never of time) and its errors."""
    calls = 0

    def count(frame: object, event: str, arg: object) -> None:
        nonlocal calls
        if event == "call":
            calls += 1

    sys.setprofile(count)
    try:
        hands = list(read_hands(io.StringIO(text), "x.pan"))
    finally:
        sys.setprofile(None)
    return calls, [str(h.error) for h in hands]


@pytest.mark.parametrize(
    "shape", ["Ana draw 5s, meld [{cards}]", "Ana draw 5s, add {cards} to #1", "Ana draw 5s, meld {cards}"]
)
def test_N10_a_card_list_is_read_to_its_65th_card_only(shape: str) -> None:
    """A list of 30,000 cards costs the reader what one of 65 does (it stopped at the 65th card),
    where it once parsed all of them, ~40 us a byte."""

    def record(n: int) -> str:
        return '[Players "Ana Ben"]\n\n' + shape.format(cards=" ".join(["5s"] * n)) + "\n"

    short, errors = _calls_to_read(record(70))
    long, long_errors = _calls_to_read(record(30_000))
    assert errors == long_errors
    assert "meld {" in shape or "N10 a card list of more than 64 cards is too long (at most 64)" in long_errors[0]
    assert long < short * 1.5, (short, long)


# --------------------------------------------------------------------------- the API


def test_PanError_is_pickled_and_copied_with_its_fields() -> None:
    import copy
    import pickle

    import pancli

    e = pancli.PanError("M3", "7c 7s 7s is not a set", 4)
    for again in (pickle.loads(pickle.dumps(e)), copy.copy(e), copy.deepcopy(e)):
        assert type(again) is pancli.PanError
        assert (again.rule, again.message, again.col, str(again)) == (e.rule, e.message, e.col, str(e))


def test_a_pool_gets_the_PanError_back_instead_of_waiting_for_ever() -> None:
    import multiprocessing

    import pancli

    with multiprocessing.get_context("fork").Pool(1) as pool:
        waiting = pool.map_async(pancli.check_meld, ["5s 5s 5s", None])  # type: ignore[list-item]
        with pytest.raises(pancli.PanError) as caught:
            waiting.get(timeout=60)  # (a guard only: it fails at once, or hung for ever before)
    assert caught.value.rule == "N3"


@pytest.mark.parametrize("hand", [Path("/dev/zero"), "a" * 300, Path("a" * 300), "/", Path("/"), "a\x00b"])
def test_referee_hand_raises_only_PanError_and_reads_within_the_records_bounds(hand: object) -> None:
    import pancli

    with pytest.raises(pancli.PanError) as caught:
        pancli.referee_hand(hand)  # type: ignore[arg-type]
    assert caught.value.rule in ("R1", "R2")
    assert len(str(caught.value)) < 400


# --------------------------------------------------------------------------- out of memory


def _address_space(megabytes: int) -> object:
    def limit() -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (megabytes << 20, megabytes << 20))

    return limit


@pytest.mark.parametrize("megabytes", [26, 27, 32, 41, 63] if LONG else [27, 41])
def test_a_memory_limit_too_small_to_run_in_ends_at_once_with_status_2(megabytes: int) -> None:
    """Under ``ulimit -v`` of 26-41 MB, ``analyze --advice`` ran out of memory where Python cannot
    report it (a fatal error, SIGSEGV, SIGABRT) or spun; pan now ends before it starts, and says why."""
    p = run("analyze", "--advice", "5s 5s 5s 6h 7h Jc Qc Kc 2d 3d", preexec_fn=_address_space(megabytes))
    assert p.returncode == 2, p.stderr
    assert p.stderr.startswith(b"pan: out of memory") and b"ulimit -v" in p.stderr
    assert p.stderr.count(b"\n") == 1 and p.stdout == b""


def test_running_out_of_memory_later_frees_the_reserve_and_ends_at_once() -> None:
    """A MemoryError from the work: the message, written without allocating, then status 2 at once
    (no cleanup that could fail again, no second traceback)."""
    code = (
        "import sys; sys.argv = ['pan', 'check', '5sss']; import pancli.cli as c\n"
        "def eat(**k):\n    held = []\n    while True: held.append(bytearray(1 << 22))\n"
        "c.cli.main = eat; c.main()"
    )
    p = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, cwd=ROOT, timeout=120, preexec_fn=_address_space(200)
    )
    assert (p.returncode, p.stderr) == (2, b"pan: out of memory\n")


# --------------------------------------------------------------------------- small ones


def test_a_tiny_stake_prints_as_written_and_no_money_is_negative_zero(tmp_path: Path) -> None:
    from cli_kit import pan

    tiny = '[Players "Ana Ben"]\n[Stake "0.000000001"]\n\nAna stay\nBen stay\n'
    got = pan("replay", "-", input=tiny)
    assert "money (stake 0.000000001)" in got.stdout and "E-" not in got.stdout
    zero = GOOD.replace('[Stake "0.25"]', '[Stake "0.0"]')
    assert '[Stake "0.0"]' in zero
    got = pan("replay", "--json", "-", input=zero)
    assert '"-0' not in got.stdout and '"0.0"' in got.stdout
    got = pan("settle", "--default-stake", "0.000000001", "-", input=tiny.replace('[Stake "0.000000001"]\n', ""))
    assert "E-" not in got.stdout + got.stderr


def test_one_file_given_twice_is_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "a.pan").write_text(GOOD, encoding="utf-8")
    (tmp_path / "link.pan").symlink_to(tmp_path / "a.pan")
    env = {"PYTHONPATH": str(ROOT)}
    for args in (["a.pan", "a.pan"], ["a.pan", "./a.pan"], ["a.pan", "link.pan"]):
        p = run("settle", *args, cwd=tmp_path, env=env)
        assert p.returncode == 2 and b"name one file: give it once" in p.stderr, args
        assert p.stdout == b""
    with open(tmp_path / "a.pan", "rb") as given:
        p = run("replay", "a.pan", "-", stdin=given, cwd=tmp_path, env=env)
    assert p.returncode == 2 and b"a.pan is standard input: give it once" in p.stderr


def test_R2_settle_warns_of_look_alike_names_across_files(tmp_path: Path) -> None:
    from cli_kit import pan

    for i, name in enumerate(["Ana", "ana", "\uff21na"]):
        text = f'[Players "{name} Ben"]\n[Stake "1"]\n\n{name} stay\nBen stay\n'
        (tmp_path / f"a{i}.pan").write_text(text, encoding="utf-8")
    got = pan("settle", *(str(tmp_path / f"a{i}.pan") for i in range(3)))
    warned = [line for line in got.stderr.splitlines() if "look alike" in line]
    assert len(warned) == 2 and all(line.startswith("pan settle: R2 warning: ") for line in warned)
    assert "'ana'" in warned[0] and "'Ana'" in warned[0] and "'\uff21na'" in warned[1]


@pytest.mark.parametrize("option", ["--html", "--svg", "-o"])
def test_an_output_name_that_starts_with_a_dash_is_refused(tmp_path: Path, option: str) -> None:
    from cli_kit import pan

    command = {"--html": ["replay"], "--svg": ["analyze", "--at", "23"], "-o": ["review"]}[option]
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        got = pan(*command, option, "--json", str(SAMPLES / "friday-hoyle.pan"))
    finally:
        os.chdir(cwd)
    assert got.exit_code == 2 and "looks like an option" in got.stderr
    assert not (tmp_path / "--json").exists()


@pytest.mark.parametrize(
    "args",
    [
        ("check", "--json", "5sss", "7c7s7s", "6sss"),
        ("replay", "--json", str(SAMPLES / "illegal-P8-forcing.pan"), str(SAMPLES / "friday-hoyle.pan")),
        ("simulate", "--json", "--hands", "2"),
        ("fmt", "--json", str(SAMPLES / "friday-hoyle.pan"), str(SAMPLES / "illegal-P8-forcing.pan")),
    ],
)
def test_every_line_of_standard_output_is_written_with_its_newline(args: tuple[str, ...]) -> None:
    """Under ``2>&1`` an error line lands between two lines of output, never inside one: every
    write to standard output ends with a newline (a JSON list's last item once waited for its
    comma, or the list's end, without it)."""
    code = """
import io, os, sys
class Raw(io.RawIOBase):
    def writable(self): return True
    def write(self, b):
        b = bytes(b)
        os.write(1, b)
        os.write(2, b"WRITE-ENDS-" + (b"NEWLINE" if b.endswith(b"\\n") else b"INSIDE-A-LINE") + b"\\n")
        return len(b)
sys.stdout = io.TextIOWrapper(io.BufferedWriter(Raw()), encoding="utf-8")
sys.argv = ["pan", *sys.argv[1:]]
from pancli.cli import main
main()
"""
    p = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, timeout=120, cwd=ROOT)
    ends = [line for line in p.stderr.decode().splitlines() if line.startswith("WRITE-ENDS-")]
    assert ends and set(ends) == {"WRITE-ENDS-NEWLINE"}, (ends, p.stderr[-300:])


def test_R2_binary_data_in_a_hand_already_malformed_is_still_said() -> None:
    text = '[Players "Ana Ben"]\n\nAna jump\nBen stay\nAna st\x00ay\nBen stay\n'
    hands = list(read_hands(io.StringIO(text), "x.pan"))
    assert [(h.error.code, h.error.line) for h in hands if h.error] == [("R6", 3), ("R2", 5)]
    assert hands[-1].error is not None and hands[-1].error.message.startswith("binary data")


def test_completion_never_lets_a_file_name_inject_an_item(tmp_path: Path) -> None:
    """A ``.toml`` name holding a line end would read as two items (the second one made up by the
    name); a name with a space is given to bash quoted, as it is to be typed."""
    (tmp_path / "evil\nplain,x.toml").write_text("")
    (tmp_path / "my rules.toml").write_text("")
    (tmp_path / "ok.toml").write_text("")
    env = {**os.environ, "_PAN_COMPLETE": "bash_complete", "COMP_WORDS": "pan check --rules ", "COMP_CWORD": "3"}
    p = subprocess.run([sys.executable, "-m", "pancli"], capture_output=True, env=env, cwd=tmp_path, timeout=60)
    items = p.stdout.decode().splitlines()
    assert items == ["plain,hoyle", "plain,cardroom", "plain,'my rules.toml'", "plain,ok.toml"], items


def test_completion_with_a_word_number_that_is_no_number_is_a_message(tmp_path: Path) -> None:
    env = {**os.environ, "_PAN_COMPLETE": "bash_complete", "COMP_WORDS": "pan check ", "COMP_CWORD": "abc"}
    p = subprocess.run([sys.executable, "-m", "pancli"], capture_output=True, env=env, cwd=ROOT, timeout=60)
    assert p.returncode == 2 and b"Traceback" not in p.stderr
    assert p.stderr == b"pan: shell completion: COMP_CWORD is not a word number\n"


@pytest.mark.parametrize("step", ["_guard_streams", "_enough_memory", "_completion_request"])
def test_a_hangup_while_pan_sets_up_ends_it_quietly(step: str) -> None:
    """A signal that comes after pan's handler is set but before the command runs (its streams,
    the memory check) ends pan with 128 + the signal and no traceback, as one that comes later."""
    code = f"import os, signal, pancli.cli as c\nc.{step} = lambda: os.kill(os.getpid(), signal.SIGHUP)\nc.main()\n"
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=60)
    assert p.returncode == 128 + signal.SIGHUP and b"Traceback" not in p.stderr, p.stderr


_FINALIZER_SIGNAL = """\
import os, signal, sys, pancli.cli as c
class Held:
    def __del__(self):
        os.kill(os.getpid(), signal.SIGTERM)  # handled while this finalizer still runs
        for _ in range(1000):
            pass
def command(**_):
    Held()
    {then}
c.cli.main = command
c.main()
"""


@pytest.mark.parametrize(
    "then", ["sys.stdout.write('done')", "sys.stdin.read()"], ids=["the command ends", "the command waits on input"]
)
def test_a_signal_that_lands_in_a_finalizer_still_ends_pan_quietly(then: str) -> None:
    """A signal handled inside a finalizer (``__del__``, a generator the collector closes) cannot
    raise out of it: Python printed "Exception ignored in ... Traceback" and pan went on, or waited
    on its open input for good. The signal comes again and pan ends with 143 and nothing on stderr."""
    code = _FINALIZER_SIGNAL.format(then=then)
    p = subprocess.Popen(
        [sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert p.stdin is not None and p.stderr is not None
    try:
        status = p.wait(timeout=60)  # the input stays open until pan has ended
        err = p.stderr.read()
    finally:
        p.kill()
        p.stdin.close()
    assert (status, err) == (128 + signal.SIGTERM, b""), err


_LATE_SIGNAL = """\
import atexit, os, signal, sys, time, pancli.cli as c
def late():
    os.kill(os.getpid(), signal.{name})
    time.sleep(0.05)  # the interpreter's exit goes on: the signal is taken up (or not) meanwhile
    os.write(1, b"the exit went on\\n")
atexit.register(late)
sys.argv = ["pan", "check", "5s 5s 5s"]
c.main()
"""


@pytest.mark.parametrize("name", ["SIGHUP", "SIGTERM", "SIGINT"])
def test_a_signal_once_pan_has_ended_changes_neither_its_status_nor_its_silence(name: str) -> None:
    """A signal that comes when the command is done and the interpreter exits cut short the exit's
    own clean-up (an atexit function, a finalizer), where it could not propagate; pan took it up
    again by a timer, which could go off once Python had put back the default handlers ("Alarm
    clock", status -SIGALRM). How pan ends is decided then: the signal is held, and dropped."""
    p = subprocess.run([sys.executable, "-c", _LATE_SIGNAL.format(name=name)], capture_output=True, timeout=60)
    assert (p.returncode, p.stderr) == (0, b""), p.stderr
    assert p.stdout.split(b"\t")[:2] == [b"5s 5s 5s", b"legal"]
    assert p.stdout.endswith(b"\nthe exit went on\n")


_SECOND_SIGNAL = """\
import errno, os, signal, sys, pancli.cli as c
def command(**_):
    {ends}
def reporting():
    os.kill(os.getpid(), signal.SIGTERM)  # a second signal, while pan reports how it ended
    for _ in range(1000):
        pass
c.cli.main = command
c._silence_stdout = reporting
c.main()
"""


@pytest.mark.parametrize(
    ("ends", "status"),
    [
        ("os.kill(os.getpid(), signal.SIGHUP)\n    for _ in range(1000): pass", 128 + signal.SIGHUP),
        ("raise c.PipeClosed", 128 + signal.SIGTERM),
        ("raise OSError(errno.ENOSPC, 'No space left on device')", 128 + signal.SIGTERM),
    ],
    ids=["stopped by a signal", "a closed pipe", "output failed"],
)
def test_a_signal_while_pan_reports_how_it_ended_is_no_traceback(ends: str, status: int) -> None:
    """``kill`` after Ctrl-C, SIGTERM with SIGHUP (a closed terminal, systemd), or a signal just as
    a closed pipe is reported: it landed in the code that reports the first ending, outside any
    handler ("During handling of the above exception ... Traceback", status 1). The first
    signal's ending stands; one that comes while another ending is reported ends pan stopped."""
    p = subprocess.run([sys.executable, "-c", _SECOND_SIGNAL.format(ends=ends)], capture_output=True, timeout=60)
    assert (p.returncode, p.stderr) == (status, b""), p.stderr


_SIGNAL_IN_CLEAN_UP = """\
import os, signal, sys, pancli.cli as c
from pancli.files import atomic_write
unlink = os.unlink
def unlink_once_signalled(path):
    os.kill(os.getpid(), signal.SIGTERM)  # a second signal, as the temporary file is being removed
    for _ in range(1000):
        pass
    unlink(path)
def command(**_):
    with atomic_write(sys.argv[1]) as out:
        out.write("new\\n")
        os.unlink = unlink_once_signalled
        os.kill(os.getpid(), signal.SIGHUP)
        for _ in range(1000):
            pass
c.cli.main = command
c.main()
"""


def test_a_second_signal_does_not_cut_short_the_clean_up_of_the_first(tmp_path: Path) -> None:
    """The first signal's clean-up (the temporary file removed, workers reaped) runs to its end:
    a second one landed in it and left ``.out.pan.XXXX.tmp`` behind."""
    target = tmp_path / "out.pan"
    target.write_text("old\n", encoding="utf-8")
    p = subprocess.run([sys.executable, "-c", _SIGNAL_IN_CLEAN_UP, str(target)], capture_output=True, timeout=60)
    assert (p.returncode, p.stderr) == (128 + signal.SIGHUP, b""), p.stderr
    assert sorted(f.name for f in tmp_path.iterdir()) == ["out.pan"]
    assert target.read_text(encoding="utf-8") == "old\n"
