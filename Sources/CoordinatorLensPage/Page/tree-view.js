// The tree: Graphviz's SVG, made inert (sanitise.js), with pan, zoom, a steady anchor across updates and the selected
// coordinator marked.
import { $ } from "./dom.js";
import { elementId, idOfElement, isNodeElement } from "./ids.js";
import { inertSvg } from "./sanitise.js";
import { state } from "./state.js";
import { tooltipOnHover } from "./tooltips.js";

export function showTree(text, seq) {
  const svg = inertSvg(text);
  if (!svg) return;
  const tree = $("tree");
  const anchor = anchorNode();
  const before = anchor && screenCentre(anchor);
  // Moved, not copied: importNode would clone every element once more.
  // Only a picture the server drew with compact boxes (Show all of over 500) leaves its text out far out: a small
  // one's text is what it is there for, and costs nothing to lay out.
  tree.classList.toggle("compact", svg.querySelector(":scope > g.graph.compact") != null);
  focusable(svg);
  tree.replaceChildren(document.adoptNode(svg));
  tree.dataset.run = state.run;
  tree.dataset.seq = seq == null ? "" : seq;
  if (!state.fitted) { fit(); state.fitted = true; }
  else if (before) {
    const after = tree.querySelector("#" + CSS.escape(anchor.id));
    if (after) {
      const moved = screenCentre(after);
      state.view.x += before.x - moved.x;
      state.view.y += before.y - moved.y;
      applyView();
    }
  }
  markSelection();
}

// Every coordinator in the picture is a stop for Tab, named by what it shows (type, id, screen, verdict), so the tree
// is read and used from the keyboard as with the mouse. Attributes only: nothing is measured, so no layout.
function focusable(svg) {
  for (const node of svg.querySelectorAll("g.node")) {
    if (!isNodeElement(node.id)) continue;
    node.setAttribute("tabindex", "0");
    node.setAttribute("role", "button");
    const lines = [...node.querySelectorAll("text")].map((text) => text.textContent.trim()).filter(Boolean);
    node.setAttribute("aria-label", lines.join(", "));
  }
}

// The node to keep still on screen across an update: the selected one, else the one under the middle of the view,
// else the first root. Found without measuring every node, which would lay out the whole picture.
function anchorNode() {
  const tree = $("tree");
  if (state.node != null) {
    const selected = tree.querySelector("#" + CSS.escape(elementId(state.node)));
    if (selected) return selected;
  }
  const box = $("viewport").getBoundingClientRect();
  const under = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  const node = under && under.closest && under.closest("#tree g.node");
  if (node && isNodeElement(node.id)) return node;
  const root = state.model && state.model.roots.length ? tree.querySelector("#" + CSS.escape(elementId(state.model.roots[0]))) : null;
  return root || tree.querySelector("g.node");
}
function screenCentre(node) {
  const r = node.getBoundingClientRect();
  return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
}
// Below this scale the picture's 10-14 pt type is under 4 pixels high: unreadable, yet laying it out and painting it
// was most of the time a big picture took to appear (Chromium, 1,000 coordinators drawn whole: 125 of 285 ms). So
// far out the boxes and edges show alone, in their verdicts' colours, and the text comes back on zooming in.
const FAR = 1 / 3;
function applyView() {
  const { x, y, k } = state.view;
  const tree = $("tree");
  tree.style.transform = `translate(${x}px, ${y}px) scale(${k})`;
  tree.classList.toggle("far", k < FAR);
}
export function fit() {
  const svg = $("tree").querySelector("svg");
  if (!svg) return;
  const box = $("viewport").getBoundingClientRect();
  const width = svg.width.baseVal.value || 1, height = svg.height.baseVal.value || 1;
  const k = Math.min(2, Math.max(0.02, Math.min((box.width - 40) / width, (box.height - 40) / height)));
  state.view = { k, x: (box.width - width * k) / 2, y: Math.max(20, (box.height - height * k) / 2) };
  applyView();
}
export function centreOn(id) {
  const node = $("tree").querySelector("#" + CSS.escape(elementId(id)));
  if (!node) return;
  const box = $("viewport").getBoundingClientRect();
  const c = screenCentre(node);
  state.view.x += box.left + box.width / 2 - c.x;
  state.view.y += box.top + box.height / 2 - c.y;
  applyView();
}
export function markSelection() {
  for (const node of $("tree").querySelectorAll("g.node.selected")) node.classList.remove("selected");
  if (state.node == null) return;
  const node = $("tree").querySelector("#" + CSS.escape(elementId(state.node)));
  if (node) node.classList.add("selected");
}

// Drag to pan, wheel to zoom; a click that did not drag picks the coordinator under it (`pick(id)`).
export function panAndZoom(pick) {
  const viewport = $("viewport");
  let drag = null;
  viewport.addEventListener("pointerdown", (event) => {
    if (event.button !== 0) return;
    drag = { x: event.clientX, y: event.clientY, moved: false, start: { ...state.view } };
  });
  window.addEventListener("pointermove", (event) => {
    if (!drag) return;
    const dx = event.clientX - drag.x, dy = event.clientY - drag.y;
    if (!drag.moved && Math.abs(dx) + Math.abs(dy) < 4) return;
    if (!drag.moved) { drag.moved = true; viewport.setPointerCapture?.(event.pointerId); viewport.classList.add("dragging"); }
    state.view.x = drag.start.x + dx;
    state.view.y = drag.start.y + dy;
    applyView();
  });
  window.addEventListener("pointerup", (event) => {
    if (!drag) return;
    const wasDrag = drag.moved;
    drag = null;
    viewport.classList.remove("dragging");
    if (wasDrag) return;
    const node = event.target.closest && event.target.closest("g.node");
    if (node && isNodeElement(node.id)) pick(idOfElement(node.id));
  });
  // Enter or Space on a focused coordinator picks it; a coordinator reached with Tab comes to the middle of the view.
  viewport.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    const node = event.target.closest && event.target.closest("g.node");
    if (!node || !isNodeElement(node.id)) return;
    event.preventDefault();
    pick(idOfElement(node.id));
  });
  viewport.addEventListener("focusin", (event) => {
    const node = event.target.closest && event.target.closest("g.node");
    if (!node || !isNodeElement(node.id)) return;
    const box = viewport.getBoundingClientRect(), r = node.getBoundingClientRect();
    const inside = r.left >= box.left && r.right <= box.right && r.top >= box.top && r.bottom <= box.bottom;
    if (!inside) centreOn(idOfElement(node.id));
  });
  viewport.addEventListener("pointerover", tooltipOnHover);
  viewport.addEventListener("wheel", (event) => {
    event.preventDefault();
    const box = viewport.getBoundingClientRect();
    const px = event.clientX - box.left, py = event.clientY - box.top;
    const k = Math.min(8, Math.max(0.02, state.view.k * Math.exp(-event.deltaY * 0.0015)));
    state.view.x = px - (px - state.view.x) * (k / state.view.k);
    state.view.y = py - (py - state.view.y) * (k / state.view.k);
    state.view.k = k;
    applyView();
  }, { passive: false });
}
