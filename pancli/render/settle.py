"""``pan settle``'s sitting as a consumer of hand reports: every refereed hand added to a
:class:`~pancli.model.settle.Sitting` (Panguingue and PAGRUC apart), the disputed ones (the
report's :attr:`~pancli.app.report.HandReport.dispute`) listed as they come, then the totals
and transfers, in four forms: plain tab-separated lines (:class:`SettleSink`), ``--json``,
``--jsonl`` and a terminal."""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING, Any

from pancli.app.lines import error_line, escape_text, signed
from pancli.app.report import malformed_dispute
from pancli.cards import Game
from pancli.jsontext import dumps, dumps_indented
from pancli.render.replay import Sink
from pancli.render.text import money_text, warning_lines

if TYPE_CHECKING:
    from pancli.app.replay import Tally
    from pancli.app.report import HandReport
    from pancli.model.settle import Dispute, Hand, HandRuns, PlayerTotal, Sitting, Transfer
    from pancli.notation.layout import RecordHand


class SettleSink(Sink):
    """Adds every refereed hand to a sitting (Panguingue and PAGRUC apart) and lists the
    disputed ones as they come; :meth:`close` writes the totals and the transfers."""

    def __init__(self, stake: Decimal | None, include_disputed: bool) -> None:
        from pancli.model.settle import HandRuns, Sitting

        super().__init__()
        self.pan: Sitting = Sitting(stake, include_disputed=include_disputed)
        self.pagruc_sitting: Sitting = Sitting(None, include_disputed=include_disputed, zero_sum=False)
        self.any_disputed = False
        """Some hand is disputed (the exit status is 1)."""
        self.defaulted = HandRuns()
        """The hands counted at ``--default-stake`` (they name no Stake)."""
        self.cut_off = HandRuns()
        """The hands counted although unfinished (the record stops before their end)."""

    def unfinished(self, hand: RecordHand) -> None:
        """Write one unfinished hand (counted: the payments made so far), as it comes."""
        self.out.append(
            f"unfinished\t{escape_text(hand.file)}:{hand.last_line}\thand {hand.index} "
            f"(lines {hand.first_line}-{hand.last_line})\t{UNFINISHED}\n"
        )

    # what each output form does with a disputed hand and with the totals
    def disputed(self, d: Dispute) -> None:
        """Write one disputed hand (in a pipe: a ``disputed`` line, and the error on standard error)."""
        self.out.append(
            f"disputed\t{escape_text(d.file)}:{d.line}:{d.col}\t{d.rule}\thand {d.hand}"
            f" (lines {d.first_line}-{d.last_line})\t{escape_text(d.message)}\n"
        )
        self.err.append(error_line(d.file, d.line, d.col, d.rule, d.message) + "\n")

    def _add(self, sitting: Sitting, hand: Hand) -> None:
        if hand.dispute is not None:
            self.any_disputed = True
            self.disputed(hand.dispute)
        sitting.add(hand)
        self._tick()

    def sitting(self, game: Game) -> Sitting:
        """The sitting a game's hands are added to."""
        return self.pagruc_sitting if game is Game.PAGRUC else self.pan

    def hand(self, report: HandReport) -> None:
        from pancli.model.settle import Hand

        hand, result = report.hand, report.result
        if hand.warnings:
            self.err.append(warning_lines(hand))
        dispute = report.dispute
        sitting = self.sitting(result.game)
        counted = Hand(result.players, result.totals, result.stake, dispute)
        if sitting.takes_default(counted):
            self.defaulted.add(hand.file, hand.index)
        if not result.finished and not result.violations:  # as pan replay's summary counts it
            self.cut_off.add(hand.file, hand.index)
            self.unfinished(hand)
        self._add(sitting, counted)

    def malformed(self, hand: RecordHand) -> None:
        from pancli.model.settle import Hand

        # (a malformed hand's names are as read, maybe with control characters: shown escaped)
        self._add(self.pan, Hand(tuple(map(escape_text, hand.players)), {}, None, malformed_dispute(hand)))

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
            f"default-stake\tpanguingue\t{escape_text(f)}\t{a if a == b else f'{a}-{b}'}\t{self.pan.default_stake}\n"
            for f, a, b in self.defaulted.runs()
        )
        self.flush()


UNFINISHED = "the record stops before the hand's end (nobody went out, no T4, not void): its payments so far count"
"""What an unfinished hand is, in a settle report."""


def default_note(sink: SettleSink) -> str | None:
    """Which hands took ``--default-stake``, in words."""
    if not sink.defaulted.count:
        return None
    runs = escape_text(sink.defaulted.text())
    return f"--default-stake {sink.pan.default_stake} a unit for the hands that name no Stake: {runs}"


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


def total_json(t: PlayerTotal, game: str) -> dict[str, Any]:
    """One player's totals (``units`` are points for PAGRUC)."""
    return {
        "game": game,
        "player": t.player,
        "hands": t.hands,
        "units": t.units,
        "money": None if t.money is None else format(t.money, "f"),
        "disputed": t.disputed,
    }


def transfer_json(t: Transfer, money: bool) -> dict[str, Any]:
    """One settling payment."""
    return {"payer": t.payer, "payee": t.payee, "amount": format(t.amount, "f"), "in": "money" if money else "units"}


def dispute_json(d: Dispute) -> dict[str, Any]:
    """One disputed hand: where, why."""
    return {
        "file": d.file,
        "hand": d.hand,
        "first_line": d.first_line,
        "last_line": d.last_line,
        "game": d.game,
        "kind": d.kind,
        "rule": d.rule,
        "line": d.line,
        "col": d.col,
        "player": d.player,
        "message": d.message,
    }


def runs_json(runs: HandRuns) -> list[dict[str, Any]]:
    """Runs of hands: ``file``, ``first`` and ``last`` hand numbers."""
    return [{"file": f, "first": a, "last": b} for f, a, b in runs.runs()]


def sitting_json(sitting: Sitting, game: str) -> dict[str, Any]:
    """A game's part of ``--json``."""
    return {
        "hands": sitting.counted,
        "disputed": sitting.disputed,
        "money": sitting.has_money,
        "players": [total_json(t, game) for t in sitting.totals()],
        "transfers": [transfer_json(t, sitting.has_money) for t in sitting.transfers()],
        "note": money_note(sitting),
    }


class JsonSettle(SettleSink):
    """``--json``: ``{"disputed": [...], "panguingue": {...}, "pagruc": {...}}``, the disputed
    hands written as they come."""

    def __init__(self, stake: Decimal | None, include_disputed: bool) -> None:
        super().__init__(stake, include_disputed)
        self.first = True
        self.out.append('{"disputed": [')

    def disputed(self, d: Dispute) -> None:
        self.out.append(("\n  " if self.first else ",\n  ") + dumps(dispute_json(d)))
        self.first = False
        self.err.append(error_line(d.file, d.line, d.col, d.rule, d.message) + "\n")

    def unfinished(self, hand: RecordHand) -> None:
        pass  # listed at the end, in ``unfinished``

    def close(self, tally: Tally, stopped: bool) -> None:
        default = self.pan.default_stake
        tail = {
            "panguingue": sitting_json(self.pan, "panguingue"),
            "pagruc": sitting_json(self.pagruc_sitting, "pagruc"),
            "unfinished": runs_json(self.cut_off),
            "default_stake": None
            if default is None
            else {"stake": format(default, "f"), "hands": runs_json(self.defaulted)},
        }
        body = dumps_indented(tail)[1:]
        self.out.append(("]," if self.first else "\n],") + body + "\n")
        self.flush()


class JsonlSettle(SettleSink):
    """``--jsonl``: one object per disputed hand as it comes, then per player, then per transfer."""

    def __init__(self, stake: Decimal | None, include_disputed: bool) -> None:
        super().__init__(stake, include_disputed)

    def disputed(self, d: Dispute) -> None:
        self.out.append(dumps({"event": "disputed", **dispute_json(d)}) + "\n")
        self.err.append(error_line(d.file, d.line, d.col, d.rule, d.message) + "\n")

    def unfinished(self, hand: RecordHand) -> None:
        where = {"file": hand.file, "hand": hand.index, "first_line": hand.first_line, "last_line": hand.last_line}
        self.out.append(dumps({"event": "unfinished", **where}) + "\n")

    def close(self, tally: Tally, stopped: bool) -> None:
        stake = self.pan.default_stake
        self.out.extend(
            dumps({"event": "default_stake", "stake": format(stake, "f"), **run}) + "\n"
            for run in runs_json(self.defaulted)
            if stake is not None
        )
        for game, sitting in (("panguingue", self.pan), ("pagruc", self.pagruc_sitting)):
            self.out.extend(dumps({"event": "player", **total_json(t, game)}) + "\n" for t in sitting.totals())
        for game, sitting in (("panguingue", self.pan), ("pagruc", self.pagruc_sitting)):
            money = sitting.has_money
            self.out.extend(
                dumps({"event": "transfer", "game": game, **transfer_json(t, money)}) + "\n"
                for t in sitting.transfers()
            )
        for sitting in (self.pan, self.pagruc_sitting):
            note = money_note(sitting)
            if note:
                self.err.append(f"pan settle: {note}\n")
        self.flush()


class RichSettle(SettleSink):
    """A terminal: each disputed hand in red as it comes, then a table per game and the transfers."""

    def __init__(self, stake: Decimal | None, include_disputed: bool) -> None:
        from pancli.render.text import stdout_console

        super().__init__(stake, include_disputed)
        self.console = stdout_console()

    def disputed(self, d: Dispute) -> None:
        from rich.markup import escape

        from pancli.render.terminal import print_hanging

        print_hanging(
            self.console,
            "[bold red]DISPUTED[/]",
            f"{escape(escape_text(d.file))}:{d.line}:{d.col}: "
            f"[bold]{escape(d.rule)}[/] {escape(escape_text(d.message))}"
            f" [dim](hand {d.hand}, lines {d.first_line}-{d.last_line})[/]",
        )

    def unfinished(self, hand: RecordHand) -> None:
        from rich.markup import escape

        from pancli.render.terminal import print_hanging

        print_hanging(
            self.console,
            "[bold yellow]UNFINISHED[/]",
            f"{escape(escape_text(hand.file))}:{hand.last_line}: hand {hand.index} "
            f"(lines {hand.first_line}-{hand.last_line}): {UNFINISHED}",
        )

    def close(self, tally: Tally, stopped: bool) -> None:
        from rich.table import Table

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
            console.print(table)
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
