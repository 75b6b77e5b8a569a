"""The rules object of Panguingue: :class:`PanRules`, one per profile, whose public methods
are the rule questions the referee, self-play, positions, the analyzer and the payment batches
ask, each marked with the rules it decides (:func:`pancli.decides.decides`); and the laid melds
it values (:class:`LaidMeld`).

Meld judgements (:func:`pancli.melds.judge`, :func:`pancli.melds.grow`) are cached by the rules
object of a profile, by card tuple, since the same melds recur across hands. A core module: it
loads no rulebook (rule ids are strings here), so that ``pan check`` and ``pan pay`` ask it
from their start.

>>> from pancli.cards import card, Rank, Suit
>>> from pancli.rules import HOYLE
>>> rules = PanRules(HOYLE)
>>> m = rules.laid((card(Rank.FIVE, Suit.SPADES),) * 3)
>>> m.value, str(m), m.rules
(4, '5s 5s 5s', (Rule.C2,))
>>> m.fits(rules, card(Rank.FIVE, Suit.SPADES)), m.fits(rules, card(Rank.FIVE, Suit.HEARTS))
(True, False)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Final, TypeVar

from pancli.cards import ALL_CARDS, PAN_RANKS, SUITS, Card, format_cards, past_the_pack
from pancli.decides import answers, decides
from pancli.melds import (
    Meld,
    MeldError,
    OutValue,
    Rope,
    Verdict,
    going_out_value,
    grow,
    judge,
    keeps_value,
    spread_rule,
)
from pancli.rules import (
    HAND_SIZE,
    MAX_PLAYERS,
    MIN_MELD,
    MIN_PLAYERS,
    NONE_SEEN,
    Condition,
    Ending,
    Forcing,
    Profile,
)
from pancli.values import Value

_Units = TypeVar("_Units", int, float)
"""Units a payer pays: whole ones, or an expected figure."""

if TYPE_CHECKING:  # (a Protocol class costs start-up: pan check builds a rules object)
    from typing import Protocol

    from pancli.melds import EngineRule
    from pancli.meldspace import MeldSpace
    from pancli.refusals import BorrowRefusal, ForceRefusal, NotTen, PastThePack, SplitRefusal, Unseated
    from pancli.rulebook import Rule

    class Seated(Protocol):
        """What the forcing questions (P8, P9) read of a seated player (the referee's ``Seat``)."""

        @property
        def hand_n(self) -> int: ...

        @property
        def melded_n(self) -> int: ...

        def fits(self, rules: PanRules, c: Card) -> int: ...

    class Holding(Seated, Protocol):
        """What P9's excuse reads of the player who keeps his draw: his hand by card index, and
        how many of its cards the record does not show."""

        @property
        def hand(self) -> list[int]: ...

        @property
        def unknown(self) -> int: ...


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


class PanRules:
    """The rules of Panguingue under one profile: every question the referee, self-play,
    positions, the analyzer and the payment batches ask is a method here, marked with the rules
    it decides (:func:`pancli.rulebook.decides`; :mod:`pancli.referee.deciders` collects the
    marks). Built once per profile by whoever judges (:class:`PanRulesByProfile` for a run of
    many hands) and handed to each hand's table; a subclass that answers a question differently
    (a house rule, a test) is followed by every caller.

    Meld judgements are cached by :func:`card_key` bytes, with the laid melds they make (a
    :class:`LaidMeld` never changes, so hands share them, with their fit masks worked out once).
    """

    __slots__ = (
        "_automatic",
        "_cited",
        "_grown",
        "_judged",
        "_laid",
        "_least",
        "_own_e4",
        "_profile",
        "_space",
        "copies",
    )

    def __init__(self, profile: Profile) -> None:
        self._profile = profile
        self._automatic = profile.forcing is Forcing.AUTOMATIC
        """P8's forcing mode (knob ``forcing``), read once: :meth:`must_take` asks it every turn."""
        self._cited: dict[Condition | None, tuple[Rule, ...]] | None = None
        """The rule each condition is: a new meld pays under its conditions' ids (C1..C5; None:
        C6, valued as laid), made when the referee first asks (:meth:`cites`)."""
        self.copies: tuple[int, ...] = tuple(self.copies_of(c) for c in ALL_CARDS)
        """Copies of each card in the pack, by :attr:`Card.index`, as :meth:`copies_of` answers (E1):
        what :meth:`past_the_pack` compares with (E4)."""
        self._least = self.min_meld
        """M1's bound as :attr:`min_meld` answers it, read once: :meth:`judge` passes it on every miss."""
        cls = type(self)
        self._own_e4 = cls.past_the_pack is not PanRules.past_the_pack or cls.copies_fault is not PanRules.copies_fault
        """E4 compared otherwise by a subclass: the meld engine is handed :meth:`copies_fault` (else its
        own comparison with :attr:`copies` answers the same, without a call per judgement)."""
        self._judged: dict[bytes, Verdict] = {}
        self._grown: dict[bytes, LaidMeld | MeldError] = {}
        self._laid: dict[bytes, LaidMeld] = {}
        self._space: MeldSpace | None = None

    @property
    def profile(self) -> Profile:
        """The profile judged under."""
        return self._profile

    def __deepcopy__(self, memo: object) -> PanRules:
        """The caches of a profile are shared by every table judged under it (and its copies)."""
        return self

    def meld_space(self) -> MeldSpace:
        """The analyzer's meld space of these rules (:class:`pancli.meldspace.MeldSpace`): every
        meld the search may lay or grow, as this object's :meth:`judge`, :meth:`grow` and
        :meth:`value` answer, built at the first call and kept (with what the search learns in it)
        for every later caller handed this object."""
        got = self._space
        if got is None:
            from pancli.meldspace import space_of  # start-up: the referee, pan check and pan pay never ask

            got = self._space = space_of(self)
        return got

    # ------------------------------------------------------------------ the pack and the table

    @decides("E1", what="how many copies of a card the profile's pack holds (0: not in the pack)")
    def copies_of(self, c: Card) -> int:
        """E1: the copies of ``c`` in the profile's pack (0: the pack has no such card). Asked once
        per card when the rules object is built (:attr:`copies`)."""
        return self._profile.pack.copies(c)

    @decides("E4", what="whether more copies of a card become known than the pack holds")
    def past_the_pack(
        self, seen: Sequence[int], counts: Iterable[tuple[int, int]], copies: Sequence[int] | None = None
    ) -> tuple[int, int] | None:
        """E4: the first (card index, copies known) of ``counts`` that, with the ``seen`` copies
        already known, is more than the pack holds (``copies``: the pack's, or a count of what
        is left of it), or None."""
        return past_the_pack(seen, self.copies if copies is None else copies, counts)

    def pack_cards(self) -> list[Card]:
        """Every card of the pack, each copy once, in rank and suit order: :meth:`copies_of` (E1)
        of each card, read from :attr:`copies` (self-play shuffles it; its size is a full stock)."""
        return [c for c, n in zip(ALL_CARDS, self.copies, strict=True) for _ in range(n)]

    @answers("E4", what="why cards on their own hold more copies than the pack, none accounted for yet")
    def copies_fault(self, counts: Iterable[tuple[int, int]]) -> PastThePack | None:
        """Why cards on their own (``counts``: each card's index and its copies) cannot all be
        there, none accounted for yet (:meth:`past_the_pack`): the first card past the pack, its
        copies and the pack's; or None. The meld engine words it in its verdict
        (:func:`pancli.rules.past_the_pack_words`), the analyzer in its refusal.

        >>> from pancli.rules import HOYLE
        >>> five = next(c for c in ALL_CARDS if str(c) == "5s")
        >>> PanRules(HOYLE).copies_fault([(five.index, 9)])
        PastThePack(card=Card('5s'), copies=9, holds=8)
        """
        over = self.past_the_pack(NONE_SEEN, counts)
        if over is None:
            return None
        from pancli.refusals import PastThePack  # start-up: only a refusal needs it

        i, n = over
        return PastThePack(ALL_CARDS[i], n, self.copies[i])

    @decides("S1", what="how many players a table seats (2 to 15)")
    def seats(self) -> range:
        """S1: the numbers of players a table seats (2 to 15): :meth:`seating` and
        :meth:`seated_twice` ask it for the referee, self-play and the analyzer, and the
        commands' ``--players`` and the API's ``players`` for their bounds.

        >>> from pancli.rules import HOYLE
        >>> PanRules(HOYLE).seats()
        range(2, 16)
        """
        return range(MIN_PLAYERS, MAX_PLAYERS + 1)

    @answers("S1", what="why so many players cannot be seated")
    def seating(self, players: int) -> Unseated | None:
        """S1: why ``players`` cannot be seated (:meth:`seats`): so many, and the seats there are;
        or None. The referee's S1 ruling words it, and the commands' ``--players`` usage error
        (:func:`pancli.rules.seating_words`).

        >>> from pancli.rules import HOYLE
        >>> PanRules(HOYLE).seating(16), PanRules(HOYLE).seating(15)
        (Unseated(players=16, least=2, most=15), None)
        """
        seats = self.seats()
        if players in seats:
            return None
        from pancli.refusals import Unseated  # start-up: only a refusal needs it

        return Unseated(players, seats[0], seats[-1])

    @answers("S1", what="the first of the players named who is seated twice")
    def seated_twice(self, names: Sequence[str]) -> str | None:
        """S1's one seat each: the first of ``names`` that is seated twice, or None.

        >>> from pancli.rules import HOYLE
        >>> PanRules(HOYLE).seated_twice(("Ana", "Ben", "Ben", "Ana")), PanRules(HOYLE).seated_twice(("Ana",))
        ('Ana', None)
        """
        if len(set(names)) == len(names):
            return None
        return next(n for n in names if names.count(n) > 1)

    @decides("S3", what="the next hand's order of play: the last winner first")
    def next_order(self, players: Sequence[str], winner: str | None) -> tuple[str, ...] | None:
        """S3: the order of play of the next hand with the same ``players`` (in the last hand's
        order) after ``winner`` won: he is first hand and the player on his left deals, last. None
        when the hand had no winner or he does not sit: S3 then sets no order.

        >>> from pancli.rules import HOYLE
        >>> PanRules(HOYLE).next_order(("Ana", "Ben", "Cy", "Dee"), "Cy")
        ('Cy', 'Dee', 'Ana', 'Ben')
        >>> PanRules(HOYLE).next_order(("Ana", "Ben"), None) is None
        True
        """
        if winner is None or winner not in players:
            return None
        i = players.index(winner)
        return (*players[i:], *players[:i])

    @property
    @answers("S3", what="the rule the next hand's order of play is set under")
    def next_order_rule(self) -> Rule:
        """The rule :meth:`next_order` sets the next hand's order of play under (S3): what a
        session names beside the seating it gives the next hand (``pan live``).

        >>> from pancli.rules import HOYLE
        >>> str(PanRules(HOYLE).next_order_rule)
        'S3'
        """
        from pancli.rulebook import Rule  # start-up: only pan live asks it

        return Rule.S3

    @decides("T2", what="what each seated player owes the winner in forfeits and tops")
    def owes_winner(self, went_on_top: bool) -> tuple[int, int]:
        """T2: what a seated player other than the winner pays him, as (forfeit, top): the
        forfeit (knob ``forfeit``) if he went on top, and the top every seated player antes
        (knob ``ante``). Going on top costs both; staying and losing costs the top.

        >>> from pancli.rules import CARDROOM, HOYLE
        >>> PanRules(HOYLE).owes_winner(True), PanRules(HOYLE).owes_winner(False)
        ((2, 0), (0, 0))
        >>> PanRules(CARDROOM).owes_winner(True), PanRules(CARDROOM).owes_winner(False)
        ((0, 1), (0, 1))
        """
        p = self.profile
        return (p.forfeit if went_on_top else 0, p.ante)

    @property
    @decides("S2", what="how many cards each player is dealt (ten)")
    def hand_size(self) -> int:
        """The cards dealt to each player (S2: ten): the count :meth:`holds_ten` (P7) and
        :meth:`is_flat` (P9) compare with, and the referee's deal and count judges (I1) deal by.
        The referee, self-play and the analyzer read it once per hand, never per card."""
        return HAND_SIZE

    @decides("I1", what="whether a deal of so many cards is the right count (ten), or an irregularity")
    def dealt_right(self, cards: int) -> bool:
        """I1: whether a player dealt ``cards`` was dealt the right count, the :attr:`hand_size`
        (S2); a wrong count is an irregularity the referee puts right (its deal judge asks).

        >>> from pancli.rules import HOYLE
        >>> PanRules(HOYLE).dealt_right(10), PanRules(HOYLE).dealt_right(11)
        (True, False)
        """
        return cards == self.hand_size

    @decides("P7", what="whether hand and melds hold ten cards between turns")
    def holds_ten(self, hand: int, melded: int, dealt: int | None = None) -> bool:
        """P7: between turns, ``hand`` cards plus ``melded`` cards is the :attr:`hand_size` dealt
        (or the ``dealt`` count while a wrong count at the deal waits for the count that finds
        it, I1). Going out: :meth:`out_holds_ten`."""
        return hand + melded == (self.hand_size if dealt is None else dealt)

    @answers("P7", what="whether a player going out melded the card drawn beyond the ten he held")
    def out_holds_ten(self, melded: int, dealt: int | None = None) -> bool:
        """P7 at going out (with :meth:`holds_ten`): no card in hand and ``melded`` one card more
        than the hand held, the card drawn or taken melded beyond them.

        >>> from pancli.rules import HOYLE
        >>> PanRules(HOYLE).out_holds_ten(11), PanRules(HOYLE).out_holds_ten(10)
        (True, False)
        """
        return self.holds_ten(0, melded - 1, dealt)

    @answers("P7", what="why a player does not hold ten cards between turns")
    def ten_fault(self, hand: int, melded: int) -> NotTen | None:
        """Why a player holding ``hand`` cards with ``melded`` on the table does not hold ten
        between turns (:meth:`holds_ten`): his counts and the :attr:`hand_size`; or None.

        >>> from pancli.rules import HOYLE
        >>> PanRules(HOYLE).ten_fault(9, 0), PanRules(HOYLE).ten_fault(7, 3)
        (NotTen(hand=9, melded=0, dealt=10), None)
        """
        if self.holds_ten(hand, melded):
            return None
        from pancli.refusals import NotTen  # start-up: only a refusal needs it

        return NotTen(hand, melded, self.hand_size)

    @decides("T4", what="after the last decision: the hand is played, won by the last one in, or void")
    def after_decisions(self, stayed: int) -> Ending | None:
        """T4: how the hand ends once every player has decided, ``stayed`` of them in: won at once
        by the one who stayed (all the others went on top, :attr:`~pancli.rules.Ending.TOPS`), void (nobody
        stayed), or None: it is played.

        >>> from pancli.rules import HOYLE
        >>> [PanRules(HOYLE).after_decisions(n) for n in (3, 1, 0)]
        [None, <Ending.TOPS: 'tops'>, <Ending.VOID: 'void'>]
        """
        if stayed > 1:
            return None
        return Ending.TOPS if stayed == 1 else Ending.VOID

    @decides("I3", what="whether the hand ends here, and how: a player goes out, or it is void")
    def ending(self, active: int, hand: int | None = None, dead_discards: int | None = None) -> Ending | None:
        """How the hand ends as it now stands, or None while it goes on (once it has ended it is
        closed, I3). It is void when no ``active`` player is left (the last one retired, I1, I2)
        or, asked at a reshuffle, there are no ``dead_discards`` to make the new stock of (P10).
        The player in turn goes out when, asked at the end of a turn that used its draw and
        discarded nothing, his ``hand`` is empty: the eleventh card melded (P7, C8). The referee
        records the answer (the rule: C8 out, P10 at a reshuffle, the retirement's I1 or I2), a
        position reads it for what a reshuffle would do, and self-play stops where its table says
        the hand ended. T4's end after the decisions is :meth:`after_decisions`'.

        >>> from pancli.rules import HOYLE
        >>> rules = PanRules(HOYLE)
        >>> rules.ending(3, hand=0), rules.ending(3, hand=2), rules.ending(0), rules.ending(2, dead_discards=0)
        (<Ending.OUT: 'out'>, None, <Ending.VOID: 'void'>, <Ending.VOID: 'void'>)
        """
        if not active or dead_discards == 0:
            return Ending.VOID
        return Ending.OUT if hand == 0 else None

    # ------------------------------------------------------------------ melds

    @decides(
        "E2",
        "M1",
        "M2",
        "M3",
        "M4",
        what="whether some cards are a meld, and which: a rope (M2, in E2's rank order) or a set (M3, M4)",
    )
    def judge(self, cards: tuple[Card, ...]) -> Verdict:
        """:func:`pancli.melds.judge` of ``cards`` (E1 as :meth:`copies_of` answers, E4 as
        :meth:`past_the_pack` compares), cached."""
        key = card_key(cards)
        v = self._judged.get(key)
        if v is None:
            if len(self._judged) > _CACHE_LIMIT:
                self._judged.clear()
            over = self.copies_fault if self._own_e4 else None
            v = self._judged[key] = judge(cards, self._profile, self.copies, over, self._least)
        return v

    def spread_rule(self, n: int) -> EngineRule | None:
        """What :meth:`judge` answers for every meld of ``n`` cards of the pack holding two ranks
        and two suits at least: ``"M2"`` when that is so whatever the cards
        (:func:`pancli.melds.spread_rule`, with :attr:`copies` and :meth:`copies_fault`), else None: it depends on the
        cards, or a subclass judges otherwise (``judge`` overridden), and each such meld is then
        asked of :meth:`judge`. ``pan check``'s batch builds its spread template from this.

        >>> from pancli.rules import HOYLE
        >>> PanRules(HOYLE).spread_rule(3), PanRules(HOYLE).spread_rule(9)
        ('M2', None)
        """
        if type(self).judge is not PanRules.judge:
            return None
        return spread_rule(n, self.copies, self.copies_fault, self.min_meld)

    @property
    def order_free(self) -> bool:
        """Whether :meth:`judge` rules every order of the same cards alike, but for the order a
        reason names them in: what lets ``pan check``'s batch judge a multiset of cards once and
        share what each verdict says is order-free (:attr:`~pancli.melds.Verdict.lead`; a verdict
        without one is asked of each order). The rulebook's judge does; a subclass that overrides
        :meth:`judge` is taken not to, unless it says so by overriding this too, and then each
        verdict it rewords carries its own lead (or none): the batch prints the lead it is given.

        >>> from pancli.rules import HOYLE
        >>> PanRules(HOYLE).order_free
        True
        """
        return type(self).judge is PanRules.judge

    @property
    @answers("M1", what="the fewest cards of a meld (three)")
    def min_meld(self) -> int:
        """The fewest cards of a meld (M1: three): what :meth:`judge` refuses fewer than, and where
        every search for melds starts (the meld space, :attr:`pancli.meldspace.MeldSpace.least`; a
        position's lays; self-play), each reading it once, never per card.

        >>> from pancli.rules import HOYLE
        >>> PanRules(HOYLE).min_meld
        3
        """
        return MIN_MELD

    @decides("C1", "C2", "C3", "C4", "C5", what="which conditions a meld is (C1-C5)")
    def conditions(self, meld: Meld) -> tuple[Condition, ...]:
        """C1-C5: the conditions ``meld`` is (a set's, C1-C3; a rope's with the ace or king, C4, C5)."""
        return meld.conditions()

    @answers("C1", "C2", "C3", "C4", "C5", "C6", what="the rules a new meld pays under: its conditions', or C6")
    def cites(self, meld: Meld) -> tuple[Rule, ...]:
        """What a new meld pays under: the rule of each of its :meth:`conditions`, or C6 for none."""
        cited = self._cited
        if cited is None:
            from pancli.rulebook import Rule  # start-up: pan check and pan pay never ask, nor load the rulebook

            cited = self._cited = {c: (Rule(c.value),) for c in Condition}
            cited[None] = (Rule.C6,)
        return tuple(r for c in self.conditions(meld) for r in cited[c]) or cited[None]

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
            lm = self._laid[key] = LaidMeld.of(v.meld, self, key)
        return lm

    @decides("M5", what="what adding cards to a meld makes, or why it cannot")
    def grow(self, meld: Meld, added: tuple[Card, ...]) -> Meld:
        """:func:`pancli.melds.grow` (M5, with :meth:`keeps_value` of the :meth:`value` before and
        after for C7, :meth:`copies_of` for E1, :meth:`past_the_pack` for E4); raises MeldError.
        Asked afresh: whoever asks often asks :meth:`grown` or :meth:`try_grow`, which keep its answers."""
        return grow(meld, added, self._profile, self.keeps_value, self.copies, self.copies_fault, self.value)

    def try_grow(self, meld: Meld, added: tuple[Card, ...]) -> Meld | MeldError:
        """:meth:`grow`, returning the MeldError instead of raising it (cached)."""
        r = self.grown(LaidMeld(meld, 0, card_key(meld.cards)), added)
        return r if isinstance(r, MeldError) else r.meld

    def grown(self, old: LaidMeld, added: tuple[Card, ...]) -> LaidMeld | MeldError:
        """The laid meld ``old`` becomes with ``added`` (:meth:`grow`, asked once), valued; or the
        MeldError (cached)."""
        key = old.key + b"\xff" + card_key(added)
        r = self._grown.get(key)
        if r is None:
            if len(self._grown) > _CACHE_LIMIT:
                self._grown.clear()
            try:
                m = self.grow(old.meld, added)
            except MeldError as e:
                # Cache a copy without a traceback: a caught error's traceback holds the frames
                # that raised it, and each frame its callers (f_back) up to the Table of the hand
                # that first asked: caching ``e`` itself kept one whole hand alive per entry.
                r = MeldError(e.rule, e.reason)
            else:
                r = LaidMeld.of(m, self)
            self._grown[key] = r
        return r

    @decides("C7", what="whether a change keeps a meld's value (it never drops)")
    def keeps_value(self, before: int, after: int) -> bool:
        """C7: a meld may change only when its value does not drop (:func:`pancli.melds.keeps_value`)."""
        return keeps_value(before, after)

    @answers("C7", what="what laying or changing a meld collects from each active opponent: the new value less the old")
    def change_value(self, before: int, after: int) -> int:
        """C7: what a meld worth ``before`` (0 for a meld laid now) and ``after`` (both parts of a
        split together) collects from each active opponent: the new value minus the old. Every
        payment of a meld laid or changed asks it: the referee's, self-play's claims, ``pan pay``'s
        and the analyzer's.

        >>> from pancli.rules import HOYLE
        >>> PanRules(HOYLE).change_value(4, 6), PanRules(HOYLE).change_value(0, 4)
        (2, 4)
        """
        return after - before

    @decides("C6", what="what a meld is worth as laid (what laying or changing it collects is C7's change_value)")
    def value(self, meld: Meld) -> int:
        """What ``meld`` is worth as laid (C6, the meld engine's: each kind of meld says,
        :meth:`pancli.melds.Rope.value` and :meth:`pancli.melds.Set.value`); what laying or
        changing it collects is :meth:`change_value`'s."""
        return meld.value(self._profile)

    @decides(
        "M6", what="what borrowing a card leaves of a meld, or why it may not (house rules, 4 cards, a rope's end)"
    )
    def borrow(self, meld: Meld, card: Card) -> Borrowing:
        """M6: what is left of ``meld`` when ``card`` is borrowed off it, or why it may not be: the
        house rules allow borrowing (:meth:`borrowing_allowed`), the meld holds a card more than
        :attr:`min_meld` (four or more), the card is in it (off an end of a rope), and what is left
        is a meld (:meth:`judge`) of no lower value (:meth:`keeps_value` of :meth:`value`, C7). The
        referee's ``verify_borrow`` asks it (self-play and the analyzer never borrow).

        >>> from pancli.rules import CARDROOM
        >>> from pancli.notation.fast import fast_cards  # doctest only
        >>> rules = PanRules(CARDROOM)
        >>> rope = rules.judge(fast_cards("2h 3h 4h 5h")).meld
        >>> str(rules.borrow(rope, fast_cards("5h")[0]).left), rules.borrow(rope, fast_cards("3h")[0]).refused
        ('2h 3h 4h', <BorrowRefusal.NOT_THERE: 'not there'>)
        """
        if not self.borrowing_allowed():
            from pancli.refusals import BorrowRefusal  # start-up: only a refusal needs it

            return Borrowing(None, BorrowRefusal.NOT_ALLOWED)
        cards = meld.cards
        if len(cards) <= self.min_meld:
            from pancli.refusals import BorrowRefusal  # start-up: only a refusal needs it

            return Borrowing(None, BorrowRefusal.TOO_FEW_CARDS)
        rest = _without(cards, card, rope=isinstance(meld, Rope))
        if rest is None:
            from pancli.refusals import BorrowRefusal  # start-up: only a refusal needs it

            return Borrowing(None, BorrowRefusal.NOT_THERE)
        v = self.judge(rest)
        if v.meld is None:
            from pancli.refusals import BorrowRefusal  # start-up: only a refusal needs it

            return Borrowing(None, BorrowRefusal.NO_MELD, v.reason)
        if not self.keeps_value(self.value(meld), self.value(v.meld)):
            from pancli.refusals import BorrowRefusal  # start-up: only a refusal needs it

            return Borrowing(None, BorrowRefusal.LOWERS_VALUE)
        return Borrowing(v.meld)

    @answers("M6", what="the shape of a split of a meld into two")
    def split(self, meld: Meld, first: Sequence[Card], second: Sequence[Card]) -> Splitting:
        """M6's other question, asked with :meth:`borrow` (the referee's ``verify_split``): the shape
        of a split of ``meld`` into ``first`` and ``second``. The two hold every card of ``meld``
        and add cards from the hand (``added``: the parts' cards beyond the meld's, each copy
        once), or why not (``refused``; ``missing``: the cards of ``meld`` neither part holds).
        Whether each part is a meld is :meth:`judge`'s, and whether the split lowers a value
        :meth:`keeps_value`'s.

        >>> from pancli.rules import CARDROOM
        >>> from pancli.notation.fast import fast_cards  # doctest only
        >>> rules = PanRules(CARDROOM)
        >>> rope = rules.judge(fast_cards("2h 3h 4h 5h 6h")).meld
        >>> got = rules.split(rope, fast_cards("2h 3h 4h"), fast_cards("4h 5h 6h"))
        >>> [str(c) for c in got.added], got.refused
        (['4h'], None)
        >>> got = rules.split(rope, fast_cards("2h 3h 4h"), fast_cards("5h 6h"))
        >>> got.refused, rules.split(rope, fast_cards("2h 3h"), fast_cards("4h 5h")).missing == fast_cards("6h")
        (<SplitRefusal.ADDS_NOTHING: 'adds nothing'>, True)
        """
        left = list(meld.cards)
        added: list[Card] = []
        for c in (*first, *second):
            if c in left:
                left.remove(c)
            else:
                added.append(c)
        if left or not added:
            from pancli.refusals import SplitRefusal  # start-up: only a refusal needs it

            if left:
                return Splitting(tuple(added), SplitRefusal.MISSING_CARDS, tuple(left))
            return Splitting((), SplitRefusal.ADDS_NOTHING)
        return Splitting(tuple(added))

    @answers("M6", what="whether the house rules allow borrowing and splitting")
    def borrowing_allowed(self) -> bool:
        """M6's first question, asked of a borrow or a split before the meld it changes is found
        (and by :meth:`borrow`): whether the house rules allow borrowing and splitting (the
        ``borrowing`` knob)."""
        return self._profile.borrowing

    @answers("C6", "C7", "C8", what="how many pay a collection at a table of so many active players")
    def payers(self, players: int) -> int:
        """How many pay a player's collections at a table of ``players`` active players, nobody
        retired: every active opponent (C6-C8; the referee's table names them, ``Board.payers``).

        >>> from pancli.rules import HOYLE
        >>> PanRules(HOYLE).payers(6)
        5
        """
        return players - 1

    @answers("C6", "C7", "C8", what="what so many units from each of so many payers come to in all")
    def collected(self, units: _Units, payers: int) -> _Units:
        """What ``units`` from each of the ``payers`` come to in all: every active opponent pays
        each condition, change and the going-out payment (C6-C8; expected units too, a float).

        >>> from pancli.rules import HOYLE
        >>> PanRules(HOYLE).collected(5, 4), PanRules(HOYLE).collected(1.5, 2)
        (20, 3.0)
        """
        return units * payers

    @decides("C8", what="what going out collects from each opponent: the bonus and the melds again")
    def going_out_value(self, melds: Iterable[Meld]) -> OutValue:
        """C8: what each active opponent pays the player who goes out with ``melds``, with the
        bonus and the melds' part apart (:func:`pancli.melds.going_out_value`), each meld as
        :meth:`value` says (C6)."""
        return going_out_value(melds, self._profile, self.value)

    # ------------------------------------------------------------------ forcing and the flat player

    @decides("P8", what="whether the live discard must be taken and added to one of the player's melds")
    def must_take(self, forced_by: str | None, seat: Seated, card: Card | None) -> int:
        """P8: whether ``seat``, in turn, must take the live discard ``card`` (None: there is none)
        and add it to one of his melds: -1 when ``forced_by`` another player (a ``force`` line that
        :meth:`may_force` allowed), else under ``automatic`` forcing (the profile's ``forcing``)
        the 1-based number of his first meld it fits (M5), else 0.

        >>> from pancli.rules import CARDROOM, HOYLE
        >>> from pancli.referee.board import Seat
        >>> ana = Seat("Ana", 10)
        >>> PanRules(HOYLE).must_take("Ben", ana, None), PanRules(CARDROOM).must_take(None, ana, None)
        (-1, 0)
        """
        if forced_by is not None:
            return -1
        if self._automatic and card is not None:
            return seat.fits(self, card)
        return 0

    @answers("P8", what="why a player may not force another to take and add the live discard")
    def may_force(self, forcer: Seated, forced: Seated, in_turn: Seated, card: Card | None) -> ForceRefusal | None:
        """P8's other question: why ``forcer`` may not demand that ``forced`` take the live discard
        ``card`` (None: there is none) and add it, while ``in_turn`` is to play, or None when he
        may: the player forced is in turn, another player forces him, and the card fits one of
        his melds (M5). The referee's judge of a ``force`` line, the position's forcers (``pan
        live`` offers them) and self-play ask it.

        >>> from pancli.rules import HOYLE
        >>> from pancli.referee.board import Seat
        >>> ana, ben = Seat("Ana", 10), Seat("Ben", 10)
        >>> PanRules(HOYLE).may_force(ben, ana, ben, None), PanRules(HOYLE).may_force(ana, ana, ana, None)
        (<ForceRefusal.NOT_IN_TURN: 'not in turn'>, <ForceRefusal.HIMSELF: 'himself'>)
        """
        from pancli.refusals import ForceRefusal  # start-up: a replay meets a force line seldom

        if forced is not in_turn:
            return ForceRefusal.NOT_IN_TURN
        if forced is forcer:
            return ForceRefusal.HIMSELF
        if card is None:
            return ForceRefusal.NO_LIVE_DISCARD
        if not forced.fits(self, card):
            return ForceRefusal.FITS_NO_MELD
        return None

    @decides("P9", what="whether an unused stock draw that fits a flat next player must be kept")
    def must_keep_draw(self, holder: Seated, nxt: Seated, card: Card) -> bool:
        """P9: ``holder`` must keep the unused draw ``card`` and discard a hand card instead: the
        flat rule is played, the next player ``nxt`` is flat (ten melded, an empty hand), ``card``
        could be added to one of his melds (M5), and ``holder`` has a hand card to discard (with
        none, he discards the draw itself)."""
        if not self._profile.flat_rule or not holder.hand_n or nxt is holder or not self.is_flat(nxt):
            return False
        return nxt.fits(self, card) > 0

    @answers("P9", what="the card a player who must keep his draw may not discard")
    def kept_draw(self, holder: Holding, card: Card) -> Card | None:
        """P9 (with :meth:`must_keep_draw`, once it says ``holder`` keeps ``card``): the card he may
        not discard, the kept draw; None when every card of his hand is a known copy of it, so
        that discarding one is discarding a hand card (P9's excuse). The referee's discard due
        asks it, for every caller of a position.

        >>> from pancli.cards import card, Rank, Suit
        >>> from pancli.rules import HOYLE
        >>> from pancli.referee.board import Seat
        >>> five, ana = card(Rank.FIVE, Suit.SPADES), Seat("Ana", 10)
        >>> ana.hand[five.index], ana.hand_n, ana.unknown = 1, 1, 0
        >>> PanRules(HOYLE).kept_draw(ana, five)
        >>> ana.hand[0], ana.hand_n = 1, 2
        >>> PanRules(HOYLE).kept_draw(ana, five)
        Card('5s')
        """
        return None if holder.unknown == 0 and holder.hand[card.index] == holder.hand_n else card

    @answers("P9", what="whether a player is flat: ten cards melded, an empty hand")
    def is_flat(self, seat: Seated) -> bool:
        """P9's flat player, as :meth:`must_keep_draw` asks it: ten cards melded, an empty hand."""
        return not seat.hand_n and seat.melded_n == self.hand_size


class Borrowing(Value):
    """M6's answer to a borrow (:meth:`PanRules.borrow`): what is ``left`` of the meld, or None and
    why not (``refused``; ``reason``: the meld engine's words when what is left is no meld)."""

    left: Meld | None
    refused: BorrowRefusal | None = None
    reason: str = ""


class Splitting(Value):
    """M6's answer to a split (:meth:`PanRules.split`): the hand cards it ``added``, or why it is
    refused (``refused``; ``missing``: the cards of the meld split that neither part holds)."""

    added: tuple[Card, ...]
    refused: SplitRefusal | None = None
    missing: tuple[Card, ...] = ()


def _without(cards: tuple[Card, ...], c: Card, *, rope: bool) -> tuple[Card, ...] | None:
    """``cards`` less one copy of ``c`` (for a rope, only off an end), or None."""
    if rope:
        if cards[0] == c:
            return cards[1:]
        if cards[-1] == c:
            return cards[:-1]
        return None
    if c not in cards:
        return None
    i = cards.index(c)
    return cards[:i] + cards[i + 1 :]


class PanRulesByProfile:
    """The :class:`PanRules` of each profile met, for one run of many hands (a record's hands
    share their profile object; a run may meet several).

    ``make`` builds the rules object of a profile (a subclass of :class:`PanRules` answers a
    rule otherwise for every hand of the run).

    >>> from pancli.rules import CARDROOM, HOYLE
    >>> runs = PanRulesByProfile()
    >>> runs.of(HOYLE) is runs.of(HOYLE), runs.of(HOYLE) is runs.of(CARDROOM)
    (True, False)
    """

    __slots__ = ("_by_profile", "_last", "_make")

    def __init__(self, make: Callable[[Profile], PanRules] = PanRules) -> None:
        self._by_profile: dict[Profile, PanRules] = {}
        self._last: PanRules | None = None
        self._make = make

    def of(self, profile: Profile) -> PanRules:
        """The rules of ``profile``, built the first time it is asked."""
        last = self._last
        if last is not None and last.profile is profile:
            return last  # the profile of the last hand (a profile's hash is a Python call per field)
        rules = self._by_profile.get(profile)
        if rules is None:
            rules = self._by_profile[profile] = self._make(profile)
        self._last = rules
        return rules


class LaidMeld:
    """One meld on the table: its cards, the engine's :data:`Meld` and its value (C6).

    Never changed once made (the referee replaces a meld that grows), so the laid melds of
    :class:`PanRules` are shared by every hand. ``key`` is its :func:`card_key`; ``rules``
    are what a new meld of it pays under (its conditions, C1..C5, or C6 for none).
    """

    __slots__ = ("_mask", "cards", "key", "meld", "rules", "value")

    def __init__(self, meld: Meld, value: int, key: bytes | None = None, cites: tuple[Rule, ...] = ()) -> None:
        self.meld = meld
        self.cards = meld.cards
        self.value = value
        self.key = card_key(meld.cards) if key is None else key
        self.rules = cites
        self._mask = -1

    @classmethod
    def of(cls, meld: Meld, rules: PanRules, key: bytes | None = None) -> LaidMeld:
        """A laid meld valued and its conditions named by ``rules`` (C1-C6)."""
        return cls(meld, rules.value(meld), key, rules.cites(meld))

    def fits(self, rules: PanRules, c: Card) -> bool:
        """Whether one card can be added to this meld (M5, C7, E4): P8 and P9 ask this."""
        return bool(self.fit_mask(rules) >> cidx(c) & 1)

    def fit_mask(self, rules: PanRules) -> int:
        """The cards that can be added one at a time, as a bit mask over :attr:`Card.index`."""
        mask = self._mask
        if mask < 0:
            mask = 0
            for x in self._candidates():
                if _can_grow(rules, self, x):
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


def _can_grow(rules: PanRules, meld: LaidMeld, c: Card) -> bool:
    return not isinstance(rules.grown(meld, (c,)), MeldError)
