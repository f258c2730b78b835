/* Shared DOM helpers of the pages and the board modules: SVG and DOM built with createElementNS / textContent only
   (the page's Content-Security-Policy forbids inline scripts and styles; user text is never parsed as HTML). */
const NS = "http://www.w3.org/2000/svg";

function el(tag, attrs, parent) {
  const node = document.createElementNS(NS, tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value !== undefined && value !== null && value !== false) node.setAttribute(name, String(value));
  }
  if (parent) parent.appendChild(node);
  return node;
}

/** An <svg> scaled to its container, labelled for screen readers. */
function svg(width, height, label, parent) {
  const node = el("svg", {viewBox: `0 0 ${width} ${height}`, role: "group", "aria-label": label,
                           class: "board-svg", preserveAspectRatio: "xMidYMid meet"}, parent);
  return node;
}

function text(parent, x, y, content, cls, extra) {
  const node = el("text", Object.assign({x, y, class: cls}, extra || {}), parent);
  node.textContent = content;
  return node;
}

function title(parent, content) {
  const node = el("title", {}, parent);
  node.textContent = content;
  return node;
}

/** Label a drawn thing for screen readers (and as a tooltip) when it is not a button. */
function picture(node, label) {
  node.setAttribute("role", "img");
  node.setAttribute("aria-label", label);
  title(node, label);
  return node;
}

/** Make an SVG element a keyboard-usable button: focusable, labelled, Enter/Space activate it. */
function activate(node, label, handler, pressed) {
  node.setAttribute("tabindex", "0");
  node.setAttribute("role", "button");
  node.setAttribute("aria-label", label);
  title(node, label);
  if (pressed !== undefined) node.setAttribute("aria-pressed", pressed ? "true" : "false");
  node.classList.add("target");
  node.addEventListener("click", (event) => { event.preventDefault(); handler(); });
  node.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") { event.preventDefault(); handler(); }
  });
  return node;
}

/** An HTML element with text content (set as text, never parsed as HTML). */
function html(tag, cls, content, parent) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (content !== undefined && content !== null) node.textContent = String(content);
  if (parent) parent.appendChild(node);
  return node;
}

function button(label, handler, cls, parent) {
  const node = html("button", cls || "", label, parent);
  node.type = "button";
  node.addEventListener("click", handler);
  return node;
}

/** Put keyboard focus back on the element with this data-key after a redraw (so keyboard play flows). */
function refocus(container, key) {
  if (!key) return;
  const node = container.querySelector(`[data-key="${CSS.escape(key)}"]`);
  if (node) node.focus();
}

/** The corner of the page where notifications and open challenges are shown (made on first use). */
function noticeRegion() {
  let box = document.getElementById("notices");
  if (!box) {
    box = html("div", "notices", null, document.body);
    box.id = "notices";
    box.setAttribute("role", "status");
    box.setAttribute("aria-live", "polite");
  }
  return box;
}

export {NS, el, svg, text, title, picture, activate, html, button, refocus, noticeRegion};
