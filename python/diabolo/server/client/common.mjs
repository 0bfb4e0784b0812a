// What the lobby, the table and the replay pages share: the server's HTTP API, the seats'
// tokens in localStorage, names of games and seats, and page helpers.

let catalogue = null;

/** The games the server offers (/api/games, asked once a page): each game's name, title,
 * seats, bots and default options, as the engine's catalogue declares them. */
export function serverGames() {
  catalogue ||= api("/api/games").then((answer) => answer.games);
  return catalogue;
}

/** A game's title for people (its id if the server does not list it). */
export async function gameTitle(name) {
  const game = (await serverGames()).find((entry) => entry.name === name);
  return game ? game.title : name;
}

/** The JSON answer of the server's API; an Error with the server's message otherwise. */
export async function api(path, body) {
  const init = body === undefined ? {} : { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) };
  const response = await fetch(path, init);
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!response.ok) {
    const message = data?.error ? data.error.message : `${response.status} ${response.statusText}`;
    throw Object.assign(new Error(message), { status: response.status, reason: data?.error ? data.error.reason : "http" });
  }
  return data === null ? text : data;
}

const SEAT_KEY = "diabolo.seat.";

/** The seat this browser holds at a table: {seat, token, name}, or null. */
export function storedSeat(tableId) {
  try {
    const data = JSON.parse(localStorage.getItem(SEAT_KEY + tableId) || "null");
    return data && Number.isInteger(data.seat) && typeof data.token === "string" ? data : null;
  } catch {
    return null;
  }
}

export function storeSeat(tableId, seat, token, name) {
  localStorage.setItem(SEAT_KEY + tableId, JSON.stringify({ seat, token, name }));
}

export function forgetSeat(tableId) {
  localStorage.removeItem(SEAT_KEY + tableId);
}

/** The player's name as last typed. */
export function storedName() {
  return localStorage.getItem("diabolo.name") || "";
}

export function storeName(name) {
  localStorage.setItem("diabolo.name", name);
}

/** Takes a person's seat (null: the first free one) and keeps its token; with `handoff`,
 * the code of a link from another device, the seat that link moves here, with its name. */
export async function takeSeat(tableId, seat, name, handoff = null) {
  const answer = await api(`/api/tables/${encodeURIComponent(tableId)}/seats`, handoff ? { seat, handoff } : { name, seat });
  const kept = handoff ? answer.table.seats[answer.seat].name : name;
  storeSeat(tableId, answer.seat, answer.token, kept);
  storeName(kept);
  return answer;
}

/** Asks for the rematch of a finished game (made by the first player who asks) and
 * keeps the token of our seat in it: {seat, token, table}. */
export async function askRematch(tableId, held) {
  const answer = await api(`/api/tables/${encodeURIComponent(tableId)}/rematch`, { seat: held.seat, token: held.token });
  storeSeat(answer.table.id, answer.seat, answer.token, held.name);
  return answer;
}

/** Leaves a table (or declines a rematch's seat reserved for us: `held` is then our seat
 * of the game before) and forgets the seat: the table's summary, or null when it closed. */
export async function leaveTable(tableId, held) {
  const answer = await api(`/api/tables/${encodeURIComponent(tableId)}/leave`, { seat: held.seat, token: held.token });
  forgetSeat(tableId);
  return answer.table;
}

/** A table page's address; naming the table's `game` lets the page fetch the game's code
 * with its own (table.html), one round trip instead of three on a slow network. */
export function tableUrl(tableId, game = null, watch = false) {
  return `/client/table.html?table=${encodeURIComponent(tableId)}${game ? `&game=${encodeURIComponent(game)}` : ""}${watch ? "&watch=1" : ""}`;
}

/** The address that opens a table's free seat for a friend (any free seat when `seat` is null). */
export function inviteUrl(tableId, game = null, seat = null) {
  return new URL(`${tableUrl(tableId, game)}&invite=1${seat === null ? "" : `&seat=${seat}`}`, location.href).href;
}

/** How a seat is listed: "Ann", "Bram (bot, easy)", "free", "kept for Bo". */
export function seatLabel(seat) {
  if (seat.bot) return seat.level ? `${seat.name} (bot, ${seat.level})` : `${seat.name} (bot)`;
  if (seat.taken) return seat.name;
  return seat.reserved ? `kept for ${seat.name}` : "free";
}

/** Copies text to the clipboard, or selects it in `input` where the page may not write the clipboard. */
export async function copyText(text, input = null) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    if (input) input.select();
    return false;
  }
}

/** A game's rules page. */
export function rulesUrl(game) {
  return `/client/rules.html?game=${encodeURIComponent(game)}`;
}

export function replayUrl(tableId) {
  return `/client/replay.html?table=${encodeURIComponent(tableId)}`;
}

export function seatName(summary, seat) {
  if (seat === null || seat === undefined) return "—";
  const spec = summary?.seats[seat];
  return spec ? spec.name : `seat ${seat}`;
}

/** The seats with the highest score. */
export function winnersOf(scores) {
  const best = Math.max(...scores);
  return scores
    .map((score, seat) => [score, seat])
    .filter(([score]) => score === best)
    .map(([, seat]) => seat);
}

export function signed(points) {
  return points > 0 ? `+${points}` : String(points);
}
