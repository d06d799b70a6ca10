// A big tree painted on a canvas from the server's layout (/api/layout): at 100,000 coordinators an SVG is millions
// of DOM nodes and gigabytes in the renderer, while a canvas holds one bitmap the size of the view. Only what is in
// view is painted, and text only where it reads. tree-view.js owns the view (pan, zoom, picks) for both pictures;
// this module paints one and answers where its boxes are.
import { shown as visibleText } from "./dom.js";
import { isNodeElement } from "./ids.js";

// The picture's palette (NodeLook.swift), light and dark as inspector.css turns the SVG's: a leak looks the same in both.
const LIGHT = {
  alive: ["#ffffff", "#1f2328", "#1f2328"], pending: ["#ffa94d", "#c2410c", "#1f2328"], retained: ["#cf222e", "#82071e", "#ffffff"],
  released: ["#f6f8fa", "#8c959f", "#57606a"], late: ["#f6f8fa", "#8c959f", "#57606a"],
  summary: ["#eaeef2", "#8c959f", "#1f2328"], "summary-retained": ["#eaeef2", "#e5484d", "#1f2328"], omission: ["#ffffff", "#8c959f", "#6e7781"],
};
const DARK = {
  ...LIGHT,
  alive: ["#1c2128", "#9da7b3", "#e6edf3"], released: ["#161b22", "#8c959f", "#e6edf3"], late: ["#161b22", "#8c959f", "#e6edf3"],
  summary: ["#22272e", "#8c959f", "#e6edf3"], "summary-retained": ["#22272e", "#e5484d", "#e6edf3"], omission: ["#161b22", "#8c959f", "#e6edf3"],
};
const EDGES = { held: "#57606a", "holds-retained": "#e5484d", detached: "#8c959f", attached: "#e5484d", watched: "#8c959f", gone: "#8c959f" };
const DARK_EDGES = { ...EDGES, held: "#8b949e" };
const dark = window.matchMedia("(prefers-color-scheme: dark)");
// Type in the layout's points; under this many pixels a line is a smudge, and painting it would cost the most.
const FONT_PT = 11, LINE_PT = 13.5, SMALLEST_TEXT_PX = 5;

// The layout on screen: boxes by index, their element names' index, and the canvas.
let layout = null;
let canvas = null;
let byName = new Map();

export const isCanvasShown = () => layout != null;
export const layoutSize = () => ({ width: layout.width, height: layout.height });

// Takes a layout to paint from now on, the canvas in `viewport` made if need be; `name` tells screen readers what it is.
export function useLayout(data, viewport, name) {
  layout = data;
  byName = new Map(data.nodes.map((node, index) => [node[0], index]));
  if (!canvas) {
    canvas = document.createElement("canvas");
    canvas.id = "tree-canvas";
    canvas.className = "tree-canvas";
    canvas.setAttribute("role", "img");
  }
  canvas.setAttribute("aria-label", name);
  if (canvas.parentElement !== viewport) viewport.prepend(canvas);
}

// Back to an SVG picture: the canvas and its bitmap go.
export function dropLayout() {
  layout = null;
  byName = new Map();
  canvas?.remove();
  canvas = null;
}

// The box named `name` (`c5`, `gc5`) in picture points, centre and size; null when the layout has none.
export function boxNamed(name) {
  const index = byName.get(name);
  if (index == null) return null;
  const [, x, y, width, height] = layout.nodes[index];
  return { x, y, width, height };
}
export const nodeNames = () => layout ? layout.nodes.map((node) => node[0]) : [];
export const titlePoints = FONT_PT;

// The name of the box under viewport point (px, py) at `view`, or null: a linear scan, a millisecond at 100,000.
export function nameAt(px, py, view) {
  if (!layout) return null;
  const x = (px - view.x) / view.k, y = (py - view.y) / view.k;
  for (const node of layout.nodes) {
    if (Math.abs(x - node[1]) <= node[3] / 2 && Math.abs(y - node[2]) <= node[4] / 2) return node[0];
  }
  return null;
}

let queued = false;
// Paints at the next frame: a drag's many moves between two frames cost one painting.
// `matches`: the names of the boxes a search found, ringed as the SVG rings them.
export function paintSoon(view, selected, viewport, matches) {
  if (queued) return;
  queued = true;
  requestAnimationFrame(() => { queued = false; paint(view, selected, viewport, matches); });
}

export function paint(view, selected, viewport, matches = new Set()) {
  if (!layout || !canvas) return;
  const ratio = window.devicePixelRatio || 1;
  const { width: cssWidth, height: cssHeight } = viewport.getBoundingClientRect();
  const width = Math.round(cssWidth * ratio), height = Math.round(cssHeight * ratio);
  if (canvas.width !== width || canvas.height !== height) {
    canvas.width = width; canvas.height = height;
    canvas.style.width = cssWidth + "px"; canvas.style.height = cssHeight + "px";
  }
  const context = canvas.getContext("2d");
  context.setTransform(1, 0, 0, 1, 0, 0);
  context.clearRect(0, 0, width, height);
  context.setTransform(ratio * view.k, 0, 0, ratio * view.k, ratio * view.x, ratio * view.y);
  // What is in view, in picture points, with a box's width of room so edges to boxes just outside still show.
  const left = -view.x / view.k, top = -view.y / view.k;
  const right = left + cssWidth / view.k, bottom = top + cssHeight / view.k;
  const inView = (node) => node[1] + node[3] / 2 >= left && node[1] - node[3] / 2 <= right && node[2] + node[4] / 2 >= top && node[2] - node[4] / 2 <= bottom;
  const palette = dark.matches ? DARK : LIGHT, edgeColours = dark.matches ? DARK_EDGES : EDGES;
  const nodes = layout.nodes;

  // Edges by kind, one path each: a stroke per edge was most of a frame at 100,000.
  const paths = new Map();
  for (const [from, to, kind] of layout.edges) {
    const a = nodes[from], b = nodes[to];
    const x1 = a[1], y1 = a[2] + a[4] / 2, x2 = b[1], y2 = b[2] - b[4] / 2;
    if (Math.max(x1, x2) < left || Math.min(x1, x2) > right || y2 < top || y1 > bottom) continue;
    const colour = kind.startsWith("summary") ? (kind === "summary-retained" ? EDGES["holds-retained"] : edgeColours.held) : (edgeColours[kind] ?? edgeColours.gone);
    const key = colour + "|" + (kind === "holds-retained" || kind === "summary-retained" ? 3 : 1) + "|" + (kind === "gone" || kind === "detached" || kind === "elided" ? "d" : kind === "attached" || kind === "watched" ? "o" : "");
    let path = paths.get(key);
    if (!path) paths.set(key, path = new Path2D());
    path.moveTo(x1, y1);
    path.lineTo(x2, y2);
  }
  for (const [key, path] of paths) {
    const [colour, width, dash] = key.split("|");
    context.strokeStyle = colour;
    context.lineWidth = Math.max(Number(width), 1 / view.k);
    context.setLineDash(dash === "d" ? [5, 3] : dash === "o" ? [1, 2] : []);
    context.stroke(path);
  }
  context.setLineDash([]);

  // Boxes by look, one fill and one stroke each.
  const looks = new Map();
  const shown = [];
  for (const node of nodes) {
    if (!inView(node)) continue;
    shown.push(node);
    let path = looks.get(node[5]);
    if (!path) looks.set(node[5], path = new Path2D());
    path.rect(node[1] - node[3] / 2, node[2] - node[4] / 2, node[3], node[4]);
  }
  // Boxes a few pixels high are their fill alone: an outline there is a blur, and stroking 100,000 of them was a
  // third of a frame at fit.
  const outlined = LINE_PT * view.k >= 4;
  for (const [look, path] of looks) {
    const [fill, outline] = palette[look] ?? palette.alive;
    context.fillStyle = outlined || look !== "alive" ? fill : outline;
    context.fill(path);
    if (!outlined && look !== "retained") continue;
    context.strokeStyle = outline;
    context.lineWidth = Math.max(look === "retained" || look === "summary-retained" ? 2 : 1, 1 / view.k);
    context.stroke(path);
  }
  if (matches.size) {
    context.strokeStyle = "#bf8700";
    context.lineWidth = Math.max(2, 2 / view.k);
    for (const node of shown) if (matches.has(node[0])) context.strokeRect(node[1] - node[3] / 2 - 1, node[2] - node[4] / 2 - 1, node[3] + 2, node[4] + 2);
  }
  const chosen = selected != null && nodes[byName.get(selected)];
  if (chosen) {
    context.strokeStyle = getComputedStyle(document.documentElement).getPropertyValue("--selection").trim() || "#0969da";
    context.lineWidth = Math.max(3, 3 / view.k);
    context.strokeRect(chosen[1] - chosen[3] / 2 - 2, chosen[2] - chosen[4] / 2 - 2, chosen[3] + 4, chosen[4] + 4);
  }
  if (FONT_PT * view.k < SMALLEST_TEXT_PX) return;
  context.textAlign = "center";
  context.textBaseline = "middle";
  for (const node of shown) {
    const [, x, y, , height, look, lines] = node;
    context.fillStyle = (palette[look] ?? palette.alive)[2];
    const first = y - height / 2 + (height - lines.length * LINE_PT) / 2 + LINE_PT / 2;
    lines.forEach((line, row) => {
      context.font = `${row === 0 && isNodeElement(node[0]) ? "bold " : ""}${FONT_PT}px Helvetica, Arial, "Liberation Sans", sans-serif`;
      context.fillText(visibleText(line), x, first + row * LINE_PT, node[3] - 4);
    });
  }
}
