// The replay page: replay.html?table=ID steps through a game's public record
// (GET /api/tables/ID/record?audience=public, format diabolo.record/1, redacted for
// spectators): the first public view, then per move the events spectators saw, fed to
// the game's client model as the table page does. A full record (the deal and every
// move, as the server gives without ?audience=public) holds no events: it needs the
// engine to replay, so the page then lists its moves and result only.

import { api, gameTitle, tableUrl } from "./common.mjs";
import { h, patch } from "./dom.mjs";
import { gameClient } from "./games.mjs";
import { GameScreen, formatTime } from "./screen.mjs";

const params = new URLSearchParams(location.search);
const tableId = params.get("table") || "";
/** The element of the page with this id (a form field where one is read). @type {(id: string) => HTMLInputElement} */
const $ = (id) => /** @type {HTMLInputElement} */ (document.getElementById(id));
const places = { banner: $("banner"), seats: $("seats"), board: $("board"), notices: null, log: $("log") };

let record = null;
let screen = null;
let step = 0; // moves applied
let playing = null;
let speed = 1;

window.diabolo = {
  get step() {
    return step;
  },
  get steps() {
    return record?.moves ? record.moves.length : 0;
  },
  get view() {
    return screen?.model ? screen.model.view : null;
  },
  get record() {
    return record;
  },
  get rendered() {
    return screen ? screen.rendered : 0;
  },
  goTo: (k) => goTo(k),
  ready: false,
};

function setState(state, text) {
  $("connection").dataset.state = state;
  $("connection").textContent = text;
}

function moveText(move) {
  if (move.move === null) return "a secret decision";
  return `${screen ? screen.name(move.seat) : record.players[move.seat]}: ${move.move}`;
}

/** Shows the game after `k` moves (0: the first view). */
function goTo(k) {
  if (!screen) return;
  k = Math.max(0, Math.min(record.moves.length, Math.round(k)));
  if (k < step) {
    screen.reset(record.view);
    step = 0;
  }
  const jump = k - step > 1;
  for (; step < k; step += 1) screen.apply(record.moves[step].events, record.moves[step].time);
  if (jump) screen.marks.clear(); // a jump animates nothing
  showPosition();
  screen.rerender();
}

function showPosition() {
  const total = record.moves.length;
  $("slider").max = String(total);
  $("slider").value = String(step);
  $("position").textContent = `move ${step} of ${total}`;
  $("position").dataset.step = String(step);
  const last = step > 0 ? record.moves[step - 1] : null;
  $("current").textContent = last
    ? `Move ${step}: ${moveText(last)}${last.time !== null && last.time !== undefined ? ` at ${formatTime(last.time)}` : ""}`
    : "The first deal, before any move.";
  for (const item of $("moves").querySelectorAll("li")) item.classList.toggle("current", Number(item.dataset.step) === step);
  const current = $("moves").querySelector(".current");
  if (current && playing) current.scrollIntoView({ block: "nearest" });
  $("back").disabled = $("first").disabled = step === 0;
  $("forward").disabled = $("last").disabled = step === total;
}

function play() {
  if (playing) {
    clearInterval(playing);
    playing = null;
    $("play").textContent = "Play";
    return;
  }
  if (step === record.moves.length) goTo(0);
  $("play").textContent = "Pause";
  playing = setInterval(() => {
    if (step >= record.moves.length) return play();
    goTo(step + 1);
    return undefined;
  }, 700 / speed);
}

function moveList() {
  patch(
    $("moves"),
    record.moves.map((move, i) =>
      h(
        "li",
        { "data-step": i + 1, key: i, on: { click: () => goTo(i + 1) } },
        move.time !== null && move.time !== undefined ? h("time", {}, formatTime(move.time), " ") : null,
        move.move === null ? "a secret decision" : `${record.players[move.seat]}: ${move.move}`,
      ),
    ),
  );
}

async function meta() {
  const title = await gameTitle(record.game);
  $("title").textContent = `Replay · ${title}`;
  document.title = `Replay · ${title} · ${tableId}`;
  const parts = [`Table ${tableId}`, `players: ${record.players.join(", ")}`];
  if (record.started) parts.push(`started ${record.started}`);
  if (record.ended) parts.push(`ended ${record.ended}`);
  parts.push(`${record.moves.length} moves`);
  $("meta").replaceChildren(
    parts.join(" · "),
    " · ",
    Object.assign(document.createElement("a"), { href: tableUrl(tableId, record.game, true), textContent: "the table" }),
  );
}

/** A full record: its moves and result, without stepping (that needs the engine). */
function fullRecord() {
  setState("closed", "full record");
  patch(
    places.banner,
    h(
      "div",
      { class: "error", id: "full-record" },
      "This is the full record (the deal and the moves): replaying it needs the engine. Its moves and result are listed below.",
      record.result ? h("p", { id: "final", "data-scores": record.result.scores.join(" ") }, `Scores: ${record.result.scores.join(", ")}`) : null,
    ),
  );
  for (const id of ["first", "back", "play", "forward", "last", "slider"]) $(id).disabled = true;
}

async function start() {
  if (!tableId) {
    setState("closed", "no table");
    patch(places.banner, h("div", { class: "error" }, "No table given: open a replay from the ", h("a", { href: "/" }, "lobby"), "."));
    return;
  }
  try {
    const text = await api(`/api/tables/${encodeURIComponent(tableId)}/record?audience=public`);
    record = typeof text === "string" ? JSON.parse(text) : text;
  } catch (error) {
    setState("closed", "no record");
    patch(places.banner, h("div", { class: "error", id: "error" }, error.message));
    return;
  }
  await meta();
  moveList();
  if (record.audience === "full" || !record.view) {
    fullRecord();
    window.diabolo.ready = true;
    return;
  }
  const summary = { seats: record.players.map((name) => ({ name, bot: null, taken: true })), settings: {} };
  screen = new GameScreen({ game: record.game, client: await gameClient(record.game), summary, seat: null, send: null, places, tableId: null });
  screen.reset(record.view);
  const over = record.moves.some((move) => (move.events || []).some((event) => event.type === "game_ended"));
  setState("live", over ? "finished game" : "the game so far");
  $("first").addEventListener("click", () => goTo(0));
  $("back").addEventListener("click", () => goTo(step - 1));
  $("forward").addEventListener("click", () => goTo(step + 1));
  $("last").addEventListener("click", () => goTo(record.moves.length));
  $("play").addEventListener("click", play);
  $("slider").addEventListener("input", () => goTo(Number($("slider").value)));
  const speeds = h(
    "select",
    { id: "speed", "aria-label": "speed" },
    [1, 4, 16].map((s) => h("option", { value: s }, `${s}×`)),
  );
  const holder = document.createElement("span");
  patch(holder, speeds);
  $("position").before(holder);
  $("speed").addEventListener("change", () => {
    speed = Number($("speed").value);
    if (playing) {
      play();
      play();
    }
  });
  document.addEventListener("keydown", (event) => {
    if (event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement) return;
    const keys = { ArrowLeft: () => goTo(step - 1), ArrowRight: () => goTo(step + 1), Home: () => goTo(0), End: () => goTo(record.moves.length), " ": play };
    if (keys[event.key]) {
      event.preventDefault();
      keys[event.key]();
    }
  });
  showPosition();
  window.diabolo.ready = true;
}

start();
