"""The Sphinx documentation builds with warnings as errors, and its examples pass."""

from __future__ import annotations

import functools
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests import background

ROOT = Path(__file__).resolve().parent.parent


BUILDERS = ("html", "doctest")
"""The html pages, and the doctest builder, which runs the pages' examples (the docstrings'
run in tests/test_doctests.py: docs/conf.py)."""


def sphinx(builder: str, folder: Path) -> background.Run:
    """The docs built by ``builder`` into ``folder`` (a background job each: tests/background.py)."""
    command = [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-b", builder, str(ROOT / "docs"), str(folder)]
    return background.run(command, timeout=900)


for _builder in BUILDERS:
    background.job(f"sphinx-{_builder}")(functools.partial(sphinx, _builder))


@pytest.mark.parametrize("builder", [pytest.param(b, marks=pytest.mark.background(f"sphinx-{b}")) for b in BUILDERS])
def test_docs_build_without_warnings(builder: str) -> None:
    result = background.result(f"sphinx-{builder}")
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_frontend_guide_lists_every_event_of_every_game() -> None:
    import diabolo

    text = (ROOT / "docs" / "frontend.rst").read_text()
    sections = text.split("Event catalogue")[1]
    for name, title in [("schacht", "Diabolo (Schacht)"), ("duvelen", "Duvelen"), ("knizia", "Diabolo (Knizia)")]:
        part = sections.split(title + "\n")[1].split("\n~~~")[0]
        game = diabolo.load(name, **({"players": 3} if name != "knizia" else {"players": 2}))
        for event, who in game.visibility["events"].items():
            assert f"   * - ``{event}``\n     - {who}\n" in part, (name, event)


def test_the_round_summary_example_prints_rounds_from_events() -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / "docs" / "examples" / "round_summary.py")],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("Round 1 ends") == 2 and "colour" not in result.stderr
    assert "Winner(s)" in result.stdout and "  R: angels" in result.stdout and "Herenhopen" in result.stdout


def test_every_figure_of_the_readme_is_one_of_the_performance_page() -> None:
    """The README quotes the runs docs/performance.rst reports: each of its speed figures
    (a number of three or more digits, with a decimal point, or a ratio like 257x) is
    written the same way on that page, so the two cannot disagree."""
    readme = (ROOT / "README.md").read_text()
    speed = readme[readme.index("## Speed") : readme.index("## Hostile input")]
    page = (ROOT / "docs" / "performance.rst").read_text()
    figures = re.findall(r"(?<![\w.,-])(\d{1,3}(?:,\d{3})+x?|\d{3,}x?|\d+\.\d+x?|\d+x)(?![\w-])", speed)
    assert len(figures) >= 12, figures
    missing = [figure for figure in figures if not re.search(rf"(?<![\d,.]){re.escape(figure)}(?![\d,])", page)]
    assert missing == [], f"README figures not on docs/performance.rst: {missing}"


def test_the_docs_are_built_by_one_command() -> None:
    """The README and the docs' front page give the command the suite builds the docs with."""
    command = "python -m sphinx -W --keep-going -b html docs build/docs-html"
    for page in ("README.md", "docs/index.rst"):
        text = (ROOT / page).read_text()
        assert command in text, page
        assert len(re.findall(r"python -m sphinx", text)) == 1, page
