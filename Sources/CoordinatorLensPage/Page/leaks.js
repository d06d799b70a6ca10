// The leaks panel (groups by fingerprint, as `coordlens diff` groups them, new ones first) with the line of code each
// leak was added at, to copy or open in the user's editor (`--editor-url`), and the warnings panel. A leak that
// appears while the page is open is announced to screen readers.
import { $, el, shown } from "./dom.js";
import { link, selectNode } from "./details.js";
import { breakable } from "./format.js";
import { siteRow } from "./site-actions.js";
import { nodeById, state } from "./state.js";

let announcedFor = null;   // the run whose leaks `known` holds
let known = new Set();

export function drawLeaks(model) {
  const total = model.leaks.reduce((sum, group) => sum + group.ids.length, 0);
  $("leak-count").textContent = total;
  $("leak-count").classList.toggle("some", total > 0);
  $("leaks").replaceChildren(...model.leaks.map((group) => el("li", { class: "leak", "data-fingerprint": group.fingerprint },
    el("button", { type: "button", class: "leak-head", on: { click: () => selectNode(group.ids[0], true) } }, el("span", { class: "n" }, `×${group.ids.length}`), breakable(group.fingerprint)),
    siteRow(nodeById(group.ids[0])?.site, model.editorURL),
    el("div", { class: "members" }, group.ids.slice(0, 12).map(link), group.ids.length > 12 ? `… ${group.ids.length - 12} more` : null))));
  if (model.stoppedWithoutEnd) $("leaks").append(el("li", { class: "hint stopped" }, model.stoppedWithoutEnd));
  if (model.undecided) $("leaks").append(el("li", { class: "hint" }, `${model.undecided} undecided: the run ended within the grace period of a done coordinator`));
  announce(model);
}

// Says, once, each leak that was not there the last time this session's leaks were drawn; a session's first drawing
// says nothing, as its leaks are on screen already.
function announce(model) {
  const run = model.summary.run;
  const ids = model.leaks.flatMap((group) => group.ids.map((id) => [id, group]));
  const fresh = announcedFor === run ? ids.filter(([id]) => !known.has(id)) : [];
  if (announcedFor !== run || model.seq == null) {
    known = new Set(ids.map(([id]) => id));
    announcedFor = run;
  }
  if (!fresh.length || model.seq != null) return;
  const [id, group] = fresh[0];
  const node = nodeById(id);
  const what = node ? `${node.type}#${id}` : `#${id}`;
  $("announce").textContent = shown(fresh.length === 1 ? `New leak: ${what}, ${group.reasonKind}` : `${fresh.length} new leaks, the first ${what}, ${group.reasonKind}`);
}

export function drawWarnings(model) {
  $("warning-count").textContent = model.warnings.length;
  $("warnings").replaceChildren(...model.warnings.map((w) => el("li", {}, w.line > 0 ? el("span", { class: "mono" }, `line ${w.line}: `) : null, w.message)));
}
