// A leak as plain text, for a bug report or a chat: who leaked and why, where it was made, the leak trace one
// reference per line from the living holder down (the suspect reference marked, as LeakCanary marks it) and the
// page's address of the selection, so whoever reads it can open the same view.
import { seconds, sourceFile, stepKind } from "./format.js";

// Whether each object on a leak trace is leaking, as LeakCanary says it of every object, and the suspect references:
// from the last object that is not leaking to the first that is, where the bug is. The inspector judges both
// (`LeakTrace`: a living coordinator, its screen or a root is not leaking; a retained coordinator is; anything else is
// unknown), so the page, `check` and the CI formats mark the same references. `held` is a heldBy entry; a trace the
// inspector did not judge (not a leak's) marks its last reference.
const judged = { no: "alive", yes: "leaking", unknown: "unknown" };
export function traceStates(held) {
  const by = held.by;
  const states = held.leaking ? held.leaking.map((value) => judged[value] || "unknown") : by.steps.map(() => "unknown").concat(["leaking"]);
  const suspects = new Set(held.suspects || [by.steps.length - 1]);
  return { states, suspects };
}
const stateWords = { alive: "Leaking: NO (alive)", leaking: "Leaking: YES (retained)", unknown: "Leaking: UNKNOWN" };

const siteText = (site) => site ? `${sourceFile(site)}:${site.line}` + (site.function ? ` in ${site.function}` : "") : null;

// `held` is the model's heldBy entry for `node` (or undefined), `byId` the model's coordinators by id.
export function leakTraceText(node, held, byId, address) {
  const name = (id, fallback) => { const at = byId.get(id); return at ? `${at.type}#${id}` : fallback ?? `#${id}`; };
  const lines = [`${node.type}#${node.id}` + (node.screen ? ` (${node.screen})` : "") + ` — ${node.verdict}` + (node.reason ? `: ${node.reason}` : "")];
  for (const [word, site] of [["added at", node.site], ["dismissed at", node.dismissedSite], ["removed at", node.removedSite]]) {
    if (site) lines.push(`${word} ${siteText(site)}`);
  }
  const times = [`added ${seconds(node.addedAt)}`];
  if (node.doneAt != null) times.push(`done ${seconds(node.doneAt)}`);
  if (node.deinitAt != null) times.push(`deinited ${seconds(node.deinitAt)}`);
  lines.push(times.join(", ") + " into the run");
  const by = held && held.by;
  if (by && (by.outcome === "live" || by.outcome === "cycle")) {
    lines.push("", by.outcome === "cycle" ? "Leak trace (a cycle):" : "Leak trace:");
    const { states, suspects } = traceStates(held);
    by.steps.forEach((step, i) => {
      const holder = step.holderID != null ? name(step.holderID, step.holder) : step.holder;
      lines.push(`${i ? "├─" : "┬─"} ${holder}`, `│    ${stateWords[states[i]]}`);
      lines.push(`│    ↓ ${step.field ? "." + step.field : "holds it"}` + stepKind(step) + (suspects.has(i) ? "   ← suspect: the bug is on a reference marked so" : ""));
    });
    lines.push(`╰→ ${name(node.id)} (leaking)`);
  } else if (held) {
    lines.push("", `Held by: ${held.text}`);
  }
  if (address) lines.push("", address);
  return lines.join("\n");
}
