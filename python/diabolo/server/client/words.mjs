// Plain words that the game screen and the boards share.

/** "Ann", "Ann and Bo", "Ann, Bo and Cy" (or "... or Cy"). */
export function listText(items, last = "and") {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} ${last} ${items[items.length - 1]}`;
}

/** The text with its first letter a capital. */
export function capital(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}
