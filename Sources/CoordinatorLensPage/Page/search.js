// Finding coordinators: every one the model holds, by type, id (`#12`, `Share#12`) or screen, including those the
// picture draws inside a summary. An id asked for (`#12`, `Type#12`) is that coordinator first, then whatever else
// contains the text. The outline keeps the matches and their ancestors; the picture marks the drawn ones; the count
// says why a match is not drawn (in a summary, released, left out by Leaks only); Enter (and the arrows beside the
// field) step through them, each picked and shown, opened out of its summary when it sits in one.
import { $ } from "./dom.js";
import { filterOutline } from "./outline.js";
import { nodesById, state } from "./state.js";
import { isCanvasShown, nodeNames } from "./tree-canvas.js";
import { centreOn, markSelection } from "./tree-view.js";
import { hiddenBy } from "./view-filter.js";
import { elementId, idOfElement, isNodeElement } from "./ids.js";

// Typing waits this long after the last key before searching: at 100,000 coordinators each search rebuilds the
// outline, and a search per keystroke queued them up.
const QUIET_MS = 120;

// Each model's coordinators as the search reads them, lower case, made once per model rather than per keystroke.
const keys = new WeakMap();
function searchKeys(nodes) {
  let known = keys.get(nodes);
  if (!known) {
    known = nodes.map((n) => ({ name: `${n.type}#${n.id}`.toLowerCase(), screen: n.screen == null ? "" : n.screen.toLowerCase() }));
    keys.set(nodes, known);
  }
  return known;
}

// Reads the model's names ahead of the first keystroke, when the browser is idle.
export function prepareSearch() {
  const model = state.model;
  const idle = window.requestIdleCallback || ((work) => setTimeout(work, 200));
  if (model) idle(() => searchKeys(model.nodes));
}

// The coordinators `query` (lower case) finds: the id it names exactly first, then the rest in the model's order.
export function matching(nodes, query) {
  const asked = /^(.*)#(-?[^#\s]+)$/.exec(query);
  const exact = [];
  if (asked) {
    const [, type, id] = asked;
    for (const n of nodes) if (String(n.id).toLowerCase() === id && n.type.toLowerCase().includes(type)) exact.push(n.id);
  }
  const first = new Set(exact);
  const others = [];
  const known = searchKeys(nodes);
  for (let i = 0; i < nodes.length; i++) {
    const key = known[i];
    if ((key.name.includes(query) || key.screen.includes(query)) && !first.has(nodes[i].id)) others.push(nodes[i].id);
  }
  return { matches: exact.concat(others), exact: exact.length };
}

// Runs the search again over the model on screen; `step` is 0 when the query was typed, ±1 to go to the next or
// previous match, false when only the view changed (a new picture or model).
export function runSearch(step, pick) {
  clearTimeout(waiting);
  const query = $("search").value.trim().toLowerCase();
  const tree = $("tree");
  for (const node of tree.querySelectorAll("g.node.match")) node.classList.remove("match", "current");
  if (!query || !state.model) {
    $("search-count").textContent = "";
    state.search = { query: "", matches: [], index: -1 };
    filterOutline(null);
    if (isCanvasShown()) markSelection();
    return;
  }
  // The same query keeps its place among the matches, also over a new model (a pick that opened a summary brings
  // one); the matches are found again only when the query or the model changed.
  const same = query === state.search.query;
  const { matches, exact } = same && state.search.model === state.model ? state.search : matching(state.model.nodes, query);
  let index = same ? Math.min(state.search.index, matches.length - 1) : (matches.length ? 0 : -1);
  // The first Enter goes to the first match; the next ones step on.
  const picked = same && state.search.picked;
  if (same && index < 0 && matches.length) index = 0;
  if (step && matches.length && picked) index = (index + step + matches.length) % matches.length;
  const filtered = same && state.search.model === state.model && state.search.filters === outlineFilters();
  state.search = { query, matches, exact, index, picked: picked || Boolean(step), model: state.model, filters: outlineFilters() };
  // The drawn boxes, walked once: a lookup per match was 11,000 selector queries for `#3` at 100,000.
  const wanted = new Set(matches);
  const drawnIds = new Set();
  // The canvas rings its matches when it next paints (markSelection paints it).
  if (isCanvasShown()) {
    for (const name of nodeNames()) if (isNodeElement(name) && wanted.has(idOfElement(name))) drawnIds.add(idOfElement(name));
    markSelection();
  }
  for (const element of tree.querySelectorAll("g.node")) {
    if (!isNodeElement(element.id)) continue;
    const id = idOfElement(element.id);
    if (wanted.has(id)) { element.classList.add("match"); drawnIds.add(id); }
  }
  if (!filtered) filterOutline(matches);
  const current = matches[index];
  if (current != null) {
    const element = tree.querySelector("#" + CSS.escape(elementId(current)));
    if (element) element.classList.add("current");
    if (step && pick) pick(current);
    else if (step === 0 && (element || (isCanvasShown() && drawnIds.has(current)))) centreOn(current);
  }
  $("search-count").textContent = matches.length ? `${index + 1} of ${matches.length.toLocaleString("en")}` + hiddenWhy(matches, drawnIds, exact) : "no match";
}

const outlineFilters = () => `${$("leaks-only").checked}${$("show-released").checked}`;

// Why the matches the picture does not draw are not drawn, counted: left out by a filter, or inside a summary.
function hiddenWhy(matches, drawnIds, exact) {
  if (matches.length === drawnIds.size) return exact ? " · id exact" : "";
  const byId = nodesById(state.model);
  const counts = { summary: 0, released: 0, "leaks only": 0 };
  for (const id of matches) {
    if (drawnIds.has(id)) continue;
    const node = byId.get(id);
    counts[(node && hiddenBy(state.model, node)) || "summary"]++;
  }
  const parts = [];
  if (counts.summary) parts.push(`${counts.summary.toLocaleString("en")} in summaries`);
  if (counts.released) parts.push(`${counts.released.toLocaleString("en")} released, hidden (Show released)`);
  if (counts["leaks only"]) parts.push(`${counts["leaks only"].toLocaleString("en")} left out by Leaks only`);
  return (exact ? " · id exact" : "") + ` (${parts.join(", ")})`;
}

let waiting = null;
export function wireSearch(pick) {
  $("search").addEventListener("input", () => {
    clearTimeout(waiting);
    waiting = setTimeout(() => runSearch(0, pick), QUIET_MS);
  });
  $("search").addEventListener("keydown", (event) => { if (event.key === "Enter") runSearch(event.shiftKey ? -1 : 1, pick); });
  $("search-next").addEventListener("click", () => runSearch(1, pick));
  $("search-prev").addEventListener("click", () => runSearch(-1, pick));
}
