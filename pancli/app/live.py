"""``pan live``: keeping the score at the table, one line at a time.

A :class:`Session` holds one record file for as long as the scorer keeps it:

* it is locked (``fcntl.flock``) so that a second ``pan live`` on it is refused, since two
  writers would interleave their lines;
* it is read and refereed whole when the session opens: play goes on at its end (a night
  resumes after a crash or a break); a last line without its end of line (the write was cut
  off) is reported with its place and set aside in ``FILE.torn``, never dropped;
* each line entered is judged by the referee ``pan replay`` asks: it is pushed on the referee's
  position of the hand in play (:meth:`pancli.referee.table.Table.push`, PAGRUC's
  :meth:`pancli.pagruc.referee.PagrucTable.push`; the lines before it are not judged again;
  S3 across Panguingue hands): a legal line is
  appended and flushed to the disk (``fsync``) before the next line is read, an illegal one is
  refused with its ruling, taken back off the position and not written;
* a hand that ends is followed by the next, seated as its game's rules object says (S3: the
  winner first; PAGRUC's G8: the order turned by one); its tags
  are written with its first line, so a record never ends on an empty hand;
* ``undo`` takes back the last line written (across a hand's end too), rewriting the file
  atomically (:func:`pancli.files.atomic_write`), the lock kept on the new file; a line of the
  hand in play is popped off its position, anything else reads the file again.

What the table shows and what may be played next is asked of the same position
(:func:`pancli.referee.position.now_of`; PAGRUC's
:func:`pancli.pagruc.position.pagruc_now_of`). Nothing is rendered here: the line mode and the
full-screen view of :mod:`pancli.render` write what a :class:`Entry` holds.
"""

from __future__ import annotations

import contextlib
import datetime
import enum
import errno
import fcntl
import io
import os
import stat
from collections.abc import Iterable, Sequence
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from pancli.app.lines import game_named, rules_profile
from pancli.app.replay import RecordJudge, Tally
from pancli.app.report import HandReport
from pancli.cards import Card, Game
from pancli.escapes import DECODE_ERRORS, bytes_shown
from pancli.files import atomic_write, signals_held
from pancli.model.actions import HandScript, Turn
from pancli.model.results import Payment, Recorded, Remedy, Violation
from pancli.notation.errors import NotationError
from pancli.notation.record_common import escape_value
from pancli.panrules import PanRules, PanRulesByProfile
from pancli.records.reader import HandChunk, Physical, physical_lines, read_chunk, read_hands
from pancli.records.tags import read_stake
from pancli.referee.position import now_of
from pancli.referee.table import Table
from pancli.rulebook import closest, lookup
from pancli.rules import is_builtin
from pancli.values import Value, replace

if TYPE_CHECKING:
    from pancli.model.results import ClaimCheck, HandResult
    from pancli.model.settle import SettledHand
    from pancli.notation.layout import RecordHand
    from pancli.pagruc.position import PagrucNow
    from pancli.pagruc.referee import PagrucTable
    from pancli.pagruc.rules import PagrucRules
    from pancli.referee.position import TableNow
    from pancli.referee.table import Table
    from pancli.refusals import TableProblem, Unseated
    from pancli.rulebook import Rule
    from pancli.rules import Profile

COMMANDS = ("undo", "settle", "rules", "quit")
"""The words of ``pan live`` that are not record lines (``rules ID``)."""


class LiveProblem(Exception):
    """The session cannot start or go on (a usage or I/O error: exit 2)."""


class NotARecord(LiveProblem):
    """FILE is there but is not a record (not UTF-8 text, a hand that cannot be read): refused with
    its place, exit 2 as the other files pan live cannot keep (docs/commands.md). ``file`` as the
    session names it and ``error``, the reader's, with its place: the exporter words them."""

    def __init__(self, file: str, error: NotationError) -> None:
        super().__init__(file, error)
        self.file = file
        self.error = error


class Unseatable(LiveProblem):
    """A new record's ``--players`` that the rules object of its game cannot seat: the ``rule``
    (S1, G1) and the rules object's answer, ``why``: the exporter words them."""

    def __init__(self, rule: Rule, why: Unseated | TableProblem) -> None:
        super().__init__(rule, why)
        self.rule = rule
        self.why = why


class LineVerdict(enum.Enum):
    """What became of a line entered."""

    ACCEPTED = "accepted"
    """Judged legal and written."""
    REFUSED = "refused"
    """Illegal (a rule broken, a notation error, a wrong claim): not written."""
    NOTED = "noted"
    """A comment: written (or kept for the next hand's first line), nothing judged."""
    BLANK = "blank"
    """Nothing on the line."""


class Entry:
    """The judgement of one line entered: its verdict, where it stands (or would have stood) in
    the file, the hand's report after it, and what it paid or which rule it breaks."""

    __slots__ = (
        "before",
        "claim",
        "error",
        "hand_over",
        "line",
        "next_players",
        "next_rule",
        "report",
        "started",
        "text",
        "verdict",
    )

    def __init__(self, verdict: LineVerdict, text: str, line: int) -> None:
        self.verdict = verdict
        self.text = text
        self.line = line
        self.report: HandReport | None = None
        """The hand after the line (refused: the hand as the line would have made it)."""
        self.error: NotationError | Violation | None = None
        """Why it was refused: a notation error or the rule it breaks."""
        self.claim: ClaimCheck | None = None
        """A wrong claim of the line (``[%pays N]``): refused."""
        self.hand_over = False
        """The line ended the hand (a win, T4, a void hand)."""
        self.next_players: tuple[str, ...] = ()
        """The seating of the next hand (S3; PAGRUC: G8), when the line ended the hand."""
        self.next_rule: Rule | None = None
        """The rule :attr:`next_players` are seated under, as the hand's game's rules object
        names it (``next_order_rule``), when the line ended the hand."""
        self.started = False
        """The line began a hand (its tags were written with it)."""
        self.before: HandReport | None = None
        """The hand as judged before the line (None: the line began it)."""

    @property
    def payments(self) -> tuple[Payment, ...]:
        """The payments made on this line."""
        report = self.report
        if report is None or self.verdict is not LineVerdict.ACCEPTED or report.result.game is Game.PAGRUC:
            return ()
        return tuple(p for p in report.result.payments if p.line == self.line)

    @property
    def remedies(self) -> tuple[Remedy, ...]:
        """The irregularities put right that the line brought (I1, I2): a remedy of an earlier line
        too, when the line changed it (a late call makes good a foul meld found at its turn's end)."""
        report = self.report
        if report is None or self.verdict is not LineVerdict.ACCEPTED or report.result.game is Game.PAGRUC:
            return ()
        before = self.before
        had = before.result.remedies if before is not None and before.result.game is Game.PANGUINGUE else ()
        return tuple(r for r in report.result.remedies if r not in had)

    @property
    def steps(self) -> tuple[Recorded, ...]:
        """The referee's steps of this line (what ``replay --jsonl`` writes of it)."""
        if self.report is None or self.verdict is not LineVerdict.ACCEPTED:
            return ()
        return tuple(s for s in self.report.result.recorded if s.line == self.line)


class LedgerRow(Value):
    """One player's line of the running ledger (:meth:`Session.ledger`)."""

    player: str
    hand: int
    """Net units in the hand in play."""
    night: int
    """Net units over the night: the finished hands counted and the hand in play."""
    money: Decimal | None
    """The night's money, each hand at its own stake (None: some hand counted names none)."""


class _Capture:
    """The sink of :class:`RecordJudge` here: keeps the one report."""

    wants_steps = True

    def __init__(self) -> None:
        self.report: HandReport | None = None
        self.bad: RecordHand | None = None

    def hand(self, report: HandReport) -> None:
        self.report = report

    def malformed(self, hand: RecordHand) -> None:
        self.bad = hand

    def close(self, tally: Tally, stopped: bool) -> None:  # pragma: no cover - never closed
        pass


class LiveOptions:
    """What the command line gives a new record's header: the players (in order of play), the
    rules (a profile name or a house-rules file, as the ``Rules`` tag writes it), the stake, the
    game (None: not given, a new record is Panguingue), the date."""

    __slots__ = ("date", "game", "players", "rules", "stake")

    def __init__(
        self,
        players: Sequence[str] = (),
        rules: str | None = None,
        stake: str | None = None,
        game: Game | None = None,
        date: datetime.date | None = None,
    ) -> None:
        self.players = tuple(players)
        self.rules = rules
        self.stake = stake
        self.game = game
        self.date = date or datetime.date.today()


def options_of(file: str, players: str | None, rules: str | None, stake: str | None, game: str | None) -> LiveOptions:
    """The :class:`LiveOptions` of the command line: the players' names, the ``Rules`` tag (a
    built-in profile by name, a house-rules file relative to the record's folder), the stake
    (raises :class:`LiveProblem` when it is no amount of money, as a ``Stake`` tag would be),
    the game ``--game`` names."""
    rules_tag = None
    if rules is not None:
        if is_builtin(rules):
            rules_tag = rules.lower()
        else:
            folder = os.path.dirname(os.path.abspath(file))
            rules_tag = os.path.relpath(os.path.abspath(rules), folder)
    if stake is not None:
        got = read_stake(stake)
        if isinstance(got, tuple):
            raise LiveProblem(f"{got[0]} {got[1]}")
    names = tuple(players.split()) if players is not None else ()
    return LiveOptions(names, rules_tag, stake, None if game is None else game_named(game))


def _tag(name: str, value: str) -> str:
    return f'[{name} "{escape_value(value)}"]'


class Session:
    """One ``pan live`` on one record file (module docstring). :meth:`open` first, :meth:`close` last."""

    def __init__(self, path: str, options: LiveOptions) -> None:
        self.path = path
        self.options = options
        self.name = path
        self.fd = -1
        """The file, open for appending; it holds the lock."""
        self.made = False
        """The session made the file (it was not there): removed at the end if still empty."""
        self.torn: tuple[int, str] | None = None
        """A torn last line found when the session opened: its line and its text (set aside)."""
        self.stopped: tuple[int, Violation] | None = None
        """The record's last hand, stopped by a violation when the session opened: its number and its
        first violation (the next hand begins)."""
        self.restated: tuple[str, ...] = ()
        """The options given for an existing record that say what its tags say (``--players``,
        ``--game``, ``--rules``): they change nothing (one that says otherwise is refused)."""
        self._reset()

    def _reset(self) -> None:
        self.lines: list[str] = []
        """The file's lines, without their ends."""
        self.size = 0
        self.units: list[int] = []
        """Where each line that ``undo`` takes back begins, in bytes (a hand's first line with its tags)."""
        self.hand_index = 0
        """The number in the file of the hand in play (the next one when none is)."""
        self.hand_first = 0
        """The file line of the hand in play's first line (0: its tags are not written yet)."""
        self.header: list[str] = []
        """The tags of the next hand, written with its first line."""
        self.next_players: tuple[str, ...] = ()
        """The players of the next hand in order of play (its ``Players`` tag), kept as a value."""
        self.next_game = Game.PANGUINGUE
        """The game of the next hand (the record's own, kept as a value)."""
        self.held: list[str] = []
        """Comments entered before the next hand's first line (written with it)."""
        self.report: HandReport | None = None
        """The hand in play as judged after its last line (None: no line of it yet)."""
        self.previous: HandResult | None = None
        """The last Panguingue hand finished (S3 seats the next after it)."""
        self.judge = RecordJudge(_Capture(), None)
        self._now: TableNow | None = None
        self._now_of: HandReport | None = None
        self._table: Table | None = None
        """The referee's position of the Panguingue hand in play (its lines pushed, kept for pop)."""
        self._head: HandScript | None = None
        """The hand :attr:`_table` was dealt for (its script without the play lines)."""
        self._head_after: HandResult | None = None
        """The hand before it (S3) when it was dealt."""
        self._table_of: HandReport | None = None
        """The report :attr:`_table` stands at."""
        self._pagruc: PagrucTable | None = None
        """The referee's position of the PAGRUC hand in play (its lines pushed, kept for pop)."""
        self._pagruc_head: HandScript | None = None
        """The hand :attr:`_pagruc` was dealt for (its script without the play lines)."""
        self._pagruc_now: tuple[HandReport | None, tuple[str, ...], PagrucNow] | None = None
        """:attr:`pagruc_now` and the report and players it was asked at."""

    # ------------------------------------------------------------------ opening and closing

    def open(self) -> None:
        """Check, lock and read the file (raises :class:`LiveProblem`: nothing is written then,
        save a torn last line set aside)."""
        path = self.path
        exists = os.path.lexists(path)
        if exists:
            try:
                st = os.stat(path)
            except OSError as exc:
                raise LiveProblem(f"cannot read {path}: {exc.strerror}") from None
            if not stat.S_ISREG(st.st_mode):
                raise LiveProblem(f"{path} is not a regular file (a folder, a device or a pipe): no record to keep")
        else:
            self._check_header()
        try:
            # a signal between the open and the record of the descriptor left the file locked for good
            with signals_held():
                self.fd, self.made = _locked(path)
            self._load(first=True)
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        """Release the file (and its lock). A file this session made and wrote nothing to (no line
        accepted, or every one taken back) is removed first, under the lock: no empty record is
        left to be taken later for a record of no players and no game."""
        if self.fd >= 0:
            with signals_held():
                if self.made and os.fstat(self.fd).st_size == 0 and _same_file(self.fd, self.path):
                    with contextlib.suppress(OSError):  # (it stays, empty, as it would have before)
                        os.unlink(self.path)
                os.close(self.fd)
                self.fd = -1

    def __enter__(self) -> Session:
        self.open()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _load(self, first: bool = False) -> None:
        """Read and referee the whole file; the hand in play (or the next) is where play goes on."""
        with open(self.path, "rb") as f:
            data = f.read()
        if data and not data.endswith(b"\n"):
            if not first:  # pragma: no cover - pan live always writes whole lines
                raise LiveProblem(f"{self.path} ends with a torn line")
            data = self._set_aside(data)
        # a byte that is not UTF-8 is kept for the reader, which names it (R2): its hand is
        # malformed, and the file is not a record (below)
        text = data.decode("utf-8", DECODE_ERRORS)
        self._reset()
        self.size = len(data)
        raw = text.split("\n")[:-1] if text else []
        self.units = _units(raw)
        # as the reader sees them: no carriage return at a line's end, no byte-order mark
        self.lines = [x.removesuffix("\r") for x in raw]
        if self.lines:
            self.lines[0] = self.lines[0].removeprefix("\ufeff")
        base = Path(self.path).parent
        hands = list(read_hands(io.StringIO(text), self.name, base, packs=self.judge.pack_of))
        capture = self._capture
        last: RecordHand | None = None
        before: HandResult | None = None
        report: HandReport | None = None
        for n, hand in enumerate(hands, 1):
            if hand.script is None:
                e = hand.error
                assert e is not None
                raise NotARecord(self.name, e)
            before = self.judge.previous
            if n == len(hands) and hand.script.game is Game.PANGUINGUE:
                self.previous = before
                report = self._judge(hand)  # the last hand's position, kept for its next lines
            else:
                self.judge.hand(hand, Tally())
                report = capture.report
            last = hand
        if last is None:
            self._check_header()
            self.hand_index = 1
            self.header = self._first_header()
            self.next_players = self.options.players
            self.next_game = self.options.game or Game.PANGUINGUE
            return
        assert report is not None
        result = report.result
        if result.finished or result.violations:
            if result.violations and first:
                self.stopped = (last.index, result.violations[0])
            self._next_hand(last, report)
        else:
            self.hand_index = last.index
            self.hand_first = last.first_line
            self.report = report
            self.previous = before
        if first:
            self.restated = self._restated(report.script.profile)

    def _restated(self, profile: Profile) -> tuple[str, ...]:
        """The options that give an existing record's players (in any order), game or rules (those of
        the hand in play, or of the next one, ``profile`` the last hand's rules): each must say what
        the record says, or the session is refused (:class:`LiveProblem`: a wrong night would be kept)."""
        o = self.options
        said: list[str] = []
        where = f"{self.path} is a record: hand {self.hand_index}"
        if o.players:
            # the same players in another order are the same table: the record's order of play
            # (S3, G8 reseat after each hand) stands, so a night's command line need not follow it
            if sorted(o.players) != sorted(self.players):
                seats = " ".join(self.players)
                raise LiveProblem(
                    f"{where} is played by {seats}, in order of play; --players names a new record's players"
                )
            said.append("--players")
        if o.game is not None:
            if o.game is not self.game:
                raise LiveProblem(f"{where}'s game is {self.game.value}; --game names a new record's game")
            said.append("--game")
        if o.rules is not None:
            if rules_profile(o.rules, LiveProblem, Path(self.path).parent) != profile:
                raise LiveProblem(f"{where} is played under {profile.name}; --rules names a new record's rules")
            said.append("--rules")
        return tuple(said)

    @property
    def _capture(self) -> _Capture:
        sink = self.judge.sink
        assert isinstance(sink, _Capture)
        return sink

    def _set_aside(self, data: bytes) -> bytes:
        """A torn last line: appended to ``FILE.torn`` and taken out of the file (atomically)."""
        cut = data.rfind(b"\n") + 1
        torn = data[cut:]
        line = data[:cut].count(b"\n") + 1
        aside = self.path + ".torn"
        # one step: a signal between the two left the line in both files, set aside twice at the next opening
        with signals_held():
            fd = os.open(aside, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o666)
            try:
                os.write(fd, torn + b"\n")
                os.fsync(fd)
            finally:
                os.close(fd)
            self._rewrite(data[:cut])
        self.torn = (line, torn.decode("utf-8", "replace"))
        return data[:cut]

    def _rewrite(self, data: bytes) -> None:
        """Replace the file's text atomically, keeping the lock: the new file is locked before it
        takes the old one's name."""
        locked = -1
        # one step: a signal after the rename but before the new descriptor is the session's left it
        # writing to the old file, gone from the folder, and the new one unlocked
        with signals_held():
            try:
                with atomic_write(self.path, "wb") as out:
                    out.write(data)
                    out.flush()
                    fcntl.flock(out.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
                    # a second descriptor of the same open file keeps the lock (and the offset, at the
                    # end of the text: later lines are written there) once the writer closes its own
                    locked = os.dup(out.fileno())
            except BaseException:
                if locked >= 0:
                    os.close(locked)
                raise
            old, self.fd = self.fd, locked
            if old >= 0:
                os.close(old)

    # ------------------------------------------------------------------ the hands

    def _check_header(self) -> None:
        """A new record's tags, from the options, must read (the players named, the rules found)."""
        if not self.options.players:
            raise LiveProblem(f'{self.path} is a new record: give the players in order of play (--players "A B C")')
        text = "".join(t + "\n" for t in self._first_header())
        for hand in read_hands(io.StringIO(text), "--players", Path(self.path).parent, packs=self.judge.pack_of):
            e = hand.error
            if e is not None:
                raise LiveProblem(f"the tags of a new record do not read: {e.code} {e.message}")
            unseated = None if hand.script is None else self.judge.seating(hand.script)
            if unseated is not None:
                raise Unseatable(*unseated)

    def _first_header(self) -> list[str]:
        o = self.options
        tags = [_tag("Date", o.date.strftime("%Y.%m.%d"))]
        if o.game is Game.PAGRUC:
            tags.append(_tag("Game", "pagruc"))
        if o.rules is not None:
            tags.append(_tag("Rules", o.rules))
        if o.stake is not None:
            tags.append(_tag("Stake", o.stake))
        tags.append(_tag("Players", " ".join(o.players)))
        return tags

    def _next_hand(self, last: RecordHand, report: HandReport) -> Rule:
        """After ``last`` ended: the next hand's number, seating and tags; returns the rule the
        seating is set under (S3; PAGRUC: G8)."""
        result = report.result
        self.previous = result if result.game is Game.PANGUINGUE else None
        self.hand_index = last.index + 1
        self.hand_first = 0
        self.report = None
        players, rule = self._next_order(report)
        o = self.options
        tags: list[str] = []
        for name, value in report.script.tags:  # the last hand's tags as read, carried to the next
            if name in ("Players", "Ledger", "Date"):
                continue
            if name == "Stake" and o.stake is not None:
                continue
            if name == "Rules" and o.rules is not None:
                continue
            tags.append(_tag(name, value))
        if o.rules is not None:
            tags.append(_tag("Rules", o.rules))
        if o.stake is not None:
            tags.append(_tag("Stake", o.stake))
        self.header = [_tag("Date", o.date.strftime("%Y.%m.%d")), *tags, _tag("Players", " ".join(players))]
        self.next_players = players
        self.next_game = report.script.game
        return rule

    @property
    def players(self) -> tuple[str, ...]:
        """The players of the hand in play (or of the next), in order of play."""
        if self.report is not None:
            return self.report.script.players
        return self.next_players

    @property
    def game(self) -> Game:
        """The game of the hand in play (or of the next)."""
        return self.report.script.game if self.report is not None else self.next_game

    @property
    def profile(self) -> Profile | None:
        """The rules of the hand in play (None before its first line)."""
        return self.report.script.profile if self.report is not None else None

    @property
    def now(self) -> TableNow | None:
        """The table after the last line, and what may come next (None: no Panguingue hand in
        play, or the referee has no position to give)."""
        report = self.report
        if report is None or report.script.game is not Game.PANGUINGUE:
            return None
        if self._now_of is not report:
            table = self._table if self._table_of is report else None
            if table is None:  # the session opened, or an undo read the file again
                table = self._position(report.script)
                self._table_of = report
            # (an accepted hand has a position: no violation, S3's at the deal included)
            self._now = now_of(table) if not table.violations else None
            self._now_of = report
        return self._now

    def _rules(self, profile: Profile) -> PanRules:
        """The rules object of ``profile``, shared with the record's judge."""
        judge = self.judge
        if judge.rules_by_profile is None:
            judge.rules_by_profile = PanRulesByProfile()
        return judge.rules_by_profile.of(profile)

    def _next_order(self, report: HandReport) -> tuple[tuple[str, ...], Rule]:
        """The next hand's order of play as its game's rules object sets it after ``report``'s
        hand, and the rule it names for it: S3 (the winner first; a hand with no winner sets
        none, and the order stays) or, in PAGRUC, G8 (the first hand deals next: the order turns
        by one)."""
        result = report.result
        if result.game is Game.PAGRUC:
            pagruc = self._pagruc_rules()
            return pagruc.next_order(result.players), pagruc.next_order_rule
        rules = self._rules(report.script.profile)
        order = rules.next_order(result.players, result.winner)
        return (tuple(result.players) if order is None else order), rules.next_order_rule

    def _position(self, script: HandScript) -> Table:
        """The referee's position of the Panguingue hand in play at the lines of ``script``: its
        new lines pushed, lines that changed taken back first; dealt afresh only when the hand
        begins or its deal or tags change (a hand S3 stops before play stays stopped)."""
        head = replace(script, events=())
        table = self._table
        if table is None or self._head != head or self._head_after is not self.previous or not table.play_to(script):
            previous = self.previous
            rules = self._rules(script.profile)
            table = Table(script, rules=rules, remedy=self.judge.remedy, undo=True, after=previous)
            table.deal_in()
            self._table, self._head, self._head_after = table, head, previous
            table.play_to(script)
        return table

    def _pagruc_position(self, script: HandScript) -> PagrucTable:
        """The PAGRUC referee's position of the hand in play at the lines of ``script`` (as
        :meth:`_position`: new lines pushed, changed ones taken back; dealt afresh when the hand
        begins or its deal or tags change), refereed by the rules object ``pan replay`` asks."""
        head = replace(script, events=())
        table = self._pagruc
        if table is None or self._pagruc_head != head:
            from pancli.pagruc.referee import PagrucTable  # start-up: a Panguingue night does without it

            table = PagrucTable(script, record_steps=self.judge.steps, rules=self._pagruc_rules(), undo=True)
            table.deal_in()
            self._pagruc, self._pagruc_head = table, head
        table.play_to(script)
        return table

    def _pagruc_rules(self) -> PagrucRules:
        """The PAGRUC rules object the record's judge referees by (made when first asked)."""
        judge = self.judge
        if judge.pagruc_rules is None:
            from pancli.pagruc.rules import PagrucRules  # start-up: a Panguingue night does without it

            judge.pagruc_rules = PagrucRules()
        return judge.pagruc_rules

    @property
    def pagruc_now(self) -> PagrucNow | None:
        """The PAGRUC table after the last line, and what may come next (None: the hand in play,
        or the next, is Panguingue). Before the hand's first line, and while it is dealt (no up
        card yet), who plays first (G2, G3)."""
        if self.game is not Game.PAGRUC:
            return None
        report = self.report
        kept = self._pagruc_now
        if kept is None or kept[0] is not report or kept[1] != self.players:
            # start-up: a Panguingue night does without it
            from pancli.pagruc.position import pagruc_now, pagruc_now_of

            if report is None:
                now = pagruc_now(HandScript(self.players, game=Game.PAGRUC), self._pagruc_rules())
            else:  # (a refused line is taken back off the position here)
                now = pagruc_now_of(self._pagruc_position(report.script))
            kept = self._pagruc_now = (report, self.players, now)
        return kept[2]

    def _judge(self, hand: RecordHand) -> HandReport:
        """The hand in play with the line entered, as ``pan replay`` judges it."""
        script = hand.script
        assert script is not None
        if script.game is Game.PAGRUC:
            return HandReport(hand, script, self._pagruc_position(script).result_now())
        report = HandReport(hand, script, self._position(script).result_now())
        self._table_of = report
        return report

    def _rewind(self) -> None:
        """The position back at the hand in play's last line accepted (a line refused)."""
        report = self.report
        if report is None or self._table is None or report.script.game is not Game.PANGUINGUE:
            self._table = None
            return
        if self._head != replace(report.script, events=()) or not self._table.play_to(report.script):
            self._table = None  # a deal line refused, or a call: the hand is refereed again when asked
            return
        self._table_of = report

    @property
    def lines_of_hand(self) -> list[str]:
        """The file lines of the hand in play (empty before its first line)."""
        if not self.hand_first:
            return []
        return self.lines[self.hand_first - 1 :]

    def discards(self, text: str) -> tuple[Card, ...] | None:
        """The cards the discard of ``text`` may be: a play line of the hand in play written up to
        its ``discard`` word, read as :meth:`enter` reads a line and asked of the referee's table
        (:meth:`~pancli.referee.table.Table.discards_after`: P2's draw, P9's kept draw left
        out, P5's hand cards). None when the table cannot say: no hand begun, or the line so far
        unreadable, another player's, or refused."""
        at = text.rfind("discard")
        if at < 0 or not self.hand_first or self.now is None or self._table_of is not self.report:
            return None
        table = self._table
        line = len(self.lines) + 1
        physical: list[Physical] = [*self.lines_of_hand, text[:at].rstrip().rstrip(",")]
        chunk = HandChunk(self.hand_first, self.hand_index, 1, physical)
        hands = list(read_chunk(chunk, self.name, Path(self.path).parent, packs=self.judge.pack_of))
        script = hands[0].script if len(hands) == 1 else None
        turn = script.events[-1] if script is not None and script.events else None
        if table is None or not isinstance(turn, Turn) or turn.line != line:
            return None
        return table.discards_after(turn)

    # ------------------------------------------------------------------ a line entered

    def enter(self, text: str) -> Entry:
        """Judge one line; write it when it is legal (appended and on the disk before this returns)."""
        text = text.rstrip("\r\n")
        if "\n" in text or "\r" in text:
            text = text.replace("\r", " ").replace("\n", " ")
        stripped = text.strip()
        started = not self.hand_first
        line = len(self.lines) + 1
        if not stripped:
            return Entry(LineVerdict.BLANK, text, line)
        if stripped.startswith("["):
            entry = Entry(LineVerdict.REFUSED, text, line)
            entry.error = NotationError(
                "R1", "pan live writes each hand's tags itself: enter play lines", col=1, line=line
            )
            return entry
        if started:
            # the hand as the file will hold it: the blank line before it (the reader's too), its tags
            first = line
            new = [*([""] if self.lines else []), *self.header, "", *self.held]
            lines = [*new, text]
            line = first + len(new)
        else:
            first = self.hand_first
            new = []
            lines = [*self.lines_of_hand, text]
        # the hand read as the record reader will read it from the file, line limits included (R10,
        # binary data R2): no line is written that the record could not be read back with
        physical = physical_lines("".join(x + "\n" for x in lines))
        chunk = HandChunk(first, self.hand_index, 1, physical)
        hands = list(read_chunk(chunk, self.name, Path(self.path).parent, packs=self.judge.pack_of))
        entry = Entry(LineVerdict.REFUSED, text, line)
        bad = next((h.error for h in hands if h.error is not None), None)
        if _comment_only(stripped) and bad is None:
            entry.verdict = LineVerdict.NOTED
            if started:
                self.held.append(text)
                entry.line = 0
            else:
                self._append([text], line)
            return entry
        entry.before = self.report
        if len(hands) != 1 or hands[0].script is None:
            entry.error = bad or NotationError("R1", "not one line of the hand in play", col=1, line=line)
            return entry
        hand = hands[0]
        report = self._judge(hand)
        entry.report = report
        result = report.result
        # the hand in play had none: any violation is the line's (a play line before the up card, G2, at its place)
        fault = next(iter(result.violations), None)
        if fault is not None:
            entry.error = fault
            self._rewind()
            return entry
        wrong = next((c for c in result.claims if not c.ok and c.line >= line), None)
        if wrong is not None:
            entry.claim = wrong
            self._rewind()
            return entry
        entry.verdict = LineVerdict.ACCEPTED
        entry.started = started
        self._append([*new, text], line if not new else first)
        if started:
            self.hand_first = first
            self.held = []
            self.header = []
        self.report = report
        if result.finished:
            entry.hand_over = True
            entry.next_rule = self._next_hand(hand, report)
            entry.next_players = self.players
        return entry

    def _append(self, lines: list[str], first_line: int) -> None:
        """Append whole lines and put them on the disk before anything else is read (one write)."""
        data = "".join(x + "\n" for x in lines).encode("utf-8")
        view = memoryview(data)
        # a signal between two writes of a line left it torn in the file: it waits till the line is on the disk
        with signals_held():
            while view:
                view = view[os.write(self.fd, view) :]
            os.fsync(self.fd)
        self.units.append(self.size)
        self.size += len(data)
        self.lines.extend(lines)

    # ------------------------------------------------------------------ undo

    def undo(self) -> str | None:
        """Take back the last line written (with the tags of a hand it began); the file is
        rewritten atomically. Returns the line taken back, or None when there is none."""
        if not self.units:
            return None
        start = self.units[-1]
        with open(self.path, "rb") as f:
            data = f.read()
        taken = data[start:].decode("utf-8").rstrip("\n").split("\n")[-1]
        self._rewrite(data[:start])
        kept = data[:start].count(b"\n")
        if self.report is not None and self.hand_first and kept >= self.hand_first:
            # a line of the hand in play after its first: taken back off its position
            self.lines = self.lines[:kept]
            self.size = start
            self.units.pop()
            physical: list[Physical] = list(self.lines_of_hand)
            chunk = HandChunk(self.hand_first, self.hand_index, 1, physical)
            (hand,) = read_chunk(chunk, self.name, Path(self.path).parent, packs=self.judge.pack_of)
            report = self._judge(hand)
            if not report.result.violations and not report.result.finished:
                self.report = report
                return taken
        self._load()  # (a hand stopped at its deal ends when the file is read: the next begins)
        return taken

    # ------------------------------------------------------------------ what the view shows

    def finished_hands(self) -> tuple[SettledHand, ...]:
        """The file's finished Panguingue hands (the hand in play left out) as ``pan settle``
        counts them (a disputed hand comes with its dispute, and is left out of a sitting). The
        whole file is refereed: the view keeps what this gives until a hand ends or an undo."""
        from pancli.model.settle import SettledHand  # start-up: the line mode does without it

        in_play = self.hand_index if self.report is not None else None
        return tuple(
            SettledHand(r.result.players, r.result.totals, r.result.stake, r.dispute)
            for r in self.hand_reports()
            if r.result.game is Game.PANGUINGUE and r.hand.index != in_play
        )

    def night_units(self) -> dict[str, int]:
        """Each player's net units over the file's finished Panguingue hands (the hand in play
        left out), as ``pan settle`` counts them: the model's :class:`Sitting` (a disputed hand
        left out, names matched as settle matches them), in the order the players were first seen."""
        from pancli.model.settle import Sitting  # start-up: the line mode does without it

        sitting = Sitting()
        for hand in self.finished_hands():
            sitting.add(hand)
        return sitting.units()

    def ledger(self, finished: Sequence[SettledHand]) -> tuple[LedgerRow, ...]:
        """The running ledger: each player's units in the hand in play and over the night
        (``finished``: :meth:`finished_hands`, and the hand in play), and the night's money when
        every hand counted names a stake, each hand priced at its own (C9) as ``pan settle``
        prices it (:class:`~pancli.model.settle.Sitting`). Players in the order first seen, then
        the seats of the hand in play (or the next)."""
        from pancli.model.settle import SettledHand, Sitting, player_key  # start-up: the line mode does without it

        sitting = Sitting()
        for hand in finished:
            sitting.add(hand)
        report = self.report
        in_play: dict[str, int] = {}
        if report is not None and report.result.game is Game.PANGUINGUE:
            result = report.result
            in_play = {player_key(p): u for p, u in result.ledger.items()}
            sitting.add(SettledHand(result.players, result.totals, result.stake))
        night = sitting.units()
        money = sitting.money()
        players = dict.fromkeys([*night, *in_play, *map(player_key, self.players)])
        return tuple(
            LedgerRow(p, in_play.get(p, 0), night.get(p, 0), None if money is None else money.get(p, Decimal(0)))
            for p in players
        )

    def hand_reports(self) -> list[HandReport]:
        """Every hand of the file as ``pan replay`` judges it (for ``settle`` and the ledger)."""
        out: list[HandReport] = []
        sink = _Capture()
        rules = self.judge  # the session's rules objects, so the ledger is the hands' as judged here
        judge = RecordJudge(sink, None, rules_by_profile=rules.rules_by_profile, pagruc_rules=rules.pagruc_rules)
        with open(self.path, encoding="utf-8") as f:
            for hand in read_hands(f, self.name, Path(self.path).parent, packs=judge.pack_of):
                sink.report = None
                judge.hand(hand, Tally())
                if sink.report is not None:
                    out.append(sink.report)
        return out


def _locked(path: str) -> tuple[int, bool]:
    """``path`` opened for appending (made if missing) and locked, and whether this made it
    (raises :class:`LiveProblem`)."""
    flags = os.O_WRONLY | os.O_APPEND | getattr(os, "O_CLOEXEC", 0)
    try:
        try:
            fd, made = os.open(path, flags | os.O_CREAT | os.O_EXCL, 0o666), True
        except FileExistsError:
            fd, made = os.open(path, flags | os.O_CREAT, 0o666), False
    except OSError as exc:
        raise LiveProblem(f"cannot write {path}: {exc.strerror}") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as exc:
        os.close(fd)
        if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
            raise LiveProblem(f"{path} is kept by another pan live (two writers would interleave)") from None
        raise LiveProblem(f"cannot lock {path}: {exc.strerror}") from None
    if not _same_file(fd, path):  # replaced by an undo of the other session between open and lock
        os.close(fd)
        raise LiveProblem(f"{path} is kept by another pan live (two writers would interleave)")
    return fd, made


def _same_file(fd: int, path: str) -> bool:
    try:
        a, b = os.fstat(fd), os.stat(path)
    except OSError:
        return False
    return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)


def _comment_only(stripped: str) -> bool:
    """A line of comments alone (``; ...`` or ``{ ... }``)."""
    if stripped.startswith(";"):
        return True
    return stripped.startswith("{") and stripped.endswith("}") and stripped.count("{") == 1 == stripped.count("}")


def _units(lines: list[str]) -> list[int]:
    """Where each undoable line of a file begins, in bytes: a play line with the tags, blank
    lines and comments before it that begin its hand; any other line by itself (blank lines
    go with the line after them)."""
    units: list[int] = []
    offset = 0
    pending = -1
    in_play = False
    for raw in lines:
        s = raw.strip()
        size = len(raw.encode("utf-8", DECODE_ERRORS)) + 1  # (a byte that is not UTF-8: one byte)
        if not s or s.startswith("[") or (not in_play and _comment_only(s)):
            if s.startswith("["):
                in_play = False
            if pending < 0:
                pending = offset
        else:
            units.append(pending if pending >= 0 else offset)
            pending = -1
            in_play = True
        offset += size
    return units


# --------------------------------------------------------------------------- the line mode's loop


class LiveOutput(Protocol):
    """Where a session's judgements go (the exporters of :mod:`pancli.render.live`)."""

    def opened(self, session: Session) -> None:
        """The session is open: the hand in play (or the next), what the opening found."""

    def entry(self, session: Session, entry: Entry) -> None:
        """A line judged."""

    def undone(self, session: Session, text: str | None) -> None:
        """``undo``: the line taken back (None: nothing to take back)."""

    def settle(self, session: Session) -> None:
        """``settle``: the night so far."""

    def rule(self, session: Session, rule: Rule) -> None:
        """``rules ID``: one rule explained."""

    def problem(self, session: Session, text: str, message: str) -> None:
        """A command that cannot be done (``rules`` of no rule)."""


def command(session: Session, text: str, out: LiveOutput) -> bool | None:
    """Do ``text`` when it is a command of the session (``undo``, ``settle``, ``rules ID``):
    True done, False refused (a rule id that names no rule); None when it is no command
    (``quit`` is the caller's)."""
    words = text.split()
    # a byte that is not UTF-8 makes no command: the line is entered, and refused where the byte stands (R2)
    if not words or words[0] not in COMMANDS or bytes_shown(text) != text or (words[0] != "rules" and len(words) != 1):
        return None
    verb = words[0]
    if verb == "undo":
        out.undone(session, session.undo())
    elif verb == "settle":
        out.settle(session)
    elif verb == "rules":
        rule = lookup(words[1]) if len(words) == 2 else None
        if rule is None:
            if len(words) == 2:  # as pan rules ID words it: the id asked, and the closest ones
                near = ", ".join(closest(words[1]))
                why = f"no rule {words[1]!r} in the rulebook" + (f"; closest: {near}" if near else "")
            else:
                why = "name one rule id (P8)"
            out.problem(session, text, "rules ID: " + why)
            return False
        out.rule(session, rule)
    else:
        return None
    return True


def keep_score(session: Session, lines: Iterable[str], out: LiveOutput) -> bool:
    """The line mode: each line judged (or each command done) and its judgement given to
    ``out`` before the next is read, until the lines end or ``quit``. True when every line
    was accepted (and every command done)."""
    clean = True
    out.opened(session)
    for raw in lines:
        text = raw.rstrip("\r\n")
        if text.strip() == "quit":
            break
        done = command(session, text.strip(), out)
        if done is not None:
            clean = clean and done
            continue
        entry = session.enter(text)
        out.entry(session, entry)
        if entry.verdict is LineVerdict.REFUSED:
            clean = False
    return clean
