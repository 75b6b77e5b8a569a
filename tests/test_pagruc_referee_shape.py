"""The PAGRUC referee's shape, as Panguingue's: ``verify`` asks the judges and changes nothing,
``apply`` carries out the plan; every ruling is the model's :class:`Ruling` carrying a
:class:`Violation` (rule G1-G6; G7 is a claim)."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from pagruc_selfplay import corpus

from pancli.cards import Card
from pancli.model.actions import HandScript
from pancli.model.results import Ruling, Violation
from pancli.pagruc import judges
from pancli.pagruc.referee import PagrucTable, referee_script
from pancli.records import read_hands

ROOT = Path(__file__).resolve().parent.parent


def _scripts() -> Iterator[HandScript]:
    texts = [p.read_text(encoding="utf-8") for p in sorted((ROOT / "samples").glob("pagruc-*.pan"))]
    for text in [*texts, *corpus(5, 12)]:
        for hand in read_hands(io.StringIO(text), "x.pan", ROOT):
            if hand.script is not None and hand.script.game.value == "pagruc":
                yield hand.script


def _state(t: PagrucTable) -> tuple[Any, ...]:
    """Everything a verify might change, copied (the cards and melds are values; what is only
    appended to, by its length)."""
    return (
        {p: (tuple(h.known), h.hidden) for p, h in t.hands.items()},
        {p: tuple(ms) for p, ms in t.melds.items()},
        tuple(t.order),
        tuple(t.pile),
        t.stock,
        None if t.stock_known is None else dict(t.stock_known),
        dict(t.seen),
        len(t.claims),
        len(t.notes),
        len(t.steps),
        t.winner,
        t.next_index,
        t.turn_no,
        t.picked,
        t.discarded,
    )


VERIFIERS = [name for name in vars(PagrucTable) if name.startswith("verify")]


def test_the_verifiers_are_the_table_s() -> None:
    assert set(VERIFIERS) == {
        "verify_seating",
        "verify_deal",
        "verify_upcard",
        "verify_event",
        "verify_turn",
        "verify",
        "verify_turn_end",
    }


def test_verify_changes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every verify of every line of the samples and of self-played hands (mutated too, so that
    the judges find something) leaves the table as it was, ruling or not."""
    calls: dict[str, int] = dict.fromkeys(VERIFIERS, 0)
    rulings: dict[str, int] = dict.fromkeys(VERIFIERS, 0)

    def watched(name: str, method: Callable[..., Any]) -> Callable[..., Any]:
        def verify(self: PagrucTable, *args: Any) -> Any:
            before = _state(self)
            calls[name] += 1
            try:
                return method(self, *args)
            except Ruling:
                rulings[name] += 1
                raise
            finally:
                assert _state(self) == before, name

        return verify

    for name in VERIFIERS:
        monkeypatch.setattr(PagrucTable, name, watched(name, getattr(PagrucTable, name)))
    for script in _scripts():
        referee_script(script, strict=False)
        referee_script(script)
    assert all(calls.values()), calls
    assert rulings["verify"] and rulings["verify_event"], rulings


def _recount(t: PagrucTable, c: Card) -> int:
    """The copies of ``c`` in a known place, counted over the table: what ``PagrucBoard.seen`` keeps."""
    known = sum(h.known.count(c) for h in t.hands.values())
    melded = sum(m.meld.cards.count(c) for m in t.order)
    return t.pile.count(c) + known + melded + (t.stock_known[c] if t.stock_known is not None else 0)


def test_G1_the_cards_seen_are_counted_as_they_come_to_light() -> None:
    """The board's count of the copies of each card in a known place (G1's, kept as cards are
    dealt, drawn and played from unknown ones) is a recount of the table after every line, strict
    or not, a line taken back (pop) too."""
    from pancli.cards import ALL_CARDS

    checked = 0
    for script in _scripts():
        for strict in (True, False):
            t = PagrucTable(script, strict=strict, undo=True)
            t.deal_in()
            for ev in script.events:
                t.push(ev)
                assert all(t.visible(c) == _recount(t, c) for c in ALL_CARDS), (ev.line, strict)
                checked += 1
                if t.stopped:
                    break
            while t.pushed:
                t.pop()
                assert all(t.visible(c) == _recount(t, c) for c in ALL_CARDS)
    assert checked > 500, checked


def test_every_ruling_is_the_model_s_violation_of_a_G_rule() -> None:
    seen: set[str] = set()
    for script in _scripts():
        for r in (referee_script(script, strict=False), referee_script(script)):
            assert all(type(v) is Violation for v in r.violations)
            seen |= {str(v.rule) for v in r.violations}
            assert {str(c.rule) for c in r.claims} <= {"G7"}
    assert seen <= {"G1", "G2", "G3", "G4", "G5", "G6"} and {"G1", "G3", "G6"} <= seen, seen


def test_a_judge_returns_its_ruling_and_raises_nothing() -> None:
    from pancli.cards import Game

    t = PagrucTable(HandScript(players=("Ana", "Ben", "Cy"), game=Game.PAGRUC))
    r = judges.turn_player_fault(t, 4, 1, "Zed")
    assert isinstance(r, Ruling) and (r.violation.rule, r.violation.line, r.violation.player) == ("G3", 4, "Zed")
    assert judges.turn_player_fault(t, 4, 1, "Ana") is None


def test_G6_the_pagruc_referee_records_how_each_hand_ended_and_every_output_reads_it(tmp_path: Path) -> None:
    """Out (G6), stopped by a violation, or unfinished: recorded once by the referee; the plain,
    terminal and HTML forms and the JSON say the same (they used to disagree on a stopped hand)."""
    import io
    import json

    from click.testing import CliRunner

    from pancli.cli import cli
    from pancli.pagruc.referee import referee_script
    from pancli.records import read_hands
    from pancli.rules import Ending

    root = Path(__file__).resolve().parent.parent / "samples"
    endings = []
    for name in ("pagruc-common-room.pan", "pagruc-illegal.pan"):
        for h in read_hands(io.StringIO((root / name).read_text(encoding="utf-8"))):
            assert h.script is not None
            r = referee_script(h.script)
            endings.append((r.ending, r.ending_rule))
            assert (r.ending is Ending.OUT) == (r.winner is not None) == r.finished
            assert (r.ending is Ending.STOPPED) == (r.ending_rule == (r.violations[-1].rule if r.violations else ""))
    assert (Ending.OUT, "G6") in endings and (Ending.STOPPED, "G4") in endings
    cut = "\n".join((root / "pagruc-common-room.pan").read_text(encoding="utf-8").split("\n")[:20]) + "\n"
    assert referee_script(next(iter(read_hands(io.StringIO(cut)))).script).ending is Ending.UNFINISHED  # type: ignore[arg-type]
    illegal = str(root / "pagruc-illegal.pan")
    runner = CliRunner()
    plain = runner.invoke(cli, ["replay", "--plain", illegal]).output
    assert plain.count("stopped by a violation (G") == 4
    runner.invoke(cli, ["replay", "--html", str(tmp_path / "page.html"), illegal])
    page = (tmp_path / "page.html").read_text(encoding="utf-8")
    assert page.count("stopped by a violation (G") == 4 and "unfinished: nobody went out" not in page
    items = json.loads(runner.invoke(cli, ["replay", "--json", illegal]).stdout)
    assert [(i["ending"], i["ending_rule"]) for i in items] == [("stopped", i["violations"][-1]["rule"]) for i in items]
