"""The exporters of ``pan simulate``: the hands' canonical text, or their JSON (one list with an
object a line, or ``--jsonl``), streamed hand by hand."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from pancli.jsontext import Item, dumps

if TYPE_CHECKING:
    from pancli.app.simulate import SimulatedHand


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


def text_pieces(played: Iterator[SimulatedHand]) -> Iterator[str]:
    """Canonical text of the hands, one blank line between them."""
    for hand in played:
        yield ("\n" if hand.number > 1 else "") + hand.text


def json_pieces(played: Iterator[SimulatedHand], seed: int, lines: bool = False) -> Iterator[str]:
    """One JSON list, an object per line for each hand (streamed: any number of hands); with
    ``lines`` the objects alone, one a line (``--jsonl``)."""
    held = ""  # the last object of the list: it goes out with its comma or the list's end (whole lines)
    for hand in played:
        n = hand.number
        script = hand.script
        item = SimulatedItem(n, script.players, script.profile.name, seed, hand.first_line, hand.last_line,
                             hand.winner, hand.text)  # fmt: skip
        if lines:
            yield dumps(item) + "\n"
        else:
            if held:
                yield held + ",\n"
            held = ("[\n" if not held else "") + dumps(item)
    if not lines:
        yield held + "\n]\n" if held else "[]\n"
