"""``pan simulate --players N --hands K --seed S --rules P``: legal, complete records from self-play.

The hands come from :func:`pancli.app.simulate.simulated` (self-play written in canonical
form: ``pan fmt`` leaves them unchanged and ``pan replay`` finds no violation); this module
parses the options and writes the hands as text, JSON or JSON lines. The same arguments
always give the same text.
"""

from __future__ import annotations

import os
import sys
from typing import IO, TYPE_CHECKING

import click

from pancli.app.lines import rules_object
from pancli.app.simulate import SimulatedHand, SimulateProblem, rules_tags, seat_names, simulated
from pancli.cli.common import (
    EXIT_OK,
    IOFailure,
    complete_paths,
    json_mode,
    json_option,
    jsonl_option,
    load_profile,
    output_file,
    players_option,
    rules_option,
    seed_option,
    stakes,
)
from pancli.cli.progress import Progress, quiet_option, wanted
from pancli.render.simulate import problem_text, stream_hands, text_pieces

if TYPE_CHECKING:
    from collections.abc import Iterator


@click.command("simulate")
@players_option("Players seated, 2 to 15 (default 6, or as --names).", default=None, checked=False)
@click.option("--hands", "-k", type=click.IntRange(min=0), default=1, show_default=True, help="Hands to play.")
@seed_option("Seed of the shuffles and the policy.", default=0)
@rules_option
@click.option("--names", default=None, metavar="'A B C'", help="Player names in order of play (spaces or commas).")
@click.option(
    "--output",
    "-o",
    metavar="FILE",
    default=None,
    callback=output_file(to_stdout=True),
    help="Write to FILE (atomically), not stdout ('-': stdout).",
    shell_complete=complete_paths,
)
@click.option(
    "--stake",
    default=None,
    metavar="MONEY",
    help="The money value of one unit, written as each hand's Stake tag (e.g. 0.25; pan settle then pays money).",
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
    stake: str | None,
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
      pan simulate --players 4 --hands 20 --stake 0.25 | pan settle -
    """
    if output is not None and os.path.isdir(output):
        raise IOFailure(output, "write", "a folder, not a file")
    json_mode(as_json, as_jsonl)
    money = stakes(stake, None)[0]
    try:
        profile = load_profile(rules)
        pan_rules = rules_object(profile)
        seats = seat_names(players, names, pan_rules)
        tags = rules_tags(rules, output)
    except SimulateProblem as exc:
        raise click.BadParameter(problem_text(exc.message), param_hint=exc.option) from None
    progress = Progress("simulate", hands, "hands", enabled=wanted(quiet, stdout_too=output is not None))
    played = _counted(simulated(seats, hands, seed, profile, tags, money, rules=pan_rules), progress)

    def write(stream: IO[str], flush_each: bool) -> None:
        if as_json or as_jsonl:
            stream_hands(played, seed, stream, lines=as_jsonl, flush_each=flush_each)
        else:
            _write(stream, text_pieces(played))

    if output is None:
        write(sys.stdout, as_jsonl)
    else:
        try:  # a temporary file renamed over FILE at the end: a run killed half-way leaves no half file
            from pancli.files import atomic_write  # start-up: only -o FILE needs tempfile and shutil

            with atomic_write(output) as stream:
                write(stream, False)
        except OSError as exc:
            raise IOFailure(output, "write", exc) from None
    sys.exit(EXIT_OK)


def _counted(played: Iterator[SimulatedHand], progress: Progress) -> Iterator[SimulatedHand]:
    """The hands, ``progress`` told of each (and erased at the end, or when the run stops)."""
    with progress:
        for hand in played:
            yield hand
            progress.advance()


def _write(stream: IO[str], pieces: Iterator[str]) -> None:
    """The pieces of the output, written in batches."""
    chunk: list[str] = []
    for piece in pieces:
        chunk.append(piece)
        if len(chunk) >= 256:
            stream.write("".join(chunk))
            chunk = []
    stream.write("".join(chunk))
