"""What ``pan analyze`` does before it renders: reading a hand literal (a trailing ``+CARD``
is the drawn card), the ``--melds``, ``--seen`` and ``--draw`` values, finding a position in a
record (the hand holding a line, refereed up to it), and running the analysis and advice.

Every bad input is an :class:`InputProblem` with its place and rule or notation code.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import IO, TYPE_CHECKING, Final

from msgspec import field
from msgspec.structs import replace

from pancli.app.lines import InputLine, batch_text
from pancli.cards import Card, Game, format_cards
from pancli.limits import MAX_SAMPLES
from pancli.melds import Meld as Meld
from pancli.rules import Profile
from pancli.values import Value

if TYPE_CHECKING:
    from pancli.analyze.advice import Advice as Advice
    from pancli.analyze.analysis import Analysis as Analysis
    from pancli.notation import PackSpellings
    from pancli.panrules import PanRules
    from pancli.referee.position import Position
    from pancli.refusals import Unseated

Analysed = tuple["Analysis", "Advice | None"]
"""An analysis and its advice (None without ``--advice``)."""


SAMPLES: Final = range(1, MAX_SAMPLES + 1)
"""The Monte Carlo samples an analysis takes (``--samples``; R10's bound, the API's too)."""


class InputProblem(Exception):
    """Bad input: where it is and the rule or notation code it breaks; ``usage``: a usage error
    (the input cannot be analysed at all) rather than an illegal or unreadable hand."""

    def __init__(self, where: str, col: int, rule: str, message: str, line: int = 1, usage: bool = False) -> None:
        super().__init__(message)
        self.where, self.col, self.rule, self.message = where, col, rule, message
        self.line, self.usage = line, usage


def _held(rules: PanRules | None) -> PackSpellings | None:
    """The cards read: the pack of ``rules`` (E1, its ``copies``), or the usual pack without one."""
    from pancli.notation import pack_spellings  # start-up: pan analyze --help does without it

    return None if rules is None else pack_spellings(rules.copies)


def _read_cards(text: str, where: str, line: int = 1, rules: PanRules | None = None) -> tuple[tuple[Card, ...], ...]:
    """The bracketed groups of a hand literal, then its loose cards as one more group (of the
    cards the pack of ``rules`` holds)."""
    from pancli.notation import NotationError, parse_hand  # start-up: pan analyze --help does without it

    try:
        hand = parse_hand(text, Game.PANGUINGUE, _held(rules))
    except NotationError as exc:
        raise InputProblem(where, exc.col, exc.code, exc.message, line) from None
    groups = list(hand.groups)
    if hand.loose:
        groups.append(hand.loose)
    return tuple(groups)


def read_hand(
    text: str, draw: str | None, where: str = "<hand>", line: int = 1, rules: PanRules | None = None
) -> tuple[tuple[Card, ...], Card | None]:
    """The hand and the drawn card: a trailing ``+CARD`` or ``--draw CARD``. ``where`` and
    ``line`` place the errors (``-`` and the line number for a hand read from standard input);
    the cards are read in the pack of ``rules`` (E1; the usual pack when None).

    >>> cards, drawn = read_hand("5sss 3h 4h Kd Kh Kc 2c 7d +5h", None)
    >>> len(cards), str(drawn)
    (10, '5h')
    """
    # start-up: pan analyze --help does without these
    from pancli.notation import NotationError, parse_card
    from pancli.notation.fast import unread_error

    unread = unread_error(text)
    if unread is not None:
        raise InputProblem(where, unread.col, unread.code, unread.message, line)
    if "+" not in text:
        cards = tuple(c for g in _read_cards(text, where, line, rules) for c in g)
        return cards, None if draw is None else read_draw(draw, rules)
    cut = text.rindex("+")
    if draw is not None:
        from pancli.rulebook import Rule  # only for an error: ``pan analyze`` starts without it

        raise InputProblem(where, cut + 1, Rule.P7, "two drawn cards: a trailing +CARD and --draw CARD", line)
    cards = tuple(c for g in _read_cards(text[:cut], where, line, rules) for c in g)
    try:
        return cards, parse_card(text[cut + 1 :], Game.PANGUINGUE, _held(rules))
    except NotationError as exc:
        raise InputProblem(where, cut + 1 + exc.col, exc.code, exc.message, line) from None


def read_draw(draw: str, rules: PanRules | None = None) -> Card:
    """The ``--draw`` card, of the pack of ``rules`` (raises InputProblem at ``<draw>``)."""
    from pancli.notation import NotationError, parse_card  # start-up: pan analyze --help does without it

    try:
        return parse_card(draw, Game.PANGUINGUE, _held(rules))
    except NotationError as exc:
        raise InputProblem("<draw>", exc.col, exc.code, exc.message) from None


def read_melds(texts: Sequence[str], rules: PanRules) -> tuple[Meld, ...]:
    """The player's melds on the table: each ``--melds`` value is one meld, or ``[...]`` groups,
    judged by ``rules`` (M1-M4; the pack it holds: E1, E4)."""
    out: list[Meld] = []
    for i, text in enumerate(texts, 1):
        for group in _read_cards(text, f"<melds {i}>", 1, rules):
            v = rules.judge(group)
            if v.meld is None:
                from pancli.rulebook import Rule  # start-up: pan analyze does without it

                raise InputProblem(f"<melds {i}>", 1, v.rule or Rule.M1, f"{format_cards(group)}: {v.reason}")
            out.append(v.meld)
    return tuple(out)


def read_seen(seen: Sequence[str], rules: PanRules | None = None) -> tuple[Card, ...]:
    """The cards of the ``--seen`` values, of the pack of ``rules``."""
    return tuple(c for i, t in enumerate(seen, 1) for g in _read_cards(t, f"<seen {i}>", 1, rules) for c in g)


# --------------------------------------------------------------------------- record positions


class RecordSpot(Value):
    """A position read from a record: the file, the 1-based hand number in it, the position."""

    file: str
    hand: int
    position: Position


def _usage(file: str, line: int, rule: str, message: str, col: int = 1) -> InputProblem:
    return InputProblem(file, col, rule, message, line, usage=True)


def read_position(
    name: str,
    line: int,
    player: str | None,
    profile: Profile | None,
    open_record: Callable[[str], IO[str]],
    rules_of: Callable[[Profile], PanRules] | None = None,
) -> RecordSpot:
    """``player``'s position at ``line`` of the record ``name`` (``-``: standard input), in the
    hand that holds the line; without ``player``, the player whose turn or decision the line is.
    ``profile`` overrides the hand's Rules tag; ``rules_of`` gives the rules object of the hand's
    profile that the position asks (:meth:`Job.rules_of`: the one the analysis asks too; a fresh
    one without). Raises InputProblem."""
    # start-up: pan analyze does without these
    from pancli.records import read_hands
    from pancli.records.tags import record_folder
    from pancli.referee.position import PositionUnavailable, PositionViolation, acting_player, position_at
    from pancli.rulebook import Rule

    def held(game: Game, hand_profile: Profile) -> tuple[int, ...] | None:
        """The cards a hand is read in: the pack of the rules object its position asks (E1)."""
        if rules_of is None or game is not Game.PANGUINGUE:
            return None
        return rules_of(hand_profile if profile is None else profile).copies

    spans: list[str] = []
    found = None
    with open_record(name) as stream:
        for hand in read_hands(stream, name, record_folder(name), packs=held):
            if hand.first_line > line:
                break
            if line <= hand.last_line:
                found = hand
                break
            spans.append(f"{hand.first_line}-{hand.last_line}")
    if found is None:
        where = f"its hands span lines {', '.join(spans)}" if spans else "no hand comes before it"
        raise _usage(name, line, Rule.R7, f"line {line} is in no hand of the record ({where})")
    if found.error is not None:
        e = found.error
        raise InputProblem(name, e.col, e.code, f"{e.message} (hand {found.index} is malformed)", e.line)
    script = found.script
    assert script is not None
    if profile is not None:
        script = replace(script, profile=profile)
    if player is not None:
        # start-up: only --player reads a name
        from pancli.notation.record_common import player_name

        player = player_name(player)  # --player José matches however the record spells it (NFC)
    if player is None:
        player = acting_player(script, line)
        if player is None:
            raise _usage(name, line, Rule.R5, f"line {line} is no player's turn or decision: give --player NAME")
    try:
        pos = position_at(script, line, player, None if rules_of is None else rules_of(script.profile))
    except PositionViolation as e:
        msg = f"{e.message} (hand {found.index} breaks a rule before line {line}: no position to analyse)"
        raise InputProblem(name, e.col or 1, e.rule, msg, e.line or line) from None
    except PositionUnavailable as e:
        raise _usage(name, e.line or line, e.rule, e.message, e.col or 1) from None
    return RecordSpot(name, found.index, pos)


# --------------------------------------------------------------------------- analyses


class Job(Value):
    """What every analysis of one invocation shares: the options."""

    profile: Profile
    players: int
    samples: int
    seed: int
    advice: bool
    payers: int | None = None
    """Who pay the player's collections when a record position says (:attr:`.Position.payers`);
    None: the rules object's ``payers`` of :attr:`players`."""
    on_sample: Callable[[], None] | None = None
    """Told after each ``advice`` sample (the command line's progress line)."""
    rules_by: dict[Profile, PanRules] = field(default_factory=dict)
    """The rules object of each profile met, built with its first hand and asked by every
    analysis of the invocation, with its meld space (what the searches learn of its melds is
    kept there: :meth:`PanRules.meld_space`)."""

    def telling(self, on_sample: Callable[[], None]) -> Job:
        """This job, ``on_sample`` told after each advice sample (a progress line)."""
        return replace(self, on_sample=on_sample)

    def seating(self) -> Unseated | None:
        """Why the rules object of :attr:`profile` cannot seat :attr:`players` (S1), or None."""
        return self.rules().seating(self.players)

    def rules(self) -> PanRules:
        """The rules object of :attr:`profile`."""
        return self.rules_of(self.profile)

    def rules_of(self, profile: Profile) -> PanRules:
        """The invocation's rules object of ``profile`` (a record position's, then its analysis's)."""
        got = self.rules_by.get(profile)
        if got is None:
            from pancli.panrules import PanRules  # start-up: pan analyze --help does without it

            got = self.rules_by[profile] = PanRules(profile)
        return got

    def read_melds(self, texts: Sequence[str]) -> tuple[Meld, ...]:
        """The ``--melds`` values as judged by the rules object of :attr:`profile` (:func:`read_melds`)."""
        return read_melds(texts, self.rules())

    def analyse(
        self,
        cards: Sequence[Card],
        drawn: Card | None,
        table: Sequence[Meld],
        seen: Sequence[Card],
        where: str,
        line: int,
        keep: Card | None = None,
    ) -> tuple[Analysis, Advice | None]:
        """The analysis (and the advice with ``advice``); an impossible hand (P7, E4, S1) is an
        InputProblem at ``where``:``line``. ``keep``: a record position's P9 (the card that may
        not be the discard: ``Position.kept``)."""
        # start-up: pan analyze --help does without these
        from pancli.analyze.analysis import ImpossiblePosition
        from pancli.analyze.analysis import analyze as run

        try:
            rules = self.rules()
            space = rules.meld_space()
            result = run(
                cards, self.profile, drawn, table, seen, self.players, samples=self.samples, seed=self.seed,
                space=space, rules=rules, keep=keep, payers=self.payers,
            )  # fmt: skip
            if not self.advice:
                return result, None
            from pancli.analyze.advice import advise  # only --advice pays for importing it

            return result, advise(
                result, rules, samples=self.samples, seed=self.seed, progress=self.on_sample, space=space
            )
        except ImpossiblePosition as exc:
            raise InputProblem(where, 1, exc.rule, exc.message, line) from None

    def at_position(self, spot: RecordSpot) -> tuple[Analysis, Advice | None]:
        """The analysis of a record position: its profile, its active players (T3) and those who
        pay the player (the position's payers: active opponents and players retired from the hand,
        I1, I2)."""
        pos = spot.position
        job = replace(self, profile=pos.profile, players=pos.players, payers=pos.payers)
        return job.analyse(pos.hand, pos.drawn, pos.melds, pos.seen, spot.file, pos.line, pos.kept)

    def analyse_lines(
        self, items: Iterable[InputLine], draw: str | None, table: Sequence[Meld], seen: Sequence[Card]
    ) -> Iterator[tuple[InputLine, tuple[Analysis, Advice | None] | InputProblem]]:
        """Each line of a batch (``#`` comments cut) with its analysis, or the problem placed at
        that line. A hand is read and analysed once however often it comes (the analysis is
        deterministic): a bounded memo by text, for the batches that repeat lines
        (benchmarks/README.md, "Figures behind the code")."""
        memo: dict[str, tuple[Analysis, Advice | None] | InputProblem] = {}
        for item in items:
            text = batch_text(item.text)
            outcome = memo.get(text)
            if outcome is None:
                try:
                    cards, drawn = read_hand(text, draw, item.file, item.line, self.rules())
                    outcome = self.analyse(cards, drawn, table, seen, item.file, item.line)
                except InputProblem as exc:
                    outcome = exc
                if len(memo) < 10_000:
                    memo[text] = outcome
            if isinstance(outcome, InputProblem):
                o = outcome
                outcome = InputProblem(item.file, o.col, o.rule, o.message, item.line, o.usage)
            yield item, outcome
