// Through JavaScript the engine does what it does through Python: tests/test_wasm.py writes
// Python's results to the file DIABOLO_PYTHON_RESULTS names, and these tests play the same
// cases through the JS API: the seeded games of the C test (cpp/tests/capi/test_capi.c,
// tests/capi_replay.py), its random batches, given deals, a word list's binary form and
// the bots' choices.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { CAPI_GAMES, CAPI_LIMITS, loadEngine, replay } from "../testkit/helpers.mjs";

const expectedFile = process.env.DIABOLO_PYTHON_RESULTS;
const skip = expectedFile ? false : "DIABOLO_PYTHON_RESULTS names no file of Python's results (tests/test_wasm.py)";
const expected = expectedFile ? JSON.parse(readFileSync(expectedFile, "utf8")) : {};
const engine = await loadEngine();

/** The games of test_capi.c's batch() calls. */
const BATCH_GAMES = { schacht: {}, duvelen: { players: 3, max_actions: 500 }, knizia: CAPI_GAMES.knizia };

test("the C test's seeded games end in the same state text as in Python", { skip }, () => {
    assert.equal(expected.games.length, 9);
    for (const { name, seed, moves, state: text } of expected.games) {
        const game = engine.load(name, CAPI_GAMES[name]);
        const { moves: played, state } = replay(game, BigInt(seed), CAPI_LIMITS[name]);
        assert.equal(played, moves, `${name} seed ${seed}`);
        assert.equal(state.toJSON(), text, `${name} seed ${seed}`);
        state.free();
        game.free();
    }
});

test("the C test's batches of random games score as in Python", { skip }, () => {
    assert.equal(expected.batches.length, 3);
    for (const { name, games, seed, scores, moves } of expected.batches) {
        const game = engine.load(name, BATCH_GAMES[name]);
        const result = game.playRandom(games, seed);
        assert.deepEqual([...result.scores], scores, name);
        assert.deepEqual([...result.moves], moves, name);
        game.free();
    }
});

test("a given deal deals as in Python", { skip }, () => {
    assert.equal(expected.deals.length, 3);
    for (const { name, seed, deal, state: text } of expected.deals) {
        const game = engine.load(name, CAPI_GAMES[name]);
        const state = game.newState(seed, deal);
        assert.equal(state.toJSON(), text, name);
        assert.notEqual(game.newState(seed).toJSON(), text, `${name}: the deal made a difference`);
        state.free();
        game.free();
    }
});

test("a Knizia game from the word list's bytes plays as from its words", { skip }, () => {
    const { lexicon, ...options } = CAPI_GAMES.knizia;
    const bytes = Buffer.from(expected.lexicon, "base64");
    const fromBytes = engine.load("knizia", options, { lexicon: new Uint8Array(bytes) });
    const fromWords = engine.load("knizia", { ...options, lexicon });
    assert.equal(fromBytes.numActions, fromWords.numActions);
    assert.deepEqual(fromBytes.options, fromWords.options);
    for (const { name, seed, moves, state: text } of expected.games.filter((g) => g.name === "knizia")) {
        const { moves: played, state } = replay(fromBytes, BigInt(seed), CAPI_LIMITS[name]);
        assert.deepEqual([played, state.toJSON()], [moves, text], `seed ${seed}`);
        state.free();
    }
    fromBytes.free();
    fromWords.free();
});

test("each bot chooses the move Python's bot chooses, with the same delay", { skip }, () => {
    assert.ok(expected.bots.length >= 40);
    const waits = { schacht: 0, duvelen: 0, knizia: 0 };
    for (const { name, kind, options, at, player, seed, notation, delay } of expected.bots) {
        const game = engine.load(name, CAPI_GAMES[name]);
        const bot = game.bot(kind, options);
        const { state } = replay(game, 1n, at);
        const what = `${name} ${kind} at move ${at}, seat ${player}`;
        const choice = bot.choose(state, player, seed);
        if (notation === null) {
            assert.equal(choice, null, what);
            waits[name] += 1;
        } else {
            assert.equal(choice?.notation, notation, what);
            assert.ok(Math.abs(choice.delay - delay) < 1e-6, `${what}: delay ${choice.delay}, Python ${delay}`);
            assert.equal(choice.delayUs, Math.round(delay * 1e6), what);
            assert.deepEqual(bot.choose(state, player, seed), choice, `${what}: the seed decides`);
            if (name !== "knizia") {
                // The action id is the same move as the notation (a Knizia claim's id is its
                // word's, whose cards may differ).
                const byId = state.clone();
                const byNotation = state.clone();
                byId.apply(player, choice.action);
                byNotation.apply(player, choice.notation);
                assert.equal(byId.toJSON(), byNotation.toJSON(), what);
                byId.free();
                byNotation.free();
            }
        }
        state.free();
        bot.free();
        game.free();
    }
    assert.ok(waits.duvelen + waits.knizia > 0, "some real-time bot waited");
});
