// SwiftVision Live: streams camera or file frames to `GET /v1/stream/{task}` (a WebSocket) and
// draws each result over the preview. Plain ES2020, no dependencies, no build step.
'use strict';

(() => {
  const $ = (id) => document.getElementById(id);
  const params = new URLSearchParams(location.search);

  // ---------------------------------------------------------------- settings
  const MAX_AHEAD = 2;          // frames sent beyond the one the server is working on
  const JPEG_QUALITY = 0.8;
  const MAX_SIDE = 1280;        // frames are scaled down to this longest side before sending
  const STILL_FPS = 15;         // how often a still image is re-sent
  const LATENCY_WINDOW = 30;    // latency is the median of this many results
  const FPS_WINDOW_MS = 2000;
  const STALL_MS = 5000;        // no answer this long with frames outstanding: forget them
  // Options the page leaves at the server's defaults: lists, files, and the custom-classifier knobs.
  const HIDDEN_OPTIONS = new Set(['threads', 'boxes', 'model', 'detector', 'allow', 'deny', 'mesh', 'contours',
    'maxLabels', 'classificationThreshold', 'rawSize']);
  const PAGE_DEFAULTS = { objects: { multiple: true, classify: true } };
  const OPTION_LABELS = {
    minFaceSize: 'Min face', l2Normalize: 'L2 normalize', max: 'Max results', lang: 'Language',
    quadratureTolerance: 'Angle tolerance', minConfidence: 'Min confidence',
  };
  const OPTION_CHOICES = { level: ['accurate', 'fast'] };
  const optionLabel = (key) => OPTION_LABELS[key]
    || key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/^./, (c) => c.toUpperCase()).replace(/ ([A-Z])(?=[a-z])/g, (_, c) => ` ${c.toLowerCase()}`);
  // For `track`, `level` goes with the seed boxes (a text message), not in the URL.
  const seedOnly = (key) => sv.task === 'track' && key === 'level';
  const TASK_TITLES = {
    faces: 'Faces', objects: 'Objects', labels: 'Labels', embeddings: 'Embeddings', rectangles: 'Rectangles',
    barcodes: 'Barcodes', text: 'Text', track: 'Track', segment: 'Segment', pose: 'Pose', hands: 'Hands',
  };
  const MASK_TINT = [56, 132, 255];   // the person mask's colour; its opacity is 0.55 × the confidence
  // BlazePose's skeleton: pairs of landmark indices (MediaPipe's POSE_CONNECTIONS).
  const POSE_BONES = [[0, 1], [1, 2], [2, 3], [3, 7], [0, 4], [4, 5], [5, 6], [6, 8], [9, 10], [11, 12], [11, 13], [13, 15],
    [15, 17], [15, 19], [15, 21], [17, 19], [12, 14], [14, 16], [16, 18], [16, 20], [16, 22], [18, 20], [11, 23], [12, 24],
    [23, 24], [23, 25], [24, 26], [25, 27], [26, 28], [27, 29], [28, 30], [29, 31], [30, 32], [27, 31], [28, 32]];
  // The hand's skeleton: pairs of landmark indices (MediaPipe's HAND_CONNECTIONS).
  const HAND_BONES = [[0, 1], [1, 2], [2, 3], [3, 4], [0, 5], [5, 6], [6, 7], [7, 8], [5, 9], [9, 10], [10, 11], [11, 12],
    [9, 13], [13, 14], [14, 15], [15, 16], [13, 17], [0, 17], [17, 18], [18, 19], [19, 20]];
  const CONTOUR_CLOSED = new Set(['face', 'leftEye', 'rightEye', 'upperLipTop', 'upperLipBottom', 'lowerLipTop', 'lowerLipBottom']);

  // ---------------------------------------------------------------- state exposed for automation
  const sv = {
    task: null, source: null, connected: false,
    framesSent: 0, results: 0, resultsWithFaces: 0, facesWithTrackingIDs: 0, trackingIDs: [],
    dropped: 0, errors: 0, lastError: null, fps: 0, latencyMs: null, frameSize: null, mirrored: false,
    similarity: null, seed: null, lastResult: null,
  };
  window.swiftVision = sv;

  // ---------------------------------------------------------------- elements
  const el = {
    task: $('task'), startCamera: $('start-camera'), fileInput: $('file-input'), stop: $('stop'),
    glasses: $('glasses'), mirror: $('mirror'), conn: $('conn'), connText: $('conn-text'),
    stage: $('stage'), video: $('video'), preview: $('preview'), still: $('still'), overlay: $('overlay'), hint: $('hint'), empty: $('empty'),
    fps: $('stat-fps'), latency: $('stat-latency'), dropped: $('stat-dropped'), frames: $('stat-frames'), size: $('stat-size'),
    taskTitle: $('task-title'), taskPill: $('task-pill'), taskSummary: $('task-summary'), options: $('options'),
    embedCard: $('embed-card'), captureRef: $('capture-ref'), simValue: $('sim-value'), simNote: $('sim-note'),
    simBar: $('sim-bar'), simHistory: $('sim-history'),
    results: $('results'), resultMeta: $('result-meta'), status: $('status'), toast: $('toast'),
    glassesToggle: $('glasses-toggle'), mirrorToggle: $('mirror-toggle'), apiWs: $('api-ws'), apiRest: $('api-rest'),
  };
  const ctx = el.overlay.getContext('2d');
  const previewCtx = el.preview.getContext('2d', { alpha: false });
  const capture = document.createElement('canvas');
  const captureCtx = capture.getContext('2d');

  const token = params.get('token');
  const authHeaders = token ? { Authorization: `Bearer ${token}` } : {};
  if (token) {
    for (const page of ['collections', 'sources']) {
      document.getElementById(`${page}-link`).href = `${page}.html?token=${encodeURIComponent(token)}`;
    }
  }

  let tasks = [];               // GET /v1/tasks
  let options = {};             // the current task's option values
  let defaults = {};            // the server's defaults for them (GET /v1/tasks)
  let pendingOptions = {};      // changed options, sent before the next frame
  let pendingSeed = null;       // track seed, sent before the next frame

  // source
  let source = null;            // {kind: 'camera'|'video'|'image', stream?, url?}
  let videoFrameSeq = 0, sentFrameSeq = -1, lastStillSend = 0;

  // stream
  let ws = null, connectSeq = 0, reconnectTimer = 0, reconnectDelay = 1000;
  let sendIndex = 0, lastAnswered = -1, encoding = false, lastMessageAt = 0, t0 = 0;
  const frameMeta = new Map();  // frame index -> {sentAt, w, h}
  let latencies = [], resultTimes = [];

  // drawing
  let view = { w: 0, h: 0, left: 0, top: 0, dpr: 1 };
  let current = null;           // {result, meta}: what the overlay shows
  let maskOverlay = null;       // the latest segmentation mask, tinted, at the model's size
  let maskToken = 0;            // the newest mask being decoded
  let drag = null;              // {x0, y0, x1, y1} in overlay CSS pixels
  let seedPreview = null;       // frame-pixel box shown until the tracker answers

  // embeddings
  let reference = null, lastEmbedding = null, simHistory = [];

  // ---------------------------------------------------------------- helpers
  const escapeHTML = (s) => String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
  const pct = (v) => (v == null ? '' : `${Math.round(v * 100)}%`);
  const hueFor = (id) => (id == null ? 200 : (Number(id) * 137.508 + 12) % 360);
  const colorFor = (id, a = 1) => `hsla(${hueFor(id)}, 90%, 62%, ${a})`;
  const median = (xs) => {
    if (!xs.length) return null;
    const s = [...xs].sort((a, b) => a - b);
    const m = s.length >> 1;
    return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
  };
  const parseValue = (raw, like) => {
    if (typeof like === 'boolean') return /^(1|true|yes|on)$/i.test(raw);
    if (typeof like === 'number') { const n = Number(raw); return Number.isFinite(n) ? n : like; }
    return raw;
  };

  let toastTimer = 0;
  function toast(message) {
    el.toast.textContent = message;
    el.toast.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => { el.toast.hidden = true; }, 5000);
  }

  function setConn(state, text) {
    el.conn.dataset.state = state;
    el.connText.textContent = text;
  }

  // ---------------------------------------------------------------- tasks and options
  async function loadTasks() {
    try {
      const res = await fetch('/v1/tasks', { headers: authHeaders });
      if (!res.ok) throw new Error(`GET /v1/tasks answered ${res.status}`);
      tasks = await res.json();
    } catch (err) {
      el.taskSummary.textContent = `Could not list the tasks: ${err.message}`;
      toast(`Could not list the tasks: ${err.message}`);
      return;
    }
    el.task.innerHTML = tasks.map((t) => `<option value="${escapeHTML(t.name)}">${escapeHTML(TASK_TITLES[t.name] || t.name)}</option>`).join('');
    const wanted = params.get('task');
    const first = tasks.find((t) => t.name === wanted) || tasks.find((t) => t.name === 'faces') || tasks[0];
    if (first) selectTask(first.name, true);
    if (params.get('autostart') === '1') {
      if ((params.get('source') || 'camera') === 'camera') startCamera();
    }
  }

  function taskInfo(name = sv.task) { return tasks.find((t) => t.name === name) || { name, options: {} }; }

  function selectTask(name, fromQuery = false) {
    sv.task = name;
    el.task.value = name;
    const info = taskInfo(name);
    defaults = { ...(info.options || {}) };
    options = { ...defaults, ...(PAGE_DEFAULTS[name] || {}) };
    if (fromQuery) {
      for (const [key, raw] of params) if (key in options && !HIDDEN_OPTIONS.has(key)) options[key] = parseValue(raw, options[key]);
    }
    pendingOptions = {};
    pendingSeed = null;
    seedPreview = null;
    sv.seed = null;
    reference = null; lastEmbedding = null; simHistory = [];
    el.taskTitle.textContent = TASK_TITLES[name] || name;
    el.taskSummary.textContent = info.summary || '';
    el.taskPill.hidden = !info.tracksAcrossFrames;
    el.embedCard.hidden = name !== 'embeddings';
    renderOptions();
    renderApi();
    renderEmbedding(null);
    el.glassesToggle.hidden = name !== 'faces';
    current = null;
    el.results.innerHTML = '<p class="muted">No results yet.</p>';
    el.resultMeta.textContent = '';
    updateStageMode();
    drawOverlay();
    if (source) connect();
  }

  function renderOptions() {
    el.options.innerHTML = '';
    for (const [key, value] of Object.entries(options)) {
      if (HIDDEN_OPTIONS.has(key)) continue;
      const label = sv.task === 'track' && key === 'level' ? 'Tracker' : optionLabel(key);
      const row = document.createElement('div');
      row.className = typeof value === 'boolean' ? 'opt' : 'opt field-opt';
      let input;
      if (typeof value === 'boolean') {
        row.innerHTML = `<label class="switch"><input type="checkbox"><span class="track"></span><span>${escapeHTML(label)}</span></label>`;
        input = row.querySelector('input');
        input.checked = value;
        input.addEventListener('change', () => setOption(key, input.checked));
      } else if (OPTION_CHOICES[key] && OPTION_CHOICES[key].includes(value)) {
        row.innerHTML = `<span>${escapeHTML(label)}</span><select>${OPTION_CHOICES[key].map((c) => `<option value="${c}">${c}</option>`).join('')}</select>`;
        input = row.querySelector('select');
        input.value = value;
        input.addEventListener('change', () => setOption(key, input.value));
      } else if (typeof value === 'number') {
        row.innerHTML = `<span>${escapeHTML(label)}</span><input type="number">`;
        input = row.querySelector('input');
        input.value = value;
        input.step = Number.isInteger(value) && value >= 1 ? '1' : 'any';
        input.addEventListener('change', () => { const n = Number(input.value); if (Number.isFinite(n)) setOption(key, n); });
      } else if (typeof value === 'string') {
        row.className = 'opt field-opt wide';
        row.innerHTML = `<span>${escapeHTML(label)}</span><input type="text">`;
        input = row.querySelector('input');
        input.value = value;
        input.addEventListener('change', () => setOption(key, input.value));
      } else {
        continue;
      }
      input.dataset.option = key;
      el.options.appendChild(row);
    }
  }

  /** The endpoints the page uses for the current task and options, for copying into other programs. */
  function renderApi() {
    const q = optionQuery().replace(/(^|&)token=[^&]*/, '$1token=…');
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    el.apiWs.textContent = `${scheme}://${location.host}/v1/stream/${sv.task}${q ? `?${q}` : ''}`;
    el.apiRest.textContent = sv.task === 'track'
      ? 'track is live-stream only: seed it with {"boxes":[{x,y,width,height}]}'
      : `curl -H 'Content-Type: image/jpeg' --data-binary @photo.jpg '${location.origin}/v1/${sv.task}${q ? `?${q}` : ''}'`;
  }

  function setOption(key, value) {
    options[key] = value;
    renderApi();
    if (seedOnly(key)) return;   // sent with the next seed box
    if (source && !ws) { connect(); return; }   // the last options were refused: try these
    pendingOptions[key] = value;
    updateStageMode();
  }

  function optionQuery() {
    const q = new URLSearchParams();
    for (const [key, value] of Object.entries(options)) {
      if (HIDDEN_OPTIONS.has(key) || seedOnly(key) || value === null || typeof value === 'object') continue;
      if (defaults[key] === value) continue;   // the server's default: no need to say it
      q.set(key, String(value));
    }
    if (token) q.set('token', token);
    return q.toString();
  }

  // ---------------------------------------------------------------- sources
  async function startCamera() {
    stopSource();
    setConn('connecting', 'Starting camera…');
    let stream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({
        video: { width: { ideal: 640 }, height: { ideal: 480 }, facingMode: 'user' }, audio: false,
      });
    } catch (err) {
      setConn('error', 'No camera');
      toast(`Camera: ${err.name}: ${err.message}`);
      return;
    }
    source = { kind: 'camera', stream };
    const settings = stream.getVideoTracks()[0]?.getSettings?.() || {};
    // A front (user-facing) camera is shown as a mirror; laptop webcams often report no facingMode.
    const mirror = params.has('mirror') ? params.get('mirror') === '1' : settings.facingMode !== 'environment';
    el.mirror.checked = mirror;
    el.video.srcObject = stream;
    await playVideo();
  }

  async function openFile(file) {
    if (!file) return;
    stopSource();
    const url = URL.createObjectURL(file);
    el.mirror.checked = false;
    if (file.type.startsWith('image/')) {
      source = { kind: 'image', url, name: file.name };
      el.still.src = url;
      try { await el.still.decode(); } catch (err) { toast(`Cannot show ${file.name}: ${err.message}`); stopSource(); return; }
      el.still.hidden = false;
      el.video.hidden = true;
      startStreaming();
    } else {
      source = { kind: 'video', url, name: file.name };
      el.video.srcObject = null;
      el.video.src = url;
      el.video.loop = true;
      await playVideo();
    }
  }

  async function playVideo() {
    el.still.hidden = true;
    el.video.hidden = false;
    el.video.muted = true;
    try {
      await el.video.play();
    } catch (err) {
      toast(`Cannot play the video: ${err.message}`);
      stopSource();
      return;
    }
    if (!el.video.videoWidth) await new Promise((resolve) => el.video.addEventListener('loadedmetadata', resolve, { once: true }));
    watchVideoFrames();
    startStreaming();
  }

  function watchVideoFrames() {
    const v = el.video;
    const mySource = source;
    if ('requestVideoFrameCallback' in HTMLVideoElement.prototype) {
      const onFrame = () => {
        if (source !== mySource) return;
        videoFrameSeq++;
        drawPreview();
        pump();
        v.requestVideoFrameCallback(onFrame);
      };
      v.requestVideoFrameCallback(onFrame);
    } else {
      let lastTime = -1;
      const tick = () => {
        if (source !== mySource) return;
        if (v.currentTime !== lastTime) { lastTime = v.currentTime; videoFrameSeq++; drawPreview(); pump(); }
        requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    }
  }

  function startStreaming() {
    sv.source = source.kind;
    el.mirror.disabled = source.kind === 'image';
    el.mirrorToggle.classList.toggle('disabled', source.kind === 'image');
    updateStageMode();
    el.stage.classList.remove('idle');
    el.empty.hidden = true;
    el.stop.disabled = false;
    el.captureRef.disabled = false;
    layout();
    connect();
  }

  function stopSource() {
    disconnect();
    if (source?.stream) source.stream.getTracks().forEach((t) => t.stop());
    if (source?.url) URL.revokeObjectURL(source.url);
    source = null;
    sv.source = null;
    el.video.pause();
    el.video.srcObject = null;
    el.video.removeAttribute('src');
    el.video.load();
    el.still.hidden = true;
    el.still.removeAttribute('src');
    el.stage.classList.add('idle');
    el.empty.hidden = false;
    el.stop.disabled = true;
    el.captureRef.disabled = true;
    current = null;
    drawOverlay();
    setConn('idle', 'Idle');
  }

  function sourceElement() { return source?.kind === 'image' ? el.still : el.video; }

  function sourceSize() {
    if (!source) return null;
    const w = source.kind === 'image' ? el.still.naturalWidth : el.video.videoWidth;
    const h = source.kind === 'image' ? el.still.naturalHeight : el.video.videoHeight;
    return w && h ? { w, h } : null;
  }

  /** The size of the frames sent: the source's, scaled down to MAX_SIDE. */
  function frameSize() {
    const s = sourceSize();
    if (!s) return null;
    const k = Math.min(1, MAX_SIDE / Math.max(s.w, s.h));
    return { w: Math.round(s.w * k), h: Math.round(s.h * k) };
  }

  // ---------------------------------------------------------------- the WebSocket
  function resetCounters() {
    Object.assign(sv, {
      framesSent: 0, results: 0, resultsWithFaces: 0, facesWithTrackingIDs: 0, trackingIDs: [],
      dropped: 0, errors: 0, lastError: null, fps: 0, latencyMs: null, similarity: null, lastResult: null,
    });
    sendIndex = 0; lastAnswered = -1; frameMeta.clear(); latencies = []; resultTimes = [];
    updateStats();
  }

  function disconnect() {
    clearTimeout(reconnectTimer);
    connectSeq++;
    if (ws) { ws.onclose = ws.onmessage = ws.onerror = ws.onopen = null; try { ws.close(1000, 'bye'); } catch (_) { /* closed */ } }
    ws = null;
    sv.connected = false;
  }

  function connect() {
    disconnect();
    if (!source || !sv.task) return;
    resetCounters();
    pendingOptions = {};
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
      if (source) {
        reconnectTimer = setTimeout(() => { if (mySeq === connectSeq && source) connect(); }, reconnectDelay);
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

  async function pump() {
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
      const header = { timestampMs: Math.round(performance.now() - t0), ...pendingOptions };
      if (pendingSeed) Object.assign(header, pendingSeed);
      pendingOptions = {};
      pendingSeed = null;
      const index = sendIndex++;
      frameMeta.set(index, { sentAt: performance.now(), w: size.w, h: size.h });
      sock.send(JSON.stringify(header));
      sock.send(blob);
      sv.framesSent = sendIndex;
      sv.frameSize = size;
    } finally {
      encoding = false;
    }
    if (source?.kind !== 'image') pump();
    else scheduleStill();
  }

  let stillTimer = 0;
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
    if (m.tracks) seedPreview = null;
    if (typeof m.mask === 'string') prepareMask(m); else maskOverlay = null;
    current = { result: m, meta: meta || { w: m.width || sv.frameSize?.w, h: m.height || sv.frameSize?.h } };
    const drawn = drawOverlay();
    if (Array.isArray(m.faces)) {
      const withIDs = m.faces.filter((f) => f.trackingID != null);
      sv.facesWithTrackingIDs += withIDs.length;
      for (const f of withIDs) if (!sv.trackingIDs.includes(f.trackingID) && sv.trackingIDs.length < 200) sv.trackingIDs.push(f.trackingID);
      if (m.faces.length > 0 && withIDs.length === m.faces.length && drawn === m.faces.length) sv.resultsWithFaces++;
    }
    if (Array.isArray(m.embedding)) renderEmbedding(m.embedding);
    renderPanel(m, meta ? now - meta.sentAt : null);
    updateStats();
    pump();
  }

  // ---------------------------------------------------------------- stats and status
  function computeFps() {
    const now = performance.now();
    while (resultTimes.length && now - resultTimes[0] > FPS_WINDOW_MS) resultTimes.shift();
    if (resultTimes.length < 2) return resultTimes.length ? 1000 / FPS_WINDOW_MS : 0;
    const span = Math.max(now - resultTimes[0], resultTimes[resultTimes.length - 1] - resultTimes[0]);
    return ((resultTimes.length - 1) * 1000) / Math.max(span, 1);
  }

  function updateStats() {
    sv.fps = Math.round(computeFps() * 10) / 10;
    sv.mirrored = isMirrored();
    el.fps.textContent = sv.results ? sv.fps.toFixed(1) : '–';
    el.latency.textContent = sv.latencyMs == null ? '–' : String(sv.latencyMs);
    el.dropped.textContent = String(sv.dropped);
    el.frames.textContent = `${sv.results} / ${sv.framesSent}`;
    el.size.textContent = sv.frameSize ? `${sv.frameSize.w}×${sv.frameSize.h}` : '–';
    publish();
  }

  function publish() {
    el.status.dataset.results = String(sv.results);
    el.status.dataset.resultsWithFaces = String(sv.resultsWithFaces);
    el.status.dataset.framesSent = String(sv.framesSent);
    el.status.dataset.dropped = String(sv.dropped);
    el.status.dataset.errors = String(sv.errors);
    el.status.textContent = JSON.stringify(sv);
  }

  setInterval(() => { if (source) updateStats(); }, 500);

  // ---------------------------------------------------------------- layout
  function isMirrored() { return !!source && source.kind !== 'image' && el.mirror.checked; }

  function layout() {
    const size = frameSize() || sourceSize();
    const stageW = el.stage.clientWidth, stageH = el.stage.clientHeight;
    if (!size || !stageW || !stageH) return;
    const pad = 16;
    const k = Math.min((stageW - 2 * pad) / size.w, (stageH - 2 * pad) / size.h);
    const w = Math.max(1, Math.floor(size.w * k)), h = Math.max(1, Math.floor(size.h * k));
    const left = Math.floor((stageW - w) / 2), top = Math.floor((stageH - h) / 2);
    const dpr = window.devicePixelRatio || 1;
    for (const node of [el.video, el.preview, el.still, el.overlay]) {
      Object.assign(node.style, { width: `${w}px`, height: `${h}px`, left: `${left}px`, top: `${top}px` });
    }
    el.overlay.width = el.preview.width = Math.round(w * dpr);
    el.overlay.height = el.preview.height = Math.round(h * dpr);
    view = { w, h, left, top, dpr };
    el.video.classList.toggle('mirrored', isMirrored());
    el.preview.hidden = source?.kind === 'image';
    drawPreview();
    drawOverlay();
  }

  new ResizeObserver(() => layout()).observe(el.stage);
  el.video.addEventListener('resize', layout);
  el.still.addEventListener('load', layout);

  /** Paints the current video frame, mirrored like a selfie view when asked (what the eye sees). */
  function drawPreview() {
    if (!source || source.kind === 'image' || !el.video.videoWidth || !el.preview.width) return;
    const c = el.preview;
    previewCtx.setTransform(1, 0, 0, 1, 0, 0);
    if (isMirrored()) previewCtx.setTransform(-1, 0, 0, 1, c.width, 0);
    previewCtx.drawImage(el.video, 0, 0, c.width, c.height);
  }

  function updateStageMode() {
    const tracking = sv.task === 'track';
    el.stage.classList.toggle('tracking', tracking);
    let hint = '';
    if (tracking) hint = sv.seed ? 'Drag another box to track something else' : 'Drag a box around something to track it';
    else if (sv.task === 'faces' && el.glasses.checked && !options.landmarks) hint = 'Turn on Landmarks for contours, pupils and glasses';
    else if (sv.task === 'embeddings' && !reference) hint = 'Press “Capture reference”, then move';
    el.hint.textContent = hint;
    el.hint.hidden = !hint || !source;
  }

  // ---------------------------------------------------------------- drawing
  /** Maps frame pixels (of the frame as sent) to overlay CSS pixels, mirrored like the preview. */
  function mapper(meta) {
    const fw = meta?.w || sv.frameSize?.w || 1;
    const s = view.w / fw;
    const mirrored = isMirrored();
    const W = view.w;
    return {
      s,
      pt: (p) => ({ x: mirrored ? W - p.x * s : p.x * s, y: p.y * s }),
      rect: (r) => ({ x: mirrored ? W - (r.x + r.width) * s : r.x * s, y: r.y * s, w: r.width * s, h: r.height * s }),
    };
  }

  function clearOverlay() {
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, el.overlay.width, el.overlay.height);
    ctx.setTransform(view.dpr, 0, 0, view.dpr, 0, 0);
  }

  /** Redraws the overlay; returns how many faces were drawn. */
  function drawOverlay() {
    clearOverlay();
    if (!source || !view.w) return 0;
    let faces = 0;
    if (current) {
      const { result: r, meta } = current;
      const m = mapper(meta);
      if (typeof r.mask === 'string') drawMask(r, m);
      if (Array.isArray(r.faces)) faces = drawFaces(r.faces, m);
      if (Array.isArray(r.objects)) drawObjects(r.objects, m);
      if (Array.isArray(r.labels) && !r.objects) drawLabelsBadge(r.labels);
      if (Array.isArray(r.rectangles)) drawRectangles(r.rectangles, m);
      if (Array.isArray(r.barcodes)) drawBarcodes(r.barcodes, m);
      if (Array.isArray(r.blocks)) drawText(r.blocks, m);
      if (Array.isArray(r.tracks)) drawTracks(r.tracks, m);
      if (Array.isArray(r.poses)) drawSkeletons(r.poses, POSE_BONES, (p) => (p.visibility ?? 0) >= 0.5, m);
      if (Array.isArray(r.hands)) drawSkeletons(r.hands, HAND_BONES, () => true, m);
      if (Array.isArray(r.embedding)) drawEmbeddingBadge();
    }
    if (seedPreview) {
      const b = mapper(sv.frameSize).rect(seedPreview);
      ctx.save();
      ctx.setLineDash([6, 5]);
      ctx.strokeStyle = 'rgba(255,255,255,0.9)';
      ctx.lineWidth = 2;
      ctx.strokeRect(b.x, b.y, b.w, b.h);
      ctx.restore();
    }
    if (drag) {
      const x = Math.min(drag.x0, drag.x1), y = Math.min(drag.y0, drag.y1);
      const w = Math.abs(drag.x1 - drag.x0), h = Math.abs(drag.y1 - drag.y0);
      ctx.save();
      ctx.fillStyle = 'rgba(240, 81, 56, 0.15)';
      ctx.fillRect(x, y, w, h);
      ctx.setLineDash([6, 5]);
      ctx.strokeStyle = '#ff7a59';
      ctx.lineWidth = 2;
      ctx.strokeRect(x, y, w, h);
      ctx.restore();
    }
    return faces;
  }

  /** Decodes a result's model-size mask (a base64 gray PNG) into a tinted canvas, then redraws. The
   * previous mask stays on screen until the new one is ready, so the overlay does not flicker. */
  function prepareMask(result) {
    const token = ++maskToken;
    const image = new Image();
    image.onload = () => {
      if (token !== maskToken) return;
      const c = document.createElement('canvas');
      c.width = image.width;
      c.height = image.height;
      const g = c.getContext('2d');
      g.drawImage(image, 0, 0);
      const pixels = g.getImageData(0, 0, c.width, c.height);
      const p = pixels.data;
      for (let i = 0; i < p.length; i += 4) {
        const confidence = p[i];
        [p[i], p[i + 1], p[i + 2]] = MASK_TINT;
        p[i + 3] = Math.round(confidence * 0.55);
      }
      g.putImageData(pixels, 0, 0);
      maskOverlay = c;
      drawOverlay();
    };
    image.src = `data:image/png;base64,${result.mask}`;
  }

  /** The mask scaled bilinearly over the whole frame (mirrored like the preview). */
  function drawMask(r, m) {
    if (!maskOverlay) return;
    const box = m.rect({ x: 0, y: 0, width: r.width, height: r.height });
    ctx.save();
    ctx.imageSmoothingEnabled = true;
    if (isMirrored()) {
      ctx.translate(box.x + box.w, box.y);
      ctx.scale(-1, 1);
      ctx.drawImage(maskOverlay, 0, 0, box.w, box.h);
    } else {
      ctx.drawImage(maskOverlay, box.x, box.y, box.w, box.h);
    }
    ctx.restore();
  }

  function roundRect(x, y, w, h, r) {
    ctx.beginPath();
    ctx.moveTo(x + r, y);
    ctx.arcTo(x + w, y, x + w, y + h, r);
    ctx.arcTo(x + w, y + h, x, y + h, r);
    ctx.arcTo(x, y + h, x, y, r);
    ctx.arcTo(x, y, x + w, y, r);
    ctx.closePath();
  }

  /** A label chip; text is always drawn left to right, whatever the mirroring. */
  function chip(text, x, y, color, { above = true, dark = true } = {}) {
    ctx.save();
    ctx.font = '600 12px system-ui, -apple-system, "Segoe UI", Roboto, "Liberation Sans", "DejaVu Sans", sans-serif';
    const w = ctx.measureText(text).width + 12, h = 20;
    let cx = Math.min(Math.max(x, 2), view.w - w - 2);
    let cy = above ? y - h - 3 : y + 3;
    if (cy < 2) cy = y + 3;
    if (cy + h > view.h - 2) cy = view.h - h - 2;
    roundRect(cx, cy, w, h, 5);
    ctx.fillStyle = color;
    ctx.fill();
    ctx.fillStyle = dark ? '#0d1117' : '#fff';
    ctx.textBaseline = 'middle';
    ctx.fillText(text, cx + 6, cy + h / 2 + 0.5);
    ctx.restore();
  }

  function cornerBox(b, color, lineWidth = 2) {
    ctx.save();
    ctx.strokeStyle = color;
    ctx.lineWidth = lineWidth;
    ctx.globalAlpha = 0.55;
    ctx.strokeRect(b.x, b.y, b.w, b.h);
    ctx.globalAlpha = 1;
    ctx.lineWidth = lineWidth + 1.5;
    ctx.lineCap = 'round';
    const c = Math.min(b.w, b.h) * 0.22;
    ctx.beginPath();
    for (const [px, py, dx, dy] of [[b.x, b.y, 1, 1], [b.x + b.w, b.y, -1, 1], [b.x, b.y + b.h, 1, -1], [b.x + b.w, b.y + b.h, -1, -1]]) {
      ctx.moveTo(px + dx * c, py);
      ctx.lineTo(px, py);
      ctx.lineTo(px, py + dy * c);
    }
    ctx.stroke();
    ctx.restore();
  }

  function polyline(points, m, closed) {
    if (!points || points.length < 2) return;
    ctx.beginPath();
    points.forEach((p, i) => { const q = m.pt(p); if (i) ctx.lineTo(q.x, q.y); else ctx.moveTo(q.x, q.y); });
    if (closed) ctx.closePath();
    ctx.stroke();
  }

  function drawFaces(faces, m) {
    let drawn = 0;
    for (const f of faces) {
      if (!f.boundingBox) continue;
      const color = colorFor(f.trackingID);
      const b = m.rect(f.boundingBox);
      cornerBox(b, color);
      if (f.contours) {
        ctx.save();
        ctx.strokeStyle = colorFor(f.trackingID, 0.8);
        ctx.lineWidth = 1.4;
        ctx.lineJoin = 'round';
        for (const [name, pts] of Object.entries(f.contours)) {
          if (Array.isArray(pts) && pts.length > 1) polyline(pts, m, CONTOUR_CLOSED.has(name));
        }
        ctx.restore();
      }
      const lm = f.landmarks;
      if (lm) {
        ctx.save();
        for (const [name, p] of Object.entries(lm)) {
          if (!p || name === 'leftEye' || name === 'rightEye') continue;
          const q = m.pt(p);
          ctx.fillStyle = 'rgba(255,255,255,0.85)';
          ctx.beginPath(); ctx.arc(q.x, q.y, 2.2, 0, Math.PI * 2); ctx.fill();
        }
        ctx.restore();
        if (lm.leftEye && lm.rightEye) {
          if (el.glasses.checked) drawGlasses(m.pt(lm.leftEye), m.pt(lm.rightEye), color);
          for (const p of [lm.leftEye, lm.rightEye]) drawPupil(m.pt(p));
        }
      }
      const id = f.trackingID != null ? `#${f.trackingID}` : 'face';
      chip(`${id}  ${pct(f.confidence)}`, b.x, b.y, color);
      drawn++;
    }
    return drawn;
  }

  function drawPupil(q) {
    ctx.save();
    ctx.fillStyle = '#00e5ff';
    ctx.shadowColor = '#00e5ff';
    ctx.shadowBlur = 8;
    ctx.beginPath(); ctx.arc(q.x, q.y, 3.2, 0, Math.PI * 2); ctx.fill();
    ctx.shadowBlur = 0;
    ctx.strokeStyle = '#fff';
    ctx.lineWidth = 1;
    ctx.stroke();
    ctx.restore();
  }

  /** Two lenses and a bridge, centred on the pupils and turned with the line between them. */
  function drawGlasses(a, b, color) {
    const dx = b.x - a.x, dy = b.y - a.y;
    const d = Math.hypot(dx, dy);
    if (d < 4) return;
    // Keep the glasses upright in screen space, whichever eye comes first.
    let angle = Math.atan2(dy, dx);
    if (angle > Math.PI / 2) angle -= Math.PI; else if (angle < -Math.PI / 2) angle += Math.PI;
    const cx = (a.x + b.x) / 2, cy = (a.y + b.y) / 2;
    const r = d * 0.42, half = d / 2;
    ctx.save();
    ctx.translate(cx, cy);
    ctx.rotate(angle);
    const lens = (x) => {
      const g = ctx.createRadialGradient(x - r * 0.3, -r * 0.35, r * 0.1, x, 0, r);
      g.addColorStop(0, 'rgba(180, 220, 255, 0.28)');
      g.addColorStop(1, 'rgba(20, 30, 60, 0.45)');
      ctx.fillStyle = g;
      ctx.beginPath(); ctx.arc(x, 0, r, 0, Math.PI * 2); ctx.fill();
      ctx.stroke();
      // a glint
      ctx.save();
      ctx.strokeStyle = 'rgba(255,255,255,0.55)';
      ctx.lineWidth = Math.max(1.2, r * 0.08);
      ctx.beginPath(); ctx.arc(x, 0, r * 0.7, Math.PI * 1.1, Math.PI * 1.45); ctx.stroke();
      ctx.restore();
    };
    ctx.strokeStyle = '#111';
    ctx.lineWidth = Math.max(3, r * 0.2);
    ctx.shadowColor = 'rgba(0,0,0,0.4)';
    ctx.shadowBlur = 4;
    lens(-half); lens(half);
    ctx.shadowBlur = 0;
    // bridge
    ctx.beginPath();
    ctx.moveTo(-half + r, -r * 0.15);
    ctx.quadraticCurveTo(0, -r * 0.6, half - r, -r * 0.15);
    ctx.stroke();
    // temples
    ctx.beginPath();
    ctx.moveTo(-half - r, -r * 0.1); ctx.lineTo(-half - r * 1.45, -r * 0.25);
    ctx.moveTo(half + r, -r * 0.1); ctx.lineTo(half + r * 1.45, -r * 0.25);
    ctx.stroke();
    // an accent rim
    ctx.strokeStyle = color;
    ctx.lineWidth = 1.2;
    ctx.beginPath(); ctx.arc(-half, 0, r + ctx.lineWidth, Math.PI * 1.15, Math.PI * 1.85); ctx.stroke();
    ctx.beginPath(); ctx.arc(half, 0, r + ctx.lineWidth, Math.PI * 1.15, Math.PI * 1.85); ctx.stroke();
    ctx.restore();
  }

  function drawObjects(objects, m) {
    for (const o of objects) {
      if (!o.frame) continue;
      const color = colorFor(o.trackingID);
      const b = m.rect(o.frame);
      cornerBox(b, color);
      const top = (o.labels || [])[0];
      const id = o.trackingID != null ? `#${o.trackingID} ` : '';
      chip(`${id}${top ? `${top.text} ${pct(top.confidence)}` : 'object'}`, b.x, b.y, color);
    }
  }

  /** Each pose's or hand's bones between shown landmarks (`isShown`, e.g. visibility ≥ 0.5) and its landmarks. */
  function drawSkeletons(items, bones, isShown, m) {
    items.forEach((item, i) => {
      const points = item.landmarks || [];
      const shown = points.map(isShown);
      ctx.save();
      ctx.strokeStyle = colorFor(i + 1, 0.9);
      ctx.lineWidth = 3;
      ctx.lineCap = 'round';
      for (const [a, b] of bones) {
        if (!shown[a] || !shown[b]) continue;
        const p = m.pt(points[a]), q = m.pt(points[b]);
        ctx.beginPath(); ctx.moveTo(p.x, p.y); ctx.lineTo(q.x, q.y); ctx.stroke();
      }
      ctx.fillStyle = 'rgba(255,255,255,0.9)';
      points.forEach((p, j) => {
        if (!shown[j]) return;
        const q = m.pt(p);
        ctx.beginPath(); ctx.arc(q.x, q.y, 2.5, 0, Math.PI * 2); ctx.fill();
      });
      ctx.restore();
    });
  }

  function drawLabelsBadge(labels) {
    labels.slice(0, 3).forEach((l, i) => chip(`${l.text}  ${pct(l.confidence)}`, 10, 10 + i * 24, i ? 'rgba(230,237,243,0.85)' : '#ff7a59', { above: false }));
  }

  function drawEmbeddingBadge() {
    const text = sv.similarity == null ? 'embedding' : `similarity ${sv.similarity.toFixed(3)}`;
    chip(text, 10, 10, '#ff7a59', { above: false });
  }

  function drawQuad(points, m, color) {
    ctx.save();
    ctx.strokeStyle = color;
    ctx.fillStyle = color.replace(/[\d.]+\)$/, '0.15)');
    ctx.lineWidth = 2.5;
    ctx.lineJoin = 'round';
    ctx.beginPath();
    points.forEach((p, i) => { const q = m.pt(p); if (i) ctx.lineTo(q.x, q.y); else ctx.moveTo(q.x, q.y); });
    ctx.closePath();
    ctx.fill();
    ctx.stroke();
    ctx.restore();
  }

  function topLeftOf(points, m) {
    const qs = points.map((p) => m.pt(p));
    return { x: Math.min(...qs.map((q) => q.x)), y: Math.min(...qs.map((q) => q.y)) };
  }

  function drawRectangles(rects, m) {
    rects.forEach((r, i) => {
      const pts = [r.topLeft, r.topRight, r.bottomRight, r.bottomLeft].filter(Boolean);
      if (pts.length !== 4) return;
      const color = colorFor(i + 1);
      drawQuad(pts, m, color);
      for (const p of pts) { const q = m.pt(p); ctx.fillStyle = color; ctx.beginPath(); ctx.arc(q.x, q.y, 4, 0, Math.PI * 2); ctx.fill(); }
      const tl = topLeftOf(pts, m);
      chip(`rectangle ${pct(r.confidence)}`, tl.x, tl.y, color);
    });
  }

  function drawBarcodes(codes, m) {
    codes.forEach((c) => {
      if (!Array.isArray(c.corners) || c.corners.length < 3) return;
      const color = 'hsla(150, 85%, 55%, 1)';
      drawQuad(c.corners, m, color);
      const tl = topLeftOf(c.corners, m);
      const value = String(c.text ?? '').slice(0, 48);
      chip(`${c.format}: ${value}`, tl.x, tl.y, color);
    });
  }

  function drawText(blocks, m) {
    ctx.save();
    for (const block of blocks) {
      for (const line of block.lines || []) {
        if (!line.frame) continue;
        const b = m.rect(line.frame);
        ctx.fillStyle = 'rgba(255, 122, 89, 0.12)';
        ctx.fillRect(b.x, b.y, b.w, b.h);
      }
      if (!block.frame) continue;
      const b = m.rect(block.frame);
      ctx.strokeStyle = 'rgba(255, 122, 89, 0.95)';
      ctx.lineWidth = 2;
      ctx.strokeRect(b.x, b.y, b.w, b.h);
    }
    ctx.restore();
  }

  function drawTracks(tracks, m) {
    for (const t of tracks) {
      if (!t.boundingBox) continue;
      const b = m.rect(t.boundingBox);
      const color = t.lost ? 'rgba(150, 160, 175, 0.9)' : colorFor(t.id);
      ctx.save();
      if (t.lost) { ctx.setLineDash([7, 6]); ctx.fillStyle = 'rgba(60, 66, 76, 0.35)'; ctx.fillRect(b.x, b.y, b.w, b.h); }
      ctx.restore();
      if (t.lost) {
        ctx.save();
        ctx.setLineDash([7, 6]);
        ctx.strokeStyle = color;
        ctx.lineWidth = 2;
        ctx.strokeRect(b.x, b.y, b.w, b.h);
        ctx.restore();
      } else {
        cornerBox(b, color, 2.5);
      }
      chip(t.lost ? `#${t.id} lost` : `#${t.id}  ${pct(t.confidence)}`, b.x, b.y, color);
    }
  }

  // ---------------------------------------------------------------- side panel
  let lastPanelAt = 0, panelTimer = 0, panelArgs = null;
  function renderPanel(r, latency) {
    panelArgs = [r, latency];
    const now = performance.now();
    if (now - lastPanelAt < 120) {
      if (!panelTimer) panelTimer = setTimeout(() => { panelTimer = 0; renderPanel(...panelArgs); }, 130);
      return;
    }
    lastPanelAt = now;
    el.resultMeta.textContent = `frame ${r.frame ?? '–'}${latency != null ? ` · ${Math.round(latency)} ms` : ''}`;
    el.results.innerHTML = panelHTML(r) || '<p class="muted">Nothing found in this frame.</p>';
  }

  const row = (color, name, val, sub = '', cls = '') => `<div class="row ${cls}"><span class="swatch" style="background:${color}"></span>`
    + `<span class="name">${name}</span><span class="val">${val}</span>${sub ? `<span class="sub">${sub}</span>` : ''}</div>`;

  function panelHTML(r) {
    if (typeof r.mask === 'string') {
      return row(`rgb(${MASK_TINT.join(',')})`, 'Person', pct(r.personFraction), `of the ${r.width}×${r.height} frame · mask ${r.maskWidth}×${r.maskHeight}`);
    }
    if (Array.isArray(r.faces)) {
      return r.faces.map((f, i) => row(colorFor(f.trackingID), f.trackingID != null ? `Face #${f.trackingID}` : `Face ${i + 1}`, pct(f.confidence),
        [f.roll != null ? `roll ${Math.round(f.roll)}°` : '', f.yaw != null ? `yaw ${Math.round(f.yaw)}°` : '',
          f.landmarks ? `${Object.keys(f.landmarks).length} landmarks` : '', f.contours ? `${Object.keys(f.contours).length} contours` : '']
          .filter(Boolean).join(' · '))).join('');
    }
    if (Array.isArray(r.poses)) {
      return r.poses.map((p, i) => row(colorFor(i + 1), `Pose ${i + 1}`, pct(p.score),
        `${(p.landmarks || []).filter((l) => (l.visibility ?? 0) >= 0.5).length} of 33 landmarks visible`)).join('');
    }
    if (Array.isArray(r.hands)) {
      return r.hands.map((h, i) => row(colorFor(i + 1), `${escapeHTML(h.handedness)} hand`, pct(h.score),
        `${(h.landmarks || []).length} landmarks`)).join('');
    }
    if (Array.isArray(r.objects)) {
      return r.objects.map((o, i) => {
        const top = (o.labels || [])[0];
        const name = `${o.trackingID != null ? `#${o.trackingID} ` : ''}${escapeHTML(top ? top.text : `object ${i + 1}`)}`;
        const rest = (o.labels || []).slice(1, 3).map((l) => `${escapeHTML(l.text)} ${pct(l.confidence)}`).join(' · ');
        return row(colorFor(o.trackingID), name, top ? pct(top.confidence) : '', rest);
      }).join('');
    }
    if (Array.isArray(r.labels)) {
      return r.labels.map((l) => `<div class="row label"><span class="name">${escapeHTML(l.text)}</span><span class="val">${pct(l.confidence)}</span>`
        + `<div class="bar"><span style="width:${Math.round((l.confidence || 0) * 100)}%"></span></div></div>`).join('');
    }
    if (Array.isArray(r.embedding)) {
      const v = r.embedding;
      const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
      return row('#ff7a59', `${v.length} dimensions`, `‖v‖ ${norm.toFixed(2)}`, `first values: ${v.slice(0, 4).map((x) => x.toFixed(3)).join(', ')} …`);
    }
    if (Array.isArray(r.rectangles)) {
      return r.rectangles.map((q, i) => row(colorFor(i + 1), `Rectangle ${i + 1}`, pct(q.confidence),
        q.topLeft ? `(${Math.round(q.topLeft.x)}, ${Math.round(q.topLeft.y)}) → (${Math.round(q.bottomRight.x)}, ${Math.round(q.bottomRight.y)})` : '')).join('');
    }
    if (Array.isArray(r.barcodes)) {
      return r.barcodes.map((c) => row('hsl(150,85%,55%)', `<span class="code">${escapeHTML(c.text ?? '')}</span>`, escapeHTML(c.format),
        c.rawData ? `raw (base64) <span class="code">${escapeHTML(String(c.rawData).slice(0, 60))}</span>` : '')).join('');
    }
    if (Array.isArray(r.blocks)) {
      return r.blocks.map((b) => `<div class="textblock">${escapeHTML((b.text ?? (b.lines || []).map((l) => l.text).join(' ')).replace(/\s*\n\s*/g, ' '))}</div>`).join('');
    }
    if (Array.isArray(r.tracks)) {
      if (!r.tracks.length) return '<p class="muted">Drag a box on the video to start tracking.</p>';
      return r.tracks.map((t) => row(t.lost ? '#6b7585' : colorFor(t.id), `Track #${t.id}`, t.lost ? 'lost' : pct(t.confidence),
        `${Math.round(t.boundingBox.width)}×${Math.round(t.boundingBox.height)} at (${Math.round(t.boundingBox.x)}, ${Math.round(t.boundingBox.y)})`, t.lost ? 'lost' : '')).join('');
    }
    return `<pre class="code">${escapeHTML(JSON.stringify(r, null, 1).slice(0, 2000))}</pre>`;
  }

  // ---------------------------------------------------------------- embeddings
  function cosine(a, b) {
    if (!a || !b || a.length !== b.length) return null;
    let dot = 0, na = 0, nb = 0;
    for (let i = 0; i < a.length; i++) { dot += a[i] * b[i]; na += a[i] * a[i]; nb += b[i] * b[i]; }
    return na && nb ? dot / Math.sqrt(na * nb) : null;
  }

  function renderEmbedding(embedding) {
    if (embedding) lastEmbedding = embedding;
    const sim = reference && lastEmbedding ? cosine(reference, lastEmbedding) : null;
    sv.similarity = sim;
    if (sim != null) { simHistory.push(sim); if (simHistory.length > 120) simHistory.shift(); }
    el.simValue.textContent = sim == null ? '–' : sim.toFixed(3);
    el.simBar.style.width = `${sim == null ? 0 : Math.max(0, Math.min(1, sim)) * 100}%`;
    el.simNote.textContent = reference ? 'cosine similarity to the reference' : 'Capture a reference, then move: cosine similarity of each frame\'s embedding to it.';
    drawSparkline();
  }

  function drawSparkline() {
    const c = el.simHistory, g = c.getContext('2d');
    const dpr = window.devicePixelRatio || 1;
    const w = c.clientWidth || 300, h = c.clientHeight || 48;
    if (c.width !== Math.round(w * dpr)) { c.width = Math.round(w * dpr); c.height = Math.round(h * dpr); }
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    g.clearRect(0, 0, w, h);
    g.strokeStyle = '#263142';
    g.beginPath(); g.moveTo(0, h - 0.5); g.lineTo(w, h - 0.5); g.stroke();
    if (simHistory.length < 2) return;
    const n = 120;
    g.strokeStyle = '#ff7a59';
    g.lineWidth = 2;
    g.beginPath();
    simHistory.forEach((v, i) => {
      const x = (w * (n - simHistory.length + i)) / (n - 1);
      const y = h - 3 - Math.max(0, Math.min(1, v)) * (h - 6);
      if (i) g.lineTo(x, y); else g.moveTo(x, y);
    });
    g.stroke();
  }

  el.captureRef.addEventListener('click', () => {
    if (!lastEmbedding) { toast('No embedding yet: wait for the first result'); return; }
    reference = lastEmbedding.slice();
    simHistory = [];
    renderEmbedding(null);
    updateStageMode();
    drawOverlay();
  });

  // ---------------------------------------------------------------- tracking by dragging
  function overlayPoint(ev) {
    const r = el.overlay.getBoundingClientRect();
    return { x: Math.max(0, Math.min(view.w, ev.clientX - r.left)), y: Math.max(0, Math.min(view.h, ev.clientY - r.top)) };
  }

  el.overlay.addEventListener('pointerdown', (ev) => {
    if (sv.task !== 'track' || !source) return;
    const p = overlayPoint(ev);
    drag = { x0: p.x, y0: p.y, x1: p.x, y1: p.y };
    el.overlay.setPointerCapture?.(ev.pointerId);
    ev.preventDefault();
  });
  el.overlay.addEventListener('pointermove', (ev) => {
    if (!drag) return;
    const p = overlayPoint(ev);
    drag.x1 = p.x; drag.y1 = p.y;
    drawOverlay();
  });
  const endDrag = (ev) => {
    if (!drag) return;
    const p = overlayPoint(ev);
    drag.x1 = p.x; drag.y1 = p.y;
    const box = dragToFrameBox(drag);
    drag = null;
    if (box) seedTrack(box);
    drawOverlay();
  };
  el.overlay.addEventListener('pointerup', endDrag);
  el.overlay.addEventListener('pointercancel', () => { drag = null; drawOverlay(); });

  /** Converts a dragged box (overlay CSS pixels, as seen, maybe mirrored) to pixels of the frame as sent. */
  function dragToFrameBox(d) {
    const size = sv.frameSize || frameSize();
    if (!size || !view.w) return null;
    const s = view.w / size.w;
    let x0 = Math.min(d.x0, d.x1), x1 = Math.max(d.x0, d.x1);
    const y0 = Math.min(d.y0, d.y1), y1 = Math.max(d.y0, d.y1);
    if (x1 - x0 < 6 || y1 - y0 < 6) return null;
    if (isMirrored()) [x0, x1] = [view.w - x1, view.w - x0];
    const clampX = (v) => Math.max(0, Math.min(size.w, v)), clampY = (v) => Math.max(0, Math.min(size.h, v));
    const fx0 = clampX(x0 / s), fx1 = clampX(x1 / s), fy0 = clampY(y0 / s), fy1 = clampY(y1 / s);
    const round = (v) => Math.round(v * 10) / 10;
    return { x: round(fx0), y: round(fy0), width: round(fx1 - fx0), height: round(fy1 - fy0) };
  }

  function seedTrack(box) {
    pendingSeed = { boxes: [box], level: options.level || 'accurate' };
    seedPreview = box;
    sv.seed = box;
    updateStageMode();
    pump();
  }

  // ---------------------------------------------------------------- wiring
  el.task.addEventListener('change', () => selectTask(el.task.value));
  el.startCamera.addEventListener('click', startCamera);
  el.fileInput.addEventListener('change', () => { openFile(el.fileInput.files[0]); el.fileInput.value = ''; });
  el.stop.addEventListener('click', stopSource);
  el.mirror.addEventListener('change', () => { layout(); updateStats(); });
  el.glasses.addEventListener('change', () => {
    if (el.glasses.checked && sv.task === 'faces' && 'landmarks' in options && !options.landmarks) {
      setOption('landmarks', true);
      renderOptions();
    }
    updateStageMode();
    drawOverlay();
  });
  if (params.has('glasses')) el.glasses.checked = params.get('glasses') === '1';
  window.addEventListener('beforeunload', () => disconnect());

  el.stage.classList.add('idle');
  publish();
  loadTasks();
})();
