"""The browser client's game models in Node.js, outside any browser: models.mjs and each
game's model.mjs, fed the engine's events of seeded random games for every audience (each
seat and the spectators), keep the engine's view after every move (tests/client_models.py's
random_game; tests/client_models_check.mjs runs them). A frontend that runs in Node (a
server, a test runner, a bot) can use them as the browser does.

Without Node.js the test skips, or fails under CI=true, naming what to install.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import diabolo
from tests.client_models import random_game
from tests.tool_helpers import skip_or_fail

ROOT = Path(__file__).resolve().parent.parent
CLIENT = Path(diabolo.__file__).resolve().parent / "server" / "client"


def test_the_client_models_keep_every_view_in_node(tmp_path: Path) -> None:
    node = shutil.which("node")
    if node is None:
        skip_or_fail("the client models' Node test needs Node.js: apt-get install nodejs")
    games = [
        random_game("schacht", {"players": 5, "rounds": 2}, 15),
        random_game("duvelen", {"players": 4, "max_actions": 200}, 16),
        random_game("knizia", {"players": 4, "lexicon": "de", "rounds": 1}, 17),
    ]
    path = tmp_path / "games.json"
    path.write_text(json.dumps(games), encoding="utf-8")
    script = ROOT / "tests" / "client_models_check.mjs"
    run = subprocess.run([str(node), str(script), str(CLIENT), str(path)], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    found = json.loads(run.stdout)
    assert found["wrong"] == [] and min(found["moves"]) > 20, found
