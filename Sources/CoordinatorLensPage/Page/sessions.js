// The sessions list: one button per run the feed reported, and choosing the session the page shows.
import { $, el } from "./dom.js";
import { drawDetails } from "./details.js";
import { refresh } from "./feed.js";
import { VERDICTS, state, countsKey } from "./state.js";

// The feed changed the sessions: keep one selected (a live one first) and fetch it again when it moved.
export function sessionsChanged() {
  if (state.run == null || !state.sessions.has(state.run)) {
    const first = [...state.sessions.values()].find((s) => s.state === "live") || state.sessions.values().next().value;
    if (first) select(first.run); else if (state.run != null) select(null);
  }
  drawSessions();
  const summary = state.sessions.get(state.run);
  if (summary && state.shown && (summary.version !== state.shown.version || countsKey(summary) !== state.shown.counts)) refresh();
}

function drawSessions() {
  const list = $("sessions");
  $("no-sessions").hidden = state.sessions.size > 0;
  list.replaceChildren(...[...state.sessions.values()].map((s) => {
    const badges = VERDICTS.filter((v) => s.counts[v]).map((v) => el("span", { class: "badge " + v, title: v }, `${s.counts[v]} ${v}`));
    // A button, so a session is chosen from the keyboard as with the mouse.
    return el("li", { "data-run": s.run },
      el("button", { type: "button", class: "session", "aria-pressed": String(s.run === state.run), on: { click: () => select(s.run) } },
        el("span", { class: "app" }, s.app, " ", el("span", { class: "badge state " + s.state }, s.state)),
        el("span", { class: "run" }, s.run),
        el("span", { class: "badges" }, badges, s.warnings ? el("span", { class: "badge", title: "warnings" }, `${s.warnings} warnings`) : null),
        el("span", { class: "run" }, `${s.coordinators} coordinators · ${s.events} events`)));
  }));
}

export function select(run) {
  if (run === state.run) return;
  state.run = run;
  state.seq = null;
  state.node = null;
  state.model = null;
  state.shown = null;
  state.fitted = false;
  $("tree").replaceChildren();
  $("tree-empty").hidden = run != null;
  drawSessions();
  drawDetails();
  if (run != null) refresh();
}
