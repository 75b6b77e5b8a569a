"""``pan replay FILE --html OUT.html``: a self-contained page (no script, nothing fetched),
every hand's timeline with card pictures, payments linked to their rules, the violation and
its ruling, wrong claims, ledgers, the sitting's totals; everything from the record escaped."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner

from pancli.cli import cli


class _Page(HTMLParser):
    """The tags, ids, links and text of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data: str) -> None:
        self.text.append(data)

    def ids(self) -> set[str]:
        return {a["id"] or "" for _, a in self.tags if "id" in a}

    def links(self) -> list[str]:
        return [a["href"] or "" for t, a in self.tags if t == "a" and "href" in a]


def _report(tmp_path: Path, *files: str, args: tuple[str, ...] = ()) -> tuple[int, str, str, _Page]:
    out = tmp_path / "r.html"
    r = CliRunner().invoke(cli, ["replay", *files, "--html", str(out), *args])
    text = out.read_text(encoding="utf-8")
    page = _Page()
    page.feed(text)
    return r.exit_code, r.stdout, text, page


def test_the_page_is_self_contained_with_no_script_and_nothing_fetched(tmp_path: Path) -> None:
    code, _, text, page = _report(tmp_path, "samples/friday-hoyle.pan")
    assert code == 0
    tags = {t for t, _ in page.tags}
    assert "script" not in tags and "link" not in tags and "img" not in tags and "iframe" not in tags
    assert not re.search(r"(src|href)=\"(https?:)?//", text)
    assert not re.search(r"url\((?!#)", text)  # CSS refers only to the page's own patterns
    for link in page.links():  # every link is to a place in the page, and the place exists
        assert link.startswith("#") and link[1:] in page.ids(), link
    assert '<meta name="viewport"' in text and "@media print" in text


def test_every_play_line_has_its_cards_drawn_and_every_payment_its_rule(tmp_path: Path) -> None:
    _, _, text, page = _report(tmp_path, "samples/friday-hoyle.pan")
    cards = [a.get("data-card") for t, a in page.tags if t == "g" and a.get("class") == "card"]
    assert cards.count("5s") >= 5  # dealt 5s 5s, drawn, melded three
    replay = json.loads(CliRunner().invoke(cli, ["replay", "--json", "samples/friday-hoyle.pan"]).stdout)
    rules = {p["rule"] for h in replay for p in h["payments"]}
    for rule in rules:
        assert f'href="#rule-{rule}"' in text and f'id="rule-{rule}"' in text
    assert text.count('class="hand"') == 2 and text.count("ledger-table") == 2
    assert "Eli pays Ana <strong>7.00</strong>" in text  # the settling payments, as pan settle finds them


def test_the_violation_is_highlighted_with_its_ruling_and_later_lines_dimmed(tmp_path: Path) -> None:
    code, out, text, _ = _report(tmp_path, "samples/illegal-P3-dead-discard.pan")
    assert code == 1 and "VIOLATION" in out  # the usual output still goes to standard output
    assert text.count('<tr class="violation">') == 1 and '<tr class="after">' in text
    assert 'class="violation-box"' in text and "ruling:" in text and 'href="#rule-P3"' in text
    assert "disputed hands" in text


def test_wrong_claims_and_malformed_hands_are_shown(tmp_path: Path) -> None:
    _, _, text, _ = _report(
        tmp_path, "samples/illegal-claim-wrong-pays.pan", "samples/malformed-record.pan", "samples/pagruc-illegal.pan"
    )
    assert 'class="claim-box"' in text and "wrong claim" in text
    assert "<mark>" in text and 'class="badge bad">malformed' in text
    assert "hand scores (G7)" in text


def test_record_text_is_escaped_a_script_in_a_comment_stays_text(tmp_path: Path) -> None:
    record = Path("samples/friday-hoyle.pan").read_text(encoding="utf-8")
    hostile = "<script>alert('pwned')</script>"
    record = record.replace('[Event "Friday game"]', f'[Event "</title>{hostile}"]', 1)
    record = record.replace("3. Dee draw Kc, discard Kc", f"3. Dee draw Kc, discard Kc {{ {hostile} }}", 1)
    record = record.replace("; Friday game at the club", f"; {hostile} <img src=x onerror=alert(1)>", 1)
    src = tmp_path / "hostile.pan"
    src.write_text(record, encoding="utf-8")
    code, _, text, page = _report(tmp_path, str(src))
    assert code == 0
    assert "<script" not in text.lower() and "<img" not in text.lower()
    assert sum(hostile in t for t in page.text) >= 3  # shown as text where it was written


def test_an_unwritable_page_is_a_clear_error_and_no_file(tmp_path: Path) -> None:
    out = tmp_path / "no-such-folder" / "r.html"
    r = CliRunner().invoke(cli, ["replay", "samples/friday-hoyle.pan", "--html", str(out)])
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert not out.parent.exists()


def test_the_page_is_replaced_atomically_and_only_when_complete(tmp_path: Path) -> None:
    out = tmp_path / "r.html"
    out.write_text("old page", encoding="utf-8")
    r = CliRunner().invoke(cli, ["replay", "samples/friday-hoyle.pan", "--html", str(out)])
    assert r.exit_code == 0
    assert out.read_text(encoding="utf-8").rstrip().endswith("</html>")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.html"]


def test_the_picture_memos_change_nothing_on_the_page(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The memos of card pictures (pancli.svg._CARDS, replay_html._PICTURES) are speed only."""
    import pancli.cli.replay_html as replay_html
    from pancli import svg

    class Forgetful(dict):  # type: ignore[type-arg]
        def __setitem__(self, key: object, value: object) -> None:
            pass

    files = ("samples/friday-hoyle.pan", "samples/cardroom-saturday.pan", "samples/pagruc-common-room.pan")
    _, _, memo, _ = _report(tmp_path, *files)
    monkeypatch.setattr(svg, "_CARDS", Forgetful())
    monkeypatch.setattr(replay_html, "_PICTURES", Forgetful())
    _, _, plain, _ = _report(tmp_path, *files)
    assert plain == memo
