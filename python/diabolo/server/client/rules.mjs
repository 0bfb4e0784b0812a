// The rules page: rules.html?game=schacht|knizia|duvelen shows that game's rules, written
// in the page itself; any other address lists the games. This only picks the article to
// show and names it in the page's heading and title.

const game = new URLSearchParams(location.search).get("game");
/** @type {HTMLElement | null} */
const article = game ? document.querySelector(`article.game-rules[id="${CSS.escape(game)}"]`) : null;

if (article) {
  const title = article.dataset.title;
  article.hidden = false;
  document.getElementById("games").hidden = true;
  document.getElementById("other-games").hidden = false;
  document.getElementById("title").textContent = `How to play ${title}`;
  document.title = `${title} · rules`;
}
