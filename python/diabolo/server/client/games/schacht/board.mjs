// Diabolo (Schacht) at the table: the five rows with their devil (left) and angel (right)
// sides, the hand, the doubler decision and the scoring reveal. A move: click a playable
// card of the hand, then a highlighted side of its colour's row (or "Discard" when no card
// can be placed, S3.3). Everything playable comes from the server's legal moves. With
// the keyboard: Tab to a card, Enter (the focus goes on to the sides it may go to), Tab
// between them, Enter; Esc chooses another card.

import { h } from "../../dom.mjs";
import { signed } from "../../common.mjs";
import { colourMark, icon } from "../../icons.mjs";
import { byKeyboard, focusFirst, pressable } from "../../access.mjs";
import { capital, listText } from "../../words.mjs";
import { Flights } from "../../motion.mjs";
import { playSound } from "../../sound.mjs";

const COLOURS = "RYGPB";
export const COLOUR_NAMES = { R: "red", Y: "yellow", G: "green", P: "purple", B: "blue" };
const SIDE = { left: "devil", right: "angel" };

const sum = (values) => values.reduce((a, b) => a + b, 0);

export class SchachtBoard {
  constructor(ctx) {
    this.ctx = ctx;
    this.selected = null; // a card of the hand, e.g. "R1"
    this.scoring = []; // this round's colour_scored events, in order
    this.asked = null; // the doubler_asked event of the colour being scored
    this.focusWanted = null; // selectors of where the focus goes after the next render
    this.flights = new Flights();
  }

  /** Effects of a move's events, before the model applies them. */
  before(events) {
    const { ctx } = this;
    for (const e of events) {
      if (e.type === "placed") {
        const [colour, side, place] = [e.card[0], e.side, ctx.view.rows[e.card[0]][e.side].length];
        ctx.mark(`row:${colour}:${side}:${place}`, "fresh", 1200);
        ctx.mark(`seat:${e.seat}`, "acted", 800);
        // Our card flies from the hand, another seat's from its place among the seats.
        const mine = e.seat === ctx.seat;
        const from = document.querySelector(mine ? `#hand [data-card="${e.card}"]` : `.seat[data-seat="${e.seat}"]`);
        const landing = () => document.querySelectorAll(`.rows [data-row="${colour}"] [data-side="${side}"] .card`)[place];
        this.flights.from(from, landing, mine);
      } else if (e.type === "turn" && e.seat === ctx.seat) {
        playSound("turn");
      } else if (e.type === "discarded") {
        ctx.mark(`seat:${e.seat}`, "acted", 800);
      } else if (e.type === "drew" && e.card) {
        ctx.mark(`hand:${e.card}`, "fresh", 1200);
      } else if (e.type === "round_started") {
        this.scoring = [];
        this.asked = null;
        this.selected = null;
      } else if (e.type === "doubler_asked") {
        this.asked = e;
        if (e.seats.includes(ctx.seat)) playSound("turn");
      } else if (e.type === "colour_scored") {
        this.scoring.push(e);
        this.asked = null;
        ctx.mark(`scored:${e.colour}`, "fresh", 1500);
        playSound("score");
      }
    }
  }

  /** A line of the log for an event, or null. */
  describe(e) {
    const { name, says } = this.ctx;
    switch (e.type) {
      case "round_started":
        return `Round ${e.round + 1} begins: ${name(e.dealer)} deals.`;
      case "dealt":
        return e.cards ? `${says(e.seat, "is dealt")} ${e.cards.join(" ")}.` : null;
      case "drew":
        return e.card ? `${says(e.seat, "draws")} ${e.card}.` : null;
      case "placed":
        return `${says(e.seat, "places")} ${e.card} on the ${SIDE[e.side]} side.`;
      case "row_closed":
        return `The ${COLOUR_NAMES[e.colour]} row is closed.`;
      case "discarded":
        return `${name(e.seat)} cannot place a card: ${e.card} discarded, the rest shown (${e.shown.join(" ") || "none"}).`;
      case "play_ended":
        return `Play ends (${e.reason === "rows_closed" ? "rows closed" : "no cards left"}); the rows are scored.`;
      case "doubler_asked":
        return `${capital(COLOUR_NAMES[e.colour])} is positive: ${listText(e.seats.map(name))} decide on the doubler (S5.3).`;
      case "doubler_decided":
        return `${says(e.seat, e.decision === "bet" ? "bets" : "holds")} the doubler${this.ctx.view.scoring_colour ? ` on ${COLOUR_NAMES[this.ctx.view.scoring_colour]}` : ""}.`;
      case "colour_scored":
        return `${capital(COLOUR_NAMES[e.colour])}: angels ${e.angel} vs devils ${e.devil}, ${e.outcome}${e.points.some((p) => p) ? `: ${pointsText(e.points, name)}` : ""}.`;
      case "round_ended":
        return `Round ${e.round + 1} ends.`;
      default:
        return null;
    }
  }

  /** What this seat may do now, in plain words, from its legal moves. */
  status() {
    const { view, seat, legal } = this.ctx;
    if (this.ctx.settled) return this.ctx.settled; // the game is over, or has not begun
    if (view.phase === "doubler") return this.doublerStatus();
    if (seat === null || view.current_player !== seat) {
      return view.current_player >= 0 ? `${this.ctx.name(view.current_player)}'s turn.` : "The rows are being scored.";
    }
    const places = this.placements();
    if (!places.length) {
      return legal.some((move) => move.startsWith("x"))
        ? "No card of yours can be placed: discard one, and the rest of your hand is shown to everyone (S3.3)."
        : "Your turn.";
    }
    if (this.selected) {
      const sides = places.filter((move) => move.startsWith(this.selected)).map((move) => SIDE[move.endsWith("<") ? "left" : "right"]);
      return `${this.selected}: place it on the ${COLOUR_NAMES[this.selected[0]]} row's ${listText(sides, "or")} side, or press Esc to choose another card.`;
    }
    return "Your turn: play a card on its colour's devil or angel side.";
  }

  /** The seat's legal placements (R3< ...), no discard or doubler decision. */
  placements() {
    return this.ctx.legal.filter((move) => /[<>]$/.test(move));
  }

  /** Where each playable card may go, on demand: the status stays short on a phone. */
  renderPlaces() {
    const { view, seat } = this.ctx;
    const places = this.placements();
    if (this.ctx.settled || seat === null || view.current_player !== seat || !places.length || this.selected) return null;
    const text = placesText(places);
    return h(
      "details",
      { class: "places", id: "places", key: "places" },
      h("summary", {}, "Where each card may go"),
      h("p", {}, `${text[0].toUpperCase()}${text.slice(1)}.`),
    );
  }

  doublerStatus() {
    const { view, legal } = this.ctx;
    const colour = COLOUR_NAMES[view.scoring_colour];
    const row = view.rows[view.scoring_colour];
    if (legal.includes("bet") || legal.includes("hold")) {
      const mine = (view.hand || []).filter((card) => card[0] === view.scoring_colour);
      const held = mine.length ? `you hold ${mine.join(" ")} (${sum(mine.map((card) => Number(card[1])))})` : `you hold no ${colour} card`;
      return `Scoring ${colour}, angels ${sum(row.right)} vs devils ${sum(row.left)}: bet your doubler on it, or hold it for a later colour (S5.3); ${held}.`;
    }
    if (view.doubler_decision) return `You chose to ${view.doubler_decision} your doubler on ${colour}: the others decide in secret (S5.3).`;
    const seats = this.asked ? listText(this.asked.seats.map((s) => this.ctx.name(s))) : "the players";
    return `Scoring ${colour}: ${seats} decide in secret whether to bet the doubler (S5.3).`;
  }

  /** Small facts shown beside each seat's name. */
  seatFacts(seat) {
    const { view } = this.ctx;
    const facts = [`${view.hand_sizes[seat]} cards`];
    facts.push(view.doubler_available[seat] ? "doubler unused" : "doubler spent");
    return facts;
  }

  isTurn(seat) {
    return this.ctx.view.current_player === seat;
  }

  legalFor(card) {
    return this.ctx.legal.filter((move) => move.startsWith(card) || move === `x${card}`);
  }

  clickCard(card, event) {
    if (!this.legalFor(card).length) return;
    this.selected = this.selected === card ? null : card;
    // Chosen with the keyboard: the focus goes on to the sides the card may go to.
    this.focusWanted = byKeyboard(event) && this.selected ? [".schacht .side[data-move]", "#hand [data-move^='x']"] : null;
    this.ctx.rerender();
  }

  /** Esc: the chosen card is put back, and the focus with it. */
  keydown(event) {
    if (event.key !== "Escape" || !this.selected) return false;
    this.focusWanted = [`#hand [data-card="${this.selected}"]`];
    this.selected = null;
    this.ctx.rerender();
    return true;
  }

  /** After a render: the focus goes where a keyboard choice led, or, when it was lost
   * (a move made, the turn over), to the next card to play, else rests on the hand. */
  placeFocus(lost) {
    const wanted = this.focusWanted;
    this.focusWanted = null;
    if (wanted && focusFirst(...wanted)) return;
    if (lost) focusFirst("#hand .card.selected", "#hand .card.playable", "#doubler [data-move]", "#hand");
  }

  play(move) {
    if (!this.ctx.legal.includes(move)) return;
    this.selected = null;
    this.ctx.send(move);
  }

  render() {
    const { view, legal, seat } = this.ctx;
    if (this.selected && !this.legalFor(this.selected).length) this.selected = null;
    const selected = this.selected;
    return h(
      "div",
      { class: "schacht" },
      h(
        "p",
        { class: "status", id: "status", key: "status", "aria-live": "polite" },
        this.status(),
        h("span", { "aria-hidden": "true" }, this.ctx.timerText()),
      ),
      this.renderPlaces(),
      this.renderRows(selected),
      this.renderDoubler(),
      seat !== null && view.hand ? this.renderHand(selected) : null,
      this.renderScoring(),
      this.renderRevealed(),
      h("p", { class: "facts", key: "facts" }, `Round ${view.round + 1} of ${view.rounds} · draw pile ${view.draw_pile}`),
      legal.length === 0 && seat !== null && view.phase !== "game_over" ? h("p", { class: "wait", key: "wait" }, "Waiting…") : null,
    );
  }

  renderRows(selected) {
    const { view } = this.ctx;
    return h(
      "div",
      { class: "rows", key: "rows" },
      [...COLOURS].map((c) => {
        const row = view.rows[c];
        const side = (name) => {
          const move = selected && selected[0] === c ? selected + (name === "left" ? "<" : ">") : null;
          const target = move && this.ctx.legal.includes(move);
          return h(
            "div",
            {
              class: `side ${SIDE[name]}${target ? " target" : ""}`,
              "data-colour": c,
              "data-side": name,
              "data-move": target ? move : null,
              title: target ? `${move}: place ${selected} on the ${SIDE[name]} side` : null,
              ...(target ? pressable(`place ${selected} on the ${COLOUR_NAMES[c]} row's ${SIDE[name]} side`, () => this.play(move)) : {}),
            },
            h("span", { class: "side-label" }, icon(SIDE[name], `${SIDE[name]}s`), " ", sum(row[name])),
            row[name].map((value, i) =>
              h("span", { class: `card mini c-${c} ${this.ctx.marked(`row:${c}:${name}:${i}`)}`, key: i }, colourMark(c, COLOUR_NAMES[c]), value),
            ),
          );
        };
        return h(
          "div",
          { class: `row${row.closed ? " closed" : ""} c-${c}`, "data-row": c, key: c, role: "group", "aria-label": rowText(c, row) },
          side("left"),
          h("div", { class: `row-label c-${c}` }, h("span", {}, colourMark(c, COLOUR_NAMES[c]), c), row.closed ? icon("lock", "closed") : null),
          side("right"),
        );
      }),
    );
  }

  renderHand(selected) {
    const { view, legal } = this.ctx;
    const discard = selected && legal.includes(`x${selected}`) ? `x${selected}` : null;
    return h(
      "div",
      { class: "hand-area", key: "hand-area" },
      h("h3", {}, "Your hand"),
      h(
        "div",
        { class: "hand", id: "hand", key: "hand", role: "group", "aria-label": "Your hand", tabindex: -1 },
        view.hand.map((card, i) => {
          const playable = this.legalFor(card).length > 0;
          return h(
            "button",
            {
              class: `card c-${card[0]}${playable ? " playable" : ""}${card === selected ? " selected" : ""} ${this.ctx.marked(`hand:${card}`)}`,
              "data-card": card,
              key: `${card}#${view.hand.slice(0, i).filter((c) => c === card).length}`,
              disabled: !playable,
              type: "button",
              "aria-label": `${COLOUR_NAMES[card[0]]} ${card[1]}`,
              "aria-pressed": String(card === selected),
              on: { click: (event) => this.clickCard(card, event) },
            },
            colourMark(card[0], COLOUR_NAMES[card[0]]),
            card[1],
          );
        }),
      ),
      discard
        ? h(
            "button",
            { class: "action", "data-move": discard, key: "discard", type: "button", on: { click: () => this.play(discard) } },
            `Discard ${selected} (no card can be placed)`,
          )
        : null,
      legal.some((m) => m.startsWith("x")) && !discard
        ? h("p", { class: "hint", key: "hint" }, "No card can be placed: pick one to discard; your hand is shown to all.")
        : null,
    );
  }

  renderDoubler() {
    const { view, legal } = this.ctx;
    if (view.phase !== "doubler") return null;
    const colour = view.scoring_colour;
    const row = view.rows[colour];
    const children = [h("p", {}, `${COLOUR_NAMES[colour]} is positive: angels ${sum(row.right)} vs devils ${sum(row.left)}.`)];
    if (legal.includes("bet") || legal.includes("hold")) {
      children.push(
        h(
          "div",
          { class: "buttons" },
          h("button", { class: "action", "data-move": "bet", type: "button", on: { click: () => this.play("bet") } }, "Bet the doubler"),
          h("button", { class: "action", "data-move": "hold", type: "button", on: { click: () => this.play("hold") } }, "Hold"),
        ),
      );
    } else if (view.doubler_decision) {
      children.push(h("p", {}, `You chose: ${view.doubler_decision}. Waiting for the others…`));
    }
    return h("div", { class: `doubler c-${colour}`, id: "doubler", key: "doubler" }, children);
  }

  renderScoring() {
    if (!this.scoring.length) return null;
    return h(
      "div",
      { class: "scoring", id: "scoring", key: "scoring" },
      h("h3", {}, "Scoring"),
      this.scoring.map((e) => this.scoredLine(e)),
    );
  }

  scoredLine(e) {
    const { name } = this.ctx;
    const hands = e.hands
      ? e.hands.map((cards, seat) =>
          h(
            "span",
            { class: "reveal" },
            `${name(seat)}: `,
            cards.length ? cards.map((c) => h("span", { class: `card mini c-${c[0]}` }, colourMark(c[0], COLOUR_NAMES[c[0]]), c[1])) : "–",
          ),
        )
      : [h("span", { class: "reveal" }, "even: nobody reveals")];
    return h(
      "div",
      { class: `scored ${e.outcome} ${this.ctx.marked(`scored:${e.colour}`)}`, key: e.colour, "data-colour": e.colour },
      h("strong", { class: `c-${e.colour} label` }, colourMark(e.colour), COLOUR_NAMES[e.colour]),
      ` angels ${e.angel} vs devils ${e.devil}: ${e.outcome}`,
      e.bets.length ? ` · doubled: ${e.bets.map(name).join(", ")}` : "",
      h("div", { class: "hands" }, hands),
      h("div", { class: "points" }, pointsText(e.points, name) || "no points"),
    );
  }

  renderRevealed() {
    const { view } = this.ctx;
    const lines = [];
    view.revealed.shown.forEach((shown, seat) => {
      const discarded = view.revealed.discarded[seat];
      if (shown.length || discarded.length) {
        lines.push(h("li", {}, `${this.ctx.name(seat)} showed ${shown.join(" ") || "–"}, discarded ${discarded.join(" ") || "–"}`));
      }
    });
    return lines.length ? h("ul", { class: "revealed", key: "revealed" }, lines) : null;
  }

  roundSummary(e) {
    const { name } = this.ctx;
    return h(
      "div",
      {},
      h("h2", {}, `Round ${e.round + 1} ends`),
      this.scoring.map((scored) => this.scoredLine(scored)),
      h("p", {}, "Totals: ", e.scores.map((score, seat) => `${name(seat)} ${score}`).join(" · ")),
    );
  }
}

/** "the red row takes R1 (either side) and R4 (angel side); ...": where this seat's
 * legal placements go, row by row. */
function placesText(places) {
  const sides = new Map(); // card -> the sides it may go to
  for (const move of places) {
    const card = move.slice(0, 2);
    if (!sides.has(card)) sides.set(card, []);
    sides.get(card).push(SIDE[move.endsWith("<") ? "left" : "right"]);
  }
  return [...COLOURS]
    .map((c) => {
      const cards = [...sides.keys()].filter((card) => card[0] === c).sort();
      const parts = cards.map((card) => `${card} (${sides.get(card).length === 2 ? "either side" : `${sides.get(card)[0]} side`})`);
      return cards.length ? `the ${COLOUR_NAMES[c]} row takes ${listText(parts)}` : null;
    })
    .filter(Boolean)
    .join("; ");
}

/** A row for a screen reader: "red row: devils 1 3 (4), angels 2 (2), closed". */
function rowText(colour, row) {
  const side = (values) => (values.length ? `${values.join(" ")} (${sum(values)})` : "none");
  return `${COLOUR_NAMES[colour]} row: devils ${side(row.left)}, angels ${side(row.right)}${row.closed ? ", closed" : ""}`;
}

function pointsText(points, name) {
  const scored = points.map((p, seat) => [p, seat]).filter(([p]) => p !== 0);
  return scored.map(([p, seat]) => `${name(seat)} ${signed(p)}`).join(", ");
}
