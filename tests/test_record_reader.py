"""The streaming reader: hands one at a time, malformed hands skipped, junk never crashes."""

from __future__ import annotations

import io
from pathlib import Path

from pancli.notation.errors import NotationError
from pancli.records import read_hands
from pancli.rules import CARDROOM, HOYLE

GOOD = '[Players "Ana Ben"]\n\nAna stay\nBen stay\nAna draw 5h, discard 5h\n'


def test_malformed_hand_between_two_good_ones_is_reported_and_skipped() -> None:
    text = GOOD + "\n" + '[Players "Ana Ben"]\n\nAna stay\nAna draw 9h\n' + "\n" + GOOD
    hands = list(read_hands(io.StringIO(text), "x.pan"))
    assert [h.index for h in hands] == [1, 2, 3]
    assert hands[0].error is None and hands[2].error is None
    bad = hands[1]
    assert bad.script is None and bad.error is not None
    assert (bad.error.code, bad.error.line, bad.error.col) == ("E1", 10, 10)
    assert (bad.first_line, bad.last_line) == (7, 10)
    assert bad.text == '[Players "Ana Ben"]\n\nAna stay\nAna draw 9h\n'
    assert hands[2].first_line == 12 and hands[2].script is not None
    assert hands[2].script.events[0].line == 14


def test_R2_a_hand_of_tags_only_runs_into_the_next_tag_block() -> None:
    # Only a tag line after play lines starts a hand: tags with no play lines are one block.
    text = '[Players "Ana Ben"]\n\n[Players "Cy Dee"]\n\n' + GOOD + "\n" + GOOD
    hands = list(read_hands(io.StringIO(text), "x.pan"))
    assert [h.index for h in hands] == [1, 2]
    assert hands[0].error is not None and hands[0].error.code == "R2"
    assert (hands[0].error.line, hands[0].error.col) == (3, 1)
    assert hands[1].error is None and hands[1].first_line == 11


def test_hands_are_read_lazily_one_at_a_time() -> None:
    reads = []

    class Spy(io.StringIO):
        def readline(self, size: int | None = -1) -> str:
            reads.append(1)
            return super().readline(size)

    it = read_hands(Spy(GOOD + "\n" + GOOD * 1 + "\n" + GOOD), "x.pan")
    next(it)
    assert len(reads) < 10  # the first hand is out before the rest of the file is read


def _errors(data: str) -> list[NotationError | None]:
    return [h.error for h in read_hands(io.StringIO(data), "junk")]


def test_junk_input_gives_notation_errors_never_a_crash() -> None:
    binary = bytes(range(256)).decode("utf-8", errors="replace") * 20
    for junk in (binary, "x" * 1_000_000, "{" + "never closed\n" * 1000, "}}}", '["\\', "\x00\n\x00", "[", ";", "{}"):
        for err in _errors(junk):
            assert err is None or isinstance(err, NotationError)


def test_R10_a_line_longer_than_the_limit_is_an_error_not_kept_whole() -> None:
    [hand] = read_hands(io.StringIO('[Players "A B"]\nA stay' + "!" * 200_000 + "\nA stay\n"), "big")
    assert hand.error is not None and hand.error.code == "R10" and hand.error.line == 2
    assert len(hand.text) < 1000


def test_R8_an_unclosed_comment_ends_at_the_next_tag_line() -> None:
    text = '[Players "A B"]\nA stay {oops\nB stay\n[Players "A B"]\nA stay\n'
    first, second = read_hands(io.StringIO(text), "c")
    assert first.error is not None and (first.error.code, first.error.line, first.error.col) == ("R8", 2, 8)
    assert second.error is None


def test_comment_spanning_lines_inside_a_turn_keeps_true_places() -> None:
    text = '[Players "A B"]\n\nA stay\nA draw 5h {a\nlong one} , discard 5h ; done\n'
    [hand] = read_hands(io.StringIO(text), "c")
    assert hand.script is not None and hand.layout is not None
    turn = hand.script.events[1]
    assert [(a.line, a.col) for a in turn.actions] == [(4, 3), (5, 13)]  # type: ignore[union-attr]
    assert hand.layout.notes_of(1).actions[0] == ("", ("{a\nlong one}",))
    assert hand.layout.notes_of(1).eol == "done"


def test_pays_claims_set_the_claim_of_their_action() -> None:
    text = '[Players "A B"]\n\nA draw 5s, meld [5sss] {[%pays 4]}, add 5s to #1 {[%pays 2]}, discard 2c\n'
    [hand] = read_hands(io.StringIO(text), "c")
    assert hand.script is not None
    meld, add = hand.script.events[0].actions[1:3]  # type: ignore[union-attr]
    assert (meld.claim, add.claim) == (4, 2)


def test_R3_house_rules_file_relative_to_the_record(tmp_path: Path) -> None:
    (tmp_path / "house.toml").write_text('base = "cardroom"\n', encoding="utf-8")
    (tmp_path / "bad.toml").write_text("out_bonus = -3\n", encoding="utf-8")
    text = '[Players "A B"]\n[Rules "house.toml"]\n\nA stay\n\n[Players "A B"]\n[Rules "bad.toml"]\n\nA stay\n'
    good, bad = read_hands(io.StringIO(text), "r.pan", tmp_path)
    assert good.script is not None and good.script.profile == CARDROOM
    assert bad.error is not None and bad.error.code == "R3" and "out_bonus" in bad.error.message
    assert (bad.error.line, bad.error.col) == (7, 9)


def test_R2_a_hand_without_players() -> None:
    [hand] = read_hands(io.StringIO('[Event "x"]\n\nA stay\n'), "p")
    assert hand.error is not None and (hand.error.code, hand.error.line) == ("R2", 1)


def test_crlf_and_bom_are_read() -> None:
    [hand] = read_hands(io.StringIO("\ufeff" + GOOD.replace("\n", "\r\n")), "w")
    assert hand.error is None and hand.script is not None and len(hand.script.events) == 3


# --------------------------------------------------------------------------- chunks (pan replay --jobs)

EDGES = (
    "; a comment before the first hand\n\n"
    + GOOD
    + "\n; between hands\n{ a long\ncomment }\n"
    + GOOD
    + '[Players "Ana Ben"]\n{ open across\n[Event "x"]\nAna stay\n'
    + "   \n"
    + GOOD
    + "Ana draw "
    + "5h " * 40_000
    + "\n"
    + GOOD
    + '[Players "Ana Ben"]\n\nAna stay\nAna draw 9h\n'
    + GOOD
    + "{ never closed\n"
)


def _same_hands(a: list[object], b: list[object]) -> None:
    """Hands equal field by field (a NotationError by its code, message and place)."""
    from pancli.notation.layout import RecordHand

    assert len(a) == len(b)
    for x, y in zip(a, b, strict=True):
        assert isinstance(x, RecordHand) and isinstance(y, RecordHand)
        ex, ey = x.error, y.error
        assert (ex is None) == (ey is None)
        if ex is not None and ey is not None:
            assert (ex.code, str(ex), ex.line, ex.col) == (ey.code, str(ey), ey.line, ey.col)
        from msgspec.structs import replace

        assert replace(x, error=None) == replace(y, error=None)


def test_R10_chunks_cut_where_the_reader_starts_a_hand_and_read_the_same_hands() -> None:
    from pancli.records.reader import read_chunk, split_hands

    samples = sorted(Path("samples").glob("*.pan"))
    texts = [EDGES, "\n\n".join(p.read_text(encoding="utf-8") for p in samples), GOOD * 5, "", "\n\n; only\n"]
    for text in texts:
        whole = list(read_hands(io.StringIO(text), "x.pan", Path("samples")))
        for per in (1, 2, 3, 50):
            chunks = list(split_hands(io.StringIO(text), per))
            got = [h for c in chunks for h in read_chunk(c, "x.pan", Path("samples"))]
            _same_hands(got, whole)  # type: ignore[arg-type]
            assert sum(c.hands for c in chunks) == len(whole)
            assert all(c.first_index == h.index for c in chunks for h in list(read_chunk(c, "x.pan"))[:1])


def test_R5_a_tab_counts_as_one_column_in_a_record_line() -> None:
    [hand] = read_hands(io.StringIO('[Players "Ana Ben"]\n\n\tZed stay\n'), "x.pan")
    assert hand.error is not None
    assert (hand.error.code, hand.error.line, hand.error.col) == ("R5", 3, 2)


def test_R6_remembered_lines_are_rebuilt_equal_to_a_fresh_reading() -> None:
    """A line read before is rebuilt from its recipe: the same values, hashes and reprs as
    reading it afresh."""
    from pancli.cards import Game
    from pancli.notation.record_common import LineContext
    from pancli.notation.record_fast import _fast_play, fast_play

    ctx = LineContext(Game.PANGUINGUE, frozenset({"Ana", "Ben"}), line=3)
    for text in ("Ana draw 5h, discard 5h", "Ben take 5h, meld [5h 5h 5h], discard 7d", "Ana stay", "Ben draw 2c, out"):
        ctx.line = 3
        first = fast_play(text, ctx)
        ctx.line = 7
        fast_play(text, ctx)  # read twice: remembered
        ctx.line = 11
        again = fast_play(text, ctx)
        fresh = _fast_play(text, ctx)
        assert first is not None and again is not None and fresh is not None
        assert text in ctx.memos.plain[Game.PANGUINGUE, ctx.pack]
        assert again == fresh and hash(again[0]) == hash(fresh[0]) and repr(again[0]) == repr(fresh[0])
        assert again[0].line == 11 and first[0].line == 3


def test_R2_R4_repeated_headers_read_as_a_reader_that_keeps_none(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A header read before is reused only when it depends on its tags' names and values alone:
    every hand (scripts, errors and their places, Ledger claims) is the same as with no header kept."""
    import pancli.records.reader as reader

    led = '[Players "Ana Ben"]\n[Ledger "Ana +0, Ben 0"]\n\nAna stay\nBen stay\nAna draw 5h, discard 5h\n'
    bad = '[Players "Ana Ana"]\n\nAna stay\n'
    rules = '[Players "Ana Ben"]\n[Rules " Cardroom"]\n[Stake "0.25"]\n\nAna stay\nBen stay\n'
    text = "\n".join([GOOD, GOOD, led, "\n" + led, bad, GOOD, bad, rules, "\n\n" + rules, GOOD])

    def hands() -> list[tuple[object, ...]]:
        return [(h.first_line, h.last_line, h.script, h.error and str(h.error)) for h in read_hands(io.StringIO(text))]

    kept = hands()
    monkeypatch.setattr(reader, "_HEADER_MEMO", 0)
    assert kept == hands()
    assert [h[2].ledger_claim.line for h in kept if h[2] is not None and h[2].ledger_claim] == [14, 22]  # type: ignore[attr-defined]


def test_R6_the_reader_with_its_remembered_lines_and_actions_reads_as_one_that_keeps_none() -> None:
    """The fast path's memos (plain lines rebuilt from a recipe, actions by their text) change no
    hand: every shipped sample and 60 simulated hands (with glyphs added to some lines), each read
    twice so that the memos are filled, read the same as by a reader that remembers nothing."""
    from pancli.notation.record_common import LineMemos
    from pancli.notation.record_writer import write_scripts
    from pancli.referee.simulate import simulate_hands

    simulated = "".join(write_scripts(simulate_hands(("Ana", "Ben", "Cruz", "Dee"), 60, 7, HOYLE)))
    lines = simulated.splitlines()
    annotated = "\n".join(ln + " !" if ", discard" in ln and i % 3 else ln for i, ln in enumerate(lines))
    assert annotated.count(" !\n") > 100
    texts = [p.read_text(encoding="utf-8") for p in sorted(Path("samples").glob("*.pan"))]
    texts += [simulated, annotated]

    def hands(memos: LineMemos) -> list[list[object]]:
        return [list(read_hands(io.StringIO(t + "\n\n" + t), "x.pan", None, memos)) for t in texts]

    filled, none = LineMemos(), LineMemos(max_recipes=0, max_segments=0)
    kept = hands(filled)
    assert any(filled.plain.values()) and any(filled.segments.values())
    for got, fresh in zip(kept, hands(none), strict=True):
        _same_hands(got, fresh)
    assert not any(none.plain.values()) and not any(none.segments.values())


def test_the_grammar_writes_no_module_state_while_it_reads_a_line() -> None:
    """The players and the line a parse reads are held for that parse alone: after it, and in
    another thread during it, no module-level object of the grammar has changed."""
    import importlib
    import pkgutil
    import threading
    import types

    import pancli.notation
    from pancli.cards import Game
    from pancli.notation.errors import NotationError
    from pancli.notation.record_common import LineContext
    from pancli.notation.record_grammar import grammar_play

    modules = [
        importlib.import_module(f"pancli.notation.{m.name}") for m in pkgutil.iter_modules(pancli.notation.__path__)
    ]

    def state() -> list[tuple[str, str, dict[str, object]]]:
        return [
            (m.__name__, name, dict(vars(v)))
            for m in modules
            for name, v in vars(m).items()
            if hasattr(v, "__dict__") and not isinstance(v, type | types.ModuleType | types.FunctionType)
            and not callable(v)
        ]  # fmt: skip

    before = state()
    assert grammar_play("Zed draw 5s", LineContext(Game.PANGUINGUE, frozenset({"Zed"}), line=40))[0].line == 40
    assert state() == before
    errors: list[str] = []

    def read(name: str, other: str) -> None:
        for k in range(200):
            grammar_play(f"{name} draw 5s", LineContext(Game.PANGUINGUE, frozenset({name}), line=k + 1))
            try:
                grammar_play(f"{other} draw 5s", LineContext(Game.PANGUINGUE, frozenset({name}), line=k + 1))
                errors.append(f"{other} read among {name}'s players")
            except NotationError as exc:
                if exc.code != "R5" or exc.line != k + 1:
                    errors.append(str(exc))

    threads = [threading.Thread(target=read, args=p) for p in (("Ann", "Bo"), ("Bo", "Ann"))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


def test_R6_every_action_ends_with_its_place_which_a_remembered_segment_leaves_out() -> None:
    """The fast reader remembers an action's segment as its fields but ``line`` and ``col``, cut
    off the end of its tuple: every action has them last (a new one that does not fails here)."""
    from typing import get_args

    from pancli.model.actions import Action, Draw
    from pancli.notation import parse_card
    from pancli.notation.record_fast import _values

    for kind in get_args(Action):
        assert kind.__struct_fields__[-2:] == ("line", "col"), kind
    card = parse_card("5s")
    assert _values(Draw(card, 7, 3)) == (card,)
