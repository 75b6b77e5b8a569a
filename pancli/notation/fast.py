"""The fast path: plain card tokens by dictionary lookup of interned cards.

``str.split`` plus dictionary lookups of pre-built card objects reads melds many times faster
than pyparsing (benchmarks/README.md, bench_check). The fast path accepts exactly this
subset of the grammar: single-card tokens (any case, letters or suit symbols, ``10``
for the PAGRUC ten) separated by ONE space or ONE comma, no leading or trailing
whitespace; for hands, ``[`` glued to the first card of a group and ``]`` to its last.
Melds may also hold the common shorthands written with suit letters (``5sss``, ``3-5h``:
:func:`fast_shorthand`), so ``pan check 5sss`` answers without loading the grammar.
Anything else (symbol shorthands, packed lists, extra spaces, every error) makes it return
``None``, and the caller asks the grammar of record (:mod:`pancli.notation.grammar`),
which reads those and reports errors with their column. It never raises.

Tokens map to the shared instances of :data:`pancli.cards.ALL_CARDS`, so results are
identical (``is``) to the grammar's.

What a pack holds is not decided here: every reader takes a :class:`PackSpellings`, made from the
copies of each card its rules object answers (E1: :meth:`pancli.panrules.PanRules.copies_of`,
read from its ``copies``; PAGRUC's pack, G1), and reads only the cards it holds.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Final

from pancli.cards import ALL_CARDS, Card, Game, Pack, Rank, Suit, card, copies_by_index
from pancli.limits import BINARY_MESSAGE, MAX_LITERAL_CHARS, MAX_MELD_CARDS, BinaryLine, text_length, too_long_message
from pancli.notation.errors import NotationError
from pancli.notation.hand import Hand

SUIT_SPELLINGS: Final = {
    "s": "s", "S": "s", "♠": "s", "♤": "s", "♠\ufe0f": "s", "♤\ufe0f": "s",
    "h": "h", "H": "h", "♥": "h", "♡": "h", "♥\ufe0f": "h", "♡\ufe0f": "h",
    "d": "d", "D": "d", "♦": "d", "♢": "d", "♦\ufe0f": "d", "♢\ufe0f": "d",
    "c": "c", "C": "c", "♣": "c", "♧": "c", "♣\ufe0f": "c", "♧\ufe0f": "c",
}  # fmt: skip
"""Every spelling of a suit: letters in either case, symbols (``♠ ♤``), with or without U+FE0F."""


def _token_table(cards: tuple[Card, ...]) -> dict[str, Card]:
    spellings = {letter: [s for s, to in SUIT_SPELLINGS.items() if to == letter] for letter in "shdc"}
    table: dict[str, Card] = {}
    for c in cards:
        symbol, letter = c.text[0], c.text[1]  # the canonical text: rank symbol, suit letter
        ranks = (symbol, "t", "10") if symbol == "T" else (symbol,) if symbol.isdigit() else (symbol, symbol.lower())
        for spelled in spellings[letter]:
            for r in ranks:
                table[r + spelled] = c
    return table


MAX_LENGTH: Final = MAX_LITERAL_CHARS
"""The longest literal read, in characters (a whole pack written out is about 1000). Longer
text is refused (N10) before parsing: the grammar is slow on long text, and a 1 MB line
must not take a minute to reject. A meld or group of more than MAX_MELD_CARDS cards is N10
too: the fast path leaves it to the grammar, which says so."""


def unread_error(text: str, offset: int = 0) -> NotationError | None:
    """The error of text no reader parses, else None (columns shifted by ``offset``): N10 for a
    literal longer than :data:`MAX_LENGTH` (at its first character past the limit), naming the
    whole length, also of a line its reader cut short (:class:`~pancli.limits.LongLine`); N1
    for the line binary data cut (:class:`~pancli.limits.BinaryLine`), at its NUL.

    >>> unread_error("5s" * 3000).message
    'a text of 6,000 characters is too long (at most 4,096)'
    >>> str(unread_error(BinaryLine("5s\\x00"))), unread_error("5s\\x00")
    ('1:3: N1 binary data (a NUL byte): input is text, the rest is not read', None)
    """
    if type(text) is BinaryLine:
        return NotationError("N1", BINARY_MESSAGE, len(text) + offset, 1)
    if len(text) <= MAX_LENGTH:
        return None
    line = text.count("\n", 0, MAX_LENGTH) + 1
    col = MAX_LENGTH - text.rfind("\n", 0, MAX_LENGTH)
    message = too_long_message("a text", text_length(text), MAX_LENGTH)
    return NotationError("N10", message, col + offset if line == 1 else col, line)


class PackSpellings:
    """What the card readers accept of one pack: the cards it holds (a card of which the pack
    holds no copy is E1, wherever it is written), their one-card tokens, the spellings of the
    ranks it holds and those ranks low to high, which a rope shorthand spans (``6-Jh`` is 6h 7h Jh
    in a Panguingue pack). Made by :func:`pack_spellings` from the copies its rules object
    answers; two packs holding the same cards are equal (the grammars are cached by it).

    >>> pan = pack_spellings(copies_by_index(Pack()))
    >>> len(pan.held), [r.symbol for r in pan.order][5:8], pan.tokens["q\u2665"]
    (40, ['6', '7', 'J'], Card('Qh'))
    """

    __slots__ = ("canonical", "grammars", "held", "key", "order", "pos", "ranks", "tokens", "whole")

    def __init__(self, key: bytes) -> None:
        held = tuple(c for c, n in zip(ALL_CARDS, key, strict=True) if n)
        self.key = key
        """One byte a card, by :attr:`Card.index`: 1 when the pack holds it."""
        self.held = frozenset(held)
        self.tokens = _token_table(held)
        """Every accepted one-card token (``5s``, ``kH``, ``Q♥``, ``10h``) to its card."""
        self.canonical = {str(c): c for c in held}
        """The canonical token of each card held (``5s``, ``Kh``)."""
        held_ranks = {c.rank for c in held}
        self.order = tuple(r for r in Rank if r in held_ranks)
        """The ranks held, low to high."""
        self.pos = {r: i for i, r in enumerate(self.order)}
        self.ranks = _rank_spellings(self.order)
        """Each spelling of a rank held (``K``, ``k``, ``10``, ``T``) to its rank."""
        self.whole = len(held) == 4 * len(self.order)
        """Whether the pack holds every suit of each rank it holds."""
        self.grammars: dict[tuple[str, Game], object] = {}
        """The grammars built to read this pack (by :mod:`pancli.notation.grammar` and
        :mod:`pancli.notation.record_grammar`, for a pack other than a game's usual one): kept
        with the pack, which its caller keeps for as long as it reads with it."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PackSpellings) and other.key == self.key

    def __hash__(self) -> int:
        return hash(self.key)

    def __repr__(self) -> str:
        return f"PackSpellings({len(self.held)} cards)"


def pack_spellings(copies: Sequence[int]) -> PackSpellings:
    """The :class:`PackSpellings` of a pack holding ``copies`` of each card, by
    :attr:`Card.index` (a rules object's answers: :attr:`pancli.panrules.PanRules.copies`).
    A game's usual pack is the one :func:`usual_spellings` gives; another is made afresh, for its
    caller to keep (a reader, a batch or a record context asks once).

    >>> from pancli.cards import ALL_CARDS
    >>> eights = pack_spellings([1 if c.rank is Rank.EIGHT else 0 for c in ALL_CARDS])
    >>> sorted(eights.tokens)[:3], eights.ranks
    (['8C', '8D', '8H'], {'8': <Rank.EIGHT: 8>})
    >>> pack_spellings(copies_by_index(Pack())) is usual_spellings(Game.PANGUINGUE)
    True
    """
    key = bytes([n > 0 for n in copies])
    for pagruc in (True, False):  # (PAGRUC's key first: every card, no pack asked)
        if _usual_key(pagruc) == key:  # (by its key: the other game's spellings are not built)
            return _usual(pagruc)
    return PackSpellings(key)


def usual_spellings(game: Game) -> PackSpellings:
    """The spellings of the usual pack of ``game``, for a reader handed none: Panguingue's pack
    as :class:`pancli.cards.Pack` holds it (what :meth:`pancli.panrules.PanRules.copies_of`
    answers under a built-in profile, E1), PAGRUC's 52 cards (G1). Whoever judges what is read
    hands the readers its own rules object's pack instead."""
    return _usual(game is Game.PAGRUC)


@functools.cache  # two constants, built when first read: most commands read no card text
def _usual(pagruc: bool) -> PackSpellings:
    return PackSpellings(_usual_key(pagruc))


@functools.cache  # two constants, asked by every reader of a record
def _usual_key(pagruc: bool) -> bytes:
    """Which of the 52 cards the game's usual pack holds, by :attr:`Card.index` (the key of its spellings)."""
    return bytes([1] * len(ALL_CARDS)) if pagruc else bytes([n > 0 for n in copies_by_index(Pack())])


def token_table(game: Game, pack: PackSpellings | None = None) -> dict[str, Card]:
    """The one-card token table of ``pack`` (the usual pack of ``game`` when None; read-only by
    convention).

    >>> token_table(Game.PAGRUC)["10h"] is token_table(Game.PAGRUC)["Th"]
    True
    >>> "8h" in token_table(Game.PANGUINGUE)
    False
    """
    return (usual_spellings(game) if pack is None else pack).tokens


def fast_cards(text: str, game: Game = Game.PANGUINGUE, pack: PackSpellings | None = None) -> tuple[Card, ...] | None:
    """Cards of a list of one-card tokens separated by one space or one comma (or letter
    shorthands: :func:`fast_shorthand`), else None.

    >>> fast_cards("5s 5S,5♠")
    (Card('5s'), Card('5s'), Card('5s'))
    >>> fast_cards("5s5s") is None, fast_cards("5s  5s") is None, fast_cards("") is None
    (True, True, True)
    """
    if len(text) > MAX_LENGTH:
        return None
    if pack is None:
        pack = usual_spellings(game)
    try:
        got = tuple([pack.tokens[t] for t in text.replace(",", " ").split(" ")])
    except KeyError:
        return fast_shorthand(text, game, pack)
    return got if len(got) <= MAX_MELD_CARDS else None


def _rank_spellings(order: tuple[Rank, ...]) -> dict[str, Rank]:
    out: dict[str, Rank] = {}
    for r in order:
        for spelled in {r.symbol, r.symbol.lower(), *(("10",) if r is Rank.TEN else ())}:
            out[spelled] = r
    return out


_SUIT_LETTERS: Final = {letter: Suit(letter.lower()) for letter in "shdcSHDC"}


def _rank_at(token: str, ranks: dict[str, Rank]) -> tuple[Rank, int] | None:
    """The rank held that ``token`` starts with and its length, or None."""
    if token[:2] == "10":
        r = ranks.get("10")
        return None if r is None else (r, 2)
    r = ranks.get(token[:1])
    return None if r is None else (r, 1)


def _shorthand(token: str, pack: PackSpellings) -> list[Card] | None:
    """The cards of one set shorthand (a rank, then two or more suit letters: ``5sss``,
    ``Khcd``) or rope shorthand (rank, ``-``, a higher rank, one suit letter: ``3-5h``), as the
    grammar expands it in ``pack``; None for anything else, a card the pack holds not included
    (the grammar then reads it, or says why not)."""
    got = _rank_at(token, pack.ranks)
    if got is None:
        return None
    lo, n = got
    rest = token[n:]
    if rest[:1] != "-":
        if len(rest) < 2 or any(ch not in _SUIT_LETTERS for ch in rest):
            return None
        cards = [card(lo, _SUIT_LETTERS[ch]) for ch in rest]
    else:
        high = _rank_at(rest[1:], pack.ranks)
        if high is None:
            return None
        hi, m = high
        suit = _SUIT_LETTERS.get(rest[1 + m :])
        if suit is None:  # no suit, more than one, or anything after it
            return None
        ranks = pack.order[pack.pos[lo] : pack.pos[hi] + 1]
        if len(ranks) < 2:  # one rank, or downward: the grammar says so (N4)
            return None
        cards = [card(r, suit) for r in ranks]
    if not pack.whole and not pack.held.issuperset(cards):
        return None
    return cards


def fast_shorthand(
    text: str, game: Game = Game.PANGUINGUE, pack: PackSpellings | None = None
) -> tuple[Card, ...] | None:
    """Cards of a list of one-card tokens and letter shorthands (one space or one comma
    between them), else None: the cards the grammar reads from it.

    >>> [str(c) for c in fast_shorthand("5sss 3-5h")]
    ['5s', '5s', '5s', '3h', '4h', '5h']
    >>> fast_shorthand("5s5s") is None, fast_shorthand("5-3h") is None, fast_shorthand("8-10h") is None
    (True, True, True)
    >>> [str(c) for c in fast_shorthand("8-10h", Game.PAGRUC)]
    ['8h', '9h', 'Th']
    """
    if len(text) > MAX_LENGTH:
        return None
    if pack is None:
        pack = usual_spellings(game)
    table = pack.tokens
    out: list[Card] = []
    for token in text.replace(",", " ").split(" "):
        one = table.get(token)
        if one is not None:
            out.append(one)
            continue
        cards = _shorthand(token, pack)
        if cards is None:
            return None
        out += cards
    return tuple(out) if len(out) <= MAX_MELD_CARDS else None


def fast_card(text: str, game: Game = Game.PANGUINGUE, pack: PackSpellings | None = None) -> Card | None:
    """The card of a one-card token, else None.

    >>> fast_card("kH"), fast_card(" Kh")
    (Card('Kh'), None)
    """
    return (usual_spellings(game) if pack is None else pack).tokens.get(text)


def fast_hand(text: str, game: Game = Game.PANGUINGUE, pack: PackSpellings | None = None) -> Hand | None:
    """A hand of one-card tokens and ``[...]`` groups (brackets glued to cards), else None.

    >>> fast_hand("[5s 5s 5s] Kd")
    Hand(groups=((Card('5s'), Card('5s'), Card('5s')),), loose=(Card('Kd'),))
    >>> fast_hand("[5sss] Kd") is None, fast_hand("[5s Kd") is None
    (True, True)
    """
    if len(text) > MAX_LENGTH:
        return None
    get = (usual_spellings(game) if pack is None else pack).tokens.get
    groups: list[tuple[Card, ...]] = []
    loose: list[Card] = []
    group: list[Card] | None = None
    for tok in text.replace(",", " ").split(" "):
        if tok[:1] == "[":
            if group is not None:
                return None
            group = []
            tok = tok[1:]
        close = tok[-1:] == "]"
        c = get(tok[:-1] if close else tok)
        if c is None:
            return None
        if group is None:
            if close:
                return None
            loose.append(c)
        else:
            group.append(c)
            if close:
                if len(group) > MAX_MELD_CARDS:
                    return None
                groups.append(tuple(group))
                group = None
    if group is not None:
        return None
    return Hand(tuple(groups), tuple(loose))


_NEVER_FIRST: Final = frozenset("{}#|!?;<>()=*&^%$@~`/\\")
"""Characters that start no card, group or shorthand: a literal beginning with one is refused
where it stands, as the grammar refuses it."""


def fast_reject(text: str, hand: bool = False) -> NotationError | None:
    """The grammar's own error for a meld (or, with ``hand``, a hand) literal that cannot be one
    from its first character on: N1 "expected a card" at a ``{``, ``#``, ``|``... (and N7 at a
    ``[`` in a meld); None otherwise. A batch of a million comment or bracket lines then costs
    what ordinary lines cost, not a grammar run each. A property test checks it
    against the grammar.

    >>> str(fast_reject("  {a comment}"))
    "1:3: N1 expected a card, found '{'"
    >>> fast_reject("5s {x}") is None, fast_reject("[5s", hand=True) is None
    (True, True)
    """
    if len(text) > MAX_LENGTH or type(text) is BinaryLine:
        return unread_error(text)  # the grammar's first check, whatever the text starts with
    lead = len(text) - len(text.lstrip(" "))
    if lead >= len(text) or "\n" in text:
        return None
    ch = text[lead]
    if ch in _NEVER_FIRST:
        return NotationError("N1", f"expected a card, found {ch!r}", lead + 1, 1)
    if ch == "[" and not hand:
        return NotationError("N7", "'[': brackets group melds in a hand, not in a meld", lead + 1, 1)
    return None
