// The CoordinatorLens inspector page, wired together. Everything from the network reaches the document as text
// (textContent, through dom.js) or as Graphviz's SVG through the one sanitiser (sanitise.js); the
// Content-Security-Policy forbids inline handlers and remote scripts anyway. Each module is one concern: state.js
// what the page knows, feed.js the network, tree-view.js and search.js the picture, outline.js the list of every
// coordinator, details.js, leaks.js and slider.js the panels, sessions.js the list of runs; known-leaks.js,
// lifetimes.js and compare.js add their views.
import { wireAddress } from "./address.js";
import { addCompareButton } from "./compare.js";
import { drawDetails, selectNode, showProblem } from "./details.js";
import { $, shown } from "./dom.js";
import { aspectChanged, connect, onArrival, refresh, setFeed } from "./feed.js";
import { watchKnownLeaks } from "./known-leaks.js";
import { drawLeaks, drawWarnings } from "./leaks.js";
import { addLifetimesButton } from "./lifetimes.js";
import { drawCaption, drawLegend } from "./legend.js";
import { drawOutline, walk, wireOutline } from "./outline.js";
import { inertSvg } from "./sanitise.js";
import { prepareSearch, runSearch, wireSearch } from "./search.js";
import { select, sessionsChanged, wireSessions } from "./sessions.js";
import { drawTimeline, step, wireSlider } from "./slider.js";
import { REPORT, changed, state } from "./state.js";
import { boxNamed } from "./tree-canvas.js";
import { describeReasons, fit, markSelection, panAndZoom, setView, showTree, viewportResized } from "./tree-view.js";

// What the page knows, for a developer's console and for the browser tests, which save it when one fails.
window.coordlensState = state;

function drawPanels() {
  const model = state.model;
  const summary = model.summary;
  $("session-title").textContent = shown(`${summary.app} · ${summary.run}` + (model.seq != null ? ` · after event ${model.seq}` : ""));
  // The tab says whether the run shown leaks, as a mail client's says what is unread: seen from any other tab.
  const leaks = (summary.counts || {}).retained || 0;
  document.title = (leaks ? `(${leaks}) ` : "") + shown(`${summary.app} · CoordinatorLens`);
  // An empty grace field means the inspector's own (`--grace`): show which.
  $("grace").placeholder = String(model.grace);
  drawLeaks(model);
  drawWarnings(model);
  drawTimeline();
  drawDetails();
  drawOutline();
  drawLegend();
  changed("model");
}

const pick = (id) => selectNode(id, true);
// Opens a summary of the picture: its members are drawn as themselves from the next picture on.
function openSummary(firstMember) {
  state.opened.add(firstMember);
  refresh();
}

onArrival({
  sessions: sessionsChanged,
  tree: (svg, seq) => { showTree(svg, seq); runSearch(false); drawCaption(); changed("tree"); },
  model: () => { markSelection(); describeReasons(); drawPanels(); runSearch(false); prepareSearch(); },
  failed: showProblem,
});

// Fitting asks for the picture wrapped to the frame's shape, if the one on screen was wrapped for another.
const fitToFrame = () => { fit(); if (aspectChanged()) refresh(); };
$("fit").addEventListener("click", fitToFrame);
// A frame of another shape (a phone turned, the panels rearranged) gets a picture wrapped to it.
new ResizeObserver(() => { viewportResized(); if (aspectChanged()) refresh(); }).observe($("viewport"));
// A new filter is a new picture: it is fitted again.
// The outline follows the filters at once, from the model it has; the picture follows when the server has drawn it.
const refit = () => { state.moved = false; drawOutline(); refresh(); };
for (const id of ["leaks-only", "show-released", "show-all"]) $(id).addEventListener("change", refit);
$("grace").addEventListener("change", refit);
wireSlider();
wireSearch(pick);
wireSessions();
wireOutline(pick);
document.addEventListener("keydown", (event) => {
  if (event.target.matches && event.target.matches("input[type=search], input[type=number]")) return;
  if (!state.model) return;
  // The outline, the picture, the sessions and the controls take their own arrow keys; the slider steps only when
  // nothing else has the focus.
  const owned = event.target.closest && event.target.closest("#outline, #tree, #sessions, input, button, a");
  if ((event.key === "ArrowLeft" || event.key === "ArrowRight") && !owned) {
    event.preventDefault();
    step(event.key === "ArrowLeft" ? -1 : 1);
  } else if (event.key === "f") fitToFrame();
  else if (event.key === "/") { event.preventDefault(); $("search").focus(); }
});
// A click or tap in the picture picks as the outline does: zoomed until the labels read (README: "picking zooms").
panAndZoom(pick, openSummary, walk);

// The skip link moves the focus to the leaks without a fragment in the address, which holds the view (address.js).
$("skip-to-leaks").addEventListener("click", (event) => { event.preventDefault(); $("leaks-title").focus(); });

if (REPORT) {
  document.body.classList.add("static");
  setFeed("report", "report of a recording");
  state.sessions = new Map([[REPORT.model.summary.run, REPORT.model.summary]]);
  sessionsChanged();
} else {
  wireAddress({ select, pick: selectNode, refresh, setView });
  connect();
}

watchKnownLeaks();
addLifetimesButton();
addCompareButton();

// Modules declare no globals; the browser tests and benchmarks reach these through DevTools by name.
Object.assign(window, { state, inertSvg, showTree, lensCanvasBox: boxNamed });
