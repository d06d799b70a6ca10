// A coordinator's tooltip in the picture, written from the model the first time the pointer is over its box: the
// server's pictures carry none (at 5,000 coordinators drawn whole they were a fifth of the SVG the page parsed), and
// the browser shows a group's <title> child, which Graphviz writes as the node's name, as its tooltip.
import { shown } from "./dom.js";
import { seconds } from "./format.js";
import { idOfElement, isNodeElement } from "./ids.js";
import { nodeById } from "./state.js";

const SVG_NS = "http://www.w3.org/2000/svg";

// The same lines `coordlens render` puts in its SVG's tooltips: who, the verdict and why, where, and when.
export function tooltipText(node) {
  const lines = [`${node.type}#${node.id}` + (node.screen ? ` · ${node.screen}` : ""), node.verdict + (node.reason ? `: ${node.reason}` : "")];
  for (const [word, site] of [["added", node.site], ["bound", node.boundSite], ["dismissed", node.dismissedSite], ["removed", node.removedSite]]) {
    if (site) lines.push(`${word} at ${site.file}:${site.line}` + (site.function ? ` in ${site.function}` : ""));
  }
  const times = [`added ${seconds(node.addedAt)}`];
  if (node.doneAt != null) times.push(`done ${seconds(node.doneAt)}`);
  if (node.deinitAt != null) times.push(`deinited ${seconds(node.deinitAt)}`);
  lines.push(times.join(" · ") + " into the run");
  return shown(lines.join("\n"));
}

// Gives the coordinator's box under `event` its tooltip, once per picture (a new picture comes without).
export function tooltipOnHover(event) {
  const box = event.target.closest && event.target.closest("g.node");
  if (!box || box.dataset.tooltip || !isNodeElement(box.id)) return;
  const node = nodeById(idOfElement(box.id));
  if (!node) return;
  let title = box.querySelector(":scope > title");
  if (!title) {
    title = document.createElementNS(SVG_NS, "title");
    box.prepend(title);
  }
  title.textContent = tooltipText(node);
  box.dataset.tooltip = "written";
}
