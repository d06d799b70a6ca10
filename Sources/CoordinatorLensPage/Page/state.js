// What the page knows: the sessions the feed reported, the one shown, the model on screen and the view's position.
// Every module reads this one object; only the feed replaces what it holds from the network. Whoever changes a part
// says so (`changed`), and the views that follow that part subscribe (`onChange`) rather than watch each other's
// elements for mutations.

// The one-file report (`coordlens render -o report.html`) carries its session in a JSON element instead of a feed.
export const REPORT = (() => {
  const data = document.getElementById("lens-report");
  return data ? JSON.parse(data.textContent) : null;
})();
export const VERDICTS = ["retained", "pending", "alive", "late", "released"];

export const state = {
  sessions: new Map(),      // run -> summary, in the order first heard of
  run: null,                // the selected session
  model: null,              // what /api/model answered for the view on screen
  shown: null,              // { key, judgement } of the view on screen: the judgement its answers came from
  shownAspect: undefined,   // the frame shape the picture on screen was wrapped for (feed.js pictureAspect)
  // The judgements shown, newest last (the last 100), run by run: a page never goes back to an older one.
  shownJudgements: [],
  seq: null,                // null: the present; else the event the view stops after
  node: null,               // the selected coordinator's id
  view: { x: 20, y: 20, k: 1 },
  // The picture re-fits as it changes until the user pans, zooms or picks a coordinator; Fit and a new filter undo that.
  moved: false,
  reveal: null,             // a coordinator asked to be drawn as itself though the picture would summarise it
  opened: new Set(),        // summaries opened, by their first member
  centreWhenDrawn: null,    // a coordinator to zoom to once the picture that reveals it arrives
  inflight: false,
  again: false,
  search: { query: "", matches: [], index: -1 },
};

// A model's coordinators by id, built the first time the model is asked: links, paths and details look ids up many
// times per redraw, and a scan of a model of thousands per lookup made a redraw quadratic.
const nodeIndexes = new WeakMap();
export function nodesById(model) {
  let index = nodeIndexes.get(model);
  if (!index) {
    index = new Map(model.nodes.map((n) => [n.id, n]));
    nodeIndexes.set(model, index);
  }
  return index;
}
export function nodeById(id) {
  return state.model ? nodesById(state.model).get(id) : undefined;
}

// Benchmarks set `window.lensTiming = []` to see where an update's time goes.
export const timing = (label) => { if (window.lensTiming) window.lensTiming.push([label, performance.now()]); };

// Change notification, by topic: "sessions" (state.sessions was redrawn), "model" (state.model and the panels drawn
// from it), "tree" (a new picture is in the document), "selection" (state.node).
const listeners = new Map();
export function onChange(topic, listener) {
  if (!listeners.has(topic)) listeners.set(topic, new Set());
  listeners.get(topic).add(listener);
  return () => listeners.get(topic).delete(listener);
}
export function changed(topic) {
  for (const listener of [...(listeners.get(topic) || [])]) listener();
}
