"""The pyparsing grammar of record for the lines of a ``.pan`` record (docs/notation.md).

``grammar/record.ebnf`` is the formal grammar; this module is its executable form and the
source of every record error that users see (codes in grammar/README-records.md). The fast
path (:mod:`pancli.notation.record_fast`) reads the common lines by splitting strings; what
it does not read comes here, so every error comes from this module. Cards and card lists
are the elements of the card grammar (:mod:`pancli.notation.grammar`), so shorthands
(``[5sss]``, ``[3-5h]``) work in records and card errors keep their codes (``E1``, ``N1``..).

How errors are precise: each keyword is followed by ``-`` (a failure after it is final),
and every element that can fail in a committed place has a fail action raising a coded
error (``R6 expected X, found Y``) at the first character that does not fit. Names are
checked against ``Players`` as they are read (``R5``). No packrat: the grammar commits after
each keyword (``-``), so it has little backtracking to memoize.

pyparsing is imported only when this module is, which the reader does on the first line
the fast path declines.

>>> from pancli.cards import Game
>>> ctx = LineContext(Game.PANGUINGUE, frozenset({"Ana", "Ben"}), line=4)
>>> item, glyphs = grammar_play("Ana DRAW 5h, meld [5sss] !!, discard 7d", ctx)
>>> [type(a).__name__ for a in item.actions], [str(c) for c in item.actions[1].cards], glyphs
(['Draw', 'MeldNew', 'Discard'], ['5s', '5s', '5s'], ('', '!!', ''))
>>> grammar_play("Ana draw 5h, jump 6h", ctx)
Traceback (most recent call last):
...
pancli.notation.errors.NotationError: 4:14: R6 expected an action (draw, take, meld, ...), found 'jump'
>>> grammar_play("Cruz stay", ctx)
Traceback (most recent call last):
...
pancli.notation.errors.NotationError: 4:1: R5 'Cruz' is not in Players
"""

from __future__ import annotations

import difflib
import functools
import re
from collections.abc import Callable
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any, Final, NoReturn

import pyparsing as pp

from pancli.cards import Card, Game
from pancli.escapes import read_escape
from pancli.limits import MAX_ACTIONS_PER_TURN, MAX_COUNTED, number_too_large, too_large_message, too_long_message
from pancli.model.actions import (
    Action,
    Add,
    Borrow,
    Call,
    Count,
    Deal,
    Decision,
    Discard,
    Draw,
    Force,
    Lay,
    MeldNew,
    Mend,
    Out,
    Reshuffle,
    Split,
    Take,
    TakeBack,
    TakeMany,
    Turn,
)
from pancli.notation.errors import NotationError
from pancli.notation.fast import PackSpellings, usual_spellings
from pancli.notation.grammar import CodedFailure, cards_element, elements, rope_hint
from pancli.notation.record_common import (
    NAME_CHAR,
    NAME_PATTERN,
    LineContext,
    ParsedPlay,
    PlayItem,
    TagPair,
    UpLine,
    locate,
    player_name,
    show_token,
)
from pancli.values import Value

if TYPE_CHECKING:
    from pancli.notation.errors import NotationCode

ACTIONS_TEXT: Final = "an action (draw, take, meld, add, borrow, split, mend, back, discard, out)"
_WS: Final = re.compile(r"[ \t\r\n]*")
_WORD: Final = re.compile(r"[^ \t\r\n]*")
_DEAL_WORD: Final = re.compile(r"[^ \t\r\n,]+")


class _Parsing(Value):
    """The context of the line being parsed, which parse actions read: the players seated and
    the file line. A context variable holds it for the length of one parse (:func:`_run`), so
    two parses (threads, or a parse inside a parse action) never see each other's. (pyparsing
    hands a parse action its text, place and tokens only: a grammar built per line would cost a
    build a parse, and names checked after the parse would change which error a line reports.)"""

    players: frozenset[str] = frozenset()
    line: int = 1


_PARSING: Final[ContextVar[_Parsing]] = ContextVar("pan_record_line", default=_Parsing())  # noqa: B039 (frozen)


class _Name(Value):
    text: str
    loc: int


class _Act(Value):
    action: Action
    glyph: str


class _Group(Value):
    cards: tuple[Card, ...]


class _Number(Value):
    """A meld number ``#N`` and where it was read (``loc`` in the line's text)."""

    n: int
    loc: int


class _Value(Value):
    text: str
    escaped: bool


class _Line(Value):
    """A parsed play line (a tuple returned by a parse action would be spread into tokens)."""

    item: PlayItem
    glyphs: tuple[str, ...] = ()


def _pos(text: str, loc: int) -> tuple[int, int]:
    return locate(text, loc, _PARSING.get().line)


def _expect(code: NotationCode, what: str) -> Callable[[str, int, pp.ParserElement, Exception], None]:
    """A fail action: a plain failure here becomes ``code``: expected <what>, found <token>."""

    def action(text: str, loc: int, _expr: pp.ParserElement, err: Exception) -> None:
        if isinstance(err, pp.ParseFatalException):
            return  # a deeper element already said what is wrong
        loc = _skip_ws(text, loc)
        if text[loc : loc + 1] == "-" and (hint := rope_hint(text, loc)) is not None:
            raise CodedFailure(text, hint[0], "N4", hint[1])
        raise CodedFailure(
            text, loc, code, f"expected {what}, found {show_token(text, loc)}{_nearest(what, text, loc)}"
        )

    return action


_WORDS_OF: Final = re.compile(r"\b[a-z]+\b")
_VERBS: Final = frozenset(
    ("draw", "take", "meld", "add", "borrow", "split", "mend", "back", "discard", "out", "lay", "stay", "top")
) | {"force", "call", "count", "deal", "up"}
_SPELLED: Final = re.compile(NAME_CHAR + "+")
_DECISION_WORDS: Final = {"fold": "top", "folds": "top", "drop": "top", "drops": "top", "pass": "top",
                          "play": "stay", "plays": "stay", "in": "stay", "stays": "stay", "stand": "stay"}  # fmt: skip
"""Words players bring from other games for going on top or staying (T1)."""


def _nearest(what: str, text: str, loc: int) -> str:
    """``: did you mean 'draw'?`` when the word at ``loc`` is close to a keyword that ``what``
    names (an unknown action, say ``drew``); empty otherwise.

    >>> _nearest(ACTIONS_TEXT, "Ana drew 5h", 4), _nearest(ACTIONS_TEXT, "Ana xyzzy", 4)
    (": did you mean 'draw'?", '')
    """
    m = _SPELLED.match(text, loc)
    if m is None:
        return ""

    choices = [w for w in _WORDS_OF.findall(what) if w in _VERBS]
    if what == ACTIONS_TEXT and "," not in text[:loc]:
        choices += ["stay", "top", "force", "call", "count"]  # the first word after the name may start a decision
        decision = _DECISION_WORDS.get(m.group().lower())
        if decision is not None:  # a word from other card games for the T1 decision
            who = text[:loc].split()[-1]
            return f": the decision before play is {who} stay or {who} top (T1); did you mean '{who} {decision}'?"
    close = difflib.get_close_matches(m.group().lower(), choices, n=1, cutoff=0.6)
    return f": did you mean {close[0]!r}?" if close else ""


def _kw(word: str) -> pp.ParserElement:
    """A keyword in any case, not followed by a character that would continue a word (of any
    script: a player named ``Upé`` is not ``up`` and then ``é``)."""
    kw = pp.Regex(f"{word}(?!{NAME_CHAR})", flags=re.IGNORECASE).set_name(f"'{word}'")
    return kw.add_parse_action(pp.replace_with(word))


def _skip_ws(text: str, loc: int) -> int:
    return _WS.match(text, loc).end()  # type: ignore[union-attr]


# --------------------------------------------------------------------------- parse actions


_CARD_LIKE: Final = re.compile(r"(?i)(10|[a2-9tjqk])[-shdc♠♥♦♣♤♡♢♧]")
"""A word that starts as a card does (``5c``, ``5sss``, ``3-5h`` is not a name either way)."""


def _check_name(text: str, loc: int, toks: pp.ParseResults) -> _Name:
    written: str = toks[0]
    name = player_name(written)
    players = _PARSING.get().players
    if name not in players:
        if text[:loc].strip().lower() == "deal" and _CARD_LIKE.match(written):
            raise CodedFailure(
                text, loc, "R6", f"the player's name is missing: a deal line is 'deal NAME cards', found {written!r}"
            )
        words = [*sorted(players), "deal", "up", "reshuffle"] if loc == _skip_ws(text, 0) else sorted(players)
        close = difflib.get_close_matches(name, words, n=1, cutoff=0.6)
        hint = f": did you mean {close[0]!r}?" if close else ""
        raise CodedFailure(text, loc, "R5", f"{written!r} is not in Players{hint}")
    return _Name(name, loc)


def _number(text: str, loc: int, digits: str, what: str) -> int:
    """The value of ``digits`` (at ``loc``), or R10 past MAX_NUMBER."""
    if number_too_large(digits):
        raise CodedFailure(text, loc, "R10", too_large_message(what, digits))
    return int(digits)


def _target(text: str, loc: int, toks: pp.ParseResults) -> _Number:
    n = _number(text, loc, toks[0][1:], "a meld number")
    if n < 1:
        raise CodedFailure(text, loc, "R6", "melds are numbered from #1")
    return _Number(n, loc)


def _count(text: str, loc: int, toks: pp.ParseResults) -> int:
    n = _number(text, loc, toks[0], "a number of cards")
    if n < 1:
        raise CodedFailure(text, loc, "R6", "take at least one card")
    return n


def _counted(text: str, loc: int, toks: pp.ParseResults) -> int:
    """The number of cards a count finds (0 up to :data:`~pancli.limits.MAX_COUNTED`)."""
    digits: str = toks[0]
    if digits[:1] == "-":
        raise CodedFailure(text, loc, "R6", f"a count finds no fewer than 0 cards, not {digits}")
    n = _number(text, loc, digits.lstrip("+"), "a number of cards")
    if n > MAX_COUNTED:
        raise CodedFailure(text, loc, "R10", f"a count of {n} cards: no hand holds more than {MAX_COUNTED}")
    return n


def _not_pan(what: str) -> Callable[[str, int, pp.ParseResults], NoReturn]:
    def action(text: str, loc: int, _toks: pp.ParseResults) -> NoReturn:
        raise CodedFailure(text, loc, "R9", f"{what} is PAGRUC only, not Panguingue")

    return action


def _unescape(text: str, loc: int, toks: pp.ParseResults) -> _Value:
    raw: str = toks[0][1:-1]
    if "\\" not in raw:
        return _Value(raw, False)
    out: list[str] = []
    i = 0
    while i < len(raw):
        ch = raw[i]
        if ch == "\\":
            got = read_escape(raw, i)
            if got is None:
                shown = raw[i : i + 2]
                raise CodedFailure(
                    text, loc + 1 + i, "R1", f"unknown escape '{shown}' (\\\" \\\\ \\t \\n \\r \\xHH \\uHHHH)"
                )
            out.append(got[0])
            i += got[1]
        else:
            out.append(ch)
            i += 1
    return _Value("".join(out), True)


# --------------------------------------------------------------------------- the grammar


class RecordGrammar(Value):
    """The named elements of one game's record grammar (each ends with ``StringEnd``)."""

    tag: pp.ParserElement
    play: pp.ParserElement


def _build_tag() -> pp.ParserElement:
    lb = pp.Literal("[").set_name("'['")
    name = pp.Regex(r"[A-Za-z][A-Za-z0-9_]*").set_name("tag name")
    name.set_fail_action(_expect("R1", "a tag name (a letter, then letters, digits or _)"))
    value = pp.Regex(r'"(?:[^"\\\n]|\\[^\n])*"').set_name("quoted value")

    def value_fail(text: str, loc: int, _e: pp.ParserElement, err: Exception) -> None:
        if isinstance(err, pp.ParseFatalException):
            return
        if text.startswith('"', loc):
            raise CodedFailure(text, loc, "R1", "the value's '\"' is never closed")
        raise CodedFailure(text, loc, "R1", f'expected a quoted value "...", found {show_token(text, loc)}')

    value.set_fail_action(value_fail)
    value.add_parse_action(_unescape)
    rb = pp.Literal("]").set_name("']'").set_fail_action(_expect("R1", "']'"))
    end = pp.StringEnd().set_name("end of line").set_fail_action(_expect("R1", "the end of the line after ']'"))
    tag = (lb + name("name") - value("value") - rb - end).set_name("tag pair")

    def build(text: str, loc: int, toks: pp.ParseResults) -> TagPair:
        line, col = _pos(text, loc)
        val: _Value = toks["value"]
        vloc = text.index('"', loc) + 1
        return TagPair(toks["name"], val.text, line, col, locate(text, vloc, _PARSING.get().line)[1], val.escaped)

    tag.add_parse_action(build)
    return tag


def _build_play(game: Game, pack: PackSpellings) -> pp.ParserElement:
    els = elements(game, pack)
    pagruc = game is Game.PAGRUC

    def card1() -> pp.ParserElement:
        return els.card.copy().set_fail_action(_expect("N1", "a card"))

    def cards(what: str = "a card", *, commas: bool = False, stop: str | None = None) -> pp.ParserElement:
        el = cards_element(game, pack, commas=commas, stop=_kw(stop) if stop else None)
        # A results name keeps pyparsing from merging this And into its parent (which drops fail actions).
        return el("cards").set_fail_action(_expect("N1", what))

    name = pp.Regex(NAME_PATTERN).set_name("player name").add_parse_action(_check_name)
    name_req = name.copy().set_fail_action(_expect("R6", "a player name"))
    target = pp.Regex(r"#[0-9]+").set_name("meld number").add_parse_action(_target)
    target.set_fail_action(_expect("R6", "a meld number like #1"))
    comma = pp.Literal(",").set_name("','").suppress()
    glyph = pp.Regex(r"[!?]{1,2}").set_name("annotation glyph")

    def end(what: str) -> pp.ParserElement:
        return pp.StringEnd().set_name("end of line").set_fail_action(_expect("R6", what))

    # [ cards ]: a meld literal; commas may separate its cards
    empty = pp.Literal("]").set_name("']'")

    def empty_group(text: str, loc: int, _t: pp.ParseResults) -> NoReturn:
        raise CodedFailure(text, text.rfind("[", 0, loc), "N6", "empty group '[]'")

    empty.add_parse_action(empty_group)
    rb = pp.Literal("]").set_name("']'").set_fail_action(_expect("N1", "a card or ']'"))
    lb = pp.Literal("[").set_name("'['").set_fail_action(_expect("R6", "'[' (a meld in brackets)"))
    group = (lb.suppress() - (empty | cards("a card or ']'", commas=True) - rb.suppress())).set_name("meld")
    group.add_parse_action(lambda t: _Group(tuple(t)))

    def at(fn: Callable[..., Action]) -> Callable[[str, int, pp.ParseResults], Action]:
        def action(text: str, loc: int, toks: pp.ParseResults) -> Action:
            return fn(*_pos(text, loc), toks[1:])

        return action

    def with_number(fn: Callable[..., Action]) -> Callable[[str, int, pp.ParseResults], Action]:
        """An action with a meld number: ``fn`` also gets how far its ``#N`` is from its start
        (0 when on another line), which the reader records (``number_at``)."""

        def action(text: str, loc: int, toks: pp.ParseResults) -> Action:
            at = next(t.loc for t in toks if isinstance(t, _Number)) - loc
            return fn(*_pos(text, loc), toks[1:], 0 if "\n" in text[loc : loc + at] else at)

        return action

    draw = (_kw("draw") - card1()).add_parse_action(at(lambda ln, col, t: Draw(t[0], ln, col)))
    discard = (_kw("discard") - card1()).add_parse_action(at(lambda ln, col, t: Discard(t[0], ln, col)))
    count = pp.Regex(r"[0-9]+(?![0-9A-Za-z\u2660-\u2667])").set_name("number of cards")
    if pagruc:
        count.add_parse_action(_count)
        took = (count | cards("a card or a number of cards")).set_name("cards taken")
    else:
        count.add_parse_action(_not_pan("taking a number of cards (G3)"))
        took = (count | cards()).set_name("card taken")
    take = _kw("take") - took

    def take_action(text: str, loc: int, toks: pp.ParseResults) -> Action:
        ln, col = _pos(text, loc)
        got = list(toks[1:])
        if isinstance(got[0], int):
            return TakeMany(got[0], (), ln, col)
        if len(got) == 1:
            return Take(got[0], ln, col)
        if not pagruc:
            _not_pan("taking several cards (G3)")(text, _skip_ws(text, loc + 4), toks)
        return TakeMany(len(got), tuple(got), ln, col)

    take.add_parse_action(take_action)
    meld = (_kw("meld") - group).add_parse_action(at(lambda ln, col, t: MeldNew(t[0].cards, None, ln, col)))
    to = _kw("to").set_fail_action(_expect("R6", "'to #N'"))
    add = _kw("add") - cards(stop="to") - to.suppress() - target
    add.add_parse_action(with_number(lambda ln, col, t, at: Add(tuple(t[:-1]), t[-1].n, None, at, ln, col)))
    from_ = _kw("from").set_fail_action(_expect("R6", "'from #N'"))
    borrow = _kw("borrow") - card1() - from_.suppress() - target
    borrow.add_parse_action(with_number(lambda ln, col, t, at: Borrow(t[0], t[1].n, at, ln, col)))
    split = _kw("split") - target - group - group
    split.add_parse_action(with_number(lambda ln, col, t, at: Split(t[0].n, t[1].cards, t[2].cards, None, at, ln, col)))
    mend = _kw("mend") - target - group  # I2: a foul meld made good
    mend.add_parse_action(with_number(lambda ln, col, t, at: Mend(t[0].n, t[1].cards, None, at, ln, col)))
    back = _kw("back") - target  # I2: a foul meld taken back
    back.add_parse_action(with_number(lambda ln, col, t, at: TakeBack(t[0].n, at, ln, col)))
    out = _kw("out").add_parse_action(lambda text, loc, _t: Out(*_pos(text, loc)))
    if pagruc:
        on = _kw("on").set_fail_action(_expect("R6", "'on NAME#N'"))
        lay = _kw("lay") - cards(stop="on") - on.suppress() - name_req - target
        lay.add_parse_action(at(lambda ln, col, t: Lay(tuple(t[:-2]), t[-2].text, t[-1].n, ln, col)))
    else:
        lay = _kw("lay").add_parse_action(_not_pan("lay (laying off on any meld, G5)"))

    def own_line(text: str, loc: int, toks: pp.ParseResults) -> NoReturn:
        word = toks[0]
        form = "NAME call OTHER #N" if word == "call" else "NAME count OTHER [N]"
        raise CodedFailure(text, loc, "R6", f"a {word} is a line of its own ({form}), not an action of a turn")

    misplaced = (_kw("call") | _kw("count")).add_parse_action(own_line)
    core = (draw | take | meld | add | borrow | split | mend | back | discard | out | lay | misplaced).set_name(
        "action"
    )
    action = (core + pp.Opt(glyph)).add_parse_action(lambda t: _Act(t[0], t[1] if len(t) > 1 else ""))
    action_req = action.copy().set_fail_action(_expect("R6", ACTIONS_TEXT))
    actions = action_req + (comma - action_req)[...] - end("',' or the end of the line")

    def turn(number: int | None) -> Callable[[str, int, pp.ParseResults], _Line]:
        def build(text: str, loc: int, toks: pp.ParseResults) -> _Line:
            who: _Name = toks[0]
            acts: list[_Act] = list(toks[1:])
            if len(acts) > MAX_ACTIONS_PER_TURN:
                message = too_long_message("a turn", len(acts), MAX_ACTIONS_PER_TURN, "actions")
                raise CodedFailure(text, loc, "R10", message)
            glyphs = tuple(a.glyph for a in acts)
            ln, col = _pos(text, who.loc)
            item = Turn(who.text, tuple(a.action for a in acts), number, ln, col)
            return _Line(item, glyphs if any(glyphs) else ())

        return build

    movenum = pp.Regex(r"[0-9]+\.").set_name("move number")

    def numbered_action(text: str, loc: int, toks: pp.ParseResults) -> _Line:
        rest: pp.ParseResults = toks[1]
        return turn(_number(text, loc, toks[0][:-1], "a move number"))(text, loc, rest)

    numbered = movenum + pp.Group(name_req - actions)
    numbered.add_parse_action(numbered_action)

    stay = _kw("stay") - end("the end of the line after stay")
    top = _kw("top") - end("the end of the line after top")
    force = _kw("force") - name_req - end("the end of the line after force NAME")
    call = _kw("call") - name_req - target - end("the end of the line after call NAME #N")
    found = pp.Regex(r"[-+]?[0-9]+(?![0-9A-Za-z\u2660-\u2667])").set_name("number of cards")
    found.add_parse_action(_counted)
    count = _kw("count") - name_req - pp.Opt(found) - end("a number of cards or the end of the line")
    rest = (stay | top | force | call | count | actions).set_name("rest of the line")
    rest.set_fail_action(_expect("R6", f"stay, top, force, call, count or {ACTIONS_TEXT}"))

    def plain_action(text: str, loc: int, toks: pp.ParseResults) -> _Line:
        who: _Name = toks[0]
        ln, col = _pos(text, who.loc)
        word = toks[1] if len(toks) > 1 else None
        if word in ("stay", "top"):
            return _Line(Decision(who.text, word == "stay", ln, col))
        if word == "force":
            return _Line(Force(who.text, toks[2].text, ln, col))
        if word == "call":
            number: _Number = toks[3]
            at = number.loc - who.loc
            return _Line(
                Call(who.text, toks[2].text, number.n, 0 if "\n" in text[who.loc : number.loc] else at, ln, col)
            )
        if word == "count":
            return _Line(Count(who.text, toks[2].text, toks[3] if len(toks) > 3 else None, ln, col))
        return turn(None)(text, loc, toks)

    plain = (name + rest).add_parse_action(plain_action)

    # A deal line takes every card-list form (docs/notation.md): blanks or commas between
    # cards, shorthands (5sss, 3-5h), cards written together (5s5s5s).
    deal = _kw("deal") - name_req - cards(commas=True) - end("a card after each ',' or the end of the line")
    one_word = cards_element(game, pack)

    def deal_action(text: str, loc: int, toks: pp.ParseResults) -> _Line:
        ln, col = _pos(text, loc)
        cards = tuple(toks[2:])
        places: list[tuple[int, int]] = []  # where each card is written (E4 points at it or its shorthand)
        at = _WORD.match(text, _skip_ws(text, loc + len("deal"))).end()  # type: ignore[union-attr]
        for m in _DEAL_WORD.finditer(text, at):
            pos = _pos(text, m.start())
            places.extend([pos] * len(one_word.parse_string(m.group(), parse_all=True)))
        return _Line(Deal(toks[1].text, cards, ln, col, tuple(places[: len(cards)])))

    def up_action(text: str, loc: int, toks: pp.ParseResults) -> _Line:
        ln, col = _pos(text, loc)
        card_ln, card_col = _pos(text, _skip_ws(text, loc + len("up")))
        return _Line(UpLine(toks[1], ln, col, card_col if card_ln == ln else 0))

    deal.add_parse_action(deal_action)
    up = _kw("up") - card1() - end("the end of the line after the upcard")
    up.add_parse_action(up_action)
    reshuffle = _kw("reshuffle") - end("the end of the line after reshuffle")
    reshuffle.add_parse_action(lambda text, loc, _t: _Line(Reshuffle(*_pos(text, loc))))
    line: pp.ParserElement = (deal | up | reshuffle | numbered | plain).set_name("play line")
    line.set_fail_action(_expect("R6", "a player name, deal, up or reshuffle"))
    return line


def record_grammar(game: Game = Game.PANGUINGUE, pack: PackSpellings | None = None) -> RecordGrammar:
    """The record grammar of ``game`` reading the cards of ``pack`` (the game's usual pack when
    None), built on first use: a usual pack's once, another's kept with the pack."""
    if pack is None or pack is usual_spellings(game):
        return _usual_grammar(game)
    built = pack.grammars.get(("record", game))
    if built is None:
        built = pack.grammars["record", game] = RecordGrammar(tag=_build_tag(), play=_build_play(game, pack))
    assert isinstance(built, RecordGrammar)
    return built


@functools.cache  # a constant of each game, built when first read: the fast reader reads most lines
def _usual_grammar(game: Game) -> RecordGrammar:
    return RecordGrammar(tag=_build_tag(), play=_build_play(game, usual_spellings(game)))


# --------------------------------------------------------------------------- running it


def _error(exc: pp.ParseBaseException, text: str, line: int) -> NotationError:
    code = getattr(exc, "code", None)
    loc = exc.loc
    if code is None:  # pragma: no cover - every failure point is coded; kept as a safety net
        loc = _skip_ws(text, loc) if loc < len(text) else loc
        return NotationError("R6", f"cannot read the line at {show_token(text, loc)}", *_colline(text, loc, line))
    return NotationError(code, exc.msg, *_colline(text, loc, line))


def _colline(text: str, loc: int, line: int) -> tuple[int, int]:
    ln, col = locate(text, loc, line)
    return col, ln


def _run(element: pp.ParserElement, text: str, line: int, players: frozenset[str] = frozenset()) -> Any:
    token = _PARSING.set(_Parsing(players, line))
    try:
        # columns count characters: a tab is one (pyparsing would expand it to 8)
        return element.parse_with_tabs().parse_string(text)[0]
    except pp.ParseBaseException as exc:
        raise _error(exc, text, line) from None
    except RecursionError:  # pragma: no cover - the grammar has no recursion; safety net
        raise NotationError("R10", "line too deeply nested", 1, line) from None
    finally:
        _PARSING.reset(token)


def grammar_tag(text: str, line: int) -> TagPair:
    """A tag line (comments blanked) read by the grammar; errors are R1 (and R8 for escapes).

    >>> grammar_tag('[Event "say \\\\"hi\\\\""]', 2).value
    'say "hi"'
    >>> grammar_tag('[Event "x]', 2)
    Traceback (most recent call last):
    ...
    pancli.notation.errors.NotationError: 2:8: R1 the value's '"' is never closed
    """
    got: TagPair = _run(record_grammar().tag, text, line)
    return got


def grammar_play(text: str, ctx: LineContext) -> ParsedPlay:
    """A play line (comments blanked) read by the grammar of record; raises NotationError."""
    got: _Line = _run(record_grammar(ctx.game, ctx.pack).play, text, ctx.line, ctx.players)
    return got.item, got.glyphs
