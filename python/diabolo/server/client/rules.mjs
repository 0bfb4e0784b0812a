// The rules page: rules.html?game=<name> shows that game's rules, which live in its own
// folder (games/<name>/rules.html: one <article>, its one-line summary in data-summary);
// any other address lists the games the server offers (/api/games, the catalogue) that
// have rules, with their seats. A new game's rules need no edit here.

import { serverGames } from "./common.mjs";
import { h, patch } from "./dom.mjs";

/** The article of a game's rules, or null if its folder has none. */
async function rulesOf(name) {
  const response = await fetch(`games/${encodeURIComponent(name)}/rules.html`);
  if (!response.ok) return null;
  const html = new DOMParser().parseFromString(await response.text(), "text/html");
  return html.querySelector("article.game-rules");
}

function link(game) {
  return h("a", { href: `rules.html?game=${encodeURIComponent(game.name)}` }, game.title);
}

async function show() {
  const games = await serverGames();
  const articles = await Promise.all(games.map((game) => rulesOf(game.name)));
  const withRules = games.filter((_, i) => articles[i] !== null);
  const asked = new URLSearchParams(location.search).get("game");
  const index = games.findIndex((game, i) => game.name === asked && articles[i] !== null);
  if (index < 0) {
    patch(
      document.getElementById("game-list"),
      withRules.map((game) => {
        const summary = articles[games.indexOf(game)].dataset.summary;
        return h("li", {}, link(game), `: ${summary} ${game.min_players} to ${game.max_players} players.`);
      }),
    );
    document.getElementById("games").hidden = false;
    return;
  }
  const game = games[index];
  document.getElementById("rules").replaceChildren(document.adoptNode(articles[index]));
  const others = withRules.filter((other) => other !== game);
  patch(
    document.getElementById("other-links"),
    others.flatMap((other, i) => (i ? [" · ", link(other)] : [link(other)])),
  );
  document.getElementById("other-games").hidden = others.length === 0;
  document.getElementById("title").textContent = `How to play ${game.title}`;
  document.title = `${game.title} · rules`;
}

show();
