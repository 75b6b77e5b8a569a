"""What ``pan fmt`` does between its options and its output: each hand of a record in
canonical form (docs/notation.md), a hand at a time."""

from __future__ import annotations

from collections.abc import Iterator
from typing import IO, TYPE_CHECKING

from pancli.notation.record_writer import format_record
from pancli.records import read_hands

if TYPE_CHECKING:
    from pathlib import Path

    from pancli.notation.errors import NotationError as NotationError


def canonical_hands(stream: IO[str], file: str, base_dir: Path | None) -> Iterator[tuple[str, NotationError | None]]:
    """Each hand of the record ``stream`` (``file`` in errors; house rules looked up in
    ``base_dir``) in canonical form, a malformed hand as written, with its error (None when it reads).

    >>> import io
    >>> record = io.StringIO('[Players "Ana  Ben"]\\nAna  stay\\n')
    >>> list(canonical_hands(record, "-", None))
    [('[Players "Ana Ben"]\\n\\nAna stay\\n', None)]
    """
    for hand in read_hands(stream, file, base_dir):
        yield format_record(hand), hand.error
