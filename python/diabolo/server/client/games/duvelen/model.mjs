// Duvelen's client model: its view kept from events (models.mjs).

import { ClientModel, clone, TERMINAL } from "../../models.mjs";

// docs/games/duvelen.rst D8.3
export class DuvelenModel extends ClientModel {
  static ranks = { A: 1, J: 11, Q: 12, K: 13 };

  seatView(e) {
    return this.view.seats[e.seat];
  }

  on_round_started(e) {
    Object.assign(this.view, { round: e.round, seats: clone(e.seats), round_scores: clone(e.round_scores) });
    Object.assign(this.view, { piles: [], herenhopen: [], stop_called_by: null, phase: "play" });
  }

  on_played(e) {
    const seat = this.seatView(e);
    if (e.source.startsWith("R")) seat.rij[Number(e.source[1]) - 1] = null;
    seat.passed = false;
    const card = e.card;
    const rank = DuvelenModel.ranks[card.slice(0, -1)] || Number(card.slice(0, -1));
    if (e.new_pile) {
      this.view.piles.push({ id: e.pile, suit: card.slice(-1), top: 1, owners: [e.seat] });
    } else {
      const pile = this.view.piles.find((p) => p.id === e.pile);
      pile.top = rank;
      pile.owners.push(e.seat);
    }
    this.view.round_scores = clone(e.round_scores);
  }

  on_stok_turned(e) {
    Object.assign(this.seatView(e), { stok_top: e.card, stok_count: e.stok_count });
  }

  on_refilled(e) {
    this.seatView(e).rij[e.slot - 1] = e.card;
  }

  waste(e) {
    const seat = this.seatView(e);
    for (const key of ["waste_top", "waste_count", "draaistok_count"]) seat[key] = e[key];
  }

  on_waste_uncovered(e) {
    this.waste(e);
  }

  on_turned(e) {
    this.waste(e);
  }

  on_draaistok_flipped(e) {
    this.waste(e);
  }

  on_pile_completed(e) {
    this.view.piles = this.view.piles.filter((p) => p.id !== e.pile);
    this.view.herenhopen.push({ holder: e.holder, suit: e.suit, owners: clone(e.owners) });
  }

  on_recycled() {} // the turn that follows says where the cards are

  on_stop_called(e) {
    Object.assign(this.view, { stop_called_by: e.seat, phase: "after_stop", round_scores: clone(e.round_scores) });
  }

  on_passed(e) {
    this.seatView(e).passed = true;
  }

  on_blocked() {} // the rotations or the round's end follow

  on_stoks_rotated(e) {
    this.view.seats.forEach((seat, i) => {
      seat.stok_top = e.stok_tops[i];
    });
  }

  on_round_ended(e) {
    Object.assign(this.view, { scores: clone(e.scores), round_scores: clone(e.points) });
  }

  on_game_ended(e) {
    Object.assign(this.view, { phase: "game_over", current_player: TERMINAL, scores: clone(e.scores) });
  }
}
