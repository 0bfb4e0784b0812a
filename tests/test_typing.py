"""The package, its stubs, the tests, the benchmarks and the docs' config type-check
under ``mypy --strict`` (configured in pyproject.toml), and the stubs of the compiled
module say what it has: ``mypy.stubtest`` with no allow-list, and every member the stubs
give a class through their generic bases exists on that class."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

from diabolo import _core
from tests import background

ROOT = Path(__file__).resolve().parent.parent
STUB = ROOT / "python" / "diabolo" / "_core.pyi"
CONTRACT = ROOT / "python" / "diabolo" / "contract.pyi"


CACHE = ROOT / "build" / "mypy"
"""mypy's cache: a second run checks only what changed (a clone starts without one)."""


@background.job("mypy")
def mypy(folder: Path) -> background.Run:
    """``mypy --strict`` over the tree (a background job: tests/background.py)."""
    return background.run([sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(CACHE)], cwd=ROOT, timeout=900)


@background.job("stubtest")
def stubtest(folder: Path) -> background.Run:
    """``mypy.stubtest`` of the compiled module (a background job)."""
    return background.run([sys.executable, "-m", "mypy.stubtest", "diabolo._core", "--concise"], cwd=ROOT, timeout=600)


@pytest.mark.background("mypy")
def test_mypy_strict_is_clean() -> None:
    result = background.result("mypy")
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.background("stubtest")
def test_stubtest_finds_the_stubs_and_the_compiled_module_alike() -> None:
    """Every public name of diabolo._core and of each of its classes is in _core.pyi, and
    every name of the stub exists at run time; no allow-list."""
    result = background.result("stubtest")
    assert result.returncode == 0, result.stdout + result.stderr


def stub_classes(path: Path) -> dict[str, tuple[list[str], set[str]]]:
    """Each class of a stub: its bases (by name, type arguments dropped) and the names it
    defines itself; a class imported from diabolo.contract under another name is there
    under that name too."""
    tree = ast.parse(path.read_text())
    classes: dict[str, tuple[list[str], set[str]]] = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            bases = [ast.unparse(base.value if isinstance(base, ast.Subscript) else base) for base in node.bases]
            names = {
                item.name if isinstance(item, ast.FunctionDef) else ast.unparse(item.target)
                for item in node.body
                if isinstance(item, (ast.FunctionDef, ast.AnnAssign))
            }
            classes[node.name] = (bases, names)
        elif isinstance(node, ast.ImportFrom) and node.module == "diabolo.contract":
            contract = stub_classes(CONTRACT)
            for alias in node.names:
                classes[alias.asname or alias.name] = contract[alias.name]
    return classes


def test_every_member_a_stub_class_inherits_exists_at_run_time() -> None:
    """stubtest checks the names a class defines in the stub; the contract's members sit
    in the protocols of diabolo.contract (and _VectorEnv's in a stub-only base), so they
    are checked here."""
    classes = stub_classes(STUB)

    def inherited(name: str) -> set[str]:
        bases, names = classes[name]
        return names.union(*(inherited(base) for base in bases if base in classes))

    checked = 0
    for name in classes:
        if name.startswith("_") or not hasattr(_core, name):  # a base, or a protocol imported
            continue
        runtime = getattr(_core, name)
        missing = sorted(member for member in inherited(name) if not hasattr(runtime, member))
        assert missing == [], f"{name} lacks {missing}"
        checked += 1
    assert checked >= 20
