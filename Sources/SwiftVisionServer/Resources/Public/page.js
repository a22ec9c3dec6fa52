// What the live page's modules share: its elements, the state it shows to automation
// (`window.swiftVision`), the current task, options and source, and the actions the entry module
// (app.js) provides to the others.

export const params = new URLSearchParams(location.search);

/** Frames are scaled down to this longest side before sending. */
export const MAX_SIDE = 1280;

/** The state exposed for automation, mirrored in `<pre id="status">`. */
export const sv = {
  task: null, source: null, connected: false,
  framesSent: 0, results: 0, resultsWithFaces: 0, facesWithTrackingIDs: 0, trackingIDs: [],
  dropped: 0, errors: 0, lastError: null, fps: 0, latencyMs: null, frameSize: null, mirrored: false,
  similarity: null, seed: null, lastResult: null,
};
window.swiftVision = sv;

const $ = (id) => document.getElementById(id);
export const el = {
  task: $('task'), startCamera: $('start-camera'), fileInput: $('file-input'), stop: $('stop'),
  glasses: $('glasses'), mirror: $('mirror'), conn: $('conn'), connText: $('conn-text'),
  stage: $('stage'), video: $('video'), preview: $('preview'), still: $('still'), overlay: $('overlay'), hint: $('hint'), empty: $('empty'),
  fps: $('stat-fps'), latency: $('stat-latency'), dropped: $('stat-dropped'), frames: $('stat-frames'), size: $('stat-size'),
  taskTitle: $('task-title'), taskPill: $('task-pill'), taskSummary: $('task-summary'), options: $('options'),
  embedCard: $('embed-card'), captureRef: $('capture-ref'), simValue: $('sim-value'), simNote: $('sim-note'),
  simBar: $('sim-bar'), simHistory: $('sim-history'),
  results: $('results'), resultMeta: $('result-meta'), status: $('status'),
  glassesToggle: $('glasses-toggle'), mirrorToggle: $('mirror-toggle'), apiWs: $('api-ws'), apiRest: $('api-rest'),
};

/** The page's working state. */
export const page = {
  tasks: [],            // GET /v1/tasks
  info: null,           // the current task's entry of that listing
  renderer: null,       // the current task's module under renderers/
  options: {},          // the current task's option values
  defaults: {},         // the server's defaults for them (GET /v1/tasks)
  pendingOptions: {},   // changed options, sent before the next frame
  pendingSeed: null,    // a tracker's seed boxes, sent before the next frame
  source: null,         // {kind: 'camera'|'video'|'image', stream?, url?, name?}
  current: null,        // {result, meta}: what the overlay shows
  view: { w: 0, h: 0, left: 0, top: 0, dpr: 1 },   // where the frame is shown, in CSS pixels
};

/** What app.js does for the other modules: change an option, show a result, redraw the overlay (it
 * answers how many faces it drew), update the stage's hint. */
export const actions = {
  setOption: (key, value) => {},
  showResult: (result, meta, latency) => {},
  redraw: () => 0,
  updateStageMode: () => {},
};

/** Whether the preview is shown as a mirror (never for a still image). */
export function isMirrored() { return !!page.source && page.source.kind !== 'image' && el.mirror.checked; }

/** The element frames are taken from. */
export function sourceElement() { return page.source?.kind === 'image' ? el.still : el.video; }

/** The source's own size, once known. */
export function sourceSize() {
  const source = page.source;
  if (!source) return null;
  const w = source.kind === 'image' ? el.still.naturalWidth : el.video.videoWidth;
  const h = source.kind === 'image' ? el.still.naturalHeight : el.video.videoHeight;
  return w && h ? { w, h } : null;
}

/** The size of the frames sent: the source's, scaled down to MAX_SIDE. */
export function frameSize() {
  const s = sourceSize();
  if (!s) return null;
  const k = Math.min(1, MAX_SIDE / Math.max(s.w, s.h));
  return { w: Math.round(s.w * k), h: Math.round(s.h * k) };
}
