"""The state of one PAGRUC hand (:class:`PagrucBoard`), which the judges of :mod:`~pancli.pagruc.judges`
read and :class:`~pancli.pagruc.referee.PagrucTable` changes.

The board keeps the table as it stands: every hand (the cards known to be in it, and how many
unknown ones when a player has no deal line), the stock (how many cards, and which ones once
the discard pile has been turned over), the discard pile and every meld with who laid each of
its cards. It judges nothing.

>>> from pancli.cards import Game
>>> from pancli.model.actions import HandScript
>>> b = PagrucBoard(HandScript(players=("Ana", "Ben", "Cy"), game=Game.PAGRUC))
>>> b.pack.packs, b.hands["Ana"].size, b.players[b.next_index]
(1, 7, 'Ana')
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from pancli.cards import Card
from pancli.model.actions import Action, Event, HandScript
from pancli.model.results import ClaimCheck, Ruling, Source, Step
from pancli.pagruc.melds import PagrucMeld
from pancli.pagruc.pack import PagrucPack
from pancli.pagruc.rules import PagrucRules
from pancli.pagruc.scoring import CardScore
from pancli.rulebook import Rule
from pancli.values import Value

"""Cards dealt to each player (G2)."""


class TableMeld(Value):
    """A meld on the table: its owner (who laid it first), its number among the owner's melds
    (1-based, order laid), the meld, who laid each card, and the line where it was laid."""

    owner: str
    number: int
    meld: PagrucMeld
    laid_by: tuple[tuple[str, Card], ...]
    line: int = 0

    @property
    def label(self) -> str:
        """``Ana#2``: how a record names it in ``lay CARDS on Ana#2``."""
        return f"{self.owner}#{self.number}"


class PagrucHand:
    """A player's hand: the cards known to be in it, and how many unknown ones."""

    __slots__ = ("hidden", "known")

    def __init__(self, known: list[Card], hidden: int = 0) -> None:
        self.known = known
        self.hidden = hidden

    @property
    def size(self) -> int:
        return len(self.known) + self.hidden


class PagrucBoard:
    """What the table shows during one hand, and the turn in progress (no rule is judged here)."""

    def __init__(self, script: HandScript, *, record_steps: bool = True, rules: PagrucRules | None = None) -> None:
        self.script = script
        self.rules = rules or PagrucRules()
        """The questions the hand's judges ask (G1, G4, G5, G7)."""
        self.record_steps = record_steps
        self.players = script.players
        self.pack: PagrucPack = self.rules.pack(len(self.players), self.rules.record_packs(script.packs))
        self.hands: dict[str, PagrucHand] = {p: PagrucHand([], self.rules.deal_size) for p in self.players}
        self.melds: dict[str, list[TableMeld]] = {p: [] for p in self.players}
        self.order: list[TableMeld] = []
        """The melds on the table in the order laid (each also in its owner's list of :attr:`melds`)."""
        self.contrib: dict[str, list[CardScore]] = {p: [] for p in self.players}
        self.pile: list[Card] = []
        self.stock = 0
        self.stock_known: Counter[Card] | None = None
        """The turned-over stock's cards (None before the first ``reshuffle``: unknown)."""
        self.seen: Counter[Card] = Counter()
        """The copies of each card whose place is known (:meth:`visible`), counted as each comes to
        light (dealt, turned up, drawn from the unknown stock, played from a hand's unknown cards):
        a card once seen stays in a known place, so G1's count is this, not a recount of the table
        at each card (the cost is in benchmarks/README.md)."""
        self.claims: list[ClaimCheck] = []
        self.steps: list[Step] = []
        self.winner: str | None = None
        self.ended_line = 0
        self.next_index = 0
        self.turn_no = 0
        self.dealt = False
        # the turn in progress: an action was tried (the take comes first), a discard was made
        self.picked = False
        self.discarded = False

    def fail(self, rule: Rule, message: str, line: int, col: int, player: str | None) -> Ruling:
        """A ruling citing ``rule`` at ``line``:``col``, by ``player``, in the turn being played.

        The rulebook's prescribed ruling is left out: a PAGRUC violation prints its message only."""
        return Ruling.make(rule, player, message, line=line, col=col, turn=self.turn_no, ruling="")

    def visible(self, c: Card) -> int:
        """Copies of ``c`` whose place is known: known hand cards, melds, the pile, a turned-over
        stock (:attr:`seen`; tests/test_pagruc.py counts them there after every line)."""
        return self.seen.get(c, 0)  # (0 for a card not seen yet, without a call to Counter.__missing__)

    def has_meld(self, player: str) -> bool:
        return bool(self.melds[player])

    def step(self, line: int, col: int, player: str | None, event: Event | None, action: Action | None,
             moves: Iterable[tuple[Card, Source, Source]]) -> None:  # fmt: skip
        if self.record_steps:
            self.steps.append(Step(line, col, player, event, action, tuple(moves)))
