/**
 * The script of words.html: two "word" bots play a seeded game of Knizia's Diabolo through
 * the WebAssembly engine, with a word list the page fetches in its binary form (the bytes
 * Python's diabolo.Lexicon.to_bytes() writes), and the page lists each move and the scores.
 *
 * The game: engine.load("knizia", { players: 2, rounds: 2, deck }, { lexicon: bytes }) and
 * game.newState(seed). The page's parameters: ?seed=N (1 by default), ?lexicon=URL (relative
 * to the page; ../../build/wasm/words.lexicon by default) and ?deck=JSON (a deck in the form
 * of K10.7; by default DECK below, tests/transcripts.py's KNIZIA_DECK). Each seat has a bot
 * of the kind "word" (no options). Before each move the pending seats are asked in
 * ascending order, seat s of move n with the seed n * 16 + s, and the first move given is
 * played; when every bot waits, the lowest pending seat plays its lowest legal action. That
 * is the rule of the golden transcripts (tests/transcripts.py), and
 * tests/test_browser_example.py checks the page against the same game played through Python
 * (diabolo.knizia.WordBot).
 *
 * Each move of the list #moves is `seat 0 plays TEE`, with the delay after which the bot
 * would have acted in live play in data-delay-us (none when every bot waited). The element
 * #result ends as `scores: 43 0` with data-scores="43 0" and data-moves (the number of
 * moves), or with data-error and the message if something failed.
 */
import { loadDiabolo } from "../diabolo.mjs";

// Where `bash tools/build-wasm.sh build/wasm` put the engine; diabolo.wasm is fetched from
// beside it. With the npm package (dist/ beside diabolo.mjs), loadDiabolo() needs no argument.
const MODULE = new URL("../../build/wasm/diabolo.mjs", import.meta.url);
// The word list's binary form, relative to the page (tests/test_browser_example.py writes it).
const LEXICON = "../../build/wasm/words.lexicon";
// Each card's count in the deck (K10.7): tests/transcripts.py's KNIZIA_DECK.
const DECK = { language: "", cards: { A: 3, E: 4, N: 2, O: 2, R: 3, S: 3, T: 4, ST: 1, "?": 1, "??": 1 } };
// A guard: the page stops with an error rather than play a game that would not end.
const MAX_MOVES = 10_000;

const result = document.getElementById("result");
const moves = document.getElementById("moves");

/** The page's parameters: the deal's seed, the word list's URL and the deck. */
function parameters() {
    const query = new URLSearchParams(location.search);
    const asked = query.get("seed") ?? "";
    const seed = /^\d{1,19}$/.test(asked) ? BigInt(asked) : 1n;
    const lexicon = new URL(query.get("lexicon") || LEXICON, location.href);
    let deck = DECK;
    if (query.has("deck")) {
        try {
            deck = JSON.parse(query.get("deck"));
        } catch (error) {
            throw new Error(`the deck parameter is not JSON: ${error.message}`);
        }
    }
    return { seed, lexicon, deck };
}

try {
    const { seed, lexicon, deck } = parameters();
    document.getElementById("seed").textContent = String(seed);
    document.getElementById("lexicon").textContent = lexicon.href;
    document.getElementById("deck").textContent = JSON.stringify(deck);
    const response = await fetch(lexicon);
    if (!response.ok) throw new Error(`${lexicon.href}: HTTP ${response.status} ${response.statusText}`);
    const bytes = new Uint8Array(await response.arrayBuffer());
    const engine = await loadDiabolo({ module: MODULE });
    const game = engine.load("knizia", { players: 2, rounds: 2, deck }, { lexicon: bytes });
    document.getElementById("words").textContent = String(game.options.lexicon.words);
    const state = game.newState(seed);
    const bots = Array.from({ length: game.players }, () => game.bot("word"));
    let move = 0;
    while (!state.isTerminal) {
        if (move === MAX_MOVES) throw new Error(`the game did not end in ${MAX_MOVES} moves`);
        const pending = state.pendingSeats;
        let [seat, choice] = [pending[0], null];
        for (const asked of pending) {
            choice = bots[asked].choose(state, asked, move * 16 + asked);
            if (choice !== null) {
                seat = asked;
                break;
            }
        }
        // When every bot waits, the lowest pending seat plays its lowest legal action.
        const notation = choice?.notation ?? game.actionNotation(state.legalActions(seat)[0]);
        state.apply(seat, notation);
        const item = document.createElement("li");
        item.textContent = `seat ${seat} plays ${notation}`;
        // The bot's delay in live play (K6.3), drawn from its seed: microseconds, as Python's.
        if (choice !== null) item.dataset.delayUs = String(choice.delayUs);
        moves.append(item);
        move += 1;
    }
    const scores = Array.from(state.scores()).join(" ");
    for (const bot of bots) bot.free();
    state.free();
    game.free();
    result.dataset.moves = String(move);
    result.dataset.scores = scores;
    result.textContent = `scores: ${scores}`;
} catch (error) {
    result.dataset.error = String(error?.message ?? error);
    result.textContent = `error: ${result.dataset.error}`;
    throw error;
}
