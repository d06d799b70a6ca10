// The outline: every coordinator of the view on screen as one row, indented by depth, as React DevTools lists
// components. Virtualised (only the rows in sight are in the document, so 100,000 scroll like 100), one Tab stop (the
// tree; the selected row is its aria-activedescendant), walked with the arrow keys; picking a row selects the
// coordinator in the picture and the details, and selecting one anywhere else shows its row here.
import { $, el } from "./dom.js";
import { elementId } from "./ids.js";
import { nodesById, state } from "./state.js";
import { filtersKey, keptByFilters } from "./view-filter.js";

const ROW = 24;       // px: fixed, so a row's place is its index times this
const OVERSCAN = 8;   // rows drawn beyond the visible ones, so a fast scroll shows no gap
const collapsed = new Set();
let rows = [];        // { id, depth, hasChildren, parentRow, setsize, posinset } in display order
let rowOf = new Map();
let filter = null;    // the ids a search keeps (its matches and their ancestors), or null for every coordinator
let pick = () => {};
let builtFor = null;
let builtWith = "";   // the toolbar's filters the rows were built with (view-filter.js)
let hiddenByFilters = 0;

// The coordinators under each one as the outline nests them: attached children, and those removed but still alive
// under the parent they left, as the picture draws them; the rest are roots. Once per model: a search rebuilds the
// rows on every query, and this was a third of a keystroke's time at 100,000.
const nestings = new WeakMap();
function nesting(model) {
  if (!nestings.has(model)) nestings.set(model, nestingOf(model));
  return nestings.get(model);
}
function nestingOf(model) {
  const byId = nodesById(model);
  const children = new Map();
  const roots = [];
  for (const node of model.nodes) {
    const above = node.parent ?? node.removedFrom;
    if (above != null && byId.has(above) && above !== node.id) {
      if (!children.has(above)) children.set(above, []);
      children.get(above).push(node.id);
    } else roots.push(node.id);
  }
  return { children, roots };
}

// The rows in display order: a walk in pre-order that skips what is collapsed and, while searching, what the search
// left out. Iterative, so a path a thousand deep needs no call stack.
function build() {
  const model = state.model;
  rows = [];
  rowOf = new Map();
  builtFor = model;
  builtWith = filtersKey();
  hiddenByFilters = 0;
  if (!model) return;
  const { children, roots } = nesting(model);
  // The toolbar's filters thin the outline as they thin the picture; the selected coordinator and its path stay, so
  // a pick from a leak link or the search always has its row.
  const byFilters = keptByFilters(model);
  const selected = new Set();
  if (byFilters && state.node != null) {
    const byId = nodesById(model);
    for (let at = byId.get(state.node); at && !selected.has(at.id); at = byId.get(at.parent ?? at.removedFrom)) selected.add(at.id);
  }
  if (byFilters) hiddenByFilters = model.nodes.length - byFilters.size - [...selected].filter((id) => !byFilters.has(id)).length;
  const search = filter;
  const kept = byFilters == null
    ? (search == null ? () => true : (id) => search.has(id))
    : (id) => (search == null || search.has(id)) && (byFilters.has(id) || selected.has(id));
  // Each coordinator is asked `kept` once, as its parent's row is made; at 100,000 rows this walk is most of what a
  // search costs.
  const stack = [];
  const push = (shown, depth, parentRow) => {
    for (let i = shown.length - 1; i >= 0; i--) stack.push({ id: shown[i], depth, parentRow, setsize: shown.length, posinset: i + 1 });
  };
  push(roots.filter(kept), 0, -1);
  while (stack.length) {
    const row = stack.pop();
    if (rowOf.has(row.id)) continue;
    const below = children.get(row.id);
    const shown = below ? below.filter(kept) : [];
    row.hasChildren = shown.length > 0;
    rowOf.set(row.id, rows.length);
    rows.push(row);
    // A search shows its matches whatever was collapsed before it.
    if (row.hasChildren && (search != null || !collapsed.has(row.id))) push(shown, row.depth + 1, rows.length - 1);
  }
}

const rowElementId = (id) => "o-" + elementId(id);
const isOpen = (row) => row.hasChildren && (filter != null || !collapsed.has(row.id));

function draw() {
  const box = $("outline");
  const space = $("outline-space");
  space.style.height = rows.length * ROW + "px";
  const first = Math.max(0, Math.floor(box.scrollTop / ROW) - OVERSCAN);
  const last = Math.min(rows.length, Math.ceil((box.scrollTop + box.clientHeight) / ROW) + OVERSCAN);
  const byId = state.model ? nodesById(state.model) : new Map();
  const items = [];
  for (let index = first; index < last; index++) {
    const row = rows[index];
    const node = byId.get(row.id);
    if (!node) continue;
    const attributes = {
      id: rowElementId(row.id), role: "treeitem", class: "row", "data-index": index,
      "aria-level": row.depth + 1, "aria-setsize": row.setsize, "aria-posinset": row.posinset,
      "aria-selected": String(row.id === state.node),
      title: `${node.type}#${node.id} · ${node.verdict}` + (node.screen ? ` · ${node.screen}` : ""),
    };
    if (row.hasChildren) attributes["aria-expanded"] = String(isOpen(row));
    const item = el("div", attributes,
      el("span", { class: "twisty", "aria-hidden": "true" }, row.hasChildren ? (isOpen(row) ? "▾" : "▸") : ""),
      el("span", { class: "badge " + node.verdict }, node.verdict),
      el("span", { class: "type" }, node.type), el("span", { class: "oid" }, `#${node.id}`),
      node.screen ? el("span", { class: "screen" }, node.screen) : null);
    item.style.transform = `translateY(${index * ROW}px)`;
    item.style.paddingLeft = indent(row.depth) + "px";
    items.push(item);
  }
  space.replaceChildren(...items);
  const active = rowOf.has(state.node) ? state.node : rows[0]?.id;
  if (active != null && rowOf.has(active)) box.setAttribute("aria-activedescendant", rowElementId(active));
  else box.removeAttribute("aria-activedescendant");
  const count = $("outline-count");
  count.textContent = filter == null && !hiddenByFilters ? String(state.model ? state.model.nodes.length : 0) : `${rows.length} shown`;
  count.title = hiddenByFilters ? `${hiddenByFilters.toLocaleString("en")} left out by the filters (${$("leaks-only").checked ? "Leaks only" : "released; tick Show released"})` : "";
}

// Brings `index` into the scrolled part of the outline, moving as little as it can.
function scrollToRow(index) {
  const box = $("outline");
  const top = index * ROW;
  if (top < box.scrollTop) box.scrollTop = top;
  else if (top + ROW > box.scrollTop + box.clientHeight) box.scrollTop = top + ROW - box.clientHeight;
  // Sideways too, so the row's name starts in sight however deep it is.
  const start = indent(rows[index].depth);
  if (start < box.scrollLeft || start > box.scrollLeft + box.clientWidth - 60) box.scrollLeft = Math.max(0, start - 20);
}
const indent = (depth) => 6 + depth * 14;

// The model changed (a new picture, a session, a point in time): rows rebuilt, the selection kept in view.
export function drawOutline() {
  if (builtFor !== state.model || builtWith !== filtersKey()) build();
  if (state.node != null && !rowOf.has(state.node)) expandTo(state.node);
  draw();
}

// Every ancestor of `id` opened, so its row exists.
function expandTo(id) {
  if (!state.model) return;
  const byId = nodesById(state.model);
  let changed = false;
  for (let at = byId.get(id), seen = new Set(); at && !seen.has(at.id); at = byId.get(at.parent ?? at.removedFrom)) {
    seen.add(at.id);
    if (at.id !== id && collapsed.delete(at.id)) changed = true;
  }
  // The selection's row may also be new because the filters keep the selected coordinator's path.
  if (changed || !rowOf.has(id)) build();
}

// The selection moved (from the picture, a link, a leak): its row opened, shown and marked.
export function showInOutline(id) {
  if (builtFor !== state.model || builtWith !== filtersKey()) build();
  if (id != null && !rowOf.has(id)) expandTo(id);
  if (id != null && rowOf.has(id)) scrollToRow(rowOf.get(id));
  draw();
}

// While a search runs the outline keeps its matches and their ancestors; `ids` null shows everything again.
export function filterOutline(ids) {
  if (ids == null && filter == null) return;
  if (ids != null) {
    const byId = state.model ? nodesById(state.model) : new Map();
    const kept = new Set();
    for (const id of ids) {
      for (let at = byId.get(id); at && !kept.has(at.id); at = byId.get(at.parent ?? at.removedFrom)) kept.add(at.id);
    }
    filter = kept;
  } else filter = null;
  build();
  $("outline").scrollTop = 0;
  if (state.node != null && rowOf.has(state.node)) scrollToRow(rowOf.get(state.node));
  draw();
}

// A new session: nothing collapsed from the last one carries over.
export function resetOutline() {
  collapsed.clear();
  filter = null;
  builtFor = null;
  rows = [];
  rowOf = new Map();
  $("outline").scrollTop = 0;
  draw();
}

function toggle(row, open) {
  if (!row.hasChildren || filter != null) return;
  if (open) collapsed.delete(row.id); else collapsed.add(row.id);
  build();
  draw();
}

// One step of the tree pattern's keyboard: the row the key leads to, after opening or closing what it asks.
export function walk(key, from) {
  const at = rowOf.get(from ?? state.node);
  if (at == null) return rows.length ? rows[0].id : null;
  const row = rows[at];
  switch (key) {
    case "ArrowDown": return rows[Math.min(rows.length - 1, at + 1)].id;
    case "ArrowUp": return rows[Math.max(0, at - 1)].id;
    case "Home": return rows[0].id;
    case "End": return rows[rows.length - 1].id;
    case "ArrowRight":
      if (row.hasChildren && !isOpen(row)) { toggle(row, true); return row.id; }
      return row.hasChildren ? rows[at + 1].id : row.id;
    case "ArrowLeft":
      if (isOpen(row) && filter == null) { toggle(row, false); return row.id; }
      return row.parentRow >= 0 ? rows[row.parentRow].id : row.id;
    default: return null;
  }
}

export const WALK_KEYS = ["ArrowDown", "ArrowUp", "Home", "End", "ArrowRight", "ArrowLeft"];

// `onPick(id)` selects a coordinator everywhere; rows are picked with a click, the keys, Enter or Space.
export function wireOutline(onPick) {
  pick = onPick;
  const box = $("outline");
  box.addEventListener("scroll", () => requestAnimationFrame(draw));
  box.addEventListener("click", (event) => {
    const item = event.target.closest && event.target.closest("[role=treeitem]");
    if (!item) return;
    const row = rows[Number(item.dataset.index)];
    if (!row) return;
    if (event.target.closest(".twisty")) { toggle(row, !isOpen(row)); return; }
    pick(row.id);
  });
  box.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      const id = rowOf.has(state.node) ? state.node : rows[0]?.id;
      if (id != null) pick(id);
      return;
    }
    if (!WALK_KEYS.includes(event.key)) return;
    event.preventDefault();
    const next = walk(event.key);
    if (next == null) return;
    if (next !== state.node) pick(next);
    else showInOutline(next);
  });
  new ResizeObserver(() => draw()).observe(box);
}
