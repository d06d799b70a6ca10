// Which coordinators the toolbar's filters keep, as the server's picture keeps them (DOTWriter.shownNodes): "Leaks
// only" keeps the retained ones, everything below them and their paths from the root; without "Show released" a
// released or late coordinator stays only when something below it is still not deinited. The outline and the
// search's counts ask this, so a filter thins the outline as it thins the picture and a hidden match says why.
import { $ } from "./dom.js";
import { nodesById } from "./state.js";

const GONE = new Set(["released", "late"]);
const parentOf = (node) => node.parent ?? node.removedFrom;

// The filters ticked, as a key: a change of filters is a new answer.
export function filtersKey() {
  return `${$("leaks-only").checked ? "L" : ""}${$("show-released").checked ? "R" : ""}`;
}

const answers = new WeakMap();   // model -> { key, kept }

// The ids the filters keep, or null when they keep every coordinator of `model`.
export function keptByFilters(model) {
  if (!model) return null;
  const key = filtersKey();
  const known = answers.get(model);
  if (known && known.key === key) return known.kept;
  const kept = key.includes("L") ? leaksAndTheirPaths(model) : key.includes("R") ? null : notGoneAndTheirPaths(model);
  answers.set(model, { key, kept });
  return kept;
}

// Why the filters leave `node` out: "leaks only", "released", or null when they keep it.
export function hiddenBy(model, node) {
  const kept = keptByFilters(model);
  if (kept == null || kept.has(node.id)) return null;
  return $("leaks-only").checked ? "leaks only" : "released";
}

function withPaths(model, seeds) {
  const byId = nodesById(model);
  const kept = new Set();
  for (const id of seeds) {
    for (let at = byId.get(id); at && !kept.has(at.id); at = byId.get(parentOf(at))) kept.add(at.id);
  }
  return kept;
}

function notGoneAndTheirPaths(model) {
  const alive = model.nodes.filter((node) => !GONE.has(node.verdict)).map((node) => node.id);
  return alive.length === model.nodes.length ? null : withPaths(model, alive);
}

function leaksAndTheirPaths(model) {
  const byId = nodesById(model);
  const retained = model.nodes.filter((node) => node.verdict === "retained").map((node) => node.id);
  const kept = withPaths(model, retained);
  // Everything below a leak too: a node is kept when its parent is a leak or below one. Model order is not
  // guaranteed to be pre-order, so each node walks up until it meets an answer.
  const below = new Map(retained.map((id) => [id, true]));
  for (const node of model.nodes) {
    const chain = [];
    let at = node, answer = false;
    while (at) {
      if (below.has(at.id)) { answer = below.get(at.id); break; }
      chain.push(at.id);
      at = byId.get(parentOf(at));
      if (at && chain.includes(at.id)) break;
    }
    for (const id of chain) below.set(id, answer);
    if (answer) kept.add(node.id);
  }
  return kept;
}
