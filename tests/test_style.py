"""The code passes its own formatters and linters (configured in pyproject.toml): ruff for
Python, so that a change cannot slip in unformatted or with a lint error."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run_ruff(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ruff", *arguments], cwd=ROOT, capture_output=True, text=True, timeout=300
    )


def test_python_passes_ruff_check() -> None:
    result = run_ruff("check", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_python_is_formatted_by_ruff() -> None:
    result = run_ruff("format", "--check", ".")
    assert result.returncode == 0, "run `ruff format .`:\n" + result.stdout + result.stderr
