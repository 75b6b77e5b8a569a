"""Brute-force oracle for the analyzer tests: every subset, every packing (slow; small hands only)."""

from __future__ import annotations

from collections.abc import Sequence

from pancli.cards import Card
from pancli.melds import Meld, MeldError, grow, judge
from pancli.rules import Profile

Canon = tuple[tuple[int, tuple[str, ...]], ...]


def oracle(
    cards: Sequence[Card], profile: Profile, table: Sequence[Meld] = (), must_use: Card | None = None
) -> tuple[tuple[int, int, int], set[Canon]]:
    """Best (cards down, chips, -new melds) over every packing, and the distinct best arrangements.

    An arrangement is canonical as a sorted tuple of (target, sorted card texts); target -1 is a new
    meld. With ``must_use`` only arrangements placing at least one copy of that card count (P4).
    """
    n = len(cards)
    options: dict[int, list[tuple[int, int]]] = {}
    for mask in range(1, 1 << n):
        sub = [cards[i] for i in range(n) if mask >> i & 1]
        opts: list[tuple[int, int]] = []
        if len(sub) >= 3:
            v = judge(sub, profile)
            if v.meld is not None:
                opts.append((-1, v.value))
        for j, m in enumerate(table):
            try:
                grown = grow(m, sub, profile)
            except MeldError:
                continue
            opts.append((j, grown.value(profile) - m.value(profile)))
        if opts:
            options[mask] = opts
    best: tuple[int, int, int] = (-1, 0, 0)
    found: set[Canon] = set()

    def rec(left: int, used: int, placed: list[tuple[int, tuple[str, ...], int]]) -> None:
        nonlocal best, found
        if not left:
            if must_use is not None and not any(str(must_use) in p[1] for p in placed):
                return
            score = (
                sum(len(p[1]) for p in placed),
                sum(p[2] for p in placed),
                -sum(1 for p in placed if p[0] < 0),
            )
            canon = tuple(sorted((p[0], p[1]) for p in placed))
            if score > best:
                best, found = score, {canon}
            elif score == best:
                found.add(canon)
            return
        low = left & -left
        rec(left & ~low, used, placed)
        sub = left
        while sub:
            if sub & low and sub in options:
                text = tuple(sorted(str(cards[i]) for i in range(n) if sub >> i & 1))
                for target, value in options[sub]:
                    if target >= 0 and used >> target & 1:
                        continue
                    bit = (1 << target) if target >= 0 else 0
                    placed.append((target, text, value))
                    rec(left & ~sub, used | bit, placed)
                    placed.pop()
            sub = (sub - 1) & left

    rec((1 << n) - 1, 0, [])
    return best, found
