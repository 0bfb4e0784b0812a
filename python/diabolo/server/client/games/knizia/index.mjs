// Diabolo (Knizia) in the browser client: what the table and replay pages need of the game
// (games.mjs, "the client of a game").

import { bestOfRounds } from "../../scores.mjs";
import { listText } from "../../words.mjs";
import { KniziaBoard } from "./board.mjs";
import { KniziaModel } from "./model.mjs";

// Diabolo (Knizia)'s refusals in plain words, by the engine's error code (screen.mjs
// explainRefusal; the codes every game shares are there).
const EXPLAIN = {
  penalty_pending: ({ view, me, name, move }) => {
    const taker = view.penalty ? view.penalty[0] : undefined;
    if (taker === me) return "The game waits for you to take a penalty card: take one from the line first";
    return `The game waits for ${taker === undefined ? "a player" : name(taker)} to take a penalty card: ${move || "your move"} has to wait`;
  },
  not_your_penalty: ({ view, name }) =>
    `It is ${view.penalty?.length ? `${name(view.penalty[0])}'s` : "another player's"} turn to take a penalty card, not yours`,
  no_such_position: () => "That card is no longer in the line",
  no_penalty: () => "A card is taken from the line only as the penalty of an invalid call",
  not_the_dealer: ({ view, name }) => `Only the dealer, ${name(view.dealer)}, reveals cards`,
  deck_empty: () => "The deck is used up: there is nothing left to reveal",
  invalid_claim: ({ move, params }) => `${move || "That word"} is not a valid call now${params.reason ? `: ${params.reason}` : ""}`,
};

// The longest valid word called (K3.3), and the most cards one seat took in a round (K4.1).
function moments(history, name) {
  let longest = null;
  for (const { round, event } of history.notableEvents()) if (!longest || event.word.length > longest.event.word.length) longest = { round, event };
  const moments = [
    longest
      ? {
          kind: "word",
          text: `Longest word: ${longest.event.word}, called by ${name(longest.event.seat)} in round ${longest.round + 1} (${longest.event.word.length} letters).`,
        }
      : { kind: "word", text: "Longest word: no valid word was called." },
  ];
  const most = bestOfRounds(history, (e) => e.piles);
  if (most) moments.push({ kind: "cards", text: `Most cards in a round: ${listText(most.seats.map(name))} took ${most.value} in round ${most.round + 1}.` });
  return moments;
}

/** @type {import("../../games.mjs").GameClient} */
export default { Board: KniziaBoard, Model: KniziaModel, explain: EXPLAIN, notable: (e) => e.type === "called" && e.valid, moments };
