"""The referee's bookkeeping values: seats and the foul melds left lying (the rules object and
the laid melds it values are :mod:`pancli.panrules`'s).

Everything is counted with lists indexed by :attr:`Card.index` (0..51), never deep-copied.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pancli.cards import Card
from pancli.panrules import LaidMeld, PanRules, cidx

if TYPE_CHECKING:
    from pancli.model.results import Payment, Retirement, Violation


class Foul:
    """A foul meld or addition (I2) of the turn in progress, not made good nor taken back:
    its number (``#N``), the ruling, all its ``cards``, the cards ``added`` by the foul action
    (all of them for a new meld), whether the drawn card is among them (``pending``), the meld
    it grew (``base``, None for a new meld) and what the table paid for it (``payments``)."""

    __slots__ = (
        "added",
        "base",
        "before",
        "borrowed",
        "cards",
        "earlier",
        "later",
        "number",
        "payments",
        "pending",
        "violation",
    )

    def __init__(
        self,
        number: int,
        violation: Violation,
        cards: tuple[Card, ...],
        added: tuple[Card, ...],
        pending: bool,
        base: LaidMeld | None,
    ) -> None:
        self.number = number
        self.violation = violation
        self.cards = cards
        self.added = added
        self.pending = pending
        self.base = base
        self.payments: list[Payment] = []
        self.before = False
        """Whether hand cards were melded in the turn before this foul action (P4)."""
        self.borrowed: tuple[Card, ...] = ()
        """The cards borrowed this turn that the foul action used (M6: taken back, they are
        borrowed cards of the turn again, never hand cards)."""
        self.later = False
        """Whether hand cards were melded after it (P4): taking it back leaves them melded."""
        self.earlier = False
        """Whether it was laid in an earlier turn and left lying because a call of it comes later
        in the record (I2): after the discard it can only be made good, or found at the call."""


class Seat:
    """One seated player's state: hand counts, unknown cards, melds and the decision.

    ``hand`` counts known cards by index; ``unknown`` counts cards the record never showed
    (a player without a deal line): what he lays from them is trusted within P7 and E4.
    """

    __slots__ = (
        "active",
        "fit_mask",
        "hand",
        "hand_n",
        "melded_n",
        "melds",
        "name",
        "retired",
        "size",
        "standing",
        "unknown",
    )

    def __init__(self, name: str, dealt: int) -> None:
        """``dealt``: the cards each player is dealt (the rules object's ``hand_size``), all unseen
        until his deal line shows them."""
        self.name = name
        self.hand: list[int] = [0] * 52
        self.unknown = dealt
        self.hand_n = dealt
        self.melds: list[LaidMeld] = []
        self.fit_mask = 0
        """Cards that fit any of his melds, by :attr:`Card.index` bit (-1: work it out again)."""
        self.melded_n = 0
        self.active: bool | None = None
        """None until the player decides (T1); then True (stayed) or False (went on top)."""
        self.retired: Retirement | None = None
        """How he retired from the hand (I1, I2: the rule and the line), or None: a retired
        player plays no further turn but still pays others."""
        self.size = dealt
        """What his hand and melds hold between turns (P7): ``dealt``, or the number dealt when a wrong
        count at the deal is found only at a count later in the hand (I1)."""
        self.standing: list[Foul] = []
        """His foul melds and additions left lying after his turn because a call of each comes later
        in the record (I2): found at the call, or made good before it."""

    def __deepcopy__(self, memo: dict[int, object]) -> Seat:
        """The seat for a copy of the table (:meth:`pancli.referee.table.Table.snapshot`): its card counts
        and laid melds (never changed once made) copied one level, not number by number as deepcopy walks a
        list (the copy of a table was mostly that walk); the fouls left lying, which change, copied whole."""
        import copy  # start-up: only a table that takes lines back copies its seats (copy is loaded by then)

        new = Seat.__new__(Seat)
        for name in Seat.__slots__:
            setattr(new, name, getattr(self, name))
        for name in ("hand", "melds"):
            held: list[object] = getattr(self, name)
            got = memo.get(id(held))
            if got is None:
                got = memo[id(held)] = held.copy()
            setattr(new, name, got)
        new.standing = copy.deepcopy(self.standing, memo)
        new.retired = copy.deepcopy(self.retired, memo)
        return new

    def fits(self, rules: PanRules, c: Card) -> int:
        """The 1-based number of his first meld that ``c`` can be added to (M5), or 0: the
        table of what fits is :meth:`LaidMeld.fit_mask` (the meld engine's ``grow``), kept
        in :attr:`fit_mask` until his melds change. P8 and P9 ask this."""
        mask = self.fit_mask
        if mask < 0:
            mask = 0
            for m in self.melds:
                mask |= m.fit_mask(rules)
            self.fit_mask = mask
        i = cidx(c)
        if not mask >> i & 1:
            return 0
        for n, m in enumerate(self.melds, 1):
            if m.fit_mask(rules) >> i & 1:
                return n
        return 0  # pragma: no cover - the mask says one fits
