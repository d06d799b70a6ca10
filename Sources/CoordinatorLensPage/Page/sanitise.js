// The one way server-sent SVG enters the page, for the tree and the comparison alike: Graphviz's SVG, in which Graphviz
// escapes every name, parsed as XML (never as HTML) and cut down to the elements and attributes Graphviz draws with.

// The elements and attributes Graphviz draws the tree, its legend and a comparison with (as found in every sample's
// render and diff, plus the polyline that shape=record separates fields with). Anything else is dropped rather than
// judged: a blocklist kept event handlers and SMIL's <set>/<animate>, which can write them. Attributes go by the
// name the parser spells them with: a prefix bound to another namespace makes an attribute that does nothing, and no
// name here is a handler.
const SVG_NS = "http://www.w3.org/2000/svg";
const SVG_ELEMENTS = new Set(["svg", "g", "title", "a", "path", "polygon", "polyline", "text"]);
const SVG_ATTRIBUTES = new Set([
  "id", "class", "transform", "width", "height", "viewBox", "d", "points", "x", "y",
  "fill", "stroke", "stroke-width", "stroke-dasharray", "font-family", "font-size", "font-weight", "text-anchor",
  "xlink:title", "xmlns", "xmlns:xlink",
]);
const SVG_LINKS = new Set(["href", "xlink:href"]);
function keepSvgAttributes(element) {
  for (const name of element.getAttributeNames()) {
    if (SVG_ATTRIBUTES.has(name)) continue;
    if (SVG_LINKS.has(name) && element.getAttribute(name).startsWith("#")) continue;
    element.removeAttribute(name);
  }
}
// The one way server-sent SVG enters the page: parsed as XML (never as HTML) and cut down to the allowlists.
// Returns the inert <svg> element, not yet in the document, or null when the text is no SVG. Names rather than Attr
// nodes, and a live collection rather than a copied list: at 800 nodes this adds a few milliseconds to the parse,
// where Attr nodes added more than the parse took.
export function inertSvg(text) {
  const svg = new DOMParser().parseFromString(text, "image/svg+xml").documentElement;
  if (svg.namespaceURI !== SVG_NS || svg.localName !== "svg") return null;
  keepSvgAttributes(svg);
  const elements = svg.getElementsByTagName("*"), dropped = [];
  for (let i = 0; i < elements.length; i++) {
    const element = elements[i];
    if (element.namespaceURI === SVG_NS && SVG_ELEMENTS.has(element.localName)) keepSvgAttributes(element);
    else dropped.push(element);
  }
  for (const element of dropped) element.remove();
  return svg;
}
