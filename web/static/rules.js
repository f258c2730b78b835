/* Rules at hand: the short summary of each game comes from the game catalog (catalog.js, its "rules"); the
   longer help with its pictures is in the page (templates/rules/<lang>/<game>.html). A link or button with
   data-open="<id>" opens the <dialog> (over the board) or the <details> it points to; data-close closes a dialog. Without a catalog the summary line stays hidden and the help is still there. */
import {load} from "./catalog.js";

/** Fill every [data-game] summary element (class rules-summary) from the catalog. */
async function fill() {
  const games = await load();
  for (const node of document.querySelectorAll(".rules-summary[data-game]")) {
    const entry = games.get(node.dataset.game);
    node.textContent = entry && entry.rules ? entry.rules : "";
    node.hidden = !node.textContent;
  }
}

for (const opener of document.querySelectorAll("[data-open]")) {
  opener.addEventListener("click", (event) => {
    const target = document.getElementById(opener.dataset.open);
    if (!target) return;
    if (target.tagName === "DIALOG") {  // the game page's rules: over the board
      event.preventDefault();
      if (!target.open) target.showModal();
    } else if (target.tagName === "DETAILS") {
      target.open = true;
    }
  });
}
for (const closer of document.querySelectorAll("[data-close]")) {
  closer.addEventListener("click", () => {
    const dialog = document.getElementById(closer.dataset.close);
    if (dialog && dialog.open) dialog.close();
  });
}
for (const dialog of document.querySelectorAll("dialog")) {
  dialog.addEventListener("click", (event) => {  // a click on the backdrop (outside the box) closes it
    const box = dialog.getBoundingClientRect();
    const outside = event.clientX < box.left || event.clientX > box.right || event.clientY < box.top ||
      event.clientY > box.bottom;
    if (outside && event.target === dialog) dialog.close();
  });
}
fill();
export {fill};
