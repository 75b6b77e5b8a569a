"""Self-play records (``pan simulate``): the seats, the ``Rules`` tag of a house-rules profile,
and the hands played by :func:`pancli.referee.simulate.play_hands` (its module's docstring states
the policy), each written in canonical form by
:func:`pancli.notation.record_writer.write_script` (``pan fmt`` leaves it unchanged, ``pan
replay`` finds no violation). The same arguments always give the same hands.

>>> from pancli.rules import HOYLE
>>> hands = list(simulated(seat_names(3, None, PanRules(HOYLE)), 2, 4, HOYLE))
>>> [(h.number, h.first_line) for h in hands], hands[1].first_line == hands[0].last_line + 2
([(1, 1), (2, 47)], True)
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, Final

from msgspec.structs import replace

from pancli.app.lines import DEFAULT_PLAYERS
from pancli.notation.record_common import name_problem, player_name
from pancli.notation.record_writer import write_script
from pancli.panrules import PanRules
from pancli.referee.simulate import play_hands
from pancli.rules import is_builtin
from pancli.values import Value

if TYPE_CHECKING:
    from decimal import Decimal

    from pancli.model.actions import HandScript
    from pancli.refusals import Unseated
    from pancli.rules import Profile

DEFAULT_NAMES: Final = (
    "Ana",
    "Ben",
    "Cruz",
    "Dee",
    "Eli",
    "Fay",
    "Gil",
    "Hal",
    "Ida",
    "Jo",
    "Kim",
    "Lou",
    "Max",
    "Ned",
    "Oti",
)
"""Seat names in order of play when no names are given (15, the most S1 seats)."""


class SimulateProblem(ValueError):
    """Arguments that cannot be simulated: ``option`` names the one at fault (``--names``,
    ``--players``, ``--rules``), ``message`` says why, or is the rules object's answer when it
    cannot seat so many players (S1, worded by render/: :func:`pancli.render.text.seated_text`)."""

    def __init__(self, option: str, message: str | Unseated) -> None:
        super().__init__(message)
        self.option = option
        self.message = message


def seat_names(players: int | None, names: str | None, rules: PanRules) -> tuple[str, ...]:
    """The names in order of play: ``names`` (spaces or commas) or the first ``players``
    default names (:data:`DEFAULT_PLAYERS` without either), seated as ``rules`` says (S1: its
    ``seating`` and ``seated_twice``).

    Raises :class:`SimulateProblem` for a bad count (S1), a bad or repeated name, or a count
    that disagrees with the names.

    >>> from pancli.rules import HOYLE
    >>> seat_names(3, None, PanRules(HOYLE))
    ('Ana', 'Ben', 'Cruz')
    >>> seat_names(None, "Mo, Lu Bo", PanRules(HOYLE))
    ('Mo', 'Lu', 'Bo')
    >>> seat_names(None, "José Peña Nguyễn", PanRules(HOYLE)) == ("José", "Peña", "Nguyễn")
    True
    >>> seat_names(16, None, PanRules(HOYLE))
    Traceback (most recent call last):
    ...
    pancli.app.simulate.SimulateProblem: Unseated(players=16, least=2, most=15)
    """
    if names is not None:
        seats = tuple(player_name(n) for n in re.split(r"[\s,]+", names.strip()) if n)
        for n in seats:
            problem = name_problem(n)
            if problem is not None:
                raise SimulateProblem("--names", problem)
        if rules.seated_twice(seats) is not None:
            raise SimulateProblem("--names", "each name once: a player has one seat (S1)")
        if players is not None and players != len(seats):
            raise SimulateProblem("--names", f"--players {players} but {len(seats)} names")
        players = len(seats)
    else:
        players = DEFAULT_PLAYERS if players is None else players
        seats = DEFAULT_NAMES[:players]
    why = rules.seating(players)
    if why is not None:
        raise SimulateProblem("--players", why)
    return seats


def rules_tags(rules: str, output: str | None) -> tuple[tuple[str, str], ...]:
    """The tags naming a house-rules file ``rules`` in each hand (none for a built-in profile).

    A record names its house-rules file by a path inside its own folder (R3): the folder of the
    ``output`` file, or the current one for standard output (None). Raises
    :class:`SimulateProblem` for a file outside that folder.

    >>> rules_tags("cardroom", None)
    ()
    """
    if is_builtin(rules):
        return ()
    folder = os.path.abspath(os.path.dirname(output) or ".") if output is not None else os.getcwd()
    where = os.path.relpath(os.path.realpath(rules), os.path.realpath(folder))
    if where == ".." or where.startswith(".." + os.sep) or os.path.isabs(where):
        raise SimulateProblem(
            "'--rules'",
            f"R3 {rules!r} is outside {folder!r}: a record names its house-rules file by a path inside"
            " its folder (put the file there)",
        )
    from pathlib import Path  # only for a house-rules file

    return (("Rules", Path(where).as_posix()),)


class SimulatedHand(Value):
    """One hand of self-play: its number (1-based), its script, its canonical text, which
    sits at ``first_line``..``last_line`` of the text of every hand (a blank line between two),
    and its winner as the table that played it found him (None when it is void)."""

    number: int
    script: HandScript
    text: str
    first_line: int
    winner: str | None

    @property
    def last_line(self) -> int:
        """The last line of the hand in the text of every hand."""
        return self.first_line + self.text.count("\n") - 1


def simulated(
    seats: tuple[str, ...],
    hands: int,
    seed: int,
    profile: Profile,
    tags: tuple[tuple[str, str], ...] = (),
    stake: Decimal | None = None,
    rules: PanRules | None = None,
) -> Iterator[SimulatedHand]:
    """The ``hands`` hands of self-play at ``seats`` (``tags`` added to each, and a ``Stake`` tag with
    ``stake``), one at a time, played asking ``rules`` (the rules object of ``profile`` when None)."""
    line = 1
    rules = PanRules(profile) if rules is None else rules
    for number, played in enumerate(play_hands(seats, hands, seed, profile, rules=rules), 1):
        script = played.script
        if tags:
            script = replace(script, tags=tags)
        if stake is not None:
            script = replace(script, stake=stake)
        text = write_script(script)
        yield SimulatedHand(number, script, text, line, played.winner)
        line += text.count("\n") + 1  # the blank line between hands
