"""The rulebook: every rule id ``pan`` cites, with its statement, knobs and ruling.

This is the one registry of rule ids. A violation, a payment, a record or card error and
the ``pan rules`` command all name a :class:`Rule`; its :class:`RuleEntry` in
:data:`RULEBOOK` says what the rule is (``title``, ``statement``), which profile knobs
govern it (``knobs``, from :data:`KNOBS`), what the rulebook prescribes when it is broken
(``ruling``) and where it comes from (``source``). docs/rules.md is the same rulebook
written out for a reader; a test keeps the two listing the same ids.

:class:`Rule` is a string, so ``Rule.P8 == "P8"`` and a rule id prints and serialises as its
plain text; ``Rule("P8")`` is ``Rule.P8`` and iterating the class gives the ids in rulebook order.

>>> Rule.P8 == "P8", str(Rule.C7), f"{Rule.G4}"
(True, 'C7', 'G4')
>>> e = entry(Rule.P8)
>>> e.family, e.title, e.knobs
(Family.TURN, 'Forcing', ('forcing',))
>>> e.ruling.startswith("P8: a forced live discard must be taken")
True
>>> lookup("c7"), lookup(" p10 "), lookup("P11")
(Rule.C7, Rule.P10, None)
>>> Rule("P8") is Rule.P8, len(Rule), list(Rule)[:3]
(True, 69, [Rule.E1, Rule.E2, Rule.E3])
>>> [str(r) for r in closest("P11")]
['P1', 'P10']
>>> KNOBS["out_bonus"].rules, KNOBS["conditions"].cites
((Rule.C8,), 'C1-C5')
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, ClassVar, Final

from pancli.values import Value, replace


class _RuleIds(type):
    """Iterating :class:`Rule` (the class) gives every id in rulebook order."""

    def __iter__(cls) -> Iterator[Rule]:
        return iter(_IN_ORDER)

    def __len__(cls) -> int:
        return len(_IN_ORDER)


class Rule(str, metaclass=_RuleIds):
    """One rule id: a family letter and a number (``E1`` .. ``G9``), a string.

    The ids are the names annotated below, in rulebook order: each is one shared instance,
    ``Rule.P8``, and ``Rule("P8")`` is that instance (a ValueError for a text that is no id).
    A plain class, not an enum: building a 69-member enum class at every start cost more than
    the rest of this module.
    """

    __slots__ = ()

    E1: ClassVar[Rule]
    E2: ClassVar[Rule]
    E3: ClassVar[Rule]
    E4: ClassVar[Rule]
    S1: ClassVar[Rule]
    S2: ClassVar[Rule]
    S3: ClassVar[Rule]
    T1: ClassVar[Rule]
    T2: ClassVar[Rule]
    T3: ClassVar[Rule]
    T4: ClassVar[Rule]
    P1: ClassVar[Rule]
    P2: ClassVar[Rule]
    P3: ClassVar[Rule]
    P4: ClassVar[Rule]
    P5: ClassVar[Rule]
    P6: ClassVar[Rule]
    P7: ClassVar[Rule]
    P8: ClassVar[Rule]
    P9: ClassVar[Rule]
    P10: ClassVar[Rule]
    M1: ClassVar[Rule]
    M2: ClassVar[Rule]
    M3: ClassVar[Rule]
    M4: ClassVar[Rule]
    M5: ClassVar[Rule]
    M6: ClassVar[Rule]
    C1: ClassVar[Rule]
    C2: ClassVar[Rule]
    C3: ClassVar[Rule]
    C4: ClassVar[Rule]
    C5: ClassVar[Rule]
    C6: ClassVar[Rule]
    C7: ClassVar[Rule]
    C8: ClassVar[Rule]
    C9: ClassVar[Rule]
    C10: ClassVar[Rule]
    I1: ClassVar[Rule]
    I2: ClassVar[Rule]
    I3: ClassVar[Rule]
    R1: ClassVar[Rule]
    R2: ClassVar[Rule]
    R3: ClassVar[Rule]
    R4: ClassVar[Rule]
    R5: ClassVar[Rule]
    R6: ClassVar[Rule]
    R7: ClassVar[Rule]
    R8: ClassVar[Rule]
    R9: ClassVar[Rule]
    R10: ClassVar[Rule]
    N1: ClassVar[Rule]
    N2: ClassVar[Rule]
    N3: ClassVar[Rule]
    N4: ClassVar[Rule]
    N5: ClassVar[Rule]
    N6: ClassVar[Rule]
    N7: ClassVar[Rule]
    N8: ClassVar[Rule]
    N9: ClassVar[Rule]
    N10: ClassVar[Rule]
    G1: ClassVar[Rule]
    G2: ClassVar[Rule]
    G3: ClassVar[Rule]
    G4: ClassVar[Rule]
    G5: ClassVar[Rule]
    G6: ClassVar[Rule]
    G7: ClassVar[Rule]
    G8: ClassVar[Rule]
    G9: ClassVar[Rule]

    def __new__(cls, text: object) -> Rule:
        try:
            return _BY_ID[text]
        except (KeyError, TypeError):
            raise ValueError(f"{text!r} is not a rule id") from None

    def __repr__(self) -> str:
        return f"Rule.{self}"

    def __reduce__(self) -> tuple[type[Rule], tuple[str]]:
        return Rule, (str(self),)


_IN_ORDER: Final[tuple[Rule, ...]] = tuple(str.__new__(Rule, name) for name in Rule.__annotations__)
_BY_ID: Final[dict[object, Rule]] = {str(r): r for r in _IN_ORDER}
for _rule in _IN_ORDER:
    setattr(Rule, _rule, _rule)
del _rule


class _Families(type):
    """Iterating :class:`Family` (the class) gives every family in rulebook order."""

    def __iter__(cls) -> Iterator[Family]:
        return iter(_FAMILIES)

    def __len__(cls) -> int:
        return len(_FAMILIES)


class Family(str, metaclass=_Families):
    """One family of rules, a string (its name in the rulebook: ``Family.TURN == "turn"``);
    ``letter`` is the ids' first letter. The families are the attributes below, one shared
    instance each, in rulebook order, and ``Family("turn")`` is that instance. A plain class,
    as :class:`Rule`: an enum class built at every start costs start-up.

    >>> Family("turn") is Family.TURN, list(Family)[:2]
    (True, [Family.EQUIPMENT, Family.SEATS])
    """

    __slots__ = ()

    EQUIPMENT: ClassVar[Family]
    SEATS: ClassVar[Family]
    TOP: ClassVar[Family]
    TURN: ClassVar[Family]
    MELDS: ClassVar[Family]
    CONDITIONS: ClassVar[Family]
    IRREGULARITIES: ClassVar[Family]
    RECORD: ClassVar[Family]
    CARDS: ClassVar[Family]
    PAGRUC: ClassVar[Family]

    @property
    def letter(self) -> str:
        """The letter every id of this family starts with.

        >>> Family.TURN.letter, Family.PAGRUC.letter, Family.CARDS.letter
        ('P', 'G', 'N')
        """
        return _FAMILY_LETTER[self]

    def __new__(cls, text: object) -> Family:
        for f in _FAMILIES:
            if f == text:
                return f
        raise ValueError(f"{text!r} is not a family of rules")

    def __repr__(self) -> str:
        return f"Family.{_FAMILY_NAME[self]}"

    def __reduce__(self) -> tuple[type[Family], tuple[str]]:
        return Family, (str(self),)


# (attribute, the family's name in the rulebook, its ids' letter), in rulebook order
_FAMILY_ROWS: Final = (
    ("EQUIPMENT", "equipment", "E"),
    ("SEATS", "seats and deal", "S"),
    ("TOP", "going on top", "T"),
    ("TURN", "turn", "P"),
    ("MELDS", "melds", "M"),
    ("CONDITIONS", "conditions and payments", "C"),
    ("IRREGULARITIES", "irregularities", "I"),
    ("RECORD", "reading records", "R"),
    ("CARDS", "reading cards", "N"),
    ("PAGRUC", "PAGRUC", "G"),
)
_FAMILIES: Final[tuple[Family, ...]] = tuple(str.__new__(Family, text) for _, text, _ in _FAMILY_ROWS)
_FAMILY_NAME: Final[dict[str, str]] = {f: attr for f, (attr, _, _) in zip(_FAMILIES, _FAMILY_ROWS, strict=True)}
_FAMILY_LETTER: Final[dict[str, str]] = {f: letter for f, (_, _, letter) in zip(_FAMILIES, _FAMILY_ROWS, strict=True)}
for _family, (_attr, _, _) in zip(_FAMILIES, _FAMILY_ROWS, strict=True):
    setattr(Family, _attr, _family)
del _family, _attr


class Knob(Value):
    """A profile knob: its name, the rules it governs and what it means."""

    name: str
    rules: tuple[Rule, ...]
    meaning: str

    @property
    def cites(self) -> str:
        """The rules as ``pan rules`` shows them: ``P8``, ``C1-C5`` for a run, ``-`` for none.

        >>> KNOBS["forcing"].cites, KNOBS["name"].cites
        ('P8', '-')
        """
        if not self.rules:
            return "-"
        if len(self.rules) > 2:
            return f"{self.rules[0]}-{self.rules[-1]}"
        return ", ".join(self.rules)


KNOBS: Final[Mapping[str, Knob]] = MappingProxyType(
    {
        k.name: k
        for k in (
            Knob("name", (), "the profile's name"),
            Knob("packs", (Rule.E1,), "40-card packs shuffled together (5 to 11)"),
            Knob("spade_suits_removed", (Rule.E1,), "suits of spades taken out of the pack (0 or 1)"),
            Knob("ante", (Rule.T2,), "tops each seated player antes before the deal; going on top loses it"),
            Knob("forfeit", (Rule.T2,), "units a player who goes on top forfeits to the winner"),
            Knob("out_bonus", (Rule.C8,), "going-out bonus from each active opponent"),
            Knob("forcing", (Rule.P8,), "a live discard that fits a meld: 'demand' or 'automatic'"),
            Knob("flat_rule", (Rule.P9,), "the flat player's protection"),
            Knob("mixed_set_growth", (Rule.M5,), "a different-suits set takes a 'missing_suit' or 'any' suit"),
            Knob("borrowing", (Rule.M6,), "borrowing and splitting allowed"),
            Knob(
                "conditions",
                (Rule.C1, Rule.C2, Rule.C3, Rule.C4, Rule.C5),
                "the conditions table (below)",
            ),
        )
    }
)
"""Every knob of a profile (pancli.rules.Profile) with the rules it governs, in profile order."""


class RuleEntry(Value):
    """One rule of the rulebook.

    ``statement`` is one paragraph in the project's words; ``ruling`` is what the rulebook
    prescribes when the rule is broken (the text a violation carries, starting with the id);
    ``knobs`` are the profile knobs that govern the rule (from :data:`KNOBS`); ``source`` says
    which published source the rule comes from, or that the project decided it.
    """

    rule: Rule
    family: Family
    title: str
    statement: str
    ruling: str
    source: str
    knobs: tuple[str, ...] = ()


HOYLE_SRC: Final = "Hoyle"
"""The published U.S. rules of Panguingue in the Hoyle tradition (the ``hoyle`` profile)."""
ENCYCLOPEDIA_SRC: Final = "Encyclopedia"
"""The encyclopedia article on Panguingue, California card-room practice (the ``cardroom`` profile)."""
PAGRUC_SRC: Final = "PAGRUC Rules"
"""The PAGRUC rules as formulated by the Sixth Form Class of 2000 (abridged)."""
PROJECT_SRC: Final = "project"
"""Decided by this project where the sources are silent."""

I1_AT_DEAL: Final = (
    "I1: more than 10 cards: the extras are removed to the dead cards; fewer: the hand is filled from the stock."
)
I1_LATE: Final = (
    "I1: a wrong count found after the first draw retires the player from the hand: he returns all he "
    "collected, and still pays others' conditions and the going-out payment."
)
I2_FOUL: Final = (
    "I2: an illegal meld must be made good on demand; if the player cannot and has not yet discarded, he "
    "returns what it collected and goes on legally; if he has already discarded, he returns all his collections "
    "of the hand, his hand is dead, and he retires until the next deal, still paying others."
)
_RECORD_RULING: Final = "the hand is not refereed: it is reported with this first error and the reader goes on"
_CARD_RULING: Final = "the text is not read: the first problem from the left is reported with its column"

_E, _S, _T, _P = Family.EQUIPMENT, Family.SEATS, Family.TOP, Family.TURN
_M, _C, _I = Family.MELDS, Family.CONDITIONS, Family.IRREGULARITIES
_R, _N, _G = Family.RECORD, Family.CARDS, Family.PAGRUC


def _e(rule: Rule, family: Family, title: str, statement: str, ruling: str, source: str) -> RuleEntry:
    return RuleEntry(rule, family, title, statement, ruling, source)  # its knobs: :func:`_tables`


def _entries() -> tuple[RuleEntry, ...]:
    """Every rule's entry, in rulebook order (see :func:`_tables`)."""
    return (
        # ------------------------------------------------------------------ E: equipment
        _e(
            Rule.E1,
            _E,
            "Pack",
            "Pan is played with several 40-card packs shuffled together: the ranks A 2 3 4 5 6 7 J Q K in "
            "each of the four suits, with the 8s, 9s, 10s and jokers taken out. Eight packs (320 cards) is "
            "usual, so every card exists eight times; some rooms take one suit of spades out (310 cards).",
            "E1: the pack holds A 2 3 4 5 6 7 J Q K only.",
            f"{HOYLE_SRC}: Deck used; {ENCYCLOPEDIA_SRC}: The deck",
        ),
        _e(
            Rule.E2,
            _E,
            "Rank order",
            "Ranks run A 2 3 4 5 6 7 J Q K from low to high, so the 7 and the jack are neighbours in a rope. "
            "The ace is low only and nothing wraps round: Q-K-A and K-A-2 are not ropes.",
            "E2: ranks run A 2 3 4 5 6 7 J Q K, 7 next to J; the ace is low only and nothing wraps.",
            f"{HOYLE_SRC}: Deck used",
        ),
        _e(
            Rule.E3,
            _E,
            "Valle cards",
            "The 3s, 5s and 7s are valle cards (cards of value); every other rank is non-valle. Aces and kings "
            "are the non-comoquers, whose sets may mix suits freely (M4).",
            "E3: 3, 5 and 7 are valle; a set's condition (C1-C3) follows from its rank.",
            f"{HOYLE_SRC}: Melds; {ENCYCLOPEDIA_SRC}: Conditions",
        ),
        _e(
            Rule.E4,
            _E,
            "Conservation",
            "No card can be seen more often than the pack holds it, counting every copy wherever it is: in "
            "hands, melds, the discard pile or the upcard. A record showing a ninth 5s (or an eighth spade in "
            "a 310-card pack) is wrong.",
            "E4: no card appears more times than the pack holds, wherever the copies are.",
            PROJECT_SRC,
        ),
        # ------------------------------------------------------------------ S: seats and deal
        _e(
            Rule.S1,
            _S,
            "Players",
            "From 2 to 15 players sit in. Dealing and play go to the right, counter-clockwise. A record lists "
            "the players in order of play: first hand (the dealer's right) first and the dealer last, each "
            "under one name.",
            "S1: 2 to 15 players are seated, each under one name, in order of play (dealer last).",
            f"{HOYLE_SRC}: Number of players, Deal and play",
        ),
        _e(
            Rule.S2,
            _S,
            "Deal",
            "Each player receives ten cards. What is left is the stock; its top card is turned face up as the "
            "upcard, which begins the discard pile.",
            "S2: ten cards are dealt to each player; the rest is the stock, whose top card is the upcard.",
            f"{HOYLE_SRC}: Deal; {ENCYCLOPEDIA_SRC}: The game",
        ),
        _e(
            Rule.S3,
            _S,
            "Next hand",
            "Whoever wins a hand is first hand in the next one, and the player on the winner's left deals it. "
            "This holds whenever the winner sits in the next hand, even if others left or joined: in a record "
            "of several hands the next hand's Players tag must start with the last winner.",
            "S3: the winner of a hand is first hand in the next one; the player on his left deals.",
            f"{HOYLE_SRC}: Deal and play",
        ),
        # ------------------------------------------------------------------ T: going on top
        _e(
            Rule.T1,
            _T,
            "Stay or go on top",
            "Before any card is played, each player in order of play says once whether he stays in the hand or "
            "goes on top (folds). A player who goes on top takes no further part and his cards are dead.",
            "T1: before play, in order of play, each player once either stays or goes on top.",
            f"{HOYLE_SRC}: Going on top; {ENCYCLOPEDIA_SRC}: The game",
        ),
        _e(
            Rule.T2,
            _T,
            "Cost of going on top",
            "Under hoyle there is no ante: a player who goes on top pays a forfeit (2 units) that is set aside "
            "for whoever goes out. Under cardroom every seated player antes one top before the deal; going on "
            "top loses it, and the winner collects all the tops.",
            "T2: the forfeit (hoyle) or the lost top (cardroom) goes to the player who goes out.",
            f"{HOYLE_SRC}: Going on top; {ENCYCLOPEDIA_SRC}: The game",
        ),
        _e(
            Rule.T3,
            _T,
            "Out of the hand",
            "A player who went on top neither pays nor receives anything more in that hand and may not play. "
            "The players who stayed are the active players; only they pay for conditions and going out.",
            "T3: a player who went on top takes no further part in the hand.",
            f"{HOYLE_SRC}: Going on top; {ENCYCLOPEDIA_SRC}: Conditions",
        ),
        _e(
            Rule.T4,
            _T,
            "Last one in",
            "If every player but one goes on top, that player wins at once and takes the forfeits or tops, "
            "and nothing else: no card is played. If everyone goes on top, the hand is void and every forfeit "
            "and top goes back.",
            "T4: when all players but one have gone on top, he wins at once and no cards are played.",
            f"{ENCYCLOPEDIA_SRC}: The game",
        ),
        # ------------------------------------------------------------------ P: the turn
        _e(
            Rule.P1,
            _P,
            "Draw",
            "A turn starts with one draw: the top card of the stock, shown to everyone, or the top card of the "
            "discard pile when P3 allows it. Only the player in turn plays, once per turn.",
            "P1: the player in turn begins his turn by drawing from the stock or taking the live discard.",
            f"{HOYLE_SRC}: Play; {ENCYCLOPEDIA_SRC}: Playing",
        ),
        _e(
            Rule.P2,
            _P,
            "The drawn card never joins the hand",
            "The card drawn must be used in the same turn, in a new meld with hand cards or added to one of the "
            "player's own melds. A card from the stock that is not used is discarded at once, and that discard "
            "ends the turn. P9 is the one exception.",
            "P2: the drawn card never joins the hand: it is used this turn, or (from the stock) discarded at once.",
            f"{HOYLE_SRC}: Play; {ENCYCLOPEDIA_SRC}: Playing",
        ),
        _e(
            Rule.P3,
            _P,
            "Live discard",
            "Only a live discard may be taken: the card the previous player drew from the stock and threw away "
            "unused (for the first player to act, the upcard). The taker must meld it at once. A card "
            "discarded from a hand is dead for good.",
            "P3: a card discarded from a hand is dead and can never be taken; a taken card is melded at once.",
            f"{HOYLE_SRC}: Play",
        ),
        _e(
            Rule.P4,
            _P,
            "Melding gate",
            "A player may lay hand cards on the table (new melds or additions) only in a turn in which he also "
            "uses the card he drew or took.",
            "P4: hand cards may be melded only in a turn in which the drawn or taken card is used.",
            f"{ENCYCLOPEDIA_SRC}: Playing",
        ),
        _e(
            Rule.P5,
            _P,
            "Discard",
            "A player who used his draw finishes the turn by discarding one card from his hand, unless he has "
            "just gone out (P7). The discard ends the turn: nothing follows it.",
            "P5: a player who used his draw ends his turn by discarding one card from his hand; the discard ends it.",
            f"{HOYLE_SRC}: Play",
        ),
        _e(
            Rule.P6,
            _P,
            "Own melds only",
            "Melds stay in front of the player who laid them. A player adds to, borrows from and splits only "
            "his own melds, never an opponent's.",
            "P6: a player adds only to his own melds.",
            f"{HOYLE_SRC}: Increasing",
        ),
        _e(
            Rule.P7,
            _P,
            "Count",
            "Between turns, an active player's hand and his melded cards together hold exactly ten cards. Going "
            "out is melding the eleventh card: the hand is then empty and there is no discard.",
            "P7: between turns hand plus melded cards is exactly 10; going out is the 11th card melded, no discard.",
            f"{HOYLE_SRC}: Object of the game; {ENCYCLOPEDIA_SRC}: Playing",
        ),
        _e(
            Rule.P8,
            _P,
            "Forcing",
            "When the top discard is live and fits one of the melds of the player in turn, he can be made to "
            "take it and add it; the forced card replaces his draw. Under hoyle (forcing = demand) this "
            "happens when another player demands it; under cardroom (forcing = automatic) he must take it "
            "without being asked, and drawing from the stock instead is a violation.",
            "P8: a forced live discard must be taken and added to the player's meld; it replaces his draw.",
            f"{HOYLE_SRC}: Forcing cards; {ENCYCLOPEDIA_SRC}: Playing",
        ),
        _e(
            Rule.P9,
            _P,
            "The flat player",
            "A player with ten cards melded and none in hand is flat: one more card puts him out. When the next "
            "player is flat and the current player's unused stock draw would fit one of the flat player's "
            "melds, the current player may not throw it: he keeps it and discards a hand card instead. Only a "
            "player who has no hand card to discard is excused.",
            "P9: the player keeps a stock draw that fits the flat next player's melds and discards a hand card.",
            f"{HOYLE_SRC}: Play, Going out",
        ),
        _e(
            Rule.P10,
            _P,
            "Stock exhausted",
            "When the stock runs out, the dead discards (all but the top one) are shuffled into a new stock. "
            "If no card at all is left to draw, the hand is void: forfeits and tops go back, and condition "
            "payments already made stand. The new stock holds exactly those dead discards: where the record "
            "shows them all, a card drawn from it that is not among them breaks this rule.",
            "P10: an empty stock is rebuilt from the dead discards; with no card left the hand is void.",
            f"{HOYLE_SRC}: Shuffle",
        ),
        # ------------------------------------------------------------------ M: melds
        _e(
            Rule.M1,
            _M,
            "Meld",
            "A meld is three or more cards laid face up together. With several packs it may hold the same card "
            "more than once.",
            "M1: a meld of fewer than 3 cards is foul; I2 applies.",
            f"{HOYLE_SRC}: Melds; {ENCYCLOPEDIA_SRC}: The game",
        ),
        _e(
            Rule.M2,
            _M,
            "Rope",
            "A rope is three or more cards of one suit in unbroken rank order (E2) with no rank twice, for "
            "example 3h 4h 5h or 6d 7d Jd.",
            "M2: a rope with a gap, a repeated rank or two suits is foul; I2 applies.",
            f"{HOYLE_SRC}: Melds; {ENCYCLOPEDIA_SRC}: The game",
        ),
        _e(
            Rule.M3,
            _M,
            "Set",
            "A set is three or more cards of one rank, either all of one suit or all of different suits; a "
            "different-suits set therefore holds at most four cards.",
            "M3: a set that mixes suits (other than aces and kings) is foul; I2 applies.",
            f"{HOYLE_SRC}: Melds; {ENCYCLOPEDIA_SRC}: The game",
        ),
        _e(
            Rule.M4,
            _M,
            "Non-comoquers",
            "Aces and kings are the non-comoquers: a set of aces or of kings may mix suits in any way, so "
            "As As Ac is a legal meld.",
            "M4: a set of aces or kings may mix suits; it is never foul for its suits.",
            f"{HOYLE_SRC}: Melds; {ENCYCLOPEDIA_SRC}: The game",
        ),
        _e(
            Rule.M5,
            _M,
            "Increasing",
            "A player may add cards to one of his melds as long as it keeps its character: a rope grows at "
            "either end, a one-suit set takes its own suit, a different-suits set takes a suit it lacks (or, "
            "with mixed_set_growth = any, any suit), a mixed ace or king set takes any ace or king.",
            "M5: an addition that changes a meld's character is refused; the meld stays as it was.",
            f"{HOYLE_SRC}: Increasing",
        ),
        _e(
            Rule.M6,
            _M,
            "Borrowing and splitting",
            "Where the profile allows it (off under hoyle, on under cardroom), a player may borrow one card "
            "off an end of his own rope of four or more, or any card of his own set of four or more, to "
            "complete a new meld in the same turn, provided what is left is still a meld and its value does not "
            "drop. He may also split one of his melds into two by adding cards, collecting what the two gain "
            "over the old one.",
            "M6: borrow one card off a rope end or a set of 4+ to complete a new meld this turn; value may not drop.",
            f"{ENCYCLOPEDIA_SRC}: Playing (card-room practice)",
        ),
        # ------------------------------------------------------------------ C: conditions
        _e(
            Rule.C1,
            _C,
            "Valle set, different suits",
            "A set of 3s, 5s or 7s in different suits is a condition: each active opponent pays 1, and 1 more "
            "for each card beyond three.",
            "C1: each active opponent pays the melder 1, plus 1 for each card beyond three.",
            f"{HOYLE_SRC}: Conditions; {ENCYCLOPEDIA_SRC}: Conditions",
        ),
        _e(
            Rule.C2,
            _C,
            "Valle set, one suit",
            "A set of 3s, 5s or 7s all of one suit pays 2 from each active opponent (4 in spades), and 1 more "
            "for each card beyond three (2 in spades).",
            "C2: each active opponent pays the melder 2 (spades 4), plus 1 (spades 2) for each card beyond three.",
            f"{HOYLE_SRC}: Conditions, Increasing; {ENCYCLOPEDIA_SRC}: Conditions",
        ),
        _e(
            Rule.C3,
            _C,
            "Non-valle set, one suit",
            "A set of any other rank, aces and kings included, all of one suit pays 1 from each active opponent "
            "(2 in spades), and 1 more for each card beyond three (2 in spades).",
            "C3: each active opponent pays the melder 1 (spades 2), plus 1 (spades 2) for each card beyond three.",
            f"{HOYLE_SRC}: Conditions; {ENCYCLOPEDIA_SRC}: Conditions",
        ),
        _e(
            Rule.C4,
            _C,
            "Rope with the ace",
            "A rope that includes the ace (A-2-3 and longer) pays 1 from each active opponent (2 in spades), "
            "and 1 more for each card beyond three (2 in spades).",
            "C4: each active opponent pays the melder 1 (spades 2), plus 1 (spades 2) for each card beyond three.",
            f"{HOYLE_SRC}: Conditions; {ENCYCLOPEDIA_SRC}: Conditions",
        ),
        _e(
            Rule.C5,
            _C,
            "Rope with the king",
            "A rope that includes the king (J-Q-K and longer) pays 1 from each active opponent (2 in spades), "
            "and 1 more for each card beyond three (2 in spades).",
            "C5: each active opponent pays the melder 1 (spades 2), plus 1 (spades 2) for each card beyond three.",
            f"{HOYLE_SRC}: Conditions; {ENCYCLOPEDIA_SRC}: Conditions",
        ),
        _e(
            Rule.C6,
            _C,
            "Value as laid",
            "Every meld has a value: 0 when it is no condition, otherwise the table's base plus the increment "
            "for each card beyond three, at the spade rate when every card is a spade. A rope from A to K "
            "counts both the C4 and the C5 base, so completing a rope to A-K never lowers its value; where a "
            "house table gives C4 and C5 different increments, it takes the larger.",
            "C6: a meld is worth its condition's base plus the increment for each card beyond three.",
            PROJECT_SRC,
        ),
        _e(
            Rule.C7,
            _C,
            "Pay the change",
            "Each time a player lays a meld or changes one of his melds (adding, borrowing, splitting), every "
            "active opponent pays him the new value minus the old one, there and then. Adding a fourth 5s to "
            "5s 5s 5s collects 2; four 5s laid together collect 6.",
            "C7: a change that would lower a meld's value is not allowed.",
            f"{HOYLE_SRC}: Increasing",
        ),
        _e(
            Rule.C8,
            _C,
            "Going out",
            "The player who goes out collects from each active opponent the going-out bonus (1 under hoyle, 2 "
            "under cardroom) plus the value of all his melds once more, and takes the forfeits or all the tops.",
            "C8: each active opponent pays the winner the going-out bonus plus the value of all his melds again.",
            f"{HOYLE_SRC}: Going out; {ENCYCLOPEDIA_SRC}: Playing",
        ),
        _e(
            Rule.C9,
            _C,
            "Units",
            "Every amount is counted in units. A record may give the money value of one unit (the Stake tag); "
            "the referee then reports money as well as units.",
            "C9: amounts are units; with a stake, each unit is worth the stake in money.",
            f"{ENCYCLOPEDIA_SRC}: The game",
        ),
        _e(
            Rule.C10,
            _C,
            "Scoring as laid",
            "The referee scores melds exactly as they were laid. It never rearranges a player's cards to raise "
            "or lower what he is owed.",
            "C10: melds are scored as laid, never rearranged.",
            PROJECT_SRC,
        ),
        # ------------------------------------------------------------------ I: irregularities
        _e(
            Rule.I1,
            _I,
            "Wrong count at the deal",
            "A hand dealt more than ten cards has the extras removed to the dead cards; a short hand is filled "
            "from the stock. A wrong count found after the first draw retires the player from the hand: he "
            "returns what he collected and still pays others' conditions and the going-out payment.",
            I1_AT_DEAL,
            f"{HOYLE_SRC}: Irregularities",
        ),
        _e(
            Rule.I2,
            _I,
            "Foul meld",
            "A meld that breaks the meld rules must be made good when someone asks. If the player cannot and "
            "has not discarded yet, he gives back what it collected and plays on legally; if he has already "
            "discarded, he gives back everything he collected in the hand, his hand is dead and he sits out "
            "until the next deal, still paying others. Correcting one's own meld before anyone calls it costs "
            "nothing.",
            I2_FOUL,
            f"{HOYLE_SRC}: Irregularities",
        ),
        _e(
            Rule.I3,
            _I,
            "Closed hand",
            "Once the going-out payment is made the hand is over: no play and no claim is heard after it.",
            "I3: once the going-out payment is made the hand is closed; nothing is heard after.",
            PROJECT_SRC,
        ),
        # ------------------------------------------------------------------ R: reading records
        _e(
            Rule.R1,
            _R,
            "Malformed tag pair",
            'A tag line is [Name "value"]. It is malformed without a name, without a quoted value, with a '
            "value never closed, with an unknown escape, without the closing ] or with text after it.",
            f"R1: {_RECORD_RULING}.",
            PROJECT_SRC,
        ),
        _e(
            Rule.R2,
            _R,
            "Bad tag value",
            "The tags of a hand must make sense (and be readable: a record is UTF-8 text, and a UTF-16 file "
            "is reported as such at its line 1; a NUL byte is binary data, reported at its place, and nothing "
            "after it is read): a Players tag is required, names must be valid and unique, "
            "Game, Stake and Packs must have valid values (Packs in PAGRUC only), and no tag may appear twice.",
            f"R2: {_RECORD_RULING}.",
            PROJECT_SRC,
        ),
        _e(
            Rule.R3,
            _R,
            "Rules tag",
            "The Rules tag names a built-in profile (hoyle, cardroom) or a house-rules file that can be read and "
            "whose knobs are all known and valid. The file is named by a path inside the record's folder (relative, "
            "no '..', no symbolic link out) and is a regular file of at most 64 KiB (not a device, FIFO or folder).",
            f"R3: {_RECORD_RULING}.",
            PROJECT_SRC,
        ),
        _e(
            Rule.R4,
            _R,
            "Malformed Ledger",
            "A Ledger tag lists every player exactly once with a whole number of units; an unknown or repeated "
            "name, a missing player or units that are not a whole number make it malformed.",
            f"R4: {_RECORD_RULING}.",
            PROJECT_SRC,
        ),
        _e(
            Rule.R5,
            _R,
            "Unknown player",
            "Every name in a play line (a turn, a decision, a force, a deal) must be one of the Players.",
            f"R5: {_RECORD_RULING}.",
            PROJECT_SRC,
        ),
        _e(
            Rule.R6,
            _R,
            "Play line syntax",
            "A play line must read as a name followed by actions separated by commas, each action spelled as "
            "the notation says.",
            f"R6: {_RECORD_RULING}.",
            PROJECT_SRC,
        ),
        _e(
            Rule.R7,
            _R,
            "Hand structure",
            "Deal lines and the up line come before the first decision or turn; each player has at most one "
            "deal line and a hand at most one up line.",
            f"R7: {_RECORD_RULING}.",
            PROJECT_SRC,
        ),
        _e(
            Rule.R8,
            _R,
            "Comments and claims",
            "Every { comment is closed by }, and no } stands alone. A [%pays N] claim follows a meld, add, "
            "split or mend action, once.",
            f"R8: {_RECORD_RULING}.",
            PROJECT_SRC,
        ),
        _e(
            Rule.R9,
            _R,
            "PAGRUC action in Panguingue",
            "Taking several cards from the discard pile (take N, take of several cards) and laying off on "
            "another player's meld (lay) are PAGRUC actions, not allowed in a Panguingue record.",
            f"R9: {_RECORD_RULING}.",
            PROJECT_SRC,
        ),
        _e(
            Rule.R10,
            _R,
            "Too long or too large to be a record",
            "A physical line of more than 100,000 characters, a hand of more than 100,000 lines or 10,000,000 "
            "characters, a comment of more than 100,000 characters, a tag value of more than 1,000, a player name "
            "of more than 40, a turn of more than 1,000 actions, a number of more than 9 digits or a file of more "
            "than 10,000,000 hands is not a record (pancli/limits.py, docs/limits.md); the reader stops there "
            "instead of holding it in memory or converting it.",
            f"R10: {_RECORD_RULING}.",
            PROJECT_SRC,
        ),
        # ------------------------------------------------------------------ N: reading cards
        _e(
            Rule.N1,
            _N,
            "Card expected",
            "Where a card should stand there is something else: an unknown rank, a suit first, a stray dash, a "
            "control or other character.",
            f"N1: {_CARD_RULING}.",
            PROJECT_SRC,
        ),
        _e(
            Rule.N2,
            _N,
            "Unbalanced brackets",
            "In a hand every [ opens one group and is closed by ]; groups do not nest.",
            f"N2: {_CARD_RULING}.",
            PROJECT_SRC,
        ),
        _e(
            Rule.N3,
            _N,
            "Empty text",
            "A meld, hand or card was expected, but the text holds nothing but blanks.",
            f"N3: {_CARD_RULING}.",
            PROJECT_SRC,
        ),
        _e(
            Rule.N4,
            _N,
            "Bad rope shorthand",
            "A rope shorthand is a low rank, a dash, a higher rank and one suit (3-5h). It may not run down, "
            "wrap round, span one rank, miss the second rank or name two suits.",
            f"N4: {_CARD_RULING}.",
            PROJECT_SRC,
        ),
        _e(
            Rule.N5,
            _N,
            "Misplaced comma",
            "A comma separates two cards: it may not come first, be doubled or have no card after it.",
            f"N5: {_CARD_RULING}.",
            PROJECT_SRC,
        ),
        _e(
            Rule.N6,
            _N,
            "Empty group",
            "A bracketed group in a hand holds the cards of one meld, so [] is not allowed.",
            f"N6: {_CARD_RULING}.",
            PROJECT_SRC,
        ),
        _e(
            Rule.N7,
            _N,
            "Brackets in a meld",
            "Brackets group melds inside a hand; a single meld is written without them.",
            f"N7: {_CARD_RULING}.",
            PROJECT_SRC,
        ),
        _e(
            Rule.N8,
            _N,
            "Rank without suit",
            "Every rank is followed straight away by its suit letter or symbol, with no blank between.",
            f"N8: {_CARD_RULING}.",
            PROJECT_SRC,
        ),
        _e(
            Rule.N9,
            _N,
            "One card expected",
            "Where exactly one card is asked for, more than one was written.",
            f"N9: {_CARD_RULING}.",
            PROJECT_SRC,
        ),
        _e(
            Rule.N10,
            _N,
            "Text too long",
            "A card, meld or hand literal is at most 4096 characters; a whole pack written out is about 1000.",
            f"N10: {_CARD_RULING}.",
            PROJECT_SRC,
        ),
        # ------------------------------------------------------------------ G: PAGRUC
        _e(
            Rule.G1,
            _G,
            "PAGRUC players and packs",
            "Three to five players use one 52-card pack; six to eight need two packs, which may also serve "
            "fewer players. With fewer than three the round is not official. No card is seen more often than "
            "the packs hold it.",
            "G1: the hand is not refereed with that many players or copies.",
            f"{PAGRUC_SRC}: 1 Number of players",
        ),
        _e(
            Rule.G2,
            _G,
            "PAGRUC deal",
            "Each player gets seven cards; one card turned face up starts the discard pile and the rest is the stock.",
            "G2: a deal of other than seven cards is not refereed, nor a play line before the up card"
            " (a hand that stops after its deal lines is unfinished).",
            f"{PAGRUC_SRC}: 3 Dealing, 4 Playing the Game",
        ),
        _e(
            Rule.G3,
            _G,
            "PAGRUC turn",
            "In turn, a player takes the top card of the stock or of the discard pile; one who already has a "
            "meld on the table may instead take any number of cards from the top of the discard pile. He then "
            "melds or lays off as he likes and discards one card.",
            "G3: a turn out of order or not drawn, melded and discarded as above is refused.",
            f"{PAGRUC_SRC}: 4 Playing the Game",
        ),
        _e(
            Rule.G4,
            _G,
            "PAGRUC melds",
            "A run is three or more cards of one suit in sequence, ace low only (A-2-3 up to J-Q-K, never "
            "Q-K-A). A set is three or more cards of one rank in any suits (with two packs, duplicates too).",
            "G4: a meld that is neither a run nor a set is refused.",
            f"{PAGRUC_SRC}: 4 Playing the Game",
        ),
        _e(
            Rule.G5,
            _G,
            "Laying off",
            "A player with a meld of his own on the table may add cards to any meld on the table, his or "
            "another's; the cards he lays score for him.",
            "G5: laying off without a meld of one's own, or leaving no legal meld, is refused.",
            f"{PAGRUC_SRC}: 4 Playing the Game",
        ),
        _e(
            Rule.G6,
            _G,
            "End of a PAGRUC hand",
            "The hand ends when a player discards his last card. When the stock runs out, the discard pile "
            "under its top card is turned over as the new stock.",
            "G6: play after the last discard, or a turn-over while the stock holds cards, is refused.",
            f"{PAGRUC_SRC}: 4 Playing the Game",
        ),
        _e(
            Rule.G7,
            _G,
            "PAGRUC hand score",
            "Cards on the table score plus and cards left in the hand score minus: 2 to 10 at face value, J Q K "
            "10, an ace 1 in a run and 15 in a set, and an ace left in the hand minus 15.",
            "G7: a claimed score that differs from the count is wrong.",
            f"{PAGRUC_SRC}: 4 Playing the Game",
        ),
        _e(
            Rule.G8,
            _G,
            "Official game",
            "A game is official when every player has dealt the same number of times, at least once and at most "
            "five times. The player who played first in a hand deals the next, always in the same direction.",
            "G8: a game that is not official earns no PAGRUC points.",
            f"{PAGRUC_SRC}: 3 Dealing",
        ),
        _e(
            Rule.G9,
            _G,
            "PAGRUC points",
            "At the end of an official game the players are ranked by total score. With N players the first "
            "gets N points and each next place one fewer, never below 1; tied players share the better place "
            "(ranks 1, 2, 2, 4).",
            "G9: points follow the ranking; ties share the better place.",
            f"{PAGRUC_SRC}: 2 PAGRUC points scoring",
        ),
    )


@functools.cache
def _tables() -> tuple[Mapping[Rule, RuleEntry], Mapping[str, str]]:
    """:data:`RULEBOOK` and :data:`PRESCRIBED`, built when first asked for: only ``pan rules``, a
    ruling and the docs read the texts, and building the entries is a third of this module's import."""
    governs: dict[Rule, tuple[str, ...]] = {}  # each rule's knobs, in profile order: one pass over them
    for k in KNOBS.values():
        for r in k.rules:
            governs[r] = (*governs.get(r, ()), k.name)
    entries = (replace(e, knobs=governs[e.rule]) if e.rule in governs else e for e in _entries())
    book = MappingProxyType({e.rule: e for e in entries})
    return book, MappingProxyType({str(r): e.ruling for r, e in book.items()})


if TYPE_CHECKING:  # at run time from __getattr__, built on first use
    RULEBOOK: Mapping[Rule, RuleEntry]
    """Every rule's entry, in rulebook order (families E S T P M C I R N G)."""
    PRESCRIBED: Mapping[str, str]
    """Each rule id's prescribed ruling (the text a violation of it carries)."""


def __getattr__(name: str) -> object:
    if name == "RULEBOOK":
        return _tables()[0]
    if name == "PRESCRIBED":
        return _tables()[1]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def prescribed(rule: Rule) -> str:
    """The ruling the rulebook prescribes when ``rule`` is broken (the text a violation carries).

    >>> prescribed(Rule.P3).startswith("P3: a card discarded from a hand is dead")
    True
    """
    return _tables()[1][rule]


def entry(rule: Rule | str) -> RuleEntry:
    """The rulebook entry of ``rule`` (a :class:`Rule` or its exact id).

    >>> entry("I3").title
    'Closed hand'
    """
    return _tables()[0][Rule(rule)]


def lookup(text: str) -> Rule | None:
    """The rule an id typed by a person names (any case, blanks around), or None."""
    try:
        return Rule(text.strip().upper())
    except ValueError:
        return None


def closest(text: str, n: int = 3) -> list[Rule]:
    """The ids closest to ``text``, for a "did you mean": same family first, then rulebook order;
    when no id is near, those of the number ``text`` ends in (``ZZ9``: P9, C9, R9).

    >>> [str(r) for r in closest("P11")], [str(r) for r in closest("p")], [str(r) for r in closest("Z1")]
    (['P1', 'P10'], ['P1', 'P2', 'P3'], ['E1', 'S1', 'T1'])
    >>> [str(r) for r in closest("ZZ9")], closest(""), closest("hello")
    (['P9', 'C9', 'R9'], [], [])
    """
    import difflib  # here: only a mistyped rule id needs it, and start-up should not pay for it

    key = text.strip().upper()
    if not key:
        return []
    order = {r: i for i, r in enumerate(Rule)}
    same = [r for r in Rule if r.startswith(key[0])]
    scored = []
    for r in same or list(Rule):
        score = difflib.SequenceMatcher(None, key, str(r)).ratio()
        if score >= 0.5:
            scored.append((-score, order[r], r))
    number = key[len(key.rstrip("0123456789")) :]
    if not scored and number:
        scored = [(0.0, order[r], r) for r in Rule if r[1:] == number]
    return [r for _, _, r in sorted(scored)[:n]]
