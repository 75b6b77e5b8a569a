"""The referee's bookkeeping values: seats, laid melds and cached meld judgements.

Everything is counted with lists indexed by :attr:`Card.index` (0..51), never deep-copied.
Meld judgements (:func:`pancli.melds.judge`, :func:`pancli.melds.grow`) are cached per
profile by card tuple, since the same melds recur across hands.

>>> from pancli.cards import card, Rank, Suit
>>> from pancli.rules import HOYLE
>>> js = Judgements(HOYLE)
>>> m = LaidMeld.of(js.judge((card(Rank.FIVE, Suit.SPADES),) * 3).meld, HOYLE)
>>> m.value, str(m)
(4, '5s 5s 5s')
>>> m.fits(js, card(Rank.FIVE, Suit.SPADES)), m.fits(js, card(Rank.FIVE, Suit.HEARTS))
(True, False)
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Final

from pancli.cards import ALL_CARDS, PAN_RANKS, SUITS, Card, format_cards
from pancli.melds import Meld, MeldError, Rope, Verdict, grow, judge
from pancli.rulebook import Rule
from pancli.rules import Condition, Profile

if TYPE_CHECKING:
    from pancli.model.results import Payment, Retirement, Violation


def cidx(c: Card) -> int:
    """The dense index of a card (0..51): :attr:`Card.index`.

    >>> from pancli.cards import card, Card, Rank, Suit
    >>> cidx(card(Rank.KING, Suit.CLUBS)), cidx(Card(Rank.ACE, Suit.SPADES))
    (51, 0)
    """
    return c.index


def card_key(cards: tuple[Card, ...] | list[Card]) -> bytes:
    """A cheap hashable key for a card sequence: the dense indices as bytes (hashing a tuple
    of cards hashes each card's enums in Python; this is one C-level hash).

    >>> from pancli.cards import card, Card, Rank, Suit
    >>> card_key((card(Rank.ACE, Suit.SPADES), Card(Rank.KING, Suit.CLUBS)))
    b'\\x003'
    """
    return bytes([c.index for c in cards])


_CACHE_LIMIT: Final = 50_000


class Judgements:
    """Cached :func:`judge` and :func:`grow` for one profile, and the laid melds they make (a
    :class:`LaidMeld` never changes, so hands share them, with their fit masks worked out once).
    Keys are :func:`card_key` bytes. Built once per profile by whoever referees many hands
    (:class:`ProfileJudgements`) and handed to each hand's table."""

    __slots__ = ("_grown", "_judged", "_laid", "_profile", "copies")

    def __init__(self, profile: Profile) -> None:
        self._profile = profile
        pack = profile.pack
        self.copies: tuple[int, ...] = tuple(pack.copies(c) for c in ALL_CARDS)
        """Copies of each card in the pack, by :attr:`Card.index` (E1, E4)."""
        self._judged: dict[bytes, Verdict] = {}
        self._grown: dict[bytes, LaidMeld | MeldError] = {}
        self._laid: dict[bytes, LaidMeld] = {}

    @property
    def profile(self) -> Profile:
        """The profile judged under."""
        return self._profile

    def __deepcopy__(self, memo: object) -> Judgements:
        """The caches of a profile are shared by every table judged under it (and its copies)."""
        return self

    def judge(self, cards: tuple[Card, ...]) -> Verdict:
        """:func:`pancli.melds.judge` of ``cards``, cached."""
        key = card_key(cards)
        v = self._judged.get(key)
        if v is None:
            if len(self._judged) > _CACHE_LIMIT:
                self._judged.clear()
            v = self._judged[key] = judge(cards, self._profile)
        return v

    def laid(self, cards: tuple[Card, ...]) -> LaidMeld | None:
        """The meld ``cards`` make when laid, valued (C6), or None when they make none (cached)."""
        key = card_key(cards)
        lm = self._laid.get(key)
        if lm is None:
            v = self.judge(cards)
            if v.meld is None:
                return None
            if len(self._laid) > _CACHE_LIMIT:
                self._laid.clear()
            lm = self._laid[key] = LaidMeld.of(v.meld, self._profile, key)
        return lm

    def grow(self, meld: Meld, added: tuple[Card, ...]) -> Meld:
        """:func:`pancli.melds.grow` (M5, C7, E4), cached; raises MeldError."""
        r = self.try_grow(meld, added)
        if isinstance(r, MeldError):
            raise MeldError(r.rule, r.reason)  # a fresh error: a cached one would pile up tracebacks
        return r

    def try_grow(self, meld: Meld, added: tuple[Card, ...]) -> Meld | MeldError:
        """:func:`pancli.melds.grow`, cached, returning the MeldError instead of raising it."""
        r = self.grown(LaidMeld(meld, 0, card_key(meld.cards)), added)
        return r if isinstance(r, MeldError) else r.meld

    def grown(self, old: LaidMeld, added: tuple[Card, ...]) -> LaidMeld | MeldError:
        """The laid meld ``old`` becomes with ``added`` (M5, C7, E4), valued; or the MeldError (cached)."""
        key = old.key + b"\xff" + card_key(added)
        r = self._grown.get(key)
        if r is None:
            if len(self._grown) > _CACHE_LIMIT:
                self._grown.clear()
            try:
                m = grow(old.meld, added, self._profile)
            except MeldError as e:
                # Cache a copy without a traceback: a caught error's traceback holds the frames
                # that raised it, and each frame its callers (f_back) up to the Table of the hand
                # that first asked: caching ``e`` itself kept one whole hand alive per entry.
                r = MeldError(e.rule, e.reason)
            else:
                r = LaidMeld.of(m, self._profile)
            self._grown[key] = r
        return r


class ProfileJudgements:
    """The :class:`Judgements` of each profile met, for one run of many hands (a record's hands
    share their profile object; a run may meet several).

    >>> from pancli.rules import CARDROOM, HOYLE
    >>> runs = ProfileJudgements()
    >>> runs.of(HOYLE) is runs.of(HOYLE), runs.of(HOYLE) is runs.of(CARDROOM)
    (True, False)
    """

    __slots__ = ("_by_profile", "_last")

    def __init__(self) -> None:
        self._by_profile: dict[Profile, Judgements] = {}
        self._last: Judgements | None = None

    def of(self, profile: Profile) -> Judgements:
        """The judgements of ``profile``, built the first time it is asked."""
        last = self._last
        if last is not None and last.profile is profile:
            return last  # the profile of the last hand (a profile's hash is a Python call per field)
        js = self._by_profile.get(profile)
        if js is None:
            js = self._by_profile[profile] = Judgements(profile)
        self._last = js
        return js


_CITED: Final = {c: Rule(c.value) for c in Condition}
"""The rule each condition is: a new meld pays under its conditions' ids (docs/rules.md, C1..C5)."""
_NO_CONDITION: Final = (Rule.C6,)
"""What a new meld that meets no condition is valued under: C6, value as laid (0: never paid)."""


class LaidMeld:
    """One meld on the table: its cards, the engine's :data:`Meld` and its value (C6).

    Never changed once made (the referee replaces a meld that grows), so the laid melds of
    :class:`Judgements` are shared by every hand. ``key`` is its :func:`card_key`; ``rules``
    are what a new meld of it pays under (its conditions, C1..C5, or C6 for none).
    """

    __slots__ = ("_mask", "cards", "key", "meld", "rules", "value")

    def __init__(self, meld: Meld, value: int, key: bytes | None = None) -> None:
        self.meld = meld
        self.cards = meld.cards
        self.value = value
        self.key = card_key(meld.cards) if key is None else key
        self.rules = tuple(_CITED[c] for c in meld.conditions()) or _NO_CONDITION
        self._mask = -1

    @classmethod
    def of(cls, meld: Meld, profile: Profile, key: bytes | None = None) -> LaidMeld:
        """A laid meld valued under ``profile``."""
        return cls(meld, meld.value(profile), key)

    def fits(self, js: Judgements, c: Card) -> bool:
        """Whether one card can be added to this meld (M5, C7, E4): P8 and P9 ask this."""
        return bool(self.fit_mask(js) >> cidx(c) & 1)

    def fit_mask(self, js: Judgements) -> int:
        """The cards that can be added one at a time, as a bit mask over :attr:`Card.index`."""
        mask = self._mask
        if mask < 0:
            mask = 0
            for x in self._candidates():
                if _can_grow(js, self, x):
                    mask |= 1 << cidx(x)
            self._mask = mask
        return mask

    def _candidates(self) -> list[Card]:
        m = self.meld
        if isinstance(m, Rope):
            lo = m.cards[0].rank.pan_index
            hi = m.cards[-1].rank.pan_index
            out = []
            for i in (lo - 1, hi + 1):
                if 0 <= i < len(PAN_RANKS):
                    out.append(ALL_CARDS[(int(PAN_RANKS[i]) - 1) * 4 + m.suit.order])
            return out
        r = int(m.rank) - 1
        return [ALL_CARDS[r * 4 + s.order] for s in SUITS]

    def __deepcopy__(self, memo: object) -> LaidMeld:
        """Never changed once made: a copy of the table that holds it shares it."""
        return self

    def __str__(self) -> str:
        return format_cards(self.cards)


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


def _can_grow(js: Judgements, meld: LaidMeld, c: Card) -> bool:
    return not isinstance(js.grown(meld, (c,)), MeldError)


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

    def __init__(self, name: str) -> None:
        self.name = name
        self.hand: list[int] = [0] * 52
        self.unknown = 10
        self.hand_n = 10
        self.melds: list[LaidMeld] = []
        self.fit_mask = 0
        """Cards that fit any of his melds, by :attr:`Card.index` bit (-1: work it out again)."""
        self.melded_n = 0
        self.active: bool | None = None
        """None until the player decides (T1); then True (stayed) or False (went on top)."""
        self.retired: Retirement | None = None
        """How he retired from the hand (I1, I2: the rule and the line), or None: a retired
        player plays no further turn but still pays others."""
        self.size = 10
        """What his hand and melds hold between turns (P7): ten, or the number dealt when a wrong
        count at the deal is found only at a count later in the hand (I1)."""
        self.standing: list[Foul] = []
        """His foul melds and additions left lying after his turn because a call of each comes later
        in the record (I2): found at the call, or made good before it."""

    def __deepcopy__(self, memo: dict[int, object]) -> Seat:
        """The seat for a copy of the table (:meth:`pancli.referee.table.Table.snapshot`): its card counts
        and laid melds (never changed once made) copied one level, not number by number as deepcopy walks a
        list (the copy of a table was mostly that walk); the fouls left lying, which change, copied whole."""
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

    def fits(self, js: Judgements, c: Card) -> int:
        """The 1-based number of his first meld that ``c`` can be added to (M5), or 0: the
        table of what fits is :meth:`LaidMeld.fit_mask` (the meld engine's ``grow``), kept
        in :attr:`fit_mask` until his melds change. P8 and P9 ask this."""
        mask = self.fit_mask
        if mask < 0:
            mask = 0
            for m in self.melds:
                mask |= m.fit_mask(js)
            self.fit_mask = mask
        i = cidx(c)
        if not mask >> i & 1:
            return 0
        for n, m in enumerate(self.melds, 1):
            if m.fit_mask(js) >> i & 1:
                return n
        return 0  # pragma: no cover - the mask says one fits
