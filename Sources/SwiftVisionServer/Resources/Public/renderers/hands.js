// hands: each hand's skeleton (the bones GET /v1/tasks lists) and its handedness.
import { page } from '../page.js';
import { colorFor, drawSkeletons, escapeHTML, pct, row } from '../draw.js';

export function draw(r, m) {
  drawSkeletons(r.hands, page.info.bones, () => true, m);
}

export function panel(r) {
  return r.hands.map((h, i) => row(colorFor(i + 1), `${escapeHTML(h.handedness)} hand`, pct(h.score),
    `${(h.landmarks || []).length} landmarks`)).join('');
}
