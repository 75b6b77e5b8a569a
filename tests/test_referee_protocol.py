"""Panguingue and PAGRUC behind one referee protocol: one result protocol
(:class:`~pancli.model.results.JudgedHand`, tagged by ``game``), one sink hook
(:meth:`~pancli.app.replay.HandSink.hand`, given one :class:`~pancli.app.report.HandReport`),
every exporter of :mod:`pancli.render` taking that report whatever the game, no ``Any`` in those
signatures."""

from __future__ import annotations

import inspect
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from pancli.app.replay import Tally, referee, replay_files
from pancli.app.report import HandReport
from pancli.cards import Game
from pancli.cli.common import open_text
from pancli.model.actions import HandScript
from pancli.model.results import JudgedHand
from pancli.notation.layout import RecordHand
from pancli.pagruc.referee import referee_script as pagruc_referee
from pancli.records import read_hands
from pancli.referee import referee_script as pan_referee
from pancli.render.json import hand_item
from pancli.render.plain import hand_text

if TYPE_CHECKING:
    from pancli.app.replay import HandSink, Referee, RefereedHand


@dataclass
class Recorder:
    """A sink that keeps what it is given."""

    wants_steps: bool = False
    got: list[tuple[RecordHand, HandScript, RefereedHand]] = field(default_factory=list)
    bad: list[RecordHand] = field(default_factory=list)
    closed: Tally | None = None

    def hand(self, report: HandReport) -> None:
        self.got.append((report.hand, report.script, report.result))

    def malformed(self, hand: RecordHand) -> None:
        self.bad.append(hand)

    def close(self, tally: Tally, stopped: bool) -> None:
        self.closed = tally


def _replay(names: list[str], wants_steps: bool = False) -> Recorder:
    sink = Recorder(wants_steps)
    replay_files(names, sink, open_record=open_text, strict=False, profile=None)
    return sink


def test_both_games_reach_the_one_sink_hook_tagged_by_their_game(samples: Path) -> None:
    sink: HandSink = Recorder()
    names = [str(samples / "friday-hoyle.pan"), str(samples / "pagruc-common-room.pan")]
    replay_files(names, sink, open_record=open_text, strict=False, profile=None)
    assert isinstance(sink, Recorder)
    games = {r.game for _, _, r in sink.got}
    assert games == {Game.PANGUINGUE, Game.PAGRUC}
    for hand, script, result in sink.got:
        assert script.game is result.game
        assert hand.script is not None and hand.script.game is result.game
        judged: JudgedHand = result  # both result types are the protocol
        assert set(judged.totals) == set(judged.players)
        report = HandReport(hand, script, result)
        assert report.game is result.game and report.pagruc is (result.game is Game.PAGRUC)
        assert hand_text(report).endswith("\n")
        item = hand_item(report)
        assert item.file == hand.file


def test_the_one_referee_chooses_by_game_and_records_steps_on_request(samples: Path) -> None:
    chosen: dict[Game, Referee] = {Game.PANGUINGUE: pan_referee, Game.PAGRUC: pagruc_referee}
    for name in ("friday-hoyle.pan", "pagruc-common-room.pan", "pagruc-illegal.pan"):
        path = samples / name
        with path.open(encoding="utf-8") as stream:
            for hand in read_hands(stream, str(path), path.parent):
                script = hand.script
                assert script is not None
                bare = referee(script, record_steps=False)
                full = referee(script)
                assert bare.game is full.game is script.game
                assert bare.steps == () and full.steps != ()
                assert (bare.violations, bare.claims, dict(bare.totals)) == (
                    full.violations,
                    full.claims,
                    dict(full.totals),
                )
                assert chosen[script.game](script) == full


def test_claims_carry_their_rule_G7_in_PAGRUC_C7_and_C9_in_Panguingue(samples: Path, tmp_path: Path) -> None:
    wrong = tmp_path / "pagruc-wrong-ledger.pan"
    text = (samples / "pagruc-unofficial.pan").read_text(encoding="utf-8")
    assert '"Ana -23, ' in text
    wrong.write_text(text.replace('"Ana -23, ', '"Ana -24, '), encoding="utf-8")
    rules: dict[Game, set[str]] = {Game.PANGUINGUE: set(), Game.PAGRUC: set()}
    names = [str(samples / n) for n in ("illegal-claim-wrong-pays.pan", "illegal-claim-wrong-ledger.pan")]
    for _, _, result in _replay([*names, str(wrong)]).got:
        rules[result.game].update(c.rule for c in result.claims if not c.ok)
    assert rules == {Game.PANGUINGUE: {"C7", "C9"}, Game.PAGRUC: {"G7"}}


def test_no_Any_in_the_protocol_signatures() -> None:
    for owner in (HandReport, JudgedHand):
        for name, member in inspect.getmembers(owner):
            if name.startswith("_") and name != "__call__":
                continue
            target = member.fget if isinstance(member, property) else member
            if callable(target):
                text = str(getattr(target, "__annotations__", {}))
                assert "Any" not in text, f"{owner.__name__}.{name}: {text}"
    # the sink's and the referee's Protocols are the type checker's alone (start-up): read from the source
    import ast

    import pancli.app.replay

    tree = ast.parse(Path(pancli.app.replay.__file__).read_text(encoding="utf-8"))
    protocols = {c.name: c for c in ast.walk(tree) if isinstance(c, ast.ClassDef) and c.name in ("HandSink", "Referee")}
    assert set(protocols) == {"HandSink", "Referee"}
    for owner in protocols.values():
        for member in owner.body:
            if isinstance(member, ast.FunctionDef):
                text = ast.unparse(member.args) + " -> " + ast.unparse(member.returns or ast.Constant(None))
                assert "Any" not in text, f"{owner.name}.{member.name}: {text}"
    assert "pagruc" not in {getattr(m, "name", None) for m in protocols["HandSink"].body}
