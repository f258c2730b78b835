/* "Waiting for you" on every page of a signed-in player: how many games wait for one of their moves, in the header
   (a link to the game that has waited longest) and at the start of the tab's title. Asked again when the page
   comes back into view, when a notification arrives (notices.js), and every minute. */

import {api} from "./api.js";
import {tn} from "./i18n.js";

const link = document.getElementById("waiting");
const MARK = /^▶\d+ · /;
let count = 0;

function title() {
  const bare = document.title.replace(MARK, "");
  const wanted = count ? `▶${count} · ${bare}` : bare;
  if (document.title !== wanted) document.title = wanted;
}

async function refresh() {
  let answer;
  try {
    answer = await api("/api/me/waiting");
  } catch (err) {
    return;  // signed out meanwhile, or the server away: the count stays as it was
  }
  count = answer.count;
  if (link) {
    link.hidden = count === 0;
    link.textContent = tn("Waiting for you: {n} game", "Waiting for you: {n} games", count, {n: count});
    link.href = answer.games.length ? "/games/" + encodeURIComponent(answer.games[0]) : "/";
  }
  title();
}

if (link) {
  // Other scripts set the title too (a hidden tab's count, "your turn" on a board): the mark is put back after them.
  new MutationObserver(title).observe(document.querySelector("title"), {childList: true});
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden) refresh();
  });
  document.addEventListener("burrow:notice", (event) => {
    if (["your_turn", "game_over", "game_started"].includes(event.detail.type)) refresh();
  });
  setInterval(refresh, 60000);
  refresh();
}
