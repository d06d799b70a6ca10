// The tree: Graphviz's SVG, made inert (sanitise.js), or for a big tree the server's layout painted on a canvas
// (tree-canvas.js), with pan, zoom, a steady anchor across updates and the selected coordinator marked.
import { $ } from "./dom.js";
import { elementId, idOfElement, isNodeElement } from "./ids.js";
import { inertSvg } from "./sanitise.js";
import { nodeById, state } from "./state.js";
import { boxNamed, dropLayout, isCanvasShown, layoutSize, nameAt, paint, paintSoon, titlePoints, useLayout } from "./tree-canvas.js";
import { tooltipOnHover, tooltipText } from "./tooltips.js";

// `picture` is SVG text, or a layout (/api/layout) to paint on a canvas.
export function showTree(picture, seq) {
  if (typeof picture === "object" && picture) { showLayout(picture, seq); return; }
  const svg = inertSvg(picture);
  if (!svg) return;
  dropLayout();
  const tree = $("tree");
  tree.dataset.picture = "svg";
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
  const waiting = state.centreWhenDrawn != null && tree.querySelector("#" + CSS.escape(elementId(state.centreWhenDrawn)));
  if (waiting) { state.centreWhenDrawn = null; markSelection(); zoomTo(idOfElement(waiting.id)); return; }
  state.centreWhenDrawn = null;
  // Until the user moves the view, a picture that grows stays fitted, so a leak that appears is in sight.
  if (!state.moved) fit();
  // The first picture of a view the address restored: its zoom as it was.
  else if (!before) applyView();
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

// A layout on the canvas, kept fitted, restored or about the selection as an SVG picture is. No anchor across
// updates: a big tree's layout keeps its nodes in place as it grows.
function showLayout(layout, seq) {
  const tree = $("tree");
  tree.replaceChildren();
  tree.classList.remove("compact", "far");
  tree.style.transform = "";
  tree.dataset.run = state.run;
  tree.dataset.seq = seq == null ? "" : seq;
  tree.dataset.picture = "canvas";
  const count = layout.nodes.filter((node) => isNodeElement(node[0])).length;
  useLayout(layout, $("viewport"), `Coordinator tree picture, ${count.toLocaleString("en")} coordinators; `
    + "the outline lists them for the keyboard and screen readers");
  const waiting = state.centreWhenDrawn != null && boxNamed(elementId(state.centreWhenDrawn));
  const centre = state.centreWhenDrawn;
  state.centreWhenDrawn = null;
  if (waiting) zoomTo(centre);
  else if (!state.moved) fit();
  else applyView();
}

// The picture is a tree for assistive technology: each coordinator (and each summary, which Enter opens) a tree item
// named by what it shows (type, id, screen, verdict). One Tab stop, the selected coordinator or the first: the arrow
// keys walk on from it as in the outline, so a picture of 5,000 is not 5,000 stops. Attributes only: nothing is
// measured, so no layout.
function focusable(svg) {
  svg.setAttribute("role", "tree");
  svg.setAttribute("aria-label", "Coordinator tree picture; arrow keys walk it, Enter picks");
  let first = true;
  for (const node of svg.querySelectorAll("g.node")) {
    const summary = isSummaryElement(node.id);
    if (!isNodeElement(node.id) && !summary) continue;
    node.setAttribute("tabindex", first ? "0" : "-1");
    first = false;
    node.setAttribute("role", "treeitem");
    node.setAttribute("aria-selected", "false");
    // Texts on one line are one phrase.
    const lines = new Map();
    for (const text of node.querySelectorAll("text")) {
      const y = text.getAttribute("y");
      lines.set(y, ((lines.get(y) ?? "") + " " + text.textContent.trim()).trim());
    }
    node.setAttribute("aria-label", (summary ? "summary, Enter opens it: " : "") + [...lines.values()].filter(Boolean).join(", "));
  }
  describeReasons(svg);
}
// A box says its verdict alone (its reason, a sentence with a call site, made a fitted picture unreadable); the reason
// is each judged box's accessible description, from the model, when the model is here or arrives.
export function describeReasons(svg = $("tree").querySelector("svg")) {
  if (!svg || !state.model) return;
  for (const box of svg.querySelectorAll("g.node:not(.verdict-alive)")) {
    const node = isNodeElement(box.id) ? nodeById(idOfElement(box.id)) : null;
    if (node && node.reason) box.setAttribute("aria-description", node.reason);
  }
}
// A summary box's element: `g` and the name of its first member.
const isSummaryElement = (name) => name.startsWith("g") && isNodeElement(name.slice(1));

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
// Where a coordinator's box is on screen, as getBoundingClientRect gives it; null when the picture does not draw it.
function screenBox(id) {
  if (!isCanvasShown()) {
    const node = $("tree").querySelector("#" + CSS.escape(elementId(id)));
    return node && node.getBoundingClientRect();
  }
  const box = boxNamed(elementId(id));
  if (!box) return null;
  const viewport = $("viewport").getBoundingClientRect();
  const { x, y, k } = state.view;
  const left = viewport.left + x + (box.x - box.width / 2) * k, top = viewport.top + y + (box.y - box.height / 2) * k;
  return { left, top, width: box.width * k, height: box.height * k, right: left + box.width * k, bottom: top + box.height * k };
}
const selectedName = () => state.node == null ? null : elementId(state.node);
// The search's matches by element name, made once per search.
let matchNames = { search: null, names: new Set() };
function matchedNames() {
  if (matchNames.search !== state.search) matchNames = { search: state.search, names: new Set((state.search.matches || []).map(elementId)) };
  return matchNames.names;
}
// Below this scale the picture's 10-14 pt type is under 4 pixels high: unreadable, yet laying it out and painting it
// was most of the time a big picture took to appear (Chromium, 1,000 coordinators drawn whole: 125 of 285 ms). So
// far out the boxes and edges show alone, in their verdicts' colours, and the text comes back on zooming in.
const FAR = 1 / 3;
function applyView() {
  const { x, y, k } = state.view;
  if (isCanvasShown()) { paintSoon(state.view, selectedName(), $("viewport"), matchedNames()); return; }
  const tree = $("tree");
  tree.style.transform = `translate(${x}px, ${y}px) scale(${k})`;
  tree.classList.toggle("far", k < FAR);
}
// A view given whole (from the address): kept as the user left it.
export function setView(view) {
  state.view = { ...view };
  state.moved = true;
  applyView();
}
// The viewport changed size (a window made smaller, a phone turned, the panels rearranged at a breakpoint): a picture
// the user has not moved is fitted again, and a canvas is painted at its new size either way.
export function viewportResized() {
  if (!state.moved) fit(); else applyView();
}
export function fit() {
  state.moved = false;
  const svg = $("tree").querySelector("svg");
  if (!svg && !isCanvasShown()) return;
  const box = $("viewport").getBoundingClientRect();
  const size = svg ? { width: svg.width.baseVal.value, height: svg.height.baseVal.value } : layoutSize();
  const width = size.width || 1, height = size.height || 1;
  // 10 px either side: the picture has its own padding, and every pixel of margin is a smaller fitted title.
  const k = Math.min(2, Math.max(0.02, Math.min((box.width - 20) / width, (box.height - 20) / height)));
  state.view = { k, x: (box.width - width * k) / 2, y: Math.max(10, (box.height - height * k) / 2) };
  applyView();
}
export function centreOn(id) {
  const r = screenBox(id);
  if (!r) return;
  const box = $("viewport").getBoundingClientRect();
  state.view.x += box.left + box.width / 2 - (r.left + r.width / 2);
  state.view.y += box.top + box.height / 2 - (r.top + r.height / 2);
  applyView();
}
// Type in a picture is 10-14 pt; picking zooms until the box's title is at least this many CSS pixels and its
// smallest line (the id and screen) at least the least readable size, never zooming out. A box then wider or taller
// than the view is shown from its top left corner, so its text starts in sight, rather than fitted.
const READABLE_PX = 11, LEAST_READABLE_PX = 9, MARGIN = 20;
// Brings a coordinator into the view at a size its labels read at, and keeps the view there.
export function zoomTo(id) {
  const canvas = isCanvasShown();
  const node = canvas ? null : $("tree").querySelector("#" + CSS.escape(elementId(id)));
  const svg = $("tree").querySelector("svg");
  if (canvas ? !boxNamed(elementId(id)) : !node || !svg) return false;
  const texts = canvas ? [] : [...node.querySelectorAll("text")];
  const units = canvas ? 1 : svg.viewBox.baseVal && svg.viewBox.baseVal.width;
  const box = $("viewport").getBoundingClientRect();
  if ((texts.length || canvas) && units) {
    const perUnit = canvas ? state.view.k : svg.getBoundingClientRect().width / units;
    // The canvas writes every line in one size.
    const sizes = canvas ? [titlePoints * perUnit] : texts.map((text) => Number(text.getAttribute("font-size") || 14) * perUnit);
    const titlePx = Math.max(...sizes), smallestPx = Math.min(...sizes);
    const wanted = Math.max(READABLE_PX / titlePx, LEAST_READABLE_PX / smallestPx);
    if (titlePx > 0 && wanted > 1) {
      const k = Math.min(8, state.view.k * wanted);
      const r = screenBox(id);
      const c = { x: r.left + r.width / 2, y: r.top + r.height / 2 };
      // Zoomed about the node, then placed below.
      const px = c.x - box.left, py = c.y - box.top;
      state.view.x = px - (px - state.view.x) * (k / state.view.k);
      state.view.y = py - (py - state.view.y) * (k / state.view.k);
      state.view.k = k;
      applyView();
    }
  }
  const r = screenBox(id);
  const dx = r.width > box.width - 2 * MARGIN ? box.left + MARGIN - r.left : box.left + box.width / 2 - (r.left + r.width / 2);
  const dy = r.height > box.height - 2 * MARGIN ? box.top + MARGIN - r.top : box.top + box.height / 2 - (r.top + r.height / 2);
  state.view.x += dx;
  state.view.y += dy;
  applyView();
  state.moved = true;
  return true;
}
export function markSelection() {
  if (isCanvasShown()) { applyView(); return; }
  const tree = $("tree");
  for (const node of tree.querySelectorAll("g.node.selected")) {
    node.classList.remove("selected");
    node.setAttribute("aria-selected", "false");
  }
  const node = state.node == null ? null : tree.querySelector("#" + CSS.escape(elementId(state.node)));
  if (!node) return;
  node.classList.add("selected");
  node.setAttribute("aria-selected", "true");
  // The one Tab stop moves with the selection.
  for (const stop of tree.querySelectorAll("g.node[tabindex='0']")) stop.setAttribute("tabindex", "-1");
  node.setAttribute("tabindex", "0");
}
// Whether the picture draws this coordinator as itself.
export const isDrawn = (id) => isCanvasShown() ? boxNamed(elementId(id)) != null : $("tree").querySelector("#" + CSS.escape(elementId(id))) != null;

// Drag to pan, wheel to zoom; a click that did not drag picks the coordinator under it (`pick(id)`) or opens the
// summary under it (`open(firstMemberId)`); `walk(key, id)` gives the coordinator an arrow key leads to.
export function panAndZoom(pick, open, walk) {
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
    if (!drag.moved) { drag.moved = true; state.moved = true; viewport.setPointerCapture?.(event.pointerId); viewport.classList.add("dragging"); }
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
    if (isCanvasShown() && event.target.id === "tree-canvas") {
      const box = viewport.getBoundingClientRect();
      const name = nameAt(event.clientX - box.left, event.clientY - box.top, state.view);
      if (name && isNodeElement(name)) pick(idOfElement(name));
      else if (name && isSummaryElement(name)) open(idOfElement(name.slice(1)));
      return;
    }
    const node = event.target.closest && event.target.closest("g.node");
    if (node && isNodeElement(node.id)) pick(idOfElement(node.id));
    else if (node && isSummaryElement(node.id)) open(idOfElement(node.id.slice(1)));
  });
  // Enter or Space on a focused coordinator picks it (on a summary, opens it); the arrows walk the tree as the
  // outline does, the focus following; a coordinator reached with Tab comes to the middle of the view.
  viewport.addEventListener("keydown", (event) => {
    const node = event.target.closest && event.target.closest("g.node");
    if (!node) return;
    const summary = isSummaryElement(node.id);
    if (!summary && !isNodeElement(node.id)) return;
    const id = idOfElement(summary ? node.id.slice(1) : node.id);
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      if (summary) open(id); else pick(id);
      return;
    }
    if (event.shiftKey) return;
    const next = walk(event.key, id);
    if (next == null) return;
    event.preventDefault();
    pick(next);
    const element = $("tree").querySelector("#" + CSS.escape(elementId(next)));
    if (element) element.focus();
  });
  viewport.addEventListener("focusin", (event) => {
    const node = event.target.closest && event.target.closest("g.node");
    if (!node || !isNodeElement(node.id)) return;
    const box = viewport.getBoundingClientRect(), r = node.getBoundingClientRect();
    const inside = r.left >= box.left && r.right <= box.right && r.top >= box.top && r.bottom <= box.bottom;
    if (!inside) centreOn(idOfElement(node.id));
  });
  viewport.addEventListener("pointerover", tooltipOnHover);
  // The canvas's one tooltip follows the box under the pointer: the scan is a millisecond, a frame at most.
  viewport.addEventListener("pointermove", (event) => {
    if (drag || !isCanvasShown() || event.target.id !== "tree-canvas") return;
    const box = viewport.getBoundingClientRect();
    const name = nameAt(event.clientX - box.left, event.clientY - box.top, state.view);
    const node = name && isNodeElement(name) ? nodeById(idOfElement(name)) : null;
    const text = node ? tooltipText(node) : "";
    if (event.target.title !== text) event.target.title = text;
  });
  // A canvas is as big as the view: a new size is a new painting.
  new ResizeObserver(() => { if (isCanvasShown()) paint(state.view, selectedName(), viewport, matchedNames()); }).observe(viewport);
  // Zoomed to `k` (within bounds) about the point (px, py) of the viewport, which stays where it is.
  function zoomAbout(px, py, k) {
    k = Math.min(8, Math.max(0.02, k));
    state.moved = true;
    state.view.x = px - (px - state.view.x) * (k / state.view.k);
    state.view.y = py - (py - state.view.y) * (k / state.view.k);
    state.view.k = k;
    applyView();
  }
  viewport.addEventListener("wheel", (event) => {
    event.preventDefault();
    const box = viewport.getBoundingClientRect();
    zoomAbout(event.clientX - box.left, event.clientY - box.top, state.view.k * Math.exp(-event.deltaY * 0.0015));
  }, { passive: false });
  // The keyboard's zoom and pan, from the coordinator that has the focus (the picture's one tab stop): + and - zoom
  // about the middle, Shift and an arrow pan (an arrow alone walks the tree).
  viewport.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const box = viewport.getBoundingClientRect();
    if (event.key === "+" || event.key === "=" || event.key === "-") {
      event.preventDefault();
      zoomAbout(box.width / 2, box.height / 2, state.view.k * (event.key === "-" ? 0.8 : 1.25));
      return;
    }
    const by = { ArrowLeft: [60, 0], ArrowRight: [-60, 0], ArrowUp: [0, 60], ArrowDown: [0, -60] }[event.key];
    if (!by || !event.shiftKey) return;
    event.preventDefault();
    state.moved = true;
    state.view.x += by[0];
    state.view.y += by[1];
    applyView();
  });
}
