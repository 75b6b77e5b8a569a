"""Text to engine objects and back: the notation of cards, melds and hands (docs/notation.md).

Every reader tries the hand-written fast path (:mod:`pancli.notation.fast`) first and
falls back to the pyparsing grammar of record (:mod:`pancli.notation.grammar`) for
shorthands, packed lists and every error. Both give the same objects (the shared card
instances of :data:`pancli.cards.ALL_CARDS`) and the grammar alone decides errors, so a
:class:`NotationError` has a code (``E1`` or ``N1``..``N9``, grammar/README.md) and a
1-based column into the text. pyparsing is imported only when the fast path gives up.

Each reader takes ``pack``, the :class:`PackSpellings` of the cards the pack holds, as its rules
object answers them (``pack_spellings(rules.copies)``: E1 is :meth:`pancli.panrules.PanRules.copies_of`'s);
a card the pack holds none of is E1 where it is written. Without one, the usual pack of the game.

>>> [str(c) for c in parse_meld("5sss")]
['5s', '5s', '5s']
>>> parse_meld("5s 5s 8h")
Traceback (most recent call last):
...
pancli.notation.errors.NotationError: 1:7: E1 8h is not in a Panguingue pack (no 8, 9 or 10)
>>> format_hand(parse_hand("Kd [5sss] kh [3-5♥]"))
'[5s 5s 5s] [3h 4h 5h] Kd Kh'
>>> format_meld(parse_meld("10h,j♥ qh", Game.PAGRUC))
'Th Jh Qh'
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TypeVar

from pancli.cards import Card, Game
from pancli.limits import MAX_MELD_CARDS
from pancli.notation.errors import NotationError
from pancli.notation.fast import (
    MAX_LENGTH,
    PackSpellings,
    fast_card,
    fast_cards,
    fast_hand,
    fast_reject,
    fast_shorthand,
    pack_spellings,
    token_table,
    usual_spellings,
)
from pancli.notation.hand import Hand, format_hand, format_meld

__all__ = [
    "Game",
    "Hand",
    "NotationError",
    "PackSpellings",
    "format_card",
    "format_hand",
    "format_meld",
    "meld_reader",
    "pack_spellings",
    "parse_card",
    "parse_hand",
    "parse_meld",
    "parse_meld_line",
    "read_card",
    "read_cards",
    "token_table",
]

_T = TypeVar("_T")


def parse_meld(text: str, game: Game = Game.PANGUINGUE, pack: PackSpellings | None = None) -> tuple[Card, ...]:
    """The cards of one meld literal (lists, ``5s5s5s``, ``5sss``, ``3-5h``), in order written,
    of the cards ``pack`` holds.

    >>> [str(c) for c in parse_meld("A-3s")]
    ['As', '2s', '3s']
    """
    got = fast_cards(text, game, pack)
    if got is not None:
        return got
    refused = fast_reject(text)
    if refused is not None:
        raise refused
    from pancli.notation.grammar import parse_meld_text  # start-up: pan check does without it

    return parse_meld_text(text, game, 0, pack)


def parse_card(text: str, game: Game = Game.PANGUINGUE, pack: PackSpellings | None = None) -> Card:
    """Exactly one card (surrounding whitespace allowed).

    >>> parse_card("q♥"), parse_card("10c", Game.PAGRUC)
    (Card('Qh'), Card('Tc'))
    """
    got = fast_card(text, game, pack)
    if got is not None:
        return got
    from pancli.notation.grammar import parse_card_text  # start-up: pan check does without it

    return parse_card_text(text, game, 0, pack)


def parse_hand(text: str, game: Game = Game.PANGUINGUE, pack: PackSpellings | None = None) -> Hand:
    """A hand literal: ``[...]`` groups (one meld each) and loose cards.

    >>> h = parse_hand("[5sss] [3-5h] Kd Kh 7c")
    >>> len(h.groups), len(h.loose), len(h.cards)
    (2, 3, 9)
    """
    got = fast_hand(text, game, pack)
    if got is not None:
        return got
    refused = fast_reject(text, hand=True)
    if refused is not None:
        raise refused
    from pancli.notation.grammar import parse_hand_text  # start-up: pan check does without it

    return parse_hand_text(text, game, 0, pack)


def meld_reader(game: Game = Game.PANGUINGUE, pack: PackSpellings | None = None) -> Callable[[str], tuple[Card, ...]]:
    """A meld reader bound to one game and pack, for batch loops (a million lines).

    Same results and errors as :func:`parse_meld`; a trailing line end (``\\n``, ``\\r\\n``)
    is ignored, so lines can come straight from a file.

    >>> read = meld_reader(Game.PANGUINGUE)
    >>> read("5s 5s 5s\\n") == parse_meld("5s 5s 5s")
    True
    """
    held = usual_spellings(game) if pack is None else pack
    table = held.tokens

    def read(text: str) -> tuple[Card, ...]:
        if text[-1:] == "\n":
            text = text.rstrip("\r\n")
        if len(text) > MAX_LENGTH:
            return parse_meld(text, game, held)
        try:
            got = tuple([table[t] for t in text.replace(",", " ").split(" ")])
        except KeyError:
            got = fast_shorthand(text, game, held) or ()
        if 0 < len(got) <= MAX_MELD_CARDS:
            return got
        refused = fast_reject(text)
        if refused is not None:
            raise refused
        from pancli.notation.grammar import parse_meld_text  # start-up: pan check does without it

        return parse_meld_text(text, game, 0, held)

    return read


def parse_meld_line(text: str) -> tuple[Card, ...]:
    """The Panguingue :func:`meld_reader`'s reading of one line: ``parse_meld_line("5s 5s 5s\\n")``."""
    return _pan_meld_reader()(text)


@functools.cache  # made when first asked: building the Panguingue token table at import cost every command
def _pan_meld_reader() -> Callable[[str], tuple[Card, ...]]:
    return meld_reader(Game.PANGUINGUE)


def format_card(c: Card) -> str:
    """Canonical text of one card (``Ks``; the PAGRUC ten is ``T``).

    >>> format_card(parse_card("kS"))
    'Ks'
    """
    return c.rank.symbol + c.suit.value


def read_cards(
    text: str,
    start: int = 0,
    end: int | None = None,
    game: Game = Game.PANGUINGUE,
    line: int = 1,
    pack: PackSpellings | None = None,
) -> tuple[Card, ...]:
    """The card list in ``text[start:end]``, for readers of longer lines (records).

    Same forms as a meld literal (commas included: cut them away first where commas mean
    something else). Errors carry columns into ``text`` itself and ``line`` as given.

    >>> read_cards("deal Ana 5s 5s 8h", 9)
    Traceback (most recent call last):
    ...
    pancli.notation.errors.NotationError: 1:16: E1 8h is not in a Panguingue pack (no 8, 9 or 10)
    """
    piece = text[start:end]
    got = fast_cards(piece, game, pack)
    if got is not None:
        return got
    from pancli.notation.grammar import parse_meld_text  # start-up: pan check does without it

    return _in_line(parse_meld_text, piece, game, start, line, pack)


def read_card(
    text: str,
    start: int = 0,
    end: int | None = None,
    game: Game = Game.PANGUINGUE,
    line: int = 1,
    pack: PackSpellings | None = None,
) -> Card:
    """Exactly one card in ``text[start:end]``; errors as in :func:`read_cards`.

    >>> read_card("up 4c", 3)
    Card('4c')
    """
    piece = text[start:end]
    got = fast_card(piece, game, pack)
    if got is not None:
        return got
    from pancli.notation.grammar import parse_card_text  # start-up: pan check does without it

    return _in_line(parse_card_text, piece, game, start, line, pack)


def _in_line(
    parse: Callable[[str, Game, int, PackSpellings | None], _T],
    piece: str,
    game: Game,
    start: int,
    line: int,
    pack: PackSpellings | None,
) -> _T:
    """Run a grammar reader on a piece of a line; errors placed in the whole line."""
    try:
        return parse(piece, game, start, pack)
    except NotationError as exc:
        raise NotationError(exc.code, exc.message, exc.col, line + exc.line - 1) from None
