/* The leaderboard of one game: the settled ratings first, then the provisional ones ("?", under a heading of their
   own: CONTRACT "The first ten minutes"), at most 100 in all, each name a link to the profile. */

import {api} from "./api.js";
import {html} from "./dom.js";
import {profileUrl, ratingWords} from "./accounts.js";
import {number, t} from "./i18n.js";

const root = document.getElementById("leaderboard");
const status = document.getElementById("board-status");
const table = document.getElementById("board");
const rows = document.getElementById("board-rows");

try {
  const board = await api("/api/leaderboard/" + encodeURIComponent(root.dataset.game));
  status.textContent = board.players.length ? "" : t("No rated game of this game yet.");
  let provisional = false;
  for (const p of board.players) {
    if (p.provisional && !provisional) {  // the first provisional rating: a heading row before it
      provisional = true;
      const head = html("tr", "provisional-head", null, rows);
      const cell = html("th", "", t("Provisional ratings (too few rated games yet to be sure of them)"), head);
      cell.colSpan = 5;
      cell.scope = "colgroup";
    }
    const row = html("tr", p.provisional ? "provisional" : "settled", null, rows);
    html("td", "", p.rank === null || p.rank === undefined ? "–" : number(p.rank), row);
    const cell = html("td", "", null, row);
    const link = html("a", "player-link", p.username, cell);
    link.href = profileUrl(p.username);
    const rating = html("td", "", ratingWords(p), row);
    rating.title = p.provisional ? t("provisional rating (deviation {rd})", {rd: number(Math.round(p.rd))})
      : t("rating deviation {rd}", {rd: p.rd});
    html("td", "", number(p.games), row);
    html("td", "", number(p.wins), row);
  }
  table.hidden = !board.players.length;
} catch (err) {
  status.textContent = err.message;
}
