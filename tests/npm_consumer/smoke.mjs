// The npm package from plain Node: imported by its name, the .wasm found beside its module
// with no option; plays one seeded game of random moves and prints the engine's version,
// its games and the game's scores (tests/test_wasm.py compares them with Python's).
import { loadDiabolo } from "diabolo";

const engine = await loadDiabolo();
const game = engine.load("schacht", { players: 3 });
const state = game.newState(4n);
while (!state.isTerminal) {
    const seat = state.pendingSeats[0];
    state.apply(seat, state.legalActions(seat)[0]);
}
console.log(engine.version, engine.games.join(","), Array.from(state.scores()).join(" "));
