"""Cold start of every ``pan`` command against ``python -c "import click"``, output to a pipe.

Run from the repository root (the package installed, e.g. ``pip install -e .``)::

    python benchmarks/bench_startup.py                      # 21 rounds
    python benchmarks/bench_startup.py --runs 41 --against /tmp/old-tree
    python benchmarks/bench_startup.py --runs 31 --only replay --only standings

Each round runs the baseline and every command once, in an order that alternates from round to
round, and the medians are compared (target: every command at most 1.5x the baseline in CPU
time, shorthand ``pay`` included: its letter shorthands are read without the grammar). Commands
run as ``python -c "from MODULE import main; main()" ARGS``, MODULE the ``pan`` console script's
of each tree's pyproject.toml, so that ``--against TREE`` (a source tree of another version, put
first on PYTHONPATH) runs what its own ``pan`` runs; ``.pyc`` files are
allowed (PYTHONDONTWRITEBYTECODE is dropped), as for an installed program. Each tree's commands run
from that tree (``python -c`` puts the current directory first on the path, before PYTHONPATH and
an editable install).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def launcher(tree: Path) -> str:
    """What ``tree``'s ``pan`` console script runs, as a ``python -c`` program."""
    import tomllib

    target = tomllib.loads((tree / "pyproject.toml").read_text(encoding="utf-8"))["project"]["scripts"]["pan"]
    module, function = target.split(":")
    return f"import sys; sys.argv[0] = 'pan'; from {module} import {function}; {function}()"


COMMANDS: list[tuple[str, list[str]]] = [
    ("pan --help", ["--help"]),
    ("pan check", ["check", "5s 5s 5s"]),
    ("pan check --game pagruc", ["check", "--game", "pagruc", "Ah 2h 3h"]),
    ("pan pay (canonical)", ["pay", "5s 5s 5s", "3h 4h 5h", "--players", "6"]),
    ("pan pay (shorthand)", ["pay", "5sss", "3-5h", "--players", "6"]),
    ("pan rules", ["rules"]),
    ("pan rules P8", ["rules", "P8"]),
    ("pan replay small", ["replay", "samples/illegal-T1-decision-order.pan"]),
    ("pan replay --json small", ["replay", "--json", "samples/illegal-T1-decision-order.pan"]),
    ("pan replay pagruc", ["replay", "samples/pagruc-common-room.pan"]),
    ("pan fmt small", ["fmt", "samples/illegal-T1-decision-order.pan"]),
    ("pan simulate --hands 1", ["simulate", "--hands", "1"]),
    ("pan analyze (ten cards)", ["analyze", "--samples", "20", "5s 5s 5s 3h 4h Kd Kh Kc 2c 7d"]),
    ("pan score", ["score", "--game", "pagruc", "[5h 6h 7h] [Ac Ad As] | Ks Ah"]),
    ("pan standings", ["standings", "samples/pagruc-common-room.pan"]),
    ("pan settle small", ["settle", "samples/illegal-T1-decision-order.pan"]),
    ("pan samples", ["samples"]),
    ("pan completion bash", ["completion", "bash"]),
    ("pan analyze --help", ["analyze", "--help"]),
]


def timed(cmd: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall time and CPU time (user + system) of one run of ``cmd``."""
    r0, t0 = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
    cwd = env.get("PYTHONPATH", ROOT)
    subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, cwd=cwd, check=False)
    wall, r1 = time.perf_counter() - t0, resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--runs", type=int, default=21)
    ap.add_argument("--against", type=Path, help="a source tree of another version, timed alternately")
    ap.add_argument("--only", action="append", help="time only the commands whose name contains this (repeatable)")
    args = ap.parse_args()
    commands = [(n, a) for n, a in COMMANDS if not args.only or any(o in n for o in args.only)]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    envs = {"this": dict(env, PYTHONPATH=str(ROOT))}
    launch = {"this": launcher(ROOT)}
    if args.against is not None:
        envs["against"] = dict(env, PYTHONPATH=str(args.against.resolve()))
        launch["against"] = launcher(args.against.resolve())
    jobs: list[tuple[str, str, list[str]]] = [("baseline", "this", [sys.executable, "-c", "import click"])]
    for name, argv in commands:
        for tree in envs:
            jobs.append((name, tree, [sys.executable, "-c", launch[tree], *argv]))
    for _, tree, cmd in jobs:  # warm the .pyc files
        timed(cmd, envs[tree])
    walls: dict[tuple[str, str], list[float]] = {(n, t): [] for n, t, _ in jobs}
    cpus: dict[tuple[str, str], list[float]] = {(n, t): [] for n, t, _ in jobs}
    for r in range(args.runs):
        order = jobs if r % 2 == 0 else list(reversed(jobs))
        for name, tree, cmd in order:
            wall, cpu = timed(cmd, envs[tree])
            walls[(name, tree)].append(wall)
            cpus[(name, tree)].append(cpu)
    base = statistics.median(walls[("baseline", "this")])
    base_cpu = statistics.median(cpus[("baseline", "this")])
    print(f"cold start to a pipe, median of {args.runs} alternating rounds; baseline python -c 'import click'")
    print("(wall time, and CPU time: user + system, steadier on a shared machine)")
    print(f"  {'baseline':26s} {base * 1e3:7.1f} ms wall {base_cpu * 1e3:7.1f} ms CPU")
    for name, _ in commands:
        cells = []
        for tree in envs:
            m, c = statistics.median(walls[(name, tree)]), statistics.median(cpus[(name, tree)])
            cells.append(f"{tree} {m * 1e3:7.1f} ms {m / base:5.2f}x  CPU {c * 1e3:6.1f} ms {c / base_cpu:5.2f}x")
        print(f"  {name:26s} " + "   ".join(cells) + "   (target <= 1.5x)")


if __name__ == "__main__":
    main()
