// Small DOM builders: text only, never markup. Every name from the network reaches the document through these (as
// text nodes, textContent or attribute values), so no string is ever parsed as HTML.

export const $ = (id) => document.getElementById(id);

// The bidirectional controls (U+202E and kin) spelled out as \u{XX}, as the command line's text outputs spell them
// (the pictures drop them): they reorder the text around them, so a name holding one could read as another.
const BIDI_CONTROL = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
const BIDI_CONTROLS = new RegExp(BIDI_CONTROL.source, "g");
export function shown(text) {
  return BIDI_CONTROL.test(text) ? text.replace(BIDI_CONTROLS, (c) => `\\u{${c.codePointAt(0).toString(16).toUpperCase()}}`) : text;
}

export function el(tag, props, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (key === "class") node.className = value;
    else if (key === "on") for (const [type, fn] of Object.entries(value)) node.addEventListener(type, fn);
    else if (key.startsWith("aria-") || key === "title") node.setAttribute(key, shown(String(value)));
    else if (key.startsWith("data-") || key === "role") node.setAttribute(key, value);
    else if (key === "textContent") node.textContent = shown(String(value));
    else node[key] = value;
  }
  for (const child of children.flat(Infinity)) {
    if (child == null || child === false) continue;
    node.append(typeof child === "string" || typeof child === "number" ? document.createTextNode(shown(String(child))) : child);
  }
  return node;
}

const SVGNS = "http://www.w3.org/2000/svg";
// An SVG element the page draws itself (charts, lifetimes); its text goes in afterwards through textContent.
export function svgElement(tag, attributes) {
  const node = document.createElementNS(SVGNS, tag);
  for (const [key, value] of Object.entries(attributes || {})) node.setAttribute(key, String(value));
  return node;
}
