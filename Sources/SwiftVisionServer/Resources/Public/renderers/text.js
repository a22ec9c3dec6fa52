// text: each block's outline over its shaded lines, and the blocks' text in the panel.
import { ctx, escapeHTML } from '../draw.js';

export function draw(r, m) {
  ctx.save();
  for (const block of r.blocks) {
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

export function panel(r) {
  return r.blocks.map((b) => `<div class="textblock">${escapeHTML((b.text ?? (b.lines || []).map((l) => l.text).join(' ')).replace(/\s*\n\s*/g, ' '))}</div>`).join('');
}
