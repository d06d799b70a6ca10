// The leaks panel, cause first: the rows of one cause (the signature of its suspect references, as `coordlens check`
// groups leaks) under it, each row a fingerprint (as `coordlens diff` groups them, new ones first) with the line of
// code its leaks were added at, to copy or open in the user's editor (`--editor-url`); and the warnings panel. A leak
// that appears while the page is open is announced to screen readers.
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
  // Causes in the order of their first row, so the list keeps new leaks first.
  const causes = new Map();
  for (const group of model.leaks) {
    if (!causes.has(group.cause)) causes.set(group.cause, []);
    causes.get(group.cause).push(group);
  }
  $("leaks").replaceChildren(...[...causes].map(([cause, groups]) => {
    const kept = groups.reduce((sum, group) => sum + group.ids.length, 0);
    const through = groups.reduce((sum, group) => sum + (group.through || []).length, 0);
    return el("li", { class: "cause" },
      el("div", { class: "cause-head" }, el("span", { class: "cause-label" }, "Cause "), breakable(cause || "not known"),
        el("span", { class: "cause-count" }, ` keeps ${kept === 1 ? "1 coordinator" : `${kept} coordinators`}` + (through ? ` (${through} held through another leak)` : ""))),
      el("ul", { class: "cause-leaks" }, groups.map((group) => row(group, model.editorURL))));
  }));
  if (model.stoppedWithoutEnd) $("leaks").append(el("li", { class: "hint stopped" }, model.stoppedWithoutEnd));
  if (model.undecided) $("leaks").append(el("li", { class: "hint" }, `${model.undecided} undecided: the run ended within the grace period of a done coordinator`));
  announce(model);
}

function row(group, editorURL) {
  return el("li", { class: "leak", "data-fingerprint": group.fingerprint },
    el("button", { type: "button", class: "leak-head", on: { click: () => selectNode(group.ids[0], true) } }, el("span", { class: "n" }, `×${group.ids.length}`), breakable(group.fingerprint)),
    siteRow(nodeById(group.ids[0])?.site, editorURL),
    el("div", { class: "members" }, group.ids.slice(0, 12).map(link), group.ids.length > 12 ? `… ${group.ids.length - 12} more` : null));
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
