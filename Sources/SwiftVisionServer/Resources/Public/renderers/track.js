// track: a box dragged on the preview seeds the tracker (with the tracker's `level`, in a text
// message); each track's box follows, dashed once it is lost.
import { actions, el, frameSize, isMirrored, page, sv } from '../page.js';
import { chip, colorFor, cornerBox, dashedBox, mapper, pct, row } from '../draw.js';
import { pump } from '../stream.js';

export const optionLabels = { level: 'Tracker' };
export const seedOptions = ['level'];
export const restNote = 'track is live-stream only: seed it with {"boxes":[{x,y,width,height}]}';

let drag = null;          // {x0, y0, x1, y1} in overlay CSS pixels
let seedPreview = null;   // frame-pixel box shown until the tracker answers
let active = false;       // whether track is the page's task

export function enter() {
  active = true; drag = null; seedPreview = null;
  el.stage.classList.add('tracking');
}

export function leave() {
  active = false; drag = null; seedPreview = null;
  el.stage.classList.remove('tracking');
}

export function hint() { return sv.seed ? 'Drag another box to track something else' : 'Drag a box around something to track it'; }

export function receive() { seedPreview = null; }

export function draw(r, m) {
  for (const t of r.tracks) {
    if (!t.boundingBox) continue;
    const b = m.rect(t.boundingBox);
    const color = t.lost ? 'rgba(150, 160, 175, 0.9)' : colorFor(t.id);
    if (t.lost) dashedBox(b, color, { fill: 'rgba(60, 66, 76, 0.35)', dash: [7, 6] });
    else cornerBox(b, color, 2.5);
    chip(t.lost ? `#${t.id} lost` : `#${t.id}  ${pct(t.confidence)}`, b.x, b.y, color);
  }
}

/** The seed until the tracker answers, and the box being dragged. */
export function drawOver() {
  if (seedPreview) dashedBox(mapper(sv.frameSize).rect(seedPreview), 'rgba(255,255,255,0.9)');
  if (drag) {
    const x = Math.min(drag.x0, drag.x1), y = Math.min(drag.y0, drag.y1);
    dashedBox({ x, y, w: Math.abs(drag.x1 - drag.x0), h: Math.abs(drag.y1 - drag.y0) }, '#ff7a59', { fill: 'rgba(240, 81, 56, 0.15)' });
  }
}

export function panel(r) {
  if (!r.tracks.length) return '<p class="muted">Drag a box on the video to start tracking.</p>';
  return r.tracks.map((t) => row(t.lost ? '#6b7585' : colorFor(t.id), `Track #${t.id}`, t.lost ? 'lost' : pct(t.confidence),
    `${Math.round(t.boundingBox.width)}×${Math.round(t.boundingBox.height)} at (${Math.round(t.boundingBox.x)}, ${Math.round(t.boundingBox.y)})`, t.lost ? 'lost' : '')).join('');
}

function overlayPoint(ev) {
  const r = el.overlay.getBoundingClientRect();
  const { view } = page;
  return { x: Math.max(0, Math.min(view.w, ev.clientX - r.left)), y: Math.max(0, Math.min(view.h, ev.clientY - r.top)) };
}

/** Converts a dragged box (overlay CSS pixels, as seen, maybe mirrored) to pixels of the frame as sent. */
function dragToFrameBox(d) {
  const size = sv.frameSize || frameSize();
  const { view } = page;
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
  page.pendingSeed = { boxes: [box], level: page.options.level || 'accurate' };
  seedPreview = box;
  sv.seed = box;
  actions.updateStageMode();
  pump();
}

el.overlay.addEventListener('pointerdown', (ev) => {
  if (!active || !page.source) return;
  const p = overlayPoint(ev);
  drag = { x0: p.x, y0: p.y, x1: p.x, y1: p.y };
  el.overlay.setPointerCapture?.(ev.pointerId);
  ev.preventDefault();
});
el.overlay.addEventListener('pointermove', (ev) => {
  if (!drag) return;
  const p = overlayPoint(ev);
  drag.x1 = p.x; drag.y1 = p.y;
  actions.redraw();
});
el.overlay.addEventListener('pointerup', (ev) => {
  if (!drag) return;
  const p = overlayPoint(ev);
  drag.x1 = p.x; drag.y1 = p.y;
  const box = dragToFrameBox(drag);
  drag = null;
  if (box) seedTrack(box);
  actions.redraw();
});
el.overlay.addEventListener('pointercancel', () => { drag = null; actions.redraw(); });
