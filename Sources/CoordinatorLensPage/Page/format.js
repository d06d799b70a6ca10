// Times and call sites as the panels print them.
import { el } from "./dom.js";

export const seconds = (value) => value == null ? "—" : (Math.abs(value) < 0.01 && value !== 0 ? (value * 1000).toFixed(1) + " ms" : value.toFixed(value < 10 ? 2 : 1) + " s");
// Call sites show the producer's short file name (`#fileID`); the full path, when sent, is in the title.
export const site = (s) => s ? el("span", { title: sourceFile(s) }, breakable(`${s.file}:${s.line}`), s.function ? " — " + s.function : "") : "—";
const fileName = (path) => path.slice(path.lastIndexOf("/") + 1);
// The file a call site's Copy, Open and title name: its `path` only when that is the file the row shows (the same last
// component as `file`), otherwise `file`. A wrapper that forwards its caller's file and line but not `filePath` sends
// its own path, which would take the user to the wrapper instead of the line the row names.
export const sourceFile = (s) => s.path && fileName(s.path) === fileName(s.file ?? "") ? s.path : s.file;
// A call site that may wrap only between its parts, never inside a word: after a slash, before the extension and the
// line (`Chat/<wbr>ChatCoordinator<wbr>.swift<wbr>:42`), and, when even that is too wide (a folder's name alone was
// wider than a phone's details panel), between the words of a name (`Deliveroo<wbr>Traditional<wbr>Sample/`).
export const breakable = (path) => path.split(/(?=[.:])|(?<=\/)|(?<=[a-z0-9])(?=[A-Z])/).flatMap((part, i) => i ? [el("wbr"), part] : [part]);
// A name that may wrap only where a word of it begins (`Deliveroo<wbr>Traditional<wbr>Sample`): wrapped anywhere, a
// long app name broke as "DeliverooTraditionalSampl/e".
export const camelBreakable = (name) => name.split(/(?<=[a-z0-9])(?=[A-Z])/).flatMap((part, i) => i ? [el("wbr"), part] : [part]);

// What a leak trace's step is, as the hook and `check` word it: ` (capture)`, ` (captured by closure #1 in
// Router.add(_:))`, ` (closure #2 in Flow.start())`; nothing for a plain property.
export function stepKind(step) {
  if (step.kind === "property") return "";
  const name = step.closure;
  if (!name) return ` (${step.kind})`;
  if (step.kind === "closure") return name.includes("closure #") ? ` (${name})` : ` (closure ${name})`;
  if (step.kind === "capture") return ` (captured by ${name})`;
  if (step.kind === "captured-var") return ` (var captured by ${name})`;
  return ` (${step.kind})`;
}
