// The CoordinatorLens inspector page. Everything from the network reaches the document as text (textContent) or as
// Graphviz's SVG, in which Graphviz escapes every name; it is parsed as XML (never as HTML) and keeps only the elements
// and attributes Graphviz draws with (inertSvg), and the Content-Security-Policy forbids inline handlers and remote
// scripts anyway.
"use strict";

const $ = (id) => document.getElementById(id);
// The one-file report (`coordlens render -o report.html`) carries its session in a JSON element instead of a feed.
const REPORT = (() => {
  const data = document.getElementById("lens-report");
  return data ? JSON.parse(data.textContent) : null;
})();
const VERDICTS = ["retained", "pending", "alive", "late", "released"];

const state = {
  sessions: new Map(),      // run -> summary, in the order first heard of
  run: null,                // the selected session
  model: null,              // what /api/model answered for the view on screen
  shown: null,              // { key, version, counts } of the view on screen
  seq: null,                // null: the present; else the event the view stops after
  node: null,               // the selected coordinator's id
  view: { x: 20, y: 20, k: 1 },
  fitted: false,
  inflight: false,
  again: false,
  search: { query: "", matches: [], index: -1 },
};

// ---- small DOM helpers: text only, never markup ----
function el(tag, props, ...children) {
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
const seconds = (value) => value == null ? "—" : (Math.abs(value) < 0.01 && value !== 0 ? (value * 1000).toFixed(1) + " ms" : value.toFixed(value < 10 ? 2 : 1) + " s");
// Call sites show the producer's short file name (`#fileID`); the full path, when sent, is in the title.
const site = (s) => s ? el("span", { title: s.path || s.file }, `${s.file}:${s.line}${s.function ? " — " + s.function : ""}`) : "—";
// Element ids as the picture names coordinators: `c5`, `cn5` for -5, and `cs` with the UTF-8 bytes in hex for a
// string id, so no name from the app ever becomes part of an id.
const hexOf = (text) => [...new TextEncoder().encode(text)].map((b) => b.toString(16).padStart(2, "0")).join("");
const elementId = (id) => typeof id === "string" ? "cs" + hexOf(id) : id < 0 ? "cn" + (-id) : "c" + id;
function idOfElement(name) {
  if (name.startsWith("cs")) return new TextDecoder().decode(new Uint8Array(name.slice(2).match(/../g).map((h) => parseInt(h, 16))));
  return name.startsWith("cn") ? -Number(name.slice(2)) : Number(name.slice(1));
}
const isNodeElement = (name) => /^c(n?\d+|s([0-9a-f]{2})+)$/.test(name);

// Benchmarks set `window.lensTiming = []` to see where an update's time goes.
const timing = (label) => { if (window.lensTiming) window.lensTiming.push([label, performance.now()]); };

// ---- the feed ----
function connect() {
  const feed = new EventSource("/api/events");
  feed.addEventListener("open", () => setFeed("open", "live feed"));
  feed.addEventListener("error", () => setFeed("closed", "feed lost; retrying…"));
  feed.addEventListener("hello", (event) => {
    state.sessions = new Map(JSON.parse(event.data).map((s) => [s.run, s]));
    sessionsChanged();
  });
  feed.addEventListener("session", (event) => {
    timing("feed");
    const summary = JSON.parse(event.data);
    state.sessions.set(summary.run, summary);
    sessionsChanged();
  });
  feed.addEventListener("gone", (event) => {
    state.sessions.delete(JSON.parse(event.data).run);
    sessionsChanged();
  });
}
function setFeed(kind, text) {
  $("feed-state").dataset.state = kind;
  $("feed-state").textContent = text;
}

function sessionsChanged() {
  if (state.run == null || !state.sessions.has(state.run)) {
    const first = [...state.sessions.values()].find((s) => s.state === "live") || state.sessions.values().next().value;
    if (first) select(first.run); else if (state.run != null) select(null);
  }
  drawSessions();
  const summary = state.sessions.get(state.run);
  if (summary && state.shown && (summary.version !== state.shown.version || countsKey(summary) !== state.shown.counts)) refresh();
}
const countsKey = (summary) => JSON.stringify(VERDICTS.map((v) => summary.counts[v] || 0));

function drawSessions() {
  const list = $("sessions");
  $("no-sessions").hidden = state.sessions.size > 0;
  list.replaceChildren(...[...state.sessions.values()].map((s) => {
    const badges = VERDICTS.filter((v) => s.counts[v]).map((v) => el("span", { class: "badge " + v, title: v }, `${s.counts[v]} ${v}`));
    // A button, so a session is chosen from the keyboard as with the mouse.
    return el("li", { "data-run": s.run },
      el("button", { type: "button", class: "session", "aria-pressed": String(s.run === state.run), on: { click: () => select(s.run) } },
        el("span", { class: "app" }, s.app, " ", el("span", { class: "badge state " + s.state }, s.state)),
        el("span", { class: "run" }, s.run),
        el("span", { class: "badges" }, badges, s.warnings ? el("span", { class: "badge", title: "warnings" }, `${s.warnings} warnings`) : null),
        el("span", { class: "run" }, `${s.coordinators} coordinators · ${s.events} events`)));
  }));
}

function select(run) {
  if (run === state.run) return;
  state.run = run;
  state.seq = null;
  state.node = null;
  state.model = null;
  state.shown = null;
  state.fitted = false;
  $("tree").replaceChildren();
  $("tree-empty").hidden = run != null;
  drawSessions();
  drawDetails();
  if (run != null) refresh();
}

// ---- fetching a view: one request at a time; changes meanwhile coalesce into one more ----
function query() {
  const params = new URLSearchParams({ run: state.run });
  if (state.seq != null) params.set("seq", state.seq);
  const grace = $("grace").value;
  if (grace !== "" && Number(grace) >= 0) params.set("grace", grace);
  if ($("leaks-only").checked) params.set("leaks", "1");
  if ($("show-released").checked) params.set("released", "1");
  if ($("show-all").checked) params.set("all", "1");
  return params.toString();
}

async function refresh() {
  if (state.run == null) return;
  if (state.inflight) { state.again = true; return; }
  state.inflight = true;
  const run = state.run;
  const summary = state.sessions.get(run);
  const q = query();
  if (REPORT) {
    state.model = REPORT.model;
    state.shown = { key: q, version: 0, counts: "" };
    showTree(REPORT.svg, String(REPORT.model.summary.lastSeq ?? ""));
    drawPanels();
    state.inflight = false;
    return;
  }
  try {
    timing("fetch");
    // Both asked at once; the picture goes up as soon as it arrives, the panels when the model does.
    const modelRequest = fetch("/api/model?" + q).then(async (response) => {
      if (!response.ok) throw new Error(await response.text());
      return response.json();
    });
    modelRequest.catch(() => {}); // awaited below; this only keeps an early failure of the tree from leaving it unhandled
    const treeResponse = await fetch("/api/tree?" + q);
    if (!treeResponse.ok) throw new Error(await treeResponse.text());
    const svg = await treeResponse.text();
    timing("read");
    if (run === state.run) {
      showTree(svg, treeResponse.headers.get("X-Lens-Seq"));
      timing("tree");
    }
    const model = await modelRequest;
    if (run === state.run) {
      state.model = model;
      state.shown = { key: q, version: summary ? summary.version : -1, counts: summary ? countsKey(summary) : "" };
      markSelection();
      runSearch(false);
      drawPanels();
      timing("panels");
    }
  } catch (error) {
    $("details").replaceChildren(el("p", { class: "hint" }, "Could not load the session: " + error.message));
  } finally {
    state.inflight = false;
    if (state.again) { state.again = false; refresh(); }
  }
}

// ---- the tree: Graphviz's SVG, made inert, with pan, zoom and a steady anchor ----
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
function inertSvg(text) {
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

function showTree(text, seq) {
  const svg = inertSvg(text);
  if (!svg) return;
  const tree = $("tree");
  const anchor = anchorNode();
  const before = anchor && screenCentre(anchor);
  // Moved, not copied: importNode would clone every element once more.
  tree.replaceChildren(document.adoptNode(svg));
  tree.dataset.run = state.run;
  tree.dataset.seq = seq == null ? "" : seq;
  if (!state.fitted) { fit(); state.fitted = true; }
  else if (before) {
    const after = tree.querySelector("#" + CSS.escape(anchor.id));
    if (after) {
      const moved = screenCentre(after);
      state.view.x += before.x - moved.x;
      state.view.y += before.y - moved.y;
      applyView();
    }
  }
  markSelection();
  runSearch(false);
}

// The node to keep still on screen across an update: the selected one, else the one under the middle of the view,
// else the first root. Found without measuring every node, which would lay out the whole picture.
function anchorNode() {
  const tree = $("tree");
  if (state.node != null) {
    const selected = tree.querySelector("#" + CSS.escape(elementId(state.node)));
    if (selected) return selected;
  }
  const box = $("viewport").getBoundingClientRect();
  const under = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  const node = under && under.closest && under.closest("#tree g.node");
  if (node && isNodeElement(node.id)) return node;
  const root = state.model && state.model.roots.length ? tree.querySelector("#" + CSS.escape(elementId(state.model.roots[0]))) : null;
  return root || tree.querySelector("g.node");
}
function screenCentre(node) {
  const r = node.getBoundingClientRect();
  return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
}
function applyView() {
  const { x, y, k } = state.view;
  $("tree").style.transform = `translate(${x}px, ${y}px) scale(${k})`;
}
function fit() {
  const svg = $("tree").querySelector("svg");
  if (!svg) return;
  const box = $("viewport").getBoundingClientRect();
  const width = svg.width.baseVal.value || 1, height = svg.height.baseVal.value || 1;
  const k = Math.min(2, Math.max(0.02, Math.min((box.width - 40) / width, (box.height - 40) / height)));
  state.view = { k, x: (box.width - width * k) / 2, y: Math.max(20, (box.height - height * k) / 2) };
  applyView();
}
function centreOn(id) {
  const node = $("tree").querySelector("#" + CSS.escape(elementId(id)));
  if (!node) return;
  const box = $("viewport").getBoundingClientRect();
  const c = screenCentre(node);
  state.view.x += box.left + box.width / 2 - c.x;
  state.view.y += box.top + box.height / 2 - c.y;
  applyView();
}

function panAndZoom() {
  const viewport = $("viewport");
  let drag = null;
  viewport.addEventListener("pointerdown", (event) => {
    if (event.button !== 0) return;
    drag = { x: event.clientX, y: event.clientY, moved: false, start: { ...state.view } };
  });
  window.addEventListener("pointermove", (event) => {
    if (!drag) return;
    const dx = event.clientX - drag.x, dy = event.clientY - drag.y;
    if (!drag.moved && Math.abs(dx) + Math.abs(dy) < 4) return;
    if (!drag.moved) { drag.moved = true; viewport.setPointerCapture?.(event.pointerId); viewport.classList.add("dragging"); }
    state.view.x = drag.start.x + dx;
    state.view.y = drag.start.y + dy;
    applyView();
  });
  window.addEventListener("pointerup", (event) => {
    if (!drag) return;
    const wasDrag = drag.moved;
    drag = null;
    viewport.classList.remove("dragging");
    if (!wasDrag) clickAt(event.target);
  });
  viewport.addEventListener("wheel", (event) => {
    event.preventDefault();
    const box = viewport.getBoundingClientRect();
    const px = event.clientX - box.left, py = event.clientY - box.top;
    const k = Math.min(8, Math.max(0.02, state.view.k * Math.exp(-event.deltaY * 0.0015)));
    state.view.x = px - (px - state.view.x) * (k / state.view.k);
    state.view.y = py - (py - state.view.y) * (k / state.view.k);
    state.view.k = k;
    applyView();
  }, { passive: false });
}
function clickAt(target) {
  const node = target.closest && target.closest("g.node");
  if (node && isNodeElement(node.id)) selectNode(idOfElement(node.id), false);
}

// ---- panels ----
// A model's coordinators by id, built the first time the model is asked: links, paths and details look ids up many
// times per redraw, and a scan of a model of thousands per lookup made a redraw quadratic.
const nodeIndexes = new WeakMap();
function nodesById(model) {
  let index = nodeIndexes.get(model);
  if (!index) {
    index = new Map(model.nodes.map((n) => [n.id, n]));
    nodeIndexes.set(model, index);
  }
  return index;
}
function nodeById(id) {
  return state.model ? nodesById(state.model).get(id) : undefined;
}
// The report's events by coordinator id, indexed once for the same reason.
let reportEventsById = null;
function reportEvents(id) {
  if (!reportEventsById) reportEventsById = new Map(REPORT.events.map((entry) => [entry.id, entry.events]));
  return reportEventsById.get(id) || [];
}
function selectNode(id, centre) {
  state.node = id;
  markSelection();
  drawDetails();
  if (centre) centreOn(id);
}
function markSelection() {
  for (const node of $("tree").querySelectorAll("g.node.selected")) node.classList.remove("selected");
  if (state.node == null) return;
  const node = $("tree").querySelector("#" + CSS.escape(elementId(state.node)));
  if (node) node.classList.add("selected");
}
// A link with an address, so it takes the keyboard focus and Enter; the address names the node but is never
// followed, as the page's own address belongs to the comparison (compare.js).
function link(id) {
  const node = nodeById(id);
  const follow = (event) => { event.preventDefault(); selectNode(id, true); };
  return el("a", { href: "#" + elementId(id), on: { click: follow }, title: node ? node.verdict : "" }, node ? `${node.type}#${id}` : `#${id}`);
}

function drawPanels() {
  const model = state.model;
  const summary = model.summary;
  $("session-title").textContent = `${summary.app} · ${summary.run}` + (model.seq != null ? ` · after event ${model.seq}` : "");
  // An empty grace field means the inspector's own (`--grace`): show which.
  $("grace").placeholder = String(model.grace);
  // Leaks, grouped by fingerprint as `coordlens diff` groups them.
  const total = model.leaks.reduce((sum, group) => sum + group.ids.length, 0);
  $("leak-count").textContent = total;
  $("leak-count").classList.toggle("some", total > 0);
  $("leaks").replaceChildren(...model.leaks.map((group) => el("li", { class: "leak", "data-fingerprint": group.fingerprint },
    el("button", { type: "button", class: "leak-head", on: { click: () => selectNode(group.ids[0], true) } }, el("span", { class: "n" }, `×${group.ids.length}`), group.fingerprint),
    el("div", { class: "members" }, group.ids.slice(0, 12).map(link), group.ids.length > 12 ? `… ${group.ids.length - 12} more` : null))));
  if (model.undecided) $("leaks").append(el("li", { class: "hint" }, `${model.undecided} undecided: the run ended within the grace period of a done coordinator`));
  $("warning-count").textContent = model.warnings.length;
  $("warnings").replaceChildren(...model.warnings.map((w) => el("li", {}, w.line > 0 ? el("span", { class: "mono" }, `line ${w.line}: `) : null, w.message)));
  drawTimeline();
  drawDetails();
}

async function drawDetails() {
  const box = $("details");
  const node = state.node != null && nodeById(state.node);
  if (!node) { box.replaceChildren(el("p", { class: "hint" }, "Click a node, or pick a leak below.")); return; }
  const byId = nodesById(state.model);
  const path = [];
  for (let at = node, seen = new Set(); at && !seen.has(at.id); at = byId.get(at.parent ?? at.removedFrom)) { seen.add(at.id); path.unshift(at.id); }
  const rows = [
    ["type", el("strong", {}, node.type)], ["id", String(node.id)], ["screen", node.screen || "—"],
    ["verdict", el("span", { class: "verdict " + node.verdict }, node.verdict)],
    ["reason", node.reason || "—"],
    ["added", el("span", {}, `${seconds(node.addedAt)} at `, site(node.site))],
    ["bound", site(node.boundSite)], ["dismissed", dismissal(node)], ["removed", site(node.removedSite)],
    ["done", seconds(node.doneAt)], ["deinit", seconds(node.deinitAt)],
    ["path", el("span", { class: "path" }, path.map(link))],
    ["children", node.children.length ? el("span", {}, node.children.map((id, i) => [i ? ", " : "", link(id)])) : "none"],
  ];
  const events = el("table", { class: "events" }, el("tr", {}, el("th", {}, "seq"), el("th", {}, "t"), el("th", {}, "kind"), el("th", {}, "site")));
  box.replaceChildren(el("dl", {}, rows.map(([k, v]) => [el("dt", {}, k), el("dd", { "data-field": k }, v)])), events);
  const run = state.run, id = node.id;
  if (REPORT) {
    appendEvents(events, reportEvents(id));
    return;
  }
  try {
    const response = await fetch("/api/coordinator?" + new URLSearchParams(typeof id === "string" ? { run, sid: id } : { run, id }));
    if (!response.ok || state.run !== run || state.node !== id) return;
    appendEvents(events, await response.json());
  } catch (_) { /* the panel keeps what it has */ }
}
// How the coordinator was dismissed, and when: a freed or departed screen has no call site, but a cause and a time.
const dismissalCauses = { "screen-left": "its screen left", "screen-freed": "its screen was freed", reported: "dismissed" };
function dismissal(node) {
  if (node.dismissedAt == null) return "—";
  const how = dismissalCauses[node.dismissedVia] || "dismissed";
  return el("span", {}, `${how} at ${seconds(node.dismissedAt)}`, node.dismissedSite ? [" by ", site(node.dismissedSite)] : null);
}
function appendEvents(table, events) {
  for (const e of events) {
    table.append(el("tr", {}, el("td", {}, String(e.seq)), el("td", {}, seconds(e.time)),
      el("td", {}, e.kind + (e.screen ? ` ${e.screen}` : "") + (e.via ? ` (${e.via})` : "")), el("td", { class: "mono" }, e.site ? `${e.site.file}:${e.site.line}` : "")));
  }
}

// ---- time travel ----
function drawTimeline() {
  const model = state.model;
  const slider = $("slider");
  const first = model.firstSeq ?? 0, last = model.lastSeq ?? 0;
  slider.min = first;
  slider.max = last;
  if (state.seq == null) slider.value = last;
  $("live").setAttribute("aria-pressed", String(state.seq == null));
  $("position").textContent = (state.seq == null ? "live · " : "") + `event ${model.seq ?? model.summary.lastSeq ?? 0} of ${last} · ${seconds(model.evaluatedAt)}`
    + (model.historyComplete ? "" : " (time travel covers the first part only)");
  const span = Math.max(1, last - first);
  $("ticks").replaceChildren(...model.marks.map((m) => el("button", {
    type: "button", class: "tick", title: `${m.label} (event ${m.seq}, ${seconds(m.time)})`, "data-seq": String(m.seq),
    on: { click: () => travel(m.seq) },
  }, m.label)));
  // Neighbouring marks alternate between two rows so their labels do not overlap.
  [...$("ticks").children].forEach((tick, i) => {
    tick.style.left = `${((Number(tick.dataset.seq) - first) / span) * 100}%`;
    tick.style.top = i % 2 ? "14px" : "0";
  });
}
// Within the events the model holds: a step past either end would ask for an event that does not exist.
function travel(seq) {
  state.seq = Math.min(Number($("slider").max), Math.max(Number($("slider").min), seq));
  $("slider").value = state.seq;
  refresh();
}

// ---- search ----
function runSearch(step) {
  const queryText = $("search").value.trim().toLowerCase();
  const tree = $("tree");
  for (const node of tree.querySelectorAll("g.node.match")) node.classList.remove("match", "current");
  if (!queryText || !state.model) { $("search-count").textContent = ""; state.search = { query: "", matches: [], index: -1 }; return; }
  const matches = state.model.nodes.filter((n) => n.type.toLowerCase().includes(queryText))
    .map((n) => tree.querySelector("#" + CSS.escape(elementId(n.id)))).filter(Boolean);
  const index = queryText === state.search.query ? Math.min(state.search.index, matches.length - 1) : (matches.length ? 0 : -1);
  state.search = { query: queryText, matches, index };
  for (const node of matches) node.classList.add("match");
  if (step && matches.length) state.search.index = (index + step + matches.length) % matches.length;
  const current = matches[state.search.index];
  if (current) { current.classList.add("current"); if (step || queryText !== state.search.previous) centreOn(idOfElement(current.id)); }
  state.search.previous = queryText;
  $("search-count").textContent = matches.length ? `${state.search.index + 1} of ${matches.length}` : "no match";
}

// ---- wiring ----
function wire() {
  $("fit").addEventListener("click", fit);
  $("live").addEventListener("click", () => { state.seq = null; refresh(); });
  $("slider").addEventListener("input", () => travel(Number($("slider").value)));
  for (const id of ["leaks-only", "show-released", "show-all"]) $(id).addEventListener("change", refresh);
  $("grace").addEventListener("change", refresh);
  $("search").addEventListener("input", () => runSearch(0));
  $("search").addEventListener("keydown", (event) => { if (event.key === "Enter") runSearch(event.shiftKey ? -1 : 1); });
  $("search-next").addEventListener("click", () => runSearch(1));
  $("search-prev").addEventListener("click", () => runSearch(-1));
  document.addEventListener("keydown", (event) => {
    if (event.target.matches && event.target.matches("input[type=search], input[type=number]")) return;
    if (!state.model) return;
    if (event.key === "ArrowLeft" || event.key === "ArrowRight") {
      event.preventDefault();
      const current = state.seq ?? Number($("slider").max);
      travel(current + (event.key === "ArrowLeft" ? -1 : 1));
    } else if (event.key === "f") fit();
    else if (event.key === "/") { event.preventDefault(); $("search").focus(); }
  });
  window.addEventListener("resize", () => { if (!state.model) return; });
  panAndZoom();
}

wire();
if (REPORT) {
  document.body.classList.add("static");
  setFeed("report", "report of a recording");
  state.sessions = new Map([[REPORT.model.summary.run, REPORT.model.summary]]);
  sessionsChanged();
} else {
  connect();
}
