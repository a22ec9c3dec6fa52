// barcodes: each code's outline with its format and value.
import { chip, drawQuad, escapeHTML, row, topLeftOf } from '../draw.js';

const COLOR = 'hsla(150, 85%, 55%, 1)';

export function draw(r, m) {
  for (const c of r.barcodes) {
    if (!Array.isArray(c.corners) || c.corners.length < 3) continue;
    drawQuad(c.corners, m, COLOR);
    const tl = topLeftOf(c.corners, m);
    const value = String(c.text ?? '').slice(0, 48);
    chip(`${c.format}: ${value}`, tl.x, tl.y, COLOR);
  }
}

export function panel(r) {
  return r.barcodes.map((c) => row(COLOR, `<span class="code">${escapeHTML(c.text ?? '')}</span>`, escapeHTML(c.format),
    c.rawData ? `raw (base64) <span class="code">${escapeHTML(String(c.rawData).slice(0, 60))}</span>` : '')).join('');
}
