"""Builds the compiled engine from cpp/ (the rules) and src/ (the bindings): the Python
extension diabolo._core, and the C API as the shared library diabolo/lib/libdiabolo (with
its header in diabolo/include), which Cython and C extensions link against
(diabolo.get_include(), diabolo.get_library_dir())."""

from __future__ import annotations

import shutil
import sys
from glob import glob
from pathlib import Path

import boost_headers
from pybind11.setup_helpers import ParallelCompile, Pybind11Extension, build_ext
from setuptools import Extension, setup

HEADERS = sorted(str(h) for pattern in ("cpp/**/*.hpp", "cpp/**/*.h", "src/*.hpp") for h in Path().glob(pattern))
"""Every header: a change to one rebuilds the extensions (their `depends`) and the objects."""


def needs_recompile(obj: str, src: str) -> bool:
    """Whether `obj` is older than its source or any header. The rules are sources of both
    the extension and the C library, built with the same flags to the same object files,
    so the second build links the first one's objects instead of compiling them again."""
    newest = max([Path(src).stat().st_mtime, *(Path(h).stat().st_mtime for h in HEADERS)])
    return Path(obj).stat().st_mtime < newest


ParallelCompile("DIABOLO_BUILD_JOBS", default=2, needs_recompile=needs_recompile).install()

# No contraction of a * b + c into one fused operation: it would round differently on
# machines with FMA, and bots' decisions must be the same everywhere (portable_math.hpp).
if sys.platform == "win32":
    extra_compile_args = ["/O2", "/W4", "/fp:precise", "/fp:contract-"]
else:
    extra_compile_args = ["-O3", "-Wall", "-Wextra", "-fvisibility=hidden", "-ffp-contract=off"]

RULES = sorted(p for p in glob("cpp/src/**/*.cpp", recursive=True) if "capi" not in p)
# Boost.JSON is used header-only (cpp/src/core/json.cpp compiles it); no Boost library
# is linked, so MSVC's automatic linking is switched off.
INCLUDE = ["cpp/include", str(boost_headers.get_include())]
NO_BOOST_LIB = [("BOOST_ALL_NO_LIB", "1")]

core = Pybind11Extension(
    "diabolo._core",
    sorted(glob("src/*.cpp")) + RULES,
    depends=HEADERS,
    include_dirs=INCLUDE,
    define_macros=NO_BOOST_LIB,
    cxx_std=17,
    extra_compile_args=extra_compile_args,
)

# The C API library: the same rules with cpp/src/capi, exporting the diabolo_* functions
# and nothing else (the version script), named so that -ldiabolo finds it.
LIBRARY = "libdiabolo.dylib" if sys.platform == "darwin" else "libdiabolo.so"
if sys.platform == "darwin":
    library_link_args = ["-dynamiclib", "-Wl,-install_name,@rpath/" + LIBRARY]
else:
    library_link_args = ["-Wl,--version-script=cpp/src/capi/diabolo.map", "-Wl,-soname," + LIBRARY]
c_library = Extension(
    "diabolo.lib.libdiabolo",
    ["cpp/src/capi/diabolo.cpp"] + RULES,
    depends=HEADERS,
    include_dirs=INCLUDE,
    define_macros=NO_BOOST_LIB,
    language="c++",
    extra_compile_args=["-std=c++17"] + extra_compile_args,
    extra_link_args=library_link_args,
)


class BuildWithCLibrary(build_ext):
    """pybind11's build_ext that also builds the C library under its own name and puts the
    C API's header beside it, in the package (diabolo/include/diabolo/diabolo.h)."""

    def get_ext_filename(self, fullname: str) -> str:
        # The C library keeps the plain name the linker looks for (-ldiabolo), in every
        # form setuptools asks with (the full name, or the last part when in place).
        if fullname in (c_library.name, "libdiabolo"):
            return str(Path("diabolo", "lib", LIBRARY)) if fullname == c_library.name else LIBRARY
        return str(super().get_ext_filename(fullname))

    def get_export_symbols(self, ext: Extension) -> list[str]:
        return [] if ext is c_library else list(super().get_export_symbols(ext))

    def run(self) -> None:
        package = Path("python" if self.inplace else self.build_lib, "diabolo")
        (package / "lib").mkdir(parents=True, exist_ok=True)
        super().run()
        header = package / "include" / "diabolo" / "diabolo.h"
        header.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile("cpp/include/diabolo/diabolo.h", header)


# Windows has no C library in the wheel yet: its DLL needs an import library and
# __declspec exports that this build does not make.
ext_modules = [core] if sys.platform == "win32" else [core, c_library]
setup(ext_modules=ext_modules, cmdclass={"build_ext": BuildWithCLibrary})
