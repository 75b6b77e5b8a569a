"""What ``pan pay`` does before it renders: the melds of one player, taken together.

Each meld is judged on its own first (as ``pan check`` does); then E4 holds across them
(together they hold no more copies of a card than the pack), and the payments follow: the
value of every legal meld as laid (C6, C7) and, going out with them, the C8 payment.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from pancli.cards import ALL_CARDS, Card
from pancli.melds import Meld, going_out_value
from pancli.rules import Profile

Counts = tuple[tuple[int, int], ...]
"""``(card index, copies)`` of each distinct card of a meld (:meth:`PackCounter.counts`)."""


class PackCounter:
    """E4 across one player's melds, one meld at a time: :meth:`take` counts a legal meld's cards,
    or says which card it would take past its copies in the pack (that meld is then not counted).

    Each distinct card list is counted once, by card index (a batch repeats its lines, and the
    meld reader gives a repeated line the same tuple): 20,000 lines of 5sss under cProfile
    5.0 s (a Counter of cards a line) -> 0.9 s.

    >>> from pancli.notation import parse_meld
    >>> from pancli.rules import HOYLE
    >>> pack = PackCounter(HOYLE)
    >>> pack.take(parse_meld("5s 5s 5s 5s")), pack.take(parse_meld("5s 5s 5s 5s 5s"))
    (None, 'the melds hold 9 copies of 5s, but the pack holds 8')
    """

    __slots__ = ("_said", "_settled", "_stamp", "most", "seen", "shapes")

    def __init__(self, profile: Profile) -> None:
        self.seen = [0] * len(ALL_CARDS)
        self.most = [profile.pack.copies(c) for c in ALL_CARDS]
        self.shapes: dict[int, tuple[tuple[Card, ...], Counts]] = {}
        self._said: dict[tuple[int, int], str] = {}
        self._stamp = 0
        """Bumped whenever cards are counted."""
        self._settled: dict[Counts, tuple[int, str]] = {}
        """A refused shape and the stamp when it was refused: while no card is counted after it,
        it is refused again with the same reason (a batch past the pack)."""

    def counts(self, cards: tuple[Card, ...]) -> Counts:
        """``(card index, copies)`` of each distinct card of ``cards``: what :meth:`take_counts` takes.
        Each distinct card list is counted once (by identity: a batch repeats its lines)."""
        shape = self.shapes.get(id(cards))
        if shape is None or shape[0] is not cards:  # (the tuple is kept: its id is not reused)
            shape = (cards, tuple((c.index, n) for c, n in Counter(cards).items()))
            if len(self.shapes) < 50_000:
                self.shapes[id(cards)] = shape
        return shape[1]

    def take(self, cards: tuple[Card, ...]) -> str | None:
        """Count ``cards``; or, when one would pass its copies, count nothing and say so (E4)."""
        return self.take_counts(self.counts(cards))

    def take_counts(self, counts: Counts) -> str | None:
        """:meth:`take` of cards given by :meth:`counts`.

        Kept for speed: a million-line ``pan pay -`` is mostly melds past the pack (E4); the
        reason of a refused shape is remembered until a card is counted (the count cannot have
        changed), and each reason is written once. Measured in benchmarks/bench_batch.py
        (``pan pay -``, 200,000 lines, CPU): see benchmarks/README.md; tests/test_cli_pay.py
        compares the reasons with :func:`over_the_pack` line by line.
        """
        settled = self._settled.get(counts)
        if settled is not None and settled[0] == self._stamp:
            return settled[1]
        seen, most = self.seen, self.most
        for k, n in counts:
            if seen[k] + n > most[k]:
                said = self._said.get((k, seen[k] + n))
                if said is None:
                    said = f"the melds hold {seen[k] + n} copies of {ALL_CARDS[k]}, but the pack holds {most[k]}"
                    self._said[k, seen[k] + n] = said
                if len(self._settled) < 50_000:
                    self._settled[counts] = (self._stamp, said)
                return said
        for k, n in counts:
            seen[k] += n
        self._stamp += 1
        return None


def over_the_pack(melds: Sequence[tuple[Card, ...] | None], profile: Profile) -> dict[int, str]:
    """E4 across one player's melds, in order: the index of each meld that takes a card past its
    copies in the pack, with the reason (that meld is then not counted). ``None``: a meld that is
    not legal on its own (not counted).

    >>> from pancli.notation import parse_meld
    >>> from pancli.rules import HOYLE
    >>> over_the_pack([parse_meld("5s 5s 5s 5s"), None, parse_meld("5s 5s 5s 5s 5s")], HOYLE)
    {2: 'the melds hold 9 copies of 5s, but the pack holds 8'}
    """
    pack = PackCounter(profile)
    out: dict[int, str] = {}
    for i, cards in enumerate(melds):
        if cards is not None:
            over = pack.take(cards)
            if over is not None:
                out[i] = over
    return out


def going_out(melds: Sequence[Meld], profile: Profile, out: bool) -> int | None:
    """Units each opponent pays when the player goes out with ``melds`` (C8), None when he does not."""
    return going_out_value(melds, profile) if out else None
