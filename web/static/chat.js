/* The chat beside a game (CONTRACT "Meeting people"): the players' room, for the seats this page plays, and the
   spectators' room, for signed-in players. Messages arrive live: the game's stream says "a message in room R"
   (event: notice) and the panel fetches what it may read. Names and texts are shown as text, never as HTML. A
   reader may mute a sender (kept in this browser) and report a message to the operators.

   start({gid, panel, seats: () => [{seat, token}], signedIn}) draws the panel; notice(data) is called by the page
   for each notice of its stream. */
import {api} from "./api.js";
import {button, html} from "./dom.js";
import {t} from "./i18n.js";

const MUTED = "burrow:muted";
const MAX = 140;
const state = {gid: null, panel: null, seats: () => [], signedIn: false, room: null, last: {}, shown: {}};

function muted() {
  try {
    return new Set(JSON.parse(localStorage.getItem(MUTED) || "[]"));
  } catch (err) {
    return new Set();
  }
}

function mute(name) {
  const names = muted();
  names.add(name);
  localStorage.setItem(MUTED, JSON.stringify([...names]));
}

function rooms() {
  const out = [];
  if (state.seats().length) out.push("players");
  if (state.signedIn) out.push("spectators");
  return out;
}

function token() {
  const seats = state.seats();
  return seats.length ? seats[0].token : undefined;
}

function path(room, after) {
  const query = new URLSearchParams({room});
  if (after) query.set("after", after);
  return `/api/games/${encodeURIComponent(state.gid)}/chat?${query}`;
}

const loading = {};  // room → the load in progress: loads of a room run one after another

/** Fetch the room's messages after the last one shown (never the same message twice). */
function load(room) {
  const previous = loading[room] || Promise.resolve();
  const next = previous.catch(() => {}).then(async () => {
    const known = state.shown[room] || (state.shown[room] = []);
    const body = await api(path(room, state.last[room]), {token: room === "players" ? token() : undefined});
    const ids = new Set(known.map((m) => m.id));
    for (const message of body.messages) {
      if (ids.has(message.id)) continue;
      known.push(message);
      state.last[room] = message.id;
    }
    if (room === state.room) draw();
  });
  loading[room] = next;
  return next;
}

function draw() {
  const panel = state.panel;
  panel.textContent = "";
  const available = rooms();
  if (!available.length) {
    panel.hidden = true;
    return;
  }
  panel.hidden = false;
  html("h2", "", t("Chat"), panel);
  if (available.length > 1) {
    const tabs = html("div", "chat-rooms", null, panel);
    for (const room of available) {
      const tab = button(room === "players" ? t("Players") : t("Spectators"), () => {
        state.room = room;
        load(room).catch(() => {});
        draw();
      }, room === state.room ? "chat-room current" : "chat-room", tabs);
      tab.setAttribute("aria-pressed", String(room === state.room));
    }
  }
  const list = html("ol", "chat-messages", null, panel);
  list.setAttribute("aria-live", "polite");
  const hidden = muted();
  for (const message of state.shown[state.room] || []) {
    if (hidden.has(message.from)) continue;
    const item = html("li", "chat-message", null, list);
    html("strong", "chat-from", message.from, item);
    html("span", "chat-text", " " + message.text, item);
    const tools = html("span", "chat-tools", null, item);
    button(t("Mute"), () => { mute(message.from); draw(); }, "chat-tool", tools)
      .setAttribute("aria-label", t("Mute {name}", {name: message.from}));
    button(t("Report"), () => report(message), "chat-tool", tools)
      .setAttribute("aria-label", t("Report this message to the operators"));
  }
  list.scrollTop = list.scrollHeight;
  const form = html("form", "chat-form", null, panel);
  const input = html("input", "", null, form);
  input.maxLength = MAX;
  input.placeholder = state.room === "players" ? t("Say something to the players") : t("Say something to the spectators");
  input.setAttribute("aria-label", input.placeholder);
  html("button", "", t("Send"), form).type = "submit";
  const note = html("p", "chat-note", "", panel);
  note.setAttribute("role", "status");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    try {
      await api(`/api/games/${encodeURIComponent(state.gid)}/chat`, {
        method: "POST", token: state.room === "players" ? token() : undefined, body: {text, room: state.room}});
      input.value = "";
      await load(state.room);
    } catch (err) {
      note.textContent = err.message;
    }
  });
}

async function report(message) {
  if (!window.confirm(t("Report this message to the operators?"))) return;
  await api(`/api/games/${encodeURIComponent(state.gid)}/chat/report`, {
    method: "POST", token: state.room === "players" ? token() : undefined, body: {room: state.room, id: message.id}});
}

/** Draw the chat panel and load its rooms. */
export function start(options) {
  Object.assign(state, options);
  state.room = rooms()[0] || null;
  draw();
  for (const room of rooms()) load(room).catch(() => {});
}

/** The seats this page plays changed (a seat taken, a token found): the rooms it may use too. */
export function refresh() {
  if (!state.panel) return;
  if (!state.room || !rooms().includes(state.room)) {
    state.room = rooms()[0] || null;
    for (const room of rooms()) if (!state.shown[room]) load(room).catch(() => {});
  }
  draw();
}

/** A notice of the game's stream: a new message in a room this page may read. */
export function notice(data) {
  if (data.type === "chat" && rooms().includes(data.room)) load(data.room).catch(() => {});
}
