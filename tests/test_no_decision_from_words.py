"""No decision is read back out of words: a judge's sentence (an error's ``message``, a ruling's
``reason``, a payment's ``note``) is for people; code compares the values it was made from.
(Issue 31: ``"(I1)" in seat.retired`` was such a reading; the record reader once knew binary data
by its message.)"""

from __future__ import annotations

import ast
from pathlib import Path

PANCLI = Path(__file__).resolve().parent.parent / "pancli"
WORDS = frozenset({"message", "reason", "note", "retired", "why"})
"""Attribute and variable names that hold a sentence made for people."""
SLICING = frozenset({"endswith", "startswith", "find", "index", "split", "partition", "rpartition"})


def readings(source: str) -> list[str]:
    """Each comparison of, or search in, a sentence in ``source``.

    >>> readings("if problem.message == binary_message(): pass")
    ['problem.message == binary_message()']
    >>> readings("ok = why.startswith('no'); n = problem.code == 'R2'")
    ["why.startswith('no')"]
    """
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            ops = (ast.Eq, ast.NotEq, ast.In, ast.NotIn)
            if any(isinstance(x, ast.Attribute) and x.attr in WORDS for x in sides) and any(
                isinstance(o, ops) for o in node.ops
            ):
                found.append(ast.unparse(node))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in SLICING:
            held = node.func.value
            if (isinstance(held, ast.Attribute) and held.attr in WORDS) or (
                isinstance(held, ast.Name) and held.id in WORDS
            ):
                found.append(ast.unparse(node))
    return found


def test_no_code_compares_or_searches_a_sentence_made_for_people() -> None:
    """None allowed: the check batch shares what a verdict says every order of its cards is told
    (``Verdict.lead``), no longer the judge's sentence cut short (it was the one allowance)."""
    wrong = [
        f"{path.relative_to(PANCLI).as_posix()}: {text}"
        for path in sorted(PANCLI.rglob("*.py"))
        for text in readings(path.read_text(encoding="utf-8"))
    ]
    assert wrong == []


def test_the_reader_knows_binary_data_by_its_class() -> None:
    from pancli.notation.errors import NotationError
    from pancli.records.reader import Binary, BinaryData, binary_message

    error = BinaryData(Binary("PNG", 4), 7)
    assert (error.code, error.message, error.col, error.line) == ("R2", binary_message(), 4, 7)
    assert isinstance(error, NotationError)
