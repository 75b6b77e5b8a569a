"""The exporter of ``pan samples``: the shipped records listed (name and summary, their files, or
JSON), or one record's text, file or JSON object."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from pancli.records.shipped import sample_path, sample_summary
from pancli.values import Item


class SampleItem(Item):
    """A shipped record (or house-rules file): its name, what it shows, where it is."""

    name: str
    summary: str
    path: str


def write_listing(names: Sequence[str], as_json: bool, show_path: bool) -> None:
    """Every shipped record: ``name<TAB>summary`` lines, ``--path`` its file, ``--json`` a list."""
    if as_json:
        items = [SampleItem(n, sample_summary(n), str(sample_path(n))) for n in names]
        from pancli.render.stream import write_json  # the encoder only for --json

        write_json(items)
    elif show_path:
        sys.stdout.write("".join(f"{sample_path(n)}\n" for n in names))
    else:
        sys.stdout.write("".join(f"{n}\t{sample_summary(n)}\n" for n in names))


def write_sample(path: Path, as_json: bool, show_path: bool) -> None:
    """One shipped file: its text, ``--path`` where it is, ``--json`` its object."""
    if as_json:
        summary = sample_summary(path.stem) if path.suffix == ".pan" else ""
        from pancli.render.stream import write_json  # the encoder only for --json

        write_json(SampleItem(path.stem, summary, str(path)))
    elif show_path:
        sys.stdout.write(f"{path}\n")
    else:
        sys.stdout.write(path.read_text(encoding="utf-8"))
