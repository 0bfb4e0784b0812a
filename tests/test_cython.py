"""Cython against the engine: the example docs/examples/cython (a flat Monte Carlo search
that cimports the C API through diabolo/capi.pxd) is built with Cython against the
installed package's header and C library (diabolo.get_include(), get_library_dir()),
and gives the same values as the same algorithm written in Python over the public API;
tests/cython/transcripts.pyx, built the same way, replays every golden transcript."""

from __future__ import annotations

import importlib.util
import os
import shutil
import sys
from pathlib import Path
from types import ModuleType

import pytest

import diabolo
from tests import background
from tests.transcripts import SPECS, TRANSCRIPTS, Spec

EXAMPLE = Path(__file__).resolve().parent.parent / "docs" / "examples" / "cython"
TRANSCRIPT_CHECKER = Path(__file__).resolve().parent / "cython" / "transcripts.pyx"
pytestmark = [
    pytest.mark.skipif(sys.platform == "win32", reason="the wheel has no C library on Windows yet"),
    pytest.mark.background("cython"),
]


def load(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(path.name.split(".")[0], path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@background.job("cython")
def build(work: Path) -> Path:
    """The example and the transcript checker, copied out of the tree and built there with
    the example's setup.py (the checker's is the same with its own module); a background
    job (tests/background.py)."""
    folder = work / "example"
    shutil.copytree(EXAMPLE, folder)
    shutil.copy(TRANSCRIPT_CHECKER, folder)
    setup = (folder / "setup.py").read_text()
    checker_setup = setup.replace('"flat_mc_cython",', '"transcripts",').replace(
        "flat_mc_cython.pyx", "transcripts.pyx"
    )
    assert checker_setup != setup
    (folder / "setup_transcripts.py").write_text(checker_setup)
    for script in ("setup.py", "setup_transcripts.py"):
        result = background.run(
            [sys.executable, script, "build_ext", "--inplace"],
            cwd=folder,
            timeout=600,
            env={**os.environ, "PYTHONPATH": ""},
        )
        assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-4000:]
    return folder


@pytest.fixture
def built() -> Path:
    """The built example's folder (the job above)."""
    folder: Path = background.result("cython")
    return folder


@pytest.mark.parametrize("spec", SPECS, ids=[spec.name for spec in SPECS])
def test_cython_replays_the_golden_transcript(built: Path, spec: Spec) -> None:
    checker = load(next(built.glob("transcripts*.so")))
    path = TRANSCRIPTS / f"{spec.name}.txt"
    assert checker.check_transcript(str(path)) == len(path.read_text().splitlines()) - 5


def test_the_package_carries_the_c_api_for_extensions() -> None:
    header = Path(diabolo.get_include()) / "diabolo" / "diabolo.h"
    assert header.is_file() and "diabolo_state_legal_actions" in header.read_text()
    assert len(list(Path(diabolo.get_library_dir()).glob("libdiabolo.*"))) == 1
    assert (Path(diabolo.__file__).parent / "capi.pxd").is_file()


@pytest.mark.parametrize(
    ("name", "options", "seed"),
    [("schacht", {"players": 3}, 4), ("schacht", {"players": 5}, 9), ("duvelen", {"players": 2, "max_actions": 60}, 2)],
)
def test_cython_and_python_searches_agree(built: Path, name: str, options: dict[str, int], seed: int) -> None:
    cython_search = next(built.glob("flat_mc_cython*.so"))
    fast, slow = load(cython_search), load(built / "flat_mc_python.py")
    state = diabolo.load(name, **options).new_state(seed=seed)
    player = state.pending_seats[0]
    values = fast.flat_monte_carlo(state, player, 6, seed=seed)
    assert values == slow.flat_monte_carlo(state, player, 6, seed=seed)
    assert [action for action, _ in values] == state.legal_actions(player)
    assert len({value for _, value in values}) > 1  # the playouts tell the moves apart


def test_the_cython_search_refuses_a_seat_that_does_not_exist(built: Path) -> None:
    fast = load(next(built.glob("flat_mc_cython*.so")))
    state = diabolo.load("schacht", players=3).new_state(seed=1)
    with pytest.raises(ValueError, match="no seat 7"):
        fast.flat_monte_carlo(state, 7, 2, seed=1)
