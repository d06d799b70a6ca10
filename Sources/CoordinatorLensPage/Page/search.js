// Finding coordinators: every one the model holds, by type, id (`#12`, `Share#12`) or screen, including those the
// picture draws inside a summary. The outline keeps the matches and their ancestors; the picture marks the drawn
// ones; Enter (and the arrows beside the field) step through them, each picked and shown, opened out of its summary
// when it sits in one.
import { $ } from "./dom.js";
import { elementId } from "./ids.js";
import { filterOutline } from "./outline.js";
import { state } from "./state.js";
import { centreOn } from "./tree-view.js";

// The coordinators `query` (lower case) finds, in the model's order.
export function matching(nodes, query) {
  return nodes.filter((n) => `${n.type}#${n.id}`.toLowerCase().includes(query)
    || (n.screen != null && n.screen.toLowerCase().includes(query))).map((n) => n.id);
}

// Runs the search again over the model on screen; `step` is 0 when the query was typed, ±1 to go to the next or
// previous match, false when only the view changed (a new picture or model).
export function runSearch(step, pick) {
  const query = $("search").value.trim().toLowerCase();
  const tree = $("tree");
  for (const node of tree.querySelectorAll("g.node.match")) node.classList.remove("match", "current");
  if (!query || !state.model) {
    $("search-count").textContent = "";
    state.search = { query: "", matches: [], index: -1 };
    filterOutline(null);
    return;
  }
  const matches = matching(state.model.nodes, query);
  const same = query === state.search.query;
  let index = same ? Math.min(state.search.index, matches.length - 1) : (matches.length ? 0 : -1);
  // The first Enter goes to the first match; the next ones step on.
  const picked = same && state.search.picked;
  if (step && matches.length && picked) index = (index + step + matches.length) % matches.length;
  const filtered = same && state.search.model === state.model;
  state.search = { query, matches, index, picked: picked || Boolean(step), model: state.model };
  let drawn = 0;
  for (const id of matches) {
    const element = tree.querySelector("#" + CSS.escape(elementId(id)));
    if (element) { element.classList.add("match"); drawn++; }
  }
  if (!filtered) filterOutline(matches);
  const current = matches[index];
  if (current != null) {
    const element = tree.querySelector("#" + CSS.escape(elementId(current)));
    if (element) element.classList.add("current");
    if (step && pick) pick(current);
    else if (step === 0 && element) centreOn(current);
  }
  const hidden = matches.length - drawn;
  $("search-count").textContent = matches.length
    ? `${index + 1} of ${matches.length.toLocaleString("en")}` + (hidden ? ` (${hidden.toLocaleString("en")} in summaries)` : "")
    : "no match";
}

export function wireSearch(pick) {
  $("search").addEventListener("input", () => runSearch(0, pick));
  $("search").addEventListener("keydown", (event) => { if (event.key === "Enter") runSearch(event.shiftKey ? -1 : 1, pick); });
  $("search-next").addEventListener("click", () => runSearch(1, pick));
  $("search-prev").addEventListener("click", () => runSearch(-1, pick));
}
