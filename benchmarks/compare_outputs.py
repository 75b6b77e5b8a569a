"""Every command, in every mode, over every shipped sample, run with two source trees: what differs.

A refactor must not change what pan prints. This runs the same command lines with this tree's
``pancli`` and with another tree's (a checkout of the previous main) and reports every
difference of exit status, standard output, standard error and of the files a command writes
(``--html``, ``--svg``, ``-o``, ``fmt --write``, ``pan live``'s record)::

    git worktree add /tmp/base main                  # or: git archive REV | tar -x -C /tmp/base
    python benchmarks/compare_outputs.py --against /tmp/base
    python benchmarks/compare_outputs.py --against /tmp/base --only settle --only 'replay --json'
    python benchmarks/compare_outputs.py --list      # the command lines, nothing run

Each side runs ``python -m pancli ARGS`` with ``PYTHONPATH`` set to its tree, in a scratch
folder of its own holding the same inputs under the same relative names (so file names in the
output are the same), with one fixed environment (no terminal, ``COLUMNS=100``; the terminal
cases set ``PAN_FORCE_TERMINAL=1``). The inputs: every ``samples/*.pan`` (and the house-rules
files they name), a simulated five-player sitting of each profile and a PAGRUC sitting (both
written once by the ``--against`` tree, so both sides read the same bytes), generated batches
of melds and hands for ``check``, ``pay``, ``score`` and ``analyze``. Paths of the trees and of
the scratch folders are replaced by ``<TREE>`` and ``<CWD>`` before comparing.

Exit status: 0 when every output is identical, 1 when any differs (each difference is listed
with its command line and the start of a unified diff), 2 on bad usage.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import difflib
import os
import random
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent

PROFILES = ("hoyle", "cardroom")
RANKS = "A234567JQK"
SUITS = "cdhs"


@dataclass(frozen=True)
class Case:
    """One command line: its arguments, standard input, and the files it writes."""

    args: tuple[str, ...]
    stdin: str | None = None  # a file of the scratch folder fed to standard input
    files: tuple[str, ...] = ()  # files written, compared after the run
    terminal: bool = False  # PAN_FORCE_TERMINAL=1 (rich tables, as on a terminal)
    env: tuple[tuple[str, str], ...] = ()

    @property
    def name(self) -> str:
        words = ["pan", *(a if a and " " not in a else repr(a) for a in self.args)]
        if self.stdin:
            words.append(f"< {self.stdin}")
        if self.terminal:
            words.insert(0, "PAN_FORCE_TERMINAL=1")
        words[:0] = [f"{k}={v}" for k, v in self.env]
        return " ".join(words)


@dataclass
class Result:
    status: int
    streams: dict[str, str] = field(default_factory=dict)


def sample_dir(tree: Path) -> Path:
    """The tree's shipped samples (``samples/``, else the package's copy)."""
    for where in (tree / "samples", tree / "pancli" / "samples"):
        if where.is_dir():
            return where
    raise SystemExit(f"compare_outputs: no samples in {tree}")


def meld_lines(n: int, seed: int) -> str:
    """``n`` meld lines: random 3-5 cards (mostly illegal), sets, runs and letter shorthands."""
    rng = random.Random(seed)
    cards = [r + s for r in RANKS for s in SUITS]
    lines = []
    for i in range(n):
        kind = i % 4
        if kind == 0:
            lines.append(" ".join(rng.choice(cards) for _ in range(rng.randint(3, 5))))
        elif kind == 1:
            r = rng.choice(RANKS)
            lines.append(" ".join(r + rng.choice(SUITS) for _ in range(rng.randint(3, 5))))
        elif kind == 2:
            s = rng.choice(SUITS)
            start = rng.randint(0, len(RANKS) - 3)
            lines.append(" ".join(r + s for r in RANKS[start : start + rng.randint(3, 5)]))
        else:
            r = rng.choice(RANKS)
            lines.append(r + "".join(rng.choice(SUITS) for _ in range(3)))
    lines.insert(3, "# a comment line")
    lines.insert(7, "")
    lines.insert(9, "7c 7s 7s ; a trailing comment")
    lines.insert(11, "Xx 7q")
    return "\n".join(lines) + "\n"


def hand_lines(n: int, seed: int) -> str:
    """``n`` ten-card hands, some with a drawn card (``+CARD``), and one bad line."""
    rng = random.Random(seed)
    pack = [r + s for r in RANKS for s in SUITS] * 8
    lines = []
    for i in range(n):
        cards = rng.sample(pack, 11)
        hand = " ".join(cards[:10])
        lines.append(f"{hand} +{cards[10]}" if i % 2 else hand)
    lines.insert(2, "5s 5s")
    return "\n".join(lines) + "\n"


def pagruc_scores(n: int, seed: int) -> str:
    """``n`` PAGRUC hands to score: melds, '|', the cards left."""
    rng = random.Random(seed)
    suits = "cdhs"
    ranks = ["A", *map(str, range(2, 11)), "J", "Q", "K"]
    lines = []
    for _ in range(n):
        r = rng.choice(ranks)
        s = rng.choice(suits)
        start = rng.randint(0, len(ranks) - 3)
        melds = (
            f"[{' '.join(r + x for x in rng.sample(suits, 3))}] [{' '.join(x + s for x in ranks[start : start + 3])}]"
        )
        left = " ".join(rng.choice(ranks) + rng.choice(suits) for _ in range(rng.randint(0, 3)))
        lines.append(f"{melds} | {left}")
    lines.append("[Kh Kh] | 2c")
    return "\n".join(lines) + "\n"


def play_lines(text: str, count: int) -> list[int]:
    """Up to ``count`` line numbers of play lines (not tags, comments, blank), spread over the record."""
    lines = [
        i
        for i, line in enumerate(text.splitlines(), 1)
        if line.strip() and not line.startswith(("[", ";", "deal ", "up "))
    ]
    if len(lines) <= count:
        return lines
    step = len(lines) / count
    return [lines[int(step * k + step / 2)] for k in range(count)]


def make_inputs(root: Path, base: Path, samples: Path) -> list[str]:
    """The shared inputs in ``root``; the record files' relative names."""
    (root / "samples").mkdir(parents=True)
    for f in sorted(samples.iterdir()):
        if f.is_file():
            shutil.copy2(f, root / "samples" / f.name)
    (root / "batch").mkdir()
    (root / "batch" / "melds.txt").write_text(meld_lines(400, 5))
    (root / "batch" / "hands.txt").write_text(hand_lines(12, 3))
    (root / "batch" / "scores.txt").write_text(pagruc_scores(40, 2))
    (root / "batch" / "empty.txt").write_text("")
    env = scrub_env(base)
    for profile in PROFILES:
        sim = ["simulate", "-n", "5", "-k", "12", "-s", "7", "--rules", profile, "--stake", "0.25", "-q"]
        text = subprocess.run(
            [sys.executable, "-m", "pancli", *sim], env=env, cwd=root, capture_output=True, text=True, check=True
        ).stdout
        (root / "samples" / f"sim-sitting-{profile}.pan").write_text(text)
    sys.path.insert(0, str(HERE / "tests"))
    try:
        from pagruc_selfplay import NAMES, selfplay_hand

        rng = random.Random(11)
        hands = [selfplay_hand(tuple(rng.sample(NAMES, rng.randint(3, 6))), rng) for _ in range(8)]
        (root / "samples" / "sim-sitting-pagruc.pan").write_text("\n".join(hands))
    finally:
        sys.path.remove(str(HERE / "tests"))
    return sorted(f"samples/{f.name}" for f in (root / "samples").iterdir() if f.suffix == ".pan")


def cases(root: Path, records: list[str]) -> list[Case]:
    """Every command line compared."""
    out: list[Case] = []
    add = out.append
    pagruc = [r for r in records if "pagruc" in r]
    # the help of every command, the version, completion
    commands = ["check", "pay", "rules", "replay", "fmt", "simulate", "analyze", "review", "score"]
    commands += ["standings", "settle", "live", "completion", "samples"]
    add(Case(("--help",)))
    add(Case(("--version",)))
    add(Case(("nosuchcommand",)))
    for c in commands:
        add(Case((c, "--help")))
    for shell in ("bash", "zsh", "fish", "tcsh"):
        add(Case(("completion", shell)))
    # samples
    add(Case(("samples",)))
    add(Case(("samples", "--json")))
    add(Case(("samples", "friday-hoyle")))
    add(Case(("samples", "--path", "friday-hoyle")))
    add(Case(("samples", "no-such-sample")))
    # per record: replay, settle, review, fmt, analyze --at, standings
    for r in records:
        add(Case(("replay", r)))
        add(Case(("replay", "--json", r)))
        add(Case(("replay", "--jsonl", r)))
        add(Case(("replay", "--strict", r)))
        add(Case(("replay", "--plain", r), terminal=True))
        add(Case(("replay", r), terminal=True))
        add(Case(("replay", "--html", "out.html", "--default-stake", "0.10", r), files=("out.html",)))
        add(Case(("settle", r)))
        add(Case(("settle", "--json", r)))
        add(Case(("settle", "--jsonl", r)))
        add(Case(("settle", "--include-disputed", "--default-stake", "0.5", r)))
        add(Case(("settle", r), terminal=True))
        add(Case(("fmt", r)))
        add(Case(("fmt", "--check", r)))
        add(Case(("fmt", "--diff", r)))
        add(Case(("fmt", "--json", r)))
        add(Case(("fmt", "--jsonl", r)))
        add(Case(("fmt", "--write", r), files=(r,)))
        if r in pagruc:
            add(Case(("standings", r)))
            add(Case(("standings", "--json", r)))
            add(Case(("standings", "--jsonl", r)))
            add(Case(("standings", r), terminal=True))
            continue
        add(Case(("review", "--samples", "40", "--advice-samples", "20", r)))
        add(Case(("review", "--samples", "40", "--advice-samples", "20", "--json", r)))
        add(Case(("review", "--samples", "40", "--advice-samples", "20", "--jsonl", r)))
        add(Case(("review", "--samples", "40", "--advice-samples", "20", "--summary", r), terminal=True))
        text = (root / r).read_text(errors="replace")
        for line in play_lines(text, 2):
            add(Case(("analyze", r, "--at", str(line), "--samples", "50")))
            add(Case(("analyze", r, "--at", str(line), "--samples", "50", "--json")))
    # every record at once, from standard input, in worker processes, with another profile
    every = [r for r in records if not r.startswith("samples/sim-")]
    panr = [r for r in every if r not in pagruc]
    add(Case(("replay", *every)))
    add(Case(("replay", "--json", *every)))
    add(Case(("replay", "--jsonl", *every)))
    add(Case(("replay", "-j", "2", "-q", *every)))
    add(Case(("replay", "-j", "2", "-q", "--json", *every)))
    add(Case(("replay", "-j", "2", "-q", "--jsonl", *every)))
    add(Case(("replay", "--html", "all.html", "--stake", "0.25", *panr), files=("all.html",)))
    add(Case(("replay", "-"), stdin="samples/friday-hoyle.pan"))
    add(Case(("replay", "--json", "-"), stdin="samples/sim-sitting-hoyle.pan"))
    for profile in (*PROFILES, "samples/oakland.toml", "nosuch"):
        add(Case(("replay", "--rules", profile, "samples/friday-hoyle.pan", "samples/sim-sitting-hoyle.pan")))
        add(Case(("settle", "--rules", profile, "--json", "samples/friday-hoyle.pan")))
    for sitting in ("samples/sim-sitting-hoyle.pan", "samples/sim-sitting-cardroom.pan"):
        for jobs in ("1", "2"):
            add(Case(("replay", "-j", jobs, "-q", "--json", sitting)))
            add(Case(("replay", "-j", jobs, "-q", "--jsonl", sitting)))
    add(Case(("settle", *every)))
    add(Case(("settle", "--json", *every)))
    add(Case(("settle", "--jsonl", *every)))
    add(Case(("settle", "--stake", "0.25", "--json", *panr)))
    add(Case(("settle", "-"), stdin="samples/cardroom-saturday.pan"))
    add(Case(("fmt", *every)))
    add(Case(("fmt", "--json", *every)))
    add(Case(("fmt", "--check", *every)))
    add(Case(("fmt", "-"), stdin="samples/friday-hoyle.pan"))
    add(Case(("fmt", "--diff", "-"), stdin="samples/malformed-record.pan"))
    add(
        Case(
            (
                "review",
                "-q",
                "--samples",
                "40",
                "--advice-samples",
                "20",
                "-o",
                "reviewed.pan",
                "samples/friday-hoyle.pan",
            ),
            files=("reviewed.pan",),
        )
    )
    add(
        Case(
            (
                "review",
                "-q",
                "--samples",
                "40",
                "--advice-samples",
                "20",
                "--player",
                "Cruz",
                "samples/friday-hoyle.pan",
            )
        )
    )
    add(Case(("review", "-q", "--samples", "40", "--advice-samples", "20", "-j", "2", "--json", *panr[:6])))
    add(
        Case(
            (
                "review",
                "-q",
                "--samples",
                "40",
                "--advice-samples",
                "20",
                "--html",
                "rev.html",
                "samples/tutorial-four-handed.pan",
            ),
            files=("rev.html",),
        )
    )
    add(Case(("standings", *pagruc)))
    add(Case(("standings", "--json", *pagruc)))
    # simulate: every mode, fixed seeds
    for profile in (*PROFILES, "samples/oakland.toml"):
        add(Case(("simulate", "-n", "4", "-k", "3", "-s", "1", "--rules", profile)))
    for n in ("2", "3", "6", "8", "15", "16"):
        add(Case(("simulate", "-n", n, "-k", "2", "-s", "3")))
    add(Case(("simulate", "-k", "4", "-s", "5", "--json")))
    add(Case(("simulate", "-k", "4", "-s", "5", "--jsonl")))
    add(Case(("simulate", "-k", "4", "-s", "5", "--json", "--stake", "0.25")))
    add(Case(("simulate", "-k", "0", "-s", "5", "--json")))
    add(Case(("simulate", "-k", "3", "-s", "9", "--names", "Ana Ben Cruz", "--stake", "1")))
    add(Case(("simulate", "-k", "3", "-s", "9", "-o", "sim.pan"), files=("sim.pan",)))
    add(Case(("simulate", "-k", "3", "-s", "9", "--json", "-o", "sim.json"), files=("sim.json",)))
    add(Case(("simulate", "-k", "3", "-s", "9", "--jsonl", "-o", "sim.jsonl"), files=("sim.jsonl",)))
    add(Case(("simulate", "-k", "3", "-s", "9"), terminal=True))
    # check and pay: arguments, batches, every output
    for args in (("7c", "7s", "7s"), ("5sss",), ("3-5h",), ("Kdhc", "2c"), ("Xx",), ()):
        add(Case(("check", *args)))
        add(Case(("check", "--json", *args)))
        add(Case(("pay", *args)))
        add(Case(("pay", "--json", "--players", "6", "--out", *args)))
    add(Case(("check", "7c 7s 7s"), terminal=True))
    add(Case(("pay", "5sss", "3-5h", "--players", "6")))
    add(Case(("pay", "5sss", "3-5h", "--players", "6"), terminal=True))
    for profile in (*PROFILES, "samples/oakland.toml"):
        add(Case(("check", "--rules", profile, "-"), stdin="batch/melds.txt"))
        add(Case(("pay", "--rules", profile, "-n", "5", "-"), stdin="batch/melds.txt"))
    for mode in ("--json", "--jsonl"):
        add(Case(("check", mode, "-"), stdin="batch/melds.txt"))
        add(Case(("pay", mode, "--out", "-"), stdin="batch/melds.txt"))
    add(Case(("check", "-"), stdin="batch/empty.txt"))
    add(Case(("check", "--game", "pagruc", "7c 7s 7s", "2-4h")))
    add(Case(("check", "--game", "pagruc", "--json", "-"), stdin="batch/melds.txt"))
    # score (PAGRUC)
    add(Case(("score", "--game", "pagruc", "[5h 6h 7h] [Ac Ad As] | Ks Ah")))
    add(Case(("score", "--json", "[8c 9c 10c] | Qd 2s")))
    add(Case(("score", "-"), stdin="batch/scores.txt"))
    add(Case(("score", "--json", "-"), stdin="batch/scores.txt"))
    add(Case(("score", "--jsonl", "-"), stdin="batch/scores.txt"))
    add(Case(("score", "--game", "panguingue", "[5h 6h 7h]")))
    # rules: every profile, every rule, every output
    for profile in ("", *PROFILES, "samples/oakland.toml", "nosuch"):
        p = (profile,) if profile else ()
        add(Case(("rules", *p)))
        add(Case(("rules", "--json", *p)))
        add(Case(("rules", "--diff", *p)))
        add(Case(("rules", "--toml", *p)))
    add(Case(("rules", "--list")))
    add(Case(("rules", "--list", "--json")))
    add(Case(("rules",), terminal=True))
    for rule in rule_ids():
        add(Case(("rules", rule)))
        add(Case(("rules", "--json", rule)))
    # analyze: hands, batches, svg, advice
    add(Case(("analyze", "5s", "5s", "5s", "3h", "4h", "Kd", "Kh", "Kc", "2c", "7d")))
    add(Case(("analyze", "5sss 3h 4h Kd Kh Kc 2c 7d +5h", "--players", "4")))
    add(Case(("analyze", "3h 4h Kd Kh Kc 2c 7d", "--melds", "[5sss]", "--seen", "5s 5h 5h")))
    add(Case(("analyze", "--json", "5sss", "3-5h", "Kd", "Kh", "7c", "2c")))
    add(Case(("analyze", "5sss 3-5h Kd Kh 7c 2c", "--advice", "--samples", "60")))
    add(Case(("analyze", "5sss 3-5h Kd Kh 7c 2c", "--advice", "--samples", "60", "--json", "--rules", "cardroom")))
    add(Case(("analyze", "5sss 3-5h Kd Kh 7c 2c", "--svg", "hand.svg"), files=("hand.svg",)))
    add(Case(("analyze", "samples/friday-hoyle.pan", "--at", "65", "--svg", "table.svg"), files=("table.svg",)))
    add(Case(("analyze", "samples/friday-hoyle.pan", "--at", "27", "--player", "Cruz")))
    add(Case(("analyze", "5sss 3-5h Kd Kh 7c 2c"), terminal=True))
    add(Case(("analyze", "-q", "-"), stdin="batch/hands.txt"))
    add(Case(("analyze", "-q", "--json", "-"), stdin="batch/hands.txt"))
    add(Case(("analyze", "-q", "--jsonl", "-"), stdin="batch/hands.txt"))
    add(Case(("analyze", "5s 5s")))
    # live, line mode: a new record, and going on from a shipped one
    add(Case(("live", "night.pan", "--players", "Ana Ben"), stdin="batch/live.txt", files=("night.pan",)))
    add(
        Case(
            ("live", "--jsonl", "night.pan", "--players", "Ana Ben", "--stake", "0.25"),
            stdin="batch/live.txt",
            files=("night.pan",),
        )
    )
    add(Case(("live", "samples/friday-hoyle.pan"), stdin="batch/live-more.txt", files=("samples/friday-hoyle.pan",)))
    (root / "batch" / "live.txt").write_text("Ana stay\nBen stay\nBen stay\nrules P8\nundo\nsettle\nquit\n")
    (root / "batch" / "live-more.txt").write_text("settle\nAna stay\nundo\nrules T1\nquit\n")
    return out


def rule_ids() -> list[str]:
    """Every rule id of this tree's rulebook (``pan rules --list``)."""
    listing = subprocess.run(
        [sys.executable, "-m", "pancli", "rules", "--list"], env=scrub_env(HERE), capture_output=True, text=True
    )
    return [line.split("\t")[0] for line in listing.stdout.splitlines() if line.strip()]


def scrub_env(tree: Path) -> dict[str, str]:
    """One fixed environment: this tree's pancli first on the path, no terminal, fixed width."""
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": os.environ.get("HOME", "/tmp"),
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "TZ": "UTC",
        "COLUMNS": "100",
        "LINES": "40",
        "TERM": "xterm-256color",
        "PYTHONPATH": str(tree),
        "PYTHONHASHSEED": "0",
        "PAN_PROGRESS_DELAY": "1000",
    }


def run(case: Case, tree: Path, root: Path, scratch: Path, timeout: float) -> Result:
    """Run ``case`` with ``tree``'s pancli in a fresh copy of the inputs."""
    shutil.copytree(root, scratch, symlinks=True)
    env = scrub_env(tree)
    if case.terminal:
        env["PAN_FORCE_TERMINAL"] = "1"
    env.update(case.env)
    stdin = (scratch / case.stdin).open("rb") if case.stdin else subprocess.DEVNULL
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "pancli", *case.args],
            cwd=scratch,
            env=env,
            stdin=stdin,
            capture_output=True,
            timeout=timeout,
        )
        status, stdout, stderr = proc.returncode, proc.stdout, proc.stderr
    except subprocess.TimeoutExpired:
        status, stdout, stderr = -999, b"", b"(timed out)"
    finally:
        if case.stdin:
            stdin.close()  # type: ignore[union-attr]
    result = Result(status)

    def clean(data: bytes) -> str:
        text = data.decode("utf-8", errors="backslashreplace")
        for path, mark in (
            (scratch.resolve(), "<CWD>"),
            (scratch, "<CWD>"),
            (tree.resolve(), "<TREE>"),
            (tree, "<TREE>"),
        ):
            text = text.replace(str(path), mark)
        return text

    result.streams["stdout"] = clean(stdout)
    result.streams["stderr"] = clean(stderr)
    for name in case.files:
        f = scratch / name
        result.streams[name] = clean(f.read_bytes()) if f.exists() else "(no file)"
    shutil.rmtree(scratch, ignore_errors=True)
    return result


def compare(case: Case, a: Result, b: Result, lines: int) -> list[str]:
    """The report lines of what differs between ``a`` (the other tree) and ``b`` (this tree)."""
    report: list[str] = []
    if a.status != b.status:
        report.append(f"  exit status: {a.status} -> {b.status}")
    for stream in a.streams:
        if a.streams[stream] == b.streams[stream]:
            continue
        diff = list(
            difflib.unified_diff(
                a.streams[stream].splitlines(), b.streams[stream].splitlines(), "against", "this", n=1, lineterm=""
            )
        )
        report.append(f"  {stream} differs ({len(diff)} diff lines):")
        report.extend("    " + d[:200] for d in diff[:lines])
        if len(diff) > lines:
            report.append(f"    ... {len(diff) - lines} more")
    return report


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--against", type=Path, help="the other source tree (a checkout of the previous main)")
    ap.add_argument("--tree", type=Path, default=HERE, help="this source tree (default: the one holding this script)")
    ap.add_argument("--only", action="append", default=[], help="only command lines containing this text (repeatable)")
    ap.add_argument("--skip", action="append", default=[], help="leave out command lines containing this text")
    ap.add_argument("-j", "--jobs", type=int, default=2, help="command lines run at once (default 2)")
    ap.add_argument("--lines", type=int, default=12, help="diff lines shown per difference (default 12)")
    ap.add_argument("--timeout", type=float, default=120, help="seconds one command may take (default 120)")
    ap.add_argument("--list", action="store_true", help="list the command lines and exit")
    opts = ap.parse_args()
    if opts.against is None and not opts.list:
        ap.error("--against TREE is needed (a checkout of the previous main)")
    against = (opts.against or opts.tree).resolve()
    tree = opts.tree.resolve()
    if not (against / "pancli" / "__init__.py").exists():
        ap.error(f"{against} holds no pancli package")
    with tempfile.TemporaryDirectory(prefix="pan-compare-") as tmp:
        root = Path(tmp) / "inputs"
        records = make_inputs(root, against, sample_dir(tree))
        todo = [
            c
            for c in cases(root, records)
            if (not opts.only or any(o in c.name for o in opts.only)) and not any(s in c.name for s in opts.skip)
        ]
        if opts.list:
            print("\n".join(c.name for c in todo))
            return 0
        print(f"comparing {len(todo)} command lines: {against} -> {tree}", file=sys.stderr)

        def both(i: int, case: Case) -> tuple[Result, Result]:
            a = run(case, against, root, Path(tmp) / f"{i}-a", opts.timeout)
            b = run(case, tree, root, Path(tmp) / f"{i}-b", opts.timeout)
            return a, b

        differing = 0
        with concurrent.futures.ThreadPoolExecutor(max(1, opts.jobs)) as pool:
            futures = [pool.submit(both, i, c) for i, c in enumerate(todo)]
            for done, (case, fut) in enumerate(zip(todo, futures, strict=True), 1):
                a, b = fut.result()
                if done % 100 == 0:
                    print(f"  {done} of {len(todo)} compared, {differing} differ", file=sys.stderr)
                report = compare(case, a, b, opts.lines)
                if report:
                    differing += 1
                    print(f"DIFFERS: {case.name}")
                    print("\n".join(report))
                    sys.stdout.flush()
        print(f"{differing} of {len(todo)} command lines differ", file=sys.stderr)
        print(f"{differing} of {len(todo)} command lines differ")
        return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
