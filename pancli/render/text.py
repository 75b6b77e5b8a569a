"""Small pieces of text every output form shares: money with its sign, the hint that names a
rule's explanation, a wrong claim (:func:`claim_text`) and why a hand is disputed
(:func:`dispute_text`) in words, and whether standard output is a terminal (rich) or a pipe (plain lines).
No rich at import time: :func:`stdout_console` imports it when a terminal is drawn on."""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

from pancli.cards import Game
from pancli.escapes import escape_text

if TYPE_CHECKING:
    from collections.abc import Iterator
    from decimal import Decimal

    from rich.console import Console

    from pancli.app.lines import ProfileProblem
    from pancli.app.report import HandReport
    from pancli.app.workers import FewerWorkers
    from pancli.model.results import ClaimCheck, Violation
    from pancli.model.settle import Dispute
    from pancli.notation.errors import NotationError
    from pancli.notation.layout import RecordHand
    from pancli.refusals import Unseated


MAX_COLUMNS = 1000
"""The widest screen drawn for: a ``COLUMNS`` past it (``COLUMNS=99999999``) would pad every rule
line and table row to that many cells."""


def money_text(value: Decimal) -> str:
    """Money with its sign and the stake's precision.

    >>> from decimal import Decimal
    >>> money_text(Decimal("2.50")), money_text(Decimal("-0.75")), money_text(Decimal(0))
    ('+2.50', '-0.75', '0')
    """
    return format(value, "+f") if value else "0"


def error_line(file: str, line: int, col: int | None, rule: str | None, message: str) -> str:
    """The canonical error line, the one form of every error pan reports on standard error:
    ``file:line:col: RULE message``, what user text holds escaped.

    >>> error_line("-", 3, 1, "M3", "7c 7s 7s is not a set")
    '-:3:1: M3 7c 7s 7s is not a set'
    """
    return escape_text(f"{file}:{line}") + error_suffix(col, rule, message)


def error_suffix(col: int | None, rule: str | None, message: str) -> str:
    """What follows ``file:line`` in :func:`error_line`, ``:col: RULE message``: a batch writer
    makes it once for a line that repeats and puts each repeat's own ``file:line`` before it.

    >>> error_suffix(1, "M3", "7c 7s 7s is not a set")
    ':1: M3 7c 7s 7s is not a set'
    """
    return escape_text(f":{col}: {rule} {message}")


def profile_problem_text(problem: ProfileProblem) -> str:
    """Why ``--rules`` names no profile, as one line (R3): the error line of a bad key's place in
    a house-rules file, else the name or file given and the reason (a name that cannot be a
    file's, empty or holding a NUL, after the reason, quoted).

    >>> from pancli.app.lines import ProfileProblem
    >>> profile_problem_text(ProfileProblem("h.toml", "ante: expected a whole number", 2, 1))
    'h.toml:2:1: R3 ante: expected a whole number'
    >>> profile_problem_text(ProfileProblem("", "no such profile or file"))
    "R3 no such profile or file: ''"
    """
    if problem.line:
        return error_line(problem.spec, problem.line, problem.col, "R3", problem.message)
    if not problem.spec or "\0" in problem.spec:
        return escape_text(f"R3 {problem.message}: {problem.spec!r}")
    return escape_text(f"{problem.spec}: R3 {problem.message}")


def seated_text(unseated: Unseated | None) -> str | None:
    """A command's ``--players`` that the rules object cannot seat (its answer, ``unseated``), as
    the usage error says it: S1's words, the referee's too (:func:`pancli.rules.seating_words`);
    None when it seats them.

    >>> from pancli.refusals import Unseated
    >>> seated_text(Unseated(16, 2, 15)), seated_text(None)
    ('16 players seated; Panguingue seats 2 to 15 (S1)', None)
    """
    if unseated is None:
        return None
    from pancli.rules import seating_words  # start-up: only a usage error needs it

    return f"{seating_words(unseated)} (S1)"


def signed(units: int) -> str:
    """Units with their sign (``0`` bare).

    >>> signed(4), signed(-3), signed(0)
    ('+4', '-3', '0')
    """
    return f"{units:+d}" if units else "0"


def escaped(text: str) -> str:
    """User text as a message shows it: control characters escaped, never raw on a terminal.

    >>> escaped("a\\x1b[2Jb")
    'a\\\\x1b[2Jb'
    """
    return escape_text(text)


def io_words(name: str, verb: str, problem: OSError | str) -> str:
    """What went wrong with a file, in the one wording of every I/O failure: ``cannot VERB NAME:
    why`` (``pan: `` before it on standard error; ``read_error`` of ``pan fmt --json``).

    ``verb`` is ``read`` or ``write``; ``name`` is the file as the user gave it (``-`` is
    standard input, ``standard output`` the output).

    >>> io_words("games.pan", "read", FileNotFoundError(2, "No such file or directory"))
    'cannot read games.pan: No such file or directory'
    """
    why = problem if isinstance(problem, str) else (problem.strerror or str(problem) or type(problem).__name__)
    shown = "standard input" if name == "-" else name
    return f"cannot {verb} {escaped(shown)}: {why}"


def rule_hint(rule: str | None) -> str:
    """What a terminal user types to read a cited rule: `` (pan rules P8)``; empty for no rule id.

    >>> rule_hint("P8"), rule_hint("X9"), rule_hint(None)
    (' (pan rules P8)', '', '')
    """
    from pancli.rulebook import lookup  # start-up: pan check does without it

    return f" (pan rules {rule})" if rule and lookup(rule) is not None else ""


def stdout_is_terminal() -> bool:
    """True when standard output is a terminal (rich tables), False in a pipe (plain text)."""
    if os.environ.get("PAN_FORCE_TERMINAL"):
        return True
    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


def stdout_console() -> Console:
    """A rich console on standard output (imports rich: use only for terminal output).

    Rich honours ``NO_COLOR``; ``PAN_FORCE_TERMINAL=1`` forces terminal rendering (tests).
    """
    from rich.console import Console  # start-up: pan check does without it

    force = bool(os.environ.get("PAN_FORCE_TERMINAL"))
    console = Console(force_terminal=force or None, highlight=False, soft_wrap=False)
    if console.width > MAX_COLUMNS:  # COLUMNS=99999999 would pad each rule line to that width
        console.width = MAX_COLUMNS
    return console


def warning_lines(hand: RecordHand) -> str:
    """The standard-error lines of a hand's warnings (two names that look alike): the error
    line's form, the message starting ``warning:``; they change no exit status."""
    return "".join(error_line(hand.file, w.line, w.col, w.code, f"warning: {w.message}") + "\n" for w in hand.warnings)


def fewer_workers_text(f: FewerWorkers) -> str:
    """What ``--jobs`` says when fewer workers than it asked could be made.

    >>> from pancli.app.workers import FewerWorkers
    >>> fewer_workers_text(FewerWorkers(4, 2, "Too many open files"))
    'pan: --jobs 4: cannot make worker 3 (Too many open files): the work goes on in 2 workers'
    >>> fewer_workers_text(FewerWorkers(2, 0, "Resource temporarily unavailable"))[-42:]
    "the work goes on in one process, pan's own"
    """
    made = f.made
    rest = f"{made} worker{'s' if made != 1 else ''}" if made else "one process, pan's own"
    return f"pan: --jobs {f.asked}: cannot make worker {made + 1} ({f.why}): the work goes on in {rest}"


def jobs_clamped_text(jobs: int, cpus: int) -> str:
    """What ``--jobs`` says when it asks for more workers than there are CPUs.

    >>> jobs_clamped_text(64, 2)
    'pan: --jobs 64 is more than the 2 CPUs here: 2 workers'
    """
    return f"pan: --jobs {jobs} is more than the {cpus} CPUs here: {cpus} workers"


def claim_text(c: ClaimCheck, pagruc: bool) -> str:
    """What is wrong with a claim, in words (a PAGRUC claim is of points, G7).

    >>> from pancli.model.results import ClaimCheck, ClaimKind
    >>> from pancli.rulebook import Rule
    >>> claim_text(ClaimCheck(Rule.C7, ClaimKind.PAYS, 7, "Ana", 3, 2), pagruc=False)
    'Ana claims [%pays 3] but each opponent paid 2'
    >>> claim_text(ClaimCheck(Rule.C9, ClaimKind.LEDGER, 30, "Ben", -4, 2), pagruc=False)
    'the Ledger claims Ben -4 but the referee finds +2'
    """
    from pancli.model.results import ClaimKind  # start-up: pan replay --help does without it

    if c.kind is ClaimKind.PAYS:
        if pagruc:
            return f"{c.player} claims [%pays {c.claimed}] but the meld scores {c.actual}"
        return f"{c.player} claims [%pays {c.claimed}] but each opponent paid {c.actual}"
    return f"the Ledger claims {c.player} {signed(c.claimed)} but the referee finds {signed(c.actual)}"


def error_lines(report: HandReport) -> str:
    """The standard-error lines of a hand: its irregularities put right, violations and wrong claims."""
    return "".join(text + "\n" for _, _, text in error_entries(report, report.hand.file))


def error_entries(report: HandReport, file: str) -> Iterator[tuple[str, int, str]]:
    """Each standard-error line of a hand's problems (:func:`error_lines`, places in ``file``) with
    the rule it cites and its line, as decided: irregularities put right, violations, wrong claims."""
    result = report.result
    for r in getattr(result, "remedies", ()):
        yield r.violation.rule, r.violation.line, violation_line(file, r.violation)
    for v in result.violations:
        yield v.rule, v.line, violation_line(file, v)
    for c in result.claims:
        if not c.ok:
            yield c.rule, c.line, error_line(file, c.line, c.col, c.rule, claim_text(c, report.pagruc))


def violation_line(file: str, v: Violation) -> str:
    """``file:line:col: RULE message``."""
    return error_line(file, v.line, v.col, v.rule, v.message)


def malformed_line(file: str, e: NotationError) -> str:
    """The stderr line of a malformed hand."""
    return error_line(file, e.line, e.col, e.code, e.message)


def dispute_text(d: Dispute) -> str:
    """Why a hand is disputed, in words: the violation's own; an irregularity put right, then
    the violation that follows from it (``...; then P1 at line 40: ...``); the wrong claim's
    (:func:`claim_text`); the notation error's."""
    from pancli.model.settle import DisputeKind  # start-up: only a disputed hand needs it

    v = d.violation
    if d.kind is DisputeKind.CLAIM:
        assert d.claim is not None
        return claim_text(d.claim, d.game == Game.PAGRUC.value)
    if d.kind is DisputeKind.MALFORMED or v is None:
        return d.error
    if d.kind is DisputeKind.IRREGULARITY and v.cause is not None:
        return f"{v.cause.message}; then {v.rule} at line {v.line}: {v.message}"
    return v.message
