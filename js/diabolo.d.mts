/**
 * TypeScript declarations of diabolo.mjs: every game of the engine in Node and in browsers,
 * through the C API built as WebAssembly (tools/build-wasm.sh).
 *
 * @example
 * import { loadDiabolo } from "diabolo";
 * const engine = await loadDiabolo();
 * const game = engine.load("schacht", { players: 3 });
 * const state = game.newState(7);
 */

/** The seat of a spectator, for views and events. */
export const SPECTATOR: -1;
/** `state.currentPlayer` of a real-time game: every pending seat may act. */
export const SIMULTANEOUS: -2;
/** `state.currentPlayer` of a finished game. */
export const TERMINAL: -4;
/** The action of a bot's choice that is no action id (see {@link Bot.choose}). */
export const WAIT: -1;

/**
 * The statuses of the C API (diabolo_status).
 *
 * @example
 * if (error.status === Status.ILLEGAL_MOVE) showRule(error.clause);
 */
export const Status: Readonly<{
    OK: 0;
    ILLEGAL_MOVE: 1;
    STALE_MOVE: 2;
    BAD_NOTATION: 3;
    BAD_OPTION: 4;
    BAD_STATE: 5;
    BAD_PLAYER: 6;
    LIMIT: 7;
    ERROR: 8;
    BAD_ARGUMENT: 9;
}>;

/** A seed: an integer number (a safe integer) or a bigint, in [0, 2**64). */
export type Seed = number | bigint;

/** A game's id. */
export type GameName = "schacht" | "duvelen" | "knizia";

/** The fields of an error beside its message. */
export interface ErrorDetails {
    status?: number;
    code?: string;
    clause?: string;
}

/**
 * Base class of every error the engine reports; the call that threw changed nothing.
 *
 * @example
 * try { state.apply(1, "bet"); } catch (e) { if (e instanceof DiaboloError) console.log(e.code); }
 */
export class DiaboloError extends Error {
    constructor(message: string, details?: ErrorDetails);
    /** The C API's status (a value of {@link Status}). */
    readonly status: number;
    /** The error's stable machine-readable code ("side_full"). */
    readonly code: string;
    /** The rule's clause ("S3.2"), or "". */
    readonly clause: string;
}
/** A well-formed move that the rules forbid now. @example e instanceof IllegalMoveError */
export class IllegalMoveError extends DiaboloError {}
/** A move that lost a race to another move. @example e instanceof StaleMoveError */
export class StaleMoveError extends IllegalMoveError {}
/** Text or an action id that is not a move of the game. @example e instanceof NotationError */
export class NotationError extends DiaboloError {}
/** An unknown game, a bad option or argument. @example e instanceof OptionError */
export class OptionError extends DiaboloError {}
/** A saved state, a deal or a word list that is not valid. @example e instanceof StateFormatError */
export class StateFormatError extends DiaboloError {}
/** A seat that does not exist. @example e instanceof PlayerError */
export class PlayerError extends DiaboloError {}
/** Work past one of the engine's documented limits. @example e instanceof LimitError */
export class LimitError extends DiaboloError {}

/** Where loadDiabolo finds the generated module and its .wasm. */
export interface LoadOptions {
    /** The generated diabolo.mjs (a URL, or in Node a path); default: dist/ next to diabolo.mjs. */
    module?: string | URL;
    /** The generated module's factory (createDiaboloModule), for bundlers. */
    factory?: (settings: object) => Promise<object>;
    /** diabolo.wasm (a URL, a path or its bytes); default: next to the module. */
    wasm?: string | URL | ArrayBuffer | ArrayBufferView;
}

/**
 * Loads the WebAssembly engine.
 *
 * @example
 * const engine = await loadDiabolo({ module: "build/wasm/diabolo.mjs" });
 */
export function loadDiabolo(options?: LoadOptions): Promise<Diabolo>;

/** The loaded engine. @example engine.games // ["duvelen", "knizia", "schacht"] */
/** A game's entry in the catalogue. */
export interface GameInfo {
    name: string;
    title: string;
    min_players: number;
    max_players: number;
    /** The fewest seats some options allow (Schacht: 2 without strict_players). */
    min_players_any: number;
    /** The most seats some options allow (Schacht: 8 without strict_players). */
    max_players_any: number;
    real_time: boolean;
    listed: boolean;
    bots: string[];
    lexicon: string | null;
    /** The bot kind that plays on for a person who leaves a game under way. */
    stand_in: string;
}

export class Diabolo {
    /** The Emscripten module, for what this API does not wrap. */
    readonly module: any;
    /** The library's version ("0.1.0"). */
    readonly version: string;
    /** The version of the C API the module was built with. */
    readonly apiVersion: number;
    /** The ids of the games, sorted. */
    readonly games: string[];
    /** The catalogue of games (tests-only games included, `listed` false). */
    readonly catalogue: GameInfo[];
    /**
     * A game by id with its options; a Knizia game takes its word list as the option
     * `lexicon` (words) or as `data.lexicon` (the bytes of Python's Lexicon.to_bytes()).
     *
     * @example
     * const game = engine.load("duvelen", { players: 4 });
     */
    load(name: GameName | string, options?: object, data?: { lexicon?: ArrayBuffer | ArrayBufferView }): Game;
}

/** Random games' results: game i's seat p scored scores[i * players + p]. */
export interface RandomPlayResult {
    scores: Int32Array;
    moves: Int32Array;
}

/** A game with its options. @example const state = engine.load("schacht").newState(1); */
export class Game {
    /** The game's id. */
    readonly name: string;
    /** The number of seats. */
    readonly players: number;
    /** The number of action ids. */
    readonly numActions: number;
    /** Whether the game is played in real time (Duvelen, Knizia), not in turns (Schacht). */
    readonly realTime: boolean;
    /** Every option with its value. */
    readonly options: Record<string, any>;
    /** The options as the engine's JSON text. */
    readonly optionsJSON: string;
    /** The kinds of bots of the game. */
    readonly bots: string[];
    /**
     * A new game shuffled from `seed`, or dealt from `deal` ({deck: [...]} or {decks: [...]}).
     *
     * @example
     * const state = game.newState(42n);
     */
    newState(seed?: Seed, deal?: { deck?: string[]; decks?: (string[] | null)[] }): State;
    /** The state a JSON text of State.toJSON holds. @example game.stateFromJSON(saved) */
    stateFromJSON(text: string): State;
    /** The notation of an action id. @example game.actionNotation(0) */
    actionNotation(action: number): string;
    /** Whole games of random legal moves, on this thread. @example game.playRandom(100, 1) */
    playRandom(games: number, seed?: Seed): RandomPlayResult;
    /** A bot of this game by kind. @example game.bot("ismcts", { iterations: 500 }) */
    bot(kind: string, options?: object): Bot;
    /** Frees the game; its states and bots live on. @example game.free() */
    free(): void;
}

/** A legal move as the seat's view lists it. */
export interface LegalMove {
    /** The move in the game's notation. */
    notation: string;
    /** The move as data ({kind: "place", card: "R1", side: "left"}). */
    move: Record<string, any>;
}

/** A game in progress. @example state.apply(seat, state.legalActions(seat)[0]) */
export class State {
    /** The game the state was made from. */
    readonly game: Game;
    /** A seat, SIMULTANEOUS or TERMINAL. */
    readonly currentPlayer: number;
    /** The seats that may or must act now, ascending. */
    readonly pendingSeats: number[];
    /** Whether the game is over. */
    readonly isTerminal: boolean;
    /** The number of moves applied so far. */
    readonly version: number;
    /** The legal action ids of a seat, ascending. @example state.legalActions(0) */
    legalActions(player: number): Int32Array;
    /** mask[id] = 1 for each legal action id of a seat. @example state.legalMask(0) */
    legalMask(player: number): Uint8Array;
    /** The legal moves of a seat with notation and data. @example state.legalMoves(0) */
    legalMoves(player: number): LegalMove[];
    /**
     * Plays an action id or a move in notation; throws and changes nothing if refused.
     * @example state.apply(1, "G5<")
     */
    apply(player: number, move: number | string): void;
    /** A seat's view (parsed JSON). @example state.observation(0).hand */
    observation(player: number): Record<string, any>;
    /** A seat's (or SPECTATOR's) view as JSON text. @example state.observationJSON(-1) */
    observationJSON(player: number): string;
    /** A spectator's view. @example state.publicObservation().scores */
    publicObservation(): Record<string, any>;
    /** The events of the last move as a seat (or SPECTATOR) sees them. @example state.events(0) */
    events(player: number): Record<string, any>[];
    /** The JSON text of events(player). @example state.eventsJSON(0) */
    eventsJSON(player: number): string;
    /** The events of the last move as a spectator sees them. @example state.publicEvents() */
    publicEvents(): Record<string, any>[];
    /** Each seat's score so far. @example state.scores()[0] */
    scores(): Int32Array;
    /** What `player` may know as floats (Python's observation_tensor). @example state.observationTensor(0).length */
    observationTensor(player: number): Float32Array;
    /** The whole state as JSON text. @example localStorage.setItem("save", state.toJSON()) */
    toJSON(): string;
    /** An independent copy. @example const trial = state.clone() */
    clone(): State;
    /** What a seat cannot see dealt anew from a seed. @example state.resample(0, 99) */
    resample(player: number, seed: Seed): State;
    /** The state's position, for search (its table without its record). @example const root = state.position() */
    position(): Position;
    /** Frees the state. @example state.free() */
    free(): void;
}

/**
 * A position, for search: a state's table without its record, that copies and plays
 * without allocating; action ids only, no views, events or JSON.
 *
 * @example
 * const trial = state.position();
 * trial.apply(seat, trial.legalActions(seat)[0]);
 */
export class Position {
    /** The game of the position. */
    readonly game: Game;
    /** A seat, SIMULTANEOUS or TERMINAL. */
    readonly currentPlayer: number;
    /** The seats that may or must act now, ascending. */
    readonly pendingSeats: number[];
    /** Whether the game is over. */
    readonly isTerminal: boolean;
    /** The legal action ids of a seat, ascending. @example position.legalActions(0) */
    legalActions(player: number): Int32Array;
    /**
     * Plays an action id, checked as State.apply checks it; throws and changes nothing if refused.
     * @example position.apply(2, 17)
     */
    apply(player: number, action: number): void;
    /** Each seat's score so far. @example position.scores()[0] */
    scores(): Int32Array;
    /** What `player` may know as floats, as State.observationTensor. @example position.observationTensor(0) */
    observationTensor(player: number): Float32Array;
    /** An independent copy. @example const trial = position.clone() */
    clone(): Position;
    /** Overwrites this position with another of the same game (else OptionError). @example trial.copyFrom(root) */
    copyFrom(other: Position): void;
    /**
     * Overwrites this position with `other`'s determinisation for a seat: the position of
     * state.resample(player, seed). `other` may be this position.
     * @example trial.resampleFrom(root, 0, 99)
     */
    resampleFrom(other: Position, player: number, seed: Seed): void;
    /** Frees the position. @example position.free() */
    free(): void;
}

/** A bot's move: its action id (or WAIT), its notation and its delay. */
export interface BotChoice {
    action: number;
    notation: string;
    /** Seconds, as Python's propose gives them. */
    delay: number;
    /** The same delay in whole microseconds, exactly. */
    delayUs: number;
}

/** A bot. @example const choice = game.bot("heuristic").choose(state, 1, 7) */
export class Bot {
    /** The game the bot plays. */
    readonly game: Game;
    /** The bot's kind. */
    readonly kind: string;
    /** The bot's move for a seat now, or null when it waits. @example bot.choose(state, 0, 1n) */
    choose(state: State, player: number, seed?: Seed): BotChoice | null;
    /** Frees the bot. @example bot.free() */
    free(): void;
}
