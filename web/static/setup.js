/* Fairness of hidden information: a game whose seed or starting position its creator chose says so on the page.
   The creator may then know cards, draws or dice the others cannot see; such a game counts for no rating. */

function text(doc, held) {
  const setup = doc.setup;
  if (!setup || (setup.seed === null && !setup.position)) return "";
  const what = [];
  if (setup.seed !== null) what.push(`the random seed (${setup.seed})`);
  if (setup.position) what.push("the starting position");
  const chosen = what.join(" and ");
  if (setup.by !== null && held.length && held.every((seat) => seat === setup.by)) {
    return `You chose ${chosen} of this game: the other players are warned, and the game is unrated.`;
  }
  const player = (doc.players || [])[setup.by];
  const who = setup.by === null ? "The creator" : `${(player && player.name) || "The creator"} (seat ${setup.by})`;
  // A seed fixes every draw and die; a position (in any game, Murus included) may be one its creator studied.
  const why = setup.seed !== null ? "so they may know hidden cards, draws or dice before they happen"
    : "which they may have studied in advance (a winning line, or hidden cards they placed)";
  return `Warning: ${who} chose ${chosen} of this game, ${why}. This game is unrated.`;
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
