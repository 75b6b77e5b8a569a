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
from collections.abc import Sequence
from contextlib import redirect_stdout
from typing import IO, TYPE_CHECKING

from pancli.app.live import Entry, LedgerRow, LineVerdict, NotARecord, Session, Unseatable
from pancli.app.replay import replay_files
from pancli.cards import Game, format_cards
from pancli.escapes import bytes_shown, escape_text
from pancli.model.results import Payment, Violation
from pancli.notation.errors import NotationError
from pancli.referee.board import Phase
from pancli.render.plain import remedy_lines
from pancli.render.text import claim_text, error_line, money_text
from pancli.render.words import collection_lines, ledger_text, outcome
from pancli.rulebook import RULEBOOK
from pancli.rules import HOYLE, Ending, seating_words
from pancli.values import Item, Line

if TYPE_CHECKING:
    from pancli.pagruc.position import PagrucNow
    from pancli.referee.position import TableNow
    from pancli.rulebook import Rule


# --------------------------------------------------------------------------- words shared by both outputs


def refusal(session: Session, entry: Entry) -> tuple[str, str, int, int, str | None, str, str]:
    """Why a line is refused: ``rule message line col player ruling``, and the error line."""
    e = entry.error
    if isinstance(e, Violation):
        return (
            e.rule,
            e.message,
            e.line,
            e.col,
            e.player,
            e.ruling,
            error_line(session.name, e.line, e.col, e.rule, e.message),
        )
    if isinstance(e, NotationError):
        line = entry.line if e.line == 0 else e.line
        return (e.code, e.message, line, e.col, None, "", error_line(session.name, line, e.col, e.code, e.message))
    c = entry.claim
    assert c is not None
    assert entry.report is not None
    message = claim_text(c, entry.report.pagruc)
    return (c.rule, message, c.line, c.col, c.player, "", error_line(session.name, c.line, c.col, c.rule, message))


def notes_text(session: Session) -> list[str]:
    """What the opening found worth saying, in words: options that restate the record's tags; the
    record's last hand stopped by a violation, as an error line (its place, rule and message)."""
    notes = []
    if session.restated:
        said = ", ".join(session.restated)
        notes.append(escape_text(f"{said}: as {session.name} has them (an existing record keeps its own tags)"))
    if session.stopped is not None:
        hand, v = session.stopped
        why = f"{v.message}: hand {hand} stops there, the next hand begins"
        notes.append(error_line(session.name, v.line, v.col, v.rule, why))
    return notes


def not_a_record_text(problem: NotARecord) -> str:
    """FILE is not a record: the reader's error as an error line, and that nothing was written."""
    e = problem.error
    return error_line(problem.file, e.line, e.col, e.code, e.message) + ": not a record, nothing written"


def unseatable_text(problem: Unseatable) -> str:
    """A new record's players that its game's rules object cannot seat: the rule and its words."""
    # start-up: only a table at fault needs them
    from pancli.pagruc.words import table_words
    from pancli.refusals import Unseated

    why = problem.why
    said = seating_words(why) if isinstance(why, Unseated) else table_words(why)
    return f"the players of a new record cannot be seated: {problem.rule} {said}"


def torn_text(session: Session) -> str:
    """The torn last line found at the opening: its place, its text, where it was set aside."""
    assert session.torn is not None
    n, text = session.torn
    name = escape_text(session.name)
    return f"torn {name}:{n}: a last line cut off mid-write, set aside in {name}.torn: {text!r}"


def seating_text(players: tuple[str, ...]) -> str:
    """``Cruz Dee Ana Ben (Cruz first, Ben deals)``."""
    return f"{' '.join(players)} ({players[0]} first, {players[-1]} deals)"


def may_now(session: Session) -> str:
    """What the player to act may do now, in a line (the "may do now" line of the view)."""
    pagruc = session.pagruc_now
    if pagruc is not None:
        return pagruc_now_text(pagruc)
    now = session.now
    if session.report is None:
        return "deal lines, the upcard, then each player decides: stay or top (T1)"
    if now is None:
        return "play goes on (no position for this game)"
    return now_text(now)


def _either(names: tuple[str, ...]) -> str:
    """``Ana``, ``Ana or Ben``, ``Ana, Ben or Dee``."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"


def now_text(now: TableNow) -> str:
    if now.phase is Phase.DECIDING:
        before = "more deal lines and the upcard, or " if all(s.active is None for s in now.seats) else ""
        return f"{before}{now.to_act} decides: stay or top (T1)"
    if now.phase is Phase.OVER:
        if now.ending is Ending.VOID:
            return f"the hand is void ({now.ending_rule})"
        return f"{now.winner} won the hand"
    who = now.to_act
    if now.reshuffle_voids:
        return "the stock is empty and no dead discard is left: the reshuffle voids the hand (P10)"
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
    if now.forcers:
        extra.append(f"{_either(now.forcers)} may force {who} to take {now.live} (P8)")
    if now.lays:
        extra.append("lays: " + " ".join(f"[{' '.join(str(c) for c in m)}]" for m in now.lays[:4]))
    if now.fits:
        extra.append("adds: " + ", ".join(f"{f.card} to #{f.meld}" for f in now.fits[:6]))
    if now.next_flat:
        extra.append("the next player is flat: a draw that fits him is kept (P9)")
    return "; ".join([what, *extra])


def pagruc_now_text(now: PagrucNow) -> str:
    """What a PAGRUC table allows next (:class:`~pancli.pagruc.position.PagrucNow`), in a line."""
    who = now.to_act
    if now.dealing:
        return f"deal lines, the up card (G2), then {who} draws (G3)"
    if now.over:
        if now.winner is not None:
            return f"{now.winner} discarded the last card: the hand is over ({now.ending_rule})"
        return f"the hand stopped ({now.ending_rule})"
    take = ""
    if now.takes > 1:
        take = f"takes {now.top}, or up to {now.takes} cards from the top of the discard pile"
    elif now.takes:
        take = f"takes {now.top}"
    if now.may_draw:
        what = f"{who} draws" + (f", or {take}" if take else "") + " (G3)"
    elif now.turn_over:
        what = f"the stock is empty: turn the discard pile over (reshuffle, G6), then {who} draws"
        what += f"; or {who} {take} (G3)" if take else ""
    else:
        what = f"the stock is empty and nothing is under the top discard (G6): {who} {take or 'cannot take'} (G3)"
    extra = []
    if now.lays:
        extra.append("lays: " + " ".join(f"[{format_cards(m)}]" for m in now.lays[:4]))
    if now.lay_offs:
        extra.append("lay off: " + ", ".join(f"{x.card} on {x.meld}" for x in now.lay_offs[:6]))
    if now.keeps_one and extra:  # (said where the player in turn may lay cards down)
        extra.append("one card is kept to discard (G6)")
    return "; ".join([what, *extra])


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
            lines.append(torn_text(session))
        lines += [f"note {n}" for n in notes_text(session)]
        lines.append(f"hand {session.hand_index}: {seating_text(session.players)}")
        lines.append(f"  now: {may_now(session)}")
        self._w("".join(x + "\n" for x in lines))

    def entry(self, session: Session, entry: Entry) -> None:
        self._w(entry_text(session, entry))

    def undone(self, session: Session, text: str | None) -> None:
        if text is None:
            self._w("undo: nothing to take back\n")
        else:
            self._w(f"undone: {text}\n  now: {may_now(session)}\n")

    def settle(self, session: Session) -> None:
        self._w(settle_text(session, jsonl=False))

    def rule(self, session: Session, rule: Rule) -> None:
        self._w("".join(x + "\n" for x in rule_text(session, rule)))

    def problem(self, session: Session, text: str, message: str) -> None:
        self._w(f"refused {message}\n")


def entry_text(session: Session, entry: Entry) -> str:
    """The plain judgement of a line."""
    if entry.verdict is LineVerdict.BLANK:
        return ""
    if entry.verdict is LineVerdict.NOTED:
        where = f"{entry.line}" if entry.line else "(written with the hand's first line)"
        return f"noted {where}: {entry.text.strip()}\n"
    if entry.verdict is LineVerdict.REFUSED:
        _rule, _message, _line, _col, player, ruling, err = refusal(session, entry)
        out = [f"refused {err}" + (f" ({player})" if player else "")]
        if ruling:
            out.append(f"  ruling: {ruling}")
        out.append("  not written: enter the line again as it was played")
        return "".join(x + "\n" for x in out)

    report = entry.report
    assert report is not None
    out = []
    if entry.started:
        out.append(f"hand {report.hand.index} begins (its tags written with this line)")
    out.append(f"ok {entry.line}: {entry.text.strip()}")
    result = report.result
    if result.game is Game.PANGUINGUE:
        out += collection_lines(entry.payments, result.going_out)
        for r in entry.remedies:
            out += remedy_lines(session.name, r)
    if entry.hand_over:
        result = report.result
        if result.game is Game.PANGUINGUE:
            out.append(f"  {outcome(result)}")
            out.append(f"  ledger: {ledger_text(result.ledger)}")
        out.append(f"hand {session.hand_index}: {seating_text(entry.next_players)} ({entry.next_rule})")
    out.append(f"  now: {may_now(session)}")
    return "".join(x + "\n" for x in out)


def rule_text(session: Session, rule: Rule) -> list[str]:
    """``rules ID``: the rule explained under the rules of the hand in play."""
    from pancli.render.rules import rule_lines  # start-up: pan live does without it

    return rule_lines(rule, session.profile or HOYLE)


def settle_text(session: Session, *, jsonl: bool) -> str:
    """``settle``: the night so far, as ``pan settle FILE`` writes it in a pipe."""
    from pancli.render.settle import JsonlSettle, SettleSink  # start-up: pan live does without it

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
    """``--jsonl``: one JSON object per line (module docstring), written by the one JSON-lines
    writer (:class:`~pancli.render.stream.JsonStream`), flushed at once."""

    def _add(self, *items: object) -> None:
        from pancli.render.stream import JsonStream  # start-up: pan live's plain lines do without it

        JsonStream(True, self.out or sys.stdout).add_all(items)

    def opened(self, session: Session) -> None:
        n, text = session.torn if session.torn is not None else (None, None)
        self._add(StartedLine(session.name, session.hand_index, session.players, n, text, tuple(notes_text(session))))

    def entry(self, session: Session, entry: Entry) -> None:
        if entry.verdict is LineVerdict.BLANK:
            return
        if entry.verdict is LineVerdict.NOTED:
            self._add(NotedLine(session.name, entry.line, entry.text.strip()))
            return
        if entry.verdict is LineVerdict.REFUSED:
            rule, message, line, col, player, ruling, _ = refusal(session, entry)
            turn = entry.error.turn if isinstance(entry.error, Violation) else 0
            where = session.hand_index, rule, line, col, player
            # (a byte that is not UTF-8 as \xff: JSON's UTF-8 cannot hold it)
            self._add(RefusedLine("refused", *where, message, ruling, turn, session.name, bytes_shown(entry.text)))
            return
        # start-up: the hand's JSON only once a line is accepted
        from pancli.render.json import hand_item
        from pancli.render.json_steps import step_events

        report = entry.report
        assert report is not None
        items: list[object] = list(step_events(entry.steps, report.hand.index, session.name))
        if entry.hand_over:
            items.append(hand_item(report, "hand"))
        self._add(*items)

    def undone(self, session: Session, text: str | None) -> None:
        self._add(UndoneLine(session.name, text))

    def settle(self, session: Session) -> None:
        self._w(settle_text(session, jsonl=True))

    def rule(self, session: Session, rule: Rule) -> None:
        self._add(RuleLine(str(rule), rule_text(session, rule)))

    def problem(self, session: Session, text: str, message: str) -> None:
        self._add(RefusedLine("refused", session.hand_index, "usage", 0, 0, None, message, "", 0, session.name, text))


# --------------------------------------------------------------------------- the full-screen view's text


def title_text(session: Session) -> str:
    """The view's first line: the file, the hand, its rules and stake."""
    report = session.report
    rules = report.script.profile.name if report is not None else (session.options.rules or "hoyle")
    stake = getattr(report.result, "stake", None) if report is not None else session.options.stake
    money = f" · stake {stake}" if stake is not None else ""
    return f"pan live {session.name} · hand {session.hand_index} · {rules}{money}"


def table_lines(session: Session) -> list[str]:
    """The table at a glance: the stock, the live discard, each seat (stays, on top, retired),
    its cards (the known ones shown), its melds and what they paid."""
    pagruc = session.pagruc_now
    if pagruc is not None and not pagruc.dealing:
        return pagruc_table_lines(pagruc)
    now = session.now
    if now is None:
        return [
            f"players: {seating_text(session.players)}",
            "",
            "no line of this hand yet" if session.report is None else "",
        ]
    live = str(now.live) if now.live is not None else "-"
    out = [f"turn {now.turn} · stock {now.stock} · live discard {live}", ""]
    width = max(len(s.player) for s in now.seats)
    for s in now.seats:
        mark = ">" if s.player == now.to_act else " "
        if s.retired:
            state = "retired"
        elif s.active is None:
            state = "deciding"
        elif s.active:
            state = "flat" if s.flat else "stays"
        else:
            state = "on top"
        held = " ".join(str(c) for c in s.known)
        if s.unknown:
            held = (held + " " if held else "") + f"+{s.unknown} unknown"
        out.append(f"{mark} {s.player:<{width}}  {state:<8} {s.cards:>2} cards  {held}")
        for n, (m, paid) in enumerate(zip(s.melds, s.values, strict=True), 1):
            out.append(f"    #{n} [{' '.join(str(c) for c in m.cards)}]" + (f"  paid {paid} each" if paid else ""))
    return out


def pagruc_table_lines(now: PagrucNow) -> list[str]:
    """A PAGRUC table at a glance: the stock, the discard pile and its top card, each seat's
    cards (the known ones shown) and its melds (``#1``... as ``lay CARDS on NAME#N`` names them)."""
    top = str(now.top) if now.top is not None else "-"
    out = [f"turn {now.turn} · stock {now.stock} · discard pile {now.pile}, top {top}", ""]
    width = max(len(s.player) for s in now.seats)
    for s in now.seats:
        mark = ">" if s.player == now.to_act else " "
        held = format_cards(s.known)
        if s.unknown:
            held = (held + " " if held else "") + f"+{s.unknown} unknown"
        out.append(f"{mark} {s.player:<{width}}  {s.cards:>2} cards  {held}")
        for n, m in enumerate(s.melds, 1):
            out.append(f"    #{n} [{format_cards(m.cards)}]")
    return out


def ledger_lines(rows: Sequence[LedgerRow]) -> list[str]:
    """The running ledger (:meth:`Session.ledger`): each player's net units in the hand in play
    and over the night, and the night's money when it has one."""
    width = max((len(r.player) for r in rows), default=4)
    priced = any(r.money is not None for r in rows)
    out = [f"{'':<{width}}  {'hand':>5}  {'night':>6}" + ("  money" if priced else "")]
    for r in rows:
        row = f"{r.player:<{width}}  {r.hand:>+5}  {r.night:>+6}"
        if r.money is not None:
            row += f"  {money_text(r.money)}"
        out.append(row)
    return out


def hand_log(session: Session) -> list[str]:
    """The hand in play's lines as written, each with what it paid and the rulings put right."""
    report = session.report
    out = []
    first = session.hand_first
    payments = report.result.payments if report is not None and report.result.game is Game.PANGUINGUE else ()
    by_line: dict[int, list[Payment]] = {}
    for p in payments:
        by_line.setdefault(p.line, []).append(p)
    going_out = report.result.going_out if report is not None and report.result.game is Game.PANGUINGUE else None
    remedies = report.result.remedies if report is not None and report.result.game is Game.PANGUINGUE else ()
    for n, text in enumerate(session.lines_of_hand, first):
        if not text.strip() or text.startswith("["):
            continue
        out.append(f"{n:>4}  {text}")
        out += collection_lines(by_line.get(n, []), going_out)
        for r in remedies:
            if r.violation.line == n:
                out += remedy_lines(session.name, r)
    return out


# --------------------------------------------------------------------------- completion

VERBS_DECIDING = ("stay", "top")
VERBS_FIRST = ("draw", "take")
VERBS_THEN = ("meld", "add", "borrow", "split", "discard", "out", "mend", "back")
VERBS_LINE = ("force", "call", "count")
WORDS = ("deal", "up", "reshuffle", "undo", "settle", "rules", "quit")


def candidates(session: Session, text: str) -> list[str]:
    """What may complete the last word of ``text``: player names and commands first, then the
    actions legal now (T1: stay or top; P1: draw or take; the rest of a turn), the cards the
    player in turn holds (when known), the live discard after ``take``, the cards the referee
    allows after ``discard`` (P2, P5, P9), his meld numbers after ``to``, rule ids after ``rules``."""
    words = text.split(" ")
    before = [w for w in words[:-1] if w]
    if before and before[0].endswith(".") and before[0][:-1].isdigit():
        before = before[1:]  # a move number
    now = session.now
    pagruc = session.pagruc_now if now is None else None
    players = list(session.players)
    if now is not None:
        to_act = now.to_act
    elif pagruc is not None:
        to_act = pagruc.to_act
    else:
        to_act = players[0] if players else None
    if not before:
        first = [to_act] if to_act else []
        return list(dict.fromkeys([*first, *players, *WORDS]))
    head = before[0]
    last = before[-1].rstrip(",")
    if head == "rules":
        return [str(r) for r in RULEBOOK]
    if head == "deal":
        return players if len(before) == 1 else []
    if head not in players:
        return []
    if pagruc is not None:
        return _pagruc_candidates(pagruc, head, before, last)
    seat = next((s for s in now.seats if s.player == head), None) if now is not None else None
    hand = [str(c) for c in dict.fromkeys(seat.known)] if seat is not None else []
    if len(before) == 1:
        if now is None or now.phase is Phase.DECIDING:
            return list(VERBS_DECIDING)
        if head == to_act:
            if now.must_take:
                return ["take"]  # P8: drawing instead is a violation
            return ["draw", "take"] if now.live is not None else ["draw"]
        return list(VERBS_LINE)
    if last == "take" and now is not None and now.live is not None:
        return [str(now.live)]
    if last == "force":
        return [now.to_act] if now is not None and now.to_act and head in now.forcers else []
    if last in ("call", "count"):
        return [p for p in players if p != head]
    if last == "to" or last in ("mend", "back", "split") or (last == "from"):
        n = len(seat.melds) if seat is not None else 0
        return [f"#{i}" for i in range(1, n + 1)]
    if last == "add" and now is not None:
        fit = [str(f.card) for f in now.fits]
        return list(dict.fromkeys([*fit, *hand]))
    if before[-1].endswith(","):
        return list(VERBS_THEN)
    if last == "meld" and now is not None and now.lays:
        return [f"[{' '.join(str(c) for c in m)}]" for m in now.lays]
    if last == "discard":
        allowed = session.discards(text)  # the referee's answer for the line as written so far
        if allowed is not None:
            return [str(c) for c in allowed]
    if last in ("discard", "meld", "borrow") or last.startswith("["):
        return [("[" if last == "meld" else "") + c for c in hand]
    return hand


PAGRUC_THEN = ("meld", "lay", "add", "discard", "out")
"""What a PAGRUC turn goes on with after its take (G4, G5, G3, G6)."""


def _pagruc_candidates(now: PagrucNow, head: str, before: list[str], last: str) -> list[str]:
    """:func:`candidates` in a PAGRUC hand: draw or take as the position allows (G3, G6), the top
    discard after ``take``, the melds of the known hand after ``meld`` (G4), the cards the melds
    on the table take after ``lay`` and those melds after ``on`` (G5), the known cards else."""
    seat = next((s for s in now.seats if s.player == head), None)
    hand = [str(c) for c in dict.fromkeys(seat.known)] if seat is not None else []
    if len(before) == 1:
        if now.dealing or head != now.to_act:
            return []
        return [*(["draw"] if now.may_draw else []), *(["take"] if now.takes else [])]
    if last == "take":
        return [str(now.top)] if now.top is not None and head == now.to_act else []
    if before[-1].endswith(","):
        return list(PAGRUC_THEN)
    if last == "meld" and now.lays:
        return [f"[{format_cards(m)}]" for m in now.lays]
    if last == "lay" and now.lay_offs:
        return list(dict.fromkeys(str(x.card) for x in now.lay_offs))
    if last == "on" and len(before) >= 3:
        return [x.meld for x in now.lay_offs if str(x.card) == before[-2]]
    return hand


def complete_line(session: Session, text: str) -> str | None:
    """``text`` with its last word completed by the first candidate it begins (None: none)."""
    word = text.split(" ")[-1]
    for c in candidates(session, text):
        if c.lower().startswith(word.lower()) and c != word:
            return text[: len(text) - len(word)] + c
    return None
