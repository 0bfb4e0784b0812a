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
import subprocess
from pathlib import Path
from typing import Any

import pytest

import diabolo
from diabolo import Lexicon, duvelen, knizia, schacht
from tests import background
from tests.capi_replay import KNIZIA_WORDS, game_of, replay
from tests.transcripts import TRANSCRIPTS
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
    header = (ROOT / "cpp" / "include" / "diabolo" / "diabolo.h").read_text()
    declared = set(re.findall(r"^DIABOLO_API [^(]*?\b(diabolo_\w+)\(", header, re.MULTILINE))
    assert len(declared) >= 25
    wrapper = (ROOT / "js" / "diabolo.mjs").read_text()
    called = set(re.findall(r"\._(diabolo_\w+)\b", wrapper))
    assert declared - called == set(), "js/diabolo.mjs does not wrap these functions of diabolo.h"
    assert called - declared == set(), "js/diabolo.mjs calls functions diabolo.h does not declare"
