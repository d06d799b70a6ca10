// Time travel: the slider over the session's events, its marks as ticks, the Live button and the arrow keys.
import { $, el } from "./dom.js";
import { refresh } from "./feed.js";
import { seconds } from "./format.js";
import { state } from "./state.js";

export function drawTimeline() {
  const model = state.model;
  const slider = $("slider");
  const first = model.firstSeq ?? 0, last = model.lastSeq ?? 0;
  slider.min = first;
  slider.max = last;
  if (state.seq == null) slider.value = last;
  // A recording has an end, not a present: the button and the position say so.
  const recorded = model.summary.state === "recorded";
  $("live").textContent = recorded ? "End" : "Live";
  $("live").title = recorded ? "Back to the end of the recording" : "Back to the present";
  $("live").setAttribute("aria-pressed", String(state.seq == null));
  const place = `event ${model.seq ?? model.summary.lastSeq ?? 0} of ${last} · ${seconds(model.evaluatedAt)}`;
  $("position").textContent = (state.seq == null ? (recorded ? "end · " : "live · ") : "") + place
    + (model.historyComplete ? "" : " (time travel covers the first part only)");
  // A screen reader says where the slider stands, not a bare number.
  slider.setAttribute("aria-valuetext", place);
  const span = Math.max(1, last - first);
  $("ticks").replaceChildren(...model.marks.map((m) => el("button", {
    type: "button", class: "tick", title: `${m.label} (event ${m.seq}, ${seconds(m.time)})`, "data-seq": String(m.seq),
    on: { click: () => travel(m.seq) },
  }, m.label)));
  // Neighbouring marks alternate between two rows so their labels do not overlap.
  [...$("ticks").children].forEach((tick, i) => {
    tick.style.left = `${((Number(tick.dataset.seq) - first) / span) * 100}%`;
    tick.style.top = i % 2 ? "14px" : "0";
  });
}
// Within the events the model holds: a step past either end would ask for an event that does not exist.
function travel(seq) {
  state.seq = Math.min(Number($("slider").max), Math.max(Number($("slider").min), seq));
  $("slider").value = state.seq;
  refresh();
}
// One event back or forward from the one shown (the last, when live).
export function step(by) {
  const current = state.seq ?? Number($("slider").max);
  travel(current + by);
}

export function wireSlider() {
  $("live").addEventListener("click", () => { state.seq = null; refresh(); });
  $("slider").addEventListener("input", () => travel(Number($("slider").value)));
}
