"""Properties of the referee over self-play (hypothesis draws the seeds).

Every simulated hand replays with no violation, the ledger sums to zero, and every card is
accounted for at every step (hands + melds + discards + dead + stock = the pack, card by card).
Corrupting one action never raises anything but yields a violation where one is certain.
"""

from __future__ import annotations

from typing import Any

from hypothesis import assume, given, reject, settings
from hypothesis import strategies as st
from msgspec.structs import replace
from profiles_kit import KNOB_VALUES, any_profile

from pancli.cards import PAN_CARDS, Rank, Suit, card
from pancli.model.actions import Discard, Draw, HandScript, Take, Turn
from pancli.model.results import HandResult
from pancli.panrules import PanRules, cidx
from pancli.referee import Table, referee_script
from pancli.referee.simulate import simulate_hands
from pancli.rules import ConditionRate, Forcing, Profile, SetGrowth

NAMES = ("Ana", "Ben", "Cruz", "Dee", "Eve", "Fay", "Gus", "Hal")
profiles = any_profile
seeds = st.integers(min_value=0, max_value=2**32)
tables = st.integers(min_value=2, max_value=8)


def one_hand(seed: int, n: int, profile: object, skip: int = 0) -> HandScript:
    gen = simulate_hands(NAMES[:n], skip + 1, seed, profile)  # type: ignore[arg-type]
    for _ in range(skip):
        next(gen)
    return next(gen)


def account(t: Table) -> None:
    """Card by card: what the table shows plus the stock is the pack (E4)."""
    pack = t.profile.pack
    counts = [0] * 52
    for s in t.seats:
        for i, n in enumerate(s.hand):
            counts[i] += n
        for m in s.melds:
            for c in m.cards:
                counts[cidx(c)] += 1
    for c in t.pile:
        assert c is not None
        counts[cidx(c)] += 1
    limbo = list(t.borrowed)
    if t.seat is not None and t.pending is not None and not t.pending_used and not t.discarded:
        limbo.append(t.pending)
    for c in limbo:
        counts[cidx(c)] += 1
    assert counts == t.seen, "every card shown is where the table says"
    for i, c in enumerate(PAN_CARDS):
        assert 0 <= t.seen[cidx(c)] <= pack.copies(c), (i, c)
    assert sum(t.seen) + t.stock_n == pack.size
    assert sum(s.hand_n + s.melded_n for s in t.seats) + len(t.pile) + len(limbo) + t.stock_n == pack.size
    assert sum(t.ledger.net.values()) == 0


def replay_accounting(script: HandScript) -> Table:
    t = Table(script)
    for d in script.deals:
        t.verify_deal(d)
        t.verify_deal_count(d)
        t.apply_deal(d)
    t.verify_upcard()
    t.apply_upcard()
    account(t)
    for ev in script.events:
        if isinstance(ev, Turn):
            t.verify_turn(ev)
            t.begin_turn(ev)
            for a in ev.actions:
                t.apply(a, t.verify(a))
                if t.phase.value == "playing":
                    account(t)
            t.verify_turn_end()
            t.end_turn()
        else:
            t.play_event(ev)
        account(t)
    return t


@settings(max_examples=25)
@given(seed=seeds, n=tables, profile=profiles, skip=st.integers(0, 2))
def test_simulated_hands_replay_cleanly_with_every_card_accounted_for(
    seed: int, n: int, profile: object, skip: int
) -> None:
    script = one_hand(seed, n, profile, skip)
    assert len(script.deals) == n and script.upcard is not None
    r = referee_script(script)
    assert r.ok, r.violations
    assert sum(r.ledger.values()) == 0
    assert r.winner is not None or r.void
    t = replay_accounting(script)
    assert t.winner == r.winner
    fast = referee_script(script, record_steps=False)
    assert (fast.payments, fast.ledger, fast.winner, fast.void) == (r.payments, r.ledger, r.winner, r.void)
    assert fast == _general_path(script, record_steps=False)
    assert _general_path(script) == r
    assert len(r.steps) >= sum(len(e.actions) for e in script.events if isinstance(e, Turn))


def _general_path(script: HandScript, strict: bool = True, record_steps: bool = True) -> HandResult:
    """The result with :meth:`Table.fast_turn` off: every turn through verify/apply."""
    return referee_script(script, strict=strict, record_steps=record_steps, fast=False)


def _turns(script: HandScript) -> list[int]:
    return [k for k, e in enumerate(script.events) if isinstance(e, Turn)]


def _pick_turn(script: HandScript, data: st.DataObject) -> tuple[int, Turn] | None:
    """A turn of the hand drawn by hypothesis, with its index in the events (None: no turn)."""
    turns = _turns(script)
    if not turns:
        return None
    k = data.draw(st.sampled_from(turns))
    turn = script.events[k]
    assert isinstance(turn, Turn)
    return k, turn


def _with_turn(script: HandScript, k: int, turn: Turn) -> HandScript:
    events = list(script.events)
    events[k] = turn
    return replace(script, events=tuple(events))


def _same_verdict(script: HandScript) -> HandResult:
    """Never an exception; strict and non-strict agree on the first violation; ledger zero."""
    r = referee_script(script)
    lax = referee_script(script, strict=False, record_steps=False)
    assert sum(r.ledger.values()) == 0 and sum(lax.ledger.values()) == 0
    assert r.violations[:1] == lax.violations[:1]
    assert _general_path(script) == r
    assert _general_path(script, strict=False).violations == lax.violations
    # bulk replay (no steps) takes the fast paths for whole meld turns: the same result in full
    assert _general_path(script, strict=False, record_steps=False) == lax
    assert _general_path(script, record_steps=False) == referee_script(script, record_steps=False)
    return r


class _HouseRule(PanRules):
    """C6-C8 collections that come to ``extra`` units more than the payers pay (the house pays
    them; negative: the house's cut)."""

    def __init__(self, profile: Profile, extra: int) -> None:
        super().__init__(profile)
        self.extra = extra

    def collected(self, units: Any, payers: int) -> Any:
        return units * payers + self.extra


@settings(max_examples=40)
@given(seed=seeds, n=tables, profile=profiles, extra=st.sampled_from([-1, 1, 3]))
def test_C9_under_a_house_rule_the_ledger_agrees_with_the_collections_and_sums_to_zero(
    seed: int, n: int, profile: Profile, extra: int
) -> None:
    """Whatever the rules object says a collection comes to, the collector's net is what the
    collection lines say he collected less what he paid, the house's net what it paid in or
    took, and the whole sums to zero (C9); the hand is played as under the rulebook."""
    from pancli.model.results import HOUSE
    from pancli.render.words import collections

    script = one_hand(seed, n, profile)
    book = referee_script(script)
    r = referee_script(script, rules=_HouseRule(profile, extra))
    assert (r.winner, r.ending, r.violations) == (book.winner, book.ending, book.violations)
    assert sum(r.ledger.values()) == 0
    made = collections(r.payments)  # (a clean hand: nothing returned)
    for p in r.players:
        assert r.ledger[p] == sum(c.total for c in made if c.payee == p) - sum(c.units for c in made if p in c.payers)
    assert r.ledger.get(HOUSE, 0) == -sum(c.house for c in made)
    assert all(c.house == extra for c in made if c.total != c.units * len(c.payers))


@settings(max_examples=40)
@given(seed=seeds, n=tables, profile=profiles, data=st.data())
def test_dropping_the_draw_or_the_discard_is_a_violation(
    seed: int, n: int, profile: object, data: st.DataObject
) -> None:
    script = one_hand(seed, n, profile)
    picked = _pick_turn(script, data)
    assume(picked is not None)  # a hand won before any turn has none to change
    assert picked is not None
    k, turn = picked
    which = data.draw(st.sampled_from(["first", "discard"]))
    if which == "first":
        dropped = turn.actions[1:]
    else:
        assume(isinstance(turn.actions[-1], Discard))  # a turn that went out has no discard to drop
        dropped = turn.actions[:-1]
    r = _same_verdict(_with_turn(script, k, replace(turn, actions=dropped)))
    assert r.violations, f"dropping the {which} action of turn {k} went unnoticed"


def _flat_next_keeps(script: HandScript, k: int, first: object) -> bool:
    """Whether P9 makes keeping this stock draw legal at turn ``k`` (the next player is flat and it
    fits his melds): the referee's own predicate, asked on the table as it stood before the turn."""
    if not isinstance(first, Draw):
        return False
    t = Table(script)
    for d in script.deals:
        t.apply_deal(d, t.verify_deal(d))
    t.verify_upcard()
    t.apply_upcard()
    for ev in script.events[:k]:
        t.play_event(ev)
    turn = script.events[k]
    assert isinstance(turn, Turn)
    t.verify_turn(turn)
    t.begin_turn(turn)
    return t.rules.must_keep_draw(t.in_turn, t.next_seat, first.card)


def _certain_when_dropped(turn: Turn, j: int) -> bool:
    """Dropping the draw, the discard, or the only action that uses the drawn card is always noticed.

    (Dropping a meld of hand cards only is a different legal turn: the cards stay in the hand.)
    """
    first = turn.actions[0]
    if j == 0 or isinstance(turn.actions[j], Discard):
        return True
    assert isinstance(first, Draw | Take)
    users = [a for a in turn.actions[1:] if first.card in getattr(a, "cards", ())]
    return users == [turn.actions[j]]


@settings(max_examples=60)
@given(seed=seeds, n=tables, profile=profiles, data=st.data())
def test_corrupting_one_action_never_crashes(seed: int, n: int, profile: object, data: st.DataObject) -> None:
    script = one_hand(seed, n, profile)
    picked = _pick_turn(script, data)
    assume(picked is not None)  # a hand won before any turn has none to change
    assert picked is not None
    k, turn = picked
    j = data.draw(st.integers(0, len(turn.actions) - 1))
    a = turn.actions[j]
    new = data.draw(st.sampled_from(PAN_CARDS))
    kind = data.draw(st.sampled_from(["change", "drop"]))
    if kind == "drop":
        actions = turn.actions[:j] + turn.actions[j + 1 :]
    elif hasattr(a, "card"):
        actions = (*turn.actions[:j], replace(a, card=new), *turn.actions[j + 1 :])  # type: ignore[type-var]
    elif hasattr(a, "cards"):
        cs = list(a.cards)  # type: ignore[union-attr]
        cs[data.draw(st.integers(0, len(cs) - 1))] = new
        actions = (*turn.actions[:j], replace(a, cards=tuple(cs)), *turn.actions[j + 1 :])  # type: ignore[type-var]
    else:
        reject()  # an action without cards: nothing to change
    r = _same_verdict(_with_turn(script, k, replace(turn, actions=actions)))
    changed = actions != turn.actions
    if changed and kind == "drop" and _certain_when_dropped(turn, j):
        assert r.violations or _flat_next_keeps(script, k, turn.actions[0]), "the dropped use went unnoticed"
    if changed and isinstance(a, Take) and script.upcard is not None:
        assert r.violations  # only the live discard may be taken (P3)


def test_P9_a_stock_draw_kept_for_the_flat_next_player_needs_no_use() -> None:
    """Found by the property above: Eve draws Ad, which fits the flat Fay's meld; dropping Eve's
    addition of it leaves a legal turn (P9: she keeps it and discards a hand card)."""
    rate = ConditionRate(base=1, spades=2, extra=1, extra_spades=2)
    house = Profile(
        name="house", packs=10, spade_suits_removed=0, ante=0, forfeit=0, out_bonus=0,
        forcing=Forcing.AUTOMATIC, flat_rule=True, mixed_set_growth=SetGrowth.MISSING_SUIT, borrowing=False,
        conditions=(ConditionRate(1, 1, 1, 1), ConditionRate(2, 4, 1, 2), rate, rate, rate),
    )  # fmt: skip
    script = one_hand(859190187, 6, house)
    k = 76
    turn = script.events[k]
    assert (
        isinstance(turn, Turn)
        and isinstance(turn.actions[0], Draw)
        and turn.actions[0].card == card(Rank.ACE, Suit.DIAMONDS)
    )
    kept = _with_turn(script, k, replace(turn, actions=(turn.actions[0], turn.actions[2])))
    assert _flat_next_keeps(script, k, turn.actions[0])
    assert _same_verdict(kept).violations == ()


@settings(max_examples=30)
@given(seed=seeds, n=tables, profile=profiles, data=st.data())
def test_E4_deals_read_at_a_glance_rule_as_the_general_path(
    seed: int, n: int, profile: object, data: st.DataObject
) -> None:
    """A deal is applied in one go when it passes every check; a deal that breaks E1, E4, I1 or S2
    gets the general path's ruling (and nothing of it stays applied)."""
    script = one_hand(seed, n, profile)
    k = data.draw(st.integers(0, len(script.deals) - 1))
    c = data.draw(st.sampled_from(PAN_CARDS))
    count = data.draw(st.sampled_from([10, 9, 11]))
    deals = list(script.deals)
    deals[k] = replace(deals[k], cards=(c,) * count)
    if data.draw(st.booleans()):
        deals.append(deals[k])  # dealt twice (S2), and copies beyond the pack (E4)
    broken = replace(script, deals=tuple(deals))
    for strict in (True, False):
        fast = referee_script(broken, strict=strict, record_steps=False)
        assert fast == _general_path(broken, strict=strict, record_steps=False)


def test_the_profiles_cover_every_knob() -> None:
    """A knob added to Profile must get values here, or the properties above never try it."""
    assert set(KNOB_VALUES) == set(Profile.__struct_fields__)
