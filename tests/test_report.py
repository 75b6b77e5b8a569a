"""The one report per hand (:class:`pancli.app.report.HandReport`): what every output shows of a
refereed hand, with the decisions they share (is the hand disputed, and why) made there once;
and the exporters of :mod:`pancli.render` that the ``--jobs`` workers run."""

from __future__ import annotations

import io
from pathlib import Path

import msgspec
import pytest
from cli_kit import pan

from pancli.app.replay import RecordJudge, Tally, referee, replay_files
from pancli.app.report import HandReport, malformed_dispute
from pancli.cli.common import open_text
from pancli.model.settle import DisputeKind
from pancli.records import read_hands
from pancli.render.replay import JsonlSink, JsonSink, Sink
from pancli.render.settle import JsonlSettle, JsonSettle, SettleSink
from pancli.render.text import claim_text, dispute_text


def _reports(path: Path) -> list[HandReport]:
    with path.open(encoding="utf-8") as f:
        hands = list(read_hands(f, str(path), path.parent))
    return [HandReport(h, h.script, referee(h.script, remedy=True)) for h in hands if h.script is not None]


def test_P8_a_hand_with_a_violation_is_disputed_by_its_first_violation(samples: Path) -> None:
    [report] = _reports(samples / "illegal-P8-forcing.pan")
    d = report.dispute
    assert d is not None and (d.kind, d.rule, d.line, d.col, d.player) == (DisputeKind.VIOLATION, "P8", 28, 8, "Kim")
    assert d.violation == report.result.violations[0]
    assert dispute_text(d) == report.result.violations[0].message


@pytest.mark.parametrize(
    ("sample", "rule"), [("illegal-claim-wrong-pays.pan", "C7"), ("illegal-claim-wrong-ledger.pan", "C9")]
)
def test_C7_C9_a_wrong_claim_disputes_a_clean_hand_in_the_claims_words(samples: Path, sample: str, rule: str) -> None:
    disputed = [r for r in _reports(samples / sample) if r.dispute is not None]
    assert disputed
    d = disputed[0].dispute
    assert d is not None and (d.kind, d.rule) == (DisputeKind.CLAIM, rule)
    wrong = next(c for c in disputed[0].result.claims if not c.ok)
    assert d.claim == wrong
    assert dispute_text(d) == claim_text(wrong, pagruc=False)


def test_G7_a_pagruc_claim_is_of_points(samples: Path, tmp_path: Path) -> None:
    text = (samples / "pagruc-unofficial.pan").read_text(encoding="utf-8").replace('"Ana -23, ', '"Ana -24, ')
    path = tmp_path / "wrong.pan"
    path.write_text(text, encoding="utf-8")
    disputes = [r.dispute for r in _reports(path) if r.dispute is not None]
    assert [(d.game, d.kind, d.rule) for d in disputes] == [("pagruc", DisputeKind.CLAIM, "G7")]
    assert "the Ledger claims Ana -24" in dispute_text(disputes[0])


def test_a_clean_hand_is_not_disputed_and_the_decision_is_made_once(
    samples: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import pancli.app.report as report_module

    calls: list[HandReport] = []
    decide = report_module._dispute_of
    monkeypatch.setattr(report_module, "_dispute_of", lambda r: calls.append(r) or decide(r))
    [report] = _reports(samples / "tutorial-four-handed.pan")[:1]
    assert report.dispute is None and report.dispute is None
    assert calls == [report]


def test_a_malformed_hand_is_disputed_by_its_notation_error(samples: Path) -> None:
    path = samples / "malformed-record.pan"
    with path.open(encoding="utf-8") as f:
        bad = next(h for h in read_hands(f, str(path), path.parent) if h.script is None)
    d = malformed_dispute(bad)
    assert (d.kind, d.rule, d.line, d.col) == (DisputeKind.MALFORMED, "E1", 12, 10)
    assert dispute_text(d) == d.error == bad.error.message  # type: ignore[union-attr]


def test_settle_and_the_html_page_list_the_same_disputed_hands(samples: Path, tmp_path: Path) -> None:
    names = [str(p) for p in sorted(samples.glob("*.pan"))]
    page = tmp_path / "page.html"
    settled = pan("settle", "--jsonl", *names)
    pan("replay", "--html", str(page), *names)
    disputed = [line for line in settled.stdout.splitlines() if '"event":"disputed"' in line]
    html = page.read_text(encoding="utf-8")
    assert len(disputed) > 10
    import json

    for line in disputed:
        d = json.loads(line)
        assert f"{d['file']}:{d['line']}:{d['col']} {d['rule']}" in html


@pytest.mark.parametrize("sink", [Sink, JsonSink, JsonlSink])
def test_the_workers_fill_render_sinks_not_command_classes(sink: type[Sink]) -> None:
    kind = sink().collector()
    assert kind.__module__ == "pancli.render.replay"
    worker = kind()
    judge = RecordJudge(worker, None)
    for hand in read_hands(io.StringIO('[Players "Ana Ben"]\n\nAna stay\nBen stay\n'), "-", None):
        judge.hand(hand, Tally())
    out, err = worker.taken()
    assert out and not err
    assert msgspec.convert(out, kind.out_type()) == out  # the values a worker hands back, as typed


@pytest.mark.parametrize("kind", [SettleSink, JsonSettle, JsonlSettle])
def test_settle_sinks_are_exporters_and_leave_the_exit_status_to_the_command(
    kind: type[SettleSink], samples: Path
) -> None:
    sink = kind(None, False)
    sink.flush = lambda: None  # type: ignore[method-assign]
    replay_files([str(samples / "illegal-P8-forcing.pan")], sink, open_record=open_text, strict=False, profile=None)
    assert sink.any_disputed
    assert not hasattr(sink, "status")
