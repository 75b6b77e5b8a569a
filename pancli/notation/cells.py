"""Terminal cell widths of text, for plain-text columns that hold player names of any script.

A wide character (East Asian wide or full-width: ``李``) takes two cells of a terminal, a
combining accent none; :func:`ljust_cells` and :func:`rjust_cells` pad by cells where
``str.ljust`` pads by characters and so misaligns ``李娜`` against ``Ana``.

>>> cell_width("Ana"), cell_width("\\u674e\\u5a1c"), cell_width("Jose\\u0301")
(3, 4, 4)
>>> ljust_cells("\\u674e\\u5a1c", 6) + "|", rjust_cells("Ana", 6)
('\\u674e\\u5a1c  |', '   Ana')
"""

from __future__ import annotations


def cell_width(text: str) -> int:
    """How many terminal cells ``text`` takes (wide characters 2, combining marks 0)."""
    if text.isascii():
        return len(text)
    import unicodedata  # start-up: only text past ASCII needs it

    width = 0
    for ch in text:
        if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Cf"):
            continue
        width += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return width


def ljust_cells(text: str, width: int) -> str:
    """``text`` padded on the right with blanks to ``width`` cells."""
    return text + " " * max(0, width - cell_width(text))


def rjust_cells(text: str, width: int) -> str:
    """``text`` padded on the left with blanks to ``width`` cells."""
    return " " * max(0, width - cell_width(text)) + text
