// High card's board: the trick on the table and the seat's hand, a card played by a click,
// a tap or Enter on it (the test-only game, H1-H7).

import { h } from "../../dom.mjs";

export class HighcardBoard {
  constructor(ctx) {
    this.ctx = ctx;
  }

  before() {}

  isTurn(seat) {
    return this.ctx.view.current_player === seat;
  }

  seatFacts(seat) {
    const cards = this.ctx.view.hand_sizes[seat];
    return [`${cards} ${cards === 1 ? "card" : "cards"}`];
  }

  describe(event) {
    const { says } = this.ctx;
    if (event.type === "card_played") return `${says(event.seat, "plays")} ${event.card}.`;
    if (event.type === "trick_won") return `${says(event.seat, "wins")} the trick: ${event.points} points (H4).`;
    if (event.type === "round_started") return `Round ${event.round + 1}: three new cards each (H2).`;
    return null;
  }

  roundSummary() {
    return null;
  }

  status() {
    const { view, seat, name, legal } = this.ctx;
    if (this.ctx.settled) return this.ctx.settled; // the game is over, or has not begun
    if (seat !== null && legal.length) return `Your turn: play a card (H3).${this.ctx.timerText()}`;
    return `${name(view.current_player)} plays next.${this.ctx.timerText()}`;
  }

  render() {
    const { view, seat, legal, name, send } = this.ctx;
    const trick = view.trick.map((card, s) => h("li", { key: s, class: "trick-card", "data-seat": s, "data-card": card ?? "" }, `${name(s)}: ${card ?? "–"}`));
    const hand =
      seat === null
        ? null
        : h(
            "div",
            { class: "hand", key: "hand", role: "group", "aria-label": "Your cards" },
            view.hand.map((card) => {
              const playable = legal.includes(String(card));
              return h(
                "button",
                {
                  type: "button",
                  class: `card${playable ? " playable" : ""}`,
                  key: card,
                  "data-card": card,
                  disabled: !playable,
                  on: { click: () => send(String(card)) },
                },
                String(card),
              );
            }),
          );
    return h(
      "div",
      { class: "highcard" },
      h("p", { class: "status", id: "status", key: "status", "aria-live": "polite" }, this.status()),
      h("ul", { class: "trick", key: "trick", "aria-label": "The trick" }, trick),
      hand,
    );
  }
}
