"""``--jobs`` workers hand back typed values, not text (I3: the output of a run with workers is the
output of one process): a judged chunk comes back from MessagePack as the very values the worker
made, and the main process writes them through the writers one process uses. The application
writes nothing to a terminal: a worker that cannot be made is told to the command line, which
says it on standard error."""

from __future__ import annotations

import ast
import errno
import io
import os
from pathlib import Path
from typing import Any

import msgspec
import pytest
from click.testing import CliRunner
from msgspec.structs import replace

from pancli.app import workers as workers_module
from pancli.app.chunks import JudgedChunk
from pancli.app.replay import _judge_chunk, replay_files
from pancli.app.review import ReviewSink
from pancli.app.workers import FewerWorkers, Workers
from pancli.cli import cli
from pancli.cli.common import open_text
from pancli.notation.record_common import LineMemos
from pancli.panrules import PanRulesByProfile
from pancli.records.reader import split_hands
from pancli.render.replay import JsonlSink, JsonSink, Sink

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"


def _records() -> list[tuple[str, str]]:
    """Every shipped sample, and a simulated five-player sitting of each profile."""
    found = [(p.name, p.read_text(encoding="utf-8")) for p in sorted(SAMPLES.glob("*.pan"))]
    for rules in ("hoyle", "cardroom"):
        sim = CliRunner().invoke(cli, ["simulate", "-n", "5", "-k", "12", "-s", "3", "--rules", rules])
        found.append((f"sitting-{rules}.pan", sim.stdout))
    return found


RECORDS = _records()
_REVIEWED = {
    "friday-hoyle.pan", "malformed-record.pan", "irregular-I2-made-good.pan", "illegal-P8-forcing.pan",
    "kitchen-table-unknown-hands.pan", "pagruc-common-room.pan", "sitting-cardroom.pan",
}  # fmt: skip
"""Records whose reviews hold each kind of value: judgements and notes, a foul play, a malformed
hand, unknown cards, PAGRUC, a cardroom sitting."""


def _sent(chunk: JudgedChunk[Any]) -> bytes:
    """``chunk`` as a worker sends it."""
    return bytes(workers_module._message(msgspec.msgpack.Encoder(enc_hook=workers_module._encoded), chunk))


def _read_back(data: bytes, out_type: Any) -> JudgedChunk[Any]:
    """A worker's message as the main process reads it, the chunk's values of ``out_type``."""
    pool: Workers[int, Any] = Workers(1, abs, JudgedChunk[out_type], note=print)  # type: ignore[valid-type]
    return pool._decode(data)


def _judged(kind: Any, name: str, text: str, strict: bool = False) -> JudgedChunk[Any]:
    """The whole record judged as one chunk by a worker's sink of ``kind``."""
    (chunk,) = split_hands(io.StringIO(text), 10**9)
    return _judge_chunk(kind, strict, None, (chunk, name, str(SAMPLES)), None, (LineMemos(), PanRulesByProfile()))


@pytest.mark.parametrize("sink", [Sink, JsonSink, JsonlSink], ids=["plain", "json", "jsonl"])
@pytest.mark.parametrize(("name", "text"), RECORDS, ids=[n for n, _ in RECORDS])
def test_I3_a_judged_chunk_comes_back_from_a_worker_as_the_same_values(sink: type[Sink], name: str, text: str) -> None:
    kind = sink().collector()
    chunk = _judged(kind, name, text)
    data = _sent(chunk)
    assert data[:1] == b"m"  # MessagePack, not the pickle kept for text it cannot hold
    back = _read_back(data, kind.out_type())
    assert back == chunk
    assert type(back.out) is type(chunk.out)


@pytest.mark.parametrize(
    ("name", "text"),
    [(n, t) for n, t in RECORDS if n in _REVIEWED],
    ids=[n for n, _ in RECORDS if n in _REVIEWED],
)
def test_I3_reviews_come_back_from_a_worker_as_the_same_values(name: str, text: str) -> None:
    """A review holds the hand as read and the actions played (the model's unions of Structs,
    tagged): it travels as MessagePack, and comes back as the same values of the same classes."""
    from pancli.analyze.review import Options

    rules = PanRulesByProfile()
    kind = ReviewSink(Options(depth=1, samples=20, advice_samples=4), None, None, rules).collector()
    chunk = _judged(kind, name, text)
    assert chunk.out
    data = _sent(chunk)
    assert data[:1] == b"m"
    back = _read_back(data, kind.out_type())
    assert replace(back, out=()) == replace(chunk, out=())

    def errorless(h: Any) -> Any:  # (an exception equals only itself: a notation error is compared by its fields)
        return replace(h, record=replace(h.record, error=None))

    for r, again in zip(chunk.out, back.out, strict=True):
        assert errorless(again) == errorless(r)
        assert [type(a) for j in again.judgements for a in (*j.played.actions, *j.best.actions)] == [
            type(a) for j in r.judgements for a in (*j.played.actions, *j.best.actions)
        ]
        assert [type(j.note) for j in again.judgements] == [type(j.note) for j in r.judgements]
        assert [type(s.reason) for s in again.skipped] == [type(s.reason) for s in r.skipped]
        e, f = r.record.error, again.record.error
        assert (e is None) == (f is None)
        if e is not None and f is not None:
            assert (type(f), f.code, f.message, f.col, f.line) == (type(e), e.code, e.message, e.col, e.line)


def test_I3_a_file_name_that_is_not_utf8_still_comes_back_whole() -> None:
    """MessagePack holds no lone surrogate (a file name's byte that is not UTF-8): that chunk
    comes back pickled, the same values."""
    text = (SAMPLES / "illegal-P8-forcing.pan").read_text(encoding="utf-8")
    chunk = _judged(JsonlSink().collector(), "night\udcff.pan", text)
    data = _sent(chunk)
    assert data[:1] == b"p"
    assert _read_back(data, Any) == chunk


class Pair(msgspec.Struct, frozen=True):
    n: int
    text: str


def _pair(n: int) -> Pair:
    return Pair(n, f"{n:+d}")


def _never(n: int) -> Pair:
    raise AssertionError(f"task {n} done by the main process: its worker's result did not come back")


def test_I3_the_workers_results_come_back_as_values_in_task_order() -> None:
    said: list[FewerWorkers] = []
    with Workers(2, _pair, Pair, note=said.append) as pool:
        got = list(pool.results(range(-20, 20), _never))
    assert got == [(n, Pair(n, f"{n:+d}")) for n in range(-20, 20)]
    assert said == []


def test_I3_a_failed_worker_start_is_said_on_standard_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """``ulimit -u``: the application tells the command line, which writes it; the output is the
    output of one process."""

    def refuse() -> int:
        raise BlockingIOError(errno.EAGAIN, "Resource temporarily unavailable")

    record = str(SAMPLES / "friday-hoyle.pan")
    alone = CliRunner().invoke(cli, ["replay", "--jsonl", record])
    monkeypatch.setattr(os, "fork", refuse)
    many = CliRunner().invoke(cli, ["replay", "--jsonl", "--jobs", "2", record])
    assert (many.exit_code, many.stdout) == (alone.exit_code, alone.stdout)
    assert many.stderr == (
        "pan: --jobs 2: cannot make worker 1 (Resource temporarily unavailable): the work goes on in one process,"
        " pan's own\n" + alone.stderr
    )


def test_I3_jobs_need_someone_to_tell_of_fewer_workers() -> None:
    with pytest.raises(TypeError, match="needs note"):
        replay_files([str(SAMPLES / "friday-hoyle.pan")], Sink(), open_record=open_text, strict=False, profile=None,
                     jobs=2)  # fmt: skip


def test_the_application_writes_to_no_terminal() -> None:
    """No module of app/ writes to the standard streams or prints: it returns values and notes,
    the command line and render/ write them."""
    found = []
    for path in sorted((ROOT / "pancli" / "app").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "sys":
                if node.attr in ("stdout", "stderr", "__stdout__", "__stderr__"):
                    found.append(f"{path.name}:{node.lineno} sys.{node.attr}")
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "print":
                found.append(f"{path.name}:{node.lineno} print")
            elif isinstance(node, ast.Import | ast.ImportFrom):
                names = [a.name for a in node.names] + ([node.module] if isinstance(node, ast.ImportFrom) else [])
                if any(n is not None and n.split(".")[0] in ("click", "rich") for n in names):
                    found.append(f"{path.name}:{node.lineno} imports a terminal writer")
    assert found == []
