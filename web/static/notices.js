/* A signed-in player's notifications, on every page (CONTRACT "Meeting people": GET /api/me/stream): a challenge
   (accept or decline it here), a game started (quick pairing, a challenge accepted), your turn, a draw offered or
   declined, a game over. Every open tab and device of the account gets them; the tab title says so while the tab
   is hidden. A game's page is opened with its seat: the seat's token comes from GET /api/me/games. */
import {api, tokens} from "./api.js";
import {button, html} from "./dom.js";
import {t} from "./i18n.js";
import {signedIn} from "./accounts.js";
import {title} from "./catalog.js";

const baseTitle = document.title;
let unseen = 0;

function region() {
  let box = document.getElementById("notices");
  if (!box) {
    box = html("div", "notices", null, document.body);
    box.id = "notices";
    box.setAttribute("role", "status");
    box.setAttribute("aria-live", "polite");
  }
  return box;
}

/** Open game ``gid`` as the account's seat (its token kept in this browser first). */
export async function openGame(gid) {
  try {
    const answer = await api("/api/me/games?limit=50");
    const held = answer.games.filter((g) => g.id === gid && g.token).map((g) => g.token);
    if (held.length) tokens.save(gid, [...new Set([...tokens.stored(gid), ...held])]);
  } catch (err) {
    // the page opens as a spectator's; the seat is still in "My games"
  }
  window.location.href = "/games/" + encodeURIComponent(gid);
}

function onThisGame(gid) {
  const root = document.getElementById("game");
  return root && root.dataset.gid === gid;
}

function card(text, actions) {
  const item = html("div", "notice", null, region());
  html("p", "", text, item);
  const row = html("p", "notice-actions", null, item);
  for (const [label, handler] of actions) button(label, async () => { await handler(); item.remove(); }, "", row);
  button(t("Dismiss"), () => item.remove(), "quiet", row);
  if (document.hidden) {
    unseen += 1;
    document.title = `(${unseen}) ${baseTitle}`;
  }
  return item;
}

async function show(note) {
  const open = [t("Open"), () => openGame(note.game)];
  switch (note.type) {
    case "challenge":
      card(t("{name} challenges you to a game of {game}.", {name: note.from, game: await title(note.game)}), [
        [t("Accept"), async () => openGame((await api(`/api/challenges/${note.id}/accept`, {method: "POST"})).game)],
        [t("Decline"), () => api(`/api/challenges/${note.id}/decline`, {method: "POST"})],
      ]);
      break;
    case "challenge_declined":
      card(t("{name} declined your challenge.", {name: note.by}), []);
      break;
    case "game_started":
      if (onThisGame(note.game)) break;
      if (document.body.dataset.seeking) {  // this page waits for a quick pairing: straight to the board
        openGame(note.game);
        break;
      }
      card(t("Your game has started."), [open]);
      break;
    case "your_turn":
      if (!onThisGame(note.game)) card(t("Your turn in another game."), [open]);
      break;
    case "draw_offered":
      if (!onThisGame(note.game)) card(t("Your opponent offers a draw."), [open]);
      break;
    case "draw_declined":
      card(t("Your draw offer was declined."), onThisGame(note.game) ? [] : [open]);
      break;
    case "game_over":
      if (!onThisGame(note.game)) card(t("A game of yours is over."), [open]);
      break;
    default:
      break;
  }
}

document.addEventListener("visibilitychange", () => {
  if (!document.hidden) {
    unseen = 0;
    document.title = baseTitle;
  }
});

if (signedIn() && window.EventSource) {
  const source = new EventSource("/api/me/stream");
  source.addEventListener("notification", (event) => {
    try {
      show(JSON.parse(event.data));
    } catch (err) {
      // a notification this page does not know
    }
  });
}
