/* A tournament's page: its standings with their tie-breaks and every round's tables (links to the games), live
   from GET /api/tournaments/<id>/stream (the document on each change: no polling); join, withdraw and start. */

import {profileUrl} from "./accounts.js";
import {api} from "./api.js";
import {button, html} from "./dom.js";
import {htmlLang, list, number, t} from "./i18n.js";

const root = document.getElementById("tournament");
const id = root.dataset.id;
const me = root.dataset.me;
const titles = JSON.parse(root.dataset.titles || "{}");
const error = document.getElementById("t-error");

function systemWord(system) {
  return {swiss: t("Swiss"), round_robin: t("Round robin"), arena: t("Arena")}[system] || system;
}

function when(iso) {
  return iso ? new Date(iso).toLocaleString(htmlLang, {dateStyle: "medium", timeStyle: "short"}) : "";
}

function statusWord(doc) {
  if (doc.status === "upcoming") {
    return doc.starts_at ? t("Starts {when}", {when: when(doc.starts_at)}) : t("Waiting for its creator to start it");
  }
  if (doc.status === "finished") return t("Finished");
  if (doc.system === "arena") return t("Running until {when}", {when: when(doc.ends_at)});
  return t("Round {n} of {total}", {n: number(doc.round), total: number(doc.rounds)});
}

function clockWords(clock) {
  if (!clock) return "";
  if (clock.per_move) return t("{n} s a move", {n: number(clock.per_move)});
  return t("{minutes} min + {seconds} s", {minutes: number(clock.initial / 60), seconds: number(clock.increment || 0)});
}

async function act(action) {
  error.hidden = true;
  try {
    await api(`/api/tournaments/${encodeURIComponent(id)}/${action}`, {method: "POST"});
  } catch (err) {
    error.textContent = err.message;
    error.hidden = false;
  }
}

function render(doc) {
  document.getElementById("t-name").textContent = doc.title;
  document.title = doc.title + " — Burrow";
  const parts = [titles[doc.game] || doc.game, systemWord(doc.system), clockWords(doc.clock)];
  if (doc.table_size > 2) parts.push(t("tables of {n}", {n: number(doc.table_size)}));
  parts.push(statusWord(doc));
  document.getElementById("t-summary").textContent = parts.filter(Boolean).join(" · ");
  const active = doc.players.filter((p) => !doc.withdrawn.includes(p));
  document.getElementById("t-players").textContent = active.length
    ? t("Players ({n}): {names}", {n: number(active.length), names: list(active)}) : t("Nobody has joined yet.");

  const actions = document.getElementById("t-actions");
  actions.replaceChildren();
  if (me) {
    const joined = doc.players.some((p) => p.toLowerCase() === me.toLowerCase());
    const gone = doc.withdrawn.some((p) => p.toLowerCase() === me.toLowerCase());
    const open = doc.status === "upcoming" || (doc.status === "running" && doc.system === "arena");
    if (!joined && open) button(t("Join"), () => act("join"), "", actions);
    if (joined && !gone && doc.status !== "finished") button(t("Withdraw"), () => act("withdraw"), "", actions);
    if (doc.status === "upcoming" && doc.creator.toLowerCase() === me.toLowerCase()) {
      button(t("Start now"), () => act("start"), "", actions);
    }
  } else if (doc.status !== "finished") {
    const link = html("a", "", t("Sign in to join"), actions);
    link.href = "/signin";
  }

  const rows = document.getElementById("standings-rows");
  rows.replaceChildren();
  for (const s of doc.standings) {
    const row = html("tr", s.withdrawn ? "withdrawn" : "", null, rows);
    html("td", "", number(s.rank), row);
    const name = html("td", "", null, row);
    const link = html("a", "player-link", s.username, name);
    link.href = profileUrl(s.username);
    if (s.withdrawn) html("span", "note", " " + t("(withdrew)"), name);
    html("td", "score", number(s.score), row);
    html("td", "", number(s.tiebreaks.buchholz), row);
    html("td", "", number(s.tiebreaks.sonneborn_berger), row);
    html("td", "", number(s.games), row);
  }

  const pairings = document.getElementById("pairings");
  pairings.replaceChildren();
  if (!doc.pairings.length) html("p", "note", t("No round has been paired yet."), pairings);
  for (const round of [...doc.pairings].reverse()) {
    const block = html("section", "round", null, pairings);
    html("h3", "", t("Round {n}", {n: number(round.round)}), block);
    const tables = html("ol", "tables", null, block);
    for (const table of round.tables) {
      const item = html("li", "", null, tables);
      const names = table.players.join(" – ");
      if (table.game) {
        const link = html("a", "", names, item);
        link.href = "/games/" + encodeURIComponent(table.game);
      } else {
        html("span", "", names, item);
      }
      let result = t("playing");
      if (table.result) {
        const points = table.result.points.map(number).join(" – ");
        result = table.result.by === "bye" ? t("bye: {points}", {points})
          : table.result.by === "forfeit" ? t("not played: {points}", {points}) : points;
      } else if (!table.game) {
        result = t("starting…");
      }
      html("span", "table-result note", " " + result, item);
    }
  }
}

try {
  render(await api("/api/tournaments/" + encodeURIComponent(id)));
} catch (err) {
  error.textContent = err.message;
  error.hidden = false;
}
const stream = new EventSource("/api/tournaments/" + encodeURIComponent(id) + "/stream");
stream.addEventListener("tournament", (event) => render(JSON.parse(event.data)));
