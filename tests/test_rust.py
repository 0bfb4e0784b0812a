"""The Rust crates (bindings/rust: ``diabolo-sys``, the C API's declarations, and ``diabolo``,
the safe API over it) built against the installed package and tested with ``cargo test
--offline``: their unit tests, their documentation's examples, and every golden transcript
replayed through the safe API (bindings/rust/diabolo/tests/transcripts.rs), line for line
as Python, C, C#, Cython and JavaScript replay them. The crates use no crates from outside.
Formatted by rustfmt and linted by clippy (warnings are errors)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.tool_helpers import skip_or_fail
from tests.transcripts import check_replayed

ROOT = Path(__file__).resolve().parent.parent
CRATES = ROOT / "bindings" / "rust"
INSTALL = "apt-get install cargo (or: bash tools/install-test-tools.sh), or rustup"


def cargo() -> str:
    """Cargo on PATH, or where rustup puts it."""
    found = shutil.which("cargo") or shutil.which("cargo", path=str(Path.home() / ".cargo" / "bin"))
    if found is None:
        skip_or_fail("the Rust crates' tests need cargo: " + INSTALL)
    assert found is not None
    return found


def run_cargo(*arguments: str) -> subprocess.CompletedProcess[str]:
    """Cargo in the crates' workspace, finding libdiabolo through this Python's package
    (diabolo-sys/build.rs), building into build/rust."""
    environment = {
        **os.environ,
        "PYTHON": sys.executable,
        "CARGO_TARGET_DIR": str(ROOT / "build" / "rust"),
        "PATH": str(Path(cargo()).parent) + os.pathsep + os.environ.get("PATH", ""),
        "CARGO_TERM_COLOR": "never",
    }
    return subprocess.run(
        [cargo(), *arguments], cwd=CRATES, env=environment, capture_output=True, text=True, timeout=900
    )


@pytest.mark.slow
def test_the_rust_crates_replay_every_golden_transcript() -> None:
    result = run_cargo("test", "--offline", "--", "--nocapture")
    output = result.stdout + result.stderr
    assert result.returncode == 0, output[-6000:]
    check_replayed(output)
    passed = sum(int(count) for count in re.findall(r"test result: ok\. (\d+) passed", output))
    assert passed >= 15, output[-3000:]  # the API tests, the transcripts and the documentation's examples


def test_the_rust_crates_are_formatted_and_pass_clippy() -> None:
    formatted = run_cargo("fmt", "--check")
    if "is not installed" in formatted.stderr or "no such command" in formatted.stderr:
        skip_or_fail("the Rust style test needs rustfmt and clippy: rustup component add rustfmt clippy")
    assert formatted.returncode == 0, "run `cargo fmt` in bindings/rust:\n" + formatted.stdout[-3000:]
    linted = run_cargo("clippy", "--offline", "--all-targets", "--", "-D", "warnings")
    assert linted.returncode == 0, linted.stderr[-6000:]
