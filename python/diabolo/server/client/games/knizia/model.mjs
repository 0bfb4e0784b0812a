// Diabolo (Knizia)'s client model: its view kept from events (models.mjs).

import { ClientModel, clone } from "../../models.mjs";

// docs/games/knizia.rst K8, K10.6
export class KniziaModel extends ClientModel {
  afterPenalty() {
    this.view.phase = this.view.penalty.length ? "penalty" : "play";
  }

  on_revealed(e) {
    this.view.table.push(e.card);
    this.view.deck_count = e.deck_count;
    this.view.passed[e.seat] = false;
  }

  on_passed(e) {
    this.view.passed[e.seat] = true;
  }

  on_called(e) {
    const v = this.view;
    v.last_call = { seat: e.seat, word: e.word, valid: e.valid, reason: e.reason };
    v.passed[e.seat] = false;
    if (e.valid) {
      for (const position of [...e.positions].sort((a, b) => b - a)) v.table.splice(position, 1);
      v.piles[e.seat] += e.positions.length;
      v.passed = v.passed.map(() => false);
    }
  }

  on_penalty(e) {
    this.view.penalty = clone(e.seats);
    this.afterPenalty();
  }

  on_took(e) {
    const v = this.view;
    v.table.splice(e.position, 1);
    v.piles[e.seat] += 1;
    v.penalty.shift();
    v.passed[e.seat] = false;
    this.afterPenalty();
  }

  on_took_from_deck(e) {
    const v = this.view;
    v.penalty.shift();
    v.piles[e.seat] += e.drawn ? 1 : 0;
    v.deck_count = e.deck_count;
    this.afterPenalty();
  }

  on_round_ended(e) {
    this.view.scores = clone(e.scores);
  }

  on_round_started(e) {
    const v = this.view;
    const n = v.scores.length;
    Object.assign(v, { round: e.round, dealer: e.dealer, deck_count: e.deck_count, scores: clone(e.scores) });
    Object.assign(v, {
      table: [],
      piles: Array(n).fill(0),
      passed: Array(n).fill(false),
      penalty: [],
      last_call: null,
      phase: "play",
    });
  }

  on_game_ended(e) {
    Object.assign(this.view, { phase: "game_over", scores: clone(e.scores) });
  }
}
