// What makes the boards playable with the keyboard alone and readable by a screen reader.
// A card or a pile that becomes a target keeps its element (and its tag): it gets the
// role, the name, the tab stop and the keys of a button, so that no CSS animation of its
// cards starts again when it does.

/** The props of an element that acts as a button named `label`: Tab reaches it, Enter
 * and Space press it; action(event, byKeyboard). */
export function pressable(label, action) {
  return {
    role: "button",
    tabindex: 0,
    "aria-label": label,
    on: {
      click: (event) => action(event, false),
      keydown: (event) => {
        if (event.key !== "Enter" && event.key !== " ") return;
        event.preventDefault();
        event.stopPropagation(); // the page's own keys (Space turns, reveals) are not this press
        action(event, true);
      },
    },
  };
}

/** Whether the person points with a finger only (a phone or a tablet, no mouse): the
 * page does not offer keys there. */
export const touch = typeof matchMedia === "function" && matchMedia("(pointer: coarse)").matches && !matchMedia("(any-pointer: fine)").matches;

/** " (K)": the key that does it, where a keyboard is at hand; nothing on a touch screen. */
export function keyHint(key) {
  return touch ? "" : ` (${key})`;
}

/** Whether a click came from the keyboard (Enter or Space on a button). */
export function byKeyboard(event) {
  return Boolean(event) && event.detail === 0;
}

/** Whether Enter and Space belong to the element that has the focus (a button, a link,
 * a text box) rather than to the page's keys. */
export function ownsKeys(target) {
  return target instanceof Element && Boolean(target.closest("button, a, input, select, textarea, summary, [role=button]"));
}

/** Focuses the first element that matches one of `selectors` (in that order of
 * preference), without scrolling the page; whether one did. */
export function focusFirst(...selectors) {
  for (const selector of selectors) {
    const element = selector && document.querySelector(selector);
    if (element) {
      if (document.activeElement !== element) element.focus({ preventScroll: true });
      return true;
    }
  }
  return false;
}
