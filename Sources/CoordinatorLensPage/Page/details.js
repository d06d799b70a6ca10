// The selected coordinator: selecting one (from the tree, a link, a leak or the lifetimes), links that select, and
// the details panel with its call sites and its own events.
import { $, el } from "./dom.js";
import { breakable, camelBreakable, seconds, sourceFile, stepKind } from "./format.js";
import { elementId } from "./ids.js";
import { REPORT, changed, state, nodeById, nodesById } from "./state.js";
import { refresh } from "./feed.js";
import { leakTraceText, traceStates } from "./leak-trace.js";
import { showInOutline } from "./outline.js";
import { copyText, siteRow } from "./site-actions.js";
import { isDrawn, markSelection, zoomTo } from "./tree-view.js";

// Selects a coordinator in the picture, the outline and the details; `centre` also brings it into view at a readable
// size, asking for a picture that draws it as itself when the present one has it in a summary.
export function selectNode(id, centre) {
  state.node = id;
  markSelection();
  drawDetails();
  showInOutline(id);
  changed("selection");
  if (!centre) return;
  pictureInSight();
  if (isDrawn(id)) zoomTo(id);
  else if (nodeById(id)) {
    state.reveal = id;
    state.centreWhenDrawn = id;
    refresh();
  }
}

// In a phone-wide window the page scrolls and the picture may be above the fold: a pick brings it back into sight,
// or the zoom would happen where nobody sees it.
function pictureInSight() {
  const viewport = $("viewport");
  const r = viewport.getBoundingClientRect();
  if (r.top < 0 || r.bottom > window.innerHeight) viewport.scrollIntoView({ block: "nearest" });
}

// A link with an address, so it takes the keyboard focus and Enter; the address names the node but is never
// followed, as the page's own address belongs to the comparison (compare.js).
export function link(id) {
  const node = nodeById(id);
  const follow = (event) => { event.preventDefault(); selectNode(id, true); };
  return el("a", { href: "#" + elementId(id), on: { click: follow }, title: node ? node.verdict : "" }, node ? `${node.type}#${id}` : `#${id}`);
}

// The report's events by coordinator id, indexed once: a scan per lookup made a redraw quadratic.
let reportEventsById = null;
function reportEvents(id) {
  if (!reportEventsById) reportEventsById = new Map(REPORT.events.map((entry) => [entry.id, entry.events]));
  return reportEventsById.get(id) || [];
}

export async function drawDetails() {
  const box = $("details");
  const node = state.node != null && nodeById(state.node);
  if (!node) { box.replaceChildren(el("p", { class: "hint" }, "Click a node, or pick a leak above.")); return; }
  const byId = nodesById(state.model);
  const path = [];
  for (let at = node, seen = new Set(); at && !seen.has(at.id); at = byId.get(at.parent ?? at.removedFrom)) { seen.add(at.id); path.unshift(at.id); }
  const rows = [
    ["type", el("strong", {}, node.type)], ["id", String(node.id)], ["screen", node.screen || "—"],
    ["verdict", el("span", { class: "verdict " + node.verdict }, node.verdict)],
    // Who holds a leak is what its reader came for: right under the verdict, not below nine rows of sites.
    ...heldRow(node),
    ["reason", node.reason || "—"],
    ["added", [el("span", {}, seconds(node.addedAt), node.site ? null : ", call site not recorded"), sited(node.site, "added at")]],
    ["bound", sited(node.boundSite, "bound at") ?? "—"], ["dismissed", dismissal(node)], ["removed", sited(node.removedSite, "removed at") ?? "—"],
    ...(node.shownAgain ? [["shown again", shownAgain(node)]] : []),
    // The reason of a coordinator kept for reuse says so already ("kept for reuse" came twice).
    ...(node.kept && !node.reason ? [["kept", `for reuse by ${node.kept.parentType}#${node.kept.parentID}, up to ${node.kept.limit} by design`]] : []),
    ["done", seconds(node.doneAt)], ["deinit", seconds(node.deinitAt)],
    ["path", el("span", { class: "path" }, path.map(link))],
    ["children", children(node)],
  ];
  const events = el("table", { class: "events" }, el("tr", {}, el("th", {}, "seq"), el("th", {}, "t"), el("th", {}, "event · site")));
  const trace = el("button", { type: "button", id: "copy-leak-trace", class: "copy", title: "Copy this coordinator, its verdict, its call sites and its leak trace as plain text",
    on: { click: (event) => copyText(event.currentTarget, leakTraceText(node, heldEntry(node), byId, location.href)) } },
    node.verdict === "retained" ? "Copy leak trace" : "Copy as text");
  box.replaceChildren(el("div", { class: "details-actions" }, trace),
    el("dl", {}, rows.map(([k, v]) => [el("dt", {}, k), el("dd", { "data-field": k }, v)])), events);
  const run = state.run, id = node.id;
  if (REPORT) {
    appendEvents(events, reportEvents(id));
    return;
  }
  try {
    const response = await fetch("/api/coordinator?" + new URLSearchParams(typeof id === "string" ? { run, sid: id } : { run, id }));
    if (!response.ok || state.run !== run || state.node !== id) return;
    appendEvents(events, await response.json());
  } catch (_) { /* the panel keeps what it has */ }
}

// The first children as links, the rest counted: the outline lists them all, and a thousand links here pushed the
// events table out of sight.
const SHOWN_CHILDREN = 40;
function children(node) {
  if (!node.children.length) return "none";
  const more = node.children.length - SHOWN_CHILDREN;
  return el("span", {}, node.children.slice(0, SHOWN_CHILDREN).map((id, i) => [i ? ", " : "", link(id)]),
    more > 0 ? ` … and ${more.toLocaleString("en")} more (in the outline)` : null);
}

// Where the details go when the session could not be loaded.
export function showProblem(message) {
  $("details").replaceChildren(el("p", { class: "hint" }, message));
}

// How the coordinator was dismissed, and when: a freed or departed screen has no call site, but a cause and a time.
const dismissalCauses = { "screen-left": "left the screen (reported by the UI layer)", "screen-freed": "its screen was freed", reported: "dismissed" };
function dismissal(node) {
  if (node.dismissedAt == null) return "—";
  const how = dismissalCauses[node.dismissedVia] || "dismissed";
  return [el("span", {}, `${how} at ${seconds(node.dismissedAt)}`), sited(node.dismissedSite, "dismissed at")];
}
// A call site in the details, with the same Copy and Open as the leaks list.
const sited = (site, label) => siteRow(site, state.model && state.model.editorURL, { label, withFunction: true });
// Each dismissal a later showing undid: a cached coordinator reused, a screen that appeared again.
function shownAgain(node) {
  return el("span", {}, node.shownAgain.map((again, i) => [i ? "; " : "",
    `${dismissalCauses[again.dismissedVia] || "dismissed"} at ${seconds(again.dismissedAt)}, shown again on ${again.screen} at ${seconds(again.shownAt)}`]));
}
// The leak trace the hook's retainer search found, drawn as LeakCanary draws one: one reference per line from the
// living holder down, each holder's state, the suspect references marked.
const heldEntry = (node) => (state.model.heldBy || []).find((entry) => entry.id === node.id);
function heldRow(node) {
  const held = heldEntry(node);
  if (!held) return [];
  const by = held.by;
  if (by.outcome !== "live" && by.outcome !== "cycle") return [["held by", held.text]];
  const { states, suspects } = traceStates(held);
  const lines = by.steps.map((step, i) => el("li", { class: suspects.has(i) ? "suspect" : "", "data-state": states[i] },
    step.holderID != null ? link(step.holderID) : el("span", { class: "mono" }, step.holder),
    el("wbr"), step.field ? el("span", { class: "mono" }, `.${step.field}`) : "", stepKind(step),
    states[i] === "unknown" ? "" : el("span", { class: "trace-state" }, states[i] === "alive" ? " · not leaking" : " · leaking")));
  lines.push(el("li", { class: "leaked" }, link(node.id), by.outcome === "cycle" ? " (a cycle)" : ""));
  return [["held by", el("ol", { class: "leak-trace", "aria-label": held.text }, lines)]];
}
function appendEvents(table, events) {
  for (const e of events) {
    table.append(el("tr", {}, el("td", {}, String(e.seq)), el("td", {}, seconds(e.time)),
      // The site under the event rather than in a column of its own, which a 330 px panel clipped.
      el("td", {}, e.kind, e.screen ? [" ", camelBreakable(e.screen)] : null, e.via ? ` (${e.via})` : "",
        e.site ? el("code", { class: "site", title: sourceFile(e.site) }, breakable(`${e.site.file}:${e.site.line}`)) : null)));
  }
}
