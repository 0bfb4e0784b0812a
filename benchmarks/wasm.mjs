#!/usr/bin/env node
/**
 * The WebAssembly build in Node: its size, and random games per second through the JS API
 * (js/diabolo.mjs) two ways, with their ratio measured in the same run:
 *
 *   (a) a JavaScript loop over the API: legalActions + apply per move, as benchmarks/bench.py's
 *       Python loop plays (Schacht: the seat to move, or the lowest pending seat; Duvelen and
 *       Knizia: a uniformly random seat makes a uniformly random legal move, if it has one);
 *   (b) game.playRandom: the C++ batch player inside the module (one thread: the build has
 *       no threads).
 *
 * Usage (from the repository root, after `bash tools/build-wasm.sh build/wasm`):
 *
 *   node benchmarks/wasm.mjs [--seconds 2] [--players 4] [--wasm-dir build/wasm] [--json]
 *
 * Knizia plays with the tests' word list of 17 words and 24 cards (js/testkit/helpers.mjs),
 * 3 players. The Python loop for comparison is `python benchmarks/bench.py schacht` (and
 * duvelen). Run by hand only: timings depend on the machine and its load.
 *
 * @example
 * node benchmarks/wasm.mjs --seconds 1 --json
 */
import { readFileSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

import { loadDiabolo, SIMULTANEOUS } from "../js/diabolo.mjs";
import { CAPI_GAMES } from "../js/testkit/helpers.mjs";

const root = path.resolve(fileURLToPath(new URL("..", import.meta.url)));

/** The command line's options. */
function parseArguments(argv) {
    const options = { seconds: 2, players: 4, wasmDir: path.join(root, "build", "wasm"), json: false };
    for (let i = 0; i < argv.length; ++i) {
        const flag = argv[i];
        if (flag === "--json") options.json = true;
        else if (flag === "--seconds") options.seconds = Number(argv[++i]);
        else if (flag === "--players") options.players = Number(argv[++i]);
        else if (flag === "--wasm-dir") options.wasmDir = path.resolve(argv[++i]);
        else throw new Error(`unknown argument ${flag}; see the usage at the top of benchmarks/wasm.mjs`);
    }
    if (!(options.seconds > 0) || !Number.isInteger(options.players)) throw new Error("bad --seconds or --players");
    return options;
}

/** A small fast generator for the loop's choices (xorshift32): its cost is not the API's. */
function generator(seed) {
    let x = seed >>> 0 || 1;
    return (n) => {
        x ^= x << 13;
        x >>>= 0;
        x ^= x >>> 17;
        x ^= x << 5;
        x >>>= 0;
        return x % n;
    };
}

/** (a) One random game through the JS API, as bench.py's Python loop plays; its moves. */
function apiGame(game, seed, pick, realtime) {
    const state = game.newState(seed);
    let moves = 0;
    while (!state.isTerminal) {
        let seat;
        if (realtime) seat = pick(game.players);
        else seat = state.currentPlayer === SIMULTANEOUS ? state.pendingSeats[0] : state.currentPlayer;
        const legal = state.legalActions(seat);
        if (legal.length > 0) {
            state.apply(seat, legal[pick(legal.length)]);
            moves += 1;
        }
    }
    state.free();
    return moves;
}

/**
 * Games, moves and seconds of `playOne` run for about `budget` seconds: one game at least,
 * so that a machine slower than the budget still has a figure (not 0 / 0).
 */
function timeGames(playOne, budget) {
    const start = performance.now();
    let games = 0;
    let moves = 0;
    do {
        moves += playOne(games);
        games += 1;
    } while ((performance.now() - start) / 1000 < budget);
    return { games, moves, seconds: (performance.now() - start) / 1000 };
}

/** (b) game.playRandom in batches for about `budget` seconds, one batch at least (as timeGames). */
function timeBatches(game, budget) {
    let batch = 1;
    const start = performance.now();
    let games = 0;
    let moves = 0;
    let seed = 0;
    do {
        seed += 1;
        const result = game.playRandom(batch, seed);
        games += batch;
        moves += result.moves.reduce((sum, n) => sum + n, 0);
        batch = Math.min(batch * 2, 256);
    } while ((performance.now() - start) / 1000 < budget);
    return { games, moves, seconds: (performance.now() - start) / 1000 };
}

/** The sizes of the built files, plain and gzipped (what a browser downloads). */
function sizes(wasmDir) {
    const rows = {};
    for (const file of ["diabolo.wasm", "diabolo.mjs"]) {
        const where = path.join(wasmDir, file);
        rows[file] = { bytes: statSync(where).size, gzip: gzipSync(readFileSync(where), { level: 9 }).length };
    }
    return rows;
}

/** The Emscripten version of the build, from the flags stamp tools/build-wasm.sh writes. */
function compilerOf(wasmDir) {
    try {
        const stamp = readFileSync(path.join(wasmDir, "obj", "flags"), "utf8");
        return `Emscripten ${stamp.match(/\) (\d+\.\d+\.\d+)/)?.[1] ?? "?"}`;
    } catch {
        return "unknown";
    }
}

const options = parseArguments(process.argv.slice(2));
const engine = await loadDiabolo({ module: path.join(options.wasmDir, "diabolo.mjs") });
const compiler = compilerOf(options.wasmDir);
const report = {
    machine: {
        cpu: os.cpus()[0]?.model ?? "unknown",
        cores: os.cpus().length,
        node: process.version,
        compiler,
        diabolo: engine.version,
        load_average: os.loadavg()[0],
    },
    sizes: sizes(options.wasmDir),
    games: {},
};
const setups = [
    ["schacht", { players: options.players }, false],
    ["duvelen", { players: options.players }, true],
    ["knizia", CAPI_GAMES.knizia, true],
];
for (const [name, gameOptions, realtime] of setups) {
    const game = engine.load(name, gameOptions);
    process.stderr.write(`${name}: (a) JS loop over the API\n`);
    const pick = generator(1);
    // Each way runs untimed for a quarter of the budget first: Node compiles WebAssembly at
    // once with its baseline compiler and the optimised code replaces it while the module
    // runs, so the first second of a run measures a mix of both (and the heap grows).
    const warmUp = options.seconds / 4;
    timeGames((i) => apiGame(game, 1 + i, pick, realtime), warmUp);
    const loop = timeGames((i) => apiGame(game, 5000 + i, pick, realtime), options.seconds);
    process.stderr.write(`${name}: (b) game.playRandom\n`);
    timeBatches(game, warmUp);
    const batch = timeBatches(game, options.seconds);
    report.games[name] = { players: game.players, api_loop: loop, play_random: batch };
    game.free();
}

const perSecond = (t) => t.games / t.seconds;
const lines = [
    `diabolo ${report.machine.diabolo} as WebAssembly in Node ${report.machine.node}`,
    `machine: ${report.machine.cpu}, ${report.machine.cores} cores, load ${report.machine.load_average.toFixed(2)}`,
    `built with ${report.machine.compiler}`,
    "",
    "file            bytes      gzip -9",
];
for (const [file, { bytes, gzip }] of Object.entries(report.sizes)) {
    lines.push(`${file.padEnd(14)} ${String(bytes).padStart(9)} ${String(gzip).padStart(10)}`);
}
lines.push("", "random games per second            (a) JS loop   (b) playRandom   (b)/(a)   moves/game");
for (const [name, { players, api_loop: a, play_random: b }] of Object.entries(report.games)) {
    const label = `${name}, ${players} players`.padEnd(32);
    const ratio = perSecond(b) / perSecond(a);
    lines.push(
        `${label} ${perSecond(a).toFixed(0).padStart(12)} ${perSecond(b).toFixed(0).padStart(16)}` +
            ` ${ratio.toFixed(2).padStart(9)} ${(b.moves / b.games).toFixed(1).padStart(12)}`,
    );
}
lines.push(
    "",
    "(a): newState, then legalActions + apply per move (bench.py's Python loop), a JS xorshift",
    `     picking; (b): the C++ batch player in the module, one thread; each run ~${options.seconds} s`,
    `     after ${options.seconds / 4} s untimed.`,
);
console.log(lines.join("\n"));
if (options.json) console.log(JSON.stringify(report));
