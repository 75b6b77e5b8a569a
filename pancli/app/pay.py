"""What ``pan pay`` does before it renders: the melds of one player, taken together.

Each meld is judged on its own first (as ``pan check`` does); then E4 holds across them
(together they hold no more copies of a card than the pack), and the payments follow: the
value of every legal meld as laid (C6, C7) and, going out with them, the C8 payment.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from pancli.cards import Card
from pancli.melds import Meld, going_out_value
from pancli.rules import Profile


def over_the_pack(melds: Sequence[tuple[Card, ...] | None], profile: Profile) -> dict[int, str]:
    """E4 across one player's melds, in order: the index of each meld that takes a card past its
    copies in the pack, with the reason (that meld is then not counted). ``None``: a meld that is
    not legal on its own (not counted).

    >>> from pancli.notation import parse_meld
    >>> from pancli.rules import HOYLE
    >>> over_the_pack([parse_meld("5s 5s 5s 5s"), None, parse_meld("5s 5s 5s 5s 5s")], HOYLE)
    {2: 'the melds hold 9 copies of 5s, but the pack holds 8'}
    """
    seen: Counter[Card] = Counter()
    out: dict[int, str] = {}
    copies = profile.pack.copies
    for i, cards in enumerate(melds):
        if cards is None:
            continue
        seen.update(cards)
        over = next((c for c in dict.fromkeys(cards) if seen[c] > copies(c)), None)
        if over is not None:
            out[i] = f"the melds hold {seen[over]} copies of {over}, but the pack holds {copies(over)}"
            seen.subtract(cards)
    return out


def going_out(melds: Sequence[Meld], profile: Profile, out: bool) -> int | None:
    """Units each opponent pays when the player goes out with ``melds`` (C8), None when he does not."""
    return going_out_value(melds, profile) if out else None
