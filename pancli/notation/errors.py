"""The error every notation parser raises."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # (for the type checker only: a Literal of 21 values costs start-up to build)
    from typing import Literal

    NotationCode = Literal[
        "E1", "N1", "N2", "N3", "N4", "N5", "N6", "N7", "N8", "N9", "N10",
        "R1", "R2", "R3", "R4", "R5", "R6", "R7", "R8", "R9", "R10",
    ]  # fmt: skip
    """The rules a reader of notation rules on (ids of the registry, :class:`pancli.rulebook.Rule`):
    the card and record notation (N, R) and a card not in the pack (E1). Spelled here so that a
    typo in a code is a type error while the readers start without importing the registry."""


class NotationError(ValueError):
    """Text that is not valid notation.

    ``code`` is a rule id (``E1`` for a card not in a Panguingue pack) or a notation
    error code (``N1``...; see grammar/README.md). ``col`` is 1-based, counted in
    characters of the parsed text; ``line`` is 1-based within that text.
    """

    def __init__(self, code: NotationCode, message: str, col: int = 1, line: int = 1) -> None:
        super().__init__(f"{line}:{col}: {code} {message}")
        self.code = code
        self.message = message
        self.col = col
        self.line = line
