"""The documentation ships with the project and points only at files that are in it.

- every markdown link and every ``NAME.md`` mention, in markdown, code, samples and grammar/,
  names a file of the repository (and a link's ``#anchor`` a heading of it), and nothing, tests
  and benchmarks included, names the developers' own files;
- docs/rules.md lists exactly the rule ids of the registry, in its order, each with the registry's
  title, statement and ruling;
- .ci/run runs exactly the README's test command.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_markdown_examples import MARKDOWN, ROOT

from pancli.rulebook import RULEBOOK, Rule

LINK = re.compile(r"\[[^\]\n]*\]\(([^)\s]+)\)")
MENTION = re.compile(r"(?<![\w./-])([\w./-]*[\w-]\.md)\b")
CHECKED = sorted(
    {
        *MARKDOWN,
        *(ROOT / "pancli").rglob("*.py"),
        *(ROOT / "samples").glob("*.pan"),
        *(ROOT / "samples").glob("*.toml"),
        *(p for p in (ROOT / "grammar").rglob("*") if p.is_file()),
        ROOT / "pyproject.toml",
        ROOT / ".ci" / "run",
    }
)


def slug(heading: str) -> str:
    """The anchor a markdown renderer gives a heading (GitHub's rule).

    >>> slug("G: PAGRUC"), slug("Worked figures"), slug("`pan rules RULE`")
    ('g-pagruc', 'worked-figures', 'pan-rules-rule')
    """
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    return {slug(m.group(1)) for m in re.finditer(r"^#+ (.+)$", path.read_text(encoding="utf-8"), re.M)}


def resolve(target: str, source: Path) -> Path | None:
    """The file a mention or link names: relative to the mentioning file, or to the root."""
    for base in (source.parent, ROOT):
        p = (base / target).resolve()
        if p.exists():
            return p
    return None


@pytest.mark.parametrize("path", CHECKED, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_file_reference_resolves(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    bad: list[str] = []
    for m in MENTION.finditer(text):
        if resolve(m.group(1), path) is None:
            bad.append(f"{m.group(1)} (line {text.count(chr(10), 0, m.start()) + 1})")
    if path.suffix == ".md":
        for m in LINK.finditer(text):
            target = m.group(1)
            if re.match(r"[a-z]+:", target):
                continue
            file, _, anchor = target.partition("#")
            where = resolve(file, path) if file else path
            line = text.count("\n", 0, m.start()) + 1
            if where is None:
                bad.append(f"{target} (line {line})")
            elif anchor and where.suffix == ".md" and anchor not in anchors(where):
                bad.append(f"{target}: no heading #{anchor} (line {line})")
    bad = sorted(set(bad))
    assert not bad, f"{path.relative_to(ROOT)} points at what is not in the repository: {bad}"


OUTSIDE = re.compile("|".join([r"\b(?:RULES|NOTATION|PERF-NOTES)\.md\b", "/" + r"work/", r"\bseeds/"]))
"""What only the developers' machine has: the contracts the project was written against (the
rulebook and the notation are docs/rules.md and docs/notation.md here), its folders."""


def test_nothing_points_outside_the_repository() -> None:
    """Code, tests, benchmarks and every document name only what ships with the project."""
    files = [
        *CHECKED,
        *(ROOT / "tests").glob("*.py"),
        *(ROOT / "benchmarks").glob("*.py"),
        ROOT / "CHANGELOG.md",
        ROOT / "MANIFEST.in",
    ]
    bad = sorted(
        f"{p.relative_to(ROOT)}:{text.count(chr(10), 0, m.start()) + 1}: {m.group()}"
        for p in set(files)
        for text in [p.read_text(encoding="utf-8", errors="replace")]
        for m in OUTSIDE.finditer(text)
    )
    assert bad == []


def test_docs_rules_lists_every_registry_id_in_order() -> None:
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    listed = re.findall(r"^### ([A-Z]\d+) ", text, re.M)
    assert listed == [str(r) for r in Rule]
    for rule, e in RULEBOOK.items():
        assert re.search(rf"^### {rule} {re.escape(e.title)}$", text, re.M), f"{rule}: heading is not '{e.title}'"
        section = text.split(f"### {rule} ", 1)[1].split("\n### ", 1)[0]
        assert e.statement in section and f"**Ruling.** {e.ruling}" in section, f"{rule}: not the registry's text"


def test_ci_runs_exactly_the_readme_test_command() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    m = re.search(r"# install the test extras and run the whole test suite\n(.+)\n", readme)
    assert m, "the README names no test command"
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert m.group(1) in ci


@pytest.mark.parametrize("name", ["tutorial.md"])
def test_numbered_sections_count_one_by_one(name: str) -> None:
    """A document's numbered sections go 1, 2, 3 ... with no number twice and none skipped."""
    text = (ROOT / "docs" / name).read_text(encoding="utf-8")
    numbers = [int(n) for n in re.findall(r"^## (\d+)\. ", text, re.M)]
    assert numbers == list(range(1, len(numbers) + 1)), f"docs/{name}: sections numbered {numbers}"


def test_readme_says_what_the_test_command_installs_and_how_long_it_takes() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    after = readme.split("# install the test extras and run the whole test suite\n", 1)[1].split("\n## ", 1)[0]
    said = after.split("```\n", 1)[1].split("\n\n", 1)[0]
    assert "reinstalls `pan` there as an **editable** install" in said and "`.venv`" in said
    assert re.search(r"in about \d+\s+seconds on two (free )?cores", said), said
