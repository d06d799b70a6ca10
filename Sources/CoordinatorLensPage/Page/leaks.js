// The leaks panel (groups by fingerprint, as `coordlens diff` groups them) and the warnings panel.
import { $, el } from "./dom.js";
import { link, selectNode } from "./details.js";

export function drawLeaks(model) {
  const total = model.leaks.reduce((sum, group) => sum + group.ids.length, 0);
  $("leak-count").textContent = total;
  $("leak-count").classList.toggle("some", total > 0);
  $("leaks").replaceChildren(...model.leaks.map((group) => el("li", { class: "leak", "data-fingerprint": group.fingerprint },
    el("button", { type: "button", class: "leak-head", on: { click: () => selectNode(group.ids[0], true) } }, el("span", { class: "n" }, `×${group.ids.length}`), group.fingerprint),
    el("div", { class: "members" }, group.ids.slice(0, 12).map(link), group.ids.length > 12 ? `… ${group.ids.length - 12} more` : null))));
  if (model.undecided) $("leaks").append(el("li", { class: "hint" }, `${model.undecided} undecided: the run ended within the grace period of a done coordinator`));
}

export function drawWarnings(model) {
  $("warning-count").textContent = model.warnings.length;
  $("warnings").replaceChildren(...model.warnings.map((w) => el("li", {}, w.line > 0 ? el("span", { class: "mono" }, `line ${w.line}: `) : null, w.message)));
}
