// A game on screen, for the table page and the replay page alike: the view kept by the
// game's client model from events, the board of the game, the seats with their scores,
// a log of what happened, the round summary at each round's end and the game's end.

import { h, patch } from "./dom.mjs";
import { makeModel } from "./models.mjs";
import { replayUrl, seatName, winnersOf } from "./common.mjs";
import { SchachtBoard } from "./schacht.mjs";
import { DuvelenBoard } from "./duvelen.mjs";
import { KniziaBoard } from "./knizia.mjs";

const BOARDS = { schacht: SchachtBoard, duvelen: DuvelenBoard, knizia: KniziaBoard };
const LOG_SIZE = 80;
const REFUSALS = {
  illegal: "Not allowed",
  bad_move: "Not a move",
  not_your_seat: "Spectators cannot move",
  game_over: "The game is over",
  too_fast: "Too fast: slow down",
};

export class GameScreen {
  /**
   * game: its name; summary: the table's summary (names, bots); seat: ours or null;
   * send: (move) => void, or null to only watch; places: {banner, seats, board, notices, log}
   * (elements; notices and log may be null); takeSeat: (seat) => void offers the free seats;
   * tableId: for the link to the replay at the game's end.
   */
  constructor({ game, summary, seat, send, places, takeSeat = null, tableId = null }) {
    this.game = game;
    this.summary = summary;
    this.seat = seat;
    this.sendMove = send;
    this.places = places;
    this.takeSeat = takeSeat;
    this.tableId = tableId;
    this.legal = [];
    this.hints = null; // a practice table's {words, count} for this version
    this.marks = new Map();
    this.notices = [];
    this.noticeCount = 0;
    this.timer = null; // a turn timer: {key, deadline} (performance.now() milliseconds)
    this.renderQueued = false;
    this.rendered = 0; // renders done (tests wait on it)
    this.model = null;
    this.board = null;
  }

  /** Starts again from a view (the welcome's, or a record's first one). */
  reset(view) {
    this.model = makeModel(this.game, view);
    this.board = new BOARDS[this.game](this.context());
    this.log = [];
    this.banner = null;
    this.final = view.phase === "game_over" ? { scores: view.scores, winners: winnersOf(view.scores) } : null;
    this.rerender();
  }

  get view() {
    return this.model.view;
  }

  /** The events of one move, in order: the board's effects, the model, the log, summaries. */
  apply(events, time = null) {
    for (const event of events) {
      this.board.before([event]);
      this.model.apply([event]);
      const line = this.board.describe(event);
      if (line) this.addLog(line, event.type, time);
      if (event.type === "round_ended") {
        this.banner = { kind: "round", round: event.round, content: this.board.roundSummary(event) };
      } else if (event.type === "game_ended") {
        this.final = { scores: event.scores, winners: event.winners };
        this.addLog(`The game is over: ${event.winners.map((s) => this.name(s)).join(" and ")} won.`, "game_ended", time);
      }
    }
    this.rerender();
  }

  addLog(text, type, time) {
    this.log.unshift({ text, type, time, n: (this.logCount = (this.logCount || 0) + 1) });
    if (this.log.length > LOG_SIZE) this.log.length = LOG_SIZE;
  }

  name(seat) {
    if (seat === this.seat && seat !== null) return "You";
    return seatName(this.summary, seat);
  }

  /** "Ann places" or "You place": a seat's name and a verb (given as "places"). */
  says(seat, verb) {
    if (seat === this.seat && seat !== null) return `You ${verb.endsWith("sses") ? verb.slice(0, -2) : verb.replace(/s$/, "")}`;
    return `${this.name(seat)} ${verb}`;
  }

  /** A move of ours the server refused (the rejected message, with the move we sent): the
   * board may show it its own way (a lost race in Duvelen), else a notice says why. */
  refused(entry) {
    if (this.board.rejected && this.board.rejected(entry)) return;
    if (entry.reason === "stale") {
      this.notice(`Too late: ${entry.move} lost a race (${entry.clause}).`, "stale");
    } else if (entry.code === "penalty_pending") {
      this.notice(`Too late for ${entry.move}: the game waits for a penalty card (${entry.clause}).`, "stale");
    } else {
      this.notice(`${REFUSALS[entry.reason] || entry.reason}: ${entry.message}`, "error");
    }
  }

  notice(text, kind = "info") {
    const id = ++this.noticeCount;
    this.notices.unshift({ id, text, kind });
    this.notices.length = Math.min(this.notices.length, 4);
    setTimeout(() => {
      this.notices = this.notices.filter((n) => n.id !== id);
      this.rerender();
    }, 6000);
    this.rerender();
  }

  mark(key, cls, ms) {
    this.marks.set(key, { cls, until: performance.now() + ms });
    setTimeout(() => this.rerender(), ms + 30);
  }

  marked(key) {
    const mark = this.marks.get(key);
    if (!mark) return "";
    if (mark.until < performance.now()) {
      this.marks.delete(key);
      return "";
    }
    return mark.cls;
  }

  context() {
    const screen = this;
    return {
      get view() {
        return screen.model.view;
      },
      get legal() {
        return screen.legal;
      },
      get hints() {
        return screen.hints;
      },
      get seat() {
        return screen.seat;
      },
      name: (seat) => screen.name(seat),
      says: (seat, verb) => screen.says(seat, verb),
      send: (move) => screen.sendMove && screen.sendMove(move),
      rerender: () => screen.rerender(),
      mark: (key, cls, ms) => screen.mark(key, cls, ms),
      marked: (key) => screen.marked(key),
      notice: (text, kind) => screen.notice(text, kind),
      timerText: () => screen.timerText(),
    };
  }

  timerText() {
    if (!this.timer || this.timer.deadline === null) return "";
    const left = Math.max(0, Math.ceil((this.timer.deadline - performance.now()) / 1000));
    return ` (${left} s left)`;
  }

  /** A render soon (once per frame, whatever the number of messages). */
  rerender() {
    if (this.renderQueued) return;
    this.renderQueued = true;
    const run = () => {
      if (!this.renderQueued) return;
      this.renderQueued = false;
      this.render();
    };
    requestAnimationFrame(run);
    setTimeout(run, 50); // pages in the background get no animation frames
  }

  render() {
    if (!this.model) return;
    const { banner, seats, board, notices, log } = this.places;
    patch(board, this.board.render());
    patch(seats, this.renderSeats());
    patch(banner, this.renderBanner());
    if (notices) patch(notices, this.notices.map((n) => h("p", { class: `notice ${n.kind}`, key: n.id }, n.text)));
    if (log) {
      patch(
        log,
        this.log.map((entry) =>
          h("li", { key: entry.n, class: `log-${entry.type}` }, entry.time !== null ? h("time", {}, formatTime(entry.time)) : null, entry.text),
        ),
      );
    }
    this.rendered += 1;
  }

  renderSeats() {
    const view = this.view;
    return view.scores.map((score, seat) => {
      const spec = this.summary.seats[seat] || {};
      const free = spec.bot === null && !spec.taken;
      const classes = ["seat", `s${seat}`];
      if (seat === this.seat) classes.push("me");
      if (this.board.isTurn(seat)) classes.push("turn");
      const mark = this.marked(`seat:${seat}`);
      if (mark) classes.push(mark);
      return h(
        "div",
        { class: classes.join(" "), key: seat, "data-seat": seat },
        h(
          "div",
          { class: "seat-name" },
          h("span", { class: "dot" }, ""),
          this.name(seat),
          seat === this.seat || !spec.bot || spec.name.includes(spec.bot) ? "" : h("small", {}, ` ${spec.bot} bot`),
        ),
        h("div", { class: "score", "data-score": score }, String(score)),
        h("div", { class: "seat-facts" }, this.board.seatFacts(seat).join(" · ")),
        free && this.takeSeat
          ? h("button", { type: "button", class: "action small", "data-sit": seat, on: { click: () => this.takeSeat(seat) } }, "Sit here")
          : free
            ? h("small", {}, "free seat")
            : null,
      );
    });
  }

  renderBanner() {
    if (this.final) {
      const { scores, winners } = this.final;
      const order = scores.map((score, seat) => [score, seat]).sort((a, b) => b[0] - a[0]);
      return h(
        "div",
        {
          class: "final",
          id: "final",
          key: "final",
          "data-scores": scores.join(" "),
          "data-winners": winners.join(" "),
        },
        h("h2", {}, "Game over"),
        h("p", { class: "winners" }, `${winners.map((s) => this.name(s)).join(" and ")} ${winners.length === 1 && winners[0] !== this.seat ? "wins" : "win"}!`),
        h(
          "ol",
          { class: "ranking" },
          order.map(([score, seat]) => h("li", { "data-seat": seat }, `${this.name(seat)}: ${score}`)),
        ),
        this.banner && this.banner.kind === "round" ? h("details", {}, h("summary", {}, "Last round"), this.banner.content) : null,
        this.tableId ? h("p", {}, h("a", { href: replayUrl(this.tableId) }, "Replay this game")) : null,
      );
    }
    const free = this.summary.seats.filter((spec) => !spec.taken).length;
    if (free) {
      return h(
        "div",
        { class: "round-summary waiting", id: "waiting", key: "waiting" },
        `Waiting for ${free} more ${free === 1 ? "person" : "people"} to take a seat: the game starts when every seat is taken. `,
        "Share this page's address, or the lobby.",
      );
    }
    if (!this.banner) return [];
    return h(
      "div",
      { class: "round-summary", id: "round-summary", key: `round${this.banner.round}`, "data-round": this.banner.round },
      this.banner.content,
      h(
        "button",
        {
          type: "button",
          class: "action small",
          "data-close": "",
          on: {
            click: () => {
              this.banner = null;
              this.rerender();
            },
          },
        },
        "Close",
      ),
    );
  }
}

export function formatTime(seconds) {
  const total = Math.max(0, Math.floor(seconds));
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, "0")}`;
}
