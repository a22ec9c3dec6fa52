// rectangles: each quadrilateral with its corners and confidence.
import { chip, colorFor, ctx, drawQuad, pct, row, topLeftOf } from '../draw.js';

export function draw(r, m) {
  r.rectangles.forEach((q, i) => {
    const pts = [q.topLeft, q.topRight, q.bottomRight, q.bottomLeft].filter(Boolean);
    if (pts.length !== 4) return;
    const color = colorFor(i + 1);
    drawQuad(pts, m, color);
    for (const p of pts) { const c = m.pt(p); ctx.fillStyle = color; ctx.beginPath(); ctx.arc(c.x, c.y, 4, 0, Math.PI * 2); ctx.fill(); }
    const tl = topLeftOf(pts, m);
    chip(`rectangle ${pct(q.confidence)}`, tl.x, tl.y, color);
  });
}

export function panel(r) {
  return r.rectangles.map((q, i) => row(colorFor(i + 1), `Rectangle ${i + 1}`, pct(q.confidence),
    q.topLeft ? `(${Math.round(q.topLeft.x)}, ${Math.round(q.topLeft.y)}) → (${Math.round(q.bottomRight.x)}, ${Math.round(q.bottomRight.y)})` : '')).join('');
}
