// The lobby: the server's tables (refreshed every 2 s) with who sits where, a seat to
// take, an invitation to copy, a table to watch or a replay to open, and a form for a new
// table (the game, its players, each seat a person or a bot of the game's kinds and
// levels from /api/games, the turn timer and the bots' pace; Knizia's late calls and
// practice). People choose the name others see before they sit. A seat's token is kept in
// localStorage; the table page finds it there.

import { api, copyText, inviteUrl, replayUrl, rulesUrl, seatLabel, serverGames, storedName, storedSeat, storeName, tableUrl, takeSeat } from "./common.mjs";
import { h, patch } from "./dom.mjs";

/** The element of the page with this id (a form field where one is read). @type {(id: string) => HTMLInputElement} */
const $ = (id) => /** @type {HTMLInputElement} */ (document.getElementById(id));
/** The seats' person-or-bot choices of the new-table form, in seat order. @returns {HTMLSelectElement[]} */
const seatKinds = () => [...document.querySelectorAll("select[data-seat-kind]")].map((select) => /** @type {HTMLSelectElement} */ (select));

let games = [];

function status(state, text) {
  $("status").dataset.state = state;
  $("status").textContent = text;
}

/** The name typed in the lobby; null (and the field asks for one) when there is none. */
function myName() {
  const name = $("name").value.trim();
  $("name-error").textContent = name ? "" : "Choose the name others will see first.";
  if (!name) {
    $("name").focus();
    return null;
  }
  storeName(name);
  return name;
}

// ---- the tables ----

async function refresh() {
  try {
    const { tables } = await api("/api/tables");
    status("live", `${tables.length} table${tables.length === 1 ? "" : "s"}`);
    tables.sort((a, b) => a.finished - b.finished || (b.created > a.created ? 1 : b.created < a.created ? -1 : 0));
    patch($("tables"), tables.length ? tables.map(tableCard) : h("p", { key: "none" }, "No tables yet: create one."));
  } catch {
    status("offline", "server unreachable");
  }
}

function tableCard(table) {
  const held = storedSeat(table.id);
  const free = table.seats.map((seat, i) => [seat, i]).filter(([seat]) => seat.bot === null && !seat.taken && !seat.reserved);
  const open = table.seats.filter((seat) => !seat.taken).length;
  const waiting = open > 0;
  const state = table.finished ? "finished" : waiting ? `waiting for ${open} ${open === 1 ? "player" : "players"}` : "playing";
  const seats = table.seats.map(seatLabel).join(", ");
  const actions = [];
  if (held && !table.finished) {
    actions.push(h("a", { class: "action small", href: tableUrl(table.id, table.game), "data-action": "open" }, `Back to seat ${held.seat}`));
  } else if (free.length && !table.finished) {
    actions.push(
      h(
        "button",
        { type: "button", class: "action small primary", "data-action": "sit", on: { click: () => sit(table.id, table.game, free[0][1]) } },
        "Take a seat",
      ),
    );
  }
  if (free.length && !table.finished) {
    const link = inviteUrl(table.id, table.game, free[0][1]);
    actions.push(
      h(
        "button",
        { type: "button", class: "action small", "data-action": "invite", title: link, on: { click: (event) => invite(event, link) } },
        "Copy invite",
      ),
    );
  }
  if (!table.finished) actions.push(h("a", { class: "action small", href: tableUrl(table.id, table.game, true), "data-action": "watch" }, "Watch"));
  actions.push(h("a", { class: "action small", href: replayUrl(table.id), "data-action": "replay" }, table.finished ? "Replay" : "Record"));
  return h(
    "div",
    { class: "table-card", key: table.id, "data-table": table.id, "data-game": table.game },
    h(
      "div",
      { class: "what" },
      h("strong", {}, table.title || table.game),
      " ",
      h("span", { class: `state ${table.finished ? "finished" : waiting ? "waiting" : "playing"}` }, state),
      h("div", { class: "seats-line" }, seats),
      h("div", { class: "seats-line" }, `${table.version} moves · ${table.spectators} watching · `, h("code", {}, table.id)),
    ),
    h("div", { class: "buttons" }, actions),
  );
}

async function invite(event, link) {
  const button = event.currentTarget;
  button.textContent = (await copyText(link)) ? "Copied" : link;
  setTimeout(() => {
    button.textContent = "Copy invite";
  }, 2500);
}

async function sit(tableId, game, seat) {
  const name = myName();
  if (!name) return;
  try {
    await takeSeat(tableId, seat, name);
    location.href = tableUrl(tableId, game);
  } catch (error) {
    alert(error.message);
    refresh();
  }
}

// ---- a new table ----

function currentGame() {
  return games.find((game) => game.name === $("game").value) || games[0];
}

function seatSpecs() {
  const game = currentGame();
  const [low, high] = [game.min_players, game.max_players];
  const players = $("players");
  players.min = low;
  players.max = high;
  let count = Number(players.value) || game.options.players;
  count = Math.max(low, Math.min(high, count));
  const old = seatKinds().map((select) => select.value);
  const kinds = ["person", ...game.bots.map((bot) => `bot:${bot}`)];
  const levels = game.bot_levels || {};
  const label = (kind) => (kind === "person" ? "person" : `bot: ${kind.slice(4)}${levels[kind.slice(4)] ? `, ${levels[kind.slice(4)]}` : ""}`);
  const preferred = game.bots.includes("heuristic")
    ? "bot:heuristic"
    : game.bots.includes("word")
      ? "bot:word"
      : game.bots.includes("greedy")
        ? "bot:greedy"
        : `bot:${game.bots[0]}`;
  patch(
    $("seat-specs"),
    Array.from({ length: count }, (_, seat) => {
      return h(
        "label",
        { key: `${game.name}${seat}` },
        `Seat ${seat}`,
        h(
          "select",
          { "data-seat-kind": seat },
          kinds.map((kind) => h("option", { value: kind }, label(kind))),
        ),
      );
    }),
  );
  // a select's value is set once its options exist
  for (const [seat, select] of seatKinds().entries()) {
    select.value = old[seat] && kinds.includes(old[seat]) ? old[seat] : seat === 0 ? "person" : preferred;
  }
}

/** The fields of the form that apply to the chosen game (/api/games): its own options
 * (Knizia's stale_calls, K10.3) and the table settings its tables take. */
function showFields() {
  const game = currentGame();
  $("stale-calls-field").hidden = !("stale_calls" in game.options);
  for (const setting of ["practice", "turn_seconds", "bot_pace"]) $(`${setting.replace("_", "-")}-field`).hidden = !game.settings.includes(setting);
}

function tableRequest() {
  const game = currentGame();
  const players = Number($("players").value);
  const options = { players };
  if (game.options.lexicon) options.lexicon = game.options.lexicon;
  const rounds = $("rounds").value.trim();
  if (rounds) options.rounds = Number(rounds);
  if ("stale_calls" in game.options) options.stale_calls = $("stale-calls").value;
  // people's seats are named when someone sits; bots get their names from the server
  const seats = seatKinds().map((select) => (select.value === "person" ? {} : { bot: select.value.slice(4) }));
  const settings = {};
  if (game.settings.includes("practice") && $("practice").checked) settings.practice = true;
  const turn = $("turn-seconds").value.trim();
  if (game.settings.includes("turn_seconds")) settings.turn_seconds = turn ? Number(turn) : null;
  const pace = $("bot-pace").value.trim();
  if (game.settings.includes("bot_pace") && pace) settings.bot_pace = Number(pace);
  return { game: game.name, options, seats, settings };
}

async function create(event) {
  event.preventDefault();
  $("create-error").textContent = "";
  const request = tableRequest();
  const person = request.seats.findIndex((seat) => !seat.bot);
  const name = $("sit").checked && person >= 0 ? myName() : "";
  if (name === null) return;
  $("create").disabled = true;
  try {
    const { table } = await api("/api/tables", request);
    if (name) {
      await takeSeat(table.id, person, name);
      location.href = tableUrl(table.id, table.game);
      return;
    }
    await refresh();
  } catch (error) {
    $("create-error").textContent = error.message;
  } finally {
    $("create").disabled = false;
  }
}

async function start() {
  $("name").value = storedName();
  $("name").addEventListener("change", () => storeName($("name").value.trim()));
  try {
    games = await serverGames();
  } catch {
    status("offline", "server unreachable");
    return;
  }
  patch(
    $("game"),
    games.map((game) => h("option", { value: game.name }, game.title)),
  );
  $("game").addEventListener("change", () => {
    $("players").value = currentGame().options.players;
    showFields();
    seatSpecs();
  });
  showFields();
  patch($("rules-links"), [
    "How to play: ",
    games.map((game, i) => [i ? " · " : "", h("a", { href: rulesUrl(game.name), "data-rules": game.name }, game.title)]),
  ]);
  $("players").addEventListener("input", seatSpecs);
  $("players").value = currentGame().options.players;
  seatSpecs();
  $("new-table").addEventListener("submit", create);
  document.body.dataset.ready = "1";
  await refresh();
  setInterval(refresh, 2000);
}

start();
