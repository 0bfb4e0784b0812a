// Diabolo (Knizia) at the table: the dealer reveals letters one at a time (the Reveal
// button, for the dealer); anyone types a word the revealed cards can form and presses
// Enter. A valid call takes the cards it uses (shown as they go), an invalid one makes
// the others take a card each (click a highlighted card when it is your turn to take).
// With the keyboard: typing anywhere goes to the word box, Enter calls, Esc leaves the
// box, Space reveals (the dealer); a penalty card is a button (Tab to it, Enter).

import { h } from "../../dom.mjs";
import { icon } from "../../icons.mjs";
import { Flights } from "../../motion.mjs";
import { playSound } from "../../sound.mjs";
import { focusFirst, keyHint, ownsKeys, pressable, touch } from "../../access.mjs";
import { listText } from "../../words.mjs";

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
    this.typing = true; // keys typed into its word field are its own (Enter calls the word)
    this.claims = 0; // claims seen, to animate each new one
    this.lastClaim = null; // the last called event
    this.penaltyOf = null; // the seat whose invalid call the penalty is for
    this.takenSinceReveal = []; // the valid calls since the last reveal: {seat, table before it}
    this.flights = new Flights();
  }

  before(events) {
    const { ctx } = this;
    for (const e of events) {
      if (e.type === "revealed") {
        this.takenSinceReveal = [];
      }
      if (e.type === "called") {
        if (e.valid) this.takenSinceReveal.push({ seat: e.seat, table: [...ctx.view.table] });
        this.claims += 1;
        this.lastClaim = e;
        if (!e.valid) this.penaltyOf = e.seat;
        ctx.mark(`seat:${e.seat}`, e.valid ? "acted" : "failed", 900);
        // The letters a valid word takes fly from the table into the claim, in word order.
        if (e.valid) {
          e.positions.forEach((position, i) => {
            const landing = () => document.querySelectorAll("#claim .card")[i];
            this.flights.from(document.querySelector(`#line [data-position="${position}"]`), landing);
          });
        }
      } else if (e.type === "took" || e.type === "took_from_deck") {
        ctx.mark(`seat:${e.seat}`, "acted", 600);
      } else if (e.type === "penalty" && e.seats.includes(ctx.seat)) {
        playSound("turn");
      } else if (e.type === "round_started") {
        this.lastClaim = null;
        this.takenSinceReveal = [];
        if (e.dealer === ctx.seat) playSound("turn");
      }
    }
  }

  describe(e) {
    const { name, says } = this.ctx;
    switch (e.type) {
      case "called": {
        if (e.valid) return `${says(e.seat, "calls")} ${e.word} and takes ${e.cards.map(letterText).join(" ")}.`;
        const winner = e.reason === "letters missing" ? this.tookFirst(e.word) : null;
        // Not a mistake but a lost race: the word was there until another call took its letters.
        if (winner) return `${name(e.seat)} called ${e.word} too late: ${name(winner.seat)} had just taken the letters (K3.8).`;
        return `${says(e.seat, "calls")} ${e.word}: ${e.reason} (K3.3).`;
      }
      case "penalty":
        return `Penalty: ${listText(e.seats.map(name))} ${e.seats.length === 1 ? "takes" : "take"} a card from the line (K3.5).`;
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

  /** The valid call since the last reveal that took the letters `word` needed: the
   * latest one whose table could still form it, or null. */
  tookFirst(word) {
    for (const call of [...this.takenSinceReveal].reverse()) if (canForm(word, call.table)) return call;
    return null;
  }

  /** What this seat may do now, in plain words, from its legal moves. */
  status() {
    const { view, seat, legal } = this.ctx;
    const name = (s) => this.ctx.name(s);
    if (this.ctx.settled) return this.ctx.settled; // the game is over, or has not begun
    if (view.phase === "penalty") {
      const caller = this.penaltyOf === seat && seat !== null ? "your" : this.penaltyOf !== null ? `${name(this.penaltyOf)}'s` : "";
      const forCall = caller ? ` for ${caller} invalid call` : "";
      if (legal.some((move) => move.startsWith("take@")))
        return `Take a card from the line as the penalty${forCall} (K3.5): ${touch ? "tap" : "Tab to"} a highlighted card${touch ? "" : ", then Enter"}.`;
      return `${name(view.penalty[0])} takes a card from the line as the penalty${forCall} (K3.5).`;
    }
    if (seat === null) return view.deck_count ? `${name(view.dealer)} deals.` : "The deck is used up: the last words, or passes.";
    if (view.deck_count === 0) {
      return view.passed[seat]
        ? "Your pass stands: call a word if you see one; the round ends when every pass stands (K10.5)."
        : "Call a word with the letters on the table, or pass (the deck is used up).";
    }
    if (legal.includes("reveal"))
      return `You deal: reveal the next card${keyHint("Space")} when you like, and call a word with the letters on the table as soon as you see one (K3.1, K3.2).`;
    return `Call a word with the letters on the table: type it, then Enter (${name(view.dealer)} deals).`;
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

  /** @returns {HTMLInputElement} the field a word is typed into */
  input() {
    return /** @type {HTMLInputElement} */ (document.getElementById("word"));
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
    if (this.ctx.seat === null) return false;
    if (event.key === "Escape" && event.target === this.input()) {
      this.input().value = "";
      focusFirst("#line [data-move]", "#line"); // out of the box, where Space reveals
      return true;
    }
    if (event.target instanceof HTMLInputElement) return false;
    if ((event.key === " " || event.key === "Enter") && !ownsKeys(event.target) && this.ctx.legal.includes("reveal")) {
      this.ctx.send("reveal");
      return true;
    }
    if (/^[a-zA-Z]$/.test(event.key) && this.input()) {
      this.input().focus(); // typing anywhere goes to the word box
      return false;
    }
    return false;
  }

  /** After a render: when the focus was lost (a card taken, the game over), it goes to
   * the next card to take, else rests on the line. */
  placeFocus(lost) {
    if (lost) focusFirst("#line [data-move]", "#line");
  }

  render() {
    const { view, legal, seat } = this.ctx;
    const takes = new Set(legal.filter((m) => m.startsWith("take@")).map((m) => Number(m.slice(5))));
    const hints = this.hints();
    return h(
      "div",
      { class: "knizia" },
      h("p", { class: "status", id: "status", key: "status", "aria-live": "polite" }, this.status()),
      h("p", { class: "facts", key: "facts" }, `Round ${view.round + 1} of ${view.rounds} · deck ${view.deck_count} cards`),
      h(
        "div",
        { class: "line", id: "line", key: "line", role: "group", "aria-label": "Cards on the table", tabindex: -1 },
        view.table.length
          ? view.table.map((card, i) =>
              h(
                "div",
                {
                  class: `card letter${card.startsWith("?") ? " joker" : ""}${takes.has(i) ? " target" : ""}`,
                  "data-position": i,
                  "data-card": card,
                  "data-move": takes.has(i) ? `take@${i}` : null,
                  ...(takes.has(i) ? pressable(`take the card ${letterWords(card)} at position ${i + 1}`, () => this.ctx.send(`take@${i}`)) : {}),
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
                ? h(
                    "button",
                    { type: "button", class: "action primary", "data-move": "reveal", on: { click: () => this.ctx.send("reveal") } },
                    `Reveal${keyHint("Space")}`,
                  )
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
    const { name } = this.ctx;
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

/** A card for a screen reader: "E", "joker", "double joker". */
function letterWords(card) {
  return card === "?" ? "joker" : card === "??" ? "double joker" : card;
}

/** Whether `word` (capitals, as a called event has it) can be formed from `cards` (K3.3):
 * a letter card covers its letters in order ("EI", "SCH"), "?" any one letter, "??" any
 * two. A search over the word's places with each card used once; cards alike are tried
 * once, failed places are remembered, and it gives up (false) after `budget` steps. */
export function canForm(word, cards, budget = 20000) {
  const counts = new Map();
  for (const card of cards) counts.set(card, (counts.get(card) || 0) + 1);
  const kinds = [...counts.keys()];
  const failed = new Set();
  let steps = 0;
  const from = (at) => {
    if (at === word.length) return true;
    if (++steps > budget) return false;
    const key = `${at}:${kinds.map((card) => counts.get(card)).join(",")}`;
    if (failed.has(key)) return false;
    for (const card of kinds) {
      if (!counts.get(card)) continue;
      const width = card === "?" ? 1 : card === "??" ? 2 : card.length;
      if (at + width > word.length || (card[0] !== "?" && word.slice(at, at + width) !== card)) continue;
      counts.set(card, counts.get(card) - 1);
      const found = from(at + width);
      counts.set(card, counts.get(card) + 1);
      if (found) return true;
    }
    failed.add(key);
    return false;
  };
  return from(0);
}
