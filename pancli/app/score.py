"""What ``pan score`` does before it renders: PAGRUC hand scores (G7) of score literals.

:func:`read_score` reads a literal (``[5h 6h 7h] [Ac Ad As] | Ks Ah``: the melds, ``|``, the
hand) with the notation, :func:`assess_score` scores it with the rules object handed in
(:meth:`pancli.pagruc.rules.PagrucRules.score`) into a :class:`ScoreReport`; :func:`placed`
does it for a batch, each distinct literal once; :class:`ScoreBatch` gives the plain text of
a pipe a block of lines at a time.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from msgspec.structs import replace

from pancli.app.lines import InputLine, error_line, remembered_items
from pancli.cards import ALL_CARDS, Card, Game, format_cards
from pancli.melds import MeldError
from pancli.notation import NotationError, PackSpellings, pack_spellings, parse_hand
from pancli.notation.fast import too_long_error
from pancli.pagruc.pack import PagrucPack as PagrucPack
from pancli.pagruc.rules import PagrucRules as PagrucRules
from pancli.pagruc.scoring import HandScore
from pancli.rulebook import Rule
from pancli.values import Value


class ScoreInputError(ValueError):
    """A score literal that cannot be scored: rule (G1, G4, G7 or a notation code) and column."""

    def __init__(self, rule: str, message: str, col: int = 1) -> None:
        super().__init__(f"{col}: {rule} {message}")
        self.rule = rule
        self.message = message
        self.col = col


class PacksProblem(ValueError):
    """A ``--packs`` count that is no PAGRUC pack (G1): ``message`` says why."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def score_pack(packs: int | None, rules: PagrucRules) -> PagrucPack:
    """The pack hands are scored against, as ``rules`` answers G1 for no table named: ``packs``
    52-card packs, or by default the most a game holds; :class:`PacksProblem` when ``packs`` is
    no PAGRUC pack.

    >>> score_pack(None, PagrucRules()).packs, score_pack(1, PagrucRules()).packs
    (2, 1)
    >>> score_pack(3, PagrucRules())
    Traceback (most recent call last):
    ...
    pancli.app.score.PacksProblem: one or two 52-card packs, not 3
    """
    why = None if packs is None else rules.packs_problem(packs)
    if why is not None:
        raise PacksProblem(why)
    return rules.pack_without_table(packs)


def _held(pack: PagrucPack) -> PackSpellings:
    """The cards a literal scored against ``pack`` is read in (G1: the pack holds each card; a
    pack of every card is read with the game's usual spellings, made once)."""
    return pack_spellings([pack.copies(c) for c in ALL_CARDS])


def _side(text: str, offset: int, held: PackSpellings | None) -> tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]]:
    """The groups and loose cards of one side of ``|`` (columns shifted by ``offset``)."""
    stripped = text.strip()
    if not stripped:
        return (), ()
    lead = offset + len(text) - len(text.lstrip())
    try:
        h = parse_hand(stripped, Game.PAGRUC, held)
    except NotationError as exc:
        raise ScoreInputError(exc.code, exc.message, exc.col + lead) from None
    return h.groups, h.loose


def read_score(text: str, pack: PagrucPack | None = None) -> tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]]:
    """The melded groups and the cards left in the hand of a score literal, of the cards ``pack``
    holds (the usual pack when None).

    ``[5h 6h 7h] [Ac Ad As] | Ks Ah``: bracketed melds, ``|``, the hand. Without ``|`` the
    bracketed groups are the melds and the loose cards the hand; with ``|`` and no brackets
    on its left, the cards before it are one meld.

    >>> melds, hand = read_score("[5h 6h 7h] [Ac Ad As] | Ks Ah")
    >>> [format_cards(m) for m in melds], format_cards(hand)
    (['5h 6h 7h', 'Ac Ad As'], 'Ks Ah')
    >>> read_score("8c 9c 10c | Qd")[0]
    ((Card('8c'), Card('9c'), Card('Tc')),)
    """
    too_long = too_long_error(text)
    if too_long is not None:
        raise ScoreInputError(too_long.code, too_long.message, too_long.col)
    if not text.strip():
        raise ScoreInputError(Rule.N3, "empty: write MELDS | HAND, e.g. '[5h 6h 7h] | Ks'")
    bars = [i for i, ch in enumerate(text) if ch == "|"]
    if len(bars) > 1:
        raise ScoreInputError(Rule.G7, "more than one '|': write MELDS | HAND", bars[1] + 1)
    held = None if pack is None else _held(pack)
    if not bars:
        return _side(text, 0, held)
    bar = bars[0]
    groups, loose = _side(text[:bar], 0, held)
    if groups and loose:
        raise ScoreInputError(Rule.G7, f"cards left of '|' outside [ ]: {format_cards(loose)} (one [group] a meld)", 1)
    right_groups, hand = _side(text[bar + 1 :], bar + 1, held)
    if right_groups:
        raise ScoreInputError(Rule.G7, "the hand, right of '|', holds no [ ] groups", bar + 2)
    return (groups or ((loose,) if loose else ())), hand


class ScoreReport(Value):
    """One score literal of input and its score, or the error that stops it."""

    file: str
    line: int
    text: str
    score: HandScore | None
    rule: str | None = None
    message: str = ""
    col: int = 1

    def plain(self) -> str:
        """Text lines: the literal, one line a card, then the totals."""
        s = self.score
        if s is None:
            return ""
        melds = " ".join(f"[{m}]" for m in s.melds)
        head = f"{melds} | {format_cards(s.hand)}".strip()
        lines = [head]
        for c in s.cards:
            meld = f"meld {c.meld}" if c.meld else ""
            lines.append(f"  {c.card!s:<3} {c.where.value:<4} {c.points:>+4}  {meld}".rstrip())
        lines.append(f"  table {s.table:+d}, hand {s.in_hand:+d}: score {s.total}")
        return "\n".join(lines) + "\n"

    def error_line(self) -> str:
        return error_line(self.file, self.line, self.col, self.rule, self.message)

    def error_or_none(self) -> str | None:
        """The error line, or None when the hand is scored."""
        return None if self.score is not None else self.error_line()


def assess_score(item: InputLine, pack: PagrucPack, rules: PagrucRules | None = None) -> ScoreReport:
    """Read and score one literal, asking ``rules`` (:class:`PagrucRules` when None).

    >>> r = assess_score(InputLine("<arg>", 1, "[5h 6h 7h] [Ac Ad As] | Ks Ah"), PagrucPack(2))
    >>> r.score.total if r.score else None
    38
    >>> assess_score(InputLine("<arg>", 1, "[Qh Kh Ah] | 2c"), PagrucPack(2)).error_line()
    '<arg>:1:1: G4 meld 1 (Qh Kh Ah): aces are low only: a run does not go round the corner (no Q-K-A, no K-A-2)'
    """
    try:
        melds, hand = read_score(item.text, pack)
        return ScoreReport(item.file, item.line, item.text, (rules or PagrucRules()).score(melds, hand, pack))
    except ScoreInputError as exc:
        return ScoreReport(item.file, item.line, item.text, None, exc.rule, exc.message, exc.col)
    except MeldError as exc:
        return ScoreReport(item.file, item.line, item.text, None, exc.rule, exc.reason, 1)


_MEMO_LIMIT = 50_000
"""Distinct literals remembered by :func:`scored` (a batch repeats its lines; memory stays bounded)."""


def scored(
    items: Iterable[InputLine],
    pack: PagrucPack,
    memo: dict[str, ScoreReport] | None = None,
    rules: PagrucRules | None = None,
) -> Iterator[tuple[InputLine, ScoreReport]]:
    """Each item with its :func:`assess_score`, a literal read and scored once however often it
    comes (bounded ``memo``, kept by the caller across blocks; the report is the first item's:
    place errors with the item)."""
    if memo is None:
        memo = {}
    rules = rules or PagrucRules()
    for item in items:
        known = memo.get(item.text)
        if known is None:
            known = assess_score(item, pack, rules)
            if len(memo) < _MEMO_LIMIT:
                memo[item.text] = known
        yield item, known


def placed(items: Iterable[InputLine], pack: PagrucPack, rules: PagrucRules | None = None) -> Iterator[ScoreReport]:
    """The report of each item, placed at the item (a remembered report carries its first place)."""
    for i, r in scored(items, pack, rules=rules):
        yield r if r.line == i.line and r.file == i.file else replace(r, file=i.file, line=i.line)


class Scorer(Value):
    """What ``pan score`` scores against: the pack of ``--packs`` (G1, no table named) and PAGRUC's rules object."""

    pack: PagrucPack
    rules: PagrucRules

    @classmethod
    def of(cls, packs: int | None) -> Scorer:
        """The scorer of ``--packs`` (None: the most a game holds); :class:`PacksProblem` when
        ``packs`` is no PAGRUC pack (:func:`score_pack`)."""
        rules = PagrucRules()
        return cls(score_pack(packs, rules), rules)

    def placed(self, items: Iterable[InputLine]) -> Iterator[ScoreReport]:
        """The report of each item (:func:`placed`)."""
        return placed(items, self.pack, self.rules)

    def batch(self, file: str) -> ScoreBatch:
        """The pipe path's batch of lines read from ``file`` (:class:`ScoreBatch`)."""
        return ScoreBatch(file, self.pack, self.rules)


def _score_line(line: InputLine, pack: PagrucPack, rules: PagrucRules) -> tuple[str, str]:
    """A line's plain text, or its error suffix (``:col: RULE message``, after its place)."""
    r = assess_score(line, pack, rules)
    if r.score is None:
        return "", error_line("", 0, r.col, r.rule, r.message)[len(":0") :] + "\n"
    return r.plain(), ""


class ScoreBatch:
    """``pan score`` in a pipe: :meth:`blocks` turns each block of input lines (of standard
    input when ``file`` is ``-``: blank and comment lines skipped) into its plain text and error
    lines as it is read; ``failed`` tells whether some line could not be scored. Memory holds one
    block and the distinct lines seen (bounded), not the whole output.

    Kept for speed: each distinct line is read, scored and written once (its text or its error
    suffix remembered by the raw line), as a batch repeats its lines (benchmarks/README.md,
    bench_batch).

    >>> batch = ScoreBatch("-", PagrucPack(2))
    >>> [(text, errors)] = batch.blocks([["| Ah", "# note", "[Qh Kh Ah] | 2c"]])
    >>> print(text, end="")
    | Ah
      Ah  hand  -15
      table +0, hand -15: score -15
    >>> errors[:10], batch.failed
    ('-:3:1: G4 ', True)
    """

    def __init__(self, file: str, pack: PagrucPack, rules: PagrucRules | None = None) -> None:
        self.file = file
        self.pack = pack
        self.rules = rules or PagrucRules()
        self.failed = False

    def blocks(self, blocks: Iterable[list[str]]) -> Iterator[tuple[str, str]]:
        """The plain text and the error lines of each block."""
        file = self.file
        pack, rules = self.pack, self.rules
        for block in remembered_items(blocks, file, lambda i: _score_line(i, pack, rules), _MEMO_LIMIT):
            out: list[str] = []
            err: list[str] = []
            for n, known in block:
                text, suffix = known
                if suffix:
                    err.append(f"{file}:{n}{suffix}")
                else:
                    out.append(text)
            if err:
                self.failed = True
            yield "".join(out), "".join(err)
