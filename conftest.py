"""Shared test set-up: hypothesis profiles, the quick tier and the doctest namespace.

Profiles: ``ci`` (thorough; chosen when the CI variable is set) and ``dev`` (quick, the
default locally). Choose one with ``HYPOTHESIS_PROFILE=ci``.

The quick tier, ``python -m pytest -m quick``, runs in a minute or two after a build: the
contract suites over every game, the rules of each game clause by clause, the engine
against the reference models, the properties, bad input, the golden transcripts, the bots,
records and real-time play, the docstring examples, style and types. It catches mistakes
of Python, of the bindings and of the rules; the whole suite (``python -m pytest``) adds
the server, the browsers, the learning frameworks, the other languages, the docs build,
the sanitizers, fuzzing and the release path.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from fnmatch import fnmatch
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

import diabolo

settings.register_profile("ci", max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=40, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))


@pytest.fixture(scope="module")
def ray_cluster() -> Iterator[None]:
    """A Ray cluster of two CPUs on 127.0.0.1, its own processes, stopped after the
    module's tests (tests/test_distributed.py, tests/test_envs_rllib.py)."""
    import ray

    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")  # a test does not report usage
    ray.init(
        num_cpus=2,
        _node_ip_address="127.0.0.1",
        include_dashboard=False,
        log_to_driver=False,
        object_store_memory=200 * 1024 * 1024,
    )
    yield
    ray.shutdown()


@pytest.fixture(autouse=True)
def _doctest_namespace(doctest_namespace: dict[str, Any]) -> None:
    doctest_namespace["diabolo"] = diabolo
    doctest_namespace["SchachtMove"] = diabolo.schacht.SchachtMove


TIERS = {
    "quick": (
        "tests/contract/*",
        "tests/test_*_rules.py::*",
        "tests/test_*_differential.py::*",
        "tests/test_*_properties.py::*",
        "tests/test_*_bad_input.py::*",
        "tests/test_*_golden.py::*",
        "tests/test_*realtime.py::*",
        "tests/test_knizia_words.py::*",
        "tests/test_bots.py::*",
        "tests/test_ladder.py::*",
        "tests/test_records.py::*",
        "tests/test_transcripts.py::*",
        "tests/test_error_codes.py::*",
        "tests/test_doctests.py::*",
        "tests/test_packaging.py::*",
        "tests/test_style.py::*",
        "tests/test_typing.py::*",
        "tests/test_server_tables.py::*",
    ),
    "wheel": (
        "tests/contract/*",
        "tests/test_*_golden.py::*",
        "tests/test_transcripts.py::*",
        "tests/test_knizia_words.py::test_packaged_lists_load*",
        "tests/test_cython.py::*",
        "tests/test_installed.py::*",
        "tests/test_cli.py::test_bench_and_demo",
    ),
}
"""The tests of each marker that conftest.py gives, as patterns of their ids ("path::name",
the path from the root of the tree): ``quick`` is the quick tier; ``wheel`` is what a
released wheel must show from outside the tree (tests/test_release.py runs it there)."""
ROOT = Path(__file__).resolve().parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        path = item.path.relative_to(ROOT).as_posix() if ROOT in item.path.parents else ""
        test_id = f"{path}::{item.name}"
        for marker, patterns in TIERS.items():
            if any(fnmatch(test_id, pattern) for pattern in patterns):
                item.add_marker(marker)
