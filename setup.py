"""Builds the compiled engine from cpp/ (the rules) and src/ (the bindings): the Python
extension diabolo._core, and the C API as the shared library diabolo/lib/libdiabolo
(diabolo.dll with its import library diabolo.lib on Windows), with its header in
diabolo/include and, in diabolo/lib, a CMake package and a pkg-config file, which C, C++
and Cython programs build against (diabolo.get_include(), diabolo.get_library_dir(),
python -m diabolo --cmakedir / --pkgconfigdir). GCC, Clang and MSVC each get their own
flags."""

from __future__ import annotations

import os
import re
import shutil
import struct
import sys
import threading
import time
from collections.abc import Callable
from glob import glob
from pathlib import Path
from typing import TextIO

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


# As many compilers at once as the machine has cores (DIABOLO_BUILD_JOBS sets another number).
ParallelCompile("DIABOLO_BUILD_JOBS", default=0, needs_recompile=needs_recompile).install()

# No contraction of a * b + c into one fused operation: it would round differently on
# machines with FMA, and bots' decisions must be the same everywhere (portable_math.hpp;
# MSVC gets core/float_model.hpp's pragma, /fp:precise and SSE2 math).
FLAGS = {
    "msvc": ["/O2", "/W4", "/std:c++17", "/fp:precise", "/EHsc", "/bigobj", "/utf-8", "/Zc:__cplusplus"],
    "unix": ["-O3", "-Wall", "-Wextra", "-fvisibility=hidden", "-ffp-contract=off", "-std=c++17"],
}

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
)

# The C API library: the same rules with cpp/src/capi, exporting the diabolo_* functions
# and nothing else (the version script; __declspec(dllexport) on Windows), named so that
# -ldiabolo finds it.
LIBRARY = {"darwin": "libdiabolo.dylib", "win32": "diabolo.dll"}.get(sys.platform, "libdiabolo.so")
IMPORT_LIBRARY = "diabolo.lib"  # Windows: what a program links against to use diabolo.dll
if sys.platform == "darwin":
    library_link_args = ["-dynamiclib", "-Wl,-install_name,@rpath/" + LIBRARY]
elif sys.platform == "win32":
    library_link_args = []
else:
    library_link_args = ["-Wl,--version-script=cpp/src/capi/diabolo.map", "-Wl,-soname," + LIBRARY]
c_library = Extension(
    "diabolo.lib.libdiabolo",
    ["cpp/src/capi/diabolo.cpp"] + RULES,
    depends=HEADERS,
    include_dirs=INCLUDE,
    define_macros=NO_BOOST_LIB,
    language="c++",
    extra_link_args=library_link_args,
)


def use_compiler_cache(compiler: object, extensions: list[Extension]) -> bool:
    """Puts ccache in front of a Unix compiler when ccache is on PATH (DIABOLO_CCACHE=0 turns
    it off), so that a build of sources built before, in this folder, in a clone elsewhere
    or from the sdist, takes seconds. Paths under the source folder are hashed as relative
    ones (base_dir) and the folder itself is left out (hash_dir: the -g in Python's flags
    would hash it), unless CCACHE_BASEDIR or CCACHE_NOHASHDIR say otherwise."""
    launcher = shutil.which("ccache")
    if launcher is None or os.environ.get("DIABOLO_CCACHE") == "0" or not hasattr(compiler, "compiler_so"):
        return False
    os.environ.setdefault("CCACHE_BASEDIR", str(Path.cwd()))
    os.environ.setdefault("CCACHE_NOHASHDIR", "true")
    # setuptools' compiler keeps the C++ command apart from the C one in its newer versions.
    for name in ("compiler_so", "compiler_so_cxx"):
        command = getattr(compiler, name, None)
        if command and Path(command[0]).name != "ccache":
            setattr(compiler, name, [launcher, *command])
    for extension in extensions:
        extension.include_dirs = [linked_include_dir(folder) for folder in extension.include_dirs]
    return True


def linked_include_dir(folder: str) -> str:
    """`folder`, or when it lies outside the source folder (pybind11's and Boost's headers
    in pip's build environment, a new temporary folder in every build), a link to it at
    build/include/NAME: the compiler then names the headers by the same relative path in
    every build, and ccache finds the earlier build's objects."""
    path = Path(folder)
    if not path.is_absolute() or Path.cwd() in path.parents:
        return folder
    link = Path("build", "include", path.parent.name if path.name == "include" else path.name)
    link.parent.mkdir(parents=True, exist_ok=True)
    if link.is_symlink() or link.exists():
        if link.resolve() == path.resolve():
            return str(link)
        link.unlink()
    link.symlink_to(path.resolve(), target_is_directory=True)
    return str(link)


class Progress:
    """A line per C++ file compiled ("[3/33] cpp/src/schacht/rules.cpp 3.7 s"), on the
    terminal when there is one: pip hides a build's output unless -v, and a first build
    takes minutes. Without a terminal (CI, pip -v's log) the lines go to stdout."""

    def __init__(self, compile_one: Callable[..., None], how: str) -> None:
        self.compile_one, self.how = compile_one, how
        self.lock = threading.Lock()
        self.done = self.total = 0
        try:
            self.out: TextIO = open("/dev/tty", "w")  # open for the whole build
            self.prefix = "\r"  # pip's spinner may stand at the start of the line
        except OSError:
            self.out, self.prefix = sys.stdout, ""

    def start(self, name: str, files: int, jobs: int) -> None:
        self.done, self.total = 0, files
        if files:
            count = f"{files} C++ file{'s' if files > 1 else ''}"
            self.say(f"diabolo: compiling {name} ({count}, {min(files, jobs)} at a time{self.how})")

    def compile(self, obj: str, src: str, *args: object) -> None:
        started = time.monotonic()
        self.compile_one(obj, src, *args)
        with self.lock:
            self.done += 1
            self.say(f"  [{self.done}/{self.total}] {src} {time.monotonic() - started:.1f} s")

    def say(self, line: str) -> None:
        self.out.write(f"{self.prefix}{line}\n")
        self.out.flush()


class BuildWithCLibrary(build_ext):
    """pybind11's build_ext that also builds the C library under its own name and puts the
    C API's header beside it, in the package (diabolo/include/diabolo/diabolo.h)."""

    def get_ext_filename(self, fullname: str) -> str:
        # The C library keeps the plain name the linker looks for (-ldiabolo), in every
        # form setuptools asks with (the full name, or the last part when in place).
        if fullname in (c_library.name, "libdiabolo"):
            return str(Path("diabolo", "lib", LIBRARY)) if fullname == c_library.name else LIBRARY
        return str(super().get_ext_filename(fullname))

    def build_extensions(self) -> None:
        flags = FLAGS["msvc" if self.compiler.compiler_type == "msvc" else "unix"]
        for extension in self.extensions:
            extension.extra_compile_args = [*flags, *extension.extra_compile_args]
        cached = use_compiler_cache(self.compiler, self.extensions)
        self.progress = Progress(self.compiler._compile, " through ccache" if cached else "")
        self.compiler._compile = self.progress.compile
        super().build_extensions()

    def build_extension(self, ext: Extension) -> None:
        objects = self.compiler.object_filenames(ext.sources, output_dir=self.build_temp)
        pending = [s for o, s in zip(objects, ext.sources) if not Path(o).exists() or needs_recompile(o, s)]
        self.progress.start(ext.name, len(pending), int(os.environ.get("DIABOLO_BUILD_JOBS") or os.cpu_count() or 1))
        super().build_extension(ext)

    def get_export_symbols(self, ext: Extension) -> list[str]:
        return [] if ext is c_library else list(super().get_export_symbols(ext))

    def run(self) -> None:
        package = Path("python" if self.inplace else self.build_lib, "diabolo")
        (package / "lib").mkdir(parents=True, exist_ok=True)
        super().run()
        header = package / "include" / "diabolo" / "diabolo.h"
        header.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile("cpp/include/diabolo/diabolo.h", header)
        if self.compiler.compiler_type == "msvc":
            # setuptools has link.exe write the import library beside the first object file
            first_object = self.compiler.object_filenames(c_library.sources[:1], output_dir=self.build_temp)[0]
            shutil.copyfile(Path(first_object).parent / IMPORT_LIBRARY, package / "lib" / IMPORT_LIBRARY)
        write_packages(package / "lib", self.distribution.get_version())


def write_packages(lib: Path, version: str) -> None:
    """The CMake package (lib/cmake/diabolo) and the pkg-config file (lib/pkgconfig) of the
    C library in the package, from cpp/packaging's templates: paths relative to themselves."""
    pointer_size = struct.calcsize("P")
    values = {
        "LIBRARY": LIBRARY,
        "IMPORT_LIBRARY": IMPORT_LIBRARY,
        "VERSION": version,
        "MAJOR": version.split(".")[0],
        "POINTER_SIZE": str(pointer_size),
        "POINTER_BITS": str(8 * pointer_size),
        "RPATH": "" if sys.platform == "win32" else "-Wl,-rpath,${libdir} ",
    }
    for template, target in (
        ("diabolo-config.cmake.in", lib / "cmake" / "diabolo" / "diabolo-config.cmake"),
        ("diabolo-config-version.cmake.in", lib / "cmake" / "diabolo" / "diabolo-config-version.cmake"),
        ("diabolo.pc.in", lib / "pkgconfig" / "diabolo.pc"),
    ):
        text = Path("cpp", "packaging", template).read_text()
        for key, value in values.items():
            text = text.replace(f"@{key}@", value)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)


def version() -> str:
    """DIABOLO_VERSION of the C API's header: the one place the version is written."""
    header = Path("cpp/include/diabolo/diabolo.h").read_text(encoding="utf-8")
    found = re.search(r'^#define DIABOLO_VERSION "([0-9.]+)"$', header, re.MULTILINE)
    assert found, "cpp/include/diabolo/diabolo.h defines no DIABOLO_VERSION"
    return found.group(1)


setup(version=version(), ext_modules=[core, c_library], cmdclass={"build_ext": BuildWithCLibrary})
