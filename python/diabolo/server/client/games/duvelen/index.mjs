// Duvelen in the browser client: what the table and replay pages need of the game
// (games.mjs, "the client of a game").

import { signed } from "../../common.mjs";
import { bestOfRounds, seatsWith } from "../../scores.mjs";
import { listText } from "../../words.mjs";
import { DuvelenBoard } from "./board.mjs";
import { EXPLAIN } from "./explain.mjs";
import { DuvelenModel } from "./model.mjs";

// The most Herenhopen over the game (D3.9), and the best round (D5).
function moments(history, name) {
  const seats = history.ended.size ? [...history.ended.values()][0].scores.length : 0;
  const held = Array(seats).fill(0);
  for (const e of history.ended.values()) for (const heren of e.herenhopen) held[heren.holder] += 1;
  const top = Math.max(0, ...held);
  const moments = [
    top
      ? { kind: "herenhopen", text: `Most Herenhopen: ${listText(seatsWith(held, top).map(name))}, ${top}${seatsWith(held, top).length > 1 ? " each" : ""}.` }
      : { kind: "herenhopen", text: "Most Herenhopen: no pile was completed." },
  ];
  const best = bestOfRounds(history, (e) => e.points);
  if (best) moments.push({ kind: "round", text: `Best round: ${listText(best.seats.map(name))} ${signed(best.value)} in round ${best.round + 1}.` });
  return moments;
}

/** @type {import("../../games.mjs").GameClient} */
export default {
  Board: DuvelenBoard,
  Model: DuvelenModel,
  explain: EXPLAIN,
  notable: () => false /* its moments are all in round_ended: herenhopen and points */,
  moments,
};
