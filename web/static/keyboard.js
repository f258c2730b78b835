/* Keyboard play on every drawn board: its cells (the [data-key] groups of the board's SVG: Murus' cells, Mouse
   Guard's points and strongholds, Squirrels' cards) are one stop of the Tab key, not one per piece; the arrow keys
   move a cursor from cell to cell as they lie on the screen (so also on a turned board), Enter or Space selects
   and plays (a target's own handler, dom.js "activate"), and on a cell that does nothing says why (the page's
   explanation of a click). game.js calls bind once and prepare after each drawing. */
import {el} from "./dom.js";

const CELLS = "svg [data-key]";
let keyboardLast = false;  // the board was last reached by a key (Tab, the arrows), not by a pointer
const DIRECTIONS = {ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1]};

/** Make the cells of a fresh drawing one Tab stop: the cell with ``key`` (the cursor before the drawing), else
    the selected piece, else the first that can be played, else the first cell. */
function prepare(container, key) {
  const cells = [...container.querySelectorAll(CELLS)];
  if (!cells.length) return;
  const current = (key && cells.find((c) => c.getAttribute("data-key") === key)) ||
    cells.find((c) => c.getAttribute("aria-pressed") === "true") ||
    cells.find((c) => c.getAttribute("role") === "button") || cells[0];
  for (const cell of cells) cell.setAttribute("tabindex", cell === current ? "0" : "-1");
}

function centre(node) {
  const box = node.getBoundingClientRect();
  return {x: box.left + box.width / 2, y: box.top + box.height / 2};
}

/** The cell nearest to ``from`` in direction [dx, dy] on the screen (ahead first, then least off the line). */
function nearest(cells, from, [dx, dy]) {
  const here = centre(from);
  let best = null;
  let bestScore = Infinity;
  for (const cell of cells) {
    if (cell === from) continue;
    const there = centre(cell);
    const ahead = (there.x - here.x) * dx + (there.y - here.y) * dy;
    if (ahead < 2) continue;
    const aside = Math.abs((there.x - here.x) * dy) + Math.abs((there.y - here.y) * dx);
    const score = ahead + 2 * aside;
    if (score < bestScore) {
      best = cell;
      bestScore = score;
    }
  }
  return best;
}

/** The cursor's outline on a cell without a focus ring of its own. */
function outline(cell) {
  const svg = cell.ownerSVGElement;
  if (!svg) return;
  for (const old of svg.querySelectorAll(".key-cursor")) old.remove();
  if (cell.querySelector(".focus-ring") || !cell.matches(":focus-visible")) return;
  const box = cell.getBBox();
  el("rect", {x: box.x - 2, y: box.y - 2, width: box.width + 4, height: box.height + 4, rx: 4,
              class: "key-cursor"}, svg);
}

/** Arrow keys, Enter and Space on the board ``container``; ``explain(node)``: why a cell does nothing. */
function bind(container, explain) {
  document.addEventListener("keydown", (event) => { if (event.key === "Tab") keyboardLast = true; }, true);
  document.addEventListener("pointerdown", () => { keyboardLast = false; }, true);
  container.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const cell = event.target && event.target.closest ? event.target.closest(CELLS) : null;
    if (!cell || !container.contains(cell)) return;
    // A cell focused by a click leaves the arrow keys to the replay (replay.js); one reached by the keyboard is
    // the cursor.
    if (!keyboardLast) return;
    const direction = DIRECTIONS[event.key];
    if (direction) {
      event.preventDefault();  // the replay's arrow keys (replay.js) leave a key the board used alone
      const next = nearest([...container.querySelectorAll(CELLS)], cell, direction);
      if (next) {
        cell.setAttribute("tabindex", "-1");
        next.setAttribute("tabindex", "0");
        next.focus();
      }
    } else if ((event.key === "Enter" || event.key === " ") && cell.getAttribute("role") !== "button") {
      event.preventDefault();
      explain(cell);
    }
  });
  container.addEventListener("focusin", (event) => {
    const cell = event.target && event.target.closest ? event.target.closest(CELLS) : null;
    if (cell) outline(cell);
  });
  container.addEventListener("focusout", (event) => {
    const svg = event.target && event.target.ownerSVGElement;
    if (svg) for (const old of svg.querySelectorAll(".key-cursor")) old.remove();
  });
}

export {bind, prepare};
