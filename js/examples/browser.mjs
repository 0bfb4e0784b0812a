/**
 * The script of browser.html: three heuristic bots play a seeded game of Schacht's Diabolo
 * through the WebAssembly engine, and the page lists each move and the final scores.
 *
 * The game: engine.load("schacht", { players: 3 }) and game.newState(seed), seed 1 or the
 * page's ?seed=N. Before each move the lowest pending seat asks its bot ("heuristic", no
 * options) with the move's number (0, 1, 2, ...) as the bot's seed, and plays the answer.
 * node.mjs plays the same game in Node; tests/test_browser_example.py checks both against the
 * same game played through Python (diabolo.schacht.HeuristicBot).
 *
 * The element #result ends as `scores: 36 16 -11` with data-scores="36 16 -11" and
 * data-moves (the number of moves), or with data-error and the message if something failed.
 */
import { loadDiabolo } from "../diabolo.mjs";

// Where `bash tools/build-wasm.sh build/wasm` put the engine; diabolo.wasm is fetched from
// beside it. With the npm package (dist/ beside diabolo.mjs), loadDiabolo() needs no argument.
const MODULE = new URL("../../build/wasm/diabolo.mjs", import.meta.url);

const result = document.getElementById("result");
const moves = document.getElementById("moves");
const asked = new URLSearchParams(location.search).get("seed") ?? "";
const seed = /^\d{1,19}$/.test(asked) ? BigInt(asked) : 1n;
document.getElementById("seed").textContent = String(seed);

try {
    const engine = await loadDiabolo({ module: MODULE });
    const game = engine.load("schacht", { players: 3 });
    const state = game.newState(seed);
    const bot = game.bot("heuristic");
    let move = 0;
    while (!state.isTerminal) {
        const seat = state.pendingSeats[0];
        const { notation } = bot.choose(state, seat, move);
        state.apply(seat, notation);
        const item = document.createElement("li");
        item.textContent = `seat ${seat} plays ${notation}`;
        moves.append(item);
        move += 1;
    }
    const scores = Array.from(state.scores()).join(" ");
    bot.free();
    state.free();
    game.free();
    result.dataset.moves = String(move);
    result.dataset.scores = scores;
    result.textContent = `scores: ${scores}`;
} catch (error) {
    result.dataset.error = String(error?.message ?? error);
    result.textContent = `error: ${result.dataset.error}`;
    throw error;
}
