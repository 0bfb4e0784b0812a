"""What only an installed diabolo can show, checked from outside the source tree: a C
program compiled against the package's header and linked with its C library plays the C
test's games; the game server serves its browser client from the package; and a type
checker reads the package's stubs. The release path (tests/test_release.py) runs these
again against the repaired wheel, with the contract suites, the golden transcripts, the
word lists and the Cython build."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import diabolo
from tests.capi_replay import check_capi_test

ROOT = Path(__file__).resolve().parent.parent
CLIENT = ROOT / "python" / "diabolo" / "server" / "client"


@pytest.mark.skipif(sys.platform == "win32", reason="the wheel has no C library on Windows yet")
def test_a_c_program_plays_with_the_installed_library_and_header(tmp_path: Path) -> None:
    compiler = shutil.which(os.environ.get("CC", "cc"))
    assert compiler, "a C compiler is needed (cc, or CC)"
    program = tmp_path / "test_capi"
    library = diabolo.get_library_dir()
    command = [
        compiler,
        "-std=c99",
        "-Wall",
        "-Wextra",
        "-Werror",
        str(ROOT / "cpp" / "tests" / "capi" / "test_capi.c"),
    ]
    command += [f"-I{diabolo.get_include()}", f"-L{library}", "-ldiabolo", "-o", str(program)]
    if sys.platform != "darwin":
        command.append(f"-Wl,-rpath,{library}")
    built = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stdout + built.stderr
    check_capi_test(program, tmp_path)


CONSUMER = ROOT / "tests" / "capi_consumer"


def diabolo_says(*flags: str) -> str:
    """What ``python -m diabolo FLAGS`` prints."""
    said = subprocess.run([sys.executable, "-m", "diabolo", *flags], capture_output=True, text=True, timeout=60)
    assert said.returncode == 0, said.stdout + said.stderr
    return said.stdout.strip()


def check_consumer(program: Path) -> None:
    """The consumer (tests/capi_consumer/consumer.c) ran: the library's version, a refused
    move's code, and seat 1's view."""
    played = subprocess.run([str(program)], capture_output=True, text=True, timeout=60)
    assert played.returncode == 0, played.stdout + played.stderr
    version, code = played.stdout.splitlines()[0].split()
    assert version == diabolo.__version__ and code == "card_not_in_hand"
    assert '"player":1' in played.stdout.splitlines()[1]


def test_version_and_build_paths_follow_pybind11s_convention() -> None:
    assert diabolo_says("--version") == f"diabolo {diabolo.__version__}"
    includes = diabolo_says("--includes")
    assert includes == f"-I{diabolo.get_include()}"
    assert (Path(includes[2:]) / "diabolo" / "diabolo.h").is_file()
    assert diabolo_says("--includes", "--libs").startswith(includes + " -L")
    assert (Path(diabolo_says("--cmakedir")) / "diabolo-config.cmake").is_file()
    assert (Path(diabolo_says("--pkgconfigdir")) / "diabolo.pc").is_file()


@pytest.mark.skipif(sys.platform == "win32", reason="a Unix compiler line")
def test_a_c_program_builds_from_the_flags_the_package_prints(tmp_path: Path) -> None:
    """The C docs' line: cc consumer.c $(python -m diabolo --includes --libs), nothing else
    (the rpath is in the flags: the program runs without LD_LIBRARY_PATH)."""
    compiler = shutil.which(os.environ.get("CC", "cc"))
    assert compiler, "a C compiler is needed (cc, or CC)"
    program = tmp_path / "consumer"
    flags = diabolo_says("--includes", "--libs").split()
    built = subprocess.run(
        [compiler, "-std=c99", str(CONSUMER / "consumer.c"), *flags, "-o", str(program)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert built.returncode == 0, built.stdout + built.stderr
    check_consumer(program)


@pytest.mark.skipif(sys.platform == "win32", reason="a Unix compiler line")
def test_pkg_config_gives_the_flags_of_the_installed_library(tmp_path: Path) -> None:
    pkg_config = shutil.which("pkg-config") or shutil.which("pkgconf")
    if pkg_config is None:
        from tests.tool_helpers import skip_or_fail

        skip_or_fail("the pkg-config test needs pkg-config: apt-get install pkgconf")
    assert pkg_config is not None
    env = {**os.environ, "PKG_CONFIG_PATH": diabolo_says("--pkgconfigdir")}
    said = subprocess.run(
        [pkg_config, "--cflags", "--libs", "diabolo"], capture_output=True, text=True, timeout=60, env=env
    )
    assert said.returncode == 0, said.stdout + said.stderr
    version = subprocess.run([pkg_config, "--modversion", "diabolo"], capture_output=True, text=True, env=env)
    assert version.stdout.strip() == diabolo.__version__
    program = tmp_path / "consumer"
    compiler = shutil.which(os.environ.get("CC", "cc")) or "cc"
    built = subprocess.run(
        [compiler, "-std=c99", str(CONSUMER / "consumer.c"), *said.stdout.split(), "-o", str(program)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert built.returncode == 0, built.stdout + built.stderr
    check_consumer(program)


def test_a_cmake_project_finds_the_installed_library_by_its_package(tmp_path: Path) -> None:
    """find_package(diabolo 0.1 CONFIG) with diabolo_DIR from --cmakedir: the imported
    target diabolo::diabolo, from the package alone (no build of cpp/)."""
    from tests.test_cpp_core import cmake

    build = tmp_path / "build"
    cmakedir = diabolo_says("--cmakedir")
    for command in (
        [cmake(), "-S", str(CONSUMER), "-B", str(build), f"-Ddiabolo_DIR={cmakedir}"],
        [cmake(), "--build", str(build)],
    ):
        result = subprocess.run(command, capture_output=True, text=True, timeout=300)
        assert result.returncode == 0, result.stdout + result.stderr
    check_consumer(build / ("consumer.exe" if sys.platform == "win32" else "consumer"))
    wrong = subprocess.run(  # a newer version than the package's is refused by its version file
        [cmake(), "-S", str(CONSUMER), "-B", str(tmp_path / "newer"), f"-Ddiabolo_DIR={cmakedir}", "-DWANTED=9.0"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert wrong.returncode != 0 and "9.0" in wrong.stdout + wrong.stderr


def test_the_server_serves_the_client_the_package_carries(tmp_path: Path) -> None:
    pytest.importorskip("uvicorn", reason="the server is an extra: pip install 'diabolo[server]'")
    from tests.server_helpers import running_server

    files = sorted(path.relative_to(CLIENT).as_posix() for path in CLIENT.rglob("*") if path.is_file())
    assert "index.html" in files and "table.mjs" in files and any(name.startswith("img/") for name in files)
    with running_server(f"sqlite:///{tmp_path / 'tables.db'}") as server:
        page = server.http.get("/")
        assert page.status_code == 200 and page.text == (CLIENT / "index.html").read_text()
        for name in files:
            served = server.http.get(f"/client/{name}")
            assert served.status_code == 200, name
            assert served.content == (CLIENT / name).read_bytes(), name
        assert server.http.get("/client/missing.mjs").status_code == 404


TYPED_USE = """
import diabolo

game = diabolo.load("schacht", players=4)
state = game.new_state(seed=7)
actions = state.legal_actions(state.current_player)
reveal_type(state)
reveal_type(actions)
state.legal_actions("seat one")
"""


MYPY_CACHE = Path(__file__).resolve().parent.parent / "build" / "mypy-installed"
"""mypy's cache for this check: numpy's and the stubs' analysis is kept for the next run."""


def test_a_type_checker_reads_the_installed_stubs(tmp_path: Path) -> None:
    pytest.importorskip("mypy", reason="the type check needs mypy: pip install '.[test]'")
    script = tmp_path / "use.py"
    script.write_text(TYPED_USE)
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(MYPY_CACHE), "--config-file", os.devnull]
        + [str(script)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    lines = result.stdout.splitlines()
    revealed = [line.split("Revealed type is ", 1)[1] for line in lines if "Revealed type is" in line]
    assert revealed == ['"diabolo._core.SchachtState"', '"list[int]"'], result.stdout
    errors = [line for line in lines if ": error:" in line]
    assert len(errors) == 1 and '"legal_actions"' in errors[0] and "arg-type" in errors[0], result.stdout
