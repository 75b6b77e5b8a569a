"""The full-screen view of ``pan live`` (Textual; imported only by ``pan live`` on a terminal).

Textual is the rich authors' framework for terminal applications: widgets, layout, key
bindings and a headless test driver (``App.run_test``), built on the rich ``pan`` already
draws with. The view shows what :mod:`pancli.render.live` writes (the table, the ledger, the
hand's lines, what may be done now) and sends each line entered to the session
(:mod:`pancli.app.live`), which judges and writes it.

Keys: Enter judges the line; Tab (or the right arrow at the end) takes the completion shown;
Up and Down walk the lines entered before; Ctrl+Q (or ``quit``) ends.
"""

from __future__ import annotations

import asyncio
import signal
from typing import ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.suggester import Suggester
from textual.widgets import Input, RichLog, Static

from pancli.app.live import LineVerdict, Session, command
from pancli.files import STOP_SIGNALS, signals_held
from pancli.model.settle import SettledHand
from pancli.render.live import (
    complete_line,
    entry_text,
    hand_log,
    ledger_lines,
    may_now,
    notes_text,
    rule_text,
    settle_text,
    table_lines,
    title_text,
    torn_text,
)
from pancli.rulebook import Rule


class LineSuggester(Suggester):
    """The completion of the line typed so far (:func:`pancli.render.live.complete_line`)."""

    def __init__(self, session: Session) -> None:
        super().__init__(use_cache=False, case_sensitive=True)
        self.session = session

    async def get_suggestion(self, value: str) -> str | None:
        return complete_line(self.session, value)


class _ViewOutput:
    """The session's judgements, written into the view's log (the same words as the line mode)."""

    def __init__(self, app: LiveApp) -> None:
        self.app = app

    def opened(self, session: Session) -> None:  # pragma: no cover - the view opens itself
        pass

    def entry(self, session: Session, entry: object) -> None:  # pragma: no cover - the view judges itself
        pass

    def undone(self, session: Session, text: str | None) -> None:
        self.app.redraw(log=text is not None)
        self.app.say("undo: nothing to take back" if text is None else f"undone: {text}", "yellow")

    def settle(self, session: Session) -> None:
        self.app.say(settle_text(session, jsonl=False).rstrip("\n"), "cyan")

    def rule(self, session: Session, rule: Rule) -> None:
        self.app.say("\n".join(rule_text(session, rule)), "cyan")

    def problem(self, session: Session, text: str, message: str) -> None:
        self.app.clean = False
        self.app.say(f"refused {message}", "red")


class LiveApp(App[bool]):
    """``pan live`` on a terminal: the table, the ledger, the hand's lines and the input line."""

    TITLE = "pan live"
    CSS = """
    Screen { layout: vertical; }
    #title { height: 1; background: $primary; color: $text; padding: 0 1; }
    #top { height: auto; max-height: 70%; }
    #table { width: 2fr; height: auto; border: round $primary; padding: 0 1; }
    #ledger { width: 1fr; height: auto; border: round $primary; padding: 0 1; }
    #lines { height: 1fr; border: round $secondary; }
    #may { height: auto; padding: 0 1; color: $warning; }
    #entry { height: 3; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "quit_live", "quit", priority=True),
        Binding("tab", "complete", "complete", priority=True, show=False),
        Binding("up", "history(-1)", "previous line", priority=True, show=False),
        Binding("down", "history(1)", "next line", priority=True, show=False),
    ]

    def __init__(self, session: Session, answered: tuple[int, ...] = (), mask: set[int] | None = None) -> None:
        super().__init__()
        self.session = session
        self.answered = answered
        """The stopping signals the app's event loop answers (:func:`run_view`)."""
        self.mask = mask
        """The signal mask to put back once the loop answers them (None: nothing was held)."""
        self.stopped_by = 0
        """The signal that ended the view (0: none)."""
        self.clean = True
        """Every line entered accepted (the exit status, as in the line mode)."""
        self.history: list[str] = []
        self.back = 0
        self._night: tuple[SettledHand, ...] | None = None
        self._night_of = (-1, -1)

    def compose(self) -> ComposeResult:
        yield Static(id="title", markup=False)
        with Horizontal(id="top"):
            yield Static(id="table", markup=False)
            yield Static(id="ledger", markup=False)
        yield RichLog(id="lines", markup=False, wrap=True, min_width=20)
        yield Static(id="may", markup=False)
        yield Input(
            placeholder="a record line, or undo / settle / rules ID / quit",
            suggester=LineSuggester(self.session),
            id="entry",
        )

    def on_mount(self) -> None:
        loop = asyncio.get_running_loop()
        for signum in self.answered:
            loop.add_signal_handler(signum, self._stopped, signum)
        if self.mask is not None:  # held since before the app started: the loop answers them now
            signal.pthread_sigmask(signal.SIG_SETMASK, self.mask)
        s = self.session
        if s.torn is not None:
            self.say(torn_text(s), "red")
        for note in notes_text(s):
            self.say(f"note {note}", "yellow")
        self.redraw(log=True)
        self.query_one(Input).focus()

    # ------------------------------------------------------------------ drawing

    def say(self, text: str, style: str = "") -> None:
        """One judgement or message in the log."""
        view = self.query_one(RichLog)
        width = view.scrollable_content_region.width
        # wrapped at the log's own width (RichLog measures against the console's, 80 columns)
        view.write(Text(text, style=style), width=width if width > 20 else None)

    def _finished(self) -> tuple[SettledHand, ...]:
        key = (self.session.hand_index, len(self.session.units))
        if self._night is None or self._night_of[0] != key[0] or self._night_of[1] > key[1]:
            self._night = self.session.finished_hands()
        self._night_of = key
        return self._night

    def redraw(self, log: bool = False) -> None:
        """Draw the title, the table, the ledger and what may be done now (``log``: the hand's
        lines again, after an undo or at the start)."""
        s = self.session
        self.query_one("#title", Static).update(title_text(s))
        self.query_one("#table", Static).update("\n".join(table_lines(s)))
        self.query_one("#ledger", Static).update("\n".join(ledger_lines(s.ledger(self._finished()))))
        self.query_one("#may", Static).update("now: " + may_now(s))
        if log:
            view = self.query_one(RichLog)
            view.clear()
            self.say(f"hand {s.hand_index}", "bold")
            for line in hand_log(s):
                self.say(line)

    # ------------------------------------------------------------------ input

    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value
        event.input.value = ""
        if text.strip():
            self.history.append(text)
        self.back = 0
        self.enter(text)

    def enter(self, text: str) -> None:
        """Judge a line (or do a command) as the line mode does, and show the judgement."""
        s = self.session
        if text.strip() == "quit":
            self.exit(self.clean)
            return
        done = command(s, text.strip(), _ViewOutput(self))
        if done is not None:
            self.clean = self.clean and done
            return
        entry = s.enter(text)
        if entry.verdict is LineVerdict.BLANK:
            return
        # what may be done now has its own line below the log
        said = "\n".join(x for x in entry_text(s, entry).rstrip("\n").split("\n") if not x.startswith("  now: "))
        if entry.verdict is LineVerdict.REFUSED:
            self.clean = False
            self.say(said, "bold red")
        else:
            self.say(said, "green" if entry.verdict is LineVerdict.ACCEPTED else "")
        self.redraw()

    def action_complete(self) -> None:
        entry = self.query_one(Input)
        done = complete_line(self.session, entry.value)
        if done is not None:
            entry.value = done
            entry.cursor_position = len(done)

    def action_history(self, step: int) -> None:
        if not self.history:
            return
        self.back = max(-len(self.history), min(0, self.back + step))
        entry = self.query_one(Input)
        entry.value = self.history[self.back] if self.back else ""
        entry.cursor_position = len(entry.value)

    def action_quit_live(self) -> None:
        self.exit(self.clean)

    def _stopped(self, signum: int) -> None:
        """A stopping signal, answered by the loop between two of its callbacks: the view ends."""
        if not self.stopped_by:
            self.stopped_by = signum
            self.exit(self.clean)


def run_view(session: Session) -> bool:
    """Keep the score on a terminal until ``quit``; True when every line entered was accepted.

    A stopping signal whose handler is the program's is answered by the app's event loop, which
    ends the view; the program's handler is then called, as the signal's own. Raised wherever the
    main thread was, inside one of asyncio's callbacks or tasks, its exception stayed there: the
    view went on, or hung, after a hang-up. The signals are held until the loop answers them (the
    threads Textual starts meanwhile inherit the hold, so the loop's thread takes them)."""
    handlers = {signum: signal.getsignal(signum) for signum in STOP_SIGNALS}
    answered = {signum: handler for signum, handler in handlers.items() if callable(handler)}
    with signals_held() as mask:
        app = LiveApp(session, tuple(answered), mask)
        try:
            clean = bool(app.run())
        finally:
            for signum, handler in answered.items():  # asyncio put back the default ones
                signal.signal(signum, handler)
    if app.stopped_by:
        answered[app.stopped_by](app.stopped_by, None)
    return clean
