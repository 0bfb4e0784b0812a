// Diabolo (Knizia) at the table: the dealer reveals letters one at a time (the Reveal
// button, for the dealer); anyone types a word the revealed cards can form and presses
// Enter. A valid call takes the cards it uses (shown as they go), an invalid one makes
// the others take a card each (click a highlighted card when it is your turn to take).

import { h } from "./dom.mjs";
import { icon } from "./icons.mjs";

export function letterText(card) {
  return card === "?" ? "★" : card === "??" ? "★★" : card;
}

/** A card's face on the table: a joker is a drawn star, the same with any font. */
function letterFace(card) {
  if (card === "?") return icon("star", "joker");
  if (card === "??") return [icon("star", "double joker"), icon("star")];
  return card;
}

export class KniziaBoard {
  constructor(ctx) {
    this.ctx = ctx;
    this.claims = 0; // claims seen, to animate each new one
    this.lastClaim = null; // the last called event
    this.penaltyOf = null; // the seat whose invalid call the penalty is for
  }

  before(events) {
    const { ctx } = this;
    for (const e of events) {
      if (e.type === "called") {
        this.claims += 1;
        this.lastClaim = e;
        if (!e.valid) this.penaltyOf = e.seat;
        ctx.mark(`seat:${e.seat}`, e.valid ? "acted" : "failed", 900);
      } else if (e.type === "took" || e.type === "took_from_deck") {
        ctx.mark(`seat:${e.seat}`, "acted", 600);
      } else if (e.type === "round_started") {
        this.lastClaim = null;
      }
    }
  }

  describe(e) {
    const name = (seat) => this.ctx.name(seat);
    const says = (seat, verb) => this.ctx.says(seat, verb);
    switch (e.type) {
      case "called":
        return e.valid
          ? `${says(e.seat, "calls")} ${e.word} and ${e.seat === this.ctx.seat ? "take" : "takes"} ${e.cards.map(letterText).join(" ")}.`
          : `${says(e.seat, "calls")} ${e.word}: ${e.reason}.`;
      case "penalty":
        return `Penalty: ${e.seats.map(name).join(", ")} take a card.`;
      case "took":
        return `${says(e.seat, "takes")} ${letterText(e.card)}.`;
      case "took_from_deck":
        return e.drawn ? `${says(e.seat, "takes")} the deck's top card.` : null;
      case "passed":
        return `${says(e.seat, "passes")}.`;
      case "round_started":
        return `Round ${e.round + 1} begins: ${name(e.dealer)} deals.`;
      case "round_ended":
        return `Round ${e.round + 1} ends.`;
      default:
        return null;
    }
  }

  status() {
    const { view, seat } = this.ctx;
    if (view.phase === "game_over") return "The game is over.";
    if (view.phase === "penalty") {
      const taker = view.penalty[0];
      const who = taker === seat ? "You take" : `${this.ctx.name(taker)} takes`;
      return `${who} a card from the line (penalty${this.penaltyOf !== null ? " for " + this.ctx.name(this.penaltyOf) + "'s call" : ""}).`;
    }
    const dealer = view.dealer === seat ? "You deal: reveal the next card when you like." : `${this.ctx.name(view.dealer)} deals.`;
    if (seat === null) return view.deck_count ? dealer : "The deck is used up: the last words, or passes.";
    return view.deck_count ? `${dealer} Call a word as soon as you see one.` : "The deck is used up: call what you see, or pass.";
  }

  seatFacts(seat) {
    const { view } = this.ctx;
    const facts = [`pile ${view.piles[seat]}`];
    if (view.dealer === seat) facts.push("dealer");
    if (view.passed[seat]) facts.push("passed");
    return facts;
  }

  isTurn(seat) {
    const { view } = this.ctx;
    return view.phase === "penalty" ? view.penalty[0] === seat : view.dealer === seat;
  }

  /** A practice table's hints: some words the table holds (a normal table sends none: they are the answer key). */
  hints() {
    return this.ctx.hints;
  }

  input() {
    return document.getElementById("word");
  }

  call(event) {
    if (event) event.preventDefault();
    const input = this.input();
    const word = input.value.trim().toUpperCase();
    if (!word) return;
    if (!/^[A-ZÄÖÜß]+$/u.test(word)) {
      this.ctx.notice("A word is letters only.", "info");
      return;
    }
    input.value = "";
    this.ctx.send(word);
  }

  keydown(event) {
    if (this.ctx.seat === null || event.target instanceof HTMLInputElement) return false;
    if ((event.key === " " || event.key === "Enter") && this.ctx.legal.includes("reveal")) {
      this.ctx.send("reveal");
      return true;
    }
    if (/^[a-zA-Z]$/.test(event.key) && this.input()) {
      this.input().focus(); // typing anywhere goes to the word box
      return false;
    }
    return false;
  }

  render() {
    const { view, legal, seat } = this.ctx;
    const takes = new Set(legal.filter((m) => m.startsWith("take@")).map((m) => Number(m.slice(5))));
    const hints = this.hints();
    return h(
      "div",
      { class: "knizia" },
      h("p", { class: "status", id: "status", key: "status" }, this.status()),
      h("p", { class: "facts", key: "facts" }, `Round ${view.round + 1} of ${view.rounds} · deck ${view.deck_count} cards`),
      h(
        "div",
        { class: "line", id: "line", key: "line" },
        view.table.length
          ? view.table.map((card, i) =>
              h(
                "div",
                {
                  class: `card letter${card.startsWith("?") ? " joker" : ""}${takes.has(i) ? " target" : ""}`,
                  "data-position": i,
                  "data-card": card,
                  "data-move": takes.has(i) ? `take@${i}` : null,
                  on: { click: () => takes.has(i) && this.ctx.send(`take@${i}`) },
                },
                letterFace(card),
              ),
            )
          : h("p", { class: "empty-line" }, "No cards on the table."),
      ),
      this.renderClaim(),
      seat !== null
        ? h(
            "div",
            { class: "controls", key: "controls" },
            h(
              "form",
              { class: "call", id: "call", key: "call", autocomplete: "off", on: { submit: (event) => this.call(event) } },
              h("input", {
                id: "word",
                key: "word",
                type: "text",
                placeholder: "type a word, press Enter",
                "aria-label": "your word",
                autocapitalize: "characters",
                spellcheck: "false",
                maxlength: 40,
                disabled: view.phase === "game_over",
              }),
              h("button", { type: "submit", class: "action", "data-move": "call", disabled: view.phase === "game_over" }, "Call"),
            ),
            h(
              "div",
              { class: "buttons" },
              legal.includes("reveal")
                ? h("button", { type: "button", class: "action primary", "data-move": "reveal", on: { click: () => this.ctx.send("reveal") } }, "Reveal (Space)")
                : null,
              h(
                "button",
                { type: "button", class: "action", "data-move": "pass", disabled: !legal.includes("pass"), on: { click: () => this.ctx.send("pass") } },
                "Pass",
              ),
            ),
            hints
              ? h(
                  "details",
                  { class: "hints", id: "hints", key: "hints" },
                  h("summary", {}, `Hints: ${hints.words.length} of the ${hints.count} words on the table`),
                  h(
                    "div",
                    { class: "words" },
                    hints.words.map((word) =>
                      h(
                        "button",
                        {
                          type: "button",
                          class: "word",
                          "data-word": word,
                          on: {
                            click: () => {
                              this.input().value = word;
                              this.input().focus();
                            },
                          },
                        },
                        word,
                      ),
                    ),
                  ),
                )
              : null,
          )
        : null,
    );
  }

  renderClaim() {
    const e = this.lastClaim;
    if (!e) return h("div", { class: "claim empty", key: "noclaim" }, "");
    const name = this.ctx.name(e.seat);
    return h(
      "div",
      { class: `claim ${e.valid ? "valid" : "invalid"}`, id: "claim", key: `claim${this.claims}` },
      h("span", { class: `who s${e.seat}` }, `${name}:`),
      ` ${e.word} `,
      e.valid
        ? [
            h("span", { class: "ok" }, icon("check", "valid")),
            e.cards.map((card, i) => h("span", { class: "card letter mini taken", style: `animation-delay:${i * 60}ms` }, letterFace(card))),
          ]
        : h("span", { class: "reason" }, icon("cross", "not valid"), ` ${e.reason}`),
    );
  }

  roundSummary(e) {
    const name = (seat) => this.ctx.name(seat);
    return h(
      "div",
      {},
      h("h2", {}, `Round ${e.round + 1} ends`),
      h(
        "table",
        { class: "summary-table" },
        h("tr", {}, h("th", {}, "seat"), h("th", {}, "cards taken"), h("th", {}, "points"), h("th", {}, "total")),
        e.points.map((points, seat) => h("tr", {}, h("td", {}, name(seat)), h("td", {}, e.piles[seat]), h("td", {}, points), h("td", {}, e.scores[seat]))),
      ),
      e.table.length ? h("p", {}, "Left on the table: ", e.table.map(letterText).join(" ")) : null,
    );
  }
}
