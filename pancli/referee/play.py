"""The referee's rule families: each rule of play judged by one function here, and each line
applied, in the order a hand meets them (one module: each module a command loads costs
its start-up, benchmarks/README.md). :class:`~pancli.referee.table.Table` drives them
line by line on its :class:`~pancli.referee.board.Board`.

Rule family: seating and the deal (S1, S2, I1) and the cards of the pack (E1, E4).

Each rule is judged by one function here, which returns the :class:`Ruling` when the rule is
broken and None when it holds (the caller raises it, or a bulk path falls back). Each function
that rules under a rule carries its mark: ``@decides`` on the rule's decider, ``@answers`` on a
judge of one more question under it (:mod:`pancli.referee.deciders` lists them all):

* S1 :func:`seating_fault` (2 to 15 players, unique names) and :func:`seated_fault` (a player a
  line names is seated);
* S2 :func:`second_deal_fault` (each player is dealt once);
* I1 :func:`deal_fault` (the count dealt, as the rules object's ``dealt_right`` takes it) and
  :func:`unseen_cards_fault` (found later: more unseen cards laid than he holds);
* E1, E4 :func:`card_fault` (a card in the pack, never more copies than it holds (the
  comparison is :func:`pancli.cards.past_the_pack`, which ``pan pay`` asks too), never a card
  its holder does not hold; what a known hand lacks is :func:`beyond_hand`).

:func:`verify_deal` returns a frozen :class:`DealPlan` that :func:`apply_deal` uses.

>>> from pancli.model.actions import HandScript
>>> from pancli.referee.board import Board
>>> seating_fault(Board(HandScript(players=("Ana",)))).violation.message
'1 player seated; Panguingue seats 2 to 15'

Rule family: irregularities put right as a table puts them right (I1, I2).

The judges of the irregularities are :func:`.play.deal_fault` and :func:`.play.unseen_cards_fault`
(a wrong count, at the deal or shown later) and :func:`.play.foul_meld_ruling` (a foul meld; a foul addition,
:func:`.play.foul_addition_ruling`);
this module applies the remedy the rulebook prescribes and records it as a
:class:`~pancli.model.results.Remedy`, after which the hand goes on:

* I1 at the deal: :func:`remedy_deal` (the extras, the last cards dealt, go to the dead cards;
  a short hand is filled from the stock with cards the record does not show);
* I1 found later and I2 found after the discard: :func:`retire` (the player returns all he
  collected in the hand, his cards are dead, he plays no further turn and still pays others);
* I2 made good or taken back in the player's turn (``mend #N [...]``, ``back #N``): the judges
  and moves are :func:`.play.verify_mend` and :func:`.play.apply_mend` (and ``_back``), which
  give back what the foul meld collected (:func:`give_back`) and record it (:func:`settled`);
* the units moved under I1 and I2 (a foul meld's collection, the returns): :func:`transfer`,
  the one function that pays under them.

>>> from pancli.model.actions import HandScript
>>> from pancli.referee.board import Board
>>> b = Board(HandScript(players=("Ana", "Ben")))
>>> p = transfer(b, "Ben", "Ana", 2, Rule.I2, 9, None, PaidFor.FOUL_MELD)
>>> p.rule, b.ledger.net
('I2', {'Ana': 2, 'Ben': -2})
>>> back = give(b, p, Rule.I2, 11)
>>> back.payer, back.returned_of, back.paid_for, b.ledger.net
('Ana', 9, None, {'Ana': 0, 'Ben': 0})

Rule family: going out and settlement (P7, C8, I3, T2, the ledger claim).

* P7 :func:`ten_cards_fault` (hand plus melded cards is ten between turns),
  :func:`going_out_count_fault` (going out is the eleventh card melded, with no discard),
  :func:`not_out_fault` (``out`` with every card melded) and :func:`empty_hand_discard_fault` (a
  discard needs a card left);
* C8 :func:`go_out` (the going-out payment: the bonus plus the value of his melds);
* I3 :func:`closed_hand_fault` (nothing is heard after the hand is closed; a win stands before it).
  Whether and how the hand ends is the rules object's ``ending`` (:meth:`.PanRules.ending`):
  :func:`goes_out` asks it at the end of a turn, :func:`apply_reshuffle` at a reshuffle (P10) and
  :func:`retire` at a retirement (I1, I2); each records the answer with :meth:`.Board.end`;
* T2 :func:`pay_pot` (the winner collects the forfeits and the tops).

>>> from pancli.model.actions import HandScript
>>> from pancli.referee.board import Board
>>> closed_hand_fault(Board(HandScript(players=("Ana", "Ben"))), None, "Ana") is None
True

Rule family: the decision round and tops (T1, T2, T3, T4).

* T1 :func:`decision_order_fault` (each player decides once, in order of play) and
  :func:`undecided_play_fault` (no play before the round is over);
* T2 :func:`~pancli.referee.play.pay_pot` (settlement: the winner collects the forfeits and the tops);
* T3 :func:`on_top_fault` (a player who went on top takes no further part);
* T4 :func:`apply_decision` (everybody else on top: the one who stayed wins at once).

>>> from pancli.model.actions import Decision, HandScript
>>> from pancli.referee.board import Board
>>> b = Board(HandScript(players=("Ana", "Ben")))
>>> decision_order_fault(b, Decision("Ben", True)).violation.message
'Ana decides next in order of play, not Ben'

Rule family: turn order, the draw and the take (P1, P3, P10).

* P1 :func:`draw_first_fault` (a turn begins with one draw or take), :func:`out_of_turn_fault` (the
  player in turn plays) and :func:`drawless_turn_fault` (a turn ends having drawn or taken);
* P3 :func:`taken_card_fault` (only the live discard is taken) and :func:`unmelded_take_fault` (a
  taken card is melded at once);
* P10 :func:`empty_stock_fault` (a draw finds a card: an empty stock is rebuilt from the dead
  discards, :meth:`.Board.must_reshuffle`; with none the hand is void, :meth:`.Board.reshuffle_ends`),
  :func:`restocked_card_fault` (a card drawn after a reshuffle is one of the discards reshuffled),
  :func:`early_reshuffle_fault` (a reshuffle of an empty stock only) and :func:`void_hand_fault`
  (nothing is played in a void hand).

>>> from pancli.model.actions import Decision, HandScript, Turn
>>> from pancli.referee.board import Board
>>> from pancli.referee.play import apply_decision
>>> b = Board(HandScript(players=("Ana", "Ben")))
>>> apply_decision(b, Decision("Ana", True)); apply_decision(b, Decision("Ben", True))
>>> out_of_turn_fault(b, Turn("Ben", ())).violation.message
"it is Ana's turn, not Ben's"

Rule family: melds, additions, borrowing and splitting (M1-M6, C1-C7, P6, I2).

* M1-M5 are judged by the meld engine (:func:`pancli.melds.judge`, :func:`pancli.melds.grow`,
  through the per-profile cache :class:`~pancli.panrules.PanRules`); a meld it refuses is
  a foul meld, :func:`foul_meld_ruling`;
* M6, one judge a question: :func:`borrowing_allowed_fault` (allowed by the house rules),
  :func:`borrow_fault` (the rules object's :meth:`~pancli.panrules.PanRules.borrow`: one card off a
  rope end or a set of four or more, never lowering a value),
  :func:`split_fault` (the rules object's :meth:`~pancli.panrules.PanRules.split`: every card of the
  meld, and hand cards added), :func:`borrowed_card_fault` and
  :func:`unused_borrow_fault` (a borrowed card completes a new meld this turn, nothing else);
* C1-C6 are the values of a laid meld (:class:`~pancli.panrules.LaidMeld`), paid by each of the
  table's payers (:meth:`.Board.payers`) when it is laid (:func:`collect_laid`); C7
  :func:`lowered_value_fault` and :func:`lowered_split_fault` (an addition, a split never lowers a
  value; what laying or changing a meld collects is the rules object's ``change_value``, paid by
  :func:`collect_laid` and :func:`collect_change`);
* P6 :func:`own_melds_fault` (a player changes only his own melds, numbered as the table sees them:
  :meth:`.Board.meld_count`, :func:`meld_index`);
* I2 :func:`foul_meld_ruling` (a foul meld) and :func:`foul_addition_ruling` (a foul addition),
  made good by :func:`verify_mend`, taken back by :func:`verify_back`; one function a question:
  :func:`no_foul_fault` (a mend or back names a foul meld of the turn),
  :func:`foul_first_fault` (put right before any other change),
  :func:`mend_keeps_fault` and :func:`mend_adds_fault` (a foul addition made good keeps the meld and
  adds to it), :func:`earlier_foul_back_fault` (one left since an earlier turn is only made good),
  :func:`call_fault` (a call names a foul meld), :func:`stray_mend_fault` (a lone mend answers a call),
  :func:`found_at_call_ruling` (one left lying is found at its call).

Where the cards of a meld action come from (the drawn card, borrowed cards, the hand) is a
frozen :class:`CardPlan` (:func:`plan_cards`, E4 and P7); each ``verify_*`` returns a frozen
plan that its ``apply_*`` uses.

Rule family: calls and counts, ruled at the moment the record says they were made (I1, I2).

A ``call`` or a ``count`` is a line of its own, written where it was made; the lines before it
stand as played (docs/rules.md, "When an irregularity is found"):

* :func:`call_fault`, :func:`apply_call`: ``NAME call OTHER #N`` demands that OTHER's foul meld
  ``#N`` be made good. A foul meld left lying after its turn because a call of it comes later
  in the record is one of OTHER's :attr:`~pancli.referee.board.Seat.standing` fouls
  (:func:`stand_or_find`); at the call he makes it good on the next line (:func:`answer`) or
  retires under I2 (:func:`~pancli.referee.play.retire`), returning every collection of
  the hand. A call that names no foul meld is an I2 violation at the call.
* :func:`count_fault`, :func:`apply_count`: ``NAME count OTHER [N]`` counts OTHER's cards. A
  right count is noted; a wrong one is found there (I1): before the first draw it is put right
  as at the deal, after it OTHER retires. A count of a player retired or on top is an I1
  violation at the count.

The rulings come from the judges of the rule tables (:func:`.play.call_fault` for I2,
:func:`.play.count_call_fault` and :func:`.play.wrong_count_fault` for I1).

Rule family: the discard, forcing and the flat player (P2, P4, P5, P8, P9).

* P2 :func:`undiscarded_draw_fault` (the drawn card never joins the hand: used, or the discard) and
  :func:`unused_draw_at_end_fault` (not left unused at the end of the turn);
* P4 :func:`melding_gate_fault` (hand cards are melded only in a turn that uses the drawn card);
* P5 :func:`discard_fault` (the discard ends the turn) and :func:`undiscarded_turn_fault` (a player
  who used his draw ends his turn with a discard);
* P8, one judge a kind of line: :func:`forced_draw_fault`, asking the rules object's
  :meth:`~pancli.panrules.PanRules.must_take` (a forced live discard is taken, not a draw),
  :func:`forced_new_meld_fault` and :func:`unadded_force_fault` (and added to a meld, not laid in a
  new one nor left unused) and :func:`force_line_fault`, asking
  :meth:`~pancli.panrules.PanRules.may_force` (who may force whom);
* P9 :func:`flat_player_fault`, asking :meth:`~pancli.panrules.PanRules.must_keep_draw` (the draw
  that fits a flat next player's melds is kept) and its ``kept_draw`` (the excuse: a hand of nothing
  but copies of the draw).

What the discard that ends the turn must be, as the turn stands, is one question,
:func:`discard_due` (the position's :meth:`~pancli.referee.table.Table.discard_due`): the
discard's judges, positions and reviews ask it. :func:`verify_discard` returns a frozen
:class:`DiscardPlan` that :func:`apply_discard` uses.
The self-play generator asks the same two questions of the same rules object.

Between hands (S3): the winner of a hand is first hand in the next one.

A record lists each hand's players in order of play, the first hand first and the dealer
last (S1). When a hand has a winner who sits in the next hand of the same record, the next
hand lists him first; when it seats the same players, it lists them from the winner on, in
the same seating order (the player on the winner's left deals). When others left or joined,
only his place is known: first. A hand that breaks this is stopped before play, as any hand
is at its first violation: nothing is paid.

A winner who does not sit in the next hand, a hand with no winner (void, stopped by a
violation, unfinished) or a PAGRUC hand (G8 rules its deals) puts no constraint on the next.

>>> from pancli.model.actions import HandScript
>>> from pancli.model.results import HandResult
>>> from pancli.panrules import PanRules
>>> from pancli.rules import HOYLE
>>> rules = PanRules(HOYLE)
>>> last = HandResult(("Ana", "Ben", "Cy"), "Ben", (), {"Ana": -1, "Ben": 2, "Cy": -1})
>>> next_hand_violation(last, HandScript(players=("Ben", "Cy", "Ana")), rules) is None
True
>>> v = next_hand_violation(last, HandScript(players=("Cy", "Ana", "Ben"), first_line=12), rules)
>>> str(v.rule), v.line, v.col, v.player
('S3', 12, 1, 'Cy')
>>> v.message
'Ben won the last hand and is first hand in this one: the order of play is Ben Cy Ana, not Cy Ana Ben'
>>> next_hand_violation(last, HandScript(players=("Dee", "Ben", "Cy")), rules).message
'Ben won the last hand and is first hand in this one (Ana left, Dee joined): the order of play starts with Ben, not Dee'
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from pancli.cards import ALL_CARDS, Card, Game, format_cards
from pancli.decides import answers, decides
from pancli.melds import MeldError, Rope
from pancli.model.actions import (
    Action,
    Add,
    Borrow,
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
    Out,
    Reshuffle,
    Split,
    Take,
    TakeBack,
    Turn,
)
from pancli.model.results import (
    DEAD,
    DEAL,
    DISCARD_PILE,
    HAND,
    HOUSE,
    MELD,
    STOCK,
    ClaimCheck,
    ClaimKind,
    ClaimNotCompared,
    CountNotCompared,
    CountRight,
    HandResult,
    PaidFor,
    Payment,
    Remedy,
    Retirement,
    Ruling,
    Source,
    Step,
    Violation,
)
from pancli.panrules import LaidMeld, card_key
from pancli.referee.board import DECIDING, OUT, PLAYING, TOPS, VOID, Board, Foul, Place, Seat
from pancli.rulebook import I1_AT_DEAL, I1_LATE, I2_FOUL, Rule
from pancli.rules import (
    Ending,
    accounted_words,
    counted,
    not_in_pack_words,
    ordinal,
    seating_words,
    ten_words,
    wrong_deal_words,
)
from pancli.values import Value

if TYPE_CHECKING:
    from pancli.melds import EngineRule
    from pancli.panrules import Borrowing, PanRules, Splitting
    from pancli.referee.board import Located


class DealPlan(Value):
    """What a verified deal puts where: the dense card indices as written (:func:`card_key`)."""

    key: bytes


@answers(Rule.S1, what="whether a hand's table is seated: as many players as the rules object seats, each once")
def seating_fault(b: Board) -> Ruling | None:
    """S1, the seating: as many players as the rules object's ``seating`` takes (2 to 15), each
    seated once (``seated_twice``)."""
    names = b.players
    line = b.script.first_line
    why = b.rules.seating(len(names))
    if why is not None:
        return Ruling.make(Rule.S1, None, seating_words(why), line=line)
    dup = b.rules.seated_twice(names)
    if dup is not None:
        return Ruling.make(Rule.S1, dup, f"{dup} is seated twice; each player has one seat", line=line)
    return None


@answers(Rule.S1, what="whether a player a line names is seated")
def seated_fault(b: Board, player: str, node: Located, *, by: str | None = None) -> Ruling | None:
    """S1 for a player a line names: ``player`` is seated (the ruling charged to ``by``, default
    ``player``)."""
    if player in b.by_name:
        return None
    what = "is dealt cards but is not seated" if isinstance(node, Deal) else "is not seated"
    return b.fail(Rule.S1, f"{player} {what}", node, player=by or player)


@answers(Rule.S2, what="whether a player is dealt only once")
def second_deal_fault(b: Board, s: Seat, d: Deal) -> Ruling | None:
    """S2: a player is dealt once (his ten cards, the rules object's ``hand_size``, are still
    unseen and none is counted)."""
    dealt = b.hand_size
    if s.unknown == dealt and s.hand_n == dealt and not any(s.hand):
        return None
    return b.fail(Rule.S2, f"{d.player} is dealt twice", d, player=d.player)


def counted_later(b: Board, player: str) -> bool:
    """Whether a ``count`` of ``player`` is called in the hand: a wrong count at his deal is then
    found at the count, not at the deal (I1), where the referee puts irregularities right."""
    return b.remedy and any(type(ev) is Count and ev.other == player for ev in b.script.events)


@answers(Rule.I1, what="whether a deal line deals the count the rules object takes")
def deal_fault(b: Board, d: Deal) -> Ruling | None:
    """I1 at the deal: ``d`` deals a count the rules object's ``dealt_right`` takes (ten cards,
    S2). A wrong count waits for a count of the player called later (:func:`counted_later`)."""
    n = len(d.cards)
    if b.rules.dealt_right(n) or counted_later(b, d.player):
        return None
    return b.fail(
        Rule.I1, f"{d.player} is dealt {counted(n, 'card')}, not {b.hand_size}", d, player=d.player, ruling=I1_AT_DEAL
    )


@answers(Rule.I1, what="whether a player holds the unseen cards he lays, or was dealt more")
def unseen_cards_fault(b: Board, node: Located, unseen: int) -> Ruling | None:
    """I1 found after the first draw: the player in turn lays ``unseen`` cards from those the
    record never showed, and holds fewer of them: he was dealt more than ten."""
    s = b.seat
    assert s is not None
    if unseen <= s.unknown:
        return None
    dealt = b.hand_size
    return b.fail(
        Rule.I1,
        f"{s.name} lays {counted(unseen, 'unseen card')} but holds only {s.unknown}: more than {dealt} were dealt",
        node,
        ruling=I1_LATE,
    )


@answers(Rule.I1, what="whether a count line counts a player with cards to count")
def count_call_fault(b: Board, ev: Count) -> Ruling | None:
    """I1 at a ``count`` line, the call itself: the player counted has cards to count (he neither
    retired nor went on top), and a number given does not contradict the cards the record shows."""
    s = b.by_name[ev.other]
    if s.retired is not None:
        r = s.retired
        why = (
            f"{s.name} retired from the hand at line {r.line} ({r.rule}): the cards held are dead,"
            " there is nothing to count"
        )
    elif s.active is False:
        why = f"{s.name} went on top (T3): the cards held are dead, there is nothing to count"
    elif ev.number is not None and not s.unknown and ev.number != s.hand_n:
        why = f"the count finds {ev.number} in {s.name}'s hand, but the record shows {s.hand_n}"
    else:
        return None
    return b.fail(Rule.I1, why, ev, player=ev.player)


@answers(Rule.I1, what="whether a count finds the player holding ten in hand and melds")
def wrong_count_fault(b: Board, ev: Count) -> Ruling | None:
    """I1, what a ``count`` finds: the player counted holds ten in hand and melds (the rules
    object's ``holds_ten``, P7), the number given standing for his unseen hand; found wrong, he
    was dealt a wrong count (put right as at the deal before the first draw, else he retires)."""
    s = b.by_name[ev.other]
    held = s.hand_n if ev.number is None else ev.number
    if b.rules.holds_ten(held, s.melded_n) or (s.unknown and ev.number is None):
        return None
    melded = f" and {s.melded_n} melded" if s.melded_n else ""
    why = f"{ev.player}'s count finds {s.name} with {held} in hand{melded}: {held + s.melded_n}, not {b.hand_size}"
    return b.fail(Rule.I1, why, ev, player=s.name, ruling=I1_LATE if b.turn_no else I1_AT_DEAL)


@answers(Rule.E4, what="whether a card laid beyond a wholly known hand comes from nowhere")
def from_nowhere_fault(b: Board, holder: Seat, c: Card, node: Located, extra: int = 1) -> Ruling | None:
    """E4 for a player laying ``extra`` more copies of ``c`` than his known hand holds: when his
    whole hand is known (no unseen cards), the card comes from nowhere. With unseen cards, the
    copies come from them and are counted (:func:`card_fault`)."""
    if holder.unknown:
        return None
    held = holder.hand[c.index]
    times = "" if held == 0 else f" {held + extra} times (holds {held})"
    why = f"{holder.name} does not hold {c}{times}: a card cannot come from nowhere"
    return b.fail(Rule.E4, why, node, cause=b.taken_from_deal(holder, c))


@answers(Rule.E1, Rule.E4, what="whether a card becoming known is in the pack, no copy too many")
def card_fault(b: Board, c: Card, node: Located, extra: int = 1, *, player: str | None = None) -> Ruling | None:
    """E1 and E4 for ``extra`` more copies of ``c`` becoming known: a card of the pack, and no
    more copies than it holds."""
    i = c.index
    rules = b.rules
    copies = rules.copies[i]  # (copies_of's answers, asked once per card when the rules were built)
    if copies == 0:
        return b.fail(Rule.E1, not_in_pack_words(str(c), c.rank), node, player=player)
    if rules.past_the_pack(b.seen, ((i, extra),)) is not None:
        return b.fail(Rule.E4, accounted_words(c, copies), node, player=player)
    return None


def beyond_hand(hand: list[int], need: dict[int, int]) -> list[tuple[int, int]]:
    """E4 for a player's known ``hand`` (copies by :attr:`Card.index`): each card of ``need``
    (index -> copies he lays) with how many copies beyond his known hand it needs, in the order
    of ``need``; empty when he holds them all. The copies beyond come from his unseen cards or
    from nowhere (:func:`card_fault` with the holder).

    >>> hand = [0] * 52
    >>> hand[7] = 2
    >>> beyond_hand(hand, {7: 2}), beyond_hand(hand, {7: 3, 9: 1})
    ([], [(7, 1), (9, 1)])
    """
    return [(i, n - hand[i]) for i, n in need.items() if n > hand[i]]


def _first_excess(b: Board, key: bytes) -> tuple[int, int] | None:
    """The first card of ``key`` (and which copy of it) that :func:`card_fault` refuses, or None."""
    seen = b.seen
    need: dict[int, int] = {}
    for i in key:
        need[i] = need.get(i, 0) + 1
    past = b.rules.past_the_pack
    if past(seen, need.items()) is None:  # the whole deal at once: nothing is past the pack
        return None
    need.clear()
    counts = []
    for i in key:  # which copy, in the deal's order
        n = need[i] = need.get(i, 0) + 1
        counts.append((i, n))
    over = past(seen, counts)
    assert over is not None
    return over[0], over[1] - seen[over[0]]


def verify_deal(b: Board, d: Deal) -> DealPlan:
    """S1/S2 (a seated player, dealt once) and E1/E4 for the dealt cards; raises Ruling.
    The count (I1) is :func:`deal_fault`'s: a wrong count is put right, not refused."""
    r = seated_fault(b, d.player, d)
    if r is not None:
        raise r
    r = second_deal_fault(b, b.by_name[d.player], d)
    if r is not None:
        raise r
    key = card_key(d.cards)
    bad = _first_excess(b, key)
    if bad is not None:
        i, n = bad
        c = ALL_CARDS[i]  # charged to the dealt player at the n-th copy of c as written
        j = [k for k, x in enumerate(d.cards) if x == c][n - 1]
        r = card_fault(b, c, Place(*d.card_place(j)), n, player=d.player)
        assert r is not None
        raise r
    return DealPlan(key)


def apply_deal(b: Board, d: Deal, plan: DealPlan | None = None) -> None:
    """Put the dealt cards in the player's hand; a wrong count is put right as I1 prescribes
    (extras to the dead cards; a short hand filled from the stock with unseen cards)."""
    s = b.by_name[d.player]
    seen = b.seen
    hand = s.hand
    n = len(d.cards)
    key = plan.key if plan is not None else card_key(d.cards)
    # a wrong count found only at a later count: he holds what he was dealt until then (I1)
    dealt = b.hand_size
    keep = n if b.rules.dealt_right(n) or counted_later(b, d.player) else dealt
    for i in key[:keep]:
        seen[i] += 1
        hand[i] += 1
    for i in key[keep:]:  # I1: the extras are dead (seen, in nobody's hand)
        seen[i] += 1
    b.dead += d.cards[keep:]
    if b.steps is not None:
        if n <= keep:
            b.steps.append(d)  # each card to the hand: recorded whole (model.results.deal_step)
        else:
            moves = [(c, DEAL, HAND) for c in d.cards[:keep]]
            moves += [(c, DEAL, DEAD) for c in d.cards[keep:]]
            b.steps.append(Step(d.line, d.col, d.player, None, None, tuple(moves), ()))
    # The stock was counted as if ten went to each: extras dealt leave it shorter; a short
    # deal leaves it longer until the fill comes off it (I1, P10).
    b.stock_n -= n - dealt
    if keep == dealt:
        short = max(0, dealt - n)
        s.unknown = short
        b.stock_n -= short
        s.hand_n = dealt
    else:
        s.unknown = 0
        s.hand_n = s.size = n


def verify_upcard(b: Board) -> None:
    """E1/E4 for the upcard (S2); raises Ruling."""
    up = b.script.upcard
    if up is not None:
        r = card_fault(b, up, Place(b.script.upcard_line, b.script.upcard_col))
        if r is not None:
            raise r


def apply_upcard(b: Board) -> None:
    """The upcard starts the discard pile and is live for the first player to act (S2, P3)."""
    up = b.script.upcard
    b.pile.append(up)
    if up is not None:
        b.seen[up.index] += 1
        if b.steps is not None:
            b.steps.append(Step(b.script.upcard_line, 0, None, None, None, ((up, STOCK, DISCARD_PILE),), ()))


# ---------------------------------------------------------------------------
# Rule family: irregularities put right as a table puts them right (I1, I2).


def transfer(
    b: Board,
    payer: str,
    payee: str,
    units: int,
    rule: Rule,
    line: int,
    meld: tuple[Card, ...] | None,
    paid_for: PaidFor | None,
    returned_of: int | None = None,
) -> Payment:
    """``payer`` pays ``payee`` ``units`` under the irregularity's ``rule`` (I1 or I2): what the
    table paid for a foul meld on the player's word, or a return of what was collected at line
    ``returned_of``."""
    return b.ledger.pay(payer, payee, units, (rule,), line, meld, paid_for, returned_of)


def give(b: Board, p: Payment, rule: Rule, line: int) -> Payment:
    """The payee of ``p`` gives it back at ``line`` under ``rule`` (I1 or I2, :func:`transfer`): a
    return, which names the line of the collection returned (:attr:`Payment.returned_of`)."""
    return transfer(b, p.payee, p.payer, p.units, rule, line, p.meld, None, p.line)


def remedy_deal(b: Board, d: Deal, v: Violation) -> Remedy:
    """I1 at the deal, put right by :func:`.play.apply_deal`: record what was done."""
    n = len(d.cards)
    dealt = b.hand_size
    if n > dealt:
        extra = d.cards[dealt:]
        them = (
            f"card {extra[0]} (the last dealt) goes"
            if len(extra) == 1
            else f"cards {format_cards(extra)} (the last dealt) go"
        )
        what = f"the extra {them} to the dead cards"
    else:
        what = f"{d.player}'s hand is filled from the stock with {counted(dealt - n, 'card')} the record does not show"
    r = Remedy(v, f"{what}; play goes on")
    b.remedies.append(r)
    if b.steps is not None:
        b.steps.append(Step(v.line, v.col, d.player, r, None))
    return r


def lay_foul(
    b: Board,
    a: MeldNew | Add,
    v: Violation,
    pending: bool,
    borrowed: tuple[Card, ...],
    base: LaidMeld | None,
    before: bool,
) -> list[Payment]:
    """A foul meld or addition laid (I2): its cards left the hand (the caller moved them: the
    drawn card among them when ``pending``, the cards ``borrowed`` this turn that it used;
    ``before``: hand cards were melded earlier in the turn) and it is paid what the record says the table paid
    for it (``[%pays N]`` from each of :meth:`Board.payers`, none without a claim), until it is made
    good, taken back or found (:func:`retire`)."""
    s = b.seat
    assert s is not None
    if base is None:
        number = b.meld_count(s) + 1
        foul = Foul(number, v, a.cards, a.cards, pending, None)
    else:
        assert isinstance(a, Add)
        foul = Foul(a.target, v, base.cards + a.cards, a.cards, pending, base)
    foul.before = before
    foul.borrowed = borrowed
    b.fouls.append(foul)
    units = a.claim or 0
    if units > 0:
        why = PaidFor.FOUL_MELD if base is None else PaidFor.FOUL_ADDITION
        foul.payments = [transfer(b, o.name, s.name, units, Rule.I2, a.line, a.cards, why) for o in b.payers(s)]
    return foul.payments


def give_back(b: Board, foul: Foul, line: int) -> list[Payment]:
    """I2: what the table paid for ``foul`` goes back to each payer (it is made good or taken back)."""
    return [give(b, p, Rule.I2, line) for p in foul.payments]


def settled(b: Board, foul: Foul, what: str, returns: list[Payment]) -> Remedy:
    """Record ``foul`` put right in the player's turn (I2: made good or taken back; he goes on)."""
    b.fouls.remove(foul)
    r = Remedy(foul.violation, what, tuple(returns))
    b.remedies.append(r)
    return r


def collected(b: Board, name: str) -> list[Payment]:
    """What ``name`` has collected in the hand and still holds: every payment to him, less
    the returns made to him (a foul meld of another's given back is no collection of his) and
    less what he has already given back (a foul meld of his made good or taken back, I2).

    >>> from pancli.model.actions import HandScript
    >>> from pancli.referee.board import Board
    >>> b = Board(HandScript(players=("Ana", "Ben")))
    >>> paid = transfer(b, "Ben", "Ana", 3, Rule.I2, 9, None, PaidFor.FOUL_MELD)
    >>> back = give(b, paid, Rule.I2, 9)
    >>> collected(b, "Ana"), collected(b, "Ben")
    ([], [])
    """
    given_back: dict[tuple[str, int, tuple[Card, ...] | None, int], int] = {}
    for p in b.ledger.payments:
        if p.payer == name and p.returned_of is not None:
            key = (p.payee, p.units, p.meld, p.returned_of)
            given_back[key] = given_back.get(key, 0) + 1
    held: list[Payment] = []
    for p in b.ledger.payments:
        if p.payee != name or p.units <= 0 or p.returned_of is not None:
            continue
        key = (p.payer, p.units, p.meld, p.line)
        if given_back.get(key):
            given_back[key] -= 1
        else:
            held.append(p)
    return held


def retire(b: Board, s: Seat, v: Violation, node: Located) -> Remedy:
    """I1 found after the first draw, I2 found after the discard: ``s`` returns everything he
    collected in the hand (each return citing the rule) and the house its cut of it (a house
    rule's, :meth:`.Ledger.collect`), his hand and melds are dead, and he leaves the turn order
    until the next deal; he still pays others (:meth:`Board.collect`)."""
    rule = Rule.I1 if v.rule == Rule.I1 else Rule.I2
    line = node.line
    held = {id(p) for p in collected(b, s.name)}
    undone = [
        p
        for p in b.ledger.payments
        if id(p) in held or (p.payer == s.name and p.payee == HOUSE and p.returned_of is None)
    ]
    returns = [give(b, p, rule, line) for p in undone]
    moves: list[tuple[Card, Source, Source]] = []
    for i, n in enumerate(s.hand):
        moves += [(ALL_CARDS[i], HAND, DEAD)] * n
    for m in s.melds:
        moves += [(c, MELD, DEAD) for c in m.cards]
    in_turn = b.seat is s
    for f in (b.fouls if in_turn else []) + s.standing:
        moves += [(c, MELD, DEAD) for c in f.added]
    b.dead += [c for c, src, _ in moves]
    s.hand = [0] * 52
    s.hand_n = s.melded_n = s.unknown = 0
    s.melds = []
    s.fit_mask = -1
    s.retired = Retirement(s.name, v.rule, line)
    b.retirements.append(s.retired)
    s.standing = []
    if in_turn:
        b.fouls = []
    i = b.active.index(s)
    del b.active[i]
    b.retired.append(s)
    # the turn passes on to the player after him (between turns, b.pos is the next to play)
    if b.active and (i < b.pos or (in_turn and i == b.pos)):
        b.pos = (b.pos - 1) % len(b.active)
    elif b.active and b.pos >= len(b.active):
        b.pos = 0
    if b.rules.ending(len(b.active)) is VOID:  # nobody is left to play: won by nobody
        b.end(VOID, v.rule)
    total = sum(p.units if p.payer == s.name else -p.units for p in returns)  # less the house's cut given back
    gave = f"returns the {counted(total, 'unit')} collected in the hand" if returns else "had collected nothing"
    what = f"{s.name} {gave}; the cards held and melded are dead; retired from the hand, still paying others"
    r = Remedy(v, what, tuple(returns), True)
    b.remedies.append(r)
    if b.steps is not None:
        b.steps.append(Step(line, node.col, s.name, r, None, tuple(moves), tuple(returns)))
    return r


# ---------------------------------------------------------------------------
# Rule family: going out and settlement (P7, C8, I3, T2, the ledger claim).


@answers(Rule.I3, what="whether a line comes after the hand closed")
def closed_hand_fault(b: Board, node: Located | None, player: str | None = None) -> Ruling | None:
    """I3: once a player has gone out (or won under T4) the hand is closed: nothing is played or
    claimed after the end the rules object's ``ending`` (or ``after_decisions``) answered."""
    if not b.won():
        return None
    if b.out and b.seat is not None:
        return b.fail(Rule.I3, f"{b.seat_name} went out: the hand is closed", node)
    return b.fail(Rule.I3, f"the hand is closed: {b.winner} has won it", node, player=player)


def winner_stands(violations: Iterable[Violation]) -> bool:
    """I3: a win (C8, T4) stands when every violation came after it, in the closed hand."""
    return all(v.rule == Rule.I3 for v in violations)


def holds_ten(b: Board, s: Seat) -> bool:
    """P7: between turns, hand plus melded cards is exactly ten, or what he was dealt while a
    wrong count waits for the count that finds it (I1): the rules object's ``holds_ten``."""
    return b.rules.holds_ten(s.hand_n, s.melded_n, s.size)


@answers(Rule.P7, what="whether a player holds ten cards in hand and melds after his discard")
def ten_cards_fault(b: Board, turn: Turn) -> Ruling | None:
    """P7 at the end of a turn that discarded: the player in turn holds ten cards in hand and
    melds (unseen cards laid beyond those he holds show a wrong count: I1,
    :func:`.play.unseen_cards_fault`)."""
    s = b.seat
    assert s is not None
    if holds_ten(b, s):
        return None
    if b.rules.dealt_right(s.size):
        why = ten_words(s.name, s.hand_n, s.melded_n, s.size)
    else:
        why = wrong_deal_words(s.name, s.hand_n, s.melded_n, s.size)
    return b.fail(Rule.P7, why, turn)


@answers(Rule.P7, what="whether a card is left to discard after the draw was used")
def empty_hand_discard_fault(b: Board, d: Discard) -> Ruling | None:
    """P7 at a discard after the draw was used: a card is left to discard (with none, the
    player went out, as the rules object's ``ending`` answers)."""
    s = b.seat
    assert s is not None
    if b.pending_used and b.rules.ending(len(b.active), s.hand_n) is OUT:
        why = f"{s.name} has no card left to discard: with {s.size + 1} melded {s.name} went out"
        return b.fail(Rule.P7, why, d)
    return None


@answers(Rule.P7, what="whether an out line comes with every card melded")
def not_out_fault(b: Board, o: Out) -> Ruling | None:
    """P7 at ``out``: the draw used, nothing borrowed left over, every card melded (the rules
    object's ``ending``)."""
    s = b.seat
    assert s is not None
    if b.pending_used and not b.borrowed and b.rules.ending(len(b.active), s.hand_n) is OUT:
        return None
    left = f"{counted(s.hand_n, 'card')} in hand" if s.hand_n else "the drawn card unused"
    return b.fail(Rule.P7, f"{s.name} is not out: {left}", o)


@answers(Rule.P7, what="whether going out melds one card more than the ten held")
def going_out_count_fault(b: Board, node: Out | Turn) -> Ruling | None:
    """P7 going out (``out``, or a turn that ends without a discard): one card more is melded
    than the player held between turns, the eleventh of ten."""
    s = b.seat
    assert s is not None
    if b.rules.out_holds_ten(s.melded_n, s.size):
        return None
    going = ordinal(s.size + 1)
    return b.fail(Rule.P7, f"{s.name} has {counted(s.melded_n, 'card')} melded; going out is the {going}", node)


def goes_out(b: Board, s: Seat) -> bool:
    """Whether ``s``, in turn, goes out as his turn stands: his draw used, nothing discarded,
    and the rules object's ``ending`` answers that his hand ends it (P7, C8: the eleventh card
    melded). The end of the turn and what it must discard ask it; ``out`` must be true by it."""
    return not b.discarded and b.drew and b.pending_used and b.rules.ending(len(b.active), s.hand_n) is OUT


def go_out(b: Board, action: Out | None) -> None:
    """The player in turn goes out: the hand is won and closed (C8, I3); he collects the
    going-out payment from each active opponent and the pot (T2)."""
    s = b.seat
    turn = b.turn
    assert s is not None and turn is not None
    b.out = True
    b.end(OUT, Rule.C8, s)
    node = action if action is not None else turn
    line = node.line or turn.line
    value = b.going_out = b.rules.going_out_value([m.meld for m in s.melds])
    payments = b.collect(s, value.total, (Rule.C8,), line, (), PaidFor.GOING_OUT)
    payments += pay_pot(b, s, line, PaidFor.FORFEIT, PaidFor.TOP)
    b.step(turn, action, node, payments)


def pay_pot(b: Board, winner: Seat, line: int, forfeit: PaidFor, top: PaidFor) -> list[Payment]:
    """T2: forfeits of the players who went on top, and every other seated player's top, as the
    rules object says each owes the winner (:meth:`.PanRules.owes_winner`); ``forfeit`` and
    ``top`` say how he won (he went out, C8, or all the others went on top, T4)."""
    pay = b.ledger.pay
    owes = [(s, b.rules.owes_winner(s.active is False)) for s in b.seats if s is not winner]
    out = [pay(s.name, winner.name, f, (Rule.T2,), line, None, forfeit) for s, (f, _) in owes if f]
    out += [pay(s.name, winner.name, t, (Rule.T2,), line, None, top) for s, (_, t) in owes if t]
    return out


@decides(Rule.C9, what="whether a record's Ledger claim matches each player's net units")
def check_claims(b: Board, violations: Sequence[Violation] = ()) -> None:
    """Check the ``[Ledger]`` claim against the ledger (one ClaimCheck per player named).

    A hand stopped by a violation has no final ledger: the claim, about the whole hand, cannot
    be compared with the part played before the stop, and a note says so once."""
    claim = b.script.ledger_claim
    if claim is None:
        return
    if violations and not winner_stands(violations):
        v = violations[0]
        b.notes.append(ClaimNotCompared(claim.line, v.line, v.rule))
        return
    net = b.ledger.net
    for name, units in claim.units.items():
        b.claims.append(ClaimCheck(Rule.C9, ClaimKind.LEDGER, claim.line, name, units, net.get(name, 0)))


def result(b: Board, violations: list[Violation]) -> HandResult:
    """The hand's result so far."""
    b.ledger.check()
    stands = winner_stands(violations)
    ending, rule = (b.ending, b.ending_rule) if stands else (Ending.STOPPED, violations[0].rule)
    return HandResult(
        players=b.players,
        winner=b.winner if stands else None,
        payments=tuple(b.ledger.payments),
        ledger=dict(b.ledger.net),
        violations=tuple(violations),
        claims=tuple(b.claims),
        notes=tuple(b.notes),
        ending=ending,
        ending_rule=rule,
        stake=b.script.stake,
        recorded=tuple(b.steps) if b.steps is not None else (),
        remedies=tuple(b.remedies),
        retirements=tuple(b.retirements),
        decisions=tuple(s.active for s in b.seats),
        going_out=b.going_out,
    )


# ---------------------------------------------------------------------------
# Rule family: the decision round and tops (T1, T2, T3, T4).


@decides(Rule.T1, what="whether a decision comes in the round, in order (play before it ends: a judge of its own)")
def decision_order_fault(b: Board, d: Decision) -> Ruling | None:
    """T1 at a decision: it comes in the round, from the next player in order of play (a player
    who is not seated is S1's to judge)."""
    player = d.player
    if b.phase is not DECIDING:
        return b.fail(Rule.T1, f"{player} decides after the decision round", d, player=player)
    expected = b.seats[b.decided].name
    if player == expected or player not in b.by_name:
        return None
    return b.fail(Rule.T1, f"{expected} decides next in order of play, not {player}", d, player=player)


@answers(Rule.T1, what="whether the decision round is over at a line of play")
def undecided_play_fault(b: Board, node: Located, player: str | None = None) -> Ruling | None:
    """T1 at a line of play (``player``'s, if anybody's): the decision round is over."""
    if b.phase is not DECIDING:
        return None
    who = b.seats[b.decided].name
    return b.fail(Rule.T1, f"play before the decision round is over ({who} has not decided)", node, player=player)


@decides(Rule.T3, what="whether a player who went on top still takes part")
def on_top_fault(b: Board, s: Seat, node: Located) -> Ruling | None:
    """T3: a player who went on top takes no further part."""
    if s.active:
        return None
    return b.fail(Rule.T3, f"{s.name} went on top and takes no further part", node, player=s.name)


@answers(Rule.T4, what="how the round of decisions ends: the hand played, won or void, as the rules object says")
def apply_decision(b: Board, ev: Decision) -> None:
    """Record the decision; after the last one the hand is played, won (T4) or void, as the rules
    object's ``after_decisions`` answers."""
    s = b.seats[b.decided]
    s.active = ev.stay
    b.decided += 1
    if not ev.stay and b.steps is not None:
        for i, n in enumerate(s.hand):
            b.moves.extend([(ALL_CARDS[i], HAND, DEAD)] * n)
    payments: list[Payment] = []
    if b.decided == len(b.seats):
        b.active = [x for x in b.seats if x.active]
        after = b.rules.after_decisions(len(b.active))
        if after is TOPS:
            b.end(TOPS, Rule.T4, b.active[0])
            payments = pay_pot(b, b.active[0], ev.line, PaidFor.FORFEIT_T4, PaidFor.TOP_T4)
        elif after is VOID:
            b.end(VOID, Rule.T4)
        else:
            b.phase = PLAYING
            b.pos = 0
            b.live_ok = bool(b.pile)
            b.live = b.pile[-1] if b.pile else None
    b.step(ev, None, ev, payments)


# ---------------------------------------------------------------------------
# Rule family: turn order, the draw and the take (P1, P3, P10).

PAN_ACTIONS = frozenset({Draw, Take, MeldNew, Add, Borrow, Split, Mend, TakeBack, Discard, Out})
"""The actions of a Panguingue turn (P1)."""


@answers(Rule.P1, what="whether a turn line is by the player in turn")
def out_of_turn_fault(b: Board, turn: Turn) -> Ruling | None:
    """P1 before a turn line begins: it is the turn of the player in turn (one who retired plays
    no further turn)."""
    s = b.by_name[turn.player]
    if s is b.in_turn:
        return None
    if s.retired is not None:
        r = s.retired
        why = f"{turn.player} retired from the hand at line {r.line} ({r.rule}) and plays no further turn"
        return b.fail(Rule.P1, why, turn, player=turn.player, cause=b.retired_by(s))
    return b.fail(Rule.P1, f"it is {b.in_turn.name}'s turn, not {turn.player}'s", turn, player=turn.player)


@decides(Rule.P1, what="whether a turn begins with one draw or take, and no second (its player and end: a judge each)")
def draw_first_fault(b: Board, a: Action) -> Ruling | None:
    """P1 for each action of a turn: one of a Panguingue turn, the first a draw or a take, and
    no second one."""
    kind = type(a)
    if kind not in PAN_ACTIONS:
        return b.fail(Rule.P1, f"{kind.__name__.lower()} is not a Panguingue action", a)
    draw = kind is Draw or kind is Take
    if not b.drew and not draw:
        return b.fail(Rule.P1, f"{b.seat_name}'s turn begins with a draw or a take", a)
    if b.drew and draw:
        return b.fail(Rule.P1, "one draw or take per turn", a)
    return None


@answers(Rule.P1, what="whether a turn ends having drawn or taken")
def drawless_turn_fault(b: Board, turn: Turn) -> Ruling | None:
    """P1 at the end of a turn: it had its draw or take."""
    if b.drew:
        return None
    return b.fail(Rule.P1, f"{b.seat_name}'s turn has no draw or take", turn)


def plays_now(b: Board, player: str) -> bool:
    """The hand is being played (not closed, I3; not void, P10; decided, T1) and ``player`` is
    the active player in turn (S1, T3, P1): when this holds, no judge of a turn line's place
    (:func:`~pancli.referee.table.turn_fault`) finds anything, so they are asked only when it
    does not."""
    return b.phase is PLAYING and b.active[b.pos].name == player


@decides(Rule.P3, what="whether a taken card is the live discard, melded at once (a judge each)")
def taken_card_fault(b: Board, t: Take) -> Ruling | None:
    """P3 at a take: only the live discard may be taken (a card discarded from a hand is dead)."""
    if not b.live_ok:
        top = b.pile[-1] if b.pile else None
        what = "there is no discard" if not b.pile else f"the top discard {top or 'card'} is dead"
        return b.fail(Rule.P3, f"{what}: only the previous player's unused stock draw may be taken", t)
    if b.live is not None and t.card != b.live:
        return b.fail(Rule.P3, f"the live discard is {b.live}, not {t.card}", t)
    return None


@answers(Rule.P3, what="whether a taken card is melded at once, not discarded or left")
def unmelded_take_fault(b: Board, node: Discard | Turn) -> Ruling | None:
    """P3 at a discard or at the end of the turn (``node``): a taken card is melded at once (not
    discarded, not left unused)."""
    if b.pending_used or b.pending_src is not DISCARD_PILE:
        return None
    unused = ", not left unused" if type(node) is Discard else ""  # the words only: one question
    return b.fail(Rule.P3, f"the taken {b.pending} must be melded at once{unused}", node)


@answers(Rule.P10, what="whether anything is played in a hand a reshuffle found void")
def void_hand_fault(b: Board, node: Located, player: str | None = None) -> Ruling | None:
    """P10 at any line: nothing is played in a hand a reshuffle found void."""
    if b.ending is VOID:
        return b.fail(Rule.P10, "the hand is void: nothing more is played", node, player=player)
    return None


@decides(Rule.P10, what="whether a draw finds a card in the stock (void hand, card drawn, reshuffle: a judge each)")
def empty_stock_fault(b: Board, d: Draw) -> Ruling | None:
    """P10 at a draw: the stock holds a card (an empty one is rebuilt from the dead discards
    first; with none the hand is void)."""
    if not b.must_reshuffle():
        return None
    if b.reshuffle_ends() is not VOID:
        return b.fail(Rule.P10, "the stock is empty: the dead discards are reshuffled first", d)
    return b.fail(Rule.P10, "no card is left to draw: the hand is void", d)


@answers(Rule.P10, what="whether a card drawn after a reshuffle is one of the cards reshuffled")
def restocked_card_fault(b: Board, d: Draw) -> Ruling | None:
    """P10 at a draw after a reshuffle whose discards the record shows: the card drawn is one
    of them."""
    if b.restock is None or b.restock[d.card.index]:
        return None
    return b.fail(Rule.P10, f"{d.card} is not among the dead discards reshuffled into the stock", d)


@answers(Rule.P10, what="whether a reshuffle comes when the stock is empty")
def early_reshuffle_fault(b: Board, ev: Reshuffle) -> Ruling | None:
    """P10 at a reshuffle: the stock is empty (a reshuffle during play only)."""
    if b.phase is not PLAYING or b.must_reshuffle():
        return None
    return b.fail(Rule.P10, f"reshuffle while the stock still holds {counted(b.stock_n, 'card')}", ev)


def begin_turn(b: Board, turn: Turn) -> None:
    """Start the verified turn ``turn``."""
    b.turn_no += 1
    b.turn = turn
    b.seat = s = b.by_name[turn.player]
    b.fouls, s.standing = s.standing, []  # his foul melds left lying are his to make good (I2)
    b.pending = None
    b.pending_src = STOCK
    b.pending_used = False
    b.drew = False
    b.hand_melded = False
    b.discarded = False
    b.out = False
    b.must_add = False
    b.borrowed = []


def end_turn(b: Board) -> None:
    """Close the turn: going out when the hand is empty (C8), then the next player is in turn."""
    s = b.seat
    assert s is not None
    if not b.out and s.retired is None and goes_out(b, s):
        go_out(b, None)
    if b.pending is not None and not b.pending_used and not b.discarded:
        # non-strict repair of an unused draw: it becomes a dead discard
        b.pile.append(b.pending)
        b.live_ok = False
    b.forced_by = None
    next_in_turn(b)
    b.seat = None
    b.turn = None


def from_stock(b: Board, c: Card) -> None:
    """The stock gives ``c``, shown to all (P1; P10: one card fewer in it, and one fewer of the
    dead discards reshuffled into it)."""
    b.stock_n -= 1
    b.seen[c.index] += 1
    if b.restock is not None:
        b.restock[c.index] -= 1


def goes_live(b: Board, c: Card) -> None:
    """The unused stock draw ``c`` is discarded: the live discard for the next player (P2, P3)."""
    b.pile.append(c)
    b.live_ok = True
    b.live = c


def next_in_turn(b: Board) -> None:
    """The turn passes to the next active player (P1)."""
    if b.phase is PLAYING and b.active:
        b.pos = (b.pos + 1) % len(b.active)


def plain_turn(b: Board, c: Card) -> None:
    """A verified plain turn, ``draw C, discard C``, applied whole (the referee's fast turn): one
    turn more, the stock gives ``c``, it goes live and the next player is in turn, by the
    functions :func:`begin_turn`, :func:`apply_draw`, the unused draw's discard and
    :func:`end_turn` change the table by (a plain turn leaves no turn in progress to set up)."""
    b.turn_no += 1
    from_stock(b, c)
    goes_live(b, c)
    next_in_turn(b)


def apply_draw(b: Board, a: Draw) -> None:
    """The drawn card is shown and pending (P2)."""
    from_stock(b, a.card)
    b.pending = a.card
    b.pending_src = STOCK
    b.drew = True
    b.live_ok = False


def apply_take(b: Board, a: Take, must_add: bool) -> None:
    """The taken card is pending and must be melded at once (P3); ``must_add`` when P8 forces it."""
    if b.live is None:
        b.seen[a.card.index] += 1
    b.pile.pop()
    b.live_ok = False
    b.pending = a.card
    b.pending_src = DISCARD_PILE
    b.drew = True
    b.must_add = must_add


def apply_reshuffle(b: Board, ev: Reshuffle) -> None:
    """P10: the dead discards become the stock, or the hand is void as the rules object's
    ``ending`` answers (:meth:`.Board.reshuffle_ends`: with none left to reshuffle)."""
    if b.reshuffle_ends() is VOID:
        b.end(VOID, Rule.P10)
        b.step(ev, None, ev, [])
        return
    dead = b.reshuffled()
    seen = b.seen
    restock = [0] * 52
    for c in dead:
        if c is not None:
            seen[c.index] -= 1
            restock[c.index] += 1
            if b.steps is not None:
                b.moves.append((c, DISCARD_PILE, STOCK))
    b.restock = None if None in dead else restock  # an upcard not shown: the new stock is not known
    b.stock_n = len(dead)
    del b.pile[:-1]
    b.step(ev, None, ev, [])


# ---------------------------------------------------------------------------
# Rule family: melds, additions, borrowing and splitting (M1-M6, C1-C7, P6, I2).


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
    plan and the ruling, applied by :func:`~pancli.referee.play.lay_foul`."""

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
    :func:`~pancli.referee.play.beyond_hand` and
    :func:`~pancli.referee.play.card_fault`; unseen cards beyond those held: I1 by
    :func:`~pancli.referee.play.unseen_cards_fault`);
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
        r = r or from_nowhere_fault(b, s, c, node, extra) or card_fault(b, c, node, extra)
        if r is not None:
            raise r
        unknown_need += extra
        unseen.append((i, extra))
    if unknown_need:
        r = unseen_cards_fault(b, node, unknown_need)
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
def foul_meld_ruling(b: Board, rule: EngineRule | Rule, reason: str, node: Located) -> Ruling:
    """I2: a foul meld (the meld engine's ``rule`` and reason), made good as I2 prescribes."""
    return _foul_ruling(b, "foul meld", rule, reason, node)


@answers(Rule.I2, what="how a foul addition, or the mend of one, is ruled")
def foul_addition_ruling(b: Board, rule: EngineRule | Rule, reason: str, node: Located) -> Ruling:
    """I2: a foul addition, or the mend of one (the meld engine's ``rule`` and reason for the
    grown meld), made good as I2 prescribes."""
    return _foul_ruling(b, "foul addition", rule, reason, node)


def _foul_ruling(b: Board, what: str, rule: EngineRule | Rule, reason: str, node: Located) -> Ruling:
    """The ruling on ``what`` is foul. Where the referee puts irregularities right
    (:attr:`Board.remedy`) it cites I2 and names the broken rule; stopping at it (``--strict``),
    it cites the broken rule."""
    if b.remedy:
        return b.fail(Rule.I2, f"{what}: {reason} ({rule})", node, ruling=I2_FOUL)
    return b.fail(Rule(rule), f"{what} (I2): {reason}", node)  # the ruling of the rule cited


def _i2(b: Board, reason: str, node: Located, *, player: str | None = None) -> Ruling:
    """The I2 ruling of ``reason`` (the words of one of the judges below; ``player``: whose it
    is, default the player in turn)."""
    return b.fail(Rule.I2, reason, node, ruling=I2_FOUL, player=player)


def foul_of_turn(b: Board, n: int) -> Foul | None:
    """The foul meld ``#n`` of this turn, or the foul addition to ``#n`` (None: there is none)."""
    for f in b.fouls:
        if f.number == n:
            return f
    return None


@answers(Rule.I2, what="whether a mend or back names a foul meld of the turn")
def no_foul_fault(b: Board, f: Foul | None, node: Mend | TakeBack) -> Ruling | None:
    """I2: a ``mend`` or ``back #N`` names a foul meld or addition ``f`` laid this turn
    (:func:`foul_of_turn`)."""
    if f is not None:
        return None
    s = b.seat
    assert s is not None
    what = "make good" if type(node) is Mend else "take back"
    return _i2(b, f"{s.name} has no foul meld #{node.target} laid this turn to {what}", node)


def _foul_of_turn(b: Board, node: Mend | TakeBack) -> Foul:
    """The foul meld or addition ``node`` makes good or takes back; raises I2."""
    f = foul_of_turn(b, node.target)
    r = no_foul_fault(b, f, node)
    if r is not None:
        raise r
    assert f is not None
    return f


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


@answers(Rule.I2, what="whether a foul meld is changed only once put right")
def foul_first_fault(b: Board, n: int, node: Add | Borrow | Split) -> Ruling | None:
    """I2: a meld that is foul (a foul new meld, or one with a foul addition) is made good or
    taken back before anything else changes it."""
    for f in b.fouls:
        if f.number == n:
            what = "a foul meld" if f.base is None else f"a foul addition ({format_cards(f.added)})"
            return _i2(b, f"#{n} is {what}: make it good (mend #{n}) or take it back (back #{n}) first", node)
    return None


def _less(cards: tuple[Card, ...], minus: tuple[Card, ...]) -> tuple[Card, ...]:
    """``cards`` less one copy of each card of ``minus`` that it holds (multisets)."""
    left = list(cards)
    for c in minus:
        if c in left:
            left.remove(c)
    return tuple(left)


@answers(Rule.I2, what="whether a mend keeps every card of the foul addition")
def mend_keeps_fault(b: Board, base: LaidMeld, a: Mend) -> Ruling | None:
    """I2: a mend of a foul addition keeps every card the meld ``base`` held before it."""
    missing = _less(base.cards, a.cards)
    if not missing:
        return None
    reason = f"mend #{a.target} keeps every card #{a.target} held before the addition"
    return _i2(b, f"{reason} ({format_cards(missing)} missing)", a)


@answers(Rule.I2, what="whether a mend of a foul addition adds to it")
def mend_adds_fault(b: Board, base: LaidMeld, a: Mend) -> Ruling | None:
    """I2: a mend of a foul addition adds a card to the meld ``base`` (else the addition is
    taken back, not made good)."""
    if _less(a.cards, base.cards):
        return None
    return _i2(b, f"mend #{a.target} adds nothing to #{a.target}: take the addition back (back #{a.target})", a)


def verify_mend(b: Board, a: Mend) -> MendPlan:
    """I2 made good: ``#N`` is a foul new meld of this turn and ``cards`` a legal meld (M1-M5),
    or ``#N`` had a foul addition and ``cards`` are the whole meld, every card it held before
    the addition and a legal addition (M5, C7); the cards it adds held (E4, I1), those it
    leaves go back to the hand; raises Ruling."""
    f = _foul_of_turn(b, a)
    if f.base is None:
        laid = b.rules.laid(a.cards)
        if laid is None:
            raise _foul(b, a.cards, a)
    else:
        r = mend_keeps_fault(b, f.base, a) or mend_adds_fault(b, f.base, a)
        if r is not None:
            raise r
        added = _less(a.cards, f.base.cards)
        grown = b.rules.grown(f.base, added)
        if isinstance(grown, MeldError):
            raise foul_addition_ruling(b, grown.rule, grown.reason, a)
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
        paid = collect_change(b, s, grows, base.value, plan.laid.value, plan.laid.cards)
        what = f"{s.name} makes the addition to #{f.number} good as [{format_cards(a.cards)}]"
        foul = "foul addition"
    s.fit_mask = -1
    what += f" at line {a.line}: no penalty"
    settled(b, f, what + (f"; what the {foul} collected is returned" if returns else ""), returns)
    return returns + paid


def verify_back(b: Board, a: TakeBack) -> Foul:
    """I2 taken back: ``#N`` is a foul meld or addition of this turn (one left lying since an
    earlier turn, he has discarded since: it can only be made good); raises Ruling."""
    f = _foul_of_turn(b, a)
    r = earlier_foul_back_fault(b, f, a)
    if r is not None:
        raise r
    return f


@answers(Rule.I2, what="whether a foul meld left from an earlier turn is only made good")
def earlier_foul_back_fault(b: Board, f: Foul, a: TakeBack) -> Ruling | None:
    """I2: a foul meld left lying since an earlier turn (its player has discarded since) can
    only be made good, not taken back."""
    if not f.earlier:
        return None
    why = f"#{a.target} was laid in an earlier turn and {f.violation.player} has discarded since"
    return _i2(b, f"{why}: it can only be made good (mend #{a.target})", a)


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
    :func:`foul_first_fault` have allowed the change)."""
    k = meld_index(b, n)
    assert k is not None
    return k


@answers(Rule.C7, what="whether an addition keeps the meld's value")
def lowered_value_fault(b: Board, a: Add, error: MeldError) -> Ruling | None:
    """C7 at an addition: it does not lower the meld's value (the engine's ``error``, when it
    cites C7; its other refusals are foul additions, I2)."""
    if error.rule != Rule.C7:
        return None
    return b.fail(Rule.C7, f"adding {format_cards(a.cards)} to #{a.target}: {error.reason}", a)


@answers(Rule.C7, what="whether the two melds of a split are worth no less than the one split")
def lowered_split_fault(b: Board, sp: Split, old: int, new: int) -> Ruling | None:
    """C7 at a split: the two melds are worth no less than the one split (``old``, ``new``; the
    rules object's ``keeps_value``)."""
    if b.rules.keeps_value(old, new):
        return None
    return b.fail(Rule.C7, f"the split would lower #{sp.target}'s value from {old} to {new}", sp)


@answers(Rule.M6, what="whether the house rules allow a borrow or a split")
def borrowing_allowed_fault(b: Board, node: Borrow | Split) -> Ruling | None:
    """M6: borrowing and splitting are allowed by the house rules (the rules object's
    ``borrowing_allowed``), asked before the meld changed is found."""
    if b.rules.borrowing_allowed():
        return None
    what = "borrowing" if type(node) is Borrow else "splitting"
    return b.fail(Rule.M6, f"{what} is not allowed under {b.profile.name}", node)


@answers(Rule.M6, what="whether a borrow takes a card the rules object lets off a meld")
def borrow_fault(b: Board, node: Borrow, target: LaidMeld, got: Borrowing) -> Ruling | None:
    """M6: the rules object's answer ``got`` to the borrow of ``node.card`` off ``target``
    (:meth:`~pancli.panrules.PanRules.borrow`: one card off a rope end or a set of four or more,
    leaving a meld of no lower value), in the referee's words."""
    why = got.refused
    if why is None:
        return None
    from pancli.refusals import BorrowRefusal  # start-up: loaded by the refusal (the rules object's)

    if why is BorrowRefusal.NOT_ALLOWED:
        message = f"borrowing is not allowed under {b.profile.name}"
    elif why is BorrowRefusal.TOO_FEW_CARDS:
        message = f"#{node.source} has {len(target.cards)} cards; borrowing needs {b.rules.min_meld + 1} or more"
    elif why is BorrowRefusal.NOT_THERE:
        where = "an end of" if isinstance(target.meld, Rope) else "in"
        message = f"{node.card} is not {where} #{node.source} ({target})"
    elif why is BorrowRefusal.NO_MELD:
        message = f"what is left of #{node.source} is no meld: {got.reason}"
    else:
        message = f"borrowing {node.card} would lower the value of #{node.source}"
    return b.fail(Rule.M6, message, node)


@answers(Rule.M6, what="whether a split has the shape the rules object allows")
def split_fault(b: Board, node: Split, got: Splitting) -> Ruling | None:
    """M6: the shape of a split as the rules object's :meth:`~pancli.panrules.PanRules.split`
    answers (``got``: every card of the meld split, and hand cards added), in the referee's words."""
    why = got.refused
    if why is None:
        return None
    from pancli.refusals import SplitRefusal  # start-up: loaded by the refusal (the rules object's)

    if why is SplitRefusal.MISSING_CARDS:
        missing = format_cards(got.missing)
        return b.fail(Rule.M6, f"the two melds must hold every card of #{node.target} ({missing} missing)", node)
    return b.fail(Rule.M6, f"splitting #{node.target} adds cards from the hand", node)


@answers(Rule.M6, what="whether a card an addition or split needs beyond the hand was borrowed")
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


@answers(Rule.M6, what="whether the cards borrowed complete a new meld by the turn's end")
def unused_borrow_fault(b: Board, node: Discard | Turn) -> Ruling | None:
    """M6: the cards borrowed this turn complete a new meld before the discard or the end of the turn."""
    if not b.borrowed:
        return None
    return b.fail(Rule.M6, f"borrowed {format_cards(b.borrowed)} completes no new meld", _unused_borrow(b, node))


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


@answers(Rule.C7, what="whether a record's pays claim is what a meld, addition or split collects")
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
        r = foul_first_fault(b, a.target, a)
    if r is not None:
        raise r
    plan = plan_cards(b, a.cards, a, borrowed=False)
    e = b.rules.grown(s.melds[_index(b, a.target)], a.cards)
    if isinstance(e, MeldError):
        r = lowered_value_fault(b, a, e) or foul_addition_ruling(b, e.rule, e.reason, a)
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
    has it (:func:`~pancli.referee.play.lay_foul`)."""
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
    """Each active opponent of ``s`` pays what laying the new meld ``lm`` collects (C7, the rules
    object's ``change_value`` from nothing to its value as laid, C6) under its conditions (C1-C5; a
    meld that is none is worth 0 and pays nothing), and its ``[%pays N]`` claim is checked:
    :func:`apply_meld` and the referee's fast meld turn both pay through here."""
    units = b.rules.change_value(0, lm.value)
    if a.claim is not None:
        b.claims.append(pays(b, a, s.name, a.claim, units))
    return b.collect(s, units, lm.rules, a.line, lm.cards)


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
    return collect_change(b, s, a, old.value, new.value, new.cards)


def collect_change(
    b: Board, s: Seat, a: Add | Borrow | Split, before: int, after: int, cards: tuple[Card, ...]
) -> list[Payment]:
    """Each active opponent of ``s`` pays what a change to one of his melds, worth ``before`` and
    ``after`` it, collects (C7: the rules object's ``change_value``): an addition
    (:func:`apply_add`, and the referee's fast meld turn), a borrow or a split; the change's
    ``[%pays N]`` claim is checked (a borrow has none). ``cards`` are the meld's cards after the
    change (both parts of a split)."""
    gain = b.rules.change_value(before, after)
    if isinstance(a, Borrow):
        return b.collect(s, gain, (Rule.C7,), a.line, cards, PaidFor.BORROW, a.source)
    if a.claim is not None:
        b.claims.append(pays(b, a, s.name, a.claim, gain))
    return b.collect(
        s, gain, (Rule.C7,), a.line, cards, PaidFor.SPLIT if isinstance(a, Split) else PaidFor.GROWS, a.target
    )


def _own_meld_changed(b: Board, a: Borrow | Split, n: int) -> LaidMeld:
    """The player's meld ``#n`` that a borrow or a split changes, once M6 allows the move (the
    knob), P6 finds ``#n`` among his melds and it is not foul (I2); what the move may do to it
    is M6's to answer (:func:`verify_borrow`, :func:`verify_split`); raises Ruling."""
    s = b.seat
    assert s is not None
    r = borrowing_allowed_fault(b, a) or own_melds_fault(b, n, a) or foul_first_fault(b, n, a)
    if r is not None:
        raise r
    return s.melds[_index(b, n)]


def verify_borrow(b: Board, a: Borrow) -> BorrowPlan:
    """A borrow (M6, P6): what is left of the meld, as the rules object's ``borrow`` answers;
    raises Ruling."""
    m = _own_meld_changed(b, a, a.source)
    got = b.rules.borrow(m.meld, a.card)
    r = borrow_fault(b, a, m, got)
    if r is not None:
        raise r
    assert got.left is not None
    rest = b.rules.laid(got.left.cards)
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
    return collect_change(b, s, a, old.value, new.value, new.cards)


def verify_split(b: Board, a: Split) -> SplitPlan:
    """A split (M6, P6), the hand cards it adds (E4, P7), two legal melds (M1-M5, I2) of no
    lower value (C7); raises Ruling."""
    m = _own_meld_changed(b, a, a.target)
    got = b.rules.split(m.meld, a.first, a.second)
    r = split_fault(b, a, got)
    if r is not None:
        raise r
    added = got.added
    plan = plan_cards(b, added, a, borrowed=False)
    first = laid_or_raise(b, a.first, a)
    second = laid_or_raise(b, a.second, a)
    r = lowered_split_fault(b, a, m.value, first.value + second.value)
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
    return collect_change(b, s, a, old.value, first.value + second.value, (*a.first, *a.second))


# ---------------------------------------------------------------------------
# Rule family: calls and counts, ruled at the moment the record says they were made (I1, I2).


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


@answers(Rule.I2, what="whether a call names a foul meld")
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
    return _i2(b, reason, where, player=ev.player)


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
    retire_found(b, ev, "")


@answers(Rule.I2, what="how a foul meld left lying is found at its call")
def found_at_call_ruling(b: Board, ev: Call, why: str) -> Ruling:
    """I2: the foul meld ``ev`` calls, left lying after its player's discard and not made good
    (``why``: what the answer on the next line was, if any), is found at the call."""
    s = b.by_name[ev.other]
    f = _standing(s, ev.target)
    assert f is not None
    laid = f.violation
    reason = (
        f"{laid.message} (laid at line {laid.line}), called by {ev.player} after {s.name}'s discard"
        f" and not made good{why}"
    )
    return _i2(b, reason, Place(ev.line, ev.col), player=s.name)


def retire_found(b: Board, ev: Call, why: str) -> None:
    """The player whose foul meld is found at the call retires (I2)."""
    retire(b, b.by_name[ev.other], found_at_call_ruling(b, ev, why).violation, ev)


def lone_mend(turn: Turn) -> bool:
    """A line of one ``mend`` (the answer to a call, never a turn: a turn begins with a draw)."""
    return len(turn.actions) == 1 and type(turn.actions[0]) is Mend


def looks_back(ev: Event) -> bool:
    """A line whose presence in the record changes how lines before it are judged: a call (the
    foul meld it names stands until it, I2), a count (a wrong count at the deal is found at it,
    I1) and a lone mend (it answers the call on the line before)."""
    kind = type(ev)
    return kind is Call or kind is Count or (kind is Turn and lone_mend(ev))  # type: ignore[arg-type]


@answers(Rule.I2, what="whether a lone mend answers a call")
def stray_mend_fault(b: Board, turn: Turn) -> Ruling | None:
    """I2: a ``mend`` on a line of its own answers a call on the line before."""
    if b.answering is not None:
        return None
    a = turn.actions[0]
    assert isinstance(a, Mend)
    why = f"a mend on a line of its own answers a call of {turn.player}'s #{a.target} on the line before"
    return _i2(b, why, turn, player=turn.player)


def answer(b: Board, turn: Turn) -> Violation | None:
    """``OTHER mend #N [cards]`` on the line after the call: the foul meld is made good with cards
    he holds, no penalty (I2, :func:`~pancli.referee.play.apply_mend`). A mend that is no
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
        retire_found(b, ev, f" (the mend at line {a.line} is no meld either: {r.violation.message})")
        return None
    payments = apply_mend(b, a, plan)
    b.step(turn, a, a, payments)
    s.standing, b.fouls, b.turn, b.seat = b.fouls, [], None, None
    return None


def count_fault(b: Board, ev: Count) -> Ruling | None:
    """I1: a count is of a player with cards to count (:func:`count_call_fault`); where the
    referee stops at irregularities (``--strict``), a wrong count found is a violation too
    (:func:`wrong_count_fault`)."""
    r = count_call_fault(b, ev)
    if r is None and not b.remedy:
        r = wrong_count_fault(b, ev)
    return r


def apply_count(b: Board, ev: Count) -> None:
    """The count is made: a right count is noted and changes nothing; a wrong one is found here
    (I1): put right as at the deal before the first draw, else the player retires."""
    b.step(ev, None, ev, [])
    s = b.by_name[ev.other]
    bad = wrong_count_fault(b, ev)
    if bad is None:
        if s.unknown and ev.number is None:
            b.notes.append(CountNotCompared(ev.line, ev.player, s.name))
        else:
            b.notes.append(CountRight(ev.line, ev.player, s.name, b.hand_size))
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


# ---------------------------------------------------------------------------
# Rule family: the discard, forcing and the flat player (P2, P4, P5, P8, P9).


class DiscardKind(enum.Enum):
    """What a discard does with the card drawn this turn."""

    UNUSED_DRAW = "unused draw"
    """The unused stock draw goes to the pile and is live for the next player (P2, P3)."""
    KEPT_DRAW = "kept draw"
    """The unused draw is kept and a hand card discarded (P9)."""
    HAND_CARD = "hand card"
    """A hand card after the draw was used (P5): a dead card."""


class DiscardPlan(Value):
    """What a verified discard does (``cards``: where the discarded card comes from)."""

    kind: DiscardKind
    cards: CardPlan | None = None


class Discarding(enum.Enum):
    """What the discard that ends the turn may be, as the turn stands (:class:`DiscardDue`)."""

    NOT_YET = "not yet"
    """No discard now: the turn has no draw yet (P1), or the drawn card must be used first (P3, P4)."""
    THE_DRAW = "the draw"
    """The unused stock draw, at once (P2): the turn ends and it is live for the next player."""
    HAND_CARD = "a hand card"
    """One card of the hand (P5; under P9 the kept draw joins the hand, and another card goes)."""
    NONE = "none"
    """Nothing is discarded: the player went out (P7), the discard ended the turn (P5), or the
    hand is over."""


class DiscardDue(Value):
    """The discard the turn calls for, as it stands after the draw and any melds, and the rule
    that says so (:func:`discard_due`): the unused stock draw ``card`` (P2), a hand card but
    ``excluded``, the kept draw (P9), any hand card (P5), or none now (P1, P3, P4, P7, P5 once
    discarded; between hands the rule the hand ended under, or T1 while deciding).

    >>> from pancli.cards import card, Rank, Suit
    >>> five = card(Rank.FIVE, Suit.SPADES)
    >>> due = DiscardDue(Rule.P9, Discarding.HAND_CARD, excluded=five)
    >>> due.allows(five, held=True), due.allows(card(Rank.KING, Suit.CLUBS), held=True)
    (False, True)
    """

    rule: Rule
    due: Discarding
    card: Card | None = None
    """The one card to discard (P2: the unused stock draw), or None."""
    excluded: Card | None = None
    """The card that may not be discarded (P9: the kept draw, unless the hand holds nothing else)."""

    def allows(self, c: Card, held: bool) -> bool:
        """Whether discarding ``c`` now is what the turn calls for (``held``: the hand holds a
        copy of ``c``, or a card the record does not show). The discard's other judges (E4, M6,
        P7) still apply."""
        due = self.due
        if due is Discarding.THE_DRAW:
            return c == self.card
        return due is Discarding.HAND_CARD and held and c != self.excluded


def discard_due(b: Board) -> DiscardDue:
    """What the discard that ends the turn of the player in turn must be, as the turn stands
    (:class:`DiscardDue`): P8's forced card is taken, so P3 answers for it; P9 is the rules
    object's :meth:`~pancli.panrules.PanRules.must_keep_draw` and ``kept_draw`` (its excuse)."""
    phase = b.phase
    if phase is not PLAYING:
        if phase is DECIDING:
            return DiscardDue(Rule.T1, Discarding.NOT_YET)
        return DiscardDue(b.ending_rule or Rule.I3, Discarding.NONE)
    s = b.seat
    if s is None or not b.drew:
        return DiscardDue(Rule.P1, Discarding.NOT_YET)
    if b.discarded:
        return DiscardDue(Rule.P5, Discarding.NONE)
    if b.out:
        return DiscardDue(Rule.P7, Discarding.NONE)
    if not b.pending_used:
        if b.pending_src is DISCARD_PILE:
            return DiscardDue(Rule.P3, Discarding.NOT_YET)
        if b.hand_melded:
            return DiscardDue(Rule.P4, Discarding.NOT_YET)
        pending = b.pending
        rules = b.rules
        if pending is not None and rules.must_keep_draw(s, b.next_seat, pending):
            return DiscardDue(Rule.P9, Discarding.HAND_CARD, excluded=rules.kept_draw(s, pending))
        return DiscardDue(Rule.P2, Discarding.THE_DRAW, card=pending)
    if goes_out(b, s):
        return DiscardDue(Rule.P7, Discarding.NONE)  # the eleventh card melded: he went out
    return DiscardDue(Rule.P5, Discarding.HAND_CARD)


@decides(Rule.P2, what="whether an unused stock draw is the discard (its end of turn: a judge of its own)")
def undiscarded_draw_fault(b: Board, d: Discard) -> Ruling | None:
    """P2 at a discard while the stock draw is unused: the draw is the card discarded (it never
    joins the hand). Another card is discarded only when P9 keeps the draw: the caller asks
    that first (:func:`discard_due`), and asks this only when it does not."""
    if b.pending_used:
        return None
    return b.fail(Rule.P2, f"the drawn {b.pending} never joins the hand: use it or discard it", d)


@answers(Rule.P2, what="whether a turn ends with its stock draw used or discarded")
def unused_draw_at_end_fault(b: Board, turn: Turn) -> Ruling | None:
    """P2 at the end of a turn: the stock draw was used or discarded at once, not left unused."""
    if b.pending_used:
        return None
    return b.fail(Rule.P2, f"the drawn {b.pending} must be used or discarded at once", turn)


@decides(Rule.P4, what="whether hand cards are melded in a turn that uses the drawn card")
def melding_gate_fault(b: Board, node: Discard) -> Ruling | None:
    """P4: hand cards were melded, so the drawn card must be used this turn."""
    if b.pending_used or not b.hand_melded:
        return None
    return b.fail(Rule.P4, f"hand cards were melded but the drawn {b.pending} is not used", node)


@decides(Rule.P5, what="whether a discard ends the turn, nothing after it (the turn's end: a judge of its own)")
def discard_fault(b: Board, a: Action) -> Ruling | None:
    """P5 for each action of a turn: the discard ended the turn, so no action comes after it."""
    if b.discarded:
        return b.fail(Rule.P5, f"{b.seat_name}'s discard ended the turn", a)
    return None


@answers(Rule.P5, what="whether a player who used his draw and holds cards ends his turn with a discard")
def undiscarded_turn_fault(b: Board, turn: Turn) -> Ruling | None:
    """P5 at the end of a turn: a player who used his draw and still holds cards ends his turn
    with a discard (as :func:`discard_due` says the turn stands)."""
    s = b.seat
    assert s is not None
    due = discard_due(b)
    if due.rule is not Rule.P5 or due.due is not Discarding.HAND_CARD:
        return None
    return b.fail(Rule.P5, f"{s.name} used the draw and must end the turn with a discard", turn)


@answers(Rule.P8, what="whether a player draws where a live discard must be taken")
def forced_draw_fault(b: Board, d: Draw) -> Ruling | None:
    """P8 at a draw: a forced live discard, or one that must be taken (the rules object's
    ``must_take``), is taken: no draw."""
    s = b.seat
    assert s is not None
    n = b.rules.must_take(b.forced_by, s, b.live if b.live_ok else None)
    if n < 0:
        return b.fail(Rule.P8, f"{b.forced_by} forced {s.name} to take {b.live}; {s.name} may not draw", d)
    if n:
        return b.fail(Rule.P8, f"the live discard {b.live} fits {s.name}'s meld #{n}: {s.name} must take and add it", d)
    return None


@answers(Rule.P8, what="whether a forced card is added, not laid in a new meld")
def forced_new_meld_fault(b: Board, m: MeldNew, cards: CardPlan) -> Ruling | None:
    """P8 at a new meld: a forced card is added to one of the player's melds, not laid in a new
    one (``cards``: where the meld's cards come from, the drawn card among them or not)."""
    if b.must_add and cards.pending:
        return b.fail(Rule.P8, f"the forced {b.pending} must be added to one of {b.seat_name}'s melds", m)
    return None


@answers(Rule.P8, what="whether a forced card was added before the discard")
def unadded_force_fault(b: Board, d: Discard) -> Ruling | None:
    """P8 at a discard: a forced card was added, not left unused."""
    if b.must_add and not b.pending_used:
        return b.fail(Rule.P8, f"the forced {b.pending} must be added", d)
    return None


@answers(Rule.P8, what="whether a force line may force the player in turn, as the rules object says")
def force_line_fault(b: Board, f: Force) -> Ruling | None:
    """P8 at a ``force`` line: it names the player in turn, another player, whose meld the live
    discard fits (the rules object's ``may_force``)."""
    player = f.player
    why = b.rules.may_force(b.by_name[player], b.by_name[f.other], b.in_turn, b.live if b.live_ok else None)
    if why is None:
        return None
    from pancli.refusals import ForceRefusal  # start-up: loaded by the refusal (the rules object's)

    if why is ForceRefusal.NOT_IN_TURN:
        message = f"{f.other} is not in turn ({b.in_turn.name} is)"
    elif why is ForceRefusal.HIMSELF:
        message = f"{player} cannot force {player}"
    elif why is ForceRefusal.NO_LIVE_DISCARD:
        message = "there is no live discard to force"
    else:
        message = f"the live discard {b.live} fits none of {f.other}'s melds"
    return b.fail(Rule.P8, message, f, player=player)


@answers(Rule.P9, what="whether a player who must keep his draw discards a hand card")
def flat_player_fault(b: Board, s: Seat, node: Discard, due: DiscardDue) -> Ruling | None:
    """P9: a player who must keep the unused draw (``due``, asking
    :meth:`pancli.panrules.PanRules.must_keep_draw`) discards a hand card: the drawn card itself
    only as a copy of a hand that holds nothing else."""
    c = node.card
    if due.rule is not Rule.P9 or due.excluded is None or c != due.excluded:
        return None
    return b.fail(
        Rule.P9, f"{b.next_seat.name} is flat and {c} fits {b.next_seat.name}'s melds: {s.name} must keep it", node
    )


def apply_discard(b: Board, a: Discard, plan: DiscardPlan) -> None:
    """Discard: the unused draw goes live (P3); or the kept draw joins the hand (P9) and a hand
    card goes to the pile, dead."""
    s = b.seat
    assert s is not None
    c = a.card
    record = b.steps is not None
    b.discarded = True
    if plan.kind is DiscardKind.UNUSED_DRAW:
        goes_live(b, c)
        if record:
            b.moves.append((c, STOCK, DISCARD_PILE))
        return
    if plan.kind is DiscardKind.KEPT_DRAW:
        assert b.pending is not None
        s.hand[b.pending.index] += 1
        s.hand_n += 1
        b.pending_used = True
        if record:
            b.moves.append((b.pending, STOCK, HAND))
    assert plan.cards is not None
    discard_hand_card(b, s, c, plan.cards.unknown_need > 0)


def discard_hand_card(b: Board, s: Seat, c: Card, unseen: bool) -> None:
    """``s`` discards ``c`` from his hand (one the record never showed, ``unseen``): a dead card
    on the pile, the turn ended (P5): :func:`apply_discard` and the referee's fast meld turn
    discard a hand card so."""
    b.discarded = True
    i = c.index
    if unseen:
        s.unknown -= 1
        b.seen[i] += 1
    else:
        s.hand[i] -= 1
    s.hand_n -= 1
    b.pile.append(c)
    b.live_ok = False
    if b.steps is not None:
        b.moves.append((c, HAND, DISCARD_PILE))


def verify_discard(b: Board, a: Discard) -> DiscardPlan:
    """A discard (P3, P4, P8, P9, P2 while the draw is unused; P7 after; M6, E4); raises Ruling."""
    s = b.seat
    assert s is not None
    c = a.card
    kind = DiscardKind.HAND_CARD
    if not b.pending_used:
        r = unmelded_take_fault(b, a) or melding_gate_fault(b, a) or unadded_force_fault(b, a)
        if r is not None:
            raise r
        due = discard_due(b)
        if due.due is Discarding.THE_DRAW and c == due.card:
            return DiscardPlan(DiscardKind.UNUSED_DRAW)
        r = flat_player_fault(b, s, a, due)
        if r is None and due.rule is not Rule.P9:  # P9 keeps the draw: another card is the discard
            r = undiscarded_draw_fault(b, a)
        kind = DiscardKind.KEPT_DRAW
    else:
        r = empty_hand_discard_fault(b, a)
    r = r or unused_borrow_fault(b, a)
    if r is not None:
        raise r
    return DiscardPlan(kind, plan_cards(b, (c,), a, borrowed=False))


# ---------------------------------------------------------------------------
# Between hands (S3): the winner of a hand is first hand in the next one.


@answers(Rule.S3, what="whether a hand's order follows the previous hand's")
def next_hand_violation(previous: HandResult, script: HandScript, rules: PanRules) -> Violation | None:
    """The S3 violation of ``script`` as the hand after ``previous`` in a record, if any: the
    order ``rules`` sets (:meth:`.PanRules.next_order`), whole with the same players; when
    others left or joined, only its first hand is known."""
    if script.game is not Game.PANGUINGUE:
        return None
    expected = rules.next_order(previous.players, previous.winner)
    if expected is None or expected[0] not in script.players:
        return None
    if set(previous.players) == set(script.players):
        if script.players == expected:
            return None
        why = f"the order of play is {' '.join(expected)}, not {' '.join(script.players)}"
        message = f"{expected[0]} won the last hand and is first hand in this one: {why}"
    else:
        if script.players[0] == expected[0]:
            return None
        left = [p for p in previous.players if p not in script.players]
        joined = [p for p in script.players if p not in previous.players]
        moves = [f"{' '.join(left)} left" if left else "", f"{' '.join(joined)} joined" if joined else ""]
        why = f"the order of play starts with {expected[0]}, not {script.players[0]}"
        message = (
            f"{expected[0]} won the last hand and is first hand in this one ({', '.join(m for m in moves if m)}): {why}"
        )
    return Ruling.make(Rule.S3, script.players[0], message, line=script.first_line or 1, col=1).violation
