"""What the tests of the WebAssembly build share (tests/test_wasm.py and
tests/test_browser_example.py): the tools they need, skipping without them (or failing
under CI, naming what to install), and the build of build/wasm by tools/build-wasm.sh."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests import background
from tests.tool_helpers import skip_or_fail

ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / "build" / "wasm"
INSTALL = "apt-get install emscripten node-acorn nodejs (or: bash tools/install-test-tools.sh)"
MIN_NODE = 18  # node:test and the web APIs the module uses


def missing_tools() -> list[str]:
    """The tools the WebAssembly build and its Node tests need that are missing."""
    missing = []
    if shutil.which("em++") is None:
        missing.append("em++ (Emscripten)")
    node = shutil.which("node")
    version = "" if node is None else subprocess.run([node, "--version"], capture_output=True, text=True).stdout
    match = re.match(r"v(\d+)\.", version)
    if match is None or int(match.group(1)) < MIN_NODE:
        missing.append(f"Node.js {MIN_NODE}+ (found: {version.strip() or 'none'})")
    return missing


def require_tools() -> None:
    """Skips the test, or fails it under CI, when a tool is missing."""
    missing = missing_tools()
    if missing:
        skip_or_fail("the WebAssembly tests need " + " and ".join(missing) + ": " + INSTALL)


@background.job("wasm")
def build_wasm(folder: Path | None = None) -> Path:
    """build/wasm with diabolo.mjs and diabolo.wasm of the current sources (tools/build-wasm.sh
    compiles only what changed since the last build); the test fails if the build does. The
    background job "wasm" (tests/background.py): a test marked with it gets the folder from
    ``background.result("wasm")``."""
    require_tools()
    result = background.run(
        ["bash", str(ROOT / "tools" / "build-wasm.sh"), str(BUILD)],
        cwd=ROOT,
        timeout=3600,
        env={**os.environ, "PYTHON": sys.executable},
    )
    if result.returncode != 0:
        pytest.fail("tools/build-wasm.sh failed:\n" + (result.stdout + result.stderr)[-8000:])
    return BUILD
