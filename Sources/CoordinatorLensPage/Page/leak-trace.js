// A leak as plain text, for a bug report or a chat: who leaked and why, where it was made, the leak trace one
// reference per line from the living holder down (the suspect reference marked, as LeakCanary marks it) and the
// page's address of the selection, so whoever reads it can open the same view.
import { seconds, sourceFile, stepKind } from "./format.js";

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
    by.steps.forEach((step, i) => {
      const holder = step.holderID != null ? name(step.holderID, step.holder) : step.holder;
      const suspect = i === by.steps.length - 1;
      lines.push(`${i ? "├─" : "┬─"} ${holder}`);
      lines.push(`│    ↓ ${step.field ? "." + step.field : "holds it"}` + stepKind(step) + (suspect ? "   ← suspect: this reference keeps it" : ""));
    });
    lines.push(`╰→ ${name(node.id)} (leaking)`);
  } else if (held) {
    lines.push("", `Held by: ${held.text}`);
  }
  if (address) lines.push("", address);
  return lines.join("\n");
}
