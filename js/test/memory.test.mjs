// No memory growth: games and states created and freed many times, with every call that
// returns text or takes a buffer, leave the WebAssembly heap where it was.
import assert from "node:assert/strict";
import { test } from "node:test";

import { SPECTATOR } from "../diabolo.mjs";
import { assertHeapSteady, CAPI_GAMES, heapTop, loadEngine, replay } from "../testkit/helpers.mjs";

const engine = await loadEngine();
const m = engine.module;

/** Every kind of call once, on each game; everything made is freed. */
function cycle(seed) {
    for (const [name, options] of Object.entries(CAPI_GAMES)) {
        const game = engine.load(name, options);
        const { state } = replay(game, BigInt(seed), 25, (s, seat) => {
            s.legalMask(seat);
            s.scores();
        });
        const seat = state.pendingSeats[0] ?? 0;
        state.observation(seat);
        state.publicObservation();
        state.events(seat);
        state.legalMoves(seat);
        assert.equal(typeof game.options, "object");
        game.actionNotation(0);
        const loaded = game.stateFromJSON(state.toJSON());
        const copy = loaded.clone();
        const guess = copy.resample(seat, seed);
        game.playRandom(1, seed);
        const bot = game.bot(game.bots[0]);
        bot.choose(state, seat, seed);
        for (const refusal of [
            () => state.apply(seat, "not a move"),
            () => state.apply(game.players, 0),
            () => state.observation(-3),
            () => game.stateFromJSON("{}"),
            () => game.newState(-1),
            () => engine.load(name, { players: 99 }),
            () => engine.load(name, options, { lexicon: new Uint8Array(64) }),
            () => game.newState(seed, { deck: ["?"] }),
            () => game.bot("genius"),
        ]) {
            assert.throws(refusal);
        }
        assert.ok(state.eventsJSON(SPECTATOR).startsWith("["));
        for (const made of [state, loaded, copy, guess, bot, game]) made.free();
    }
    const schacht = engine.load("schacht", { players: 3 });
    const shuffled = schacht.newState(seed);
    const { hands, pile } = JSON.parse(shuffled.toJSON());
    schacht.newState(seed, { deck: hands.flat().concat(pile) }).free();
    shuffled.free();
    schacht.free();
}

test("many games and states created and freed leave the heap where it was", () => {
    assertHeapSteady(m, cycle);
});

test("the check sees a leak: states that are not freed push the heap's top up", () => {
    const game = engine.load("schacht", { players: 3 });
    const top = heapTop(m);
    const kept = [];
    for (let i = 0; i < 300; ++i) kept.push(game.newState(i));
    assert.ok(heapTop(m) > top);
    for (const state of kept) state.free();
    assert.ok(heapTop(m) <= top);
    game.free();
});
