"""The self-play generator: seeded, complete and legal hands that follow the documented policy."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from msgspec.structs import replace

from pancli.model.actions import Decision, Discard, Draw, Force, Take, Turn
from pancli.model.results import HandResult
from pancli.notation.fast import fast_cards
from pancli.panrules import PanRules
from pancli.referee import referee_script
from pancli.referee import simulate as sim
from pancli.referee.simulate import simulate_hands
from pancli.referee.table import Table
from pancli.rules import CARDROOM, HOYLE

SIX = ("Ana", "Ben", "Cruz", "Dee", "Eve", "Fay")


def test_identical_seeds_give_identical_scripts() -> None:
    a = list(simulate_hands(SIX, 5, seed=42, profile=HOYLE))
    b = list(simulate_hands(SIX, 5, seed=42, profile=HOYLE))
    c = list(simulate_hands(SIX, 5, seed=43, profile=HOYLE))
    assert a == b
    assert a != c


@pytest.mark.parametrize("profile", [HOYLE, CARDROOM], ids=["hoyle", "cardroom"])
@pytest.mark.parametrize("n", [2, 4, 9, 15])
def test_hands_are_complete_and_legal(profile: object, n: int) -> None:
    players = tuple(f"P{i}" for i in range(n))
    for s in simulate_hands(players, 8, seed=n, profile=profile):  # type: ignore[arg-type]
        assert s.profile is profile and set(s.players) == set(players)
        assert [d.player for d in s.deals] == list(s.players) and all(len(d.cards) == 10 for d in s.deals)
        assert [e.player for e in s.events[:n] if isinstance(e, Decision)] == list(s.players)
        r = referee_script(s)
        assert r.ok, r.violations
        assert r.winner is not None or r.void


def test_policy_exercises_forcing_and_the_flat_rule() -> None:
    seen: Counter[str] = Counter()
    for profile in (HOYLE, CARDROOM):
        for s in simulate_hands(SIX[:4], 60, seed=9, profile=profile):
            for e in s.events:
                if isinstance(e, Force):
                    seen[f"force-{profile.name}"] += 1
                elif isinstance(e, Turn):
                    first, last = e.actions[0], e.actions[-1]
                    if isinstance(first, Take):
                        seen["take"] += 1
                    if isinstance(first, Draw) and isinstance(last, Discard) and len(e.actions) == 2:
                        seen["keep-P9" if first.card != last.card else "draw-discard"] += 1
            seen["top"] += sum(1 for e in s.events if isinstance(e, Decision) and not e.stay)
    assert seen["force-hoyle"] > 0 and seen["force-cardroom"] == 0
    assert seen["keep-P9"] > 0 and seen["take"] > 0 and seen["top"] > 0


def test_bad_seating_is_refused() -> None:
    with pytest.raises(ValueError, match="2 to 15"):
        next(simulate_hands(("Ana",), 1, seed=1, profile=HOYLE))
    with pytest.raises(ValueError, match="unique"):
        next(simulate_hands(("Ana", "Ana"), 1, seed=1, profile=HOYLE))


# --------------------------------------------------------------------------- played on the position


def test_self_play_keeps_no_state_the_position_holds() -> None:
    """Self-play plays each hand on the referee's Table: what each player holds and has laid,
    the pile, the live discard, whose turn it is and how the hand ended are the table's. Its own
    are the stock's order, each player's order of his cards and the lines it writes."""
    play = sim._HandPlay(SIX[:4], sim._Policy(PanRules(HOYLE)), random.Random(3), [c.index for c in HOYLE.pack.full()])
    assert set(vars(play)) == {"policy", "rng", "stock", "dealt", "table", "arranged", "events", "reshuffles"}
    assert isinstance(play.table, Table)
    script, _ = play.play()
    assert play.table.to_act is None and script.events == tuple(play.events)
    for s in play.table.seats:  # his order holds exactly the table's cards
        assert Counter(play.arranged[s.name]) == Counter({i: n for i, n in enumerate(s.hand) if n})


def test_self_play_reads_each_player_s_cards_from_the_table() -> None:
    """The cards a player chooses from are the table's counts (his order only orders them)."""
    play = sim._HandPlay(SIX[:3], sim._Policy(PanRules(HOYLE)), random.Random(5), [c.index for c in HOYLE.pack.full()])
    seat = play.table.seats[0]
    order = play.arranged[seat.name]
    assert play._held(seat) == order
    gone, extra = order[0], next(i for i in range(52) if not seat.hand[i])
    play.arranged[seat.name] = [*order[1:], extra]  # a card dropped, one he does not hold added
    assert play._held(seat) == [*order[1:], gone]


def test_S3_self_play_seats_the_next_hand_by_the_table_s_winner(monkeypatch: pytest.MonkeyPatch) -> None:
    """The next hand's order is the rules object's ``next_order`` after the winner the table's
    result names: a table that names another winner seats the next hands otherwise."""
    names = SIX[:4]
    played = list(simulate_hands(names, 5, seed=4, profile=HOYLE))
    finish = Table.finish

    def dee_wins(self: Table) -> HandResult:
        return replace(finish(self), winner="Dee")

    monkeypatch.setattr(Table, "finish", dee_wins)
    seated = list(simulate_hands(names, 5, seed=4, profile=HOYLE))
    assert [h.players[0] for h in played[1:]] != ["Dee"] * 4
    assert [h.players for h in seated[1:]] == [("Dee", "Ana", "Ben", "Cruz")] * 4


def test_P9_a_line_the_referee_refuses_is_a_fault_of_self_play(monkeypatch: pytest.MonkeyPatch) -> None:
    """A pushed line the referee refuses raises: here self-play is told it never keeps a draw
    (P9) while the referee asks the rules object, which says it must."""
    monkeypatch.setattr(Table, "must_keep", lambda self, c: False)
    with pytest.raises(sim.SelfPlayError, match=r"\(P9\)"):
        list(simulate_hands(SIX[:4], 60, seed=9, profile=HOYLE))


def test_the_least_useful_card_is_the_first_of_the_lowest_score() -> None:
    """3 for each copy of it held, 2 for a card of its rank or of its suit one rank away, 1 for
    its suit two ranks away (7 and J are one rank apart in the pan pack: E2)."""
    hand = [c.index for c in fast_cards("5s 5s 6s Kd 2h 7c Jc")]
    # 5s: 3 + 2 = 5; 6s: 2 + 2 = 4; Kd, 2h: 0; 7c, Jc: 2 each
    assert sim._least_useful(hand, avoid=-1) == hand[3]
    assert sim._least_useful(hand, avoid=hand[3]) == hand[4]
    assert sim._least_useful(hand[5:], avoid=-1) == hand[5]


def test_T1_strength_counts_pairs_of_a_rank_and_suited_neighbours() -> None:
    hand = [c.index for c in fast_cards("5s 5s 6s Kd Kh 2h 7c Jc")]
    assert sim._strength(hand) == 1 + 2 + 1 + 1  # 5s 5s; 5s 6s twice; Kd Kh; 7c Jc (one apart, E2)
