"""The exporters of ``pan simulate``: the hands' canonical text, or their JSON (one list with an
object a line, or ``--jsonl``), streamed hand by hand."""

from __future__ import annotations

from collections.abc import Iterator
from typing import IO, TYPE_CHECKING

from pancli.render.text import seated_text
from pancli.values import Item

if TYPE_CHECKING:
    from pancli.app.simulate import SimulatedHand
    from pancli.refusals import Unseated


class SimulatedItem(Item):
    """One simulated hand: its number, seats, profile and seed, where it stands in the text, its
    winner and its canonical text."""

    hand: int
    players: tuple[str, ...]
    rules: str
    seed: int
    first_line: int
    last_line: int
    winner: str | None
    text: str


def problem_text(message: str | Unseated) -> str:
    """What a :class:`~pancli.app.simulate.SimulateProblem` says: its words, or the rules object's
    answer that the players cannot be seated (S1), worded as every command's ``--players``."""
    if isinstance(message, str):
        return message
    return seated_text(message) or ""


def text_pieces(played: Iterator[SimulatedHand]) -> Iterator[str]:
    """Canonical text of the hands, one blank line between them."""
    for hand in played:
        yield ("\n" if hand.number > 1 else "") + hand.text


def stream_hands(played: Iterator[SimulatedHand], seed: int, out: IO[str], *, lines: bool, flush_each: bool) -> None:
    """One JSON list, an object per line for each hand (streamed: any number of hands); with
    ``lines`` the objects alone, one a line (``--jsonl``); ``flush_each``: each hand as it is
    played."""
    from pancli.render.stream import JsonStream  # start-up: the hands' text, the default, is written without it

    stream = JsonStream(lines, out, flush_each=flush_each, compact=True)
    for hand in played:
        script = hand.script
        stream.add(SimulatedItem(hand.number, script.players, script.profile.name, seed, hand.first_line,
                                 hand.last_line, hand.winner, hand.text))  # fmt: skip
    stream.close()
