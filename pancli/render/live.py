"""What ``pan live`` writes: the line mode's judgement of each line (plain text or ``--jsonl``
events as ``pan replay --jsonl`` writes them), and the text the full-screen view shows (the
seats, what may be done now, the ledger), all from the session of :mod:`pancli.app.live`.

Plain, one judgement per line entered::

    ok 14: Ana draw 5s, meld [5s 5s 5s], discard 2d
      line 14: Ana collects C2 three spade valles (M3): 4 from Ben, Cruz, Dee (12 in all)
    refused -:15:1: P1 it is Ben's turn, not Cruz's
      ruling: ...

``--jsonl``: the referee's step events of an accepted line (``draw``, ``meld``, ... with their
moves and payments), a ``refused`` event with a ruling's fields, the ``hand`` object when a
hand ends, and ``noted``, ``undone``, ``started`` events of the session.
"""

from __future__ import annotations

import io
import sys
from contextlib import redirect_stdout
from typing import IO, TYPE_CHECKING

from pancli.app.lines import error_line
from pancli.app.live import Entry, Session, Verdict
from pancli.cards import format_cards
from pancli.model.results import Violation
from pancli.notation.errors import NotationError
from pancli.values import Item, Line

if TYPE_CHECKING:
    from pancli.app.report import HandReport
    from pancli.referee.position import TableNow
    from pancli.rulebook import Rule


# --------------------------------------------------------------------------- words shared by both outputs


def refusal(session: Session, entry: Entry) -> tuple[str, str, int, int, str | None, str, str]:
    """Why a line is refused: ``rule message line col player ruling``, and the error line."""
    e = entry.error
    if isinstance(e, Violation):
        return (e.rule, e.message, e.line, e.col, e.player, e.ruling, error_line(session.name, e.line, e.col, e.rule, e.message))
    if isinstance(e, NotationError):
        line = entry.line if e.line == 0 else e.line
        return (e.code, e.message, line, e.col, None, "", error_line(session.name, line, e.col, e.code, e.message))
    c = entry.claim
    assert c is not None
    assert entry.report is not None
    message = entry.report.claim_message(c)
    return (c.rule, message, c.line, c.col, c.player, "", error_line(session.name, c.line, c.col, c.rule, message))


def seating_text(players: tuple[str, ...]) -> str:
    """``Cruz Dee Ana Ben (Cruz first, Ben deals)``."""
    return f"{' '.join(players)} ({players[0]} first, {players[-1]} deals)"


def may_now(session: Session) -> str:
    """What the player to act may do now, in a line (the "may do now" line of the view)."""
    now = session.now
    if session.report is None:
        return "deal lines, the upcard, then each player decides: stay or top (T1)"
    if now is None:
        return "play goes on (no position for this game)"
    return now_text(now)


def now_text(now: TableNow) -> str:
    from pancli.referee.board import Phase

    if now.phase is Phase.DECIDING:
        return f"{now.to_act} decides: stay or top (T1)"
    if now.phase is Phase.WON:
        return f"{now.winner} won the hand"
    if now.phase is Phase.VOID:
        return "the hand is void (T4, P10)"
    who = now.to_act
    if now.reshuffle:
        return f"the stock is empty: reshuffle (P10), then {who} draws"
    if now.must_take < 0:
        what = f"{who} must take {now.live} and add it to a meld (P8, forced)"
    elif now.must_take > 0:
        what = f"{who} must take {now.live} and add it to #{now.must_take} (P8)"
    elif now.live is not None:
        what = f"{who} draws, or takes {now.live} to meld it at once (P1, P3)"
    else:
        what = f"{who} draws (P1)"
    extra = []
    if now.forcer is not None:
        extra.append(f"{now.forcer} may force {who} to take {now.live} (P8)")
    if now.fits:
        extra.append("adds: " + ", ".join(f"{f.card} to #{f.meld}" for f in now.fits[:6]))
    if now.next_flat:
        extra.append("the next player is flat: a draw that fits him is kept (P9)")
    return "; ".join([what, *extra])


def ledger_of_night(session: Session) -> dict[str, int]:
    """Each player's net units over the hands of the file (disputed hands left out, as ``pan
    settle`` counts them)."""
    totals: dict[str, int] = {}
    for report in session.hand_reports():
        if report.dispute is not None:
            continue
        for p, n in report.result.ledger.items():
            totals[p] = totals.get(p, 0) + n
    return totals


# --------------------------------------------------------------------------- line mode


class PlainLive:
    """The plain judgement of each line, on standard output (flushed at once: a script waits for it)."""

    def __init__(self, out: IO[str] | None = None) -> None:
        self.out = out

    def _w(self, text: str) -> None:
        out = self.out or sys.stdout
        out.write(text)
        out.flush()

    def opened(self, session: Session) -> None:
        lines = []
        if session.torn is not None:
            n, text = session.torn
            lines.append(
                f"torn {session.name}:{n}: a last line cut off mid-write, set aside in {session.name}.torn: {text!r}"
            )
        lines += [f"note {n}" for n in session.notes]
        lines.append(f"hand {session.hand_index}: {seating_text(session.players)}; {may_now(session)}")
        self._w("".join(x + "\n" for x in lines))

    def entry(self, session: Session, entry: Entry) -> None:
        self._w(entry_text(session, entry))

    def undone(self, session: Session, text: str | None) -> None:
        if text is None:
            self._w("undo: nothing to take back\n")
        else:
            self._w(f"undone: {text}\n  {may_now(session)}\n")

    def settle(self, session: Session) -> None:
        self._w(settle_text(session, jsonl=False))

    def rule(self, session: Session, rule: Rule) -> None:
        self._w("".join(x + "\n" for x in rule_text(session, rule)))

    def problem(self, session: Session, text: str, message: str) -> None:
        self._w(f"refused {message}\n")


def entry_text(session: Session, entry: Entry) -> str:
    """The plain judgement of a line."""
    if entry.verdict is Verdict.BLANK:
        return ""
    if entry.verdict is Verdict.NOTED:
        where = f"{entry.line}" if entry.line else "(written with the hand's first line)"
        return f"noted {where}: {entry.text.strip()}\n"
    if entry.verdict is Verdict.REFUSED:
        _rule, _message, _line, _col, player, ruling, err = refusal(session, entry)
        out = [f"refused {err}" + (f" ({player})" if player else "")]
        if ruling:
            out.append(f"  ruling: {ruling}")
        out.append("  not written: enter the line again as it was played")
        return "".join(x + "\n" for x in out)
    from pancli.render.plain import remedy_lines
    from pancli.render.words import collection_lines, ledger_text, outcome

    report = entry.report
    assert report is not None
    out = []
    if entry.started:
        out.append(f"hand {report.hand.index} begins (its tags written with this line)")
    out.append(f"ok {entry.line}: {entry.text.strip()}")
    if report.script.game.value == "panguingue":
        out += collection_lines(entry.payments, report.script.profile.out_bonus)
        for r in report.result.remedies:  # type: ignore[union-attr]
            if r.violation.line == entry.line:
                out += remedy_lines(session.name, r)
    if entry.hand_over:
        result = report.result
        if report.script.game.value == "panguingue":
            out.append(f"  {outcome(result)}")  # type: ignore[arg-type]
        out.append(f"  ledger: {ledger_text(result.ledger)}")
        out.append(f"hand {session.hand_index}: {seating_text(entry.next_players)} (S3)")
    out.append(f"  {may_now(session)}")
    return "".join(x + "\n" for x in out)


def rule_text(session: Session, rule: Rule) -> list[str]:
    """``rules ID``: the rule explained under the rules of the hand in play."""
    from pancli.render.rules import rule_lines
    from pancli.rules import HOYLE

    return rule_lines(rule, session.profile or HOYLE)


def settle_text(session: Session, *, jsonl: bool) -> str:
    """``settle``: the night so far, as ``pan settle FILE`` writes it in a pipe."""
    from pancli.app.replay import replay_files
    from pancli.render.settle import JsonlSettle, SettleSink

    buffer = io.StringIO()
    sink = (JsonlSettle if jsonl else SettleSink)(None, False)
    with redirect_stdout(buffer):
        replay_files([session.path], sink, open_record=_open, strict=False, profile=None)
    return buffer.getvalue()


def _open(name: str) -> IO[str]:
    return open(name, encoding="utf-8")


class NotedLine(Line, tag="noted"):
    """A comment written (``line`` 0: kept for the next hand's first line)."""

    file: str
    line: int
    text: str


class UndoneLine(Line, tag="undone"):
    """``undo``: the line taken back (None: nothing to take back)."""

    file: str
    text: str | None


class StartedLine(Line, tag="started"):
    """The session's start: the hand in play (or the next) and its players; a torn line set aside."""

    file: str
    hand: int
    players: tuple[str, ...]
    torn_line: int | None
    torn_text: str | None
    notes: tuple[str, ...]


class RefusedLine(Item):
    """A refused line: the fields of a ``replay --jsonl`` violation, and the text entered."""

    event: str
    hand: int
    rule: str
    line: int
    col: int
    player: str | None
    message: str
    ruling: str
    turn: int
    file: str
    text: str


class RuleLine(Line, tag="rule"):
    """``rules ID``: the rule's lines (``label<TAB>text``)."""

    rule: str
    lines: list[str]


class JsonlLive(PlainLive):
    """``--jsonl``: one JSON object per line (module docstring)."""

    def opened(self, session: Session) -> None:
        from pancli.jsontext import dumps

        n, text = session.torn if session.torn is not None else (None, None)
        item = StartedLine(session.name, session.hand_index, session.players, n, text, tuple(session.notes))
        self._w(dumps(item) + "\n")

    def entry(self, session: Session, entry: Entry) -> None:
        from pancli.jsontext import dumps, lines

        if entry.verdict is Verdict.BLANK:
            return
        if entry.verdict is Verdict.NOTED:
            self._w(dumps(NotedLine(session.name, entry.line, entry.text.strip())) + "\n")
            return
        if entry.verdict is Verdict.REFUSED:
            rule, message, line, col, player, ruling, _ = refusal(session, entry)
            turn = entry.error.turn if isinstance(entry.error, Violation) else 0
            item = RefusedLine(
                "refused", session.hand_index, rule, line, col, player, message, ruling, turn, session.name, entry.text
            )
            self._w(dumps(item) + "\n")
            return
        from pancli.render.json import hand_item, step_events

        report = entry.report
        assert report is not None
        text = lines(step_events(entry.steps, report.hand.index, session.name))
        if entry.hand_over:
            text += dumps(hand_item(report, "hand")) + "\n"
        self._w(text)

    def undone(self, session: Session, text: str | None) -> None:
        from pancli.jsontext import dumps

        self._w(dumps(UndoneLine(session.name, text)) + "\n")

    def settle(self, session: Session) -> None:
        self._w(settle_text(session, jsonl=True))

    def rule(self, session: Session, rule: Rule) -> None:
        from pancli.jsontext import dumps

        self._w(dumps(RuleLine(str(rule), rule_text(session, rule))) + "\n")

    def problem(self, session: Session, text: str, message: str) -> None:
        from pancli.jsontext import dumps

        item = RefusedLine("refused", session.hand_index, "usage", 0, 0, None, message, "", 0, session.name, text)
        self._w(dumps(item) + "\n")

