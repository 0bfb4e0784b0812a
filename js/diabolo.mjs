/**
 * diabolo for JavaScript: every game of the engine in Node and in browsers, through the C
 * API (cpp/include/diabolo/diabolo.h) built as WebAssembly by tools/build-wasm.sh. The
 * names follow the Python API in camelCase: games and states are objects, views, events
 * and saves are JSON, and a refused call throws a {@link DiaboloError} and changes nothing.
 *
 * Games, states and positions live in the WebAssembly heap: free each with `.free()` when
 * done (a FinalizationRegistry frees what is forgotten, but only when the garbage collector
 * gets to it). Every call is synchronous.
 *
 * @example
 * import { loadDiabolo } from "./diabolo.mjs";
 * const engine = await loadDiabolo();
 * const game = engine.load("schacht", { players: 3 });
 * const state = game.newState(7);
 * while (!state.isTerminal) {
 *   const seat = state.pendingSeats[0];
 *   const legal = state.legalActions(seat);
 *   state.apply(seat, legal[0]);
 * }
 * console.log(state.scores());
 * state.free();
 * game.free();
 *
 * @module diabolo
 */

/** The seat of a spectator, for views and events. @example state.events(SPECTATOR) */
export const SPECTATOR = -1;
/**
 * `state.currentPlayer` of a real-time game: every pending seat may act.
 * @example if (state.currentPlayer === SIMULTANEOUS) for (const seat of state.pendingSeats) think(seat);
 */
export const SIMULTANEOUS = -2;
/** `state.currentPlayer` of a finished game. @example state.currentPlayer === TERMINAL */
export const TERMINAL = -4;
/** The action of a bot's choice that has no action id (see {@link Bot#choose}). @example choice.action === WAIT */
export const WAIT = -1;

/**
 * The statuses of the C API (diabolo_status).
 *
 * @example
 * error.status === Status.ILLEGAL_MOVE
 */
export const Status = Object.freeze({
    OK: 0,
    ILLEGAL_MOVE: 1,
    STALE_MOVE: 2,
    BAD_NOTATION: 3,
    BAD_OPTION: 4,
    BAD_STATE: 5,
    BAD_PLAYER: 6,
    LIMIT: 7,
    ERROR: 8,
    BAD_ARGUMENT: 9,
});

/**
 * Base class of every error the engine reports: `code` is stable across versions (the
 * frontend guide lists them), `clause` names the rule broken ("S5.3", or "" when none),
 * `status` is the C API's status. The call that threw changed nothing.
 *
 * @example
 * try { state.apply(1, "bet"); } catch (error) {
 *   if (error instanceof DiaboloError) console.log(error.code, error.clause, error.message);
 * }
 */
export class DiaboloError extends Error {
    /**
     * @param {string} message the English text
     * @param {{status?: number, code?: string, clause?: string}} [details]
     */
    constructor(message, { status = Status.ERROR, code = "error", clause = "" } = {}) {
        super(message);
        this.name = new.target.name;
        /** The C API's status (a value of {@link Status}). @example error.status === Status.BAD_PLAYER */
        this.status = status;
        /** The error's stable machine-readable code. @example error.code === "side_full" */
        this.code = code;
        /** The rule's clause, or "". @example error.clause === "S3.2" */
        this.clause = clause;
    }
}

/**
 * A well-formed move that the rules forbid now; `clause` names the rule.
 *
 * @example
 * assert.throws(() => state.apply(1, "bet"), IllegalMoveError);
 */
export class IllegalMoveError extends DiaboloError {}

/**
 * A move that was legal on an older version of the table and lost a race to another move.
 *
 * @example
 * if (error instanceof StaleMoveError) lookAgain();
 */
export class StaleMoveError extends IllegalMoveError {}

/**
 * Text or an action id that is not a move of the game; `clause` names the game's notation.
 *
 * @example
 * assert.throws(() => state.apply(0, "not a move"), NotationError);
 */
export class NotationError extends DiaboloError {}

/**
 * An unknown game, a bad option or another bad argument (a seed out of range, an object
 * used after its free()).
 *
 * @example
 * assert.throws(() => engine.load("schacht", { players: 9 }), OptionError);
 */
export class OptionError extends DiaboloError {}

/**
 * A saved state (or options text) that is not valid JSON of the game.
 *
 * @example
 * assert.throws(() => game.stateFromJSON("{}"), StateFormatError);
 */
export class StateFormatError extends DiaboloError {}

/**
 * A seat that does not exist.
 *
 * @example
 * assert.throws(() => state.observation(9), PlayerError);
 */
export class PlayerError extends DiaboloError {}

/**
 * Work past one of the engine's documented limits.
 *
 * @example
 * if (error instanceof LimitError) console.log("too much work:", error.message);
 */
export class LimitError extends DiaboloError {}

const errorClasses = new Map([
    [Status.ILLEGAL_MOVE, IllegalMoveError],
    [Status.STALE_MOVE, StaleMoveError],
    [Status.BAD_NOTATION, NotationError],
    [Status.BAD_OPTION, OptionError],
    [Status.BAD_STATE, StateFormatError],
    [Status.BAD_PLAYER, PlayerError],
    [Status.LIMIT, LimitError],
    [Status.BAD_ARGUMENT, OptionError], // a freed object's handle: NULL reaches the C API
]);

// struct diabolo_error in diabolo.h: int status; char code[48]; char clause[16]; char message[512].
const ERROR_CODE = 4;
const ERROR_CLAUSE = ERROR_CODE + 48;
const ERROR_MESSAGE = ERROR_CLAUSE + 16;
const ERROR_SIZE = ERROR_MESSAGE + 512;
// The out-parameters of a call: an int64_t at 0 (a bot's delay), an int32_t at 8 (its
// action), a pointer at 12 (a handle, or a bot's notation).
const OUT_DELAY = 0;
const OUT_ACTION = 8;
const OUT_POINTER = 12;
const OUT_SIZE = 16;

const isNode = typeof process === "object" && typeof process.versions?.node === "string";

/** Frees what the program forgot to free once the garbage collector takes its owner. */
const finalizers = new FinalizationRegistry(({ release, handle }) => release(handle));

/**
 * Loads the WebAssembly engine.
 *
 * Without arguments it loads `dist/diabolo.mjs` and `dist/diabolo.wasm` next to this file
 * (`bash tools/build-wasm.sh js/dist`). `module` names another build's diabolo.mjs (a URL
 * or, in Node, a path) and `wasm` its .wasm (a URL, a path or the bytes; by default the
 * .wasm beside the module). A bundler may import the generated module itself and pass its
 * `factory` (createDiaboloModule); under Node it then needs `wasm` too.
 *
 * @param {{module?: string | URL, factory?: Function,
 *          wasm?: string | URL | ArrayBuffer | ArrayBufferView}} [options]
 * @returns {Promise<Diabolo>}
 *
 * @example
 * const engine = await loadDiabolo({ module: "build/wasm/diabolo.mjs" });
 * console.log(engine.version, engine.games);
 */
export async function loadDiabolo({ module, factory, wasm } = {}) {
    let moduleUrl = null;
    if (factory === undefined) {
        moduleUrl = await locate(module ?? new URL("./dist/diabolo.mjs", import.meta.url));
        factory = (await import(moduleUrl.href)).default;
    }
    const settings = {};
    if (wasm instanceof ArrayBuffer || ArrayBuffer.isView(wasm)) {
        settings.wasmBinary = wasm;
    } else {
        let wasmUrl = wasm === undefined ? null : await locate(wasm);
        if (wasmUrl === null && moduleUrl !== null) wasmUrl = new URL(moduleUrl.href.replace(/\.m?js$/, ".wasm"));
        if (isNode) {
            if (wasmUrl === null) throw new TypeError("loadDiabolo: under Node, a factory needs `wasm` (diabolo.wasm)");
            const { readFile } = await import("node:fs/promises");
            settings.wasmBinary = await readFile(wasmUrl);
        } else if (wasmUrl !== null) {
            settings.locateFile = () => wasmUrl.href;
        }
    }
    return new Diabolo(await factory(settings));
}

/** A URL for a URL or a path (relative paths: to the working directory in Node). */
async function locate(location) {
    if (location instanceof URL) return location;
    if (/^[a-z][a-z0-9+.-]+:/i.test(location)) return new URL(location);
    if (isNode) {
        const { pathToFileURL } = await import("node:url");
        return pathToFileURL(location);
    }
    return new URL(location, globalThis.location?.href);
}

/** The error of a failed allocation in the WebAssembly heap. */
function outOfMemory() {
    return new DiaboloError("out of memory", { code: "out_of_memory" });
}

/** A 32-bit integer argument, or a TypeError / RangeError naming it. */
function int32(value, what) {
    if (typeof value !== "number" || !Number.isInteger(value)) {
        throw new TypeError(`${what} must be an integer, got ${String(value)}`);
    }
    if (value < -0x80000000 || value > 0x7fffffff) throw new RangeError(`${what} must fit in 32 bits, got ${value}`);
    return value;
}

/** The bytes of an ArrayBuffer or a view of one. */
function asBytes(data, what) {
    if (data instanceof ArrayBuffer) return new Uint8Array(data);
    if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    throw new TypeError(`${what} must be an ArrayBuffer or a typed array, got ${String(data)}`);
}

/** A seed as the BigInt a uint64_t takes: an integer number or bigint in [0, 2**64). */
function seed64(value) {
    if (typeof value !== "bigint" && !(typeof value === "number" && Number.isSafeInteger(value))) {
        throw new TypeError(`seed must be a safe integer or a bigint, got ${String(value)}`);
    }
    const seed = BigInt(value);
    if (seed < 0n || seed >= 1n << 64n) {
        throw new OptionError(`seed must be an int in [0, 2**64), got ${seed}`, {
            status: Status.BAD_OPTION,
            code: "bad_option",
        });
    }
    return seed;
}

// The helpers below read a State or a Position (`table`: its _engine, game and _live())
// through the C function of its kind.

/** The seats of a pending-seats bit set (diabolo_state_pending_seats), ascending. */
function seatsOf(bits) {
    const seats = [];
    for (let seat = 0; seat < 32; ++seat) if ((bits >>> seat) & 1) seats.push(seat);
    return seats;
}

/** The PlayerError of the core's seat check (check_seat in the C API). */
function noSeat(game, player) {
    throw new PlayerError(`player must be a seat 0..${game.players - 1}, got ${player}`, {
        status: Status.BAD_PLAYER,
        code: "bad_player",
    });
}

/** The legal action ids of `player` through `legalActions` (diabolo_state_legal_actions). */
function legalActionsOf(table, legalActions, player) {
    const e = table._engine;
    const capacity = table.game.numActions;
    const buffer = e._buffer(capacity * 4);
    const n = legalActions(table._live(), int32(player, "player"), buffer, capacity);
    if (n < 0) noSeat(table.game, player);
    return e.module.HEAP32.slice(buffer >> 2, (buffer >> 2) + n);
}

/** Each seat's score through `scores` (diabolo_state_scores). */
function scoresOf(table, scores) {
    const e = table._engine;
    const players = table.game.players;
    const buffer = e._buffer(players * 4);
    scores(table._live(), buffer, players);
    return e.module.HEAP32.slice(buffer >> 2, (buffer >> 2) + players);
}

/** The observation tensor of `player` through `tensor` (diabolo_state_observation_tensor). */
function tensorOf(table, tensor, player) {
    const e = table._engine;
    const seat = int32(player, "player");
    const size = tensor(table._live(), seat, 0, 0);
    if (size < 0) noSeat(table.game, player);
    const buffer = e._buffer(size * 4);
    tensor(table._live(), seat, buffer, size);
    return e.module.HEAPF32.slice(buffer >> 2, (buffer >> 2) + size);
}

/**
 * The loaded engine: its version and games, and {@link Diabolo#load} for a game.
 *
 * @example
 * const engine = await loadDiabolo();
 * engine.games; // ["duvelen", "knizia", "schacht"]
 */
export class Diabolo {
    /** @param {object} module the Emscripten module (createDiaboloModule's result) */
    constructor(module) {
        /** The Emscripten module, for what this API does not wrap. @example engine.module.HEAPU8.length */
        this.module = module;
        this._error = module._malloc(ERROR_SIZE);
        this._out = module._malloc(OUT_SIZE);
        this._outHandle = this._out + OUT_POINTER;
        this._scratch = 0;
        this._scratchSize = 0;
    }

    /** The library's version. @example engine.version // "0.1.0" */
    get version() {
        return this.module.UTF8ToString(this.module._diabolo_version());
    }

    /** The version of the C API the module was built with (DIABOLO_API_VERSION). @example engine.apiVersion // 1 */
    get apiVersion() {
        return this.module._diabolo_api_version();
    }

    /** The ids of the games, sorted. @example engine.games // ["duvelen", "knizia", "schacht"] */
    get games() {
        return this.module.UTF8ToString(this.module._diabolo_games()).split(",");
    }

    /**
     * The catalogue of games: each game's name, title, seats, whether it is played in real
     * time, whether it is listed (false: a game for the tests only), its bot kinds and the
     * option naming its word list (or null).
     *
     * @example
     * engine.catalogue.find((game) => game.name === "schacht").title // "Diabolo (Schacht)"
     */
    get catalogue() {
        return JSON.parse(this.module.UTF8ToString(this.module._diabolo_catalogue()));
    }

    /**
     * A game by id with its options (serialised to JSON for the engine). A Knizia game
     * needs a `deck` and its word list: the option `lexicon` (a list of words), or the
     * list's binary form (what Python's `diabolo.Lexicon.to_bytes()` writes, a web page
     * fetches it) as `lexicon` of the third argument.
     *
     * @param {string} name
     * @param {object} [options]
     * @param {{lexicon?: ArrayBuffer | ArrayBufferView}} [data]
     * @returns {Game}
     * @throws {OptionError} for an unknown game or a bad option; StateFormatError for bytes
     *   that are not a word list
     *
     * @example
     * const game = engine.load("duvelen", { players: 4 });
     * const bytes = new Uint8Array(await (await fetch("de.lexicon")).arrayBuffer());
     * const deck = { language: "de", cards: { A: 4, B: 1, EN: 3, "?": 4 } }; // K10.7
     * const knizia = engine.load("knizia", { players: 3, deck }, { lexicon: bytes });
     */
    load(name, options = {}, { lexicon } = {}) {
        if (typeof name !== "string") throw new TypeError(`a game's name must be a string, got ${String(name)}`);
        const m = this.module;
        const out = this._outHandle;
        const handle = this._withTexts([name, JSON.stringify(options)], (namePtr, optionsPtr) => {
            if (lexicon === undefined) return this._handle(m._diabolo_game_new(namePtr, optionsPtr, out, this._error));
            const bytes = asBytes(lexicon, "lexicon");
            const pointer = m._malloc(Math.max(bytes.length, 1));
            if (pointer === 0) throw outOfMemory();
            try {
                m.HEAPU8.set(bytes, pointer);
                return this._handle(
                    m._diabolo_game_new_with_lexicon(namePtr, optionsPtr, pointer, bytes.length, out, this._error),
                );
            } finally {
                m._free(pointer);
            }
        });
        return new Game(this, handle, name);
    }

    // The helpers below are for Game, State and Position.

    /** Throws the error the C API left in the error buffer for `status` (not OK). */
    _throw(status) {
        const m = this.module;
        const Class = errorClasses.get(status) ?? DiaboloError;
        throw new Class(m.UTF8ToString(this._error + ERROR_MESSAGE, 512), {
            status,
            code: m.UTF8ToString(this._error + ERROR_CODE, 48),
            clause: m.UTF8ToString(this._error + ERROR_CLAUSE, 16),
        });
    }

    /** Checks a status; on OK returns the handle the call wrote to the out-pointer. */
    _handle(status) {
        if (status !== Status.OK) this._throw(status);
        return this.module.HEAPU32[this._outHandle >> 2];
    }

    /** The text of a char* the C API returned (NULL: the error buffer's error), freed. */
    _take(pointer) {
        if (pointer === 0) {
            const status = this.module.HEAP32[this._error >> 2];
            if (status === Status.OK) throw outOfMemory(); // the copy of a text the call made
            this._throw(status);
        }
        try {
            return this.module.UTF8ToString(pointer);
        } finally {
            this.module._diabolo_string_free(pointer);
        }
    }

    /** The text of a char* from a call without an error argument (NULL: out of memory). */
    _takeOrOutOfMemory(pointer) {
        if (pointer === 0) throw outOfMemory();
        return this._take(pointer);
    }

    /** Calls body with each text as a NUL-terminated UTF-8 copy in the heap, then frees them. */
    _withTexts(texts, body) {
        const m = this.module;
        const pointers = [];
        try {
            for (const text of texts) {
                const size = m.lengthBytesUTF8(text) + 1;
                const pointer = m._malloc(size);
                if (pointer === 0) throw outOfMemory();
                pointers.push(pointer);
                m.stringToUTF8(text, pointer, size);
            }
            return body(...pointers);
        } finally {
            for (const pointer of pointers) m._free(pointer);
        }
    }

    /** A heap buffer of at least `bytes` bytes, reused by every call (each call is synchronous). */
    _buffer(bytes) {
        if (bytes > this._scratchSize) {
            const pointer = this.module._malloc(bytes);
            if (pointer === 0) throw outOfMemory();
            this.module._free(this._scratch);
            this._scratch = pointer;
            this._scratchSize = bytes;
        }
        return this._scratch;
    }

    /** Registers `owner` so that its handle is freed if the program forgets to. */
    _track(owner, release, handle) {
        finalizers.register(owner, { release, handle }, owner);
    }
}

/**
 * A game with its options: it makes states, and knows its number of seats and actions.
 *
 * @example
 * const game = engine.load("schacht", { players: 4 });
 * game.players; // 4
 * const state = game.newState(1n);
 */
export class Game {
    /** @param {Diabolo} engine @param {number} handle @param {string} name */
    constructor(engine, handle, name) {
        this._engine = engine;
        this._handle = handle;
        /** The game's id. @example game.name // "schacht" */
        this.name = name;
        /** The number of seats. @example game.players // 3 */
        this.players = engine.module._diabolo_game_players(handle);
        /** The number of action ids: every id is in [0, numActions). @example new Uint8Array(game.numActions) */
        this.numActions = engine.module._diabolo_game_num_actions(handle);
        /**
         * Whether the game is played in real time: no turns, every seat with a legal move may
         * move, moves apply in the order they arrive (Duvelen D3, Knizia K3.2; Schacht is
         * played in turns, S2.3). @example engine.load("duvelen").realTime // true
         */
        this.realTime = engine.module._diabolo_game_real_time(handle) === 1;
        engine._track(this, engine.module._diabolo_game_free, handle);
    }

    /** The C handle, or an Error once freed. */
    _live() {
        if (this._handle === 0) throw new Error(`this ${this.name} game was freed`);
        return this._handle;
    }

    /**
     * Every option with its value (a new object each time).
     *
     * @example
     * engine.load("schacht").options.players; // 4
     */
    get options() {
        return JSON.parse(this.optionsJSON);
    }

    /** The options as the engine's JSON text. @example JSON.parse(game.optionsJSON).players */
    get optionsJSON() {
        return this._engine._takeOrOutOfMemory(this._engine.module._diabolo_game_options(this._live()));
    }

    /**
     * A new game shuffled from `seed` (an integer number or a bigint in [0, 2**64)), or
     * dealt from `deal`, an object in the game's deal format: Schacht `{deck: [...]}` or
     * `{decks: [...]}` (S2.4), Duvelen `{decks: [...]}` (D2.5), Knizia `{deck: [...]}` or
     * `{decks: [...]}` (K10.7); what the deal leaves out is shuffled from `seed`.
     *
     * @param {number | bigint} [seed]
     * @param {object} [deal]
     * @returns {State}
     * @throws {StateFormatError} naming what is wrong with a deal
     *
     * @example
     * const state = game.newState(42);
     * const dealt = game.newState(0, { deck: cards }); // Schacht: all 70 cards, top first
     */
    newState(seed = 0, deal = undefined) {
        const e = this._engine;
        const m = e.module;
        const handle = this._live();
        const value = seed64(seed);
        const out = e._outHandle;
        if (deal === undefined) return new State(this, e._handle(m._diabolo_state_new(handle, value, out, e._error)));
        const dealt = e._withTexts([JSON.stringify(deal)], (pointer) =>
            e._handle(m._diabolo_state_deal(handle, value, pointer, out, e._error)),
        );
        return new State(this, dealt);
    }

    /**
     * The state a JSON text of {@link State#toJSON} holds.
     *
     * @param {string} text
     * @returns {State}
     * @throws {StateFormatError} for text that is not a state of this game
     *
     * @example
     * const copy = game.stateFromJSON(state.toJSON());
     */
    stateFromJSON(text) {
        if (typeof text !== "string") throw new TypeError(`a state's JSON must be a string, got ${String(text)}`);
        const e = this._engine;
        const handle = e._withTexts([text], (pointer) =>
            e._handle(e.module._diabolo_state_from_json(this._live(), pointer, e._outHandle, e._error)),
        );
        return new State(this, handle);
    }

    /**
     * The notation of an action id ("G5<"), for logs and menus.
     *
     * @param {number} action
     * @returns {string}
     * @throws {NotationError} for an id outside [0, numActions)
     *
     * @example
     * game.actionNotation(0);
     */
    actionNotation(action) {
        const e = this._engine;
        return e._take(e.module._diabolo_game_action_notation(this._live(), int32(action, "action"), e._error));
    }

    /**
     * `games` whole games of uniformly random legal moves, game i seeded from (seed, i) as
     * in Python's play_random. Scores are flat: game i's seat p at `scores[i * players + p]`.
     * The WebAssembly build has no threads: this runs on the calling thread.
     *
     * @param {number} games
     * @param {number | bigint} [seed]
     * @returns {{scores: Int32Array, moves: Int32Array}}
     *
     * @example
     * const { scores, moves } = game.playRandom(100, 1);
     */
    playRandom(games, seed = 0) {
        const e = this._engine;
        const m = e.module;
        int32(games, "games");
        const count = Math.max(games, 0);
        const scoresBytes = count * this.players * 4;
        const buffer = e._buffer(scoresBytes + count * 4 + 4);
        const status = m._diabolo_play_random(
            this._live(),
            games,
            seed64(seed),
            1,
            buffer,
            buffer + scoresBytes,
            e._error,
        );
        if (status !== Status.OK) e._throw(status);
        const scores = m.HEAP32.slice(buffer >> 2, (buffer >> 2) + count * this.players);
        const moves = m.HEAP32.slice((buffer + scoresBytes) >> 2, ((buffer + scoresBytes) >> 2) + count);
        return { scores, moves };
    }

    /**
     * The kinds of bots of the game ("heuristic", "ismcts", "learned", "random" for Schacht).
     *
     * @example
     * engine.load("duvelen").bots; // ["greedy", "lookahead", "random", "search"]
     */
    get bots() {
        return this._engine.module.UTF8ToString(this._engine.module._diabolo_game_bots(this._live())).split(",");
    }

    /**
     * A bot of this game by kind (one of {@link Game#bots}) with its options: Schacht
     * "ismcts" takes iterations, exploration, heuristic_rollouts, prior, tree and belief (and threads,
     * which must be 1 here: the WebAssembly build has no threads), "learned" weights (17
     * numbers; default: the trained ones); Knizia "word" and
     * "lookahead" take max_length, coverage, memory and per_letter, "search" those and
     * worlds and horizon, "random" per_letter; Duvelen "search" takes worlds and horizon;
     * the others take none. They are the bots of Python's diabolo.<game> modules.
     *
     * @param {string} kind
     * @param {object} [options]
     * @returns {Bot}
     * @throws {OptionError} for an unknown kind or a bad option
     *
     * @example
     * const bot = game.bot("ismcts", { iterations: 500 });
     */
    bot(kind, options = {}) {
        if (typeof kind !== "string") throw new TypeError(`a bot's kind must be a string, got ${String(kind)}`);
        const e = this._engine;
        const handle = e._withTexts([kind, JSON.stringify(options)], (kindPtr, optionsPtr) =>
            e._handle(e.module._diabolo_bot_new(this._live(), kindPtr, optionsPtr, e._outHandle, e._error)),
        );
        return new Bot(this, handle, kind);
    }

    /**
     * Frees the game (its states live on). Using the game afterwards throws; a second free
     * does nothing.
     *
     * @example
     * game.free();
     */
    free() {
        if (this._handle === 0) return;
        finalizers.unregister(this);
        this._engine.module._diabolo_game_free(this._handle);
        this._handle = 0;
    }
}

/**
 * A game in progress: a value in the WebAssembly heap that `apply` changes. A refused call
 * throws and changes nothing.
 *
 * @example
 * const state = game.newState(3);
 * const seat = state.pendingSeats[0];
 * state.apply(seat, state.legalActions(seat)[0]);
 */
export class State {
    /** @param {Game} game @param {number} handle */
    constructor(game, handle) {
        this._engine = game._engine;
        this._handle = handle;
        /** The game the state was made from (it may be freed first). @example state.game.players */
        this.game = game;
        this._engine._track(this, this._engine.module._diabolo_state_free, handle);
    }

    /** The C handle, or an Error once freed. */
    _live() {
        if (this._handle === 0) throw new Error("this state was freed");
        return this._handle;
    }

    /** A seat, {@link SIMULTANEOUS} or {@link TERMINAL}. @example if (state.currentPlayer === 0) myTurn(); */
    get currentPlayer() {
        return this._engine.module._diabolo_state_current_player(this._live());
    }

    /**
     * The seats that may or must act now, ascending.
     *
     * @example
     * const seat = state.pendingSeats[0];
     */
    get pendingSeats() {
        return seatsOf(this._engine.module._diabolo_state_pending_seats(this._live()));
    }

    /** Whether the game is over. @example while (!state.isTerminal) step(state); */
    get isTerminal() {
        return this._engine.module._diabolo_state_is_terminal(this._live()) !== 0;
    }

    /** The number of moves applied so far (exact below 2**53). @example const seen = state.version; */
    get version() {
        return Number(BigInt.asUintN(64, this._engine.module._diabolo_state_version(this._live())));
    }

    /**
     * The legal action ids of `player`, ascending.
     *
     * @param {number} player a seat
     * @returns {Int32Array}
     * @throws {PlayerError} for a seat that does not exist
     *
     * @example
     * const legal = state.legalActions(0);
     */
    legalActions(player) {
        return legalActionsOf(this, this._engine.module._diabolo_state_legal_actions, player);
    }

    /**
     * mask[id] = 1 for each legal action id of `player`, else 0 (numActions entries).
     *
     * @param {number} player a seat
     * @returns {Uint8Array}
     * @throws {PlayerError} for a seat that does not exist
     *
     * @example
     * const mask = state.legalMask(0);
     */
    legalMask(player) {
        const e = this._engine;
        const capacity = this.game.numActions;
        const buffer = e._buffer(capacity);
        if (e.module._diabolo_state_legal_mask(this._live(), int32(player, "player"), buffer, capacity) < 0) {
            noSeat(this.game, player);
        }
        return e.module.HEAPU8.slice(buffer, buffer + capacity);
    }

    /**
     * The legal moves of `player` as the engine lists them in the seat's view: each move's
     * notation and its data ({kind: "place", card: "R1", side: "left"}), in the order of
     * {@link State#legalActions}. It builds the whole view: for many calls, prefer
     * legalActions.
     *
     * @param {number} player a seat
     * @returns {{notation: string, move: object}[]}
     *
     * @example
     * for (const { notation, move } of state.legalMoves(0)) console.log(notation, move.kind);
     */
    legalMoves(player) {
        const view = this.observation(player);
        return view.legal.map((notation, i) => ({ notation, move: view.legal_moves[i] }));
    }

    /**
     * Plays a move for `player`: an action id, or a move in the game's notation ("G5<",
     * "R2:7h>3", "LAGER").
     *
     * @param {number} player a seat
     * @param {number | string} move
     * @throws {IllegalMoveError} (or StaleMoveError) when the rules forbid it now,
     *   NotationError for what is not a move, PlayerError for a seat that does not exist;
     *   the state is then unchanged
     *
     * @example
     * state.apply(1, "G5<");
     * state.apply(2, 17);
     */
    apply(player, move) {
        const e = this._engine;
        const m = e.module;
        const handle = this._live();
        const seat = int32(player, "player");
        let status;
        if (typeof move === "string") {
            status = e._withTexts([move], (pointer) => m._diabolo_state_apply_move(handle, seat, pointer, e._error));
        } else {
            status = m._diabolo_state_apply_action(handle, seat, int32(move, "move"), e._error);
        }
        if (status !== Status.OK) e._throw(status);
    }

    /**
     * What `player` may see now, as the engine's JSON view (parsed); the view of a seat
     * also holds its legal moves ("legal", "legal_moves").
     *
     * @param {number} player a seat
     * @returns {object}
     *
     * @example
     * state.observation(0).hand;
     */
    observation(player) {
        return JSON.parse(this.observationJSON(player));
    }

    /**
     * The JSON text of {@link State#observation} (or, for {@link SPECTATOR}, the public view).
     *
     * @param {number} player a seat or SPECTATOR
     * @returns {string}
     *
     * @example
     * socket.send(state.observationJSON(seat));
     */
    observationJSON(player) {
        const e = this._engine;
        return e._take(e.module._diabolo_state_observation(this._live(), int32(player, "player"), e._error));
    }

    /**
     * What a spectator sees (parsed).
     *
     * @returns {object}
     *
     * @example
     * state.publicObservation().scores;
     */
    publicObservation() {
        return JSON.parse(this.observationJSON(SPECTATOR));
    }

    /**
     * The events of the last move as `player` (a seat, or SPECTATOR) sees them.
     *
     * @param {number} player
     * @returns {object[]}
     *
     * @example
     * for (const event of state.events(0)) console.log(event.type);
     */
    events(player) {
        return JSON.parse(this.eventsJSON(player));
    }

    /**
     * The JSON text of {@link State#events}.
     *
     * @param {number} player a seat or SPECTATOR
     * @returns {string}
     *
     * @example
     * socket.send(state.eventsJSON(seat));
     */
    eventsJSON(player) {
        const e = this._engine;
        return e._take(e.module._diabolo_state_events(this._live(), int32(player, "player"), e._error));
    }

    /**
     * The events of the last move as a spectator sees them.
     *
     * @returns {object[]}
     *
     * @example
     * state.publicEvents();
     */
    publicEvents() {
        return this.events(SPECTATOR);
    }

    /**
     * Each seat's score so far.
     *
     * @returns {Int32Array}
     *
     * @example
     * const [first, second, third] = state.scores();
     */
    scores() {
        return scoresOf(this, this._engine.module._diabolo_state_scores);
    }

    /**
     * The observation tensor of `player`: what that seat may know as floats, in the layout
     * of Python's state.observation_tensor(player).
     *
     * @param {number} player a seat
     * @returns {Float32Array}
     * @throws {PlayerError} for a seat that does not exist
     *
     * @example
     * const tensor = state.observationTensor(0); // 1223 floats in Schacht
     */
    observationTensor(player) {
        return tensorOf(this, this._engine.module._diabolo_state_observation_tensor, player);
    }

    /**
     * The whole state as JSON text, for {@link Game#stateFromJSON}. (So JSON.stringify of a
     * state gives that text as a JSON string.)
     *
     * @returns {string}
     *
     * @example
     * localStorage.setItem("save", state.toJSON());
     */
    toJSON() {
        const e = this._engine;
        return e._takeOrOutOfMemory(e.module._diabolo_state_to_json(this._live()));
    }

    /**
     * An independent copy.
     *
     * @returns {State}
     *
     * @example
     * const trial = state.clone();
     */
    clone() {
        const handle = this._engine.module._diabolo_state_clone(this._live());
        if (handle === 0) throw outOfMemory();
        return new State(this.game, handle);
    }

    /**
     * Determinisation: a copy in which what `player` cannot see is dealt anew from `seed`.
     *
     * @param {number} player a seat
     * @param {number | bigint} seed
     * @returns {State}
     *
     * @example
     * const guess = state.resample(0, 99);
     */
    resample(player, seed) {
        const e = this._engine;
        const seat = int32(player, "player");
        const handle = e._handle(
            e.module._diabolo_state_resample(this._live(), seat, seed64(seed), e._outHandle, e._error),
        );
        return new State(this.game, handle);
    }

    /**
     * The state's position, for search: its table without its record, which copies and
     * plays without allocating (see {@link Position}).
     *
     * @returns {Position}
     *
     * @example
     * const position = state.position();
     */
    position() {
        const e = this._engine;
        const handle = e._handle(e.module._diabolo_state_position(this._live(), e._outHandle, e._error));
        return new Position(this.game, handle);
    }

    /**
     * Frees the state. Using it afterwards throws; a second free does nothing.
     *
     * @example
     * state.free();
     */
    free() {
        if (this._handle === 0) return;
        finalizers.unregister(this);
        this._engine.module._diabolo_state_free(this._handle);
        this._handle = 0;
    }
}

/**
 * A position, for search: a state's table alone, without its record (the moves that led
 * to it, the deals of later rounds, the last move's events), so that copying and playing
 * one allocates and records nothing. It gives the same legal actions, scores and tensors
 * as its state and checks a move the same way; it plays action ids only, and has no views,
 * events or JSON. A refused call throws and changes nothing.
 *
 * @example
 * const root = state.position();
 * const trial = root.clone();
 * for (let i = 0; i < 1000; ++i) {
 *   trial.resampleFrom(root, seat, i); // what `seat` cannot see, dealt anew
 *   while (!trial.isTerminal) {
 *     const next = trial.pendingSeats[0];
 *     trial.apply(next, trial.legalActions(next)[0]);
 *   }
 *   total += trial.scores()[seat];
 * }
 * trial.free();
 * root.free();
 */
export class Position {
    /** @param {Game} game @param {number} handle */
    constructor(game, handle) {
        this._engine = game._engine;
        this._handle = handle;
        /** The game of the position (it may be freed first). @example position.game.players */
        this.game = game;
        this._engine._track(this, this._engine.module._diabolo_position_free, handle);
    }

    /** The C handle, or an Error once freed. */
    _live() {
        if (this._handle === 0) throw new Error("this position was freed");
        return this._handle;
    }

    /** A seat, {@link SIMULTANEOUS} or {@link TERMINAL}. @example if (position.currentPlayer === 0) think(); */
    get currentPlayer() {
        return this._engine.module._diabolo_position_current_player(this._live());
    }

    /** The seats that may or must act now, ascending. @example const seat = position.pendingSeats[0]; */
    get pendingSeats() {
        return seatsOf(this._engine.module._diabolo_position_pending_seats(this._live()));
    }

    /** Whether the game is over. @example while (!position.isTerminal) step(position); */
    get isTerminal() {
        return this._engine.module._diabolo_position_is_terminal(this._live()) !== 0;
    }

    /**
     * The legal action ids of `player`, ascending.
     *
     * @param {number} player a seat
     * @returns {Int32Array}
     * @throws {PlayerError} for a seat that does not exist
     *
     * @example
     * const legal = position.legalActions(0);
     */
    legalActions(player) {
        return legalActionsOf(this, this._engine.module._diabolo_position_legal_actions, player);
    }

    /**
     * Plays an action id for `player`, checked as {@link State#apply} checks it.
     *
     * @param {number} player a seat
     * @param {number} action an action id
     * @throws {IllegalMoveError} (or StaleMoveError) when the rules forbid it now,
     *   NotationError for an id outside [0, numActions), PlayerError for a seat that does
     *   not exist; the position is then unchanged
     *
     * @example
     * position.apply(2, 17);
     */
    apply(player, action) {
        const e = this._engine;
        const status = e.module._diabolo_position_apply_action(
            this._live(),
            int32(player, "player"),
            int32(action, "action"),
            e._error,
        );
        if (status !== Status.OK) e._throw(status);
    }

    /**
     * Each seat's score so far.
     *
     * @returns {Int32Array}
     *
     * @example
     * const mine = position.scores()[seat];
     */
    scores() {
        return scoresOf(this, this._engine.module._diabolo_position_scores);
    }

    /**
     * The observation tensor of `player`, as {@link State#observationTensor} gives it.
     *
     * @param {number} player a seat
     * @returns {Float32Array}
     * @throws {PlayerError} for a seat that does not exist
     *
     * @example
     * const tensor = position.observationTensor(0);
     */
    observationTensor(player) {
        return tensorOf(this, this._engine.module._diabolo_position_observation_tensor, player);
    }

    /**
     * An independent copy.
     *
     * @returns {Position}
     *
     * @example
     * const trial = position.clone();
     */
    clone() {
        const handle = this._engine.module._diabolo_position_clone(this._live());
        if (handle === 0) throw outOfMemory();
        return new Position(this.game, handle);
    }

    /**
     * Overwrites this position with `other`, reusing this one's memory.
     *
     * @param {Position} other a position of the same game
     * @throws {OptionError} for a position of another game
     *
     * @example
     * trial.copyFrom(root);
     */
    copyFrom(other) {
        const e = this._engine;
        const status = e.module._diabolo_position_copy(this._live(), livePosition(other), e._error);
        if (status !== Status.OK) e._throw(status);
        this.game = other.game;
    }

    /**
     * Overwrites this position with the determinisation of `other` for `player`: what that
     * seat cannot see dealt anew from `seed`, the position of `state.resample(player, seed)`.
     * `other` may be this position itself.
     *
     * @param {Position} other a position of the same game
     * @param {number} player a seat
     * @param {number | bigint} seed
     * @throws {PlayerError} for a seat that does not exist; OptionError for a position of
     *   another game or a bad seed
     *
     * @example
     * trial.resampleFrom(root, 0, 99);
     */
    resampleFrom(other, player, seed) {
        const e = this._engine;
        const from = livePosition(other);
        const status = e.module._diabolo_position_resample(
            from,
            int32(player, "player"),
            seed64(seed),
            this._live(),
            e._error,
        );
        if (status !== Status.OK) e._throw(status);
        this.game = other.game;
    }

    /**
     * Frees the position. Using it afterwards throws; a second free does nothing.
     *
     * @example
     * position.free();
     */
    free() {
        if (this._handle === 0) return;
        finalizers.unregister(this);
        this._engine.module._diabolo_position_free(this._handle);
        this._handle = 0;
    }
}

/** The handle of a Position argument, or a TypeError. */
function livePosition(other) {
    if (!(other instanceof Position)) throw new TypeError(`a position copies a Position, got ${String(other)}`);
    return other._live();
}

/**
 * A bot: the move it makes for a seat, from what that seat may know.
 *
 * @example
 * const bot = game.bot("heuristic");
 * const choice = bot.choose(state, seat, 7);
 * if (choice !== null) state.apply(seat, choice.notation);
 * bot.free();
 */
export class Bot {
    /** @param {Game} game @param {number} handle @param {string} kind */
    constructor(game, handle, kind) {
        this._engine = game._engine;
        this._handle = handle;
        /** The game the bot plays (it may be freed first). @example bot.game.name */
        this.game = game;
        /** The bot's kind. @example bot.kind // "ismcts" */
        this.kind = kind;
        this._engine._track(this, this._engine.module._diabolo_bot_free, handle);
    }

    /**
     * The move the bot makes for `player` now, its random choices drawn from `seed`: the
     * same move as Python's `bot.choose(state, player, seed)` and, in the real-time games,
     * the same delay as `bot.propose(state, player, seed)`. `delay` is the seconds after
     * which the bot would act in live play (0 in Schacht), `delayUs` the same exactly, in
     * microseconds (as the C API and the golden transcripts give it). `action` is the
     * move's id, or {@link WAIT} for a move that has none; `notation` always plays it.
     * Null when the bot waits for the table to change or the seat has nothing to do.
     *
     * @param {State} state
     * @param {number} player a seat
     * @param {number | bigint} [seed]
     * @returns {{action: number, notation: string, delay: number, delayUs: number} | null}
     * @throws {PlayerError} for a seat that does not exist; OptionError for a state of
     *   another game
     *
     * @example
     * const choice = bot.choose(state, 0, 1n);
     * if (choice !== null) setTimeout(() => state.apply(0, choice.notation), choice.delay * 1000);
     */
    choose(state, player, seed = 0) {
        if (!(state instanceof State)) throw new TypeError(`a bot chooses for a State, got ${String(state)}`);
        const e = this._engine;
        const m = e.module;
        const out = e._out;
        const status = m._diabolo_bot_choose(
            this._live(),
            state._live(),
            int32(player, "player"),
            seed64(seed),
            out + OUT_ACTION,
            out + OUT_POINTER,
            out + OUT_DELAY,
            e._error,
        );
        if (status !== Status.OK) e._throw(status);
        const pointer = m.HEAPU32[(out + OUT_POINTER) >> 2];
        if (pointer === 0) return null;
        const delayUs = Number(m.HEAP64[(out + OUT_DELAY) >> 3]);
        return {
            action: m.HEAP32[(out + OUT_ACTION) >> 2],
            notation: e._take(pointer),
            delay: delayUs / 1e6,
            delayUs,
        };
    }

    /** The C handle, or an Error once freed. */
    _live() {
        if (this._handle === 0) throw new Error(`this ${this.kind} bot was freed`);
        return this._handle;
    }

    /**
     * Frees the bot. Using it afterwards throws; a second free does nothing.
     *
     * @example
     * bot.free();
     */
    free() {
        if (this._handle === 0) return;
        finalizers.unregister(this);
        this._engine.module._diabolo_bot_free(this._handle);
        this._handle = 0;
    }
}
