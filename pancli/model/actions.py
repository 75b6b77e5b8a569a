"""What happens at the table, as values: every action is a small frozen value (:class:`~pancli.values.Value`).

This is the contract between the record reader (text -> :class:`HandScript`), the
referees (Panguingue in :mod:`pancli.referee`, PAGRUC in :mod:`pancli.pagruc`), the
self-play generator and the canonical writer. No text parsing here: positions are
plain ``line``/``col`` numbers (1-based; 0 when the action was not read from text).

>>> from pancli.cards import card, Rank, Suit
>>> five = card(Rank.FIVE, Suit.HEARTS)
>>> t = Turn("Ana", (Draw(five), MeldNew((five, five, five)), Discard(five)), line=12)
>>> [type(a).__name__ for a in t.actions]
['Draw', 'MeldNew', 'Discard']
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal  # (loaded with msgspec: named here for msgspec to decode a script, review --jobs)

from msgspec.structs import astuple

from pancli.cards import Card, Game
from pancli.rules import HOYLE, Profile
from pancli.values import Value

# --------------------------------------------------------------------------- turn actions
# Each carries its place in the record (line, col) for rulings; 0 means "not from text".
# Each holds only cards, numbers, text and tuples of them, so it can be in no reference cycle:
# the collector leaves it untracked (gc=False), as a record is hundreds of thousands of them.


class Draw(Value, gc=False, tag=True):
    """``draw CARD``: the top card of the stock (P1), shown to all."""

    card: Card
    line: int = 0
    col: int = 0


class Take(Value, gc=False, tag=True):
    """``take CARD``: the top discard (P1, P3; PAGRUC G3)."""

    card: Card
    line: int = 0
    col: int = 0


class TakeMany(Value, gc=False, tag=True):
    """PAGRUC only (G3): ``take 3`` or ``take 5h 6h 7h``: several cards from the top of the
    discard pile. ``cards`` is empty when only ``count`` was written."""

    count: int
    cards: tuple[Card, ...] = ()
    line: int = 0
    col: int = 0


class MeldNew(Value, gc=False, tag=True):
    """``meld [cards]``: lay a new meld. ``claim`` is a ``[%pays N]`` claim (units per opponent)."""

    cards: tuple[Card, ...]
    claim: int | None = None
    line: int = 0
    col: int = 0


class Add(Value, gc=False, tag=True):
    """``add cards to #N``: increase the player's own N-th meld (1-based, order laid) (M5)."""

    cards: tuple[Card, ...]
    target: int
    claim: int | None = None
    number_at: int = 0
    """Where the reader read the ``#N``: characters after the action's column (``col``), on its
    line; 0 when not read from a record. A ruling on the meld number (P6) is placed there."""
    line: int = 0
    col: int = 0


class Lay(Value, gc=False, tag=True):
    """PAGRUC only (G5): ``lay CARDS on NAME#N``: lay off onto any player's N-th meld."""

    cards: tuple[Card, ...]
    owner: str
    target: int
    line: int = 0
    col: int = 0


class Borrow(Value, gc=False, tag=True):
    """``borrow CARD from #N``: take a card off one's own N-th meld to complete a new meld (M6)."""

    card: Card
    source: int
    number_at: int = 0
    """Where the reader read the ``#N``: characters after the action's column (``col``), on its
    line; 0 when not read from a record. A ruling on the meld number (P6) is placed there."""
    line: int = 0
    col: int = 0


class Split(Value, gc=False, tag=True):
    """``split #N [cards] [cards]``: one's own N-th meld becomes the two melds given (M6).

    The two groups hold all the old meld's cards plus the cards added from the hand.
    The first group keeps number N; the second is numbered after the player's last meld.
    """

    target: int
    first: tuple[Card, ...]
    second: tuple[Card, ...]
    claim: int | None = None
    number_at: int = 0
    """Where the reader read the ``#N``: characters after the action's column (``col``), on its
    line; 0 when not read from a record. A ruling on the meld number (P6) is placed there."""
    line: int = 0
    col: int = 0


class Discard(Value, gc=False, tag=True):
    """``discard CARD``: ends the turn (P5)."""

    card: Card
    line: int = 0
    col: int = 0


class Out(Value, gc=False, tag=True):
    """``out``: the player says he went out (optional; the referee sees it) (P7, C8)."""

    line: int = 0
    col: int = 0


class Mend(Value, gc=False, tag=True):
    """``mend #N [cards]``: the player makes his foul meld #N of this turn good (I2): it becomes
    ``cards``, a legal meld, the cards exchanged with his hand. No penalty. For a foul addition
    to #N, ``cards`` are the whole meld #N as it becomes (every card it held before, and the
    addition as corrected). ``claim``: a ``[%pays N]`` claim for the meld as made good (its value
    as a new meld, the gain over #N before the addition)."""

    target: int
    cards: tuple[Card, ...]
    claim: int | None = None
    number_at: int = 0
    """Where the reader read the ``#N`` (as :attr:`Borrow.number_at`)."""
    line: int = 0
    col: int = 0


class TakeBack(Value, gc=False, tag=True):
    """``back #N``: the foul meld #N of this turn, called, cannot be made good: the player takes
    its cards back and returns what it collected (I2), then goes on with his turn legally."""

    target: int
    number_at: int = 0
    """Where the reader read the ``#N`` (as :attr:`Borrow.number_at`)."""
    line: int = 0
    col: int = 0


Action = Draw | Take | TakeMany | MeldNew | Add | Lay | Borrow | Split | Mend | TakeBack | Discard | Out
"""Anything that may appear in a turn line."""

# --------------------------------------------------------------------------- lines of a hand


class Deal(Value, gc=False, tag=True):
    """``deal NAME cards...``: the player's dealt cards (S2).

    >>> from pancli.cards import card, Rank, Suit
    >>> d = Deal("Ana", (card(Rank.FIVE, Suit.SPADES),) * 2, line=7, col=1)
    >>> d.card_place(1)
    (7, 13)
    """

    player: str
    cards: tuple[Card, ...]
    line: int = 0
    col: int = 0
    card_places: tuple[tuple[int, int], ...] | None = None
    """(line, col) of each card as written; None: ``deal NAME`` then the cards one space
    apart, two characters each, from ``col`` (as the fast reader reads a line)."""

    # where each card was written is not part of the deal: both readers give equal deals
    def __eq__(self, other: object) -> bool:
        if other.__class__ is not Deal:
            return NotImplemented
        o: Deal = other
        return (self.player, self.cards, self.line, self.col) == (o.player, o.cards, o.line, o.col)

    def __hash__(self) -> int:
        return hash((self.player, self.cards, self.line, self.col))

    def card_place(self, j: int) -> tuple[int, int]:
        """(line, col) of the ``j``-th card (0-based); col 0 when the deal has no place."""
        if self.card_places is not None and j < len(self.card_places):
            return self.card_places[j]
        if not self.col:
            return self.line, 0
        return self.line, self.col + len("deal ") + len(self.player) + 1 + 3 * j


class Decision(Value, gc=False, tag=True):
    """``NAME stay`` or ``NAME top`` (T1)."""

    player: str
    stay: bool
    line: int = 0
    col: int = 0


class Turn(Value, gc=False, tag=True):
    """``NAME action, action, ...``: one player's turn. ``number`` is an optional move number."""

    player: str
    actions: tuple[Action, ...]
    number: int | None = None
    line: int = 0
    col: int = 0


class Force(Value, gc=False, tag=True):
    """``NAME force OTHER``: NAME demands that OTHER take the live discard and add it (P8)."""

    player: str
    other: str
    line: int = 0
    col: int = 0


class Reshuffle(Value, gc=False, tag=True):
    """``reshuffle``: the dead discards become the new stock (P10; PAGRUC G6)."""

    line: int = 0
    col: int = 0


class Call(Value, gc=False, tag=True):
    """``NAME call OTHER #N``, on a line of its own where it was made: NAME demands that OTHER's
    foul meld #N, or his foul addition to #N, be made good (I2). OTHER may answer on the next
    line with ``OTHER mend #N [cards]`` (a turn line of that one action); the lines before the
    call stand as played."""

    player: str
    other: str
    target: int
    number_at: int = 0
    """Where the reader read the ``#N`` (as :attr:`Borrow.number_at`, from ``col``)."""
    line: int = 0
    col: int = 0


class Count(Value, gc=False, tag=True):
    """``NAME count OTHER`` or ``NAME count OTHER N``, on a line of its own: NAME demands a count
    of OTHER's cards (I1). ``number`` is the number found in OTHER's hand, written for a player
    whose cards the record does not show (None when not written)."""

    player: str
    other: str
    number: int | None = None
    line: int = 0
    col: int = 0


Event = Decision | Turn | Force | Reshuffle | Call | Count
"""A play line of a hand, in record order."""


class LedgerClaim(Value):
    """A ``[Ledger "..."]`` tag: each player's claimed net units for the hand."""

    units: Mapping[str, int]
    line: int = 0
    col: int = 0


class HandScript(Value):
    """One hand as the referee sees it: players in order of play (dealer last), the
    profile, what was dealt, the upcard and every play line in order.

    Players without a :class:`Deal` hold unknown cards (trusted within P7 and E4).
    ``tags`` keeps every tag pair as read (for pass-through); ``first_line`` is the line of
    the hand's first tag (for hand-level rulings).
    """

    players: tuple[str, ...]
    profile: Profile = HOYLE
    game: Game = Game.PANGUINGUE
    deals: tuple[Deal, ...] = ()
    upcard: Card | None = None
    upcard_line: int = 0
    events: tuple[Event, ...] = ()
    stake: Decimal | None = None
    ledger_claim: LedgerClaim | None = None
    tags: tuple[tuple[str, str], ...] = ()
    first_line: int = 0
    packs: int | None = None
    """PAGRUC only: the number of 52-card packs (a ``Packs`` tag); None = by player count (G1)."""
    claim_cols: Mapping[tuple[int, int], int] | None = None
    """The column of each ``[%pays N]`` claim written on its action's line, by the action's
    (line, col); None or missing: column 1 (where a wrong claim is reported)."""
    upcard_col: int = 0
    """The column of the upcard on the ``up`` line (0: not read from text)."""

    # columns say where things were written, not what the hand is (nor do they hash: a dict)
    def _compared(self) -> tuple[object, ...]:
        return astuple(self)[:-2]

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not HandScript:
            return NotImplemented
        return self._compared() == other._compared()

    def __hash__(self) -> int:
        return hash(self._compared())
