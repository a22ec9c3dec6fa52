// Drawing that every renderer shares: the overlay canvas, frame-to-screen mapping, boxes, chips,
// outlines, skeletons, and the side panel's rows.
import { el, page, isMirrored, sv } from './page.js';

/** The overlay's 2D context, in CSS pixels once `clearOverlay` has run. */
export const ctx = el.overlay.getContext('2d');

export const escapeHTML = (s) => String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
export const pct = (v) => (v == null ? '' : `${Math.round(v * 100)}%`);
const hueFor = (id) => (id == null ? 200 : (Number(id) * 137.508 + 12) % 360);
/** A colour of its own for each tracking ID (or index). */
export const colorFor = (id, a = 1) => `hsla(${hueFor(id)}, 90%, 62%, ${a})`;

/** One row of the side panel: a swatch, a name, a value and a line below. */
export const row = (color, name, val, sub = '', cls = '') => `<div class="row ${cls}"><span class="swatch" style="background:${color}"></span>`
  + `<span class="name">${name}</span><span class="val">${val}</span>${sub ? `<span class="sub">${sub}</span>` : ''}</div>`;

/** Maps frame pixels (of the frame as sent, `meta.w` wide) to overlay CSS pixels, mirrored like the preview. */
export function mapper(meta) {
  const { view } = page;
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

export function clearOverlay() {
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.clearRect(0, 0, el.overlay.width, el.overlay.height);
  ctx.setTransform(page.view.dpr, 0, 0, page.view.dpr, 0, 0);
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
export function chip(text, x, y, color, { above = true, dark = true } = {}) {
  const { view } = page;
  ctx.save();
  ctx.font = '600 12px system-ui, -apple-system, "Segoe UI", Roboto, "Liberation Sans", "DejaVu Sans", sans-serif';
  const w = ctx.measureText(text).width + 12, h = 20;
  const cx = Math.min(Math.max(x, 2), view.w - w - 2);
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

/** A box with a faint outline and bold corners. */
export function cornerBox(b, color, lineWidth = 2) {
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

/** A dashed box in overlay CSS pixels (a seed, a box being dragged, a lost track). */
export function dashedBox(b, color, { fill = null, dash = [6, 5] } = {}) {
  ctx.save();
  if (fill) { ctx.fillStyle = fill; ctx.fillRect(b.x, b.y, b.w, b.h); }
  ctx.setLineDash(dash);
  ctx.strokeStyle = color;
  ctx.lineWidth = 2;
  ctx.strokeRect(b.x, b.y, b.w, b.h);
  ctx.restore();
}

/** A line through frame points, closed when asked, in the current stroke style. */
export function polyline(points, m, closed) {
  if (!points || points.length < 2) return;
  ctx.beginPath();
  points.forEach((p, i) => { const q = m.pt(p); if (i) ctx.lineTo(q.x, q.y); else ctx.moveTo(q.x, q.y); });
  if (closed) ctx.closePath();
  ctx.stroke();
}

/** A filled, outlined quadrilateral through four frame points. */
export function drawQuad(points, m, color) {
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

/** The top-left corner, on screen, of frame points. */
export function topLeftOf(points, m) {
  const qs = points.map((p) => m.pt(p));
  return { x: Math.min(...qs.map((q) => q.x)), y: Math.min(...qs.map((q) => q.y)) };
}

/** Each item's bones (pairs of landmark indices) between shown landmarks (`isShown`), and its landmarks. */
export function drawSkeletons(items, bones, isShown, m) {
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
