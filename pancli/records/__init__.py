"""Reading ``.pan`` records: a stream of hands, one at a time, in constant memory. Each hand
is a :class:`~pancli.notation.layout.RecordHand` (its script, text and layout).

>>> import io
>>> from pancli.records import read_hands
>>> text = '''[Players "Ana Ben"]
...
... deal Ana 5s 5s 5s 3h 4h Kd Kh Kc 2c 7d
... up 4c
... Ana stay
... Ben stay
... Ana draw 5h, meld [3h 4h 5h], discard 7d ! ; nice
... '''
>>> [hand] = read_hands(io.StringIO(text), "demo.pan")
>>> hand.index, hand.first_line, hand.last_line, hand.error
(1, 1, 7, None)
>>> hand.script.players, len(hand.script.events)
(('Ana', 'Ben'), 3)
>>> hand.layout.notes_of(4).eol, hand.layout.notes_of(4).actions[-1]
('nice', ('!', ()))
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pancli.records.reader import read_hands

__all__ = ["read_hands"]


def __getattr__(name: str) -> Any:
    """``read_hands`` is imported on first use, so that ``pancli.records.shipped`` (``pan samples``)
    does not pay for importing the reader at start-up."""
    if name == "read_hands":
        from pancli.records.reader import read_hands  # start-up: pan rules P8 does without it

        return read_hands
    raise AttributeError(f"module 'pancli.records' has no attribute {name!r}")
