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
  const place = `event ${model.seq ?? model.summary.lastSeq ?? 0} of ${last}` + (model.event ? ` · ${model.event}` : "")
    + ` · ${seconds(model.evaluatedAt)}`;
  $("position").textContent = (state.seq == null ? (recorded ? "end · " : "live · ") : "") + place
    + (model.historyComplete ? "" : " (time travel covers the first part only)");
  // A screen reader says where the slider stands, not a bare number.
  slider.setAttribute("aria-valuetext", place);
  const span = Math.max(1, last - first);
  const marks = marksOf(model);
  $("ticks").replaceChildren(...marks.map((m) => el("button", {
    type: "button", class: "tick", title: `${m.label} (event ${m.seq}, ${seconds(m.time)})`, "data-seq": String(m.seq),
    "aria-label": `${m.label}, event ${m.seq}`, on: { click: () => travel(m.seq) },
  }, m.label)));
  for (const tick of $("ticks").children) tick.style.left = `${((Number(tick.dataset.seq) - first) / span) * 100}%`;
  stackLabels();
}

// Every mark the session has shown, so stepping back to before a mark keeps its tick (a past model holds only the
// marks up to its event).
let marksRun = null;
let marksSeen = new Map();
function marksOf(model) {
  if (marksRun !== model.summary.run) { marksRun = model.summary.run; marksSeen = new Map(); }
  for (const mark of model.marks) marksSeen.set(mark.seq, mark);
  return [...marksSeen.values()].sort((a, b) => a.seq - b.seq);
}

// Each label goes in the first row where it clears the one before it; past the last row a label is left out (its
// tick stays, named by its title and aria-label), so no two labels ever overlap; so is one past the slider's ends.
const LABEL_ROWS = 3, GAP = 6;
function stackLabels() {
  const ticks = [...$("ticks").children];
  const ends = new Array(LABEL_ROWS).fill(-Infinity);
  // Measured before any is moved: one layout, not one per mark.
  const boxes = ticks.map((tick) => tick.getBoundingClientRect());
  const rowHeight = Math.ceil(Math.max(0, ...boxes.map((box) => box.height)));
  // A label past either end of the slider would widen the page (a 390 px window became 415 px wide): left out too.
  const edges = $("ticks").getBoundingClientRect();
  ticks.forEach((tick, i) => {
    const box = boxes[i];
    const inside = box.left >= edges.left - GAP && box.right <= edges.right + GAP;
    const row = inside ? ends.findIndex((end) => box.left >= end + GAP) : -1;
    if (row < 0) { tick.classList.add("unlabelled"); tick.style.top = "0"; return; }
    ends[row] = box.right;
    tick.style.top = `${row * rowHeight}px`;
  });
  $("ticks").style.height = `${Math.max(1, Math.min(LABEL_ROWS, ticks.length)) * rowHeight + 2}px`;
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
