/* The front page's play menu (lobby.html, "Play"): a game against the computer in one click (the level and the
   player's side chosen above the games, a side drawn at random by default), and a friend's game, by a challenge to
   a username or by an invite link anyone may open (CONTRACT "The first ten minutes"). Quick pairing is
   pairing.js; the custom game's form is lobby.js.

   A new game's seat token goes to this browser's storage (api.js, tokens) and the page to the board. */
import {api, tokens} from "./api.js";
import {signedIn} from "./accounts.js";
import {clockOf, showPending, sideOf} from "./challenges.js";
import {guestName, markGuestSession, typedName} from "./guest.js";
import {listen} from "./notices.js";
import {t} from "./i18n.js";

const $ = (id) => document.getElementById(id);

/** The seat the player takes in a game of ``seats`` seats: the side chosen, or one drawn at random. */
function chosenSeat(value, seats) {
  if (value === "random") return Math.floor(Math.random() * seats);
  return Math.min(Number(value) || 0, seats - 1);
}

async function playComputer(button) {
  const game = button.dataset.game;
  const seats = Number(button.dataset.seats) || 2;
  const level = $("computer-level").value;
  const mine = chosenSeat($("computer-seat").value, seats);
  const players = [];
  for (let seat = 0; seat < seats; seat += 1) {
    if (seat === mine) {
      players.push(signedIn() ? {me: true} : {name: guestName() || t("Guest")});
    } else {
      const name = seats > 2 ? t("Computer {number}", {number: seat + 1}) : t("Computer");
      players.push({name, ai: level});
    }
  }
  $("computer-status").textContent = "";
  for (const b of document.querySelectorAll(".computer-game")) b.disabled = true;
  try {
    const answer = await api("/api/games", {method: "POST", body: {game, players}});
    const held = answer.seats.filter((s) => s.token).map((s) => s.token);
    if (tokens.save(answer.id, held)) location.assign("/games/" + encodeURIComponent(answer.id));
    else location.assign(tokens.link(answer.id, held[0]));
  } catch (err) {
    $("computer-status").textContent = err.message;
    for (const b of document.querySelectorAll(".computer-game")) b.disabled = false;
  }
}

function friendRequest() {
  const body = {game: $("friend-game").value, side: sideOf($("friend-side").value)};
  const clock = clockOf($("friend-clock").value);
  if (clock) body.clock = clock;
  return body;
}

async function challenge(event) {
  event.preventDefault();
  const status = $("friend-status");
  const name = $("friend-name").value.trim();
  if (!name) {
    status.textContent = t("Type the username of the player to challenge.");
    $("friend-name").focus();
    return;
  }
  try {
    await api("/api/challenges", {method: "POST", body: {to: name, ...friendRequest()}});
    status.textContent = t("Challenge sent to {name}: waiting for an answer.", {name});
    $("friend-name").value = "";
    showPending();
  } catch (err) {
    status.textContent = err.status === 404 ? t("Nobody here is called {name}.", {name}) : err.message;
  }
}

async function invite() {
  const status = $("friend-status");
  const body = friendRequest();
  const guest = $("friend-guest-name");
  if (guest) {  // a guest invites under a name (the server gives this browser a guest session)
    body.name = typedName(guest, status);
    if (!body.name) return;
  }
  try {
    const answer = await api("/api/challenges", {method: "POST", body});
    if (guest) {
      markGuestSession();
      listen();  // the guest session's stream says when the invite is accepted
    }
    const url = new URL(answer.url || "/challenge/" + encodeURIComponent(answer.id), location.origin).href;
    $("friend-url").value = url;
    $("friend-link").hidden = false;
    status.textContent = t("Send this link to a friend: whoever opens it first takes the other seat.");
    try {
      await navigator.clipboard.writeText(url);
      status.textContent = t("The invite link is copied. Send it to a friend: whoever opens it first takes the other seat.");
    } catch (err) { /* the link stays in sight to copy by hand */ }
    showPending();
  } catch (err) {
    status.textContent = err.message;
  }
}

async function copyInvite() {
  const input = $("friend-url");
  try {
    await navigator.clipboard.writeText(input.value);
    $("friend-status").textContent = t("The invite link is copied.");
  } catch (err) {
    input.select();
  }
}

for (const b of document.querySelectorAll(".computer-game")) b.addEventListener("click", () => playComputer(b));
if ($("friend-guest-name")) $("friend-guest-name").value = guestName();
if ($("friend-form")) {
  $("friend-form").addEventListener("submit", (event) => {
    if ($("friend-name")) challenge(event);
    else event.preventDefault();
  });
  if ($("friend-invite")) $("friend-invite").addEventListener("click", invite);
  if ($("friend-copy")) $("friend-copy").addEventListener("click", copyInvite);
}
