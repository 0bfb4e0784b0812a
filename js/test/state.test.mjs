// States as values: clones are independent, the JSON round trip is exact, resampling keeps
// what a seat knows, views and events are JSON of the expected shape.
import assert from "node:assert/strict";
import { test } from "node:test";

import { PlayerError, SPECTATOR } from "../diabolo.mjs";
import { CAPI_GAMES, loadEngine, replay } from "../testkit/helpers.mjs";

const engine = await loadEngine();

test("the engine: version, API version and games", () => {
    assert.match(engine.version, /^\d+\.\d+\.\d+/);
    assert.equal(engine.apiVersion, 1);
    assert.deepEqual(engine.games, ["duvelen", "knizia", "schacht"]);
});

test("a game's options are those given, with every default filled in", () => {
    const game = engine.load("duvelen", { players: 4, max_actions: 500 });
    const options = game.options;
    assert.equal(options.players, 4);
    assert.equal(options.max_actions, 500);
    assert.ok(Object.keys(options).length > 2);
    assert.deepEqual(JSON.parse(game.optionsJSON), options);
    assert.equal(engine.load("schacht").options.players, 4);
    game.free();
});

test("a clone is independent of its original, both ways", () => {
    for (const [name, options] of Object.entries(CAPI_GAMES)) {
        const game = engine.load(name, options);
        const { state } = replay(game, 5n, 30);
        const text = state.toJSON();
        const copy = state.clone();
        assert.equal(copy.toJSON(), text);
        const seat = copy.pendingSeats[0];
        copy.apply(seat, copy.legalActions(seat)[0]);
        assert.equal(state.toJSON(), text);
        assert.equal(copy.version, state.version + 1);
        const copied = copy.toJSON();
        state.apply(seat, state.legalActions(seat).at(-1));
        assert.equal(copy.toJSON(), copied);
        copy.free();
        assert.equal(state.version, 31);
        state.free();
        game.free();
    }
});

test("toJSON and stateFromJSON round trip exactly, and the loaded state plays on alike", () => {
    for (const [name, options] of Object.entries(CAPI_GAMES)) {
        const game = engine.load(name, options);
        replay(game, 8n, 200, (state) => {
            if (state.version % 23 !== 0) return;
            const text = state.toJSON();
            const loaded = game.stateFromJSON(text);
            assert.equal(loaded.toJSON(), text);
            assert.equal(loaded.version, state.version);
            assert.deepEqual(loaded.pendingSeats, state.pendingSeats);
            const seat = state.pendingSeats[0];
            const action = state.legalActions(seat)[0];
            const copy = state.clone();
            copy.apply(seat, action);
            loaded.apply(seat, action);
            assert.equal(loaded.toJSON(), copy.toJSON());
            assert.deepEqual(loaded.events(SPECTATOR), copy.events(SPECTATOR));
            loaded.free();
            copy.free();
        }).state.free();
        game.free();
    }
});

test("resample keeps what the seat sees, depends on the seed alone, and redeals the rest", () => {
    for (const [name, options] of Object.entries(CAPI_GAMES)) {
        const game = engine.load(name, options);
        let redealt = 0;
        replay(game, 4n, 150, (state, seat) => {
            if (state.version % 10 !== 0) return;
            const view = state.observationJSON(seat);
            const guess = state.resample(seat, 1000n + BigInt(state.version));
            const again = state.resample(seat, 1000 + state.version);
            assert.equal(guess.observationJSON(seat), view, `${name}: seat ${seat} sees the same`);
            assert.equal(guess.observationJSON(SPECTATOR), state.observationJSON(SPECTATOR));
            assert.equal(again.toJSON(), guess.toJSON());
            if (guess.toJSON() !== state.toJSON()) redealt += 1;
            guess.free();
            again.free();
        }).state.free();
        assert.ok(redealt > 0, `${name}: resampling changed some hidden cards`);
        game.free();
    }
});

test("views, events and scores are JSON of the expected shape", () => {
    for (const [name, options] of Object.entries(CAPI_GAMES)) {
        const game = engine.load(name, options);
        const { state } = replay(game, 6n, 40);
        const seat = state.pendingSeats[0];
        for (let player = 0; player < game.players; ++player) {
            const view = state.observation(player);
            assert.equal(view.player, player);
            assert.ok(Array.isArray(view.legal) && Array.isArray(view.legal_moves));
            assert.equal(view.legal.length, state.legalActions(player).length);
            assert.deepEqual(JSON.parse(state.observationJSON(player)), view);
            assert.ok(Array.isArray(state.events(player)));
            assert.deepEqual(JSON.parse(state.eventsJSON(player)), state.events(player));
        }
        const spectator = state.publicObservation();
        assert.equal(spectator.player, null);
        assert.ok(!("legal" in spectator));
        const copy = state.clone();
        copy.apply(seat, copy.legalActions(seat)[0]);
        const events = copy.publicEvents();
        assert.ok(events.length > 0 && events.every((event) => typeof event.type === "string"), name);
        assert.deepEqual(copy.events(SPECTATOR), events);
        assert.deepEqual([...state.scores()], state.publicObservation().scores.slice(0, game.players));
        copy.free();
        state.free();
        game.free();
    }
});

test("legalMoves lists the seat's moves with notation and data; each notation plays", () => {
    const game = engine.load("schacht", { players: 3 });
    const state = game.newState(1);
    const moves = state.legalMoves(1);
    assert.deepEqual(moves[0], { notation: "R1<", move: { kind: "place", card: "R1", side: "left" } });
    assert.deepEqual(
        moves.map((m) => m.notation),
        [...state.legalActions(1)].map((id) => game.actionNotation(id)),
    );
    assert.deepEqual(state.legalMoves(0), []);
    state.free();
    game.free();
});

test("the observation tensor has the layout Python gives it, and refuses a seat that does not exist", () => {
    const game = engine.load("schacht", { players: 3 });
    const state = game.newState(4);
    const tensor = state.observationTensor(1);
    assert.ok(tensor instanceof Float32Array);
    assert.equal(tensor.length, 968); // diabolo.load("schacht", players=3).observation_tensor_shape
    assert.ok(tensor.some((x) => x !== 0));
    assert.notDeepEqual(state.observationTensor(0), tensor); // each seat sees its own hand
    assert.throws(() => state.observationTensor(3), PlayerError);
    state.free();
    game.free();
});
