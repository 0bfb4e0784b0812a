// Duvelen in the browser client: what the table and replay pages need of the game
// (games.mjs, "the client of a game").

import { signed } from "../../common.mjs";
import { bestOfRounds, seatsWith } from "../../scores.mjs";
import { capital, listText } from "../../words.mjs";
import { cardText, DuvelenBoard, parsePlay, rankText, SOURCES, SUITS } from "./board.mjs";
import { DuvelenModel } from "./model.mjs";

// Duvelen's refusals in plain words, by the engine's error code (screen.mjs
// explainRefusal; the codes every game shares are there).
/** A Duvelen play's parts, the short form (R2>3) too: {source, card (or null), pile}. */
function duvelenPlay(move) {
  const play = parsePlay(move || "");
  if (play) return play;
  const short = /^(S|R[1-4]|W)>(\d+|new)$/.exec(move || "");
  return short ? { source: short[1], card: null, pile: short[2] } : { source: null, card: null, pile: null };
}

function theCard(card) {
  return card ? `the ${cardText(card)}` : "that card";
}

const EXPLAIN = {
  after_stop: () => "Stop has been called: nobody turns or recycles the Draaistok any more; play what you can, then pass",
  draaistok_empty: () => "Your Draaistok is empty: recycle the waste to turn again",
  draaistok_not_empty: () => "Your Draaistok still has cards: turn them before you recycle the waste",
  waste_empty: () => "Your waste is empty: there is nothing to recycle",
  stop_already_called: ({ view, name }) =>
    view.stop_called_by === null || view.stop_called_by === undefined
      ? "Stop has already been called this round, and a round has one Stop"
      : `${name(view.stop_called_by)} has already called Stop, and a round has one Stop`,
  stok_not_empty: ({ view, me }) => {
    const left = view.seats && me !== null ? view.seats[me].stok_count : null;
    return `You can call Stop only once your Stok is empty${left ? `: ${left} ${left === 1 ? "card is" : "cards are"} left in it` : ""}`;
  },
  pass_before_stop: () => "There is no passing before Stop: turn, recycle or wait",
  source_empty: ({ move }) => `Your ${SOURCES[duvelenPlay(move).source] || "place"} is empty: there is no card to play from it`,
  card_moved: ({ move }) => {
    const { source, card } = duvelenPlay(move);
    return `${capital(theCard(card))} is no longer on your ${SOURCES[source] || "place"}: another card is there now`;
  },
  ace_starts_a_pile: ({ move }) => `An Ace starts a new pile and goes on no other: play ${theCard(duvelenPlay(move).card)} to a new pile`,
  only_aces_start_piles: ({ move }) => `Only an Ace starts a new pile: ${theCard(duvelenPlay(move).card)} goes on a pile of its suit whose top is one lower`,
  no_such_pile: ({ move }) => `There is no pile ${duvelenPlay(move).pile || "there"} now: it was completed, or never started`,
  pile_complete: ({ move }) => `${duvelenPlay(move).pile ? `Pile ${duvelenPlay(move).pile}` : "That pile"} is complete: a King made it a Herenhoop`,
  pile_wants_another: ({ move, view }) => {
    const { card, pile: id } = duvelenPlay(move);
    const pile = (view.piles || []).find((p) => String(p.id) === id);
    if (!pile || pile.top >= 13) return `${capital(theCard(card))} does not fit there: a pile takes the next card of its suit`;
    return `Pile ${id} takes the ${rankText(pile.top + 1)}${SUITS[pile.suit]} next: ${theCard(card)} does not fit`;
  },
};

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
