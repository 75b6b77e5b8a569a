"""The pyparsing grammar of record for card, meld and hand literals (docs/notation.md).

``grammar/cards.ebnf`` is the formal grammar; this module is its executable form and
the source of every notation error (code, column) that users see. The fast path in
:mod:`pancli.notation.fast` only accepts a subset of what this grammar accepts, with
the same result (a differential property test checks it).

Importing pyparsing is most of a command's start-up, so nothing imports this module until the
fast path gives up, and the grammars are built once, on first use (:func:`_grammars`).

How errors are made precise: every place where the grammar can fail has either a
``-`` (commit: a syntax error from here on is final) or a fail action that looks at
the character found there and raises :class:`CodedFailure`, a fatal parse exception carrying
one of the codes of ``grammar/README.md``. Semantic checks (E1, a range that goes
downward) are parse actions that raise the same. So the first problem from the left
is the one reported, with its own code and column. What the pack holds (E1) is the
:class:`~pancli.notation.fast.PackSpellings` the grammar is built for, which its reader takes from
the rules object: a rank it holds no card of is refused where the rank is written.

>>> [str(c) for c in parse_meld_text("Kssh, 3-5h")]
['Ks', 'Ks', 'Kh', '3h', '4h', '5h']
>>> parse_meld_text("5s 6-9h")
Traceback (most recent call last):
...
pancli.notation.errors.NotationError: 1:6: E1 9h is not in a Panguingue pack (no 8, 9 or 10)
>>> hand = parse_hand_text("[5sss] Kd [3-5h]")
>>> [[str(c) for c in g] for g in hand.groups], [str(c) for c in hand.loose]
([['5s', '5s', '5s'], ['3h', '4h', '5h']], ['Kd'])
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING, Any, Final, NoReturn, TypeVar

import pyparsing as pp

from pancli.cards import Card, Game, Rank, Suit, card
from pancli.escapes import not_utf8
from pancli.limits import MAX_MELD_CARDS, too_long_message
from pancli.notation.errors import NotationError
from pancli.notation.fast import PackSpellings, unread_error, usual_spellings
from pancli.notation.hand import Hand
from pancli.rules import not_in_pack_words as pack_words
from pancli.values import Value

if TYPE_CHECKING:
    from collections.abc import Callable

    from pancli.notation.errors import NotationCode

# --------------------------------------------------------------------------- lexical facts

RANK_PATTERN: Final = r"10|[2-9AJQKTajqkt]"
"""Every rank spelling of a 52-card pack (``10`` and ``T`` are the ten)."""
SUIT_CHARS: Final = "shdcSHDC♠♥♦♣♤♡♢♧"
SUIT_PATTERN: Final = "[shdcSHDC]|[♠♥♦♣♤♡♢♧]\ufe0f?"
"""A suit letter (either case) or a suit symbol, optionally in emoji presentation (U+FE0F)."""
WHITESPACE: Final = " \t\r\n"
"""What separates tokens (pyparsing's default set); anything else is a character to read."""

_RANK_OF: Final = {
    **{r.symbol: r for r in Rank},
    **{r.symbol.lower(): r for r in Rank},
    "10": Rank.TEN,
}
_SUIT_OF: Final = {
    **{s.value: s for s in Suit},
    **{s.value.upper(): s for s in Suit},
    **dict(zip("♠♥♦♣", Suit, strict=True)),
    **dict(zip("♤♡♢♧", Suit, strict=True)),
}
_SUIT_AFTER_RANK: Final = re.compile(rf"(?:-(?:{RANK_PATTERN}))?([{SUIT_CHARS}])")


def position(text: str, loc: int) -> tuple[int, int]:
    """1-based (line, column) of the 0-based offset ``loc`` in ``text``.

    >>> position("ab\\ncd", 4)
    (2, 2)
    """
    line = text.count("\n", 0, loc) + 1
    col = loc - (text.rfind("\n", 0, loc) + 1) + 1
    return line, col


def show_char(text: str, loc: int) -> str:
    """How an error message names what it found at ``loc``.

    >>> show_char("5x", 1), show_char("5\\x00", 1), show_char("5", 1)
    ("'x'", 'U+0000', 'the end')
    """
    if loc >= len(text):
        return "the end"
    ch = text[loc]
    if ch == " ":
        return "a space"
    if ch.isprintable() and not ch.isspace():
        return repr(ch)
    if 0xDC80 <= ord(ch) <= 0xDCFF:  # a byte of an argument that is not UTF-8, as Python holds it
        return not_utf8(ch)
    return f"U+{ord(ch):04X}"


class CodedFailure(pp.ParseSyntaxException):
    """A final parse failure with its error code (N1.., E1; the grammar of record's R codes too)."""

    def __init__(self, text: str, loc: int, code: NotationCode, message: str) -> None:
        super().__init__(text, loc, message)
        self.code = code


def not_in_pack_message(rank_text: str, text: str, end: int, game: Game = Game.PANGUINGUE) -> str:
    """The E1 message for a rank token that ends at ``end``, of a rank the pack holds no card of:
    names the card when a suit follows."""
    m = _SUIT_AFTER_RANK.match(text, end)
    name = rank_text.upper() if rank_text != "10" else "10"
    if m:
        name += _SUIT_OF[m.group(1)].value
    return not_in_pack_words(name, _RANK_OF[rank_text], game)


def not_in_pack_words(name: str, rank: Rank, game: Game) -> str:
    """Why the card (or rank) ``name`` is refused: E1's words, as the meld engine says them
    (:func:`pancli.rules.not_in_pack_words`); in PAGRUC, whose pack holds every rank, a pack that
    holds no such card.

    >>> not_in_pack_words("9s", Rank.NINE, Game.PANGUINGUE), not_in_pack_words("9s", Rank.NINE, Game.PAGRUC)
    ('9s is not in a Panguingue pack (no 8, 9 or 10)', '9s is not in this pack')
    """
    if game is Game.PANGUINGUE:
        return pack_words(name, rank)
    return f"{name} is not in this pack"


# --------------------------------------------------------------------------- error classification


class _Where(Value):
    """The grammatical context of a place where a card (or a group) was expected."""

    hand: bool  # brackets are allowed (hand literal)
    in_group: bool  # inside [ ... ]
    first: bool  # nothing read yet in this list


def _prev_significant(text: str, loc: int) -> int:
    """Offset of the last non-whitespace character before ``loc`` (-1 when none)."""
    i = loc - 1
    while i >= 0 and text[i] in WHITESPACE:
        i -= 1
    return i


def _expected_card(text: str, loc: int, where: _Where) -> NoReturn:
    """Raise the coded error for: a card was expected at ``loc`` and none starts there."""
    while loc < len(text) and text[loc] in WHITESPACE:  # alternatives leave the skipping to their parts
        loc += 1
    ch = text[loc] if loc < len(text) else ""
    prev = _prev_significant(text, loc)
    after_comma = prev >= 0 and text[prev] == ","
    if after_comma and ch in ("", "]"):
        raise CodedFailure(text, prev, "N5", "comma with no card after it")
    if where.in_group:
        opened = text.rfind("[", 0, loc)
        if ch == "":
            raise CodedFailure(text, opened, "N2", "'[' is never closed")
        if ch == "]" and where.first:
            raise CodedFailure(text, opened, "N6", "empty group '[]'")
        if ch == "[":
            raise CodedFailure(text, loc, "N2", f"'[' inside a group already open (col {position(text, opened)[1]})")
    if ch == "":
        if where.first and not where.in_group:
            raise CodedFailure(text, 0, "N3", "no cards: the text is empty")
        raise CodedFailure(text, loc, "N1", "expected a card, found the end")  # pragma: no cover - unreachable
    if ch == ",":
        what = "comma with no card before it" if (where.first or after_comma) else "misplaced comma"
        raise CodedFailure(text, loc, "N5", what)
    if ch in "[]":
        if not where.hand:
            raise CodedFailure(text, loc, "N7", f"{ch!r}: brackets group melds in a hand, not in a meld")
        if ch == "]":
            raise CodedFailure(text, loc, "N2", "']' without a matching '['")
    if ch in SUIT_CHARS:
        raise CodedFailure(text, loc, "N1", f"expected a card (rank first), found the suit {show_char(text, loc)}")
    if ch == "-" and (hint := rope_hint(text, loc)) is not None:
        raise CodedFailure(text, hint[0], "N4", hint[1])
    raise CodedFailure(text, loc, "N1", f"expected a card, found {show_char(text, loc)}")


_CARD_DASH_CARD: Final = re.compile(rf"({RANK_PATTERN})({SUIT_PATTERN})-({RANK_PATTERN})({SUIT_PATTERN})(?=$|[\s,\]])")


def rope_hint(text: str, dash: int) -> tuple[int, str] | None:
    """When ``text`` has a card, ``-`` and a card with the ``-`` at ``dash`` (``3h-5h``,
    ``Qh-Ah``): the offset of that word and an N4 message with the rope shorthand (a rank
    range, then one suit: ``3-5h``); else None.

    >>> rope_hint("5s 3h-5h", 5)
    (3, 'write a rope as 3-5h (a rank range, then one suit), not 3h-5h')
    >>> rope_hint("5s-", 2) is None
    True
    """
    start = dash
    while start > 0 and text[start - 1] not in WHITESPACE and text[start - 1] not in ",[":
        start -= 1
    m = _CARD_DASH_CARD.match(text, start)
    if m is None or m.start(3) != dash + 1:
        return None
    lo, lo_suit, hi, hi_suit = m.groups()
    same = _SUIT_OF[lo_suit[0]] is _SUIT_OF[hi_suit[0]]
    rope = f"{lo}-{hi}{hi_suit}" if same else "3-5h"
    return start, f"write a rope as {rope} (a rank range, then one suit), not {m.group()}"


def _fail(where: _Where) -> Callable[[str, int, pp.ParserElement, Exception], None]:
    """A fail action: turn a plain (non-fatal) failure at this element into a coded one."""

    def action(text: str, loc: int, _expr: pp.ParserElement, err: Exception) -> None:
        if isinstance(err, pp.ParseFatalException):
            return  # already final: a deeper element said what is wrong
        _expected_card(text, loc, where)

    return action


def _fail_with(code: NotationCode, what: str) -> Callable[[str, int, pp.ParserElement, Exception], None]:
    """A fail action raising ``code`` with the message ``expected <what>, found <char>``."""

    def action(text: str, loc: int, _expr: pp.ParserElement, err: Exception) -> None:
        if isinstance(err, pp.ParseFatalException):
            return
        raise CodedFailure(text, loc, code, f"expected {what}, found {show_char(text, loc)}")

    return action


# --------------------------------------------------------------------------- building blocks


def _rank_action(game: Game, pack: PackSpellings) -> Callable[[str, int, pp.ParseResults], Rank]:
    """A rank the pack holds no card of is refused where it is written (E1: ``8``, ``5s 8c``)."""
    held = frozenset(pack.order)

    def action(text: str, loc: int, toks: pp.ParseResults) -> Rank:
        spelled = toks[0]
        rank = _RANK_OF[spelled]
        if rank not in held:
            raise CodedFailure(text, loc, "E1", not_in_pack_message(spelled, text, loc + len(spelled), game))
        return rank

    return action


def _held(game: Game, pack: PackSpellings, text: str, loc: int, cards: list[Card]) -> list[Card]:
    """``cards`` (of the card or shorthand at ``loc``), when the pack holds each (E1)."""
    if not pack.whole:
        for c in cards:
            if c not in pack.held:
                raise CodedFailure(text, loc, "E1", not_in_pack_words(str(c), c.rank, game))
    return cards


def _suit_action(_text: str, _loc: int, toks: pp.ParseResults) -> Suit:
    return _SUIT_OF[toks[0][0]]


def _item_action(game: Game, pack: PackSpellings) -> Callable[[str, int, pp.ParseResults], list[Card]]:
    """Expand a card or shorthand (``rank`` then either ``suits`` or a ``rope`` tail) to cards: a
    rope spans the ranks the pack holds (6-Jh is 6h 7h Jh in a Panguingue pack)."""

    def action(text: str, loc: int, toks: pp.ParseResults) -> list[Card]:
        lo: Rank = toks["rank"]
        if "suits" in toks:
            return _held(game, pack, text, loc, [card(lo, s) for s in toks["suits"]])
        hi: Rank = toks["rope"]["hi"]
        suit: Suit = toks["rope"]["suit"]
        ranks = pack.order[pack.pos[lo] : pack.pos[hi] + 1]
        if len(ranks) < 2:
            span = f"{lo.symbol}-{hi.symbol}"
            why = "has one rank" if lo is hi else "goes downward (aces are low only)"
            raise CodedFailure(text, loc, "N4", f"rope range {span} {why}; write it low to high")
        return _held(game, pack, text, loc, [card(r, suit) for r in ranks])

    return action


def _extra_suit(text: str, loc: int, _toks: pp.ParseResults) -> NoReturn:
    raise CodedFailure(text, loc, "N4", "a rope shorthand takes one suit")


class Elements(Value):
    """The named pyparsing elements of one game's grammar.

    ``card`` is one card (rank then suit, nothing between); ``item`` one card or shorthand
    (a list of cards); ``meld``/``hand``/``single`` the complete literals, ending in
    ``StringEnd``. The record grammar may embed ``card`` and ``item`` (see :func:`cards_element`).
    """

    card: pp.ParserElement
    item: pp.ParserElement
    meld: pp.ParserElement
    hand: pp.ParserElement
    single: pp.ParserElement


def _build(game: Game, pack: PackSpellings) -> Elements:
    """Build the grammar of one game and pack (once; see :func:`elements`)."""
    # E1 is final even while only trying alternatives (call_during_try).
    rank = pp.Regex(RANK_PATTERN).set_name("rank").add_parse_action(_rank_action(game, pack), call_during_try=True)
    # Everything after a rank is glued to it: no whitespace skipping inside a token.
    suit = pp.Regex(SUIT_PATTERN).set_name("suit").add_parse_action(_suit_action).leave_whitespace()
    suit_req = suit.copy().set_fail_action(_fail_with("N8", "a suit (s h d c) after the rank"))
    hi_rank = rank.copy().leave_whitespace().set_fail_action(_fail_with("N4", "a rank after '-'"))
    dash = pp.Literal("-").set_name("'-'").leave_whitespace().suppress()
    extra_suit = suit.copy().set_parse_action(_extra_suit)

    card_tok = (rank("rank") - suit_req("suit")).set_name("card")
    card_tok.add_parse_action(lambda text, loc, t: _held(game, pack, text, loc, [card(t["rank"], t["suit"])]))
    # The rank is read once; then a rope tail (`-5h` of `3-5h`) or the suits (`sss` of `5sss`).
    rope_tail = pp.Group(dash - hi_rank("hi") - suit_req("suit") - pp.Opt(extra_suit))("rope")
    rope_tail.set_name("rope shorthand")
    set_tail = pp.Group(suit_req + suit[...])("suits").set_name("suits")
    item = (rank("rank") + (rope_tail | set_tail)).set_name("card").add_parse_action(_item_action(game, pack))
    comma = pp.Literal(",").set_name("','").suppress()

    def card_list(where: _Where, closing: pp.ParserElement) -> pp.ParserElement:
        first = item.copy().set_fail_action(_fail(where))
        nxt = item.copy().set_fail_action(_fail(_Where(where.hand, where.in_group, first=False)))
        listed: pp.ParserElement = first + (comma - nxt | item)[...] + closing
        return listed

    def end_of(where: _Where) -> pp.ParserElement:
        return pp.StringEnd().set_name("end of text").set_fail_action(_fail(where))

    meld = card_list(_Where(hand=False, in_group=False, first=True), end_of(_Where(False, False, False)))
    meld.set_name("meld")

    rbracket = pp.Literal("]").set_name("']'").suppress()
    rbracket.set_fail_action(_fail(_Where(hand=True, in_group=True, first=False)))
    body = card_list(_Where(hand=True, in_group=True, first=True), rbracket)
    group = pp.Group(pp.Literal("[").set_name("'['").suppress() - body)("groups*").set_name("group")
    hand_item = (group | item).set_name("group or card")
    top = _Where(hand=True, in_group=False, first=True)
    hand_first = hand_item.copy().set_fail_action(_fail(top))
    hand_next = hand_item.copy().set_fail_action(_fail(_Where(True, False, False)))
    hand = (hand_first + (comma - hand_next | hand_item)[...] + end_of(_Where(True, False, False))).set_name("hand")

    single_end = pp.StringEnd().set_name("end of text").set_fail_action(_fail_with("N9", "exactly one card"))
    single_first = card_tok.copy().set_fail_action(_fail(_Where(hand=False, in_group=False, first=True)))
    single = (single_first - single_end).set_name("one card")
    return Elements(card=card_tok, item=item, meld=meld, hand=hand, single=single)


def elements(game: Game = Game.PANGUINGUE, pack: PackSpellings | None = None) -> Elements:
    """The grammar elements of ``game`` reading the cards of ``pack`` (the game's usual pack when
    None), built on first use: a usual pack's once, another's kept with the pack."""
    if pack is None or pack is usual_spellings(game):
        return _usual_elements(game)
    built = pack.grammars.get(("elements", game))
    if built is None:
        built = pack.grammars["elements", game] = _build(game, pack)
    assert isinstance(built, Elements)
    return built


@functools.cache  # a constant of each game, built when first read: the fast reader reads most text
def _usual_elements(game: Game) -> Elements:
    return _build(game, usual_spellings(game))


# --------------------------------------------------------------------------- running it


def _notation_error(exc: pp.ParseBaseException, text: str, offset: int = 0) -> NotationError:
    """The NotationError of a pyparsing failure (``offset`` shifts columns for embedded text)."""
    code = getattr(exc, "code", None)
    loc = exc.loc
    if code is None:  # pragma: no cover - every failure point is coded; kept as a safety net
        return NotationError("N1", f"cannot read the text at {show_char(text, loc)}", *_colline(text, loc, offset))
    return NotationError(code, exc.msg, *_colline(text, loc, offset))


def _colline(text: str, loc: int, offset: int) -> tuple[int, int]:
    line, col = position(text, loc)
    return (col + offset if line == 1 else col), line


def to_notation_error(exc: pp.ParseBaseException, text: str, offset: int = 0) -> NotationError:
    """Public form of the conversion, for grammars that embed these elements (records)."""
    return _notation_error(exc, text, offset)


def _run(element: pp.ParserElement, text: str, offset: int) -> pp.ParseResults:
    try:
        # columns count characters: a tab is one (pyparsing would expand it to 8)
        return element.parse_with_tabs().parse_string(text)
    except pp.ParseBaseException as exc:
        raise _notation_error(exc, text, offset) from None
    except RecursionError:  # pragma: no cover - the grammar has no recursion; safety net
        raise NotationError("N1", "text too deeply nested", 1) from None


def parse_meld_text(
    text: str, game: Game = Game.PANGUINGUE, offset: int = 0, pack: PackSpellings | None = None
) -> tuple[Card, ...]:
    """The cards of a meld literal, read by the grammar alone (no fast path).

    ``offset`` is added to the columns of errors on the first line (text cut from a longer line);
    ``pack``: the cards the pack holds (:func:`elements`).

    >>> parse_meld_text("3-5h")
    (Card('3h'), Card('4h'), Card('5h'))
    >>> parse_meld_text("7-Jd", Game.PAGRUC)
    (Card('7d'), Card('8d'), Card('9d'), Card('Td'), Card('Jd'))
    """
    return _within_limit(text, elements(game, pack), offset, _read_meld)


def _read_meld(text: str, els: Elements, offset: int) -> tuple[Card, ...]:
    return _bounded(tuple(_run(els.meld, text, offset)), text, offset)


_T = TypeVar("_T")


def _within_limit(text: str, els: Elements, offset: int, read: Callable[[str, Elements, int], _T]) -> _T:
    """``read(text, els, offset)``; text past the length limit (a line its reader cut short names
    its own length) and the line binary data cut are refused first, never parsed. A batch reads each distinct line once
    (its own memo: :func:`pancli.app.lines.remembered_items`, the check batch's), so the grammar
    keeps nothing between calls."""
    unread = unread_error(text, offset)
    if unread is not None:
        raise unread
    return read(text, els, offset)


def _bounded(cards: tuple[Card, ...], text: str, offset: int) -> tuple[Card, ...]:
    """``cards``, or N10 when a meld or group holds more than MAX_MELD_CARDS cards."""
    if len(cards) > MAX_MELD_CARDS:
        where = len(text) - len(text.lstrip())
        message = too_long_message("a card list", len(cards), MAX_MELD_CARDS, "cards")
        raise NotationError("N10", message, *_colline(text, where, offset))
    return cards


def parse_hand_text(
    text: str, game: Game = Game.PANGUINGUE, offset: int = 0, pack: PackSpellings | None = None
) -> Hand:
    """A hand literal (bracketed groups and loose cards), read by the grammar alone."""
    return _within_limit(text, elements(game, pack), offset, _read_hand)


def _read_hand(text: str, els: Elements, offset: int) -> Hand:
    groups: list[tuple[Card, ...]] = []
    loose: list[Card] = []
    for tok in _run(els.hand, text, offset):
        if isinstance(tok, pp.ParseResults):
            groups.append(_bounded(tuple(tok), text, offset))
        else:
            loose.append(tok)
    return Hand(tuple(groups), tuple(loose))


def parse_card_text(
    text: str, game: Game = Game.PANGUINGUE, offset: int = 0, pack: PackSpellings | None = None
) -> Card:
    """Exactly one card, read by the grammar alone.

    >>> parse_card_text("q♥")
    Card('Qh')
    """
    return _within_limit(text, elements(game, pack), offset, _read_card)


def _read_card(text: str, els: Elements, offset: int) -> Card:
    got: Card = _run(els.single, text, offset)[0]
    return got


_MORE: Final[Any] = object()
"""The mark of a card list's item past the limit (:func:`cards_element`)."""


def cards_element(
    game: Game = Game.PANGUINGUE, pack: PackSpellings | None = None, *, commas: bool = False, stop: Any = None
) -> pp.ParserElement:
    """A fresh pyparsing element for a card list, to embed in another grammar (records).

    It yields :class:`~pancli.cards.Card` tokens; shorthands and packed lists work; errors
    inside a token are final and coded (convert with :func:`to_notation_error`). ``commas``
    allows commas between cards (off by default: in records commas separate actions).
    ``stop`` is an element (e.g. ``CaselessKeyword("to")``) that ends the list where it
    matches, for words that start like a rank (``to``, ``take``: ``t`` is the ten).

    >>> [str(c) for c in cards_element(stop=pp.CaselessKeyword("to")).parse_string("5sss 6h to #2")]
    ['5s', '5s', '5s', '6h']
    """
    item = elements(game, pack).item
    if stop is not None:
        item = ~stop + item
    nxt = (pp.Literal(",").suppress() + item) | item if commas else item
    # At most MAX_MELD_CARDS items are read (each is a card at least): a 65th is marked, not read,
    # so a list of 30,000 cards costs what a list of 65 does
    more = pp.FollowedBy(nxt).add_parse_action(lambda: [_MORE])
    listed: pp.ParserElement = (item + nxt[0, MAX_MELD_CARDS - 1] + pp.Opt(more)).set_name("cards")

    def bounded(text: str, loc: int, toks: pp.ParseResults) -> None:
        if toks[-1] is _MORE:
            message = f"a card list of more than {MAX_MELD_CARDS} cards is too long (at most {MAX_MELD_CARDS})"
            raise CodedFailure(text, loc, "N10", message)
        if len(toks) > MAX_MELD_CARDS:
            raise CodedFailure(text, loc, "N10", too_long_message("a card list", len(toks), MAX_MELD_CARDS, "cards"))

    listed.add_parse_action(bounded)
    return listed
