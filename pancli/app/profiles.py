"""Rule profiles as the commands take and give them: a house-rules file read into a profile,
a profile written as a house-rules file (TOML, docs/rules.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pancli.notation.houserules import profile_from_toml, profile_to_toml, read_rules_file
from pancli.rules import HOYLE

if TYPE_CHECKING:
    from pathlib import Path

    from pancli.rules import Profile


def house_rules(path: Path) -> Profile:
    """The profile of the house-rules file at ``path`` (the knobs it does not set are hoyle's);
    raises OSError (FileNotFoundError when there is none) or HouseRulesError."""
    return profile_from_toml(read_rules_file(path), default=HOYLE)


def profile_toml(profile: Profile) -> str:
    """``profile`` as a house-rules file (every knob), which :func:`house_rules` reads back.

    >>> from pancli.rules import CARDROOM
    >>> profile_toml(CARDROOM).splitlines()[0].startswith("#")
    True
    """
    return profile_to_toml(profile)
