"""Cold start of every ``pan`` command in instructions (callgrind) over ``python -c "import click"``.

Run from the repository root (the package installed, e.g. ``pip install -e .``; valgrind on the path)::

    python benchmarks/startup_instructions.py                        # every command, ~3 min
    python benchmarks/startup_instructions.py --against /tmp/old-tree --only replay

Each command of ``bench_startup.py``'s COMMANDS runs once under ``valgrind --tool=callgrind``
(``PYTHONHASHSEED=0``, ``.pyc`` files written by a run before, as for an installed program) and
its "Collected" count is printed with its ratio over the baseline's (target 1.5x; 1.45x leaves the
margin the CPU measure needs). Instructions barely move from one run to the next where CPU time
on a shared machine moves by 0.05x. ``--against TREE`` counts another source tree's commands the
same way, run from that tree as ``bench_startup.py`` runs them.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_startup import COMMANDS, ROOT, launcher

COLLECTED = re.compile(r"Collected : (\d+)")


def instructions(cmd: list[str], tree: Path) -> int:
    """Instructions of one run of ``cmd`` from ``tree`` (run once before, so its .pyc files exist)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(PYTHONHASHSEED="0", PYTHONPATH=str(tree))
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, cwd=tree, check=False)
    grind = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *cmd]
    p = subprocess.run(grind, capture_output=True, text=True, env=env, cwd=tree, check=False)
    found = COLLECTED.search(p.stderr)
    if found is None:
        raise SystemExit(f"no instruction count from valgrind for {cmd}:\n{p.stderr}")
    return int(found.group(1))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--against", type=Path, help="a source tree of another version, counted the same way")
    ap.add_argument("--only", action="append", help="count only the commands whose name contains this (repeatable)")
    args = ap.parse_args()
    commands = [(n, a) for n, a in COMMANDS if not args.only or any(o in n for o in args.only)]
    trees = {"this": ROOT} | ({"against": args.against.resolve()} if args.against else {})
    base = instructions([sys.executable, "-c", "import click"], ROOT)
    print(f"instructions of one run (callgrind, PYTHONHASHSEED=0); baseline 'import click' {base / 1e6:.1f} M")
    for name, argv in commands:
        cells = []
        for tree_name, tree in trees.items():
            n = instructions([sys.executable, "-c", launcher(tree), *argv], tree)
            cells.append(f"{tree_name} {n / 1e6:7.1f} M {n / base:6.3f}x")
        print(f"  {name:26s} " + "   ".join(cells) + "   (target <= 1.5x)", flush=True)


if __name__ == "__main__":
    main()
