// embeddings: the vector's size and norm, and the cosine similarity of each frame's embedding to a
// captured reference, with its recent history.
import { actions, el, sv } from '../page.js';
import { chip, row } from '../draw.js';
import { toast } from '../shared.js';

let reference = null, lastEmbedding = null, simHistory = [];

export function enter() {
  reset();
  el.embedCard.hidden = false;
}

export function leave() {
  reset();
  el.embedCard.hidden = true;
}

function reset() {
  reference = null; lastEmbedding = null; simHistory = [];
  renderSimilarity(null);
}

export function hint() { return reference ? '' : 'Press “Capture reference”, then move'; }

export function receive(r) { renderSimilarity(r.embedding); }

export function draw() {
  chip(sv.similarity == null ? 'embedding' : `similarity ${sv.similarity.toFixed(3)}`, 10, 10, '#ff7a59', { above: false });
}

export function panel(r) {
  const v = r.embedding;
  const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  return row('#ff7a59', `${v.length} dimensions`, `‖v‖ ${norm.toFixed(2)}`, `first values: ${v.slice(0, 4).map((x) => x.toFixed(3)).join(', ')} …`);
}

function cosine(a, b) {
  if (!a || !b || a.length !== b.length) return null;
  let dot = 0, na = 0, nb = 0;
  for (let i = 0; i < a.length; i++) { dot += a[i] * b[i]; na += a[i] * a[i]; nb += b[i] * b[i]; }
  return na && nb ? dot / Math.sqrt(na * nb) : null;
}

function renderSimilarity(embedding) {
  if (embedding) lastEmbedding = embedding;
  const sim = reference && lastEmbedding ? cosine(reference, lastEmbedding) : null;
  sv.similarity = sim;
  if (sim != null) { simHistory.push(sim); if (simHistory.length > 120) simHistory.shift(); }
  el.simValue.textContent = sim == null ? '–' : sim.toFixed(3);
  el.simBar.style.width = `${sim == null ? 0 : Math.max(0, Math.min(1, sim)) * 100}%`;
  el.simNote.textContent = reference ? 'cosine similarity to the reference' : 'Capture a reference, then move: cosine similarity of each frame\'s embedding to it.';
  drawSparkline();
}

function drawSparkline() {
  const c = el.simHistory, g = c.getContext('2d');
  const dpr = window.devicePixelRatio || 1;
  const w = c.clientWidth || 300, h = c.clientHeight || 48;
  if (c.width !== Math.round(w * dpr)) { c.width = Math.round(w * dpr); c.height = Math.round(h * dpr); }
  g.setTransform(dpr, 0, 0, dpr, 0, 0);
  g.clearRect(0, 0, w, h);
  g.strokeStyle = '#263142';
  g.beginPath(); g.moveTo(0, h - 0.5); g.lineTo(w, h - 0.5); g.stroke();
  if (simHistory.length < 2) return;
  const n = 120;
  g.strokeStyle = '#ff7a59';
  g.lineWidth = 2;
  g.beginPath();
  simHistory.forEach((v, i) => {
    const x = (w * (n - simHistory.length + i)) / (n - 1);
    const y = h - 3 - Math.max(0, Math.min(1, v)) * (h - 6);
    if (i) g.lineTo(x, y); else g.moveTo(x, y);
  });
  g.stroke();
}

el.captureRef.addEventListener('click', () => {
  if (!lastEmbedding) { toast('No embedding yet: wait for the first result'); return; }
  reference = lastEmbedding.slice();
  simHistory = [];
  renderSimilarity(null);
  actions.updateStageMode();
  actions.redraw();
});
