"""Money has one reader (R2, R10): ``pan settle --stake`` and the ``Stake`` tag take the same text and
refuse the same text with the same code. The Python API checks its arguments with the limits the
commands use and raises only what docs/api.md says: ``PanError`` (and ``OSError`` from
``read_records``, which reads a file of the caller's choosing).

Before: ``--stake`` of 29 significant digits was a traceback, ``1e3``, ``1_000`` and Arabic-Indic
digits were money there and R2 in a record; ``analyze_hand(samples=0)`` raised ZeroDivisionError,
``-1`` a math error, ``10**12`` ran out of memory; ``load_rules("/dev/zero")`` read without end and
a FIFO blocked; about 75 kinds of bad argument raised TypeError or AttributeError.
"""

from __future__ import annotations

import io
import os
import threading
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from cli_kit import pan
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pancli
from pancli.limits import MAX_HOUSE_RULES_BYTES, MAX_SAMPLES
from pancli.records import read_hands
from pancli.records.tags import read_stake
from pancli.rules import HOYLE

SAMPLE = Path(__file__).resolve().parent.parent / "pancli" / "samples" / "friday-hoyle.pan"


# --------------------------------------------------------------------------- money


def stake_in_a_record(text: str) -> Decimal | str:
    """What the Stake tag makes of ``text``: the money, or the error code."""
    [hand] = read_hands(io.StringIO(f'[Players "Ana Ben"]\n[Stake "{text}"]\n\nAna stay\nBen stay\n'), "s.pan")
    if hand.error is not None:
        return hand.error.code
    assert hand.script is not None and hand.script.stake is not None
    return hand.script.stake


def stake_on_the_command_line(text: str) -> Decimal | str:
    """What ``pan settle --stake`` makes of ``text``: the money of a one-unit hand, or the error code."""
    r = pan("settle", "--json", "--stake", text, str(SAMPLE))
    if r.exit_code == 2:
        assert "--stake" in r.stderr and "Traceback" not in r.stderr, r.stderr
        return "R10" if " R10 " in r.stderr else "R2"
    assert r.exit_code == 0, r.stderr
    return Decimal(text)


STAKES = [
    "0.25", "1", "0", "2.50", "999999999.999999999", "1" * 29, "9" * 5000, "1e3", "1E3", "1_000", "\u0661",
    "\uff11", "-1", "+1", " 1", "1.", ".5", "0x10", "NaN", "Infinity", "", "1.2.3", "1,5", "1" * 10 + ".5",
]  # fmt: skip


@pytest.mark.parametrize("text", STAKES)
def test_R2_R10_a_stake_reads_alike_in_a_record_and_on_the_command_line(text: str) -> None:
    got = read_stake(text)
    expected = got if isinstance(got, Decimal) else got[0]
    if '"' not in text and len(text) < 1000:
        assert stake_in_a_record(text) == expected
    assert stake_on_the_command_line(text) == expected


@settings(max_examples=40, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(st.sampled_from("0123456789._e+-\u0661\uff11 "), max_size=30))
def test_R2_R10_any_stake_text_reads_alike_in_both_places(text: str) -> None:
    assert stake_in_a_record(text) == stake_on_the_command_line(text)


# --------------------------------------------------------------------------- the API's arguments


def test_R10_analyze_hand_samples_are_those_of_the_command_line() -> None:
    for samples in (0, -1, 10**12, 10**5000, MAX_SAMPLES + 1, True, 2.5, "10"):
        with pytest.raises(pancli.PanError) as caught:
            pancli.analyze_hand("5s 5s 5s 6h 7h Jc Qc Kc 2d 3d", samples=samples)  # type: ignore[arg-type]
        assert caught.value.rule == "R10" and "samples" in caught.value.message
    for players in (1, 16, 0, None):
        with pytest.raises(pancli.PanError) as caught:
            pancli.analyze_hand("5s 5s 5s 6h 7h Jc Qc Kc 2d 3d", players=players)  # type: ignore[arg-type]
        assert caught.value.rule == "S1"
    assert pancli.analyze_hand("5s 5s 5s 6h 7h Jc Qc Kc 2d 3d", samples=1, players=15).best.melded == 6


def test_R3_load_rules_reads_as_the_commands_do(tmp_path: Path) -> None:
    for spec in ("/dev/zero", "/dev/null", str(tmp_path)):
        with pytest.raises(pancli.PanError, match="not a regular file") as caught:
            pancli.load_rules(spec)
        assert caught.value.rule == "R3"
    big = tmp_path / "big.toml"
    big.write_bytes(b"# x\n" * (MAX_HOUSE_RULES_BYTES // 4 + 1))
    with pytest.raises(pancli.PanError, match="too long"):
        pancli.load_rules(big)
    with pytest.raises(pancli.PanError, match="not a path"):
        pancli.load_rules("a\x00b")
    shaped = tmp_path / "shaped.toml"
    shaped.write_text("ante = 1\npacks = " + "9" * 5000 + "\n", encoding="utf-8")
    with pytest.raises(pancli.PanError, match=r"\(line 2\): packs: a number of 5000 digits") as caught:
        pancli.load_rules(shaped)
    assert caught.value.col == 9


def test_R3_load_rules_of_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    outcome: list[BaseException | None] = []

    def load() -> None:
        try:
            pancli.load_rules(fifo)
            outcome.append(None)
        except BaseException as exc:  # recorded for the test thread
            outcome.append(exc)

    reader = threading.Thread(target=load, daemon=True)
    reader.start()
    reader.join(timeout=30)
    if reader.is_alive():  # it waits for a writer: open the FIFO to free it, then fail
        with open(fifo, "wb"):
            pass
        pytest.fail("load_rules waited for a writer of the FIFO")
    assert isinstance(outcome[0], pancli.PanError) and "not a regular file" in str(outcome[0])


def anything() -> st.SearchStrategy[Any]:
    """Any argument a caller might pass: wrong types, huge and negative numbers, odd text."""
    leaves = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(),
        st.sampled_from([0, -1, 10**12, 10**4000, 2**63, MAX_SAMPLES + 1]),  # (hypothesis cannot print 10**5000)
        st.floats(),
        st.text(max_size=50),
        st.sampled_from(["5s 5s 5s", "hoyle", "cardroom", "", ".", "a\x00b", "5s 5s 5s 6h 7h Jc Qc Kc 2d 3d", "+5s"]),
        st.binary(max_size=20),
        st.just(HOYLE),
        st.just(Path(".")),
        st.builds(object),
        st.just(pancli.parse_records('[Players "Ana Ben"]\n\nAna stay\nBen stay\n')[0]),
    )
    return st.recursive(
        leaves,
        lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=3), inner, max_size=2)),
        max_leaves=4,
    )


def _records(path: object) -> object:
    return list(pancli.read_records(path))  # type: ignore[arg-type]


CALLS: dict[str, tuple[Callable[..., object], tuple[str, ...]]] = {
    "load_rules": (pancli.load_rules, ("spec",)),
    "check_meld": (pancli.check_meld, ("text", "rules")),
    "meld_value": (pancli.meld_value, ("text", "rules")),
    "read_records": (_records, ("path",)),
    "parse_records": (pancli.parse_records, ("text", "name", "rules_dir")),
    "referee_hand": (pancli.referee_hand, ("hand",)),
    "analyze_hand": (pancli.analyze_hand, ("hand", "rules", "drawn", "players", "samples", "seed")),
}
"""Every public function and its parameters (a test below keeps the list complete)."""


def test_every_public_function_is_driven_by_the_property() -> None:
    functions = {n for n in pancli.API if n[0].islower()}
    assert functions == set(CALLS)


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(CALLS)), st.data())
def test_every_api_function_raises_only_its_documented_exceptions(name: str, data: st.DataObject) -> None:
    function, params = CALLS[name]
    count = data.draw(st.integers(1, len(params)))
    args = {p: data.draw(anything(), label=p) for p in params[:count]}
    if name == "analyze_hand":
        args = {"hand": args.pop("hand"), **args}
        positional: list[object] = [args.pop("hand")]
        if "rules" in args:
            positional.append(args.pop("rules"))
    else:
        positional = list(args.values())
        args = {}
    try:
        function(*positional, **args)
    except pancli.PanError as exc:
        assert exc.rule and isinstance(exc.message, str) and exc.col >= 1
        assert len(str(exc)) < 1000, "an error never repeats a huge argument"
    except OSError:
        assert name == "read_records", "only read_records says a file could not be read with OSError"
