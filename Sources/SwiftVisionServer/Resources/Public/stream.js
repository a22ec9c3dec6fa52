// The live-stream WebSocket (`GET /v1/stream/{task}`): sends the source's frames as JPEG, each after a
// JSON header with the options changed since, at most MAX_AHEAD beyond the one the server is working
// on; hands each result to app.js, and keeps the counters and statistics the page shows.
import { authHeaders, toast } from './shared.js';
import { actions, el, frameSize, isMirrored, page, sourceElement, sv } from './page.js';
import { optionQuery } from './options.js';

const MAX_AHEAD = 2;          // frames sent beyond the one the server is working on
const JPEG_QUALITY = 0.8;
const STILL_FPS = 15;         // how often a still image is re-sent
const LATENCY_WINDOW = 30;    // latency is the median of this many results
const FPS_WINDOW_MS = 2000;
const STALL_MS = 5000;        // no answer this long with frames outstanding: forget them

const capture = document.createElement('canvas');
const captureCtx = capture.getContext('2d');

let ws = null, connectSeq = 0, reconnectTimer = 0, reconnectDelay = 1000;
let sendIndex = 0, lastAnswered = -1, encoding = false, lastMessageAt = 0, t0 = 0;
const frameMeta = new Map();  // frame index -> {sentAt, w, h}
let latencies = [], resultTimes = [];
let videoFrameSeq = 0, sentFrameSeq = -1, lastStillSend = 0, stillTimer = 0;

const median = (xs) => {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** The connection indicator in the header. */
export function setConn(state, text) {
  el.conn.dataset.state = state;
  el.connText.textContent = text;
}

/** Whether a WebSocket is open or opening. */
export const isConnected = () => ws !== null;

/** A new frame of the video or camera is ready to send. */
export function noteVideoFrame() { videoFrameSeq++; }

function resetCounters() {
  Object.assign(sv, {
    framesSent: 0, results: 0, resultsWithFaces: 0, facesWithTrackingIDs: 0, trackingIDs: [],
    dropped: 0, errors: 0, lastError: null, fps: 0, latencyMs: null, similarity: null, lastResult: null,
  });
  sendIndex = 0; lastAnswered = -1; frameMeta.clear(); latencies = []; resultTimes = [];
  updateStats();
}

export function disconnect() {
  clearTimeout(reconnectTimer);
  connectSeq++;
  if (ws) { ws.onclose = ws.onmessage = ws.onerror = ws.onopen = null; try { ws.close(1000, 'bye'); } catch (_) { /* closed */ } }
  ws = null;
  sv.connected = false;
}

/** Opens a stream for the current task and options (closing any other). */
export function connect() {
  disconnect();
  if (!page.source || !sv.task) return;
  resetCounters();
  page.pendingOptions = {};
  const mySeq = connectSeq;
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  const query = optionQuery();
  const url = `${scheme}://${location.host}/v1/stream/${encodeURIComponent(sv.task)}${query ? `?${query}` : ''}`;
  setConn('connecting', 'Connecting…');
  const sock = new WebSocket(url);
  sock.binaryType = 'arraybuffer';
  ws = sock;
  t0 = performance.now();
  lastMessageAt = t0;
  let opened = false;
  sock.onopen = () => {
    if (mySeq !== connectSeq) return;
    opened = true;
    reconnectDelay = 1000;
    sv.connected = true;
    setConn('live', `Live · ${sv.task}`);
    pump();
  };
  sock.onmessage = (ev) => { if (mySeq === connectSeq) onMessage(ev); };
  sock.onerror = () => { if (mySeq === connectSeq) setConn('error', 'Connection error'); };
  sock.onclose = async (ev) => {
    if (mySeq !== connectSeq) return;
    sv.connected = false;
    ws = null;
    if (!opened) {
      // The upgrade was refused: ask the same URL over HTTP for the server's JSON error.
      const refusal = await refusalOf(url.replace(/^ws/, 'http'));
      if (mySeq !== connectSeq) return;
      if (refusal) {
        sv.errors++;
        sv.lastError = refusal;
        publish();
        setConn('error', refusal.code);
        toast(`${refusal.code}: ${refusal.message}`);
        return;   // a 4xx will not go away by retrying: wait for new options or a new task
      }
    }
    setConn('error', `Closed (${ev.code}${ev.reason ? `: ${ev.reason}` : ''})`);
    if (ev.code !== 1000) toast(`Stream closed (${ev.code}${ev.reason ? ` ${ev.reason}` : ''}); reconnecting`);
    if (page.source) {
      reconnectTimer = setTimeout(() => { if (mySeq === connectSeq && page.source) connect(); }, reconnectDelay);
      reconnectDelay = Math.min(reconnectDelay * 2, 15000);
    }
  };
}

async function refusalOf(httpURL) {
  try {
    const res = await fetch(httpURL, { headers: authHeaders });
    if (res.status < 400 || res.status >= 500) return null;
    const body = await res.json();
    return body && body.error ? body.error : { code: String(res.status), message: res.statusText };
  } catch (_) {
    return null;
  }
}

const outstanding = () => sendIndex - 1 - lastAnswered;

/** Sends the next frame if the source has one and the server is not too far behind. */
export async function pump() {
  const { source } = page;
  if (!ws || ws.readyState !== WebSocket.OPEN || encoding || !source) return;
  const now = performance.now();
  if (outstanding() > 0 && now - lastMessageAt > STALL_MS) {
    toast(`No answer for ${Math.round((now - lastMessageAt) / 1000)} s: sending on`);
    lastAnswered = sendIndex - 1;
    lastMessageAt = now;
  }
  if (source.kind === 'image') {
    if (outstanding() > 0 || now - lastStillSend < 1000 / STILL_FPS) { scheduleStill(); return; }
  } else {
    if (outstanding() > MAX_AHEAD || videoFrameSeq === sentFrameSeq) return;
  }
  const size = frameSize();
  if (!size) return;
  encoding = true;
  const sock = ws;
  try {
    if (capture.width !== size.w || capture.height !== size.h) { capture.width = size.w; capture.height = size.h; }
    captureCtx.drawImage(sourceElement(), 0, 0, size.w, size.h);   // unmirrored, whatever the preview shows
    sentFrameSeq = videoFrameSeq;
    lastStillSend = now;
    const blob = await new Promise((resolve) => capture.toBlob(resolve, 'image/jpeg', JPEG_QUALITY));
    if (!blob || sock !== ws || sock.readyState !== WebSocket.OPEN) return;
    const header = { timestampMs: Math.round(performance.now() - t0), ...page.pendingOptions };
    if (page.pendingSeed) Object.assign(header, page.pendingSeed);
    page.pendingOptions = {};
    page.pendingSeed = null;
    const index = sendIndex++;
    frameMeta.set(index, { sentAt: performance.now(), w: size.w, h: size.h });
    sock.send(JSON.stringify(header));
    sock.send(blob);
    sv.framesSent = sendIndex;
    sv.frameSize = size;
  } finally {
    encoding = false;
  }
  if (page.source?.kind !== 'image') pump();
  else scheduleStill();
}

function scheduleStill() {
  if (stillTimer) return;
  stillTimer = setTimeout(() => { stillTimer = 0; pump(); }, 1000 / STILL_FPS);
}

function onMessage(ev) {
  if (typeof ev.data !== 'string') return;
  let m;
  try { m = JSON.parse(ev.data); } catch (_) { return; }
  const now = performance.now();
  lastMessageAt = now;
  let meta = null;
  if (typeof m.frame === 'number') {
    lastAnswered = Math.max(lastAnswered, m.frame);
    meta = frameMeta.get(m.frame) || null;
    for (const k of frameMeta.keys()) if (k <= m.frame) frameMeta.delete(k);
  }
  if (m.error) {
    sv.errors++;
    sv.lastError = m.error;
    toast(`${m.error.code || 'error'}: ${m.error.message || ''}`);
    publish();
    pump();
    return;
  }
  sv.results++;
  sv.dropped += Number(m.dropped) || 0;
  if (meta) {
    latencies.push(now - meta.sentAt);
    if (latencies.length > LATENCY_WINDOW) latencies.shift();
  }
  resultTimes.push(now);
  while (resultTimes.length && now - resultTimes[0] > FPS_WINDOW_MS) resultTimes.shift();
  sv.latencyMs = latencies.length ? Math.round(median(latencies)) : null;
  sv.lastResult = m;
  actions.showResult(m, meta || { w: m.width || sv.frameSize?.w, h: m.height || sv.frameSize?.h }, meta ? now - meta.sentAt : null);
  updateStats();
  pump();
}

function computeFps() {
  const now = performance.now();
  while (resultTimes.length && now - resultTimes[0] > FPS_WINDOW_MS) resultTimes.shift();
  if (resultTimes.length < 2) return resultTimes.length ? 1000 / FPS_WINDOW_MS : 0;
  const span = Math.max(now - resultTimes[0], resultTimes[resultTimes.length - 1] - resultTimes[0]);
  return ((resultTimes.length - 1) * 1000) / Math.max(span, 1);
}

/** Shows the counters and statistics, and publishes them for automation. */
export function updateStats() {
  sv.fps = Math.round(computeFps() * 10) / 10;
  sv.mirrored = isMirrored();
  el.fps.textContent = sv.results ? sv.fps.toFixed(1) : '–';
  el.latency.textContent = sv.latencyMs == null ? '–' : String(sv.latencyMs);
  el.dropped.textContent = String(sv.dropped);
  el.frames.textContent = `${sv.results} / ${sv.framesSent}`;
  el.size.textContent = sv.frameSize ? `${sv.frameSize.w}×${sv.frameSize.h}` : '–';
  publish();
}

/** Mirrors `window.swiftVision` in `<pre id="status">`. */
export function publish() {
  el.status.dataset.results = String(sv.results);
  el.status.dataset.resultsWithFaces = String(sv.resultsWithFaces);
  el.status.dataset.framesSent = String(sv.framesSent);
  el.status.dataset.dropped = String(sv.dropped);
  el.status.dataset.errors = String(sv.errors);
  el.status.textContent = JSON.stringify(sv);
}

setInterval(() => { if (page.source) updateStats(); }, 500);
