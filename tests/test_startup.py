"""Start-up stays light: what each command imports, and ``pan --help`` without any command module.

This is the one test of start-up imports: a command that needs a heavy module on a path
listed here is a slower cold start for every user of that path (benchmarks/bench_startup.py).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import click
import pytest
from cli_kit import ROOT

from pancli.cli import COMMANDS, LazyGroup, cli

SMALL = "samples/illegal-T1-decision-order.pan"
HAND = "5s 5s 5s 3h 4h Kd Kh Kc 2c 7d"


def launcher(report: str, before: str = "") -> str:
    """A script that runs ``pan ARGS`` in this process after ``before`` and writes ``report``
    (a Python expression) to standard error, however the command ends."""
    return f"""
import sys
{before}
sys.argv = ['pan', *sys.argv[1:]]
from pancli.cli import main
try:
    main()
except SystemExit:
    pass
finally:
    sys.stderr.write({report})
"""


RUN = launcher("'\\nMODULES ' + ' '.join(sorted(sys.modules)) + '\\n'")

ENGINES = ("pancli.referee", "pancli.analyze", "pancli.pagruc.referee", "pancli.notation.record_grammar")
UI = ("rich", "pyparsing")
# only with a "did you mean" / a file written (-o) (decimal comes with msgspec, signal with main())
STDLIB = ("difflib", "tempfile")
PAGRUC_FILE = "samples/pagruc-common-room.pan"
ADVICE = "pancli.analyze.advice"  # only with --advice
READER = "pancli.records.reader"
RENDER = ("pancli.render.plain", "pancli.render.words", "pancli.notation.record_writer")  # a hand's text
# the rule registry, the JSON encoder and the analyzer's meld space: only the paths that cite, write or search
LIGHT = ("pancli.rulebook", "pancli.jsontext", "pancli.meldspace")
# pathlib (with urllib.parse and ipaddress) only where a path is handled: a house-rules file, a record
PATHS = ("pathlib",)
# C extensions (a shared library each) and copy (which looks for Jython's org.python.core on every path
# entry) only where they are used: a name past ASCII, random's (self-play, sampling), a table taken back;
# importlib.util only for the command list
LOADED_LATE = ("unicodedata", "bisect", "copy", "importlib.util")
# the JSON encoder and the list writer only where JSON is written (simulate's and settle's text without)
JSON_WRITER = ("pancli.jsontext", "pancli.render.stream")

# command line -> module prefixes it must not import (output to a pipe, canonical input). Every
# command has a case (test below): the lighter its path, the more it lists.
CASES: dict[str, tuple[list[str], tuple[str, ...]]] = {
    "help": (
        ["--help"],
        (*UI, "json", *STDLIB, *ENGINES, "pancli.melds", "pancli.model", *(m for m, _, _ in COMMANDS.values())),
    ),
    "check": (
        ["check", "5s 5s 5s"],
        (
            *UI,
            "json",
            *STDLIB,
            *ENGINES,
            *LIGHT,
            *PATHS,
            *LOADED_LATE,
            "pancli.model",
            "pancli.pagruc",
            "pancli.records",
        ),
    ),
    "check --game pagruc": (
        ["check", "--game", "pagruc", "Ah 2h 3h"],
        (
            *UI,
            "json",
            *STDLIB,
            *ENGINES,
            *PATHS,
            "pancli.jsontext",
            "pancli.meldspace",
            "pancli.model",
            "pancli.records",
        ),
    ),
    "pay canonical": (
        ["pay", "5s 5s 5s", "3h 4h 5h", "--players", "6"],
        (*UI, "json", *STDLIB, *ENGINES, *LIGHT, *PATHS, "pancli.model", "pancli.records"),
    ),
    # a letter shorthand is read by the fast path: no grammar (pyparsing)
    "pay shorthand": (
        ["pay", "5sss", "3-5h", "--players", "6"],
        (*UI, "json", *STDLIB, *ENGINES, *LIGHT, *PATHS, "pancli.notation.grammar", "pancli.model", "pancli.records"),
    ),
    "check shorthand": (
        ["check", "5sss", "3-5h"],
        (*UI, "json", *STDLIB, *ENGINES, *LIGHT, *PATHS, "pancli.notation.grammar", "pancli.model", "pancli.records"),
    ),
    "rules": (["rules"], (*UI, "json", *STDLIB, *ENGINES, *PATHS, "pancli.jsontext", "pancli.melds", "pancli.model")),
    # the example's replay line is read from rule_examples.tsv: no reader, no referee
    "rules RULE": (["rules", "P8"], (*UI, "json", *STDLIB, *ENGINES, "pancli.jsontext", "pancli.model", READER)),
    "replay": (["replay", SMALL], (*UI, "json", *STDLIB, *LOADED_LATE, "pancli.analyze", "pancli.pagruc")),
    # --jsonl's step events (their tables of the 52 cards) and a worker's HandObjects: not --json's in one
    # process; the standard-error line of its violation without the plain text exporter of a hand
    "replay --json": (
        ["replay", "--json", SMALL],
        (
            *UI,
            *STDLIB,
            *LOADED_LATE,
            "pancli.analyze",
            "pancli.pagruc",
            "pancli.render.json_steps",
            "pancli.render.plain",
            "pancli.notation.cells",
        ),
    ),
    # a PAGRUC hand loads no Panguingue meld engine (MeldError is in pancli.rules), its turn lines with
    # comments no bisect, a hand without notes no Panguingue words
    "replay PAGRUC": (
        ["replay", PAGRUC_FILE],
        (*UI, "json", *STDLIB, "pancli.analyze", "pancli.referee", "pancli.melds", "bisect", "pancli.render.words"),
    ),
    "fmt": (["fmt", SMALL], (*UI, "json", *STDLIB, *ENGINES)),
    "simulate": (
        ["simulate", "--hands", "1"],
        # self-play's widest melds are its own: the analyzer's meld space is not loaded
        (*UI, "json", *STDLIB, *JSON_WRITER, "pancli.analyze", "pancli.pagruc", "pancli.records", "pancli.meldspace"),
    ),
    "analyze": (
        ["analyze", "--samples", "20", HAND],
        (
            *UI,
            "json",
            *STDLIB,
            "pancli.referee",
            "pancli.pagruc",
            "pancli.records",
            "pancli.model",
            "pancli.analyze.advice",
            *PATHS,
            "dataclasses",  # (the search's positions are a class of their own)
        ),
    ),
    # the reviewer asks the referee and the analyzer (its advice too), writes the record's text; json only
    # carries a worker's reviews (--jobs), imported with the module
    "review": (
        ["review", "--samples", "20", "--advice-samples", "10", SMALL],
        (*UI, *STDLIB, "pancli.pagruc"),
    ),
    "score": (
        ["score", "--game", "pagruc", "[5h 6h 7h] [Ac Ad As] | Ks Ah"],
        (*UI, "json", *STDLIB, *ENGINES, "pancli.jsontext", "pancli.meldspace", "pancli.records"),
    ),
    "standings": (
        ["standings", PAGRUC_FILE],
        (*UI, "json", *STDLIB, "pancli.referee", "pancli.analyze", "pancli.melds", "bisect"),
    ),
    # (decimal: a sitting's transfers are exact amounts, units too); no hand's text is written
    "settle": (
        ["settle", SMALL],
        (*UI, "json", "difflib", "tempfile", *LOADED_LATE, *JSON_WRITER, "pancli.analyze", "pancli.pagruc", *RENDER),
    ),
    "samples": (
        ["samples"],
        (*UI, "json", *STDLIB, *ENGINES, *LIGHT, "pancli.pagruc", "pancli.model", "pancli.records.reader"),
    ),
    # (click's shell_completion imports signal)
    "completion": (
        ["completion", "bash"],
        (*UI, "json", *(m for m in STDLIB if m != "signal"), *ENGINES, "pancli.cards", "pancli.model"),
    ),
    # the full-screen view (Textual) only on a terminal: its help and the line mode never load it
    "live --help": (["live", "--help"], ("textual", *UI, "json", *STDLIB, *ENGINES, "pancli.records")),
    "score --help": (["score", "--help"], (*UI, "json", *STDLIB, *ENGINES)),
    "analyze --help": (
        ["analyze", "--help"],
        (*UI, "json", *STDLIB, *ENGINES, *LIGHT, *PATHS, "pancli.model", "pancli.records"),
    ),
    "standings --help": (["standings", "--help"], (*UI, "json", *STDLIB, "pancli.referee", "pancli.analyze")),
}


def imported(argv: list[str]) -> set[str]:
    p = subprocess.run([sys.executable, "-c", RUN, *argv], capture_output=True, text=True, cwd=ROOT, check=False)
    assert "MODULES " in p.stderr, p.stderr
    return set(p.stderr.rsplit("MODULES ", 1)[1].split())


@pytest.mark.parametrize("case", list(CASES))
def test_each_command_imports_no_heavy_module_it_does_not_need(case: str) -> None:
    argv, forbidden = CASES[case]
    mods = imported(argv)
    bad = sorted(m for m in mods if any(m == f or m.startswith(f + ".") for f in forbidden))
    assert not bad, f"pan {' '.join(argv)} imports {bad}"


# command line -> at most this many of pan's own modules: each costs its start-up before its first
# line runs (finding, reading, unmarshalling it; benchmarks/README.md), so the referee's rule
# families are one module (referee/play.py), the seats and the board another, the model's ruling
# and ledger are in model/results.py
MODULE_COUNTS: dict[str, tuple[list[str], int]] = {
    "replay": (["replay", SMALL], 42),
    "settle": (["settle", SMALL], 39),
    "simulate": (["simulate", "--hands", "1"], 34),
}


@pytest.mark.parametrize("case", list(MODULE_COUNTS))
def test_a_command_loads_few_modules_of_pan(case: str) -> None:
    argv, most = MODULE_COUNTS[case]
    own = sorted(m for m in imported(argv) if m == "pancli" or m.startswith("pancli."))
    assert len(own) <= most, f"pan {' '.join(argv)} loads {len(own)} of pan's modules: {own}"


CLASSES = launcher(
    "'\\nCLASSES ' + ' '.join(sorted({k for n, m in list(sys.modules.items()) if n.startswith('pancli')"
    " for k, v in vars(m).items() if isinstance(v, type) and v.__module__ == n})) + '\\n'"
)

# command line -> classes of pan it must not make: each class costs start-up (a Struct about 0.12 M
# instructions, an enum 0.4 M and more: benchmarks/README.md), wherever it is defined
CLASSES_NOT_MADE: dict[str, tuple[list[str], tuple[str, ...]]] = {
    # --jsonl's step events and a worker's hand objects (with the step tables of the 52 cards)
    "replay --json": (["replay", "--json", SMALL], ("StepEvent", "Move", "HandObjects")),
}


@pytest.mark.parametrize("case", list(CLASSES_NOT_MADE))
def test_a_command_makes_no_class_it_does_not_use(case: str) -> None:
    argv, forbidden = CLASSES_NOT_MADE[case]
    p = subprocess.run([sys.executable, "-c", CLASSES, *argv], capture_output=True, text=True, cwd=ROOT, check=False)
    assert "CLASSES " in p.stderr, p.stderr
    made = set(p.stderr.rsplit("CLASSES ", 1)[1].split())
    assert "HandItem" in made, "the count sees no class of pan at all"
    assert not made & set(forbidden), f"pan {' '.join(argv)} makes {sorted(made & set(forbidden))}"


SPELLINGS = launcher("'\\nSPELLINGS ' + str(sys.modules['pancli.notation.fast']._usual.cache_info().currsize) + '\\n'")


@pytest.mark.parametrize(("argv", "built"), [(["replay", PAGRUC_FILE], 1), (["replay", SMALL], 1)])
def test_E1_G1_a_record_builds_the_spellings_of_its_own_game_s_pack_only(argv: list[str], built: int) -> None:
    """The token table of a game's usual pack (every spelling of every card) costs start-up: a
    PAGRUC record builds PAGRUC's, not Panguingue's too."""
    p = subprocess.run([sys.executable, "-c", SPELLINGS, *argv], capture_output=True, text=True, cwd=ROOT, check=False)
    assert "SPELLINGS " in p.stderr, p.stderr
    assert int(p.stderr.rsplit("SPELLINGS ", 1)[1]) == built


COMPILES = launcher(
    "'\\nCOMPILED ' + repr(compiled) + '\\n'",
    """
import re
compiled = []


def counting(use):
    # a pattern's text given to any of re's functions is compiled by re at its first use
    def counted(pattern, *args, **kwargs):
        compiled.append(pattern)
        return use(pattern, *args, **kwargs)

    return counted


for name in ("compile", "search", "match", "fullmatch", "finditer", "findall", "sub", "split"):
    setattr(re, name, counting(getattr(re, name)))
""",
)


@pytest.mark.parametrize("argv", [["replay", SMALL], ["replay", "--json", SMALL], ["check", "--json", "5s 5s 5s"]])
def test_an_ascii_input_compiles_no_pattern_of_text_past_ascii(argv: list[str]) -> None:
    """The patterns for characters past ASCII (a name's invisible characters, the JSON output's
    escapes, a record's bytes that are not UTF-8) have wide ranges, slow to compile: re compiles
    them when such text first comes."""
    import ast

    from pancli.escapes import UNDECODED
    from pancli.jsontext import _MARKED, _RAW
    from pancli.notation.record_common import DEFAULT_IGNORABLE

    p = subprocess.run([sys.executable, "-c", COMPILES, *argv], capture_output=True, text=True, cwd=ROOT, check=False)
    assert "COMPILED " in p.stderr, p.stderr
    compiled = ast.literal_eval(p.stderr.rsplit("COMPILED ", 1)[1].strip())
    assert compiled, "no pattern compiled at all: the count does not see re.compile"
    # (texts, or patterns once; UNDECODED: a byte that is not UTF-8, which a record's reader looks for)
    wide = {getattr(p, "pattern", p) for p in (DEFAULT_IGNORABLE, _RAW, _MARKED, UNDECODED)}
    assert not wide & set(compiled)


EXIT_RUN = """
import sys
sys.argv = ['pan', *sys.argv[1:]]
if sys.argv[1] == 'PLAIN':  # the plain path: gc as Python sets it, no gc.freeze() at the end of main()
    import gc
    gc.freeze = lambda: None
    gc.set_threshold = lambda *thresholds: None
    gc.disable = lambda: None
    del sys.argv[1]
from pancli.__main__ import main
main()
"""


@pytest.mark.parametrize(
    "argv",
    [["replay", SMALL], ["standings", PAGRUC_FILE], ["check", "5s 5s 5s", "7c 7s 7s"], ["simulate", "--hands", "2"]],
)
def test_pan_s_collector_settings_change_nothing_written(argv: list[str], tmp_path: Path) -> None:
    """pan loads its modules with the collector off and freezes them, and main() ends with
    gc.freeze() (the interpreter's last collection need not walk what pan loaded): the same
    output, exit code and file as with Python's own settings."""
    runs = []
    for mode in ("PLAIN", "FROZEN"):
        out = tmp_path / f"{mode}.pan"
        extra = ["-o", str(out)] if argv[0] == "simulate" else []
        args = [*(["PLAIN"] if mode == "PLAIN" else []), *argv, *extra]
        p = subprocess.run([sys.executable, "-c", EXIT_RUN, *args], capture_output=True, cwd=ROOT, check=False)
        runs.append((p.returncode, p.stdout, p.stderr, out.read_bytes() if extra else b""))
    assert runs[0] == runs[1] and (runs[0][1] or runs[0][3])


END_RUN = """
import os, sys
sys.argv = ['pan', *sys.argv[2:]]
import pancli.cli


class TornDown:  # a module's object, freed by the interpreter's teardown
    def __del__(self):
        os.write(2, b"TORN DOWN\\n")


pancli.cli.torn_down = TornDown()
if {mode!r} == 'ATEXIT':
    import atexit
    atexit.register(os.write, 2, b"AT EXIT\\n")
elif {mode!r} == 'THREAD':
    import threading
    done = threading.Event()  # the thread outlives the command however long the command takes
    threading.Thread(target=lambda: (done.wait(60), os.write(2, b"THREAD\\n"))).start()
from pancli.__main__ import main
try:
    main()
finally:
    if {mode!r} == 'THREAD':
        done.set()
"""


@pytest.mark.parametrize(("mode", "torn_down"), [("FAST", False), ("ATEXIT", True), ("THREAD", True)])
@pytest.mark.parametrize(("argv", "status"), [(["check", "5s 5s 5s"], 0), (["check", "7c 7s 7s"], 1)])
def test_pan_ends_without_the_interpreter_s_teardown_unless_it_has_work(
    mode: str, torn_down: bool, argv: list[str], status: int
) -> None:
    """The ``pan`` program ends at once when its command is done (the teardown of every module is
    about 7 M instructions: benchmarks/README.md), with the command's status and output; with a
    function registered with atexit, or a thread still running, Python's own end runs them."""
    code = END_RUN.format(mode=mode)
    p = subprocess.run(
        [sys.executable, "-c", code, mode, *argv], capture_output=True, cwd=ROOT, check=False, timeout=60
    )
    assert p.returncode == status, p.stderr
    assert p.stdout.startswith(argv[1].encode()), p.stdout
    assert (b"TORN DOWN" in p.stderr) == torn_down, p.stderr
    assert (b"AT EXIT" in p.stderr) == (mode == "ATEXIT") and (b"THREAD" in p.stderr) == (mode == "THREAD")


def test_every_command_has_a_case() -> None:
    assert set(COMMANDS) <= {argv[0] for argv, _ in CASES.values()}


def test_every_command_line_the_start_up_benchmark_times_has_a_case() -> None:
    """benchmarks/bench_startup.py times these command lines; each is a case above, word for word."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("bench_startup", ROOT / "benchmarks" / "bench_startup.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    cased = [argv for argv, _ in CASES.values()]
    assert [name for name, argv in bench.COMMANDS if argv not in cased] == []


@pytest.mark.parametrize("width", [50, 80, 200])
def test_help_lists_every_command_with_its_real_short_help(width: int) -> None:
    """``pan --help`` writes the command list from COMMANDS exactly as click would from the commands."""
    ctx = click.Context(cli, terminal_width=width)
    lazy, eager = click.HelpFormatter(width=width), click.HelpFormatter(width=width)
    LazyGroup.format_commands(cli, ctx, lazy)
    click.Group.format_commands(cli, ctx, eager)  # imports every command module
    assert lazy.getvalue() == eager.getvalue()
    for name, (_, _, short) in COMMANDS.items():
        real = cli.get_command(ctx, name)
        assert real is not None and real.name == name
        assert click.Command(name, help=short).get_short_help_str(10_000) == real.get_short_help_str(10_000), name


LOAD_COLLECTIONS = """
import gc, sys
threshold = gc.get_threshold()
started = []
gc.callbacks.append(lambda phase, info: started.append(info["generation"]) if phase == "start" else None)
if sys.argv[1] == "program":
    from pancli.__main__ import load
    load()
else:
    import pancli.cli
collections = len(started)
sys.stderr.write(f"COLLECTIONS {collections} ENABLED {gc.isenabled()} FROZEN {gc.get_freeze_count() > 10_000}")
sys.stderr.write(f" THRESHOLD {gc.get_threshold()[0]} KEPT {gc.get_threshold() == threshold}")
"""


def _loaded(how: str) -> str:
    """The collector's record of loading the command line ``how``: as the ``pan`` program, or imported.
    (Run twice with .pyc files written: compiling a changed module collects, before pan's first line.)"""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    for _ in range(2):
        p = subprocess.run(
            [sys.executable, "-c", LOAD_COLLECTIONS, how],
            capture_output=True,
            text=True,
            cwd=ROOT,
            env=env,
            check=False,
        )
    return p.stderr


def test_pan_s_modules_load_without_a_collection_and_leave_the_collector_on() -> None:
    """The ``pan`` program loads its modules (click, typing and the rest) with no collection
    walking them; they are frozen out of later ones and the collector runs again after."""
    loaded = _loaded("program")
    assert loaded.endswith("COLLECTIONS 0 ENABLED True FROZEN True THRESHOLD 10000 KEPT False"), loaded


def test_importing_the_command_line_leaves_the_host_s_collector_as_it_was() -> None:
    """A program or a test that imports :mod:`pancli.cli` keeps Python's collector: nothing
    frozen, its own thresholds (the settings are the ``pan`` program's)."""
    loaded = _loaded("imported")
    assert "ENABLED True FROZEN False" in loaded and loaded.endswith("KEPT True"), loaded  # (700, or 3.13's 2000)


def test_a_record_without_claims_or_money_compiles_none_of_their_patterns_as_pan_starts() -> None:
    """The reader's patterns of what a record may hold (a ``[%pays N]`` claim, a Stake, Packs or
    Ledger tag, a quoted string in a comment, a name past plain letters, a comment running over
    lines) are compiled by re when the first such line comes, not when their modules load."""
    import ast

    from pancli.notation.record_common import _STRING
    from pancli.records.reader import _PAYS, _TAG_START
    from pancli.records.tags import _COUNT, _STAKE

    p = subprocess.run(
        [sys.executable, "-c", COMPILES, "replay", SMALL], capture_output=True, text=True, cwd=ROOT, check=False
    )
    assert "COMPILED " in p.stderr, p.stderr
    compiled = ast.literal_eval(p.stderr.rsplit("COMPILED ", 1)[1].strip())
    lazy = (_PAYS, _TAG_START, _STAKE, _COUNT, _STRING)
    assert not {getattr(p, "pattern", p) for p in lazy} & set(compiled)


READ_WITHOUT_PATTERNS = (
    r'\[([A-Za-z][A-Za-z0-9_]*) "([^"\\\n]*)"\] *',  # a tag line
    r"\S+",  # the names of Players
    r'[{};"]',  # the comment lexer's stops
    r"[^\s,;]+|[,;]",  # the words of a Ledger
    r"[+-]?[0-9]+",  # its units
)
"""Patterns the record reader once compiled in every replay (about 1.7 M instructions of
start-up for a PAGRUC record with its Ledger tags), now string methods."""


@pytest.mark.parametrize("argv", [["replay", SMALL], ["replay", PAGRUC_FILE], ["standings", PAGRUC_FILE]])
def test_R1_tags_names_ledgers_and_comments_are_read_without_compiling_a_pattern(argv: list[str]) -> None:
    import ast

    p = subprocess.run([sys.executable, "-c", COMPILES, *argv], capture_output=True, text=True, cwd=ROOT, check=False)
    assert "COMPILED " in p.stderr, p.stderr
    compiled = ast.literal_eval(p.stderr.rsplit("COMPILED ", 1)[1].strip())
    assert compiled, "no pattern compiled at all: the count does not see re.compile"
    assert not set(READ_WITHOUT_PATTERNS) & {getattr(c, "pattern", c) for c in compiled}
