"""The judges of a PAGRUC hand: one function per question (G3 asks several: whose turn, in
order, doing something, with cards held, a take first and once, the pile's cards, nothing after
the discard; G6 too: no line after the end, ``out``, the stock drawn from and turned over), each returning the
:class:`~pancli.model.results.Ruling` when its rule is broken and None when it holds (the claim
checker records a :class:`~pancli.model.results.ClaimCheck`). They read the
:class:`~pancli.pagruc.board.PagrucBoard` and change nothing; :class:`~pancli.pagruc.referee.PagrucTable`
asks them in turn (its docstring holds the table rule -> judge). Each is marked with the rule it
rules under (``@decides``, ``@answers``: :mod:`pancli.referee.deciders` lists them all); the
questions the rules object answers (the cards dealt, who may take more than the top discard,
when the stock is turned over) are asked of it, never restated here.

>>> from pancli.cards import Game
>>> from pancli.model.actions import HandScript
>>> b = PagrucBoard(HandScript(players=("Ana", "Ben", "Cy"), game=Game.PAGRUC))
>>> turn_order_fault(b, 5, 1, "Ben").violation.message
"it is Ana's turn, not Ben's"
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Final

from pancli.cards import Card, format_cards
from pancli.decides import answers, decides
from pancli.model.actions import (
    Action,
    Borrow,
    Call,
    Count,
    Deal,
    Decision,
    Draw,
    Event,
    Force,
    Out,
    Split,
    Take,
    TakeMany,
    Turn,
)
from pancli.model.results import ClaimCheck, ClaimKind, Ruling
from pancli.pagruc.board import PagrucBoard
from pancli.pagruc.melds import PagrucVerdict
from pancli.rulebook import Rule
from pancli.rules import counted

_PAN_ONLY: dict[type, str] = {
    Decision: "staying or going on top",
    Force: "forcing",
    Call: "calling a foul meld",
    Count: "calling a count",
}
"""The Panguingue lines PAGRUC has no place for (G3), by what they do."""

# (the kinds asked of every line and action, as tuples made once: a union ``A | B`` is built at each call)
PAN_LINES: Final = (Decision, Force, Call, Count)
TAKES: Final = (Take, TakeMany)
PICKUPS: Final = (Draw, Take, TakeMany)
_PAN_ACTIONS: Final = (Borrow, Split)


@answers(Rule.G1, what="whether a hand's table is seated, as the rules object seats it")
def seating_fault(b: PagrucBoard) -> Ruling | None:
    """G1, the table: as the rules object's ``seating_problem`` seats it (3 to 8 players with the
    packs for them, each listed once)."""
    problem = b.rules.seating_problem(b.players, b.script.packs)
    if problem is None:
        return None
    from pancli.pagruc.words import table_words  # start-up: only a table at fault needs it

    return b.fail(Rule.G1, table_words(problem), b.script.first_line, 1, None)


@answers(Rule.G1, what="whether one meld holds no card more often than the pack")
def meld_copies_fault(
    b: PagrucBoard, line: int, col: int, player: str, judged: tuple[str | None, str]
) -> Ruling | None:
    """G1 within one meld: ``judged`` (the rule and message of the rules object's ``meld``
    verdict on a new meld, or on a meld laid off on) finds no card in it more often than the pack
    holds it."""
    return b.fail(Rule.G1, judged[1], line, col, player) if judged[0] == Rule.G1 else None


@answers(Rule.G1, what="whether no card is seen more often than the pack holds it")
def pack_fault(
    b: PagrucBoard,
    line: int,
    col: int,
    player: str | None,
    *,
    cards: Iterable[Card] = (),
    revealed: Mapping[Card, int] | None = None,
) -> Ruling | None:
    """G1, conservation: no card seen more often than the pack holds it, by the rules object's
    ``beyond``: ``cards`` just placed (counted where they are), or ``revealed`` cards about to come
    to light (not counted yet: a hand's unknown cards, or cards dealt or drawn)."""
    pairs = revealed.items() if revealed is not None else ((c, 0) for c in dict.fromkeys(cards))
    beyond = b.rules.beyond(b.pack, ((c, b.visible(c) + extra) for c, extra in pairs))
    if beyond is None:
        return None
    from pancli.pagruc.words import held_words  # start-up: only cards past the pack need it

    c, n = beyond
    return b.fail(Rule.G1, f"{n} copies of {c} are in play, {held_words(b.pack, c)}", line, col, player)


@answers(Rule.G2, what="whether a deal line deals a player of the hand once, the cards the rules object deals")
def deal_fault(b: PagrucBoard, d: Deal, seen: set[str]) -> Ruling | None:
    """G2, a deal line: the rules object's ``deal_size`` (seven) cards to a player of the hand,
    once (``seen``: those dealt already)."""
    if d.player not in b.hands:
        return b.fail(Rule.G2, f"deal to {d.player}, who is not in this hand", d.line, d.col, d.player)
    if d.player in seen:
        return b.fail(Rule.G2, f"{d.player} is dealt twice", d.line, d.col, d.player)
    if len(d.cards) != b.rules.deal_size:
        msg = f"{d.player} is dealt {counted(len(d.cards), 'card')}, not {b.rules.deal_size}"
        return b.fail(Rule.G2, msg, d.line, d.col, d.player)
    return None


@answers(Rule.G2, what="whether one card is turned up after the deal, before play")
def upcard_fault(b: PagrucBoard, line: int, col: int, player: str | None) -> Ruling | None:
    """G2, a play line at ``line``:``col``: one card was turned up after the deal lines (a hand
    with no play line yet is only being dealt: no fault)."""
    if b.script.upcard is None:
        msg = "no up card: one card is turned face up to start the discard pile"
        return b.fail(Rule.G2, msg, line, col, player)
    return None


@answers(Rule.G3, what="whether a line is one PAGRUC has")
def panguingue_line_fault(b: PagrucBoard, node: Event, line: int, col: int, player: str) -> Ruling | None:
    """G3, a line PAGRUC has: no decision, no force, no call, no count (Panguingue's)."""
    if isinstance(node, PAN_LINES):
        what = _PAN_ONLY[type(node)]
        return b.fail(Rule.G3, f"{what} is Panguingue, not PAGRUC", line, col, player)
    return None


@answers(Rule.G3, what="whether a turn is by a player of the hand")
def turn_player_fault(b: PagrucBoard, line: int, col: int, player: str) -> Ruling | None:
    """G3, a turn by a player of the hand."""
    if player not in b.hands:
        return b.fail(Rule.G3, f"{player} is not in this hand (players: {' '.join(b.players)})", line, col, player)
    return None


@answers(Rule.G3, what="whether a turn comes in order of play")
def turn_order_fault(b: PagrucBoard, line: int, col: int, player: str) -> Ruling | None:
    """G3, the turn in order of play."""
    expected = b.players[b.next_index]
    if player == expected:
        return None
    return b.fail(Rule.G3, f"it is {expected}'s turn, not {player}'s", line, col, player)


@answers(Rule.G3, what="whether a turn does something")
def idle_turn_fault(b: PagrucBoard, t: Turn) -> Ruling | None:
    """G3, a turn that does something (a draw or take, then a discard)."""
    if not t.actions:
        return b.fail(
            Rule.G3, f"{t.player} does nothing: a turn is a draw or take, then a discard", t.line, t.col, t.player
        )
    return None


@answers(Rule.G3, what="the ruling on a turn that did not end with a discard")
def unended_turn_fault(b: PagrucBoard, t: Turn) -> Ruling:
    """G3, a turn ends with a discard: the ruling on one that did not (its caller knows it did not)."""
    return b.fail(Rule.G3, f"{t.player}'s turn does not end with a discard", t.line, t.col, t.player)


@answers(Rule.G3, what="whether the player holds the cards he plays")
def held_cards_fault(b: PagrucBoard, line: int, col: int, player: str, revealed: Sequence[Card]) -> Ruling | None:
    """G3, the player holds the cards he plays: ``revealed``, those not among his known cards,
    are among his unknown ones."""
    if len(revealed) > b.hands[player].hidden:
        return b.fail(Rule.G3, f"{player} does not hold {format_cards(tuple(revealed))}", line, col, player)
    return None


@answers(Rule.G3, what="whether an action comes after the discard that ended the turn")
def after_discard_fault(b: PagrucBoard, node: Action, line: int, col: int, player: str) -> Ruling | None:
    """G3 at each action: the discard ended the turn (:attr:`PagrucBoard.discarded`); only
    ``out`` may follow it."""
    if b.discarded and type(node) is not Out:
        return b.fail(Rule.G3, "the discard ends the turn", line, col, player)
    return None


@decides(Rule.G3, what="whether a turn starts with a take (its player, order, end, the pile...: a judge each)")
def take_first_fault(b: PagrucBoard, line: int, col: int, player: str) -> Ruling | None:
    """G3 at an action other than a take: the turn started with a take (:attr:`PagrucBoard.picked`:
    an action was tried)."""
    if b.picked:
        return None
    return b.fail(
        Rule.G3, "a turn starts by taking the top card of the stock or of the discard pile", line, col, player
    )


@answers(Rule.G3, what="whether a draw or take is the turn's first")
def second_take_fault(b: PagrucBoard, line: int, col: int, player: str) -> Ruling | None:
    """G3 at a draw or a take: none came before it this turn."""
    if not b.picked:
        return None
    msg = f"{player} takes only once a turn: from the stock or the discard pile"
    return b.fail(Rule.G3, msg, line, col, player)


@answers(Rule.G3, what="whether an action is one PAGRUC has")
def panguingue_action_fault(b: PagrucBoard, node: Action, line: int, col: int, player: str) -> Ruling | None:
    """G3, an action PAGRUC has: no borrow, no split (Panguingue's)."""
    if isinstance(node, _PAN_ACTIONS):
        return b.fail(Rule.G3, f"{type(node).__name__.lower()} is Panguingue, not PAGRUC", line, col, player)
    return None


@answers(Rule.G3, what="whether a take is of cards on the discard pile, as many as the player may take")
def pile_take_fault(b: PagrucBoard, node: Take | TakeMany, line: int, col: int, player: str) -> Ruling | None:
    """G3 at a take: of the cards on the discard pile, at least one, more than the top one only
    by a player with a meld on the table, and the cards named the ones there."""
    p = player
    cards = (node.card,) if isinstance(node, Take) else node.cards
    n = taken(node)
    if not b.pile:
        return b.fail(Rule.G3, "the discard pile is empty", line, col, p)
    if n < 1:
        return b.fail(Rule.G3, f"take {n}: take at least one card", line, col, p)
    if n > 1 and not b.rules.may_take_many(b.has_meld(p)):
        msg = f"{p} has no meld on the table yet: only the top discard may be taken"
        return b.fail(Rule.G3, msg, line, col, p)
    if n > len(b.pile):
        msg = f"the discard pile holds only {counted(len(b.pile), 'card')}, not {n}"
        return b.fail(Rule.G3, msg, line, col, p)
    top = b.pile[-n:]
    if cards and tuple(top) != cards and Counter(cards) != Counter(top):  # (in order: no counting)
        what = "the top discard is" if n == 1 else f"the top {n} discards are"
        return b.fail(Rule.G3, f"{what} {format_cards(top[::-1])}, not {format_cards(cards)}", line, col, p)
    return None


def taken(a: Take | TakeMany) -> int:
    """How many discards a take takes: the cards named, or ``take N``'s count."""
    return 1 if isinstance(a, Take) else len(a.cards) or a.count


@answers(Rule.G4, what="whether a new meld is a run or a set, by the rules object's verdict")
def meld_fault(b: PagrucBoard, verdict: PagrucVerdict, why: str, line: int, col: int, player: str) -> Ruling | None:
    """G4, a new meld is a run or a set: the verdict of the rules object's ``meld`` (``why`` says what
    it found); a meld with a card beyond the pack is :func:`meld_copies_fault`'s."""
    if verdict.meld is not None or verdict.rule == Rule.G1:
        return None
    return b.fail(Rule.G4, why, line, col, player)


@answers(Rule.G5, what="whether the player may lay off, on a meld that is there")
def lay_off_fault(
    b: PagrucBoard, player: str, owner: str, target: int, line: int, col: int, *, refused: str | None = None
) -> Ruling | None:
    """G5, laying off: the player may lay off (the rules object's ``may_lay_off``: he has a meld
    of his own on the table), and lays on a meld that is there (``owner``'s number ``target``);
    ``refused`` is why the rules object's ``lay_off`` found the grown meld no meld."""
    p = player
    if refused is not None:
        return b.fail(Rule.G5, refused, line, col, p)
    if not b.rules.may_lay_off(b.has_meld(p)):
        return b.fail(Rule.G5, f"{p} has no meld on the table yet, so may not lay off", line, col, p)
    if owner not in b.melds:
        return b.fail(Rule.G5, f"{owner} is not in this hand", line, col, p)
    theirs = b.melds[owner]
    if not 1 <= target <= len(theirs):
        has = f"only {len(theirs)} meld{'s' * (len(theirs) != 1)}" if theirs else "no meld"
        return b.fail(Rule.G5, f"{owner} has {has}, so no {owner}#{target}", line, col, p)
    return None


@answers(Rule.G6, what="whether a turn without a discard melded the last card")
def last_card_melded_fault(b: PagrucBoard, t: Turn) -> Ruling | None:
    """G6 at the end of a turn without a discard: the player did not meld his last card (one card
    is kept to discard, and that discard ends the hand: the rules object's ``kept_card_to_discard``)."""
    p = t.player
    if not b.rules.kept_card_to_discard(b.hands[p].size):
        msg = f"{p} melded the last card in hand: one card is kept to discard, and that discard ends the hand"
        return b.fail(Rule.G6, msg, t.line, t.col, p)
    return None


@answers(Rule.G6, what="whether a line comes after the discard that ended the hand")
def hand_over_fault(b: PagrucBoard, line: int, col: int, player: str | None) -> Ruling | None:
    """G6 at any line: none comes after the discard that ended the hand (the winner the board
    recorded as the rules object's ``hand_over`` answered)."""
    if b.winner is None:
        return None
    msg = f"the hand ended at line {b.ended_line} when {b.winner} discarded the last card in hand"
    return b.fail(Rule.G6, msg, line, col, player)


@answers(Rule.G6, what="whether an out line comes with no card left")
def out_with_cards_fault(b: PagrucBoard, line: int, col: int, player: str) -> Ruling | None:
    """G6 at ``out``: the player has no card left (his discard ended the hand)."""
    if b.winner == player:
        return None
    held = b.hands[player].size
    return b.fail(Rule.G6, f"{player} says out but still holds {held} card{'s' * (held != 1)}", line, col, player)


@answers(Rule.G6, what="whether a draw finds a card in the stock")
def empty_stock_fault(b: PagrucBoard, line: int, col: int, player: str) -> Ruling | None:
    """G6 at a draw: the stock holds a card (an empty one is turned over first)."""
    if b.rules.turns_over(b.stock):
        msg = "the stock is empty: the discard pile is turned over first (reshuffle)"
        return b.fail(Rule.G6, msg, line, col, player)
    return None


@answers(Rule.G6, what="whether a card drawn from a turned-over stock is in it")
def turned_over_card_fault(b: PagrucBoard, d: Draw, line: int, col: int, player: str) -> Ruling | None:
    """G6 at a draw from a stock turned over from the discard pile: the card drawn is in it."""
    if b.stock_known is not None and b.stock_known[d.card] == 0:
        return b.fail(Rule.G6, f"{d.card} is not in the turned-over stock", line, col, player)
    return None


@answers(Rule.G6, what="whether a reshuffle comes when the stock is empty")
def early_reshuffle_fault(b: PagrucBoard, line: int, col: int) -> Ruling | None:
    """G6 at a reshuffle: the stock is empty."""
    if not b.rules.turns_over(b.stock):
        holds = counted(b.stock, "card")
        return b.fail(Rule.G6, f"the stock still holds {holds}: it is turned over only when empty", line, col, None)
    return None


@answers(Rule.G6, what="whether there are cards under the top discard to turn over")
def nothing_to_turn_over_fault(b: PagrucBoard, line: int, col: int) -> Ruling | None:
    """G6 at a reshuffle: there are cards under the top discard to turn over."""
    if len(b.pile) < 2:
        return b.fail(Rule.G6, "nothing under the top discard to turn over", line, col, None)
    return None


@answers(Rule.G7, what="whether a record's claim of points is what the rules object scores")
def check_claim(
    b: PagrucBoard, kind: ClaimKind, line: int, player: str, claimed: int, actual: int, col: int = 1
) -> None:
    """G7, a record's claim of points checked: ``[%pays N]`` the points a meld scores,
    ``[Ledger]`` a player's hand score."""
    b.claims.append(ClaimCheck(Rule.G7, kind, line, player, claimed, actual, col))
