"""Runs every docstring example of the installed package, and the README's.

Examples in the compiled classes' docstrings (written in the bindings) are found by
walking every public class member, which doctest's own finder skips for builtins.
"""

from __future__ import annotations

import doctest
import inspect
from pathlib import Path
from types import ModuleType

import pytest

import diabolo
import diabolo.distributed
import diabolo.duvelen
import diabolo.envs
import diabolo.envs.gymnasium
import diabolo.envs.pettingzoo
import diabolo.envs.rllib
import diabolo.envs.sb3
import diabolo.envs.vector
import diabolo.errors
import diabolo.knizia
import diabolo.ladder
import diabolo.lexicon
import diabolo.matches
import diabolo.openspiel
import diabolo.realtime
import diabolo.registry
import diabolo.schacht
import diabolo.selfplay

try:  # the server's modules need its extra
    import diabolo.server.audiences
    import diabolo.server.config
    import diabolo.server.drivers
    import diabolo.server.ledger
    import diabolo.server.metrics
    import diabolo.server.pool
    import diabolo.server.protocol
    import diabolo.server.runner
    import diabolo.server.store
    import diabolo.server.tables

    SERVER_MODULES: list[ModuleType] = [
        diabolo.server.audiences,
        diabolo.server.config,
        diabolo.server.drivers,
        diabolo.server.ledger,
        diabolo.server.metrics,
        diabolo.server.pool,
        diabolo.server.protocol,
        diabolo.server.runner,
        diabolo.server.store,
        diabolo.server.tables,
    ]
except ImportError:
    SERVER_MODULES = []

MODULES: list[ModuleType] = [
    diabolo,
    diabolo.errors,
    diabolo.registry,
    diabolo.schacht,
    diabolo.duvelen,
    diabolo.realtime,
    diabolo.envs,
    diabolo.envs.pettingzoo,
    diabolo.envs.rllib,
    diabolo.envs.gymnasium,
    diabolo.envs.sb3,
    diabolo.envs.vector,
    diabolo.openspiel,
    diabolo.matches,
    diabolo.selfplay,
    diabolo.distributed,
    diabolo.knizia,
    diabolo.ladder,
    diabolo.lexicon,
    *SERVER_MODULES,
]
README = Path(__file__).resolve().parent.parent / "README.md"
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def docstrings() -> dict[str, tuple[str, ModuleType]]:
    """Every docstring with an example, by qualified name, with the module it runs in."""
    found: dict[str, tuple[str, ModuleType]] = {}
    seen: set[int] = set()

    def add(name: str, obj: object, module: ModuleType) -> None:
        doc = inspect.getdoc(obj)
        if doc and ">>>" in doc and id(obj) not in seen:
            seen.add(id(obj))
            found[name] = (doc, module)

    for module in MODULES:
        add(module.__name__, module, module)
        for attr in getattr(module, "__all__", dir(module)):
            obj = getattr(module, attr)
            if getattr(obj, "__module__", None) != module.__name__ or attr.startswith("_"):
                continue
            add(f"{module.__name__}.{attr}", obj, module)
            if inspect.isclass(obj):
                for member in vars(obj):
                    if not member.startswith("_"):
                        value = inspect.getattr_static(obj, member)
                        add(f"{module.__name__}.{attr}.{member}", getattr(value, "__func__", value), module)
    return found


DOCSTRINGS = docstrings()


def run(name: str, text: str, module: ModuleType) -> None:
    globs = {**vars(module), "diabolo": diabolo, "SchachtMove": diabolo.schacht.SchachtMove}
    test = doctest.DocTestParser().get_doctest(text, globs, name, None, 0)
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples of {name} failed (see output)"


def test_examples_are_found() -> None:
    for name in (
        "diabolo.schacht.SchachtState.legal_moves",
        "diabolo.schacht.SchachtMove.parse",
        "diabolo.registry.load",
    ):
        assert name in DOCSTRINGS


@pytest.mark.parametrize("name", sorted(DOCSTRINGS))
def test_docstring_examples(name: str) -> None:
    run(name, *DOCSTRINGS[name])


def test_readme_examples() -> None:
    run("README.md", README.read_text(), diabolo)
