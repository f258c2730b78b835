/* The move confirmation of correspondence games, a choice of this device (the account page's box): a move of a
   game with a correspondence clock is sent only once the player confirms it (a slip of a finger costs a day). */

import {t} from "./i18n.js";

export const CONFIRM = "burrow:confirm-correspondence";

export function confirmMoves() {
  try {
    return localStorage.getItem(CONFIRM) === "yes";
  } catch (err) {
    return false;
  }
}

/** Whether ``move`` may be sent in the game of document ``doc``: asked when the option is on and the game's clock
    is a correspondence one. */
export function confirmed(doc, move) {
  if (!confirmMoves() || !doc || !doc.clock || !doc.clock.per_move) return true;
  return window.confirm(t("Send the move {move}?", {move}));
}
