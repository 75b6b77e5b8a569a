"""A PAGRUC game: is it official (G1, G8), the totals, and the PAGRUC points (G9).

A game is the hands in the order played. It is official when every hand was refereed
without a violation and finished (G6) with every score known and every claim of the record
right (G7); three to eight players
(G1) play every hand; after each hand the player who played first deals the next one, in
one direction (G8: in a record the players are listed in order of play, dealer last, so
hand k+1 lists hand k's players turned by one); and every player has dealt the same number
of times, from 1 to 5 (G8).

>>> PagrucRules().pagruc_points({"Ana": 40, "Ben": 12, "Cy": 12, "Dee": -5})
{'Ana': (1, 4), 'Ben': (2, 3), 'Cy': (2, 3), 'Dee': (4, 1)}
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Mapping, Sequence

from pancli.model.results import ClaimKind
from pancli.pagruc.referee import PagrucHandResult
from pancli.pagruc.rules import PagrucRules
from pancli.rulebook import Rule
from pancli.rules import counted
from pancli.values import Value


class GameHand(Value):
    """One refereed hand of a game, with where it was read (``file``, ``line`` of its first
    tag, ``index`` its 1-based number in the file)."""

    result: PagrucHandResult
    file: str = ""
    line: int = 0
    index: int = 0

    @property
    def players(self) -> tuple[str, ...]:
        """The players in order of play, dealer last."""
        return self.result.players

    @property
    def dealer(self) -> str:
        """Who dealt the hand."""
        return self.result.players[-1]


class Problem(Value):
    """Why a game is not official: the rule (G1, G6, G7, G8 or a violation's rule), where, what."""

    rule: Rule
    message: str
    file: str = ""
    line: int = 0
    col: int = 1
    hand: int | None = None
    player: str | None = None


class Standing(Value):
    """One player's line: total score, place (ties share the better one) and PAGRUC points
    (None when the game is not official)."""

    player: str
    total: int
    deals: int
    place: int
    points: int | None


class Standings(Value):
    """A game's standings. ``table`` is ordered by place, then by seat (order of play of the
    first hand). ``problems`` is empty exactly when the game is official. ``totals`` is None
    when some hand's score is unknown."""

    players: tuple[str, ...]
    hands: tuple[GameHand, ...]
    totals: Mapping[str, int] | None
    deals: Mapping[str, int]
    table: tuple[Standing, ...]
    problems: tuple[Problem, ...] = ()

    @property
    def official(self) -> bool:
        """True when the game is official (G1, G8)."""
        return not self.problems


def _hand_problems(h: GameHand) -> list[Problem]:
    """A hand that cannot count: a violation, not finished (G6), or a score unknown (G7)."""
    r = h.result
    if r.violations:
        v = r.violations[0]
        return [Problem(v.rule, f"hand {h.index}: {v.message}", h.file, v.line, v.col, h.index, v.player)]
    out: list[Problem] = []
    if not r.finished:
        msg = f"hand {h.index} is not finished: nobody discarded the last card in hand"
        out.append(Problem(Rule.G6, msg, h.file, h.line, 1, h.index))
    for p in r.unknown:
        msg = f"hand {h.index}: {p}'s score is unknown ({r.hidden.get(p, 0)} unknown cards left in hand)"
        out.append(Problem(Rule.G7, msg, h.file, h.line, 1, h.index, p))
    for c in r.claims:
        if not c.ok:
            what = "[%pays]" if c.kind is ClaimKind.PAYS else "Ledger"
            msg = f"hand {h.index}: the {what} claim of {c.player} is {c.claimed:+d}, the referee finds {c.actual:+d}"
            out.append(Problem(c.rule, msg, h.file, c.line, 1, h.index, c.player))
    return out


def game_order_problems(
    hands: Sequence[GameHand], seats: Sequence[str], rules: PagrucRules
) -> tuple[list[Problem], Counter[str]]:
    """G8, the one judge of a game's order: at least one hand; every hand played by the game's
    ``seats``; each in the order ``rules`` sets after the hand before
    (:meth:`.PagrucRules.next_order`: dealt by the player who played first in it, play keeping one
    direction); every player dealing the same number of times, at most five
    (:meth:`.PagrucRules.deals_problem`).
    Returns the problems, in the order of the hands, and how often each player dealt."""
    if not hands:
        return [Problem(Rule.G8, "no PAGRUC hand: a game is at least one deal each")], Counter()
    problems: list[Problem] = []
    for before, after in itertools.pairwise(hands):
        if set(after.players) != set(seats):
            msg = f"hand {after.index} is played by {' '.join(after.players)}, not by the game's {' '.join(seats)}"
            problems.append(Problem(Rule.G8, msg, after.file, after.line, 1, after.index))
            continue
        prev, now = before.players, after.players
        if set(prev) != set(now):
            continue  # reported as a change of players
        turned = rules.next_order(prev)
        if now[-1] != turned[-1]:
            msg = (
                f"hand {after.index} is dealt by {now[-1]}, but {turned[-1]} played first in hand {before.index} "
                "and so deals next"
            )
            problems.append(Problem(Rule.G8, msg, after.file, after.line, 1, after.index, now[-1]))
            continue
        if now != turned:
            msg = (
                f"hand {after.index} is played in the order {' '.join(now)}, not {' '.join(turned)}: "
                "dealing and play keep one direction"
            )
            problems.append(Problem(Rule.G8, msg, after.file, after.line, 1, after.index))
    deals = Counter({p: 0 for p in seats})
    deals.update(h.dealer for h in hands if h.dealer in deals)
    last = hands[-1]
    why = rules.deals_problem(deals)
    if why is not None:
        from pancli.pagruc.words import deals_words  # start-up: only a game at fault needs it

        problems.append(Problem(Rule.G8, deals_words(why), last.file, last.line, 1, last.index))
    return problems, deals


def game_standings(hands: Sequence[GameHand], rules: PagrucRules | None = None) -> Standings:
    """Check a game (G1, G6-G8) and rank its players (G9), asking ``rules`` (PAGRUC's rules
    object, :class:`~pancli.pagruc.rules.PagrucRules`, when None) whether the table is official
    (G1), the order of each next hand and whether the deals are even (G8), and the places and
    PAGRUC points (G9, :meth:`~pancli.pagruc.rules.PagrucRules.pagruc_points`).

    Every reason the game is not official is collected in ``problems``; totals are given
    whenever every score is known, PAGRUC points only for an official game.
    """
    rules = PagrucRules() if rules is None else rules
    if not hands:
        return Standings((), (), None, {}, (), tuple(game_order_problems(hands, (), rules)[0]))
    first = hands[0]
    seats = first.players
    problems: list[Problem] = []
    n = len(seats)
    why = rules.official_problem(n)  # G1's bounds, whose seating part the referee's G1 judge asks too
    if why is not None:
        from pancli.pagruc.words import table_words  # start-up: only a table at fault needs it

        said = f"{counted(n, 'player')}: {table_words(why)}"
        problems.append(Problem(Rule.G1, said, first.file, first.line, 1, first.index))
    for h in hands:
        problems.extend(_hand_problems(h))
    order, deals = game_order_problems(hands, seats, rules)
    problems.extend(order)
    totals: dict[str, int] | None = {p: 0 for p in seats}
    for h in hands:
        for p in seats:
            score = h.result.scores.get(p)
            if score is None or totals is None:
                totals = None
                break
            totals[p] += score
    table: tuple[Standing, ...] = ()
    if totals is not None:
        ranks = rules.pagruc_points(totals)
        official = not problems
        rows = [Standing(p, totals[p], deals[p], ranks[p][0], ranks[p][1] if official else None) for p in seats]
        table = tuple(sorted(rows, key=lambda s: s.place))
    return Standings(seats, tuple(hands), totals, dict(deals), table, tuple(problems))
