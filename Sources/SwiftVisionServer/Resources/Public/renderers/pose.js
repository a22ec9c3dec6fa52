// pose: each body's skeleton (the bones GET /v1/tasks lists) between landmarks visible enough.
import { page } from '../page.js';
import { colorFor, drawSkeletons, pct, row } from '../draw.js';

const isVisible = (landmark) => (landmark.visibility ?? 0) >= 0.5;

export function draw(r, m) {
  drawSkeletons(r.poses, page.info.bones, isVisible, m);
}

export function panel(r) {
  return r.poses.map((p, i) => row(colorFor(i + 1), `Pose ${i + 1}`, pct(p.score),
    `${(p.landmarks || []).filter(isVisible).length} of ${(p.landmarks || []).length} landmarks visible`)).join('');
}
