"""The release path, as a maintainer runs it: the sdist builds, a wheel built from it is
repaired by auditwheel to a manylinux tag, twine accepts both, cibuildwheel reads the
configuration, and the repaired wheel, installed into a fresh virtualenv outside the
source tree, passes from there the tests of what only the released artefact can show:
it imports from the virtualenv, not the tree; every game plays through Python (the
contract suites and the golden transcripts); its C library, header and capi.pxd serve a
C program and the Cython build; its server serves the browser client; its word lists
load; its stubs type-check (the tests marked ``wheel``, listed in conftest.py). The rest of
the suite has run against the same sources."""

from __future__ import annotations

import os
import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(sys.platform != "linux", reason="auditwheel repairs Linux wheels"),
]


def run(command: list[str], cwd: Path, timeout: int = 1800, **env: str) -> str:
    result = subprocess.run(
        command, cwd=cwd, capture_output=True, text=True, timeout=timeout, env={**os.environ, **env}
    )
    assert result.returncode == 0, f"{' '.join(command)} failed:\n{result.stdout[-6000:]}\n{result.stderr[-6000:]}"
    return result.stdout


def test_the_repaired_wheel_passes_the_wheel_tests_outside_the_tree(tmp_path: Path) -> None:
    dist, fixed = tmp_path / "dist", tmp_path / "fixed"
    python = sys.executable
    run([python, "-m", "build", "--sdist", "--outdir", str(dist), str(ROOT)], tmp_path)
    (sdist,) = dist.glob("diabolo-*.tar.gz")
    run([python, "-m", "pip", "wheel", "--no-deps", "--wheel-dir", str(dist), str(sdist)], tmp_path)
    (wheel,) = dist.glob("diabolo-*.whl")
    run([python, "-m", "auditwheel", "repair", "--wheel-dir", str(fixed), str(wheel)], tmp_path)
    (repaired,) = fixed.glob("diabolo-*.whl")
    assert "manylinux" in repaired.name, repaired.name
    assert "PASSED" in run([python, "-m", "twine", "check", str(repaired), str(sdist)], tmp_path)
    identifiers = run([python, "-m", "cibuildwheel", "--print-build-identifiers", "--platform", "linux"], ROOT)
    assert "cp311-manylinux_x86_64" in identifiers.split()

    environment = tmp_path / "venv"
    venv.create(environment, with_pip=True)
    fresh = str(environment / "bin" / "python")
    run([fresh, "-m", "pip", "install", "--quiet", f"{repaired}[test]", str(ROOT / "lexicons" / "de")], tmp_path)
    where = run([fresh, "-c", "import diabolo; print(diabolo.__file__, diabolo.get_library_dir())"], tmp_path)
    assert str(environment) in where and str(ROOT) not in where, where
    # The quick hypothesis profile: this run checks the released artefact, and the suite
    # around it has already run the thorough one against the same code.
    output = run(
        [fresh, "-m", "pytest", str(ROOT / "tests"), "-m", "wheel", "-q", "-p", "no:cacheprovider"],
        tmp_path,
        timeout=1800,
        HYPOTHESIS_PROFILE="dev",
    )
    assert " passed" in output and " failed" not in output and " skipped" not in output, output[-3000:]
