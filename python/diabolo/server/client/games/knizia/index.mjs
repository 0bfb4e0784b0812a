// Diabolo (Knizia) in the browser client: what the table and replay pages need of the game
// (games.mjs, "the client of a game").

import { bestOfRounds } from "../../scores.mjs";
import { listText } from "../../words.mjs";
import { KniziaBoard } from "./board.mjs";
import { EXPLAIN } from "./explain.mjs";
import { KniziaModel } from "./model.mjs";

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
