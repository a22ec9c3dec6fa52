// faces: each face's box, contours and landmarks, pupils (and glasses on them), with its tracking ID.
import { actions, el, page, params, sv } from '../page.js';
import { chip, colorFor, cornerBox, ctx, pct, polyline, row } from '../draw.js';
import { renderOptions } from '../options.js';

const CONTOUR_CLOSED = new Set(['face', 'leftEye', 'rightEye', 'upperLipTop', 'upperLipBottom', 'lowerLipTop', 'lowerLipBottom']);

let active = false;   // whether faces is the page's task

export function enter() { active = true; el.glassesToggle.hidden = false; }
export function leave() { active = false; el.glassesToggle.hidden = true; }

export function hint() {
  return el.glasses.checked && !page.options.landmarks ? 'Turn on Landmarks for contours, pupils and glasses' : '';
}

/** Counts, for automation, the results whose faces all have tracking IDs and were all drawn. */
export function shown(r, drawn) {
  const withIDs = r.faces.filter((f) => f.trackingID != null);
  sv.facesWithTrackingIDs += withIDs.length;
  for (const f of withIDs) if (!sv.trackingIDs.includes(f.trackingID) && sv.trackingIDs.length < 200) sv.trackingIDs.push(f.trackingID);
  if (r.faces.length > 0 && withIDs.length === r.faces.length && drawn === r.faces.length) sv.resultsWithFaces++;
}

/** Draws the faces; answers how many. */
export function draw(r, m) {
  let drawn = 0;
  for (const f of r.faces) {
    if (!f.boundingBox) continue;
    const color = colorFor(f.trackingID);
    const b = m.rect(f.boundingBox);
    cornerBox(b, color);
    if (f.contours) {
      ctx.save();
      ctx.strokeStyle = colorFor(f.trackingID, 0.8);
      ctx.lineWidth = 1.4;
      ctx.lineJoin = 'round';
      for (const [name, pts] of Object.entries(f.contours)) {
        if (Array.isArray(pts) && pts.length > 1) polyline(pts, m, CONTOUR_CLOSED.has(name));
      }
      ctx.restore();
    }
    const lm = f.landmarks;
    if (lm) {
      ctx.save();
      for (const [name, p] of Object.entries(lm)) {
        if (!p || name === 'leftEye' || name === 'rightEye') continue;
        const q = m.pt(p);
        ctx.fillStyle = 'rgba(255,255,255,0.85)';
        ctx.beginPath(); ctx.arc(q.x, q.y, 2.2, 0, Math.PI * 2); ctx.fill();
      }
      ctx.restore();
      if (lm.leftEye && lm.rightEye) {
        if (el.glasses.checked) drawGlasses(m.pt(lm.leftEye), m.pt(lm.rightEye), color);
        for (const p of [lm.leftEye, lm.rightEye]) drawPupil(m.pt(p));
      }
    }
    const id = f.trackingID != null ? `#${f.trackingID}` : 'face';
    chip(`${id}  ${pct(f.confidence)}`, b.x, b.y, color);
    drawn++;
  }
  return drawn;
}

export function panel(r) {
  return r.faces.map((f, i) => row(colorFor(f.trackingID), f.trackingID != null ? `Face #${f.trackingID}` : `Face ${i + 1}`, pct(f.confidence),
    [f.roll != null ? `roll ${Math.round(f.roll)}°` : '', f.yaw != null ? `yaw ${Math.round(f.yaw)}°` : '',
      f.landmarks ? `${Object.keys(f.landmarks).length} landmarks` : '', f.contours ? `${Object.keys(f.contours).length} contours` : '']
      .filter(Boolean).join(' · '))).join('');
}

function drawPupil(q) {
  ctx.save();
  ctx.fillStyle = '#00e5ff';
  ctx.shadowColor = '#00e5ff';
  ctx.shadowBlur = 8;
  ctx.beginPath(); ctx.arc(q.x, q.y, 3.2, 0, Math.PI * 2); ctx.fill();
  ctx.shadowBlur = 0;
  ctx.strokeStyle = '#fff';
  ctx.lineWidth = 1;
  ctx.stroke();
  ctx.restore();
}

/** Two lenses and a bridge, centred on the pupils and turned with the line between them. */
function drawGlasses(a, b, color) {
  const dx = b.x - a.x, dy = b.y - a.y;
  const d = Math.hypot(dx, dy);
  if (d < 4) return;
  // Keep the glasses upright in screen space, whichever eye comes first.
  let angle = Math.atan2(dy, dx);
  if (angle > Math.PI / 2) angle -= Math.PI; else if (angle < -Math.PI / 2) angle += Math.PI;
  const cx = (a.x + b.x) / 2, cy = (a.y + b.y) / 2;
  const r = d * 0.42, half = d / 2;
  ctx.save();
  ctx.translate(cx, cy);
  ctx.rotate(angle);
  const lens = (x) => {
    const g = ctx.createRadialGradient(x - r * 0.3, -r * 0.35, r * 0.1, x, 0, r);
    g.addColorStop(0, 'rgba(180, 220, 255, 0.28)');
    g.addColorStop(1, 'rgba(20, 30, 60, 0.45)');
    ctx.fillStyle = g;
    ctx.beginPath(); ctx.arc(x, 0, r, 0, Math.PI * 2); ctx.fill();
    ctx.stroke();
    // a glint
    ctx.save();
    ctx.strokeStyle = 'rgba(255,255,255,0.55)';
    ctx.lineWidth = Math.max(1.2, r * 0.08);
    ctx.beginPath(); ctx.arc(x, 0, r * 0.7, Math.PI * 1.1, Math.PI * 1.45); ctx.stroke();
    ctx.restore();
  };
  ctx.strokeStyle = '#111';
  ctx.lineWidth = Math.max(3, r * 0.2);
  ctx.shadowColor = 'rgba(0,0,0,0.4)';
  ctx.shadowBlur = 4;
  lens(-half); lens(half);
  ctx.shadowBlur = 0;
  // bridge
  ctx.beginPath();
  ctx.moveTo(-half + r, -r * 0.15);
  ctx.quadraticCurveTo(0, -r * 0.6, half - r, -r * 0.15);
  ctx.stroke();
  // temples
  ctx.beginPath();
  ctx.moveTo(-half - r, -r * 0.1); ctx.lineTo(-half - r * 1.45, -r * 0.25);
  ctx.moveTo(half + r, -r * 0.1); ctx.lineTo(half + r * 1.45, -r * 0.25);
  ctx.stroke();
  // an accent rim
  ctx.strokeStyle = color;
  ctx.lineWidth = 1.2;
  ctx.beginPath(); ctx.arc(-half, 0, r + ctx.lineWidth, Math.PI * 1.15, Math.PI * 1.85); ctx.stroke();
  ctx.beginPath(); ctx.arc(half, 0, r + ctx.lineWidth, Math.PI * 1.15, Math.PI * 1.85); ctx.stroke();
  ctx.restore();
}

el.glasses.addEventListener('change', () => {
  if (el.glasses.checked && active && 'landmarks' in page.options && !page.options.landmarks) {
    actions.setOption('landmarks', true);
    renderOptions(actions.setOption);
  }
  actions.updateStageMode();
  actions.redraw();
});
if (params.has('glasses')) el.glasses.checked = params.get('glasses') === '1';
