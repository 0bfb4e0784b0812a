// Duvelen at the table: the piles in the centre, your Stok, Rij, waste and Draaistok, and
// the other seats. Everyone plays at once: click a playable card then a highlighted pile,
// drag it onto the pile, or use the keys (listed on the page). Other seats' moves show as
// they arrive; a move of yours that lost a race is shown as such. Without a mouse: Tab to
// a card of yours, Enter (the focus goes on to the piles it fits), Tab, Enter.

import { h } from "../../dom.mjs";
import { signed } from "../../common.mjs";
import { icon } from "../../icons.mjs";
import { Flights } from "../../motion.mjs";
import { focusFirst, keyHint, ownsKeys, pressable } from "../../access.mjs";
import { listText } from "../../words.mjs";

export const SUITS = { h: "♥", d: "♦", c: "♣", s: "♠" };
const RANKS = { 1: "A", 11: "J", 12: "Q", 13: "K" };
export const SOURCES = { S: "Stok", R1: "Rij 1", R2: "Rij 2", R3: "Rij 3", R4: "Rij 4", W: "waste" };
const SUIT_WORDS = { h: "hearts", d: "diamonds", c: "clubs", s: "spades" };
const RANK_WORDS = { A: "Ace", J: "Jack", Q: "Queen", K: "King" };
const ROUND_ENDS = { passes: "everyone passed", no_plays: "no more plays", blocked: "blocked", action_cap: "the action limit" }; // D4.4, D4.5
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

/** A card for a screen reader: "5 of hearts", "Ace of spades". */
function cardWords(card) {
  const rank = card.slice(0, -1);
  return `${RANK_WORDS[rank] || rank} of ${SUIT_WORDS[card.slice(-1)]}`;
}

export function rankText(rank) {
  return RANKS[rank] || String(rank);
}

function suitClass(card) {
  return `suit-${card.slice(-1)}`;
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
    this.focusWanted = null; // selectors of where the focus goes after the next render
    this.onMove = (event) => this.dragMove(event);
    this.onUp = (event) => this.dragEnd(event);
    this.flights = new Flights();
  }

  before(events) {
    const { ctx } = this;
    for (const e of events) {
      if (e.type === "played") {
        ctx.mark(`pile:${e.new_pile ? `new${e.pile}` : e.pile}`, `hit s${e.seat}`, 700);
        ctx.mark(`src:${e.seat}:${e.source}`, "gone", 500);
        ctx.mark(`seat:${e.seat}`, "acted", 500);
        // The card flies from its seat's Stok, Rij or waste to the pile's face.
        const from = document.querySelector(`.seat-area[data-seat="${e.seat}"] [data-slot="${e.source}"]`);
        this.flights.from(from, () => document.querySelector(`[data-pile="${e.pile}"] .face`));
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
    const { name, says } = this.ctx;
    switch (e.type) {
      case "played":
        return `${says(e.seat, "plays")} ${cardText(e.card)} from the ${SOURCES[e.source]} ${e.new_pile ? "to a new pile" : `onto pile ${e.pile}`}.`;
      case "pile_completed":
        return `Pile ${e.pile} is complete: a Herenhoop for ${name(e.holder)}.`;
      case "recycled":
        return `${says(e.seat, "recycles")} the waste.`;
      case "stop_called":
        return `${says(e.seat, "calls")} Stop! No more turning; pass when you are done (D4.2, D4.4).`;
      case "passed":
        return `${says(e.seat, "passes")}.`;
      case "blocked":
        return "Nobody can play: the Stoks rotate (D4.5).";
      case "round_started":
        return `Round ${e.round + 1} begins.`;
      case "round_ended":
        return `Round ${e.round + 1} ends: ${ROUND_ENDS[e.reason] || e.reason}.`;
      default:
        return null;
    }
  }

  /** What this seat may do now, in plain words, from its legal moves. */
  status() {
    const { view, seat, legal } = this.ctx;
    if (this.ctx.settled) return this.ctx.settled; // the game is over, or has not begun
    const stop = view.stop_called_by === null ? "" : ` ${this.ctx.name(view.stop_called_by)} called Stop: no more turning (D4.2).`;
    if (seat === null) return `Everyone plays at once.${stop}`;
    if (view.seats[seat].passed) return `Your pass stands: play a card if one fits, or wait for the others (D4.4).${stop}`;
    const plays = this.plays();
    const can = [];
    if (plays.length) {
      const named = plays
        .slice(0, 3)
        .map((p) => `the ${cardText(p.card)} from your ${SOURCES[p.source]} ${p.pile === "new" ? "to a new pile" : `onto pile ${p.pile}`}`);
      if (plays.length > 3) named.push(`${plays.length - 3} more`);
      can.push(`play ${listText(named)}`);
    }
    if (legal.includes("stop")) can.push(`call Stop${keyHint("X")}, your Stok being empty (D4.1)`);
    if (legal.includes("turn")) can.push(`turn three cards${keyHint("T")}`);
    else if (legal.includes("recycle")) can.push(`recycle the waste${keyHint("R")}`);
    if (legal.includes("pass")) can.push(`pass${keyHint("P")}`);
    if (!can.length) return `Nothing of yours fits now: wait for the piles to change.${stop}`;
    return `You can ${listText(can, "or")}.${stop}`;
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

  select(source, withKeys = false) {
    if (this.suppressClick) {
      this.suppressClick = false;
      return;
    }
    if (!this.plays(source).length) return;
    this.selected = this.selected === source ? null : source;
    // Chosen with the keyboard: the focus goes on to the piles the card fits.
    this.focusWanted = withKeys && this.selected ? ["#piles .pile.target"] : null;
    this.ctx.rerender();
  }

  /** After a render: the focus goes where a keyboard choice led, or, when it was lost
   * (a card played), rests on your cards. */
  placeFocus(lost) {
    const wanted = this.focusWanted;
    this.focusWanted = null;
    if (wanted && focusFirst(...wanted)) return;
    if (lost) focusFirst(".mine");
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
    if ((key === " " || key === "Enter") && ownsKeys(event.target)) return false; // the focused button's
    if ((key === "p" || key === "P") && this.ctx.view.seats[this.ctx.seat].passed) return true; // a pass stands until you play (D4.4)
    const simple = { r: "recycle", e: "recycle^", x: "stop", p: "pass" };
    if (["1", "2", "3", "4"].includes(key)) this.quick(`R${key}`);
    else if (key === "s" || key === "S") this.quick("S");
    else if (key === "w" || key === "W") this.quick("W");
    else if (key === "t" || key === "T" || key === " ") this.turn();
    else if (simple[key.toLowerCase()] && this.ctx.legal.includes(simple[key.toLowerCase()])) this.send(simple[key.toLowerCase()]);
    else if (key === "Escape") {
      if (this.selected) this.focusWanted = [`[data-source="${this.selected}"]`];
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
    setTimeout(() => {
      this.suppressClick = false;
    }, 0);
    const under = document.elementFromPoint(event.clientX, event.clientY);
    const pile = under?.closest("[data-pile]");
    const move = pile instanceof HTMLElement && this.moveOf(drag.source, pile.dataset.pile);
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
      h("p", { class: "status", id: "status", key: "status", "aria-live": "polite" }, this.status()),
      this.renderCentre(),
      seat !== null ? this.renderMine() : null,
      h(
        "div",
        { class: "others", key: "others" },
        others.map((s) => this.renderSeat(s)),
      ),
      seat !== null
        ? h(
            "details",
            { class: "keys", id: "keys", key: "keys" },
            h("summary", {}, "Keyboard shortcuts"),
            h(
              "dl",
              {},
              KEYS.map(([keys, what]) => [h("dt", {}, keys), h("dd", {}, what)]),
            ),
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
          ...this.pileProps(String(pile.id), targets),
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
            ...this.pileProps("new", targets),
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
              h(
                "span",
                { class: `heren suit-${heren.suit} s${heren.holder} ${this.ctx.marked(`heren:${i}`)}`, key: i },
                `K${SUITS[heren.suit]} ${this.ctx.name(heren.holder)}`,
              ),
            ),
          )
        : null,
    );
  }

  /** A pile's props: a button when the chosen card fits it, named for the move. */
  pileProps(pile, targets) {
    const play = this.selected && this.plays(this.selected).find((p) => p.pile === pile);
    if (!targets.has(pile) || !play) return { on: { click: () => this.target(pile) } };
    const where = pile === "new" ? "to a new pile" : `onto pile ${pile}`;
    return pressable(`play the ${cardWords(play.card)} from your ${SOURCES[play.source]} ${where}`, () => this.target(pile));
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
      "data-slot": source,
    };
    if (mine) {
      props["data-source"] = source;
      const press = playable
        ? pressable(`${cardWords(card)} on your ${label}`, (_event, withKeys) => this.select(source, withKeys))
        : { on: { click: () => this.select(source) } };
      Object.assign(props, press, { on: { ...press.on, pointerdown: (event) => playable && this.dragStart(event, source, card) } });
      if (playable) props["aria-pressed"] = String(this.selected === source);
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
          // A pass stands until you play a card (D4.4): passing again says nothing new.
          disabled: !legal.includes(move) || (move === "pass" && s.passed),
          title: `key ${key}`,
          on: { click: () => this.send(move) },
        },
        text,
      );
    const turnMove = legal.includes("turn") ? "turn" : legal.includes("recycle") ? "recycle" : null;
    return h(
      "div",
      { class: `mine seat-area s${seat}`, "data-seat": seat, key: "mine", role: "group", "aria-label": "Your cards", tabindex: -1 },
      h("h3", {}, "Your cards"),
      h(
        "div",
        { class: "layout" },
        h("div", { class: "slot" }, this.sourceCard(seat, "S", s.stok_top, true, "Stok"), h("small", {}, `Stok ${s.stok_count}`)),
        h(
          "div",
          { class: "rij" },
          s.rij.map((card, i) =>
            h("div", { class: "slot", key: i }, this.sourceCard(seat, `R${i + 1}`, card, true, `Rij ${i + 1}`), h("small", {}, `${i + 1}`)),
          ),
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
              ...(turnMove
                ? pressable(turnMove === "turn" ? "turn three cards from the Draaistok" : "recycle the waste", () => this.turn())
                : { on: { click: () => this.turn() } }),
            },
            s.draaistok_count ? icon("turn", "turn") : icon("empty", "empty"),
          ),
          h("small", {}, `Draaistok ${s.draaistok_count}`),
        ),
      ),
      h(
        "div",
        { class: "buttons" },
        button("turn", `Turn${keyHint("T")}`, "T"),
        button("recycle", `Recycle${keyHint("R")}`, "R"),
        button("recycle^", `Recycle ^${keyHint("E")}`, "E"),
        button("stop", `Stop${keyHint("X")}`, "X"),
        button("pass", `Pass${keyHint("P")}`, "P"),
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
      const what = play ? `${cardText(play.card)} to ${play.pile === "new" ? "a new pile" : `pile ${play.pile}`}` : message.move;
      this.ctx.notice(`Too late: ${what} lost the race (${message.clause || "D3.10"}).`, "stale");
      return true;
    }
    return false;
  }

  roundSummary(e) {
    const { name } = this.ctx;
    return h(
      "div",
      {},
      h("h2", {}, `Round ${e.round + 1} ends: ${ROUND_ENDS[e.reason] || e.reason}`),
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
