"""The outputs of ``pan replay`` as consumers of hand reports (:class:`~pancli.app.report.HandReport`):
plain text in batches (:class:`Sink`), ``--json`` (:class:`JsonSink`: one list, an object per
hand), ``--jsonl`` (:class:`JsonlSink`: every applied step, then the hand) and a terminal
(:class:`RichSink`). Each writes through one exporter (:mod:`pancli.render.plain`,
:mod:`pancli.render.json`, :mod:`pancli.render.terminal`), the JSON ones through the one list
writer (:class:`~pancli.render.stream.JsonStream`). A sink's ``collector`` is what a ``--jobs``
worker fills: the same class, keeping its output for the main process to write (the text of
plain output; the objects of ``--json`` and ``--jsonl``, handed back as values, which the main
process's list writer writes as one process does).
"""

from __future__ import annotations

import sys
import time
from typing import TYPE_CHECKING, Any, Protocol

from pancli.app.replay import CHUNK_HANDS, Tally
from pancli.render.text import error_lines, malformed_line, stdout_console, warning_lines

if TYPE_CHECKING:
    from rich.console import Console

    from pancli.app.replay import Collector
    from pancli.app.report import HandReport
    from pancli.jsontext import Item
    from pancli.notation.layout import RecordHand
    from pancli.render.json_steps import HandObjects

    # (for the type checker only: a Protocol's class costs start-up, and nothing asks isinstance of them)
    class ProgressMeter(Protocol):
        """The progress line a long replay shows (told of each hand)."""

        enabled: bool

        def advance(self, n: int = ..., *, count: int = ...) -> None: ...

        def set(self, done: int, *, count: int = ...) -> None: ...

    class Share(Protocol):
        """How far the input is read, in bytes."""

        def read(self) -> int: ...


def tally_text(t: Tally) -> str:
    """The replay's one summary line; its counts add up to the hands read.

    >>> t = Tally()
    >>> t.hands = t.unfinished = 1
    >>> tally_text(t)
    '1 hand: 0 clean, 0 with a violation, 0 with a wrong claim, 0 malformed, 1 unfinished (no going out, ...)'
    """
    rules = ", ".join(r for r, n in (("I1", t.put_right_I1), ("I2", t.put_right_I2)) if n)
    return (
        f"{t.hands} hand{'s' if t.hands != 1 else ''}: {t.clean} clean, {t.violations} with a "
        f"violation, {t.claims} with a wrong claim, {t.malformed} malformed"
        + (f", {t.unfinished} unfinished (no going out, no T4, not void)" if t.unfinished else "")
        + (f", {t.remedied} with an irregularity put right ({rules})" if t.remedied else "")
    )


BATCH = 256
"""Hands whose text is written to standard output at once (plain, JSON)..."""
FLUSH_EVERY = 0.25
"""...or fewer, when this many seconds have passed since the last write (output keeps coming)."""


class Sink:
    """Plain text, the base (the fastest, for pipes): everything is buffered and written in
    batches of :data:`BATCH` hands, standard output first, then the error lines."""

    wants_steps = False
    each_hand = False
    """Write each hand's text as soon as it is judged (``--jsonl``)."""
    progress: ProgressMeter | None = None
    """Told of each hand (the progress line of a long replay)."""
    share: Share | None = None
    """How far the input is read, when its size is known (the progress line shows the share)."""

    def __init__(self) -> None:
        self.out: list[str] = []
        self.err: list[str] = []
        self.pending = 0
        self.flushed = time.monotonic()

    def flush(self) -> None:
        """Write what is buffered (standard output first, then the error lines). A line of
        standard output goes out whole with its newline (a JSON list's last item waits for its
        comma or the list's end): an error line never lands inside one under ``2>&1``."""
        if self.out:
            text = "".join(self.out)
            cut = text.rfind("\n") + 1
            sys.stdout.write(text[:cut])
            self.out.clear()  # in place: a JSON sink's list writer writes into this list
            if cut < len(text):
                self.out.append(text[cut:])
        sys.stdout.flush()
        if self.err:
            sys.stderr.write("".join(self.err))
            self.err = []
        self.pending = 0
        self.flushed = time.monotonic()

    def _tick(self) -> None:
        self.pending += 1
        if self.progress is not None:
            self._advance(1)
        if self.each_hand or self.pending >= BATCH or time.monotonic() - self.flushed >= FLUSH_EVERY:
            self.flush()

    def collector(self) -> type[Collector]:
        """A worker's sink for this one (``--jobs``)."""
        return _CollectPlain

    def chunk(self, out: Any, err: str) -> None:
        """Write the output of a chunk of hands judged by a worker (its text)."""
        self.out.append(out)
        self._chunk_done(err)

    def _chunk_done(self, err: str) -> None:
        self.err.append(err)
        self.flush()
        if self.progress is not None:
            self._advance(CHUNK_HANDS)  # about: the last chunk of a file may hold fewer

    def _advance(self, hands: int) -> None:
        progress = self.progress
        assert progress is not None
        if self.share is None:
            progress.advance(hands)
        elif progress.enabled:
            progress.set(self.share.read(), count=hands)

    def hand(self, report: HandReport) -> None:
        from pancli.render.plain import hand_text  # start-up: pan settle does without it

        self.out.append(hand_text(report))
        self._judged(report)
        self._tick()

    def _judged(self, report: HandReport) -> None:
        """Queue the standard-error lines of a hand: its warnings, then its problems."""
        hand = report.hand
        if hand.warnings:
            self.err.append(warning_lines(hand))
        if not report.result.ok or report.remedied:
            self.err.append(error_lines(report))

    def malformed(self, hand: RecordHand) -> None:
        from pancli.render.plain import plain_malformed  # start-up: pan settle does without it

        assert hand.error is not None
        self.out.append(plain_malformed(hand))
        self.err.append(malformed_line(hand.file, hand.error) + "\n")
        self._tick()

    def close(self, tally: Tally, stopped: bool) -> None:
        if stopped:
            self.err.append(STOPPED)
        self.out.append(tally_text(tally) + "\n")
        self.flush()


STOPPED = "pan replay: stopped at the first violation (--strict)\n"


class JsonSink(Sink):
    """``--json``: one list, one compact object per line (streamed; valid JSON even when stopped)."""

    jsonl = False
    event: str | None = None
    """The ``event`` field a hand's object starts with (``--jsonl``)."""

    def __init__(self) -> None:
        from pancli.render.stream import JsonStream, Kept  # start-up: the JSON encoder is no cost of plain replay

        super().__init__()
        self.stream = JsonStream(self.jsonl, Kept(self.out), flush_each=False, compact=True)
        """The one list writer, writing into the batches :meth:`Sink.flush` writes out."""

    def collector(self) -> type[Collector]:
        return _CollectJson

    def chunk(self, out: Any, err: str) -> None:
        """Write a worker's chunk: each hand's objects (:class:`~pancli.render.json_steps.HandObjects`)
        through the list writer, as :meth:`_put` writes them in one process."""
        write = self.stream.add_all
        for objs in out:
            write(objs.items())
        self._chunk_done(err)

    def _put(self, items: list[Item]) -> None:
        """Write one hand's objects."""
        self.stream.add_all(items)
        self._tick()

    def _items(self, report: HandReport) -> list[Item]:
        """A refereed hand's objects as written: ``--json``'s one object."""
        from pancli.render.json import hand_item  # start-up: pan replay does without it

        return [hand_item(report, self.event)]

    def hand(self, report: HandReport) -> None:
        self._judged(report)
        self._put(self._items(report))

    def malformed(self, hand: RecordHand) -> None:
        from pancli.render.json import malformed_item  # start-up: pan replay does without it

        assert hand.error is not None
        self.err.append(malformed_line(hand.file, hand.error) + "\n")
        self._put([malformed_item(hand, self.event)])

    def close(self, tally: Tally, stopped: bool) -> None:
        if stopped:
            self.err.append(STOPPED)
        self.stream.close()
        self.flush()


class JsonlSink(JsonSink):
    """``--jsonl``: one object per line: every applied action (with provenance), then the hand."""

    each_hand = True
    jsonl = True
    wants_steps = True
    event = "hand"

    def collector(self) -> type[Collector]:
        return _CollectJsonl

    def _items(self, report: HandReport) -> list[Item]:
        """Every applied step, a Panguingue hand's violations, then its object."""
        from pancli.render.json_steps import jsonl_items  # start-up: --json writes no steps

        return jsonl_items(report, self.event)


class _CollectPlain(Sink):
    """A worker's sink: keeps everything (the main process writes it, in order).

    Text, not values: hands as values, worded by the main process alone, made ``replay --jobs 2`` 1.07x slower."""

    @staticmethod
    def out_type() -> Any:
        return str

    def _tick(self) -> None:
        pass

    def taken(self) -> tuple[Any, str]:
        return "".join(self.out), "".join(self.err)


class _CollectJson(JsonSink):
    """A worker's ``--json`` sink: keeps each hand's objects as values, handed back as they are
    (:mod:`pancli.app.workers`) for the main process's list writer to write."""

    def __init__(self) -> None:
        super().__init__()
        self.hands: list[HandObjects] = []

    @staticmethod
    def out_type() -> Any:
        from pancli.render.json_steps import HandObjects  # start-up: pan replay does without it

        return tuple[HandObjects, ...]

    def _put(self, items: list[Item]) -> None:
        from pancli.render.json_steps import HandObjects  # start-up: pan replay does without it

        self.hands.append(HandObjects.of(items))

    def taken(self) -> tuple[Any, str]:
        return tuple(self.hands), "".join(self.err)


class _CollectJsonl(_CollectJson, JsonlSink):
    """A worker's ``--jsonl`` sink: each hand's steps, then the hand."""


RICH_HANDS = 3
"""Hands a terminal shows as rich timelines; the rest as plain lines, streamed (a rich hand is
slow to draw: benchmarks/README.md, "Figures behind the code")."""


class RichSink:
    """A terminal: the timeline and the ledger table of each of the first :data:`RICH_HANDS`
    hands (rich), then one plain line per hand as in a pipe (``--plain`` for all); no workers."""

    wants_steps = False

    def __init__(self) -> None:
        self.console: Console = stdout_console()
        self.drawn = 0
        self.plain = Sink()

    def _rich(self) -> bool:
        """Whether the next hand is drawn rich (after a few, one line says the rest are plain)."""
        self.drawn += 1
        if self.drawn == RICH_HANDS + 1:
            self.console.print(f"[dim]more than {RICH_HANDS} hands: the rest as plain lines (--plain, --json)[/]")
        return self.drawn <= RICH_HANDS

    def hand(self, report: HandReport) -> None:
        if not self._rich():
            return self.plain.hand(report)
        from pancli.render.terminal import hand_rich  # start-up: pan replay does without it

        hand = report.hand
        if hand.warnings:
            sys.stderr.write(warning_lines(hand))
        hand_rich(self.console, report)

    def malformed(self, hand: RecordHand) -> None:
        if not self._rich():
            return self.plain.malformed(hand)
        from pancli.render.terminal import render_rich_malformed  # start-up: pan replay does without it

        render_rich_malformed(self.console, hand)

    def close(self, tally: Tally, stopped: bool) -> None:
        self.plain.flush()
        if stopped:
            self.console.print("[bold red]stopped at the first violation (--strict)[/]")
        self.console.print(tally_text(tally))
