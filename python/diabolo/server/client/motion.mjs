// Cards that move from where they were to where they go. Before a move's events change the
// page, a board notes the rectangle of the card that leaves (a hand's card, a Duvelen
// seat's card, the letters a word takes); after the render, the card that arrived is
// drawn from there to its place (FLIP: first, last, invert, play) with the Web Animations
// API. Nothing flies on a page in the background, for people who ask their system for
// less motion, or when one render brings many cards at once (a replay's jump, a page
// catching up after a reconnection).

const reduced = matchMedia("(prefers-reduced-motion: reduce)");
const MOST_AT_ONCE = 12; // a long word's letters, but not a replay's jump
const DURATION = 240; // milliseconds

function still() {
  return document.hidden || reduced.matches;
}

export class Flights {
  constructor() {
    this.waiting = []; // {first: the rectangle left, landing: () => the element arrived, or null, resize}
  }

  /** Notes where `element` is now; after the render, the element `landing()` finds flies
   * from there (`resize`: from the size it had, else at its own size). */
  from(element, landing, resize = true) {
    if (!element || still()) return;
    this.waiting.push({ first: element.getBoundingClientRect(), landing, resize });
  }

  /** After a render: every card noted flies to where it landed. */
  land() {
    const flights = this.waiting;
    this.waiting = [];
    if (flights.length > MOST_AT_ONCE || still()) return;
    for (const { first, landing, resize } of flights) {
      const element = landing();
      if (element) fly(element, first, resize);
    }
  }
}

function fly(element, first, resize) {
  // The flight is the card's entry: a CSS entry animation would fight it for the transform.
  for (const animation of element.getAnimations()) if (animation instanceof CSSAnimation) animation.finish();
  const last = element.getBoundingClientRect();
  if (!last.width || !first.width) return;
  const dx = first.left + first.width / 2 - (last.left + last.width / 2);
  const dy = first.top + first.height / 2 - (last.top + last.height / 2);
  const scale = resize ? first.width / last.width : 1;
  element.animate([{ transform: `translate(${dx}px, ${dy}px) scale(${scale})` }, { transform: "none" }], {
    duration: DURATION,
    easing: "ease-out",
    id: "flight",
  });
}
