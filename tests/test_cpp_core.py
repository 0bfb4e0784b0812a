"""The C++ core on its own: built with CMake under AddressSanitizer and UBSan, it runs
its C++ tests (rulebook example, 360 random games under the invariant checker with a
resample at every step, batch play on two threads)."""

from __future__ import annotations

import importlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def cmake() -> str:
    """The cmake of the [test] extra (PyPI's cmake package), else one on PATH."""
    try:
        cmake_package = importlib.import_module("cmake")
        return str(Path(cmake_package.CMAKE_BIN_DIR) / "cmake")
    except ImportError:
        found = shutil.which("cmake")
        assert found, "cmake is needed: pip install '.[test]'"
        return found


def run(command: list[str], cwd: Path) -> str:
    result = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, f"{' '.join(command)} failed:\n{result.stdout}\n{result.stderr}"
    return result.stdout


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="ASan/UBSan flags here are for GCC and Clang")
def test_core_under_address_and_undefined_behaviour_sanitizers(tmp_path: Path) -> None:
    build = tmp_path / "build"
    run([cmake(), "-S", str(ROOT / "cpp"), "-B", str(build), "-DDIABOLO_SANITIZE=ON",
         "-DCMAKE_BUILD_TYPE=RelWithDebInfo"], ROOT)
    run([cmake(), "--build", str(build), "--parallel", str(os.cpu_count() or 2)], ROOT)
    env = {**os.environ, "ASAN_OPTIONS": "detect_leaks=1:abort_on_error=1", "UBSAN_OPTIONS": "print_stacktrace=1"}
    result = subprocess.run([str(build / "diabolo_tests")], capture_output=True, text=True, timeout=900, env=env)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "random_games_keep_every_invariant" in result.stdout
    assert " 0 failed" in result.stdout
