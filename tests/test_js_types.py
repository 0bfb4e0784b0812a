"""js/diabolo.d.mts types js/diabolo.mjs for TypeScript, imported by path as well as by
package name: TypeScript looks for the declarations of ``./diabolo.mjs`` in
``./diabolo.d.mts``. A strict compile of a small program passes, and a line that misuses a
type is refused (so the declarations are read, not taken as ``any``)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from tests.tool_helpers import skip_or_fail

ROOT = Path(__file__).resolve().parent.parent

PROGRAM = """\
import {{ loadDiabolo, Status, IllegalMoveError }} from "{module}";
const engine = await loadDiabolo();
const game = engine.load("schacht", {{ players: 3 }});
const state = game.newState(7);
const seat: number = state.currentPlayer;
try {{
    state.apply(seat, "bet");
}} catch (error) {{
    if (error instanceof IllegalMoveError && error.status === Status.ILLEGAL_MOVE) console.log(error.clause);
}}
// @ts-expect-error: the current player is a number, not text
const wrong: string = state.currentPlayer;
console.log(seat, wrong, Status.BAD_ARGUMENT);
"""


def test_typescript_reads_the_declarations_of_a_path_import(tmp_path: Path) -> None:
    tsc = shutil.which("tsc")
    if tsc is None:
        skip_or_fail(
            "the TypeScript test needs tsc: apt-get install node-typescript (or bash tools/install-test-tools.sh)"
        )
    assert tsc is not None
    program = tmp_path / "app.mts"
    program.write_text(PROGRAM.format(module=(ROOT / "js" / "diabolo.mjs").as_posix()))
    command = [tsc, "--noEmit", "--strict", "--target", "es2022", "--module", "nodenext"]
    checked = subprocess.run(
        [*command, "--moduleResolution", "nodenext", str(program)], capture_output=True, text=True, timeout=300
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
