"""What ``pan replay`` writes for a refereed hand: plain text (pipes), JSON, JSON lines
(one event per action, with provenance) and a rich timeline (terminals).

Plain text and JSON never import rich; JSON is imported by the caller only on the JSON
paths. Everything here is pure formatting: the referee has already decided.

Payments are shown as *collections*: consecutive payments of one moment (same payee,
rule, line, units, meld and note) are one line, "4 from each of Ben Cruz Dee = 12".

>>> from pancli.model.results import Payment, HandResult
>>> from pancli.rulebook import Rule
>>> ps = (Payment("Ben", "Ana", 4, (Rule.C2,), 9), Payment("Cruz", "Ana", 4, (Rule.C2,), 9))
>>> [str(c) for c in collections(ps)]
['Ana C2: 4 from each of Ben Cruz = 8']
>>> r = HandResult(("Ana", "Ben", "Cruz"), "Ana", ps, {"Ana": 8, "Ben": -4, "Cruz": -4})
>>> ledger_text(r.ledger)
'Ana +8, Ben -4, Cruz -4'
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

from pancli.cards import Card, format_cards
from pancli.cli.common import error_line, escape_text, money_text, signed
from pancli.model.actions import (
    Add,
    Borrow,
    Decision,
    Discard,
    Draw,
    Force,
    HandScript,
    Lay,
    MeldNew,
    Mend,
    Out,
    Reshuffle,
    Split,
    Take,
    TakeBack,
    TakeMany,
    Turn,
)
from pancli.model.results import (
    RETURNED,
    ClaimCheck,
    ClaimKind,
    HandResult,
    Payment,
    Recorded,
    Remedy,
    Step,
    Violation,
    each_step,
    is_return,
)
from pancli.notation.record_writer import action_text, ledger_value
from pancli.rulebook import Rule
from pancli.values import Value

if TYPE_CHECKING:
    from decimal import Decimal

    from rich.console import Console

    from pancli.notation.errors import NotationError
    from pancli.notation.layout import RecordHand

WHY: Final[dict[str, str]] = {
    "C1": "valle set, different suits",
    "C2": "valle set, one suit",
    "C3": "non-valle set, one suit",
    "C4": "rope with the ace",
    "C5": "rope with the king",
    "C6": "value as laid",
    "C7": "the meld's value grows",
    "C8": "going out",
    "T2": "forfeits and tops",
    "T4": "all the others went on top",
    "P10": "void hand: returned",
    "I1": "wrong count: collections returned",
    "I2": "foul meld: collections returned",
}
"""Why a payment is made, by rule id (docs/rules.md)."""

MALFORMED_RULING: Final = "the hand cannot be read: it is not refereed; the next hand is read normally"


def why(rule: str) -> str:
    """The reason behind a payment rule (``C4+C5`` names both).

    >>> why("C4+C5"), why("C2")
    ('rope with the ace and the king', 'valle set, one suit')
    """
    text = _WHY_TEXT.get(rule)
    if text is None:
        if rule == "C4+C5":
            text = "rope with the ace and the king"
        else:
            text = " + ".join(WHY.get(r, r) for r in rule.split("+"))
        if len(_WHY_TEXT) < 1000:
            _WHY_TEXT[rule] = text
    return text


_WHY_TEXT: dict[str, str] = {}


def ledger_text(ledger: Mapping[str, int]) -> str:
    """``Ana +8, Ben -4`` in seating order: the form a ``Ledger`` tag reads back."""
    return ledger_value(ledger)


def money_map(result: HandResult) -> dict[str, Decimal] | None:
    """The ledger in money (C9), or None without a stake."""
    money = result.money()
    return None if money is None else dict(money)


# --------------------------------------------------------------------------- collections


class Collection(Value):
    """Payments made at one moment for one reason: ``payee`` collects ``units`` from each payer."""

    payee: str
    rule: str
    line: int
    units: int
    payers: tuple[str, ...]
    meld: tuple[Card, ...] | None = None
    note: str = ""
    returned: bool = False
    """A return (I1, I2): ``payee`` is the player who gives back, ``payers`` those he pays."""

    @property
    def verb(self) -> str:
        """``collects``, or ``returns`` for a return."""
        return "returns" if self.returned else "collects"

    @property
    def total(self) -> int:
        """Units collected in all."""
        return self.units * len(self.payers)

    def what(self, out_bonus: int | None = None) -> str:
        """What was paid for and why: ``[5s 5s 5s] valle set, one suit``; with ``out_bonus``,
        going out (C8) is split into the bonus and the melds again."""
        note = self.note.removeprefix(RETURNED).strip() if self.returned else self.note
        return _what(self.rule, self.meld, note, self.units, out_bonus)

    def reason(self, out_bonus: int | None = None) -> str:
        """The rule, then :meth:`what`: ``C2 [5s 5s 5s] valle set, one suit``."""
        return f"{self.rule} {self.what(out_bonus)}"

    def amounts(self) -> str:
        """``4 from each of Ben Cruz = 8`` (or ``2 from Ben``; a return: ``4 to each of ...``)."""
        return _amounts(self.units, list(self.payers), "to" if self.returned else "from")

    def __str__(self) -> str:
        return f"{self.payee} {self.rule}: {self.amounts()}"  # (a return: the player who gives back)


def _what(rule: str, meld: tuple[Card, ...] | None, note: str, units: int, out_bonus: int | None) -> str:
    """:meth:`Collection.what` of its fields."""
    if rule == "C8" and out_bonus is not None:
        again = units - out_bonus
        tail = f"going out: bonus {out_bonus} + melds again {again}" if again else f"going out: bonus {out_bonus}"
    else:
        tail = note or why(rule)
    return f"[{format_cards(meld)}] {tail}" if meld else tail


def _amounts(units: int, payers: list[str], way: str = "from") -> str:
    """:meth:`Collection.amounts` of its fields (``way`` "to": what a player returns to each)."""
    if len(payers) == 1:
        return f"{units} {way} {payers[0]}"
    return f"{units} {way} each of {' '.join(payers)} = {units * len(payers)}"


def _same_return(q: Payment, p: Payment) -> bool:
    """``q`` is one more return of the moment of ``p`` (same payer, rule, line, units, meld, note)."""
    return (
        q.payer == p.payer
        and q.rules == p.rules
        and q.line == p.line
        and q.units == p.units
        and q.note == p.note
        and q.meld == p.meld
    )


def collection_lines(payments: Sequence[Payment], out_bonus: int | None) -> list[str]:
    """The plain-text lines of :func:`collections` (``  line 9: Ana collects C2 ...``), built
    without the Collection objects (the batch path)."""
    out: list[str] = []
    n = len(payments)
    i = 0
    while i < n:
        p = payments[i]
        payee, rules, line, units, meld, note = p.payee, p.rules, p.line, p.units, p.meld, p.note
        payers = [p.payer]
        i += 1
        if is_return(p):
            payers = [p.payee]
            while i < n and _same_return(payments[i], p):
                payers.append(payments[i].payee)
                i += 1
            what = _what(p.rule, meld, note.removeprefix(RETURNED).strip(), units, None)
            out.append(f"  line {line}: {p.payer} returns {p.rule} {what}: {_amounts(units, payers, 'to')}")
            continue
        while i < n:
            q = payments[i]
            if (
                q.line != line
                or q.payee != payee
                or q.rules != rules
                or q.units != units
                or q.note != note
                or not (q.meld is meld or q.meld == meld)
            ):
                break
            payers.append(q.payer)
            i += 1
        rule = p.rule
        what = _what(rule, meld, note, units, out_bonus)
        out.append(f"  line {line}: {payee} collects {rule} {what}: {_amounts(units, payers)}")
    return out


def collections(payments: Iterable[Payment]) -> list[Collection]:
    """Group consecutive payments of one moment (same payee, rule, line, units, meld, note); a
    player's returns (I1, I2) of one moment are grouped by him."""
    out: list[Collection] = []
    key: tuple[Any, ...] | None = None
    payers: list[str] = []
    last: Payment | None = None
    for p in payments:
        back = is_return(p)
        k = (back, p.payer if back else p.payee, p.rules, p.line, p.units, p.meld, p.note)
        if k != key:
            if last is not None:
                out.append(_collection(last, payers))
            key, payers = k, []
        payers.append(p.payee if back else p.payer)
        last = p
    if last is not None:
        out.append(_collection(last, payers))
    return out


def _collection(p: Payment, others: list[str]) -> Collection:
    """The :class:`Collection` of the moment of ``p``, with the ``others`` who paid (or were paid back)."""
    if is_return(p):
        return Collection(p.payer, p.rule, p.line, p.units, tuple(others), p.meld, p.note, returned=True)
    return Collection(p.payee, p.rule, p.line, p.units, tuple(others), p.meld, p.note)


# --------------------------------------------------------------------------- claims and violations


def claim_message(c: ClaimCheck, pagruc: bool = False) -> str:
    """What is wrong with a claim, in words (a PAGRUC claim is of points, G7)."""
    if c.kind is ClaimKind.PAYS:
        if pagruc:
            return f"{c.player} claims [%pays {c.claimed}] but the meld scores {c.actual}"
        return f"{c.player} claims [%pays {c.claimed}] but each opponent paid {c.actual}"
    return f"the Ledger claims {c.player} {signed(c.claimed)} but the referee finds {signed(c.actual)}"


def violation_line(file: str, v: Violation) -> str:
    """``file:line:col: RULE message``."""
    return error_line(file, v.line, v.col, v.rule, v.message)


def remedy_lines(file: str, r: Remedy) -> list[str]:
    """An irregularity put right (I1, I2), in plain text: where and what, the remedy applied,
    what the rulebook prescribes."""
    v = r.violation
    who = f" ({v.player})" if v.player else ""
    out = [f"  IRREGULARITY {violation_line(file, v)}{who}", f"    remedy: {r.remedy}"]
    if v.ruling:
        out.append(f"    ruling: {v.ruling}")
    return out


def malformed_line(file: str, e: NotationError) -> str:
    """The stderr line of a malformed hand."""
    return error_line(file, e.line, e.col, e.code, e.message)


# --------------------------------------------------------------------------- JSON


def payment_json(p: Payment) -> dict[str, Any]:
    """The payment fields of docs/commands.md plus ``meld`` and ``note``."""
    return {
        "payer": p.payer,
        "payee": p.payee,
        "units": p.units,
        "rule": p.rule,
        "line": p.line,
        "meld": format_cards(p.meld) if p.meld else None,
        "note": p.note,
    }


def violation_json(v: Violation, file: str) -> dict[str, Any]:
    """The violation fields of docs/commands.md plus ``ruling``, ``turn`` and ``file``."""
    return {
        "rule": v.rule,
        "line": v.line,
        "col": v.col,
        "player": v.player,
        "message": v.message,
        "ruling": v.ruling,
        "turn": v.turn,
        "file": file,
    }


def remedy_json(r: Remedy, file: str) -> dict[str, Any]:
    """An irregularity put right (I1, I2): the violation fields, ``remedy`` (what was done),
    ``returns`` (payments, also in the hand's ``payments``) and ``retired``."""
    return {
        **violation_json(r.violation, file),
        "remedy": r.remedy,
        "returns": [payment_json(p) for p in r.returns],
        "retired": r.retired,
    }


def claim_json(c: ClaimCheck) -> dict[str, Any]:
    """One claim checked."""
    return {
        "kind": c.kind.value,
        "line": c.line,
        "col": c.col,
        "player": c.player,
        "claimed": c.claimed,
        "actual": c.actual,
        "ok": c.ok,
    }


def hand_json(result: HandResult, hand: RecordHand, script: HandScript) -> dict[str, Any]:
    """One refereed hand as ``pan replay --json`` writes it (docs/commands.md).

    Fields: ``hand players winner ledger payments violations claims_ok`` (the contract)
    and ``file first_line last_line rules void finished rulings claims stake money``
    (``rulings``: the irregularities put right, :func:`remedy_json`). Money values are
    decimal strings (exact), present when the record names a ``Stake``.
    """
    return {
        **_hand_before(result, hand, script),
        "payments": [payment_json(p) for p in result.payments],
        **_hand_after(result, hand),
    }


def _hand_before(result: HandResult, hand: RecordHand, script: HandScript) -> dict[str, Any]:
    """The fields of :func:`hand_json` before ``payments``."""
    return {
        "hand": hand.index,
        "file": hand.file,
        "first_line": hand.first_line,
        "last_line": hand.last_line,
        "game": script.game.value,
        "rules": script.profile.name,
        "players": list(result.players),
        "winner": result.winner,
        "void": result.void,
        "finished": result.finished,
        "ledger": dict(result.ledger),
    }


def _hand_after(result: HandResult, hand: RecordHand) -> dict[str, Any]:
    """The fields of :func:`hand_json` after ``payments``."""
    money = money_map(result)
    return {
        "violations": [violation_json(v, hand.file) for v in result.violations],
        "rulings": [remedy_json(r, hand.file) for r in result.remedies],
        "claims": [claim_json(c) for c in result.claims],
        "claims_ok": result.claims_ok,
        "notes": list(result.notes),
        "stake": None if result.stake is None else format(result.stake, "f"),
        "money": None if money is None else {p: format(m, "f") for p, m in money.items()},
    }


def malformed_json(hand: RecordHand) -> dict[str, Any]:
    """A hand that could not be read: its error as the one violation, nothing refereed."""
    e = hand.error
    assert e is not None
    return {
        "hand": hand.index,
        "file": hand.file,
        "first_line": hand.first_line,
        "last_line": hand.last_line,
        "malformed": True,
        "players": list(hand.players),
        "winner": None,
        "void": False,
        "finished": False,
        "ledger": {},
        "payments": [],
        "rulings": [],
        "violations": [
            {
                "rule": e.code,
                "line": e.line,
                "col": e.col,
                "player": None,
                "message": e.message,
                "ruling": MALFORMED_RULING,
                "turn": 0,
                "file": hand.file,
            }
        ],
        "claims": [],
        "claims_ok": False,
        "notes": [],
        "stake": None,
        "money": None,
    }


# --------------------------------------------------------------------------- JSON lines: events with provenance

_KIND: Final[dict[type, str]] = {
    Draw: "draw",
    Take: "take",
    TakeMany: "take",
    MeldNew: "meld",
    Add: "add",
    Lay: "lay",
    Borrow: "borrow",
    Split: "split",
    Mend: "mend",
    TakeBack: "back",
    Discard: "discard",
    Out: "out",
}


def _step_kind_text(step: Step) -> tuple[str, str]:
    """A step's ``event`` and ``text``."""
    action = step.action
    if action is not None:
        return _KIND[type(action)], action_text(action)
    ev = step.event
    if isinstance(ev, Decision):
        return ("stay", f"{ev.player} stay") if ev.stay else ("top", f"{ev.player} top")
    if isinstance(ev, Force):
        return "force", f"{ev.player} force {ev.other}"
    if isinstance(ev, Reshuffle):
        return "reshuffle", "reshuffle"
    if isinstance(ev, Turn):
        return "out", "out"  # going out seen by the referee (no ``out`` written)
    if isinstance(ev, Remedy):
        return "remedy", f"{ev.rule} {ev.violation.message}: {ev.remedy}"
    if step.player is not None:
        return "deal", _deal_text(step.player, [m[0] for m in step.moves])
    return "up", f"up {step.moves[0][0]}" if step.moves else "up"


def _deal_text(player: str, cards: tuple[Card, ...] | list[Card]) -> str:
    """A deal step's ``text``: ``deal Ana 5s 5s ...``."""
    return f"deal {player} {format_cards(cards)}"


def step_events(steps: Iterable[Recorded], hand: int, file: str) -> Iterator[dict[str, Any]]:
    """One JSON object per applied step (a plain turn line recorded whole: its two steps,
    :func:`~pancli.model.results.each_step`): ``event`` (draw, take, meld, add, borrow, split,
    discard, out, deal, up, stay, top, force, reshuffle, remedy), ``file hand line col player text``,
    ``moves`` (``card from to``: deal, stock, discard, hand, meld, dead) and ``payments``.

    A drawn card moves when it is used: ``draw`` has no move, and the ``meld``, ``add`` or
    ``discard`` that uses it moves it from ``stock`` (or ``discard`` for a take)."""
    last_out = -1
    for s in each_step(steps):
        if s.action is not None and type(s.action) is Out and not s.moves and not s.payments and last_out == s.line:
            continue  # the referee's going out was already reported for this ``out``
        kind, text = _step_kind_text(s)
        if kind == "out":
            last_out = s.line
        yield {
            "event": kind,
            "file": file,
            "hand": hand,
            "line": s.line,
            "col": s.col or 1,  # a whole line (the upcard's) starts at column 1
            "player": s.player,
            "text": text,
            "moves": [{"card": c.text, "from": a, "to": b} for c, a, b in s.moves],  # enums: by value
            "payments": [payment_json(p) for p in s.payments],
        }


def _title(hand: RecordHand, script: HandScript) -> str:
    return (
        f"{hand.source}, hand {hand.index} (lines {hand.first_line}-{hand.last_line}): {script.profile.name}; "
        f"{' '.join(script.players)} (dealer {script.players[-1]})"
    )


def outcome(result: HandResult) -> str:
    """Who won and how, in words."""
    if result.violations and result.winner is None:
        return "stopped at the first violation: no winner"
    retired = [r.violation.player for r in result.remedies if r.retired]
    if retired and result.winner is None and not result.void:
        return f"unfinished: nobody went out ({', '.join(p or '?' for p in retired)} retired)"
    if result.winner is not None:
        after = "; stopped at the first violation after it (I3)" if result.violations else ""
        paid_under = {rule for p in result.payments for rule in p.rules}
        if Rule.C8 in paid_under or Rule.T2 not in paid_under:
            return f"{result.winner} went out (C8){after}"
        return f"{result.winner} wins: all the others went on top (T4){after}"
    if result.void:
        return "void hand: forfeits and tops returned (T4, P10)"
    return "unfinished: nobody went out"


def plain_text(result: HandResult, hand: RecordHand, script: HandScript) -> str:
    """A refereed hand as plain text: title, one line per collection (line, payee, rule,
    meld, reason, per opponent and total), violations with their ruling, wrong claims,
    the outcome and the ledger (and money with a ``Stake``)."""
    out = [_title(hand, script)]
    add = out.append
    bonus = script.profile.out_bonus
    out += collection_lines(result.payments, bonus)
    file = hand.file
    for r in result.remedies:
        out += remedy_lines(file, r)
    for v in result.violations:
        who = f" ({v.player})" if v.player else ""
        add(f"  VIOLATION {violation_line(file, v)}{who}")
        if v.ruling:
            add(f"    ruling: {v.ruling}")
    for cl in result.claims:
        if not cl.ok:
            add(f"  WRONG CLAIM {error_line(file, cl.line, cl.col, cl.rule, claim_message(cl))}")
    out.extend(f"  note: {n}" for n in result.notes)
    add(f"  {outcome(result)}")
    add(f"  ledger: {ledger_text(result.ledger)}")
    money = money_map(result)
    if money is not None:
        add(f"  money (stake {result.stake}): {', '.join(f'{p} {money_text(m)}' for p, m in money.items())}")
    return "\n".join(out) + "\n"


def plain_malformed(hand: RecordHand) -> str:
    """A malformed hand in plain text."""
    e = hand.error
    assert e is not None
    return (
        f"{hand.source}, hand {hand.index} (lines {hand.first_line}-{hand.last_line}): malformed, not refereed\n"
        f"  MALFORMED {malformed_line(hand.file, e)}\n"
    )


# --------------------------------------------------------------------------- rich (terminals)


def _roles(script: HandScript, result: HandResult) -> dict[str, str]:
    roles = dict.fromkeys(script.players, "")
    for ev in script.events:
        if isinstance(ev, Decision) and ev.player in roles:
            roles[ev.player] = "stayed" if ev.stay else "went on top"
    if result.winner is not None:
        roles[result.winner] = "winner" if not roles.get(result.winner) else f"{roles[result.winner]}, winner"
    return roles


def _play_rows(hand: RecordHand, script: HandScript) -> list[tuple[int, str]]:
    """(line, canonical text with comments) of each play line of the hand."""
    from pancli.notation.record_writer import item_text

    layout = hand.layout
    if layout is not None:
        return [(item.line, item_text(item, layout.notes_of(i))) for i, item in enumerate(layout.lines)]
    rows: list[tuple[int, str]] = [(d.line, f"deal {d.player} {format_cards(d.cards)}") for d in script.deals]
    if script.upcard is not None:
        rows.append((script.upcard_line, f"up {script.upcard}"))
    rows.extend((ev.line, item_text(ev, claims=True)) for ev in script.events)
    return rows


def render_rich(console: Console, result: HandResult, hand: RecordHand, script: HandScript) -> None:
    """The terminal view: a timeline (each play line, what it paid and why, the violation in
    red with its place and ruling, lines not refereed after it dimmed) and the ledger table."""
    from rich.markup import escape
    from rich.table import Table
    from rich.text import Text

    from pancli.cli.common import rule_hint
    from pancli.cli.terminal import print_hanging

    file = hand.file
    title = Text(_title(hand, script), style="bold")
    if len(title) + 4 > console.width:  # a rule cuts its title short: print it whole, wrapped at words
        console.print(title)
        console.rule()
    else:
        console.rule(title, align="left")
    by_line: dict[int, list[Collection]] = {}
    for c in collections(result.payments):
        by_line.setdefault(c.line, []).append(c)
    bonus = script.profile.out_bonus
    bad: dict[int, Violation] = {}
    for v in result.violations:
        bad.setdefault(v.line, v)
    wrong = {c.line: c for c in result.claims if not c.ok}
    put_right: dict[int, list[Remedy]] = {}
    for r in result.remedies:
        put_right.setdefault(r.violation.line, []).append(r)
    stop = min(bad) if bad else None
    timeline = Table(show_header=True, header_style="bold", box=None, pad_edge=False, expand=False)
    timeline.add_column("line", justify="right", style="dim", no_wrap=True)
    timeline.add_column("play", overflow="fold")
    timeline.add_column("paid and why", overflow="fold")
    for line, text in _play_rows(hand, script):
        paid: list[str] = []
        for c in by_line.pop(line, ()):
            who = f"[green]{escape(c.payee)}[/]" + (" returns" if c.returned else "")
            paid.append(f"{who} [bold]{c.rule}[/] {escape(c.what(bonus))}: {escape(c.amounts())}")
        style = ""
        if line in bad:
            v = bad[line]
            paid.append(f"[bold red]✗ {v.rule}[/] [red]{escape(v.message)}[/]")
            style = "red"
        elif stop is not None and line > stop:
            style = "dim"
        for r in put_right.get(line, ()):
            paid.append(f"[bold magenta]! {r.rule}[/] [magenta]{escape(r.violation.message)}: {escape(r.remedy)}[/]")
        if line in wrong:
            paid.append(f"[bold yellow]claim wrong:[/] {escape(claim_message(wrong[line]))}")
        dim_deal = text.startswith(("deal ", "up ")) and not style
        timeline.add_row(str(line), Text(escape_text(text), style="dim" if dim_deal else style), "\n".join(paid))
    for line, rest in sorted(by_line.items()):  # payments on lines not shown (hand-level)
        timeline.add_row(str(line), "", "\n".join(escape(f"{c.payee} {c.reason(bonus)}: {c.amounts()}") for c in rest))
    console.print(timeline)
    for r in result.remedies:
        v = r.violation
        who = f" ({v.player})" if v.player else ""
        console.print(
            f"[bold magenta]IRREGULARITY[/] {escape(violation_line(file, v))}{escape(who)}[dim]{rule_hint(v.rule)}[/]"
        )
        console.print(f"  [magenta]remedy:[/] {escape(r.remedy)}")
    for v in result.violations:
        who = f" ({v.player}, turn {v.turn})" if v.player else ""
        hint = rule_hint(v.rule)
        print_hanging(
            console, "[bold red]VIOLATION[/]", f"{escape(violation_line(file, v))}{escape(who)}[dim]{hint}[/]"
        )
        if v.ruling:
            print_hanging(console, "[red]ruling:[/]", escape(v.ruling), indent=2)
    for cl in result.claims:
        if not cl.ok:
            place = escape(f"{file}:{cl.line}:{cl.col}: {cl.rule}")
            body = f"{place} {escape(claim_message(cl))}[dim]{rule_hint(cl.rule)}[/]"
            print_hanging(console, "[bold yellow]WRONG CLAIM[/]", body)
    for n in result.notes:
        print_hanging(console, "[dim]note:[/]", f"[dim]{escape(n)}[/]")
    console.print(Text(outcome(result), style="bold"))
    console.print(ledger_table(result, script))


def ledger_table(result: HandResult, script: HandScript) -> Any:
    """The ledger as a rich table: player, part, units, money (with a stake), claimed (with a Ledger tag)."""
    from decimal import Decimal

    from rich.table import Table

    money = money_map(result)
    claimed = {c.player: c for c in result.claims if c.kind is ClaimKind.LEDGER}
    roles = _roles(script, result)
    table = Table(title="ledger", title_justify="left", show_footer=True)
    table.add_column("player", footer="total")
    table.add_column("part")
    table.add_column("units", justify="right", footer=str(sum(result.ledger.values())))
    if money is not None:
        table.add_column(
            f"money (stake {result.stake})", justify="right", footer=money_text(sum(money.values(), Decimal(0)))
        )
    if claimed:
        table.add_column("claimed", justify="right")
    for p, units in result.ledger.items():
        style = "green" if units > 0 else "red" if units < 0 else ""
        row = [p, roles.get(p, ""), f"[{style}]{signed(units)}[/]" if style else signed(units)]
        if money is not None:
            row.append(money_text(money[p]))
        if claimed:
            c = claimed.get(p)
            row.append("" if c is None else signed(c.claimed) if c.ok else f"[bold red]{signed(c.claimed)} ✗[/]")
        table.add_row(*row)
    return table


def render_rich_malformed(console: Console, hand: RecordHand) -> None:
    """A malformed hand on a terminal."""
    from rich.markup import escape

    e = hand.error
    assert e is not None
    console.rule(f"{escape(hand.source)}, hand {hand.index} (lines {hand.first_line}-{hand.last_line})", align="left")
    from pancli.cli.common import rule_hint

    console.print(f"[bold red]MALFORMED[/] {escape(malformed_line(hand.file, e))}[dim]{rule_hint(e.code)}[/]")
    console.print(f"  [red]{MALFORMED_RULING}[/]")
