// Small inline SVG icons, drawn the same on every system: an emoji or a rare glyph is drawn
// by whatever font the system has (an empty box without one). Each is one filled path and
// one stroked path (class "line") on a 16 x 16 grid, in the text's colour; a filled path's
// parts all turn the same way, or their overlaps would be cut out. An icon has a name for
// screen readers, or none (aria-hidden) when the text beside it says the same.

import { h } from "./dom.mjs";

const ICONS = {
  devil: ["M3 10a5 5 0 1 0 10 0 5 5 0 1 0-10 0zM6.8 5.3C4.6 4.4 3 3 2 1c-.2 2.5.6 4.6 2.2 6zm5 1.7C13.4 5.6 14.2 3.5 14 1c-1 2-2.6 3.4-4.8 4.3z"],
  angel: ["M3.5 10.5a4.5 4.5 0 1 0 9 0 4.5 4.5 0 1 0-9 0z", "M3.5 3a4.5 1.6 0 1 0 9 0 4.5 1.6 0 1 0-9 0"],
  lock: ["M3 7h10v8H3z", "M5.5 7V5a2.5 2.5 0 0 1 5 0v2"],
  turn: ["M14 1.5v5H9z", "M13 8a5 5 0 1 1-1.5-3.5"],
  empty: [null, "M3 8a5 5 0 1 0 10 0 5 5 0 1 0-10 0M2.5 13.5l11-11"],
  star: ["M8 1l2.1 4.5 4.9.6-3.6 3.4.9 4.9L8 12l-4.3 2.4.9-4.9L1 6.1l4.9-.6z"],
  check: [null, "M2.5 8.5 6 12l7.5-8"],
  cross: [null, "M3.5 3.5l9 9m0-9-9 9"],
};

// Schacht's colours told apart by shape too, not by colour alone.
const COLOUR_SHAPES = {
  R: "M2 8a6 6 0 1 0 12 0 6 6 0 1 0-12 0z", // circle
  Y: "M8 1.5 15 14H1z", // triangle
  G: "M2.5 2.5h11v11h-11z", // square
  P: "M8 .5 15.5 8 8 15.5.5 8z", // diamond
  B: "M6 1h4v5h5v4h-5v5H6v-5H1V6h5z", // plus
};

function svg(classes, label, paths) {
  const named = label ? { role: "img", "aria-label": label } : { "aria-hidden": "true" };
  return h("svg", { class: classes, viewBox: "0 0 16 16", ...named }, paths);
}

/** An icon of ICONS by name; `label` names it for screen readers (null: hidden from them). */
export function icon(name, label = null) {
  const [fill, stroke] = ICONS[name];
  return svg(`icon icon-${name}`, label, [fill ? h("path", { d: fill }) : null, stroke ? h("path", { class: "line", d: stroke }) : null]);
}

/** The shape of a Schacht colour (R Y G P B); `label` as for icon(). */
export function colourMark(colour, label = null) {
  return svg("icon mark", label, h("path", { d: COLOUR_SHAPES[colour] }));
}
