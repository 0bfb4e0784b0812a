// The table page: table.html?table=ID (&watch=1 to watch even with a seat's token). The
// seat is the one whose token this browser keeps (localStorage, from the lobby), else
// the page watches as a spectator. It says hello over the table's websocket, gets the
// view once, then keeps it with the game's client model from the events of each update;
// after a dropped connection it reconnects and resumes with `since` (the events it
// missed). Moves go out in the game's notation with the version they were made on.
// Above the game, the table's own actions: leave it, invite a friend to a free seat, take
// a seat (an invitation's address, table.html?table=ID&invite=1&seat=N, opens with the
// form), continue on another device (a one-time link, table.html?...&seat=N&handoff=CODE,
// that moves the seat there: this page then watches), and at the end a rematch with the
// same seats, which every player is asked to join.

import { api, askRematch, copyText, forgetSeat, inviteUrl, leaveTable, replayUrl, rulesUrl, storedName, storedSeat, tableUrl, takeSeat } from "./common.mjs";
import { h, patch } from "./dom.mjs";
import { gameClient } from "./games.mjs";
import { GameScreen } from "./screen.mjs";

const params = new URLSearchParams(location.search);
const tableId = params.get("table") || "";
const watching = params.has("watch");
const held = watching ? null : storedSeat(tableId);
const invitedSeat = params.has("seat") ? Number(params.get("seat")) : null;
const handoffCode = params.get("handoff"); // a link to continue a seat here, from another device

/** The element of the page with this id (a form field where one is read). @type {(id: string) => HTMLInputElement} */
const $ = (id) => /** @type {HTMLInputElement} */ (document.getElementById(id));
const places = { banner: $("banner"), seats: $("seats"), board: $("board"), notices: $("notices"), log: $("log") };

let screen = null;
let inbox = Promise.resolve(); // the messages, handled in order
let version = -1;
let socket = null;
let retries = 0;
let reconnectTimer = null;
let closedForGood = false;
const RETRY = new Set(["moved", "draining", "unavailable"]); // transient answers: reconnect (docs/server.rst)
const FINAL = new Set(["bad_token", "no_table", "seat_moved"]); // answers after which this page does not reconnect
let nextId = 0;
const pending = new Map(); // id -> {move, version}
const actions = { joinSeat: invitedSeat, leaving: false, declined: false, error: "", handoff: null, ended: null }; // what the table's actions show

// What tests (and curious people) may look at: the page's model and what it knows.
const hooks = {
  get model() {
    return screen?.model;
  },
  get view() {
    return screen?.model ? screen.model.view : null;
  },
  get legal() {
    return screen ? screen.legal : [];
  },
  get hints() {
    return screen ? screen.hints : null;
  },
  get version() {
    return version;
  },
  get seat() {
    return held ? held.seat : null;
  },
  get over() {
    return Boolean(screen?.final);
  },
  get rendered() {
    return screen ? screen.rendered : 0;
  },
  /** The turn timer's deadline by the server's clock (seconds since the epoch), or null. */
  get deadline() {
    return screen?.timer ? screen.timer.server : null;
  },
  welcomes: 0,
  resumes: 0,
  sent: 0,
  accepted: 0,
  rejected: [],
  unanswered: 0,
  /** Sends a move as the page's own controls do (its answer counts in accepted/rejected). */
  send: (move) => send(move),
  /** Drops the connection as a network failure would: the page reconnects and resumes. */
  dropConnection() {
    if (socket) socket.close(4000, "dropped for a test");
  },
};
window.diabolo = hooks;

/** The connection's state on screen: the header says it (and, while the page is not
 * live, keeps it in view: style.css), and the board is dimmed and takes no move (inert). */
function setConnection(state, text) {
  const element = $("connection");
  element.dataset.state = state;
  element.textContent = text;
  document.body.dataset.connection = state;
  $("board").inert = state !== "live";
}

function socketUrl() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  return `${scheme}://${location.host}/ws/${encodeURIComponent(tableId)}`;
}

function connect() {
  clearTimeout(reconnectTimer);
  if (navigator.onLine === false) {
    // No network: the page waits for the browser's "online" instead of trying in a loop,
    // so it says "offline" the whole time rather than flickering through "connecting".
    setConnection("offline", "no network; reconnecting when it is back");
    return;
  }
  setConnection("connecting", retries ? "reconnecting…" : "connecting…");
  const ws = new WebSocket(socketUrl());
  socket = ws;
  ws.addEventListener("open", () => {
    keepAlive(ws);
    const hello = { type: "hello" };
    if (held) Object.assign(hello, { seat: held.seat, token: held.token });
    if (screen?.model && version >= 0) hello.since = version;
    ws.send(JSON.stringify(hello));
  });
  ws.addEventListener("message", (event) => {
    if (socket !== ws) return;
    let message;
    try {
      message = JSON.parse(event.data);
    } catch {
      return;
    }
    // Known at once, before the socket's close event: the page must not reconnect.
    if (message.type === "error" && FINAL.has(message.reason)) closedForGood = true;
    // In order, each after the one before: a welcome may wait for its game's client.
    inbox = inbox.then(() => receive(message, ws)).catch((error) => console.error(error));
  });
  ws.addEventListener("close", (event) => {
    if (socket !== ws) return;
    socket = null;
    hooks.unanswered += pending.size; // their answers are lost with the socket
    pending.clear();
    // Only a final answer ends the page's connection for good (errorMessage() said why):
    // no_table (4404), bad_token (4401), or a hello the server cannot read (4400). Every
    // other close (a lost network, a process that died, and "try again later", 1013: the
    // table moved, the server drains, its store does not answer) is tried again, with
    // backoff and jitter so that the clients of a failed process do not all come back at once.
    if (closedForGood || event.code === 4401 || event.code === 4404 || event.code === 4400) return;
    retries += 1;
    const ceiling = Math.min(4000, 250 * 2 ** Math.min(retries - 1, 4));
    const delay = ceiling / 2 + Math.random() * (ceiling / 2);
    setConnection("offline", `connection lost; retrying in ${Math.round(delay / 100) / 10} s`);
    reconnectTimer = setTimeout(connect, delay);
  });
}

/** A ping every 30 s, so that the server does not close a quiet connection as idle. */
function keepAlive(ws) {
  const timer = setInterval(() => {
    if (socket !== ws || ws.readyState !== WebSocket.OPEN) clearInterval(timer);
    else ws.send(JSON.stringify({ type: "ping" }));
  }, 30000);
}

function receive(message, ws) {
  switch (message.type) {
    case "welcome":
      return welcome(message);
    case "update":
      return update(message, ws);
    case "table":
      noteDeclined(screen.summary, message.table);
      screen.summary = message.table;
      noteTimer(); // a seat a bot now plays has no timer
      noteTitle();
      renderActions();
      return screen.rerender();
    case "accepted":
      pending.delete(message.id);
      hooks.accepted += 1;
      return undefined;
    case "presence":
      screen.presence = message.presence;
      screen.spectators = message.spectators;
      return screen.rerender();
    case "chat":
      return heard(message);
    case "hints":
      if (screen && message.version === version) {
        screen.hints = { words: message.words, count: message.count };
        screen.rerender();
      }
      return undefined;
    case "rejected":
      return rejected(message);
    case "error":
      return errorMessage(message);
    default:
      return undefined;
  }
}

async function welcome(message) {
  retries = 0;
  hooks.welcomes += 1;
  noteClock(message);
  const summary = message.table;
  $("title").textContent = summary.title;
  if (!screen) {
    const client = await gameClient(summary.game);
    screen = new GameScreen({
      game: summary.game,
      client,
      summary,
      seat: message.seat,
      send,
      places,
      takeSeat: held || watching ? null : sit,
      tableId,
      finalActions: rematchControl,
    });
  }
  screen.summary = summary;
  screen.presence = message.presence || [];
  screen.spectators = message.spectators || 0;
  talk.lines = message.chat || [];
  if (document.hidden) sendPresence();
  if (message.view) {
    screen.reset(message.view, message.played);
  } else if (message.missed) {
    hooks.resumes += 1;
    for (const missed of message.missed) if (missed.version > version) screen.apply(missed.events, null);
  }
  version = message.version;
  screen.legal = message.legal || [];
  noteTimer();
  noteTitle();
  setConnection("live", held ? `seat ${message.seat} · live` : "watching · live");
  $("links").replaceChildren();
  patch($("links"), [
    h("a", { href: rulesUrl(summary.game), "data-rules": summary.game }, `How to play ${summary.title}`),
    " · ",
    h("a", { href: replayUrl(tableId) }, "Replay / record"),
    " · table ",
    h("code", {}, tableId),
  ]);
  renderActions();
  renderTalk();
  screen.rerender();
}

function update(message, ws) {
  if (!screen || !screen.model) return;
  if (message.version <= version) return; // already known
  if (message.version !== version + 1) {
    // A gap (it should not happen): start again from a fresh view.
    version = -1;
    screen.model = null;
    ws.close(4000, "resync");
    return;
  }
  noteClock(message);
  const wasOver = Boolean(screen.final);
  screen.apply(message.events, message.time);
  if (Number.isInteger(message.timeout)) {
    // the server played for a seat whose time ran out: everyone is told
    const text = `Time ran out: a move was played for ${screen.name(message.timeout)}.`;
    screen.addLog(text, "timeout", message.time);
    screen.notice(text);
  }
  version = message.version;
  if (!wasOver && screen.final) renderActions(); // the game's end: no more leaving or inviting
  screen.hints = null; // until this version's hints come (a practice table)
  if (screen.seat !== null) screen.legal = message.legal || [];
  noteTimer();
  noteTitle();
}

/** The tab's icon: the devil's red with a white dot on a seat's turn, a plain dark one
 * otherwise (an SVG, drawn the same everywhere). */
const TAB_ICON = {
  turn: `data:image/svg+xml,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="8" fill="#b3261e"/><circle cx="8" cy="8" r="3.5" fill="#fff"/></svg>')}`,
  rest: `data:image/svg+xml,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="7" fill="#2b2118"/></svg>')}`,
};

/** The tab's title and icon tell a seat its turn in a turn-based game (a page in the
 * background gets no other sign of it). */
function noteTitle() {
  const summary = screen.summary;
  const mine = screen.seat !== null && screen.legal.length > 0 && !summary.real_time && !screen.final && !screen.waitingText();
  document.title = `${mine ? "● Your turn · " : ""}${summary.title} · table ${summary.id}`;
  const icon = /** @type {HTMLLinkElement} */ (document.querySelector("link[rel=icon]"));
  const href = mine ? TAB_ICON.turn : TAB_ICON.rest;
  if (icon.getAttribute("href") !== href) icon.setAttribute("href", href);
}

/** The turn timers as the server's last message gave them: each seat's deadline by the
 * server's clock (seconds since the epoch, null: none), and how far the server's clock is
 * ahead of this page's (milliseconds). Every page of the table counts down to the same
 * deadline, whenever it came and however its clock is set. */
let deadlines = [];
let clockAhead = 0;

function noteClock(message) {
  if (typeof message.clock === "number") clockAhead = message.clock * 1000 - Date.now();
  if (Array.isArray(message.deadlines)) deadlines = message.deadlines;
}

/** The turn timer shown: the seat to move's deadline (while several decide, ours, or the
 * first), as a Date.now() time. */
function noteTimer() {
  const view = screen.view;
  const seat = !view
    ? -1
    : view.current_player >= 0
      ? view.current_player
      : screen.seat !== null && deadlines[screen.seat]
        ? screen.seat
        : deadlines.findIndex(Boolean);
  const server = seat >= 0 && screen.summary.seats[seat]?.bot === null ? deadlines[seat] : null;
  screen.timer = server ? { server, deadline: server * 1000 - clockAhead } : null;
}

function send(move) {
  if (!socket || socket.readyState !== WebSocket.OPEN) {
    screen.notice("Not connected: the move was not sent.", "error");
    return;
  }
  const id = ++nextId;
  pending.set(id, { move, version });
  hooks.sent += 1;
  socket.send(JSON.stringify({ type: "move", move, version, id }));
}

function rejected(message) {
  if (String(message.id).startsWith("c")) {
    talk.error = message.message; // a chat message the server refused
    return renderTalk();
  }
  const sent = pending.get(message.id);
  pending.delete(message.id);
  const entry = { ...message, move: sent ? sent.move : null };
  hooks.rejected.push(entry);
  screen.refused(entry);
}

function errorMessage(message) {
  if (RETRY.has(message.reason)) return; // the socket closes, and the page reconnects
  if (message.reason === "bad_token" || message.reason === "no_table") {
    closedForGood = true;
    if (message.reason === "bad_token") forgetSeat(tableId);
    setConnection("closed", message.reason === "no_table" ? "not running" : "seat refused");
    // A table that is not running here (finished long ago, or unknown) may have a replay.
    const replay = h("a", { href: replayUrl(tableId) }, message.reason === "no_table" ? "Open its replay" : "replay");
    endPage(h("div", { class: "error", id: "error", key: "ended" }, message.message, ". ", replay, " · ", h("a", { href: "/" }, "lobby")));
  } else if (message.reason === "seat_moved") {
    closedForGood = true;
    forgetSeat(tableId);
    setConnection("closed", "seat moved");
    const watch = h("a", { href: tableUrl(tableId, screen?.game, true), id: "watch-here" }, "Watch here");
    endPage(
      h(
        "div",
        { class: "notice", id: "error", key: "ended", role: "status" },
        "Your seat continues on your other device. ",
        watch,
        " · ",
        h("a", { href: "/" }, "lobby"),
      ),
    );
  } else if (screen) {
    screen.notice(message.message, "error");
  }
}

/** The page's connection ended for good: `content` says why, in place of the table's
 * actions (the screen, which redraws the banner, leaves them alone), and the timer stops. */
function endPage(content) {
  actions.ended = content;
  if (!screen) return patch(places.banner, content);
  screen.timer = null;
  renderActions();
}

/** The screen's "Sit here" on a free seat: the form to take it, with the name field focused. */
function sit(seat) {
  actions.joinSeat = seat;
  renderActions();
  $("join-name").focus();
}

// ---- the table's own actions -------------------------------------------------------------

function freeSeats() {
  return screen.summary.seats
    .map((spec, seat) => [spec, seat])
    .filter(([spec]) => !spec.taken && !spec.reserved)
    .map(([, seat]) => seat);
}

function renderActions() {
  if (!screen) return;
  if (actions.ended) return patch($("table-actions"), actions.ended);
  const over = Boolean(screen.final);
  const free = freeSeats();
  const parts = [];
  if (held && !over) parts.push(leaveControl(), deviceControl(), free.length ? inviteControl(free[0]) : null, free.length ? botControl(free[0]) : null);
  if (!held && !watching && !over && free.length) parts.push(joinForm(free.includes(actions.joinSeat) ? actions.joinSeat : free[0]));
  if (actions.error) parts.push(h("p", { class: "hint", role: "alert", key: "error" }, actions.error));
  patch($("table-actions"), parts);
  const name = $("join-name");
  if (name && !name.dataset.filled) {
    name.dataset.filled = "1"; // once: later renders keep what the person typed
    name.value = storedName();
  }
}

function leaveControl() {
  const started = !screen.summary.seats.some((spec) => !spec.taken);
  if (!actions.leaving) {
    return h("button", { type: "button", class: "action small", id: "leave", key: "leave", on: { click: () => setLeaving(true) } }, "Leave table");
  }
  return h(
    "div",
    { class: "confirm", key: "leave-confirm", role: "group", "aria-label": "leave the table" },
    started ? "Leave? A bot plays on in your seat. " : "Leave? Your seat becomes free again. ",
    h("button", { type: "button", class: "action small primary", id: "leave-confirm", on: { click: leave } }, "Leave"),
    " ",
    h("button", { type: "button", class: "action small", on: { click: () => setLeaving(false) } }, "Stay"),
  );
}

function setLeaving(leaving) {
  actions.leaving = leaving;
  renderActions();
  (leaving ? $("leave-confirm") : $("leave")).focus();
}

async function leave() {
  closedForGood = true;
  try {
    await leaveTable(tableId, held);
  } catch (error) {
    if (error.reason !== "no_table") {
      closedForGood = false;
      return showActionError(error);
    }
  }
  location.href = "/";
}

/** While the table waits for someone in a free seat (a declined rematch's, say), a seated
 * person may fill it with the game's bot (POST /api/tables/{id}/bot) and play now. */
function botControl(seat) {
  const fill = async () => {
    try {
      await api(`/api/tables/${encodeURIComponent(tableId)}/bot`, { seat, by: held.seat, token: held.token });
    } catch (error) {
      showActionError(error);
    }
  };
  return h(
    "button",
    { type: "button", class: "action small", id: "fill-seat", key: "fill-seat", "data-seat": seat, on: { click: fill } },
    `Fill seat ${seat} with a bot`,
  );
}

/** The table's seats changed: a seat reserved for a player of the last game that is free
 * now was declined, and everyone at the table is told. */
function noteDeclined(before, after) {
  for (const [seat, spec] of after.seats.entries()) {
    const was = before.seats[seat];
    if (was?.reserved && !spec.reserved && !spec.taken) screen.notice(`${was.name || `Seat ${seat}`} declined the rematch: seat ${seat} is free.`);
  }
}

/** "Continue on another device": a one-time link to this seat (and its QR code, for a
 * phone's camera), POST /api/tables/{id}/handoff; the device that opens it holds the seat
 * from then on, and this page is told and watches. */
function deviceControl() {
  const ask = async () => {
    try {
      actions.handoff = await api(`/api/tables/${encodeURIComponent(tableId)}/handoff`, { seat: held.seat, token: held.token });
      actions.error = "";
    } catch (error) {
      actions.error = error.message;
    }
    renderActions();
  };
  const offer = actions.handoff;
  if (!offer) {
    return h("button", { type: "button", class: "action small", id: "other-device", key: "other-device", on: { click: ask } }, "Continue on another device");
  }
  const minutes = Math.round(offer.seconds / 60);
  return h(
    "div",
    { class: "handoff", key: "other-device", role: "group", "aria-label": "continue on another device" },
    h("label", { for: "handoff-link" }, `Open this link on your other device (it works once, for ${minutes} minutes; this page then only watches): `),
    ...linkField("handoff", offer.link),
    " ",
    h("button", { type: "button", class: "action small", on: { click: closeHandoff } }, "Close"),
    h("img", { class: "qr", id: "handoff-qr", src: offer.qr, alt: "QR code of the link: point your phone's camera at it", width: 180, height: 180 }),
  );
}

function closeHandoff() {
  actions.handoff = null;
  renderActions();
}

/** This device takes the seat a link from another device moves here (handoffCode), then
 * opens the table as that seat; the link works once. */
async function continueHere() {
  try {
    await takeSeat(tableId, invitedSeat, null, handoffCode);
    location.replace(tableUrl(tableId, params.get("game")));
  } catch (error) {
    setConnection("closed", "link refused");
    const watch = h("a", { href: tableUrl(tableId, params.get("game"), true) }, "Watch the table");
    endPage(h("div", { class: "error", id: "error", key: "ended" }, error.message, ". ", watch, " · ", h("a", { href: "/" }, "lobby")));
  }
}

/** A link to hand on: the field #<name>-link that shows it, and its Copy button #copy-<name>. */
function linkField(name, link) {
  const copy = async (event) => {
    const button = event.currentTarget;
    button.textContent = (await copyText(link, $(`${name}-link`))) ? "Copied" : "Select and copy";
  };
  return [
    h("input", { id: `${name}-link`, type: "text", readonly: true, value: link, size: 40 }),
    " ",
    h("button", { type: "button", class: "action small", id: `copy-${name}`, on: { click: copy } }, "Copy"),
  ];
}

function inviteControl(seat) {
  const link = inviteUrl(tableId, screen.game, seat);
  return h("div", { class: "invite", key: "invite" }, h("label", { for: "invite-link" }, `Invite a friend to seat ${seat}: `), ...linkField("invite", link));
}

function joinForm(seat) {
  return h(
    "form",
    {
      class: "join",
      id: "join",
      key: "join",
      on: {
        submit: (event) => {
          event.preventDefault();
          join(seat);
        },
      },
    },
    h("label", { for: "join-name" }, `Join this game in seat ${seat}, as `),
    h("input", { id: "join-name", type: "text", maxlength: 40, required: true, placeholder: "your name", autocomplete: "nickname" }),
    " ",
    h("button", { type: "submit", class: "action small primary", id: "join-seat", "data-seat": seat }, "Take the seat"),
  );
}

async function join(seat) {
  const name = $("join-name").value.trim();
  if (!name) return showActionError(new Error("Choose the name others will see first."));
  try {
    await takeSeat(tableId, seat, name);
    location.replace(tableUrl(tableId, screen.game));
  } catch (error) {
    showActionError(error);
  }
}

function rematchControl() {
  const rematch = screen.summary.rematch;
  if (!held) {
    return rematch ? h("p", { key: "rematch" }, h("a", { href: tableUrl(rematch, screen.game, true), id: "watch-rematch" }, "Watch the rematch")) : null;
  }
  if (actions.declined) return h("p", { key: "rematch" }, "You declined the rematch. ", h("a", { href: "/" }, "Back to the lobby"));
  const ask = h("button", { type: "button", class: "action primary", id: "rematch", on: { click: rematchNow } }, rematch ? "Join the rematch" : "Rematch");
  if (!rematch) return h("div", { class: "rematch", key: "rematch" }, ask, " same seats, a new deal: everyone is asked.");
  return h(
    "div",
    { class: "rematch offered", key: "rematch", role: "group", "aria-label": "rematch" },
    h("strong", {}, "A rematch is ready: the same seats, a new deal. "),
    ask,
    " ",
    h("button", { type: "button", class: "action small", id: "decline", on: { click: decline } }, "No thanks"),
  );
}

async function rematchNow() {
  const rematch = screen.summary.rematch;
  if (rematch && storedSeat(rematch)) {
    location.href = tableUrl(rematch, screen.game); // this browser joined it already (another tab)
    return;
  }
  try {
    const answer = await askRematch(tableId, held);
    location.href = tableUrl(answer.table.id, screen.game);
  } catch (error) {
    showActionError(error);
  }
}

async function decline() {
  try {
    await leaveTable(screen.summary.rematch, held);
  } catch (error) {
    if (error.reason !== "no_table") return showActionError(error);
  }
  actions.declined = true;
  screen.rerender();
}

// ---- presence and talk ---------------------------------------------------------------------

/** The server is told when this page is hidden or shown again: the others see the seat away. */
function sendPresence() {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "presence", state: document.hidden ? "away" : "here" }));
}
document.addEventListener("visibilitychange", sendPresence);
// The network is back: reconnect at once, not at the end of a backoff (unless the page ended for good).
window.addEventListener("online", () => {
  if (tableId && !socket && !closedForGood) connect();
});

/** Phrases a tap sends (a phone's keyboard covers the table). */
const PHRASES = ["Hello", "Good luck", "Nice one", "Well played", "Oops", "One moment", "Thanks", "Good game"];
const MUTE_KEY = "diabolo.mute.";
/** The chat of the page's room: its lines, the refusal of the last message, the seats this page mutes. */
const talk = { lines: [], error: "", muted: new Set(mutedSeats()) };
let chatId = 0;

function mutedSeats() {
  try {
    const seats = JSON.parse(localStorage.getItem(MUTE_KEY + tableId) || "[]");
    return Array.isArray(seats) ? seats.filter(Number.isInteger) : [];
  } catch {
    return [];
  }
}

function mute(seat, muted) {
  if (muted) talk.muted.add(seat);
  else talk.muted.delete(seat);
  localStorage.setItem(MUTE_KEY + tableId, JSON.stringify([...talk.muted]));
  renderTalk();
}

function say(text) {
  if (!socket || socket.readyState !== WebSocket.OPEN) {
    talk.error = "Not connected: the message was not sent.";
  } else {
    socket.send(JSON.stringify({ type: "chat", text, id: `c${++chatId}` }));
    talk.error = "";
  }
  renderTalk();
}

function heard(line) {
  talk.lines.push(line);
  if (talk.lines.length > 100) talk.lines.shift();
  renderTalk();
}

function sayForm() {
  const players = screen.seat !== null;
  const submit = (event) => {
    event.preventDefault();
    const input = $("say-text");
    const text = input.value.trim();
    if (!text) return;
    say(text);
    input.value = "";
  };
  return h(
    "form",
    { class: "say", key: "say", on: { submit } },
    h("label", { for: "say-text", class: "sr-only" }, "Message"),
    h("input", {
      id: "say-text",
      type: "text",
      maxlength: 200,
      autocomplete: "off",
      placeholder: players ? "Say something to the table" : "Say something to the other spectators",
    }),
    " ",
    h("button", { type: "submit", class: "action small", id: "say" }, "Send"),
  );
}

/** The chat: the players' room at a seat, the spectators' when watching; a seat's lines
 * hidden on this page once muted; quick phrases; the message field. */
function renderTalk() {
  if (!screen) return;
  const lines = talk.lines
    .map((line, i) => [line, i])
    .filter(([line]) => line.seat === null || !talk.muted.has(line.seat))
    .map(([line, i]) => {
      const other = line.seat !== null && line.seat !== screen.seat;
      const muteButton = h(
        "button",
        { type: "button", class: "plain", "data-mute": line.seat, "aria-label": `Mute ${line.name}`, on: { click: () => mute(line.seat, true) } },
        "mute",
      );
      return h("li", { key: i, "data-seat": line.seat ?? "" }, h("strong", {}, line.name), `: ${line.text}`, other ? [" ", muteButton] : null);
    });
  const unmute = [...talk.muted].map((seat) =>
    h(
      "button",
      { type: "button", class: "plain", key: `u${seat}`, "data-unmute": seat, on: { click: () => mute(seat, false) } },
      `unmute ${screen.name(seat)}`,
    ),
  );
  patch($("talk"), [
    h("h3", { id: "talk-title", key: "title" }, screen.seat !== null ? "Players' chat" : "Spectators' chat"),
    h("ol", { class: "chat", id: "chat", key: "chat", "aria-live": "polite" }, lines),
    unmute.length ? h("p", { class: "hint", key: "muted" }, "Muted: ", unmute) : null,
    h(
      "div",
      { class: "phrases", id: "phrases", key: "phrases", role: "group", "aria-label": "Quick phrases" },
      PHRASES.map((phrase) => h("button", { type: "button", class: "action small", key: phrase, on: { click: () => say(phrase) } }, phrase)),
    ),
    sayForm(),
    talk.error ? h("p", { class: "hint", role: "alert", key: "error" }, talk.error) : null,
  ]);
}

function showActionError(error) {
  actions.error = error.message;
  renderActions();
}

document.addEventListener("keydown", (event) => {
  if (!screen || !screen.board || !screen.board.keydown || $("board").inert) return;
  // keys typed into a field are the field's, unless it is the board's and the board takes them
  if (event.target instanceof HTMLInputElement && !(screen.board.typing && $("board").contains(event.target))) return;
  if (screen.board.keydown(event)) event.preventDefault();
});

setInterval(() => {
  if (screen?.timer) screen.rerender();
}, 1000);

if (!tableId) {
  setConnection("closed", "no table");
  patch(places.banner, h("div", { class: "error" }, "No table given: open a table from the ", h("a", { href: "/" }, "lobby"), "."));
} else if (handoffCode) {
  continueHere();
} else {
  connect();
}
