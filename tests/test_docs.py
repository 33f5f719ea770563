"""The documentation cannot go stale unseen: the site builds without a warning (broken internal
links and references included), every example of ``README.md`` and ``docs/`` shows what it
really prints (``docs_examples.py``), every pointer into the rules page names one of its
sections, and the README stays a short entry point.

Needs the ``docs`` extra (``pip install -e ".[docs]"``); without it the build and the examples
are skipped, saying so.
"""
import importlib.util
from pathlib import Path
import re
import subprocess
import sys
import tomllib

import docs_examples
import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
MISSING = [m for m in ("sphinx", "myst_parser", "pydata_sphinx_theme", "sphinxarg", "sybil")
           if importlib.util.find_spec(m) is None]
needs_docs = pytest.mark.skipif(
    bool(MISSING), reason=f"the docs extra is not installed (no {', '.join(MISSING)}): "
                          f"pip install -e '.[docs]'")
#: modules another change owns; their pointers are not checked here
NOT_CHECKED = ("serve",)


@needs_docs
def test_the_site_builds_without_a_warning(tmp_path):
    """``sphinx-build -W``: any warning fails, among them a link or reference to a page or
    heading that does not exist (MyST's cross-reference checks), a bad directive, a docstring
    that does not parse, an include whose text moved."""
    p = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
                        "-d", str(tmp_path / "doctrees"), str(DOCS), str(tmp_path / "html")],
                       cwd=ROOT, capture_output=True, text=True)
    assert p.returncode == 0, p.stdout + p.stderr
    assert (tmp_path / "html" / "rules.html").is_file()


@needs_docs
@pytest.mark.parametrize("document", docs_examples.DOCUMENTS)
def test_every_example_shows_what_it_prints(document):
    docs_examples.run_document(document)


def _headings(page):
    return {m.group(1).strip() for m in re.finditer(r"^#+ (.+)$", page.read_text(), re.M)}


_POINTER = re.compile(r"(docs/[\w/]+\.md),?\s*\(?((?:\"[^\"]+\"(?:,\s*|\s+and\s+)?)+)")


def _pointers():
    files = [p for p in (ROOT / "slashersim").rglob("*.py")
             if not set(p.relative_to(ROOT / "slashersim").parts) & set(NOT_CHECKED)]
    files += [ROOT / "README.md", *DOCS.rglob("*.md"), *(ROOT / "results").glob("*.md"),
              *(ROOT / "dev").rglob("*.md")]
    for path in files:
        text = re.sub(r"\s*\n\s*(#:?\s*)?", " ", path.read_text())
        for m in _POINTER.finditer(text):
            for name in re.findall(r"\"([^\"]+)\"", m.group(2)):
                yield path.relative_to(ROOT), m.group(1), name


def test_pointers_into_the_docs_name_their_sections():
    """``docs/rules.md, "The deal"`` in a docstring, a comment or a page names a heading of
    that page, so a renamed section cannot leave pointers behind."""
    seen = 0
    for where, page, name in _pointers():
        assert (ROOT / page).is_file(), f"{where} points to {page}, which does not exist"
        assert name in _headings(ROOT / page), \
            f"{where} points to {page}, {name!r}: no such section"
        seen += 1
    assert seen > 30


def test_the_rules_live_in_the_repository():
    """No pointer to the rules text that is not in the repository (``RULES.md §N``)."""
    files = [ROOT / "README.md", ROOT / "CHANGELOG.md", *DOCS.rglob("*.md"),
             *(ROOT / "results").rglob("*.md"), *(ROOT / "dev").rglob("*.md"),
             *(ROOT / "notebooks").glob("*.ipynb"),
             *(p for folder in ("slashersim", "tests", "experiments", "dev", "examples")
               for p in (ROOT / folder).rglob("*.py")
               if "__pycache__" not in p.parts and p != Path(__file__))]
    stale = [str(p.relative_to(ROOT)) for p in files if re.search(r"RULES\.md|§", p.read_text())]
    assert stale == []


def test_the_readme_is_a_short_entry_point():
    """Under 150 lines; its first block is the two set-up commands; no issue numbers."""
    text = (ROOT / "README.md").read_text()
    assert len(text.splitlines()) < 150
    first = re.search(r"```\w*\n(.*?)```", text, re.S).group(1).splitlines()
    assert first == ['python3 -m venv .venv && .venv/bin/pip install -e ".[dev,web]" && '
                     '.venv/bin/slashersim simulate', ".venv/bin/python -m pytest -q"]
    for page in [ROOT / "README.md", *DOCS.rglob("*.md")]:
        assert not re.search(r"\bissues? #?\d+", page.read_text(), re.I), page


def test_every_sweep_spec_shown_is_valid(tmp_path):
    """A ``toml`` block of the docs is a sweep spec the sweep command accepts, or a card file
    (its tables ``[area.NAME]``, ``[item.NAME]``) that the cards read."""
    from slashersim.analysis.sweeps import parse_spec
    from slashersim.core.cards import load
    blocks = [m.group(1) for page in DOCS.rglob("*.md")
              for m in re.finditer(r"^```toml\n(.*?)^```$", page.read_text(), re.S | re.M)]
    assert blocks
    for i, block in enumerate(blocks):
        if block.lstrip().startswith(("[area.", "[item.")):
            card_file = tmp_path / f"cards{i}.toml"
            card_file.write_text(block)
            load(str(card_file))
        else:
            parse_spec(tomllib.loads(block))


#: the words a new user met unexplained; the glossary defines each
GLOSSARY_TERMS = ("heuristic", "baseline", "expert", "novice", "casual", "paired",
                  "common random numbers", "Wilson", "effect", "first-order share",
                  "total share", "blueprint", "open_hands", "omniscient", "hooks", "kernels",
                  "(a)", "(b)", "(c)", "(d)", "Lv.1", "Lv.2", "1 trap")


def test_the_glossary_explains_every_word_and_is_linked():
    """``docs/glossary.md`` defines each word of :data:`GLOSSARY_TERMS` (a policy name beside
    its skill level), and the docs' index and the README point to it."""
    glossary = (DOCS / "glossary.md").read_text()
    missing = [t for t in GLOSSARY_TERMS if t not in glossary]
    assert missing == []
    for policy, skill in (("baseline", "novice"), ("heuristic", "casual"),
                          ("expert", "expert")):
        assert re.search(rf"`{policy}` \| \*\*{skill}\*\*", glossary), policy
    assert "glossary" in (DOCS / "index.md").read_text()
    assert "docs/glossary.md" in (ROOT / "README.md").read_text()


def test_the_readme_tour_shows_winnable():
    """The README's tour of the main commands makes ``simulate --winnable N`` findable."""
    text = (ROOT / "README.md").read_text()
    tour = text.split("## A five-minute tour", 1)[1].split("\n## ", 1)[0]
    assert "--winnable" in tour
