// Lifetimes over time: one row per coordinator, rows ordered (and headed) by type path so many of one kind sit
// together; a bar from add to deinit (or to the time judged), the part after it was done and still alive drawn in its
// verdict's colour, marks as vertical lines. Only the rows in view are in the document (virtualised), so 5,000
// coordinators stay quick. A bar's click selects the coordinator as a tree click does. Reads `state.model`; every
// text goes through textContent.
import { selectNode } from "./details.js";
import { shown as visibleText, svgElement as svg } from "./dom.js";
import { elementId } from "./ids.js";
import { onChange, state, nodesById } from "./state.js";

const ROW = 18, LABEL = 260, OVERSCAN = 10;
let shown = false, rows = [], scale = null, lastModel = null;

// Rows: a header per type path, then its coordinators in the order added.
function layout(model) {
  const byId = nodesById(model);
  const pathOf = new Map();
  function path(node) {
    const key = node.id;
    if (pathOf.has(key)) return pathOf.get(key);
    pathOf.set(key, node.type); // a cycle, should one slip through, ends here
    const parentId = node.parent ?? node.removedFrom;
    const parent = parentId == null ? null : byId.get(parentId);
    const value = parent ? path(parent) + "/" + node.type : node.type;
    pathOf.set(key, value);
    return value;
  }
  const groups = new Map();
  for (const node of model.nodes) {
    const key = path(node);
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(node);
  }
  const result = [];
  for (const key of [...groups.keys()].sort()) {
    const members = groups.get(key).sort((a, b) => a.addedAt - b.addedAt);
    const retained = members.filter((node) => node.verdict === "retained").length;
    result.push({ header: key, count: members.length, retained });
    for (const node of members) result.push({ node });
  }
  return result;
}

function draw() {
  const pane = document.getElementById("lifetimes");
  const model = lastModel;
  if (!pane || !model) return;
  const body = pane.querySelector(".lifetimes-body");
  const end = Math.max(model.evaluatedAt || 0, ...model.marks.map((mark) => mark.time || 0), 0.001);
  const width = Math.max(200, body.clientWidth - LABEL - 16);
  scale = (time) => LABEL + (Math.max(0, time) / end) * width;
  const first = Math.max(0, Math.floor(body.scrollTop / ROW) - OVERSCAN);
  const last = Math.min(rows.length, Math.ceil((body.scrollTop + body.clientHeight) / ROW) + OVERSCAN);
  const picture = svg("svg", { width: LABEL + width + 16, height: rows.length * ROW, class: "lifetimes-svg" });
  for (const mark of model.marks) {
    const x = scale(mark.time);
    const line = svg("line", { x1: x, x2: x, y1: 0, y2: rows.length * ROW, class: "mark" });
    const title = svg("title");
    title.textContent = visibleText(`${mark.label} (${mark.time.toFixed(2)} s)`);
    line.append(title);
    picture.append(line);
  }
  for (let index = first; index < last; index++) {
    const row = rows[index], y = index * ROW;
    if (row.header) {
      const text = svg("text", { x: 4, y: y + ROW - 5, class: "group" });
      text.textContent = visibleText(`${row.header}`) + ` ×${row.count}` + (row.retained ? ` (${row.retained} retained)` : "");
      picture.append(text);
      continue;
    }
    const node = row.node;
    const stop = node.deinitAt ?? model.evaluatedAt;
    // Focusable and a button to assistive technology, so a row is chosen from the keyboard as with the mouse.
    const group = svg("g", { class: `life verdict-${node.verdict}`, "data-id": String(node.id), id: "life-" + elementId(node.id), tabindex: 0, role: "button" });
    const label = svg("text", { x: 16, y: y + ROW - 5, class: "name" });
    label.textContent = visibleText(`${node.type}#${node.id}`);
    const bar = svg("rect", { x: scale(node.addedAt), y: y + 4, width: Math.max(1, scale(stop) - scale(node.addedAt)), height: ROW - 8, class: "alive" });
    group.append(label, bar);
    if (node.doneAt != null && (node.deinitAt == null || node.deinitAt > node.doneAt)) {
      group.append(svg("rect", { x: scale(node.doneAt), y: y + 4, width: Math.max(1, scale(stop) - scale(node.doneAt)), height: ROW - 8, class: "after-done" }));
    }
    const title = svg("title");
    title.textContent = visibleText(`${node.type}#${node.id}`) + `: added ${node.addedAt.toFixed(2)} s` + (node.doneAt != null ? `, done ${node.doneAt.toFixed(2)} s` : "")
      + (node.deinitAt != null ? `, freed ${node.deinitAt.toFixed(2)} s` : ", not freed") + ` · ${node.verdict}`;
    group.append(title);
    group.addEventListener("click", () => selectNode(node.id, true));
    group.addEventListener("keydown", (event) => {
      if (event.key !== "Enter" && event.key !== " ") return;
      event.preventDefault();
      selectNode(node.id, true);
    });
    picture.append(group);
  }
  body.replaceChildren(picture);
  // replaceChildren resets nothing of the scroll position: the body keeps its own.
}

function open() {
  let pane = document.getElementById("lifetimes");
  if (!pane) {
    pane = document.createElement("div");
    pane.id = "lifetimes";
    const heading = document.createElement("div");
    heading.className = "lifetimes-head";
    heading.textContent = "Lifetimes: a bar from add to deinit; after done and still alive in its verdict's colour; marks as lines";
    const body = document.createElement("div");
    body.className = "lifetimes-body";
    let pending = false;
    body.addEventListener("scroll", () => {
      if (pending) return;
      pending = true;
      requestAnimationFrame(() => { pending = false; draw(); });
    });
    pane.append(heading, body);
    document.getElementById("viewport").after(pane);
  }
  document.getElementById("viewport").style.display = "none";
  pane.hidden = false;
  refresh(true);
}

function close() {
  const pane = document.getElementById("lifetimes");
  if (pane) pane.hidden = true;
  document.getElementById("viewport").style.display = "";
}

// Lays the rows out again when the model changed, then draws the rows in view.
function refresh(force) {
  const model = state.model;
  if (!shown || !model || !model.nodes) return;
  if (force || model !== lastModel) {
    lastModel = model;
    rows = layout(model);
  }
  draw();
}

// For `make bench`: lays out and draws `model` and returns the milliseconds it took, painted.
const lifetimesBench = (model) => new Promise((resolve) => {
  const start = performance.now();
  state.model = model;
  shown = true;
  open();
  requestAnimationFrame(() => resolve(performance.now() - start));
});

// The toolbar's Lifetimes button, and the bench's way in (`window.lensLifetimesBench`).
export function addLifetimesButton() {
  window.lensLifetimesBench = lifetimesBench;
  const toolbar = document.querySelector(".stage .toolbar");
  if (!toolbar) return;
  const button = document.createElement("button");
  button.type = "button";
  button.id = "show-lifetimes";
  button.title = "Switch between the tree and the coordinators' lifetimes over time";
  button.textContent = "Lifetimes";
  button.setAttribute("aria-pressed", "false");
  button.addEventListener("click", () => {
    shown = !shown;
    button.setAttribute("aria-pressed", String(shown));
    if (shown) open(); else close();
  });
  toolbar.append(button);
  // Follow each new model while the lifetimes are shown.
  onChange("model", () => refresh(false));
}
