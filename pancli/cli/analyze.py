"""``pan analyze HAND``: best arrangement, what every draw would do, odds, stay-or-top advice.

The engine is :mod:`pancli.analyze`, the reading of hands and positions :mod:`pancli.app.analyze`,
the output :mod:`pancli.render.analysis` (plain tab-separated lines in a pipe, a rich rank x
suit grid on a terminal, or JSON); this module holds the options and chooses the output.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

import click
from click.core import ParameterSource

from pancli.app.analyze import SAMPLES, InputProblem, Job, read_draw, read_hand, read_position, read_seen
from pancli.app.lines import ErrorFields, InputLine
from pancli.cli.common import (
    EXIT_ILLEGAL,
    EXIT_OK,
    EXIT_USAGE,
    IOFailure,
    complete_paths,
    json_mode,
    json_option,
    jsonl_option,
    load_profile,
    open_text,
    output_file,
    players_option,
    reads_stdin,
    refuse_writing_an_input,
    report,
    rules_option,
    seated_players,
    seed_option,
    stdin_lines,
)
from pancli.cli.progress import Progress, quiet_option, wanted
from pancli.render.analysis import error_json, position_json, position_lines, show, to_json
from pancli.render.text import escaped, seated_text

if TYPE_CHECKING:
    from pancli.app.analyze import Analysed


@click.command(
    "analyze",
    epilog="Exit status: 0 analysed, 1 the hand is unreadable or impossible (P7, E4, a bad meld) or the record"
    " breaks a rule before LINE, 2 usage error (no hand of that player's to analyse there).",
)
@click.argument("hand", nargs=-1, metavar="HAND|FILE", shell_complete=complete_paths)
@click.option("--draw", "draw", metavar="CARD", help="The card just drawn (or a trailing +CARD in HAND).")
@click.option("--melds", "melds", multiple=True, metavar="MELDS", help="The player's melds on the table ([..] groups).")
@click.option("--seen", "seen", multiple=True, metavar="CARDS", help="Every other card seen (melds, discards).")
@players_option("Active players (2-15, S1): chips are per opponent x (N-1).")
@click.option(
    "--advice",
    is_flag=True,
    help="Simulate the hand: expected units of staying vs going on top (its policy is described above).",
)
@click.option("--samples", type=click.IntRange(SAMPLES[0], SAMPLES[-1]), default=2000, show_default=True,
              help=f"Monte Carlo samples (1 to {SAMPLES[-1]:,}): --advice uses N, in constant memory (its time"
                   " grows with N); the odds stop at s.e. 0.5/sqrt(N), at most N.")  # fmt: skip
@seed_option("Random seed of the simulations.", default=1)
@click.option("--at", "at_line", type=click.IntRange(1), metavar="LINE",
              help="Analyse a position of the record FILE: the moment line LINE is played.")  # fmt: skip
@click.option("--player", "player", metavar="NAME",
              help="With --at: whose hand (default: the player whose turn or decision LINE is).")  # fmt: skip
@click.option("--svg", "svg_out", metavar="OUT.svg", type=click.Path(dir_okay=False),
              callback=output_file(to_stdout=False),
              help="Also draw the hand and its best arrangement (with --at: the table) as an SVG picture.")  # fmt: skip
@json_option
@jsonl_option("With '-': one JSON object per hand and line, as each is analysed (the entries of --json).")
@rules_option
@quiet_option
@click.pass_context
def analyze(
    ctx: click.Context,
    hand: tuple[str, ...],
    draw: str | None,
    melds: tuple[str, ...],
    seen: tuple[str, ...],
    players: int,
    advice: bool,
    samples: int,
    seed: int,
    at_line: int | None,
    player: str | None,
    svg_out: str | None,
    as_json: bool,
    as_jsonl: bool,
    rules: str,
    quiet: bool,
) -> None:
    """Analyse one Panguingue hand: the best arrangement, what every draw would do, the odds.

    HAND is ten cards in the usual notation (cards may be separate arguments), or
    eleven with the drawn card marked by a trailing +CARD (or --draw CARD). With
    --melds the player's melds already on the table count (hand + melds = 10, P7);
    --seen names every other card seen, for the live copies of each card.

    FILE --at LINE --player NAME analyses a position of a .pan record instead: the
    hand holding LINE is refereed up to the moment LINE is played, and NAME's hand,
    melds, the seen cards (discard pile, others' melds, dead hands) and the active
    players come from the record. On NAME's own turn line the card he draws or takes
    there is shown as the drawn card. A violation before LINE exits 1 with its rule;
    unknown cards (no deal line), a player on top or a closed hand exit 2.

    '-' (or no HAND with input piped in) reads a batch of hands from standard input,
    one per line (blank lines skipped, '#' starts a comment anywhere on a line); each is analysed on its own
    with the same options (--melds, --seen, --draw, --players, --rules, ...). The
    analyses follow one another, each after a blank line and an 'input -:LINE' line;
    a bad hand is reported as '-:LINE:COL: RULE message', the others are still
    analysed, and the exit status is 1.

    \b
    Examples:
      pan analyze 5s 5s 5s 3h 4h Kd Kh Kc 2c 7d
      pan analyze "5sss 3h 4h Kd Kh Kc 2c 7d +5h" --players 4
      pan analyze "3h 4h Kd Kh Kc 2c 7d" --melds "[5sss]" --seen "5s 5h 5h"
      pan analyze --json 5sss 3-5h Kd Kh 7c 2c | jq .p_useful
      pan analyze "5sss 3-5h Kd Kh 7c 2c" --advice --samples 500
      pan analyze "$(pan samples --path friday-hoyle)" --at 27 --player Cruz
      pan analyze "$(pan samples --path friday-hoyle)" --at 65 --svg table.svg
      printf '5sss 3-4h Kdhc 2c 7d\\n5sss 3-5h Kdhc 2h\\n' | pan analyze --json - | jq '.[].p_useful'

    The best arrangement gets the most cards down, then the most chips (C6 values of
    new melds, C7 change of grown melds), then the fewest melds; it is exact. Hand
    cards go down only in a turn whose draw is used (P4): 'now' is what goes down
    this turn, 'waits' what needs a usable draw. The draw table gives, for each card,
    its live copies (pack - seen - own), whether it is usable, what it raises over the
    hand alone (cards down, value: a card that raises neither is usable for no gain,
    and not useful), what it gets down, the chips it collects at once (per opponent
    and in all) and whether it puts the player out (with the C8 payment). The
    'distance' line says in words the fewest useful draws to go out, never throwing
    a card the best arrangement lays. Odds assume the next stock card is any unseen
    card alike. In a pipe the output is 'label<TAB>text' lines, then a tab-separated
    table of the usable draws; --json prints one object (best, melded, dead, draws,
    p_useful, ..., error: null) for a HAND or a record position, and a list of them
    for a batch, each with the 'file' and 'line' it was read from. A bad hand gives
    an object whose 'error' holds file, line, col, rule, player (null) and message.

    With a drawn card, 'now' is what to lay with it and 'discard' the hand card to
    throw (P5); 'useful', 'distance', the odds and the draw table are then for the
    next turn's draw (the 'next' or 'discard' line says so; 'draws_for' in --json).
    'left in hand' lists the cards the best arrangement keeps in the hand.

    --advice (T1, T2) plays the rest of the hand --samples times and compares the
    expected units of staying with the cost of going on top. The policy of every
    simulated player: the other active players all stay and are dealt at random from
    the unseen cards; everyone draws from the stock (nobody takes a discard or
    forces, P8 is not modelled); a usable draw lays the best arrangement that uses
    it, then discards the hand card with the fewest partners (same rank, or same
    suit within two ranks); an unusable draw is discarded. Conditions are paid at
    once (C7), the first out collects C8 and the tops; the dead discards are not
    reshuffled (P10): a sample whose stock runs out ends with nobody out.
    """
    json_mode(as_json, as_jsonl)
    profile = load_profile(rules)
    job = Job(profile, players, samples, seed, advice)
    seated_players(ctx, seated_text(job.seating()), players)
    emit = _emitter(as_jsonl) if as_json or as_jsonl else None
    if svg_out is not None and not os.path.isdir(_folder_of(svg_out)):
        raise click.BadParameter(f"cannot write {escaped(svg_out)}: no such folder", param_hint="--svg")
    if at_line is not None or player is not None:
        given = [n for n in ("draw", "melds", "seen", "players") if ctx.get_parameter_source(n) is not DEFAULT]
        if at_line is None or len(hand) != 1 or given:
            raise click.UsageError(
                "a record position is FILE --at LINE [--player NAME]: the record gives the hand, the drawn"
                " card, the melds, the seen cards and the players" + (f" (drop --{' --'.join(given)})" if given else "")
            )
        override = ctx.get_parameter_source("rules") is not DEFAULT
        refuse_writing_an_input(svg_out, hand, "--svg", rules)
        status = _analyse_one(
            emit, lambda: _advised(job, quiet, lambda j: _position(j, hand[0], at_line, player, override, svg_out))
        )
    elif reads_stdin(hand):
        if svg_out is not None:
            raise click.UsageError("--svg draws one hand: give a HAND or FILE --at LINE, not a batch")
        with Progress("analyze", None, "hands", enabled=wanted(quiet)) as progress:
            status = _analyse_batch(job, as_jsonl if emit else None, draw, melds, seen, progress)
    else:
        refuse_writing_an_input(svg_out, [], "--svg", rules)
        status = _analyse_one(emit, lambda: _advised(job, quiet, lambda j: _hand(j, hand, draw, melds, seen, svg_out)))
    sys.stdout.flush()
    ctx.exit(status)


DEFAULT = ParameterSource.DEFAULT


def _status(exc: InputProblem) -> int:
    """The exit status of an input problem: 2 for a usage error, else 1."""
    return EXIT_USAGE if exc.usage else EXIT_ILLEGAL


def _problem(exc: InputProblem) -> ErrorFields:
    """Report an input problem on standard error; its ``error`` object for ``--json``."""
    report(exc.where, exc.line, exc.col, exc.rule, exc.message)
    return error_json(exc.where, exc.line, exc.col, exc.rule, exc.message)


Found = tuple["Analysed", dict[str, Any], Sequence[tuple[str, str]]]
"""An analysis, its advice, the extra ``--json`` fields and the text context lines."""


def _emitter(lines: bool) -> Callable[[dict[str, Any]], None]:
    """How one JSON document is written: indented (``--json``) or on one line (``--jsonl``)."""
    from pancli.render.stream import JsonStream, write_json  # start-up: pan analyze does without it

    if not lines:
        return write_json

    return JsonStream(True).add


def _advised(job: Job, quiet: bool, find: Callable[[Job], Found]) -> Found:
    """``find`` with a progress line over the ``--advice`` samples (a terminal, nothing printed yet)."""
    with Progress("advice", job.samples, "samples", enabled=job.advice and wanted(quiet, stdout_too=True)) as p:
        return find(job.telling(p.advance) if p.enabled else job)


def _analyse_one(emit: Callable[[dict[str, Any]], None] | None, find: Callable[[], Found]) -> int:
    """One analysis (a HAND or a record position): one object with ``--json`` (``--jsonl``: on one
    line), whose ``error`` holds the error fields when the input is bad (also on standard error)."""
    try:
        (result, adv), extra, context = find()
    except InputProblem as exc:
        error = _problem(exc)
        if emit is not None:
            emit({"error": error})
        return _status(exc)
    if emit is not None:
        emit({**to_json(result, adv), **extra, "error": None})
    else:
        show(result, adv, context)
    return EXIT_OK


def _hand(
    job: Job,
    hand: tuple[str, ...],
    draw: str | None,
    melds: tuple[str, ...],
    seen: tuple[str, ...],
    svg_out: str | None,
) -> Found:
    """The analysis of the HAND given on the command line."""
    cards, drawn = read_hand(_hand_text(hand, draw), draw, rules=job.rules())
    found = job.analyse(cards, drawn, job.read_melds(melds), read_seen(seen, job.rules()), "<hand>", 1)
    if svg_out is not None:
        from pancli.render import svg  # start-up: pan analyze does without it

        _draw(svg_out, svg.analysis(found[0]), f"pan analyze {' '.join(hand)}")
    return found, {}, []


def _draw(path: str, picture: Any, title: str) -> None:
    """Write ``--svg``'s picture (a :class:`pancli.render.svg.Drawing`) atomically."""
    from pancli.files import atomic_write  # start-up: pan analyze does without it

    try:
        with atomic_write(path) as out:
            out.write(picture.document(title))
    except OSError as exc:
        raise IOFailure(path, "write", exc) from None


def _position(job: Job, file: str, at_line: int, player: str | None, override: bool, svg_out: str | None) -> Found:
    """``FILE --at LINE``: the position of a record (``-``: the record on standard input);
    ``override``: ``--rules`` given, its profile taken over the record's ``Rules`` tag."""
    spot = read_position(file, at_line, player, job.profile if override else None, open_text, job.rules_of)
    found = job.at_position(spot)
    if svg_out is not None:
        from pancli.render import svg  # start-up: pan analyze does without it

        pos = spot.position
        who = f"{pos.acting} to play" if pos.acting else "between turns"
        source = "standard input" if spot.file == "-" else spot.file
        title = f"{source} hand {spot.hand}, line {pos.line}: {who}; {pos.player}'s cards shown"
        _draw(svg_out, svg.table(svg.position_view(pos, title)), title)
    return found, {"position": position_json(spot)}, position_lines(spot)


def _analyse_batch(
    job: Job,
    lines: bool | None,
    draw: str | None,
    melds: tuple[str, ...],
    seen: tuple[str, ...],
    progress: Progress | None = None,
) -> int:
    """Standard input as a batch: one hand per line (blank lines and ``#`` comments skipped), each
    analysed on its own with the same options. Text: the analyses one after another, a blank line
    and an ``input -:LINE`` line before each; ``--json``: one list, an entry per hand (``file``,
    ``line``, the analysis, ``error``). A bad hand is reported as ``-:LINE:COL: RULE message`` and
    the others are still analysed; the status is then 1. ``lines`` None: text; False: ``--json``,
    True: ``--jsonl`` (each entry written as it is analysed, either way)."""
    entries = None
    if lines is not None:
        from pancli.render.stream import JsonStream  # start-up: pan analyze does without it

        entries = JsonStream(lines)
    try:
        table = job.read_melds(melds)
        seen_cards = read_seen(seen, job.rules())
        if draw is not None:
            read_draw(draw, job.rules())
    except InputProblem as exc:  # an option is bad: no hand can be analysed
        error = _problem(exc)
        if entries is not None:
            entries.add({"file": exc.where, "line": exc.line, "error": error})
            entries.close()
        return _status(exc)
    status = EXIT_OK
    shown = 0
    for item, outcome in job.analyse_lines(_counted(stdin_lines(), progress), draw, table, seen_cards):
        if isinstance(outcome, InputProblem):
            error = _problem(outcome)
            if entries is not None:
                entries.add({"file": item.file, "line": item.line, "error": error})
            status = max(status, _status(outcome))
            continue
        result, adv = outcome
        if entries is not None:
            entries.add({"file": item.file, "line": item.line, **to_json(result, adv), "error": None})
            continue
        if shown:
            sys.stdout.write("\n")
        show(result, adv, [("input", f"{item.file}:{item.line}")])
        shown += 1
    if entries is not None:
        entries.close()
    return status


def _counted(items: Iterator[InputLine], progress: Progress | None) -> Iterator[InputLine]:
    """``items``, the progress line told of each."""
    for item in items:
        if progress is not None:
            progress.advance()
        yield item


def _hand_text(hand: tuple[str, ...], draw: str | None) -> str:
    """The text of the hand given on the command line (a usage error for none, a record without
    ``--at``, or the drawn card given twice)."""
    text = " ".join(hand)
    if not text.strip():
        raise click.UsageError(
            "give a hand: ten cards, or eleven with the drawn card marked +CARD; or '-' to read hands"
        )
    if len(hand) == 1 and hand[0].endswith(".pan") and os.path.isfile(hand[0]):
        raise click.UsageError(
            f"{escaped(hand[0])} is a record: give --at LINE (and --player NAME) to analyse a position"
        )
    if draw is not None and "+" in text:
        raise click.UsageError("give the drawn card once: a trailing +CARD or --draw CARD")
    return text


def _folder_of(path: str) -> str:
    """The folder a file written to ``path`` goes into, unresolved, as the writer's open will find it
    (os.path rather than pathlib: pathlib's import is a tenth of ``pan analyze``'s start-up).

    >>> import os
    >>> _folder_of("out.svg") == _folder_of("out.svg/") == os.getcwd()
    True
    >>> _folder_of("/tmp/x/out.svg")
    '/tmp/x'
    """
    return os.path.dirname(os.path.join(os.getcwd(), path.rstrip(os.sep)))
