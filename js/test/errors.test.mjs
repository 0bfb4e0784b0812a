// Refusals: each status of the C API throws its own error class with the code and clause,
// and a refused call changes nothing.
import assert from "node:assert/strict";
import { test } from "node:test";

import {
    DiaboloError,
    IllegalMoveError,
    LimitError,
    NotationError,
    OptionError,
    PlayerError,
    SPECTATOR,
    StaleMoveError,
    StateFormatError,
    Status,
} from "../diabolo.mjs";
import { CAPI_GAMES, loadEngine, replay } from "../testkit/helpers.mjs";

const engine = await loadEngine();

/** Asserts that `call` throws `Class` with these fields and leaves `state` as it was. */
function refused(state, call, Class, fields) {
    const before = state.toJSON();
    const version = state.version;
    assert.throws(call, (error) => {
        assert.ok(error instanceof Class && error instanceof DiaboloError && error instanceof Error, String(error));
        assert.equal(error.name, Class.name);
        for (const [key, value] of Object.entries(fields)) {
            if (value instanceof RegExp) assert.match(error[key], value, key);
            else assert.equal(error[key], value, key);
        }
        return true;
    });
    assert.equal(state.toJSON(), before);
    assert.equal(state.version, version);
}

test("a Schacht move the rules forbid: IllegalMoveError with the rule's code and clause", () => {
    const game = engine.load("schacht", { players: 3 });
    const state = game.newState(1);
    assert.deepEqual(state.pendingSeats, [1]);
    const legal = state.legalActions(1);
    const fields = { status: Status.ILLEGAL_MOVE, code: "no_doubler_decision_now", clause: "S5.3" };
    refused(state, () => state.apply(1, "bet"), IllegalMoveError, { ...fields, message: /doubler/ });
    refused(state, () => state.apply(2, legal[0]), IllegalMoveError, { code: "not_your_turn", clause: "S2.2" });
    refused(state, () => state.apply(1, "not a move"), NotationError, {
        status: Status.BAD_NOTATION,
        code: "bad_notation",
        clause: "S8",
    });
    refused(state, () => state.apply(1, game.numActions), NotationError, { code: "bad_notation" });
    refused(state, () => state.apply(1, -1), NotationError, { code: "bad_notation" });
    for (const seat of [3, -1, SPECTATOR - 1]) {
        const badPlayer = { status: Status.BAD_PLAYER, code: "bad_player" };
        refused(state, () => state.apply(seat, legal[0]), PlayerError, badPlayer);
        refused(state, () => state.apply(seat, "G5<"), PlayerError, { code: "bad_player", message: /0\.\.2/ });
        refused(state, () => state.legalActions(seat), PlayerError, { code: "bad_player", message: /0\.\.2/ });
        refused(state, () => state.legalMask(seat), PlayerError, { code: "bad_player" });
        refused(state, () => state.resample(seat, 1), PlayerError, { code: "bad_player" });
    }
    refused(state, () => state.observation(3), PlayerError, { code: "bad_player" });
    refused(state, () => state.events(-2), PlayerError, { code: "bad_player" });
    state.apply(1, legal[0]); // still playable after all that
    assert.equal(state.version, 1);
    state.free();
    game.free();
});

test("every game refuses, unchanged, each action id that is not legal now", () => {
    for (const [name, options] of Object.entries(CAPI_GAMES)) {
        const game = engine.load(name, options);
        const clauses = new Set();
        const { state } = replay(game, 3n, 120, (s, seat) => {
            const legal = new Set(s.legalActions(seat));
            const illegal = [...Array(game.numActions).keys()].filter((id) => !legal.has(id));
            const id = illegal[s.version % illegal.length];
            refused(s, () => s.apply(seat, id), IllegalMoveError, { status: Status.ILLEGAL_MOVE });
            try {
                s.apply(seat, id);
            } catch (error) {
                clauses.add(error.clause[0]);
            }
        });
        // Each game names its own rules (S..., D..., K...).
        assert.deepEqual([...clauses], [name[0].toUpperCase()], name);
        state.free();
        game.free();
    }
});

test("bad games, options, seeds and saves", () => {
    assert.throws(
        () => engine.load("chess"),
        (e) => e instanceof OptionError && /chess/.test(e.message) && e.code === "bad_option",
    );
    assert.throws(() => engine.load("schacht", { players: 9 }), OptionError);
    assert.throws(() => engine.load("schacht", { colour: "red" }), OptionError);
    assert.throws(() => engine.load("knizia", { players: 3 }), OptionError); // no lexicon
    const game = engine.load("schacht");
    for (const seed of [-1, -1n, 1n << 64n]) {
        assert.throws(
            () => game.newState(seed),
            (e) => e instanceof OptionError && e.code === "bad_option",
        );
    }
    assert.equal(game.newState((1n << 64n) - 1n).version, 0);
    for (const text of ["{}", "{not json", "", "[]", JSON.stringify({ format: "nonsense" })]) {
        assert.throws(
            () => game.stateFromJSON(text),
            (e) => e instanceof StateFormatError && e.status === Status.BAD_STATE,
        );
    }
    const other = engine.load("duvelen").newState(1);
    assert.throws(() => game.stateFromJSON(other.toJSON()), StateFormatError);
    other.free();
    assert.throws(() => game.actionNotation(game.numActions), NotationError);
    assert.throws(() => game.playRandom(-1, 1), OptionError);
    game.free();
});

test("bad deals and word lists are refused", () => {
    const game = engine.load("schacht", { players: 3 });
    for (const deal of [{ deck: ["X9"] }, { deck: ["R1"] }, { decks: "x" }, { cards: [] }, []]) {
        assert.throws(
            () => game.newState(1, deal),
            (e) => e instanceof StateFormatError && e.code === "bad_state" && /S2\.4|S8/.test(e.message),
            JSON.stringify(deal),
        );
    }
    const { lexicon, ...options } = CAPI_GAMES.knizia;
    for (const bytes of [new Uint8Array(0), new Uint8Array([1, 2, 3]), new TextEncoder().encode(lexicon.join("\n"))]) {
        assert.throws(() => engine.load("knizia", options, { lexicon: bytes }), StateFormatError);
    }
    assert.throws(() => engine.load("knizia", options, { lexicon }), TypeError); // words go in the options
    assert.throws(() => engine.load("schacht", {}, { lexicon: new Uint8Array(8) }), StateFormatError);
    game.free();
});

test("arguments of the wrong JavaScript type are TypeErrors, not some other seat or move", () => {
    const game = engine.load("schacht", { players: 3 });
    const state = game.newState(1);
    const before = state.toJSON();
    for (const call of [
        () => state.apply(1.5, 0),
        () => state.apply("1", 0),
        () => state.apply(1, 0.5),
        () => state.apply(1, null),
        () => state.legalActions(undefined),
        () => state.observation(NaN),
        () => game.newState("7"),
        () => game.newState(0.5),
        () => engine.load(7),
    ]) {
        assert.throws(call, TypeError);
    }
    assert.throws(() => state.apply(2 ** 32 + 1, 0), RangeError); // not seat 1
    assert.throws(() => state.apply(1, 2 ** 32), RangeError); // not action 0
    assert.equal(state.toJSON(), before);
    state.free();
    game.free();
});

test("a freed game or state refuses every use; a state outlives its game", () => {
    const game = engine.load("schacht", { players: 3 });
    const state = game.newState(2);
    const copy = state.clone();
    game.free();
    game.free(); // twice is harmless
    assert.throws(() => game.newState(1), /freed/);
    assert.throws(() => game.options, /freed/);
    state.apply(state.pendingSeats[0], state.legalActions(state.pendingSeats[0])[0]);
    assert.equal(state.version, 1);
    state.free();
    state.free();
    const uses = [() => state.isTerminal, () => state.toJSON(), () => state.legalActions(0), () => state.clone()];
    for (const use of uses) {
        assert.throws(use, /freed/);
    }
    assert.equal(copy.version, 0);
    copy.free();
});

test("the error classes: one per status, StaleMoveError an IllegalMoveError", () => {
    const classes = [IllegalMoveError, StaleMoveError, NotationError, OptionError, StateFormatError, PlayerError];
    for (const Class of [...classes, LimitError]) {
        const error = new Class("text", { code: "c", clause: "X1" });
        assert.ok(error instanceof DiaboloError && error instanceof Error);
        assert.deepEqual([error.name, error.message, error.code, error.clause], [Class.name, "text", "c", "X1"]);
    }
    assert.ok(new StaleMoveError("late") instanceof IllegalMoveError);
    assert.equal(new DiaboloError("x").status, Status.ERROR);
});
