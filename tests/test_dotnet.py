"""The .NET binding (bindings/dotnet: P/Invoke over the C API, SafeHandles, typed moves,
events and errors) compiled with Mono's C# compiler at C# 7.2 (what .NET Standard 2.0 code in
Unity and Godot .NET compiles) and run with Mono against the installed package's library:
every golden transcript replays through it line for line, seeded games played by the C++
bots through it give Python's transcript of the same game, the binding's own promises hold,
the console sample plays a game to its end, and the Unity package's layout is whole."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import diabolo
from tests.tool_helpers import skip_or_fail
from tests.transcripts import SPECS, Spec, check_replayed, compact, transcript

ROOT = Path(__file__).resolve().parent.parent
BINDING = ROOT / "bindings" / "dotnet"
INSTALL = "apt-get install mono-devel (or: bash tools/install-test-tools.sh)"
TRANSCRIPTS = ROOT / "tests" / "golden" / "transcripts"


def compile_cs(out: Path, sources: list[Path], *references: Path, library: bool = False) -> Path:
    command = ["mcs", "-langversion:7.2", "-warnaserror", "-nologo", f"-out:{out}"]
    command += ["-target:library"] if library else []
    command += [f"-r:{reference}" for reference in references]
    result = subprocess.run([*command, *map(str, sources)], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    return out


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The binding, its test program and the sample, compiled."""
    if shutil.which("mcs") is None or shutil.which("mono") is None:
        skip_or_fail("the .NET binding's tests need Mono: " + INSTALL)
    folder = tmp_path_factory.mktemp("dotnet")
    binding = compile_cs(folder / "Diabolo.dll", sorted((BINDING / "Runtime").glob("*.cs")), library=True)
    return {
        "binding": binding,
        "tests": compile_cs(folder / "Transcripts.exe", [BINDING / "Tests" / "Transcripts.cs"], binding),
        "sample": compile_cs(folder / "Program.exe", [BINDING / "Samples~" / "Console" / "Program.cs"], binding),
    }


def mono(program: Path, *arguments: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """Runs a compiled program with the installed package's libdiabolo on the loader's path."""
    environment = {**os.environ, "LD_LIBRARY_PATH": diabolo.get_library_dir()}
    return subprocess.run(
        ["mono", str(program), *arguments],
        input=stdin,
        env=environment,
        capture_output=True,
        text=True,
        timeout=600,
        cwd=program.parent,
    )


def test_the_binding_replays_every_golden_transcript(built: dict[str, Path]) -> None:
    paths = sorted(TRANSCRIPTS.glob("*.txt"))
    result = mono(built["tests"], "replay", *map(str, paths))
    assert result.returncode == 0, result.stdout + result.stderr[-4000:]
    check_replayed(result.stdout)


@pytest.mark.parametrize("spec", SPECS, ids=lambda spec: spec.name)
def test_the_bots_play_the_same_games_through_the_binding_as_from_python(built: dict[str, Path], spec: Spec) -> None:
    """Each transcript's game with another seed (so not a file either side has seen),
    played by the C++ bots through the binding and through Python."""
    other = Spec(spec.name, spec.game, spec.options, spec.seed + 100, spec.bot, spec.deal, spec.view_every, 120)
    arguments = [other.game, compact(other.options), compact(other.deal), str(other.seed), other.bot, "120"]
    result = mono(built["tests"], "play", *arguments, str(other.view_every))
    assert result.returncode == 0, result.stderr[-4000:]
    played = result.stdout.splitlines()
    expected = transcript(other)
    assert len(played) == len(expected) and len(played) > 100
    for number, (line, want) in enumerate(zip(played, expected), start=1):
        assert line == want, f"line {number} differs"


def test_the_binding_keeps_its_promises(built: dict[str, Path]) -> None:
    """Errors of each kind with code and clause, a refused move changing nothing, clones,
    typed events, masks, JSON round trips, random games, positions, and its JSON reader."""
    result = mono(built["tests"], "api")
    assert result.returncode == 0 and result.stdout.strip() == "api ok", result.stdout + result.stderr[-4000:]


def test_the_console_sample_plays_a_game_to_its_end(built: dict[str, Path]) -> None:
    """A person who types a move that does not exist, then always the first move offered."""
    result = mono(built["sample"], "3", stdin="R9>\n" + "0\n" * 400)
    assert result.returncode == 0, result.stderr[-3000:]
    assert "not now: unknown value '9' in card 'R9'" in result.stdout
    assert re.search(r"^seat 1 plays \S+$", result.stdout, re.MULTILINE)
    assert re.search(r"final scores: -?\d+ -?\d+ -?\d+$", result.stdout.strip())
    stopped = mono(built["sample"], "3", stdin="0\n")
    assert stopped.returncode == 0 and "end of input: the game stops here" in stopped.stdout


def test_the_unity_package_is_whole(tmp_path: Path) -> None:
    """package.json as the Unity Package Manager reads it, the runtime's assembly definition,
    a Plugins folder per platform, the sample where package.json says, and the package made by
    tools/dotnet_package.py carrying this machine's library."""
    package = json.loads((BINDING / "package.json").read_text())
    assert package["version"] == diabolo.__version__
    assert re.fullmatch(r"[a-z0-9-]+(\.[a-z0-9-]+){2,}", package["name"])
    assert {"displayName", "description", "unity"} <= set(package)
    for sample in package["samples"]:
        assert list((BINDING / sample["path"]).glob("*.cs"))
    assert json.loads((BINDING / "Runtime" / "Diabolo.Runtime.asmdef").read_text())["name"] == "Diabolo.Runtime"
    for folder in ("Linux/x86_64", "macOS", "Windows/x86_64"):
        assert (BINDING / "Plugins" / folder).is_dir()
    if sys.platform != "linux":
        pytest.skip("the package is made here for Linux's library")
    made = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "dotnet_package.py"), str(tmp_path / "org.diabolo.engine")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert made.returncode == 0, made.stderr
    library = tmp_path / "org.diabolo.engine" / "Plugins" / "Linux" / "x86_64" / "libdiabolo.so"
    assert library.is_file() and library.read_bytes()[:4] == b"\x7fELF"
    assert (tmp_path / "org.diabolo.engine" / "Runtime" / "Engine.cs").is_file()
