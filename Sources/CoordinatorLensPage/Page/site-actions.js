// A call site the user acts on: the line kept whole, Copy (file:line) and, when the user gave `--editor-url`, Open
// in the editor (or Copy command for a template that is a shell command). The leaks list and the details use the
// same row, so a site reads and opens the same way wherever it shows.
import { el } from "./dom.js";
import { breakable, sourceFile } from "./format.js";

// `template` is the model's editorURL, or null; `label` says which site (the code's title); `withFunction` adds the
// function the site is in, which the details have room for and the leaks list does not.
export function siteRow(site, template, { label = "added at", withFunction = false } = {}) {
  if (!site) return null;
  const file = sourceFile(site);
  const where = `${file}:${site.line}`;
  const parts = [el("code", { class: "site", title: `${label} ${where}` }, breakable(`${site.file}:${site.line}`)),
    withFunction && site.function ? el("span", { class: "function" }, site.function) : null,
    el("button", { type: "button", class: "copy", title: "Copy " + where, on: { click: (event) => copyText(event.currentTarget, where) } }, "Copy")];
  if (template) {
    const filled = (encode) => template.replaceAll("{path}", encode(file)).replaceAll("{line}", String(site.line));
    if (/^[a-z][a-z0-9+.-]*:/i.test(template)) {
      parts.push(el("a", { class: "open-editor", href: filled(encodeURI), title: "Open " + where + " in the editor" }, "Open"));
    } else {
      const command = filled((path) => /^[\w./-]+$/.test(path) ? path : `'${path.replaceAll("'", "'\\''")}'`);
      parts.push(el("button", { type: "button", class: "copy command", title: command, on: { click: (event) => copyText(event.currentTarget, command) } }, "Copy command"));
    }
  }
  return el("div", { class: "site-row" }, parts);
}

// Copies `text`, saying so on the button for a moment; the text stays on the button (data-copied) for the tests.
export async function copyText(button, text) {
  let done = false;
  try {
    await navigator.clipboard.writeText(text);
    done = true;
  } catch (_) {
    // No clipboard API (a page not served from a secure origin): the selection and the copy command.
    const area = el("textarea", { class: "offscreen", value: text, readOnly: true });
    document.body.append(area);
    area.select();
    done = document.execCommand("copy");
    area.remove();
  }
  const label = button.dataset.label || button.textContent;
  button.dataset.label = label;
  button.textContent = done ? "Copied" : "Copy failed";
  button.dataset.copied = text;
  setTimeout(() => { button.textContent = label; }, 1500);
}
