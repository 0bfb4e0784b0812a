// A game on screen, for the table page and the replay page alike: the view kept by the
// game's client model from events, the board of the game, the seats with their scores
// and the score table by round, a log of what happened, the round summary at each
// round's end and the game's end with its best moments. The status line and the log are
// live regions: a screen reader says what changed.

import { h, patch } from "./dom.mjs";
import { api, replayUrl, seatName, winnersOf } from "./common.mjs";
import { GameHistory, scoreTable } from "./scores.mjs";
import { listText } from "./words.mjs";
import { playSound } from "./sound.mjs";

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
   * game: its name; client: its client (games.mjs gameClient: board, model, refusals,
   * moments); summary: the table's summary (names, bots); seat: ours or null;
   * send: (move) => void, or null to only watch; places: {banner, seats, board, notices, log}
   * (elements; notices and log may be null); takeSeat: (seat) => void offers the free seats;
   * tableId: for the link to the replay at the game's end; finalActions: () => the
   * description of what the page offers beside the game's result (the table's rematch).
   */
  constructor({ game, client, summary, seat, send, places, takeSeat = null, tableId = null, finalActions = null }) {
    this.game = game;
    this.client = client;
    this.summary = summary;
    this.seat = seat;
    this.sendMove = send;
    this.places = places;
    this.takeSeat = takeSeat;
    this.tableId = tableId;
    this.finalActions = finalActions;
    this.legal = [];
    this.hints = null; // a practice table's {words, count} for this version
    this.presence = []; // each seat's presence (online, away, gone; null for a bot's), from the server
    this.spectators = 0;
    this.marks = new Map();
    this.notices = [];
    this.noticeCount = 0;
    this.timer = null; // a turn timer: {server (seconds, the server's clock), deadline (a Date.now() time)}
    this.renderQueued = false;
    this.rendered = 0; // renders done (tests wait on it)
    this.model = null;
    this.board = null;
    this.history = null; // the rounds so far, and the moments of the game's end
    places.seats.setAttribute("aria-label", "Seats and scores");
    if (places.log) {
      places.log.setAttribute("aria-live", "polite");
      places.log.setAttribute("aria-label", "What happened, newest first");
    }
  }

  /** Starts again from a view (the welcome's, or a record's first one). A table page
   * (the one given a tableId) that starts in a later round, or at the game's end, reads
   * the rounds it did not see from the public record; the replay page feeds every event
   * from the first view on, so its history is whole without it. A table page also
   * rebuilds its log of the first ``played`` moves (those before the view) from the
   * record: after a reload or on a second device, "What happened" is there. */
  reset(view, played = 0) {
    this.model = new this.client.Model(view);
    this.board = new this.client.Board(this.context());
    this.log = [];
    this.banner = null;
    this.final = view.phase === "game_over" ? { scores: view.scores, winners: winnersOf(view.scores) } : null;
    this.history = new GameHistory(this.client, view.round);
    this.logBefore = played;
    if (played > 0 || view.round > 0 || view.phase === "game_over") this.readRecord();
    this.rerender();
  }

  /** Reads the public record (diabolo.record/1: the first view, then per move the events
   * spectators saw) into the history: the rounds that ended before this page came, and
   * at the game's end every moment of the game. Without it the page shows what it saw. */
  async readRecord() {
    if (!this.tableId) return;
    const history = this.history;
    let record;
    try {
      record = await api(`/api/tables/${encodeURIComponent(this.tableId)}/record?audience=public`);
    } catch {
      return;
    }
    if (!record || !record.view || !Array.isArray(record.moves)) return;
    const read = new GameHistory(this.client, record.view.round);
    for (const move of record.moves) for (const event of move.events || []) read.note(event);
    history.absorb(read);
    if (history === this.history) this.logRecord(record.moves.slice(0, this.logBefore));
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
      this.history.note(event);
      const line = this.board.describe(event);
      if (line) this.addLog(line, event.type, time);
      if (event.type === "round_ended") {
        playSound("score");
        this.banner = { kind: "round", round: event.round, content: this.board.roundSummary(event) };
      } else if (event.type === "game_ended") {
        this.final = { scores: event.scores, winners: event.winners };
        this.addLog(`The game is over: ${listText(event.winners.map((s) => this.name(s)))} won.`, "game_ended", time);
        this.readRecord(); // a table page may have come in the middle of the game: the record holds all of it
      }
    }
    this.rerender();
  }

  /** The log's lines of `moves` (the public record's, before this page's view), below the
   * lines this page logged since. */
  logRecord(moves) {
    const lines = [];
    for (const move of moves) {
      for (const event of move.events || []) {
        const text = this.board.describe(event);
        if (text) lines.unshift({ text, type: event.type, time: move.time ?? null });
      }
    }
    this.logBefore = 0; // once
    for (const line of lines.slice(0, LOG_SIZE - this.log.length)) {
      this.logCount = (this.logCount || 0) + 1;
      this.log.push({ ...line, n: this.logCount });
    }
  }

  addLog(text, type, time) {
    this.logCount = (this.logCount || 0) + 1;
    this.log.unshift({ text, type, time, n: this.logCount });
    if (this.log.length > LOG_SIZE) this.log.length = LOG_SIZE;
  }

  /** A seat's name; ours says so: "Ann (you)". */
  name(seat) {
    const name = seatName(this.summary, seat);
    return seat === this.seat && seat !== null ? `${name} (you)` : name;
  }

  /** "Ann places", "Ann (you) places": a seat's name and a verb. */
  says(seat, verb) {
    return `${this.name(seat)} ${verb}`;
  }

  /** A move of ours the server refused (the rejected message, with the move we sent, or
   * null): the board may show it its own way (a lost race in Duvelen), else a notice says
   * why in plain words, naming the rule. */
  refused(entry) {
    if (entry.reason === "stale") playSound("lost");
    if (this.board.rejected?.(entry)) return;
    const { text, kind } = explainRefusal(entry, this.view, this.seat, (seat) => this.name(seat), this.client.explain);
    this.notice(text, kind);
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
      send: (move) => screen.sendMove?.(move),
      rerender: () => screen.rerender(),
      mark: (key, cls, ms) => screen.mark(key, cls, ms),
      marked: (key) => screen.marked(key),
      notice: (text, kind) => screen.notice(text, kind),
      timerText: () => screen.timerText(),
      get settled() {
        return screen.view.phase === "game_over" ? "The game is over." : screen.waitingText();
      },
    };
  }

  /** While the table waits for its people (no turn runs yet), what the status line says
   * instead of whose turn it is; null once the game is under way. */
  waitingText() {
    const free = this.summary.seats.filter((spec) => spec.bot === null && !spec.taken).length;
    if (!this.summary.waiting || this.final || !free) return null;
    return `Waiting for ${free} more ${free === 1 ? "person" : "people"} to sit down: the game starts when every seat is taken.`;
  }

  timerText() {
    if (!this.timer || this.timer.deadline === null) return "";
    const left = Math.max(0, Math.ceil((this.timer.deadline - Date.now()) / 1000));
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
    const focused = document.activeElement;
    const focusInBoard = focused !== null && focused !== document.body && board.contains(focused);
    patch(board, this.board.render());
    // The board puts the focus where the keyboard needs it: where a choice led (a card
    // chosen: its targets), or, when the element that had it went away or was disabled
    // (a move made, the turn over), on what comes next.
    if (this.board.placeFocus) this.board.placeFocus(focusInBoard && focusLost(focused));
    patch(seats, this.renderSeats());
    patch(banner, this.renderBanner());
    if (notices)
      patch(
        notices,
        this.notices.map((n) => h("p", { class: `notice ${n.kind}`, key: n.id }, n.text)),
      );
    if (log) {
      patch(
        log,
        this.log.map((entry) =>
          h("li", { key: entry.n, class: `log-${entry.type}` }, entry.time !== null ? h("time", {}, formatTime(entry.time)) : null, entry.text),
        ),
      );
    }
    this.board.flights?.land(); // with the page laid out: the board's cards fly (motion.mjs)
    this.rendered += 1;
  }

  renderSeats() {
    const view = this.view;
    const waiting = this.waitingText(); // no seat's turn runs yet
    const seats = view.scores.map((score, seat) => {
      const spec = this.summary.seats[seat] || {};
      const free = spec.bot === null && !spec.taken;
      const classes = ["seat", `s${seat}`];
      if (seat === this.seat) classes.push("me");
      if (!waiting && this.board.isTurn(seat)) classes.push("turn");
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
          spec.bot ? h("small", { class: "bot" }, ` · bot${spec.level ? `, ${spec.level}` : ""}`) : null,
          spec.taken && !spec.bot && this.presence[seat]
            ? h("small", { class: "presence", "data-presence": this.presence[seat] }, ` · ${this.presence[seat]}`)
            : null,
        ),
        h("span", { class: "sr-only" }, "score"),
        h("div", { class: "score", "data-score": score }, String(score)),
        h("div", { class: "seat-facts" }, this.board.seatFacts(seat).join(" · ")),
        free && this.takeSeat
          ? h("button", { type: "button", class: "action small", "data-sit": seat, on: { click: () => this.takeSeat(seat) } }, "Sit here")
          : free
            ? h("small", {}, "free seat")
            : null,
      );
    });
    if (this.spectators > 0) seats.push(h("p", { class: "watching", id: "watching", key: "watching" }, `${this.spectators} watching`));
    seats.push(h("details", { class: "scores", id: "scores", key: "scores" }, h("summary", {}, "Scores by round"), this.scoreTable()));
    return seats;
  }

  scoreTable() {
    return scoreTable(
      this.history,
      this.view.scores.map((_, seat) => seat),
      (seat) => this.name(seat),
    );
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
        h("p", { class: "winners" }, `${listText(winners.map((s) => this.name(s)))} ${winners.length === 1 ? "wins" : "win"}!`),
        h(
          "ol",
          { class: "ranking" },
          order.map(([score, seat]) => h("li", { "data-seat": seat }, `${this.name(seat)}: ${score}`)),
        ),
        h("h3", {}, "Scores by round"),
        this.scoreTable(),
        h("h3", {}, "Best moments"),
        h(
          "ul",
          { class: "moments", id: "moments" },
          this.history.moments((seat) => this.name(seat)).map((moment) => h("li", { "data-moment": moment.kind }, moment.text)),
        ),
        this.banner && this.banner.kind === "round" ? h("details", {}, h("summary", {}, "Last round"), this.banner.content) : null,
        this.tableId ? h("p", {}, h("a", { href: replayUrl(this.tableId) }, "Replay this game")) : null,
        // The table page's own actions at the game's end (a rematch) go in this slot.
        h("div", { class: "final-actions", id: "final-actions", key: "final-actions" }, this.finalActions?.()),
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
      h("h3", {}, "Scores by round"),
      this.scoreTable(),
      h(
        "button",
        {
          type: "button",
          class: "action small",
          "data-close": "",
          "aria-label": "Close the round summary",
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

/** Whether the element that had the focus lost it: gone, disabled, or no longer focusable. */
function focusLost(element) {
  return !element.isConnected || element.disabled || document.activeElement !== element || element.tabIndex < 0;
}

export function formatTime(seconds) {
  const total = Math.max(0, Math.floor(seconds));
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, "0")}`;
}

// ---- refusals in plain words ----

const LATE = new Set(["stale_move", "penalty_pending"]); // not a mistake: another move came first

/** Why the server refused a move, in plain words that name the rule: {text, kind}, kind
 * "stale" for a move that came too late, else "error". `entry` is the rejected message
 * ({reason, code, clause, params, message}) with the move we sent (or null); the codes
 * and params are the engine's (docs/frontend.rst, "Errors"): the game's own words for
 * them (`game`, its client's explain), else those every game shares here, from the code,
 * the params and the view, never from the English `message`. A code not known gets the
 * server's words. */
export function explainRefusal(entry, view, me, name, game = {}) {
  const move = typeof entry.move === "string" ? entry.move : null;
  const explain = game[entry.code] || EXPLAIN[entry.code];
  const facts = { move, view, me, name, params: entry.params || {} };
  const said = explain && view ? explain(facts) : null;
  const kind = entry.reason === "stale" || LATE.has(entry.code) ? "stale" : "error";
  if (!said) return { text: `${REFUSALS[entry.reason] || entry.reason}: ${entry.message}`, kind };
  return { text: `${said}${entry.clause ? ` (${entry.clause})` : ""}.`, kind };
}

const EXPLAIN = {
  // every game (the codes of the contract, docs/frontend.rst "Errors")
  stale_move: ({ move }) => `Too late: ${move || "your move"} was allowed when you made it, but another move came first`,
  game_over: () => "The game is over: no more moves",
  bad_notation: ({ move }) => `${move ? `“${move}”` : "That"} is not a move of this game`,
  illegal_move: ({ move }) => `${move || "That move"} is not allowed now`,
  no_move: () => "There is nothing for you to do now",
  not_your_turn: ({ view, name }) => (view.current_player >= 0 ? `It is not your turn: ${name(view.current_player)} plays now` : "It is nobody's turn now"),
  no_such_seat: () => "There is no such seat at this table",
};
