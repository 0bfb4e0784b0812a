"""The code passes its own formatters and linters: ruff for Python (pyproject.toml) and
clang-format for C++ (.clang-format), so that a change cannot slip in unformatted or with
a lint error. Both are pinned test extras."""

from __future__ import annotations

import shutil
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


def test_cpp_is_formatted_by_clang_format() -> None:
    sources = subprocess.run(
        ["git", "ls-files", "*.cpp", "*.hpp", "*.h", "*.c"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    assert len(sources) > 40
    # The clang-format of the test extra (a PyPI package), installed beside this Python.
    binary = shutil.which("clang-format", path=str(Path(sys.executable).parent))
    assert binary, "clang-format is a test extra: pip install '.[test]'"
    result = subprocess.run(
        [binary, "--dry-run", "--Werror", *sources], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, "run clang-format -i on the files named:\n" + result.stderr[-3000:]
