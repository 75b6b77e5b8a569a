"""What ``pan pay`` does before it renders: the melds of one player, taken together.

Each meld is judged on its own first (as ``pan check`` does); then E4 holds across them
(together they hold no more copies of a card than the pack: :class:`PackCounter`, which asks
the rules object's ``past_the_pack``, as the referee's E4 judge does), and the
payments follow: the value of every legal meld as laid (C6, C7) and, going out with them,
the C8 payment. :func:`pay_report` does it for melds as reports (the terminal and JSON
output); :class:`PayBatch` for a pipe, each distinct line judged once, as values, with the same
rows, totals and error lines (tests/test_cli_pay.py compares them), which
:class:`pancli.render.pay.PayRows` writes (the plain text is made there).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Final, Literal

from pancli.app.check import MeldCheck, assess_all, held_by, judge_fields
from pancli.app.lines import STDIN_FILE, InputLine, batch_item
from pancli.cards import ALL_CARDS, Card, Game
from pancli.melds import Meld, OutValue
from pancli.panrules import PanRules
from pancli.rules import Profile, house_part, melds_copies_words
from pancli.values import Value

PayRule = Literal["C7", "C8"]
"""The rules ``pan pay``'s payments are made under, as ids of the registry: ``pay`` starts
without importing it (a misspelt id is a type error; a test keeps these within it)."""
LAID: Final[PayRule] = "C7"
"""Laying the melds: each collects its value from each active opponent (C7, the change from nothing)."""
GOING_OUT: Final[PayRule] = "C8"
"""Going out with them."""

Counts = tuple[tuple[int, int], ...]
"""``(card index, copies)`` of each distinct card of a meld (:meth:`PackCounter.counts`)."""


class PayReport(Value):
    """The melds judged and what they collect from each of ``opponents`` active opponents."""

    melds: tuple[MeldCheck, ...]
    players: int
    profile: Profile
    laid: int
    """Units each opponent pays for laying the melds: the rules object's ``change_value`` from
    nothing to each one's value as laid (C6, C7)."""
    going_out: OutValue | None
    """What each opponent pays for going out with them (C8), or None without ``--out`` or with
    :attr:`out_refused`."""
    opponents: int
    """Who pays: the rules object's ``payers`` of ``players`` active players."""
    total: int
    """Units collected in all: the rules object's ``collected`` of :attr:`per_opponent` from each
    of :attr:`opponents` (C6-C8)."""
    out_refused: bool = False
    """``--out`` with a meld that is illegal or unreadable: nobody goes out with a foul meld (C8
    pays going out with legal melds; I2: a foul meld is no meld), so no C8 payment."""
    house: int = 0
    """What the house pays into :attr:`total` (negative: takes from it) beyond the opponents'
    payments, as the referee's ledger records it (``pancli.rules.house_part``); 0 under the rulebook."""

    @property
    def per_opponent(self) -> int:
        """Units each active opponent pays in all."""
        return each_pays(self.laid, self.going_out)


def each_pays(laid: int, going_out: OutValue | None) -> int:
    """Units each active opponent pays: the melds as laid and, going out, the C8 payment."""
    return laid + (0 if going_out is None else going_out.total)


def priced(
    melds: tuple[MeldCheck, ...],
    players: int,
    rules: PanRules,
    laid: int,
    out: bool,
    legal: Sequence[Meld] | None,
) -> PayReport:
    """The :class:`PayReport` of what was laid and, with ``out``, going out with the ``legal``
    melds (None: a meld was illegal or unreadable, so nobody goes out: :attr:`PayReport.out_refused`),
    its payers and total asked of ``rules`` (C6-C8): :func:`pay_report` and :meth:`PayBatch.report`
    make it here alone."""
    going_out = rules.going_out_value(legal) if out and legal is not None else None
    opponents = rules.payers(players)
    each = each_pays(laid, going_out)
    total = rules.collected(each, opponents)
    house = house_part(each, opponents, total)
    return PayReport(melds, players, rules.profile, laid, going_out, opponents, total, out and legal is None, house)


class PackCounter:
    """E4 across one player's melds, one meld at a time: :meth:`take` counts a legal meld's cards,
    or says which card it would take past its copies in the pack (that meld is then not counted).
    The comparison is the rules object's ``past_the_pack`` (E4), as in the referee's E4 judge.

    Each distinct card list is counted once, by card index: a batch repeats its lines, and the
    meld reader gives a repeated line the same tuple.

    >>> from pancli.notation import parse_meld
    >>> from pancli.rules import HOYLE
    >>> pack = PackCounter(PanRules(HOYLE))
    >>> pack.take(parse_meld("5s 5s 5s 5s")), pack.take(parse_meld("5s 5s 5s 5s 5s"))
    (None, 'the melds hold 9 copies of 5s, but the pack holds 8')
    """

    __slots__ = ("_said", "_settled", "_stamp", "most", "past", "seen", "shapes")

    def __init__(self, rules: PanRules) -> None:
        self.seen = [0] * len(ALL_CARDS)
        self.most = rules.copies
        self.past = rules.past_the_pack
        self.shapes: dict[tuple[Card, ...], Counts] = {}
        self._said: dict[tuple[int, int], str] = {}
        self._stamp = 0
        """Bumped whenever cards are counted."""
        self._settled: dict[Counts, tuple[int, str]] = {}
        """A refused shape and the stamp when it was refused: while no card is counted after it,
        it is refused again with the same reason (a batch past the pack)."""

    def counts(self, cards: tuple[Card, ...]) -> Counts:
        """``(card index, copies)`` of each distinct card of ``cards``: what :meth:`take_counts` takes.
        Each distinct card list is counted once (a batch repeats its lines)."""
        shape = self.shapes.get(cards)
        if shape is None:
            shape = tuple((c.index, n) for c, n in Counter(cards).items())
            if len(self.shapes) < 50_000:
                self.shapes[cards] = shape
        return shape

    def take(self, cards: tuple[Card, ...]) -> str | None:
        """Count ``cards``; or, when one would pass its copies, count nothing and say so (E4)."""
        return self.take_counts(self.counts(cards))

    def take_counts(self, counts: Counts) -> str | None:
        """:meth:`take` of cards given by :meth:`counts`.

        Kept for speed: a million-line ``pan pay -`` is mostly melds past the pack (E4); the
        reason of a refused shape is remembered until a card is counted (the count cannot have
        changed), and each reason is written once (benchmarks/README.md, bench_batch);
        tests/test_cli_pay.py compares the reasons with a plain count of copies line by line.
        """
        settled = self._settled.get(counts)
        if settled is not None and settled[0] == self._stamp:
            return settled[1]
        seen = self.seen
        over = self.past(seen, counts)
        if over is not None:
            said = self._said.get(over)
            if said is None:
                k, held = over
                said = melds_copies_words(k, held, self.most[k])
                self._said[over] = said
            if len(self._settled) < 50_000:
                self._settled[counts] = (self._stamp, said)
            return said
        for k, n in counts:
            seen[k] += n
        self._stamp += 1
        return None


def conserve(reports: Iterable[MeldCheck], rules: PanRules) -> list[MeldCheck]:
    """The reports with E4 across the melds applied (:class:`PackCounter`), in order: a meld
    that takes a card past its copies in the pack is illegal and counts nothing.

    >>> from pancli.rules import HOYLE
    >>> items = [InputLine("-", n, t) for n, t in enumerate(["5s 5s 5s 5s", "Kh", "5s 5s 5s 5s 5s"], 1)]
    >>> rules = PanRules(HOYLE)
    >>> [(r.rule, r.reason) for r in conserve(assess_all(items, rules), rules) if not r.legal][1]
    ('E4', 'the melds hold 9 copies of 5s, but the pack holds 8')
    """
    pack = PackCounter(rules)
    out = []
    for r in reports:
        if r.legal:
            over = pack.take(r.cards)
            if over is not None:
                r = r.refused("E4", over)
        out.append(r)
    return out


def pay_report(items: Iterable[InputLine], players: int, rules: PanRules, out: bool) -> PayReport:
    """``pan pay``: the melds of ``items`` judged (:func:`~pancli.app.check.assess_all`), E4
    across them (:func:`conserve`), and what the legal ones collect (and going out with them).

    >>> from pancli.rules import HOYLE
    >>> items = [InputLine("<arg>", 1, "5s 5s 5s"), InputLine("<arg>", 2, "3h 4h 5h")]
    >>> r = pay_report(items, 6, PanRules(HOYLE), False)
    >>> r.laid, r.per_opponent, r.total
    (4, 4, 20)
    """
    reports = conserve(assess_all(items, rules), rules)
    melds = [r.engine_meld for r in reports if r.engine_meld is not None]
    laid = sum(rules.change_value(0, r.value) for r in reports if r.legal)
    legal = melds if all(r.legal for r in reports) else None
    return priced(tuple(reports), players, rules, laid, out, legal)


class PayLine(Value, gc=False):
    """One distinct line of ``pan pay``'s pipe judged on its own (as ``pan check`` judges it),
    as values: ``render/pay.py``'s :class:`~pancli.render.pay.PayRows` writes its row and error
    once and remembers them. ``counts`` is None when the meld is not legal on its own; a legal one
    is taken with the others by :attr:`PayBatch.take` (E4)."""

    meld: str
    conditions: tuple[str, ...]
    value: int
    col: int | None
    rule: str | None
    reason: str
    counts: Counts | None
    engine: Meld | None


class PayBatch:
    """``pan pay`` in a pipe, streamed: each distinct line judged once (:meth:`line`), each legal
    meld taken with those before it (:attr:`take`: E4 across them, then counted, :meth:`count`);
    :meth:`report` has the totals at the end. Memory holds the distinct lines seen (bounded, by
    the writer that remembers them) and the counts, not every report (benchmarks/README.md). The
    same rows, totals and errors as :func:`pay_report` (tests/test_cli_pay.py compares them);
    :class:`~pancli.render.pay.PayRows` writes them, a block of lines at a time.

    Kept for speed: E4 through :meth:`PackCounter.take_counts`, which remembers a refused shape
    while no card is counted, as a batch repeats its lines (benchmarks/README.md, bench_batch).

    >>> from pancli.rules import HOYLE
    >>> batch = PayBatch("-", PanRules(HOYLE), 4, False)
    >>> line = batch.line("5s 5s 5s 5s")
    >>> line.meld, line.conditions, line.value, batch.take(line.counts)
    ('5s 5s 5s 5s', ('C2',), 6, None)
    >>> batch.count(line); batch.line("# note"), batch.take(batch.line("5s5s5s5s5s").counts)
    (None, 'the melds hold 9 copies of 5s, but the pack holds 8')
    >>> batch.report().total
    18
    """

    def __init__(self, file: str, rules: PanRules, players: int, out: bool) -> None:
        self.file = file
        self.rules = rules
        self.players = players
        self.out = out
        self.pack = PackCounter(rules)
        self.take = self.pack.take_counts
        """E4 for a legal line's counts: None when they fit with the melds counted so far (then
        :meth:`count` it), else the reason they do not (nothing counted)."""
        self.held = held_by(rules)
        """The cards read: the rules object's pack (E1)."""
        self._stdin = file == STDIN_FILE
        self.laid = 0
        self.melds: list[Meld] | None = []
        """The legal melds counted, for ``--out``; None once a line is refused (:meth:`refuse`)."""

    def line(self, raw: str) -> PayLine | None:
        """One line of input judged on its own; None for a blank or comment line of standard input."""
        text = batch_item(raw) if self._stdin else raw
        if text is None:
            return None
        col, meld, legal, _, _, conds, value, rule, reason, cards, engine = judge_fields(
            text, self.rules, Game.PANGUINGUE, self.held
        )
        if legal:
            return PayLine(meld, conds, value, col, rule, reason, self.pack.counts(cards), engine)
        return PayLine(meld, conds, 0, col, rule, reason, None, None)

    def count(self, line: PayLine) -> None:
        """Count a legal line that :attr:`take` took: what laying it collects (C7), its meld for ``--out``."""
        self.laid += self.rules.change_value(0, line.value)
        if self.out and line.engine is not None and self.melds is not None:
            self.melds.append(line.engine)

    def refuse(self) -> None:
        """A line is refused (illegal, unreadable, or past the pack: E4): nobody goes out with it
        (:attr:`PayReport.out_refused`)."""
        self.melds = None

    def report(self) -> PayReport:
        """The totals of the lines read so far (no melds kept)."""
        return priced((), self.players, self.rules, self.laid, self.out, self.melds)
