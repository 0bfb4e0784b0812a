// Diabolo (Schacht) in the browser client: what the table and replay pages need of the game
// (games.mjs, "the client of a game").

import { signed } from "../../common.mjs";
import { seatsWith } from "../../scores.mjs";
import { listText } from "../../words.mjs";
import { COLOUR_NAMES, SchachtBoard } from "./board.mjs";
import { EXPLAIN } from "./explain.mjs";
import { SchachtModel } from "./model.mjs";

// The largest scoring colour: the most points one seat took from one colour (S5.3, S5.4).
function moments(history, name) {
  let best = null;
  for (const { round, event } of history.notableEvents()) {
    const top = Math.max(...event.points);
    if (top > 0 && (!best || top > best.top)) best = { round, event, top };
  }
  if (!best) return [{ kind: "colour", text: "Largest colour: no colour scored plus points." }];
  const { round, event, top } = best;
  const seats = seatsWith(event.points, top);
  const bets = event.bets.length ? `doubler bet by ${listText(event.bets.map(name))}` : "no doubler bet";
  return [
    {
      kind: "colour",
      text: `Largest colour: ${listText(seats.map(name))} scored ${signed(top)}${seats.length > 1 ? " each" : ""} on ${COLOUR_NAMES[event.colour]} in round ${round + 1} (${bets}).`,
    },
  ];
}

/** @type {import("../../games.mjs").GameClient} */
export default { Board: SchachtBoard, Model: SchachtModel, explain: EXPLAIN, notable: (e) => e.type === "colour_scored", moments };
