/* The lobby's entry module: create a game (game, options, seats human or AI), then play it here (one seat or all of them at one
   screen), or hand out a seat's link; and the list of games, refreshed every few seconds.

   The seat tokens of a new game stay in this page's memory, then go to the browser's storage (playing here,
   tokens in api.js) or to the clipboard (a link): never into the DOM, a query string or the console. */
import {html, button, refocus} from "./dom.js";
import {api, tokens} from "./api.js";
import {extraBody, joinButtons, seatKind, typing} from "./seats.js";
import {load as loadCatalog} from "./catalog.js";
import "./rules.js";  // the rules' summaries and the links that open them
import "./play.js";  // the play menu: the computer, a friend (challenge, invite link)
import "./pairing.js";  // quick pairing's tiles and the players waiting
import {playerName, ratingWords, signedIn} from "./accounts.js";
import {t, tn, list, levelName, player, versus} from "./i18n.js";

const $ = (id) => document.getElementById(id);
const POLL_MS = 4000;
const TITLES = {};
for (const option of $("game-choice").options) TITLES[option.value] = option.textContent.trim();

/* Each game's options and AI levels come from GET /api/catalog (domain/<game>/catalog.py), loaded at start. The
   form shows the options of the types a form can set: "bool" (a checkbox), "choice" (a select), "count" (a
   positive integer; empty: none) and "int" (0 or more; empty: the default); "text" and "object" options are
   the API's. Only values differing from the default are sent. */
const FORM_TYPES = ["bool", "choice", "count", "int"];
const CATALOG = {};  // game name → its catalog entry

function specsOf(game) {
  const info = CATALOG[game];
  return info ? info.options.filter((o) => FORM_TYPES.includes(o.type)) : [];
}

function levelsOf(game) {
  const info = CATALOG[game];
  return [["", t("A person")], ...(info ? info.levels : []).map((level) => [level,
    t("Computer — {level}", {level: levelName(level)})])];
}

// ---------------------------------------------------------------- the form

function chosenGame() {
  const select = $("game-choice");
  return select.options[select.selectedIndex];
}

function renderOptions() {
  const box = $("options");
  for (const node of [...box.children]) if (node.tagName !== "LEGEND") node.remove();
  const specs = specsOf(chosenGame().value);
  if (!specs.length) html("p", "note", t("This game has no options."), box);
  for (const spec of specs) {
    const label = html("label", spec.type === "bool" ? "field check" : "field", null, box);
    let input;
    if (spec.choices) {
      input = document.createElement("select");
      for (const choice of spec.choices) {
        const option = html("option", "", choice.label, input);
        option.value = choice.value;
      }
      input.value = spec.default;
    } else {
      input = document.createElement("input");
      input.type = spec.type === "bool" ? "checkbox" : "number";
      if (spec.type === "count" || spec.type === "int") {
        input.min = spec.type === "count" ? "1" : "0";
        input.inputMode = "numeric";
        if (spec.default !== null) input.placeholder = String(spec.default);
      } else {
        input.checked = spec.default === true;
      }
    }
    input.name = spec.name;
    input.dataset.option = spec.name;
    if (spec.help) label.title = spec.help;
    if (spec.type === "bool") {
      label.appendChild(input);
      label.appendChild(document.createTextNode(" " + spec.label));
    } else {
      label.appendChild(document.createTextNode(spec.label + " "));
      label.appendChild(input);
    }
  }
}

function options() {
  const specs = specsOf(chosenGame().value);
  const out = {};
  for (const spec of specs) {
    const input = $("options").querySelector(`[data-option="${spec.name}"]`);
    if (spec.type === "bool") {
      if (input.checked !== spec.default) out[spec.name] = input.checked;
    } else if (spec.type === "count" || spec.type === "int") {
      if (input.value.trim()) out[spec.name] = Number(input.value);
    } else if (input.value !== spec.default) {
      out[spec.name] = input.value;
    }
  }
  return out;
}

/* Add the game's seat kinds (a person, an AI of each level) missing from the select ``kind``. */
function fillKinds(kind) {
  const hasAi = chosenGame().dataset.ai === "yes";
  const present = new Set([...kind.options].map((option) => option.value));
  for (const [value, text] of levelsOf(chosenGame().value)) {
    if (present.has(value)) continue;
    const option = html("option", "", text, kind);
    option.value = value;
    option.disabled = Boolean(value) && !hasAi;
  }
}

function seatRow(index) {
  const item = html("li", "seat-row", null);
  const nameLabel = html("label", "field", t("Player {number}'s name", {number: index + 1}) + " ", item);
  const name = document.createElement("input");
  name.className = "seat-name";
  name.maxLength = 40;
  name.autocomplete = "off";
  name.value = index === 0 && signedIn() ? signedIn() : player(index);  // signed in: you, the first player
  nameLabel.appendChild(name);
  const kindLabel = html("label", "field", t("played by") + " ", item);
  const kind = document.createElement("select");
  kind.className = "seat-kind";
  fillKinds(kind);
  kind.addEventListener("change", () => {  // a name the form gave follows the choice: "Player 2" / "Bot 2"
    const bot = t("Bot {number}", {number: index + 1});
    if (kind.value && kind.value !== "open" && name.value === player(index)) name.value = bot;
    if (!kind.value && name.value === bot) name.value = player(index);
  });
  kindLabel.appendChild(kind);
  seatKind(kind, name);  // "Anyone": an open seat (seats.js)
  return item;
}

function renderSeats(count) {
  const list = $("seats");
  const game = chosenGame();
  const min = Number(game.dataset.minSeats);
  const max = Number(game.dataset.maxSeats);
  const wanted = Math.max(min, Math.min(max, count));
  while (list.children.length > wanted) list.lastElementChild.remove();
  while (list.children.length < wanted) list.appendChild(seatRow(list.children.length));
  $("add-seat").disabled = wanted >= max;
  $("remove-seat").disabled = wanted <= min;
  $("add-seat").hidden = $("remove-seat").hidden = min === max;
  $("ai-note").hidden = game.dataset.ai === "yes";
}

function onGameChange() {
  for (const help of document.querySelectorAll(".help-game")) help.hidden = help.dataset.game !== chosenGame().value;
  const title = $("help-title");
  if (title) title.textContent = t("How to play {game}", {game: TITLES[chosenGame().value] || chosenGame().value});
  renderOptions();
  $("seats").replaceChildren();
  renderSeats(Number(chosenGame().dataset.minSeats));
}

function players() {
  const me = (signedIn() || "").toLowerCase();
  let seated = false;
  return [...$("seats").children].map((row) => {
    const player = {name: row.querySelector(".seat-name").value.trim()};
    const level = row.querySelector(".seat-kind").value;
    if (level === "open") return {open: true};
    if (level) player.ai = level;
    else if (me && !seated && player.name.toLowerCase() === me) {
      seated = true;
      return {me: true};  // the signed-in account's seat: its rating, its games on every device
    }
    return player;
  });
}

function showError(text, field) {
  $("create-error").textContent = text;
  for (const node of document.querySelectorAll("#create [aria-invalid]")) node.removeAttribute("aria-invalid");
  if (field) {
    const fold = field.closest("details");
    if (fold) fold.open = true;  // a folded field (an option, the seed) is shown to be corrected
    field.setAttribute("aria-invalid", "true");
    field.focus();
  }
}

/** The words a person reads for a request field: an option's label, "Seat 1's name", "The starting position". */
function fieldName(path) {
  let m;
  if ((m = /^options\.(\w+)/.exec(path))) {
    const input = $("options").querySelector(`[data-option="${m[1]}"]`);
    const label = input && input.closest("label");
    const words = label ? label.textContent.replace(/\s+/g, " ").trim() : m[1].replace(/_/g, " ");
    return {text: t("“{field}”", {field: words}), input};
  }
  if ((m = /^players\[(\d+)\]\.?(\w*)/.exec(path))) {
    const row = $("seats").children[Number(m[1])];
    const number = Number(m[1]) + 1;
    const text = m[2] === "name" ? t("Player {number}'s name", {number}) : t("Player {number}", {number});
    return {text, input: row && row.querySelector(m[2] === "ai" ? ".seat-kind" : ".seat-name")};
  }
  if (/^players/.test(path)) return {text: t("The players"), input: null};
  if ((m = /^clock\.(\w+)/.exec(path))) {  // the clock's fields (seats.js): "Minutes", "Hours per move", …
    const input = $(m[1] === "increment" ? "clock-b" : "clock-a");
    const label = input && input.closest("label");
    return {text: label ? t("“{field}”", {field: label.textContent.replace(/\s+/g, " ").trim()}) : t("The clock"),
            input};
  }
  if (/^position/.test(path)) return {text: t("The starting position"), input: $("position")};
  if (/^seed/.test(path)) return {text: t("The seed"), input: $("seed")};
  if (/^game/.test(path)) return {text: t("The game"), input: $("game-choice")};
  return null;
}

/** A server message in the words of the form: "options.max_plies: must be a positive integer or null, not 0"
    becomes "“End in a draw after …”: must be a whole number above 0, or left empty (you gave 0)." */
function friendly(err) {
  const message = String(err.message || "");
  const m = /^([A-Za-z_][\w.[\]]*)\s*[:：]\s*(.*)$/.exec(message);  // "field: …", "field : …", "field：…"
  const path = err.field || (m ? m[1] : null);
  const found = path ? fieldName(path) : null;
  if (!found) return {text: message, input: null};
  let rest = m && (!err.field || m[1] === err.field || m[1].startsWith(err.field)) ? m[2] : message;
  // The validator's English in the form's words (a message already in the reader's language stays as it is).
  rest = rest
    .replace(/must be a positive integer(?: of at most \d+)? or null, not (.+)$/,
             (_, value) => t("must be a whole number above 0, or left empty (you gave {value})", {value}))
    .replace(/must be a whole number of 0 or more, not (.+)$/,
             (_, value) => t("must be a whole number, 0 or more (you gave {value})", {value}))
    .replace(/invalid enum value '([^']*)'/, (_, value) => t("“{value}” is not one of the choices", {value}))
    .replace(/^Expected `(\w+)`, got `(\w+)`.*$/, () => t("has the wrong kind of value"));
  const field = path && path.startsWith("position.")
    ? t("{field} (at {place})", {field: found.text, place: path.slice("position.".length)}) : found.text;
  return {text: t("{field}: {problem}.", {field, problem: rest.replace(/\.$/, "")}), input: found.input};
}

/** Checks made before asking the server: empty names, numbers that are not whole numbers. */
function problems() {
  for (const [i, row] of [...$("seats").children].entries()) {
    const name = row.querySelector(".seat-name");
    // (An open seat's name field is disabled: whoever joins names it.)
    if (!name.value.trim() && !name.disabled) return {text: t("Player {number} needs a name.", {number: i + 1}), input: name};
  }
  for (const input of $("options").querySelectorAll('input[type="number"]')) {
    const value = input.value.trim();
    const label = input.closest("label").textContent.replace(/\s+/g, " ").trim();
    const min = Number(input.min || 0);
    if (input.validity.badInput || (value && (!/^\d+$/.test(value) || Number(value) < min))) {
      return {text: min > 0 ? t("“{field}”: a whole number above 0, or leave it empty.", {field: label})
        : t("“{field}”: a whole number, 0 or more.", {field: label}), input};
    }
  }
  const seed = $("seed");
  if (seed.validity.badInput || (seed.value.trim() && !/^\d+$/.test(seed.value.trim()))) {
    return {text: t("The seed: a whole number, 0 or more (or leave it empty)."), input: seed};
  }
  return null;
}

async function create(event) {
  event.preventDefault();
  showError("");
  const problem = problems();
  if (problem) {
    showError(problem.text, problem.input);
    return;
  }
  const body = {game: chosenGame().value, players: players(), options: options(), ...extraBody()};
  const seed = $("seed").value.trim();
  if (seed) body.seed = Number(seed);
  const position = $("position").value.trim();
  if (position) {
    try {
      body.position = JSON.parse(position);
    } catch (err) {
      showError(t("The starting position is not valid JSON: see the game's rules below for its form."), $("position"));
      return;
    }
  }
  const submit = $("create-button");
  submit.disabled = true;
  try {
    const answer = await api("/api/games", {method: "POST", body});
    // The creator holds every seat it made at once (kept in this browser: "My games"), so no game is lost; one
    // seat of a person (the others AI or open): straight to its board.
    const humans = answer.seats.filter((s) => s.token).map((s) => s.token);
    tokens.save(answer.id, humans);
    if (humans.length === 1) {
      playHere(answer.id, humans);
      return;
    }
    showCreated(body.game, answer);
    pollGames();
  } catch (err) {
    const shown = friendly(err);
    showError(shown.text, shown.input);
  } finally {
    submit.disabled = false;
  }
}

// ---------------------------------------------------------------- after creation

function playHere(gid, seatTokens) {
  if (tokens.save(gid, seatTokens)) {
    location.assign("/games/" + encodeURIComponent(gid));
  } else {
    // No sessionStorage: hand the tokens over in the fragment instead (the game page removes it at once).
    location.assign("/games/" + encodeURIComponent(gid) + "#tokens=" + seatTokens.map(encodeURIComponent).join(","));
  }
}

async function copySeatLink(gid, seat) {
  const url = tokens.link(gid, seat.token);
  try {
    await navigator.clipboard.writeText(url);
    $("created-summary").textContent = t("The link that plays {player} is copied.", {player: seat.name});
  } catch (err) {
    window.prompt(t("The link that plays {player} (copy it):", {player: seat.name}), url);
  }
}

function showCreated(game, answer) {
  const humans = answer.seats.filter((s) => s.token);
  const names = answer.seats.map((s) => (s.open ? t("an open seat")
    : s.ai ? t("{player} (computer, {level})", {player: s.name, level: levelName(s.ai)}) : s.name));
  $("created-summary").textContent = t("{game}, game {id}: {players}.", {game: TITLES[game] || game, id: answer.id,
                                                                        players: list(names)});
  const actions = $("created-actions");
  actions.replaceChildren();
  if (humans.length > 1) {
    button(t("Play all {n} players here (one screen)", {n: humans.length}),
           () => playHere(answer.id, humans.map((s) => s.token)), "primary", actions);
  }
  for (const seat of humans) {
    const row = html("p", "seat-actions", null, actions);
    button(t("Play {player} here", {player: seat.name}), () => playHere(answer.id, [seat.token]),
           humans.length === 1 ? "primary" : "", row);
    button(t("Copy {player}'s link", {player: seat.name}), () => copySeatLink(answer.id, seat), "", row);
  }
  const watch = html("a", "watch", t("Watch this game"), actions);
  watch.href = "/games/" + encodeURIComponent(answer.id);
  $("created").hidden = false;
  const first = actions.querySelector("button, a");
  if (first) first.focus();
}

// ---------------------------------------------------------------- the list of games

let statusFilter = "";
let lastList = "";

/** When a game last changed (its creation if the server does not know better). */
function changed(g) {
  return Math.max(Date.parse(g.updated) || 0, Date.parse(g.created) || 0);
}

function ago(time) {
  const seconds = Math.max(0, (Date.now() - time) / 1000);
  if (!isFinite(seconds)) return "";
  if (seconds < 60) return t("just now");
  if (seconds < 3600) return t("{n} min ago", {n: Math.floor(seconds / 60)});
  if (seconds < 86400) return t("{n} h ago", {n: Math.floor(seconds / 3600)});
  return t("{n} d ago", {n: Math.floor(seconds / 86400)});
}

function describeGame(g) {
  const name = (seat) => (g.players[seat] && g.players[seat].name ? g.players[seat].name : player(seat));
  if (g.status === "finished") {
    const winners = (g.result && g.result.winners) || [];
    if (!winners.length && g.result && g.result.termination === "aborted") return t("Aborted: no result");
    return winners.length ? tn("Finished: {players} won", "Finished: {players} won", winners.length,
                               {players: list(winners.map(name))}) : t("Finished: a draw");
  }
  if (g.status === "setup") {
    return g.to_act.length ? t("Open: setting up, waiting for {players}", {players: list(g.to_act.map(name))})
      : t("Open: setting up");
  }
  return g.to_act.length ? t("Running: {players} to play", {players: list(g.to_act.map(name))}) : t("Running");
}

function renderGames(games) {
  const list = $("games");
  const focused = document.activeElement && list.contains(document.activeElement)
    ? document.activeElement.getAttribute("data-key") : null;
  list.replaceChildren();
  const kind = {open: "open", setup: "open", playing: "running", finished: "finished"}[statusFilter];
  $("games-status").textContent = games.length ? {
    open: tn("{n} open game", "{n} open games", games.length, {n: games.length}),
    running: tn("{n} running game", "{n} running games", games.length, {n: games.length}),
    finished: tn("{n} finished game", "{n} finished games", games.length, {n: games.length}),
  }[kind] || tn("{n} game", "{n} games", games.length, {n: games.length}) : {
    open: t("No open games right now."), running: t("No running games right now."),
    finished: t("No finished games right now."),
  }[kind] || t("No games yet: create one above.");
  for (const g of games) {
    const item = html("li", `game-item status-${g.status}`, null, list);
    const link = html("a", "game-link", null, item);
    link.href = "/games/" + encodeURIComponent(g.id);
    link.dataset.key = g.id;
    const head = html("span", "game-head", null, link);
    html("span", "game-title", TITLES[g.game] || g.game, head);
    // A game's id is a guest's tool (to find a game again); an account finds its games by itself.
    html("span", "game-time", signedIn() ? ago(changed(g)) : `#${g.id} · ${ago(changed(g))}`, head);
    html("span", "game-players", versus(g.players.map((p) => (p.ai ? t("{player} (computer)", {player: p.name})
      : p.open && !p.name ? t("(open)") : p.rating ? `${p.name} (${ratingWords(p.rating)})` : p.name))), link);
    const accounts = g.players.filter((p) => p.account);
    if (accounts.length) {  // the row is a link to the game: the players' profiles are linked beside it
      const profiles = html("span", "game-profiles", null, item);
      for (const p of accounts) playerName(p, profiles);
    }
    const held = tokens.stored(g.id).length;
    html("span", "game-state", describeGame(g) + (held ? " · " + tn("you play here", "you play {n} players here", held,
                                                                      {n: held}) : ""), link);
    joinButtons(g, item, $("games-status"));  // open seats: Join (seats.js)
  }
  refocus(list, focused);
}

async function pollGames() {
  try {
    const query = statusFilter ? "?status=" + encodeURIComponent(statusFilter) : "";
    const body = await api("/api/games" + query);
    const games = body.games.slice().sort((a, b) => changed(b) - changed(a));
    const key = JSON.stringify(games);
    if (key !== lastList && !typing(games)) {  // not under a name being typed in a join form
      lastList = key;
      renderGames(games);
    }
  } catch (err) {
    $("games-status").textContent = t("The list of games cannot be loaded right now; retrying.");
  }
}

function bindFilters() {
  for (const b of document.querySelectorAll(".filter")) {
    b.addEventListener("click", () => {
      statusFilter = b.dataset.status;
      for (const other of document.querySelectorAll(".filter")) {
        other.setAttribute("aria-pressed", other === b ? "true" : "false");
      }
      lastList = "";
      pollGames();
    });
  }
}

// ---------------------------------------------------------------- start

$("game-choice").addEventListener("change", onGameChange);
$("add-seat").addEventListener("click", () => renderSeats($("seats").children.length + 1));
$("remove-seat").addEventListener("click", () => renderSeats($("seats").children.length - 1));
$("create").addEventListener("submit", create);
bindFilters();
onGameChange();
loadCatalog().then((games) => {
  for (const info of games.values()) CATALOG[info.name] = info;
  renderOptions();
  for (const kind of document.querySelectorAll(".seat-kind")) fillKinds(kind);
}).catch(() => {});  // without the catalog the form offers no options and human seats only
pollGames();
setInterval(() => { if (!document.hidden) pollGames(); }, POLL_MS);
