"""The rule -> deciding function registry: every rule of the rulebook either has the one
function that decides it (:data:`DECIDERS`, with a line saying what it decides in
:data:`DECIDES`) or is listed in :data:`NO_DECIDER` with the reason no engine function does
(a definition, a principle, or a rule of the notation that the reader decides while it reads).

A function may decide several rules (the meld engine's :func:`~pancli.melds.judge` decides
M1-M4 and E2 together, in its order). The rules of :data:`SHARED` are questions that several
parts ask: the referee's judges, the analyzer, the check and pay batches and self-play ask the
registered function and never restate the rule; tests/test_one_rule_one_place.py changes such a
function and requires every caller to follow. The judges that raise a hand's rulings are
listed in the tables of :mod:`pancli.referee.table` and :mod:`pancli.pagruc.referee`.

>>> DECIDERS[Rule.P9].__name__, DECIDES[Rule.P9]
('must_keep_draw', 'whether an unused stock draw that fits a flat next player must be kept')
>>> sorted(set(DECIDERS) & set(NO_DECIDER))
[]
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Final

from pancli.cards import Pack, past_the_pack
from pancli.melds import Rope, Set, going_out_value, grow, judge, keeps_value
from pancli.pagruc import judges as pagruc_judges
from pancli.pagruc.scoring import score_hand
from pancli.pagruc.standings import game_order_problems, pagruc_points
from pancli.referee.deal import deal_count_fault, second_deal_fault
from pancli.referee.decisions import apply_decision, decision_order_fault, on_top_fault
from pancli.referee.forcing import (
    discard_fault,
    melding_gate_fault,
    must_keep_draw,
    must_take,
    unused_draw_fault,
)
from pancli.referee.going_out import check_claims, closed_hand_fault, pay_pot
from pancli.referee.melding import borrowing_fault, foul_meld_ruling, own_melds_fault
from pancli.referee.sequence import next_hand_violation
from pancli.referee.turns import stock_fault, taken_card_fault, turn_draw_fault
from pancli.rulebook import Rule
from pancli.rules import profile_from_mapping, seating_fault, ten_fault

_M = "whether some cards are a meld, and which: a rope (M2, in E2's rank order) or a set (M3, M4)"
_SET = "which condition a set is (C1-C3)"
_ROPE = "which conditions a rope is (C4 with the ace, C5 with the king)"

_REGISTRY: Final[dict[Rule, tuple[Callable[..., object], str]]] = {
    Rule.E1: (Pack.copies, "how many copies of a card the profile's pack holds (0: not in the pack)"),
    Rule.E2: (judge, _M),
    Rule.E4: (past_the_pack, "whether more copies of a card become known than the pack holds"),
    Rule.S1: (seating_fault, "whether a table of so many players is seated (2 to 15)"),
    Rule.S2: (second_deal_fault, "whether a player is dealt a second time"),
    Rule.S3: (next_hand_violation, "whether the last hand's winner is first hand in the next"),
    Rule.T1: (decision_order_fault, "whether a decision comes in the round, in order of play, before any play"),
    Rule.T2: (pay_pot, "what the winner collects in forfeits and tops"),
    Rule.T3: (on_top_fault, "whether a player who went on top still takes part"),
    Rule.T4: (apply_decision, "after the last decision: the hand is played, won by the last one in, or void"),
    Rule.P1: (turn_draw_fault, "whether a turn is the player in turn's, with one draw or take first"),
    Rule.P2: (unused_draw_fault, "whether an unused stock draw is discarded at once"),
    Rule.P3: (taken_card_fault, "whether a taken card is the live discard, melded at once"),
    Rule.P4: (melding_gate_fault, "whether hand cards are melded in a turn that uses the drawn card"),
    Rule.P5: (discard_fault, "whether a turn that used its draw ends with a discard, and nothing after it"),
    Rule.P6: (own_melds_fault, "whether a changed meld is one of the player's own"),
    Rule.P7: (ten_fault, "whether hand and melds hold ten cards between turns"),
    Rule.P8: (must_take, "whether the live discard must be taken and added to one of the player's melds"),
    Rule.P9: (must_keep_draw, "whether an unused stock draw that fits a flat next player must be kept"),
    Rule.P10: (stock_fault, "whether a draw finds a card in the stock, and a reshuffle an empty stock"),
    Rule.M1: (judge, _M),
    Rule.M2: (judge, _M),
    Rule.M3: (judge, _M),
    Rule.M4: (judge, _M),
    Rule.M5: (grow, "what adding cards to a meld makes, or why it cannot"),
    Rule.M6: (borrowing_fault, "whether a borrow or split is allowed and leaves legal melds"),
    Rule.C1: (Set.conditions, _SET),
    Rule.C2: (Set.conditions, _SET),
    Rule.C3: (Set.conditions, _SET),
    Rule.C4: (Rope.conditions, _ROPE),
    Rule.C5: (Rope.conditions, _ROPE),
    Rule.C7: (keeps_value, "whether a change keeps a meld's value (it never drops)"),
    Rule.C8: (going_out_value, "what going out collects from each opponent"),
    Rule.C9: (check_claims, "whether a record's Ledger claim matches each player's net units"),
    Rule.I1: (deal_count_fault, "whether a player was dealt ten cards (at the deal, or shown later)"),
    Rule.I2: (foul_meld_ruling, "how a foul meld or addition is ruled: put right under I2, or stopped at"),
    Rule.I3: (closed_hand_fault, "whether anything is played or claimed after the hand is closed"),
    Rule.R3: (profile_from_mapping, "whether house rules name known knobs with valid values, from a built-in base"),
    Rule.G1: (pagruc_judges.pack_fault, "whether the players fit the packs and no card is seen past them"),
    Rule.G2: (pagruc_judges.deal_fault, "whether each player is dealt seven cards once, and one card is turned up"),
    Rule.G3: (
        pagruc_judges.turn_action_fault,
        "whether an action of a turn is in its place, a take of the cards on the pile",
    ),
    Rule.G4: (pagruc_judges.meld_fault, "whether a new meld is a run or a set"),
    Rule.G5: (pagruc_judges.lay_off_fault, "whether a player may lay off, and on what"),
    Rule.G6: (pagruc_judges.end_fault, "whether the hand has ended, and the stock is turned over rightly"),
    Rule.G7: (score_hand, "what a hand scores: the table's cards plus, the hand's minus"),
    Rule.G8: (game_order_problems, "whether a game's hands are seated, dealt and counted as an official game"),
    Rule.G9: (pagruc_points, "each player's place and PAGRUC points"),
}

_READER = "decided by the reader while it reads a record (pancli.records, pancli.notation: the text layer)"
_NOTATION = "decided by the card notation's grammar while it reads cards (pancli.notation.grammar, fast)"

NO_DECIDER: Final[Mapping[Rule, str]] = MappingProxyType(
    {
        Rule.E3: "a definition (Rank.is_valle, Rank.is_noncomoquer) that the conditions and M4 read",
        Rule.C6: "each kind of meld says what it is worth: Rope.value (rope_value) and Set.value",
        Rule.C10: "a principle: every payment is made of the melds as laid, none rearranges them",
        **{r: _READER for r in (Rule.R1, Rule.R2, Rule.R4, Rule.R5, Rule.R6, Rule.R7, Rule.R8, Rule.R9, Rule.R10)},
        **{r: _NOTATION for r in Rule if r.startswith("N")},
    }
)
"""Rule -> why no engine function decides it."""

DECIDERS: Final[Mapping[Rule, Callable[..., object]]] = MappingProxyType({r: f for r, (f, _) in _REGISTRY.items()})
"""Rule -> the one function that decides it."""

DECIDES: Final[Mapping[Rule, str]] = MappingProxyType({r: what for r, (_, what) in _REGISTRY.items()})
"""Rule -> what its deciding function decides, in a line."""

SHARED: Final = frozenset(
    {
        Rule.S1,
        Rule.E2,
        Rule.E4,
        Rule.M1,
        Rule.M2,
        Rule.M3,
        Rule.M4,
        Rule.M5,
        Rule.C7,
        Rule.C8,
        Rule.P7,
        Rule.P8,
        Rule.P9,
    }
)
"""The rules whose question the referee, the analyzer, the batches or self-play all ask."""
