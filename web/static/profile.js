/* A player's profile (/@/<username>): ratings per game with a graph of each over the rated games, wins, draws and
   losses, and the player's games, a page at a time. */

import {api} from "./api.js";
import {el, html, svg, title} from "./dom.js";
import {playerName, ratingWords, signedIn} from "./accounts.js";
import {challengeButton} from "./challenges.js";
import {htmlLang, number, t, tn} from "./i18n.js";
import {load as loadCatalog} from "./catalog.js";

const root = document.getElementById("profile");
const username = root.dataset.username;
const day = (iso) => new Date(iso).toLocaleDateString(htmlLang, {dateStyle: "medium"});
let titles = {};
let cursor = null;

/** An SVG line of the rating after each rated game, with its lowest and highest values marked. */
function graph(points, parent, label) {
  const width = 320, height = 120, pad = 26;
  const ratings = points.map((p) => p[1]);
  const low = Math.min(...ratings, 1500) - 20, high = Math.max(...ratings, 1500) + 20;
  const x = (i) => pad + (points.length > 1 ? (i * (width - 2 * pad)) / (points.length - 1) : (width - 2 * pad) / 2);
  const y = (r) => height - pad / 2 - ((r - low) * (height - pad)) / (high - low);
  const box = svg(width, height, label, parent);
  box.classList.add("rating-graph");
  el("line", {x1: pad, x2: width - pad, y1: y(1500), y2: y(1500), class: "graph-base"}, box);
  for (const value of [high - 20, low + 20]) {
    const mark = el("text", {x: 2, y: y(value) + 4, class: "graph-label"}, box);
    mark.textContent = number(Math.round(value));
  }
  el("polyline", {points: points.map((p, i) => `${x(i)},${y(p[1])}`).join(" "), class: "graph-line"}, box);
  points.forEach((p, i) => {
    const dot = el("circle", {cx: x(i), cy: y(p[1]), r: 3, class: "graph-dot"}, box);
    title(dot, `${day(p[0])}: ${number(p[1])}`);
  });
  return box;
}

async function loadProfile() {
  const status = document.getElementById("ratings-status");
  titles = Object.fromEntries([...(await loadCatalog()).values()].map((g) => [g.name, g.title]));
  let profile;
  try {
    profile = await api("/api/players/" + encodeURIComponent(username));
  } catch (err) {
    status.textContent = err.message;
    return;
  }
  document.getElementById("profile-since").textContent = t("Member since {date}", {date: day(profile.created)});
  const cards = document.getElementById("ratings");
  const games = Object.keys(profile.ratings);
  status.textContent = games.length ? "" : t("No rated game yet.");
  for (const game of games) {
    const r = profile.ratings[game];
    const card = html("article", "rating-card", null, cards);
    const head = html("h3", "", null, card);
    const link = html("a", "", titles[game] || game, head);
    link.href = "/leaderboard/" + encodeURIComponent(game);
    html("p", "rating-value", ratingWords(r), card).title = t("rating deviation {rd}", {rd: r.rd});
    html("p", "note", tn("{games} rated game: {wins} won, {draws} drawn, {losses} lost",
                         "{games} rated games: {wins} won, {draws} drawn, {losses} lost", r.games,
                         {games: r.games, wins: r.wins, draws: r.draws, losses: r.losses}), card);
    graph(profile.history[game] || [], card, t("{name}'s rating at {game}, game after game",
                                               {name: profile.username, game: titles[game] || game}));
  }
}

const OUTCOMES = {win: () => t("Won"), loss: () => t("Lost"), draw: () => t("Draw"), aborted: () => t("Aborted")};

async function loadGames() {
  const list = document.getElementById("recent");
  const status = document.getElementById("recent-status");
  const more = document.getElementById("more-games");
  const query = new URLSearchParams({limit: "20"});
  if (cursor) query.set("cursor", cursor);
  let page;
  try {
    page = await api(`/api/players/${encodeURIComponent(username)}/games?${query}`);
  } catch (err) {
    status.textContent = err.message;
    return;
  }
  for (const g of page.games) {
    const item = html("li", "game-row", null, list);
    const link = html("a", "game-link", `${titles[g.game] || g.game} #${g.id}`, item);
    link.href = "/games/" + encodeURIComponent(g.id);
    const who = html("span", "game-players", null, item);
    g.players.forEach((p, i) => {
      if (i) html("span", "", " vs ", who);
      playerName(p, who);
    });
    const outcome = g.outcome ? OUTCOMES[g.outcome]() : g.status === "playing" ? t("In progress") : t("Waiting");
    html("span", "outcome outcome-" + (g.outcome || g.status), outcome, item);
    html("span", "note", day(g.updated), item);
  }
  if (!list.children.length) status.textContent = t("No game yet.");
  cursor = page.next;
  more.hidden = !cursor;
}

document.getElementById("more-games").addEventListener("click", loadGames);
const me = signedIn();
if (me && me.toLowerCase() !== username.toLowerCase()) {  // anyone else's profile: challenge them from here
  challengeButton(username, document.getElementById("profile-actions")).classList.add("primary");
}
await loadProfile();
await loadGames();
