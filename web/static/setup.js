/* Fairness of hidden information: a game whose seed or starting position its creator chose says so on the page.
   The creator may then know cards, draws or dice the others cannot see; such a game counts for no rating. */

import {t} from "./i18n.js";

function text(doc, held) {
  const setup = doc.setup;
  if (!setup || (setup.seed === null && !setup.position)) return "";
  const seed = setup.seed !== null;
  const mine = setup.by !== null && held.length && held.every((seat) => seat === setup.by);
  if (mine) {
    if (seed && setup.position) {
      return t("You chose the random seed ({seed}) and the starting position of this game: the other players are " +
               "warned, and the game is unrated.", {seed: setup.seed});
    }
    return seed ? t("You chose the random seed ({seed}) of this game: the other players are warned, and the game " +
                    "is unrated.", {seed: setup.seed})
      : t("You chose the starting position of this game: the other players are warned, and the game is unrated.");
  }
  const seated = (doc.players || [])[setup.by];
  const who = (seated && seated.name) || t("The creator");
  // A seed fixes every draw and die; a position (in any game, Murus included) may be one its creator studied.
  if (seed && setup.position) {
    return t("Warning: {player} chose the random seed ({seed}) and the starting position of this game, so they " +
             "may know hidden cards, draws or dice before they happen. This game is unrated.",
             {player: who, seed: setup.seed});
  }
  if (seed) {
    return t("Warning: {player} chose the random seed ({seed}) of this game, so they may know hidden cards, draws " +
             "or dice before they happen. This game is unrated.", {player: who, seed: setup.seed});
  }
  return t("Warning: {player} chose the starting position of this game, which they may have studied in advance " +
           "(a winning line, or hidden cards they placed). This game is unrated.", {player: who});
}

/** Show (or hide) the warning for ``doc``, seen by the seats ``held`` on this screen. */
function warn(doc, held) {
  let box = document.getElementById("setup-warning");
  const message = text(doc, held || []);
  if (!box) {
    if (!message) return;
    const top = document.querySelector(".game .top");
    if (!top) return;
    box = document.createElement("p");
    box.id = "setup-warning";
    box.className = "setup-warning message";
    box.setAttribute("role", "note");
    top.appendChild(box);
  }
  box.textContent = message;
  box.hidden = !message;
}

export {warn, text};
