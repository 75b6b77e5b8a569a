"""Irregularities put into self-played hands (I1, I2): :func:`inject` takes a legal, complete
hand of :func:`~pancli.referee.simulate.simulate_hands` and puts one :class:`Irregularity` into
it where the referee finds it and nothing else. For tests and benchmarks: no command loads it
(``pan simulate``'s start-up does without this module and its enum)."""

from __future__ import annotations

import enum
import random
from collections.abc import Iterator

from msgspec.structs import replace

from pancli.cards import Card
from pancli.model.actions import (
    Action,
    Add,
    Call,
    Count,
    Deal,
    Decision,
    Discard,
    Draw,
    Event,
    Force,
    HandScript,
    MeldNew,
    Mend,
    Take,
    TakeBack,
    Turn,
)
from pancli.panrules import PanRules
from pancli.referee.table import referee_script


class Irregularity(enum.Enum):
    """What :func:`inject` puts into a legal hand. The mended and taken-back ones change no one's
    result: the table paid the foul meld or addition what it was claimed to be worth (a
    ``[%pays N]``), and that is returned."""

    I1_EXTRA = "I1-extra"
    """A deal of eleven cards (I1 at the deal)."""
    I1_SHORT = "I1-short"
    """A deal of nine cards (I1 at the deal)."""
    I1_LATE = "I1-late"
    """A player whose cards were not written down laying more than he can hold (I1 found after
    the first draw)."""
    I2_FOUND = "I2-found"
    """A foul meld left on the table when its player discards (I2 found)."""
    I2_MENDED = "I2-mended"
    """A foul meld made good at once (``mend #N``, I2 a)."""
    I2_TAKEN_BACK = "I2-taken-back"
    """A foul meld taken back on demand (``back #N``, I2 b) and the legal meld laid after it."""
    I2_ADDITION_MENDED = "I2-addition-mended"
    """A foul addition (his discard added in place of a card of a legal addition) made good at
    once (``mend #N`` naming the whole meld, I2 a)."""
    I2_CALLED_LATE = "I2-called-late"
    """A foul meld left on the table that another player calls later, on a line of its own
    (``NAME call OTHER #N``, I2 found at the call)."""
    I1_COUNTED_LATE = "I1-counted-late"
    """A deal of eleven found by a count later in the hand (``NAME count OTHER``, I1 found at the
    count)."""


def inject(
    script: HandScript, kind: Irregularity, rng: random.Random, rules: PanRules | None = None
) -> HandScript | None:
    """``script`` (a legal, complete hand) with the irregularity ``kind`` put in at a place
    ``rng`` chooses, the rest of the hand as played; a
    player who must retire plays no further turn (his later lines are left out). The first
    place where the referee, asking ``rules`` (the caller's rules object; without, one of the
    hand's profile), finds the irregularity and nothing else (leaving a player's lines out can
    break another rule: a take of a discard he no longer made, a flat player's P9); None when
    the hand offers none.

    >>> from pancli.referee.simulate import simulate_hands
    >>> from pancli.rules import HOYLE
    >>> s = next(simulate_hands(("Ana", "Ben", "Cruz"), 1, 3, HOYLE))
    >>> [len(d.cards) for d in inject(s, Irregularity.I1_EXTRA, random.Random(1)).deals]
    [10, 11, 10]
    """
    rules = PanRules(script.profile) if rules is None else rules
    for candidate in _places(script, kind, rng, rules):
        r = referee_script(candidate, record_steps=False, rules=rules)
        if not r.violations and len(r.remedies) == 1:
            return candidate
    return None


def _melds_of(events: list[Event], who: str) -> list[tuple[Card, ...]]:
    """The cards of each meld ``who`` has after ``events`` (self-play neither borrows nor splits)."""
    melds: list[tuple[Card, ...]] = []
    for e in events:
        if type(e) is Turn and e.player == who:
            for a in e.actions:
                if type(a) is MeldNew:
                    melds.append(a.cards)
                elif type(a) is Add:
                    melds[a.target - 1] += a.cards
    return melds


def _foul_addition(
    events: list[Event], j: int, acts: list[Action], rules: PanRules, rng: random.Random
) -> list[Action] | None:
    """The actions of turn ``events[j]`` with its first addition made foul and made good at
    once: his discard added in place of the addition's last card, then ``mend #N`` naming the
    whole meld as the legal addition leaves it (its claim: the addition's gain), after which he
    discards the same card; None where the turn has no such addition."""
    turn = events[j]
    assert isinstance(turn, Turn)
    last = acts[-1]
    k = next((k for k, a in enumerate(acts) if type(a) is Add), 0)
    add = acts[k]
    if not k or not isinstance(last, Discard) or not isinstance(add, Add) or last.card in add.cards:
        return None
    melds = _melds_of(events[:j], turn.player)
    melds += [a.cards for a in acts[:k] if type(a) is MeldNew]
    if add.target > len(melds):
        return None
    base = rules.laid(melds[add.target - 1])
    grown = rules.laid(melds[add.target - 1] + add.cards)
    if base is None or grown is None:
        return None
    foul = Add((*add.cards[:-1], last.card), add.target, rng.randint(1, 3), line=add.line, col=add.col)
    fix = Mend(add.target, melds[add.target - 1] + add.cards, rules.change_value(base.value, grown.value))
    return [*acts[:k], foul, fix, *acts[k + 1 :]]


def _melds_before(events: list[Event], who: str) -> int:
    """The new melds ``who`` laid in ``events`` (self-play neither borrows nor splits)."""
    return sum(1 for e in events if type(e) is Turn and e.player == who for a in e.actions if type(a) is MeldNew)


def _places(script: HandScript, kind: Irregularity, rng: random.Random, rules: PanRules) -> Iterator[HandScript]:
    """Each way :func:`inject` may put ``kind`` into ``script``, in a random order, as ``rules`` deals
    and lays."""
    deals = list(script.deals)
    if kind is Irregularity.I1_EXTRA or kind is Irregularity.I1_SHORT:
        order = list(range(len(deals)))
        rng.shuffle(order)
        for i in order:
            d = deals[i]
            if kind is Irregularity.I1_EXTRA:
                extra = rng.choice(rules.pack_cards())
                cards = (*d.cards, extra)
            else:
                cards = d.cards[:-1]  # the last card dealt is the one missing: he holds it unseen
            yield replace(script, deals=(*deals[:i], Deal(d.player, cards, d.line, d.col), *deals[i + 1 :]))
        return
    events = list(script.events)
    if kind is Irregularity.I1_COUNTED_LATE:
        yield from _counted_late(script, deals, events, rng, rules)
        return
    pack = rules.pack_cards()
    places = [j for j, e in enumerate(events) if type(e) is Turn and len(e.actions) >= 2]
    rng.shuffle(places)
    for j in places:
        turn = events[j]
        assert isinstance(turn, Turn)
        who = turn.player
        acts = list(turn.actions)
        if kind is Irregularity.I2_ADDITION_MENDED:
            fixed = _foul_addition(events, j, acts, rules, rng)
            if fixed is not None:
                changed = Turn(who, tuple(fixed), turn.number, turn.line, turn.col)
                yield replace(script, events=(*events[:j], changed, *events[j + 1 :]))
            continue
        if kind is Irregularity.I1_LATE:
            # his cards were not written down; he lays eleven cards from them, more than he holds
            acts.insert(len(acts) - 1, MeldNew(tuple(rng.sample(pack, rules.hand_size + 1))))
            new_deals = tuple(d for d in deals if d.player != who)
        else:
            first, last = acts[0], acts[-1]
            k = next((k for k, a in enumerate(acts) if type(a) is MeldNew), 0)
            meld = acts[k]
            if not k or not isinstance(last, Discard) or not isinstance(meld, MeldNew):
                continue
            if not isinstance(first, Draw | Take) or meld.cards[-1] == first.card:
                continue
            foul = (*meld.cards[:-1], last.card)  # his discard and a card of the meld change places
            if rules.laid(foul) is not None:
                continue
            new_deals = tuple(deals)
            if kind is Irregularity.I2_CALLED_LATE:
                number = _melds_before(events[:j], who) + sum(1 for a in acts[:k] if type(a) is MeldNew) + 1
                acts[k] = MeldNew(foul, line=meld.line, col=meld.col)
                acts[-1] = Discard(meld.cards[-1], last.line, last.col)
                changed = Turn(who, tuple(acts), turn.number, turn.line, turn.col)
                yield from _called_late(script, [*events[:j], changed, *events[j + 1 :]], j, number, rng)
                continue
            if kind is Irregularity.I2_FOUND:
                acts[k] = MeldNew(foul, line=meld.line, col=meld.col)
                acts[-1] = Discard(meld.cards[-1], last.line, last.col)
            else:  # the foul meld is put right at once and the hand goes on as played
                number = _melds_before(events[:j], who) + sum(1 for a in acts[:k] if type(a) is MeldNew) + 1
                laid = MeldNew(foul, rng.randint(1, 3), meld.line, meld.col)
                value = rules.laid(meld.cards)
                claim = None if value is None else rules.change_value(0, value.value)  # the meld as made good
                mended = kind is Irregularity.I2_MENDED  # (else I2_TAKEN_BACK)
                fix: Action = Mend(number, meld.cards, claim) if mended else TakeBack(number)
                acts[k : k + 1] = [laid, fix] if mended else [laid, fix, meld]
                yield replace(
                    script,
                    events=(*events[:j], Turn(who, tuple(acts), turn.number, turn.line, turn.col), *events[j + 1 :]),
                )
                continue
        rest = [
            e
            for e in events[j + 1 :]
            if not (type(e) is Turn and e.player == who) and not (type(e) is Force and who in (e.player, e.other))
        ]
        changed = Turn(who, tuple(acts), turn.number, turn.line, turn.col)
        yield replace(script, deals=new_deals, events=(*events[:j], changed, *rest))


def _stayed(events: list[Event]) -> list[str]:
    return [e.player for e in events if type(e) is Decision and e.stay]


def _without_after(events: list[Event], at: int, who: str) -> list[Event]:
    """``events[at:]`` less the lines of ``who`` (a turn, a force by or on him): he retired at ``at``."""
    return [
        e
        for e in events[at:]
        if not (type(e) is Turn and e.player == who) and not (type(e) is Force and who in (e.player, e.other))
    ]


def _late(events: list[Event], after: int, who: str, rng: random.Random) -> int | None:
    """Where a late call or count of ``who`` goes: after his next turn line when there is one
    before the hand's last line, else after a line chosen between ``after`` and the last."""
    last = len(events) - 1
    if after >= last:
        return None
    turns = [i for i in range(after, last) if isinstance(e := events[i], Turn) and e.player == who]
    nxt = turns[0] if turns else None
    return nxt + 1 if nxt is not None and rng.random() < 0.7 else rng.randrange(after, last) + 1


def _called_late(
    script: HandScript, events: list[Event], j: int, number: int, rng: random.Random
) -> Iterator[HandScript]:
    """``events`` (turn ``j`` lays a foul meld, ``#number``) with a call of it by another player who
    stayed, some lines later; the offender's lines after the call are left out (he retires there)."""
    turn = events[j]
    assert isinstance(turn, Turn)
    who = turn.player
    callers = [p for p in _stayed(events) if p != who]
    for _ in range(3):  # (leaving his later lines out can break another's: try other places)
        at = _late(events, j + 1, who, rng)
        if not callers or at is None:
            return
        call = Call(rng.choice(callers), who, number)
        yield replace(script, events=(*events[:at], call, *_without_after(events, at, who)))


def _counted_late(
    script: HandScript, deals: list[Deal], events: list[Event], rng: random.Random, rules: PanRules
) -> Iterator[HandScript]:
    """A deal of eleven cards that no one sees at the deal, found by a count of that player some
    lines after the first turn (I1); his lines after the count are left out (he retires there)."""
    first = next((i for i, e in enumerate(events) if type(e) is Turn), None)
    if first is None:
        return
    pack = rules.pack_cards()
    order = list(range(len(deals)))
    rng.shuffle(order)
    stayed = _stayed(events)
    for i in order:
        d = deals[i]
        callers = [p for p in stayed if p != d.player]
        if d.player not in stayed or not callers:
            continue
        extra = rng.choice(pack)
        dealt = Deal(d.player, (*d.cards, extra), d.line, d.col)
        for _ in range(3):  # (leaving his later lines out can break another's: try other places)
            at = _late(events, first + 1, d.player, rng)
            if at is None:
                break
            count = Count(rng.choice(callers), d.player)
            yield replace(
                script,
                deals=(*deals[:i], dealt, *deals[i + 1 :]),
                events=(*events[:at], count, *_without_after(events, at, d.player)),
            )
