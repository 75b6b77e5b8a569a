"""The sample records shipped inside the package (``pan samples``), found wherever pan is installed.

The repository's ``samples/`` folder is the package's ``pancli/samples`` (a link in the source
tree, a real folder in an installed wheel), so a wheel user has the same records the help and
the docs use.

>>> "friday-hoyle" in sample_names()
True
>>> sample_path("friday-hoyle").name
'friday-hoyle.pan'
>>> sample_path("no-such-sample")
Traceback (most recent call last):
...
KeyError: 'no-such-sample'
>>> sample_summary("illegal-P8-forcing")
"Cardroom forcing is automatic: the live 5c fits Kim's fives, so he must take it and add it; ..."
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

SAMPLES_DIR: Final = Path(__file__).resolve().parent.parent / "samples"
"""Where the shipped ``.pan`` records (and the house-rules files they name) are."""


def sample_names() -> list[str]:
    """The names of the shipped records (file names without ``.pan``), sorted."""
    return sorted(p.stem for p in SAMPLES_DIR.glob("*.pan"))


def sample_path(name: str) -> Path:
    """The file of a shipped record by name (``friday-hoyle`` or ``friday-hoyle.pan``), or of a
    shipped house-rules file (``oakland.toml``); KeyError if there is none.

    >>> sample_path("oakland.toml").name
    'oakland.toml'
    """
    file = name if name.endswith(".toml") else f"{name.removesuffix('.pan')}.pan"
    path = SAMPLES_DIR / file
    if "/" in file or "\\" in file or not path.is_file():
        raise KeyError(name)
    return path


def sample_summary(name: str) -> str:
    """The record's opening ``;`` comment lines, joined into one line (its description)."""
    words: list[str] = []
    with sample_path(name).open(encoding="utf-8") as f:
        for line in f:
            if not line.startswith(";"):
                break
            words.append(line[1:].strip())
    return " ".join(w for w in words if w)
