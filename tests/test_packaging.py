"""What the wheel holds: every package of python/diabolo is listed in pyproject.toml, so
that an installed diabolo has it (an editable install finds unlisted ones anyway, which
is how a missing one would go unnoticed until a fresh install)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_package_of_the_source_tree_is_listed_for_the_wheel() -> None:
    text = (ROOT / "pyproject.toml").read_text()
    match = re.search(r"^packages = \[(.*?)\]$", text, re.M)
    assert match is not None, "pyproject.toml lists no packages"
    listed = set(re.findall(r'"([^"]+)"', match.group(1)))
    source = ROOT / "python"
    found = {".".join(init.parent.relative_to(source).parts) for init in source.rglob("__init__.py")}
    assert found == listed
