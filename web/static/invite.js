/* An invite link's page (/challenge/<id>, CONTRACT "The first ten minutes"): whoever opens it accepts the invite —
   an account as itself, a guest under the name they type (the server then gives this browser a guest session) —
   and goes to the board, in the seat the invite left for them. */
import {api} from "./api.js";
import {signedIn} from "./accounts.js";
import {guestName, markGuestSession, typedName} from "./guest.js";
import {openGame} from "./notices.js";
import {t} from "./i18n.js";
import {describe} from "./challenges.js";

const root = document.getElementById("invite");
const form = document.getElementById("invite-form");
const error = document.getElementById("invite-error");
const nameInput = document.getElementById("invite-name");

if (nameInput) nameInput.value = guestName();

/** What the invite is: who sends it, the game, its clock and the side of whoever accepts. */
async function show() {
  try {
    const invite = await api(`/api/challenges/${encodeURIComponent(root.dataset.challenge)}`);
    document.getElementById("invite-what").textContent = t("{name} invites you to play: {what}.",
                                                           {name: invite.from, what: await describe(invite, false)});
  } catch (err) {
    if (err.status === 404) {
      error.textContent = t("This invitation is no longer open: it was accepted, cancelled, or it lapsed after a day.");
      document.getElementById("invite-accept").disabled = true;
    }
  }
}

show();

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  error.textContent = "";
  const body = {};
  if (!signedIn()) {
    body.name = typedName(nameInput, error);
    if (!body.name) return;
  }
  const accept = document.getElementById("invite-accept");
  accept.disabled = true;
  try {
    const answer = await api(`/api/challenges/${encodeURIComponent(root.dataset.challenge)}/accept`,
                             {method: "POST", body});
    if (!signedIn()) markGuestSession();
    await openGame(answer.game);
  } catch (err) {
    error.textContent = err.status === 404
      ? t("This invitation is no longer open: it was accepted, cancelled, or it lapsed after a day.")
      : err.message;
    accept.disabled = false;
  }
});
