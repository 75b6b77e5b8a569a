"""The error every notation parser raises."""

from __future__ import annotations


class NotationError(ValueError):
    """Text that is not valid notation.

    ``code`` is a rule id (``E1`` for a card not in a Panguingue pack) or a notation
    error code (``N1``...; see grammar/README.md). ``col`` is 1-based, counted in
    characters of the parsed text; ``line`` is 1-based within that text.
    """

    def __init__(self, code: str, message: str, col: int = 1, line: int = 1) -> None:
        super().__init__(f"{line}:{col}: {code} {message}")
        self.code = code
        self.message = message
        self.col = col
        self.line = line
