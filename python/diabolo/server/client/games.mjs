// The client of each game, one folder per game: games/<name>/index.mjs, named as the
// catalogue names the game (diabolo.catalogue(), /api/games). A page loads the client of
// the game it shows, and only that one; a game with a folder here needs no other edit of
// the client (docs/server.rst, "A game in the browser").
//
// A game's client is the default export of its index.mjs, a GameClient, made of the
// folder's index.mjs, board.mjs and model.mjs (table.html fetches those three at once); the
// folder's rules.html is the game's rules for people (rules.mjs shows it):
//
// - Board: made with the screen's context (below) at each new view; the screen calls
//     render()            -> the board's elements (dom.mjs h), at every change
//     before(events)      the events of one move, before the model applies them (motion, sounds)
//     describe(event)     -> the log's line for an event, or null
//     roundSummary(event) -> the content of the banner at a round_ended event
//     isTurn(seat)        -> whether the seat is to act (its name is ringed)
//     seatFacts(seat)     -> short facts shown under a seat's score (cards in hand...)
//   and, where the board has them:
//     placeFocus(lost)    put the keyboard's focus after a render (lost: it was on an element gone)
//     flights             its Flights (motion.mjs), landed after each render: cards fly
//     rejected(entry)     -> true if the board shows a refused move itself
//     keydown(event)      -> true if the key was the board's
//     typing              true if keys typed into the board's text fields are the board's
// - Model: a ClientModel (models.mjs) of the game's view, made from a view and fed events.
// - explain: {code: (facts) => text}, the game's refusals in plain words (screen.mjs
//   explainRefusal; the codes every game shares are there).
// - notable(event): whether the game's best moments are found in the event (scores.mjs).
// - moments(history, name): the best moments of the game so far, [{kind, text}].
//
// The board's context: view, legal (the seat's legal moves, in notation), hints, seat
// (null: watching), name(seat), says(seat, verb), send(move), rerender(), mark(key, cls,
// ms), marked(key), notice(text, kind), timerText(), settled (what the status line says
// instead of a turn when none runs: the game is over, or the table waits for its people;
// else null).

/**
 * @typedef {object} GameClient
 * @property {new (context: object) => any} Board
 * @property {new (view: any) => import("./models.mjs").ClientModel} Model
 * @property {Record<string, (facts: any) => string>} explain
 * @property {(event: any) => boolean} notable
 * @property {(history: any, name: (seat: number) => string) => {kind: string, text: string}[]} moments
 */

const GAME_NAME = /^[a-z][a-z0-9_]*$/;
/** @type {Map<string, Promise<GameClient>>} */
const loaded = new Map();

/** The client of the game `name`, loaded once. @param {string} name @returns {Promise<GameClient>} */
export function gameClient(name) {
  if (!GAME_NAME.test(name)) return Promise.reject(new Error(`no client for the game ${JSON.stringify(name)}`));
  if (!loaded.has(name))
    loaded.set(
      name,
      import(`./games/${name}/index.mjs`).then((module) => module.default),
    );
  return loaded.get(name);
}
