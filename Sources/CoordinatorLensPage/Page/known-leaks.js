// Known and new leaks (`view --baseline FILE --history DB`): marks each leak in the leaks panel and in the tree, and
// draws a chosen fingerprint's count per stored run as a small SVG chart. It reads the model the feed fetched
// (`state.model`) and follows the panel's and the tree's redraws; every text from the model goes through textContent.
import { shown, svgElement as svg } from "./dom.js";
import { elementId } from "./ids.js";
import { onChange, state } from "./state.js";

let chosen = null;

// A coordinator's node in the tree, by the element id the picture gives it.
function treeNode(id) {
  const tree = document.getElementById("tree");
  return tree ? tree.querySelector(`[id="${CSS.escape(elementId(id))}"]`) : null;
}

function markPanel(model) {
  const byFingerprint = new Map(model.leaks.map((group) => [group.fingerprint, group]));
  for (const item of document.querySelectorAll("#leaks li.leak")) {
    const group = byFingerprint.get(item.dataset.fingerprint);
    if (!group || !group.standing || item.querySelector(".standing")) continue;
    item.classList.add("standing-" + group.standing);
    const note = document.createElement("div");
    note.className = "standing";
    note.textContent = ({ new: "NEW · ", grown: "GROWN · " }[group.standing] || "known · ") + shown(group.note || "");
    item.append(note);
    if (model.leakHistory && model.leakHistory.counts[group.fingerprint]) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "chart-button";
      button.textContent = "count per run";
      button.addEventListener("click", (event) => { event.stopPropagation(); chosen = group.fingerprint; drawChart(model); });
      note.append(" ", button);
    }
  }
}

function markTree(model) {
  for (const group of model.leaks) {
    if (!group.standing) continue;
    for (const id of group.ids) {
      const node = treeNode(id);
      if (!node) continue;
      node.classList.remove("leak-known", "leak-new");
      node.classList.add(group.standing === "known" ? "leak-known" : "leak-new");
    }
  }
}

// One bar per stored run, oldest on the left; the bar's title says the run's day, commit and count.
function drawChart(model) {
  let panel = document.getElementById("leak-chart");
  const history = model.leakHistory;
  if (!history || !chosen || !history.counts[chosen]) { if (panel) panel.remove(); return; }
  if (!panel) {
    panel = document.createElement("div");
    panel.id = "leak-chart";
    document.getElementById("leaks").after(panel);
  }
  const counts = history.counts[chosen];
  // As wide as the panel, never wider; room on the left for the count axis and below for the runs axis.
  const width = Math.max(160, Math.min(420, panel.clientWidth || 280)), height = 110;
  const left = 30, right = 6, top = 8, bottom = 30;
  const plotWidth = width - left - right, plotHeight = height - top - bottom;
  const most = Math.max(1, ...counts);
  const step = plotWidth / Math.max(1, counts.length);
  const chart = svg("svg", { viewBox: `0 0 ${width} ${height}`, width, height, role: "img",
    "aria-label": `${chosen}: count per stored run, from ${counts[0]} to ${counts[counts.length - 1]}, at most ${most}` });
  const title = svg("title");
  title.textContent = shown(`${chosen}: count per stored run`);
  chart.append(title);
  const text = (x, y, words, anchor, extra = {}) => {
    const label = svg("text", { x, y, class: "axis", "text-anchor": anchor, ...extra });
    label.textContent = words;
    chart.append(label);
  };
  chart.append(svg("line", { x1: left, y1: top, x2: left, y2: top + plotHeight, class: "axis-line" }),
    svg("line", { x1: left, y1: top + plotHeight, x2: left + plotWidth, y2: top + plotHeight, class: "axis-line" }));
  text(left - 4, top + 8, String(most), "end");
  text(left - 4, top + plotHeight, "0", "end");
  text(10, top + plotHeight / 2, "count", "middle", { transform: `rotate(-90 10 ${top + plotHeight / 2})` });
  counts.forEach((count, index) => {
    const barHeight = plotHeight * count / most;
    const bar = svg("rect", {
      x: left + index * step + 1, y: top + plotHeight - barHeight, width: Math.max(1, step - 2), height: barHeight,
      class: count > 0 ? "bar" : "bar none",
    });
    const tip = svg("title");
    const run = history.runs[index];
    tip.textContent = `${run.day}${run.commit ? " at " + run.commit : ""}: ${count}`;
    bar.append(tip);
    chart.append(bar);
  });
  const runs = history.runs;
  text(left, top + plotHeight + 12, runs[0].day, "start");
  if (runs.length > 1) text(left + plotWidth, top + plotHeight + 12, runs[runs.length - 1].day, "end");
  text(left + plotWidth / 2, height - 3, `stored runs (${runs.length}), oldest first`, "middle");
  const caption = document.createElement("div");
  caption.className = "chart-caption";
  caption.textContent = shown(chosen);
  panel.replaceChildren(caption, chart);
}

function update() {
  const model = state.model;
  if (!model || !model.leaks) return;
  markPanel(model);
  markTree(model);
  if (chosen) drawChart(model);
}

// Follows every new model (the leaks panel redrawn) and every new picture from now on.
export function watchKnownLeaks() {
  onChange("model", update);
  onChange("tree", update);
  update();
}
