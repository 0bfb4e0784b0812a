/**
 * Shared set-up of the Node tests (js/test): the engine (built by tools/build-wasm.sh into
 * DIABOLO_WASM_DIR, default build/wasm of the repository), the games the tests play, and
 * the seeded move picker that cpp/tests/capi/test_capi.c and tests/capi_replay.py share, and
 * the heap checks of the leak tests.
 *
 * @example
 * const engine = await loadEngine();
 * const { moves, state } = replay(engine.load("schacht", { players: 3 }), 1n, 2000);
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import path from "node:path";

import { loadDiabolo } from "../diabolo.mjs";

const root = path.resolve(fileURLToPath(new URL("../..", import.meta.url)));

/** The folder of the built diabolo.mjs and diabolo.wasm. @example path.join(wasmDir, "diabolo.wasm") */
export const wasmDir = process.env.DIABOLO_WASM_DIR ?? path.join(root, "build", "wasm");

/**
 * The engine of the build in {@link wasmDir}.
 *
 * @example
 * const engine = await loadEngine();
 */
export function loadEngine() {
    return loadDiabolo({ module: path.join(wasmDir, "diabolo.mjs") });
}

/** The small word list of the C test's Knizia game. @example KNIZIA_WORDS.includes("Tor") */
export const KNIZIA_WORDS = [
    "Tor",
    "Rot",
    "Ort",
    "Tore",
    "Rest",
    "Rast",
    "Rate",
    "Stern",
    "Nest",
    "Ernst",
    "Nase",
].concat(["Rasen", "Aster", "Taste", "Osten", "Tee", "See"]);

/**
 * The options of every game the C test plays (test_capi.c's `play` calls).
 * @example engine.load("knizia", CAPI_GAMES.knizia)
 */
export const CAPI_GAMES = {
    schacht: { players: 3 },
    duvelen: { players: 2, max_actions: 300 },
    knizia: {
        players: 3,
        lexicon: KNIZIA_WORDS,
        deck: { language: "", cards: { A: 3, E: 4, N: 2, O: 2, R: 3, S: 3, T: 4, ST: 1, "?": 1, "??": 1 } },
    },
};

/** The C test's move limit per game. @example replay(game, 1n, CAPI_LIMITS.knizia) */
export const CAPI_LIMITS = { schacht: 2000, duvelen: 2000, knizia: 400 };

const MASK = (1n << 64n) - 1n;

/**
 * Plays `game` from `seed` as the C test does: each move by the lowest pending seat, the
 * legal action x = x * 6364136223846793005 + 1442695040888963407 (mod 2**64) picks at
 * (x >> 33) % n, even moves applied by id and odd ones by their notation. `onMove(state,
 * seat, action)` runs before each move. Returns the number of moves and the final state
 * (the caller frees it).
 *
 * @param {import("../diabolo.mjs").Game} game
 * @param {bigint} seed
 * @param {number} limit
 * @param {(state: import("../diabolo.mjs").State, seat: number, action: number) => void} [onMove]
 * @returns {{moves: number, state: import("../diabolo.mjs").State}}
 *
 * @example
 * const { moves, state } = replay(game, 2n, 2000);
 */
export function replay(game, seed, limit, onMove = () => {}) {
    const state = game.newState(seed);
    let x = seed;
    let moves = 0;
    while (!state.isTerminal && moves < limit) {
        const seat = state.pendingSeats[0];
        const legal = state.legalActions(seat);
        x = (x * 6364136223846793005n + 1442695040888963407n) & MASK;
        const action = legal[Number((x >> 33n) % BigInt(legal.length))];
        onMove(state, seat, action);
        state.apply(seat, moves % 2 === 0 ? action : game.actionNotation(action));
        moves += 1;
    }
    return { moves, state };
}

/**
 * Where the module's heap has its free top: the address malloc gives a block too large for
 * any freed hole. Memory that stays allocated (a leak) pushes it up.
 *
 * @example
 * const top = heapTop(engine.module);
 */
export function heapTop(module) {
    const pointer = module._malloc(1 << 20);
    module._free(pointer);
    return pointer;
}

/**
 * Runs `cycle(i)` 10 times, so that the heap reaches its working size, then 300 times more,
 * and fails unless the heap's top and the module's memory stayed where they were.
 *
 * @example
 * assertHeapSteady(engine.module, (seed) => game.newState(seed).free());
 */
export function assertHeapSteady(module, cycle) {
    for (let i = 0; i < 10; ++i) cycle(i);
    const memory = module.HEAPU8.length;
    const top = heapTop(module);
    for (let i = 0; i < 300; ++i) cycle(i);
    assert.ok(heapTop(module) <= top, `the heap's top moved from ${top} to ${heapTop(module)}`);
    assert.equal(module.HEAPU8.length, memory);
}
