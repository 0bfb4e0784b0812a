"""Builds an instrumented copy of diabolo for fuzzing: the C++ of ``diabolo._core``
compiled with clang under AddressSanitizer, UBSan and libFuzzer's coverage
instrumentation, laid out with a copy of the Python package (its .py files, stubs and
data) so that ``PYTHONPATH=build/fuzz`` imports the instrumented engine. The module
takes its sanitizer runtime from the process, so Python must run with atheris'
``asan_with_fuzzer.so`` preloaded; ``fuzz/run.py`` sets that up:

    python fuzz/run.py --python -c "import diabolo; print(diabolo._core.__file__)"

The build is incremental: an object is compiled again only when its source, a header it
includes (from the compiler's ``-MMD`` list) or its command line changed, and the module
is linked again only when an object did. ``python fuzz/build.py --help`` lists the options.
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = ROOT / "build" / "fuzz"
DEFAULT_CXX = "clang++-14"

SANITIZE = [
    "-fsanitize=address,undefined,fuzzer-no-link",
    "-fno-sanitize-recover=undefined",
    # UBSan's two C++-only checks are off: `vptr` and `function` call handlers of the C++
    # part of the UBSan runtime (__ubsan_vptr_type_cache, __ubsan_handle_dynamic_type_
    # cache_miss, __ubsan_handle_function_type_mismatch_v1), which atheris' ASan runtime
    # asan_with_fuzzer.so, the one preloaded into Python, does not have: with either
    # check the module fails to import ("undefined symbol: __ubsan_vptr_type_cache").
    # atheris ships them only in ubsan_cxx_with_fuzzer.so, a UBSan runtime without
    # ASan, which cannot be loaded beside it (both carry libFuzzer and sanitizer_common).
    # Every other UBSan check stays on and aborts at its first report.
    "-fno-sanitize=vptr,function",
]
CXXFLAGS = [
    "-std=c++17",
    "-O1",
    "-g",
    "-fno-omit-frame-pointer",
    "-fPIC",
    "-fvisibility=hidden",  # as setup.py builds it (pybind11's advice for modules)
    *SANITIZE,
]
# A shared object is linked without sanitizer runtimes: the instrumented module finds
# ASan's, UBSan's and libFuzzer's symbols in the runtime preloaded into the Python
# process (fuzz/run.py sets LD_PRELOAD to atheris' asan_with_fuzzer.so).
LDFLAGS = ["-shared", *SANITIZE]

PACKAGE_PATTERNS = (
    "*.py",
    "envs/*.py",  # diabolo/__init__ imports diabolo.envs.vector
    "*.pyi",
    "py.typed",
    "decks/*.json",
    "decks/README.md",
    "lexicons/*.txt.gz",
    "lexicons/NOTICE.md",
)


def sources() -> list[Path]:
    """The C++ files of the extension, as setup.py lists them."""
    return sorted([*(ROOT / "src").glob("*.cpp"), *(ROOT / "cpp" / "src").glob("**/*.cpp")])


def include_dirs() -> list[str]:
    import boost_headers  # build requirements of the package, installed with the test extra
    import pybind11

    return [
        str(ROOT / "cpp" / "include"),
        str(boost_headers.get_include()),
        pybind11.get_include(),
        sysconfig.get_paths()["include"],
    ]


def find_compiler(name: str | None) -> str:
    """The C++ compiler: ``name``, else $DIABOLO_FUZZ_CXX, else clang++-14."""
    wanted = name or os.environ.get("DIABOLO_FUZZ_CXX") or DEFAULT_CXX
    found = shutil.which(wanted)
    if found is None:
        raise SystemExit(
            f"fuzz/build.py: no {wanted} on PATH; install it with: apt-get install clang-14 libclang-rt-14-dev"
        )
    return found


def dependencies(depfile: Path) -> list[Path] | None:
    """The files a make-style dependency file (from -MMD) names, or None if unreadable."""
    try:
        text = depfile.read_text()
    except OSError:
        return None
    _, _, body = text.replace("\\\n", " ").partition(":")
    # Paths with spaces are escaped as "\ "; keep them whole. Under ccache the compiler sees
    # paths relative to the tree (compile_one runs it there), and names them so.
    words = body.replace("\\ ", "\0").split()
    return [ROOT / w.replace("\0", " ") for w in words]


def up_to_date(obj: Path, command: list[str]) -> bool:
    """True if ``obj`` exists, was built by ``command`` and is newer than every input."""
    stamp = obj.with_suffix(".cmd")
    deps = dependencies(obj.with_suffix(".d"))
    if not obj.exists() or deps is None or not stamp.exists() or stamp.read_text() != shlex.join(command):
        return False
    built = obj.stat().st_mtime
    try:
        return all(dep.stat().st_mtime <= built for dep in deps)
    except OSError:  # a header that is gone
        return False


# ccache, when on PATH, names files under the tree by relative paths and leaves the folder
# out of the hash (the build has -g), so that a clone elsewhere reuses earlier compiles.
COMPILER_CACHE_ENV = {"CCACHE_BASEDIR": str(ROOT), "CCACHE_NOHASHDIR": "true", **os.environ}


def compiler_cache() -> list[str]:
    """ccache, to put before the compiler, or nothing (absent, or DIABOLO_CCACHE=0)."""
    launcher = shutil.which("ccache")
    return [] if launcher is None or os.environ.get("DIABOLO_CCACHE") == "0" else [launcher]


def linked(folder: Path, links: Path) -> str:
    """`folder`, or when it is not the tree's own (Boost's and pybind11's headers in a
    virtualenv, inside the tree or not), a link to it in `links`: under ccache the compiler
    then names the headers alike wherever they lie, and a build elsewhere finds the earlier
    compiles."""
    if folder.is_relative_to(ROOT / "cpp"):
        return str(folder)
    link = links / (folder.parent.name if folder.name == "include" else folder.name)
    if not (link.is_symlink() and link.resolve() == folder.resolve()):
        link.parent.mkdir(parents=True, exist_ok=True)
        link.unlink(missing_ok=True)
        link.symlink_to(folder.resolve(), target_is_directory=True)
    return str(link)


def compile_one(launcher: list[str], command: list[str], obj: Path, source: Path, verbose: bool) -> tuple[Path, float]:
    """Compiles `source` to `obj` by `command`, behind `launcher` (ccache, or nothing)."""
    obj.parent.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    if verbose:
        print(shlex.join(command), flush=True)
    result = subprocess.run(
        [*launcher, *command], cwd=ROOT, env=COMPILER_CACHE_ENV, check=False, capture_output=True, text=True
    )
    if result.returncode != 0:
        obj.unlink(missing_ok=True)
        raise RuntimeError(f"compiling {source.relative_to(ROOT)} failed:\n{result.stdout}{result.stderr}")
    obj.with_suffix(".cmd").write_text(shlex.join(command))
    return source, time.monotonic() - started


def copy_if_changed(source: Path, target: Path) -> bool:
    if target.exists() and target.read_bytes() == source.read_bytes():
        return False
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".tmp")
    shutil.copy2(source, partial)
    os.replace(partial, target)
    return True


def lay_out_package(out: Path) -> int:
    """Mirrors python/diabolo's Python files, stubs and data into ``out/diabolo``
    (never its compiled ``_core``, which is the regular build); returns files copied."""
    package = ROOT / "python" / "diabolo"
    target = out / "diabolo"
    wanted: set[Path] = set()
    copied = 0
    for pattern in PACKAGE_PATTERNS:
        for source in package.glob(pattern):
            relative = source.relative_to(package)
            wanted.add(relative)
            copied += copy_if_changed(source, target / relative)
    # Files removed from the package are removed from the copy too.
    for pattern in PACKAGE_PATTERNS:
        for present in target.glob(pattern):
            if present.relative_to(target) not in wanted:
                present.unlink()
    return copied


def build(out: Path = DEFAULT_OUT, jobs: int = 2, cxx: str | None = None, verbose: bool = False) -> Path:
    """Builds (or brings up to date) the instrumented package in ``out``; returns the
    path of the instrumented ``_core`` module."""
    compiler = find_compiler(cxx)
    out = out.resolve()
    folders = include_dirs()
    launcher = compiler_cache()
    if launcher:
        folders = [linked(Path(folder), out / "include") for folder in folders]
    includes = [f"-I{d}" for d in folders]
    objects: list[Path] = []
    pending: list[tuple[list[str], Path, Path]] = []
    for source in sources():
        relative = source.relative_to(ROOT)
        obj = out / "obj" / relative.with_suffix(".o")
        command = [
            compiler,
            *CXXFLAGS,
            *includes,
            "-MMD",
            "-MF",
            str(obj.with_suffix(".d")),
            "-c",
            str(source),
            "-o",
            str(obj),
        ]
        objects.append(obj)
        if not up_to_date(obj, command):
            pending.append((command, obj, source))

    if pending:
        print(f"fuzz/build.py: compiling {len(pending)} of {len(objects)} files with {jobs} job(s)", flush=True)
        pending.sort(key=lambda item: -item[2].stat().st_size)  # the longest compiles first
        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            futures = [
                pool.submit(compile_one, launcher, command, obj, source, verbose) for command, obj, source in pending
            ]
            errors = []
            for future in futures:
                try:
                    source, seconds = future.result()
                    print(f"  {source.relative_to(ROOT)} ({seconds:.0f} s)", flush=True)
                except RuntimeError as error:
                    errors.append(str(error))
            if errors:
                raise SystemExit("\n".join(errors))

    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    module = out / "diabolo" / f"_core{suffix}"
    link = [compiler, *LDFLAGS, *map(str, objects), "-o", str(module)]
    stamp = out / "obj" / "link.cmd"
    if (
        not module.exists()
        or not stamp.exists()
        or stamp.read_text() != shlex.join(link)
        or any(obj.stat().st_mtime > module.stat().st_mtime for obj in objects)
    ):
        module.parent.mkdir(parents=True, exist_ok=True)
        if verbose:
            print(shlex.join(link), flush=True)
        partial = module.with_name(module.name + ".tmp")
        result = subprocess.run([*link[:-1], str(partial)], check=False, capture_output=True, text=True)
        if result.returncode != 0:
            raise SystemExit(f"linking {module.name} failed:\n{result.stdout}{result.stderr}")
        os.replace(partial, module)
        stamp.write_text(shlex.join(link))
        print(f"fuzz/build.py: linked {module.relative_to(out)}", flush=True)
    copied = lay_out_package(out)
    if copied:
        print(f"fuzz/build.py: copied {copied} package file(s)", flush=True)
    return module


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="folder to build into (default: build/fuzz)")
    parser.add_argument(
        "--jobs", "-j", type=int, default=os.cpu_count() or 2, help="parallel compiles (default: all cores)"
    )
    parser.add_argument("--cxx", help=f"C++ compiler (default: $DIABOLO_FUZZ_CXX or {DEFAULT_CXX})")
    parser.add_argument("--verbose", "-v", action="store_true", help="print every command")
    args = parser.parse_args(argv)
    started = time.monotonic()
    module = build(args.out, args.jobs, args.cxx, args.verbose)
    print(f"fuzz/build.py: {module} is up to date ({time.monotonic() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
