"""Shared test set-up: hypothesis profiles, the quick tier, the doctest namespace, the
expensive processes started once per run and the order the tests run in.

Profiles: ``ci`` (thorough; chosen when the CI variable is set) and ``dev`` (quick, the
default locally). Choose one with ``HYPOTHESIS_PROFILE=ci``.

The quick tier, ``python -m pytest -m quick``, runs in a minute or two after a build: the
contract suites over every game, the rules of each game clause by clause, the engine
against the reference models, the properties, bad input, the golden transcripts, the bots,
records and real-time play, the docstring examples, style and types. It catches mistakes
of Python, of the bindings and of the rules; the whole suite (``python -m pytest``) adds
the server, the browsers, the learning frameworks, the other languages, the docs build,
the sanitizers, fuzzing and the release path.

Chromium, Ray, PostgreSQL and Redis are started once per run (tests/shared.py), by the
first test that needs one, and stopped after the last; the tests that use one run one
after another. Builds and whole-tree tools run as background jobs while the Python tests
run (tests/background.py), and the tests that check them run last. Every run ends with
its 15 slowest tests (``--durations=15`` in pyproject.toml); docs/index.rst, "Testing",
gives the budget.
"""

from __future__ import annotations

import os
from collections.abc import Generator, Iterator
from contextlib import contextmanager
from fnmatch import fnmatch
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import HealthCheck, settings

import diabolo
from tests import background
from tests.postgres_helpers import Cluster, postgres_cluster
from tests.redis_helpers import RedisServer, flush
from tests.redis_helpers import redis_service as start_redis
from tests.shared import SHARED, Shared, stop_all
from tests.tool_helpers import chromium, require_browser

if TYPE_CHECKING:
    from playwright.sync_api import Browser

settings.register_profile("ci", max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=40, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))


@contextmanager
def _ray() -> Iterator[None]:
    import ray

    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")  # a test does not report usage
    ray.init(
        num_cpus=2,
        _node_ip_address="127.0.0.1",
        include_dashboard=False,
        log_to_driver=False,
        object_store_memory=200 * 1024 * 1024,
    )
    try:
        yield
    finally:
        ray.shutdown()


RAY = Shared("ray_cluster", _ray)
POSTGRES = Shared("postgres_url", postgres_cluster)
REDIS = Shared("redis_url", start_redis)
BROWSER = Shared("browser", chromium)  # last: the browser tests that wait on a job follow its group


@pytest.fixture
def ray_cluster() -> None:
    """A Ray cluster of two CPUs on 127.0.0.1, its own processes, shared by the tests that
    use it (tests/shared.py: started once, stopped after the last of them)."""
    RAY.get()


@pytest.fixture
def browser() -> Browser:
    """Debian's Chromium, headless, through Playwright, shared by the tests that use it
    (tests/shared.py); a test makes its own contexts or pages and closes them."""
    require_browser("the browser tests")
    return BROWSER.get()


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """The URL of a fresh database of the run's PostgreSQL cluster (tests/shared.py),
    dropped after the test."""
    with POSTGRES.get().database() as url:
        yield url


@pytest.fixture
def redis_url() -> str:
    """The URL of the run's Redis server (tests/shared.py), emptied for the test."""
    url = REDIS.get().url
    flush(url)
    return url


@pytest.fixture
def redis_service(redis_url: str) -> RedisServer:
    """The run's Redis server itself, for tests that kill and restart it (with redis_url)."""
    return REDIS.get()


@pytest.fixture
def postgres_service(postgres_url: str) -> Cluster:
    """The run's PostgreSQL cluster itself, for tests that stop and start it (with postgres_url)."""
    return POSTGRES.get()


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
NOT_IN_WHEEL = ("tests/contract/test_bad_input.py::test_fuzz_*",)
"""Tests of the wheel tier's files that a released wheel does not run again: the bad-input
fuzzing, which the in-tree run does on the same code (under QEMU it would take minutes)."""
ROOT = Path(__file__).resolve().parent


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """Under ``-m wheel`` only the wheel tier's files are collected: the others may import
    what the wheel's tests are not given (pyproject.toml's [tool.cibuildwheel] test
    requirements: no Ray, PyTorch or Playwright)."""
    if config.option.markexpr != "wheel" or collection_path.suffix != ".py" or ROOT not in collection_path.parents:
        return None
    path = collection_path.relative_to(ROOT).as_posix()
    if not path.startswith("tests/test_") and not path.startswith("tests/contract/test_"):
        return None
    return not any(fnmatch(path, pattern.split("::")[0]) for pattern in TIERS["wheel"])


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        path = item.path.relative_to(ROOT).as_posix() if ROOT in item.path.parents else ""
        test_id = f"{path}::{item.name}"
        for marker, patterns in TIERS.items():
            if marker == "wheel" and any(fnmatch(test_id, pattern) for pattern in NOT_IN_WHEEL):
                continue
            if any(fnmatch(test_id, pattern) for pattern in patterns):
                item.add_marker(marker)
    items.sort(key=_place)


def _place(item: pytest.Item) -> tuple[int, int]:
    """Where a test runs (the sort is stable: in the order of the files within each
    place): first those that wait on no background job (tests/background.py), those that
    need nothing shared before those of each shared process together (tests/shared.py);
    then those that wait on a job, whose jobs have run while the others did: those that
    also use a shared process first (Chromium is last in SHARED, so that it stays up for
    them), then those that take long after their job (background.FIRST), then the rest."""
    used = [i for i, name in enumerate(SHARED, start=1) if name in getattr(item, "fixturenames", ())]
    shared = used[0] if used else 0
    marks = {mark.args[0] for mark in item.iter_markers("background")}
    if not marks:
        return 0, shared
    if shared:
        return 1, shared
    return (2 if marks & background.FIRST else 3), 0


def pytest_collection_finish(session: pytest.Session) -> None:
    """Starts the background jobs of the tests selected, in the order they will be needed."""
    if session.config.option.collectonly:
        return
    names = [mark.args[0] for item in session.items for mark in item.iter_markers("background")]
    background.start(dict.fromkeys(names))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Generator[None, None, None]:
    """Stops each shared process that the next test does not use, after this test's own
    teardown (its browser contexts, its servers)."""
    outcome = yield
    following = getattr(nextitem, "fixturenames", ()) if nextitem is not None else ()
    for name, shared in SHARED.items():
        if shared.running and name not in following:
            shared.stop()
    return outcome


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """How long each background job took (the tests that waited on one show only the wait)."""
    taken = background.seconds()
    if taken:
        jobs = ", ".join(f"{name} {seconds:.0f} s" for name, seconds in taken.items())
        terminalreporter.write_line(f"background jobs (tests/background.py): {jobs}")


def pytest_sessionfinish() -> None:
    """Nothing is left running: the background's jobs and every shared process end."""
    background.stop()
    stop_all()
