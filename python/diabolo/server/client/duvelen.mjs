// Duvelen at the table: the piles in the centre, your Stok, Rij, waste and Draaistok, and
// the other seats. Everyone plays at once: click a playable card then a highlighted pile,
// drag it onto the pile, or use the keys (listed on the page). Other seats' moves show as
// they arrive; a move of yours that lost a race is shown as such.

import { h } from "./dom.mjs";
import { signed } from "./common.mjs";
import { icon } from "./icons.mjs";

const SUITS = { h: "♥", d: "♦", c: "♣", s: "♠" };
const RANKS = { 1: "A", 11: "J", 12: "Q", 13: "K" };
const SOURCES = { S: "Stok", R1: "Rij 1", R2: "Rij 2", R3: "Rij 3", R4: "Rij 4", W: "waste" };
const PLAY = /^(S|R[1-4]|W):([0-9AJQK]+[hdcs])>(\d+|new)$/;

export const KEYS = [
  ["1 2 3 4", "play that Rij card"],
  ["S", "play the Stok card"],
  ["W", "play the waste card"],
  ["T or Space", "turn three cards (recycle when the Draaistok is empty)"],
  ["R / E", "recycle (top card to the bottom / bottom card to the top)"],
  ["X", "call Stop"],
  ["P", "pass (after Stop)"],
  ["Esc", "drop the selected card"],
];

export function cardText(card) {
  if (!card) return "";
  return card.slice(0, -1) + SUITS[card.slice(-1)];
}

function rankText(rank) {
  return RANKS[rank] || String(rank);
}

function suitClass(card) {
  return "suit-" + card.slice(-1);
}

/** A play's parts: {source, card, pile}, or null for another move. */
export function parsePlay(move) {
  const match = PLAY.exec(move);
  return match ? { source: match[1], card: match[2], pile: match[3] } : null;
}

export class DuvelenBoard {
  constructor(ctx) {
    this.ctx = ctx;
    this.selected = null; // a source: S, R1..R4, W
    this.drag = null;
    this.suppressClick = false;
    this.lost = 0; // moves of ours that lost a race
    this.onMove = (event) => this.dragMove(event);
    this.onUp = (event) => this.dragEnd(event);
  }

  before(events) {
    const { ctx } = this;
    for (const e of events) {
      if (e.type === "played") {
        ctx.mark(`pile:${e.new_pile ? "new" + e.pile : e.pile}`, `hit s${e.seat}`, 700);
        ctx.mark(`src:${e.seat}:${e.source}`, "gone", 500);
        ctx.mark(`seat:${e.seat}`, "acted", 500);
      } else if (e.type === "turned" || e.type === "waste_uncovered" || e.type === "draaistok_flipped") {
        ctx.mark(`src:${e.seat}:W`, "fresh", 500);
      } else if (e.type === "refilled") {
        ctx.mark(`src:${e.seat}:R${e.slot}`, "fresh", 500);
      } else if (e.type === "stok_turned") {
        ctx.mark(`src:${e.seat}:S`, "fresh", 500);
      } else if (e.type === "pile_completed") {
        ctx.mark(`heren:${ctx.view.herenhopen.length}`, "fresh", 1500);
      } else if (e.type === "round_started") {
        this.selected = null;
      }
    }
  }

  describe(e) {
    const name = (seat) => this.ctx.name(seat);
    const says = (seat, verb) => this.ctx.says(seat, verb);
    switch (e.type) {
      case "played":
        return `${name(e.seat)}: ${cardText(e.card)} from the ${SOURCES[e.source]} to ${e.new_pile ? "a new pile" : "pile " + e.pile}.`;
      case "pile_completed":
        return `Pile ${e.pile} is complete: a Herenhoop for ${name(e.holder)}.`;
      case "recycled":
        return `${says(e.seat, "recycles")} the waste.`;
      case "stop_called":
        return `${says(e.seat, "calls")} Stop! No more turning; pass when you are done.`;
      case "passed":
        return `${says(e.seat, "passes")}.`;
      case "blocked":
        return "Nobody can play: the Stoks rotate.";
      case "round_started":
        return `Round ${e.round + 1} begins.`;
      case "round_ended":
        return `Round ${e.round + 1} ends (${e.reason.replace("_", " ")}).`;
      default:
        return null;
    }
  }

  status() {
    const { view, seat } = this.ctx;
    if (view.phase === "game_over") return "The game is over.";
    const stop = view.stop_called_by === null ? "" : ` ${this.ctx.name(view.stop_called_by)} called Stop: play what you can, then pass.`;
    return (seat === null ? "Everyone plays at once." : "Everyone plays at once: be quick!") + stop;
  }

  seatFacts(seat) {
    const { view } = this.ctx;
    const s = view.seats[seat];
    const facts = [`round ${signed(view.round_scores[seat])}`, `Stok ${s.stok_count}`];
    if (s.passed) facts.push("passed");
    if (view.stop_called_by === seat) facts.push("called Stop");
    return facts;
  }

  isTurn() {
    return false;
  }

  plays(source) {
    return this.ctx.legal.map(parsePlay).filter((p) => p && (source === undefined || p.source === source));
  }

  moveOf(source, pile) {
    const play = this.plays(source).find((p) => p.pile === pile);
    return play ? `${play.source}:${play.card}>${play.pile}` : null;
  }

  send(move) {
    this.selected = null;
    this.ctx.send(move);
  }

  select(source) {
    if (this.suppressClick) {
      this.suppressClick = false;
      return;
    }
    if (!this.plays(source).length) return;
    this.selected = this.selected === source ? null : source;
    this.ctx.rerender();
  }

  target(pile) {
    if (!this.selected) return;
    const move = this.moveOf(this.selected, pile);
    if (move) this.send(move);
  }

  /** Turn, or recycle when turning is not possible. */
  turn() {
    const { legal } = this.ctx;
    if (legal.includes("turn")) this.send("turn");
    else if (legal.includes("recycle")) this.send("recycle");
  }

  /** Plays a source's card on its first pile (keys). */
  quick(source) {
    const play = this.plays(source)[0];
    if (play) this.send(`${play.source}:${play.card}>${play.pile}`);
    else this.ctx.notice(`No play for the ${SOURCES[source]}.`, "info");
  }

  keydown(event) {
    if (this.ctx.seat === null || event.ctrlKey || event.metaKey || event.altKey) return false;
    const key = event.key;
    const simple = { r: "recycle", e: "recycle^", x: "stop", p: "pass" };
    if (["1", "2", "3", "4"].includes(key)) this.quick("R" + key);
    else if (key === "s" || key === "S") this.quick("S");
    else if (key === "w" || key === "W") this.quick("W");
    else if (key === "t" || key === "T" || key === " ") this.turn();
    else if (simple[key.toLowerCase()] && this.ctx.legal.includes(simple[key.toLowerCase()])) this.send(simple[key.toLowerCase()]);
    else if (key === "Escape") {
      this.selected = null;
      this.ctx.rerender();
    } else return false;
    return true;
  }

  // ---- dragging (pointer events: mouse, pen and touch alike) ----

  dragStart(event, source, card) {
    if (event.button !== 0 || !this.plays(source).length) return;
    this.drag = { source, card, x: event.clientX, y: event.clientY, ghost: null };
    document.addEventListener("pointermove", this.onMove);
    document.addEventListener("pointerup", this.onUp);
    document.addEventListener("pointercancel", this.onUp);
  }

  dragMove(event) {
    const drag = this.drag;
    if (!drag) return;
    if (!drag.ghost) {
      if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < 8) return;
      drag.ghost = document.createElement("div");
      drag.ghost.className = `card ghost ${suitClass(drag.card)}`;
      drag.ghost.textContent = cardText(drag.card);
      document.body.appendChild(drag.ghost);
      this.selected = drag.source;
      this.ctx.rerender();
    }
    drag.ghost.style.left = `${event.clientX}px`;
    drag.ghost.style.top = `${event.clientY}px`;
    event.preventDefault();
  }

  dragEnd(event) {
    const drag = this.drag;
    this.drag = null;
    document.removeEventListener("pointermove", this.onMove);
    document.removeEventListener("pointerup", this.onUp);
    document.removeEventListener("pointercancel", this.onUp);
    if (!drag || !drag.ghost) return;
    drag.ghost.remove();
    this.suppressClick = true;
    setTimeout(() => (this.suppressClick = false), 0);
    const under = document.elementFromPoint(event.clientX, event.clientY);
    const pile = under && under.closest("[data-pile]");
    const move = pile && this.moveOf(drag.source, pile.dataset.pile);
    if (move) this.send(move);
    else {
      this.selected = null;
      this.ctx.rerender();
    }
  }

  // ---- drawing ----

  render() {
    const { view, seat } = this.ctx;
    if (this.selected && !this.plays(this.selected).length) this.selected = null;
    const others = view.seats.map((_, s) => s).filter((s) => s !== seat);
    return h(
      "div",
      { class: "duvelen" },
      h("p", { class: "status", id: "status", key: "status" }, this.status()),
      this.renderCentre(),
      seat !== null ? this.renderMine() : null,
      h("div", { class: "others", key: "others" }, others.map((s) => this.renderSeat(s, false))),
      seat !== null
        ? h(
            "details",
            { class: "keys", id: "keys", key: "keys" },
            h("summary", {}, "Keyboard shortcuts"),
            h("dl", {}, KEYS.map(([keys, what]) => [h("dt", {}, keys), h("dd", {}, what)])),
          )
        : null,
      seat !== null ? h("p", { class: "races", id: "races", key: "races", "data-lost": this.lost }, `Moves that lost a race: ${this.lost}`) : null,
    );
  }

  renderCentre() {
    const { view } = this.ctx;
    const targets = new Set(this.selected ? this.plays(this.selected).map((p) => p.pile) : []);
    const piles = view.piles.map((pile) =>
      h(
        "div",
        {
          class: `pile suit-${pile.suit}${targets.has(String(pile.id)) ? " target" : ""} ${this.ctx.marked(`pile:${pile.id}`)} ${this.ctx.marked(`pile:new${pile.id}`)}`,
          "data-pile": String(pile.id),
          key: `pile${pile.id}`,
          title: `pile ${pile.id}: ${pile.owners.length} cards`,
          on: { click: () => this.target(String(pile.id)) },
        },
        h("span", { class: "face" }, rankText(pile.top), SUITS[pile.suit]),
        h("span", { class: "pile-id" }, `#${pile.id}`),
      ),
    );
    if (this.ctx.seat !== null) {
      piles.push(
        h(
          "div",
          {
            class: `pile new${targets.has("new") ? " target" : ""}`,
            "data-pile": "new",
            key: "new",
            on: { click: () => this.target("new") },
          },
          h("span", { class: "face" }, "A"),
          h("span", { class: "pile-id" }, "new pile"),
        ),
      );
    }
    return h(
      "div",
      { class: "centre", key: "centre" },
      h("div", { class: "piles", id: "piles", key: "piles" }, piles),
      view.herenhopen.length
        ? h(
            "div",
            { class: "herenhopen" },
            "Herenhopen: ",
            view.herenhopen.map((heren, i) =>
              h("span", { class: `heren suit-${heren.suit} s${heren.holder} ${this.ctx.marked(`heren:${i}`)}`, key: i }, `K${SUITS[heren.suit]} ${this.ctx.name(heren.holder)}`),
            ),
          )
        : null,
    );
  }

  sourceCard(seat, source, card, mine, label) {
    const playable = mine && this.plays(source).length > 0;
    const classes = ["card", card ? suitClass(card) : "empty"];
    if (playable) classes.push("playable");
    if (mine && this.selected === source) classes.push("selected");
    classes.push(this.ctx.marked(`src:${seat}:${source}`));
    const props = {
      class: classes.join(" "),
      key: source,
      title: label,
      "data-seat": seat,
    };
    if (mine) {
      props["data-source"] = source;
      props.on = {
        click: () => this.select(source),
        pointerdown: (event) => playable && this.dragStart(event, source, card),
      };
    }
    return h("div", props, card ? cardText(card) : "");
  }

  renderMine() {
    const { view, seat, legal } = this.ctx;
    const s = view.seats[seat];
    const button = (move, text, key) =>
      h(
        "button",
        {
          type: "button",
          class: "action",
          "data-move": move,
          disabled: !legal.includes(move),
          title: `key ${key}`,
          on: { click: () => this.send(move) },
        },
        text,
      );
    const turnMove = legal.includes("turn") ? "turn" : legal.includes("recycle") ? "recycle" : null;
    return h(
      "div",
      { class: "mine seat-area s" + seat, "data-seat": seat, key: "mine" },
      h("h3", {}, "Your cards"),
      h(
        "div",
        { class: "layout" },
        h("div", { class: "slot" }, this.sourceCard(seat, "S", s.stok_top, true, "Stok"), h("small", {}, `Stok ${s.stok_count}`)),
        h(
          "div",
          { class: "rij" },
          s.rij.map((card, i) => h("div", { class: "slot", key: i }, this.sourceCard(seat, `R${i + 1}`, card, true, `Rij ${i + 1}`), h("small", {}, `${i + 1}`))),
        ),
        h("div", { class: "slot" }, this.sourceCard(seat, "W", s.waste_top, true, "waste"), h("small", {}, `waste ${s.waste_count}`)),
        h(
          "div",
          { class: "slot" },
          h(
            "div",
            {
              class: `card back${turnMove ? " playable" : ""}`,
              "data-draaistok": "",
              title: "Draaistok: turn three cards",
              on: { click: () => this.turn() },
            },
            s.draaistok_count ? icon("turn", "turn") : icon("empty", "empty"),
          ),
          h("small", {}, `Draaistok ${s.draaistok_count}`),
        ),
      ),
      h(
        "div",
        { class: "buttons" },
        button("turn", "Turn (T)", "T"),
        button("recycle", "Recycle (R)", "R"),
        button("recycle^", "Recycle ^ (E)", "E"),
        button("stop", "Stop (X)", "X"),
        button("pass", "Pass (P)", "P"),
      ),
    );
  }

  renderSeat(seat) {
    const { view } = this.ctx;
    const s = view.seats[seat];
    return h(
      "div",
      { class: `seat-area other s${seat} ${this.ctx.marked(`seat:${seat}`)}`, key: seat, "data-seat": seat },
      h("h4", {}, this.ctx.name(seat), s.passed ? " · passed" : ""),
      h(
        "div",
        { class: "layout small" },
        h("div", { class: "slot" }, this.sourceCard(seat, "S", s.stok_top, false, "Stok"), h("small", {}, `S ${s.stok_count}`)),
        s.rij.map((card, i) => h("div", { class: "slot", key: `r${i}` }, this.sourceCard(seat, `R${i + 1}`, card, false, `Rij ${i + 1}`))),
        h("div", { class: "slot" }, this.sourceCard(seat, "W", s.waste_top, false, "waste"), h("small", {}, `W ${s.waste_count}`)),
        h("div", { class: "slot" }, h("div", { class: "card back" }, ""), h("small", {}, `D ${s.draaistok_count}`)),
      ),
    );
  }

  /** A rejected move of ours: a lost race is counted and shown as such. */
  rejected(message) {
    if (message.reason === "stale") {
      this.lost += 1;
      const play = parsePlay(message.move || "");
      const what = play ? `${cardText(play.card)} to ${play.pile === "new" ? "a new pile" : "pile " + play.pile}` : message.move;
      this.ctx.notice(`Too late: ${what} lost the race (${message.clause || "D3.10"}).`, "stale");
      return true;
    }
    return false;
  }

  roundSummary(e) {
    const name = (seat) => this.ctx.name(seat);
    const reasons = { passes: "everyone passed", no_plays: "no more plays", blocked: "blocked", action_cap: "the action limit" };
    return h(
      "div",
      {},
      h("h2", {}, `Round ${e.round + 1} ends: ${reasons[e.reason] || e.reason}`),
      h(
        "table",
        { class: "summary-table" },
        h("tr", {}, h("th", {}, "seat"), h("th", {}, "Stok left"), h("th", {}, "Herenhopen"), h("th", {}, "round"), h("th", {}, "total")),
        e.points.map((points, seat) =>
          h(
            "tr",
            {},
            h("td", {}, name(seat), e.stop_called_by === seat ? " (Stop)" : ""),
            h("td", {}, e.seats[seat].stok_count),
            h("td", {}, e.herenhopen.filter((heren) => heren.holder === seat).length),
            h("td", {}, signed(points)),
            h("td", {}, e.scores[seat]),
          ),
        ),
      ),
    );
  }
}
