// Times and call sites as the panels print them.
import { el } from "./dom.js";

export const seconds = (value) => value == null ? "—" : (Math.abs(value) < 0.01 && value !== 0 ? (value * 1000).toFixed(1) + " ms" : value.toFixed(value < 10 ? 2 : 1) + " s");
// Call sites show the producer's short file name (`#fileID`); the full path, when sent, is in the title.
export const site = (s) => s ? el("span", { title: s.path || s.file }, breakable(`${s.file}:${s.line}`), s.function ? " — " + s.function : "") : "—";
// A path that may wrap only after its slashes, never inside a name: `Chat/<wbr>ChatCoordinator.swift:42`.
export const breakable = (path) => path.split("/").flatMap((part, i) => i ? [el("wbr"), "/" + part] : [part]);
