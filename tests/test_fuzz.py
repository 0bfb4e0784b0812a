"""Coverage-guided fuzzing of every entry point that takes outside input (fuzz/targets.py):
the engine is built under AddressSanitizer, UBSan and libFuzzer's coverage
instrumentation with clang (fuzz/build.py), and each atheris target runs briefly from the
committed seed corpus (fuzz/run.py). Any crash, sanitizer report, hang, exception other
than DiaboloError or failed consistency check fails the test, naming the input that caused
it (rerun it with ``python fuzz/run.py TARGET --reproduce FILE``).

``DIABOLO_FUZZ_SECONDS`` sets the seconds per target (default 6: the corpus and a short
search, within the suite's time); long runs are ``python fuzz/run.py --all --seconds 3600``.
"""

from __future__ import annotations

import importlib.util
import json
import os
import platform
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests import background
from tests.tool_helpers import skip_or_fail

ROOT = Path(__file__).resolve().parent.parent
COMPILER = "clang++-14"
MIN_EXECUTIONS = 100  # per target: well below what even the slowest target runs in a few seconds


def missing_tools() -> list[str]:
    """What to install for this test, as install commands."""
    missing = []
    compiler = shutil.which(COMPILER)
    runtime_ok = False
    if compiler:
        resource_dir = subprocess.run(
            [compiler, "-print-resource-dir"], check=False, capture_output=True, text=True
        ).stdout.strip()
        runtime_ok = (Path(resource_dir) / "share" / "asan_ignorelist.txt").is_file()
    if not compiler or not runtime_ok:
        missing.append("apt-get install clang-14 libclang-rt-14-dev (or: bash tools/install-test-tools.sh)")
    spec = importlib.util.find_spec("atheris")
    if spec is None or spec.origin is None or not (Path(spec.origin).parent.parent / "asan_with_fuzzer.so").is_file():
        missing.append("pip install atheris==3.0.0")
    return missing


@background.job("fuzz-build", first=True)
def fuzz_build(folder: Path) -> background.Run:
    """The instrumented build (build/fuzz, incremental: a rerun compiles only what changed),
    made by ``fuzz/run.py --list`` in the background (tests/background.py); the fuzzing
    itself runs for a number of seconds, so it stays in the test."""
    missing = missing_tools()
    if missing:
        skip_or_fail("the fuzz test needs: " + "; ".join(missing))
    return background.run([sys.executable, str(ROOT / "fuzz" / "run.py"), "--list", "--jobs", "2"], cwd=ROOT)


@pytest.mark.slow
@pytest.mark.background("fuzz-build")
@pytest.mark.skipif(
    not sys.platform.startswith("linux") or platform.machine() != "x86_64" or sys.version_info < (3, 11),
    reason="atheris 3.0.0 has wheels for CPython 3.11+ on x86_64 Linux only",
)
def test_fuzzing_under_sanitizers_finds_nothing(tmp_path: Path) -> None:
    """Every target for DIABOLO_FUZZ_SECONDS (6) on two cores: about 45 seconds (14
    targets, seven rounds of two), after the instrumented build (a background job) if it
    has not ended yet; fuzzing runs for a time, so it cannot be shorter and still fuzz."""
    built = background.result("fuzz-build")
    assert built.returncode == 0, f"the fuzz build failed:\n{built.stdout[-4000:]}\n{built.stderr[-4000:]}"
    seconds = int(os.environ.get("DIABOLO_FUZZ_SECONDS", "6"))
    report = tmp_path / "report.json"
    command = [
        sys.executable,
        str(ROOT / "fuzz" / "run.py"),
        "--all",
        "--seconds",
        str(seconds),
        "--parallel",
        "2",
        "--jobs",
        "2",
        "--work",
        str(tmp_path / "work"),
        "--crash-dir",
        str(tmp_path / "crashes"),
        "--report",
        str(report),
        "--no-build",
    ]
    result = subprocess.run(command, cwd=ROOT, check=False, capture_output=True, text=True, timeout=1800)
    output = result.stdout + result.stderr
    print(output)
    assert report.is_file(), f"fuzz/run.py did not run the targets:\n{output}"
    results = json.loads(report.read_text())
    found = [r for r in results if r["status"] != "ok"]
    assert not found, "the fuzzers found something:\n" + "\n\n".join(
        f"{r['target']}: {r['status']}, input {r['crash_files']}\n{r['summary']}" for r in found
    )
    assert result.returncode == 0, output
    targets = {r["target"] for r in results}
    assert len(targets) >= 14, f"fewer targets than expected: {sorted(targets)}"
    slow = {r["target"]: r["executions"] for r in results if r["executions"] < MIN_EXECUTIONS}
    assert not slow, f"targets that ran fewer than {MIN_EXECUTIONS} inputs: {slow}\n{output}"
