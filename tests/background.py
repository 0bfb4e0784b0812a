"""Work the suite starts early and checks late: the compiled configurations (the sanitizer,
release, cross, fuzz, WebAssembly and Cython builds) and the programs that run them
without a clock, and the whole-tree tools (mypy, Sphinx), run in the background, two at a
time (``WORKERS``), niced, while the Python tests run.

A module defines a job with ``@job("name")``: a function of a fresh temporary folder that
returns what its tests check (a job raises, or returns a failed command's output, and the
tests that need it fail with that). A test that needs the job is marked
``@pytest.mark.background("name")`` and asks for it with ``result("name")``. conftest.py
starts the jobs of the tests selected, in the order those tests run, as soon as the tests
are collected, and runs the tests that wait on a job after all the others, so that the
jobs overlap the Python tests instead of following them. Asked for a job that is not
queued (a test run alone), ``result`` runs it in the test's own thread.

Nothing here times anything: a job whose result depends on how fast it runs (fuzzing for
a number of seconds, a server's deadlines) stays in its test.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

__all__ = ["FIRST", "JOBS", "Run", "job", "result", "run", "seconds", "start", "stop"]

Run = subprocess.CompletedProcess[str]
"""What :func:`run` gives: a finished command with its output."""

JOBS: dict[str, Callable[[Path], Any]] = {}
"""Every job the test modules define, by name."""

NICE = 10
"""The background's niceness: a job takes what the tests leave of the cores."""

WORKERS = 2
"""Jobs run at once: two, so that the two cores stay busy when the tests wait on the jobs
(a build compiles on both, but a program under test often runs on one)."""


FIRST: set[str] = set()
"""The jobs whose tests have most to do after the job: they are queued first, and their
tests run first among those that wait on a job (conftest.py), so that this work overlaps
the other jobs instead of following them."""


def job(name: str, first: bool = False) -> Callable[[Callable[[Path], Any]], Callable[[Path], Any]]:
    """Registers the function as the job ``name`` (see the module's docstring); ``first``:
    its tests take long after it (see FIRST)."""

    def register(function: Callable[[Path], Any]) -> Callable[[Path], Any]:
        assert name not in JOBS, f"two jobs named {name}"
        JOBS[name] = function
        if first:
            FIRST.add(name)
        return function

    return register


class _Runner:
    """Threads that run the queued jobs in order and keep what each gave."""

    def __init__(self) -> None:
        self.lock = threading.Condition()
        self.queue: list[str] = []
        self.running: set[str] = set()
        self.done: dict[str, tuple[bool, Any]] = {}  # name: (ok, value or exception)
        self.seconds: dict[str, float] = {}  # how long each job took, by name
        self.processes: set[subprocess.Popen[str]] = set()
        self.threads: list[threading.Thread] = []
        self.stopping = False
        self.root = Path(tempfile.mkdtemp(prefix="diabolo-background-"))
        self.local = threading.local()

    def start(self, names: Iterable[str]) -> None:
        with self.lock:
            for name in names:
                if name not in self.queue and name not in self.done and name not in self.running:
                    self.queue.append(name)
            self.threads = [thread for thread in self.threads if thread.is_alive()]
            while len(self.threads) < min(WORKERS, len(self.queue)):
                thread = threading.Thread(target=self._work, name="diabolo-background", daemon=True)
                self.threads.append(thread)
                thread.start()

    def _work(self) -> None:
        self.local.niced = True
        while True:
            with self.lock:
                if self.stopping or not self.queue:
                    return
                name = self.queue.pop(0)
                self.running.add(name)
            outcome = self._run(name)
            with self.lock:
                self.done[name] = outcome
                self.running.discard(name)
                self.lock.notify_all()

    def _run(self, name: str) -> tuple[bool, Any]:
        folder = Path(tempfile.mkdtemp(prefix=f"{name}-", dir=self.root))
        began = time.monotonic()
        try:
            return True, JOBS[name](folder)
        except BaseException as error:  # the test that asks for the job raises it
            return False, error
        finally:
            self.seconds[name] = time.monotonic() - began

    def result(self, name: str) -> Any:
        assert name in JOBS, f"no job named {name}; the jobs are {', '.join(sorted(JOBS))}"
        with self.lock:
            if name in self.queue:  # wanted now: it goes next
                self.queue.remove(name)
                self.queue.insert(0, name)
            while (name in self.running or name in self.queue) and name not in self.done:
                self.lock.wait()
            outcome = self.done.get(name)
        if outcome is None:  # not queued (a test run alone): here and now
            outcome = self._run(name)
            with self.lock:
                self.done[name] = outcome
        ok, value = outcome
        if not ok:
            raise value
        return value

    def stop(self) -> None:
        """Drops what is queued, ends what runs, and removes the jobs' folders."""
        with self.lock:
            self.stopping = True
            self.queue.clear()
            for process in list(self.processes):
                process.kill()
            threads = list(self.threads)
        for thread in threads:
            thread.join(timeout=60)
        shutil.rmtree(self.root, ignore_errors=True)

    def run(
        self,
        command: Sequence[str],
        cwd: Path | None = None,
        env: Mapping[str, str] | None = None,
        timeout: float = 1800,
    ) -> Run:
        niced = getattr(self.local, "niced", False)
        process = subprocess.Popen(
            [*(("nice", "-n", str(NICE)) if niced and shutil.which("nice") else ()), *command],
            cwd=cwd,
            env=dict(env) if env is not None else None,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        with self.lock:
            self.processes.add(process)
        try:
            stdout, stderr = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            stdout, stderr = process.communicate()
            stderr += f"\n(killed after {timeout} s)"
        finally:
            with self.lock:
                self.processes.discard(process)
        return Run(list(command), process.returncode, stdout, stderr)


_RUNNER = _Runner()


def start(names: Iterable[str]) -> None:
    """Queues the jobs ``names`` in this order and starts the background thread."""
    _RUNNER.start(names)


def result(name: str) -> Any:
    """What the job ``name`` returned, waiting for it if it is queued or running; a job
    that raised raises the same here."""
    return _RUNNER.result(name)


def run(
    command: Sequence[str], cwd: Path | None = None, env: Mapping[str, str] | None = None, timeout: float = 1800
) -> Run:
    """``subprocess.run(command, capture_output=True, text=True)`` for a job: niced when
    the background thread runs it, and killed if the run stops early."""
    return _RUNNER.run(command, cwd, env, timeout)


def stop() -> None:
    """Ends the background at the end of the run (conftest.py)."""
    _RUNNER.stop()


def seconds() -> dict[str, float]:
    """How long each job that ran took, in the order they ended (conftest.py prints them)."""
    with _RUNNER.lock:
        return dict(_RUNNER.seconds)
