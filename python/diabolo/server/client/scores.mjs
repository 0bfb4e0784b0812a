// A game's rounds as the events tell them: each round's points and the totals after it
// (round_ended), and the game's best moments for its end. A screen feeds it the events it
// applies; a page that joined a game under way also feeds it the public record's events
// (GameHistory.absorb), so that the rounds played before it came are there too.

import { h } from "./dom.mjs";
import { signed } from "./common.mjs";
import { COLOUR_NAMES } from "./schacht.mjs";
import { listText } from "./words.mjs";

/** Besides round_ended, the events a game's best moments are found in. */
const NOTABLE = {
  schacht: (e) => e.type === "colour_scored",
  knizia: (e) => e.type === "called" && e.valid,
  duvelen: () => false, // its moments are all in round_ended: herenhopen and points
};

export class GameHistory {
  /** game: its name; round: the round of the view the screen started from. */
  constructor(game, round) {
    this.game = game;
    this.joined = round;
    this.round = round; // the round the events are in
    this.ended = new Map(); // round -> its round_ended event
    this.notable = new Map(); // round -> its events the moments are found in
    this.over = false; // game_ended seen
  }

  note(event) {
    if (event.type === "round_started") {
      this.round = event.round;
    } else if (event.type === "round_ended") {
      this.ended.set(event.round, event);
    } else if (event.type === "game_ended") {
      this.over = true;
    } else if (NOTABLE[this.game](event)) {
      if (!this.notable.has(this.round)) this.notable.set(this.round, []);
      this.notable.get(this.round).push(event);
    }
  }

  /** Takes from `other` (read from the public record) what this history did not see: the
   * rounds that ended, and the moments of the rounds before it joined, or all of them
   * once `other` holds the whole game (this one may have joined in the middle of a round). */
  absorb(other) {
    for (const [round, event] of other.ended) if (!this.ended.has(round)) this.ended.set(round, event);
    for (const [round, events] of other.notable) if (other.over || round < this.joined) this.notable.set(round, events);
  }

  /** The rounds that ended, in order: {round, points, scores} (points null when unknown).
   * Schacht's round_ended gives only the totals: its points are the change since the
   * round before. */
  rows() {
    return [...this.ended.keys()]
      .sort((a, b) => a - b)
      .map((round) => {
        const e = this.ended.get(round);
        const before = round === 0 ? e.scores.map(() => 0) : this.ended.has(round - 1) ? this.ended.get(round - 1).scores : null;
        const points = e.points || (before && e.scores.map((score, seat) => score - before[seat]));
        return { round, points, scores: e.scores };
      });
  }

  /** The best moments of the game so far: [{kind, text}]. */
  moments(name) {
    return MOMENTS[this.game](this, name);
  }

  notableEvents() {
    return [...this.notable.keys()].sort((a, b) => a - b).flatMap((round) => this.notable.get(round).map((event) => ({ round, event })));
  }
}

/** The score table: a row per round that ended (each seat's points), then the totals. */
export function scoreTable(history, seats, name) {
  const rows = history.rows();
  if (!rows.length) return h("p", { class: "no-scores" }, "No round has ended yet.");
  const last = rows[rows.length - 1].scores;
  return h(
    "table",
    { class: "score-table" },
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        h("th", { scope: "col" }, "Round"),
        seats.map((seat) => h("th", { scope: "col" }, name(seat))),
      ),
    ),
    h(
      "tbody",
      {},
      rows.map(({ round, points }) =>
        h(
          "tr",
          { key: round, "data-round": round, "data-points": points ? points.join(" ") : "" },
          h("th", { scope: "row" }, String(round + 1)),
          seats.map((seat) => h("td", {}, points ? signed(points[seat]) : "–")),
        ),
      ),
    ),
    h(
      "tfoot",
      {},
      h(
        "tr",
        { class: "totals", "data-totals": last.join(" ") },
        h("th", { scope: "row" }, "Total"),
        seats.map((seat) => h("td", {}, String(last[seat]))),
      ),
    ),
  );
}

/** The seats whose value is `best`. */
function seatsWith(values, best) {
  return values
    .map((value, seat) => [value, seat])
    .filter(([value]) => value === best)
    .map(([, seat]) => seat);
}

const MOMENTS = {
  // The largest scoring colour: the most points one seat took from one colour (S5.3, S5.4).
  schacht(history, name) {
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
  },

  // The longest valid word called (K3.3), and the most cards one seat took in a round (K4.1).
  knizia(history, name) {
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
  },

  // The most Herenhopen over the game (D3.9), and the best round (D5).
  duvelen(history, name) {
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
  },
};

/** The highest value any seat had in a round (the first round that had it): {round, value, seats}. */
function bestOfRounds(history, values) {
  let best = null;
  for (const round of [...history.ended.keys()].sort((a, b) => a - b)) {
    const list = values(history.ended.get(round));
    const top = Math.max(...list);
    if (!best || top > best.value) best = { round, value: top, seats: seatsWith(list, top) };
  }
  return best;
}
