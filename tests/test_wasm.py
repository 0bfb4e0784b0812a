"""The WebAssembly build for JavaScript: tools/build-wasm.sh compiles the C API with
Emscripten into build/wasm (incrementally: a rerun compiles only what changed), and the
Node tests in js/test/ (``node --test``) play every game through the JS API (js/diabolo.mjs).
Through JavaScript the engine must do what it does through Python: the C test's seeded
games (cpp/tests/capi/test_capi.c, replayed by tests/capi_replay.py), random batches, given
deals, a word list's binary form and the bots' choices. This test writes Python's results
for the Node tests to read (js/test/python.test.mjs). The Node tests also replay every
golden transcript (tests/golden/transcripts, tests/transcripts.py) line by line, as C and
Python do (js/test/transcripts.test.mjs): the bots' answers, legal ids, moves, the events'
and views' JSON text and the scores.

Without em++ or Node.js the tests skip, or fail under CI=true, naming what to install.
"""

from __future__ import annotations

import base64
import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

import diabolo
from diabolo import Lexicon, duvelen, knizia, schacht
from tests import background
from tests.capi_replay import KNIZIA_WORDS, c_api_functions, game_of, replay
from tests.tool_helpers import skip_or_fail
from tests.transcripts import TRANSCRIPTS, check_replayed
from tests.wasm_helpers import ROOT, require_tools


@pytest.fixture
def wasm_build() -> Path:
    """build/wasm with diabolo.mjs and diabolo.wasm of the current sources, built in the
    background while other tests ran (tests/wasm_helpers.py)."""
    built: Path = background.result("wasm")
    return built


def python_bots(name: str) -> dict[str, tuple[Any, dict[str, Any]]]:
    """Python's bots of a game by the C API's kind, with the C API's options for each."""
    if name == "schacht":
        return {
            "random": (schacht.RandomBot(), {}),
            "heuristic": (schacht.HeuristicBot(), {}),
            "ismcts": (schacht.IsmctsBot(iterations=200), {"iterations": 200}),
        }
    if name == "duvelen":
        return {
            "random": (duvelen.RandomBot(), {}),
            "greedy": (duvelen.GreedyBot(), {}),
            "lookahead": (duvelen.LookaheadBot(), {}),
            "search": (duvelen.SearchBot(worlds=4, horizon=3.0), {"worlds": 4, "horizon": 3}),
        }
    return {
        "random": (knizia.RandomBot(), {}),
        "word": (knizia.WordBot(), {}),
        "lookahead": (knizia.WordBot(lookahead=True), {}),
        "search": (knizia.SearchBot(worlds=4), {"worlds": 4}),
    }


def python_results() -> dict[str, Any]:
    """What Python makes of the cases js/test/python.test.mjs plays through JavaScript."""
    names = ("schacht", "duvelen", "knizia")
    games = []
    for seed in (1, 2, 3):
        for name in names:
            moves, state = replay(name, seed, 400 if name == "knizia" else 2000)
            games.append({"name": name, "seed": seed, "moves": moves, "state": state.to_json()})
    batches = []
    for name, game in (
        ("schacht", diabolo.load("schacht")),
        ("duvelen", diabolo.load("duvelen", players=3, max_actions=500)),
        ("knizia", game_of("knizia")),
    ):
        result = game.play_random(6, seed=42)
        batches.append(
            {
                "name": name,
                "games": 6,
                "seed": 42,
                "scores": result["scores"].ravel().tolist(),
                "moves": result["moves"].tolist(),
            }
        )
    # Deals: the cards of another seed's game, reversed.
    deals = []
    for name in names:
        shuffled = json.loads(game_of(name).new_state(seed=9).to_json())
        if name == "schacht":
            deal: dict[str, Any] = {"deck": ([c for hand in shuffled["hands"] for c in hand] + shuffled["pile"])[::-1]}
        elif name == "duvelen":
            deal = {"decks": [(s["stok"] + s["rij"] + s["waste"] + s["draaistok"])[::-1] for s in shuffled["seats"]]}
        else:
            deal = {"deck": shuffled["deck"][::-1]}
        state = game_of(name).new_state(seed=5, **deal)
        deals.append({"name": name, "seed": 5, "deal": deal, "state": state.to_json()})
    # Bots: each kind's choice for the seats that may act, along a replayed game.
    bots = []
    for name in names:
        for kind, (bot, options) in python_bots(name).items():
            for at in (0, 9, 18):
                _, state = replay(name, 1, at)
                seats = [min(state.pending_seats)] if name == "schacht" else range(state.game.players)
                for seat in seats:
                    seed = 100 + at + seat
                    if name == "schacht":
                        move, delay = bot.choose(state, seat, seed=seed), 0.0
                    else:
                        proposal = bot.propose(state, seat, seed=seed)
                        move, delay = (None, 0.0) if proposal is None else proposal
                    bots.append(
                        {
                            "name": name,
                            "kind": kind,
                            "options": options,
                            "at": at,
                            "player": seat,
                            "seed": seed,
                            "notation": None if move is None else str(move),
                            "delay": delay,
                        }
                    )
    lexicon = base64.b64encode(Lexicon.from_words(KNIZIA_WORDS).to_bytes()).decode()
    return {"games": games, "batches": batches, "deals": deals, "bots": bots, "lexicon": lexicon}


@pytest.mark.slow
@pytest.mark.background("wasm")
def test_node_tests_of_the_javascript_api_pass(request: pytest.FixtureRequest, tmp_path: Path) -> None:
    require_tools()
    wasm_build: Path = request.getfixturevalue("wasm_build")
    expected = tmp_path / "python_results.json"
    expected.write_text(json.dumps(python_results()))
    result = subprocess.run(
        ["node", "--test", "js/test/"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=1800,
        env={**os.environ, "DIABOLO_WASM_DIR": str(wasm_build), "DIABOLO_PYTHON_RESULTS": str(expected)},
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output[-20000:]
    counts = dict(re.findall(r"^# (tests|pass|fail|skipped|cancelled) (\d+)$", output, re.MULTILINE))
    assert counts.get("fail") == "0" and counts.get("skipped") == "0" and counts.get("cancelled") == "0", output
    assert int(counts.get("pass", "0")) >= 20, output
    # js/test/transcripts.test.mjs replayed every golden transcript.
    replayed = set(re.findall(r"^ok \d+ - the golden transcript (\S+) replays line by line$", output, re.MULTILINE))
    assert replayed == {path.name for path in TRANSCRIPTS.glob("*.txt")} != set(), output


def test_the_javascript_api_calls_every_function_of_the_c_api() -> None:
    declared = c_api_functions()
    assert len(declared) >= 25
    wrapper = (ROOT / "js" / "diabolo.mjs").read_text()
    called = set(re.findall(r"\._(diabolo_\w+)\b", wrapper))
    assert declared - called == set(), "js/diabolo.mjs does not wrap these functions of diabolo.h"
    assert called - declared == set(), "js/diabolo.mjs calls functions diabolo.h does not declare"


def run(command: list[str], cwd: Path) -> str:
    """Runs a command of the npm package's test; fails with its output if it fails."""
    result = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, f"{' '.join(command)}:\n{result.stdout[-4000:]}{result.stderr[-4000:]}"
    return result.stdout


@pytest.mark.background("wasm")
def test_the_npm_package_installs_and_replays_from_node_and_typescript(
    request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    """js/ packed by ``npm pack`` with the build's module and .wasm in dist/ (what its prepack
    script builds), installed from the tarball into a fresh folder, imported by name from
    Node (tests/npm_consumer/smoke.mjs: the .wasm found with no option) and from TypeScript
    compiled with ``tsc --strict`` against the package's types (replay.mts, which replays
    every golden transcript), and its types refuse a wrong call."""
    require_tools()
    wasm_build: Path = request.getfixturevalue("wasm_build")
    for tool in ("npm", "tsc"):
        if shutil.which(tool) is None:
            skip_or_fail(f"the npm package's test needs {tool}: apt-get install npm node-typescript")
    source = tmp_path / "package"
    (source / "dist").mkdir(parents=True)
    for name in ("package.json", "diabolo.mjs", "diabolo.d.mts", "README.md"):
        shutil.copy2(ROOT / "js" / name, source / name)
    for name in ("diabolo.mjs", "diabolo.wasm"):
        shutil.copy2(wasm_build / name, source / "dist" / name)
    packed = run(["npm", "pack", "--ignore-scripts", "--json", "--pack-destination", str(tmp_path)], source)
    (tarball,) = json.loads(packed)
    assert sorted(entry["path"] for entry in tarball["files"]) == [
        "README.md",
        "diabolo.d.mts",
        "diabolo.mjs",
        "dist/diabolo.mjs",
        "dist/diabolo.wasm",
        "package.json",
    ]
    app = tmp_path / "app"
    app.mkdir()
    (app / "package.json").write_text('{"name": "consumer", "private": true, "type": "module"}\n')
    run(["npm", "install", "--offline", "--no-audit", "--no-fund", str(tmp_path / tarball["filename"])], app)
    for path in (ROOT / "tests" / "npm_consumer").iterdir():
        shutil.copy2(path, app / path.name)

    state = diabolo.load("schacht", players=3).new_state(seed=4)
    while not state.is_terminal:
        seat = state.pending_seats[0]
        state.apply(state.legal_actions(seat)[0], player=seat)
    expected = f"{diabolo.__version__} {','.join(diabolo.games())} {' '.join(map(str, state.scores))}"
    assert run(["node", "smoke.mjs"], app).strip() == expected

    run(["tsc", "-p", "tsconfig.json"], app)
    replayed = run(["node", "out/replay.mjs", str(TRANSCRIPTS)], app)
    check_replayed(replayed)

    (app / "wrong.mts").write_text('import { loadDiabolo } from "diabolo";\n(await loadDiabolo()).load(3);\n')
    wrong = subprocess.run(
        ["tsc", "--strict", "--module", "nodenext", "--target", "es2022", "--noEmit", "wrong.mts"],
        cwd=app,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert wrong.returncode != 0 and "TS2345" in wrong.stdout, wrong.stdout
