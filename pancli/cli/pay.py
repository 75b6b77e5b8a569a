"""``pan pay MELD... --players N``: what laying melds (and going out with them) collects.

Each meld is judged as in ``pan check``; its value (C6) is what each active opponent pays
when it is laid (C7). The melds are taken as one player's: together they may hold no more
copies of a card than the pack (E4). With ``--out`` the player goes out with them and each
opponent pays the going-out bonus plus the value of all the melds again (C8).
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import Any

import click

from pancli.app.check import MEMO_LIMIT, MeldCheck, assess_all, error_suffix, judge_fields
from pancli.app.lines import remembered_items
from pancli.app.pay import Counts, PackCounter, going_out
from pancli.cards import Game
from pancli.cli.common import (
    ARG_FILE,
    EXIT_ILLEGAL,
    EXIT_OK,
    NOTHING_TO_CHECK,
    STDIN_FILE,
    input_lines,
    json_mode,
    json_option,
    jsonl_option,
    load_profile,
    players_option,
    reads_stdin,
    rules_option,
    stdin_blocks,
    stdout_is_terminal,
)
from pancli.melds import Meld
from pancli.rules import Profile
from pancli.values import frozen


@frozen
class PayReport:
    """The melds judged and what they collect from each of ``opponents`` active opponents."""

    melds: tuple[MeldCheck, ...]
    players: int
    profile: Profile
    laid: int
    """Units each opponent pays for laying the melds (C6, C7)."""
    going_out: int | None
    """Units each opponent pays for going out with them (C8), or None without ``--out``."""

    @property
    def opponents(self) -> int:
        """The active opponents: every active player but the melder."""
        return self.players - 1

    @property
    def per_opponent(self) -> int:
        """Units each active opponent pays in all."""
        return self.laid + (self.going_out or 0)

    @property
    def total(self) -> int:
        """Units collected in all."""
        return self.per_opponent * self.opponents

    def to_json(self) -> dict[str, Any]:
        """``melds per_opponent opponents total`` (docs/commands.md), with the breakdown."""
        out: dict[str, Any] = {
            "melds": [m.to_json() for m in self.melds],
            "per_opponent": self.per_opponent,
            "opponents": self.opponents,
            "total": self.total,
            "players": self.players,
            "rules": self.profile.name,
            "laid": {"rule": "C7", "per_opponent": self.laid},
            "going_out": None,
        }
        if self.going_out is not None:
            out["going_out"] = {
                "rule": "C8",
                "out_bonus": self.profile.out_bonus,
                "melds_again": self.going_out - self.profile.out_bonus,
                "per_opponent": self.going_out,
            }
        return out

    def summary(self) -> list[tuple[str, str, str]]:
        """The breakdown as (label, units, explanation) rows."""
        rows = [("laid", str(self.laid), "C7: the value of the melds as laid, from each opponent")]
        if self.going_out is not None:
            again = self.going_out - self.profile.out_bonus
            rows.append(
                (
                    "going out",
                    str(self.going_out),
                    f"C8: out_bonus {self.profile.out_bonus} + the melds again {again}, from each opponent",
                )
            )
        rows += [
            ("per opponent", str(self.per_opponent), "units each active opponent pays"),
            ("opponents", str(self.opponents), f"{self.players} active players less the melder"),
            ("total", str(self.total), f"{self.per_opponent} x {self.opponents}"),
        ]
        return rows


def conserve(reports: Iterable[MeldCheck], profile: Profile) -> list[MeldCheck]:
    """The reports with E4 across the melds applied (:class:`pancli.app.pay.PackCounter`): a meld
    that takes a card past its copies in the pack is illegal and counts nothing."""
    pack = PackCounter(profile)
    out = []
    for r in reports:
        if r.legal:
            over = pack.take(r.cards)
            if over is not None:
                r = r.refused("E4", over)
        out.append(r)
    return out


def compute(reports: list[MeldCheck], players: int, profile: Profile, out: bool) -> PayReport:
    """The payments for laying the legal melds among ``reports`` (and going out with them)."""
    melds = [r.engine_meld for r in reports if r.engine_meld is not None]
    return PayReport(tuple(reports), players, profile, sum(r.value for r in reports), going_out(melds, profile, out))


@click.command(
    "pay",
    epilog="Exit status: 0 every meld legal, 1 some meld illegal or unreadable, 2 usage error.",
)
@click.argument("melds", nargs=-1, metavar="MELD...")
@players_option("Active players at the table (2-15, S1): the melder pays nothing, the other N-1 pay.")
@click.option("--out", "going_out", is_flag=True, help="The player goes out with these melds: add C8.")
@json_option
@jsonl_option("One JSON object per meld and line (as in 'pan check --jsonl'), then one line of totals.")
@rules_option
@click.pass_context
def pay(
    ctx: click.Context, melds: tuple[str, ...], players: int, going_out: bool, as_json: bool, as_jsonl: bool, rules: str
) -> None:
    """What one player's melds collect from each active opponent, and in all.

    Each argument is one meld (as in 'pan check'); with '-', or no argument and piped
    input, one meld per line of standard input ('#' starts a comment). Each meld pays its value as laid (C6,
    C7) from each of the N-1 active opponents. With --out the player goes out with
    these melds: each opponent also pays the going-out bonus (out_bonus of the
    profile) plus the value of all the melds again (C8); forfeits and tops are not
    counted, nor is the count of 11 cards checked (that is 'pan replay').

    \b
    Examples:
      pan pay 5sss 3-5h --players 6
      pan pay "5s 5s 5s 5s" 7-Qc 2-4h --out --rules cardroom
      pan pay --json J-Kc As2s3s -n 4

    In a pipe the text is one tab-separated line per meld (MELD, CONDITIONS, VALUE,
    '-' for none), then 'label<TAB>units<TAB>explanation' lines: laid, going out
    (with --out), per opponent, opponents, total. --json prints an object with melds
    (as in 'pan check --json'), per_opponent, opponents, total, players, rules, laid
    and going_out. An illegal meld counts 0, is reported on standard error as
    'FILE:LINE:COL: RULE message', and the exit status is 1.
    """
    json_mode(as_json, as_jsonl)
    profile = load_profile(rules)
    if not as_json and not as_jsonl and not stdout_is_terminal():
        if reads_stdin(melds):
            ctx.exit(_plain_stream(stdin_blocks(), STDIN_FILE, profile, players, going_out))
        if not melds:
            raise click.UsageError(NOTHING_TO_CHECK)
        ctx.exit(_plain_stream([list(melds)], ARG_FILE, profile, players, going_out))
    reports = conserve(assess_all(input_lines(melds, NOTHING_TO_CHECK), profile), profile)
    if as_jsonl:
        ctx.exit(_pay_lines(reports, players, profile, going_out))
    result = compute(reports, players, profile, going_out)
    if as_json:
        from pancli.cli.common import emit_json

        emit_json(result.to_json())
    elif stdout_is_terminal():
        _print_rich(result)
    else:
        lines = [f"{r.meld}\t{'+'.join(r.conditions) or '-'}\t{r.value}\n" for r in reports]
        lines += [f"{label}\t{units}\t{why}\n" for label, units, why in result.summary()]
        sys.stdout.write("".join(lines))
    sys.stdout.flush()
    errors = [r.error_line() + "\n" for r in reports if not r.legal]
    sys.stderr.write("".join(errors))
    ctx.exit(EXIT_ILLEGAL if errors else EXIT_OK)


_PayLine = tuple[str, Counts | None, int, Meld | None, str, str]
"""One distinct meld line of the pipe path: its row when counted, its cards' counts (None when
it is not legal on its own), value, engine meld, its row when refused, its error suffix."""


def _pay_line(text: str, profile: Profile, pack: PackCounter) -> _PayLine:
    col, meld, legal, _, _, conds, value, rule, reason, cards, engine = judge_fields(text, profile, Game.PANGUINGUE)
    if legal:
        row = f"{meld}\t{'+'.join(conds) or '-'}\t{value}\n"
        return row, pack.counts(cards), value, engine, f"{meld}\t-\t0\n", ""
    return "", None, 0, None, f"{meld}\t-\t0\n", error_suffix(col, rule, reason) + "\n"


def _plain_stream(blocks: Iterable[list[str]], file: str, profile: Profile, players: int, out: bool) -> int:
    """The pipe path, streamed: a line out for each meld as it is read (``blocks`` of input lines,
    of standard input when ``file`` is ``-``: blank and comment lines skipped), error lines after
    each block, the totals at the end. Memory holds one block and the distinct lines seen
    (bounded), not every report (benchmarks/README.md). The same rows, totals and errors as the
    report path (tests/test_cli_pay.py compares them).

    Kept for speed: each distinct line is read, judged and written once (its rows and error
    suffix), E4 through :meth:`PackCounter.take_counts`; benchmarks/bench_batch.py, 200,000 lines
    (CPU, whole process): 3.6x ``pan check -`` before, see benchmarks/README.md for after.
    """
    pack = PackCounter(profile)
    take = pack.take_counts
    said: dict[str, str] = {}
    melds: list[Meld] = []
    laid = 0
    failed = False
    for block in remembered_items(blocks, file, lambda i: _pay_line(i.text, profile, pack), MEMO_LIMIT):
        text_out: list[str] = []
        text_err: list[str] = []
        for n, entry in block:
            row, counts, value, engine, refused, suffix = entry
            if counts is not None:
                over = take(counts)
                if over is None:
                    text_out.append(row)
                    laid += value
                    if out and engine is not None:
                        melds.append(engine)
                    continue
                suffix = said.get(over) or said.setdefault(over, error_suffix(1, "E4", over) + "\n")
            failed = True
            text_out.append(refused)
            text_err.append(f"{file}:{n}{suffix}")
        sys.stdout.write("".join(text_out))
        sys.stdout.flush()
        sys.stderr.write("".join(text_err))
    result = PayReport((), players, profile, laid, going_out(melds, profile, out))
    sys.stdout.write("".join(f"{label}\t{units}\t{why}\n" for label, units, why in result.summary()))
    sys.stdout.flush()
    return EXIT_ILLEGAL if failed else EXIT_OK


def _print_rich(result: PayReport) -> None:
    from rich.table import Table

    from pancli.cli.common import stdout_console
    from pancli.cli.meld_table import meld_table

    console = stdout_console()
    console.print(meld_table(result.melds, f"pan pay ({result.profile.name}, {result.players} players)"))
    summary = Table(show_header=False, box=None)
    summary.add_column(style="bold")
    summary.add_column(justify="right")
    summary.add_column(style="dim")
    for label, units, why in result.summary():
        summary.add_row(label, units, why)
    console.print(summary)


def _pay_lines(reports: list[MeldCheck], players: int, profile: Profile, going_out: bool) -> int:
    """``--jsonl``: each meld's object (as ``pan check --jsonl``), then one line of totals (the
    object of ``--json`` without its ``melds``); returns the exit status."""
    from pancli.cli.stream import JsonStream

    lines = JsonStream(True)
    errors = False
    for r in reports:
        lines.add(r.to_json())
        if not r.legal:
            errors = True
            sys.stderr.write(r.error_line() + "\n")
    totals = compute(reports, players, profile, going_out).to_json()
    del totals["melds"]
    lines.add(totals)
    return EXIT_ILLEGAL if errors else EXIT_OK
