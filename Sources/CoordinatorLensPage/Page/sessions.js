// The sessions list: one button per run the feed reported, and choosing the session the page shows.
import { askedRun, restoreFor } from "./address.js";
import { $, el } from "./dom.js";
import { camelBreakable } from "./format.js";
import { drawDetails } from "./details.js";
import { refresh, sessionMoved } from "./feed.js";
import { resetOutline } from "./outline.js";
import { VERDICTS, changed, state } from "./state.js";
import { dropLayout } from "./tree-canvas.js";

// The runs heard of so far (null before the feed's first word): a run not among them is new.
let heard = null;

// The feed changed the sessions: keep one selected (a live one first), follow a new run of the app shown, and fetch
// the shown one again when it moved.
export function sessionsChanged() {
  const fresh = heard == null ? [] : [...state.sessions.keys()].filter((run) => !heard.has(run));
  heard = new Set(state.sessions.keys());
  followNewRun(fresh);
  if (state.run == null || !state.sessions.has(state.run)) {
    const first = [...state.sessions.values()].find((s) => s.state === "live") || state.sessions.values().next().value;
    const wanted = askedRun() ?? first?.run;
    if (wanted != null) select(wanted); else if (state.run != null) select(null);
  }
  drawSessions();
  changed("sessions");
  if (state.shown && sessionMoved()) refresh();
}

// A new run of the app on screen (the app started again): shown at once while the page shows the present with no
// coordinator picked, as one follows a log; otherwise offered, so a look at the old run's details is not taken away.
function followNewRun(fresh) {
  const shown = state.sessions.get(state.run);
  const next = fresh.map((run) => state.sessions.get(run)).filter((s) => shown && s.app === shown.app).pop();
  if (!next) return;
  const name = `${next.app} · ${next.run}`;
  if (state.seq == null && state.node == null) {
    select(next.run);
    $("announce").textContent = `Showing the new run of ${name}`;
    return;
  }
  const show = el("button", { type: "button", on: { click: () => { $("new-run").hidden = true; select(next.run); } } }, "Show it");
  $("new-run").replaceChildren(`New run: ${name}`, show);
  $("new-run").hidden = false;
}

function drawSessions() {
  const list = $("sessions");
  $("no-sessions").hidden = state.sessions.size > 0;
  const runs = [...state.sessions.keys()];
  // One tab stop for the list: the chosen session (or the first); the arrows move between the others.
  const stop = runs.includes(state.run) ? state.run : runs[0];
  const focusedRun = list.contains(document.activeElement) ? document.activeElement.dataset.run : null;
  list.replaceChildren(...[...state.sessions.values()].map((s) => {
    // Against a baseline or history, leaks it knows are no alarm: a run with only those shows no red badge.
    const knownOnly = s.unknownLeaks === 0;
    const badges = VERDICTS.filter((v) => s.counts[v]).map((v) => v === "retained" && knownOnly
      ? el("span", { class: "badge known-leaks", title: "retained, all known leaks" }, `${s.counts[v]} retained (known)`)
      : el("span", { class: "badge " + v, title: v }, `${s.counts[v]} ${v}`));
    return el("li", { class: "session", role: "option", "data-run": s.run, "aria-selected": String(s.run === state.run), tabIndex: s.run === stop ? 0 : -1 },
      el("span", { class: "app" }, camelBreakable(s.app), " ", el("span", { class: "badge state " + s.state }, s.state)),
      el("span", { class: "run" }, s.run),
      el("span", { class: "badges" }, badges, s.warnings ? el("span", { class: "badge", title: "warnings" }, `${s.warnings} warnings`) : null),
      el("span", { class: "run" }, `${s.coordinators} coordinators · ${s.events} events`));
  }));
  // Redrawing replaced the element that had focus: give it back to the same session.
  if (focusedRun != null) [...list.children].find((item) => item.dataset.run === focusedRun)?.focus();
}

// The sessions list is a listbox: a click, Enter or Space chooses a session; Up and Down (Home, End) move and choose.
export function wireSessions() {
  const list = $("sessions");
  list.addEventListener("click", (event) => {
    const item = event.target.closest && event.target.closest("li.session");
    if (item) select(item.dataset.run);
  });
  list.addEventListener("keydown", (event) => {
    const item = event.target.closest && event.target.closest("li.session");
    if (!item) return;
    const items = [...list.children];
    const at = items.indexOf(item);
    const to = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: items.length - 1 }[event.key];
    if (event.key === "Enter" || event.key === " ") { event.preventDefault(); select(item.dataset.run); return; }
    if (to == null || !items[to]) return;
    event.preventDefault();
    items[to].focus();
    select(items[to].dataset.run);
  });
}

export function select(run) {
  if (run === state.run) return;
  $("new-run").hidden = true;
  state.run = run;
  state.seq = null;
  state.node = null;
  state.model = null;
  state.shown = null;
  state.moved = false;
  state.reveal = null;
  state.opened = new Set();
  state.centreWhenDrawn = null;
  restoreFor(run);
  resetOutline();
  $("tree").replaceChildren();
  dropLayout();
  $("tree-empty").hidden = run != null;
  drawSessions();
  drawDetails();
  if (run != null) refresh();
}
