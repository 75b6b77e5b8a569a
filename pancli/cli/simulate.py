"""``pan simulate --players N --hands K --seed S --rules P``: legal, complete records from self-play.

The hands come from :func:`pancli.referee.simulate.simulate_hands` (its docstring states the
policy) and are written in canonical form by
:func:`pancli.notation.record_writer.write_script`, so ``pan fmt`` leaves them unchanged
and ``pan replay`` finds no violation. The same arguments always give the same text.
"""

from __future__ import annotations

import os
import re
import sys
from dataclasses import replace
from pathlib import Path
from typing import IO, TYPE_CHECKING, Final

import click

from pancli.cli.common import (
    DEFAULT_PLAYERS,
    EXIT_OK,
    MAX_PLAYERS,
    MIN_PLAYERS,
    IOFailure,
    complete_paths,
    json_mode,
    json_option,
    jsonl_option,
    load_profile,
    players_option,
    rules_option,
    seed_option,
)
from pancli.cli.progress import Progress, quiet_option, wanted
from pancli.files import atomic_write

if TYPE_CHECKING:
    from collections.abc import Iterator

    from pancli.model.actions import HandScript

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
"""Seat names in order of play when ``--names`` is not given (15, the most S1 seats)."""


def seat_names(players: int | None, names: str | None) -> tuple[str, ...]:
    """The names in order of play: ``--names`` (spaces or commas) or the first N default names.

    Raises click.BadParameter (exit 2) for a bad count, a bad or repeated name, or a count
    that disagrees with the names.

    >>> seat_names(3, None)
    ('Ana', 'Ben', 'Cruz')
    >>> seat_names(None, "Mo, Lu Bo")
    ('Mo', 'Lu', 'Bo')
    >>> seat_names(None, "José Peña Nguyễn") == ("José", "Peña", "Nguyễn")
    True
    """
    if names is not None:
        from pancli.notation.record_common import name_problem, player_name

        seats = tuple(player_name(n) for n in re.split(r"[\s,]+", names.strip()) if n)
        for n in seats:
            problem = name_problem(n)
            if problem is not None:
                raise click.BadParameter(problem, param_hint="--names")
        if len(set(seats)) != len(seats):
            raise click.BadParameter("each name once: a player has one seat (S1)", param_hint="--names")
        if players is not None and players != len(seats):
            raise click.BadParameter(f"--players {players} but {len(seats)} names", param_hint="--names")
        players = len(seats)
    else:
        players = DEFAULT_PLAYERS if players is None else players
        seats = DEFAULT_NAMES[:players]
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise click.BadParameter(f"Panguingue seats 2 to 15 players (S1), not {players}", param_hint="--players")
    return seats


@click.command("simulate")
@players_option("Players seated, 2 to 15 (default 6, or as --names).", default=None, checked=False)
@click.option("--hands", "-k", type=click.IntRange(min=0), default=1, show_default=True, help="Hands to play.")
@seed_option("Seed of the shuffles and the policy.", default=0)
@rules_option
@click.option("--names", default=None, metavar="'A B C'", help="Player names in order of play (spaces or commas).")
@click.option(
    "--output", "-o", metavar="FILE", default=None, help="Write to FILE, not stdout.", shell_complete=complete_paths
)
@json_option
@jsonl_option("One JSON object per hand and line (the objects of --json), written as each hand is played.")
@quiet_option
def simulate(
    players: int | None,
    hands: int,
    seed: int,
    rules: str,
    names: str | None,
    output: str | None,
    as_json: bool,
    as_jsonl: bool,
    quiet: bool,
) -> None:
    """Write legal, complete hand records from self-play (canonical .pan text).

    Each hand is played to its end (a player going out, or everybody but one on top);
    the winner is first hand of the next (S3). The same arguments give the same records.

    --json writes one list instead (to FILE with -o), an object per hand: 'hand'
    (1-based), 'players', 'rules', 'seed', 'text' (the canonical record of the hand),
    'first_line' and 'last_line' (where the hand sits in the text output) and
    'winner' (from refereeing the hand; null when it is void).

    \b
    Examples:
      pan simulate --players 6 --hands 3 --seed 7
      pan simulate --players 4 --hands 100 --rules cardroom -o games.pan
      pan simulate --names "Mo Lu Bo" --hands 2 | pan replay -
      pan simulate --players 3 --hands 2 --seed 4 --json
    """
    from pancli.referee.simulate import simulate_hands

    if output is not None and os.path.isdir(output):
        raise IOFailure(output, "write", "a folder, not a file")
    json_mode(as_json, as_jsonl)
    seats = seat_names(players, names)
    profile = load_profile(rules)
    tags: tuple[tuple[str, str], ...] = ()
    if rules.lower() not in ("hoyle", "cardroom"):
        # A record names its house-rules file by a path inside its own folder (R3): the folder
        # of the output file, or the current one for standard output.
        folder = os.path.abspath(os.path.dirname(output) or ".") if output is not None else os.getcwd()
        where = os.path.relpath(os.path.realpath(rules), os.path.realpath(folder))
        if where == ".." or where.startswith(".." + os.sep) or os.path.isabs(where):
            raise click.BadParameter(
                f"R3 {rules!r} is outside {folder!r}: a record names its house-rules file by a path inside"
                " its folder (put the file there)",
                param_hint="'--rules'",
            )
        tags = (("Rules", Path(where).as_posix()),)
    progress = Progress("simulate", hands, "hands", enabled=wanted(quiet, stdout_too=output is not None))
    scripts = _counted(simulate_hands(seats, hands, seed, profile), progress)
    if tags:
        scripts = (replace(s, tags=tags) for s in scripts)
    pieces = _json_pieces(scripts, seed, as_jsonl) if as_json or as_jsonl else _text_pieces(scripts)
    if output is None:
        _write(sys.stdout, pieces, flush_each=as_jsonl)
    else:
        try:  # a temporary file renamed over FILE at the end: a run killed half-way leaves no half file
            with atomic_write(output) as stream:
                _write(stream, pieces)
        except OSError as exc:
            raise IOFailure(output, "write", exc) from None
    sys.exit(EXIT_OK)


def _counted(scripts: Iterator[HandScript], progress: Progress) -> Iterator[HandScript]:
    """The hands, ``progress`` told of each (and erased at the end, or when the run stops)."""
    with progress:
        for script in scripts:
            yield script
            progress.advance()


def _text_pieces(scripts: Iterator[HandScript]) -> Iterator[str]:
    """Canonical text of the hands, one blank line between them."""
    from pancli.notation.record_writer import write_script

    for i, script in enumerate(scripts):
        yield ("\n" if i else "") + write_script(script)


def _json_pieces(scripts: Iterator[HandScript], seed: int, lines: bool = False) -> Iterator[str]:
    """One JSON list, an object per line for each hand (streamed: any number of hands); with
    ``lines`` the objects alone, one a line (``--jsonl``)."""
    import json

    from pancli.notation.record_writer import write_script
    from pancli.referee import referee_hand

    line = 1
    hand = 0
    for hand, script in enumerate(scripts, 1):
        text = write_script(script)
        count = text.count("\n")
        obj = {
            "hand": hand,
            "players": list(script.players),
            "rules": script.profile.name,
            "seed": seed,
            "first_line": line,
            "last_line": line + count - 1,
            "winner": referee_hand(script, record_steps=False).winner,
            "text": text,
        }
        if lines:
            yield json.dumps(obj, ensure_ascii=False) + "\n"
        else:
            yield ("[\n" if hand == 1 else ",\n") + json.dumps(obj, ensure_ascii=False)
        line += count + 1  # the blank line between hands
    if not lines:
        yield "\n]\n" if hand else "[]\n"


def _write(stream: IO[str], pieces: Iterator[str], flush_each: bool = False) -> None:
    """The pieces of the output, written in batches (``flush_each``: each as it comes)."""
    chunk: list[str] = []
    for piece in pieces:
        if flush_each:
            stream.write(piece)
            stream.flush()
            continue
        chunk.append(piece)
        if len(chunk) >= 256:
            stream.write("".join(chunk))
            chunk = []
    stream.write("".join(chunk))
