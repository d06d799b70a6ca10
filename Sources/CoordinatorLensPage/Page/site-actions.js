// A call site the user acts on: the line kept whole, Copy (the file:line the row shows) and, when the user gave
// `--editor-url`, Open in the editor (or Copy command for a template that is a shell command), which needs the file's
// absolute path: the site's own, or the one the row shows under the checkout `--source-root` named. The leaks list
// and the details use the same row, so a site reads and opens the same way wherever it shows.
import { el } from "./dom.js";
import { breakable, sourceFile } from "./format.js";
import { state } from "./state.js";

// The absolute path an editor opens for `site`, or null when the page knows none: a path the hook made relative to
// the checkout (TraceOptions.sourceRoot) needs listen's --source-root; a site without a path of its file has only
// the module-relative name the compiler gives (#fileID), which is no path at all.
function absoluteFile(site) {
  const file = sourceFile(site);
  if (file.startsWith("/")) return file;
  const root = state.model && state.model.sourceRoot;
  return root && site.path && file === site.path ? root.replace(/\/+$/, "") + "/" + file : null;
}

// `template` is the model's editorURL, or null; `label` says which site (the code's title); `withFunction` adds the
// function the site is in, which the details have room for and the leaks list does not.
export function siteRow(site, template, { label = "added at", withFunction = false } = {}) {
  if (!site) return null;
  const shown = `${site.file}:${site.line}`;
  const parts = [el("code", { class: "site", title: `${label} ${sourceFile(site)}:${site.line}` }, breakable(shown)),
    withFunction && site.function ? el("span", { class: "function" }, site.function) : null,
    el("button", { type: "button", class: "copy", title: "Copy " + shown, on: { click: (event) => copyText(event.currentTarget, shown) } }, "Copy")];
  const file = absoluteFile(site);
  if (template && file == null) {
    parts.push(el("button", { type: "button", class: "open-editor", disabled: true,
      title: site.path && sourceFile(site) === site.path ? `Open needs the checkout's path: ${site.path} is relative to it; start coordlens with --source-root`
        : `Open needs the file's path, which ${site.file} does not carry (a wrapper that forwards file and line but not filePath)` }, "Open"));
  } else if (template) {
    const where = `${file}:${site.line}`;
    // A template that puts a slash before {path} (vscode://file/{path}) takes the absolute path without doubling it.
    const filled = (encode) => template.replaceAll("/{path}", "{path}").replaceAll("{path}", encode(file)).replaceAll("{line}", String(site.line));
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
