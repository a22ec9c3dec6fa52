// The options form, made from the task's default options (GET /v1/tasks): a switch for each boolean,
// a number field for each number, a menu or a text field for each string. The task's `hiddenOptions`
// and options without a scalar default (lists) stay at the server's defaults.
import { token } from './shared.js';
import { el, page, params } from './page.js';
import { escapeHTML } from './draw.js';

const OPTION_LABELS = {
  minFaceSize: 'Min face', l2Normalize: 'L2 normalize', max: 'Max results', lang: 'Language',
  quadratureTolerance: 'Angle tolerance', minConfidence: 'Min confidence',
};
const OPTION_CHOICES = { level: ['accurate', 'fast'] };

/** "minDetectionConfidence" → "Min detection confidence", unless the renderer or OPTION_LABELS names it. */
function optionLabel(key) {
  return page.renderer.optionLabels?.[key] || OPTION_LABELS[key]
    || key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/^./, (c) => c.toUpperCase()).replace(/ ([A-Z])(?=[a-z])/g, (_, c) => ` ${c.toLowerCase()}`);
}

const isHidden = (key) => (page.info.hiddenOptions || []).includes(key);

/** Options sent with a tracker's seed boxes (a text message), not in the URL. */
export const isSeedOption = (key) => (page.renderer.seedOptions || []).includes(key);

function parseValue(raw, like) {
  if (typeof like === 'boolean') return /^(1|true|yes|on)$/i.test(raw);
  if (typeof like === 'number') { const n = Number(raw); return Number.isFinite(n) ? n : like; }
  return raw;
}

/** The current task's options: the server's defaults, the renderer's page defaults, then (on the
 * first task) those the page's address names. */
export function resetOptions(fromQuery) {
  page.defaults = { ...(page.info.options || {}) };
  page.options = { ...page.defaults, ...(page.renderer.pageDefaults || {}) };
  if (fromQuery) {
    for (const [key, raw] of params) {
      if (key in page.options && !isHidden(key)) page.options[key] = parseValue(raw, page.options[key]);
    }
  }
}

/** Fills the form; `onChange(key, value)` hears each change. */
export function renderOptions(onChange) {
  el.options.innerHTML = '';
  for (const [key, value] of Object.entries(page.options)) {
    if (isHidden(key)) continue;
    const label = optionLabel(key);
    const row = document.createElement('div');
    row.className = typeof value === 'boolean' ? 'opt' : 'opt field-opt';
    let input;
    if (typeof value === 'boolean') {
      row.innerHTML = `<label class="switch"><input type="checkbox"><span class="track"></span><span>${escapeHTML(label)}</span></label>`;
      input = row.querySelector('input');
      input.checked = value;
      input.addEventListener('change', () => onChange(key, input.checked));
    } else if (OPTION_CHOICES[key] && OPTION_CHOICES[key].includes(value)) {
      row.innerHTML = `<span>${escapeHTML(label)}</span><select>${OPTION_CHOICES[key].map((c) => `<option value="${c}">${c}</option>`).join('')}</select>`;
      input = row.querySelector('select');
      input.value = value;
      input.addEventListener('change', () => onChange(key, input.value));
    } else if (typeof value === 'number') {
      row.innerHTML = `<span>${escapeHTML(label)}</span><input type="number">`;
      input = row.querySelector('input');
      input.value = value;
      input.step = Number.isInteger(value) && value >= 1 ? '1' : 'any';
      input.addEventListener('change', () => { const n = Number(input.value); if (Number.isFinite(n)) onChange(key, n); });
    } else if (typeof value === 'string') {
      row.className = 'opt field-opt wide';
      row.innerHTML = `<span>${escapeHTML(label)}</span><input type="text">`;
      input = row.querySelector('input');
      input.value = value;
      input.addEventListener('change', () => onChange(key, input.value));
    } else {
      continue;
    }
    input.dataset.option = key;
    el.options.appendChild(row);
  }
}

/** The options that differ from the server's defaults (and the token), as a URL query. */
export function optionQuery() {
  const q = new URLSearchParams();
  for (const [key, value] of Object.entries(page.options)) {
    if (isHidden(key) || isSeedOption(key) || value === null || typeof value === 'object') continue;
    if (page.defaults[key] === value) continue;   // the server's default: no need to say it
    q.set(key, String(value));
  }
  if (token) q.set('token', token);
  return q.toString();
}
