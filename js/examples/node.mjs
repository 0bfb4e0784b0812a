/**
 * The Node example of diabolo's JavaScript API: three heuristic bots play a seeded game of
 * Schacht's Diabolo through the WebAssembly engine, and it prints each move and the scores.
 *
 *   bash tools/build-wasm.sh build/wasm
 *   node js/examples/node.mjs [seed]
 *
 * The game is that of browser.html: engine.load("schacht", { players: 3 }) and
 * game.newState(seed), seed 1 by default. Before each move the lowest pending seat asks its
 * bot ("heuristic", no options) with the move's number (0, 1, 2, ...) as the bot's seed, and
 * plays the answer. tests/test_browser_example.py checks the output against Python's game.
 * DIABOLO_WASM_DIR names another folder of the built diabolo.mjs and diabolo.wasm.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";

import { loadDiabolo } from "../diabolo.mjs";

const build = process.env.DIABOLO_WASM_DIR ?? fileURLToPath(new URL("../../build/wasm", import.meta.url));
const engine = await loadDiabolo({ module: path.join(build, "diabolo.mjs") });
const seed = BigInt(process.argv[2] ?? 1);

const game = engine.load("schacht", { players: 3 });
const state = game.newState(seed);
const bot = game.bot("heuristic");
let move = 0;
while (!state.isTerminal) {
    const seat = state.pendingSeats[0];
    const { notation } = bot.choose(state, seat, move);
    state.apply(seat, notation);
    console.log(`move ${move}: seat ${seat} plays ${notation}`);
    move += 1;
}
console.log(`scores: ${Array.from(state.scores()).join(" ")}`);
bot.free();
state.free();
game.free();
