"""Rule family: calls and counts, ruled at the moment the record says they were made (I1, I2).

A ``call`` or a ``count`` is a line of its own, written where it was made; the lines before it
stand as played (docs/rules.md, "When an irregularity is found"):

* :func:`call_fault`, :func:`apply_call`: ``NAME call OTHER #N`` demands that OTHER's foul meld
  ``#N`` be made good. A foul meld left lying after its turn because a call of it comes later
  in the record is one of OTHER's :attr:`~pancli.referee.state.Seat.standing` fouls
  (:func:`stand_or_find`); at the call he makes it good on the next line (:func:`answer`) or
  retires under I2 (:func:`~pancli.referee.irregular.retire`), returning every collection of
  the hand. A call that names no foul meld is an I2 violation at the call.
* :func:`count_fault`, :func:`apply_count`: ``NAME count OTHER [N]`` counts OTHER's cards. A
  right count is noted; a wrong one is found there (I1): before the first draw it is put right
  as at the deal, after it OTHER retires. A count of a player retired or on top is an I1
  violation at the count.

The rulings come from the judges of the rule tables (:func:`.melding.foul_meld_ruling` for I2,
:func:`.deal.deal_count_fault` for I1).
"""

from __future__ import annotations

from pancli.model.actions import Call, Count, Event, Mend, Turn
from pancli.model.results import DEAD, HAND, Remedy, Step, Violation
from pancli.model.rulings import Ruling, counted
from pancli.referee.board import Board, Place
from pancli.referee.deal import deal_count_fault
from pancli.referee.irregular import remedy_deal, retire
from pancli.referee.melding import apply_mend, foul_meld_ruling, verify_mend
from pancli.referee.state import Foul, Seat
from pancli.rulebook import Rule


def _after(b: Board, ev: Event) -> int:
    """The index in the hand's play lines of the line after ``ev`` (by identity; past the end
    when ``ev`` is not among them)."""
    events = b.script.events
    for i, e in enumerate(events):
        if e is ev:
            return i + 1
    return len(events)


def called_later(b: Board, player: str, number: int, after: Event) -> bool:
    """Whether a call of ``player``'s foul meld ``#number`` comes in the record after ``after``."""
    events = b.script.events
    return any(type(e) is Call and e.other == player and e.target == number for e in events[_after(b, after) :])


def stand_or_find(b: Board, s: Seat) -> Foul | None:
    """At the end of ``s``'s turn, with foul melds of his on the table not made good (I2): each
    that a call later in the record names is left lying until the call (:attr:`Seat.standing`);
    the first that none names is found now (returned: he retires). A foul meld in a turn that
    ends with no discard (going out) is no meld: found now."""
    turn = b.turn
    assert turn is not None
    for f in b.fouls:
        if not b.discarded or not called_later(b, s.name, f.number, turn):
            return f
    for f in b.fouls:
        f.earlier = True
        f.pending = False
        f.borrowed = ()
    s.standing = b.fouls
    b.fouls = []
    return None


def _standing(s: Seat, number: int) -> Foul | None:
    return next((f for f in s.standing if f.number == number), None)


def call_fault(b: Board, ev: Call) -> Ruling | None:
    """I2: a call names a foul meld (or a foul addition) of the player called, lying on the table."""
    s = b.by_name[ev.other]
    if _standing(s, ev.target) is not None:
        return None
    if s.retired is not None:
        why = f"{s.name} retired from the hand at line {s.retired.line} ({s.retired.rule}): the melds are dead"
    elif s.active is False:
        why = f"{s.name} went on top (T3) and has no meld"
    else:
        n = b.meld_count(s)
        if ev.target <= n:
            why = f"{s.name}'s #{ev.target} is a legal meld"
        else:
            why = f"{s.name} has {counted(n, 'meld')}" if n else f"{s.name} has no meld"
    where = Place(ev.line, ev.col + ev.number_at if ev.col else 0)
    reason = f"{ev.player} calls {s.name}'s #{ev.target}, but no foul meld is there: {why}"
    return foul_meld_ruling(b, Rule.I2, reason, where, player=ev.player)


def apply_call(b: Board, ev: Call) -> None:
    """The call is heard: when the next line is ``OTHER mend #N [cards]`` he makes the foul meld
    good there (:func:`answer`); otherwise it is found now, after his discard: he retires (I2)."""
    b.step(ev, None, ev, [])
    events = b.script.events
    i = _after(b, ev)
    nxt = events[i] if i < len(events) else None
    if type(nxt) is Turn and nxt.player == ev.other and len(nxt.actions) == 1:
        a = nxt.actions[0]
        if type(a) is Mend and a.target == ev.target:
            b.answering = ev
            return
    _found(b, ev, "")


def _found(b: Board, ev: Call, why: str) -> None:
    s = b.by_name[ev.other]
    f = _standing(s, ev.target)
    assert f is not None
    laid = f.violation
    reason = (
        f"{laid.message} (laid at line {laid.line}), called by {ev.player} after {s.name}'s discard"
        f" and not made good{why}"
    )
    v = foul_meld_ruling(b, Rule.I2, reason, Place(ev.line, ev.col), player=s.name).violation
    retire(b, s, v, ev)


def lone_mend(turn: Turn) -> bool:
    """A line of one ``mend`` (the answer to a call, never a turn: a turn begins with a draw)."""
    return len(turn.actions) == 1 and type(turn.actions[0]) is Mend


def looks_back(ev: Event) -> bool:
    """A line whose presence in the record changes how lines before it are judged: a call (the
    foul meld it names stands until it, I2), a count (a wrong count at the deal is found at it,
    I1) and a lone mend (it answers the call on the line before)."""
    kind = type(ev)
    return kind is Call or kind is Count or (kind is Turn and lone_mend(ev))  # type: ignore[arg-type]


def stray_mend(b: Board, turn: Turn) -> Violation:
    """I2: a ``mend`` on a line of its own that answers no call on the line before."""
    a = turn.actions[0]
    assert isinstance(a, Mend)
    why = f"a mend on a line of its own answers a call of {turn.player}'s #{a.target} on the line before"
    return foul_meld_ruling(b, Rule.I2, why, turn, player=turn.player).violation


def answer(b: Board, turn: Turn) -> Violation | None:
    """``OTHER mend #N [cards]`` on the line after the call: the foul meld is made good with cards
    he holds, no penalty (I2, :func:`~pancli.referee.melding.apply_mend`). A mend that is no
    meld either leaves it not made good: found at the call. Another rule the mend breaks
    (cards he does not hold, E4) is returned as the violation."""
    ev = b.answering
    assert ev is not None
    b.answering = None
    s = b.by_name[ev.other]
    a = turn.actions[0]
    assert isinstance(a, Mend)
    b.turn, b.seat = turn, s
    b.pending, b.pending_used, b.drew, b.borrowed, b.must_add = None, True, True, [], False
    b.fouls = s.standing
    try:
        plan = verify_mend(b, a)
    except Ruling as r:
        s.standing, b.fouls, b.turn, b.seat = b.fouls, [], None, None
        if r.violation.rule is not Rule.I2:
            return r.violation
        _found(b, ev, f" (the mend at line {a.line} is no meld either: {r.violation.message})")
        return None
    payments = apply_mend(b, a, plan)
    b.step(turn, a, a, payments)
    s.standing, b.fouls, b.turn, b.seat = b.fouls, [], None, None
    return None


def count_fault(b: Board, ev: Count) -> Ruling | None:
    """I1: a count is of a player with cards to count (:func:`.deal.deal_count_fault`); where the
    referee stops at irregularities (``--strict``), a wrong count found is a violation too."""
    r = deal_count_fault(b, ev)
    if r is None and not b.remedy:
        r = deal_count_fault(b, ev, found=True)
    return r


def apply_count(b: Board, ev: Count) -> None:
    """The count is made: a right count is noted and changes nothing; a wrong one is found here
    (I1): put right as at the deal before the first draw, else the player retires."""
    b.step(ev, None, ev, [])
    s = b.by_name[ev.other]
    bad = deal_count_fault(b, ev, found=True)
    if bad is None:
        if s.unknown and ev.number is None:
            b.notes.append(
                f"line {ev.line}: {ev.player} counts {s.name}, whose cards are not written and no number is given"
                " (I1): nothing to compare"
            )
        else:
            b.notes.append(f"line {ev.line}: {ev.player} counts {s.name}: {b.hand_size} cards, right (I1): noted")
        return
    if b.turn_no:
        retire(b, s, bad.violation, ev)
    else:
        _put_right(b, s, ev, bad.violation)


def _put_right(b: Board, s: Seat, ev: Count, v: Violation) -> None:
    """I1 found before the first draw: as at the deal, the extras (the last cards dealt) go to
    the dead cards, a short hand is filled from the stock."""
    d = next((d for d in b.script.deals if d.player == s.name), None)
    dealt = b.hand_size
    if d is not None:
        extra = d.cards[dealt:]
        for c in extra:
            s.hand[c.index] -= 1
        b.dead += extra
        short = max(0, dealt - len(d.cards))
        s.unknown += short
        b.stock_n -= short
        s.hand_n = s.size = dealt
        r = remedy_deal(b, d, v)
        if b.steps is not None and extra:
            b.steps[-1] = Step(ev.line, ev.col, s.name, r, None, tuple((c, HAND, DEAD) for c in extra))
        return
    held = ev.number
    assert held is not None
    if held > dealt:
        b.stock_n -= held - dealt  # the extras, unseen, came off the stock and are dead
        what = f"the extra {counted(held - dealt, 'unseen card')} go to the dead cards; play goes on"
    else:
        what = f"his hand is filled from the stock with {counted(dealt - held, 'card')}; play goes on"
    r = Remedy(v, what)
    b.remedies.append(r)
    if b.steps is not None:
        b.steps.append(Step(ev.line, ev.col, s.name, r, None))
