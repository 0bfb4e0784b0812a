"""Compiling a C++ benchmark program with the core's sources, as the extension compiles
them (setup.py: -O3 and no floating-point contraction): shared by game_speed.py (bench.py
schacht's clone_bench.cpp) and vector_env.py (vector_env.cpp), so both measure the code users run."""

from __future__ import annotations

import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

FLAGS = ["-O3", "-std=c++17", "-ffp-contract=off", "-pthread"]
"""The extension's optimisation and language flags on GCC and Clang (setup.py)."""


def compile_core_program(compiler: str, source: Path, program: Path) -> subprocess.CompletedProcess[str]:
    """Compiles ``source`` with every source of the core (cpp/src) into ``program``; the
    result tells whether it worked (``returncode``) and what the compiler said (``stderr``).
    Raises OSError or subprocess.SubprocessError when the compiler cannot be run or takes
    more than 10 minutes."""
    import boost_headers  # the Boost.JSON headers the core builds with

    sources = [str(source), *sorted(str(p) for p in (REPO / "cpp" / "src").rglob("*.cpp"))]
    include = ["-I", str(REPO / "cpp" / "include"), "-I", boost_headers.get_include()]
    command = [compiler, *FLAGS, *include, *sources, "-o", str(program)]
    return subprocess.run(command, capture_output=True, text=True, timeout=600)
