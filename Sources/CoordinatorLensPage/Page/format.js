// Times and call sites as the panels print them.
import { el } from "./dom.js";

export const seconds = (value) => value == null ? "—" : (Math.abs(value) < 0.01 && value !== 0 ? (value * 1000).toFixed(1) + " ms" : value.toFixed(value < 10 ? 2 : 1) + " s");
// Call sites show the producer's short file name (`#fileID`); the full path, when sent, is in the title.
export const site = (s) => s ? el("span", { title: s.path || s.file }, breakable(`${s.file}:${s.line}`), s.function ? " — " + s.function : "") : "—";
// A call site that may wrap only between its parts, never inside a name: after a slash, before the extension and the
// line (`Chat/<wbr>ChatCoordinator<wbr>.swift<wbr>:42`).
export const breakable = (path) => path.split(/(?=[.:])|(?<=\/)/).flatMap((part, i) => i ? [el("wbr"), part] : [part]);
