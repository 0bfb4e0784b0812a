"""The Sphinx documentation builds with warnings as errors, and its examples pass."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("builder", ["html", "doctest"])
def test_docs_build_without_warnings(builder: str, tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-b", builder, str(ROOT / "docs"), str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert result.returncode == 0, result.stdout + result.stderr
