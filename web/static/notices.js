/* A signed-in player's notifications, on every page (CONTRACT "Meeting people": GET /api/me/stream; a guest's
   too once the server gave this browser a guest session): a challenge (accept or decline it here), a challenge
   cancelled, accepted or declined, a game started (quick pairing, a challenge accepted), your turn, a draw offered
   or declined, a rematch asked for, a game over. Every open tab and device of the account gets them; the tab title
   says so while the tab is hidden. A game's page is opened with its seat: the seat's token comes from
   GET /api/me/games/<gid>. */
import {api, tokens} from "./api.js";
import {button, html, noticeRegion} from "./dom.js";
import {t} from "./i18n.js";
import {signedIn} from "./accounts.js";
import {dropCard, showPending, whenAccepted} from "./challenges.js";
import {mayHaveGuestSession} from "./guest.js";

const baseTitle = document.title;
const started = new Set();  // the games whose start this page was told of
let unseen = 0;

/** Open game ``gid`` as the account's seat (its token kept in this browser first). */
export async function openGame(gid) {
  try {
    const seat = await api("/api/me/games/" + encodeURIComponent(gid));
    if (seat.token) tokens.save(gid, [...new Set([...tokens.stored(gid), seat.token])]);
  } catch (err) {
    // the game's page asks again for the seat when it opens
  }
  window.location.href = "/games/" + encodeURIComponent(gid);
}

function onThisGame(gid) {
  const root = document.getElementById("game");
  return root && root.dataset.gid === gid;
}

function card(text, actions) {
  const item = html("div", "notice", null, noticeRegion());
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
    case "challenge":  // its card states the game, the clock and the side (GET /api/challenges)
      showPending();
      break;
    case "challenge_cancelled":
      if (dropCard(note.id)) card(t("A challenge to you was cancelled."), []);
      break;
    case "challenge_declined":
      dropCard(note.id);
      card(t("{name} declined your challenge.", {name: note.by}), []);
      break;
    case "challenge_accepted":
      dropCard(note.id);
      if (document.getElementById("game")) {  // playing or watching a game here: not taken away from it
        card(t("Your challenge was accepted: the game has started."), [open]);
      } else {
        openGame(note.game);
      }
      break;
    case "rematch_offered":
      if (!onThisGame(note.game)) {
        card(t("{name} wants a rematch.", {name: note.by}), [[t("Open"), () => {
          window.location.href = "/games/" + encodeURIComponent(note.game);
        }]]);
      }
      document.dispatchEvent(new CustomEvent("burrow:rematch", {detail: note}));  // the game's page says it
      break;
    case "game_started":
      if (onThisGame(note.game)) break;
      if (document.body.dataset.seeking) {  // this page waits for a quick pairing: straight to the board
        openGame(note.game);
        break;
      }
      started.add(note.game);
      card(t("Your game has started."), [open]);
      break;
    case "your_turn":  // (a game just started has its card already: not "another game")
      if (!onThisGame(note.game) && !started.has(note.game)) card(t("Your turn in another game."), [open]);
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
    case "vacation":  // an opponent's vacation switch: their clock runs as before (services/away/service.py)
      card(note.on ? t("{name} is on vacation; their clock keeps running.", {name: note.by})
        : t("{name} is back from vacation.", {name: note.by}), onThisGame(note.game) ? [] : [open]);
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

let source = null;

/** Follow the account's (or the guest session's) notifications; once per page. */
export function listen() {
  if (source || !window.EventSource) return;
  source = new EventSource("/api/me/stream");
  source.addEventListener("notification", (event) => {
    try {
      const note = JSON.parse(event.data);
      document.dispatchEvent(new CustomEvent("burrow:notice", {detail: note}));  // waiting.js counts again
      show(note);
    } catch (err) {
      // a notification this page does not know
    }
  });
}

whenAccepted(openGame);
if (signedIn() || mayHaveGuestSession()) listen();
if (signedIn() || mayHaveGuestSession()) showPending();
