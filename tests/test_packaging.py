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


def test_the_version_is_written_once_in_the_c_header() -> None:
    """DIABOLO_VERSION of diabolo.h is the version: the Python package has it compiled in
    (the C API's diabolo_version() is checked against it by the installed-library tests),
    setup.py gives it to the wheel's metadata and CMake to its project; no other file of
    the build writes it. npm's package.json cannot read it, so it is checked here."""
    import json

    import diabolo

    header = (ROOT / "cpp" / "include" / "diabolo" / "diabolo.h").read_text()
    found = re.search(r'^#define DIABOLO_VERSION "([0-9.]+)"$', header, re.M)
    assert found is not None, "diabolo.h defines no DIABOLO_VERSION"
    version = found.group(1)
    assert diabolo.__version__ == version
    assert json.loads((ROOT / "js" / "package.json").read_text())["version"] == version
    assert 'dynamic = ["version"]' in (ROOT / "pyproject.toml").read_text()
    for path in ("pyproject.toml", "python/diabolo/__init__.py", "cpp/CMakeLists.txt", "cpp/src/capi/diabolo.cpp"):
        assert version not in (ROOT / path).read_text(), f"{path} writes the version itself"
