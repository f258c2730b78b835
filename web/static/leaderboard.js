/* The leaderboard of one game: the settled ratings ranked, then the provisional ones ("?", unranked); each name a
   link to the profile. */

import {api} from "./api.js";
import {html} from "./dom.js";
import {profileUrl} from "./accounts.js";
import {number, t} from "./i18n.js";

const root = document.getElementById("leaderboard");
const status = document.getElementById("board-status");
const table = document.getElementById("board");
const rows = document.getElementById("board-rows");

try {
  const board = await api("/api/leaderboard/" + encodeURIComponent(root.dataset.game));
  status.textContent = board.players.length ? "" : t("No settled rating yet: every player here is still provisional.");
  for (const p of board.players) {
    const row = html("tr", "", null, rows);
    html("td", "", p.rank === null ? "–" : number(p.rank), row);
    const cell = html("td", "", null, row);
    const link = html("a", "player-link", p.username, cell);
    link.href = profileUrl(p.username);
    html("td", p.provisional ? "provisional" : "", number(p.rating) + (p.provisional ? "?" : ""), row).title = t("rating deviation {rd}", {rd: p.rd});
    html("td", "", number(p.games), row);
    html("td", "", number(p.wins), row);
  }
  table.hidden = !board.players.length;
} catch (err) {
  status.textContent = err.message;
}
