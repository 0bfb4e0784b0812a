// Diabolo (Knizia)'s refusals in plain words, by the engine's error code (screen.mjs
// explainRefusal; the codes every game shares are there).

export const EXPLAIN = {
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
