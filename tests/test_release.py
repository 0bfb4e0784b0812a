"""The release path, as a maintainer runs it: the sdist builds, a wheel built from it is
repaired by auditwheel to a manylinux tag, twine accepts both, cibuildwheel reads the
configuration, and the repaired wheel, installed into a fresh virtualenv outside the
source tree with what cibuildwheel installs for its tests (the server extra and the test
requirements of pyproject.toml, not the whole test extra), passes from there the tests
of what only the released artefact can show:
it imports from the virtualenv, not the tree; every game plays through Python (the
contract suites and the golden transcripts); its C library, header and capi.pxd serve a
C program and the Cython build; its server serves the browser client; its word lists
load; its stubs type-check (the tests marked ``wheel``, listed in conftest.py). The rest of
the suite has run against the same sources."""

from __future__ import annotations

import os
import sys
import venv
from pathlib import Path

import pytest

from tests import background

ROOT = Path(__file__).resolve().parent.parent
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(sys.platform != "linux", reason="auditwheel repairs Linux wheels"),
]


def run(command: list[str], cwd: Path, timeout: int = 1800, **env: str) -> str:
    result = background.run(command, cwd=cwd, timeout=timeout, env={**os.environ, **env})
    assert result.returncode == 0, f"{' '.join(command)} failed:\n{result.stdout[-6000:]}\n{result.stderr[-6000:]}"
    return result.stdout


def wheel_test_requirements() -> list[str]:
    """What the wheel's tests need beside the wheel, as cibuildwheel installs it for them:
    the extras and requirements of pyproject.toml's [tool.cibuildwheel] (the server, pytest,
    hypothesis, httpx, CMake, Cython, mypy), not the whole test extra (PyTorch, Ray,
    Playwright...), which no wheel test uses."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # Python 3.10: the server extra brings tomli
        import tomli as tomllib
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["cibuildwheel"]
    extras: list[str] = config["test-extras"]
    requires: list[str] = config["test-requires"]
    return [f"[{','.join(extras)}]", *requires]


@background.job("release-venv", first=True)
def released(tmp_path: Path) -> Path:
    """The sdist, the wheel built from it and repaired, checked by twine and cibuildwheel,
    and a fresh virtualenv outside the tree with the wheel and what its tests need
    installed (a background job: tests/background.py). Returns the virtualenv's python."""
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
    fresh = environment / "bin" / "python"
    extras, *requires = wheel_test_requirements()
    install = [f"{repaired}{extras}", str(ROOT / "lexicons" / "de"), *requires]
    run([str(fresh), "-m", "pip", "install", "--quiet", *install], tmp_path)
    return fresh


@pytest.mark.background("release-venv")
def test_the_repaired_wheel_passes_the_wheel_tests_outside_the_tree(tmp_path: Path) -> None:
    """More than a minute: the wheel's tests are some 340 (the contract suites over every
    game, the golden transcripts, the C library from C and CMake, the Cython build, the
    server's client, the stubs under mypy) in a new process outside the tree; the wheel and
    its virtualenv were made in the background."""
    fresh: Path = background.result("release-venv")
    where = run([str(fresh), "-c", "import diabolo; print(diabolo.__file__, diabolo.get_library_dir())"], tmp_path)
    assert str(fresh.parent.parent) in where and str(ROOT) not in where, where
    # The quick hypothesis profile and the local number of random games of the events test
    # (60, which meet every event: test_random_games_reach_every_event), though CI is set:
    # this run checks the released artefact, and the suite around it has already run the
    # thorough ones (1,000 games of each game) against the same code.
    output = run(
        [str(fresh), "-m", "pytest", str(ROOT / "tests"), "-m", "wheel", "-q", "-p", "no:cacheprovider"],
        tmp_path,
        timeout=1800,
        HYPOTHESIS_PROFILE="dev",
        DIABOLO_EVENT_GAMES="60",
    )
    assert " passed" in output and " failed" not in output and " skipped" not in output, output[-3000:]


def test_the_wheel_tests_need_no_more_than_cibuildwheel_installs() -> None:
    """The wheel's tests run with the server extra and cibuildwheel's test requirements:
    none of them imports what only the whole test extra brings."""
    extras, *requires = wheel_test_requirements()
    assert extras == "[server]"
    names = {requirement.split("==")[0].lower() for requirement in requires}
    assert {"pytest", "hypothesis", "httpx", "cmake", "cython", "mypy", "setuptools"} <= names
    assert not names & {"torch", "ray", "playwright", "sphinx", "stable-baselines3", "atheris"}
