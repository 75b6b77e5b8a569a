"""What ``pan standings`` does before it renders: every PAGRUC hand of the records, in order,
refereed, for the game's standings (G1, G8, G9)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import IO, TYPE_CHECKING

from msgspec.structs import replace

from pancli.cards import Game
from pancli.pagruc.referee import referee_script
from pancli.pagruc.rules import PagrucRules
from pancli.pagruc.standings import GameHand as GameHand
from pancli.pagruc.standings import Problem, Standings
from pancli.pagruc.standings import game_standings as game_standings
from pancli.rulebook import Rule

if TYPE_CHECKING:
    from pancli.rules import Profile


def read_game(
    files: Sequence[str],
    open_record: Callable[[str], IO[str]],
    on_hand: Callable[[GameHand], None] | None = None,
    rules: PagrucRules | None = None,
) -> tuple[list[GameHand], list[Problem], int]:
    """Every PAGRUC hand of the files, in order, refereed asking ``rules`` (PAGRUC's rules
    object; a fresh one when None; ``on_hand`` told of each hand as it is); the malformed hands
    (as problems); and how many Panguingue hands were passed over."""
    # start-up: pan standings --help does without them
    from pancli.records import read_hands
    from pancli.records.tags import record_folder

    rules = PagrucRules() if rules is None else rules
    held = rules.copies_without_table()

    def packs(game: Game, _profile: Profile) -> tuple[int, ...] | None:
        """The cards a PAGRUC hand is read in: the pack of ``rules`` (G1); a Panguingue hand,
        passed over, the usual pack."""
        return held if game is Game.PAGRUC else None

    hands: list[GameHand] = []
    unreadable: list[Problem] = []
    skipped = 0
    for name in files:
        base = record_folder(name)
        with open_record(name) as stream:
            for rh in read_hands(stream, name, base, packs=packs):
                if rh.script is None:
                    err = rh.error
                    code, msg = (Rule(err.code), err.message) if err else (Rule.R6, "unreadable hand")
                    line, col = (err.line, err.col) if err else (rh.first_line, 1)
                    unreadable.append(Problem(code, f"hand {rh.index} is unreadable: {msg}", name, line, col))
                    continue
                if rh.script.game is not Game.PAGRUC:
                    skipped += 1
                    continue
                # (the standings read the scores: no per-action steps recorded)
                result = referee_script(rh.script, rules=rules, record_steps=False)
                hands.append(GameHand(result, name, rh.first_line, len(hands) + 1))
                if on_hand is not None:
                    on_hand(hands[-1])
    return hands, unreadable, skipped


def standings_of(
    files: Sequence[str],
    open_record: Callable[[str], IO[str]],
    on_hand: Callable[[GameHand], None] | None = None,
    rules: PagrucRules | None = None,
) -> tuple[Standings, int]:
    """``pan standings``: the game of the files' PAGRUC hands (:func:`read_game`), its standings
    (:func:`game_standings`), both asking ``rules`` (a fresh PAGRUC rules object when None): a
    malformed hand makes the game unofficial. Also how many Panguingue hands were passed over."""
    rules = PagrucRules() if rules is None else rules
    hands, unreadable, skipped = read_game(files, open_record, on_hand, rules)
    g = game_standings(hands, rules)
    if unreadable:
        unofficial = tuple(replace(s, points=None) for s in g.table)
        g = replace(g, table=unofficial, problems=(*unreadable, *g.problems))
    return g, skipped
