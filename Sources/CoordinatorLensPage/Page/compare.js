// Runs compared in the page: pick two sessions (or "the previous run of this app") and see what `coordlens diff`
// shows for them, the picture drawn by the server (/api/compare) beside the new and fixed leaks; each leak is a link
// that selects that coordinator in its own session. The address keeps the choice (`#compare&a=RUN&b=RUN`, or
// `#compare&previous=1&b=RUN`), so `coordlens view A B --compare` can open straight into it. Every text from the
// server goes through textContent; the picture goes through inertSvg (sanitise.js) as the tree's does.
import { selectNode } from "./details.js";
import { elementId } from "./ids.js";
import { inertSvg } from "./sanitise.js";
import { select } from "./sessions.js";
import { state } from "./state.js";

const PREVIOUS = "";   // the A choice that means "the previous run of B's app"
let shown = false, chosenA = PREVIOUS, chosenB = null, asked = 0;

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

async function load() {
  if (!shown || chosenB == null) return;
  const params = address();
  history.replaceState(null, "", "#compare&" + params.toString());
  const grace = document.getElementById("grace");
  if (grace && grace.value !== "" && Number(grace.value) >= 0) params.set("grace", grace.value);
  const ticket = ++asked;
  const error = document.getElementById("compare-error");
  error.textContent = "";
  try {
    const response = await fetch("/api/compare?" + params.toString());
    if (!response.ok) throw new Error(await response.text());
    const comparison = await response.json();
    if (ticket === asked) draw(comparison);
  } catch (failure) {
    if (ticket !== asked) return;
    error.textContent = "Could not compare: " + failure.message;
    document.getElementById("compare-picture").replaceChildren();
    document.getElementById("compare-summary").textContent = "";
    for (const id of ["compare-new", "compare-fixed", "compare-still"]) document.getElementById(id).replaceChildren();
  }
}

// Leaves the comparison and selects the coordinator in its own session once that session is loaded.
function follow(leak) {
  close();
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
    + `${summary.newLeaks} new leaks, ${summary.fixedLeaks} fixed, ${summary.stillLeaking} still leaking, `
    + `${comparison.pileUps.length} piled up; `
    + `${summary.added} added, ${summary.gone} gone, ${summary.changed} changed, ${summary.unchanged} unchanged`;
  list("compare-new", "New leaks", "!", comparison.newLeaks);
  list("compare-fixed", "Fixed leaks", "✓", comparison.fixedLeaks);
  list("compare-still", "Still leaking", "=", comparison.stillLeaking);
  pileUps(comparison.pileUps);
  const picture = document.getElementById("compare-picture");
  const svg = inertSvg(comparison.svg);
  if (!svg) { picture.replaceChildren(); return; }
  picture.replaceChildren(document.adoptNode(svg));
  picture.dataset.a = comparison.a.run;
  picture.dataset.b = comparison.b.run;
}

function build() {
  const pane = node("div", { id: "compare", role: "region", "aria-label": "Runs compared" });
  const a = node("select", { id: "compare-a", "aria-label": "A: the baseline run" });
  const b = node("select", { id: "compare-b", "aria-label": "B: the run compared with A" });
  a.addEventListener("change", () => { chosenA = a.value; load(); });
  b.addEventListener("change", () => { chosenB = b.value; load(); });
  const back = node("button", { type: "button", id: "compare-close" }, "Back to the tree");
  back.addEventListener("click", close);
  const head = node("div", { class: "compare-head" }, node("label", {}, "A ", a), "→", node("label", {}, "B ", b), back,
    node("span", { id: "compare-summary" }), node("span", { id: "compare-error" }));
  const lists = node("div", { class: "compare-lists" }, node("section", { id: "compare-new" }), node("section", { id: "compare-fixed" }),
    node("section", { id: "compare-still" }), node("section", { id: "compare-piled" }));
  pane.append(head, node("div", { class: "compare-body" }, lists, node("div", { id: "compare-picture" })));
  document.querySelector(".stage").append(pane);
  return pane;
}

function open() {
  const pane = document.getElementById("compare") || build();
  shown = true;
  pane.hidden = false;
  document.getElementById("show-compare").setAttribute("aria-pressed", "true");
  fillSelects();
  load();
}

function close() {
  shown = false;
  const pane = document.getElementById("compare");
  if (pane) pane.hidden = true;
  const button = document.getElementById("show-compare");
  if (button) button.setAttribute("aria-pressed", "false");
  if (location.hash.startsWith("#compare")) history.replaceState(null, "", location.pathname + location.search);
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
  const list = document.getElementById("sessions");
  if (list) new MutationObserver(() => { if (shown) fillSelects(); }).observe(list, { childList: true });
  if (fromAddress()) open();
}
