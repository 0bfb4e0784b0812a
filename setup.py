"""Builds the compiled engine diabolo._core from cpp/ (the rules) and src/ (the bindings)."""

from __future__ import annotations

import sys
from glob import glob

import boost_headers
from pybind11.setup_helpers import ParallelCompile, Pybind11Extension, build_ext
from setuptools import setup

ParallelCompile("DIABOLO_BUILD_JOBS", default=2).install()

# No contraction of a * b + c into one fused operation: it would round differently on
# machines with FMA, and bots' decisions must be the same everywhere (portable_math.hpp).
if sys.platform == "win32":
    extra_compile_args = ["/O2", "/W4", "/fp:precise", "/fp:contract-"]
else:
    extra_compile_args = ["-O3", "-Wall", "-Wextra", "-fvisibility=hidden", "-ffp-contract=off"]

core = Pybind11Extension(
    "diabolo._core",
    # The C API (cpp/src/capi) is its own shared library, built by cpp/CMakeLists.txt.
    sorted(glob("src/*.cpp") + [p for p in glob("cpp/src/**/*.cpp", recursive=True) if "capi" not in p]),
    # Boost.JSON is used header-only (cpp/src/core/json.cpp compiles it); no Boost library
    # is linked, so MSVC's automatic linking is switched off.
    include_dirs=["cpp/include", str(boost_headers.get_include())],
    define_macros=[("BOOST_ALL_NO_LIB", "1")],
    cxx_std=17,
    extra_compile_args=extra_compile_args,
)

setup(ext_modules=[core], cmdclass={"build_ext": build_ext})
