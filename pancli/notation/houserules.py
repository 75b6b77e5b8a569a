"""House-rules files: TOML text to a :class:`~pancli.rules.Profile` (read with tomllib).

>>> profile_from_toml(b'base = "cardroom"\\nout_bonus = 3\\n').out_bonus
3
>>> profile_from_toml(b'forcing = "sometimes"')
Traceback (most recent call last):
...
pancli.rules.HouseRulesError: forcing: expected one of 'demand', 'automatic', got 'sometimes'
"""

from __future__ import annotations

import tomllib

from pancli.rules import HOYLE, HouseRulesError, Profile, profile_from_mapping


def profile_from_toml(data: bytes, default: Profile = HOYLE) -> Profile:
    """Parse a house-rules TOML document; every key must be a knob of RULES.md section 9."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise HouseRulesError("toml", f"not UTF-8 text (byte {exc.start})") from None
    try:
        mapping = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise HouseRulesError("toml", str(exc)) from None
    return profile_from_mapping(mapping, default)
