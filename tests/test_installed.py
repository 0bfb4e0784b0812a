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


def test_the_server_serves_the_client_the_package_carries(tmp_path: Path) -> None:
    pytest.importorskip("uvicorn", reason="the server is an extra: pip install 'diabolo[server]'")
    from tests.server_helpers import running_server

    files = sorted(path.name for path in CLIENT.iterdir())
    assert "index.html" in files and "table.mjs" in files
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


def test_a_type_checker_reads_the_installed_stubs(tmp_path: Path) -> None:
    pytest.importorskip("mypy", reason="the type check needs mypy: pip install '.[test]'")
    script = tmp_path / "use.py"
    script.write_text(TYPED_USE)
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--config-file", os.devnull, str(script)],
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
