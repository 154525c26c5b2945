"""Every relative link in every Markdown file of the repository resolves: the file (or folder)
it names exists, and an ``#anchor`` names a heading of the target (GitHub's slug rules)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: ``[text](target)`` and ``![alt](target)``, outside code spans and fenced blocks.
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
FENCE = re.compile(r"^(```|~~~).*?^\1", re.MULTILINE | re.DOTALL)
CODE_SPAN = re.compile(r"`[^`\n]*`")
HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$", re.MULTILINE)


def markdown_files() -> list[Path]:
    """The .md files git tracks or would track (not ignored), so a venv's are left out."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "*.md"],
        cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    return sorted(ROOT / name for name in listed if (ROOT / name).is_file())


def slug(heading: str) -> str:
    """GitHub's anchor of a heading: link targets dropped, lower case, punctuation but ``-``
    and ``_`` removed, spaces to hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading).lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    seen: dict[str, int] = {}
    result = set()
    for heading in HEADING.findall(FENCE.sub("", path.read_text())):
        base = slug(heading)
        count = seen.get(base, 0)
        seen[base] = count + 1
        result.add(base if count == 0 else f"{base}-{count}")
    return result


def links(path: Path) -> list[str]:
    text = CODE_SPAN.sub("", FENCE.sub("", path.read_text()))
    return [target for target in LINK.findall(text)
            if not re.match(r"[a-z][a-z0-9+.-]*:", target, re.IGNORECASE)]  # http:, mailto:


def broken_links(path: Path) -> list[str]:
    broken = []
    for target in links(path):
        name, _, anchor = target.partition("#")
        resolved = (path.parent / name).resolve() if name else path
        if not resolved.exists():
            broken.append(f"{target}: no such file")
        elif anchor and resolved.suffix == ".md" and anchor not in anchors(resolved):
            broken.append(f"{target}: no heading #{anchor}")
    return broken


@pytest.mark.parametrize("path", markdown_files(), ids=lambda path: str(path.relative_to(ROOT)))
def test_every_relative_link_resolves(path):
    assert broken_links(path) == []


def test_the_checker_sees_links_and_anchors(tmp_path):
    (tmp_path / "a.md").write_text("# Top\n## 2. Some `code` here\nsee [b](b.md), [x](#top),"
                                   " [y](#2-some-code-here), `[not](a link)`, [web](https://x)\n")
    assert broken_links(tmp_path / "a.md") == ["b.md: no such file"]
    (tmp_path / "b.md").write_text("")
    assert broken_links(tmp_path / "a.md") == []
    (tmp_path / "b.md").write_text("[back](a.md#nowhere) [gone](c.md)\n")
    assert broken_links(tmp_path / "b.md") == ["a.md#nowhere: no heading #nowhere",
                                               "c.md: no such file"]


def test_the_readme_says_which_python_how_to_isolate_it_and_how_long_the_tests_take():
    """Issue 33: a newcomer learns the Python version (the one pyproject.toml requires), how to
    make a virtual environment, and the test suite's duration before running it."""
    import re
    import tomllib

    required = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["requires-python"]
    version = re.fullmatch(r">=(\d+\.\d+)", required)[1]
    intro = (ROOT / "README.md").read_text(encoding="utf-8").split("## The idea")[0]
    text = " ".join(intro.split())
    assert f"They need Python {version} or later" in text
    assert f"python{version} -m venv .venv && . .venv/bin/activate" in text
    # as a newcomer runs it (a normal user: .ci/run's way, issue 43), and as root
    assert "takes about 13 minutes on 2 cores run by a normal user" in text
    assert "longer as root, where they run too" in text
    assert "`python -m pytest -q -n 0` runs it in one process, in about twice the time" in text


def test_the_readme_opens_with_the_two_commands_and_fits_a_few_screens():
    """Issue 45: the README is the two commands, what the project is, a first tournament, a
    first bot and an index; the manual is in docs/."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert readme[:6] == [
        "# pirate-arena", "", "```sh",
        "pip install -e . && arena tournament run examples/quickstart.toml",
        "pip install -e '.[test]' && python -m pytest -q",
        "```"]
    assert len(readme) <= 200


def documents() -> set[str]:
    """Every document of the project (not the tests' fixtures, not a kit's node_modules)."""
    return {str(path.relative_to(ROOT)) for path in markdown_files()
            if not str(path.relative_to(ROOT)).startswith(("tests/", ".")) and "node_modules" not in path.parts}


def linked_from(path: Path) -> set[str]:
    found = set()
    for target in links(path):
        resolved = (path.parent / target.partition("#")[0]).resolve()
        if resolved.is_relative_to(ROOT):
            found.add(str(resolved.relative_to(ROOT)))
    return found


def test_the_docs_index_links_every_document_and_the_readme_links_every_topic():
    assert {"README.md", "docs/README.md", "docs/sandbox.md", "protocol/SPEC.md"} <= documents()
    assert documents() - {"docs/README.md"} - linked_from(ROOT / "docs/README.md") == set()
    topics = {name for name in documents() if name.startswith("docs/") and name.count("/") == 1}
    assert topics - linked_from(ROOT / "README.md") == set()


#: a reference in code, a manifest or a document to a section of a Markdown file:
#: ``docs/sandbox.md, "Running untrusted bots"`` (either quote); ``README`` alone is the main one
SECTION = re.compile(r"""\b((?:[\w.-]+/)*[\w.-]+\.md|README)(?:'s)?,? \\?(["'])([^"\\\n]+?)\\?\2""")


#: a paragraph's bold lead, a section too: ``**Chance-corrected scores.** ...``
LEAD = re.compile(r"^\*\*([^*\n]+?)\.?\*\*", re.MULTILINE)


def references() -> list[tuple[str, str, str]]:
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "--", "arena", "bots",
         "examples", "docs", "tests", "protocol", "engines", "envs", "benchmarks", "pyproject.toml"],
        cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    found = []
    for name in listed:
        path = ROOT / name
        if path.suffix not in {".py", ".toml", ".md", ".txt", ".js", ".html"} or not path.is_file():
            continue
        if "node_modules" in path.parts or name == "tests/test_docs_links.py":
            continue
        text = " ".join(path.read_text(encoding="utf-8", errors="replace").split())
        found += [(name, file, section) for file, _, section in SECTION.findall(text)]
    return found


#: the README and the files its manual moved to (issue 45), whose sections references name
MOVED = {"README.md", "docs/commands.md", "docs/tournaments.md", "docs/report.md", "docs/play.md",
         "docs/bots.md", "docs/running-a-ladder.md", "docs/sandbox.md", "docs/environments.md",
         "docs/ladder.md"}


def test_every_reference_to_a_section_names_a_heading_that_exists():
    """A "see README, 'Section'" in a warning, a comment or a document goes stale when the
    section moves (issue 45 moved the manual into docs/): each into the README or the files it
    moved to names its file and a heading there, or a paragraph's bold lead (either may go on, as "Ladder matchmaking (issue 18)" does)."""
    assert SECTION.findall("missing; see README, 'Running untrusted bots'.") == [
        ("README", "'", "Running untrusted bots")]
    assert SECTION.findall('(see the README\'s \\"Run a ladder\\"), docs/x.md "Dead Man\'s Draw"') == [
        ("README", '"', "Run a ladder"), ("docs/x.md", '"', "Dead Man's Draw")]
    stale = []
    for where, file, section in references():
        target = ROOT / "README.md" if file == "README" else ROOT / file
        if not target.is_file():
            target = ROOT / Path(where).parent / file
        if not target.is_file():
            continue  # another project's file, or a name in prose
        if str(target.relative_to(ROOT)) not in MOVED:
            continue  # a section another change may be writing (docs/ratings.md's, BENCHMARKS.md's)
        text = FENCE.sub("", target.read_text())
        headings = [match.strip() for match in HEADING.findall(text) + LEAD.findall(text)]
        if not any(heading.startswith(section) and heading[len(section):][:1] in {"", " ", ":", ","}
                   for heading in headings):
            stale.append(f"{where}: {file}, {section!r}")
    assert stale == []
    cited = {(file, section) for _, file, section in references()}
    assert ("docs/sandbox.md", "Running untrusted bots") in cited  # arena doctor's last line
    assert ("docs/sandbox.md", "What the sandbox cannot do") in cited
