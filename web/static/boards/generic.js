/* The generic board: a readable dump of the public state. Every game is playable with it together with the
   frame's list of legal commands and its text box, even before the game's own board is drawn. */
import {html} from "../dom.js";
import {t} from "../i18n.js";

function describe(value) {
  if (value === null || value === undefined) return "—";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

function render(container, doc) {
  const state = doc.state || {};
  html("p", "note", t("This game has no drawn board yet; here is its state, and every possible move below."),
       container);
  const list = html("dl", "generic-state", null, container);
  for (const [key, value] of Object.entries(state)) {
    html("dt", "", key, list);
    const dd = html("dd", "", null, list);
    html("code", "", describe(value), dd);
  }
}

export {render};
