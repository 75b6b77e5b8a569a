"""The fast path of the record reader: canonical-looking lines by ``str.split`` and dict lookups.

A pyparsing grammar applied to every line is many times slower than a hand-written tokenizer
(benchmarks/README.md, bench_replay). The functions here read the common lines (single spaces,
one-card tokens, lower-case keywords, ``, `` between actions) and return ``None`` for
anything else; the caller then asks the grammar of record
(:mod:`pancli.notation.record_grammar`), which reads every form and makes every error.
A differential property test keeps the two equal on whatever the fast path accepts.

The text given is one logical line with its comments already blanked
(:func:`pancli.notation.record_common.lex`).

>>> from pancli.cards import Game
>>> ctx = LineContext(Game.PANGUINGUE, frozenset({"Ana", "Ben"}), line=7)
>>> item, glyphs = fast_play("Ana draw 5h, meld [3h 4h 5h], discard 7d !", ctx)
>>> [type(a).__name__ for a in item.actions], glyphs
(['Draw', 'MeldNew', 'Discard'], ('', '', '!'))
>>> item.actions[1].col, item.line
(14, 7)
>>> fast_play("Ana draw 5sss", ctx) is None
True
"""

from __future__ import annotations

from typing import Final

from msgspec.structs import astuple

from pancli.cards import Card, Game
from pancli.limits import MAX_ACTIONS_PER_TURN, MAX_COUNTED, MAX_MELD_CARDS, MAX_NUMBER_DIGITS
from pancli.model.actions import (
    Action,
    Add,
    Borrow,
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
from pancli.notation.record_common import GLYPHS, LineContext, Maker, ParsedPlay, TagPair, UpLine


def fast_tag(text: str, line: int) -> TagPair | None:
    """A canonical tag line ``[Name "value"]`` (no escapes, at column 1), or None: a name of
    ASCII letters, digits and ``_`` that starts with a letter, one space, a value with no ``"``,
    backslash or newline, then spaces only. Read by string methods, not a pattern: compiling one
    costs every record-reading command start-up (benchmarks/README.md, start-up).

    >>> fast_tag('[Event "Friday"]  ', 3)
    TagPair(name='Event', value='Friday', line=3, col=1, value_col=9, escaped=False)
    >>> [fast_tag(t, 1) for t in ('[Event  "x"]', '[1st "x"]', '[E "a\\\\b"]', '[E "a"] x', '[E_2 "a"b"]')]
    [None, None, None, None, None]
    """
    if text[:1] != "[":
        return None
    name, space_quote, rest = text[1:].partition(' "')
    body = rest.rstrip(" ")
    if not space_quote or body[-2:] != '"]' or not _tag_name(name):
        return None
    value = body[:-2]
    if '"' in value or "\\" in value or "\n" in value:
        return None
    return TagPair(name, value, line, 1, len(name) + 4)


def _tag_name(name: str) -> bool:
    """A tag's name: ASCII letters, digits and ``_``, a letter first."""
    return name[:1].isascii() and name[:1].isalpha() and name.isascii() and name.replace("_", "").isalnum()


def _target(tok: str) -> int | None:
    """``#N`` with N >= 1, or None."""
    if tok[:1] != "#":
        return None
    digits = tok[1:]
    if not (digits.isascii() and digits.isdigit()) or len(digits) > MAX_NUMBER_DIGITS:
        return None
    n = int(digits)
    return n if n >= 1 else None


def _at(toks: list[str], k: int) -> int:
    """How far token ``k`` of single-spaced ``toks`` is from the first (the reader records
    where a ``#N`` is: :attr:`~pancli.model.actions.Add.number_at`).

    >>> _at(["add", "5s", "to", "#4"], -1), _at(["borrow", "5s", "from", "#2"], 3)
    (10, 15)
    """
    return sum(len(t) + 1 for t in toks[:k])


def _cards(toks: list[str], table: dict[str, Card]) -> tuple[Card, ...] | None:
    if len(toks) > MAX_MELD_CARDS:
        return None  # the grammar says N10
    try:
        return tuple(map(table.__getitem__, toks))
    except KeyError:
        return None


def _group(toks: list[str], table: dict[str, Card]) -> tuple[Card, ...] | None:
    """``[a b c]`` spread over ``toks`` (first starts with '[', last ends with ']'), or None."""
    inner = [toks[0][1:-1]] if len(toks) == 1 else [toks[0][1:], *toks[1:-1], toks[-1][:-1]]
    return _cards(inner, table)


def _action(toks: list[str], line: int, col: int, ctx: LineContext, table: dict[str, Card]) -> Action | None:
    """One action from its tokens (glyph already removed), or None."""
    kw = toks[0]
    n = len(toks)
    if kw == "draw" or kw == "discard":
        if n != 2:
            return None
        c = table.get(toks[1])
        if c is None:
            return None
        return Draw(c, line, col) if kw == "draw" else Discard(c, line, col)
    if kw == "meld":
        if n < 2 or toks[1][:1] != "[" or toks[-1][-1:] != "]" or "]" in toks[1][:-1]:
            return None
        cards = _group(toks[1:], table)
        return MeldNew(cards, None, line, col) if cards else None
    if kw == "take":
        if n < 2:
            return None
        if ctx.game is Game.PAGRUC:
            t1 = toks[1]
            if n == 2 and t1.isascii() and t1.isdigit() and len(t1) <= MAX_NUMBER_DIGITS:
                count = int(t1)
                return TakeMany(count, (), line, col) if count >= 1 else None
            cards = _cards(toks[1:], table)
            if cards is None:
                return None
            return Take(cards[0], line, col) if n == 2 else TakeMany(len(cards), cards, line, col)
        if n != 2:
            return None
        c = table.get(toks[1])
        return None if c is None else Take(c, line, col)
    if kw == "add":
        if n < 4 or toks[-2] != "to":
            return None
        target = _target(toks[-1])
        cards = _cards(toks[1:-2], table)
        if target is None or cards is None:
            return None
        return Add(cards, target, None, _at(toks, -1), line, col)
    if kw == "out":
        return Out(line, col) if n == 1 else None
    if kw == "borrow":
        if n != 4 or toks[2] != "from":
            return None
        c = table.get(toks[1])
        source = _target(toks[3])
        if c is None or source is None:
            return None
        return Borrow(c, source, _at(toks, 3), line, col)
    if kw == "split":
        return _split(toks, line, col, table)
    if kw == "mend":  # I2: a foul meld made good
        if n < 3 or toks[2][:1] != "[" or toks[-1][-1:] != "]" or "[" in "".join(toks[2:])[1:]:
            return None
        target = _target(toks[1])
        cards = _group(toks[2:], table)
        return Mend(target, cards, None, len(toks[0]) + 1, line, col) if target is not None and cards else None
    if kw == "back":  # I2: a foul meld taken back
        target = _target(toks[1]) if n == 2 else None
        return None if target is None else TakeBack(target, len(toks[0]) + 1, line, col)
    if kw == "lay" and ctx.game is Game.PAGRUC:
        if n < 4 or toks[-2] != "on":
            return None
        owner, hash_, num = toks[-1].partition("#")
        target = _target(hash_ + num)
        cards = _cards(toks[1:-2], table)
        if target is None or cards is None or owner not in ctx.players:
            return None
        return Lay(cards, owner, target, line, col)
    return None


def _split(toks: list[str], line: int, col: int, table: dict[str, Card]) -> Split | None:
    if len(toks) < 3:
        return None
    target = _target(toks[1])
    if target is None:
        return None
    rest = toks[2:]
    end = next((i for i, t in enumerate(rest) if t[-1:] == "]"), -1)
    if end < 0 or end == len(rest) - 1:
        return None
    a, b = rest[: end + 1], rest[end + 1 :]
    for g in (a, b):
        if g[0][:1] != "[" or g[-1][-1:] != "]" or "[" in "".join(g)[1:]:
            return None
    first = _group(a, table)
    second = _group(b, table)
    if not first or not second:
        return None
    return Split(target, first, second, None, len(toks[0]) + 1, line, col)


def fast_play(text: str, ctx: LineContext) -> ParsedPlay | None:
    """A play line in canonical spacing, or None (then the grammar reads it).

    ``text`` has its comments blanked; ``ctx.line`` is its file line. Every name must be in
    ``ctx.players``. Turn and decision lines without glyphs seen before are rebuilt from a recipe
    (the same objects at the new line) without reading them again: in a simulated record most
    lines repeat an earlier one (``Ana draw 7d, discard 7d``; benchmarks/README.md, "Figures
    behind the code"). A line with glyphs is read afresh (its actions
    are remembered: :attr:`LineMemos.segments`): annotated lines rarely repeat.
    """
    hit = ctx.plain.get(text)
    if hit is not None and hit[1] <= ctx.players:
        return hit[0](ctx.line), ()
    return fresh_play(text, ctx)


def fresh_play(text: str, ctx: LineContext) -> ParsedPlay | None:
    """:func:`fast_play` of a line its caller found no recipe for in ``ctx.plain`` (the record
    reader looks there first itself): read afresh, and remembered when it was read before."""
    got = _fast_play(text, ctx)
    if got is not None:
        item, glyphs = got
        kind = type(item)
        if (
            (kind is Turn or kind is Decision)
            and not glyphs
            and len(ctx.plain) < ctx.memos.max_recipes
            and _seen_before(text, ctx.memos.once)
        ):
            ctx.plain[text] = _maker(item)  # type: ignore[arg-type]
    return got


_MAX_ONCE: Final = 50_000


def _seen_before(text: str, once: set[str]) -> bool:
    """Whether ``text`` was read before (else it is remembered in ``once`` as read once)."""
    if text in once:
        return True
    if len(once) >= _MAX_ONCE:
        once.clear()
    once.add(text)
    return False


def _steps(turn: Turn) -> tuple[list[tuple[type, tuple[object, ...], int]], set[str]]:
    steps = []
    names = {turn.player}
    for a in turn.actions:
        values = _values(a)
        if isinstance(a, Lay):
            names.add(a.owner)
        steps.append((type(a), values, a.col))
    return steps, names


def _maker(item: Turn | Decision) -> tuple[Maker, frozenset[str]]:
    """A function of the line building ``item`` again there (one call, no re-reading)."""
    if isinstance(item, Decision):
        player, stay, dcol = item.player, item.stay, item.col
        return (lambda line: Decision(player, stay, line, dcol)), frozenset((player,))
    name, number, name_col = item.player, item.number, item.col
    steps, names = _steps(item)
    if len(steps) == 2 and len(steps[0][1]) == 1 and len(steps[1][1]) == 1:
        (c1, (x1,), k1), (c2, (x2,), k2) = steps  # draw and discard, the commonest line

        def two(line: int) -> Turn:
            return Turn(name, (c1(x1, line, k1), c2(x2, line, k2)), number, line, name_col)

        return two, frozenset(names)
    frozen = tuple((cls, args, col) for cls, args, col in steps)

    def many(line: int) -> Turn:
        return Turn(name, tuple([b(*args, line, col) for b, args, col in frozen]), number, line, name_col)

    return many, frozenset(names)


def _no_turn(kw: str, head: list[str], line: int, ctx: LineContext) -> ParsedPlay | None:
    """A ``deal``, ``up`` or ``reshuffle`` line (``kw``) of the tokens ``head``, or None."""
    if kw == "deal":
        if len(head) < 3 or head[1] not in ctx.players:
            return None
        cards = _cards(head[2:], ctx.tokens)
        return None if cards is None else (Deal(head[1], cards, line, 1), ())
    if kw == "up":
        if len(head) != 2:
            return None
        c = ctx.tokens.get(head[1])
        return None if c is None else (UpLine(c, line, 1), ())
    return (Reshuffle(line, 1), ()) if len(head) == 1 else None


def _fast_play(text: str, ctx: LineContext) -> ParsedPlay | None:
    s = text.rstrip(" ")
    if not s or s[0] == " ":
        return None
    line = ctx.line
    table = ctx.tokens
    # a turn's actions, one ", " apart (any other comma, or spacing, is the grammar's to read)
    parts = s.split(", ")
    n_parts = len(parts)
    if n_parts > MAX_ACTIONS_PER_TURN:
        return None  # the grammar says R10
    if n_parts != s.count(",") + 1:
        return None
    first = parts[0]
    kw, _, rest = first.partition(" ")
    if kw == "deal" or kw == "up" or kw == "reshuffle":
        return None if n_parts != 1 else _no_turn(kw, first.rstrip(" ").split(" "), line, ctx)
    number: int | None = None
    pos = 0  # offset of the current token
    if kw[-1:] == ".":
        digits = kw[:-1]
        if not (digits.isascii() and digits.isdigit()) or len(digits) > MAX_NUMBER_DIGITS:
            return None
        number = int(digits)
        pos = len(kw) + 1
        kw, _, rest = rest.partition(" ")
    name = kw
    players = ctx.players
    if name not in players:
        return None
    name_col = pos + 1
    pos += len(name) + 1
    if number is None and n_parts == 1:  # a decision, force, call or count, or a turn of one action
        words = rest.rstrip(" ").split(" ")
        if "" in words:
            return None
        n = len(words)
        word = words[0]
        if n == 1 and (word == "stay" or word == "top"):
            return Decision(name, word == "stay", line, name_col), ()
        if word == "force":
            if n != 2 or words[1] not in players:
                return None
            return Force(name, words[1], line, name_col), ()
        if word == "call":
            return None  # (the grammar reads it)
        if word == "count":
            if n == 2 and words[1] in players:
                return Count(name, words[1], None, line, name_col), ()
            digits = words[2] if n == 3 else ""
            if n != 3 or words[1] not in players or not (digits.isascii() and digits.isdigit()) or len(digits) > 2:
                return None
            found = int(digits)
            return (Count(name, words[1], found, line, name_col), ()) if found <= MAX_COUNTED else None
    actions: list[Action] = []
    glyphs: list[str] | None = None  # (None while no action has one)
    segments = ctx.segments
    max_segments = ctx.memos.max_segments
    seg = parts[0][pos:]  # the first action's text (its tokens are single-spaced)
    offset = pos  # offset of the current action's keyword
    i = 0
    while True:
        hit = segments.get(seg)
        if hit is None:
            bare = seg.rstrip(" ")  # (a comment blanked before the comma leaves spaces)
            hit = segments.get(bare)
        if hit is None:
            toks = bare.split(" ")
            if "" in toks:
                return None
            glyph = ""
            if toks[-1] in GLYPHS:
                glyph = toks[-1]
                toks = toks[:-1]
                if not toks:
                    return None
            act = _action(toks, line, offset + 1, ctx, table)
            if act is None:
                return None
            if type(act) is not Lay and len(segments) < max_segments:  # a lay depends on the players
                segments[bare] = (type(act), _values(act), glyph)
        else:
            build, args, glyph = hit
            act = build(*args, line, offset + 1)
        if glyph and glyphs is None:
            glyphs = [""] * len(actions)
        actions.append(act)
        if glyphs is not None:
            glyphs.append(glyph)
        offset += len(seg) + 2
        i += 1
        if i == n_parts:
            break
        seg = parts[i]
    return Turn(name, tuple(actions), number, line, name_col), (tuple(glyphs) if glyphs is not None else ())


def _values(a: Action) -> tuple[object, ...]:
    """An action's fields but its place (``line``, ``col``: every action's last two), in
    constructor order (a slice of msgspec's tuple: each new segment of a record asks it)."""
    return astuple(a)[:-2]
