// What the user looks at, kept in the page's address as Compare keeps its choice: the session (`run`), the selected
// coordinator (`node`, as the picture names it: `c12`), the point in time (`seq`), the filters (`leaks`,
// `released`, `all`, `grace`), the search (`q`) and the zoom (`view=x,y,k`). A reload or a shared link opens the
// same view; a new session or selection is a history entry of its own, so Back returns to the one before, while
// filters, search and zoom rewrite the entry they belong to. Compare's `#compare…` fragment is left to compare.js.
import { $ } from "./dom.js";
import { elementId, idOfElement, isNodeElement } from "./ids.js";
import { onChange, state } from "./state.js";

const CHECKBOXES = { leaks: "leaks-only", released: "show-released", all: "show-all" };
let asked = null;   // { run, node, seq, view } the address asked for, until that session is selected

function read() {
  const params = new URLSearchParams(location.search);
  const node = params.get("node");
  const view = (params.get("view") || "").split(",").map(Number);
  const seq = params.get("seq");
  return {
    params,
    run: params.get("run"),
    node: node && isNodeElement(node) ? idOfElement(node) : null,
    seq: seq != null && /^\d+$/.test(seq) ? Number(seq) : null,
    view: view.length === 3 && view.every(Number.isFinite) && view[2] > 0 ? { x: view[0], y: view[1], k: view[2] } : null,
  };
}

// The toolbar as the address says; whether anything changed.
function applyControls(params) {
  let changed = false;
  for (const [key, id] of Object.entries(CHECKBOXES)) {
    const on = params.get(key) === "1";
    if ($(id).checked !== on) { $(id).checked = on; changed = true; }
  }
  const grace = params.get("grace") ?? "";
  if ($("grace").value !== grace) { $("grace").value = grace; changed = true; }
  const query = params.get("q") ?? "";
  if ($("search").value !== query) $("search").value = query;
  return changed;
}

// The session the address asks for, if the feed holds it (sessions.js prefers it to its own default).
export const askedRun = () => asked && state.sessions.has(asked.run) ? asked.run : null;

// Called as sessions.js selects `run`: the selection, time and zoom the address asked for that run, applied to the
// state before its first picture is fetched.
export function restoreFor(run) {
  if (!asked || asked.run !== run) { asked = null; return; }
  const { node, seq, view } = asked;
  asked = null;
  state.seq = seq;
  state.node = node;
  if (view) { state.view = view; state.moved = true; } else if (node != null) state.centreWhenDrawn = node;
}

function current() {
  const params = new URLSearchParams();
  if (state.run != null) params.set("run", state.run);
  if (state.node != null) params.set("node", elementId(state.node));
  if (state.seq != null) params.set("seq", String(state.seq));
  for (const [key, id] of Object.entries(CHECKBOXES)) if ($(id).checked) params.set(key, "1");
  const grace = $("grace").value;
  if (grace !== "") params.set("grace", grace);
  const query = $("search").value.trim();
  if (query) params.set("q", query);
  if (state.moved) params.set("view", [state.view.x, state.view.y, state.view.k].map((v) => Number(v.toFixed(v < 10 ? 4 : 1))).join(","));
  return params;
}

let restoring = false;
// The address brought up to date: a new session or selection is pushed, anything else replaces the entry.
function write() {
  if (restoring || state.run == null || asked) return;
  const next = current();
  const now = new URLSearchParams(location.search);
  const search = "?" + next.toString();
  if (search === location.search) return;
  const hash = location.hash.startsWith("#compare") ? location.hash : "";
  // An entry another part of the page made (Compare's, as it hands over to the tree) is this view's own: rewritten,
  // so Back from here goes to the comparison rather than to an empty step.
  const ours = history.state && history.state.lens;
  const moved = ours && now.get("run") != null && (now.get("run") !== next.get("run") || now.get("node") !== next.get("node"));
  if (moved) history.pushState({ lens: true }, "", location.pathname + search + hash);
  else history.replaceState({ lens: true }, "", location.pathname + search + hash);
}

let later = null;
const writeSoon = () => { clearTimeout(later); later = setTimeout(write, 250); };

// Reads the address once, before the feed connects; `select(run)`, `pick(id, centre)`, `refresh()` and
// `setView(view)` are the page's own, given here so this module imports none of the views.
export function wireAddress({ select, pick, refresh, setView }) {
  const first = read();
  applyControls(first.params);
  if (first.run) asked = { run: first.run, node: first.node, seq: first.seq, view: first.view };
  // A pick is pushed at once; the zoom it brings is written once it settles.
  onChange("selection", () => { write(); writeSoon(); });
  onChange("model", write);
  for (const id of ["search", "grace"]) $(id).addEventListener("input", writeSoon);
  // Pan and zoom end with a release or a turn of the wheel; the view is written once it settles.
  for (const type of ["pointerup", "wheel", "keyup"]) $("viewport").addEventListener(type, writeSoon, { passive: true });
  window.addEventListener("popstate", () => {
    if (location.hash.startsWith("#compare")) return;
    const wanted = read();
    restoring = true;
    try {
      const filtersChanged = applyControls(wanted.params);
      if (wanted.run && wanted.run !== state.run && state.sessions.has(wanted.run)) {
        asked = { run: wanted.run, node: wanted.node, seq: wanted.seq, view: wanted.view };
        select(wanted.run);
        return;
      }
      const seqChanged = wanted.seq !== state.seq;
      state.seq = wanted.seq;
      if (filtersChanged || seqChanged) refresh();
      if (wanted.node !== state.node) {
        if (wanted.node == null) { state.node = null; pick(null, false); } else pick(wanted.node, !wanted.view);
      }
      if (wanted.view) setView(wanted.view);
    } finally {
      restoring = false;
    }
  });
}
