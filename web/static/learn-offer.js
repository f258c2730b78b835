/* The front page's tutorial offer (#learn-offer, templates/learn_offer.html): shown to whoever has not played
   yet — no game kept in this browser (its seat tokens) and, signed in, no game of the account. */
import {api} from "./api.js";

const offer = document.getElementById("learn-offer");

function playedHere() {
  try {
    for (let i = 0; i < localStorage.length; i += 1) {
      if ((localStorage.key(i) || "").startsWith("burrow:tokens:")) return true;
    }
  } catch (err) { /* no storage: nothing played here that we know of */ }
  return false;
}

async function show() {
  if (!offer || playedHere()) return;
  if (document.querySelector(".account-menu .me")) {
    try {
      const mine = await api("/api/me/games?limit=1");
      if (mine.games.length) return;
    } catch (err) {
      return;
    }
  }
  offer.hidden = false;
}

show();
