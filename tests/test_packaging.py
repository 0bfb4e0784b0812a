"""What the wheel holds: every folder of python/diabolo, a package or one of data files, is
listed in pyproject.toml, so that an installed diabolo has it (an editable install finds
unlisted ones anyway, which is how a missing one would go unnoticed until a fresh
install) and setuptools has no folder to warn about."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_folder_of_the_package_is_listed_for_the_wheel() -> None:
    text = (ROOT / "pyproject.toml").read_text()
    match = re.search(r"^packages = \[(.*?)\]$", text, re.M)
    assert match is not None, "pyproject.toml lists no packages"
    listed = set(re.findall(r'"([^"]+)"', match.group(1)))
    files = subprocess.run(
        ["git", "ls-files", "python/diabolo"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    found = {".".join(Path(file).parent.relative_to("python").parts) for file in files}
    assert "diabolo.server.client" in found
    assert found == listed
