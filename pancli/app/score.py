"""What ``pan score`` does before it renders: PAGRUC hand scores (G7) of score literals.

:func:`read_score` reads a literal (``[5h 6h 7h] [Ac Ad As] | Ks Ah``: the melds, ``|``, the
hand) with the notation, :func:`assess_score` scores it with the rules object handed in
(:meth:`pancli.pagruc.rules.PagrucRules.score`) into a :class:`ScoreReport`; :func:`placed`
does it for a batch, each distinct literal once. Values only: :mod:`pancli.render.score` writes
their plain text and error lines (a pipe's a block of lines at a time), :mod:`pancli.render.exports`
their JSON objects.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from msgspec.structs import replace

from pancli.app.lines import InputLine
from pancli.cards import ALL_CARDS, Card, Game, format_cards
from pancli.melds import MeldError
from pancli.notation import NotationError, PackSpellings, pack_spellings, parse_hand
from pancli.notation.fast import unread_error
from pancli.pagruc.pack import PagrucPack as PagrucPack
from pancli.pagruc.rules import PagrucRules as PagrucRules
from pancli.pagruc.scoring import HandScore
from pancli.rulebook import Rule
from pancli.values import Value

if TYPE_CHECKING:
    from pancli.refusals import TableProblem


class ScoreInputError(ValueError):
    """A score literal that cannot be scored: rule (G1, G4, G7 or a notation code) and column."""

    def __init__(self, rule: str, message: str, col: int = 1) -> None:
        super().__init__(f"{col}: {rule} {message}")
        self.rule = rule
        self.message = message
        self.col = col


class PacksProblem(ValueError):
    """A ``--packs`` count that is no PAGRUC pack (G1): ``problem`` is the rules object's answer
    (worded by render/: :func:`pancli.render.score.packs_text`)."""

    def __init__(self, problem: TableProblem) -> None:
        super().__init__(problem)
        self.problem = problem


def score_pack(packs: int | None, rules: PagrucRules) -> PagrucPack:
    """The pack hands are scored against, as ``rules`` answers G1 for no table named: ``packs``
    52-card packs, or by default the most a game holds; :class:`PacksProblem` when ``packs`` is
    no PAGRUC pack.

    >>> score_pack(None, PagrucRules()).packs, score_pack(1, PagrucRules()).packs
    (2, 1)
    >>> score_pack(3, PagrucRules())
    Traceback (most recent call last):
    ...
    pancli.app.score.PacksProblem: TableProblem(fault=packs, players=0, bound=0, packs=3, names=())
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
    unread = unread_error(text)
    if unread is not None:
        raise ScoreInputError(unread.code, unread.message, unread.col)
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


def assess_score(item: InputLine, pack: PagrucPack, rules: PagrucRules | None = None) -> ScoreReport:
    """Read and score one literal, asking ``rules`` (:class:`PagrucRules` when None).

    >>> r = assess_score(InputLine("<arg>", 1, "[5h 6h 7h] [Ac Ad As] | Ks Ah"), PagrucPack(2))
    >>> r.score.total if r.score else None
    38
    >>> r = assess_score(InputLine("<arg>", 1, "[Qh Kh Ah] | 2c"), PagrucPack(2))
    >>> r.col, str(r.rule), r.message
    (1, 'G4', 'meld 1 (Qh Kh Ah): aces are low only: a run does not go round the corner (no Q-K-A, no K-A-2)')
    """
    try:
        melds, hand = read_score(item.text, pack)
        return ScoreReport(item.file, item.line, item.text, (rules or PagrucRules()).score(melds, hand, pack))
    except ScoreInputError as exc:
        return ScoreReport(item.file, item.line, item.text, None, exc.rule, exc.message, exc.col)
    except MeldError as exc:
        return ScoreReport(item.file, item.line, item.text, None, exc.rule, exc.reason, 1)


MEMO_LIMIT = 50_000
"""Distinct literals a batch remembers (a batch repeats its lines; memory stays bounded)."""


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
            if len(memo) < MEMO_LIMIT:
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

    def assess(self, item: InputLine) -> ScoreReport:
        """One literal of input read and scored (:func:`assess_score`)."""
        return assess_score(item, self.pack, self.rules)
