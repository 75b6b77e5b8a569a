"""``pan settle``'s sitting as a consumer of hand reports: every refereed hand added to a
:class:`~pancli.model.settle.Sitting` (Panguingue and PAGRUC apart), the disputed ones (the
report's :attr:`~pancli.app.report.HandReport.dispute`) and those with an irregularity put
right (their remedies: where, the rule, who returned what to whom) listed, then the totals
and transfers, in four forms: plain tab-separated lines (:class:`SettleSink`), ``--json``,
``--jsonl`` and a terminal."""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING, TypeVar

import msgspec

from pancli.app.report import malformed_dispute
from pancli.cards import Game
from pancli.escapes import escape_text
from pancli.model.settle import DisputeKind, HandRuns, SettledHand, Sitting, player_key
from pancli.notation.record_common import name_key
from pancli.render.replay import Sink
from pancli.render.text import (
    dispute_text,
    error_line,
    money_text,
    signed,
    stdout_console,
    violation_line,
    warning_lines,
)
from pancli.rulebook import Rule
from pancli.values import Item, Line

if TYPE_CHECKING:
    from pancli.app.replay import Tally
    from pancli.app.report import HandReport
    from pancli.model.results import Remedy
    from pancli.model.settle import Dispute, HandRuns, PlayerTotal, SettledHand, Sitting
    from pancli.notation.layout import RecordHand
    from pancli.render.json import RemedyItem


class SettleSink(Sink):
    """Adds every refereed hand to a sitting (Panguingue and PAGRUC apart) and lists the
    disputed ones as they come; :meth:`close` writes the totals and the transfers."""

    def __init__(self, stake: Decimal | None, include_disputed: bool) -> None:
        super().__init__()
        self.pan: Sitting = Sitting(stake, include_disputed=include_disputed)
        self.pagruc_sitting: Sitting = Sitting(None, include_disputed=include_disputed, zero_sum=False)
        self.any_disputed = False
        """Some hand is disputed (the exit status is 1)."""
        self.any_remedied = False
        """Some hand had an irregularity put right (I1, I2): settled as played, but something read
        was illegal (the exit status is 1, as ``pan replay``'s)."""
        self.defaulted = HandRuns()
        """The hands counted at ``--default-stake`` (they name no Stake)."""
        self.cut_off = HandRuns()
        """The hands counted although unfinished (the record stops before their end)."""
        self.looks: dict[str, tuple[str, str]] = {}
        """Each player's name as compared for look-alikes (NFKC, case folded) -> the first name seen
        that way and its file: ``Ana``, ``ana`` and ``Ａna`` are three players, said once a pair."""
        self.alike_said: set[tuple[str, str]] = set()

    def unfinished(self, hand: RecordHand) -> None:
        """Write one unfinished hand (counted: the payments made so far), as it comes."""
        self.out.append(
            f"unfinished\t{escape_text(hand.file)}:{hand.last_line}\thand {hand.index} "
            f"(lines {hand.first_line}-{hand.last_line})\t{UNFINISHED}\n"
        )

    # what each output form does with a disputed hand, a remedied hand and the totals
    def remedied(self, report: HandReport) -> None:
        """Write one hand with irregularities put right: a ``remedied`` line per remedy."""
        hand = report.hand
        for r in report.result.remedies:  # type: ignore[union-attr]
            v = r.violation
            self.out.append(
                f"remedied\t{escape_text(hand.file)}:{v.line}:{v.col}\t{v.rule}\thand {hand.index}"
                f" (lines {hand.first_line}-{hand.last_line})\t{escape_text(returns_text(r))}"
                f"\t{escape_text(v.message)}\n"
            )

    def disputed(self, d: Dispute) -> None:
        """Write one disputed hand (in a pipe: a ``disputed`` line, and the error on standard error)."""
        message = dispute_text(d)
        self.out.append(
            f"disputed\t{escape_text(d.file)}:{d.line}:{d.col}\t{d.rule}\thand {d.hand}"
            f" (lines {d.first_line}-{d.last_line})\t{escape_text(message)}\n"
        )
        self.err.append(error_line(d.file, d.line, d.col, d.rule, message) + "\n")

    def _add(self, sitting: Sitting, hand: SettledHand) -> None:
        if hand.dispute is not None:
            self.any_disputed = True
            self.disputed(hand.dispute)
        sitting.add(hand)
        self._tick()

    def sitting(self, game: Game) -> Sitting:
        """The sitting a game's hands are added to."""
        return self.pagruc_sitting if game is Game.PAGRUC else self.pan

    def hand(self, report: HandReport) -> None:
        hand, result = report.hand, report.result
        if hand.warnings:
            self.err.append(warning_lines(hand))
        self._look_alike(result.players, hand.file)
        dispute = report.dispute
        if report.remedied:
            self.any_remedied = True
            self.err.extend(violation_line(hand.file, r.violation) + "\n" for r in result.remedies)  # type: ignore[union-attr]
            self.remedied(report)
        sitting = self.sitting(result.game)
        counted = SettledHand(result.players, result.totals, result.stake, dispute)
        if sitting.takes_default(counted):
            self.defaulted.add(hand.file, hand.index)
        if report.cut_off:
            self.cut_off.add(hand.file, hand.index)
            self.unfinished(hand)
        self._add(sitting, counted)

    def _look_alike(self, players: tuple[str, ...], file: str) -> None:
        """Warn (R2) of a player whose name looks like another's seen before, in any file."""
        for name in players:
            first, where = self.looks.setdefault(name_key(name), (name, file))
            pair = (first, name)
            if player_key(first) != player_key(name) and pair not in self.alike_said:
                self.alike_said.add(pair)
                self.err.append(
                    "pan settle: R2 warning: "
                    + escape_text(
                        f"{name!r} ({file}) and {first!r} ({where}) look alike (the same after NFKC and case"
                        " folding): settled as two players"
                    )
                    + "\n"
                )

    def malformed(self, hand: RecordHand) -> None:
        # (a malformed hand's names are as read, maybe with control characters: shown escaped)
        self._add(self.pan, SettledHand(tuple(map(escape_text, hand.players)), {}, None, malformed_dispute(hand)))

    def close(self, tally: Tally, stopped: bool) -> None:
        out = self.out
        for name, sitting in (("panguingue", self.pan), ("pagruc", self.pagruc_sitting)):
            if not sitting.counted and not sitting.disputed:
                continue
            unit = "points" if not sitting.zero_sum else "money" if sitting.has_money else "units"
            out.append(f"sitting\t{name}\t{sitting.counted}\t{sitting.disputed}\t{unit}\n")
            for t in sitting.totals():
                money = "-" if t.money is None else money_text(t.money)
                out.append(f"player\t{name}\t{t.player}\t{t.hands}\t{signed(t.units)}\t{money}\t{t.disputed}\n")
            for tr in sitting.transfers():
                out.append(f"pays\t{name}\t{tr.payer}\t{tr.payee}\t{amount_text(tr.amount)}\n")
            note = money_note(sitting)
            if note:
                self.err.append(f"pan settle: {note}\n")
        out.extend(
            f"default-stake\tpanguingue\t{escape_text(f)}\t{a if a == b else f'{a}-{b}'}\t{self.pan.default_stake:f}\n"
            for f, a, b in self.defaulted.runs()
        )
        self.flush()


def returns_text(r: Remedy) -> str:
    """Who returned what to whom under a remedy, summed by payer and payee in the order paid:
    ``Ana returns 6 units to Cruz, 6 to Dee``; ``nothing returned`` when nothing was."""
    by_payer: dict[str, dict[str, int]] = {}
    for p in r.returns:
        to = by_payer.setdefault(p.payer, {})
        to[p.payee] = to.get(p.payee, 0) + p.units
    if not by_payer:
        return "nothing returned"
    parts = []
    for payer, to in by_payer.items():
        each = [
            f"{u}{(' unit' if u == 1 else ' units') if i == 0 else ''} to {payee}"
            for i, (payee, u) in enumerate(to.items())
        ]
        parts.append(f"{payer} returns {', '.join(each)}")
    return "; ".join(parts)


UNFINISHED = "the record stops before the hand's end (nobody went out, no T4, not void): its payments so far count"
"""What an unfinished hand is, in a settle report."""


def default_note(sink: SettleSink) -> str | None:
    """Which hands took ``--default-stake``, in words."""
    if not sink.defaulted.count:
        return None
    runs = escape_text(runs_text(sink.defaulted))
    return f"--default-stake {sink.pan.default_stake:f} a unit for the hands that name no Stake: {runs}"


def amount_text(value: Decimal) -> str:
    """A transfer's amount, as exact as the stake (``4.50``, ``12``).

    >>> amount_text(Decimal("4.50")), amount_text(Decimal(12))
    ('4.50', '12')
    """
    return format(value, "f")


def summary(sitting: Sitting) -> str:
    """``4 hands counted, 1 disputed (left out); money`` in words."""
    left = "counted too" if sitting.include_disputed else "left out"
    text = f"{sitting.counted} hand{'s' if sitting.counted != 1 else ''} counted, {sitting.disputed} disputed"
    if sitting.disputed:
        text += f" ({left})"
    if not sitting.zero_sum:
        return text + "; points (G7), no transfers"
    return text + ("; in money" if sitting.has_money else "; in units")


def money_note(sitting: Sitting) -> str | None:
    """Why a sitting with some stakes has no money (a counted hand names no Stake)."""
    if sitting.zero_sum and sitting.unstaked and sitting.unstaked < sitting.counted:
        return (
            f"{sitting.unstaked} of {sitting.counted} counted hands name no Stake: settled in units"
            " (give --default-stake MONEY for those hands, or --stake for every hand, to settle in money)"
        )
    return None


class TotalItem(Item):
    """One player's totals (``units`` are points for PAGRUC)."""

    game: str
    player: str
    hands: int
    units: int
    money: str | None
    disputed: int


class PlayerLine(TotalItem, Line, tag="player"):
    """A player's totals as a ``--jsonl`` line."""


class TransferItem(Item):
    """One settling payment."""

    payer: str
    payee: str
    amount: str
    in_: str = msgspec.field(name="in")


class TransferLine(Line, tag="transfer"):
    """A settling payment as a ``--jsonl`` line, with its game."""

    game: str
    payer: str
    payee: str
    amount: str
    in_: str = msgspec.field(name="in")


class DisputeItem(Item):
    """A disputed hand as ``--json`` lists it: the :class:`~pancli.model.settle.Dispute`'s place,
    game, kind, rule and player, and its ``message`` (:func:`~pancli.render.text.dispute_text`)."""

    file: str
    hand: int
    first_line: int
    last_line: int
    game: str
    kind: DisputeKind
    rule: Rule
    line: int
    col: int
    player: str | None
    message: str


class DisputedLine(DisputeItem, tag_field="event", tag="disputed"):
    """A disputed hand as a ``--jsonl`` line: its ``event``, then the fields of a :class:`DisputeItem`."""


_D = TypeVar("_D", bound=DisputeItem)


def dispute_item(d: Dispute, kind: type[_D], message: str) -> _D:
    """The ``--json`` item (or ``--jsonl`` line) of a disputed hand, with its words."""
    return kind(d.file, d.hand, d.first_line, d.last_line, d.game, d.kind, d.rule, d.line, d.col, d.player, message)


class UnfinishedLine(Line, tag="unfinished"):
    """An unfinished hand, counted, as a ``--jsonl`` line."""

    file: str
    hand: int
    first_line: int
    last_line: int


class RemediedItem(Item):
    """A hand with irregularities put right: its place and game, and each remedy as ``pan
    replay --json`` writes it (rule, place, player, message, ruling, ``remedy``, ``returns``:
    payer, payee, units, ``retired``)."""

    file: str
    hand: int
    first_line: int
    last_line: int
    game: str
    remedies: list[RemedyItem]


class RemediedLine(Line, tag="remedied"):
    """A hand with irregularities put right, as a ``--jsonl`` line."""

    file: str
    hand: int
    first_line: int
    last_line: int
    game: str
    remedies: list[RemedyItem]


def _remedy_items(report: HandReport) -> list[RemedyItem]:
    from pancli.render.json import remedy_item  # start-up: pan settle does without it

    return [remedy_item(r, report.hand.file) for r in report.result.remedies]  # type: ignore[union-attr]


class RunItem(Item):
    """A run of hands: ``file``, ``first`` and ``last`` hand numbers."""

    file: str
    first: int
    last: int


class DefaultStakeLine(Line, tag="default_stake"):
    """A run of hands counted at ``--default-stake``, as a ``--jsonl`` line."""

    stake: str
    file: str
    first: int
    last: int


class SittingItem(Item):
    """A game's part of ``--json``."""

    hands: int
    disputed: int
    money: bool
    players: list[TotalItem]
    transfers: list[TransferItem]
    note: str | None


class DefaultStakeItem(Item):
    stake: str
    hands: list[RunItem]


class SettleDocument(Item):
    """``--json``: the one document, written whole by the one encoder (one layout)."""

    disputed: list[DisputeItem]
    panguingue: SittingItem
    pagruc: SittingItem
    unfinished: list[RunItem]
    default_stake: DefaultStakeItem | None
    remedied: list[RemediedItem]


_T = TypeVar("_T", bound=TotalItem)


def _total(t: PlayerTotal, game: str, kind: type[_T]) -> _T:
    money = None if t.money is None else format(t.money, "f")
    return kind(game, t.player, t.hands, t.units, money, t.disputed)


def _in(money: bool) -> str:
    return "money" if money else "units"


def runs_text(runs: HandRuns) -> str:
    """The runs of hands in words, file by file.

    >>> r = HandRuns()
    >>> for n in (1, 2, 3, 7):
    ...     r.add("a.pan", n)
    >>> r.add("b.pan", 2)
    >>> runs_text(r)
    'a.pan hands 1-3, 7; b.pan hand 2'
    """
    by_file: dict[str, list[str]] = {}
    for f, a, b in runs.runs():
        by_file.setdefault(f, []).append(str(a) if a == b else f"{a}-{b}")
    return "; ".join(
        f"{f} hand{'s' if len(parts) > 1 or '-' in parts[0] else ''} {', '.join(parts)}" for f, parts in by_file.items()
    )


def _runs(runs: HandRuns) -> list[RunItem]:
    return [RunItem(f, a, b) for f, a, b in runs.runs()]


def sitting_item(sitting: Sitting, game: str) -> SittingItem:
    """A game's part of ``--json``."""
    money = sitting.has_money
    return SittingItem(
        sitting.counted,
        sitting.disputed,
        money,
        [_total(t, game, TotalItem) for t in sitting.totals()],
        [TransferItem(t.payer, t.payee, format(t.amount, "f"), _in(money)) for t in sitting.transfers()],
        money_note(sitting),
    )


class JsonSettle(SettleSink):
    """``--json``: ``{"disputed": [...], "panguingue": {...}, "pagruc": {...}, ...}``, one
    document indented by two, written at the end (the disputed and remedied hands are kept till
    then: each is a hand the table argued over, few in a sitting)."""

    def __init__(self, stake: Decimal | None, include_disputed: bool) -> None:
        super().__init__(stake, include_disputed)
        self.disputes: list[DisputeItem] = []
        self.remedied_hands: list[RemediedItem] = []

    def remedied(self, report: HandReport) -> None:
        hand = report.hand
        item = RemediedItem(
            hand.file, hand.index, hand.first_line, hand.last_line, report.game.value, _remedy_items(report)
        )
        self.remedied_hands.append(item)

    def disputed(self, d: Dispute) -> None:
        message = dispute_text(d)
        self.disputes.append(dispute_item(d, DisputeItem, message))
        self.err.append(error_line(d.file, d.line, d.col, d.rule, message) + "\n")

    def unfinished(self, hand: RecordHand) -> None:
        pass  # listed at the end, in ``unfinished``

    def close(self, tally: Tally, stopped: bool) -> None:
        default = self.pan.default_stake
        document = SettleDocument(
            self.disputes,
            sitting_item(self.pan, "panguingue"),
            sitting_item(self.pagruc_sitting, "pagruc"),
            _runs(self.cut_off),
            None if default is None else DefaultStakeItem(format(default, "f"), _runs(self.defaulted)),
            self.remedied_hands,
        )
        from pancli.jsontext import dumps_indented  # start-up: plain settle writes no JSON

        self.out.append(dumps_indented(document) + "\n")
        self.flush()


class JsonlSettle(SettleSink):
    """``--jsonl``: one object per disputed hand as it comes, then per player, then per transfer."""

    def __init__(self, stake: Decimal | None, include_disputed: bool) -> None:
        super().__init__(stake, include_disputed)
        from pancli.render.stream import JsonStream, Kept  # start-up: plain settle writes no JSON

        self.stream = JsonStream(True, Kept(self.out), flush_each=False)
        """The one JSON lines writer, writing into the batches :meth:`Sink.flush` writes out."""

    def disputed(self, d: Dispute) -> None:
        message = dispute_text(d)
        self.stream.add(dispute_item(d, DisputedLine, message))
        self.err.append(error_line(d.file, d.line, d.col, d.rule, message) + "\n")

    def remedied(self, report: HandReport) -> None:
        hand = report.hand
        line = RemediedLine(
            hand.file, hand.index, hand.first_line, hand.last_line, report.game.value, _remedy_items(report)
        )
        self.stream.add(line)

    def unfinished(self, hand: RecordHand) -> None:
        self.stream.add(UnfinishedLine(hand.file, hand.index, hand.first_line, hand.last_line))

    def close(self, tally: Tally, stopped: bool) -> None:
        stake = self.pan.default_stake
        items: list[Line] = []
        if stake is not None:
            items += [DefaultStakeLine(format(stake, "f"), f, a, b) for f, a, b in self.defaulted.runs()]
        for game, sitting in (("panguingue", self.pan), ("pagruc", self.pagruc_sitting)):
            items += [_total(t, game, PlayerLine) for t in sitting.totals()]
        for game, sitting in (("panguingue", self.pan), ("pagruc", self.pagruc_sitting)):
            way = _in(sitting.has_money)
            items += [TransferLine(game, t.payer, t.payee, format(t.amount, "f"), way) for t in sitting.transfers()]
        self.stream.add_all(items)
        self.stream.close()
        for sitting in (self.pan, self.pagruc_sitting):
            note = money_note(sitting)
            if note:
                self.err.append(f"pan settle: {note}\n")
        self.flush()


class RichSettle(SettleSink):
    """A terminal: each disputed hand in red as it comes, then a table per game and the transfers."""

    def __init__(self, stake: Decimal | None, include_disputed: bool) -> None:
        super().__init__(stake, include_disputed)
        self.console = stdout_console()

    def disputed(self, d: Dispute) -> None:
        # start-up: pan settle does without these
        from rich.markup import escape

        from pancli.render.terminal import print_hanging

        print_hanging(
            self.console,
            "[bold red]DISPUTED[/]",
            f"{escape(escape_text(d.file))}:{d.line}:{d.col}: "
            f"[bold]{escape(d.rule)}[/] {escape(escape_text(dispute_text(d)))}"
            f" [dim](hand {d.hand}, lines {d.first_line}-{d.last_line})[/]",
        )

    def remedied(self, report: HandReport) -> None:
        # start-up: pan settle does without these
        from rich.markup import escape

        from pancli.render.terminal import print_hanging

        hand = report.hand
        for r in report.result.remedies:  # type: ignore[union-attr]
            v = r.violation
            print_hanging(
                self.console,
                "[bold yellow]REMEDIED[/]",
                f"{escape(escape_text(hand.file))}:{v.line}:{v.col}: [bold]{escape(v.rule)}[/] "
                f"{escape(escape_text(returns_text(r)))}: {escape(escape_text(v.message))}"
                f" [dim](hand {hand.index}, lines {hand.first_line}-{hand.last_line})[/]",
            )

    def unfinished(self, hand: RecordHand) -> None:
        # start-up: pan settle does without these
        from rich.markup import escape

        from pancli.render.terminal import print_hanging

        print_hanging(
            self.console,
            "[bold yellow]UNFINISHED[/]",
            f"{escape(escape_text(hand.file))}:{hand.last_line}: hand {hand.index} "
            f"(lines {hand.first_line}-{hand.last_line}): {UNFINISHED}",
        )

    def close(self, tally: Tally, stopped: bool) -> None:
        # start-up: pan settle does without these
        from rich.table import Table

        from pancli.render.terminal import print_table

        self.flush()  # the error lines of the last hands (a run shorter than a flush's wait has them all here)
        console = self.console
        for name, sitting in (("Panguingue", self.pan), ("PAGRUC", self.pagruc_sitting)):
            if not sitting.counted and not sitting.disputed:
                continue
            money = sitting.has_money
            console.print(f"[bold]{name}[/]: {summary(sitting)}")
            table = Table()
            table.add_column("player")
            table.add_column("hands", justify="right")
            table.add_column("units" if sitting.zero_sum else "points", justify="right")
            if money:
                table.add_column("money", justify="right")
            table.add_column("disputed", justify="right")
            for t in sitting.totals():
                style = "green" if t.units > 0 else "red" if t.units < 0 else ""
                row = [t.player, str(t.hands), f"[{style}]{signed(t.units)}[/]" if style else signed(t.units)]
                if money:
                    row.append(money_text(t.money or Decimal(0)))
                row.append(str(t.disputed))
                table.add_row(*row)
            print_table(console, table)
            moves = sitting.transfers()
            if sitting.zero_sum:
                console.print("[bold]to settle:[/]" if moves else "[bold]nothing to settle[/]")
                for tr in moves:
                    console.print(f"  {tr.payer} pays {tr.payee} {amount_text(tr.amount)}", markup=False)
            note = money_note(sitting)
            if note:
                console.print(f"[yellow]{note}[/]")
        note = default_note(self)
        if note:
            console.print(note, markup=False)
