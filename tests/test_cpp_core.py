"""The C++ core on its own: built with CMake under AddressSanitizer and UBSan, it runs
its C++ tests (rulebook example, 360 random games under the invariant checker with a
resample at every step, batch play on two threads, and the contract test over every game
that implements core/contract.hpp), and the examples of docs/cpp.rst; built with
ThreadSanitizer, the same tests but the long single-threaded ones (SINGLE_THREADED), whose
threads_* cases run every multi-threaded path (batch play, matches, real-time simulation,
ISMCTS, a word list split across threads) on 2 and 8 threads. The builds and their runs
are background jobs (tests/background.py): they run while the Python tests do, and the
tests here check what they gave."""

from __future__ import annotations

import importlib
import json
import os
import shutil
import sys
from pathlib import Path

import pytest

from tests import background
from tests.background import Run
from tests.capi_replay import check_capi_run, run_capi_test
from tests.transcripts import TRANSCRIPTS, check_replayed

ROOT = Path(__file__).resolve().parent.parent


def cmake() -> str:
    """The cmake of the [test] extra (PyPI's cmake package), else one on PATH."""
    try:
        cmake_package = importlib.import_module("cmake")
        return str(Path(cmake_package.CMAKE_BIN_DIR) / "cmake")
    except ImportError:
        found = shutil.which("cmake")
        assert found, "cmake is needed: pip install '.[test]'"
        return found


# ccache (CMakeLists.txt uses it when found) names the files under the tree by relative
# paths and leaves the build folder out of the hash, so that a clone in another folder
# reuses this machine's earlier compiles.
COMPILER_CACHE = {"CCACHE_BASEDIR": str(ROOT), "CCACHE_NOHASHDIR": "true"}


BUILD_SECONDS = 1800
"""A build's bound: a hang's guard, not a speed limit (a sanitizer build with a cold compiler
cache, beside the rest of the suite on 2 cores, took 15 minutes on a fresh machine)."""


def run(command: list[str], cwd: Path) -> str:
    result = background.run(command, cwd=cwd, timeout=BUILD_SECONDS, env={**os.environ, **COMPILER_CACHE})
    assert result.returncode == 0, f"{' '.join(command)} failed:\n{result.stdout}\n{result.stderr}"
    return result.stdout


def configure(configuration: str, *options: str) -> Path:
    """CMake configures cpp/ into build/cmake/`configuration` (inside the tree, so that the
    compiler cache sees the same relative paths from every clone) with the Boost.JSON
    headers the package builds with (boost-headers, a test extra) and `options`
    ("-DDIABOLO_TSAN=ON"); returns the build folder."""
    import boost_headers

    build = ROOT / "build" / "cmake" / configuration
    include = f"-DDIABOLO_BOOST_INCLUDE_DIR={boost_headers.get_include()}"
    run([cmake(), "-S", str(ROOT / "cpp"), "-B", str(build), include, *options], ROOT)
    return build


SINGLE_THREADED = (
    "random_games_keep_every_invariant",
    "formable_words_are_find_words_words_on_random_tables",
    "contract_every_game_of_the_catalogue_with_its_default_options",
    "contract_schacht",
    "contract_duvelen",
    "contract_knizia",
    "finder_agrees_with_the_former_finder_on_random_tables",
    "bots_only_choose_legal_moves",
    "search_bot_games_finish_and_its_options_are_checked",
)
"""The C++ tests that take longest under a sanitizer and start no thread: ThreadSanitizer
finds races between threads, so it leaves them to the other builds (the ASan+UBSan build
runs every test). The contract tests' one threaded part, batch play on 2 threads, is a
test of its own that ThreadSanitizer runs (threads_batch_play_of_the_contract_games_...);
a word list splits across threads only from 32,768 words (knizia/formable.cpp), far more
than the finder test's 400; the bots' search runs on one thread unless told otherwise (the
search bots' games on 2 threads are tests of their own: ..._do_not_depend_on_threads)."""


def build_and_run(
    configuration: str,
    option: str,
    env: dict[str, str],
    leave_out: tuple[str, ...] = (),
    targets: tuple[str, ...] = (),
) -> tuple[Path, str]:
    """Builds the C++ tests with `option` ("DIABOLO_TSAN") and runs them, but those whose
    names contain one of `leave_out`; returns the build folder and their output. With
    `targets`, builds only those (else everything: the C test and the docs' examples too)."""
    build = configure(configuration, f"-D{option}=ON", "-DCMAKE_BUILD_TYPE=RelWithDebInfo")
    only = ["--target", *targets] if targets else []
    run([cmake(), "--build", str(build), *only, "--parallel", str(os.cpu_count() or 2)], ROOT)
    result = background.run(
        [str(build / "diabolo_tests"), *(f"-{name}" for name in leave_out)], timeout=900, env={**os.environ, **env}
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert " 0 failed" in result.stdout
    return build, result.stdout + result.stderr


@background.job("sanitize")
def sanitized(folder: Path) -> tuple[str, Run, Run, Run, Run]:
    """The C++ tests' output under ASan+UBSan, and the runs of the C test, the docs' two
    examples and the golden transcripts' replay through the C++ contract, built the same way
    (a background job: tests/background.py)."""
    build, output = build_and_run(
        "sanitize",
        "DIABOLO_SANITIZE",
        {"ASAN_OPTIONS": "detect_leaks=1:abort_on_error=1", "UBSAN_OPTIONS": "print_stacktrace=1"},
    )
    example = background.run([str(build / "play_any_game")], timeout=300)
    first = background.run([str(build / "schacht_random")], timeout=300)
    transcripts = sorted(map(str, TRANSCRIPTS.glob("*.txt")))
    replayed = background.run([str(build / "diabolo_contract_replay"), *transcripts], timeout=300)
    return output, run_capi_test(build / "diabolo_capi_test", folder), example, first, replayed


@pytest.mark.slow
@pytest.mark.background("sanitize")
@pytest.mark.skipif(sys.platform == "win32", reason="ASan/UBSan flags here are for GCC and Clang")
def test_core_under_address_and_undefined_behaviour_sanitizers() -> None:
    """Waits on its background job when it has not ended: the build and the C++ tests under
    ASan and UBSan take one to two minutes warm (the 360 random games under the invariant
    checker most of it), ten cold."""
    output, capi, example, first, replayed = background.result("sanitize")
    assert "random_games_keep_every_invariant" in output
    # The C API from plain C99 (cpp/tests/capi/test_capi.c): its games, replayed through
    # the Python API, end in the same state text; it checks every golden transcript
    # (tests/transcripts.py) and a game made from a lexicon file.
    check_capi_run(capi)
    # The examples of docs/cpp.rst, built with the same flags: each game through the
    # contract alone, its view as JSON, a save and a load that play on alike.
    assert example.returncode == 0, example.stdout + example.stderr
    for name in ("schacht", "duvelen", "knizia"):
        assert f"{name}: seat 1 sees {{" in example.stdout
    assert example.stdout.count("the loaded copy ended alike") == 3
    # Every golden transcript through the C++ contract alone (cpp/tests/contract_replay).
    assert replayed.returncode == 0, replayed.stdout + replayed.stderr
    check_replayed(replayed.stdout)
    assert first.returncode == 0 and first.stdout.startswith(
        "seat 1 may play: R1< R1> Y2< Y2> Y3< Y3> G3< G3> P4< P4> B3< B3>"
    ), first.stdout + first.stderr


@background.job("tsan")
def thread_sanitized(folder: Path) -> str:
    """The C++ tests' output under ThreadSanitizer (a background job). Only the C++ tests
    are built: the C test and the docs' examples run in the ASan+UBSan build."""
    options = {"TSAN_OPTIONS": "halt_on_error=1:second_deadlock_stack=1"}
    return build_and_run("tsan", "DIABOLO_TSAN", options, leave_out=SINGLE_THREADED, targets=("diabolo_tests",))[1]


@pytest.mark.slow
@pytest.mark.background("tsan")
@pytest.mark.skipif(sys.platform == "win32", reason="ThreadSanitizer flags here are for GCC and Clang")
def test_core_under_thread_sanitizer() -> None:
    """Waits on its background job when it has not ended: the threaded C++ tests run about
    half a minute under ThreadSanitizer (each path on 2 and 8 threads; 3.5 minutes before
    the single-threaded tests were left out), some minutes cold with the build."""
    output = background.result("tsan")
    for case in (
        "threads_schacht_random_play_matches_and_search",
        "threads_duvelen_random_play_and_simulation",
        "threads_knizia_random_play_and_simulation",
        "threads_an_interrupted_batch_stops_and_keeps_what_it_did",
        "formable_words_split_across_threads_are_find_words_words",
        "vector_env_gives_the_same_steps_for_any_thread_count",
        "threads_batch_play_of_the_contract_games_does_not_depend_on_threads",
    ):
        assert f"ok     {case}" in output
    assert "ThreadSanitizer" not in output


@background.job("release")
def installed_consumer(folder: Path) -> Run:
    """The release build installed under a prefix, and a CMake project outside the tree
    built against it and run (a background job)."""
    prefix, consumer = folder / "prefix", folder / "consumer"
    build = configure("release", "-DDIABOLO_TESTS=OFF")
    run([cmake(), "--build", str(build), "--target", "diabolo", "--parallel", str(os.cpu_count() or 2)], ROOT)
    run([cmake(), "--install", str(build), "--prefix", str(prefix)], ROOT)
    assert (prefix / "include" / "diabolo" / "diabolo.h").is_file()
    source = ROOT / "tests" / "capi_consumer"
    run([cmake(), "-S", str(source), "-B", str(consumer), f"-DCMAKE_PREFIX_PATH={prefix}"], ROOT)
    run([cmake(), "--build", str(consumer)], ROOT)
    return background.run([str(consumer / "consumer")], timeout=60)


@pytest.mark.slow
@pytest.mark.background("release")
@pytest.mark.skipif(sys.platform != "linux", reason="the consumer is built and run the Linux way")
def test_the_installed_c_api_is_found_by_its_cmake_package() -> None:
    """cmake --install puts libdiabolo, diabolo.h and the CMake package under a prefix; a
    project outside the tree finds it with find_package(diabolo) and plays a move."""
    played = background.result("release")
    assert played.returncode == 0, played.stdout + played.stderr
    version, code = played.stdout.splitlines()[0].split()
    assert version == diabolo_version() and code == "card_not_in_hand"
    assert json.loads(played.stdout.splitlines()[1])["player"] == 1


def diabolo_version() -> str:
    import diabolo

    return diabolo.__version__


BENCHMARK_PROGRAMS = sorted((ROOT / "benchmarks").glob("*.cpp"))


@background.job("benchmark-programs")
def check_benchmark_programs(folder: Path) -> dict[str, Run]:
    """Each C++ program of benchmarks/ through the compiler's syntax check, with the include
    paths its header comment gives (a background job)."""
    import boost_headers

    compiler = shutil.which("c++") or shutil.which("g++") or shutil.which("clang++")
    assert compiler, "a C++ compiler is needed (c++, g++ or clang++ on PATH)"
    include = ["-I", str(ROOT / "cpp" / "include"), "-I", str(ROOT / "cpp" / "tests")]
    include += ["-I", boost_headers.get_include()]
    return {
        program.name: background.run([compiler, "-fsyntax-only", "-std=c++17", *include, str(program)], timeout=300)
        for program in BENCHMARK_PROGRAMS
    }


@pytest.mark.background("benchmark-programs")
@pytest.mark.parametrize("program", BENCHMARK_PROGRAMS, ids=lambda p: p.name)
def test_benchmark_programs_compile_against_the_core_as_it_is(program: Path) -> None:
    """The C++ programs of benchmarks/ are not part of the build, so a change of the core's
    headers could leave one that no longer compiles (clone_bench.cpp once called a
    legal_actions that had become Rules::legal_actions): each is checked by the compiler
    (-fsyntax-only, about a second each)."""
    result = background.result("benchmark-programs")[program.name]
    assert result.returncode == 0, f"{program.name} no longer compiles:\n{result.stderr[-4000:]}"


def test_every_benchmark_program_is_checked() -> None:
    """The parametrised check above finds the programs by globbing: it must find them."""
    assert {p.name for p in BENCHMARK_PROGRAMS} >= {"clone_bench.cpp", "tune_heuristic.cpp", "vector_env.cpp"}
