// Runs compared in the page: pick two sessions (or "the previous run of this app") and see what `coordlens diff`
// shows for them, the picture drawn by the server (/api/compare, panned and zoomed as the tree is) beside the new and
// fixed leaks; each leak is a link that selects that coordinator in its own session. The address keeps the choice
// (`#compare&a=RUN&b=RUN`, or `#compare&previous=1&b=RUN`) as a history entry of its own: reload reopens it,
// `coordlens view A B --compare` opens straight into it, and Back from a followed leak comes back to it. Every text
// from the server goes through textContent; the picture goes through inertSvg (sanitise.js) as the tree's does.
import { selectNode } from "./details.js";
import { elementId } from "./ids.js";
import { inertSvg } from "./sanitise.js";
import { select } from "./sessions.js";
import { onChange, state } from "./state.js";
import { zoomable } from "./zoom.js";

const PREVIOUS = "";   // the A choice that means "the previous run of B's app"
let shown = false, chosenA = PREVIOUS, chosenB = null, asked = 0, zoom = null, waitingForSessions = false;

function node(tag, attributes, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes || {})) element.setAttribute(key, value);
  for (const child of children) if (child != null) element.append(child);
  return element;
}

function sessions() {
  return [...state.sessions.values()];
}

// The selects list every session; a chosen run not (or no longer) held stays listed, so a choice is never lost.
function fillSelects() {
  const a = document.getElementById("compare-a"), b = document.getElementById("compare-b");
  if (!a || !b) return;
  const all = sessions();
  if (chosenB == null) chosenB = state.run || (all.length ? all[all.length - 1].run : null);
  function options(menu, chosen, withPrevious) {
    const runs = all.map((s) => [s.run, `${s.app} · ${s.run}`]);
    if (chosen && chosen !== PREVIOUS && !runs.some(([run]) => run === chosen)) runs.push([chosen, chosen]);
    const list = withPrevious ? [[PREVIOUS, "previous run of this app"], ...runs] : runs;
    menu.replaceChildren(...list.map(([value, label]) => {
      const option = node("option", { value }, label);
      option.selected = value === chosen;
      return option;
    }));
  }
  options(a, chosenA, true);
  options(b, chosenB, false);
}

function address() {
  const params = new URLSearchParams();
  if (chosenA === PREVIOUS) params.set("previous", "1"); else params.set("a", chosenA);
  params.set("b", chosenB);
  return params;
}

// The run "previous run of this app" stands for, as the server picks it (the same app, heard from before B); else
// the app's latest later run, said as the fallback it is; else nothing to compare, said without asking the server,
// whose 404 would be a console error. Never another app's run: a diff of two apps is every coordinator added and
// removed, which reads as a regression it is not.
function baseline() {
  const all = sessions();
  const at = all.findIndex((s) => s.run === chosenB);
  const b = all[at];
  if (!b) return { params: address() };
  if (all.slice(0, at).some((s) => s.app === b.app)) return { params: address() };
  const others = all.filter((s) => s.run !== chosenB);
  const later = others.filter((s) => s.app === b.app).pop();
  if (later) return { params: new URLSearchParams({ a: later.run, b: chosenB }), note: `No earlier run of ${b.app} here; compared with its later run ${later.run}.` };
  if (!others.length) return { note: `Only ${b.app} · ${b.run} is here: no earlier run to compare it with yet. Run the app again, or open a recording with coordlens view.` };
  return { note: `No earlier run of ${b.app} here to compare it with. Run the app again, or pick run A above to compare with a run of another app.` };
}

async function load() {
  if (!shown || chosenB == null) return;
  // Opened from the address before the feed said which sessions it holds: the feed's first word loads it.
  if (chosenA === PREVIOUS && state.sessions.size === 0) { waitingForSessions = true; return; }
  const fallback = chosenA === PREVIOUS ? baseline() : { params: address() };
  const params = address();
  // The open comparison is one history entry; changing A or B rewrites it rather than adding more.
  const entry = "#compare&" + params.toString();
  if (location.hash !== entry) {
    if (location.hash.startsWith("#compare")) history.replaceState(null, "", entry);
    else history.pushState(null, "", entry);
  }
  const ticket = ++asked;
  const error = document.getElementById("compare-error");
  error.textContent = "";
  document.getElementById("compare-note").textContent = fallback.note ?? "";
  if (!fallback.params) { clearPane(); return; }
  const asking = fallback.params;
  const grace = document.getElementById("grace");
  if (grace && grace.value !== "" && Number(grace.value) >= 0) asking.set("grace", grace.value);
  try {
    const response = await fetch("/api/compare?" + asking.toString());
    if (!response.ok) throw new Error(await response.text());
    const comparison = await response.json();
    if (ticket === asked) draw(comparison);
  } catch (failure) {
    if (ticket !== asked) return;
    error.textContent = "Could not compare: " + failure.message;
    clearPane();
  }
}

function clearPane() {
  document.getElementById("compare-canvas").replaceChildren();
  document.getElementById("compare-summary").textContent = "";
  for (const id of ["compare-new", "compare-fixed", "compare-still", "compare-piled"]) document.getElementById(id).replaceChildren();
}

// Goes to the coordinator in its own session, once that session is loaded, as a new history entry: Back returns to
// the comparison as it was.
function follow(leak) {
  shown = false;
  hidePane();
  history.pushState(null, "", location.pathname + location.search);
  if (state.run === leak.run) { selectNode(leak.id, true); return; }
  select(leak.run);
  state.node = leak.id;
}

function list(id, title, mark, leaks) {
  const section = document.getElementById(id);
  const items = leaks.map((leak) => {
    // An address makes the link reachable from the keyboard; following it is the click's job, not the browser's.
    const link = node("a", { href: "#" + elementId(leak.id), "data-run": leak.run, "data-node": leak.node, title: `select it in ${leak.run}` },
      node("span", { class: "mark" }, mark), ` ${leak.type}#${leak.id}`);
    link.addEventListener("click", (event) => { event.preventDefault(); follow(leak); });
    return node("li", {}, link, node("span", { class: "path" }, leak.path));
  });
  if (!items.length) items.push(node("li", { class: "hint" }, "none"));
  section.replaceChildren(node("h3", {}, `${title} (${leaks.length})`), node("ul", {}, ...items));
}

/** Paths with more in use in B than in A: screenless coordinators that pile up are no leak, so they get their own list. */
function pileUps(piled) {
  const items = piled.map((entry) => node("li", {}, node("span", { class: "mark" }, "▲"),
    ` ${entry.type}: ${entry.a} → ${entry.b} in use`, node("span", { class: "path" }, entry.parentPath ? `under ${entry.parentPath}` : "as roots")));
  if (!items.length) items.push(node("li", { class: "hint" }, "none"));
  document.getElementById("compare-piled").replaceChildren(node("h3", {}, `Piled up (${piled.length})`), node("ul", {}, ...items));
}

function draw(comparison) {
  const summary = comparison.summary;
  document.getElementById("compare-summary").textContent =
    `${comparison.a.app} · ${comparison.a.run} → ${comparison.b.app} · ${comparison.b.run}: `
    + `${summary.newLeaks} new ${summary.newLeaks === 1 ? "leak" : "leaks"}, ${summary.fixedLeaks} fixed, ${summary.stillLeaking} still leaking, `
    + `${comparison.pileUps.length} piled up; `
    + `${summary.added} added, ${summary.gone} gone, ${summary.changed} changed, ${summary.unchanged} unchanged`;
  list("compare-new", "New leaks", "!", comparison.newLeaks);
  list("compare-fixed", "Fixed leaks", "✓", comparison.fixedLeaks);
  list("compare-still", "Still leaking", "=", comparison.stillLeaking);
  pileUps(comparison.pileUps);
  const picture = document.getElementById("compare-picture");
  const canvas = document.getElementById("compare-canvas");
  const svg = inertSvg(comparison.svg);
  if (!svg) { canvas.replaceChildren(); return; }
  canvas.replaceChildren(document.adoptNode(svg));
  picture.dataset.a = comparison.a.run;
  picture.dataset.b = comparison.b.run;
  zoom.fit();
}

function build() {
  const pane = node("div", { id: "compare", role: "region", "aria-label": "Runs compared" });
  const a = node("select", { id: "compare-a", "aria-label": "A: the baseline run" });
  const b = node("select", { id: "compare-b", "aria-label": "B: the run compared with A" });
  a.addEventListener("change", () => { chosenA = a.value; load(); });
  b.addEventListener("change", () => { chosenB = b.value; load(); });
  const back = node("button", { type: "button", id: "compare-close" }, "Back to the tree");
  back.addEventListener("click", close);
  const fit = node("button", { type: "button", id: "compare-fit", title: "Fit the comparison to the window" }, "Fit");
  fit.addEventListener("click", () => zoom.fit());
  const head = node("div", { class: "compare-head" }, node("label", {}, "A ", a), "→", node("label", {}, "B ", b), back, fit,
    node("span", { id: "compare-summary" }), node("span", { id: "compare-note", role: "status" }), node("span", { id: "compare-error" }));
  const lists = node("div", { class: "compare-lists" }, node("section", { id: "compare-new" }), node("section", { id: "compare-fixed" }),
    node("section", { id: "compare-still" }), node("section", { id: "compare-piled" }));
  const canvas = node("div", { id: "compare-canvas" });
  // A group, so its name is allowed (axe: aria-prohibited-attr on a plain div with a label).
  const picture = node("div", { id: "compare-picture", role: "group", tabindex: "0", "aria-label": "The runs compared; drag or arrow keys to pan, wheel or + and - to zoom" }, canvas);
  pane.append(head, node("div", { class: "compare-body" }, lists, picture));
  // Escape goes back to the tree, as "Back to the tree" does.
  pane.addEventListener("keydown", (event) => {
    if (event.key !== "Escape" || event.defaultPrevented) return;
    event.preventDefault();
    close();
  });
  document.querySelector(".stage").append(pane);
  zoom = zoomable(picture, canvas);
  return pane;
}

// What the pane covers (the toolbar and the tree) is inert while it is open: Tab never walks into a hidden tree.
function coverStage(covered) {
  for (const child of document.querySelector(".stage").children) if (child.id !== "compare") child.inert = covered;
}

function open() {
  const pane = document.getElementById("compare") || build();
  shown = true;
  pane.hidden = false;
  coverStage(true);
  document.getElementById("show-compare").setAttribute("aria-pressed", "true");
  fillSelects();
  load();
}

function hidePane() {
  const pane = document.getElementById("compare");
  if (pane) pane.hidden = true;
  coverStage(false);
  const button = document.getElementById("show-compare");
  if (button) button.setAttribute("aria-pressed", "false");
  // Focus that was in the pane goes back to the button that opened it.
  if (button && pane && (pane.contains(document.activeElement) || document.activeElement === document.body)) button.focus();
}

// Back to the tree: the comparison's history entry is left behind as a new entry for the tree, so Back reopens it.
function close() {
  shown = false;
  hidePane();
  if (location.hash.startsWith("#compare")) history.pushState(null, "", location.pathname + location.search);
}

// `#compare&a=RUN&b=RUN` or `#compare&previous=1&b=RUN`: the choice to open with.
function fromAddress() {
  if (!location.hash.startsWith("#compare")) return false;
  const params = new URLSearchParams(location.hash.slice(1));
  if (!params.get("b")) return false;
  chosenB = params.get("b");
  chosenA = params.get("previous") === "1" ? PREVIOUS : (params.get("a") || PREVIOUS);
  return true;
}

// The toolbar's Compare button (not in the report, which has one run and no server), and the comparison the address
// asks for.
export function addCompareButton() {
  const toolbar = document.querySelector(".stage .toolbar");
  if (!toolbar || document.body.classList.contains("static")) return;
  const button = node("button", { type: "button", id: "show-compare", title: "Compare two runs as coordlens diff does", "aria-pressed": "false" }, "Compare");
  button.addEventListener("click", () => {
    if (shown) { close(); return; }
    chosenB = state.run ?? chosenB;
    open();
  });
  toolbar.append(button);
  // The session list changes as the feed reports sessions: keep the selects in step.
  onChange("sessions", () => {
    if (!shown) return;
    fillSelects();
    if (waitingForSessions) { waitingForSessions = false; load(); }
  });
  if (fromAddress()) open();
  // Back and Forward between the tree and a comparison.
  window.addEventListener("popstate", () => {
    if (fromAddress()) open();
    else if (shown) { shown = false; hidePane(); }
  });
}
