/* A guest in this browser: the name they last played under (kept in localStorage), and whether the server gave
   this browser a guest session (a guest seek or an invite accepted: CONTRACT "The first ten minutes"), so that the
   pages ask for the guest's seats (GET /api/me/games) only where there may be some. */

import {t} from "./i18n.js";

const NAME = "burrow:name";
const SESSION = "burrow:guest-session";

/** The name this browser's guest last played under ("" when none). */
export function guestName() {
  try {
    return localStorage.getItem(NAME) || "";
  } catch (err) {
    return "";
  }
}

/** Keep ``name`` as the guest's name for next time. */
export function rememberName(name) {
  try {
    localStorage.setItem(NAME, name);
  } catch (err) {
    // No storage: the name is asked again next time.
  }
}

/** This browser holds a guest session now (its cookie is HttpOnly: the page keeps a note of it). */
export function markGuestSession() {
  try {
    localStorage.setItem(SESSION, "1");
  } catch (err) { /* no storage: the seat's token is kept with the game anyway */ }
}

/** Whether this browser may hold a guest session. */
export function mayHaveGuestSession() {
  try {
    return localStorage.getItem(SESSION) === "1";
  } catch (err) {
    return false;
  }
}

/** The name typed in ``input``, remembered for next time; or null, the player told (in ``status``) to type one
    first and the input focused. */
export function typedName(input, status) {
  const name = input.value.trim();
  if (!name) {
    status.textContent = t("Type your name first: the other player sees it.");
    input.focus();
    return null;
  }
  rememberName(name);
  return name;
}
