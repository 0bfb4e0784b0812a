// High card in the browser client (the test-only game, H1-H7): what the table and replay
// pages need of a game (games.mjs, "the client of a game"). It shows that a game of the
// catalogue plays in the browser with its folder here and no other edit of the client.

import { HighcardBoard } from "./board.mjs";
import { HighcardModel } from "./model.mjs";

/** @type {import("../../games.mjs").GameClient} */
export default {
  Board: HighcardBoard,
  Model: HighcardModel,
  explain: { card_not_in_hand: ({ move }) => `${move ? `The ${move}` : "That card"} is not in your hand` },
  notable: () => false,
  moments: () => [],
};
