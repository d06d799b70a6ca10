// Element ids as the picture names coordinators: `c5`, `cn5` for -5, and `cs` with the UTF-8 bytes in hex for a
// string id, so no name from the app ever becomes part of an id.
const hexOf = (text) => [...new TextEncoder().encode(text)].map((b) => b.toString(16).padStart(2, "0")).join("");
export const elementId = (id) => typeof id === "string" ? "cs" + hexOf(id) : id < 0 ? "cn" + (-id) : "c" + id;
export function idOfElement(name) {
  if (name.startsWith("cs")) return new TextDecoder().decode(new Uint8Array(name.slice(2).match(/../g).map((h) => parseInt(h, 16))));
  return name.startsWith("cn") ? -Number(name.slice(2)) : Number(name.slice(1));
}
export const isNodeElement = (name) => /^c(n?\d+|s([0-9a-f]{2})+)$/.test(name);
