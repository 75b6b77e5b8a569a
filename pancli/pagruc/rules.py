"""The rules object of PAGRUC: :class:`PagrucRules`, whose public methods are the questions
the referee (:mod:`pancli.pagruc.referee`), ``pan check --game pagruc`` and ``pan score`` ask,
each marked with the rule it decides (:func:`pancli.decides.decides`). A subclass that answers
a question otherwise (a house rule, a test) is followed by every caller it is handed to.

>>> from pancli.notation.fast import fast_cards
>>> rules = PagrucRules()
>>> pack = rules.pack(6)
>>> pack.packs, rules.meld(fast_cards("5h 6h 7h"), pack).kind
(2, <PagrucKind.RUN: 'run'>)
>>> rules.score([fast_cards("5h 6h 7h")], fast_cards("Ks"), pack).total
8
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Final

from pancli.cards import ALL_CARDS, Card
from pancli.decides import answers, decides
from pancli.pagruc import melds
from pancli.pagruc.melds import PagrucMeld, PagrucVerdict, Where, card_points
from pancli.pagruc.pack import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    PagrucPack,
    beyond_pack,
    official_problem,
    pack_for,
    pack_problem,
    packs_problem,
)
from pancli.pagruc.scoring import CardScore, HandScore
from pancli.rulebook import Rule
from pancli.rules import MeldError

if TYPE_CHECKING:
    from pancli.refusals import DealsProblem, TableProblem

MAX_DEALS: Final = 5
"""No player deals more than five times in an official game (G8)."""


class PagrucRules:
    """The rules of PAGRUC (G1, G2, G4, G5, G7, G8, G9; questions of G3 and G6): built once by
    whoever judges and handed to the referee, the meld check, the scorer, the standings and
    ``pan live``."""

    __slots__ = ()

    @decides(Rule.G1, what="the pack for so many players: one or two packs, so how many copies of each card")
    def pack(self, players: int, packs: int | None = None) -> PagrucPack:
        """The pack ``players`` play with (``packs`` as the record says, else the usual)."""
        return pack_for(players, packs)

    @property
    @decides(Rule.G2, what="how many cards each player is dealt (seven)")
    def deal_size(self) -> int:
        """G2: the cards dealt to each player: seven.

        >>> PagrucRules().deal_size
        7
        """
        return 7

    @answers(Rule.G1, what="why a table of players is not seated with the packs for them")
    def seating_problem(self, players: Sequence[str], packs: int | None = None) -> TableProblem | None:
        """G1 (with :meth:`pack`): why the table of ``players`` (their names, in order of play) is
        not seated: so many do not fit the packs (``packs`` as :meth:`packs_problem` judges it),
        or a player is listed twice; or None. The referee's G1 ruling words it
        (:func:`.words.table_words`), and ``pan live``'s refusal of a new record's players.

        >>> from pancli.pagruc.words import table_words
        >>> table_words(PagrucRules().seating_problem(("Ana", "Ben", "Ana")))
        'a player is listed twice: Ana Ben Ana'
        """
        why = pack_problem(len(players), packs, self.packs_problem)
        if why is None and len(set(players)) != len(players):
            from pancli.refusals import TableFault, TableProblem  # start-up: only a table at fault needs them

            why = TableProblem(TableFault.LISTED_TWICE, len(players), packs=packs, names=tuple(players))
        return why

    @answers(Rule.G1, what="why a round of so many players is not official")
    def official_problem(self, players: int, packs: int | None = None) -> TableProblem | None:
        """G1 (with :meth:`pack`): why a round of ``players`` is not official (fewer than three, or
        :meth:`seating_problem`), or None: the standings ask it of a game's table."""
        return official_problem(players, packs, self.packs_problem)

    @answers(Rule.G1, what="why so many 52-card packs are not a PAGRUC pack")
    def packs_problem(self, packs: int) -> TableProblem | None:
        """G1 (with :meth:`pack`): why ``packs`` 52-card packs are not a PAGRUC pack, or None:
        a record's ``[Packs]`` that is not is left for :meth:`seating_problem` to report, and the
        hand is played with the usual pack."""
        return packs_problem(packs)

    @answers(Rule.G1, what="the packs a record names that a hand is dealt from")
    def record_packs(self, packs: int | None) -> int | None:
        """G1 (with :meth:`pack`): the packs a record names (``[Packs]``) that a hand is dealt
        from: ``packs`` when :meth:`packs_problem` finds them a PAGRUC pack, else None (the usual
        pack for the players; :meth:`seating_problem` reports the record's).

        >>> PagrucRules().record_packs(2), PagrucRules().record_packs(3)
        (2, None)
        """
        return packs if packs is not None and self.packs_problem(packs) is None else None

    @answers(Rule.G1, what="the first card seen more often than a pack holds it")
    def beyond(self, pack: PagrucPack, counts: Iterable[tuple[Card, int]]) -> tuple[Card, int] | None:
        """G1 (with :meth:`pack`), conservation: the first ``(card, copies)`` of ``counts`` that
        ``pack`` holds fewer copies of, or None when every count fits (:func:`.pack.beyond_pack`).
        The referee's G1 judge, :meth:`meld`, :meth:`lay_off`, :meth:`score` and ``pan check``'s
        pack note ask it (the rulings word it with :func:`.words.held_words`).

        >>> from pancli.notation.fast import fast_cards
        >>> from pancli.pagruc.pack import ONE_PACK
        >>> (five,) = fast_cards("5h")
        >>> PagrucRules().beyond(ONE_PACK, [(five, 2)])
        (Card('5h'), 2)
        """
        return beyond_pack(pack, counts)

    @answers(Rule.G1, what="the numbers of players of an official table")
    def official_players(self) -> range:
        """G1 (with :meth:`pack`): the numbers of players of an official table, three to eight
        (``pan check``'s pack note looks for the smallest whose :meth:`pack` holds a meld).

        >>> PagrucRules().official_players()
        range(3, 9)
        """
        return range(MIN_PLAYERS, MAX_PLAYERS + 1)

    @answers(Rule.G1, what="the pack a meld or a hand is judged against when no table is named")
    def pack_without_table(self, packs: int | None = None) -> PagrucPack:
        """G1 (with :meth:`pack`): the pack a meld or a hand is judged against when no table is
        named (``pan check --game pagruc``, ``pan score``): the largest table's, with ``packs``
        packs when given, so by default the most copies of a card a game holds."""
        return self.pack(MAX_PLAYERS, packs)

    @answers(Rule.G1, what="the copies of each card of the pack without a table")
    def copies_without_table(self) -> tuple[int, ...]:
        """G1 (with :meth:`pack`): the copies of each card, by :attr:`~pancli.cards.Card.index`, of
        :meth:`pack_without_table`: the cards ``pan check --game pagruc``, ``pan score`` and the
        record reader read (a card it holds none of is E1 where it is written).

        >>> PagrucRules().copies_without_table()[:4]
        (2, 2, 2, 2)
        """
        pack = self.pack_without_table()
        return tuple(pack.copies(c) for c in ALL_CARDS)

    @decides(Rule.G4, what="whether a new meld is a run or a set")
    def meld(self, cards: Iterable[Card], pack: PagrucPack) -> PagrucVerdict:
        """The verdict on ``cards`` as a new meld (G4; a card beyond ``pack`` is G1) of
        :attr:`min_meld` cards or more, its meld scored by :meth:`points` (G7)."""
        return melds.judge(cards, pack, self.points, self.beyond, self.min_meld)

    @property
    @answers(Rule.G4, what="the fewest cards of a meld: three")
    def min_meld(self) -> int:
        """G4 (with :meth:`meld`): the fewest cards of a meld, three; the smallest melds
        :mod:`pancli.pagruc.position` looks for in a hand.

        >>> PagrucRules().min_meld
        3
        """
        return melds.MIN_MELD

    @decides(Rule.G5, what="whether cards may be laid off on a meld, and what it grows into")
    def lay_off(self, meld: PagrucMeld, added: Iterable[Card], pack: PagrucPack) -> PagrucMeld:
        """The meld ``meld`` grows into with ``added`` (MeldError G5, or G1, when it may not),
        scored by :meth:`points` (G7)."""
        return melds.lay_off(meld, added, pack, self.points, self.beyond)

    @decides(Rule.G7, what="what a card scores where it lies: on the table plus, left in the hand minus")
    def points(self, c: Card, where: Where) -> int:
        """What one card scores where it lies (G7): :meth:`score`, :meth:`meld_points` and
        :meth:`in_hand` add these up."""
        return card_points(c, where)

    @decides(Rule.G6, what="whether a discard ends the hand: the player's last card")
    def hand_over(self, cards_left: int) -> bool:
        """G6: whether a player's discard ends the hand, leaving him ``cards_left`` cards (none:
        it was his last). The referee records the winner it names, which the G6 judge reads.

        >>> PagrucRules().hand_over(0), PagrucRules().hand_over(1)
        (True, False)
        """
        return cards_left == 0

    @answers(Rule.G6, what="whether a turn that ends without a discard kept a card to discard: the last is not melded")
    def kept_card_to_discard(self, cards_left: int) -> bool:
        """G6 (with :meth:`hand_over`): whether a player whose turn ends without a discard, holding
        ``cards_left`` cards, kept one to discard: he may not meld his last card, since only the
        discard of it ends the hand. The G6 judge of a turn's end asks it.

        >>> PagrucRules().kept_card_to_discard(0), PagrucRules().kept_card_to_discard(1)
        (False, True)
        """
        return cards_left > 0

    @answers(Rule.G3, what="whether a player may take more than the top discard: one with a meld on the table")
    def may_take_many(self, has_meld: bool) -> bool:
        """G3: whether a player may take more cards of the discard pile than the top one: only one
        who has a meld of his own on the table (``has_meld``).

        >>> PagrucRules().may_take_many(False), PagrucRules().may_take_many(True)
        (False, True)
        """
        return has_meld

    @answers(Rule.G6, what="whether the stock is turned over: only when it holds no card")
    def turns_over(self, stock: int) -> bool:
        """G6: whether a stock of ``stock`` cards is turned over (the discard pile under the top
        card made the stock) before the next draw: only an empty one, and none is drawn from it.

        >>> PagrucRules().turns_over(0), PagrucRules().turns_over(1)
        (True, False)
        """
        return stock == 0

    @answers(Rule.G5, what="whether a player may lay off at all: one with a meld of his own on the table")
    def may_lay_off(self, has_meld: bool) -> bool:
        """G5 (with :meth:`lay_off`): whether a player may lay off at all: only one who has a meld
        of his own on the table (``has_meld``).

        >>> PagrucRules().may_lay_off(False)
        False
        """
        return has_meld

    @decides(Rule.G8, what="the next hand's order of play: the first hand deals it, dealing keeps one direction")
    def next_order(self, players: Sequence[str]) -> tuple[str, ...]:
        """G8: the order of play of the next hand after one played in the order ``players``
        (dealer last): the player who played first deals, so the order turns by one.
        :func:`pancli.pagruc.standings.game_order_problems` judges a game's hands by it.

        >>> PagrucRules().next_order(("Ana", "Ben", "Cruz", "Dee"))
        ('Ben', 'Cruz', 'Dee', 'Ana')
        """
        return (*players[1:], *players[:1])

    @property
    @answers(Rule.G8, what="the rule the next hand's order of play is set under")
    def next_order_rule(self) -> Rule:
        """The rule :meth:`next_order` sets the next hand's order of play under (G8): what a
        session names beside the seating it gives the next hand (``pan live``).

        >>> str(PagrucRules().next_order_rule)
        'G8'
        """
        return Rule.G8

    @answers(Rule.G8, what="why a game in which each player dealt so many times is not official")
    def deals_problem(self, deals: Mapping[str, int]) -> DealsProblem | None:
        """G8 (with :meth:`next_order`): why a game in which each player dealt ``deals`` times is
        not official (every player deals the same number of times, at most :data:`MAX_DEALS`):
        the deals, whether they are even, and the most; or None. The standings word it
        (:func:`pancli.pagruc.words.deals_words`).

        >>> PagrucRules().deals_problem({"Ana": 2, "Ben": 1})
        DealsProblem(deals=(('Ana', 2), ('Ben', 1)), even=False, most=5)
        """
        counts = set(deals.values())
        even = len(counts) == 1
        if even and max(counts) <= MAX_DEALS:
            return None
        from pancli.refusals import DealsProblem  # start-up: only a game at fault needs it

        return DealsProblem(tuple(deals.items()), even, MAX_DEALS)

    @decides(Rule.G9, what="each player's place and PAGRUC points")
    def pagruc_points(self, totals: Mapping[str, int]) -> dict[str, tuple[int, int]]:
        """Each player's place and PAGRUC points (G9) from the game's ``totals``: ranked by total,
        the first of N players gets N, each next place one fewer, never below 1; tied players
        share the better place. The standings (:func:`pancli.pagruc.standings.game_standings`)
        ask it.

        >>> PagrucRules().pagruc_points({"A": 5, "B": 5, "C": 9})
        {'A': (2, 2), 'B': (2, 2), 'C': (1, 3)}
        >>> PagrucRules().pagruc_points({p: 0 for p in "ABCDEFGH"})["H"]
        (1, 8)
        """
        n = len(totals)
        out: dict[str, tuple[int, int]] = {}
        for p, t in totals.items():
            place = 1 + sum(1 for other in totals.values() if other > t)
            out[p] = (place, max(1, n - place + 1))
        return out

    @answers(Rule.G7, what="what a meld's cards score on the table")
    def meld_points(self, meld: PagrucMeld) -> int:
        """G7: what a meld's cards score on the table."""
        where = meld.where
        return sum(self.points(c, where) for c in meld.cards)

    @answers(Rule.G7, what="what the cards left in a hand score (negative)")
    def in_hand(self, hand: Iterable[Card]) -> tuple[CardScore, ...]:
        """G7: the (negative) contributions of the cards left in a hand."""
        left = Where.HAND
        return tuple(CardScore(c, left, self.points(c, left)) for c in hand)

    @answers(Rule.G7, what="what melded groups and the cards left in a hand score")
    def score(self, groups: Iterable[Sequence[Card]], hand: Sequence[Card], pack: PagrucPack) -> HandScore:
        """Score melded groups and the cards left in a hand (G7, by :meth:`points`).

        Each group must be a meld (:meth:`meld`; else MeldError G4, the reason naming the
        group), and neither a group nor all the cards together may hold more copies of a card
        than ``pack`` (else MeldError G1).

        >>> from pancli.notation.fast import fast_cards
        >>> from pancli.pagruc.pack import TWO_PACKS
        >>> PagrucRules().score([fast_cards("2c 2c 2c")], [], TWO_PACKS)
        Traceback (most recent call last):
        ...
        pancli.rules.MeldError: G1 meld 1 (2c 2c 2c): 2c 3 times, but two packs hold two 2c
        """
        laid: list[PagrucMeld] = []
        for i, group in enumerate(groups, 1):
            v = self.meld(group, pack)
            if v.meld is None:
                raise MeldError(v.rule or Rule.G4, f"meld {i} ({' '.join(map(str, group))}): {v.reason}")
            laid.append(v.meld)
        everything: Counter[Card] = Counter(hand)
        for m in laid:
            everything.update(m.cards)
        beyond = self.beyond(pack, everything.items())
        if beyond is not None:
            from pancli.pagruc.words import held_words  # start-up: only cards past the pack need it

            c, n = beyond
            raise MeldError(Rule.G1, f"{n} copies of {c} in all, {held_words(pack, c)}")
        out: list[CardScore] = []
        for i, m in enumerate(laid, 1):
            where = m.where
            out.extend(CardScore(c, where, self.points(c, where), str(i)) for c in m.cards)
        out.extend(self.in_hand(hand))
        return HandScore(tuple(laid), tuple(hand), tuple(out))
