"""The sample records and house-rules files shipped with pan (``pan samples``, completion)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pancli.records.shipped import SAMPLES_DIR
from pancli.records.shipped import sample_names as names
from pancli.records.shipped import sample_path as path

if TYPE_CHECKING:
    from pathlib import Path


def sample_names() -> list[str]:
    """The shipped records' names (without ``.pan``), sorted.

    >>> "friday-hoyle" in sample_names()
    True
    """
    return names()


def sample_path(name: str) -> Path:
    """The path of the shipped sample ``name`` (raises KeyError, with the names, for no such sample)."""
    return path(name)


def sample_choices() -> list[str]:
    """What ``pan samples NAME`` takes: the records' names, then the house-rules files' (``.toml``).

    >>> sample_choices()[-1]
    'oakland.toml'
    """
    return [*sample_names(), *sorted(p.name for p in SAMPLES_DIR.glob("*.toml"))]
