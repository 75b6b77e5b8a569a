"""Checking melds of text, one or a batch (``pan check``, ``pan pay`` and :func:`pancli.check_meld`).

:func:`judge_text` turns one meld of text into a :class:`MeldCheck`: the notation is read
(:func:`pancli.notation.parse_meld`, in the pack the rules object holds: E1, its ``copies``) and
the cards judged by the rules object of the profile (:meth:`pancli.panrules.PanRules.judge`), the
one place a meld of text is judged. :func:`assess` does it
for one line of input (an argument or a stdin line), :func:`assess_all` for a batch (each
distinct text judged once), and :class:`BatchJudge` judges a batch of lines with less work per
line (each line a meld's text and a :class:`LineRuling`). Values only: :mod:`pancli.render.check`
writes their plain rows and error lines (``file:line:col: RULE message``),
:mod:`pancli.render.exports` their JSON objects, :mod:`pancli.render.melds` the rich table.

No rich and no pyparsing at import time: pyparsing is imported only when the fast path of
the notation cannot read a meld.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from pancli.app.lines import STDIN_FILE, InputLine, batch_text, is_skipped
from pancli.cards import Card, Game, Rank, format_cards
from pancli.escapes import escape_text
from pancli.melds import Meld, Rope, Set
from pancli.notation import NotationError, parse_meld
from pancli.notation.fast import MAX_LENGTH, PackSpellings, fast_card, fast_reject, pack_spellings, usual_spellings
from pancli.panrules import PanRules
from pancli.values import Value

if TYPE_CHECKING:  # check and pay start without the registry: the ids are spelled as Literal types
    from pancli.melds import EngineRule, Verdict
    from pancli.notation.errors import NotationCode
    from pancli.pagruc.rules import PagrucRules
    from pancli.rulebook import Rule
    from pancli.rules import Profile

    CheckRule = EngineRule | NotationCode | Rule
    """The rule a meld breaks: the meld engine's, a notation code, or a PAGRUC rule (G1, G4)."""


class PacksNeeded(Value):
    """G1's note on a legal PAGRUC meld that the pack of the smallest official table does not
    hold: the ``packs`` of the smallest table whose pack holds it, and the most ``copies`` of one
    card it has."""

    packs: int
    copies: int


class MeldCheck(Value):
    """One meld of text, judged (the fields of ``pan check --json``): where it came from,
    what it is, and why not.

    ``file`` and ``line`` place it (``<string>`` and 1 for :func:`pancli.check_meld`);
    ``col`` is the column of a notation error, 1 for a readable meld that breaks a rule,
    None when legal. ``meld`` is the canonical text (ropes low to high, sets in the order
    given) or, when the text could not be read, the input with runs of white space made
    single spaces. ``value`` is the units each active opponent pays for it as laid (C6,
    C7); ``engine_meld`` the engine's Rope or Set. A PAGRUC meld (``game``, from
    :func:`assess_pagruc`) has no condition, shape or engine meld; its ``value`` is the points
    it scores (G7), ``ace_points`` what an ace scores in it (None: no ace) and ``packs_needed``
    the packs it needs when the smallest official table's pack does not hold it (G1).

    ``reason`` is the judge's words: why not, for an illegal meld; for a legal one what it is
    (``one-suit set``, ``set of aces``), which the outputs follow with its conditions or notes
    (:func:`pancli.render.check.check_reason`).
    """

    file: str
    line: int
    col: int | None
    meld: str
    legal: bool
    kind: str | None
    shape: str | None
    conditions: tuple[str, ...]
    value: int
    rule: CheckRule | None
    reason: str
    cards: tuple[Card, ...] = ()
    engine_meld: Meld | None = None
    game: Game = Game.PANGUINGUE
    ace_points: int | None = None
    packs_needed: PacksNeeded | None = None

    def refused(self, rule: CheckRule, reason: str) -> MeldCheck:
        """This meld made illegal by a rule across melds (E4 in ``pan pay``): it counts nothing.
        (The constructor: ``pan pay -`` calls this once per refused line.)"""
        return MeldCheck(self.file, self.line, 1, self.meld, False, None, None, (), 0, rule, reason, self.cards)

    @property
    def condition(self) -> str | None:
        """The first condition id (``C4`` for an A-to-K rope, which is also ``C5``), or None."""
        return self.conditions[0] if self.conditions else None


def one_card_each(args: list[str], game: Game) -> bool:
    """Whether there are two or more arguments, each a single card (``pan check 7c 7s 7s``: the
    user meant one meld, and gets a hint).

    >>> one_card_each(["7c", "7s", "7s"], Game.PANGUINGUE), one_card_each(["7c", "5sss"], Game.PANGUINGUE)
    (True, False)
    """
    return len(args) >= 2 and all(fast_card(a, game) for a in args)


Judged = tuple[
    int | None,
    str,
    bool,
    str | None,
    str | None,
    tuple[str, ...],
    int,
    "CheckRule | None",
    str,
    tuple[Card, ...],
    Meld | None,
]
"""The fields of a :class:`MeldCheck` after ``file`` and ``line``: a meld of text judged, not yet placed."""


def held_by(rules: PanRules, game: Game = Game.PANGUINGUE) -> PackSpellings | None:
    """The cards a meld of ``game`` is read in: the pack of ``rules`` (E1, its ``copies``) for a
    Panguingue meld; None (the usual pack) for another game's.

    >>> from pancli.rules import HOYLE
    >>> len(held_by(PanRules(HOYLE)).held)
    40
    """
    return pack_spellings(rules.copies) if game is Game.PANGUINGUE else None


def _judged(text: str, rules: PanRules, game: Game, pack: PackSpellings | None = None) -> Judged:
    """The one place a meld of text is judged: read by the notation in the rules object's pack
    (``pack``: :func:`held_by` of ``rules``, when the caller has it), judged by the rules object."""
    try:
        cards = parse_meld(text, game, held_by(rules, game) if pack is None else pack)
    except NotationError as exc:
        return (exc.col, " ".join(text.split()), False, None, None, (), 0, exc.code, exc.message, (), None)
    return _fields(cards, rules.judge(cards), rules)


def _fields(cards: tuple[Card, ...], v: Verdict, rules: PanRules) -> Judged:
    """The fields of ``cards`` read and judged ``v`` by ``rules``."""
    meld = v.meld
    if meld is None:
        return (1, format_cards(cards), False, None, None, (), 0, v.rule, v.reason, cards, None)
    return (
        None,
        str(meld),
        True,
        meld.kind.value,
        meld.shape.value if isinstance(meld, Set) else None,
        tuple(c.value for c in rules.conditions(meld)),
        rules.value(meld),
        None,
        v.reason,
        cards,
        meld,
    )


def judge_text(
    text: str, rules: PanRules, game: Game = Game.PANGUINGUE, file: str = "<string>", line: int = 1
) -> MeldCheck:
    """:func:`pancli.check_meld` with the rules object and game already resolved; ``file`` and
    ``line`` say where the text was read.

    >>> from pancli.rules import HOYLE
    >>> c = judge_text("7c 7s 7s", PanRules(HOYLE))
    >>> c.legal, c.rule, c.col, c.file, c.line
    (False, 'M3', 1, '<string>', 1)
    """
    return MeldCheck(file, line, *_judged(text, rules, game))


def judge_fields(text: str, rules: PanRules, game: Game, pack: PackSpellings | None = None) -> Judged:
    """The fields of a check of a line of input (:func:`judge_text` without the place), the
    unreadable text's control characters escaped (it is written to a terminal or a pipe);
    ``pack``: :func:`held_by` of ``rules``, when the caller keeps it."""
    j = _judged(text, rules, game, pack)
    if j[2] or j[9]:  # legal, or read: the canonical text of the cards
        return j
    return (j[0], escape_text(j[1]), *j[2:])


def assess(
    item: InputLine, rules: PanRules, game: Game = Game.PANGUINGUE, pack: PackSpellings | None = None
) -> MeldCheck:
    """Read and judge one meld of input.

    >>> from pancli.cli.common import InputLine
    >>> from pancli.rules import HOYLE
    >>> r = assess(InputLine("<arg>", 1, "5s,5s,5s"), PanRules(HOYLE))
    >>> r.meld, r.legal, r.kind, r.conditions, r.value
    ('5s 5s 5s', True, 'set', ('C2',), 4)
    >>> r = assess(InputLine("-", 3, "7c 7s 7s"), PanRules(HOYLE))
    >>> r.line, r.col, r.rule, r.reason
    (3, 1, 'M3', 'a set of 7s must be all one suit or all different suits, not 7c 7s 7s')
    """
    return MeldCheck(item.file, item.line, *judge_fields(item.text, rules, game, pack))


def assess_all(items: Iterable[InputLine], rules: PanRules, game: Game = Game.PANGUINGUE) -> Iterator[MeldCheck]:
    """:func:`assess` of each item, a meld text read and judged once however often it comes
    (bounded memo, like the writers of :class:`BatchJudge`'s rulings): ``pan pay -`` over a
    million repeated lines costs a lookup a line, not a judgement."""
    memo: dict[str, Judged] = {}
    pack = held_by(rules, game)
    for item in items:
        judged = memo.get(item.text)
        if judged is None:
            judged = judge_fields(item.text, rules, game, pack)
            if len(memo) < MEMO_LIMIT:
                memo[item.text] = judged
        yield MeldCheck(item.file, item.line, *judged)


def assess_pagruc(item: InputLine, rules: PagrucRules | None = None, pack: PackSpellings | None = None) -> MeldCheck:
    """Read and judge one PAGRUC meld (G4; against the pack of no table named, the most copies a
    game holds: G1); its value is the points it scores (G7); ``rules`` answers all three
    (:class:`~pancli.pagruc.rules.PagrucRules` when None), and holds the cards read (``pack``:
    :func:`pagruc_held` of ``rules``, when the caller keeps it).

    >>> r = assess_pagruc(InputLine("<arg>", 1, "Ac,Ad,As"))
    >>> r.meld, r.kind, r.value, r.reason, r.ace_points
    ('Ac Ad As', 'set', 45, 'set of aces', 15)
    >>> r = assess_pagruc(InputLine("<arg>", 2, "Qh Kh Ah"))
    >>> r.col, str(r.rule), r.reason
    (1, 'G4', 'aces are low only: a run does not go round the corner (no Q-K-A, no K-A-2)')
    """
    from pancli.pagruc.rules import PagrucRules  # start-up: pan check does without it

    pagruc = Game.PAGRUC
    rules = rules or PagrucRules()
    try:
        cards = parse_meld(item.text, pagruc, pagruc_held(rules) if pack is None else pack)
    except NotationError as exc:
        shown = escape_text(" ".join(item.text.split()))
        return MeldCheck(
            item.file, item.line, exc.col, shown, False, None, None, (), 0, exc.code, exc.message, game=pagruc
        )
    v = rules.meld(cards, rules.pack_without_table())
    meld = v.meld
    if meld is None:
        return MeldCheck(
            item.file, item.line, 1, format_cards(cards), False, None, None, (), 0, v.rule, v.reason, cards, game=pagruc
        )
    ace = next((c for c in meld.cards if c.rank is Rank.ACE), None)
    return MeldCheck(
        item.file,
        item.line,
        None,
        str(meld),
        True,
        meld.kind.value,
        None,
        (),
        rules.meld_points(meld),
        None,
        v.reason,
        cards,
        game=pagruc,
        ace_points=None if ace is None else rules.points(ace, meld.where),  # G7: where it lies
        packs_needed=_packs_needed(meld.cards, rules),
    )


def assess_pagruc_all(items: Iterable[InputLine], rules: PagrucRules | None = None) -> Iterator[MeldCheck]:
    """:func:`assess_pagruc` of each item (``pan check --game pagruc``), all asking one rules
    object: ``rules``, or one :class:`~pancli.pagruc.rules.PagrucRules` built for the batch."""
    from pancli.pagruc.rules import PagrucRules  # start-up: pan check does without it

    rules = rules or PagrucRules()
    pack = pagruc_held(rules)
    for item in items:
        yield assess_pagruc(item, rules, pack)


def pagruc_held(rules: PagrucRules) -> PackSpellings:
    """The cards a PAGRUC meld or hand of no table named is read in: the pack of ``rules``
    (:meth:`~pancli.pagruc.rules.PagrucRules.copies_without_table`, G1)."""
    return pack_spellings(rules.copies_without_table())


def _packs_needed(cards: tuple[Card, ...], rules: PagrucRules) -> PacksNeeded | None:
    """G1's note on a legal PAGRUC meld that not every official table's pack holds (the same
    card more often than the smallest table's pack has it): the packs of the smallest table
    whose pack (:meth:`~pancli.pagruc.rules.PagrucRules.pack`) holds it; None when every
    table's does."""
    counts = Counter(cards)
    seats = rules.official_players()
    for players in seats:
        pack = rules.pack(players)
        if rules.beyond(pack, counts.items()) is None:
            return None if players == seats[0] else PacksNeeded(pack.packs, max(counts.values()))
    return None


MEMO_LIMIT = 50_000
"""Distinct meld texts a batch remembers (memory stays bounded on any input)."""


class LineRuling(Value, cache_hash=True):
    """What a line of a batch was judged, its meld's text aside: the fields of a :class:`MeldCheck`
    after ``meld``, without its place, cards or engine meld, so that every order of the same
    cards can share one. With ``then_meld`` the reason goes on with the meld's text (``reason``
    is what comes before it: M2 and M3 quote the meld). The one value :class:`BatchJudge` gives
    both writers of a batch: the plain rows (:class:`~pancli.render.check.PlainRows`) and the JSON
    objects (:class:`~pancli.render.exports.JsonBatch`). Its hash is kept (writers key their
    pieces by it).

    >>> from pancli.rules import HOYLE
    >>> meld, r = BatchJudge("-", PanRules(HOYLE)).row("Kh 3s Kh")
    >>> meld, r.rule, r.then_meld, r.full_reason(meld)
    ('Kh 3s Kh', 'M2', True, 'not a set (ranks differ) and not a rope (a rope is one suit): Kh 3s Kh')
    """

    col: int | None
    legal: bool
    kind: str | None
    shape: str | None
    conditions: tuple[str, ...]
    value: int
    rule: CheckRule | None
    reason: str
    then_meld: bool = False

    def full_reason(self, meld: str) -> str:
        """The reason of this ruling of ``meld``."""
        return self.reason + meld if self.then_meld else self.reason


def _ruling(j: Judged) -> tuple[str, LineRuling]:
    """The meld's text and ruling of the fields of a judged line."""
    col, meld, legal, kind, shape, conds, value, rule, reason, _, _ = j
    return meld, LineRuling(col, legal, kind, shape, conds, value, rule, reason)


_LEAD, _SAME, _PER_LINE = range(3)
"""How a keyed entry of :class:`BatchJudge` (a multiset of cards judged once, in the order of
its first line) rules another line of the same cards: ``_LEAD`` with its ruling, the line's own
text as the meld; ``_SAME`` with its meld and ruling both (a legal rope, written low to high);
``_PER_LINE``: the ruling depends on the order of the cards beyond the text itself (the card an
E4 or repeated-rank M2 reason names), so each line is judged."""
_LineEntry = tuple[int, str, LineRuling | None]
_KEY_BITS = 5
"""Bits per card in a multiset key: up to ``2**_KEY_BITS - 1`` cards a line keep keys exact."""
_KEY_LIMIT = 1 << _KEY_BITS
_USUAL = usual_spellings(Game.PANGUINGUE)
"""The usual Panguingue pack, which the batch's tables below are made for: a batch of another
pack's rules object judges every line on its own (:func:`judge_fields`)."""
_WEIGHT: dict[str, int] = {text: 1 << (_KEY_BITS * i) for i, text in enumerate(_USUAL.canonical)}
"""Canonical token to its weight: the sum over a line's tokens counts each card in its own
bit field, a key of the multiset of cards (the same for every order)."""
_CANONICAL = frozenset(_USUAL.canonical)
_SPREAD_SAMPLE = "As 2h 3s"
"""A meld of two ranks and two suits: its ruling is the M2 ruling of every such line."""


_CANONICAL_TEXT: dict[str, str] = {token: str(c) for token, c in _USUAL.tokens.items()}
"""Every one-card token the fast path reads (``kH``, ``5♠``) to its canonical text (``Kh``)."""
_SPELLED = frozenset(_CANONICAL_TEXT)


def _respelled(text: str) -> str:
    """The canonical text of a meld line the notation's fast path reads (one space or one comma
    between one-card tokens of any spelling), else ``""``.

    >>> _respelled("5S,kh 7♣"), _respelled("5sss")
    ('5s Kh 7c', '')
    """
    if len(text) > MAX_LENGTH:
        return ""
    toks = text.replace(",", " ").split(" ")
    if not _SPELLED.issuperset(toks):
        return ""
    return " ".join(map(_CANONICAL_TEXT.__getitem__, toks))


def _order_free_entry(text: str, cards: tuple[Card, ...], rules: PanRules) -> _LineEntry:
    """The keyed entry of a line of the usual pack's canonical Panguingue tokens (see
    :data:`_LEAD`), ``cards`` as the notation reads them, from the judge's verdict.

    What every order of the same cards shares is what the verdict says is (its
    :attr:`~pancli.melds.Verdict.lead`, followed by the meld's text when ``then_meld``): a legal
    rope's meld and ruling besides (written low to high), the kind, conditions and value of the
    others depending on the cards alone. A verdict without a lead (its reason names one card
    among several: E4, a rope's repeated rank) follows the order: each line is judged.
    """
    v = rules.judge(cards)
    lead = v.lead
    if lead is None:
        return (_PER_LINE, "", None)
    col, meld, legal, kind, shape, conds, value, rule, _, _, _ = _fields(cards, v, rules)
    ruling = LineRuling(col, legal, kind, shape, conds, value, rule, lead, v.then_meld)
    if isinstance(v.meld, Rope):
        return (_SAME, meld, ruling)
    if meld != text:
        return (_PER_LINE, "", None)
    return (_LEAD, "", ruling)


class BatchJudge:
    """Each line of a batch judged: its meld's text and :class:`LineRuling` (:meth:`row`), as
    :func:`judge_fields` judges it, with less work per line. What both writers of ``pan check``'s
    batches (:class:`~pancli.render.check.PlainRows`, :class:`~pancli.render.exports.JsonBatch`)
    render from.

    Two savings of work. A line the notation's fast path reads (one-card tokens, one space or
    one comma between them) is first written canonically (``5S,kh`` as ``5s Kh``,
    :func:`_respelled`); then a *spread* (3 or more cards, at least two ranks and two suits, of
    a length the rules object's judge rules M2 whatever the cards: :meth:`PanRules.spread_rule`)
    gets the M2 ruling of one judged sample, its verdict's lead then the meld's text (the most
    common line of random input), and any other such line is judged once per multiset of cards,
    whatever their order, sharing only what the verdict says is order-free (:func:`_order_free_entry`). A line
    the notation refuses from its first character (a ``{`` comment, a ``[``:
    :func:`~pancli.notation.fast.fast_reject`) gets a ruling made once per error. Anything else
    (shorthands, packed lists, errors) is judged on its own; the writers remember lines by their
    text (melds repeat).

    Kept for speed: without the spread ruling, the worst case of benchmarks/bench_check.py
    (random lines, nearly all distinct and illegal) falls far under its target (benchmarks/README.md,
    "Figures behind the code"). tests/test_check_batch.py compares every row with
    :func:`~pancli.render.check.plain_row` (hypothesis, every spelling and order, under profiles of
    any knob values).

    >>> from pancli.rules import HOYLE
    >>> judge = BatchJudge("-", PanRules(HOYLE))
    >>> judge.row("5S,5s 5s")[0], judge.row("# a note"), judge.row("7c 7s 7s")[1].rule
    ('5s 5s 5s', None, 'M3')
    """

    def __init__(self, file: str, rules: PanRules, game: Game = Game.PANGUINGUE, cache_max: int = 200_000) -> None:
        self.file = file
        self.rules = rules
        self.game = game
        self.cache_max = cache_max
        """Entries each cache holds before it starts afresh (memory stays bounded)."""
        self._stdin = file == STDIN_FILE
        self._keyed: dict[int, _LineEntry] = {}
        self._refused: dict[tuple[int, str, str], LineRuling] = {}
        self.pack = held_by(rules, game)
        """The cards the batch reads: its rules object's pack (E1)."""
        self._fused = game is Game.PANGUINGUE and self.pack == _USUAL and rules.order_free
        sample = tuple(_USUAL.canonical[t] for t in _SPREAD_SAMPLE.split(" "))
        _, _, spread = _order_free_entry(_SPREAD_SAMPLE, sample, rules)
        self.spread = spread or LineRuling(None, False, None, None, (), 0, None, "")
        """The ruling of every spread (with ``then_meld``), when there are spreads."""
        most = _KEY_LIMIT - 1 if self._fused and self.spread.then_meld else 0
        k = 2  # the lengths of spread the rules object's judge rules M2 whatever the cards
        while k < most and rules.spread_rule(k + 1) == "M2":
            k += 1
        self._spread_max = k if k > 2 else 0

    def row(self, text: str) -> tuple[str, LineRuling] | None:
        """The meld's text and ruling of one line of input (without its line end); None for a
        blank or comment line of standard input."""
        if self._fused:
            meld = text
            toks = text.split(" ")
            if not _CANONICAL.issuperset(toks):
                meld = _respelled(text)
                toks = meld.split(" ")
            k = len(toks)
            if 2 < k < _KEY_LIMIT:
                if k <= self._spread_max and len(set(meld[::3])) > 1 and len(set(meld[1::3])) > 1:
                    return meld, self.spread
                key = sum(map(_WEIGHT.__getitem__, toks))
                mode, same, ruling = self._keyed.get(key) or self._entry(key, meld, toks)
                if ruling is not None:
                    return (same if mode == _SAME else meld), ruling
        return self._judged(text)

    def _entry(self, key: int, text: str, toks: list[str]) -> _LineEntry:
        if len(self._keyed) >= self.cache_max:
            self._keyed.clear()
        cards = tuple(map(_USUAL.canonical.__getitem__, toks))
        entry = self._keyed[key] = _order_free_entry(text, cards, self.rules)
        return entry

    def _judged(self, text: str) -> tuple[str, LineRuling] | None:
        if self._stdin:
            if is_skipped(text):
                return None
            text = batch_text(text)
        exc = fast_reject(text)
        if exc is None:
            return _ruling(judge_fields(text, self.rules, self.game, self.pack))
        key = (exc.col, exc.code, exc.message)
        ruling = self._refused.get(key)
        if ruling is None:
            ruling = LineRuling(exc.col, False, None, None, (), 0, exc.code, exc.message)
            if len(self._refused) < 1024:
                self._refused[key] = ruling
        return escape_text(" ".join(text.split())), ruling


class Checker(Value):
    """What ``pan check`` judges Panguingue melds with: the rules object of the profile ``--rules`` names."""

    rules: PanRules
    game: Game = Game.PANGUINGUE

    @classmethod
    def of(cls, profile: Profile) -> Checker:
        """The checker of ``profile`` (its rules object built once, asked by every line)."""
        return cls(PanRules(profile))

    @property
    def profile_name(self) -> str:
        """The profile's name (a table's title)."""
        return self.rules.profile.name

    def batch(self, file: str) -> BatchJudge:
        """The judge of a batch of lines read from ``file`` (:class:`BatchJudge`): each line's
        meld and ruling, for a writer of rows or objects to render."""
        return BatchJudge(file, self.rules, self.game)

    def assess(self, item: InputLine) -> MeldCheck:
        """One meld of input read and judged (:func:`assess`)."""
        return assess(item, self.rules, self.game)
