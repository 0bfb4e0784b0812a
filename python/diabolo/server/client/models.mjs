// The client-side model of a game's view, fed only by events: the base of each game's
// model (games/<game>/model.mjs), a port of tests/client_models.py (docs: Building a
// frontend). The server sends a view once (the seat's observation, or the public one for
// a spectator), then only the events that audience may see; a model applies them to the
// view it holds, with no rules of the game beyond what the events say. The view's `legal`
// and `legal_moves` are not kept here: the server sends a seat's legal moves with every
// update.

export const SIMULTANEOUS = -2;
export const TERMINAL = -4;

/** A deep copy of a JSON value (null and undefined as they are). */
export const clone = (value) => (value === null || value === undefined ? value : structuredClone(value));

/** Each event `e` of type T goes to the model's method on_T(e); an event it has no method for is an error. */
export class ClientModel {
  constructor(view) {
    this.view = clone(view);
    delete this.view.legal;
    delete this.view.legal_moves;
    this.seat = view.player;
  }

  apply(events) {
    for (const event of events) {
      const handler = this[`on_${event.type}`];
      if (typeof handler !== "function") throw new Error(`no model for the event ${event.type}`);
      handler.call(this, event);
    }
  }
}

/** Takes one `item` out of `list`; an error if it is not there (the events and the view disagree). */
export function removeOne(list, item) {
  const index = list.indexOf(item);
  if (index < 0) throw new Error(`${item} is not in ${list}`);
  list.splice(index, 1);
}
