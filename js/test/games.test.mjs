// Seeded random games of every game through the JS API: at every move the seats, legal
// actions, mask, version, views and events agree with one another.
import assert from "node:assert/strict";
import { test } from "node:test";

import { SIMULTANEOUS, TERMINAL } from "../diabolo.mjs";
import { CAPI_GAMES, loadEngine, replay } from "../testkit/helpers.mjs";

const engine = await loadEngine();

const SETUPS = [
    ["schacht", { players: 3 }, 2000],
    ["schacht", { players: 4 }, 2000],
    ["schacht", { players: 5 }, 2000],
    ["duvelen", { players: 2, max_actions: 400 }, 2000],
    ["duvelen", { players: 4, max_actions: 400 }, 2000],
    ["knizia", CAPI_GAMES.knizia, 300],
];

/** The checks made before each move of a game. */
function checkMove(game, state, seat, action, moves) {
    const seats = state.pendingSeats;
    assert.ok(seats.length > 0 && seats.every((s, i) => s >= 0 && s < game.players && (i === 0 || s > seats[i - 1])));
    assert.equal(seat, seats[0]);
    const current = state.currentPlayer;
    assert.ok(current === SIMULTANEOUS || (current === seat && seats.length === 1), `current player ${current}`);
    assert.equal(game.realTime, game.name !== "schacht"); // in real time no seat has the turn (D3, K3.2)
    assert.ok(!game.realTime || current === SIMULTANEOUS);
    assert.equal(state.version, moves);
    const legal = state.legalActions(seat);
    assert.ok(legal instanceof Int32Array && legal.length > 0 && legal.includes(action));
    assert.ok(legal.every((id, i) => id >= 0 && id < game.numActions && (i === 0 || id > legal[i - 1])));
    const mask = state.legalMask(seat);
    assert.equal(mask.length, game.numActions);
    assert.deepEqual(
        [...mask.keys()].filter((id) => mask[id] === 1),
        [...legal],
    );
    if (moves % 11 === 0) {
        const view = state.observation(seat);
        assert.equal(view.player, seat);
        const listed = state.legalMoves(seat);
        assert.equal(listed.length, legal.length);
        for (const { notation, move } of listed) {
            assert.equal(typeof notation, "string");
            assert.equal(typeof move.kind, "string");
            const copy = state.clone();
            copy.apply(seat, notation); // every listed move is legal
            copy.free();
        }
        const spectator = state.publicObservation();
        assert.ok(!("legal" in spectator) && !("hand" in spectator));
        assert.ok(Array.isArray(state.events(seat)) && Array.isArray(state.publicEvents()));
    }
}

for (const [name, options, limit] of SETUPS) {
    test(`${name} with ${options.players} players: seeded random games agree with themselves`, () => {
        const game = engine.load(name, options);
        assert.equal(game.players, options.players);
        for (const seed of [1n, 7n, (1n << 63n) + 5n]) {
            const { moves, state } = replay(game, seed, limit, (s, seat, action) =>
                checkMove(game, s, seat, action, s.version),
            );
            assert.ok(moves > 0);
            assert.equal(state.version, moves);
            if (name !== "knizia") assert.ok(state.isTerminal, `${name} seed ${seed} ends within ${limit} moves`);
            if (state.isTerminal) {
                assert.equal(state.currentPlayer, TERMINAL);
                assert.deepEqual(state.pendingSeats, []);
                assert.equal(state.legalActions(0).length, 0);
            }
            const scores = state.scores();
            assert.ok(scores instanceof Int32Array && scores.length === game.players);
            // The same seed plays the same game.
            const again = replay(game, seed, limit);
            assert.equal(again.moves, moves);
            assert.equal(again.state.toJSON(), state.toJSON());
            again.state.free();
            state.free();
        }
        game.free();
    });
}

test("different seeds deal differently, and a seed is the same as a number or a bigint", () => {
    const game = engine.load("schacht", { players: 4 });
    const [a, b, c] = [game.newState(5), game.newState(5n), game.newState(6)];
    assert.equal(a.toJSON(), b.toJSON());
    assert.notEqual(a.toJSON(), c.toJSON());
    for (const state of [a, b, c]) state.free();
    game.free();
});

test("playRandom: whole random games, the same for the same seed", () => {
    for (const [name, options] of SETUPS) {
        const game = engine.load(name, options);
        const one = game.playRandom(5, 42);
        const two = game.playRandom(5, 42n);
        assert.ok(one.scores instanceof Int32Array && one.moves instanceof Int32Array);
        assert.equal(one.scores.length, 5 * game.players);
        assert.equal(one.moves.length, 5);
        assert.ok(one.moves.every((n) => n > 0));
        assert.deepEqual(one, two);
        assert.notDeepEqual(game.playRandom(5, 43), one);
        assert.deepEqual(game.playRandom(0, 1), { scores: new Int32Array(0), moves: new Int32Array(0) });
        game.free();
    }
});
