// High card's client model (the test-only game of cpp/include/diabolo/highcard/highcard.hpp,
// clauses H1-H7): its view kept from events (models.mjs).

import { ClientModel, clone, removeOne, TERMINAL } from "../../models.mjs";

export class HighcardModel extends ClientModel {
  on_card_played(e) {
    const v = this.view;
    v.trick[e.seat] = e.card;
    v.hand_sizes[e.seat] -= 1;
    if (e.seat === this.seat) removeOne(v.hand, e.card);
    v.current_player = (e.seat + 1) % v.scores.length; // H3; a trick_won that follows says who leads
  }

  on_trick_won(e) {
    const v = this.view;
    v.scores[e.seat] += e.points; // H4
    v.trick = v.trick.map(() => null);
    v.current_player = e.seat;
  }

  on_round_started(e) {
    this.view.round = e.round;
    this.view.current_player = e.round % this.view.scores.length; // H2: the round's first leader
  }

  on_dealt(e) {
    this.view.hand_sizes[e.seat] = 3; // H2
    if (e.hand) this.view.hand = [...e.hand].sort((a, b) => a - b);
  }

  on_game_ended(e) {
    Object.assign(this.view, { phase: "game_over", scores: clone(e.scores), current_player: TERMINAL, round: this.view.round + 1 });
  }
}
