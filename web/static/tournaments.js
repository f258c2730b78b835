/* The tournaments page: the running, upcoming and finished tournaments (GET /api/tournaments?status=), and the
   form that makes one (POST /api/tournaments, then its page). */

import {api} from "./api.js";
import {html} from "./dom.js";
import {htmlLang, number, t} from "./i18n.js";

const root = document.getElementById("tournaments");
const titles = JSON.parse(root.dataset.titles || "{}");

function systemWord(system) {
  return {swiss: t("Swiss"), round_robin: t("Round robin"), arena: t("Arena")}[system] || system;
}

function when(iso) {
  return iso ? new Date(iso).toLocaleString(htmlLang, {dateStyle: "medium", timeStyle: "short"}) : "";
}

async function showList(list) {
  try {
    const found = (await api("/api/tournaments?status=" + list.dataset.status)).tournaments;
    list.replaceChildren();
    if (!found.length) html("li", "note", t("None."), list);
    for (const item of found) {
      const li = html("li", "", null, list);
      const link = html("a", "", item.title, li);
      link.href = "/tournaments/" + encodeURIComponent(item.id);
      const parts = [titles[item.game] || item.game, systemWord(item.system),
                     t("{n} players", {n: number(item.players)})];
      if (item.status === "upcoming" && item.starts_at) parts.push(t("starts {when}", {when: when(item.starts_at)}));
      html("span", "note", " · " + parts.join(" · "), li);
    }
  } catch (err) {
    list.replaceChildren(html("li", "error", err.message));
  }
}

for (const list of document.querySelectorAll(".tournament-list")) showList(list);

const form = document.getElementById("new-tournament");
if (form) {
  const error = document.getElementById("new-error");
  const field = (name) => form.elements.namedItem(name);
  const shown = () => {
    const system = field("system").value;
    const option = field("game").selectedOptions[0];
    const many = Number(option.dataset.max) > 2;
    const show = {swiss: system === "swiss", arena: system === "arena", tables: many && system === "swiss"};
    for (const label of form.querySelectorAll("[data-for]")) {
      label.hidden = !show[label.dataset.for];
      label.querySelector("input").disabled = label.hidden;  // a hidden field is neither checked nor sent
    }
    const size = field("table_size");
    size.min = Math.max(2, Number(option.dataset.min));
    size.max = Number(option.dataset.max);
    size.value = Math.min(Math.max(Number(size.value), size.min), size.max);
  };
  field("system").addEventListener("change", shown);
  field("game").addEventListener("change", shown);
  shown();
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.hidden = true;
    const system = field("system").value;
    const body = {game: field("game").value, system,
                  clock: {initial: Number(field("clock_minutes").value) * 60,
                          increment: Number(field("clock_increment").value)},
                  max_players: Number(field("max_players").value)};
    if (field("title").value.trim()) body.title = field("title").value.trim();
    if (system === "swiss") body.rounds = Number(field("rounds").value);
    if (system === "arena") body.minutes = Number(field("minutes").value);
    if (!field("table_size").disabled) body.table_size = Number(field("table_size").value);
    if (field("starts_at").value) body.starts_at = new Date(field("starts_at").value).toISOString();
    try {
      const made = await api("/api/tournaments", {method: "POST", body});
      window.location.href = "/tournaments/" + encodeURIComponent(made.id);
    } catch (err) {
      error.textContent = err.message;
      error.hidden = false;
    }
  });
}
