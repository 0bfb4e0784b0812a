// Diabolo (Schacht) in the browser client: what the table and replay pages need of the game
// (games.mjs, "the client of a game").

import { signed } from "../../common.mjs";
import { seatsWith } from "../../scores.mjs";
import { listText } from "../../words.mjs";
import { COLOUR_NAMES, SchachtBoard } from "./board.mjs";
import { SchachtModel } from "./model.mjs";

// Diabolo (Schacht)'s refusals in plain words, by the engine's error code (screen.mjs
// explainRefusal; the codes every game shares are there).
/** A Schacht move's parts: {card, colour (its name), side ("devil", "angel" or null)}. */
function schachtMove(move) {
  const match = /^x?([RYGPB])([1-5])([<>]?)$/.exec(move || "");
  if (!match) return { card: null, colour: null, side: null };
  return { card: match[1] + match[2], colour: COLOUR_NAMES[match[1]], side: { "<": "devil", ">": "angel" }[match[3]] || null };
}

const EXPLAIN = {
  not_your_turn: ({ view, name }) =>
    view.current_player >= 0 ? `It is not your turn: ${name(view.current_player)} plays now` : "It is nobody's turn: the rows are being scored",
  card_not_in_hand: ({ move }) => `${schachtMove(move).card || "That card"} is not in your hand`,
  row_closed: ({ move }) => {
    const { card, colour } = schachtMove(move);
    return `${card ? `You cannot place ${card}: ` : ""}the ${colour || "that"} row is closed, it holds five cards and takes no more`;
  },
  side_full: ({ move }) => {
    const { card, colour, side } = schachtMove(move);
    return `You cannot place ${card || "a card"} on the ${side || "that"} side: that side of the ${colour || "that"} row already holds three cards, the most a side takes`;
  },
  discard_not_allowed: ({ move }) =>
    `You cannot discard ${schachtMove(move).card || "a card"}: a card is discarded only when none of yours can be placed, and one of yours can`,
  doubler_decisions_only: ({ view }) =>
    `${COLOUR_NAMES[view.scoring_colour] ? `The ${COLOUR_NAMES[view.scoring_colour]} row` : "A colour"} is being scored: only the doubler decisions, bet or hold, are open now`,
  no_doubler_decision_now: () => "No colour awaits a doubler decision: the doubler is bet or held only while a positive colour is scored",
  already_decided: ({ view }) => `You have already decided on the doubler for ${COLOUR_NAMES[view.scoring_colour] || "this colour"}`,
  doubler_spent: () => "Your doubler is spent this round: it was bet on an earlier colour",
};

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
