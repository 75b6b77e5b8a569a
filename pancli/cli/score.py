"""``pan score --game pagruc "MELDS | HAND"``: a PAGRUC hand score, card by card (G7)."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from dataclasses import replace
from typing import Any

import click

from pancli.app.lines import remembered_items
from pancli.cards import Card, Game, format_cards
from pancli.cli.common import (
    ARG_FILE,
    EXIT_ILLEGAL,
    EXIT_OK,
    STDIN_FILE,
    InputLine,
    error_line,
    json_mode,
    json_option,
    jsonl_option,
    reads_stdin,
    stdin_blocks,
    stdin_lines,
    stdout_is_terminal,
)
from pancli.melds import MeldError
from pancli.notation import NotationError, parse_hand
from pancli.pagruc.pack import PagrucPack
from pancli.pagruc.scoring import HandScore, score_hand
from pancli.rulebook import Rule
from pancli.values import frozen


class ScoreInputError(ValueError):
    """A score literal that cannot be scored: rule (G1, G4, G7 or a notation code) and column."""

    def __init__(self, rule: str, message: str, col: int = 1) -> None:
        super().__init__(f"{col}: {rule} {message}")
        self.rule = rule
        self.message = message
        self.col = col


def _side(text: str, offset: int) -> tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]]:
    """The groups and loose cards of one side of ``|`` (columns shifted by ``offset``)."""
    stripped = text.strip()
    if not stripped:
        return (), ()
    lead = offset + len(text) - len(text.lstrip())
    try:
        h = parse_hand(stripped, Game.PAGRUC)
    except NotationError as exc:
        raise ScoreInputError(exc.code, exc.message, exc.col + lead) from None
    return h.groups, h.loose


def read_score(text: str) -> tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]]:
    """The melded groups and the cards left in the hand of a score literal.

    ``[5h 6h 7h] [Ac Ad As] | Ks Ah``: bracketed melds, ``|``, the hand. Without ``|`` the
    bracketed groups are the melds and the loose cards the hand; with ``|`` and no brackets
    on its left, the cards before it are one meld.

    >>> melds, hand = read_score("[5h 6h 7h] [Ac Ad As] | Ks Ah")
    >>> [format_cards(m) for m in melds], format_cards(hand)
    (['5h 6h 7h', 'Ac Ad As'], 'Ks Ah')
    >>> read_score("8c 9c 10c | Qd")[0]
    ((Card('8c'), Card('9c'), Card('Tc')),)
    """
    if not text.strip():
        raise ScoreInputError(Rule.N3, "empty: write MELDS | HAND, e.g. '[5h 6h 7h] | Ks'")
    bars = [i for i, ch in enumerate(text) if ch == "|"]
    if len(bars) > 1:
        raise ScoreInputError(Rule.G7, "more than one '|': write MELDS | HAND", bars[1] + 1)
    if not bars:
        return _side(text, 0)
    bar = bars[0]
    groups, loose = _side(text[:bar], 0)
    if groups and loose:
        raise ScoreInputError(Rule.G7, f"cards left of '|' outside [ ]: {format_cards(loose)} (one [group] a meld)", 1)
    right_groups, hand = _side(text[bar + 1 :], bar + 1)
    if right_groups:
        raise ScoreInputError(Rule.G7, "the hand, right of '|', holds no [ ] groups", bar + 2)
    return (groups or ((loose,) if loose else ())), hand


@frozen
class ScoreReport:
    """One score literal of input and its score, or the error that stops it."""

    file: str
    line: int
    text: str
    score: HandScore | None
    rule: str | None = None
    message: str = ""
    col: int = 1

    def to_json(self) -> dict[str, Any]:
        """``score``, ``table``, ``hand``, ``melds`` and ``cards`` (card, where, points, meld); or ``error``."""
        out: dict[str, Any] = {"input": self.text, "file": self.file, "line": self.line}
        s = self.score
        if s is None:
            out["score"] = None
            out["error"] = {"rule": self.rule, "message": self.message, "col": self.col}
            return out
        out.update(
            score=s.total,
            table=s.table,
            hand=s.in_hand,
            melds=[{"meld": str(m), "kind": m.kind.value, "points": m.points} for m in s.melds],
            cards=[{"card": str(c.card), "where": c.where.value, "points": c.points, "meld": c.meld} for c in s.cards],
        )
        return out

    def plain(self) -> str:
        """Text lines: the literal, one line a card, then the totals."""
        s = self.score
        if s is None:
            return ""
        melds = " ".join(f"[{m}]" for m in s.melds)
        head = f"{melds} | {format_cards(s.hand)}".strip()
        lines = [head]
        for c in s.cards:
            meld = f"meld {c.meld}" if c.meld else ""
            lines.append(f"  {c.card!s:<3} {c.where.value:<4} {c.points:>+4}  {meld}".rstrip())
        lines.append(f"  table {s.table:+d}, hand {s.in_hand:+d}: score {s.total}")
        return "\n".join(lines) + "\n"

    def error_line(self) -> str:
        return error_line(self.file, self.line, self.col, self.rule, self.message)


def _error_or_none(r: ScoreReport) -> str | None:
    return None if r.score is not None else r.error_line()


def assess_score(item: InputLine, pack: PagrucPack) -> ScoreReport:
    """Read and score one literal.

    >>> r = assess_score(InputLine("<arg>", 1, "[5h 6h 7h] [Ac Ad As] | Ks Ah"), PagrucPack(2))
    >>> r.score.total if r.score else None
    38
    >>> assess_score(InputLine("<arg>", 1, "[Qh Kh Ah] | 2c"), PagrucPack(2)).error_line()
    '<arg>:1:1: G4 meld 1 (Qh Kh Ah): aces are low only: a run does not go round the corner (no Q-K-A, no K-A-2)'
    """
    try:
        melds, hand = read_score(item.text)
        return ScoreReport(item.file, item.line, item.text, score_hand(melds, hand, pack))
    except ScoreInputError as exc:
        return ScoreReport(item.file, item.line, item.text, None, exc.rule, exc.message, exc.col)
    except MeldError as exc:
        return ScoreReport(item.file, item.line, item.text, None, exc.rule, exc.reason, 1)


_MEMO_LIMIT = 50_000
"""Distinct literals remembered by :func:`scored` (a batch repeats its lines; memory stays bounded)."""


def scored(
    items: Iterable[InputLine], pack: PagrucPack, memo: dict[str, ScoreReport] | None = None
) -> Iterator[tuple[InputLine, ScoreReport]]:
    """Each item with its :func:`assess_score`, a literal read and scored once however often it
    comes (bounded ``memo``, kept by the caller across blocks; the report is the first item's:
    place errors with the item)."""
    if memo is None:
        memo = {}
    for item in items:
        known = memo.get(item.text)
        if known is None:
            known = assess_score(item, pack)
            if len(memo) < _MEMO_LIMIT:
                memo[item.text] = known
        yield item, known


def _placed(items: Iterable[InputLine], pack: PagrucPack) -> Iterator[ScoreReport]:
    """The report of each item, placed at the item (a remembered report carries its first place)."""
    for i, r in scored(items, pack):
        yield r if r.line == i.line and r.file == i.file else replace(r, file=i.file, line=i.line)


def _score_line(line: InputLine, pack: PagrucPack) -> tuple[str, str]:
    """A line's plain text, or its error suffix (``:col: RULE message``, after its place)."""
    r = assess_score(line, pack)
    if r.score is None:
        return "", error_line("", 0, r.col, r.rule, r.message)[len(":0") :] + "\n"
    return r.plain(), ""


def _plain_stream(blocks: Iterable[list[str]], file: str, pack: PagrucPack) -> int:
    """The pipe path: plain text streamed a block of input at a time (a pipe's lines answered as
    they arrive; ``blocks`` of input lines, of standard input when ``file`` is ``-``: blank and
    comment lines skipped), error lines after each block (memory holds one block and the distinct
    lines seen, bounded, not the whole output); returns the exit status.

    Kept for speed: each distinct line is read, scored and written once (its text or its error
    suffix remembered by the raw line); benchmarks/bench_batch.py, 1,000,000 lines (CPU): 3.0x
    ``pan check -`` before, see benchmarks/README.md for after."""
    failed = False
    for block in remembered_items(blocks, file, lambda i: _score_line(i, pack), _MEMO_LIMIT):
        out: list[str] = []
        err: list[str] = []
        for n, known in block:
            text, suffix = known
            if suffix:
                failed = True
                err.append(f"{file}:{n}{suffix}")
            else:
                out.append(text)
        sys.stdout.write("".join(out))
        sys.stdout.flush()
        sys.stderr.write("".join(err))
    sys.stdout.flush()
    return EXIT_ILLEGAL if failed else EXIT_OK


def _print_rich(reports: list[ScoreReport]) -> None:
    from rich.table import Table

    from pancli.cli.common import stdout_console

    console = stdout_console()
    for r in reports:
        s = r.score
        if s is None:
            continue
        console.print(f"PAGRUC score: {r.text.strip()}", markup=False)
        table = Table()
        for name, justify in (("card", "left"), ("where", "left"), ("meld", "left"), ("points", "right")):
            table.add_column(name, justify=justify)  # type: ignore[arg-type]
        for c in s.cards:
            colour = "green" if c.points > 0 else "red"
            table.add_row(str(c.card), c.where.value, c.meld or "-", f"[{colour}]{c.points:+d}[/]")
        table.add_section()
        table.add_row("table", "", "", f"{s.table:+d}")
        table.add_row("hand", "", "", f"{s.in_hand:+d}")
        table.add_row("[bold]score[/]", "", "", f"[bold]{s.total}[/]")
        console.print(table)


@click.command(
    "score",
    epilog="Exit status: 0 scored, 1 a meld is illegal or the text unreadable, 2 usage error.",
)
@click.argument("text", nargs=-1, metavar="MELDS | HAND")
@click.option(
    "--game",
    type=click.Choice([g.value for g in Game], case_sensitive=False),
    default=Game.PAGRUC.value,
    show_default=True,
    help="The game: only pagruc has hand scores.",
)
@click.option(
    "--packs",
    type=click.IntRange(1, 2),
    default=2,
    show_default=True,
    help="52-card packs in play (G1): how many copies of a card may appear.",
)
@json_option
@jsonl_option("One JSON object per hand and line (the objects of --json), as each is scored.")
@click.pass_context
def score(ctx: click.Context, text: tuple[str, ...], game: str, packs: int, as_json: bool, as_jsonl: bool) -> None:
    """A PAGRUC hand score (G7), card by card: melded cards plus, cards left in the hand minus.

    The arguments together are one hand: the melds in [ ] (one group a meld), then '|',
    then the cards left in the hand. Without '|' the [ ] groups are the melds and the loose
    cards the hand. With '-', or no argument and piped input, each line of standard input is
    one hand (blank lines skipped; '#' starts a comment anywhere on a line).

    Points (G7): 2 to 10 face value, J Q K 10; an ace 1 in a run, 15 in a set, minus 15 in
    the hand; every card left in the hand counts minus.

    \b
    Examples:
      pan score --game pagruc "[5h 6h 7h] [Ac Ad As] | Ks Ah"     # 38
      pan score --json "[8c 9c 10c] | Qd 2s"
      printf '[2-4s] | Kh\\n| As Ad\\n' | pan score -

    --json prints one object for the arguments (a list for standard input) with the
    fields score, table, hand, melds (meld, kind, points) and cards (card, where, points,
    meld); an unscorable hand has score null and an error (rule, message, col).
    An illegal meld is reported on standard error as 'FILE:LINE:COL: RULE message'.
    """
    json_mode(as_json, as_jsonl)
    if game.lower() != Game.PAGRUC.value:
        raise click.UsageError("pan score scores PAGRUC hands only (--game pagruc); Panguingue has no hand score")
    pack = PagrucPack(packs)
    from_stdin = reads_stdin(text)
    items: Iterable[InputLine]
    if from_stdin:
        items = stdin_lines()
    elif text:
        items = [InputLine("<arg>", 1, " ".join(text))]
    else:
        raise click.UsageError("nothing to score: give 'MELDS | HAND', or '-' to read standard input")
    if as_jsonl or (as_json and from_stdin):  # a batch: each hand written as it is scored
        from pancli.cli.stream import stream_reports

        clean = stream_reports(_placed(items, pack), as_jsonl, ScoreReport.to_json, _error_or_none)
        ctx.exit(EXIT_OK if clean else EXIT_ILLEGAL)
    if not as_json and not stdout_is_terminal():
        ctx.exit(
            _plain_stream(stdin_blocks(), STDIN_FILE, pack)
            if from_stdin
            else _plain_stream([[" ".join(text)]], ARG_FILE, pack)
        )
    reports = list(_placed(items, pack))
    if as_json:
        from pancli.cli.common import emit_json

        docs = [r.to_json() for r in reports]
        emit_json(docs if from_stdin else docs[0])
    elif stdout_is_terminal():
        _print_rich(reports)
    else:
        sys.stdout.write("".join(r.plain() for r in reports))
    sys.stdout.flush()
    errors = [r.error_line() + "\n" for r in reports if r.score is None]
    sys.stderr.write("".join(errors))
    ctx.exit(EXIT_ILLEGAL if errors else EXIT_OK)
