// A game's rounds as the events tell them: each round's points and the totals after it
// (round_ended), and the game's best moments for its end. A screen feeds it the events it
// applies; a page that joined a game under way also feeds it the public record's events
// (GameHistory.absorb), so that the rounds played before it came are there too.

import { h } from "./dom.mjs";
import { signed } from "./common.mjs";

export class GameHistory {
  /** client: the game's client (games.mjs: its notable events and moments); round: the
   * round of the view the screen started from. */
  constructor(client, round) {
    this.client = client;
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
    } else if (this.client.notable(event)) {
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
    return this.client.moments(this, name);
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
export function seatsWith(values, best) {
  return values
    .map((value, seat) => [value, seat])
    .filter(([value]) => value === best)
    .map(([, seat]) => seat);
}

/** The highest value any seat had in a round (the first round that had it): {round, value, seats}. */
export function bestOfRounds(history, values) {
  let best = null;
  for (const round of [...history.ended.keys()].sort((a, b) => a - b)) {
    const list = values(history.ended.get(round));
    const top = Math.max(...list);
    if (!best || top > best.value) best = { round, value: top, seats: seatsWith(list, top) };
  }
  return best;
}
