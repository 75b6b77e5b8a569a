"""Rule family: melds, additions, borrowing and splitting (M1-M6, C1-C7, P6, I2).

* M1-M5 are judged by the meld engine (:func:`pancli.melds.judge`, :func:`pancli.melds.grow`,
  through the per-profile cache :class:`~pancli.panrules.PanRules`); a meld it refuses is
  a foul meld, :func:`foul_meld_ruling`;
* M6, one judge a question: :func:`borrowing_allowed_fault` (allowed by the house rules),
  :func:`borrow_fault` (one card off a rope end or a set of four or more, never lowering a value),
  :func:`split_fault` (every card of the meld, and hand cards added), :func:`borrowed_card_fault` and
  :func:`unused_borrow_fault` (a borrowed card completes a new meld this turn, nothing else);
* C1-C6 are the values of a laid meld (:class:`~pancli.panrules.LaidMeld`), paid by each of the
  table's payers (:meth:`.Board.payers`) when it is laid (:func:`collect_laid`); C7
  :func:`lowered_value_fault` (a change never lowers a value; the gain of a change is paid:
  :func:`collect_change`);
* P6 :func:`own_melds_fault` (a player changes only his own melds, numbered as the table sees them:
  :meth:`.Board.meld_count`, :func:`meld_index`);
* I2 :func:`foul_meld_ruling` (a foul meld or addition), :func:`foul_first` (put right before any other change),
  made good by :func:`verify_mend`, taken back by :func:`verify_back`.

Where the cards of a meld action come from (the drawn card, borrowed cards, the hand) is a
frozen :class:`CardPlan` (:func:`plan_cards`, E4 and P7); each ``verify_*`` returns a frozen
plan that its ``apply_*`` uses.
"""

from __future__ import annotations

from collections.abc import Iterable

from pancli.cards import ALL_CARDS, Card, format_cards
from pancli.decides import decides
from pancli.melds import EngineRule, MeldError, Rope
from pancli.model.actions import Add, Borrow, Discard, MeldNew, Mend, Split, TakeBack, Turn
from pancli.model.results import HAND, MELD, ClaimCheck, ClaimKind, Payment, Violation
from pancli.model.rulings import I2_FOUL, Ruling, counted
from pancli.panrules import LaidMeld
from pancli.referee.board import Board, Located, Place
from pancli.referee.deal import beyond_hand, card_fault, deal_count_fault
from pancli.referee.irregular import give_back, lay_foul, settled
from pancli.referee.state import Foul, Seat
from pancli.rulebook import Rule
from pancli.values import Value


class CardPlan(Value):
    """Where the cards of a meld action come from: the drawn card (``pending``), cards
    borrowed this turn, known hand cards (by index) and unseen ones (by index)."""

    pending: bool
    borrowed: tuple[Card, ...]
    hand_need: tuple[tuple[int, int], ...]
    hand_total: int
    unknown_need: int
    unseen: tuple[tuple[int, int], ...]


class MeldPlan(Value):
    """A verified new meld or addition: its cards' plan and the meld as laid afterwards."""

    cards: CardPlan
    laid: LaidMeld


class FoulPlan(Value):
    """A foul meld or addition laid where the referee puts irregularities right (I2): its cards'
    plan and the ruling, applied by :func:`~pancli.referee.irregular.lay_foul`."""

    cards: CardPlan
    violation: Violation


class MendPlan(Value):
    """A verified ``mend #N [cards]`` (I2): the foul meld or addition, the legal meld it
    becomes, the hand cards it takes (their plan) and the cards it gives back to the hand."""

    foul: Foul
    laid: LaidMeld
    take: tuple[Card, ...]
    cards: CardPlan
    give: tuple[Card, ...]


class BorrowPlan(Value):
    """A verified borrow: what is left of the source meld."""

    rest: LaidMeld


class SplitPlan(Value):
    """A verified split: the hand cards added and the two melds it makes."""

    cards: CardPlan
    added: tuple[Card, ...]
    parts: tuple[LaidMeld, LaidMeld]


def plan_cards(b: Board, cards: tuple[Card, ...], node: Located, *, borrowed: bool) -> CardPlan:
    """Where each card comes from: the drawn card, borrowed cards, the hand (E4 by
    :func:`~pancli.referee.deal.beyond_hand` and
    :func:`~pancli.referee.deal.card_fault`; unseen cards beyond those held: I1 by
    :func:`~pancli.referee.deal.deal_count_fault`);
    raises Ruling."""
    s = b.seat
    assert s is not None
    pending = b.pending if not b.pending_used else None
    uses_pending = False
    left = list(b.borrowed) if borrowed else []
    took: list[Card] = []
    need: dict[int, int] = {}
    for c in cards:
        if pending is not None and c == pending:
            uses_pending = True
            pending = None
        elif left and c in left:
            left.remove(c)
            took.append(c)
        else:
            i = c.index
            need[i] = need.get(i, 0) + 1
    unknown_need = 0
    unseen: list[tuple[int, int]] = []
    for i, extra in beyond_hand(s.hand, need):
        c = ALL_CARDS[i]
        r = borrowed_card_fault(b, node, c) if not borrowed and s.unknown == 0 else None
        r = r or card_fault(b, c, node, extra, holder=s)
        if r is not None:
            raise r
        unknown_need += extra
        unseen.append((i, extra))
    if unknown_need:
        r = deal_count_fault(b, node, unseen=unknown_need)
        if r is not None:
            raise r
    return CardPlan(uses_pending, tuple(took), tuple(need.items()), sum(need.values()), unknown_need, tuple(unseen))


def use_plan(b: Board, cards: tuple[Card, ...], plan: CardPlan) -> None:
    """Move the cards of a verified meld action out of where :func:`plan_cards` found them."""
    s = b.seat
    assert s is not None
    for c in plan.borrowed:
        b.borrowed.remove(c)
    if plan.unknown_need:
        seen = b.seen
        for i, n in plan.unseen:
            seen[i] += n
        s.unknown -= plan.unknown_need
    move_to_meld(b, s, cards, plan.pending, plan.borrowed, plan.hand_need, plan.hand_total)


def move_to_meld(
    b: Board,
    s: Seat,
    cards: tuple[Card, ...],
    pending: bool,
    borrowed: tuple[Card, ...],
    need: Iterable[tuple[int, int]],
    total: int,
) -> None:
    """The cards of a meld action leave the drawn card (``pending``: it is used), the cards
    borrowed this turn and the hand (``need``: copies by card index, ``total`` of them, unseen
    ones counted in as held): :func:`use_plan` and the referee's fast meld turn move them so."""
    if pending:
        b.pending_used = True
        b.must_add = False
    hand = s.hand
    for i, n in need:
        h = hand[i]
        hand[i] = h - n if h > n else 0
    s.hand_n -= total
    s.melded_n += len(cards)  # borrowed cards left the melded count when borrowed
    if total:
        b.hand_melded = True
        for f in b.fouls:  # (P4 after a foul meld is taken back)
            f.later = True
    if b.steps is not None:
        moves = b.moves
        pend = b.pending
        src_pending = pending
        bor = list(borrowed)
        for c in cards:
            if src_pending and c == pend:
                moves.append((c, b.pending_src, MELD))
                src_pending = False
            elif bor and c in bor:
                bor.remove(c)
                moves.append((c, MELD, MELD))
            else:
                moves.append((c, HAND, MELD))


@decides(Rule.I2, what="how a foul meld or addition is ruled: put right under I2, or stopped at")
def foul_meld_ruling(
    b: Board, rule: EngineRule | Rule, reason: str, node: Located, *, addition: bool = False, player: str | None = None
) -> Ruling:
    """I2: a foul meld or addition (``node`` an addition, or ``addition``; the meld engine's
    ``rule`` and reason), made good as I2 prescribes.
    Where the referee puts irregularities right (:attr:`Board.remedy`) the ruling cites I2 and
    names the broken rule; stopping at it (``--strict``), it cites the broken rule. With
    ``rule`` I2: a ``mend`` or ``back`` with no foul meld to put right, a call naming none, or a
    foul meld found at a call (``reason``; ``player``: whose it is, default the player in turn)."""
    if rule == Rule.I2:
        return b.fail(Rule.I2, reason, node, ruling=I2_FOUL, player=player)
    what = "foul addition" if addition or type(node) is Add else "foul meld"
    if b.remedy:
        return b.fail(Rule.I2, f"{what}: {reason} ({rule})", node, ruling=I2_FOUL)
    return b.fail(Rule(rule), f"{what} (I2): {reason}", node)  # the ruling of the rule cited


def _foul_of_turn(b: Board, n: int, node: Mend | TakeBack) -> Foul:
    """The foul meld ``#n`` of this turn, or the foul addition to ``#n``, that ``node`` makes
    good or takes back; raises I2."""
    s = b.seat
    assert s is not None
    for f in b.fouls:
        if f.number == n:
            return f
    what = "make good" if type(node) is Mend else "take back"
    raise foul_meld_ruling(b, Rule.I2, f"{s.name} has no foul meld #{n} laid this turn to {what}", node)


def meld_index(b: Board, n: int) -> int | None:
    """Where the table's ``#n`` (his melds in the order laid, a foul new meld of the turn among
    them while it lies there) is among the player's legal melds; None for a foul new meld."""
    k = n - 1
    for f in b.fouls:
        if f.base is None:
            if f.number == n:
                return None
            if f.number < n:
                k -= 1
    return k


def foul_first(b: Board, n: int, node: Add | Borrow | Split) -> Ruling | None:
    """I2: a meld that is foul (a foul new meld, or one with a foul addition) is made good or
    taken back before anything else changes it."""
    for f in b.fouls:
        if f.number == n:
            what = "a foul meld" if f.base is None else f"a foul addition ({format_cards(f.added)})"
            return foul_meld_ruling(
                b, Rule.I2, f"#{n} is {what}: make it good (mend #{n}) or take it back (back #{n}) first", node
            )
    return None


def _less(cards: tuple[Card, ...], minus: tuple[Card, ...]) -> tuple[Card, ...]:
    """``cards`` less one copy of each card of ``minus`` that it holds (multisets)."""
    left = list(cards)
    for c in minus:
        if c in left:
            left.remove(c)
    return tuple(left)


def verify_mend(b: Board, a: Mend) -> MendPlan:
    """I2 made good: ``#N`` is a foul new meld of this turn and ``cards`` a legal meld (M1-M5),
    or ``#N`` had a foul addition and ``cards`` are the whole meld, every card it held before
    the addition and a legal addition (M5, C7); the cards it adds held (E4, I1), those it
    leaves go back to the hand; raises Ruling."""
    f = _foul_of_turn(b, a.target, a)
    if f.base is None:
        laid = b.rules.laid(a.cards)
        if laid is None:
            raise _foul(b, a.cards, a)
    else:
        missing = _less(f.base.cards, a.cards)
        if missing:
            reason = f"mend #{a.target} keeps every card #{a.target} held before the addition"
            raise foul_meld_ruling(b, Rule.I2, f"{reason} ({format_cards(missing)} missing)", a)
        added = _less(a.cards, f.base.cards)
        if not added:
            raise foul_meld_ruling(
                b,
                Rule.I2,
                f"mend #{a.target} adds nothing to #{a.target}: take the addition back (back #{a.target})",
                a,
            )
        grown = b.rules.grown(f.base, added)
        if isinstance(grown, MeldError):
            raise foul_meld_ruling(b, grown.rule, grown.reason, a, addition=True)
        laid = grown
    take = _less(a.cards, f.cards)
    plan = plan_cards(b, take, a, borrowed=False)
    return MendPlan(f, laid, take, plan, _less(f.cards, a.cards))


def _back_to_hand(b: Board, s: Seat, cards: tuple[Card, ...], f: Foul) -> None:
    """``cards`` leave the foul meld ``f`` for the hand; the drawn card among them is the unused
    draw again (P2: it never joins the hand), and a card borrowed for it is a borrowed card of
    the turn again (M6: it may still only complete a new meld)."""
    drawn = b.pending if f.pending and b.pending in cards else None
    borrowed = list(f.borrowed)
    for c in cards:
        if drawn is not None and c == drawn:
            b.pending_used = False
            drawn = None
            if b.steps is not None:
                b.moves.append((c, MELD, b.pending_src))
            continue
        if c in borrowed:
            borrowed.remove(c)
            b.borrowed.append(c)
            if b.steps is not None:
                b.moves.append((c, MELD, MELD))
            continue
        s.hand[c.index] += 1
        s.hand_n += 1
        if b.steps is not None:
            b.moves.append((c, MELD, HAND))
    s.melded_n -= len(cards)


def apply_mend(b: Board, a: Mend, plan: MendPlan) -> list[Payment]:
    """The foul meld becomes the legal one, with no penalty (I2): what the table paid for the
    foul meld goes back, and the meld is paid as laid (C1-C6) as a new meld, or a foul
    addition made good as an addition, its gain over the meld before it (C7). The mend's
    ``[%pays N]`` claim is checked against that payment."""
    s = b.seat
    assert s is not None
    f = plan.foul
    base = f.base
    returns = give_back(b, f, a.line)
    use_plan(b, plan.take, plan.cards)
    _back_to_hand(b, s, plan.give, f)
    if base is None:
        earlier = sum(1 for g in b.fouls if g.base is None and g.number < f.number)
        s.melds.insert(f.number - 1 - earlier, plan.laid)  # where the table sees it
        paid = collect_laid(b, s, MeldNew(a.cards, a.claim, a.line, a.col), plan.laid)
        what = f"{s.name} makes #{f.number} good as [{format_cards(a.cards)}]"
        foul = "foul meld"
    else:
        k = meld_index(b, f.number)
        assert k is not None
        s.melds[k] = plan.laid
        grows = Add(_less(a.cards, base.cards), f.number, a.claim, line=a.line, col=a.col)
        paid = collect_change(b, s, grows, plan.laid.value - base.value, plan.laid.cards)
        what = f"{s.name} makes the addition to #{f.number} good as [{format_cards(a.cards)}]"
        foul = "foul addition"
    s.fit_mask = -1
    what += f" at line {a.line}: no penalty"
    settled(b, f, what + (f"; what the {foul} collected is returned" if returns else ""), returns)
    return returns + paid


def verify_back(b: Board, a: TakeBack) -> Foul:
    """I2 taken back: ``#N`` is a foul meld or addition of this turn (one left lying since an
    earlier turn, he has discarded since: it can only be made good); raises Ruling."""
    f = _foul_of_turn(b, a.target, a)
    if f.earlier:
        why = f"#{a.target} was laid in an earlier turn and {f.violation.player} has discarded since"
        raise foul_meld_ruling(b, Rule.I2, f"{why}: it can only be made good (mend #{a.target})", a)
    return f


def apply_back(b: Board, a: TakeBack, f: Foul) -> list[Payment]:
    """The foul meld's cards go back to the hand (a foul addition's: its meld stays as it was)
    and what it collected is returned; he goes on with his turn legally (I2)."""
    s = b.seat
    assert s is not None
    returns = give_back(b, f, a.line)
    _back_to_hand(b, s, f.added, f)
    if not f.later:
        b.hand_melded = f.before  # as if it had not been laid (P4)
    paid = sum(p.units for p in returns)
    what = f"{s.name} takes #{f.number} back at line {a.line}" + (
        f" and returns the {counted(paid, 'unit')} it collected" if returns else ""
    )
    settled(b, f, what + "; the turn goes on", returns)
    if f.base is None:  # it leaves the table: the melds laid after it move up one
        for g in b.fouls:
            if g.number > f.number:
                g.number -= 1
    return returns


def owns(n: int, melds: int) -> bool:
    """P6: ``#n`` is one of the player's own ``melds`` (numbered from 1 in the order laid)."""
    return 1 <= n <= melds


@decides(Rule.P6, what="whether a changed meld is one of the player's own")
def own_melds_fault(b: Board, n: int, node: Add | Borrow | Split) -> Ruling | None:
    """P6: a player changes only his own melds (``#n`` is one of them, as the table counts
    them: :meth:`.Board.meld_count`); the ruling is placed at the ``#N`` where the reader read it
    (``node.number_at``)."""
    s = b.seat
    assert s is not None
    count = b.meld_count(s)
    if owns(n, count):
        return None
    have = f"has {counted(count, 'meld')}" if count else "has no meld"
    return b.fail(Rule.P6, f"{s.name} {have}: no #{n} to change", Place(node.line, node.col + node.number_at))


def _index(b: Board, n: int) -> int:
    """The index among the player's legal melds of his legal meld ``#n`` (P6 and
    :func:`foul_first` have allowed the change)."""
    k = meld_index(b, n)
    assert k is not None
    return k


def lowered_value_fault(
    b: Board, node: Add | Split, *, error: MeldError | None = None, old: int = 0, new: int = 0
) -> Ruling | None:
    """C7: a change may not lower a meld's value (the engine's ``error`` for an addition, the
    values ``old`` and ``new`` for a split)."""
    if type(node) is Add:
        if error is None or error.rule != Rule.C7:
            return None
        return b.fail(Rule.C7, f"adding {format_cards(node.cards)} to #{node.target}: {error.reason}", node)
    if b.rules.keeps_value(old, new):
        return None
    assert isinstance(node, Split)
    return b.fail(Rule.C7, f"the split would lower #{node.target}'s value from {old} to {new}", node)


def _without(cards: tuple[Card, ...], c: Card, *, rope: bool) -> tuple[Card, ...] | None:
    """``cards`` less one copy of ``c`` (for a rope, only off an end), or None."""
    if rope:
        if cards[0] == c:
            return cards[1:]
        if cards[-1] == c:
            return cards[:-1]
        return None
    if c not in cards:
        return None
    i = cards.index(c)
    return cards[:i] + cards[i + 1 :]


@decides(Rule.M6, what="whether the house rules allow borrowing and splitting")
def borrowing_allowed_fault(b: Board, node: Borrow | Split) -> Ruling | None:
    """M6: borrowing and splitting are allowed by the house rules (the ``borrowing`` knob)."""
    if b.profile.borrowing:
        return None
    what = "borrowing" if type(node) is Borrow else "splitting"
    return b.fail(Rule.M6, f"{what} is not allowed under {b.profile.name}", node)


def borrow_fault(b: Board, node: Borrow, target: LaidMeld) -> Ruling | None:
    """M6: a borrow takes one card off a rope end or a set of four or more (``target``: the meld
    borrowed from), leaving a meld of no lower value (C7: the rules object's ``keeps_value``)."""
    cards = target.cards
    if len(cards) < 4:
        return b.fail(Rule.M6, f"#{node.source} has {len(cards)} cards; borrowing needs 4 or more", node)
    rope = isinstance(target.meld, Rope)
    rest = _without(cards, node.card, rope=rope)
    if rest is None:
        where = "an end of" if rope else ""
        return b.fail(Rule.M6, f"{node.card} is not {where or 'in'} #{node.source} ({target})".replace("  ", " "), node)
    v = b.rules.judge(rest)
    if v.meld is None:
        return b.fail(Rule.M6, f"what is left of #{node.source} is no meld: {v.reason}", node)
    if not b.rules.keeps_value(target.value, b.rules.value(v.meld)):
        return b.fail(Rule.M6, f"borrowing {node.card} would lower the value of #{node.source}", node)
    return None


def split_fault(b: Board, node: Split, target: LaidMeld) -> Ruling | None:
    """M6: a split uses every card of ``target`` (the meld split) and adds hand cards."""
    left = list(target.cards)
    added = _split_added(node, left)
    if left:
        return b.fail(
            Rule.M6, f"the two melds must hold every card of #{node.target} ({format_cards(left)} missing)", node
        )
    if not added:
        return b.fail(Rule.M6, f"splitting #{node.target} adds cards from the hand", node)
    return None


def borrowed_card_fault(b: Board, node: Located, c: Card) -> Ruling | None:
    """M6: a card an addition or a split needs beyond the known hand (``c``) was not borrowed
    this turn: borrowed cards only complete a new meld."""
    if c not in b.borrowed:
        return None
    return b.fail(
        Rule.M6,
        f"{c} was borrowed this turn: a borrowed card may only complete a new meld, not be added to a meld or used"
        " in a split",
        node,
    )


def unused_borrow_fault(b: Board, node: Discard | Turn) -> Ruling | None:
    """M6: the cards borrowed this turn complete a new meld before the discard or the end of the turn."""
    if not b.borrowed:
        return None
    return b.fail(Rule.M6, f"borrowed {format_cards(b.borrowed)} completes no new meld", _unused_borrow(b, node))


def _split_added(a: Split, left: list[Card]) -> tuple[Card, ...]:
    """The cards of the two parts of ``a`` that are not in ``left`` (the meld split), which
    loses the cards the parts hold."""
    added: list[Card] = []
    for c in (*a.first, *a.second):
        if c in left:
            left.remove(c)
        else:
            added.append(c)
    return tuple(added)


def _unused_borrow(b: Board, node: Located) -> Located:
    """The last borrow before ``node`` in the turn whose card is still unused (M6), else ``node``."""
    found = node
    turn = b.turn
    for a in turn.actions if turn is not None else ():
        if a is node:
            break
        if type(a) is Borrow and a.card in b.borrowed:
            found = a
    return found


def pays(b: Board, a: MeldNew | Add | Split, name: str, claim: int, actual: int) -> ClaimCheck:
    """The check of the ``[%pays N]`` claim written after ``a``, placed at the claim."""
    cols = b.script.claim_cols
    col = cols.get((a.line, a.col), 1) if cols else 1
    return ClaimCheck(Rule.C7, ClaimKind.PAYS, a.line, name, claim, actual, col)


def laid_or_foul(b: Board, cards: tuple[Card, ...], node: Located) -> LaidMeld | Violation:
    """The meld ``cards`` make when laid (M1-M5 by the meld engine), or its foul (I2): raised
    when the referee stops at it, returned when it puts it right (:attr:`Board.remedy`)."""
    lm = b.rules.laid(cards)
    if lm is None:
        r = _foul(b, cards, node)
        if not b.remedy:
            raise r
        return r.violation
    return lm


def laid_or_raise(b: Board, cards: tuple[Card, ...], node: Located) -> LaidMeld:
    """The meld ``cards`` make when laid, or raise its foul (I2): a part of a split, which is
    not laid foul (the split is refused whole)."""
    lm = b.rules.laid(cards)
    if lm is None:
        raise _foul(b, cards, node)
    return lm


def _foul(b: Board, cards: tuple[Card, ...], node: Located) -> Ruling:
    v = b.rules.judge(cards)
    return foul_meld_ruling(b, v.rule or "M1", v.reason, node)


def verify_add(b: Board, a: Add) -> MeldPlan | FoulPlan | MendPlan:
    """An addition to his own meld (P6), its cards (E4, P7), the grown meld (M5, C7, I2); raises
    Ruling (a foul addition is returned to be put right where the referee does, I2)."""
    s = b.seat
    assert s is not None
    r = own_melds_fault(b, a.target, a)
    if r is None:
        corrected = _correction(b, a)
        if corrected is not None:
            return corrected
        r = foul_first(b, a.target, a)
    if r is not None:
        raise r
    plan = plan_cards(b, a.cards, a, borrowed=False)
    e = b.rules.grown(s.melds[_index(b, a.target)], a.cards)
    if isinstance(e, MeldError):
        r = lowered_value_fault(b, a, error=e) or foul_meld_ruling(b, e.rule, e.reason, a)
        if r.violation.rule != Rule.I2:
            raise r
        return FoulPlan(plan, r.violation)
    return MeldPlan(plan, e)


def as_mend(b: Board, a: Add) -> Mend:
    """The ``mend`` that an addition correcting the player's own foul ``#N`` amounts to (I2):
    the whole meld as it becomes."""
    f = next(f for f in b.fouls if f.number == a.target)
    return Mend(a.target, f.cards + a.cards, a.claim, a.number_at, a.line, a.col)


def _correction(b: Board, a: Add) -> MendPlan | None:
    """I2: an addition that makes the player's own foul meld (or foul addition) ``#N`` legal
    before anyone calls it is a correction, as ``mend``: no penalty. None when ``#N`` is not
    foul or stays foul."""
    f = next((f for f in b.fouls if f.number == a.target), None)
    if f is None:
        return None
    whole = f.cards + a.cards
    if f.base is None:
        if b.rules.laid(whole) is None:
            return None
    elif isinstance(b.rules.grown(f.base, f.added + a.cards), MeldError):
        return None
    return verify_mend(b, as_mend(b, a))


def apply_meld(b: Board, a: MeldNew, plan: MeldPlan | FoulPlan) -> list[Payment]:
    """Lay the new meld; each active opponent pays its value (C1-C6). A foul meld is laid as I2
    has it (:func:`~pancli.referee.irregular.lay_foul`)."""
    s = b.seat
    assert s is not None
    before = b.hand_melded
    use_plan(b, a.cards, plan.cards)
    if type(plan) is FoulPlan:
        return lay_foul(b, a, plan.violation, plan.cards.pending, plan.cards.borrowed, None, before)
    assert isinstance(plan, MeldPlan)
    return lay(b, s, a, plan.laid)


def lay(b: Board, s: Seat, a: MeldNew, lm: LaidMeld) -> list[Payment]:
    """The new meld ``lm`` lies among ``s``'s melds, its cards moved (:func:`use_plan`), and is
    paid (:func:`collect_laid`): :func:`apply_meld` and the referee's fast meld turn lay it so."""
    s.melds.append(lm)
    s.fit_mask = -1
    return collect_laid(b, s, a, lm)


def collect_laid(b: Board, s: Seat, a: MeldNew, lm: LaidMeld) -> list[Payment]:
    """Each active opponent of ``s`` pays the new meld ``lm`` its value (C6) under its
    conditions (C1-C5; a meld that is none is worth 0 and pays nothing), and its ``[%pays N]``
    claim is checked: :func:`apply_meld` and the referee's fast meld turn both pay through here."""
    if a.claim is not None:
        b.claims.append(pays(b, a, s.name, a.claim, lm.value))
    return b.collect(s, lm.value, lm.rules, a.line, lm.cards)


def apply_add(b: Board, a: Add, plan: MeldPlan | FoulPlan | MendPlan) -> list[Payment]:
    """Grow the meld; the gain is paid (C7). A foul addition is laid as I2 has it; an addition
    that makes a foul meld legal makes it good (I2, :func:`apply_mend`)."""
    s = b.seat
    assert s is not None
    if type(plan) is MendPlan:
        return apply_mend(b, as_mend(b, a), plan)
    k = _index(b, a.target)
    old = s.melds[k]
    before = b.hand_melded
    use_plan(b, a.cards, plan.cards)
    if type(plan) is FoulPlan:
        return lay_foul(b, a, plan.violation, plan.cards.pending, plan.cards.borrowed, old, before)
    assert isinstance(plan, MeldPlan)
    return grow_to(b, s, a, k, plan.laid)


def grow_to(b: Board, s: Seat, a: Add, k: int, new: LaidMeld) -> list[Payment]:
    """``s``'s legal meld at index ``k`` becomes ``new``, the added cards moved
    (:func:`use_plan`), and its gain is paid (:func:`collect_change`): :func:`apply_add` and the
    referee's fast meld turn grow it so."""
    old = s.melds[k]
    s.melds[k] = new
    s.fit_mask = -1
    return collect_change(b, s, a, new.value - old.value, new.cards)


def collect_change(b: Board, s: Seat, a: Add | Borrow | Split, gain: int, cards: tuple[Card, ...]) -> list[Payment]:
    """Each active opponent of ``s`` pays the ``gain`` of a change to one of his melds (C7): an
    addition (:func:`apply_add`, and the referee's fast meld turn), a borrow or a split; the
    change's ``[%pays N]`` claim is checked (a borrow has none). ``cards`` are the meld's
    cards after the change (both parts of a split)."""
    if isinstance(a, Borrow):
        note = f"borrow from #{a.source}"
    else:
        note = f"split #{a.target}" if isinstance(a, Split) else f"#{a.target} grows"
        if a.claim is not None:
            b.claims.append(pays(b, a, s.name, a.claim, gain))
    return b.collect(s, gain, (Rule.C7,), a.line, cards, note)


def _own_meld_changed(b: Board, a: Borrow | Split, n: int) -> LaidMeld:
    """The player's meld ``#n`` that a borrow or a split changes, once M6 allows the move (the
    knob), P6 finds ``#n`` among his melds, and M6 allows it on that meld; raises Ruling."""
    s = b.seat
    assert s is not None
    r = borrowing_allowed_fault(b, a) or own_melds_fault(b, n, a) or foul_first(b, n, a)
    if r is None:
        target = s.melds[_index(b, n)]
        r = borrow_fault(b, a, target) if isinstance(a, Borrow) else split_fault(b, a, target)
    if r is not None:
        raise r
    return s.melds[_index(b, n)]


def verify_borrow(b: Board, a: Borrow) -> BorrowPlan:
    """A borrow (M6, P6); raises Ruling."""
    m = _own_meld_changed(b, a, a.source)
    rest = b.rules.laid(_without(m.cards, a.card, rope=isinstance(m.meld, Rope)) or ())
    assert rest is not None
    return BorrowPlan(rest)


def apply_borrow(b: Board, a: Borrow, plan: BorrowPlan) -> list[Payment]:
    """Take the card off the meld into the turn's borrowed cards; a gain is paid (C7)."""
    s = b.seat
    assert s is not None
    k = _index(b, a.source)
    old = s.melds[k]
    new = plan.rest
    s.melds[k] = new
    s.fit_mask = -1
    s.melded_n -= 1
    b.borrowed.append(a.card)
    if b.steps is not None:
        b.moves.append((a.card, MELD, MELD))
    return collect_change(b, s, a, new.value - old.value, new.cards)


def verify_split(b: Board, a: Split) -> SplitPlan:
    """A split (M6, P6), the hand cards it adds (E4, P7), two legal melds (M1-M5, I2) of no
    lower value (C7); raises Ruling."""
    m = _own_meld_changed(b, a, a.target)
    added = _split_added(a, list(m.cards))
    plan = plan_cards(b, added, a, borrowed=False)
    first = laid_or_raise(b, a.first, a)
    second = laid_or_raise(b, a.second, a)
    r = lowered_value_fault(b, a, old=m.value, new=first.value + second.value)
    if r is not None:
        raise r
    return SplitPlan(plan, added, (first, second))


def apply_split(b: Board, a: Split, plan: SplitPlan) -> list[Payment]:
    """Replace the meld by the two parts; the gain is paid (C7)."""
    s = b.seat
    assert s is not None
    k = _index(b, a.target)
    old = s.melds[k]
    use_plan(b, plan.added, plan.cards)
    first, second = plan.parts
    s.melds[k] = first
    s.melds.append(second)
    s.fit_mask = -1
    return collect_change(b, s, a, first.value + second.value - old.value, (*a.first, *a.second))
