"""The exporters of an analysis (``pan analyze``, ``pan review``'s judgements): plain
tab-separated lines (pipes), aligned columns on a terminal narrower than :data:`RICH_COLUMNS`, a
rich rank x suit grid on a wider one, and the objects of ``--json``; a record position's lines and
object."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from pancli.app.lines import ErrorFields
from pancli.cards import PAN_RANKS, SUITS, Card, card, format_cards
from pancli.escapes import escape_text
from pancli.render.text import stdout_console, stdout_is_terminal

if TYPE_CHECKING:
    from pancli.analyze.advice import Advice
    from pancli.analyze.analysis import Analysis
    from pancli.analyze.arrange import Arrangement, Placed
    from pancli.analyze.odds import DrawRow
    from pancli.app.analyze import RecordSpot


def _n(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _and(words: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return " and ".join(words) if len(words) < 3 else f"{', '.join(words[:-1])} and {words[-1]}"


def _plan_step(hand: tuple[Card, ...], draws: tuple[Card, ...], target: int | None) -> str:
    """One step of the way out in words: hand cards, the draws they wait for, the meld they make or join.

    >>> from pancli.cards import card, Rank, Suit
    >>> seven, five = card(Rank.SEVEN, Suit.HEARTS), card(Rank.FIVE, Suit.CLUBS)
    >>> _plan_step((seven, seven), (seven,), None), _plan_step((seven,) * 3, (), None)
    ('draw 7h to meld with 7h 7h', 'lay 7h 7h 7h')
    >>> _plan_step((seven,), (), 1), _plan_step((), (five,), 0), _plan_step((seven,), (five,), 0)
    ('add 7h to meld #2', 'draw 5c to add to meld #1', 'draw 5c to add with 7h to meld #1')
    """
    held, drawn = format_cards(hand), _and([str(c) for c in draws])
    if target is None:
        return f"draw {drawn} to meld with {held}" if drawn else f"lay {held}"
    if not drawn:
        return f"add {held} to meld #{target + 1}"
    return f"draw {drawn} to add" + (f" with {held}" if held else "") + f" to meld #{target + 1}"


def distance_text(a: Analysis) -> str:
    """The ``distance`` line in words: the fewest useful draws to go out, and one way to do it
    (keeping every card the hand's best arrangement lays)."""
    d = a.distance
    if d.draws is None:
        return "no way out found with the live cards (keeping the melds the hand can lay)"
    steps = [_plan_step(h, x, t) for h, x, t in sorted(d.plan, key=lambda step: len(step[1]))]  # lays first
    extra = d.draws - sum(len(x) for _, x, _ in d.plan)
    if extra:
        steps.append(f"{'a card that adds' if extra == 1 else f'{extra} cards that add'} to a meld")
    if d.discards:
        steps.append(f"discard {_and([str(c) for c in d.discards])} on the way, one a turn")
    head = f"{_n(d.draws, 'useful draw')} to go out, at the fewest"
    return f"{head}: {'; '.join(steps)}"


def position_lines(spot: RecordSpot) -> list[tuple[str, str]]:
    """Where the analysed hand comes from: (label, text) lines before the analysis."""
    from pancli.model.results import Source  # start-up: pan analyze does without it

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
    conds = [c.value for c in p.conditions]
    return {
        "meld": format_cards(p.meld.cards),
        "cards": format_cards(p.cards),
        "kind": p.meld.kind.value,
        "condition": conds[0] if conds else None,
        "conditions": conds,
        "value": p.value,
        "add_to": None if p.target is None else p.target + 1,
    }


def _arr_json(a: Arrangement | None, an: Analysis) -> dict[str, Any] | None:
    if a is None:
        return None
    return {
        "melds": [_placed_json(p) for p in a.placed],
        "melded": a.melded,
        "value": a.value,
        "total": an.collected(a.value),
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
                "useful": r.useful,
                "raises": [w for w, up in (("down", r.more_down), ("value", r.more_value)) if up],
                "melds": [format_cards(p.meld.cards) for p in r.melds],
                "down": r.down,
                "value": r.value,
                "total": a.collected(r.value),
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
        "now": _arr_json(a.now, a),
        "waits": _arr_json(a.waits, a),
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
        from pancli.render.exports import advice_item  # start-up: pan analyze does without it

        out["advice"] = advice_item(advice)
    return out


# --------------------------------------------------------------------------- text


def _placed_text(p: Placed) -> str:
    conds = "+".join(c.value for c in p.conditions) or "-"
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
        ("melded", f"{b.melded} cards, {b.value} from each opponent ({a.collected(b.value)} in all), {b.count} way(s)"),
        ("left in hand", format_cards(b.dead) or "-"),
    ]
    if a.drawn is None:
        lines.append(("now", "nothing yet: hand cards go down only in a turn whose draw is used (P4)"))
    elif a.kept_draw:
        lines.append(
            (
                "now",
                f"nothing: {a.drawn} cannot be used, but it may not be the discard: the next player is flat "
                "and could add it, so it stays in the hand (P9) and the hand waits (P4)",
            )
        )
    elif a.now is None:
        lines.append(("now", f"nothing: {a.drawn} cannot be used, so it is discarded (P2) and the hand waits (P4)"))
    else:
        lines.append(("now", f"{_arr_text(a.now)}; {a.now.melded} down, {a.now.value} from each opponent (P4)"))
    if a.discard is not None and a.next_hand is not None:
        lines.append(
            (
                "discard",
                f"{a.discard} ({'P9' if a.kept_draw else 'P5'}), leaving "
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
    useful = [r for r in a.rows if r.useful]
    idle = [r for r in a.rows if r.usable and not r.useful]
    lines.append(
        (
            "useful",
            f"{len(useful)} of 40 cards raise what the hand lays or its value: "
            f"{' '.join(str(r.card) for r in useful) or '-'}; "
            f"p(next stock card useful) = {a.useful_live}/{a.unseen} = {a.p_useful:.3f}"
            + (f"; usable for no gain: {' '.join(str(r.card) for r in idle)}" if idle else ""),
        )
    )
    outs = [r for r in a.rows if r.out]
    if outs:
        lines.append(("out", f"{' '.join(str(r.card) for r in outs)} put the player out; p = {a.p_out_next:.3f}"))
    lines.append(("distance", distance_text(a)))
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


def raises(r: DrawRow) -> str:
    """What a draw raises over the hand alone: ``down+value``, ``down``, ``value``, or ``-`` (no gain)."""
    return "+".join(w for w, up in (("down", r.more_down), ("value", r.more_value)) if up) or "-"


def row_fields(a: Analysis, r: DrawRow) -> list[str]:
    """One draw-table row as text fields: card live usable raises down value total out melds."""
    melds = " | ".join(format_cards(p.meld.cards) for p in r.melds) or "-"
    out = f"out (C8 {a.out_value(r)})" if r.out else "-"
    return [
        str(r.card),
        str(r.live),
        "yes" if r.usable else "no",
        raises(r),
        str(r.down),
        str(r.value),
        str(a.collected(r.value)),
        out,
        melds,
    ]


ROW_HEADER = ["card", "live", "usable", "raises", "down", "value", "total", "out", "melds"]


def advice_lines(advice: Advice) -> list[tuple[str, str]]:
    """The stay-or-top advice as (label, text) lines."""
    lo, hi = advice.ci
    return [
        ("stay", f"{advice.stay:+.2f} units (95% CI {lo:+.2f} to {hi:+.2f}); "
                 f"out first in {advice.won:.1%}, void {advice.void:.1%}"),
        ("top", f"{advice.top:+.2f} units (T2, {advice.rules})"),
        ("advice", f"{advice.choice} ({advice.samples} samples, seed {advice.seed}; every player's policy: "
                   "'pan analyze --help', under --advice)"),
    ]  # fmt: skip


def print_plain(a: Analysis, advice: Advice | None, context: Sequence[tuple[str, str]] = ()) -> None:
    """The pipe format: ``label<TAB>text`` lines (``context`` first), then the draw table with a header line."""
    out = [f"{label}\t{text}\n" for label, text in [*context, *summary_lines(a)]]
    if advice is not None:
        out += [f"{label}\t{text}\n" for label, text in advice_lines(advice)]
    out.append("\t".join(ROW_HEADER) + "\n")
    out += ["\t".join(row_fields(a, r)) + "\n" for r in a.rows if r.usable]
    sys.stdout.write("".join(out))


def _colour(a: Analysis, r: DrawRow) -> str:
    if r.out:
        return "bold white on green"
    if r.more_value:
        return "black on yellow"
    if r.more_down:
        return "black on cyan"
    if r.usable:
        return "dim cyan"
    return "dim"


def print_rich(a: Analysis, advice: Advice | None, context: Sequence[tuple[str, str]] = ()) -> None:
    """The terminal format: summary (``context`` first), then a rank x suit grid coloured by usefulness
    beside the list."""
    # start-up: pan analyze does without these
    from rich.columns import Columns
    from rich.table import Table

    console = stdout_console()
    head = Table(show_header=False, box=None, title=f"pan analyze ({a.profile.name})")
    head.add_column(style="bold")
    head.add_column()
    for label, text in [*context, *summary_lines(a)]:
        head.add_row(label, text)
    if advice is not None:
        for label, text in advice_lines(advice):
            head.add_row(label, text)
    console.print(head)
    grid = Table(title="draws (live copies)", show_lines=False)
    grid.add_column("")
    for s in SUITS:
        grid.add_column(s.letter, justify="center")
    for rank in PAN_RANKS:
        cells = []
        for s in SUITS:
            r = a.row(card(rank, s))
            cells.append(f"[{_colour(a, r)}] {r.live} [/]")
        grid.add_row(rank.symbol, *cells)
    legend = (
        "[bold white on green] out [/] [black on yellow] more chips [/] [black on cyan] more down [/] "
        "[dim cyan]no gain[/] [dim]no use[/]"
    )
    grid.caption = legend
    table = Table(title="usable draws")
    for h in ROW_HEADER:
        table.add_column(h, justify="right" if h in ("live", "down", "value", "total") else "left")
    for r in a.rows:
        if r.usable:
            table.add_row(*row_fields(a, r), style=None)
    if not any(r.usable for r in a.rows):
        table.add_row("-", "", "", "", "", "", "", "", "no card is usable")
    console.print(Columns([grid, table]))


def print_narrow(a: Analysis, advice: Advice | None, context: Sequence[tuple[str, str]] = ()) -> None:
    """A terminal narrower than :data:`RICH_COLUMNS`: the summary as labelled lines (each
    wrapping under its text), the draw table in aligned columns (the melds, one a line, in a
    table of their own when the screen has no room for them beside the numbers; plain lines
    when it has no room for the numbers either)."""
    # start-up: pan analyze does without these
    from rich.table import Table
    from rich.text import Text

    from pancli.render.terminal import Wrapped, print_table, table_fits

    console = stdout_console()
    head = Table.grid(padding=(0, 2, 0, 0))
    head.add_column(style="bold", no_wrap=True)
    head.add_column()
    for label, text in [*context, *summary_lines(a), *(advice_lines(advice) if advice is not None else ())]:
        head.add_row(label, Wrapped(Text(text)))
    console.print(head)
    rows = [row_fields(a, r) for r in a.rows if r.usable]

    def table(columns: Sequence[str], gap: int = 2) -> Table:
        t = Table(box=None, pad_edge=False, header_style="bold", padding=(0, gap, 0, 0))
        for h in columns:
            t.add_column(h, justify="right" if h in ("live", "down", "value", "total") else "left")
        for row in rows:
            cells = dict(zip(ROW_HEADER, row, strict=True))
            melds = Wrapped(Text("\n".join(cells["melds"].split(" | "))))
            t.add_row(*(melds if h == "melds" else cells[h] for h in columns))
        return t

    if not rows:
        console.print("useful draws: no card is usable")
        return
    # the widest text columns move to a table of their own (beside their card) when the screen
    # has no room for them among the numbers
    words = [h for h in ("raises", "melds") if h in ROW_HEADER]
    layouts: list[tuple[list[str], list[str], int]] = [(ROW_HEADER, [], 2)]
    layouts += [([h for h in ROW_HEADER if h not in words[k:]], ["card", *words[k:]], gap)
                for k in range(len(words) - 1, -1, -1) for gap in (2, 1)]  # fmt: skip
    for layout in layouts:
        columns, side, gap = layout
        drawn = table(columns, gap)
        if table_fits(console, drawn):
            console.print(drawn)
            break
    else:
        print_table(console, table(columns))
    if side:
        print_table(console, table(side))


# --------------------------------------------------------------------------- command


def error_json(file: str, line: int, col: int, rule: str, message: str) -> ErrorFields:
    """The ``error`` object of ``--json``: the fields of an error line (docs/commands.md).

    >>> error_json("-", 3, 1, "P7", "9 cards").player is None
    True
    """
    return ErrorFields(file, line, col, rule, None, message)


def show(a: Analysis, adv: Advice | None, context: Sequence[tuple[str, str]]) -> None:
    """One analysis as text: rich on a terminal (:func:`print_narrow` when it is narrower than
    :data:`RICH_COLUMNS`: the grid beside the draw table would cut words), plain lines in a pipe."""
    if stdout_is_terminal():
        from pancli.render.terminal import size  # start-up: pan analyze does without it

        columns = size().columns
        if columns >= RICH_COLUMNS:
            print_rich(a, adv, context)
        else:
            print_narrow(a, adv, context)
    else:
        print_plain(a, adv, context)


RICH_COLUMNS = 80
"""The narrowest terminal that gets the rich tables."""
