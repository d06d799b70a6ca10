// What the colours mean and what the picture leaves out, in the page rather than inside the picture: drawn inside, the
// title and legend took the tree's space and shrank its text to a few pixels.
import { $, el } from "./dom.js";
import { seconds } from "./format.js";
import { isNodeElement } from "./ids.js";
import { VERDICTS, state } from "./state.js";
import { isCanvasShown, nodeNames } from "./tree-canvas.js";

const MEANING = {
  retained: (grace) => `done over ${grace} ago and never deinited: a leak`,
  pending: (grace) => `done; its deinit is still within the ${grace} grace`,
  alive: () => "in use",
  late: (grace) => `deinited, but over ${grace} after it was done`,
  released: () => "deinited in time",
};

const ATTACHED = "a dotted red edge: a retained coordinator whose parent does not hold it, drawn under the parent it was attached to, not as the parent holding it";

export function drawLegend() {
  const model = state.model;
  if (!model) { $("legend").replaceChildren(); $("caption").textContent = ""; return; }
  const grace = seconds(model.grace);
  const counts = model.summary.counts;
  $("legend").replaceChildren(...VERDICTS.map((verdict) => el("li", { class: "key " + verdict, title: MEANING[verdict](grace) },
    el("span", { class: "swatch " + verdict, "aria-hidden": "true" }), `${verdict} ${counts[verdict] || 0}`)),
  // The one edge that does not mean "holds": a retained coordinator whose parent does not keep it is drawn where it
  // was attached, by a dotted red edge, so the picture does not blame the parent for the leak.
  el("li", { class: "key attached", title: ATTACHED },
    el("span", { class: "swatch attached", "aria-hidden": "true" }), "dotted: attached, not held",
    el("span", { class: "offscreen" }, ` (${ATTACHED})`)));
  drawCaption();
}

// How much of the model the picture draws as itself, counted from the picture: a summary (grey box, a red outline
// when it holds leaks) opens with a click or Enter.
export function drawCaption() {
  const model = state.model;
  const tree = $("tree");
  const canvas = isCanvasShown();
  if (!model || (!canvas && !tree.querySelector("svg"))) { $("caption").textContent = ""; return; }
  let drawn = 0, summaries = 0;
  for (const name of canvas ? nodeNames() : [...tree.querySelectorAll("g.node")].map((node) => node.id)) {
    if (isNodeElement(name)) drawn++;
    else if (name.startsWith("g")) summaries++;
  }
  const total = model.nodes.length;
  const parts = [`${drawn.toLocaleString("en")} of ${total.toLocaleString("en")} coordinators drawn`];
  if (summaries) parts.push(`${summaries.toLocaleString("en")} summar${summaries === 1 ? "y" : "ies"} (grey; red outline: holds leaks; click to open)`);
  $("caption").textContent = parts.join(" · ");
}
