// Diabolo (Schacht)'s client model: its view kept from events (models.mjs).

import { ClientModel, clone, removeOne, SIMULTANEOUS, TERMINAL } from "../../models.mjs";

// docs/games/schacht.rst S7.4
export class SchachtModel extends ClientModel {
  static colours = "RYGPB";

  sort(cards) {
    const key = (card) => [SchachtModel.colours.indexOf(card[0]), card[1]];
    return [...cards].sort((a, b) => {
      const [ka, kb] = [key(a), key(b)];
      return ka[0] - kb[0] || (ka[1] < kb[1] ? -1 : ka[1] > kb[1] ? 1 : 0);
    });
  }

  own(e) {
    return e.seat === this.seat;
  }

  on_round_started(e) {
    const v = this.view;
    const n = v.scores.length;
    Object.assign(v, { round: e.round, dealer: e.dealer, draw_pile: e.draw_pile, phase: "play" });
    Object.assign(v, { hand_sizes: Array(n).fill(0), doubler_available: Array(n).fill(true), scoring_colour: null });
    v.rows = {};
    for (const c of SchachtModel.colours) v.rows[c] = { left: [], right: [], closed: false };
    v.revealed = {
      shown: Array.from({ length: n }, () => []),
      discarded: Array.from({ length: n }, () => []),
      scoring: {},
    };
    v.turns = [];
    if (this.seat !== null) Object.assign(v, { hand: [], doubler_decision: null });
  }

  on_dealt(e) {
    if ("cards" in e) this.view.hand = this.sort(e.cards);
    this.view.hand_sizes[e.seat] = "cards" in e ? e.cards.length : e.count;
  }

  on_drew(e) {
    this.view.hand_sizes[e.seat] += 1;
    this.view.draw_pile -= 1;
    if ("card" in e) this.view.hand = this.sort([...this.view.hand, e.card]);
  }

  on_turn(e) {
    this.view.current_player = e.seat;
  }

  on_placed(e) {
    const row = this.view.rows[e.card[0]];
    row[e.side].push(Number(e.card[1]));
    row.closed = row.left.length + row.right.length === 5;
    this.view.hand_sizes[e.seat] -= 1;
    if (this.own(e)) removeOne(this.view.hand, e.card);
    this.turn(e.seat, e.card + (e.side === "left" ? "<" : ">"));
  }

  // S7.1: who laid what this round (a view without its turns, null, stays so).
  turn(seat, move) {
    if (this.view.turns) this.view.turns.push({ seat, move });
  }

  on_row_closed(e) {
    this.view.rows[e.colour].closed = true;
  }

  on_discarded(e) {
    const revealed = this.view.revealed;
    revealed.shown[e.seat] = clone(e.shown);
    revealed.discarded[e.seat] = this.sort([...revealed.discarded[e.seat], e.card]);
    this.view.hand_sizes[e.seat] -= 1;
    if (this.own(e)) removeOne(this.view.hand, e.card);
    this.turn(e.seat, `x${e.card}`);
  }

  on_play_ended() {
    this.view.current_player = SIMULTANEOUS;
  }

  on_doubler_asked(e) {
    Object.assign(this.view, { phase: "doubler", current_player: SIMULTANEOUS, scoring_colour: e.colour });
  }

  on_doubler_decided(e) {
    this.view.doubler_decision = e.decision;
  }

  on_colour_scored(e) {
    const v = this.view;
    if (e.hands !== null && e.hands !== undefined) v.revealed.scoring[e.colour] = clone(e.hands);
    v.scores = v.scores.map((score, seat) => score + e.points[seat]);
    for (const seat of e.bets) v.doubler_available[seat] = false;
    Object.assign(v, { phase: "play", scoring_colour: null });
    if (this.seat !== null) v.doubler_decision = null;
  }

  on_round_ended(e) {
    this.view.scores = clone(e.scores);
  }

  on_game_ended(e) {
    Object.assign(this.view, { phase: "game_over", current_player: TERMINAL, scores: clone(e.scores) });
  }
}
