"""The same games on other platforms than this one: the core, the C library and the C tests
cross-compiled with the toolchain files of cpp/toolchains, for Windows x86-64 (MinGW-w64,
run under wine), Linux aarch64 (run under qemu-user) and Linux on 32-bit x86. On each, the
C++ tests pass and the C test plays the seeded games and every golden transcript to the
byte (its games replayed through this machine's Python API end in the same state text).
32-bit x86 programs run natively where the kernel can (through the cross toolchain's
loader), under qemu-i386 elsewhere.
32-bit x86 builds only with SSE2 math: its default x87 math is refused with a clear
message (core/float_model.hpp). MSVC and macOS cannot run here; wheels.yml builds and tests
their wheels."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests import background
from tests.background import Run
from tests.capi_replay import c_api_functions, check_capi_run, run_capi_test
from tests.test_cpp_core import COMPILER_CACHE, cmake
from tests.tool_helpers import skip_or_fail

ROOT = Path(__file__).resolve().parent.parent
WINE = "/usr/lib/wine/wine64"  # Debian's wine64 puts its loader here, not on PATH
INSTALL = "apt-get install {packages} (or: bash tools/install-test-tools.sh)"

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="cross-compiles from Linux"),
]


def need(tools: list[str], packages: str) -> None:
    """Skips (fails under CI) unless every tool is there."""
    missing = [tool for tool in tools if shutil.which(tool) is None and not Path(tool).is_file()]
    if missing:
        skip_or_fail(f"the cross-platform test needs {', '.join(missing)}: " + INSTALL.format(packages=packages))


def build(
    name: str,
    toolchain: str,
    *options: str,
    check: bool = True,
    targets: tuple[str, ...] = ("diabolo_tests", "diabolo_capi_test"),
    env: dict[str, str] | None = None,
) -> tuple[Path, Run]:
    """Configures and builds cpp/ for another platform into build/cross/`name` (in the tree,
    so that ccache finds earlier compiles from any clone); returns the folder and the build's
    result. By default only what runs here: the C++ tests and the C test (with the C library
    it links); `env` adds to the environment."""
    import boost_headers

    folder = ROOT / "build" / "cross" / name
    environment = {**os.environ, **COMPILER_CACHE, **(env or {})}
    configure = [
        cmake(),
        "-S",
        str(ROOT / "cpp"),
        "-B",
        str(folder),
        f"-DCMAKE_TOOLCHAIN_FILE={ROOT / 'cpp' / 'toolchains' / toolchain}",
        f"-DDIABOLO_BOOST_INCLUDE_DIR={boost_headers.get_include()}",
        "-DCMAKE_BUILD_TYPE=Release",
        *options,
    ]
    compile_ = [cmake(), "--build", str(folder), "--target", *targets, "--parallel", str(os.cpu_count() or 2)]
    for command in (configure, compile_):
        result = background.run(command, timeout=1800, env=environment)
        if result.returncode != 0:
            assert not check, f"{' '.join(command)} failed:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
            return folder, result
    return folder, result


EMULATED = ["-random_games_keep_every_invariant"]
"""Left out under qemu-user, which runs about ten times slower: Schacht's 360 random games
under the invariant checker (most of the C++ tests' time; they run natively and under
wine). The determinism that differs between platforms is checked by the C test's seeded
games and golden transcripts, which run everywhere."""

I686 = Path("/usr/i686-linux-gnu/lib")


def i686_runner(folder: Path) -> tuple[list[str], list[str]]:
    """How to run the 32-bit x86 programs, and the C++ tests to leave out: natively where
    the kernel runs 32-bit code (an x86-64 kernel with IA-32 emulation), through the cross
    toolchain's own loader and libraries; else under qemu-i386, which is far slower."""
    native = [str(I686 / "ld-linux.so.2"), "--library-path", f"{I686}:{folder}"]
    probe = subprocess.run([*native, str(folder / "diabolo_tests"), "rng_"], capture_output=True, timeout=60)
    if probe.returncode == 0:
        return native, []
    return ["qemu-i386", "-L", str(I686.parent)], EMULATED


def run_everything(folder: Path, runner: list[str], suffix: str, work: Path, *tests_left_out: str) -> Run:
    """Runs the C++ tests (but `tests_left_out`) of a cross build behind `runner`, and
    returns the run of its C test, which the test checks against Python."""
    tests = background.run([*runner, str(folder / f"diabolo_tests{suffix}"), *tests_left_out], timeout=1800)
    assert tests.returncode == 0 and " 0 failed" in tests.stdout, tests.stdout[-3000:] + tests.stderr[-3000:]
    return run_capi_test(folder / f"diabolo_capi_test{suffix}", work, runner)


@background.job("windows")
def windows(work: Path) -> Run:
    """The Windows build, run under wine (a background job: tests/background.py)."""
    need(["x86_64-w64-mingw32-g++-posix", WINE], "g++-mingw-w64-x86-64-posix wine64")
    folder, _ = build("windows", "mingw-w64-x86_64.cmake")
    assert (folder / "libdiabolo.dll").is_file()
    # A wine prefix of its own, made on first use; wine's debug messages off.
    runner = ["env", f"WINEDEBUG={os.environ.get('WINEDEBUG', '-all')}", f"WINEPREFIX={work / 'wine'}", WINE]
    return run_everything(folder, runner, ".exe", work)


@pytest.mark.background("windows")
def test_windows_x86_64_under_wine() -> None:
    """Waits on its background job when it has not ended: the MinGW build, a new wine
    prefix and the C++ and C tests under wine (about a minute warm, more cold)."""
    check_capi_run(background.result("windows"))


@background.job("aarch64")
def aarch64(work: Path) -> Run:
    """The Linux aarch64 build, run under qemu-user (a background job)."""
    need(["aarch64-linux-gnu-g++", "qemu-aarch64"], "g++-aarch64-linux-gnu qemu-user")
    folder, _ = build("aarch64", "aarch64-linux-gnu.cmake")
    return run_everything(folder, ["qemu-aarch64", "-L", "/usr/aarch64-linux-gnu"], "", work, *EMULATED)


@pytest.mark.background("aarch64")
def test_linux_aarch64_under_qemu() -> None:
    """Waits on its background job when it has not ended: the C++ tests under qemu-user run
    about ten times slower than natively (two to three minutes, four cold with the build)."""
    check_capi_run(background.result("aarch64"))


@background.job("i686")
def i686(work: Path) -> tuple[Run, Run]:
    """The 32-bit x86 build with x87 math (which must be refused) and with SSE2 math, run
    natively or under qemu-i386 (a background job)."""
    need(["i686-linux-gnu-g++", "qemu-i386"], "g++-i686-linux-gnu qemu-user")
    _, refused = build("i686-x87", "i686-linux-gnu.cmake", check=False)
    sse2 = "-msse2 -mfpmath=sse"
    folder, _ = build("i686", "i686-linux-gnu.cmake", f"-DCMAKE_CXX_FLAGS={sse2}", f"-DCMAKE_C_FLAGS={sse2}")
    runner, left_out = i686_runner(folder)
    return refused, run_everything(folder, runner, "", work, *left_out)


@pytest.mark.background("i686")
def test_linux_32_bit_x86_with_sse2_math_and_refused_with_x87_math() -> None:
    """Waits on its background job when it has not ended: two i686 builds (one refused)
    and the tests (half a minute warm, three minutes cold)."""
    refused, capi = background.result("i686")
    assert refused.returncode != 0
    assert "diabolo on 32-bit x86 needs SSE2 floating point" in refused.stdout + refused.stderr
    check_capi_run(capi)


ZIG_TARGETS = {"aarch64-macos": "arm64", "x86_64-macos": "x86_64"}
"""macOS on Apple silicon and on Intel, as Zig names them, and the Mach-O CPU type that
`file`-like checks read from the library (MACH_O_CPU)."""
MACH_O_CPU = {0x0100000C: "arm64", 0x01000007: "x86_64"}


def zig_build(target: str) -> Path:
    """The core and the C library built for macOS with Zig's clang, its libc++ and its
    Mach-O linker (cpp/toolchains/zig-macos.cmake): what compiles and links with Apple's
    libc++ headers; nothing of it runs here."""
    from importlib.metadata import version

    # ccache knows the compiler by Zig's version and the target (which the wrapper takes from
    # the environment, not the command line), not by the wrapper script's time, which a fresh
    # clone changes.
    compiler = f"string:ziglang-{version('ziglang')}-{target}"
    env = {"CCACHE_COMPILERCHECK": compiler, "DIABOLO_ZIG_TARGET": target, "PYTHON": sys.executable}
    folder, _ = build(target, "zig-macos.cmake", "-DDIABOLO_TESTS=OFF", targets=("diabolo",), env=env)
    return folder


@background.job("macos")
def macos(work: Path) -> dict[str, Path]:
    """Both macOS builds (a background job)."""
    if importlib.util.find_spec("ziglang") is None:
        skip_or_fail("the macOS build check needs Zig: pip install ziglang==0.17.0 (a test extra)")
    return {target: zig_build(target) for target in ZIG_TARGETS}


@pytest.mark.background("macos")
def test_macos_arm64_and_x86_64_build_and_link_with_zig() -> None:
    """Waits on its background job: the core and libdiabolo.dylib for both macOS targets
    (about four minutes cold, seconds warm through ccache). Each is a Mach-O dynamic library
    of its CPU that exports every function of the C API."""
    import struct

    declared = c_api_functions()
    for target, folder in background.result("macos").items():
        library = folder / "libdiabolo.dylib"
        assert library.is_file(), sorted(path.name for path in folder.iterdir())
        data = library.read_bytes()
        magic, cpu, _, filetype = struct.unpack_from("<IiII", data)
        assert magic == 0xFEEDFACF and filetype == 6, (target, hex(magic), filetype)  # 64-bit Mach-O, MH_DYLIB
        assert MACH_O_CPU.get(cpu) == ZIG_TARGETS[target], (target, hex(cpu))
        exported = set(re.findall(rb"_(diabolo_\w+)\x00", data))
        assert {name.encode() for name in declared} <= exported, sorted(declared - {n.decode() for n in exported})
