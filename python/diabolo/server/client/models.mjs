// Client-side models of each game's view, fed only by events: a port of
// tests/client_models.py (docs: Building a frontend). The server sends a view once (the
// seat's observation, or the public one for a spectator), then only the events that
// audience may see; a model applies them to the view it holds, with no rules of the game
// beyond what the events say. The view's `legal` and `legal_moves` are not kept here: the
// server sends a seat's legal moves with every update.

export const SIMULTANEOUS = -2;
export const TERMINAL = -4;

const clone = (value) => (value === null || value === undefined ? value : structuredClone(value));

export class ClientModel {
  constructor(view) {
    this.view = clone(view);
    delete this.view.legal;
    delete this.view.legal_moves;
    this.seat = view.player;
  }

  apply(events) {
    for (const event of events) {
      const handler = this[`on_${event.type}`];
      if (typeof handler !== "function") throw new Error(`no model for the event ${event.type}`);
      handler.call(this, event);
    }
  }
}

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

function removeOne(list, item) {
  const index = list.indexOf(item);
  if (index < 0) throw new Error(`${item} is not in ${list}`);
  list.splice(index, 1);
}

export const MODELS = { schacht: SchachtModel, duvelen: DuvelenModel, knizia: KniziaModel };

/** The model of `game` (its name) from a view. */
export function makeModel(game, view) {
  const Model = MODELS[game];
  if (!Model) throw new Error(`no model for the game ${game}`);
  return new Model(view);
}
