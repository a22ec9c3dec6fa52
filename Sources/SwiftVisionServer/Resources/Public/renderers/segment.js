// segment: the person mask, tinted, scaled over the whole frame; the share of the frame it covers.
import { actions, isMirrored } from '../page.js';
import { ctx, pct, row } from '../draw.js';

const MASK_TINT = [56, 132, 255];   // the mask's colour; its opacity is 0.55 × the confidence
let maskOverlay = null;             // the latest mask, tinted, at the model's size
let maskToken = 0;                  // the newest mask being decoded

export function enter() { maskOverlay = null; }

/** Decodes a result's model-size mask (a base64 gray PNG) into a tinted canvas, then redraws. The
 * previous mask stays on screen until the new one is ready, so the overlay does not flicker. */
export function receive(result) {
  if (typeof result.mask !== 'string') { maskOverlay = null; return; }
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
    actions.redraw();
  };
  image.src = `data:image/png;base64,${result.mask}`;
}

/** The mask scaled bilinearly over the whole frame (mirrored like the preview). */
export function draw(r, m) {
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

export function panel(r) {
  return row(`rgb(${MASK_TINT.join(',')})`, 'Person', pct(r.personFraction), `of the ${r.width}×${r.height} frame · mask ${r.maskWidth}×${r.maskHeight}`);
}
