"""Rule profiles and their knobs (docs/rules.md, profiles and knobs), and the conditions table (C1-C5).

A :class:`Profile` is a frozen value. The two built-in profiles are :data:`HOYLE` (the
default) and :data:`CARDROOM`. House rules are a mapping of knob names to values (read
from TOML by the notation layer) applied with :func:`profile_from_mapping`, which rejects
unknown keys and bad values with the key's name: never a silent default.

>>> HOYLE.out_bonus, CARDROOM.out_bonus
(1, 2)
>>> p = profile_from_mapping({"base": "cardroom", "out_bonus": 3})
>>> p.out_bonus, p.borrowing, p.pack.size
(3, True, 310)
>>> profile_from_mapping({"out_bonsu": 3})
Traceback (most recent call last):
...
pancli.rules.HouseRulesError: out_bonsu: unknown knob (known: ...)
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

from msgspec.structs import replace

from pancli.cards import ALL_CARDS, Card, Pack, Rank, past_the_pack
from pancli.values import Value

if TYPE_CHECKING:  # a Literal built at run time costs start-up; annotations only name it
    from typing import Literal

    from pancli.refusals import PastThePack, Unseated
    from pancli.rulebook import Rule

    EngineRule = Literal["E1", "E2", "E4", "M1", "M2", "M3", "M5", "C7"]
    """The rules the meld engine judges, which its verdicts and errors name (ids of the registry,
    :class:`pancli.rulebook.Rule`; spelled here so that a typo is a type error while ``pan check``
    starts without importing the registry)."""

MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 15
"""Players seated at a Panguingue table (S1): the one place of these bounds, which the
referee's S1 judge, the self-play generator, the analyzer and ``--players`` read."""
HAND_SIZE: Final = 10
"""Cards dealt to each player (S2, I1) and held, in hand and melds, between turns (P7): the
referee, the self-play generator and the analyzer read it here."""
MIN_MELD: Final = 3
"""The fewest cards of a meld (M1), as :attr:`pancli.panrules.PanRules.min_meld` answers it for
the meld engine and every search for melds."""


def counted(n: int, noun: str) -> str:
    """``n`` and ``noun`` in the right number, for violation messages.

    >>> counted(1, "meld"), counted(0, "card"), counted(16, "player")
    ('1 meld', '0 cards', '16 players')
    """
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def ordinal(n: int) -> str:
    """``n`` as an ordinal number, for violation messages.

    >>> ordinal(11), ordinal(1), ordinal(22), ordinal(13)
    ('11th', '1st', '22nd', '13th')
    """
    last = 0 if 10 <= n % 100 <= 20 else n % 10
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(last, 'th') }"


# The bounds and words of the rules judged on counts alone (S1, P7, E4). The rules object
# (pancli.panrules.PanRules) decides them with these; its callers ask it, never these.


def seating_words(unseated: Unseated) -> str:
    """What S1 says of a table that cannot be seated (the rules object's answer, ``unseated``):
    the referee's S1 ruling, and the usage error of a command's ``--players``.

    >>> from pancli.refusals import Unseated
    >>> seating_words(Unseated(1, 2, 15)), seating_words(Unseated(16, 2, 15))
    ('1 player seated; Panguingue seats 2 to 15', '16 players seated; Panguingue seats 2 to 15')
    """
    u = unseated
    return f"{counted(u.players, 'player')} seated; Panguingue seats {u.least} to {u.most}"


def ten_words(who: str, hand: int, melded: int, dealt: int) -> str:
    """What P7 says of ``who`` holding ``hand`` cards with ``melded`` on the table, not the
    ``dealt`` count (ten)."""
    return f"{_holds_words(who, hand, melded)}: not {dealt} in all"


def wrong_deal_words(who: str, hand: int, melded: int, dealt: int) -> str:
    """What P7 says of ``who`` dealt a wrong count (I1, not found yet): he holds ``hand`` cards
    with ``melded`` on the table, not the ``dealt`` cards he was dealt."""
    return f"{_holds_words(who, hand, melded)}: not the {dealt} dealt to him"


def _holds_words(who: str, hand: int, melded: int) -> str:
    """What ``who`` holds, in hand and melded: :func:`ten_words`' and :func:`wrong_deal_words`'."""
    return f"{who} holds {hand} and has {melded} melded"


def copies_fault(cards: Iterable[tuple[int, int]], copies: Sequence[int]) -> str | None:
    """E4: why the ``cards`` (each a card's :attr:`~pancli.cards.Card.index` and its number of
    copies) cannot all be there when the pack holds ``copies`` of each (by index), or None. The
    comparison is :func:`pancli.cards.past_the_pack`, which the referee's E4 judge asks too.

    >>> from pancli.cards import ALL_CARDS
    >>> five = next(c for c in ALL_CARDS if str(c) == "5s")
    >>> eights = [8] * 52
    >>> copies_fault([(five.index, 8)], eights) is None, copies_fault([(five.index, 9)], eights)
    (True, '9 copies of 5s, but the pack holds 8')
    """
    over = past_the_pack(NONE_SEEN, copies, cards)
    if over is None:
        return None
    i, n = over
    return copies_words(i, n, copies[i])


def copies_words(i: int, n: int, copies: int) -> str:
    """What E4 says of ``n`` copies of the card of index ``i`` when the pack holds ``copies``."""
    return f"{n} copies of {ALL_CARDS[i]}, but the pack holds {copies}"


def past_the_pack_words(over: PastThePack) -> str:
    """What E4 says of cards past the pack, as the rules object answers (``over``: its
    :meth:`~pancli.panrules.PanRules.copies_fault`)."""
    return copies_words(over.card.index, over.copies, over.holds)


def melds_copies_words(i: int, n: int, copies: int) -> str:
    """What E4 says of one player's melds holding ``n`` copies of the card of index ``i`` when
    the pack holds ``copies`` (``pan pay``: :func:`copies_words` of the melds together)."""
    return f"the melds hold {copies_words(i, n, copies)}"


def accounted_words(card: Card, copies: int) -> str:
    """What E4 says of a card becoming known past the ``copies`` of it the pack holds, all of
    them seen already (the referee's count of a hand)."""
    return f"one copy of {card} too many: the pack holds {copies} and all are already accounted for"


def not_in_pack_words(name: str, rank: Rank) -> str:
    """What E1 says of the card (or the bare rank) ``name`` of ``rank`` when the pack holds none of
    it: an 8, 9 or 10 is not in a Panguingue pack at all, any other card not in this one. The
    readers and the meld engine word it alike.

    >>> not_in_pack_words("9s", Rank.NINE), not_in_pack_words("7", Rank.SEVEN)
    ('9s is not in a Panguingue pack (no 8, 9 or 10)', '7 is not in this pack')
    """
    if not rank.in_pan_pack:
        return f"{name} is not in a Panguingue pack (no 8, 9 or 10)"
    return f"{name} is not in this pack"


NONE_SEEN: Final = (0,) * len(ALL_CARDS)
"""No copy of any card accounted for yet: cards judged on their own against the pack (E4)."""


class Condition(enum.Enum):
    """The five kinds of condition (docs/rules.md, conditions)."""

    C1 = "C1"
    """Valle set (3, 5 or 7), different suits."""
    C2 = "C2"
    """Valle set, one suit."""
    C3 = "C3"
    """Non-valle set, one suit (aces and kings included)."""
    C4 = "C4"
    """Rope that includes the ace."""
    C5 = "C5"
    """Rope that includes the king."""

    @property
    def description(self) -> str:
        """A short English description of the condition."""
        return _CONDITION_TEXT[self]


_CONDITION_TEXT: Final = {
    Condition.C1: "valle set, different suits",
    Condition.C2: "valle set, one suit",
    Condition.C3: "non-valle set, one suit",
    Condition.C4: "rope that includes the ace",
    Condition.C5: "rope that includes the king",
}


class ConditionRate(Value):
    """What one condition pays: base for three cards, and each card beyond three."""

    base: int
    spades: int
    extra: int
    extra_spades: int

    def base_for(self, all_spades: bool) -> int:
        """The base amount, spade rate when every card is a spade."""
        return self.spades if all_spades else self.base

    def extra_for(self, all_spades: bool) -> int:
        """The amount for each card beyond three."""
        return self.extra_spades if all_spades else self.extra


class Forcing(enum.Enum):
    """P8: how a live discard that fits a meld is forced."""

    DEMAND = "demand"
    AUTOMATIC = "automatic"


class SetGrowth(enum.Enum):
    """M5: which cards a different-suits set may take."""

    MISSING_SUIT = "missing_suit"
    ANY = "any"


DEFAULT_TABLE: Final[tuple[ConditionRate, ...]] = (
    ConditionRate(base=1, spades=1, extra=1, extra_spades=1),  # C1
    ConditionRate(base=2, spades=4, extra=1, extra_spades=2),  # C2
    ConditionRate(base=1, spades=2, extra=1, extra_spades=2),  # C3
    ConditionRate(base=1, spades=2, extra=1, extra_spades=2),  # C4
    ConditionRate(base=1, spades=2, extra=1, extra_spades=2),  # C5
)
"""The conditions table of docs/rules.md, conditions, in the order C1..C5."""
_COND_POS: Final = {c: i for i, c in enumerate(Condition)}


class Profile(Value):
    """A complete set of house rules: every knob of docs/rules.md, profiles and knobs."""

    name: str = "hoyle"
    packs: int = 8
    spade_suits_removed: int = 0
    ante: int = 0
    forfeit: int = 2
    out_bonus: int = 1
    forcing: Forcing = Forcing.DEMAND
    flat_rule: bool = True
    mixed_set_growth: SetGrowth = SetGrowth.MISSING_SUIT
    borrowing: bool = False
    conditions: tuple[ConditionRate, ...] = DEFAULT_TABLE
    """The rates of C1..C5, in that order (see :meth:`rate`)."""

    @property
    def pack(self) -> Pack:
        """The pack this profile plays with (E1)."""
        return Pack(self.packs, self.spade_suits_removed)

    def rate(self, condition: Condition) -> ConditionRate:
        """The payment rate of a condition under this profile."""
        return self.conditions[_COND_POS[condition]]

    def knobs(self) -> dict[str, Any]:
        """Every knob as plain data (enums as their strings, the table as nested dicts)."""
        out: dict[str, Any] = {}
        for name in self.__struct_fields__:
            v = getattr(self, name)
            if isinstance(v, enum.Enum):
                v = v.value
            elif name == "conditions":
                v = {
                    c.value: {"base": r.base, "spades": r.spades, "extra": r.extra, "extra_spades": r.extra_spades}
                    for c, r in zip(Condition, v, strict=True)
                }
            out[name] = v
        return out


HOYLE: Final = Profile()
CARDROOM: Final = Profile(
    name="cardroom",
    spade_suits_removed=1,
    ante=1,
    forfeit=0,
    out_bonus=2,
    forcing=Forcing.AUTOMATIC,
    borrowing=True,
)
PROFILES: Final[Mapping[str, Profile]] = {"hoyle": HOYLE, "cardroom": CARDROOM}


def is_builtin(name: str) -> bool:
    """Whether ``name`` names a built-in profile (one of :data:`PROFILES`), case-insensitive: what
    a ``Rules`` tag or ``--rules`` is asked before it is read as a house-rules file.

    >>> is_builtin("CardRoom"), is_builtin("house.toml")
    (True, False)
    """
    return name.lower() in PROFILES


class MeldError(ValueError):
    """A meld or an increase breaks a rule; ``rule`` is its id (``M3``; PAGRUC's ``G1``, ``G5``).
    The meld engine's (:mod:`pancli.melds`) and PAGRUC's; here, where both look, so that a
    PAGRUC hand does not load the Panguingue meld engine to catch it."""

    def __init__(self, rule: EngineRule | Rule, reason: str) -> None:
        super().__init__(f"{rule} {reason}")
        self.rule = rule
        self.reason = reason


def house_part(units: int, payers: int, total: int) -> int:
    """What the house adds to a collection of ``units`` from each of ``payers`` that comes to
    ``total`` in all (the rules object's ``collected``): positive the house pays it, negative it
    takes it, 0 under the rulebook (:data:`~pancli.model.results.HOUSE`).

    >>> house_part(4, 3, 12), house_part(4, 3, 16), house_part(4, 3, 10)
    (0, 4, -2)
    """
    return total - units * payers


class OutValue(Value):
    """What going out collects from each active opponent (C8): the ``bonus`` and the ``melds``
    paid again, and their ``total``. Explaining a payment reads the parts. (Here, not with the
    meld engine's :func:`pancli.melds.going_out_value`: a hand's result names it, PAGRUC's too.)"""

    melds: int
    bonus: int
    total: int


class Ending(enum.Enum):
    """How a hand ended: the one vocabulary of both games. A rules object answers how a hand ends
    with its first three members (:meth:`pancli.panrules.PanRules.ending` and
    :meth:`~pancli.panrules.PanRules.after_decisions`; None from either: play goes on), the
    referee records it in the result (:attr:`pancli.model.results.HandResult.ending`, with its rule
    in ``ending_rule``), and every output reads it there."""

    OUT = "out"
    """A player went out (C8; PAGRUC's G6)."""
    TOPS = "tops"
    """A player won when all the others went on top (T4)."""
    VOID = "void"
    """Nobody won: everybody went on top (T4), no card was left to draw (P10), or every player
    still in the hand retired (I1, I2: the rule of the last retirement)."""
    UNFINISHED = "unfinished"
    """The record stops before the hand's end (a cut-off file)."""
    STOPPED = "stopped"
    """A violation stopped the hand before anybody won (its rule is the ending's rule)."""


class HouseRulesError(ValueError):
    """A house-rules mapping names an unknown knob or gives a bad value.

    ``key`` is the dotted name of the offending knob (``conditions.C2.base``).
    """

    def __init__(self, key: str, message: str, line: int = 0, col: int = 0) -> None:
        super().__init__(f"{key}: {message}")
        self.key = key
        self.message = message
        self.line = line
        """Where the key is in the text it came from (1-based; 0 when not known)."""
        self.col = col


def builtin_profile(name: str) -> Profile:
    """A built-in profile by name (``hoyle`` or ``cardroom``), case-insensitive.

    >>> builtin_profile("CardRoom").forcing
    <Forcing.AUTOMATIC: 'automatic'>
    """
    try:
        return PROFILES[name.lower()]
    except KeyError:
        raise HouseRulesError("base", f"unknown profile {name!r} (built-in: {', '.join(PROFILES)})") from None


_INT_KNOBS: Final = {
    "packs": (5, 11),
    "spade_suits_removed": (0, 1),
    "ante": (0, 100),
    "forfeit": (0, 100),
    "out_bonus": (0, 100),
}
_BOOL_KNOBS: Final = ("flat_rule", "borrowing")
_ENUM_KNOBS: Final[Mapping[str, type[enum.Enum]]] = {"forcing": Forcing, "mixed_set_growth": SetGrowth}
_RATE_KEYS: Final = ("base", "spades", "extra", "extra_spades")
KNOWN_KEYS: Final = ("base", "name", *_INT_KNOBS, *_BOOL_KNOBS, *_ENUM_KNOBS, "conditions")


def _int_value(key: str, value: object, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise HouseRulesError(key, f"expected a whole number from {lo} to {hi}, got {value!r}")
    if not lo <= value <= hi:
        raise HouseRulesError(key, f"{value} is out of range ({lo} to {hi})")
    return value


_ON_OFF: Final = {"on": True, "off": False}


def _bool_value(key: str, value: object) -> bool:
    """A yes/no knob: ``true``/``false``, or the words ``pan rules`` prints, ``"on"``/``"off"``.

    >>> _bool_value("borrowing", "on"), _bool_value("borrowing", False)
    (True, False)
    """
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in _ON_OFF:
        return _ON_OFF[value.strip().lower()]
    raise HouseRulesError(key, f'expected true or false (or "on" or "off"), got {value!r}')


def profile_from_mapping(data: Mapping[str, object], default: Profile = HOYLE) -> Profile:
    """Build a profile from house-rules data (as read from TOML).

    ``base`` names the built-in profile to start from (else ``default``). Every other
    key must be a knob of docs/rules.md, profiles and knobs; ``conditions`` is a table of condition ids
    to ``base``/``spades``/``extra``/``extra_spades``.

    >>> profile_from_mapping({"forcing": "automatic"}).forcing.value
    'automatic'
    >>> profile_from_mapping({"packs": 4})
    Traceback (most recent call last):
    ...
    pancli.rules.HouseRulesError: packs: 4 is out of range (5 to 11)
    """
    base = default
    if "base" in data:
        b = data["base"]
        if not isinstance(b, str):
            raise HouseRulesError("base", f"expected a profile name, got {b!r}")
        base = builtin_profile(b)
    changes: dict[str, Any] = {}
    for key, value in data.items():
        if key == "base":
            continue
        if key == "name":
            if not isinstance(value, str) or not value:
                raise HouseRulesError(key, f"expected a non-empty string, got {value!r}")
            if not value.isprintable():  # a tab, a newline or an ESC would break every output's columns
                raise HouseRulesError(key, f"expected printable text, got {value!r}")
            changes["name"] = value
        elif key in _INT_KNOBS:
            lo, hi = _INT_KNOBS[key]
            changes[key] = _int_value(key, value, lo, hi)
        elif key in _BOOL_KNOBS:
            changes[key] = _bool_value(key, value)
        elif key in _ENUM_KNOBS:
            kind = _ENUM_KNOBS[key]
            allowed = [m.value for m in kind]
            if value not in allowed:
                raise HouseRulesError(key, f"expected one of {', '.join(map(repr, allowed))}, got {value!r}")
            changes[key] = kind(value)
        elif key == "conditions":
            changes[key] = _conditions_from(value, base.conditions)
        else:
            # an empty key ([""] or "" = 1) is named as TOML writes it, not as a blank
            raise HouseRulesError(key or '""', f"unknown knob (known: {', '.join(KNOWN_KEYS)})")
    if "name" not in changes:
        changes["name"] = f"{base.name}+house" if changes else base.name
    return replace(base, **changes)


def _conditions_from(value: object, start: tuple[ConditionRate, ...]) -> tuple[ConditionRate, ...]:
    if not isinstance(value, Mapping):
        raise HouseRulesError("conditions", "expected a table of condition ids (C1..C5)")
    table = dict(zip(Condition, start, strict=True))
    for cid, rate in value.items():
        key = f"conditions.{cid}"
        try:
            cond = Condition(cid)
        except ValueError:
            raise HouseRulesError(key, "unknown condition (known: C1, C2, C3, C4, C5)") from None
        if not isinstance(rate, Mapping):
            raise HouseRulesError(key, f"expected a table with {', '.join(_RATE_KEYS)}")
        old = table[cond]
        parts = {k: getattr(old, k) for k in _RATE_KEYS}
        for k, v in rate.items():
            if k not in _RATE_KEYS:
                raise HouseRulesError(f"{key}.{k}", f"unknown field (known: {', '.join(_RATE_KEYS)})")
            parts[k] = _int_value(f"{key}.{k}", v, 0, 100)
        table[cond] = ConditionRate(**parts)
    return tuple(table[c] for c in Condition)
