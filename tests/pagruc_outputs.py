"""Capture every output of the PAGRUC commands, to compare two versions of the referee byte for byte.

    PYTHONPATH=OLD_TREE .venv/bin/python tests/pagruc_outputs.py OUT-before
    .venv/bin/python tests/pagruc_outputs.py OUT-after
    diff -r OUT-before OUT-after

``pan`` runs as ``python -m pancli``, so ``PYTHONPATH`` chooses the source tree (a checkout made
with ``git archive REV | tar -x``) for the commands and for the referee asked in process.

Writes the records (the PAGRUC samples, the PAGRUC record cases, and self-played hands with one
mutation each, :mod:`pagruc_selfplay`) to ``OUT/records`` and, for each command and mode, the
standard output, standard error and exit status to ``OUT/out``: replay (plain, ``--json``,
``--jsonl``, ``--html``, ``--strict``, ``--jobs 2``), standings (plain, ``--json``, ``--jsonl``),
settle (plain, ``--json``, ``--jsonl``, ``--include-disputed``), score and ``check --game
pagruc`` of every meld the records lay; and ``OUT/out/results.txt``, the ``repr`` of the
referee's result for every hand, strict and not, with and without steps.
"""

from __future__ import annotations

import io
import itertools
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from pagruc_selfplay import corpus  # noqa: E402

from pancli.pagruc.referee import referee_script  # noqa: E402
from pancli.records import read_hands  # noqa: E402

PAN = [sys.executable, "-m", "pancli"]
CHUNK = 30


def records(out: Path) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    sources = [*sorted((ROOT / "samples").glob("pagruc-*.pan")), *sorted((ROOT / "grammar").rglob("*pagruc*.pan"))]
    for src in sources:
        dest = out / f"{src.parent.name}-{src.name}"
        dest.write_bytes(src.read_bytes())
        paths.append(dest)
    texts = corpus(23, 150)
    for k in range(0, len(texts), CHUNK):
        dest = out / f"selfplay-{k // CHUNK:02d}.pan"
        dest.write_text("\n".join(texts[k : k + CHUNK]), encoding="utf-8")
        paths.append(dest)
    return paths


MODES = {
    "replay": [[], ["--json"], ["--jsonl"], ["--strict"], ["--jobs", "2"], ["--jobs", "2", "--jsonl"]],
    "standings": [[], ["--json"], ["--jsonl"]],
    "settle": [[], ["--json"], ["--jsonl"], ["--include-disputed"]],
}


def run(out: Path, name: str, args: list[str], stdin: str | None = None) -> None:
    got = subprocess.run([*PAN, *args], input=stdin, capture_output=True, text=True, check=False, cwd=out.parent)
    (out / f"{name}.stdout").write_text(got.stdout, encoding="utf-8")
    (out / f"{name}.stderr").write_text(got.stderr, encoding="utf-8")
    (out / f"{name}.rc").write_text(f"{got.returncode}\n", encoding="utf-8")


def main(target: Path) -> None:
    paths = records(target / "records")
    out = target / "out"
    out.mkdir(parents=True, exist_ok=True)
    rel = [f"records/{p.name}" for p in paths]
    for path, name in zip(paths, rel, strict=True):
        for command, modes in MODES.items():
            for mode in modes:
                run(out, f"{path.stem}.{command}{''.join(mode)}", [command, *mode, name])
        run(out, f"{path.stem}.replay--html", ["replay", "--html", f"out/{path.stem}.html", name])
    for command, modes in MODES.items():  # all the files at once
        for mode in modes:
            run(out, f"all.{command}{''.join(mode)}", [command, *mode, *rel])
    run(out, "all.replay--html", ["replay", "--html", "out/all.html", *rel])
    melds = sorted({m for p in paths for m in re.findall(r"meld (\[[^]]*\])", p.read_text(encoding="utf-8"))})
    plain = "\n".join(m[1:-1] for m in melds) + "\n"
    for packs in ("1", "2"):
        run(out, f"check-{packs}", ["check", "--game", "pagruc", "-"], plain)
        run(out, f"check-{packs}--json", ["check", "--game", "pagruc", "--json", "-"], plain)
        hands = "".join(f"{a} {b} | {a[1:-1].split()[0]}\n" for a, b in itertools.pairwise(melds))
        run(out, f"score-{packs}", ["score", "--packs", packs, "-"], hands)
        run(out, f"score-{packs}--json", ["score", "--packs", packs, "--json", "-"], hands)
    with (out / "results.txt").open("w", encoding="utf-8") as f:
        for path in paths:
            for hand in read_hands(io.StringIO(path.read_text(encoding="utf-8")), path.name, path.parent):
                script = hand.script
                if script is None or script.game.value != "pagruc":
                    continue
                for strict in (True, False):
                    for steps in (True, False):
                        r = referee_script(script, strict=strict, record_steps=steps)
                        f.write(f"{path.name}:{script.first_line} {strict} {steps}\n{r!r}\n{r.steps!r}\n")


if __name__ == "__main__":
    main(Path(sys.argv[1]).resolve())
