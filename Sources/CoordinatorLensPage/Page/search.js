// Finding a type in the tree: matches highlighted, the current one centred, stepped with Enter and the arrows.
import { $ } from "./dom.js";
import { elementId, idOfElement } from "./ids.js";
import { state } from "./state.js";
import { centreOn } from "./tree-view.js";

export function runSearch(step) {
  const queryText = $("search").value.trim().toLowerCase();
  const tree = $("tree");
  for (const node of tree.querySelectorAll("g.node.match")) node.classList.remove("match", "current");
  if (!queryText || !state.model) { $("search-count").textContent = ""; state.search = { query: "", matches: [], index: -1 }; return; }
  const matches = state.model.nodes.filter((n) => n.type.toLowerCase().includes(queryText))
    .map((n) => tree.querySelector("#" + CSS.escape(elementId(n.id)))).filter(Boolean);
  const index = queryText === state.search.query ? Math.min(state.search.index, matches.length - 1) : (matches.length ? 0 : -1);
  state.search = { query: queryText, matches, index };
  for (const node of matches) node.classList.add("match");
  if (step && matches.length) state.search.index = (index + step + matches.length) % matches.length;
  const current = matches[state.search.index];
  if (current) { current.classList.add("current"); if (step || queryText !== state.search.previous) centreOn(idOfElement(current.id)); }
  state.search.previous = queryText;
  $("search-count").textContent = matches.length ? `${state.search.index + 1} of ${matches.length}` : "no match";
}

export function wireSearch() {
  $("search").addEventListener("input", () => runSearch(0));
  $("search").addEventListener("keydown", (event) => { if (event.key === "Enter") runSearch(event.shiftKey ? -1 : 1); });
  $("search-next").addEventListener("click", () => runSearch(1));
  $("search-prev").addEventListener("click", () => runSearch(-1));
}
