/* Quick pairing on the front page (CONTRACT "Meeting people" and "The first ten minutes", seeks): a tile per
   common game setting ("Murus Gallicus 5+3", "Foraging Squirrels, 3 players"); a click asks for a game, paired at
   once with a player waiting or as soon as one comes (the account's stream then opens the game: notices.js); the
   seeks open now are listed, each joinable. A guest plays too, unrated, under the name typed above the tiles (the
   server gives the browser a guest session); an account chooses rated (the default) or not. */
import {api} from "./api.js";
import {button, html} from "./dom.js";
import {t, tn} from "./i18n.js";
import {ratingWords, signedIn} from "./accounts.js";
import {listen, openGame} from "./notices.js";
import {load as loadCatalog} from "./catalog.js";
import {clockWords} from "./challenges.js";
import {guestName, markGuestSession, typedName} from "./guest.js";

const TILES = [
  {game: "murus", clock: {initial: 300, increment: 3}},
  {game: "murus", clock: {initial: 900, increment: 10}},
  {game: "mouseguard", clock: {initial: 600, increment: 5}},
  {game: "squirrels", seats: 2, clock: {initial: 300, increment: 5}},
  {game: "squirrels", seats: 3, clock: {initial: 300, increment: 5}},
  {game: "commando", seats: 4, clock: {initial: 900, increment: 10}},
];
const POLL_MS = 4000;

const $ = (id) => document.getElementById(id);
const waiting = new Map();  // tile index → its open seek's id
let titles = new Map();
let known = null;  // a guest's games when they started waiting (the new one is the pairing's)

/** A tile's words: "Murus Gallicus 5+3", "Foraging Squirrels, 3 players" (the catalog's title, in the page's
    language). */
function label(tile) {
  const game = (titles.get(tile.game) || {}).title || tile.game;
  return tile.seats ? tn("{game}, {n} player", "{game}, {n} players", tile.seats, {game, n: tile.seats})
    : t("{game} {clock}", {game, clock: clockWords(tile.clock)});
}

/** The seek's request: a guest's name (unrated), or an account's choice of rated. */
function who() {
  if (signedIn()) return $("seek-rated").checked ? {} : {rated: false};  // rated: the accounts' default
  const name = typedName($("guest-name"), $("pairing-status"));
  return name ? {name} : null;
}

async function guestGames() {
  try {
    return new Set((await api("/api/me/games?limit=20")).games.map((g) => g.id));
  } catch (err) {
    return new Set();
  }
}

async function seek(index, tile, status) {
  if (waiting.has(index)) {  // a second click cancels it
    await api("/api/seeks/" + encodeURIComponent(waiting.get(index)), {method: "DELETE"}).catch(() => {});
    waiting.delete(index);
    if (!waiting.size) delete document.body.dataset.seeking;
    draw();
    return;
  }
  const player = who();
  if (!player) return;
  try {
    const answer = await api("/api/seeks", {method: "POST",
      body: {game: tile.game, clock: tile.clock, ...(tile.seats ? {seats: tile.seats} : {}), ...player}});
    if (!signedIn()) {
      markGuestSession();
      listen();  // the guest session's stream says when the game starts
      if (known === null) known = await guestGames();
    }
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

/** A guest's page also looks for the game now and then: a pairing made before its stream opened is not missed. */
async function lookForGame() {
  if (signedIn() || !waiting.size || known === null) return;
  let answer;
  try {
    answer = await api("/api/me/games?limit=20");
  } catch (err) {
    return;
  }
  const fresh = answer.games.find((g) => !known.has(g.id) && g.status !== "finished");
  if (fresh) openGame(fresh.id);
}

function draw() {
  const box = $("pairing-tiles");
  const status = $("pairing-status");
  box.replaceChildren();
  TILES.forEach((tile, index) => {
    const waitingHere = waiting.has(index);
    const tileButton = button(waitingHere ? t("Waiting for a player… (cancel)") : label(tile),
                              () => seek(index, tile, status), waitingHere ? "tile waiting" : "tile", box);
    tileButton.dataset.game = tile.game;
    tileButton.setAttribute("aria-pressed", String(waitingHere));
  });
  status.textContent = waiting.size ? t("You will be taken to the game as soon as a player is found.") : "";
}

const profiles = new Map();  // username → its profile's ratings (asked once a page)

/** A seeker's rating as names carry it: "1500?" while provisional (the profile says which), else the number. */
async function shownRating(username, game, rating) {
  if (!profiles.has(username)) {
    profiles.set(username, api("/api/players/" + encodeURIComponent(username)).then((p) => p.ratings)
      .catch(() => ({})));
  }
  const mine = (await profiles.get(username))[game];
  return {rating, provisional: mine ? mine.provisional : true};  // no rated game yet: provisional
}

async function listSeeks() {
  const list = $("open-seeks");
  let answer;
  try {
    answer = await api("/api/seeks");
  } catch (err) {
    return;
  }
  // The ratings first (a profile asked once), then the list drawn at once: two polls never interleave their rows.
  const ratings = await Promise.all(answer.seeks.map((s) => (s.rating && !s.guest && s.username
    ? shownRating(s.username, s.game, s.rating) : null)));
  list.replaceChildren();
  const me = signedIn();
  answer.seeks.forEach((s, i) => {
    const item = html("li", "seek", null, list);
    const name = s.username || s.name || "";
    const rating = ratings[i] ? ` (${ratingWords(ratings[i])})` : "";
    const game = (titles.get(s.game) || {}).title || s.game;
    const kind = s.rated === false ? t("unrated") : t("rated");
    html("span", "", `${name}${rating} — ${game}, ${t("{n} players", {n: s.seats})}, ${clockWords(s.clock)}, ${kind}`,
         item);
    if (name && name !== me) {
      button(t("Play"), async () => {
        const player = who();
        if (!player) return;
        if (signedIn()) delete player.rated;
        if (signedIn() && s.rated === false) player.rated = false;  // a guest's seek: an unrated game
        try {
          const answer2 = await api("/api/seeks", {method: "POST",
            body: {game: s.game, options: s.options, clock: s.clock, seats: s.seats, ...player}});
          if (!signedIn()) markGuestSession();
          if (answer2.status === "paired") await openGame(answer2.game);
        } catch (err) {
          $("pairing-status").textContent = err.message;
        }
      }, "", item);
    }
  });
  if (!answer.seeks.length) html("li", "note", t("Nobody is waiting right now."), list);
}

async function start() {
  if (!$("pairing")) return;
  titles = await loadCatalog();
  if (signedIn()) {
    $("pairing-rated").hidden = false;
  } else {
    $("pairing-guest").hidden = false;
    $("guest-name").value = guestName();
  }
  draw();
  listSeeks();
  setInterval(() => { if (!document.hidden) listSeeks(); }, 5000);
  setInterval(lookForGame, POLL_MS);
}

start();
