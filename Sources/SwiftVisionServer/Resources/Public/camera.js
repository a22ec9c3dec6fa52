// The source of frames: the camera, or an opened image or video; the preview (mirrored like a selfie
// view when asked) and the stage's layout, which the overlay follows.
import { toast } from './shared.js';
import { actions, el, frameSize, isMirrored, page, params, sourceSize, sv } from './page.js';
import { connect, disconnect, noteVideoFrame, pump, setConn } from './stream.js';

const previewCtx = el.preview.getContext('2d', { alpha: false });

export async function startCamera() {
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
  page.source = { kind: 'camera', stream };
  const settings = stream.getVideoTracks()[0]?.getSettings?.() || {};
  // A front (user-facing) camera is shown as a mirror; laptop webcams often report no facingMode.
  const mirror = params.has('mirror') ? params.get('mirror') === '1' : settings.facingMode !== 'environment';
  el.mirror.checked = mirror;
  el.video.srcObject = stream;
  await playVideo();
}

export async function openFile(file) {
  if (!file) return;
  stopSource();
  const url = URL.createObjectURL(file);
  el.mirror.checked = false;
  if (file.type.startsWith('image/')) {
    page.source = { kind: 'image', url, name: file.name };
    el.still.src = url;
    try { await el.still.decode(); } catch (err) { toast(`Cannot show ${file.name}: ${err.message}`); stopSource(); return; }
    el.still.hidden = false;
    el.video.hidden = true;
    startStreaming();
  } else {
    page.source = { kind: 'video', url, name: file.name };
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
  const mySource = page.source;
  const onFrame = () => { noteVideoFrame(); drawPreview(); pump(); };
  if ('requestVideoFrameCallback' in HTMLVideoElement.prototype) {
    const next = () => {
      if (page.source !== mySource) return;
      onFrame();
      v.requestVideoFrameCallback(next);
    };
    v.requestVideoFrameCallback(next);
  } else {
    let lastTime = -1;
    const tick = () => {
      if (page.source !== mySource) return;
      if (v.currentTime !== lastTime) { lastTime = v.currentTime; onFrame(); }
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  }
}

function startStreaming() {
  const { kind } = page.source;
  sv.source = kind;
  el.mirror.disabled = kind === 'image';
  el.mirrorToggle.classList.toggle('disabled', kind === 'image');
  actions.updateStageMode();
  el.stage.classList.remove('idle');
  el.empty.hidden = true;
  el.stop.disabled = false;
  el.captureRef.disabled = false;
  layout();
  connect();
}

export function stopSource() {
  disconnect();
  const { source } = page;
  if (source?.stream) source.stream.getTracks().forEach((t) => t.stop());
  if (source?.url) URL.revokeObjectURL(source.url);
  page.source = null;
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
  page.current = null;
  actions.redraw();
  setConn('idle', 'Idle');
}

/** Fits the frame in the stage, sizes the preview and the overlay to it, and redraws both. */
export function layout() {
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
  page.view = { w, h, left, top, dpr };
  el.video.classList.toggle('mirrored', isMirrored());
  el.preview.hidden = page.source?.kind === 'image';
  drawPreview();
  actions.redraw();
}

/** Paints the current video frame, mirrored like a selfie view when asked (what the eye sees). */
function drawPreview() {
  if (!page.source || page.source.kind === 'image' || !el.video.videoWidth || !el.preview.width) return;
  const c = el.preview;
  previewCtx.setTransform(1, 0, 0, 1, 0, 0);
  if (isMirrored()) previewCtx.setTransform(-1, 0, 0, 1, c.width, 0);
  previewCtx.drawImage(el.video, 0, 0, c.width, c.height);
}

new ResizeObserver(() => layout()).observe(el.stage);
el.video.addEventListener('resize', layout);
el.still.addEventListener('load', layout);
