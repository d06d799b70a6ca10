// The network side of the page: the Server-Sent Events feed of session summaries, and fetching the view on screen
// (picture and model) one request at a time. It draws nothing itself: what arrives goes to the handlers main.js gives
// `onArrival`, so the views import the feed and never the other way round.
import { $ } from "./dom.js";
import { elementId } from "./ids.js";
import { REPORT, state, timing } from "./state.js";

const arrival = {
  sessions: () => {},           // state.sessions changed
  tree: (svg, seq) => {},       // the picture of the view asked for: SVG text, or a layout for the canvas
  model: () => {},              // state.model is the view asked for
  failed: (message) => {},      // the view could not be loaded
};
export function onArrival(handlers) { Object.assign(arrival, handlers); }

export function connect() {
  const feed = new EventSource("/api/events");
  feed.addEventListener("open", () => setFeed("open", feedWords()));
  feed.addEventListener("error", () => setFeed("closed", "feed lost; retrying…"));
  feed.addEventListener("hello", (event) => {
    // Each run as the newest judgement heard of: a reconnect's hello may carry one older than a summary already here.
    state.sessions = new Map(JSON.parse(event.data).map((s) => [s.run, newer(state.sessions.get(s.run), s)]));
    setFeed("open", feedWords());
    arrival.sessions();
  });
  feed.addEventListener("session", (event) => {
    timing("feed");
    const summary = JSON.parse(event.data);
    const kept = newer(state.sessions.get(summary.run), summary);
    if (kept !== summary) return;
    state.sessions.set(summary.run, summary);
    arrival.sessions();
  });
  feed.addEventListener("gone", (event) => {
    state.sessions.delete(JSON.parse(event.data).run);
    arrival.sessions();
  });
}
// Of two summaries of a run, the one from the later judgement (the server numbers them in the order made): summaries
// the refresher and the feed's rounds send may arrive in either order, and the page never goes back to an older one.
function newer(known, summary) {
  return known && (known.judgement ?? -1) > (summary.judgement ?? -1) ? known : summary;
}
// `coordlens view` serves recordings only: nothing on the page is live, and the feed state must not claim it is.
function feedWords() {
  const sessions = [...state.sessions.values()];
  return sessions.length > 0 && sessions.every((s) => s.state === "recorded") ? "recorded" : "live feed";
}
export function setFeed(kind, text) {
  $("feed-state").dataset.state = kind;
  $("feed-state").textContent = text;
}

// The view the toolbar asks for, as the query of /api/model and /api/tree.
function query() {
  const params = new URLSearchParams({ run: state.run });
  if (state.seq != null) params.set("seq", state.seq);
  const grace = $("grace").value;
  if (grace !== "" && Number(grace) >= 0) params.set("grace", grace);
  if ($("leaks-only").checked) params.set("leaks", "1");
  if ($("show-released").checked) params.set("released", "1");
  if ($("show-all").checked) params.set("all", "1");
  if (state.reveal != null) params.set("reveal", elementId(state.reveal));
  if (state.opened.size) params.set("open", [...state.opened].map(elementId).join(","));
  return params.toString();
}

// Whether the shown session's latest summary moved on from what the page shows (which must be set).
// Above this many coordinators a picture of all of them is painted on a canvas from the layout: an SVG of 5,000
// drawn whole still shows in about a second, one of 100,000 took 24 s and 2.1 GB in Chromium.
const CANVAS_ABOVE = 3000;
function wantsCanvas(summary) {
  if (!$("show-all").checked || $("leaks-only").checked || !summary) return false;
  const counts = summary.counts || {};
  const shown = ["alive", "pending", "retained"].concat($("show-released").checked ? ["released", "late"] : []);
  return shown.reduce((sum, verdict) => sum + (counts[verdict] || 0), 0) > CANVAS_ABOVE;
}

export function sessionMoved() {
  const summary = state.sessions.get(state.run);
  return Boolean(summary) && (summary.judgement ?? -1) > state.shown.judgement;
}

// The picture frame's width over its height as the server snaps it (the nearest power of 2^¼ from 1/4 to 4): a small
// tree wraps its rows to that shape, so a phone gets a tall picture and a desktop a wide one. null before layout.
export function pictureAspect() {
  const box = $("viewport").getBoundingClientRect();
  if (!(box.width > 0 && box.height > 0)) return null;
  return 2 ** (Math.max(-8, Math.min(8, Math.round(4 * Math.log2(box.width / box.height)))) / 4);
}
// The shape to ask for: the frame's, unless the user moved the view, which then keeps the picture they moved about.
function wantedAspect() {
  return state.moved && state.shownAspect !== undefined ? state.shownAspect : pictureAspect();
}
// Whether the picture on screen was wrapped for another frame shape than the one to ask for now.
export const aspectChanged = () => state.shownAspect !== undefined && state.shownAspect !== wantedAspect();

// Whether the page shows less than it should: another view was asked for, or the session moved on since.
function behind() {
  return !state.shown || state.shown.key !== query() || sessionMoved() || aspectChanged();
}

// The judgement an answer was built from (`X-Lens-Judgement`); -1 if unsaid.
function judgementOf(response) {
  const header = response.headers.get("X-Lens-Judgement");
  return header == null ? -1 : Number(header);
}

const BUSY_AFTER_MS = 300;
// How long to wait before asking again for a view the server answered stale (X-Lens-Stale: a newer answer took it too
// long to build, so it sent the last one it built and builds on), so the page does not ask over and over for it.
const STALE_AGAIN_MS = 250;
function setBusy(on) {
  $("busy").hidden = !on;
  $("viewport").setAttribute("aria-busy", String(on));
}

// The last answer of each kind the server tagged (ETag), and the tags of what is on screen. Asked again, the server
// answers 304 Not Modified when the page holds its newest answer already (a big session's next one still being built),
// so the page neither reads megabytes again nor draws the same picture twice.
const held = new Map();
const drawn = { tree: undefined, model: undefined };
async function fetchHeld(url, read) {
  const kind = url.slice(0, url.indexOf("?"));
  const last = held.get(kind);
  const response = await fetch(url, last ? { headers: { "If-None-Match": last.tag } } : {});
  if (response.status === 304 && last) return { response, value: last.value, tag: last.tag, judgement: last.judgement };
  if (!response.ok) throw new Error(await response.text());
  const value = await read(response);
  const tag = response.headers.get("ETag") ?? undefined;
  const judgement = judgementOf(response);
  if (tag) held.set(kind, { tag, value, judgement }); else held.delete(kind);
  return { response, value, tag, judgement };
}

// One request at a time; changes meanwhile coalesce into one more, made only if still needed.
export async function refresh() {
  if (state.run == null) return;
  if (state.inflight) { state.again = true; return; }
  state.inflight = true;
  const run = state.run;
  const summary = state.sessions.get(run);
  const q = query();
  // An answer from a judgement older than the one on screen for this view (a stale one) is not drawn over it.
  const onScreen = state.shown && state.shown.key === q ? state.shown.judgement : -1;
  if (REPORT) {
    state.model = REPORT.model;
    state.shown = { key: q, judgement: 0 };
    arrival.tree(REPORT.svg, String(REPORT.model.summary.lastSeq ?? ""));
    arrival.model();
    state.inflight = false;
    return;
  }
  // Nothing shown (a session just picked, its picture cleared): what was drawn before is gone and is drawn again.
  if (state.shown == null) drawn.tree = drawn.model = undefined;
  // Said only when drawing takes long enough to notice: a quick update does not flash it.
  const busy = setTimeout(() => setBusy(true), BUSY_AFTER_MS);
  let stale = false;
  try {
    timing("fetch");
    // Both asked at once; the picture goes up as soon as it arrives, the panels when the model does.
    const modelRequest = fetchHeld("/api/model?" + q, (response) => response.json()).then((answer) => {
      if (answer.response.headers.get("X-Lens-Stale")) stale = true;
      return answer;
    });
    modelRequest.catch(() => {}); // awaited below; this only keeps an early failure of the tree from leaving it unhandled
    const canvas = wantsCanvas(summary);
    const aspect = canvas ? null : wantedAspect();
    const tree = await fetchHeld((canvas ? "/api/layout?" : "/api/tree?") + q + (aspect ? "&aspect=" + aspect : ""),
      (response) => canvas ? response.json() : response.text());
    const treeResponse = tree.response;
    if (treeResponse.headers.get("X-Lens-Stale")) stale = true;
    timing("read");
    if (run === state.run && (tree.tag === undefined || drawn.tree !== tree.tag) && tree.judgement >= onScreen) {
      state.shownAspect = aspect ?? undefined;
      arrival.tree(tree.value, treeResponse.headers.get("X-Lens-Seq"));
      drawn.tree = tree.tag;
      timing("tree");
    }
    const modelAnswer = await modelRequest;
    const model = modelAnswer.value;
    if (run === state.run && modelAnswer.judgement >= onScreen) {
      state.model = model;
      // What is on screen is as new as the older of the two answers; a stale one shows less than any summary says,
      // so it is marked as no judgement and the page asks again.
      state.shown = { key: q, judgement: stale ? -1 : Math.min(tree.judgement, modelAnswer.judgement) };
      if (!stale) state.shownJudgements = state.shownJudgements.slice(-99).concat([{ run, judgement: state.shown.judgement }]);
      if (modelAnswer.tag === undefined || drawn.model !== modelAnswer.tag) {
        arrival.model();
        drawn.model = modelAnswer.tag;
      }
      timing("panels");
    }
  } catch (error) {
    drawn.tree = drawn.model = undefined;
    arrival.failed("Could not load the session: " + error.message);
  } finally {
    clearTimeout(busy);
    setBusy(false);
    state.inflight = false;
    if (stale) {
      // Asked again after a pause, not at once: the build that will replace it is still under way.
      state.again = false;
      setTimeout(() => { if (!state.inflight && behind()) refresh(); }, STALE_AGAIN_MS);
    } else if (state.again) { state.again = false; if (behind()) refresh(); }
  }
}
