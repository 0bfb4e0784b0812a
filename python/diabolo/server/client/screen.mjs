// A game on screen, for the table page and the replay page alike: the view kept by the
// game's client model from events, the board of the game, the seats with their scores
// and the score table by round, a log of what happened, the round summary at each
// round's end and the game's end with its best moments. The status line and the log are
// live regions: a screen reader says what changed.

import { h, patch } from "./dom.mjs";
import { makeModel } from "./models.mjs";
import { api, replayUrl, seatName, winnersOf } from "./common.mjs";
import { SchachtBoard, COLOUR_NAMES } from "./schacht.mjs";
import { DuvelenBoard, cardText, parsePlay, rankText, SOURCES, SUITS } from "./duvelen.mjs";
import { KniziaBoard } from "./knizia.mjs";
import { GameHistory, scoreTable } from "./scores.mjs";
import { capital, listText } from "./words.mjs";
import { playSound } from "./sound.mjs";

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
   * tableId: for the link to the replay at the game's end; finalActions: () => the
   * description of what the page offers beside the game's result (the table's rematch).
   */
  constructor({ game, summary, seat, send, places, takeSeat = null, tableId = null, finalActions = null }) {
    this.game = game;
    this.summary = summary;
    this.seat = seat;
    this.sendMove = send;
    this.places = places;
    this.takeSeat = takeSeat;
    this.tableId = tableId;
    this.finalActions = finalActions;
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
   * from the first view on, so its history is whole without it. */
  reset(view) {
    this.model = makeModel(this.game, view);
    this.board = new BOARDS[this.game](this.context());
    this.log = [];
    this.banner = null;
    this.final = view.phase === "game_over" ? { scores: view.scores, winners: winnersOf(view.scores) } : null;
    this.history = new GameHistory(this.game, view.round);
    if (view.round > 0 || view.phase === "game_over") this.readRecord();
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
    const read = new GameHistory(this.game, record.view.round);
    for (const move of record.moves) for (const event of move.events || []) read.note(event);
    history.absorb(read);
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
        this.banner = { kind: "round", round: event.round, content: this.board.roundSummary(event) };
      } else if (event.type === "game_ended") {
        this.final = { scores: event.scores, winners: event.winners };
        this.addLog(`The game is over: ${listText(event.winners.map((s) => this.name(s)))} won.`, "game_ended", time);
        this.readRecord(); // a table page may have come in the middle of the game: the record holds all of it
      }
    }
    this.rerender();
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
    const { text, kind } = explainRefusal(entry, this.view, this.seat, (seat) => this.name(seat));
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
    if (this.board.afterRender) this.board.afterRender(); // with the page laid out: cards fly (motion.mjs)
    this.rendered += 1;
  }

  renderSeats() {
    const view = this.view;
    const seats = view.scores.map((score, seat) => {
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
          spec.bot ? h("small", { class: "bot" }, ` · bot${spec.level ? `, ${spec.level}` : ""}`) : null,
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

const CLAUSE_PREFIX = /^[SDK]\d+(?:\.\d+)?: /;
const LATE = new Set(["stale_move", "penalty_pending"]); // not a mistake: another move came first

/** Why the server refused a move, in plain words that name the rule: {text, kind}, kind
 * "stale" for a move that came too late, else "error". `entry` is the rejected message
 * ({reason, code, clause, message}) with the move we sent (or null); the codes are the
 * engine's (docs/frontend.rst, "Errors"). A code not known here gets the server's words. */
export function explainRefusal(entry, view, me, name) {
  const move = typeof entry.move === "string" ? entry.move : null;
  const explain = EXPLAIN[entry.code];
  const facts = { move, view, me, name, message: String(entry.message || "").replace(CLAUSE_PREFIX, "") };
  const said = explain && view ? explain(facts) : null;
  const kind = entry.reason === "stale" || LATE.has(entry.code) ? "stale" : "error";
  if (!said) return { text: `${REFUSALS[entry.reason] || entry.reason}: ${entry.message}`, kind };
  return { text: `${said}${entry.clause ? ` (${entry.clause})` : ""}.`, kind };
}

/** A Schacht move's parts: {card, colour (its name), side ("devil", "angel" or null)}. */
function schachtMove(move) {
  const match = /^x?([RYGPB])([1-5])([<>]?)$/.exec(move || "");
  if (!match) return { card: null, colour: null, side: null };
  return { card: match[1] + match[2], colour: COLOUR_NAMES[match[1]], side: { "<": "devil", ">": "angel" }[match[3]] || null };
}

/** A Duvelen play's parts, the short form (R2>3) too: {source, card (or null), pile}. */
function duvelenPlay(move) {
  const play = parsePlay(move || "");
  if (play) return play;
  const short = /^(S|R[1-4]|W)>(\d+|new)$/.exec(move || "");
  return short ? { source: short[1], card: null, pile: short[2] } : { source: null, card: null, pile: null };
}

function theCard(card) {
  return card ? `the ${cardText(card)}` : "that card";
}

const EXPLAIN = {
  // every game
  stale_move: ({ move }) => `Too late: ${move || "your move"} was allowed when you made it, but another move came first`,
  game_over: () => "The game is over: no more moves",
  bad_notation: ({ move }) => `${move ? `“${move}”` : "That"} is not a move of this game`,
  // Diabolo (Schacht)
  illegal_move: ({ move }) => `${move || "That move"} is not allowed now`,
  no_move: () => "There is nothing for you to do now",
  not_your_turn: ({ view, name }) =>
    view.current_player >= 0 ? `It is not your turn: ${name(view.current_player)} plays now` : "It is nobody's turn: the rows are being scored",
  card_not_in_hand: ({ move }) => `${schachtMove(move).card || "That card"} is not in your hand`,
  row_closed: ({ move }) => {
    const { card, colour } = schachtMove(move);
    return `${card ? `You cannot place ${card}: ` : ""}the ${colour || "that"} row is closed, it holds five cards and takes no more`;
  },
  side_full: ({ move }) => {
    const { card, colour, side } = schachtMove(move);
    return `You cannot place ${card || "a card"} on the ${side || "that"} side: that side of the ${colour || "that"} row already holds three cards, the most a side takes`;
  },
  discard_not_allowed: ({ move }) =>
    `You cannot discard ${schachtMove(move).card || "a card"}: a card is discarded only when none of yours can be placed, and one of yours can`,
  doubler_decisions_only: ({ view }) =>
    `${COLOUR_NAMES[view.scoring_colour] ? `The ${COLOUR_NAMES[view.scoring_colour]} row` : "A colour"} is being scored: only the doubler decisions, bet or hold, are open now`,
  no_doubler_decision_now: () => "No colour awaits a doubler decision: the doubler is bet or held only while a positive colour is scored",
  already_decided: ({ view }) => `You have already decided on the doubler for ${COLOUR_NAMES[view.scoring_colour] || "this colour"}`,
  doubler_spent: () => "Your doubler is spent this round: it was bet on an earlier colour",
  // Duvelen
  after_stop: () => "Stop has been called: nobody turns or recycles the Draaistok any more; play what you can, then pass",
  draaistok_empty: () => "Your Draaistok is empty: recycle the waste to turn again",
  draaistok_not_empty: () => "Your Draaistok still has cards: turn them before you recycle the waste",
  waste_empty: () => "Your waste is empty: there is nothing to recycle",
  stop_already_called: ({ view, name }) =>
    view.stop_called_by === null || view.stop_called_by === undefined
      ? "Stop has already been called this round, and a round has one Stop"
      : `${name(view.stop_called_by)} has already called Stop, and a round has one Stop`,
  stok_not_empty: ({ view, me }) => {
    const left = view.seats && me !== null ? view.seats[me].stok_count : null;
    return `You can call Stop only once your Stok is empty${left ? `: ${left} ${left === 1 ? "card is" : "cards are"} left in it` : ""}`;
  },
  pass_before_stop: () => "There is no passing before Stop: turn, recycle or wait",
  source_empty: ({ move }) => `Your ${SOURCES[duvelenPlay(move).source] || "place"} is empty: there is no card to play from it`,
  card_moved: ({ move }) => {
    const { source, card } = duvelenPlay(move);
    return `${capital(theCard(card))} is no longer on your ${SOURCES[source] || "place"}: another card is there now`;
  },
  ace_starts_a_pile: ({ move }) => `An Ace starts a new pile and goes on no other: play ${theCard(duvelenPlay(move).card)} to a new pile`,
  only_aces_start_piles: ({ move }) => `Only an Ace starts a new pile: ${theCard(duvelenPlay(move).card)} goes on a pile of its suit whose top is one lower`,
  no_such_pile: ({ move }) => `There is no pile ${duvelenPlay(move).pile || "there"} now: it was completed, or never started`,
  pile_complete: ({ move }) => `${duvelenPlay(move).pile ? `Pile ${duvelenPlay(move).pile}` : "That pile"} is complete: a King made it a Herenhoop`,
  pile_wants_another: ({ move, view }) => {
    const { card, pile: id } = duvelenPlay(move);
    const pile = (view.piles || []).find((p) => String(p.id) === id);
    if (!pile || pile.top >= 13) return `${capital(theCard(card))} does not fit there: a pile takes the next card of its suit`;
    return `Pile ${id} takes the ${rankText(pile.top + 1)}${SUITS[pile.suit]} next: ${theCard(card)} does not fit`;
  },
  // Diabolo (Knizia)
  no_such_seat: () => "There is no such seat at this table",
  penalty_pending: ({ view, me, name, move }) => {
    const taker = view.penalty ? view.penalty[0] : undefined;
    if (taker === me) return "The game waits for you to take a penalty card: take one from the line first";
    return `The game waits for ${taker === undefined ? "a player" : name(taker)} to take a penalty card: ${move || "your move"} has to wait`;
  },
  not_your_penalty: ({ view, name }) =>
    `It is ${view.penalty?.length ? `${name(view.penalty[0])}'s` : "another player's"} turn to take a penalty card, not yours`,
  no_such_position: () => "That card is no longer in the line",
  no_penalty: () => "A card is taken from the line only as the penalty of an invalid call",
  not_the_dealer: ({ view, name }) => `Only the dealer, ${name(view.dealer)}, reveals cards`,
  deck_empty: () => "The deck is used up: there is nothing left to reveal",
  invalid_claim: ({ move, message }) => {
    const reason = /(not a word|too few cards|letters missing|double letter split or reversed)/.exec(message);
    return `${move || "That word"} is not a valid call now${reason ? `: ${reason[1]}` : ""}`;
  },
};
