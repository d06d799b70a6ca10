// Small DOM builders: text only, never markup. Every name from the network reaches the document through these (as
// text nodes, textContent or attribute values), so no string is ever parsed as HTML.

export const $ = (id) => document.getElementById(id);

export function el(tag, props, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (key === "class") node.className = value;
    else if (key === "on") for (const [type, fn] of Object.entries(value)) node.addEventListener(type, fn);
    else if (key.startsWith("data-") || key.startsWith("aria-") || key === "title" || key === "role") node.setAttribute(key, value);
    else node[key] = value;
  }
  for (const child of children.flat(Infinity)) {
    if (child == null || child === false) continue;
    node.append(typeof child === "string" || typeof child === "number" ? document.createTextNode(String(child)) : child);
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
