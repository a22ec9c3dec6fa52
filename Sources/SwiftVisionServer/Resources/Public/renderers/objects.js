// objects: each object's box with its tracking ID and its best label; the page asks for several
// objects and their labels, which the server's defaults leave off.
import { chip, colorFor, cornerBox, escapeHTML, pct, row } from '../draw.js';

export const pageDefaults = { multiple: true, classify: true };

export function draw(r, m) {
  for (const o of r.objects) {
    if (!o.frame) continue;
    const color = colorFor(o.trackingID);
    const b = m.rect(o.frame);
    cornerBox(b, color);
    const top = (o.labels || [])[0];
    const id = o.trackingID != null ? `#${o.trackingID} ` : '';
    chip(`${id}${top ? `${top.text} ${pct(top.confidence)}` : 'object'}`, b.x, b.y, color);
  }
}

export function panel(r) {
  return r.objects.map((o, i) => {
    const top = (o.labels || [])[0];
    const name = `${o.trackingID != null ? `#${o.trackingID} ` : ''}${escapeHTML(top ? top.text : `object ${i + 1}`)}`;
    const rest = (o.labels || []).slice(1, 3).map((l) => `${escapeHTML(l.text)} ${pct(l.confidence)}`).join(' · ');
    return row(colorFor(o.trackingID), name, top ? pct(top.confidence) : '', rest);
  }).join('');
}
