"""``pan analyze HAND``: best arrangement, what every draw would do, odds, stay-or-top advice.

The engine is :mod:`pancli.analyze`; this module reads the notation, validates, and prints
(plain tab-separated lines in a pipe, a rich rank x suit grid on a terminal, or JSON).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from click.core import ParameterSource
from msgspec.structs import replace

from pancli.app.analyze import InputProblem, Job, RecordSpot, read_draw, read_hand, read_melds, read_position, read_seen
from pancli.cards import PAN_RANKS, SUITS, Card, format_cards
from pancli.cli.common import (
    EXIT_ILLEGAL,
    EXIT_OK,
    EXIT_USAGE,
    IOFailure,
    batch_text,
    complete_paths,
    emit_json,
    escape_text,
    json_mode,
    json_option,
    jsonl_option,
    load_profile,
    open_text,
    output_file,
    players_option,
    reads_stdin,
    report,
    rules_option,
    seed_option,
    stdin_lines,
    stdout_is_terminal,
)
from pancli.cli.progress import Progress, quiet_option, wanted
from pancli.limits import MAX_SAMPLES
from pancli.melds import Meld
from pancli.rules import Profile

if TYPE_CHECKING:
    from pancli.analyze.advice import Advice
    from pancli.analyze.analysis import Analysis
    from pancli.analyze.arrange import Arrangement, Placed
    from pancli.analyze.odds import DrawRow


def _n(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _plan_step(hand: tuple[Card, ...], draws: tuple[Card, ...], target: int | None) -> str:
    """One step of the way out: hand cards, the draws they wait for, the meld they join.

    >>> from pancli.cards import card, Rank, Suit
    >>> _plan_step((card(Rank.SEVEN, Suit.DIAMONDS),), (), 1)
    '7d to #2'
    >>> _plan_step((), (card(Rank.FIVE, Suit.CLUBS),), None)
    'draw 5c'
    """
    held, drawn = format_cards(hand), format_cards(draws)
    text = held if not drawn else f"{held} + draw {drawn}" if held else f"draw {drawn}"
    return text + (f" to #{target + 1}" if target is not None else "")


def position_lines(spot: RecordSpot) -> list[tuple[str, str]]:
    """Where the analysed hand comes from: (label, text) lines before the analysis."""
    from pancli.model.results import Source

    p = spot.position
    if p.drawn is not None:
        took = p.drawn_from is Source.DISCARD_PILE
        now = f"in turn, {'took' if took else 'drew'} {p.drawn}" + (" (P3: melded at once)" if took else "")
    elif p.deciding:
        now = "the decision round (T1: stay or go on top)"
    elif p.acting == p.player:
        now = "in turn, before the draw"
    elif p.acting is not None:
        now = f"between turns ({p.acting} acts on this line)"
    else:
        now = "between turns"
    lines = [
        (
            "position",
            f"{escape_text(spot.file)} hand {spot.hand} line {p.line}: {p.player}, {now}; {_n(p.turn, 'turn')} played",
        ),
        (
            "seen",
            f"{_n(len(p.seen), 'card')}: discard pile {len(p.discards)}"
            + (f" (top {p.discards[-1]})" if p.discards else "")
            + f", others' melds {len(p.others_melded)}, dead {len(p.dead)}; stock {p.stock}",
        ),
    ]
    v = p.draw_violation
    if v is not None:
        lines.append(("note", f"line {v.line}:{v.col}: {v.rule} {v.message}; the position is before it"))
    return lines


def position_json(spot: RecordSpot) -> dict[str, Any]:
    """The ``position`` object of ``--json`` for a record position."""
    p = spot.position
    v = p.draw_violation
    return {
        "file": spot.file,
        "hand": spot.hand,
        "line": p.line,
        "player": p.player,
        "acting": p.acting,
        "turn": p.turn,
        "deciding": p.deciding,
        "drawn_from": None if p.drawn_from is None else p.drawn_from.value,
        "stock": p.stock,
        "seen": {
            "discards": format_cards(p.discards),
            "melds": format_cards(p.others_melded),
            "dead": format_cards(p.dead),
        },
        "draw_violation": None if v is None else {"rule": v.rule, "line": v.line, "col": v.col, "message": v.message},
    }


# --------------------------------------------------------------------------- JSON


def _placed_json(p: Placed) -> dict[str, Any]:
    conds = [c.value for c in p.meld.conditions()]
    return {
        "meld": format_cards(p.meld.cards),
        "cards": format_cards(p.cards),
        "kind": p.meld.kind.value,
        "condition": conds[0] if conds else None,
        "conditions": conds,
        "value": p.value,
        "add_to": None if p.target is None else p.target + 1,
    }


def _arr_json(a: Arrangement | None, opponents: int) -> dict[str, Any] | None:
    if a is None:
        return None
    return {
        "melds": [_placed_json(p) for p in a.placed],
        "melded": a.melded,
        "value": a.value,
        "total": a.value * opponents,
        "dead": format_cards(a.dead),
    }


def to_json(a: Analysis, advice: Advice | None) -> dict[str, Any]:
    """The documented fields ``best melded dead draws p_useful`` (docs/commands.md) and the rest of the analysis."""
    opp = a.opponents
    draws = []
    for r in a.rows:
        draws.append(
            {
                "card": str(r.card),
                "live": r.live,
                "usable": r.usable,
                "melds": [format_cards(p.meld.cards) for p in r.melds],
                "down": r.down,
                "value": r.value,
                "total": r.value * opp,
                "out": r.out,
                "out_value": a.out_value(r),
                "drawn": r.card == a.drawn and not a.next_turn,
            }
        )
    d = a.distance
    out: dict[str, Any] = {
        "hand": format_cards(a.hand),
        "drawn": None if a.drawn is None else str(a.drawn),
        "melds_on_table": [format_cards(m.cards) for m in a.table],
        "rules": a.profile.name,
        "players": a.players,
        "opponents": opp,
        "best": [_placed_json(p) for p in a.best.placed],
        "melded": a.best.melded,
        "value": a.best.value,
        "ways": a.best.count,
        "dead": [str(c) for c in a.best.dead],
        "now": _arr_json(a.now, opp),
        "waits": _arr_json(a.waits, opp),
        "discard": None if a.discard is None else str(a.discard),
        "draws_for": "next turn" if a.next_turn else "this turn",
        "next_hand": None if a.next_hand is None else format_cards(a.next_hand),
        "next_melds": [format_cards(m.cards) for m in a.next_table] if a.next_turn else None,
        "draws": draws,
        "unseen": a.unseen,
        "useful_live": a.useful_live,
        "p_useful": a.p_useful,
        "p_out_next": a.p_out_next,
        "distance": {
            "draws": d.draws,
            "plan": [
                {"hand": format_cards(h), "draw": format_cards(x), "add_to": None if t is None else t + 1}
                for h, x, t in d.plan
            ],
            "discards": format_cards(d.discards),
        },
        "out_within": [
            {"turns": k + 1, "p": p, "se": se, "exact": k == 0}
            for k, (p, se) in enumerate(zip(a.odds.p, a.odds.se, strict=True))
        ],
        "samples": a.odds.samples,
        "seed": a.odds.seed,
    }
    if advice is not None:
        out["advice"] = advice.to_json()
    return out


# --------------------------------------------------------------------------- text


def _placed_text(p: Placed) -> str:
    conds = "+".join(c.value for c in p.meld.conditions()) or "-"
    if p.target is None:
        return f"{format_cards(p.cards)} ({conds} {p.value})"
    return f"add {format_cards(p.cards)} to #{p.target + 1} -> {format_cards(p.meld.cards)} ({conds} +{p.value})"


def _arr_text(a: Arrangement) -> str:
    return " | ".join(_placed_text(p) for p in a.placed) or "nothing"


def summary_lines(a: Analysis) -> list[tuple[str, str]]:
    """The analysis as (label, text) lines: the plain format and the terminal summary."""
    opp = a.opponents
    b = a.best
    lines = [
        ("hand", format_cards(a.hand) + (f" +{a.drawn}" if a.drawn else "")),
        ("rules", f"{a.profile.name}, {a.players} active players ({opp} opponents)"),
    ]
    if a.table:
        lines.append(("melds", " | ".join(f"#{i} {format_cards(m.cards)}" for i, m in enumerate(a.table, 1))))
    lines += [
        ("best", _arr_text(b)),
        ("melded", f"{b.melded} cards, {b.value} from each opponent ({b.value * opp} in all), {b.count} way(s)"),
        ("left in hand", format_cards(b.dead) or "-"),
    ]
    if a.drawn is None:
        lines.append(("now", "nothing yet: hand cards go down only in a turn whose draw is used (P4)"))
    elif a.now is None:
        lines.append(("now", f"nothing: {a.drawn} cannot be used, so it is discarded (P2) and the hand waits (P4)"))
    else:
        lines.append(("now", f"{_arr_text(a.now)}; {a.now.melded} down, {a.now.value} from each opponent (P4)"))
    if a.discard is not None and a.next_hand is not None:
        lines.append(
            (
                "discard",
                f"{a.discard} (P5), leaving "
                + (f"{format_cards(a.next_hand)} in hand" if a.next_hand else "no card in hand (flat, P9)")
                + "; "
                "the lines and the draw table below are for the next turn's draw",
            )
        )
    elif a.next_turn:
        lines.append(("next", "the lines and the draw table below are for the next turn's draw, to the hand as it is"))
    elif a.now is not None:
        lines.append(("next", "nothing: the player goes out (C8); the draw table is for this turn's draw"))
    if a.waits is not None and a.waits.placed:
        lines.append(("waits", f"{_arr_text(a.waits)} (for a usable draw, P4)"))
    useful = [r for r in a.rows if r.usable]
    lines.append(
        (
            "useful",
            f"{len(useful)} of 40 cards: {' '.join(str(r.card) for r in useful) or '-'}; "
            f"p(next stock card useful) = {a.useful_live}/{a.unseen} = {a.p_useful:.3f}",
        )
    )
    outs = [r for r in a.rows if r.out]
    if outs:
        lines.append(("out", f"{' '.join(str(r.card) for r in outs)} put the player out; p = {a.p_out_next:.3f}"))
    d = a.distance
    if d.draws is None:
        lines.append(("distance", "no way out found with the live cards"))
    else:
        steps = [_plan_step(h, x, t) for h, x, t in d.plan]
        if d.discards:
            steps.append(f"discard {format_cards(d.discards)}")
        lines.append(("distance", f"{d.draws} useful draw(s): {'; '.join(steps) or 'any card added to a meld'}"))
    o = a.odds
    within = " ".join(f"{k + 1}:{p:.3f}" for k, p in enumerate(o.p))
    se = max(o.se) if o.se else 0.0
    lines.append(
        (
            "out within",
            f"{within} (k=1 exact; later turns Monte Carlo, {o.samples} samples, seed {o.seed}, s.e. <= {se:.3f})",
        )
    )
    return lines


def row_fields(a: Analysis, r: DrawRow) -> list[str]:
    """One draw-table row as text fields: card live usable down value total out melds."""
    melds = " | ".join(format_cards(p.meld.cards) for p in r.melds) or "-"
    out = f"out (C8 {a.out_value(r)})" if r.out else "-"
    return [
        str(r.card),
        str(r.live),
        "yes" if r.usable else "no",
        str(r.down),
        str(r.value),
        str(r.value * a.opponents),
        out,
        melds,
    ]


ROW_HEADER = ["card", "live", "usable", "down", "value", "total", "out", "melds"]


def print_plain(
    a: Analysis, advice: Advice | None, context: Sequence[tuple[str, str]] = (), width: int | None = None
) -> None:
    """The pipe format: ``label<TAB>text`` lines (``context`` first), then the draw table with a header line."""
    out = [f"{label}\t{text}\n" for label, text in [*context, *summary_lines(a)]]
    if advice is not None:
        out += [f"{label}\t{text}\n" for label, text in advice.lines()]
    out.append("\t".join(ROW_HEADER) + "\n")
    out += ["\t".join(row_fields(a, r)) + "\n" for r in a.rows if r.usable]
    if width is None:
        sys.stdout.write("".join(out))
    else:  # a narrow terminal: wrapped at whole words
        from pancli.render.terminal import wrap

        sys.stdout.write(wrap("".join(out), width))


def _colour(a: Analysis, r: DrawRow) -> str:
    if r.out:
        return "bold white on green"
    if r.usable and r.value:
        return "black on yellow"
    if r.usable:
        return "black on cyan"
    return "dim"


def print_rich(a: Analysis, advice: Advice | None, context: Sequence[tuple[str, str]] = ()) -> None:
    """The terminal format: summary (``context`` first), then a rank x suit grid coloured by usefulness
    beside the list."""
    from rich.columns import Columns
    from rich.table import Table

    from pancli.cli.common import stdout_console

    console = stdout_console()
    head = Table(show_header=False, box=None, title=f"pan analyze ({a.profile.name})")
    head.add_column(style="bold")
    head.add_column()
    for label, text in [*context, *summary_lines(a)]:
        head.add_row(label, text)
    if advice is not None:
        for label, text in advice.lines():
            head.add_row(label, text)
    console.print(head)
    grid = Table(title="draws (live copies)", show_lines=False)
    grid.add_column("")
    for s in SUITS:
        grid.add_column(s.letter, justify="center")
    for rank in PAN_RANKS:
        cells = []
        for s in SUITS:
            from pancli.cards import card

            r = a.row(card(rank, s))
            cells.append(f"[{_colour(a, r)}] {r.live} [/]")
        grid.add_row(rank.symbol, *cells)
    legend = "[bold white on green] out [/] [black on yellow] chips [/] [black on cyan] usable [/] [dim]no use[/]"
    grid.caption = legend
    table = Table(title="useful draws")
    for h in ROW_HEADER:
        table.add_column(h, justify="right" if h in ("live", "down", "value", "total") else "left")
    for r in a.rows:
        if r.usable:
            table.add_row(*row_fields(a, r), style=None)
    if not any(r.usable for r in a.rows):
        table.add_row("-", "", "", "", "", "", "", "no card is usable")
    console.print(Columns([grid, table]))


# --------------------------------------------------------------------------- command


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
@click.option("--samples", type=click.IntRange(1, MAX_SAMPLES), default=2000, show_default=True,
              help=f"Monte Carlo samples (1 to {MAX_SAMPLES:,}): --advice uses N, in constant memory (about"
                   " 1.5 ms a sample); the odds stop at s.e. 0.5/sqrt(N), at most N.")  # fmt: skip
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
    its live copies (pack - seen - own), whether it is usable, what it gets down, the
    chips it collects at once (per opponent and in all) and whether it puts the
    player out (with the C8 payment). Odds assume the next stock card is any unseen
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
    once (C7), the first out collects C8 and the tops, and an exhausted stock
    voids the hand (P10).
    """
    json_mode(as_json, as_jsonl)
    profile = load_profile(rules)
    job = Job(profile, players, samples, seed, advice)
    emit = _emitter(as_jsonl) if as_json or as_jsonl else None
    if svg_out is not None and not Path(svg_out).absolute().parent.is_dir():
        raise click.BadParameter(f"cannot write {escape_text(svg_out)}: no such folder", param_hint="--svg")
    if at_line is not None or player is not None:
        given = [n for n in ("draw", "melds", "seen", "players") if ctx.get_parameter_source(n) is not DEFAULT]
        if at_line is None or len(hand) != 1 or given:
            raise click.UsageError(
                "a record position is FILE --at LINE [--player NAME]: the record gives the hand, the drawn"
                " card, the melds, the seen cards and the players" + (f" (drop --{' --'.join(given)})" if given else "")
            )
        override = None if ctx.get_parameter_source("rules") is DEFAULT else profile
        status = _analyse_one(
            emit, lambda: _advised(job, quiet, lambda j: _position(j, hand[0], at_line, player, override, svg_out))
        )
    elif reads_stdin(hand):
        if svg_out is not None:
            raise click.UsageError("--svg draws one hand: give a HAND or FILE --at LINE, not a batch")
        with Progress("analyze", None, "hands", enabled=wanted(quiet)) as progress:
            status = _analyse_batch(job, as_jsonl if emit else None, draw, melds, seen, progress)
    else:
        status = _analyse_one(emit, lambda: _advised(job, quiet, lambda j: _hand(j, hand, draw, melds, seen, svg_out)))
    sys.stdout.flush()
    ctx.exit(status)


DEFAULT = ParameterSource.DEFAULT


def error_json(file: str, line: int, col: int, rule: str, message: str) -> dict[str, Any]:
    """The ``error`` object of ``--json``: the fields of an error line (docs/commands.md).

    >>> error_json("-", 3, 1, "P7", "9 cards")["player"] is None
    True
    """
    return {"file": file, "line": line, "col": col, "rule": rule, "player": None, "message": message}


def _status(exc: InputProblem) -> int:
    """The exit status of an input problem: 2 for a usage error, else 1."""
    return EXIT_USAGE if exc.usage else EXIT_ILLEGAL


def _problem(exc: InputProblem) -> dict[str, Any]:
    """Report an input problem on standard error; its ``error`` object for ``--json``."""
    report(exc.where, exc.line, exc.col, exc.rule, exc.message)
    return error_json(exc.where, exc.line, exc.col, exc.rule, exc.message)


def _show(a: Analysis, adv: Advice | None, context: Sequence[tuple[str, str]]) -> None:
    """One analysis as text: rich on a terminal (wrapped plain lines when it is narrower than
    :data:`RICH_COLUMNS`: the draw table's eight columns would cut words), plain lines in a pipe."""
    if stdout_is_terminal():
        from pancli.render.terminal import size

        columns = size().columns
        if columns >= RICH_COLUMNS:
            print_rich(a, adv, context)
        else:
            print_plain(a, adv, context, columns)
    else:
        print_plain(a, adv, context)


RICH_COLUMNS = 80
"""The narrowest terminal that gets the rich tables."""


Found = tuple["Analysis", "Advice | None", dict[str, Any], Sequence[tuple[str, str]]]
"""An analysis, its advice, the extra ``--json`` fields and the text context lines."""


def _emitter(lines: bool) -> Callable[[dict[str, Any]], None]:
    """How one JSON document is written: indented (``--json``) or on one line (``--jsonl``)."""
    if not lines:
        return emit_json
    from pancli.render.stream import JsonStream

    return JsonStream(True).add


def _advised(job: Job, quiet: bool, find: Callable[[Job], Found]) -> Found:
    """``find`` with a progress line over the ``--advice`` samples (a terminal, nothing printed yet)."""
    with Progress("advice", job.samples, "samples", enabled=job.advice and wanted(quiet, stdout_too=True)) as p:
        return find(replace(job, on_sample=p.advance) if p.enabled else job)


def _analyse_one(emit: Callable[[dict[str, Any]], None] | None, find: Callable[[], Found]) -> int:
    """One analysis (a HAND or a record position): one object with ``--json`` (``--jsonl``: on one
    line), whose ``error`` holds the error fields when the input is bad (also on standard error)."""
    try:
        result, adv, extra, context = find()
    except InputProblem as exc:
        error = _problem(exc)
        if emit is not None:
            emit({"error": error})
        return _status(exc)
    if emit is not None:
        emit({**to_json(result, adv), **extra, "error": None})
    else:
        _show(result, adv, context)
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
    cards, drawn, table, seen_cards = _hand_arguments(hand, draw, melds, seen, job.profile)
    found = job.analyse(cards, drawn, table, seen_cards, "<hand>", 1)
    if svg_out is not None:
        from pancli.render import svg

        _draw(svg_out, svg.analysis(found[0]), f"pan analyze {' '.join(hand)}")
    return (*found, {}, [])


def _draw(path: str, picture: Any, title: str) -> None:
    """Write ``--svg``'s picture (a :class:`pancli.render.svg.Drawing`) atomically."""
    from pancli.files import atomic_write

    try:
        with atomic_write(path) as out:
            out.write(picture.document(title))
    except OSError as exc:
        raise IOFailure(path, "write", exc) from None


def _position(
    job: Job, file: str, at_line: int, player: str | None, override: Profile | None, svg_out: str | None
) -> Found:
    """``FILE --at LINE``: the position of a record (``-``: the record on standard input)."""
    spot = read_position(file, at_line, player, override, open_text)
    found = job.at_position(spot)
    if svg_out is not None:
        from pancli.render import svg

        pos = spot.position
        who = f"{pos.acting} to play" if pos.acting else "between turns"
        source = "standard input" if spot.file == "-" else spot.file
        title = f"{source} hand {spot.hand}, line {pos.line}: {who}; {pos.player}'s cards shown"
        _draw(svg_out, svg.table(svg.position_view(pos, title)), title)
    return (*found, {"position": position_json(spot)}, position_lines(spot))


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
        from pancli.render.stream import JsonStream

        entries = JsonStream(lines)
    try:
        table = read_melds(melds, job.profile)
        seen_cards = read_seen(seen)
        if draw is not None:
            read_draw(draw)
    except InputProblem as exc:  # an option is bad: no hand can be analysed
        error = _problem(exc)
        if entries is not None:
            entries.add({"file": exc.where, "line": exc.line, "error": error})
            entries.close()
        return _status(exc)
    status = EXIT_OK
    shown = 0
    # A hand is read and analysed once however often it comes (the analysis is deterministic):
    # bounded memo of the outcome by text, an error placed again at each line. 100,000 lines of
    # 5sss: 4.6 s -> 1.5 s CPU (benchmarks/README.md).
    memo: dict[str, tuple[Analysis, Advice | None] | InputProblem] = {}
    for item in stdin_lines():
        if progress is not None:
            progress.advance()
        text = batch_text(item.text)
        outcome = memo.get(text)
        if outcome is None:
            try:
                cards, drawn = read_hand(text, draw, item.file, item.line)
                outcome = job.analyse(cards, drawn, table, seen_cards, item.file, item.line)
            except InputProblem as exc:
                outcome = exc
            if len(memo) < 10_000:
                memo[text] = outcome
        if isinstance(outcome, InputProblem):
            here = InputProblem(item.file, outcome.col, outcome.rule, outcome.message, item.line, outcome.usage)
            error = _problem(here)
            if entries is not None:
                entries.add({"file": item.file, "line": item.line, "error": error})
            status = max(status, _status(here))
            continue
        result, adv = outcome
        if entries is not None:
            entries.add({"file": item.file, "line": item.line, **to_json(result, adv), "error": None})
            continue
        if shown:
            sys.stdout.write("\n")
        _show(result, adv, [("input", f"{item.file}:{item.line}")])
        shown += 1
    if entries is not None:
        entries.close()
    return status


def _hand_arguments(
    hand: tuple[str, ...], draw: str | None, melds: tuple[str, ...], seen: tuple[str, ...], profile: Profile
) -> tuple[tuple[Card, ...], Card | None, tuple[Meld, ...], tuple[Card, ...]]:
    """The hand, drawn card, melds and seen cards given on the command line."""
    text = " ".join(hand)
    if not text.strip():
        raise click.UsageError(
            "give a hand: ten cards, or eleven with the drawn card marked +CARD; or '-' to read hands"
        )
    if len(hand) == 1 and hand[0].endswith(".pan") and Path(hand[0]).is_file():
        raise click.UsageError(
            f"{escape_text(hand[0])} is a record: give --at LINE (and --player NAME) to analyse a position"
        )
    if draw is not None and "+" in text:
        raise click.UsageError("give the drawn card once: a trailing +CARD or --draw CARD")
    cards, drawn = read_hand(text, draw)
    return cards, drawn, read_melds(melds, profile), read_seen(seen)
