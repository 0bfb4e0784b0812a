// Bots through the JS API: every kind of every game plays, a seat with nothing to do gets
// null, bad kinds, options, seats and states are refused.
import assert from "node:assert/strict";
import { test } from "node:test";

import { OptionError, PlayerError, Status } from "../diabolo.mjs";
import { CAPI_GAMES, loadEngine } from "../testkit/helpers.mjs";

const engine = await loadEngine();

/**
 * Plays `game` with `bots` (one per seat) as live play does: each pending seat's bot
 * proposes a move with its delay, and the earliest proposal is applied. Returns the state.
 */
function playWithBots(game, bots, seed, limit) {
    const state = game.newState(seed);
    let draw = 0;
    while (!state.isTerminal && state.version < limit) {
        let first = null;
        for (const seat of state.pendingSeats) {
            draw += 1;
            const choice = bots[seat].choose(state, seat, draw);
            if (choice !== null && (first === null || choice.delay < first.delay)) first = { seat, ...choice };
        }
        assert.ok(first !== null, `someone acts at move ${state.version}`);
        state.apply(first.seat, first.notation);
    }
    return state;
}

test("each game names its bots", () => {
    const kinds = {};
    for (const [name, options] of Object.entries(CAPI_GAMES)) {
        const game = engine.load(name, options);
        kinds[name] = game.bots;
        game.free();
    }
    assert.deepEqual(kinds, {
        schacht: ["heuristic", "ismcts", "learned", "random"],
        duvelen: ["greedy", "lookahead", "random", "search"],
        knizia: ["lookahead", "random", "search", "word"],
    });
});

test("bots of every kind play whole games", () => {
    for (const [name, options] of Object.entries(CAPI_GAMES)) {
        const game = engine.load(name, options);
        for (const kind of game.bots) {
            // The searches with a small budget: every seat asks at every move.
            const light = { ismcts: { iterations: 30 }, search: name === "duvelen" ? { worlds: 8 } : {} };
            const bots = Array.from({ length: game.players }, () => game.bot(kind, light[kind] ?? {}));
            const limit = name === "knizia" ? 150 : 3000;
            const state = playWithBots(game, bots, 11, limit);
            assert.ok(state.isTerminal || (name === "knizia" && state.version === limit), `${name} ${kind}`);
            assert.equal(bots[0].kind, kind);
            for (const bot of bots) bot.free();
            state.free();
        }
        game.free();
    }
});

test("a Schacht bot of a seat whose turn it is not waits; a real-time bot acts after a delay", () => {
    const schacht = engine.load("schacht", { players: 3 });
    const state = schacht.newState(1);
    const bot = schacht.bot("heuristic");
    assert.equal(bot.choose(state, 0, 1), null);
    const choice = bot.choose(state, 1, 1);
    assert.ok(state.legalActions(1).includes(choice.action) && choice.delay === 0);
    const duvelen = engine.load("duvelen", { players: 2 });
    const table = duvelen.newState(1);
    const greedy = duvelen.bot("greedy").choose(table, 0, 1n);
    assert.ok(greedy.delay > 0 && typeof greedy.notation === "string");
    for (const made of [state, bot, schacht, table, duvelen]) made.free();
});

test("bad kinds, options, seats and states are refused", () => {
    const game = engine.load("schacht", { players: 3 });
    const state = game.newState(1);
    assert.throws(
        () => game.bot("genius"),
        (e) => e instanceof OptionError && /heuristic,ismcts,learned,random/.test(e.message),
    );
    assert.throws(() => game.bot("ismcts", { iterations: 0 }), OptionError);
    assert.throws(() => game.bot("random", { iterations: 5 }), OptionError);
    assert.throws(() => game.bot(3), TypeError);
    const bot = game.bot("random");
    assert.throws(
        () => bot.choose(state, 3, 1),
        (e) => e instanceof PlayerError && e.status === Status.BAD_PLAYER,
    );
    assert.throws(() => bot.choose(state, 1, -1), OptionError);
    assert.throws(() => bot.choose(state.toJSON(), 1, 1), TypeError);
    const other = engine.load("duvelen").newState(1);
    assert.throws(
        () => bot.choose(other, 0, 1),
        (e) => e instanceof OptionError && /schacht/.test(e.message),
    );
    // The WebAssembly build has no threads: a search on several is refused, and says why.
    assert.throws(
        () => game.bot("ismcts", { iterations: 10, threads: 2 }),
        (e) => e instanceof OptionError && /threads must be 1\.\.1/.test(e.message),
    );
    game.free();
    assert.ok(bot.choose(state, 1, 1) !== null, "a bot outlives its game");
    bot.free();
    bot.free();
    assert.throws(() => bot.choose(state, 1, 1), /freed/);
    for (const made of [state, other]) made.free();
});
