/* Open seats and "My games" (CONTRACT.md "Tables"), on the lobby. Seats stay yours: api.js keeps each game's seat
   tokens in localStorage (tokens.stored, tokens.save, tokens.games), so a reload, a new tab or coming back next
   week keeps the seat. Tokens travel only in an Authorization header or a link's #fragment: never a query
   string, the HTML or a log.

   Imported by lobby.js, it adds: the "Anyone" seat choice (an open seat) and a clock to the form, the list of
   games with open seats and a Join button (a guest names themself in the page; the name is remembered), and
   "My games" (your turn first) with copy-link and forget. */
import {api, tokens} from "./api.js";
import {signedIn} from "./accounts.js";
import {guestName, rememberName} from "./guest.js";
import {t, player, versus} from "./i18n.js";

const $ = (id) => document.getElementById(id);

export {extraBody, seatKind, joinButtons, typing};

// ---------------------------------------------------------------- the lobby form: "Anyone" and a clock

/** Adds "Anyone (open seat)" to a seat's "played by" select (called by lobby.js for each seat row). */
function seatKind(select, nameInput) {
  const option = document.createElement("option");
  option.value = "open";
  option.textContent = t("Anyone (an open seat: joined from the lobby)");
  select.appendChild(option);
  select.addEventListener("change", () => {
    nameInput.disabled = select.value === "open";
  });
}

/** Fields seats.js adds to the create request: the clock. */
function extraBody() {
  const kind = $("clock-kind");
  if (!kind || !kind.value) return {};
  const a = Number($("clock-a").value);
  const b = Number($("clock-b").value);
  if (kind.value === "fischer") return {clock: {initial: a * 60, increment: b}};
  return {clock: {per_move: a * 3600}};
}

function labelled(text, input, id) {
  const label = document.createElement("label");
  label.className = "field";
  if (id) label.id = id;
  const words = document.createElement("span");
  words.textContent = text + " ";
  label.append(words, input);
  return label;
}

function numberInput(id, value) {
  const input = document.createElement("input");
  input.id = id;
  input.type = "number";
  input.min = "0";
  input.step = "any";
  input.value = value;
  return input;
}

function clockFields() {
  const form = $("create");
  const folded = $("more-options");  // the options' fold of the custom game's form
  if (!form || !folded || $("clock-kind")) return;
  const box = document.createElement("fieldset");
  box.className = "options clock-options";
  const legend = document.createElement("legend");
  legend.textContent = t("Clock");
  const kind = document.createElement("select");
  kind.id = "clock-kind";
  for (const [value, text] of [["", t("None")], ["fischer", t("Minutes + seconds a move")],
                               ["correspondence", t("Hours per move")]]) {
    const option = document.createElement("option");
    option.value = value;
    option.textContent = text;
    kind.appendChild(option);
  }
  const first = labelled(t("Minutes"), numberInput("clock-a", "5"), "clock-a-label");
  const second = labelled(t("Seconds added per move"), numberInput("clock-b", "3"), "clock-b-label");
  first.hidden = second.hidden = true;
  box.append(legend, labelled(t("Time control"), kind), first, second);
  folded.appendChild(box);
  kind.addEventListener("change", () => {
    first.hidden = !kind.value;
    second.hidden = kind.value !== "fischer";
    first.querySelector("span").textContent = (kind.value === "correspondence" ? t("Hours per move") : t("Minutes")) + " ";
    $("clock-a").value = kind.value === "correspondence" ? "24" : "5";
  });
}

// ---------------------------------------------------------------- open games: Join

async function take(game, seat, name, status) {
  try {
    const taken = await api(`/api/games/${encodeURIComponent(game.id)}/seats/${seat}`,
                            {method: "POST", body: name === null ? {} : {name}});
    tokens.save(game.id, [...tokens.stored(game.id), taken.token]);
    location.assign("/games/" + encodeURIComponent(game.id));
  } catch (err) {
    (status || $("open-status")).textContent = err.message;
    pollOpen();
  }
}

/** Join a game at ``seat``: signed in, as the account (no name asked); a guest names themself in a small form
    beside the button (the name they last used already in it). */
function join(game, seat, status, item) {
  if (signedIn()) {
    take(game, seat, null, status);
    return;
  }
  const open = item.querySelector("form.join-form");
  if (open) open.remove();
  const form = document.createElement("form");
  form.className = "join-form";
  const label = document.createElement("label");
  label.textContent = t("Your name") + " ";
  const input = document.createElement("input");
  input.name = "name";
  input.maxLength = 40;
  input.autocomplete = "nickname";
  input.required = true;
  input.value = guestName();
  label.appendChild(input);
  const go = document.createElement("button");
  go.type = "submit";
  go.className = "primary";
  go.textContent = t("Join {game}", {game: title(game.game)});
  const cancel = document.createElement("button");
  cancel.type = "button";
  cancel.className = "quiet";
  cancel.textContent = t("Cancel");
  cancel.addEventListener("click", () => { form.remove(); editing.delete(game.id); });
  form.append(label, go, cancel);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const name = input.value.trim();
    if (!name) {
      input.focus();
      return;
    }
    rememberName(name);
    editing.delete(game.id);
    take(game, seat, name, status);
  });
  item.appendChild(form);
  editing.add(game.id);  // the lists are not drawn again under a name being typed
  input.focus();
  input.select();
}

const editing = new Set();  // games whose join form is open

/** A Join button for each open seat of lobby line ``game`` (not those kept for a rematch), added to ``item``;
    also used by lobby.js for the main list's rows (``status``: where a failed join is told). */
function joinButtons(game, item, status) {
  if (game.status === "finished") return;
  const mine = new Set(tokens.games());
  const seats = (game.open_seats || []).filter((seat) => !(game.players[seat] && game.players[seat].name));
  for (const seat of seats) {  // (a seat whose name is kept is a rematch's, for its player)
    const b = document.createElement("button");
    b.type = "button";
    b.className = "join";
    const who = player(seat);
    b.textContent = mine.has(game.id) ? t("Also play {player}", {player: who})
      : seats.length > 1 ? t("Join as {player}", {player: who}) : t("Join");
    b.setAttribute("aria-label", t("Join {game} as {player}", {game: title(game.game), player: who}));
    b.addEventListener("click", () => join(game, seat, status, item));
    item.appendChild(b);
  }
}

/** Whether a list holding these games must wait: a guest is typing their name in one of its join forms. */
function typing(games) {
  return games.some((g) => editing.has(g.id)) && document.querySelector("form.join-form");
}

/** A game's title as the lobby's form names it ("Murus Gallicus", not "murus"). */
function title(name) {
  const option = [...document.querySelectorAll("#game-choice option")].find((o) => o.value === name);
  return option ? option.textContent.trim() : name;
}

function names(game) {
  return versus(game.players.map((p) => (p.open ? (p.name ? t("(kept for {player})", {player: p.name}) : t("(open)")) :
    p.ai ? t("{player} (computer)", {player: p.name}) : p.name)));
}

async function pollOpen() {
  const list = $("open-games");
  if (!list) return;
  try {
    const body = await api("/api/games?status=open");
    const games = body.games.filter((g) => g.status !== "finished");
    if (typing(games)) return;
    list.replaceChildren();
    $("open-status").textContent = games.length ? "" : t("No game is waiting for a player right now.");
    for (const game of games) {
      const item = document.createElement("li");
      item.className = "open-game";
      const link = document.createElement("a");
      link.href = "/games/" + encodeURIComponent(game.id);
      link.textContent = t("{game} #{id}: {players}", {game: title(game.game), id: game.id, players: names(game)});
      item.appendChild(link);
      joinButtons(game, item);
      list.appendChild(item);
    }
  } catch (err) {
    $("open-status").textContent = t("The open games cannot be loaded right now; retrying.");
  }
}

// ---------------------------------------------------------------- my games

async function copyLink(gid, token) {
  const url = tokens.link(gid, token);
  try {
    await navigator.clipboard.writeText(url);
    $("my-status").textContent = t("The link is copied: whoever opens it plays there.");
  } catch (err) {
    window.prompt(t("Your link (copy it):"), url);
  }
}

function forget(gid) {
  if (!window.confirm(t("Forget this game on this browser? Without its link you cannot play it again."))) {
    return;
  }
  tokens.save(gid, []);
  pollMine();
}

/** Signed in: the account's seats, on any device (``GET /api/me/games``), their tokens kept in this browser too so
    that their pages open as the seat; rows as pollMine draws them. */
async function accountRows() {
  if (!signedIn()) return [];
  let answer;
  try {
    answer = await api("/api/me/games?limit=50");
  } catch (err) {
    return [];
  }
  const rows = new Map();
  for (const g of answer.games) {
    if (!g.token) continue;
    const held = [...new Set([...tokens.stored(g.id), g.token])];
    tokens.save(g.id, held);
    const row = rows.get(g.id) || {gid: g.id, held, yourTurn: false, account: true,
      doc: {game: g.game, status: g.status,
      version: 0, result: null, players: g.players}};
    row.yourTurn = row.yourTurn || (g.your_turn && g.status !== "finished");
    rows.set(g.id, row);
  }
  return [...rows.values()];
}

async function pollMine() {
  const list = $("my-games");
  if (!list) return;
  const rows = await accountRows();
  const listed = new Set(rows.map((r) => r.gid));
  for (const gid of tokens.games().slice(0, 50)) {
    if (listed.has(gid)) continue;
    const held = tokens.stored(gid);
    if (!held.length) continue;
    try {
      const doc = await api("/api/games/" + encodeURIComponent(gid), {token: held[0]});
      const docs = [doc];
      for (const token of held.slice(1)) docs.push(await api("/api/games/" + encodeURIComponent(gid), {token}));
      const yourTurn = docs.some((d) => d.status !== "finished" && d.you !== null && d.to_act.includes(d.you));
      rows.push({gid, doc, held, yourTurn});
    } catch (err) {
      if (err.status === 404 || err.status === 401) rows.push({gid, doc: null, held, yourTurn: false});
    }
  }
  rows.sort((a, b) => (b.yourTurn - a.yourTurn) || ((b.doc ? b.doc.version : 0) - (a.doc ? a.doc.version : 0)));
  list.replaceChildren();
  $("my-status").textContent = rows.length ? "" : t("No game on this browser yet: games you create or join appear here.");
  for (const row of rows) {
    const item = document.createElement("li");
    item.className = "my-game" + (row.yourTurn ? " your-turn" : "");
    const link = document.createElement("a");
    link.href = "/games/" + encodeURIComponent(row.gid);
    const d = row.doc;
    const state = !d ? t("no longer on this server") : row.yourTurn ? t("your turn") :
      d.status === "finished" ? (d.result ? d.result.reason : t("finished")) : d.status === "setup" ?
        t("waiting for players") : t("their turn");
    const who = d ? versus(d.players.map((p) => p.name || t("(open)"))) : "";
    // An account's games are its own on every device: no game id, no link to copy, nothing to forget (guests' tools).
    const guest = !row.account;
    link.textContent = [`${d ? title(d.game) : t("game")}${guest ? " #" + row.gid : ""}`, who, state]
      .filter(Boolean).join(" · ");
    item.appendChild(link);
    if (!guest) {
      list.appendChild(item);
      continue;
    }
    for (const token of row.held) {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = row.held.length > 1 ? t("Copy a player's link") : t("Copy my link");
      b.addEventListener("click", () => copyLink(row.gid, token));
      item.appendChild(b);
    }
    const f = document.createElement("button");
    f.type = "button";
    f.textContent = t("Forget");
    f.addEventListener("click", () => forget(row.gid));
    item.appendChild(f);
    list.appendChild(item);
  }
}

if ($("open-games") || $("my-games")) {
  clockFields();
  pollOpen();
  pollMine();
  setInterval(() => {
    if (!document.hidden) {
      pollOpen();
      pollMine();
    }
  }, 5000);
}
