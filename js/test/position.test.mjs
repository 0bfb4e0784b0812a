// Positions, for search: a position follows its state move by move to the end (the same
// seats, legal ids, scores and tensors), refuses what the state refuses and then is
// unchanged, resamples as the state does, copies only positions of its game, and frees
// all it takes.
import assert from "node:assert/strict";
import { test } from "node:test";
import { isDeepStrictEqual } from "node:util";

import {
    DiaboloError,
    IllegalMoveError,
    NotationError,
    OptionError,
    PlayerError,
    Position,
    Status,
    TERMINAL,
} from "../diabolo.mjs";
import { assertHeapSteady, CAPI_GAMES, heapTop, loadEngine } from "../testkit/helpers.mjs";

const engine = await loadEngine();
const m = engine.module;

const MASK = (1n << 64n) - 1n;

/**
 * Plays `game` from `seed` to its end: each move by a pending seat and one of its legal
 * actions, both drawn from x = x * 6364136223846793005 + 1442695040888963407 (mod 2**64)
 * (any pending seat, not the lowest as helpers.mjs's replay: so Knizia ends, through
 * every round). `onMove(state, seat, action)` runs before each move; the caller frees the
 * state.
 */
function play(game, seed, onMove = () => {}) {
    const state = game.newState(seed);
    let x = seed;
    while (!state.isTerminal) {
        x = (x * 6364136223846793005n + 1442695040888963407n) & MASK;
        const seats = state.pendingSeats;
        const seat = seats[Number((x >> 40n) % BigInt(seats.length))];
        const legal = state.legalActions(seat);
        const action = legal[Number((x >> 33n) % BigInt(legal.length))];
        onMove(state, seat, action);
        state.apply(seat, action);
    }
    return state;
}

/** Every seat's observation tensor. */
function tensors(table) {
    return Array.from({ length: table.game.players }, (_, seat) => table.observationTensor(seat));
}

/** What a position shows: its seats, every seat's legal ids and tensor, its scores. */
function snapshot(position) {
    const seats = [...Array(position.game.players).keys()];
    return {
        currentPlayer: position.currentPlayer,
        pendingSeats: position.pendingSeats,
        isTerminal: position.isTerminal,
        legal: seats.map((seat) => position.legalActions(seat)),
        scores: position.scores(),
        tensors: tensors(position),
    };
}

/**
 * Plays up to `count` seeded moves, drawn from `lead`'s seats and legal ids as `play`
 * draws them, on `lead` and on each follower still alike to it; for each follower, whether
 * it showed what `lead` showed (its snapshot) before and after every move.
 */
function alikeAhead(lead, followers, seed, count) {
    const alike = followers.map(() => true);
    let x = BigInt(seed);
    for (let move = 0; ; ++move) {
        const shown = snapshot(lead);
        for (const [i, follower] of followers.entries()) alike[i] &&= isDeepStrictEqual(snapshot(follower), shown);
        if (move === count || shown.isTerminal) return alike;
        x = (x * 6364136223846793005n + 1442695040888963407n) & MASK;
        const seat = shown.pendingSeats[Number((x >> 40n) % BigInt(shown.pendingSeats.length))];
        const legal = shown.legal[seat];
        const action = legal[Number((x >> 33n) % BigInt(legal.length))];
        lead.apply(seat, action);
        for (const [i, follower] of followers.entries()) if (alike[i]) follower.apply(seat, action);
    }
}

/** Asserts that `call` throws `Class` with these fields and leaves `position` as it was. */
function refused(position, call, Class, fields) {
    const before = snapshot(position);
    assert.throws(call, (error) => {
        assert.ok(error instanceof Class && error instanceof DiaboloError, String(error));
        for (const [key, value] of Object.entries(fields)) assert.equal(error[key], value, key);
        return true;
    });
    assert.deepEqual(snapshot(position), before);
}

test("a position follows its state move by move to the end of every game", () => {
    for (const [name, options] of Object.entries(CAPI_GAMES)) {
        const game = engine.load(name, options);
        for (const seed of [1n, 2n]) {
            let position = null;
            let moves = 0;
            const state = play(game, seed, (s, seat, action) => {
                if (position === null) position = s.position();
                assert.ok(position instanceof Position && position.game === game);
                assert.equal(position.currentPlayer, s.currentPlayer);
                assert.deepEqual(position.pendingSeats, s.pendingSeats);
                assert.equal(position.isTerminal, false);
                for (let player = 0; player < game.players; ++player) {
                    assert.deepEqual(position.legalActions(player), s.legalActions(player), `${name} seat ${player}`);
                }
                assert.deepEqual(position.scores(), s.scores());
                if (moves % 7 === 0) assert.deepEqual(tensors(position), tensors(s), `${name} move ${moves}`);
                position.apply(seat, action);
                moves += 1;
            });
            assert.ok(moves > 0 && state.isTerminal);
            assert.equal(position.isTerminal, true, `${name} seed ${seed} ends as its state`);
            assert.equal(position.currentPlayer, TERMINAL);
            assert.deepEqual(position.pendingSeats, []);
            assert.deepEqual(position.scores(), state.scores());
            assert.deepEqual(tensors(position), tensors(state));
            const fresh = state.position();
            assert.deepEqual(snapshot(fresh), snapshot(position));
            for (const made of [fresh, position, state]) made.free();
        }
        game.free();
    }
});

test("a position refuses an illegal id, an id out of range and a bad seat as its state does, unchanged", () => {
    for (const [name, options] of Object.entries(CAPI_GAMES)) {
        const game = engine.load(name, options);
        const start = game.newState(3);
        const position = start.position();
        let checked = 0;
        let takenOffList = 0;
        const end = play(game, 3n, (state, seat, action) => {
            if (state.version % 9 === 0) {
                // An id off the legal list that the state refuses (a Knizia claim off the
                // list is a false claim the rules take and penalise: the position takes it alike).
                const legal = new Set(position.legalActions(seat));
                const illegal = [...Array(game.numActions).keys()].filter((id) => !legal.has(id));
                let id;
                let expected = null;
                for (let i = 0; expected === null; ++i) {
                    id = illegal[(state.version + i) % illegal.length];
                    const copy = state.clone();
                    try {
                        copy.apply(seat, id);
                        const trial = position.clone();
                        trial.apply(seat, id);
                        const after = copy.position();
                        assert.deepEqual(snapshot(trial), snapshot(after));
                        for (const made of [after, trial]) made.free();
                        takenOffList += 1;
                    } catch (error) {
                        expected = error;
                    }
                    copy.free();
                }
                assert.ok(expected instanceof IllegalMoveError, String(expected));
                refused(position, () => position.apply(seat, id), IllegalMoveError, {
                    status: expected.status,
                    code: expected.code,
                    clause: expected.clause,
                    message: expected.message,
                });
                for (const outside of [game.numActions, -1]) {
                    refused(position, () => position.apply(seat, outside), NotationError, {
                        status: Status.BAD_NOTATION,
                        code: "bad_notation",
                    });
                }
                for (const bad of [game.players, -1]) {
                    const badPlayer = { status: Status.BAD_PLAYER, code: "bad_player" };
                    refused(position, () => position.apply(bad, action), PlayerError, badPlayer);
                    refused(position, () => position.legalActions(bad), PlayerError, badPlayer);
                    refused(position, () => position.observationTensor(bad), PlayerError, badPlayer);
                    refused(position, () => position.resampleFrom(position, bad, 1), PlayerError, badPlayer);
                }
                assert.throws(() => position.apply(seat, game.actionNotation(action)), TypeError); // ids only
                assert.throws(() => position.apply(seat, 0.5), TypeError);
                checked += 1;
            }
            position.apply(seat, action); // and it still plays on as the state
        });
        assert.ok(checked > 3 && position.isTerminal, name);
        assert.equal(takenOffList > 0, name === "knizia", name);
        const last = end.position();
        assert.deepEqual(snapshot(position), snapshot(last));
        for (const made of [last, end, position, start]) made.free();
        game.free();
    }
});

test("resampleFrom gives the position of state.resample, into another position or itself", () => {
    for (const [name, options] of Object.entries(CAPI_GAMES)) {
        const game = engine.load(name, options);
        const start = game.newState(0);
        const trial = start.position();
        let redealt = 0;
        play(game, 4n, (state) => {
            if (state.version % 10 !== 0) return;
            const position = state.position();
            const before = snapshot(position);
            for (let player = 0; player < game.players; ++player) {
                const seed = 1000n + BigInt(state.version + player);
                const guess = state.resample(player, seed);
                const expected = guess.position();
                trial.resampleFrom(position, player, seed);
                const self = position.clone();
                self.resampleFrom(self, player, Number(seed));
                assert.deepEqual(snapshot(trial), snapshot(expected), `${name} seat ${player}`);
                assert.deepEqual(snapshot(self), snapshot(expected));
                assert.deepEqual(trial.observationTensor(player), before.tensors[player]); // the seat sees the same
                // They play on alike; the position they were dealt from, at some time, not.
                const reference = position.clone();
                const [same, unchanged] = alikeAhead(expected, [trial, reference], seed, 20);
                assert.ok(same, `${name} seat ${player}: the resampled positions play on alike`);
                if (!unchanged) redealt += 1;
                for (const made of [reference, self, expected, guess]) made.free();
            }
            assert.deepEqual(snapshot(position), before); // the source is unchanged
            position.free();
        }).free();
        assert.ok(redealt > 0, `${name}: resampling changed what some seat cannot see`);
        assert.throws(() => trial.resampleFrom(trial, 0, -1), OptionError); // a bad seed
        trial.free();
        start.free();
        game.free();
    }
});

test("clone and copyFrom make independent copies; copyFrom across games is an OptionError", () => {
    const games = Object.entries(CAPI_GAMES).map(([name, options]) => engine.load(name, options));
    const states = games.map((game) => game.newState(5));
    const positions = states.map((state) => state.position());
    for (const [i, position] of positions.entries()) {
        const before = snapshot(position);
        const copy = position.clone();
        assert.deepEqual(snapshot(copy), before);
        const seat = copy.pendingSeats[0];
        copy.apply(seat, copy.legalActions(seat)[0]);
        assert.deepEqual(snapshot(position), before);
        const played = snapshot(copy);
        copy.copyFrom(position);
        assert.deepEqual(snapshot(copy), before);
        position.copyFrom(position); // itself: nothing changes
        assert.deepEqual(snapshot(position), before);
        const other = positions[(i + 1) % positions.length];
        const badOption = { status: Status.BAD_OPTION, code: "bad_option" };
        refused(position, () => position.copyFrom(other), OptionError, badOption);
        refused(position, () => position.resampleFrom(other, 0, 1), OptionError, badOption);
        assert.throws(() => position.copyFrom(states[i]), TypeError); // a state is no position
        copy.apply(seat, copy.legalActions(seat)[0]);
        assert.deepEqual(snapshot(copy), played);
        copy.free();
    }
    // A position of another load of the same game copies, and takes that game.
    const again = engine.load("schacht", CAPI_GAMES.schacht);
    const theirs = again.newState(9).position();
    const schacht = positions[games.findIndex((game) => game.name === "schacht")];
    schacht.copyFrom(theirs);
    assert.equal(schacht.game, again);
    assert.deepEqual(snapshot(schacht), snapshot(theirs));
    for (const made of [theirs, again, ...positions, ...states, ...games]) made.free();
});

test("a freed position refuses every use; a position outlives its state and game", () => {
    const game = engine.load("duvelen", CAPI_GAMES.duvelen);
    const state = game.newState(2);
    const position = state.position();
    const expected = snapshot(position);
    state.free();
    game.free();
    assert.deepEqual(snapshot(position), expected);
    const copy = position.clone();
    const seat = copy.pendingSeats[0];
    copy.apply(seat, copy.legalActions(seat)[0]);
    position.free();
    position.free(); // twice is harmless
    for (const use of [
        () => position.isTerminal,
        () => position.pendingSeats,
        () => position.legalActions(0),
        () => position.apply(0, 0),
        () => position.scores(),
        () => position.clone(),
        () => position.copyFrom(copy),
        () => copy.copyFrom(position),
        () => copy.resampleFrom(position, 0, 1),
    ]) {
        assert.throws(use, /position was freed/);
    }
    assert.throws(() => state.position(), /state was freed/);
    assert.equal(copy.isTerminal, false);
    copy.free();
});

test("many positions created, played, copied and freed leave the heap where it was", () => {
    const games = Object.entries(CAPI_GAMES).map(([name, options]) => engine.load(name, options));
    const states = games.map((game) => game.newState(1));
    const others = states.map((_, i) => states[(i + 1) % states.length].position()); // of another game
    const cycle = (seed) => {
        for (const [i, game] of games.entries()) {
            const state = game.newState(seed);
            const position = state.position();
            const copy = position.clone();
            const seat = copy.pendingSeats[0];
            for (let move = 0; move < 20 && !copy.isTerminal; ++move) {
                const next = copy.pendingSeats[0];
                copy.apply(next, copy.legalActions(next)[0]);
            }
            copy.scores();
            copy.observationTensor(seat);
            copy.resampleFrom(position, seat, seed);
            copy.resampleFrom(copy, seat, seed + 1);
            copy.copyFrom(position);
            for (const refusal of [
                () => copy.apply(seat, game.numActions),
                () => copy.apply(game.players, 0),
                () => copy.copyFrom(others[i]),
                () => copy.resampleFrom(position, -1, 0),
            ]) {
                assert.throws(refusal, DiaboloError);
            }
            for (const made of [copy, position, state]) made.free();
        }
    };
    assertHeapSteady(m, cycle);
    for (const made of [...others, ...states, ...games]) made.free();
});

test("the check sees a leak: positions that are not freed push the heap's top up", () => {
    const game = engine.load("schacht", { players: 3 });
    const state = game.newState(1);
    const top = heapTop(m);
    const kept = [];
    for (let i = 0; i < 300; ++i) kept.push(state.position());
    assert.ok(heapTop(m) > top);
    for (const position of kept) position.free();
    assert.ok(heapTop(m) <= top);
    state.free();
    game.free();
});
