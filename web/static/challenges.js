/* Challenges in the pages (CONTRACT "Meeting people" and "The first ten minutes"): the Challenge dialog (a profile,
   a name in a game, after a game: the game, its clock, the side), the challenges open now in the corner of every
   page of a signed-in player (the ones sent: "Waiting for bob…" and Cancel; the ones received: Accept and
   Decline), each stating its game, clock and side. A challenge's ``side`` is the challenger's seat (0, 1) or
   "random". */
import {api} from "./api.js";
import {button, html, noticeRegion} from "./dom.js";
import {t} from "./i18n.js";
import {load as loadCatalog} from "./catalog.js";

const CLOCKS = {"5+3": {initial: 300, increment: 3}, "15+10": {initial: 900, increment: 10},
                "day": {per_move: 86400}, "none": null};

/** The clock of a menu's choice ("5+3", "15+10", "day", "none"). */
export function clockOf(value) {
  return value in CLOCKS ? CLOCKS[value] : CLOCKS["15+10"];
}

/** A side menu's value as the API takes it: a seat number, or "random". */
export function sideOf(value) {
  return value === "0" || value === "1" ? Number(value) : "random";
}

/** A clock in words: "5+3", "1 day a move", "no clock". */
export function clockWords(clock) {
  if (!clock) return t("no clock");
  if (clock.per_move) {
    const hours = Math.round(clock.per_move / 3600);
    return hours % 24 === 0 ? t("{d} days a move", {d: hours / 24}) : t("{h} hours a move", {h: hours});
  }
  return `${Math.round((clock.initial || 0) / 60)}+${clock.increment || 0}`;
}

/** Which side the reader plays: ``mine`` is true for the challenger's view. */
export function sideWords(side, mine) {
  if (side !== 0 && side !== 1) return t("sides drawn at random");
  const seat = mine ? side : 1 - side;
  return seat === 0 ? t("you play first") : t("you play second");
}

/** "Murus Gallicus, 5+3, you play first". */
export async function describe(challenge, mine) {
  const titles = await loadCatalog();
  const game = (titles.get(challenge.game) || {}).title || challenge.game;
  return t("{game}, {clock}, {side}", {game, clock: clockWords(challenge.clock),
                                        side: sideWords(challenge.side, mine)});
}

// ---------------------------------------------------------------- the corner: challenges open now

function cardFor(id, cls) {
  const found = document.querySelector(`.notice[data-challenge="${CSS.escape(id)}"]`);
  if (found) return null;
  const item = html("div", "notice " + cls, null, noticeRegion());
  item.dataset.challenge = id;
  return item;
}

/** Remove the card of challenge ``id`` (answered, cancelled); true when there was one. */
export function dropCard(id) {
  const found = document.querySelector(`.notice[data-challenge="${CSS.escape(String(id))}"]`);
  if (found) found.remove();
  return Boolean(found);
}

let onAccepted = null;

/** What to do with an accepted challenge's game (notices.js: open it with its seat). */
export function whenAccepted(handler) {
  onAccepted = handler;
}

/** Show the signed-in player's open challenges, sent and received, each once. */
export async function showPending() {
  let open;
  try {
    open = await api("/api/challenges");
  } catch (err) {
    return;  // not signed in, or the server away: nothing to show
  }
  const live = new Set([...(open.outgoing || []), ...(open.incoming || [])].map((c) => c.id));
  for (const node of document.querySelectorAll(".notice[data-challenge]")) {
    if (!live.has(node.dataset.challenge)) node.remove();
  }
  for (const c of open.outgoing || []) {
    const item = cardFor(c.id, "pending-challenge");
    if (!item) continue;
    const what = await describe(c, true);
    html("p", "", c.to ? t("Waiting for {name} to answer your challenge: {what}.", {name: c.to, what})
      : t("Your invite link waits for a player: {what}.", {what}), item);
    const row = html("p", "notice-actions", null, item);
    if (!c.to) {
      button(t("Copy the link"), async () => {
        const url = new URL("/challenge/" + encodeURIComponent(c.id), location.origin).href;
        try {
          await navigator.clipboard.writeText(url);
        } catch (err) {
          window.prompt(t("The invite link (copy it):"), url);
        }
      }, "", row);
    }
    button(t("Cancel the challenge"), async () => {
      try {
        await api("/api/challenges/" + encodeURIComponent(c.id), {method: "DELETE"});
        item.remove();
      } catch (err) {
        html("p", "error", err.message, item);
      }
    }, "", row);
  }
  for (const c of open.incoming || []) {
    const item = cardFor(c.id, "incoming-challenge");
    if (!item) continue;
    const what = await describe(c, false);
    html("p", "", t("{name} challenges you: {what}.", {name: c.from, what}), item);
    const row = html("p", "notice-actions", null, item);
    button(t("Accept"), async () => {
      try {
        const answer = await api(`/api/challenges/${encodeURIComponent(c.id)}/accept`, {method: "POST", body: {}});
        item.remove();
        if (onAccepted) onAccepted(answer.game);
      } catch (err) {
        html("p", "error", err.message, item);
      }
    }, "primary", row);
    button(t("Decline"), async () => {
      await api(`/api/challenges/${encodeURIComponent(c.id)}/decline`, {method: "POST"}).catch(() => {});
      item.remove();
    }, "", row);
  }
}

// ---------------------------------------------------------------- the Challenge dialog

function select(label, choices, value, parent) {
  const field = html("label", "field", label + " ", parent);
  const node = document.createElement("select");
  for (const [v, text] of choices) {
    const option = html("option", "", text, node);
    option.value = v;
  }
  node.value = value;
  field.appendChild(node);
  return node;
}

/** Open the dialog that challenges ``username``; ``preset``: {game, options, clock} of a game to play again. */
export async function openChallenge(username, preset) {
  const catalog = await loadCatalog();
  const old = document.getElementById("challenge-dialog");
  if (old) old.remove();
  const dialog = html("dialog", "challenge-dialog", null, document.body);
  dialog.id = "challenge-dialog";
  dialog.setAttribute("aria-labelledby", "challenge-dialog-title");
  const form = html("form", "", null, dialog);
  form.method = "dialog";
  html("h2", "", t("Challenge {name}", {name: username}), form).id = "challenge-dialog-title";
  const games = [...catalog.values()].filter((g) => g.seats[0] <= 2 && 2 <= g.seats[1]);
  const choices = games.length ? games.map((g) => [g.name, g.title]) : [[preset && preset.game || "murus",
                                                                         preset && preset.game || "murus"]];
  const fields = html("p", "play-settings", null, form);
  const game = select(t("Game"), choices, preset && preset.game ? preset.game : choices[0][0], fields);
  const known = Object.entries(CLOCKS).find(([, c]) => JSON.stringify(c) === JSON.stringify(preset && preset.clock));
  const clock = select(t("Clock"), [["5+3", "5+3"], ["15+10", "15+10"], ["none", t("no clock")],
                                    ["day", t("1 day a move")]], known ? known[0] : "15+10", fields);
  const side = select(t("You play"), [["random", t("a side drawn at random")], ["0", t("first")],
                                      ["1", t("second")]], "random", fields);
  const status = html("p", "note", null, form);
  status.setAttribute("role", "status");
  const row = html("p", "buttons", null, form);
  const send = button(t("Send the challenge"), async () => {
    const body = {to: username, game: game.value, side: sideOf(side.value)};
    const chosen = clockOf(clock.value);
    if (chosen) body.clock = chosen;
    if (preset && preset.options && preset.game === game.value) body.options = preset.options;
    send.disabled = true;
    try {
      await api("/api/challenges", {method: "POST", body});
      dialog.close();
      dialog.remove();
      showPending();
    } catch (err) {
      status.textContent = err.message;
      send.disabled = false;
    }
  }, "primary", row);
  send.id = "challenge-send";
  button(t("Cancel"), () => { dialog.close(); dialog.remove(); }, "", row);
  dialog.showModal();
  send.focus();
}

/** A Challenge button for ``username`` in ``parent`` (``preset`` as for openChallenge). */
export function challengeButton(username, parent, preset) {
  const b = button(t("Challenge"), () => openChallenge(username, preset), "challenge-button small", parent);
  b.setAttribute("aria-label", t("Challenge {name}", {name: username}));
  return b;
}
