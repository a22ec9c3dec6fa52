// labels: the best three labels in the frame's corner, and every label with a bar in the panel.
import { chip, escapeHTML, pct } from '../draw.js';

export function draw(r) {
  r.labels.slice(0, 3).forEach((l, i) => chip(`${l.text}  ${pct(l.confidence)}`, 10, 10 + i * 24, i ? 'rgba(230,237,243,0.85)' : '#ff7a59', { above: false }));
}

export function panel(r) {
  return r.labels.map((l) => `<div class="row label"><span class="name">${escapeHTML(l.text)}</span><span class="val">${pct(l.confidence)}</span>`
    + `<div class="bar"><span style="width:${Math.round((l.confidence || 0) * 100)}%"></span></div></div>`).join('');
}
