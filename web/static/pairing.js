/* Quick pairing in the lobby (CONTRACT "Meeting people", seeks): a tile per common game setting ("Murus 5+3",
   "Squirrels, 3 players"); a click asks for a game, paired at once with a player waiting or as soon as one comes
   (the account's stream then opens the game: notices.js); the seeks open now are listed, each joinable. Guests
   are asked to sign in. */
import {api} from "./api.js";
import {button, html} from "./dom.js";
import {t} from "./i18n.js";
import {signedIn} from "./accounts.js";
import {openGame} from "./notices.js";
import {load as loadCatalog} from "./catalog.js";

const TILES = [
  {game: "murus", clock: {initial: 300, increment: 3}, label: () => t("Murus Gallicus 5+3")},
  {game: "murus", clock: {initial: 900, increment: 10}, label: () => t("Murus Gallicus 15+10")},
  {game: "mouseguard", clock: {initial: 600, increment: 5}, label: () => t("Mouse Guard 10+5")},
  {game: "squirrels", seats: 2, clock: {initial: 300, increment: 5}, label: () => t("Squirrels, 2 players")},
  {game: "squirrels", seats: 3, clock: {initial: 300, increment: 5}, label: () => t("Squirrels, 3 players")},
  {game: "commando", seats: 4, clock: {initial: 900, increment: 10}, label: () => t("Mission commando, 4 players")},
];

const $ = (id) => document.getElementById(id);
const waiting = new Map();  // tile index → its open seek's id

function minutes(clock) {
  if (!clock) return t("no clock");
  if (clock.per_move) return t("{d} days a move", {d: Math.round(clock.per_move / 86400)});
  return `${Math.round(clock.initial / 60)}+${clock.increment || 0}`;
}

async function seek(index, tile, status) {
  if (waiting.has(index)) {  // a second click cancels it
    await api("/api/seeks/" + encodeURIComponent(waiting.get(index)), {method: "DELETE"}).catch(() => {});
    waiting.delete(index);
    if (!waiting.size) delete document.body.dataset.seeking;
    draw();
    return;
  }
  try {
    const answer = await api("/api/seeks", {method: "POST",
      body: {game: tile.game, clock: tile.clock, ...(tile.seats ? {seats: tile.seats} : {})}});
    if (answer.status === "paired") {
      await openGame(answer.game);
      return;
    }
    waiting.set(index, answer.id);
    document.body.dataset.seeking = "1";  // the account's stream opens the game when it is paired
    draw();
  } catch (err) {
    status.textContent = err.message;
  }
}

function draw() {
  const box = $("pairing-tiles");
  const status = $("pairing-status");
  box.replaceChildren();
  TILES.forEach((tile, index) => {
    const waitingHere = waiting.has(index);
    const tileButton = button(waitingHere ? t("Waiting for a player… (cancel)") : tile.label(),
                              () => seek(index, tile, status), waitingHere ? "tile waiting" : "tile", box);
    tileButton.setAttribute("aria-pressed", String(waitingHere));
  });
  status.textContent = waiting.size ? t("You will be taken to the game as soon as a player is found.") : "";
}

async function listSeeks() {
  const list = $("open-seeks");
  let answer;
  try {
    answer = await api("/api/seeks");
  } catch (err) {
    return;
  }
  const titles = await loadCatalog();
  list.replaceChildren();
  const me = signedIn();
  for (const s of answer.seeks) {
    const item = html("li", "seek", null, list);
    html("span", "", `${s.username} — ${titles.get(s.game)?.title || s.game}, ${t("{n} players", {n: s.seats})}, ${minutes(s.clock)}`, item);
    if (me && s.username !== me) {
      button(t("Play"), async () => {
        const answer2 = await api("/api/seeks", {method: "POST",
          body: {game: s.game, options: s.options, clock: s.clock, seats: s.seats}});
        if (answer2.status === "paired") await openGame(answer2.game);
      }, "", item);
    }
  }
  if (!answer.seeks.length) html("li", "note", t("Nobody is waiting right now."), list);
}

function start() {
  const section = $("pairing");
  if (!section) return;
  if (!signedIn()) {
    $("pairing-tiles").replaceChildren();
    const note = html("p", "note", null, $("pairing-tiles"));
    const link = html("a", "", t("Sign in to be paired with a player"), note);
    link.href = "/signin?next=/";
  } else {
    draw();
  }
  listSeeks();
  setInterval(listSeeks, 5000);
}

start();
